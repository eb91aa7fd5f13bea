#include "parquet/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>
#include <memory>

namespace tarn::parquet {
namespace {

constexpr int kGzipDefaultLevel = 6;
constexpr int kZstdDefaultLevel = 3;
constexpr int kBrotliDefaultQuality = 8;  // 11 (the library default) is far too slow for pages

Status CodecError(CompressionCodec codec, std::string_view what, std::string_view input,
                  int64_t uncompressed_size) {
  return Status::Corruption(CodecName(codec), " decompression failed: ", what, " (compressed ",
                            input.size(), " bytes, expected ", uncompressed_size,
                            " uncompressed bytes)");
}

Status SizeMismatch(CompressionCodec codec, int64_t produced, std::string_view input,
                    int64_t uncompressed_size) {
  return Status::Corruption(CodecName(codec), " decompression produced ", produced,
                            " bytes, expected ", uncompressed_size, " (compressed ", input.size(),
                            " bytes)");
}

uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

void AppendBigEndian32(uint32_t value, std::string* out) {
  const char bytes[4] = {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
                         static_cast<char>(value >> 8), static_cast<char>(value)};
  out->append(bytes, 4);
}

// ---- decompression --------------------------------------------------------------------------

Status DecompressSnappy(std::string_view input, uint8_t* out, int64_t size) {
  size_t declared = 0;
  if (!snappy::GetUncompressedLength(input.data(), input.size(), &declared)) {
    return CodecError(CompressionCodec::kSnappy, "invalid length preamble", input, size);
  }
  if (static_cast<int64_t>(declared) != size) {
    return SizeMismatch(CompressionCodec::kSnappy, static_cast<int64_t>(declared), input, size);
  }
  if (!snappy::RawUncompress(input.data(), input.size(), reinterpret_cast<char*>(out))) {
    return CodecError(CompressionCodec::kSnappy, "corrupt input", input, size);
  }
  return Status::OK();
}

// GZIP pages may hold several concatenated members (each with its own header and trailer);
// a zlib stream is accepted too (windowBits + 32 detects either).
Status DecompressGzip(std::string_view input, uint8_t* out, int64_t size) {
  if (input.size() > UINT_MAX || size > UINT_MAX) {
    return CodecError(CompressionCodec::kGzip, "page too large for zlib", input, size);
  }
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 32) != Z_OK) {
    return Status::ResourceExhausted("GZIP: inflateInit2 failed");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, inflateEnd);
  uint8_t empty_output = 0;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = size > 0 ? out : &empty_output;
  stream.avail_out = static_cast<uInt>(size);
  while (true) {
    const int ret = inflate(&stream, Z_FINISH);
    if (ret == Z_STREAM_END) {
      if (stream.avail_in == 0) break;
      // Another member follows.
      if (inflateReset(&stream) != Z_OK) {
        return CodecError(CompressionCodec::kGzip, "inflateReset failed", input, size);
      }
      continue;
    }
    if (ret == Z_OK) continue;  // progress was made
    if (ret == Z_BUF_ERROR && stream.avail_out == 0) {
      return CodecError(CompressionCodec::kGzip, "output larger than expected", input, size);
    }
    return CodecError(CompressionCodec::kGzip,
                      stream.msg != nullptr ? stream.msg : "truncated input", input, size);
  }
  const int64_t produced = size - stream.avail_out;
  if (produced != size) return SizeMismatch(CompressionCodec::kGzip, produced, input, size);
  return Status::OK();
}

Status DecompressZstd(std::string_view input, uint8_t* out, int64_t size) {
  uint8_t empty_output = 0;
  // A decompression context per thread: ZSTD_decompress would create and free one per page.
  struct ContextDeleter {
    void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
  };
  thread_local std::unique_ptr<ZSTD_DCtx, ContextDeleter> context(ZSTD_createDCtx());
  if (context == nullptr) return Status::ResourceExhausted("ZSTD: cannot create a context");
  const size_t ret = ZSTD_decompressDCtx(context.get(), size > 0 ? out : &empty_output,
                                         static_cast<size_t>(size), input.data(), input.size());
  if (ZSTD_isError(ret)) {
    return CodecError(CompressionCodec::kZstd, ZSTD_getErrorName(ret), input, size);
  }
  if (static_cast<int64_t>(ret) != size) {
    return SizeMismatch(CompressionCodec::kZstd, static_cast<int64_t>(ret), input, size);
  }
  return Status::OK();
}

