#include "sql/exec/scan_operators.h"

#include "parquet/filtered_scan.h"
#include "parquet/metadata.h"

#include <algorithm>
#include <utility>

namespace tarn::sql {
namespace {

using ReaderList = std::vector<std::shared_ptr<ParquetReader>>;

std::string JoinNames(const Schema& schema) {
  std::string out;
  for (const Field& field : schema.fields) {
    if (!out.empty()) out += ", ";
    out += field.name;
  }
  return out.empty() ? "(none: row counts only)" : out;
}

bool SameColumns(const Schema& a, const Schema& b) {
  if (a.num_fields() != b.num_fields()) return false;
  for (int i = 0; i < a.num_fields(); ++i) {
    if (a.field(i).name != b.field(i).name || a.field(i).type != b.field(i).type) return false;
  }
  return true;
}

class ParquetScanOperator : public Operator {
 public:
  ParquetScanOperator(std::shared_ptr<const ReaderList> readers, ScanOptions options,
                      std::shared_ptr<const Schema> schema, bool no_columns,
                      std::shared_ptr<const BoundExpr> row_filter = nullptr)
      : readers_(std::move(readers)), options_(std::move(options)), schema_(std::move(schema)),
        no_columns_(no_columns),
        row_filter_(parquet::ExpressionRowFilter(std::move(row_filter))) {
    if (options_.pool != nullptr && options_.max_parallel_row_groups > 1) PlanParts();
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    while (true) {
      if (!current_) {
        if (next_file_ == readers_->size()) return std::shared_ptr<Batch>();
        TARN_ASSIGN_OR_RETURN(current_, parquet::ScanWithRowFilter(*(*readers_)[next_file_],
                                                                   options_, row_filter_));
        ++next_file_;
      }
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, current_->Next());
      if (!batch) {
        current_.reset();
        continue;
      }
      return Rename(std::move(batch));
    }
  }

  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    if (no_columns_ || !filter) return false;
    std::string read;
    for (int column : filter->columns()) {
      if (column < 0 || column >= schema_->num_fields()) return false;
      read += (read.empty() ? "" : ", ") + schema_->field(column).name;
    }
    added_filters_.push_back(filter->label() + " on " + read);
    row_filter_ = parquet::AllRowFilters({row_filter_, std::move(filter)});
    return true;
  }

  // One part per row group, when no row group is larger than what one scan decodes at a time
  // anyway (so a part never holds more rows in memory than a whole-file scan would).
  int64_t num_parts() const override { return static_cast<int64_t>(parts_.size()); }

  Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const override {
    if (part < 0 || part >= num_parts()) return Status::Internal("no scan part ", part);
    const auto [file, row_group] = parts_[static_cast<size_t>(part)];
    ScanOptions options = options_;
    options.row_groups = {row_group};
    options.max_parallel_row_groups = 1;  // decode on the calling thread
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<ScanReader> scan,
                          parquet::ScanWithRowFilter(*(*readers_)[file], options, row_filter_));
    return std::unique_ptr<BatchReader>(std::make_unique<PartReader>(this, std::move(scan)));
  }

  std::string label() const override { return "PARQUET_SCAN"; }

  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    std::string files = "files: " + std::to_string(readers_->size());
    for (size_t i = 0; i < readers_->size() && i < 3; ++i) {
      files += (i == 0 ? " (" : ", ") + (*readers_)[i]->path();
    }
    if (!readers_->empty()) files += readers_->size() > 3 ? ", ...)" : ")";
    lines.push_back(files);
    lines.push_back("columns: " + JoinNames(*schema_));
    // What the reader decides for each file: row groups considered and pruned on statistics.
    ScanMetrics total;
    for (const auto& reader : *readers_) {
      auto scan = reader->Scan(options_);
      if (!scan.ok()) continue;
      total.row_groups_total += (*scan)->metrics().row_groups_total;
      total.row_groups_pruned += (*scan)->metrics().row_groups_pruned;
    }
    lines.push_back("row groups: " + std::to_string(total.row_groups_total) + " considered, " +
                    std::to_string(total.row_groups_pruned) + " pruned by statistics");
    if (options_.predicate) {
      std::string columns;
      for (const std::string& name : options_.predicate->referenced_columns()) {
        columns += (columns.empty() ? "" : ", ") + name;
      }
      lines.push_back("pruning on: " + columns);
    }
    for (const std::string& filter : added_filters_) lines.push_back("while decoding: " + filter);
    return lines;
  }

 private:
  std::shared_ptr<const ReaderList> readers_;
  ScanOptions options_;
  std::shared_ptr<const Schema> schema_;
  bool no_columns_;
  // The WHERE clause and a top-N's bound (see AddRowFilter), evaluated while decoding: rows
  // they reject may be dropped early, the operators above still decide. Null: none.
  std::shared_ptr<const parquet::RowFilter> row_filter_;
  std::vector<std::string> added_filters_;  // AddRowFilter's, for EXPLAIN
  size_t next_file_ = 0;
  std::unique_ptr<ScanReader> current_;
  std::vector<std::pair<size_t, int>> parts_;  // (file, row group); empty: no parts

  // A scanned batch with this operator's schema (no columns: just the row count).
  std::shared_ptr<Batch> Rename(std::shared_ptr<Batch> batch) const {
    if (no_columns_) return MakeEmptyColumnsBatch(schema_, batch->num_rows);
    return MakeBatch(schema_, std::move(batch->columns));
  }

  class PartReader : public BatchReader {
   public:
    PartReader(const ParquetScanOperator* scan, std::unique_ptr<ScanReader> reader)
        : scan_(scan), reader_(std::move(reader)) {}
    std::shared_ptr<const Schema> schema() const override { return scan_->schema_; }
    Result<std::shared_ptr<Batch>> Next() override {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader_->Next());
      if (!batch) return batch;
      return scan_->Rename(std::move(batch));
    }

   private:
    const ParquetScanOperator* scan_;
    std::unique_ptr<ScanReader> reader_;
  };

  void PlanParts() {
    const int64_t largest = std::max<int64_t>(options_.batch_rows, 1) * 4;
    std::vector<std::pair<size_t, int>> parts;
    for (size_t file = 0; file < readers_->size(); ++file) {
      const auto& row_groups = (*readers_)[file]->metadata().row_groups;
      for (size_t index = 0; index < row_groups.size(); ++index) {
        if (row_groups[index].num_rows > largest) return;
        parts.emplace_back(file, static_cast<int>(index));
      }
    }
    parts_ = std::move(parts);
  }
};

