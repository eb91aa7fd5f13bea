// Page compression: round trips for every codec and level, size and corruption errors, the
// legacy LZ4 framings, concatenated gzip members, and every compressed page of the
// parquet-testing fixtures.

#include "parquet/compression.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4frame.h>
#include <zstd.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "parquet/footer_fixtures.h"

namespace tarn::parquet {
namespace {

using testing_support::ListFiles;
using testing_support::LocateFooter;
using testing_support::ParquetTestingPath;
using testing_support::ReadWholeFile;

constexpr CompressionCodec kWritableCodecs[] = {
    CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kGzip,
    CompressionCodec::kBrotli,       CompressionCodec::kLz4,    CompressionCodec::kZstd,
    CompressionCodec::kLz4Raw};

std::vector<int> LevelsOf(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kGzip:
      return {0, 1, 5, 9};
    case CompressionCodec::kZstd:
      return {0, -5, 1, 3, 9, 19, 22};
    case CompressionCodec::kBrotli:
      return {0, 1, 5, 9, 11};
    default:
      return {0};
  }
}

std::map<std::string, std::string> Inputs() {
  std::mt19937_64 rng(3);
  std::string random(100000, '\0');
  for (char& c : random) c = static_cast<char>(rng());
  std::string compressible;
  for (int row = 0; compressible.size() < 300000; ++row) {
    compressible += "row " + std::to_string(row % 100) + " value;";
  }
  return {{"empty", ""},
          {"one byte", "x"},
          {"random", random},
          {"compressible", compressible},
          {"zeros", std::string(65536, '\0')}};
}

std::string MustCompress(CompressionCodec codec, std::string_view input, int level = 0) {
  std::string out;
  Status status = Compress(codec, input, level, &out);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return out;
}

Result<std::string> Decompressed(CompressionCodec codec, std::string_view compressed,
                                 int64_t size) {
  std::string out(static_cast<size_t>(size), '\xAA');
  Status status = Decompress(codec, compressed, reinterpret_cast<uint8_t*>(out.data()), size);
  if (!status.ok()) return status;
  return out;
}

TEST(CompressionTest, EveryCodecAndLevelRoundTrips) {
  for (CompressionCodec codec : kWritableCodecs) {
    for (int level : LevelsOf(codec)) {
      for (const auto& [name, input] : Inputs()) {
        SCOPED_TRACE(std::string(CodecName(codec)) + " level " + std::to_string(level) + " " +
                     name);
        std::string out = "keep";  // Compress appends
        ASSERT_TRUE(Compress(codec, input, level, &out).ok());
        ASSERT_EQ(out.substr(0, 4), "keep");
        const std::string_view compressed = std::string_view(out).substr(4);
        if (name == "compressible" && codec != CompressionCodec::kUncompressed) {
          EXPECT_LT(compressed.size(), input.size() / 4);
        }
        Result<std::string> back =
            Decompressed(codec, compressed, static_cast<int64_t>(input.size()));
        ASSERT_TRUE(back.ok()) << back.status().ToString();
        ASSERT_TRUE(*back == input);
      }
    }
  }
}

TEST(CompressionTest, WrongDeclaredSizeIsCorruption) {
  const std::string input = Inputs()["compressible"];
  for (CompressionCodec codec : kWritableCodecs) {
    const std::string compressed = MustCompress(codec, input);
    for (int64_t delta : {-1, 1, -1000, 5000}) {
      Result<std::string> back =
          Decompressed(codec, compressed, static_cast<int64_t>(input.size()) + delta);
      ASSERT_FALSE(back.ok()) << CodecName(codec) << " delta " << delta;
      EXPECT_TRUE(back.status().IsCorruption()) << back.status().ToString();
      EXPECT_NE(back.status().message().find(CodecName(codec)), std::string::npos)
          << back.status().ToString();
    }
  }
  Status status = Decompress(CompressionCodec::kSnappy, "x", nullptr, -1);
  EXPECT_TRUE(status.IsCorruption());
  EXPECT_EQ(status.ToString(), "Corruption: SNAPPY: negative uncompressed size -1");
}

// A page declaring more than its codec could produce from its bytes is refused before a
// buffer of the declared size is allocated; a true size always passes.
TEST(CompressionTest, DeclaredSizeBeyondTheCodecIsRefusedBeforeAllocating) {
  const std::string input(1 << 20, 'a');
  for (CompressionCodec codec : kWritableCodecs) {
    SCOPED_TRACE(CodecName(codec));
    const std::string compressed = MustCompress(codec, input);
    const int64_t size = static_cast<int64_t>(input.size());
    EXPECT_TRUE(CheckDecompressedSize(codec, compressed, size).ok());
    Status status = CheckDecompressedSize(codec, compressed, int64_t{2000} << 20);
    if (codec == CompressionCodec::kBrotli) {
      EXPECT_TRUE(status.ok()) << "brotli has no bound: " << status.ToString();
      continue;
    }
    ASSERT_TRUE(status.IsCorruption()) << status.ToString();
    EXPECT_NE(status.message().find("declares an uncompressed size of 2097152000 bytes"),
              std::string::npos)
        << status.ToString();
  }
  // zstd frames without a content size give no bound.
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ASSERT_EQ(ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 0), 0u);
  std::string streamed(ZSTD_compressBound(input.size()), '\0');
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  ZSTD_outBuffer out{streamed.data(), streamed.size(), 0};
  ASSERT_EQ(ZSTD_compressStream2(context, &out, &in, ZSTD_e_end), 0u);
  ZSTD_freeCCtx(context);
  streamed.resize(out.pos);
  EXPECT_TRUE(CheckDecompressedSize(CompressionCodec::kZstd, streamed, int64_t{2000} << 20).ok());
  // Two frames with content sizes: their sum is the bound.
  const std::string two = MustCompress(CompressionCodec::kZstd, "head") +
                          MustCompress(CompressionCodec::kZstd, "tail");
  EXPECT_TRUE(CheckDecompressedSize(CompressionCodec::kZstd, two, 8).ok());
  EXPECT_TRUE(CheckDecompressedSize(CompressionCodec::kZstd, two, 9).IsCorruption());
}

