// ParquetWriter behaviour checked through the footer tarn writes (decoded by tarn's metadata
// codec) and against simple models: row-group cuts by rows and bytes, bounded buffering,
// Abandon, failure injection, page caps, dictionary fallback, statistics (float edge cases,
// truncation), and property validation.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "parquet/metadata.h"
#include "support/test_util.h"
#include "tarn/io.h"
#include "tarn/parquet.h"
#include "writer_test_util.h"

namespace tarn {
namespace {

using parquet::CompressionCodec;
using parquet::Encoding;
using parquet::FileMetaData;
using parquet::PageType;

Result<FileMetaData> ReadFooter(FileSystem& fs, const std::string& path) {
  TARN_ASSIGN_OR_RETURN(std::string bytes, fs.ReadFile(path));
  if (bytes.size() < 12 || bytes.substr(0, 4) != "PAR1" || bytes.substr(bytes.size() - 4) != "PAR1") {
    return Status::Corruption("bad magic");
  }
  uint32_t length;
  std::memcpy(&length, bytes.data() + bytes.size() - 8, 4);
  return parquet::DecodeFileMetaData(
      std::string_view(bytes).substr(bytes.size() - 8 - length, length));
}

std::shared_ptr<Batch> Int64Batch(int64_t first, int64_t rows) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field("v", DataType(TypeId::kInt64))});
  ColumnBuilder builder(DataType(TypeId::kInt64));
  for (int64_t row = 0; row < rows; ++row) builder.AppendNumber<int64_t>(first + row);
  return MakeBatch(schema, {builder.Finish()});
}

std::shared_ptr<const WriterProperties> Props(WriterProperties::Builder builder) {
  auto props = builder.Build();
  EXPECT_TRUE(props.ok()) << props.status().ToString();
  return *props;
}

// Collects appended bytes in memory so a test can see what reached the file.
class RecordingFile final : public WritableFile {
 public:
  explicit RecordingFile(std::string* sink) : sink_(sink) {}
  const std::string& path() const override { return path_; }
  Status Append(std::string_view bytes) override {
    sink_->append(bytes);
    return Status::OK();
  }
  int64_t bytes_written() const override { return static_cast<int64_t>(sink_->size()); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }

 private:
  std::string path_ = "recording.parquet";
  std::string* sink_;
};

TEST(ParquetWriterTest, RowGroupsSplitByRows) {
  auto fs = NewMemoryFileSystem();
  Schema schema({Field("v", DataType(TypeId::kInt64))});
  auto writer = ParquetWriter::Open(fs, "f.parquet", schema,
                                    Props(WriterProperties::Builder().max_row_group_rows(100)));
  ASSERT_TRUE(writer.ok());
  for (int batch = 0; batch < 5; ++batch) ASSERT_TRUE((*writer)->Write(*Int64Batch(batch * 73, 73)).ok());
  auto info = (*writer)->Finish();
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->num_rows, 365);
  EXPECT_EQ(info->num_row_groups, 4);
  auto footer = ReadFooter(*fs, "f.parquet");
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  std::vector<int64_t> rows;
  for (const auto& group : footer->row_groups) rows.push_back(group.num_rows);
  EXPECT_EQ(rows, (std::vector<int64_t>{100, 100, 100, 65}));
  EXPECT_EQ(footer->num_rows, 365);
  EXPECT_EQ(info->columns[0].stats.min->GetInt64(), 0);
  EXPECT_EQ(info->columns[0].stats.max->GetInt64(), 364);
  EXPECT_EQ(info->file_size, fs->Stat("f.parquet")->size);
}

