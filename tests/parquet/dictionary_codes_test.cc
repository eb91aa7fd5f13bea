// Dictionary codes (DictionaryCodes in columnar.h) kept by the Parquet reader for flat
// var-length columns: present exactly when every row of a batch comes from dictionary pages
// of one dictionary, naming each row's value (Column::Validate checks every code), under NULLs,
// a dictionary that overflows into PLAIN pages, row selections, and the copies made by Take.
#include <gtest/gtest.h>

#include <random>

#include "support/random_data.h"
#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

// `rows` rows; `word` draws from `distinct` values in the first 4000 rows (one row group) and
// from `distinct_after` values in the rest.
std::shared_ptr<Batch> WordsBatch(int64_t rows, uint64_t seed, int distinct,
                                  int distinct_after = 0) {
  std::mt19937_64 rng(seed);
  std::vector<Field> fields;
  fields.emplace_back("id", DataType(TypeId::kInt64), false, 1);
  fields.emplace_back("word", DataType(TypeId::kVarchar), true, 2);
  fields.emplace_back("tag", DataType(TypeId::kBlob), false, 3);
  auto schema = std::make_shared<const Schema>(Schema(std::move(fields)));
  ColumnBuilder id(DataType(TypeId::kInt64));
  ColumnBuilder word(DataType(TypeId::kVarchar));
  ColumnBuilder tag(DataType(TypeId::kBlob));
  for (int64_t row = 0; row < rows; ++row) {
    id.AppendNumber<int64_t>(row);
    if (rng() % 5 == 0) {
      word.AppendNull();
    } else {
      // Some entries longer than 16 bytes, some empty.
      const int values = row >= 4000 && distinct_after > 0 ? distinct_after : distinct;
      const uint64_t k = rng() % static_cast<uint64_t>(values);
      word.AppendBytes(k % 11 == 0 ? "" : "word-" + std::to_string(k) + std::string(k % 19, 'x'));
    }
    tag.AppendBytes(std::string(1 + row % 3, static_cast<char>('a' + rng() % 4)));
  }
  return MakeBatch(schema, {id.Finish(), word.Finish(), tag.Finish()});
}

std::string WriteFile(const testing::TempDir& dir, const Batch& batch,
                      int64_t dictionary_bytes) {
  const std::string path = dir.Join("words.parquet");
  auto props = WriterProperties::Builder()
                   .max_row_group_rows(4000)
                   .data_page_rows(300)
                   .dictionary_page_bytes_limit(dictionary_bytes)
                   .Build();
  EXPECT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(LocalFileSystem(), path, *batch.schema, *props);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  return path;
}

struct CodesSeen {
  int64_t with_codes = 0;     // batches whose `word` column has codes
  int64_t without_codes = 0;  // and those that have none
};

// Scans `path`, checks every batch's columns (codes included) and that the rows equal
// `expected`'s rows at the scanned positions.
CodesSeen ScanAndCheck(const std::string& path, const Batch& expected,
                       std::optional<RowSelection> selection) {
  CodesSeen seen;
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  ScanOptions options;
  options.with_position = true;
  options.selection = std::move(selection);
  options.batch_rows = 700;
  auto scan = (*reader)->Scan(options);
  EXPECT_TRUE(scan.ok()) << scan.status().ToString();
  while (true) {
    auto next = (*scan)->Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !*next) break;
    const Batch& batch = **next;
    for (const auto& column : batch.columns) {
      Status valid = column->Validate();
      EXPECT_TRUE(valid.ok()) << valid.ToString();
    }
    const Column& word = *batch.columns[1];
    (word.codes() != nullptr ? seen.with_codes : seen.without_codes) += 1;
    EXPECT_NE(batch.columns[2]->codes(), nullptr);  // few values: never past the dictionary
    const int64_t* positions = batch.columns.back()->values_as<int64_t>();
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      EXPECT_EQ(word.GetValue(row), expected.columns[1]->GetValue(positions[row]));
    }
    // A gathered copy keeps codes that still name its rows.
    std::vector<int64_t> every_other;
    for (int64_t row = batch.num_rows - 1; row >= 0; row -= 2) every_other.push_back(row);
    auto taken = Take(word, every_other);
    EXPECT_EQ(taken->codes() != nullptr, word.codes() != nullptr);
    Status taken_valid = taken->Validate();
    EXPECT_TRUE(taken_valid.ok()) << taken_valid.ToString();
  }
  return seen;
}

TEST(DictionaryCodesTest, DictionaryPagesGiveCodesForEveryRow) {
  testing::TempDir dir;
  auto batch = WordsBatch(10000, 1, 40);
  const std::string path = WriteFile(dir, *batch, 1 << 20);
  CodesSeen seen = ScanAndCheck(path, *batch, std::nullopt);
  EXPECT_GT(seen.with_codes, 0);
  EXPECT_EQ(seen.without_codes, 0);
}

