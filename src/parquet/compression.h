// Page compression codecs, on Debian's libraries: snappy, zlib (GZIP, concatenated members
// included), zstd, lz4 (LZ4_RAW block; Hadoop-framed LZ4 for the legacy LZ4 codec), brotli.
//
// Thread-safety: the functions are stateless and safe to call concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parquet/metadata.h"
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

// Compresses `input`, appending to `out`. `level` is the codec's level (0 = its default):
// ZSTD 1..22, GZIP 1..9, BROTLI 0..11; ignored by the others.
Status Compress(CompressionCodec codec, std::string_view input, int level, std::string* out);

// Parses "snappy", "zstd", "gzip", "brotli", "lz4" (= LZ4_RAW, as DuckLake means it),
// "lz4_raw", "uncompressed"/"none" (case-insensitive).
Result<CompressionCodec> ParseCodec(std::string_view name);

}  // namespace tarn::parquet
