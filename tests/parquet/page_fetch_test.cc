// Row-selective scans fetch only the pages holding the selected rows (parquet/chunk_fetch.h):
// a selection scan equals the full scan cut to those positions, on files with many pages, with
// and without an OffsetIndex, dictionary and plain, flat and nested, v1 and v2 pages, NULLs and
// CRCs; a point read of a 1M-row file reads a few kilobytes; a corrupt OffsetIndex is an error
// naming the file and column, never a wrong row.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>

#include "parquet/metadata.h"
#include "support/random_data.h"
#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

// Counts the bytes read through it.
class CountingFile : public RandomAccessFile {
 public:
  explicit CountingFile(std::unique_ptr<RandomAccessFile> base) : base_(std::move(base)) {}
  const std::string& path() const override { return base_->path(); }
  int64_t size() const override { return base_->size(); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    bytes += length;
    ++reads;
    return base_->ReadAt(offset, length, out);
  }
  mutable std::atomic<int64_t> bytes{0};
  mutable std::atomic<int64_t> reads{0};

 private:
  std::unique_ptr<RandomAccessFile> base_;
};

Schema TestSchema() {
  std::vector<Field> fields;
  fields.emplace_back("i", DataType(TypeId::kInt64), true, 1);
  fields.emplace_back("low", DataType(TypeId::kVarchar), true, 2);   // few distinct values
  fields.emplace_back("s", DataType(TypeId::kVarchar), true, 3);     // random strings
  fields.emplace_back("d", DataType(TypeId::kFloat64), true, 4);
  fields.emplace_back("li", DataType::List(Field("element", DataType(TypeId::kInt32), true, 6)),
                      true, 5);
  std::vector<Field> members;
  members.emplace_back("x", DataType(TypeId::kInt32), true, 8);
  members.emplace_back("t", DataType(TypeId::kVarchar), true, 9);
  fields.emplace_back("st", DataType::Struct(std::move(members)), true, 7);
  return Schema(std::move(fields));
}

std::shared_ptr<Batch> TestBatch(int64_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto schema = std::make_shared<const Schema>(TestSchema());
  auto batch = testing::RandomBatch(rng, *schema, rows, 0.2);
  ColumnBuilder low(DataType(TypeId::kVarchar));
  for (int64_t row = 0; row < rows; ++row) {
    if (rng() % 7 == 0) {
      low.AppendNull();
    } else {
      low.AppendBytes("word-" + std::to_string(rng() % 23));
    }
  }
  std::vector<std::shared_ptr<Column>> columns = batch->columns;
  columns[1] = low.Finish();
  return MakeBatch(schema, std::move(columns));
}

std::string WriteTestFile(const testing::TempDir& dir, const std::string& name,
                          const Batch& batch, WriterProperties::Builder builder) {
  const std::string path = dir.Join(name);
  auto props = builder.max_row_group_rows(3000).data_page_rows(97).Build();
  EXPECT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(LocalFileSystem(), path, *batch.schema, *props);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->Write(batch).ok());
  auto info = (*writer)->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  return path;
}

struct ScanResult {
  Status status;
  std::shared_ptr<Batch> batch;
  ScanMetrics metrics;
};

ScanResult ScanFile(const std::string& path, std::optional<RowSelection> selection,
                    int64_t batch_rows = 1000) {
  ScanResult result;
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  if (!reader.ok()) {
    result.status = reader.status();
    return result;
  }
  ScanOptions options;
  options.with_position = true;
  options.selection = std::move(selection);
  options.batch_rows = batch_rows;
  auto scan = (*reader)->Scan(options);
  if (!scan.ok()) {
    result.status = scan.status();
    return result;
  }
  std::vector<std::shared_ptr<Batch>> batches;
  while (true) {
    auto next = (*scan)->Next();
    if (!next.ok()) {
      result.status = next.status();
      return result;
    }
    if (!*next) break;
    batches.push_back(*next);
  }
  result.metrics = (*scan)->metrics();
  if (batches.empty()) {
    result.status = Status::Internal("the scan returned no batch");
    return result;
  }
  result.batch = ConcatenateBatches(batches);
  return result;
}

// The full scan's rows at `positions`.
std::shared_ptr<Batch> TakeRows(const Batch& full, const std::vector<int64_t>& positions) {
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : full.columns) columns.push_back(Take(*column, positions));
  auto out = MakeBatch(full.schema, std::move(columns));
  out->num_rows = static_cast<int64_t>(positions.size());
  return out;
}