// One raw LZ4 block that must fill exactly `size` bytes; -1 on error.
int64_t DecompressLz4Block(std::string_view input, uint8_t* out, int64_t size) {
  if (input.size() > INT_MAX || size > INT_MAX) return -1;
  char empty_output = 0;
  return LZ4_decompress_safe(input.data(), size > 0 ? reinterpret_cast<char*>(out) : &empty_output,
                             static_cast<int>(input.size()), static_cast<int>(size));
}

Status DecompressLz4Raw(std::string_view input, uint8_t* out, int64_t size) {
  const int64_t produced = DecompressLz4Block(input, out, size);
  if (produced < 0) return CodecError(CompressionCodec::kLz4Raw, "corrupt block", input, size);
  if (produced != size) return SizeMismatch(CompressionCodec::kLz4Raw, produced, input, size);
  return Status::OK();
}

// Hadoop's framing: blocks of [u32 BE uncompressed length] followed by chunks of
// [u32 BE compressed length][raw LZ4 block] until that length is produced.
bool TryLz4Hadoop(std::string_view input, uint8_t* out, int64_t size) {
  const auto* data = reinterpret_cast<const uint8_t*>(input.data());
  const int64_t input_size = static_cast<int64_t>(input.size());
  int64_t pos = 0;
  int64_t produced = 0;
  while (pos < input_size) {
    if (input_size - pos < 8) return false;
    const int64_t block_size = LoadBigEndian32(data + pos);
    pos += 4;
    if (block_size > size - produced) return false;
    int64_t block_produced = 0;
    do {
      if (input_size - pos < 4) return false;
      const int64_t chunk_size = LoadBigEndian32(data + pos);
      pos += 4;
      if (chunk_size > input_size - pos) return false;
      if (chunk_size > 0) {
        const int64_t got = DecompressLz4Block(input.substr(pos, chunk_size), out + produced,
                                               block_size - block_produced);
        if (got < 0) return false;
        produced += got;
        block_produced += got;
      }
      pos += chunk_size;
    } while (block_produced < block_size);
  }
  return produced == size;
}

bool TryLz4Frame(std::string_view input, uint8_t* out, int64_t size) {
  if (input.size() < 4 || std::memcmp(input.data(), "\x04\x22\x4d\x18", 4) != 0) return false;
  LZ4F_dctx* context = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&context, LZ4F_VERSION))) return false;
  std::unique_ptr<LZ4F_dctx, LZ4F_errorCode_t (*)(LZ4F_dctx*)> guard(context,
                                                                     LZ4F_freeDecompressionContext);
  size_t in_pos = 0;
  int64_t out_pos = 0;
  uint8_t scratch = 0;
  while (in_pos < input.size()) {
    size_t out_capacity = static_cast<size_t>(size - out_pos);
    size_t in_size = input.size() - in_pos;
    // A full output buffer gets a one-byte scratch slot so that excess output is detected.
    uint8_t* target = out_capacity > 0 ? out + out_pos : &scratch;
    if (out_capacity == 0) out_capacity = 1;
    const size_t hint =
        LZ4F_decompress(context, target, &out_capacity, input.data() + in_pos, &in_size, nullptr);
    if (LZ4F_isError(hint)) return false;
    if (target == &scratch && out_capacity > 0) return false;
    if (target != &scratch) out_pos += static_cast<int64_t>(out_capacity);
    in_pos += in_size;
    if (hint == 0) return in_pos == input.size() && out_pos == size;
    if (in_size == 0 && out_capacity == 0) return false;  // no progress
  }
  return false;  // the frame did not end
}

Status DecompressLz4Legacy(std::string_view input, uint8_t* out, int64_t size) {
  if (TryLz4Hadoop(input, out, size)) return Status::OK();
  if (DecompressLz4Block(input, out, size) == size) return Status::OK();
  if (TryLz4Frame(input, out, size)) return Status::OK();
  return CodecError(CompressionCodec::kLz4,
                    "not a Hadoop-framed, raw-block or framed LZ4 stream of the expected size",
                    input, size);
}

