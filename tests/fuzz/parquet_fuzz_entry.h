// The one entry point shared by the libFuzzer target (parquet_fuzzer.cc) and the corpus replay
// test (corpus_replay_test.cc): feeds arbitrary bytes through tarn's Parquet decoding.
//
// The first byte selects what the rest is:
//   0      a whole file, opened from memory: footer, schema, every row group's page index,
//          then scans (all columns with positions; a predicate that prunes on statistics and
//          the page index; a split scan; a row selection)
//   1      a serialized FileMetaData
//   2      a ColumnIndex
//   3      an OffsetIndex, then the same bytes as a chunk's page index
//   4      a PageHeader
//   other  a whole file, as 0
// A file is also tried with its own first byte kept, so seeds may be plain Parquet files.
//
// Every outcome but a crash, a sanitizer report, a leak, or an allocation past libFuzzer's
// limit is acceptable: decoding errors are the expected answer to most inputs.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "parquet/metadata.h"
#include "parquet/page_index.h"
#include "tarn/parquet.h"

namespace tarn::fuzz {

// A RandomAccessFile over the fuzzer's bytes.
class BytesFile : public RandomAccessFile {
 public:
  explicit BytesFile(std::string bytes) : bytes_(std::move(bytes)) {}
  const std::string& path() const override { return path_; }
  int64_t size() const override { return static_cast<int64_t>(bytes_.size()); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    if (offset < 0 || length < 0 || offset > size() || length > size() - offset) {
      return Status::IOError(path_, ": read of ", length, " bytes at ", offset, " past the end");
    }
    if (length > 0) std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

 private:
  std::string bytes_;
  std::string path_ = "/fuzz.parquet";
};

// Prunes on whatever statistics it is given: keeps a group unless the first referenced
// column's bounds exclude a value derived from the input, so both outcomes occur.
class FuzzPredicate : public StatisticsPredicate {
 public:
  FuzzPredicate(std::string column, int64_t pivot) : column_(std::move(column)), pivot_(pivot) {}
  std::vector<std::string> referenced_columns() const override { return {column_}; }
  bool MayMatch(std::span<const ColumnStatistics* const> stats, int64_t num_rows) const override {
    if (num_rows == 0) return false;
    if (stats.empty() || stats[0] == nullptr) return true;
    const auto lower = stats[0]->LowerBound();
    const auto upper = stats[0]->UpperBound();
    if (stats[0]->null_count && *stats[0]->null_count > num_rows) return true;
    if (lower && std::holds_alternative<int64_t>(lower->storage()) &&
        lower->GetInt64() > pivot_) {
      return false;
    }
    if (upper && std::holds_alternative<int64_t>(upper->storage()) &&
        upper->GetInt64() < pivot_ - 1000) {
      return false;
    }
    return true;
  }

 private:
  std::string column_;
  int64_t pivot_;
};

inline void Drain(const ParquetReader& reader, const ScanOptions& options) {
  auto scan = reader.Scan(options);
  if (!scan.ok()) return;
  while (true) {
    auto batch = (*scan)->Next();
    if (!batch.ok() || *batch == nullptr) return;
    (void)(*batch)->Validate();
  }
}

inline void FuzzFile(std::string bytes) {
  auto reader = ParquetReader::Open(std::make_shared<BytesFile>(std::move(bytes)));
  if (!reader.ok()) return;
  const ParquetReader& file = **reader;
  // Decoding a row group costs time in its row count; huge declared counts are a matter for
  // the limits, not for the speed of fuzzing.
  if (file.num_rows() > (int64_t{1} << 22)) return;
  ScanOptions options;
  options.with_position = true;
  options.batch_rows = 1000;
  options.max_parallel_row_groups = 1;
  Drain(file, options);
  if (file.schema().num_fields() > 0) {
    ScanOptions pruned = options;
    pruned.predicate = std::make_shared<FuzzPredicate>(file.schema().field(0).name,
                                                       file.num_rows() / 2);
    Drain(file, pruned);
    ScanOptions split = options;
    split.split_offset = file.file_size() / 3;
    split.split_length = file.file_size() / 3;
    split.selection = RowSelection::FromRanges({{1, 3}, {file.num_rows() / 2, file.num_rows()}});
    Drain(file, split);
  }
}

inline int FuzzParquetBytes(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0]) {
    case 1:
      (void)parquet::DecodeFileMetaData(rest);
      break;
    case 2:
      (void)parquet::DecodeColumnIndex(rest);
      break;
    case 3: {
      (void)parquet::DecodeOffsetIndex(rest);
      const size_t half = rest.size() / 2;
      (void)parquet::ChunkPageIndex::Decode(rest.substr(0, half), rest.substr(half), 1000, 4,
                                            4096, "fuzz");
      break;
    }
    case 4: {
      int64_t consumed = 0;
      (void)parquet::DecodePageHeader(rest, &consumed);
      break;
    }
    default:
      FuzzFile(std::string(rest));
      break;
  }
  if (size >= 4 && std::memcmp(data, "PAR1", 4) == 0) {
    FuzzFile(std::string(reinterpret_cast<const char*>(data), size));
  }
  return 0;
}

}  // namespace tarn::fuzz
