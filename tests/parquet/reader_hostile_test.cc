// Hostile input: the malformed files of parquet-testing's bad_data, encrypted files, a real
// file truncated at every footer offset, and random byte flips. Each must give a clean error
// (or, for flips that land in harmless bytes, a valid read) — never a crash, hang or unbounded
// allocation. Run under ASan/UBSan in the sanitizer build.
#include <gtest/gtest.h>

#include <dirent.h>

#include <cstring>
#include <map>
#include <random>

#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

Status FullScan(std::shared_ptr<FileSystem> fs, const std::string& path) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(fs, path));
  ScanOptions options;
  options.with_position = true;
  TARN_ASSIGN_OR_RETURN(auto batch, reader->ReadAll(options));
  return batch->Validate();
}

TEST(ReaderHostileTest, BadDataFilesFailCleanly) {
  const std::string dir = testing::SharedPath("fixtures/parquet-testing/bad_data");
  // What each file must produce. The reasons are in bad_data/README.md.
  const std::map<std::string, StatusCode> expected = {
      {"PARQUET-1481.parquet", StatusCode::kCorruption},            // corrupt schema type
      {"ARROW-RS-GH-6229-DICTHEADER.parquet", StatusCode::kCorruption},  // negative dict size
      {"ARROW-RS-GH-6229-LEVELS.parquet", StatusCode::kCorruption},  // too few levels
      {"ARROW-GH-41321.parquet", StatusCode::kCorruption},          // levels < num_values
      {"ARROW-GH-41317.parquet", StatusCode::kCorruption},          // columns of unequal size
      {"ARROW-GH-43605.parquet", StatusCode::kOk},                  // width-0 indices: valid
      {"ARROW-GH-45185.parquet", StatusCode::kCorruption},          // rep levels start at 1
      {"ARROW-GH-47662.parquet", StatusCode::kCorruption},          // NULLs in a required column
  };
  int seen = 0;
  for (const auto& [name, code] : expected) {
    SCOPED_TRACE(name);
    const std::string path = dir + "/" + name;
    ASSERT_TRUE(testing::FileExists(path));
    Status status = FullScan(LocalFileSystem(), path);
    EXPECT_EQ(status.code(), code) << status.ToString();
    if (!status.ok()) {
      EXPECT_NE(status.message().find(path), std::string::npos) << "errors name the file";
    }
    ++seen;
  }
  EXPECT_EQ(seen, 8);
}

TEST(ReaderHostileTest, EncryptedFilesAreNotSupported) {
  const std::string dir = testing::SharedPath("fixtures/parquet-testing/data");
  int seen = 0;
  DIR* handle = opendir(dir.c_str());
  ASSERT_NE(handle, nullptr);
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name.size() < 18 || name.substr(name.size() - 18) != ".parquet.encrypted") continue;
    SCOPED_TRACE(name);
    auto reader = ParquetReader::Open(LocalFileSystem(), dir + "/" + name);
    ASSERT_FALSE(reader.ok());
    EXPECT_EQ(reader.status().code(), StatusCode::kNotSupported) << reader.status().ToString();
    EXPECT_NE(reader.status().message().find("encrypted"), std::string::npos);
    EXPECT_NE(reader.status().message().find(name), std::string::npos);
    ++seen;
  }
  closedir(handle);
  EXPECT_GE(seen, 8);
}

TEST(ReaderHostileTest, NotParquet) {
  auto fs = NewMemoryFileSystem();
  ASSERT_TRUE(fs->WriteFile("/short", "PAR1").ok());
  ASSERT_TRUE(fs->WriteFile("/text", std::string(100, 'x')).ok());
  std::string lying_length = "PAR1" + std::string(20, '\0') + "\xff\xff\xff\x7f" + "PAR1";
  ASSERT_TRUE(fs->WriteFile("/lying", lying_length).ok());
  for (const char* path : {"/short", "/text", "/lying"}) {
    auto reader = ParquetReader::Open(fs, path);
    ASSERT_FALSE(reader.ok()) << path;
    EXPECT_EQ(reader.status().code(), StatusCode::kCorruption) << reader.status().ToString();
    EXPECT_NE(reader.status().message().find(path), std::string::npos);
  }
}

// A read-only view of the first `size` bytes of a shared buffer (no copy per truncation).
class PrefixFile : public RandomAccessFile {
 public:
  PrefixFile(std::shared_ptr<const std::string> bytes, int64_t size)
      : bytes_(std::move(bytes)), size_(size) {}
  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
      return Status::IOError(path_, ": read past the end");
    }
    std::memcpy(out, bytes_->data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

 private:
  std::shared_ptr<const std::string> bytes_;
  int64_t size_;
  std::string path_ = "/truncated.parquet";
};

TEST(ReaderHostileTest, TruncationAtEveryFooterOffset) {
  for (const std::string relative :
       {"fixtures/parquet-testing/data/nullable.impala.parquet",
        "fixtures/parquet-testing/data/alltypes_tiny_pages_plain.parquet",
        "data/tpch-sf0.1/lineitem.parquet"}) {
    SCOPED_TRACE(relative);
    auto bytes = LocalFileSystem()->ReadFile(testing::SharedPath(relative));
    ASSERT_TRUE(bytes.ok());
    auto reader = ParquetReader::Open(LocalFileSystem(), testing::SharedPath(relative));
    ASSERT_TRUE(reader.ok());
    const int64_t size = static_cast<int64_t>(bytes->size());
    const int64_t footer_start = size - 8 - (*reader)->footer_size();
    auto shared = std::make_shared<const std::string>(std::move(bytes).value());
    int64_t failures = 0;
    for (int64_t cut = footer_start - 16; cut < size; ++cut) {
      auto truncated = ParquetReader::Open(std::make_shared<PrefixFile>(shared, cut));
      if (!truncated.ok()) {
        ++failures;
        EXPECT_NE(truncated.status().message().find("/truncated.parquet"), std::string::npos);
      }
    }
    EXPECT_EQ(failures, size - footer_start + 16) << "every truncation must be refused";
  }
}

// Flips random bytes across a file and scans it: errors are fine, crashes are not.
TEST(ReaderHostileTest, RandomByteFlips) {
  std::mt19937_64 rng(99);
  for (const std::string name :
       {"nullable.impala.parquet", "alltypes_tiny_pages_plain.parquet", "nested_maps.snappy.parquet",
        "rle-dict-snappy-checksum.parquet", "datapage_v2_empty_datapage.snappy.parquet",
        "fixed_length_decimal.parquet", "repeated_no_annotation.parquet", "int96_from_spark.parquet"}) {
    SCOPED_TRACE(name);
    auto bytes = LocalFileSystem()->ReadFile(
        testing::SharedPath("fixtures/parquet-testing/data/" + name));
    ASSERT_TRUE(bytes.ok());
    auto fs = NewMemoryFileSystem();
    int errors = 0;
    for (int trial = 0; trial < 150; ++trial) {
      std::string damaged = *bytes;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int i = 0; i < flips; ++i) {
        damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      ASSERT_TRUE(fs->WriteFile("/f.parquet", damaged).ok());
      Status status = FullScan(fs, "/f.parquet");
      if (!status.ok()) {
        ++errors;
        EXPECT_NE(status.code(), StatusCode::kInternal) << status.ToString();
      }
    }
    EXPECT_GT(errors, 0);
  }
}

}  // namespace
}  // namespace tarn