// Brotli has no ratio bound: a large page grows its buffer with the output, and a page
// claiming far more than it holds costs only what it holds.
TEST(CompressionTest, GrowingBrotliFollowsTheOutputNotTheClaim) {
  std::string input(3 << 20, 'b');
  for (size_t i = 0; i < input.size(); i += 4099) input[i] = static_cast<char>('a' + i % 26);
  const std::string compressed = MustCompress(CompressionCodec::kBrotli, input);
  ASSERT_TRUE(HasNoRatioBound(CompressionCodec::kBrotli));
  ASSERT_FALSE(HasNoRatioBound(CompressionCodec::kZstd));
  // Grown from 64 KiB after a 5-byte prefix the caller keeps.
  auto out = Buffer::AllocateUninitialized(5);
  std::memcpy(out->mutable_data(), "head:", 5);
  ASSERT_TRUE(DecompressGrowing(CompressionCodec::kBrotli, compressed,
                                static_cast<int64_t>(input.size()), 64 << 10, &out)
                  .ok());
  ASSERT_EQ(out->size(), static_cast<int64_t>(input.size()) + 5);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(out->data()), 5), "head:");
  EXPECT_TRUE(std::string_view(reinterpret_cast<const char*>(out->data()) + 5, input.size()) ==
              input);
  // A claim of 2000 MiB: refused after the real 3 MiB, the buffer no larger than twice that.
  auto claimed = Buffer::AllocateUninitialized(0);
  Status status = DecompressGrowing(CompressionCodec::kBrotli, compressed, int64_t{2000} << 20,
                                    64 << 10, &claimed);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_NE(status.message().find("produced 3145728 bytes, expected 2097152000"),
            std::string::npos)
      << status.ToString();
  EXPECT_LE(claimed->size(), int64_t{4} << 20);
  // Too small a claim, a truncated stream and garbage are Corruption too.
  for (auto [bytes, size] : {std::pair<std::string, int64_t>{compressed, 1 << 20},
                             {compressed.substr(0, compressed.size() / 2), 3 << 20},
                             {std::string(100, '\xff'), 3 << 20}}) {
    auto buffer = Buffer::AllocateUninitialized(0);
    Status failed =
        DecompressGrowing(CompressionCodec::kBrotli, bytes, size, 64 << 10, &buffer);
    EXPECT_TRUE(failed.IsCorruption()) << failed.ToString();
    EXPECT_NE(failed.message().find("BROTLI"), std::string::npos) << failed.ToString();
  }
  EXPECT_FALSE(DecompressGrowing(CompressionCodec::kZstd, compressed, 10, 10, &out).ok());
}

