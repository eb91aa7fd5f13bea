// Sizes a file declares are checked before tarn trusts them: a hostile footer or page index
// gets a Corruption naming the file and the offset, never an allocation sized by the lie.
// Each case rewrites the footer of a small valid file.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "parquet/metadata.h"
#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

class Prunes : public StatisticsPredicate {
 public:
  std::vector<std::string> referenced_columns() const override { return {"k"}; }
  bool MayMatch(std::span<const ColumnStatistics* const>, int64_t) const override { return true; }
};

// A 3-row-group file with a page index on `k`, as bytes.
std::string ValidFile() {
  auto fs = NewMemoryFileSystem();
  Schema schema({Field("k", DataType(TypeId::kInt64), false), Field("s", DataType(TypeId::kVarchar))});
  auto props = WriterProperties::Builder()
                   .max_row_group_rows(1000)
                   .data_page_rows(100)
                   .page_index(PageIndexMode::kOn)
                   .Build();
  EXPECT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(fs, "/v.parquet", schema, *props);
  EXPECT_TRUE(writer.ok());
  ColumnBuilder k(DataType(TypeId::kInt64));
  ColumnBuilder s(DataType(TypeId::kVarchar));
  for (int64_t row = 0; row < 3000; ++row) {
    EXPECT_TRUE(k.Append(Value::Int64(row)).ok());
    EXPECT_TRUE(s.Append(Value::Varchar("v" + std::to_string(row % 17))).ok());
  }
  auto batch = MakeBatch(std::make_shared<const Schema>(schema), {k.Finish(), s.Finish()});
  EXPECT_TRUE((*writer)->Write(*batch).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  auto bytes = fs->ReadFile("/v.parquet");
  EXPECT_TRUE(bytes.ok());
  return *bytes;
}

// The file with its footer decoded, changed by `edit`, and encoded again.
std::string WithFooter(const std::string& file,
                       const std::function<void(parquet::FileMetaData*)>& edit) {
  uint32_t length;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  const size_t footer_start = file.size() - 8 - length;
  auto metadata = parquet::DecodeFileMetaData(std::string_view(file).substr(footer_start, length));
  EXPECT_TRUE(metadata.ok());
  edit(&*metadata);
  std::string footer;
  parquet::EncodeFileMetaData(*metadata, &footer);
  const uint32_t new_length = static_cast<uint32_t>(footer.size());
  std::string out = file.substr(0, footer_start) + footer;
  out.append(reinterpret_cast<const char*>(&new_length), 4);
  out += "PAR1";
  return out;
}

// Opens and scans (with the pruning predicate, so the page index is read).
Status OpenAndScan(const std::string& bytes) {
  auto fs = NewMemoryFileSystem();
  TARN_RETURN_NOT_OK(fs->WriteFile("/x.parquet", bytes));
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(fs, "/x.parquet"));
  ScanOptions options;
  options.predicate = std::make_shared<Prunes>();
  options.with_position = true;
  TARN_ASSIGN_OR_RETURN(auto batch, reader->ReadAll(options));
  return batch->Validate();
}

void ExpectCorruption(const std::string& bytes, const std::string& message) {
  Status status = OpenAndScan(bytes);
  EXPECT_EQ(status.code(), StatusCode::kCorruption) << status.ToString();
  EXPECT_NE(status.message().find(message), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find("/x.parquet"), std::string::npos) << status.ToString();
}

TEST(DeclaredSizesTest, ValidFileScans) {
  EXPECT_TRUE(OpenAndScan(ValidFile()).ok());
}

TEST(DeclaredSizesTest, UncompressedSizeBeyondTheCodec) {
  const std::string file = ValidFile();
  ExpectCorruption(WithFooter(file,
                              [](parquet::FileMetaData* m) {
                                m->row_groups[1].columns[1].meta_data->total_uncompressed_size =
                                    int64_t{1} << 40;
                              }),
                   "row group 1, column s: column chunk at offset");
  ExpectCorruption(WithFooter(file,
                              [](parquet::FileMetaData* m) {
                                m->row_groups[0].columns[0].meta_data->total_uncompressed_size =
                                    int64_t{1} << 40;
                              }),
                   "more than codec SNAPPY can produce from its");
}

TEST(DeclaredSizesTest, RowAndValueCounts) {
  const std::string file = ValidFile();
  ExpectCorruption(WithFooter(file, [](parquet::FileMetaData* m) {
                     m->row_groups[2].num_rows = int64_t{1} << 40;
                   }),
                   "row group 2, column k: column chunk at offset");
  ExpectCorruption(WithFooter(file, [](parquet::FileMetaData* m) {
                     m->row_groups[0].columns[1].meta_data->num_values = 999;
                   }),
                   "declares 999 values for a row group of 1000 rows");
  ExpectCorruption(WithFooter(file, [](parquet::FileMetaData* m) {
                     m->row_groups[0].num_rows = -1;
                   }),
                   "RowGroup.num_rows: negative value -1");
}

TEST(DeclaredSizesTest, ChunkOutsideTheDataSection) {
  const std::string file = ValidFile();
  ExpectCorruption(WithFooter(file,
                              [](parquet::FileMetaData* m) {
                                m->row_groups[1].columns[0].meta_data->total_compressed_size =
                                    int64_t{1} << 33;
                              }),
                   "lies outside the data section");
}

TEST(DeclaredSizesTest, PageIndexLocationsAndContents) {
  const std::string file = ValidFile();
  ExpectCorruption(WithFooter(file,
                              [](parquet::FileMetaData* m) {
                                m->row_groups[1].columns[0].column_index_offset = 1 << 30;
                              }),
                   "page index at offset 1073741824 of");
  ExpectCorruption(WithFooter(file,
                              [](parquet::FileMetaData* m) {
                                m->row_groups[0].columns[0].offset_index_length = 1 << 30;
                              }),
                   "lies outside the data section");
  // The offset index of row group 2 read as row group 0's: its pages lie in another chunk.
  ExpectCorruption(WithFooter(file,
                              [](parquet::FileMetaData* m) {
                                m->row_groups[0].columns[0].offset_index_offset =
                                    m->row_groups[2].columns[0].offset_index_offset;
                                m->row_groups[0].columns[0].offset_index_length =
                                    m->row_groups[2].columns[0].offset_index_length;
                              }),
                   "offset index: page 0 at offset");
  // A column index of one chunk paired with the offset index of a chunk with other pages.
  ExpectCorruption(WithFooter(file,
                              [](parquet::FileMetaData* m) {
                                m->row_groups[0].columns[0].column_index_offset =
                                    m->row_groups[0].columns[0].offset_index_offset;
                                m->row_groups[0].columns[0].column_index_length =
                                    m->row_groups[0].columns[0].offset_index_length;
                              }),
                   "row group 0, column k");
}

}  // namespace
}  // namespace tarn