class ParquetSource : public Source {
 public:
  ParquetSource(std::shared_ptr<const ReaderList> readers, Schema schema, bool file_row_number,
                const ExecContext& context)
      : readers_(std::move(readers)), schema_(std::move(schema)),
        file_row_number_(file_row_number), context_(context) {}

  const Schema& schema() const override { return schema_; }

  Result<std::unique_ptr<Operator>> Open(
      const std::vector<int>& columns,
      std::shared_ptr<const StatisticsPredicate> predicate) override {
    ScanOptions options;
    options.predicate = std::move(predicate);
    options.pool = context_.pool;
    options.max_parallel_row_groups = std::max(1, context_.threads);
    auto out = std::make_shared<Schema>();
    int position_index = file_row_number_ ? schema_.num_fields() - 1 : -1;
    for (int index : columns) {
      out->fields.push_back(schema_.field(index));
      if (index == position_index) {
        options.with_position = true;
      } else {
        options.columns.push_back(schema_.field(index).name);
      }
    }
    bool no_columns = columns.empty();
    if (no_columns || (options.columns.empty() && !options.with_position)) {
      // The reader reads every column for an empty list: read one, drop it.
      options.columns.push_back(schema_.field(0).name);
    } else if (options.columns.empty()) {
      options.columns.push_back(schema_.field(0).name);
      no_columns = false;
      // Only the position: read the first column too and keep just the position.
      return OpenPositionOnly(std::move(options), out);
    }
    std::shared_ptr<const BoundExpr> row_filter;
    if (where_ && !no_columns) {
      // Bound as the planner binds the WHERE over these columns; when it does not bind here,
      // the FILTER above does all the work.
      Result<std::unique_ptr<BoundExpr>> bound = Bind(*where_, *out);
      if (bound.ok() && (*bound)->type().id == TypeId::kBoolean && !(*bound)->IsConstant()) {
        row_filter = std::move(bound).value();
      }
    }
    return std::unique_ptr<Operator>(std::make_unique<ParquetScanOperator>(
        readers_, std::move(options), out, no_columns, std::move(row_filter)));
  }

  void PushFilter(const ast::Expr& where) override { where_ = where.Clone(); }
  int64_t EstimatedRows() const override {
    int64_t rows = 0;
    for (const auto& reader : *readers_) rows += reader->num_rows();
    return rows;
  }

 private:
  // file_row_number alone: the scan yields [first column, position]; keep the position.
  Result<std::unique_ptr<Operator>> OpenPositionOnly(ScanOptions options,
                                                     std::shared_ptr<const Schema> out) {
    auto scanned = std::make_shared<Schema>();
    scanned->fields.push_back(schema_.field(0));
    scanned->fields.push_back(out->field(0));
    auto scan = std::make_unique<ParquetScanOperator>(readers_, std::move(options), scanned,
                                                      false);
    std::vector<std::unique_ptr<BoundExpr>> expressions;
    TARN_ASSIGN_OR_RETURN(auto position,
                          Bind(*ast::MakeColumnRef({out->field(0).name}), *scanned));
    expressions.push_back(std::move(position));
    return MakeProjection(std::move(scan), std::move(expressions), {out->field(0).name});
  }