TEST(ParquetWriterTest, RowGroupsSplitByBytesAndBufferStaysBounded) {
  std::string sink;
  Schema schema({Field("v", DataType(TypeId::kInt64))});
  const int64_t cap = 20000;
  auto writer = ParquetWriter::Open(std::make_unique<RecordingFile>(&sink), schema,
                                    Props(WriterProperties::Builder().max_row_group_bytes(cap)));
  ASSERT_TRUE(writer.ok());
  int64_t max_batch_bytes = 0;
  for (int batch = 0; batch < 40; ++batch) {
    auto data = Int64Batch(batch * 700, 700);
    max_batch_bytes = std::max(max_batch_bytes, data->column(0).values->size());
    ASSERT_TRUE((*writer)->Write(*data).ok());
    int64_t buffered = (*writer)->EstimatedFileSize() - static_cast<int64_t>(sink.size());
    EXPECT_LE(buffered, cap + max_batch_bytes) << "after batch " << batch;
    EXPECT_GE(buffered, 0);
  }
  ASSERT_TRUE((*writer)->Finish().ok());
  std::string_view bytes = sink;
  uint32_t length;
  std::memcpy(&length, bytes.data() + bytes.size() - 8, 4);
  auto footer = parquet::DecodeFileMetaData(bytes.substr(bytes.size() - 8 - length, length));
  ASSERT_TRUE(footer.ok());
  ASSERT_GT(footer->row_groups.size(), 5u);
  int64_t total = 0;
  for (const auto& group : footer->row_groups) {
    // 8 bytes per row: a group holds at most cap / 8 rows (plus rounding of one row).
    EXPECT_LE(group.num_rows, cap / 8 + 1);
    total += group.num_rows;
  }
  EXPECT_EQ(total, 40 * 700);
  for (size_t i = 0; i + 1 < footer->row_groups.size(); ++i) {
    EXPECT_GE(footer->row_groups[i].num_rows, cap / 8 - 1) << "row group " << i << " cut early";
  }
}

TEST(ParquetWriterTest, AbandonLeavesNoFile) {
  testing::TempDir dir;
  auto fs = LocalFileSystem();
  Schema schema({Field("v", DataType(TypeId::kInt64))});
  auto writer = ParquetWriter::Open(fs, dir.Join("a.parquet"), schema,
                                    Props(WriterProperties::Builder().max_row_group_rows(10)));
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write(*Int64Batch(0, 55)).ok());  // several row groups reached disk
  (*writer)->Abandon();
  EXPECT_FALSE(*fs->Exists(dir.Join("a.parquet")));
  EXPECT_TRUE(fs->List(dir.path(), true)->empty());
  EXPECT_FALSE((*writer)->Write(*Int64Batch(0, 1)).ok());
  EXPECT_FALSE((*writer)->Finish().ok());
}

TEST(ParquetWriterTest, EveryFailingWriteOrCloseIsACleanError) {
  testing::GeneratedTable table =
      testing::GenerateTable(testing::NestedTypesSchema(), 200, 11);
  int failures = 0;
  for (int64_t fail_at = 0;; ++fail_at) {
    auto base = NewMemoryFileSystem();
    auto fs = std::make_shared<FaultInjectingFileSystem>(base);
    fs->FailAfter(fail_at, {FaultInjectingFileSystem::Op::kOpenWrite,
                            FaultInjectingFileSystem::Op::kAppend,
                            FaultInjectingFileSystem::Op::kClose});
    Status status;
    auto writer = ParquetWriter::Open(fs, "x.parquet", *table.schema,
                                      Props(WriterProperties::Builder().max_row_group_rows(30)));
    if (!writer.ok()) {
      status = writer.status();
    } else {
      for (int64_t offset = 0; offset < 200 && status.ok(); offset += 45) {
        status = (*writer)->Write(*testing::MakeBatchFrom(table, offset,
                                                           std::min<int64_t>(45, 200 - offset)));
      }
      if (status.ok()) status = (*writer)->Finish().status();
    }
    if (status.ok()) {
      EXPECT_TRUE(*base->Exists("x.parquet"));
      break;
    }
    ++failures;
    EXPECT_EQ(status.code(), StatusCode::kIOError) << status.ToString();
    EXPECT_NE(status.message().find("x.parquet"), std::string::npos) << status.ToString();
    EXPECT_FALSE(*base->Exists("x.parquet")) << "fail_at " << fail_at;
    ASSERT_LT(fail_at, 10000);
  }
  EXPECT_GT(failures, 8);  // open, magic, every row group's chunks, footer, close
}

