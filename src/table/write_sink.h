// DataFileSink: rows streamed into the data files of one table (or of one partition of it) as
// they come. A file is opened on the first row, rolled when it reaches target_file_size and
// finished with its catalog statistics, so a write of any size holds at most one row group of
// the Parquet writer plus the batch being added, never the whole input.
//
// Files go under `table.path + directory` (directory empty or ending in '/'); their catalog
// paths are relative to the table's path, and carry the partition id and values given. Every
// file the sink finishes is recorded in state.written_files; Abandon (or destroying an
// unfinished sink) deletes what it wrote.
//
// Thread-safety: one thread at a time; uses one WriteState.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "table/write_state.h"
#include "tarn/parquet.h"

namespace tarn::table_internal {

// Where a sink's files go and what the catalog says of their partition.
struct SinkTarget {
  std::string directory;  // relative to the table's path: "" or "k=v/…/"
  std::optional<int64_t> partition_id;
  std::vector<std::optional<std::string>> partition_values;  // by partition key index
};

// Where rows of a write go: one DataFileSink, or one per partition.
class RowSink {
 public:
  virtual ~RowSink() = default;
  // REQUIRES: batch is of the sink's file schema; not finished.
  virtual Status Add(const Batch& batch) = 0;
  // Finishes the open files and hands over every file written (the sink keeps none).
  virtual Result<std::vector<PendingDataFile>> Finish() = 0;
  // Deletes every file written so far.
  virtual void Abandon() = 0;
  // The most bytes of rows the sink held at once (the open files' buffered row groups).
  virtual int64_t peak_held_bytes() const = 0;
};

// The sink for rows of `table` in `file_schema` (the table's top-level columns, then
// _ducklake_internal_row_id when `embeds_row_ids`): partitioned by the table's current spec
// (PartitionedSink) when it has one, else one DataFileSink.
std::unique_ptr<RowSink> MakeTableSink(WriteState& state, const TableInfo& table,
                                       const WriteSettings& settings,
                                       std::shared_ptr<const Schema> file_schema,
                                       bool embeds_row_ids);

class DataFileSink final : public RowSink {
 public:
  DataFileSink(WriteState& state, const TableInfo& table, WriteSettings settings,
               std::shared_ptr<const Schema> file_schema, bool embeds_row_ids,
               SinkTarget target = {});
  ~DataFileSink() override;
  DataFileSink(const DataFileSink&) = delete;
  DataFileSink& operator=(const DataFileSink&) = delete;

  Status Add(const Batch& batch) override;
  Result<std::vector<PendingDataFile>> Finish() override;
  void Abandon() override;
  int64_t peak_held_bytes() const override { return peak_held_bytes_; }

  // Bytes of rows the sink holds now (the open file's buffered row group).
  int64_t held_bytes() const;
  int64_t rows() const { return rows_; }

 private:
  Status Write(const Batch& batch);
  Status FinishFile();
  void NotePeak();

  WriteState& state_;
  const TableInfo& table_;
  WriteSettings settings_;
  std::shared_ptr<const Schema> file_schema_;
  bool embeds_row_ids_;
  SinkTarget target_;
  std::unique_ptr<ParquetWriter> writer_;  // the open file, if any
  std::string name_;                       // its name relative to the table's path
  std::string absolute_path_;
  std::vector<PendingDataFile> written_;
  int64_t rows_ = 0;
  int64_t peak_held_bytes_ = 0;
  bool done_ = false;
};

// Rows of a partitioned table split by the table's current partition spec: one DataFileSink
// per partition, its files under the partition's hive folder with its partition values, each
// rolling at target_file_size. Identity keys stay in the file (every column is written);
// transformed keys are only in the folder and the catalog.
class PartitionedSink final : public RowSink {
 public:
  // REQUIRES: table.partitioning has at least one field.
  PartitionedSink(WriteState& state, const TableInfo& table, WriteSettings settings,
                  std::shared_ptr<const Schema> file_schema, bool embeds_row_ids);
  ~PartitionedSink() override;
  PartitionedSink(const PartitionedSink&) = delete;
  PartitionedSink& operator=(const PartitionedSink&) = delete;

  Status Add(const Batch& batch) override;
  Result<std::vector<PendingDataFile>> Finish() override;
  void Abandon() override;
  int64_t peak_held_bytes() const override { return peak_held_bytes_; }

 private:
  WriteState& state_;
  const TableInfo& table_;
  WriteSettings settings_;
  std::shared_ptr<const Schema> file_schema_;
  bool embeds_row_ids_;
  std::vector<PartitionField> fields_;
  std::vector<int> source_columns_;  // per key: the column of the file schema it reads
  std::vector<std::string> key_names_;
  std::map<std::string, std::unique_ptr<DataFileSink>> partitions_;  // by hive folder
  std::vector<std::string> order_;  // folders in the order their first row came
  int64_t peak_held_bytes_ = 0;
  bool done_ = false;
};

// The in-memory bytes of a batch's buffers (values, data and children).
int64_t BatchBytes(const Batch& batch);

}  // namespace tarn::table_internal