TEST(CompressionTest, ErrorNamesCodecAndSizes) {
  const std::string compressed = MustCompress(CompressionCodec::kZstd, "hello hello hello");
  Result<std::string> back = Decompressed(CompressionCodec::kZstd, compressed, 10);
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().ToString().rfind("Corruption: ZSTD decompression failed: ", 0), 0u)
      << back.status().ToString();
  EXPECT_NE(back.status().message().find("(compressed " + std::to_string(compressed.size()) +
                                         " bytes, expected 10 uncompressed bytes)"),
            std::string::npos)
      << back.status().ToString();
}

TEST(CompressionTest, TruncatedInputIsCorruption) {
  const std::string input = Inputs()["random"].substr(0, 5000) + Inputs()["compressible"];
  for (CompressionCodec codec : kWritableCodecs) {
    if (codec == CompressionCodec::kUncompressed) continue;
    const std::string compressed = MustCompress(codec, input);
    for (size_t cut :
         {size_t{1}, size_t{2}, size_t{7}, compressed.size() / 2, compressed.size() - 1}) {
      Result<std::string> back =
          Decompressed(codec, std::string_view(compressed).substr(0, compressed.size() - cut),
                       static_cast<int64_t>(input.size()));
      ASSERT_FALSE(back.ok()) << CodecName(codec) << " cut " << cut;
      EXPECT_TRUE(back.status().IsCorruption()) << back.status().ToString();
    }
  }
}

// Flipped bytes give Corruption or, for codecs without checksums, some output of the exact
// size; never a crash or an overrun (the ASan build checks the latter).
TEST(CompressionTest, FlippedBytesFailCleanly) {
  std::mt19937_64 rng(9);
  const std::string input = Inputs()["compressible"].substr(0, 20000);
  for (CompressionCodec codec : kWritableCodecs) {
    const std::string compressed = MustCompress(codec, input);
    int failures = 0;
    for (int iteration = 0; iteration < 300; ++iteration) {
      std::string mutated = compressed;
      mutated[rng() % mutated.size()] ^= static_cast<char>(1 + rng() % 255);
      Result<std::string> back = Decompressed(codec, mutated, static_cast<int64_t>(input.size()));
      if (!back.ok()) {
        ASSERT_TRUE(back.status().IsCorruption()) << back.status().ToString();
        ++failures;
      } else {
        ASSERT_EQ(back->size(), input.size());
      }
    }
    if (codec == CompressionCodec::kGzip) {
      // The CRC-32 trailer catches every flip outside the header's free-form bytes.
      EXPECT_GT(failures, 250);
    }
  }
}

TEST(CompressionTest, ConcatenatedGzipMembers) {
  const std::string first = "first member; ";
  const std::string second = Inputs()["compressible"];
  const std::string compressed = MustCompress(CompressionCodec::kGzip, first, 9) +
                                 MustCompress(CompressionCodec::kGzip, second, 1) +
                                 MustCompress(CompressionCodec::kGzip, "", 1);
  Result<std::string> back = Decompressed(CompressionCodec::kGzip, compressed,
                                          static_cast<int64_t>(first.size() + second.size()));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == first + second);
}