  std::shared_ptr<const ReaderList> readers_;
  Schema schema_;
  bool file_row_number_;
  ExecContext context_;
  std::unique_ptr<ast::Expr> where_;  // pushed by the planner before Open
};

class CsvScanOperator : public Operator {
 public:
  CsvScanOperator(std::vector<std::unique_ptr<CsvReader>> readers, std::vector<int> columns,
                  std::shared_ptr<const Schema> schema, std::vector<std::string> files)
      : readers_(std::move(readers)), columns_(std::move(columns)), schema_(std::move(schema)),
        files_(std::move(files)) {}

  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    while (next_ < readers_.size()) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, readers_[next_]->Next());
      if (!batch) {
        readers_[next_].reset();
        ++next_;
        continue;
      }
      if (columns_.empty()) return MakeEmptyColumnsBatch(schema_, batch->num_rows);
      std::vector<std::shared_ptr<Column>> columns;
      for (int index : columns_) columns.push_back(batch->columns[index]);
      return MakeBatch(schema_, std::move(columns));
    }
    return std::shared_ptr<Batch>();
  }
  std::string label() const override { return "CSV_SCAN"; }
  std::vector<std::string> details() const override {
    std::string files = "files: " + std::to_string(files_.size());
    if (!files_.empty()) files += " (" + files_[0] + (files_.size() > 1 ? ", ...)" : ")");
    return {files, "columns: " + JoinNames(*schema_)};
  }

 private:
  std::vector<std::unique_ptr<CsvReader>> readers_;
  size_t next_ = 0;
  std::vector<int> columns_;
  std::shared_ptr<const Schema> schema_;
  std::vector<std::string> files_;
};

class CsvSource : public Source {
 public:
  CsvSource(std::vector<std::string> files, CsvReadOptions options, Schema schema,
            std::shared_ptr<FileSystem> fs)
      : files_(std::move(files)), options_(std::move(options)), schema_(std::move(schema)),
        fs_(std::move(fs)) {}

  const Schema& schema() const override { return schema_; }
  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    // Every file is read with the first file's types, so all batches agree.
    CsvReadOptions options = options_;
    options.schema = schema_;
    std::vector<std::unique_ptr<CsvReader>> readers;
    for (const std::string& file : files_) {
      TARN_ASSIGN_OR_RETURN(auto reader, CsvReader::Open(fs_, file, options));
      readers.push_back(std::move(reader));
    }
    auto out = std::make_shared<Schema>();
    for (int index : columns) out->fields.push_back(schema_.field(index));
    return std::unique_ptr<Operator>(
        std::make_unique<CsvScanOperator>(std::move(readers), columns, out, files_));
  }

 private:
  std::vector<std::string> files_;
  CsvReadOptions options_;
  Schema schema_;
  std::shared_ptr<FileSystem> fs_;
};

class RangeOperator : public Operator {
 public:
  RangeOperator(int64_t start, int64_t end, int64_t step, std::shared_ptr<const Schema> schema)
      : start_(start), next_(start), end_(end), step_(step), schema_(std::move(schema)) {}

  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    constexpr int64_t kBatchRows = 122880;
    int64_t rows = 0;
    ColumnBuilder builder{DataType(TypeId::kInt64)};
    while (rows < kBatchRows && !done_ && (step_ > 0 ? next_ < end_ : next_ > end_)) {
      if (!schema_->fields.empty()) builder.AppendNumber<int64_t>(next_);
      ++rows;
      if (__builtin_add_overflow(next_, step_, &next_)) done_ = true;
    }
    if (rows == 0) return std::shared_ptr<Batch>();
    if (schema_->fields.empty()) return MakeEmptyColumnsBatch(schema_, rows);
    return MakeBatch(schema_, {builder.Finish()});
  }
  std::string label() const override { return "RANGE"; }
  std::vector<std::string> details() const override {
    return {"range(" + std::to_string(start_) + ", " + std::to_string(end_) + ", " +
            std::to_string(step_) + ")"};
  }

 private:
  int64_t start_;
  int64_t next_;
  int64_t end_;
  int64_t step_;
  bool done_ = false;
  std::shared_ptr<const Schema> schema_;
};