Status DecompressBrotli(std::string_view input, uint8_t* out, int64_t size) {
  uint8_t empty_output = 0;
  size_t decoded_size = static_cast<size_t>(size);
  const BrotliDecoderResult result =
      BrotliDecoderDecompress(input.size(), reinterpret_cast<const uint8_t*>(input.data()),
                              &decoded_size, size > 0 ? out : &empty_output);
  if (result != BROTLI_DECODER_RESULT_SUCCESS) {
    return CodecError(CompressionCodec::kBrotli, "corrupt input or output larger than expected",
                      input, size);
  }
  if (static_cast<int64_t>(decoded_size) != size) {
    return SizeMismatch(CompressionCodec::kBrotli, static_cast<int64_t>(decoded_size), input, size);
  }
  return Status::OK();
}

// ---- compression ----------------------------------------------------------------------------

// Grows `out` by `bound` bytes, lets `compress(dst)` write and return the real length, then
// trims. `compress` returns a negative length on failure.
template <typename Compress>
Status AppendCompressed(CompressionCodec codec, size_t bound, std::string* out,
                        Compress&& compress) {
  const size_t old_size = out->size();
  out->resize(old_size + bound);
  const int64_t written = compress(reinterpret_cast<uint8_t*>(out->data() + old_size));
  if (written < 0) {
    out->resize(old_size);
    return Status::Internal(CodecName(codec), " compression failed");
  }
  out->resize(old_size + static_cast<size_t>(written));
  return Status::OK();
}

Status CompressGzip(std::string_view input, int level, std::string* out) {
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::ResourceExhausted("GZIP: deflateInit2 failed");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, deflateEnd);
  const size_t bound = deflateBound(&stream, static_cast<uLong>(input.size()));
  return AppendCompressed(CompressionCodec::kGzip, bound, out, [&](uint8_t* dst) -> int64_t {
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    stream.avail_in = static_cast<uInt>(input.size());
    stream.next_out = dst;
    stream.avail_out = static_cast<uInt>(bound);
    if (deflate(&stream, Z_FINISH) != Z_STREAM_END) return -1;
    return static_cast<int64_t>(bound - stream.avail_out);
  });
}

Status CompressLz4Block(CompressionCodec codec, std::string_view input, std::string* out) {
  const int bound = LZ4_compressBound(static_cast<int>(input.size()));
  return AppendCompressed(codec, static_cast<size_t>(bound), out, [&](uint8_t* dst) -> int64_t {
    const int written = LZ4_compress_default(input.data(), reinterpret_cast<char*>(dst),
                                             static_cast<int>(input.size()), bound);
    return written > 0 ? written : -1;
  });
}

// The sum of the content sizes the frames of `input` declare; -1 when a frame declares none
// (or is malformed: decompression reports that).
int64_t ZstdContentSize(std::string_view input) {
  int64_t total = 0;
  while (!input.empty()) {
    const unsigned long long content = ZSTD_getFrameContentSize(input.data(), input.size());
    const size_t frame = ZSTD_findFrameCompressedSize(input.data(), input.size());
    if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR ||
        ZSTD_isError(frame) || frame == 0 || content > (uint64_t{1} << 40)) {
      return -1;
    }
    total += static_cast<int64_t>(content);
    input.remove_prefix(frame);
  }
  return total;
}

}  // namespace

Status CheckDecompressedSize(CompressionCodec codec, std::string_view input,
                             int64_t uncompressed_size) {
  const int64_t compressed = static_cast<int64_t>(input.size());
  int64_t most = -1;  // the most `input` can decompress to; -1 = no bound known
  switch (codec) {
    case CompressionCodec::kUncompressed:
      most = compressed;
      break;
    case CompressionCodec::kSnappy: {
      size_t declared = 0;
      if (snappy::GetUncompressedLength(input.data(), input.size(), &declared)) {
        most = static_cast<int64_t>(declared);
      }
      break;
    }
    case CompressionCodec::kGzip:
      // Deflate codes at most 258 bytes in 2 bits: 1032 to 1, plus headers.
      most = compressed * 1032 + 1024;
      break;
    case CompressionCodec::kLz4Raw:
    case CompressionCodec::kLz4:
      // A match length grows by 255 per byte: about 255 to 1, plus frame and block headers.
      most = compressed * 256 + 1024;
      break;
    case CompressionCodec::kZstd:
      most = ZstdContentSize(input);
      break;
    case CompressionCodec::kBrotli:  // brotli's ratio has no useful bound
    case CompressionCodec::kLzo:
      break;
  }
  if (most >= 0 && uncompressed_size > most) {
    return Status::Corruption(CodecName(codec), " page of ", compressed,
                              " bytes declares an uncompressed size of ", uncompressed_size,
                              " bytes, more than the codec can produce from it (at most ", most,
                              ")");
  }
  return Status::OK();
}