TEST(CompressionTest, ZstdFramesWithoutContentSizeAndConcatenated) {
  const std::string input = Inputs()["compressible"];
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ASSERT_EQ(ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 0), 0u);
  std::string streamed(ZSTD_compressBound(input.size()), '\0');
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  ZSTD_outBuffer out{streamed.data(), streamed.size(), 0};
  // No pledged size: the frame header carries no content size.
  ASSERT_EQ(ZSTD_compressStream2(context, &out, &in, ZSTD_e_end), 0u);
  ZSTD_freeCCtx(context);
  streamed.resize(out.pos);
  ASSERT_EQ(ZSTD_getFrameContentSize(streamed.data(), streamed.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  Result<std::string> back =
      Decompressed(CompressionCodec::kZstd, streamed, static_cast<int64_t>(input.size()));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == input);

  const std::string two = streamed + MustCompress(CompressionCodec::kZstd, "tail", 5);
  back = Decompressed(CompressionCodec::kZstd, two, static_cast<int64_t>(input.size() + 4));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == input + "tail");
}

std::string BigEndian32(uint32_t value) {
  return {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
          static_cast<char>(value >> 8), static_cast<char>(value)};
}

std::string RawLz4(std::string_view input) {
  std::string out(LZ4_compressBound(static_cast<int>(input.size())), '\0');
  const int written = LZ4_compress_default(input.data(), out.data(), static_cast<int>(input.size()),
                                           static_cast<int>(out.size()));
  out.resize(written);
  return out;
}

TEST(CompressionTest, LegacyLz4AcceptsHadoopRawAndFrameFormats) {
  const std::string input = Inputs()["compressible"].substr(0, 100000);
  const auto size = static_cast<int64_t>(input.size());

  // Hadoop framing: two blocks, the second split into two chunks.
  const std::string a = input.substr(0, 30000);
  const std::string b = input.substr(30000, 50000);
  const std::string c = input.substr(80000);
  std::string hadoop = BigEndian32(30000) + BigEndian32(RawLz4(a).size()) + RawLz4(a);
  hadoop += BigEndian32(70000) + BigEndian32(RawLz4(b).size()) + RawLz4(b) +
            BigEndian32(RawLz4(c).size()) + RawLz4(c);
  Result<std::string> back = Decompressed(CompressionCodec::kLz4, hadoop, size);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == input);

  back = Decompressed(CompressionCodec::kLz4, RawLz4(input), size);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == input);

  std::string frame(LZ4F_compressFrameBound(input.size(), nullptr), '\0');
  frame.resize(LZ4F_compressFrame(frame.data(), frame.size(), input.data(), input.size(), nullptr));
  back = Decompressed(CompressionCodec::kLz4, frame, size);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == input);
  // A frame holding more than declared is refused.
  back = Decompressed(CompressionCodec::kLz4, frame, size - 1);
  EXPECT_TRUE(back.status().IsCorruption());

  // What tarn writes for LZ4 is Hadoop framing.
  const std::string written = MustCompress(CompressionCodec::kLz4, input);
  EXPECT_EQ(written.substr(0, 4), BigEndian32(static_cast<uint32_t>(input.size())));
}