// Random selections of every shape: a point, a few points, runs, every n-th row, dense.
std::vector<int64_t> RandomPositions(std::mt19937_64& rng, int64_t rows, int shape) {
  std::vector<int64_t> positions;
  switch (shape % 5) {
    case 0: positions.push_back(static_cast<int64_t>(rng() % rows)); break;
    case 1:
      for (int k = 0; k < 5; ++k) positions.push_back(static_cast<int64_t>(rng() % rows));
      break;
    case 2:
      for (int k = 0; k < 4; ++k) {
        const int64_t start = static_cast<int64_t>(rng() % rows);
        const int64_t length = 1 + static_cast<int64_t>(rng() % 300);
        for (int64_t p = start; p < std::min(rows, start + length); ++p) positions.push_back(p);
      }
      break;
    case 3: {
      const int64_t step = 50 + static_cast<int64_t>(rng() % 400);
      for (int64_t p = static_cast<int64_t>(rng() % step); p < rows; p += step) {
        positions.push_back(p);
      }
      break;
    }
    default:
      for (int64_t p = 0; p < rows; ++p) {
        if (rng() % 3 != 0) positions.push_back(p);
      }
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

struct Variant {
  const char* name;
  PageIndexMode page_index;
  int page_version;
  bool dictionary;
};

TEST(PageFetchTest, SelectionScanEqualsFullScanCut) {
  constexpr int64_t kRows = 12000;
  auto batch = TestBatch(kRows, 42);
  testing::TempDir dir;
  const Variant variants[] = {
      {"index_v1_dict", PageIndexMode::kAuto, 1, true},
      {"index_v2_plain", PageIndexMode::kAuto, 2, false},
      {"noindex_v1_dict", PageIndexMode::kOff, 1, true},
      {"noindex_v2_dict", PageIndexMode::kOff, 2, true},
      {"noindex_v1_plain", PageIndexMode::kOff, 1, false},
      {"index_v1_plain", PageIndexMode::kOn, 1, false},
  };
  std::mt19937_64 rng(7);
  for (const Variant& variant : variants) {
    SCOPED_TRACE(variant.name);
    const std::string path = WriteTestFile(
        dir, std::string(variant.name) + ".parquet", *batch,
        WriterProperties::Builder()
            .page_index(variant.page_index)
            .data_page_version(variant.page_version)
            .dictionary_enabled(variant.dictionary)
            .write_page_crc(true));
    {
      auto reader = ParquetReader::Open(LocalFileSystem(), path);
      ASSERT_TRUE(reader.ok());
      const auto& chunk = (*reader)->metadata().row_groups[0].columns[0];
      EXPECT_EQ(chunk.offset_index_offset.has_value(), variant.page_index != PageIndexMode::kOff);
    }
    ScanResult full = ScanFile(path, std::nullopt);
    ASSERT_TRUE(full.status.ok()) << full.status.ToString();
    ASSERT_EQ(full.batch->num_rows, kRows);
    for (int trial = 0; trial < 25; ++trial) {
      const std::vector<int64_t> positions = RandomPositions(rng, kRows, trial);
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", " << positions.size()
                                        << " rows from " << positions.front());
      ScanResult selected =
          ScanFile(path, RowSelection::FromPositions(positions), trial % 2 ? 1000 : 37);
      ASSERT_TRUE(selected.status.ok()) << selected.status.ToString();
      auto expected = TakeRows(*full.batch, positions);
      ASSERT_EQ(testing::DescribeMismatch(*expected, *selected.batch), "");
      if (positions.size() <= 5) {
        // A few rows: far fewer bytes than the whole data, and pages really left unread.
        // (Without an index the nested column's chunks are read whole.)
        const int64_t factor = variant.page_index != PageIndexMode::kOff ? 5 : 1;
        EXPECT_LT(selected.metrics.bytes_read * factor, full.metrics.bytes_read);
        EXPECT_LT(selected.metrics.pages_read * 4, full.metrics.pages_read);
      }
    }
  }
}

// A file of one million rows as tarn writes by default; one row read by position.
TEST(PageFetchTest, PointReadOfMillionRowFileReadsFewBytes) {
  constexpr int64_t kRows = 1000000;
  testing::TempDir dir;
  std::vector<Field> fields;
  fields.emplace_back("id", DataType(TypeId::kInt64), false, 1);
  fields.emplace_back("v", DataType(TypeId::kFloat64), true, 2);
  fields.emplace_back("s", DataType(TypeId::kVarchar), true, 3);
  auto schema = std::make_shared<const Schema>(std::move(fields));
  std::mt19937_64 rng(3);
  ColumnBuilder id(DataType(TypeId::kInt64));
  ColumnBuilder v(DataType(TypeId::kFloat64));
  ColumnBuilder s(DataType(TypeId::kVarchar));
  for (int64_t row = 0; row < kRows; ++row) {
    id.AppendNumber<int64_t>(row);
    v.AppendNumber<double>(static_cast<double>(rng() % 1000000) / 7.0);
    s.AppendBytes("name " + std::to_string(rng() % 5000));
  }
  auto batch = MakeBatch(schema, {id.Finish(), v.Finish(), s.Finish()});
  const std::string path = dir.Join("million.parquet");
  {
    auto props = WriterProperties::Builder().Build();
    ASSERT_TRUE(props.ok());
    auto writer = ParquetWriter::Open(LocalFileSystem(), path, *schema, *props);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(*batch).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
  }
  auto file_size = LocalFileSystem()->Stat(path);
  ASSERT_TRUE(file_size.ok());
  auto open = LocalFileSystem()->OpenForRead(path);
  ASSERT_TRUE(open.ok());
  auto counting = std::make_shared<CountingFile>(std::move(*open));
  auto reader = ParquetReader::Open(counting);
  ASSERT_TRUE(reader.ok());
  const int64_t open_bytes = counting->bytes.exchange(0);
  counting->reads = 0;
  constexpr int64_t kPosition = 654321;
  ScanOptions options;
  options.with_position = true;
  options.selection = RowSelection::FromRanges({{kPosition, kPosition + 1}});
  auto point = (*reader)->ReadAll(options);
  ASSERT_TRUE(point.ok()) << point.status().ToString();
  ASSERT_EQ((*point)->num_rows, 1);
  EXPECT_EQ((*point)->column(0).values_as<int64_t>()[0], kPosition);
  EXPECT_EQ((*point)->column(3).values_as<int64_t>()[0], kPosition);
  EXPECT_EQ((*point)->column(1).values_as<double>()[0], batch->column(1).values_as<double>()[kPosition]);
  EXPECT_EQ((*point)->column(2).GetView(0), batch->column(2).GetView(kPosition));
  const int64_t point_bytes = counting->bytes.load();
  std::printf("1M rows, %lld-byte file: open %lld bytes, point read %lld bytes in %lld reads\n",
              static_cast<long long>(file_size->size), static_cast<long long>(open_bytes),
              static_cast<long long>(point_bytes), static_cast<long long>(counting->reads.load()));
  // Three offset indexes, a ~30 KB string dictionary and three pages of at most 20,000
  // values: well under 256 KB, against a file of several megabytes.
  EXPECT_LT(point_bytes, 256 * 1024);
  EXPECT_LT(point_bytes * 20, file_size->size);
}

// ---- a corrupt OffsetIndex ----------------------------------------------------------------

// Rewrites the file with the offset index of (row group 0, leaf `leaf`) replaced by `bytes`.
Status ReplaceOffsetIndex(const std::string& path, const std::string& out_path, int leaf,
                          const std::string& bytes) {
  TARN_ASSIGN_OR_RETURN(std::string file, LocalFileSystem()->ReadFile(path));
  uint32_t footer_length = 0;
  std::memcpy(&footer_length, file.data() + file.size() - 8, 4);
  const size_t data_end = file.size() - 8 - footer_length;
  TARN_ASSIGN_OR_RETURN(parquet::FileMetaData metadata,
                        parquet::DecodeFileMetaData(std::string_view(file).substr(
                            data_end, footer_length)));
  auto& chunk = metadata.row_groups[0].columns[leaf];
  std::string out = file.substr(0, data_end);
  chunk.offset_index_offset = static_cast<int64_t>(out.size());
  chunk.offset_index_length = static_cast<int32_t>(bytes.size());
  out += bytes;
  std::string footer;
  parquet::EncodeFileMetaData(metadata, &footer);
  out += footer;
  const uint32_t length = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out += "PAR1";
  return LocalFileSystem()->WriteFile(out_path, out);
}

Result<parquet::OffsetIndex> ReadOffsetIndex(const std::string& path, int leaf) {
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  if (!reader.ok()) return reader.status();
  const auto& chunk = (*reader)->metadata().row_groups[0].columns[leaf];
  TARN_ASSIGN_OR_RETURN(std::string file, LocalFileSystem()->ReadFile(path));
  return parquet::DecodeOffsetIndex(
      std::string_view(file).substr(*chunk.offset_index_offset, *chunk.offset_index_length));
}

class PageFetchCorruptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    batch_ = TestBatch(6000, 11);
    path_ = WriteTestFile(dir_, "base.parquet", *batch_,
                          WriterProperties::Builder().page_index(PageIndexMode::kAuto));
    ScanResult full = ScanFile(path_, std::nullopt);
    ASSERT_TRUE(full.status.ok());
    full_ = full.batch;
  }

  // Scans `path` for rows of page 10 and later pages of row group 0; the result must be the
  // right rows or a Corruption naming the file and `column`.
  void ExpectRightRowsOrError(const std::string& path, const std::string& column,
                              bool* failed) {
    const std::vector<int64_t> positions = {1000, 1001, 1500, 2222, 2999};
    ScanResult result = ScanFile(path, RowSelection::FromPositions(positions));
    *failed = !result.status.ok();
    if (result.status.ok()) {
      EXPECT_EQ(testing::DescribeMismatch(*TakeRows(*full_, positions), *result.batch), "");
      return;
    }
    EXPECT_TRUE(result.status.IsCorruption()) << result.status.ToString();
    EXPECT_NE(result.status.message().find(path), std::string::npos) << result.status.ToString();
    EXPECT_NE(result.status.message().find("column " + column), std::string::npos)
        << result.status.ToString();
  }

  testing::TempDir dir_;
  std::shared_ptr<Batch> batch_;
  std::shared_ptr<Batch> full_;
  std::string path_;
};