class RangeSource : public Source {
 public:
  RangeSource(int64_t start, int64_t end, int64_t step) : start_(start), end_(end), step_(step) {
    schema_.fields.emplace_back("range", DataType(TypeId::kInt64), false);
  }
  const Schema& schema() const override { return schema_; }
  int64_t EstimatedRows() const override {
    const double steps =
        (static_cast<double>(end_) - static_cast<double>(start_)) / static_cast<double>(step_);
    return steps > 0 ? static_cast<int64_t>(std::min(steps, 9e18)) : 0;
  }
  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    auto out = std::make_shared<Schema>();
    if (!columns.empty()) out->fields = schema_.fields;
    return std::unique_ptr<Operator>(std::make_unique<RangeOperator>(start_, end_, step_, out));
  }

 private:
  int64_t start_, end_, step_;
  Schema schema_;
};

class CatalogScanOperator : public Operator {
 public:
  CatalogScanOperator(std::unique_ptr<BatchReader> reader, std::shared_ptr<const Schema> schema,
                      std::string description)
      : reader_(std::move(reader)), schema_(std::move(schema)),
        description_(std::move(description)) {}
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader_->Next());
    if (!batch) return batch;
    if (schema_->fields.empty()) return MakeEmptyColumnsBatch(schema_, batch->num_rows);
    return MakeBatch(schema_, std::move(batch->columns));
  }
  std::string label() const override { return "TABLE_SCAN"; }
  std::vector<std::string> details() const override {
    return {description_, "columns: " + JoinNames(*schema_)};
  }

 private:
  std::unique_ptr<BatchReader> reader_;
  std::shared_ptr<const Schema> schema_;
  std::string description_;
};

class CatalogSource : public Source {
 public:
  CatalogSource(std::string name, const SqlTable* table, const ExecContext& context)
      : name_(std::move(name)), table_(table), context_(context) {}
  const Schema& schema() const override { return table_->schema(); }
  Result<std::unique_ptr<Operator>> Open(
      const std::vector<int>& columns,
      std::shared_ptr<const StatisticsPredicate> predicate) override {
    TableScanRequest request;
    auto out = std::make_shared<Schema>();
    for (int index : columns) {
      request.columns.push_back(schema().field(index).name);
      out->fields.push_back(schema().field(index));
    }
    request.predicate = std::move(predicate);
    request.pool = context_.pool;
    request.max_parallelism = std::max(1, context_.threads);
    TARN_ASSIGN_OR_RETURN(auto reader, table_->Scan(request));
    return std::unique_ptr<Operator>(
        std::make_unique<CatalogScanOperator>(std::move(reader), out, table_->Describe()));
  }

 private:
  std::string name_;
  const SqlTable* table_;
  ExecContext context_;
};

}  // namespace

Result<std::unique_ptr<Source>> OpenParquetSource(ParquetSourceOptions options,
                                                  const ExecContext& context) {
  auto readers = std::make_shared<ReaderList>();
  for (const std::string& file : options.files) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<ParquetReader> reader,
                          ParquetReader::Open(context.fs, file));
    if (!readers->empty() && !SameColumns(reader->schema(), readers->front()->schema())) {
      return Status::InvalidArgument(
          "read_parquet: the files do not share one schema: ", readers->front()->path(),
          " has (", readers->front()->schema().ToString(), ") but ", file, " has (",
          reader->schema().ToString(), ")");
    }
    readers->push_back(std::move(reader));
  }
  Schema schema = readers->front()->schema();
  if (schema.fields.empty()) {
    return Status::NotSupported("read_parquet: ", options.files[0], " has no columns");
  }
  if (options.file_row_number) {
    schema.fields.emplace_back("file_row_number", DataType(TypeId::kInt64), false);
  }
  return std::unique_ptr<Source>(std::make_unique<ParquetSource>(
      std::move(readers), std::move(schema), options.file_row_number, context));
}

Result<std::unique_ptr<Source>> OpenCsvSource(std::vector<std::string> files,
                                              CsvReadOptions options, const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(auto first, CsvReader::Open(context.fs, files[0], options));
  Schema schema = *first->schema();
  for (size_t i = 1; i < files.size(); ++i) {
    TARN_ASSIGN_OR_RETURN(auto other, CsvReader::Open(context.fs, files[i], options));
    if (!SameColumns(*other->schema(), schema)) {
      return Status::InvalidArgument("read_csv: the files do not share one schema: ", files[0],
                                     " has (", schema.ToString(), ") but ", files[i], " has (",
                                     other->schema()->ToString(), ")");
    }
  }
  return std::unique_ptr<Source>(std::make_unique<CsvSource>(
      std::move(files), std::move(options), std::move(schema), context.fs));
}

std::unique_ptr<Source> MakeRangeSource(int64_t start, int64_t end, int64_t step) {
  return std::make_unique<RangeSource>(start, end, step);
}

std::unique_ptr<Source> MakeCatalogSource(std::string name, const SqlTable* table,
                                          const ExecContext& context) {
  return std::make_unique<CatalogSource>(std::move(name), table, context);
}

}  // namespace tarn::sql