TEST(CompressionTest, UnsupportedAndInvalidArguments) {
  uint8_t out[4];
  EXPECT_TRUE(Decompress(CompressionCodec::kLzo, "abcd", out, 4).IsNotSupported());
  std::string sink;
  EXPECT_TRUE(Compress(CompressionCodec::kLzo, "abcd", 0, &sink).IsNotSupported());
  EXPECT_TRUE(Decompress(static_cast<CompressionCodec>(42), "abcd", out, 4).IsNotSupported());
  EXPECT_EQ(Compress(CompressionCodec::kGzip, "x", 10, &sink).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Compress(CompressionCodec::kBrotli, "x", 12, &sink).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Compress(CompressionCodec::kZstd, "x", 23, &sink).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(sink.empty());
}

TEST(CompressionTest, ParseCodec) {
  const std::pair<const char*, CompressionCodec> cases[] = {
      {"snappy", CompressionCodec::kSnappy},     {"ZSTD", CompressionCodec::kZstd},
      {"Gzip", CompressionCodec::kGzip},         {"brotli", CompressionCodec::kBrotli},
      {"lz4", CompressionCodec::kLz4Raw},        {"LZ4_RAW", CompressionCodec::kLz4Raw},
      {"none", CompressionCodec::kUncompressed}, {"uncompressed", CompressionCodec::kUncompressed}};
  for (const auto& [name, codec] : cases) {
    Result<CompressionCodec> parsed = ParseCodec(name);
    ASSERT_TRUE(parsed.ok()) << name;
    EXPECT_EQ(*parsed, codec) << name;
  }
  EXPECT_EQ(ParseCodec("zip").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseCodec("").status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(ParseCodec("lzo").status().IsNotSupported());
}

// Decompresses one page as a column reader would: V2 levels are stored uncompressed before
// the values, and a V2 page may say its values are not compressed.
Result<std::string> DecompressPage(CompressionCodec codec, const testing_support::PageView& page) {
  int64_t levels = 0;
  if (page.header.data_page_header_v2) {
    const DataPageHeaderV2& v2 = *page.header.data_page_header_v2;
    levels = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
    if (!v2.is_compressed) codec = CompressionCodec::kUncompressed;
  }
  if (levels > static_cast<int64_t>(page.payload.size())) {
    return Status::Corruption("levels longer than the page");
  }
  return Decompressed(codec, page.payload.substr(levels),
                      page.header.uncompressed_page_size - levels);
}

// Every page of every plaintext fixture decompresses to exactly its declared size, and every
// codec the fixtures use is met.
TEST(CompressionTest, EveryFixturePageDecompresses) {
  std::map<CompressionCodec, int> pages_by_codec;
  const std::vector<std::string> files = ListFiles(ParquetTestingPath("data"), {".parquet"});
  ASSERT_GE(files.size(), 60u);
  for (const std::string& path : files) {
    const std::string file = ReadWholeFile(path);
    Result<FileMetaData> metadata = DecodeFileMetaData(LocateFooter(file).bytes);
    ASSERT_TRUE(metadata.ok()) << path << ": " << metadata.status().ToString();
    if (metadata->has_encryption_algorithm) continue;
    for (const RowGroup& group : metadata->row_groups) {
      for (const ColumnChunk& chunk : group.columns) {
        const ColumnMetaData& meta = *chunk.meta_data;
        Status walked = testing_support::WalkPages(file, meta, [&](const auto& page) {
          Result<std::string> back = DecompressPage(meta.codec, page);
          EXPECT_TRUE(back.ok()) << path << ": " << back.status().ToString();
          ++pages_by_codec[meta.codec];
        });
        EXPECT_TRUE(walked.ok()) << path << ": " << walked.ToString();
      }
    }
  }
  for (CompressionCodec codec :
       {CompressionCodec::kSnappy, CompressionCodec::kGzip, CompressionCodec::kZstd,
        CompressionCodec::kBrotli, CompressionCodec::kLz4, CompressionCodec::kLz4Raw}) {
    EXPECT_GT(pages_by_codec[codec], 0) << CodecName(codec);
  }
}

TEST(CompressionTest, ConcatenatedGzipFixture) {
  const std::string file =
      ReadWholeFile(ParquetTestingPath("data/concatenated_gzip_members.parquet"));
  Result<FileMetaData> metadata = DecodeFileMetaData(LocateFooter(file).bytes);
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  const ColumnMetaData& meta = *metadata->row_groups.at(0).columns.at(0).meta_data;
  ASSERT_EQ(meta.codec, CompressionCodec::kGzip);
  int pages = 0;
  Status walked = testing_support::WalkPages(file, meta, [&](const auto& page) {
    Result<std::string> back = DecompressPage(meta.codec, page);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ++pages;
  });
  ASSERT_TRUE(walked.ok()) << walked.ToString();
  EXPECT_GT(pages, 0);
}

}  // namespace
}  // namespace tarn::parquet