FileMetaData WriteAndReadFooter(const Schema& schema, const std::vector<std::shared_ptr<Batch>>& batches,
                                std::shared_ptr<const WriterProperties> props,
                                WrittenFileInfo* info_out = nullptr) {
  auto fs = NewMemoryFileSystem();
  auto writer = ParquetWriter::Open(fs, "p.parquet", schema, props);
  EXPECT_TRUE(writer.ok());
  for (const auto& batch : batches) EXPECT_TRUE((*writer)->Write(*batch).ok());
  auto info = (*writer)->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  if (info_out && info.ok()) *info_out = *info;
  auto footer = ReadFooter(*fs, "p.parquet");
  EXPECT_TRUE(footer.ok()) << footer.status().ToString();
  if (info.ok() && footer.ok()) {
    std::string encoded;
    parquet::EncodeFileMetaData(*footer, &encoded);
    EXPECT_EQ(info->footer_size, static_cast<int64_t>(encoded.size()));
  }
  return footer.ok() ? *footer : FileMetaData();
}

int32_t DataPages(const parquet::ColumnMetaData& meta) {
  int32_t pages = 0;
  for (const auto& stat : meta.encoding_stats) {
    if (stat.page_type != PageType::kDictionaryPage) pages += stat.count;
  }
  return pages;
}

bool UsesDictionary(const parquet::ColumnMetaData& meta) {
  for (Encoding encoding : meta.encodings) {
    if (encoding == Encoding::kRleDictionary) return true;
  }
  return false;
}

TEST(ParquetWriterTest, PagesCappedByRowsAndBytes) {
  Schema schema({Field("v", DataType(TypeId::kInt64))});
  auto by_rows = WriteAndReadFooter(schema, {Int64Batch(0, 1000)},
                                    Props(WriterProperties::Builder().data_page_rows(64)));
  ASSERT_EQ(by_rows.row_groups.size(), 1u);
  EXPECT_EQ(DataPages(*by_rows.row_groups[0].columns[0].meta_data), 16);  // ceil(1000 / 64)
  auto by_bytes = WriteAndReadFooter(
      schema, {Int64Batch(0, 1000)},
      Props(WriterProperties::Builder().data_page_bytes(800).dictionary_enabled(false)));
  EXPECT_EQ(DataPages(*by_bytes.row_groups[0].columns[0].meta_data), 10);  // 100 values of 8 B
}

TEST(ParquetWriterTest, DictionaryFallsBackToPlainAtTheLimit) {
  // 50 distinct strings of 10 bytes: the dictionary needs 50 * 14 = 700 bytes.
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field("s", DataType(TypeId::kVarchar))});
  ColumnBuilder builder(DataType(TypeId::kVarchar));
  for (int row = 0; row < 1000; ++row) builder.AppendBytes("value-" + std::to_string(1000 + row % 50));
  auto batch = MakeBatch(schema, {builder.Finish()});
  for (int page_version : {1, 2}) {
    auto fits = WriteAndReadFooter(*schema, {batch},
                                   Props(WriterProperties::Builder()
                                             .dictionary_page_bytes_limit(700)
                                             .data_page_version(page_version)));
    const auto& fits_meta = *fits.row_groups[0].columns[0].meta_data;
    EXPECT_TRUE(UsesDictionary(fits_meta));
    EXPECT_EQ(fits_meta.dictionary_page_offset, 4);
    auto over = WriteAndReadFooter(*schema, {batch},
                                   Props(WriterProperties::Builder()
                                             .dictionary_page_bytes_limit(699)
                                             .data_page_version(page_version)));
    const auto& over_meta = *over.row_groups[0].columns[0].meta_data;
    EXPECT_FALSE(UsesDictionary(over_meta));
    EXPECT_FALSE(over_meta.dictionary_page_offset.has_value());
    EXPECT_LT(fits_meta.total_uncompressed_size, over_meta.total_uncompressed_size);
  }
}

