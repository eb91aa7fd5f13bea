// Page compression codecs, on Debian's libraries: snappy, zlib (GZIP, concatenated members
// included), zstd, lz4 (LZ4_RAW block; Hadoop-framed LZ4 for the legacy LZ4 codec), brotli.
//
// Thread-safety: the functions are stateless and safe to call concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parquet/metadata.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::parquet {

// Decompresses `input` into exactly `uncompressed_size` bytes at `out`. A codec error or a
// size mismatch is a Corruption naming the codec and both sizes. LZO is NotSupported.
Status Decompress(CompressionCodec codec, std::string_view input, uint8_t* out,
                  int64_t uncompressed_size);

// Checks, before anything is allocated, that `input` can decompress to `uncompressed_size`
// bytes at all: a snappy stream's own length, zstd's frame bound, the most deflate and LZ4 can
// expand; brotli has no useful bound. Corruption when the declared size is beyond it.
Status CheckDecompressedSize(CompressionCodec codec, std::string_view input,
                             int64_t uncompressed_size);

// Whether `codec` has no useful bound on how much a few bytes decompress to (brotli), so a
// large declared size is to be met by DecompressGrowing rather than allocated up front.
bool HasNoRatioBound(CompressionCodec codec);

// Decompresses `input` (a codec with HasNoRatioBound) to `uncompressed_size` bytes placed after
// the bytes `*out` holds, replacing `*out` by larger buffers as output arrives (room for
// `initial_bytes` first, then doubling; copied, never zero-filled), so memory follows what the
// stream really holds, never its claim. On success `*out` is exactly its old bytes followed by
// the output. The same errors as Decompress; after an error `*out`'s contents are unspecified.
Status DecompressGrowing(CompressionCodec codec, std::string_view input, int64_t uncompressed_size,
                         int64_t initial_bytes, std::shared_ptr<Buffer>* out);

// Compresses `input`, appending to `out`. `level` is the codec's level (0 = its default):
// ZSTD 1..22, GZIP 1..9, BROTLI 0..11; ignored by the others.
Status Compress(CompressionCodec codec, std::string_view input, int level, std::string* out);

// Parses "snappy", "zstd", "gzip", "brotli", "lz4" (= LZ4_RAW, as DuckLake means it),
// "lz4_raw", "uncompressed"/"none" (case-insensitive).
Result<CompressionCodec> ParseCodec(std::string_view name);

}  // namespace tarn::parquet