TEST_F(PageFetchCorruptionTest, NamedErrorsForEachKindOfLie) {
  struct Case {
    const char* name;
    int leaf;
    std::string column;
    std::function<void(parquet::OffsetIndex*, size_t)> edit;  // with the page of row 1500
    const char* message;
  };
  const std::vector<Case> cases = {
      {"offset past the chunk", 0, "i",
       [](parquet::OffsetIndex* index, size_t k) { index->page_locations[k].offset += 1 << 24; },
       "lies outside the column chunk"},
      {"offset into the page body", 0, "i",
       [](parquet::OffsetIndex* index, size_t k) {
         index->page_locations[k].offset += 3;
         index->page_locations[k].compressed_page_size -= 3;
       },
       "where the offset index places a page"},
      {"size one short", 2, "s",
       [](parquet::OffsetIndex* index, size_t k) { index->page_locations[k].compressed_page_size -= 1; },
       "the offset index places a data page of"},
      {"first row shifted (flat)", 0, "i",
       [](parquet::OffsetIndex* index, size_t k) { index->page_locations[k].first_row_index += 1; },
       "the offset index gives the page"},
      {"first row shifted (list)", 4, "li.list.element",
       [](parquet::OffsetIndex* index, size_t k) { index->page_locations[k].first_row_index -= 1; },
       "the offset index gives the page"},
      {"first page listed late", 1, "low",
       [](parquet::OffsetIndex* index, size_t) {
         index->page_locations.erase(index->page_locations.begin());
         index->page_locations[0].first_row_index = 0;
       },
       "a data page lies before the first page"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto index = ReadOffsetIndex(path_, c.leaf);
    ASSERT_TRUE(index.ok()) << index.status().ToString();
    ASSERT_GT(index->page_locations.size(), 20u);
    size_t k = 0;
    while (k + 1 < index->page_locations.size() &&
           index->page_locations[k + 1].first_row_index <= 1500) {
      ++k;
    }
    ASSERT_GT(k, 0u);
    c.edit(&*index, k);
    std::string bytes;
    parquet::EncodeOffsetIndex(*index, &bytes);
    const std::string path = dir_.Join("bad.parquet");
    ASSERT_TRUE(ReplaceOffsetIndex(path_, path, c.leaf, bytes).ok());
    bool failed = false;
    ExpectRightRowsOrError(path, c.column, &failed);
    EXPECT_TRUE(failed);
    ScanResult result = ScanFile(path, RowSelection::FromPositions(std::vector<int64_t>{1500}));
    EXPECT_NE(result.status.message().find(c.message), std::string::npos)
        << result.status.ToString();
  }
}

// Every byte of a chunk's offset index flipped in turn: the right rows or a named error.
TEST_F(PageFetchCorruptionTest, ByteFlipsNeverGiveWrongRows) {
  for (int leaf : {0, 2, 4}) {
    auto reader = ParquetReader::Open(LocalFileSystem(), path_);
    ASSERT_TRUE(reader.ok());
    const auto& chunk = (*reader)->metadata().row_groups[0].columns[leaf];
    auto file = LocalFileSystem()->ReadFile(path_);
    ASSERT_TRUE(file.ok());
    const std::string original =
        file->substr(*chunk.offset_index_offset, *chunk.offset_index_length);
    const std::string column = leaf == 0 ? "i" : leaf == 2 ? "s" : "li.list.element";
    int failures = 0;
    for (size_t byte = 0; byte < original.size(); ++byte) {
      for (const uint8_t mask : {uint8_t{0x01}, uint8_t{0x40}}) {
        std::string bytes = original;
        bytes[byte] = static_cast<char>(bytes[byte] ^ mask);
        const std::string path = dir_.Join("flip.parquet");
        ASSERT_TRUE(ReplaceOffsetIndex(path_, path, leaf, bytes).ok());
        SCOPED_TRACE(::testing::Message() << "leaf " << leaf << ", byte " << byte);
        bool failed = false;
        ExpectRightRowsOrError(path, column, &failed);
        failures += failed;
        if (::testing::Test::HasFailure()) return;
      }
    }
    EXPECT_GT(failures, 0);
  }
}

}  // namespace
}  // namespace tarn