TEST(ParquetWriterTest, FloatStatisticsFollowTheModel) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::vector<double> values;
    std::optional<double> min, max;  // expected; nullopt = no bounds
    int64_t nans;
  };
  std::vector<Case> cases = {
      {{1.0, nan, -2.5, 3.0}, -2.5, 3.0, 1},
      {{0.0, 0.0}, -0.0, 0.0, 0},
      {{-0.0, 5.0}, -0.0, 5.0, 0},
      {{-3.0, -0.0}, -3.0, 0.0, 0},
      {{nan, -nan}, std::nullopt, std::nullopt, 2},
      {{-inf, nan, inf}, -inf, inf, 1},
  };
  for (TypeId id : {TypeId::kFloat32, TypeId::kFloat64}) {
    for (const Case& c : cases) {
      auto schema = std::make_shared<Schema>(std::vector<Field>{Field("f", DataType(id))});
      // Two row groups: the file statistics merge both.
      std::vector<std::shared_ptr<Batch>> batches;
      for (double v : c.values) {
        ColumnBuilder builder{DataType(id)};
        if (id == TypeId::kFloat32) builder.AppendNumber<float>(static_cast<float>(v));
        else builder.AppendNumber<double>(v);
        builder.AppendNull();
        batches.push_back(MakeBatch(schema, {builder.Finish()}));
      }
      WrittenFileInfo info;
      WriteAndReadFooter(*schema, batches, Props(WriterProperties::Builder().max_row_group_rows(2)),
                         &info);
      ASSERT_EQ(info.columns.size(), 1u);
      const ColumnStatistics& stats = info.columns[0].stats;
      EXPECT_EQ(info.num_row_groups, static_cast<int>(c.values.size()));
      EXPECT_EQ(stats.null_count, static_cast<int64_t>(c.values.size()));
      EXPECT_EQ(stats.nan_count, c.nans);
      EXPECT_EQ(info.columns[0].contains_nan, c.nans > 0);
      ASSERT_EQ(stats.min.has_value(), c.min.has_value());
      if (c.min) {
        EXPECT_EQ(stats.min->GetDouble(), *c.min);
        EXPECT_EQ(std::signbit(stats.min->GetDouble()), std::signbit(*c.min));
        EXPECT_EQ(stats.max->GetDouble(), *c.max);
        EXPECT_EQ(std::signbit(stats.max->GetDouble()), std::signbit(*c.max));
      }
    }
  }
}

TEST(ParquetWriterTest, IntegerStatisticsUseTheLogicalSortOrder) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("u", DataType(TypeId::kUInt32)), Field("i", DataType(TypeId::kInt32)),
      Field("d", DataType::Decimal(30, 2))});
  ColumnBuilder u{DataType(TypeId::kUInt32)}, i{DataType(TypeId::kInt32)}, d{DataType::Decimal(30, 2)};
  for (uint32_t v : {5u, 0xFFFFFFF0u, 7u}) u.AppendNumber<uint32_t>(v);
  for (int32_t v : {5, -16, 7}) i.AppendNumber<int32_t>(v);
  for (__int128 v : {__int128{5}, -(__int128{1} << 100), __int128{1} << 90}) d.AppendNumber<__int128>(v);
  WrittenFileInfo info;
  WriteAndReadFooter(*schema, {MakeBatch(schema, {u.Finish(), i.Finish(), d.Finish()})},
                     Props(WriterProperties::Builder()), &info);
  EXPECT_EQ(info.columns[0].stats.min->GetUInt64(), 5u);
  EXPECT_EQ(info.columns[0].stats.max->GetUInt64(), 0xFFFFFFF0u);
  EXPECT_EQ(info.columns[1].stats.min->GetInt64(), -16);
  EXPECT_EQ(info.columns[1].stats.max->GetInt64(), 7);
  EXPECT_TRUE(info.columns[2].stats.min->GetInt128() == -(__int128{1} << 100));
  EXPECT_TRUE(info.columns[2].stats.max->GetInt128() == (__int128{1} << 90));
}