bool HasNoRatioBound(CompressionCodec codec) { return codec == CompressionCodec::kBrotli; }

Status DecompressGrowing(CompressionCodec codec, std::string_view input, int64_t uncompressed_size,
                         int64_t initial_bytes, std::shared_ptr<Buffer>* out) {
  if (codec != CompressionCodec::kBrotli) {
    return Status::Internal("DecompressGrowing: ", CodecName(codec), " has a ratio bound");
  }
  if (uncompressed_size < 0) {
    return Status::Corruption(CodecName(codec), ": negative uncompressed size ", uncompressed_size);
  }
  struct StateDeleter {
    void operator()(BrotliDecoderState* state) const { BrotliDecoderDestroyInstance(state); }
  };
  std::unique_ptr<BrotliDecoderState, StateDeleter> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr));
  if (state == nullptr) return Status::ResourceExhausted("BROTLI: cannot create a decoder");
  const int64_t start = (*out)->size();
  const int64_t end = start + uncompressed_size;
  int64_t filled = start;  // bytes of the buffer holding data
  // Grows the buffer to `room` bytes, copying what it holds (never zero-filling).
  auto grow = [&](int64_t room) {
    auto bigger = Buffer::AllocateUninitialized(room);
    if (filled > 0) std::memcpy(bigger->mutable_data(), (*out)->data(), static_cast<size_t>(filled));
    *out = std::move(bigger);
  };
  grow(std::min(end, start + std::max<int64_t>(initial_bytes, 1)));
  size_t available_in = input.size();
  const uint8_t* next_in = reinterpret_cast<const uint8_t*>(input.data());
  while (true) {
    const int64_t room = (*out)->size();
    size_t available_out = static_cast<size_t>(room - filled);
    uint8_t* next_out = (*out)->mutable_data() + filled;
    const BrotliDecoderResult result = BrotliDecoderDecompressStream(
        state.get(), &available_in, &next_in, &available_out, &next_out, nullptr);
    filled = room - static_cast<int64_t>(available_out);
    if (result == BROTLI_DECODER_RESULT_SUCCESS) break;
    if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT && room < end) {
      grow(std::min(end, start + 2 * (room - start)));
      continue;
    }
    if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
      return CodecError(codec, "output larger than expected", input, uncompressed_size);
    }
    return CodecError(codec,
                      result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT ? "truncated input"
                                                                       : "corrupt input",
                      input, uncompressed_size);
  }
  if (filled != end) return SizeMismatch(codec, filled - start, input, uncompressed_size);
  return Status::OK();
}

Status Decompress(CompressionCodec codec, std::string_view input, uint8_t* out,
                  int64_t uncompressed_size) {
  if (uncompressed_size < 0) {
    return Status::Corruption(CodecName(codec), ": negative uncompressed size ", uncompressed_size);
  }
  // Writers store an empty page as no bytes at all, whatever the codec.
  if (input.empty() && uncompressed_size == 0 && codec != CompressionCodec::kLzo) {
    return Status::OK();
  }
  switch (codec) {
    case CompressionCodec::kUncompressed:
      if (static_cast<int64_t>(input.size()) != uncompressed_size) {
        return SizeMismatch(codec, static_cast<int64_t>(input.size()), input, uncompressed_size);
      }
      if (uncompressed_size > 0) std::memcpy(out, input.data(), input.size());
      return Status::OK();
    case CompressionCodec::kSnappy:
      return DecompressSnappy(input, out, uncompressed_size);
    case CompressionCodec::kGzip:
      return DecompressGzip(input, out, uncompressed_size);
    case CompressionCodec::kZstd:
      return DecompressZstd(input, out, uncompressed_size);
    case CompressionCodec::kLz4Raw:
      return DecompressLz4Raw(input, out, uncompressed_size);
    case CompressionCodec::kLz4:
      return DecompressLz4Legacy(input, out, uncompressed_size);
    case CompressionCodec::kBrotli:
      return DecompressBrotli(input, out, uncompressed_size);
    case CompressionCodec::kLzo:
      break;
  }
  return Status::NotSupported("compression codec ", CodecName(codec), " (",
                              static_cast<int32_t>(codec), ") is not supported");
}

