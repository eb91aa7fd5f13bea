// Damaged files that tarn itself wrote: every truncation inside the footer is refused, and
// random byte flips give an error or a valid read, never a crash.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "support/random_data.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

// Writes a random nested batch with small pages and row groups into `fs` at `path`.
std::string WriteRandomFile(std::mt19937_64& rng, const std::shared_ptr<FileSystem>& fs,
                            const std::string& path, int page_version) {
  Schema schema = testing::RandomSchema(rng, 5, 2);
  auto batch = testing::RandomBatch(rng, schema, 600, 0.2);
  auto props = WriterProperties::Builder()
                   .max_row_group_rows(200)
                   .data_page_rows(50)
                   .data_page_version(page_version)
                   .Build();
  EXPECT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(fs, path, schema, *props);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->Write(*batch).ok());
  auto info = (*writer)->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  auto bytes = fs->ReadFile(path);
  EXPECT_TRUE(bytes.ok());
  return *bytes;
}

Status FullScan(const std::shared_ptr<FileSystem>& fs, const std::string& path) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(fs, path));
  ScanOptions options;
  options.with_position = true;
  TARN_ASSIGN_OR_RETURN(auto batch, reader->ReadAll(options));
  return batch->Validate();
}

TEST(WriterHostileTest, TruncationAtEveryFooterOffsetIsRefused) {
  std::mt19937_64 rng(7);
  auto fs = NewMemoryFileSystem();
  for (int page_version : {1, 2}) {
    const std::string bytes = WriteRandomFile(rng, fs, "/original.parquet", page_version);
    auto reader = ParquetReader::Open(fs, "/original.parquet");
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const int64_t size = static_cast<int64_t>(bytes.size());
    const int64_t footer_start = size - 8 - (*reader)->footer_size();
    ASSERT_GT(footer_start, 4);
    for (int64_t cut = footer_start - 8; cut < size; ++cut) {
      ASSERT_TRUE(fs->WriteFile("/cut.parquet", bytes.substr(0, cut)).ok());
      auto truncated = ParquetReader::Open(fs, "/cut.parquet");
      ASSERT_FALSE(truncated.ok()) << "a file cut at " << cut << " of " << size << " opened";
      EXPECT_NE(truncated.status().message().find("/cut.parquet"), std::string::npos)
          << truncated.status().ToString();
    }
  }
}

TEST(WriterHostileTest, RandomByteFlipsNeverCrash) {
  std::mt19937_64 rng(11);
  auto fs = NewMemoryFileSystem();
  int errors = 0, reads = 0;
  for (int file = 0; file < 6; ++file) {
    const std::string bytes = WriteRandomFile(rng, fs, "/original.parquet", 1 + file % 2);
    for (int trial = 0; trial < 60; ++trial) {
      std::string damaged = bytes;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < flips; ++i) {
        damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      ASSERT_TRUE(fs->WriteFile("/damaged.parquet", damaged).ok());
      Status status = FullScan(fs, "/damaged.parquet");
      if (status.ok()) {
        ++reads;
      } else {
        ++errors;
        EXPECT_NE(status.code(), StatusCode::kInternal) << status.ToString();
      }
    }
  }
  // Flips land in data and metadata alike: some must be caught, and the test must not be
  // vacuous in the other direction either.
  EXPECT_GT(errors, 0);
  EXPECT_GT(reads + errors, 300);
}

}  // namespace
}  // namespace tarn