TEST(ParquetWriterTest, BinaryStatisticsTruncateToBounds) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field("s", DataType(TypeId::kBlob))});
  ColumnBuilder builder{DataType(TypeId::kBlob)};
  builder.AppendBytes(std::string(20, 'b') + "zz");
  builder.AppendBytes(std::string(10, 'a') + std::string(12, '\xff'));
  builder.AppendBytes(std::string("c") + std::string(30, '\xff'));
  WrittenFileInfo info;
  auto footer = WriteAndReadFooter(*schema, {MakeBatch(schema, {builder.Finish()})},
                                   Props(WriterProperties::Builder().statistics_truncate_length(8)),
                                   &info);
  const ColumnStatistics& stats = info.columns[0].stats;
  EXPECT_EQ(stats.min->GetBytes(), std::string(8, 'a'));
  EXPECT_FALSE(stats.min_exact);
  EXPECT_EQ(stats.max->GetBytes(), "d");  // "c\xff\xff..." -> prefix "c" + 1
  EXPECT_FALSE(stats.max_exact);
  const auto& thrift = *footer.row_groups[0].columns[0].meta_data->statistics;
  EXPECT_EQ(*thrift.min_value, std::string(8, 'a'));
  EXPECT_EQ(*thrift.max_value, "d");
  EXPECT_FALSE(thrift.min.has_value());  // unsigned order: no deprecated fields

  // A max of only 0xFF bytes cannot be rounded up: no bounds at all.
  ColumnBuilder all_ff{DataType(TypeId::kBlob)};
  all_ff.AppendBytes(std::string(10, '\xff'));
  WrittenFileInfo ff_info;
  WriteAndReadFooter(*schema, {MakeBatch(schema, {all_ff.Finish()})},
                     Props(WriterProperties::Builder().statistics_truncate_length(8)), &ff_info);
  EXPECT_FALSE(ff_info.columns[0].stats.min.has_value());
  EXPECT_EQ(ff_info.columns[0].stats.null_count, 0);
}

TEST(ParquetWriterTest, FooterCarriesMetadataAndCreatedBy) {
  auto fs = NewMemoryFileSystem();
  Schema schema({Field("v", DataType(TypeId::kInt64), false, 42)});
  auto writer = ParquetWriter::Open(fs, "m.parquet", schema,
                                    Props(WriterProperties::Builder().created_by("tarn test")),
                                    {{"k1", "v1"}, {"k2", ""}});
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write(*Int64Batch(0, 3)).ok());
  auto info = (*writer)->Finish();
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->columns[0].field_id, 42);
  EXPECT_EQ(info->columns[0].path, std::vector<std::string>{"v"});
  auto footer = ReadFooter(*fs, "m.parquet");
  ASSERT_TRUE(footer.ok());
  EXPECT_EQ(footer->created_by, "tarn test");
  ASSERT_EQ(footer->key_value_metadata.size(), 2u);
  EXPECT_EQ(footer->key_value_metadata[0].key, "k1");
  EXPECT_EQ(footer->key_value_metadata[0].value, "v1");
  EXPECT_EQ(footer->schema[1].field_id, 42);
  EXPECT_EQ(footer->schema[1].repetition_type, parquet::Repetition::kRequired);
}