Status Compress(CompressionCodec codec, std::string_view input, int level, std::string* out) {
  if (input.size() > INT_MAX) {
    return Status::InvalidArgument("cannot compress a page of ", input.size(),
                                   " bytes (limit 2 GiB)");
  }
  switch (codec) {
    case CompressionCodec::kUncompressed:
      out->append(input);
      return Status::OK();
    case CompressionCodec::kSnappy:
      return AppendCompressed(
          codec, snappy::MaxCompressedLength(input.size()), out, [&](uint8_t* dst) -> int64_t {
            size_t written = 0;
            snappy::RawCompress(input.data(), input.size(), reinterpret_cast<char*>(dst), &written);
            return static_cast<int64_t>(written);
          });
    case CompressionCodec::kGzip:
      if (level < 0 || level > 9) {
        return Status::InvalidArgument("GZIP level ", level, " is outside 1..9");
      }
      return CompressGzip(input, level == 0 ? kGzipDefaultLevel : level, out);
    case CompressionCodec::kZstd: {
      if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
        return Status::InvalidArgument("ZSTD level ", level, " is outside ", ZSTD_minCLevel(), "..",
                                       ZSTD_maxCLevel());
      }
      const int zstd_level = level == 0 ? kZstdDefaultLevel : level;
      return AppendCompressed(
          codec, ZSTD_compressBound(input.size()), out, [&](uint8_t* dst) -> int64_t {
            const size_t written = ZSTD_compress(dst, ZSTD_compressBound(input.size()),
                                                 input.data(), input.size(), zstd_level);
            return ZSTD_isError(written) ? -1 : static_cast<int64_t>(written);
          });
    }
    case CompressionCodec::kLz4Raw:
      return CompressLz4Block(codec, input, out);
    case CompressionCodec::kLz4: {
      // Hadoop framing, one block: what every reader of the legacy codec understands.
      const size_t header_at = out->size();
      AppendBigEndian32(static_cast<uint32_t>(input.size()), out);
      AppendBigEndian32(0, out);
      const size_t block_at = out->size();
      if (!input.empty()) TARN_RETURN_NOT_OK(CompressLz4Block(codec, input, out));
      const auto block_size = static_cast<uint32_t>(out->size() - block_at);
      std::string length;
      AppendBigEndian32(block_size, &length);
      out->replace(header_at + 4, 4, length);
      return Status::OK();
    }
    case CompressionCodec::kBrotli: {
      if (level < 0 || level > BROTLI_MAX_QUALITY) {
        return Status::InvalidArgument("BROTLI level ", level, " is outside 0..",
                                       BROTLI_MAX_QUALITY);
      }
      const int quality = level == 0 ? kBrotliDefaultQuality : level;
      const size_t bound = std::max<size_t>(BrotliEncoderMaxCompressedSize(input.size()), 64);
      return AppendCompressed(codec, bound, out, [&](uint8_t* dst) -> int64_t {
        size_t written = bound;
        if (!BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                                   input.size(), reinterpret_cast<const uint8_t*>(input.data()),
                                   &written, dst)) {
          return -1;
        }
        return static_cast<int64_t>(written);
      });
    }
    case CompressionCodec::kLzo:
      break;
  }
  return Status::NotSupported("compression codec ", CodecName(codec), " (",
                              static_cast<int32_t>(codec), ") is not supported for writing");
}

Result<CompressionCodec> ParseCodec(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "uncompressed" || lower == "none") return CompressionCodec::kUncompressed;
  if (lower == "snappy") return CompressionCodec::kSnappy;
  if (lower == "gzip") return CompressionCodec::kGzip;
  if (lower == "zstd") return CompressionCodec::kZstd;
  if (lower == "brotli") return CompressionCodec::kBrotli;
  if (lower == "lz4" || lower == "lz4_raw") return CompressionCodec::kLz4Raw;
  if (lower == "lzo") return Status::NotSupported("compression codec LZO is not supported");
  return Status::InvalidArgument("unknown compression codec '", name,
                                 "' (expected uncompressed, snappy, gzip, zstd, brotli, lz4, "
                                 "lz4_raw)");
}

}  // namespace tarn::parquet