TEST(DictionaryCodesTest, PlainFallbackPagesDropTheCodes) {
  testing::TempDir dir;
  // A small dictionary limit: the first row group's few values make a dictionary, the
  // others' many values do not fit one and are written PLAIN.
  auto batch = WordsBatch(10000, 2, 40, 5000);
  const std::string path = WriteFile(dir, *batch, 2000);
  CodesSeen seen = ScanAndCheck(path, *batch, std::nullopt);
  EXPECT_GT(seen.with_codes, 0);
  EXPECT_GT(seen.without_codes, 0);
}

TEST(DictionaryCodesTest, SelectionsKeepCodesForTheRowsRead) {
  testing::TempDir dir;
  auto batch = WordsBatch(10000, 3, 60);
  const std::string path = WriteFile(dir, *batch, 1 << 20);
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    int64_t start = static_cast<int64_t>(rng() % 200);
    while (start < 10000) {
      const int64_t length = 1 + static_cast<int64_t>(rng() % 400);
      ranges.emplace_back(start, std::min<int64_t>(10000, start + length));
      start += length + 1 + static_cast<int64_t>(rng() % 900);
    }
    CodesSeen seen = ScanAndCheck(path, *batch, RowSelection::FromRanges(ranges));
    EXPECT_GT(seen.with_codes, 0);
  }
}

TEST(DictionaryCodesTest, CodesOfAnotherColumnAreIgnored) {
  auto batch = WordsBatch(100, 4, 10);
  testing::TempDir dir;
  const std::string path = WriteFile(dir, *batch, 1 << 20);
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok());
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  const Column& word = *(*all)->columns[1];
  ASSERT_NE(word.codes(), nullptr);
  // A copy with other values (or another length) does not inherit them.
  Column replaced = word;
  replaced.values = Buffer::Allocate(replaced.values->size());
  EXPECT_EQ(replaced.codes(), nullptr);
  Column shorter = word;
  shorter.length = word.length - 1;
  EXPECT_EQ(shorter.codes(), nullptr);
  // Codes that name the wrong entry fail validation.
  auto wrong = std::make_shared<DictionaryCodes>(*word.codes());
  auto codes = Buffer::Allocate(word.length * 4);
  std::memcpy(codes->mutable_data(), word.codes()->codes->data(), word.length * 4);
  int64_t row = 0;
  while (word.IsNull(row)) ++row;
  uint32_t* raw = codes->mutable_data_as<uint32_t>();
  raw[row] = (raw[row] + 1) % static_cast<uint32_t>(word.codes()->entries->length);
  wrong->codes = std::move(codes);
  Column corrupt = word;
  corrupt.dictionary = std::move(wrong);
  EXPECT_TRUE(corrupt.Validate().IsCorruption());
}

// Entries are copied as fixed 16- or 32-byte words when the longest fits, else one by one:
// columns whose longest entry is 16, 32 and 33 bytes, every length up to it, read back
// exactly (each value's bytes and nothing past them).
TEST(DictionaryCodesTest, EntriesOfEveryLengthUpToEachCopyWidth) {
  std::vector<Field> fields;
  const int longest[] = {16, 17, 32, 33};
  for (int width : longest) {
    fields.emplace_back("up_to_" + std::to_string(width), DataType(TypeId::kVarchar), true);
  }
  auto schema = std::make_shared<const Schema>(Schema(std::move(fields)));
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (size_t c = 0; c < std::size(longest); ++c) {
    builders.push_back(std::make_unique<ColumnBuilder>(DataType(TypeId::kVarchar)));
  }
  std::mt19937_64 rng(6);
  const int64_t rows = 4000;  // one row group: one dictionary per column
  for (int64_t row = 0; row < rows; ++row) {
    for (size_t c = 0; c < std::size(longest); ++c) {
      const int length = static_cast<int>(rng() % static_cast<uint64_t>(longest[c] + 1));
      if (rng() % 13 == 0) {
        builders[c]->AppendNull();
      } else {
        builders[c]->AppendBytes(std::string(static_cast<size_t>(length), static_cast<char>('a' + length % 26)));
      }
    }
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (auto& builder : builders) columns.push_back(builder->Finish());
  auto batch = MakeBatch(schema, std::move(columns));
  testing::TempDir dir;
  const std::string path = WriteFile(dir, *batch, 1 << 20);
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  ASSERT_EQ((*all)->num_rows, rows);
  for (size_t c = 0; c < std::size(longest); ++c) {
    const Column& read = *(*all)->columns[c];
    ASSERT_TRUE(read.Validate().ok()) << read.Validate().ToString();
    EXPECT_NE(read.codes(), nullptr) << longest[c];
    for (int64_t row = 0; row < rows; ++row) {
      ASSERT_EQ(read.GetValue(row), batch->columns[c]->GetValue(row)) << longest[c] << " row " << row;
    }
  }
}

}  // namespace
}  // namespace tarn