TEST(ParquetWriterTest, RejectsMismatchedBatchesAndNullsInRequiredColumns) {
  auto fs = NewMemoryFileSystem();
  Schema schema({Field("v", DataType(TypeId::kInt64), false)});
  auto writer = ParquetWriter::Open(fs, "r.parquet", schema, Props(WriterProperties::Builder()));
  ASSERT_TRUE(writer.ok());
  auto wrong = std::make_shared<Schema>(std::vector<Field>{Field("v", DataType(TypeId::kInt32))});
  ColumnBuilder ints{DataType(TypeId::kInt32)};
  ints.AppendNumber<int32_t>(1);
  Status mismatch = (*writer)->Write(*MakeBatch(wrong, {ints.Finish()}));
  EXPECT_EQ(mismatch.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(mismatch.message().find("expected BIGINT"), std::string::npos) << mismatch.ToString();
  ColumnBuilder nulls{DataType(TypeId::kInt64)};
  nulls.AppendNull();
  auto nullable = std::make_shared<Schema>(std::vector<Field>{Field("v", DataType(TypeId::kInt64))});
  ASSERT_TRUE((*writer)->Write(*MakeBatch(nullable, {nulls.Finish()})).ok());  // buffered
  Status flushed = (*writer)->FlushRowGroup();
  EXPECT_EQ(flushed.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(flushed.message().find("NOT NULL"), std::string::npos) << flushed.ToString();
  EXPECT_FALSE(*fs->Exists("r.parquet"));
}

TEST(ParquetWriterTest, PageCrcCoversThePageBytes) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field("s", DataType(TypeId::kVarchar))});
  ColumnBuilder builder(DataType(TypeId::kVarchar));
  for (int row = 0; row < 500; ++row) {
    if (row % 7 == 0) builder.AppendNull();
    else builder.AppendBytes("v" + std::to_string(row % 40));
  }
  auto batch = MakeBatch(schema, {builder.Finish()});
  for (int page_version : {1, 2}) {
    auto fs = NewMemoryFileSystem();
    auto writer = ParquetWriter::Open(fs, "c.parquet", *schema,
                                      Props(WriterProperties::Builder()
                                                .write_page_crc(true)
                                                .data_page_rows(100)
                                                .data_page_version(page_version)
                                                .compression(static_cast<int>(CompressionCodec::kGzip))));
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(*batch).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
    std::string bytes = *fs->ReadFile("c.parquet");
    auto footer = ReadFooter(*fs, "c.parquet");
    ASSERT_TRUE(footer.ok());
    const auto& meta = *footer->row_groups[0].columns[0].meta_data;
    int64_t pos = *meta.dictionary_page_offset;
    int64_t end = pos + meta.total_compressed_size;
    int pages = 0;
    while (pos < end) {
      int64_t consumed = 0;
      auto header = parquet::DecodePageHeader(std::string_view(bytes).substr(pos), &consumed);
      ASSERT_TRUE(header.ok()) << header.status().ToString();
      ASSERT_TRUE(header->crc.has_value());
      uint32_t crc = static_cast<uint32_t>(
          crc32(0L, reinterpret_cast<const Bytef*>(bytes.data() + pos + consumed),
                static_cast<uInt>(header->compressed_page_size)));
      EXPECT_EQ(static_cast<uint32_t>(*header->crc), crc) << "page " << pages;
      pos += consumed + header->compressed_page_size;
      ++pages;
    }
    EXPECT_EQ(pos, end);
    EXPECT_EQ(pages, 6);  // dictionary + 5 data pages of 100 rows
  }
}

TEST(WriterPropertiesTest, BuildValidatesEachOption) {
  auto expect_error = [](WriterProperties::Builder builder, const std::string& option) {
    auto props = builder.Build();
    ASSERT_FALSE(props.ok()) << option;
    EXPECT_EQ(props.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(props.status().message().find(option), std::string::npos) << props.status().ToString();
  };
  expect_error(WriterProperties::Builder().compression(static_cast<int>(CompressionCodec::kLzo)),
               "compression");
  expect_error(WriterProperties::Builder().max_row_group_rows(0), "max_row_group_rows");
  expect_error(WriterProperties::Builder().max_row_group_bytes(0), "max_row_group_bytes");
  expect_error(WriterProperties::Builder().data_page_bytes(0), "data_page_bytes");
  expect_error(WriterProperties::Builder().data_page_rows(-1), "data_page_rows");
  expect_error(WriterProperties::Builder().dictionary_page_bytes_limit(-1),
               "dictionary_page_bytes_limit");
  expect_error(WriterProperties::Builder().data_page_version(3), "data_page_version");
  expect_error(WriterProperties::Builder().statistics_truncate_length(0),
               "statistics_truncate_length");
  auto defaults = WriterProperties::Builder().Build();
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ((*defaults)->compression(), static_cast<int>(CompressionCodec::kSnappy));
  EXPECT_EQ((*defaults)->max_row_group_rows(), 122880);
  EXPECT_EQ((*defaults)->data_page_version(), 1);
}

// Parquet's INTERVAL is three unsigned words (months, days, milliseconds). What fits is
// written and read back (to the millisecond); a negative part is refused as DuckDB refuses it,
// and a time part of 2^32 ms or more too, rather than written as another value.
TEST(ParquetWriterTest, IntervalsThatDoNotFitAreRefused) {
  auto write = [](const Interval& interval, std::shared_ptr<FileSystem> fs) -> Status {
    const DataType type(TypeId::kInterval);
    auto schema = std::make_shared<Schema>(std::vector<Field>{Field("i", type)});
    ColumnBuilder builder(type);
    TARN_RETURN_NOT_OK(builder.Append(Value::MakeInterval(interval)));
    TARN_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(fs, "/i.parquet", *schema,
                                                           Props(WriterProperties::Builder())));
    TARN_RETURN_NOT_OK(writer->Write(*MakeBatch(schema, {builder.Finish()})));
    return writer->Finish().status();
  };
  auto fs = NewMemoryFileSystem();
  Interval fits{14, 3, (int64_t{0xFFFFFFFF} * 1000 + 999) * 1000};
  ASSERT_TRUE(write(fits, fs).ok());
  auto reader = ParquetReader::Open(fs, "/i.parquet");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto read = (*reader)->ReadAll();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  Interval expected = fits;
  expected.nanos = int64_t{0xFFFFFFFF} * 1000000;
  EXPECT_EQ((*read)->column(0).GetValue(0), Value::MakeInterval(expected));
  const std::pair<Interval, const char*> kNegative[] = {
      {Interval{-1, 0, 0}, "-1 month"},
      {Interval{0, -1, 0}, "-1 day"},
      {Interval{0, 0, -1000}, "-00:00:00.000001"},
      {Interval{1, 1, -1}, "1 month 1 day -00:00:00.000000001"}};
  for (const auto& [negative, shown] : kNegative) {
    Status status = write(negative, NewMemoryFileSystem());
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.message(),
              StrCat("parquet writer /i.parquet: column 'i': Parquet files do not support "
                     "negative intervals (the value ", shown, ")"));
  }
  Status too_long = write(Interval{0, 0, int64_t{0x100000000} * 1000000}, NewMemoryFileSystem());
  ASSERT_FALSE(too_long.ok());
  EXPECT_NE(too_long.message().find("2^32 milliseconds"), std::string::npos) << too_long.message();
  EXPECT_NE(too_long.message().find("the INTERVAL 1193:02:47.296 does not fit"), std::string::npos) << too_long.message();
}

// TIMESTAMP_S is written as TIMESTAMP(MICROS), each value scaled, whatever path the values
// take: a column without NULLs (once copied as is, so 2000-01-01 00:00:01 read back as
// 1970-01-01 00:15:46.684801), one with NULLs, and list elements.
TEST(ParquetWriterTest, TimestampSecondsAreScaledToMicroseconds) {
  const DataType type(TypeId::kTimestampS);
  const DataType list = DataType::List(Field("element", type));
  auto schema = std::make_shared<Schema>(
      std::vector<Field>{Field("dense", type), Field("nullable", type), Field("list", list)});
  const int64_t kSeconds[] = {946684801, -62135596800, 253402300799, -1};
  ColumnBuilder dense(type), nullable(type), lists(list);
  for (int64_t seconds : kSeconds) {
    ASSERT_TRUE(dense.Append(Value::Int(type, seconds)).ok());
    ASSERT_TRUE(nullable.Append(seconds == -1 ? Value::Null(type) : Value::Int(type, seconds)).ok());
    ASSERT_TRUE(lists.Append(Value::Nested(list, {Value::Int(type, seconds)})).ok());
  }
  auto fs = NewMemoryFileSystem();
  auto writer = ParquetWriter::Open(fs, "/s.parquet", *schema, Props(WriterProperties::Builder()));
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE(
      (*writer)->Write(*MakeBatch(schema, {dense.Finish(), nullable.Finish(), lists.Finish()})).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  auto reader = ParquetReader::Open(fs, "/s.parquet");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto read = (*reader)->ReadAll();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const DataType micros(TypeId::kTimestamp);
  for (size_t row = 0; row < std::size(kSeconds); ++row) {
    const int64_t seconds = kSeconds[row];
    const auto r = static_cast<int64_t>(row);
    EXPECT_EQ((*read)->column(0).GetValue(r), Value::Int(micros, seconds * 1000000)) << row;
    EXPECT_EQ((*read)->column(1).GetValue(r),
              seconds == -1 ? Value::Null(micros) : Value::Int(micros, seconds * 1000000))
        << row;
    EXPECT_EQ((*read)->column(2).GetValue(r),
              Value::Nested(DataType::List(Field("element", micros)),
                            {Value::Int(micros, seconds * 1000000)}))
        << row;
  }
}

// TIMESTAMP_MS is written as TIMESTAMP(MILLIS) and read as TIMESTAMP (microseconds), as DuckDB
// reads it: ±infinity (±(2^63 - 1) in every unit) stay infinite instead of wrapping to
// 1970-01-01 00:00:00.001, in the values and in the chunk statistics.
TEST(ParquetWriterTest, InfiniteMillisecondTimestampsReadBackInfinite) {
  const DataType type(TypeId::kTimestampMs);
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field("t", type)});
  const int64_t kMillis[] = {INT64_MAX, -INT64_MAX, 946684801123};
  ColumnBuilder builder(type);
  for (int64_t millis : kMillis) ASSERT_TRUE(builder.Append(Value::Int(type, millis)).ok());
  auto fs = NewMemoryFileSystem();
  auto writer = ParquetWriter::Open(fs, "/ms.parquet", *schema, Props(WriterProperties::Builder()));
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(*MakeBatch(schema, {builder.Finish()})).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  auto reader = ParquetReader::Open(fs, "/ms.parquet");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto read = (*reader)->ReadAll();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const DataType micros(TypeId::kTimestamp);
  EXPECT_EQ((*read)->column(0).GetValue(0), Value::Int(micros, INT64_MAX));
  EXPECT_EQ((*read)->column(0).GetValue(1), Value::Int(micros, -INT64_MAX));
  EXPECT_EQ((*read)->column(0).GetValue(2), Value::Int(micros, 946684801123000));
}

// Parquet has no unit of seconds, so TIMESTAMP_S is written in microseconds; a value without
// a microsecond form (±infinity) is refused in DuckDB's words, naming the column and value.
TEST(ParquetWriterTest, TimestampSecondsWithoutMicrosecondFormAreRefused) {
  const DataType type(TypeId::kTimestampS);
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("t", DataType::List(Field("element", type)))});
  for (const auto& [seconds, shown] :
       {std::pair<int64_t, const char*>{INT64_MAX, "infinity"}, {-INT64_MAX, "-infinity"}}) {
    ColumnBuilder builder(schema->field(0).type);
    ASSERT_TRUE(builder.Append(Value::Nested(schema->field(0).type,
                                             {Value::Int(type, 1), Value::Int(type, seconds)}))
                    .ok());
    auto fs = NewMemoryFileSystem();
    auto writer = ParquetWriter::Open(fs, "/t.parquet", *schema, Props(WriterProperties::Builder()));
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    Status status = (*writer)->Write(*MakeBatch(schema, {builder.Finish()}));
    if (status.ok()) status = (*writer)->Finish().status();
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.message(),
              StrCat("parquet writer /t.parquet: column 't': Could not convert Timestamp(S) to "
                     "Timestamp(US): the value ", shown, " has no microsecond form"));
  }
}

}  // namespace
}  // namespace tarn
