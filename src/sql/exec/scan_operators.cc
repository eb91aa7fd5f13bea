#include "sql/exec/scan_operators.h"

#include "parquet/filtered_scan.h"
#include "parquet/metadata.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <mutex>
#include <utility>

#include "expr/functions/datetime.h"

namespace tarn::sql {
namespace {

using ReaderList = std::vector<std::shared_ptr<ParquetReader>>;

// Per file, the values of its file-valued columns: its filename, then its hive partition
// values, in the order of FileValueColumns.
using FileValues = std::vector<std::vector<Value>>;

// A column of a Parquet scan's output: one the reader decodes (`index` in the reader's
// output: the requested columns, then the row position), or a value of the file it comes
// from (`index` into that file's FileValues).
struct ScanSlot {
  bool read = true;
  int index = 0;
};

// `rows` copies of `value` as a column of `type`.
Result<std::shared_ptr<Column>> RepeatValue(const Value& value, const DataType& type,
                                            int64_t rows) {
  ColumnBuilder builder{type};
  for (int64_t r = 0; r < rows; ++r) TARN_RETURN_NOT_OK(builder.Append(value));
  return builder.Finish();
}

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

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// %XX escapes of a hive folder's value decoded (DuckDB writes '/' and others escaped).
std::string DecodeHiveText(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    int byte = 0;
    if (text[i] == '%' && i + 2 < text.size() &&
        std::from_chars(text.data() + i + 1, text.data() + i + 3, byte, 16).ptr ==
            text.data() + i + 3) {
      out += static_cast<char>(byte);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The key=value folders of `path` (its file name excluded), in order.
std::vector<std::pair<std::string, std::string>> HiveFolders(std::string_view path) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (true) {
    const size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) break;  // the rest is the file name
    std::string_view segment = path.substr(start, slash - start);
    const size_t equals = segment.find('=');
    if (equals != std::string_view::npos && equals > 0) {
      out.emplace_back(std::string(segment.substr(0, equals)),
                       DecodeHiveText(segment.substr(equals + 1)));
    }
    start = slash + 1;
  }
  return out;
}

bool IsInt64Text(const std::string& text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  return !text.empty() && std::from_chars(text.data(), end, value).ptr == end;
}

bool IsDateText(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return expr::ParseDate(text).has_value();
}

// The hive partition columns of a read_parquet: keys, types and each file's values.
struct HiveColumns {
  std::vector<std::string> keys;
  std::vector<DataType> types;
  std::vector<std::vector<Value>> values;  // [file][key]
};

Result<HiveColumns> ReadHiveColumns(const ParquetSourceOptions& options) {
  HiveColumns hive;
  hive.values.resize(options.files.size());
  std::vector<std::vector<std::pair<std::string, std::string>>> folders;
  for (const std::string& file : options.files) folders.push_back(HiveFolders(file));
  const bool on = options.hive_partitioning.value_or(!folders.front().empty());
  if (!on) return hive;
  for (const auto& [key, value] : folders.front()) hive.keys.push_back(key);
  // The text of each key in each file; nullopt for NULL.
  std::vector<std::vector<std::optional<std::string>>> texts(options.files.size());
  for (size_t f = 0; f < options.files.size(); ++f) {
    bool same = folders[f].size() == hive.keys.size();
    for (size_t k = 0; same && k < hive.keys.size(); ++k) {
      same = folders[f][k].first == hive.keys[k];
    }
    if (!same) {
      return Status::InvalidArgument("Binder Error: Hive partition mismatch between file \"",
                                     options.files.front(), "\" and \"", options.files[f],
                                     "\"");
    }
    for (const auto& [key, value] : folders[f]) {
      const bool null = value == "NULL" || value == "__HIVE_DEFAULT_PARTITION__";
      texts[f].push_back(null ? std::nullopt : std::optional<std::string>(value));
    }
  }
  for (size_t k = 0; k < hive.keys.size(); ++k) {
    bool integers = true, dates = true;
    for (const auto& file : texts) {
      if (!file[k].has_value()) continue;
      integers = integers && IsInt64Text(*file[k]);
      dates = dates && IsDateText(*file[k]);
    }
    const TypeId type = integers ? TypeId::kInt64 : dates ? TypeId::kDate : TypeId::kVarchar;
    hive.types.emplace_back(type);
    for (size_t f = 0; f < texts.size(); ++f) {
      const std::optional<std::string>& text = texts[f][k];
      if (!text.has_value()) {
        hive.values[f].push_back(Value::Null(DataType(type)));
      } else if (type == TypeId::kInt64) {
        int64_t number = 0;
        std::from_chars(text->data(), text->data() + text->size(), number);
        hive.values[f].push_back(Value::Int64(number));
      } else if (type == TypeId::kDate) {
        hive.values[f].push_back(Value::Int(DataType(TypeId::kDate), *expr::ParseDate(*text)));
      } else {
        hive.values[f].push_back(Value::Varchar(*text));
      }
    }
  }
  return hive;
}

class ParquetScanOperator : public Operator {
 public:
  // `slots` places each output column (empty: the reader's output as it is).
  ParquetScanOperator(std::shared_ptr<const ReaderList> readers, ScanOptions options,
                      std::shared_ptr<const Schema> schema, bool no_columns,
                      std::shared_ptr<const BoundExpr> row_filter = nullptr,
                      std::vector<ScanSlot> slots = {},
                      std::shared_ptr<const FileValues> file_values = nullptr)
      : readers_(std::move(readers)), options_(std::move(options)), schema_(std::move(schema)),
        no_columns_(no_columns),
        row_filter_(parquet::ExpressionRowFilter(std::move(row_filter))),
        slots_(std::move(slots)), file_values_(std::move(file_values)) {
    if (options_.pool != nullptr && options_.max_parallel_row_groups > 1) PlanParts();
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    while (true) {
      if (!current_) {
        if (next_file_ == readers_->size()) return std::shared_ptr<Batch>();
        TARN_ASSIGN_OR_RETURN(ScanOptions options, OptionsWithRanges());
        TARN_ASSIGN_OR_RETURN(current_, parquet::ScanWithRowFilter(*(*readers_)[next_file_],
                                                                   options, row_filter_));
        current_file_ = next_file_++;
      }
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, current_->Next());
      if (!batch) {
        current_.reset();
        continue;
      }
      return Rename(std::move(batch), current_file_);
    }
  }

  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    // The filter names output columns; the reader's differ when slots place them.
    if (no_columns_ || !filter || !slots_.empty()) return false;
    std::string read;
    for (int column : filter->columns()) {
      if (column < 0 || column >= schema_->num_fields()) return false;
      read += (read.empty() ? "" : ", ") + schema_->field(column).name;
    }
    added_filters_.push_back(filter->label() + " on " + read);
    added_.push_back(filter);
    row_filter_ = parquet::AllRowFilters({row_filter_, std::move(filter)});
    return true;
  }

  // One part per row group, when no row group is larger than what one scan decodes at a time
  // anyway (so a part never holds more rows in memory than a whole-file scan would).
  int64_t num_parts() const override { return static_cast<int64_t>(parts_.size()); }

  Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const override {
    if (part < 0 || part >= num_parts()) return Status::Internal("no scan part ", part);
    const auto [file, row_group] = parts_[static_cast<size_t>(part)];
    TARN_ASSIGN_OR_RETURN(ScanOptions options, OptionsWithRanges());
    options.row_groups = {row_group};
    options.max_parallel_row_groups = 1;  // decode on the calling thread
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<ScanReader> scan,
                          parquet::ScanWithRowFilter(*(*readers_)[file], options, row_filter_));
    return std::unique_ptr<BatchReader>(
        std::make_unique<PartReader>(this, std::move(scan), file));
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
    // After a run, with the ranges of the filters added (what the scans pruned).
    const ScanOptions& options =
        ranged_done_.load() && ranged_.ok() ? *ranged_ : options_;
    for (const auto& reader : *readers_) {
      auto scan = reader->Scan(options);
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
  std::vector<std::shared_ptr<const parquet::RowFilter>> added_;  // AddRowFilter's
  // options_ with the added filters' ranges as row-group and page pruning, made once (the
  // first scan asks; a join's filter builds the join's side then).
  mutable std::once_flag ranged_once_;
  mutable Result<ScanOptions> ranged_ = Status::Internal("scan options not made");
  mutable std::atomic<bool> ranged_done_ = false;

  Result<ScanOptions> OptionsWithRanges() const {
    std::call_once(ranged_once_, [this] {
      ScanOptions options = options_;
      for (const auto& filter : added_) {
        Result<std::optional<parquet::KeptRange>> range = filter->Range();
        if (!range.ok()) {
          ranged_ = range.status();
          return;
        }
        if (!*range || (*range)->column < 0 || (*range)->column >= schema_->num_fields()) continue;
        const int column = (*range)->column;
        if (!parquet::KeptRangeApplies(schema_->field(column).type)) continue;
        if (!options_.columns.empty() &&
            static_cast<size_t>(column) >= options_.columns.size()) {
          continue;  // the position column
        }
        const std::string& name = options_.columns.empty()
                                      ? schema_->field(column).name
                                      : options_.columns[static_cast<size_t>(column)];
        options.predicate = parquet::BothPredicates(
            options.predicate, parquet::IntegerRangePredicate(name, (*range)->low, (*range)->high));
      }
      ranged_ = std::move(options);
      ranged_done_.store(true);
    });
    return ranged_;
  }
  std::vector<ScanSlot> slots_;
  std::shared_ptr<const FileValues> file_values_;
  size_t next_file_ = 0;
  size_t current_file_ = 0;
  std::unique_ptr<ScanReader> current_;
  std::vector<std::pair<size_t, int>> parts_;  // (file, row group); empty: no parts

  // A batch of file `file` with this operator's schema (no columns: just the row count).
  Result<std::shared_ptr<Batch>> Rename(std::shared_ptr<Batch> batch, size_t file) const {
    if (no_columns_) return MakeEmptyColumnsBatch(schema_, batch->num_rows);
    if (slots_.empty()) return MakeBatch(schema_, std::move(batch->columns));
    std::vector<std::shared_ptr<Column>> columns;
    for (size_t i = 0; i < slots_.size(); ++i) {
      const ScanSlot& slot = slots_[i];
      if (slot.read) {
        columns.push_back(batch->columns[static_cast<size_t>(slot.index)]);
        continue;
      }
      const Value& value = (*file_values_)[file][static_cast<size_t>(slot.index)];
      TARN_ASSIGN_OR_RETURN(auto column,
                            RepeatValue(value, schema_->field(static_cast<int>(i)).type,
                                        batch->num_rows));
      columns.push_back(std::move(column));
    }
    auto out = MakeBatch(schema_, std::move(columns));
    out->num_rows = batch->num_rows;
    return out;
  }

  class PartReader : public BatchReader {
   public:
    PartReader(const ParquetScanOperator* scan, std::unique_ptr<ScanReader> reader, size_t file)
        : scan_(scan), reader_(std::move(reader)), file_(file) {}
    std::shared_ptr<const Schema> schema() const override { return scan_->schema_; }
    Result<std::shared_ptr<Batch>> Next() override {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader_->Next());
      if (!batch) return batch;
      return scan_->Rename(std::move(batch), file_);
    }

   private:
    const ParquetScanOperator* scan_;
    std::unique_ptr<ScanReader> reader_;
    size_t file_;
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

// What a column of a Parquet source is: a column of the files, the row position, or a value
// of each file (its filename or a hive partition value: `value` indexes FileValues).
struct SourceColumn {
  enum class Kind { kFile, kPosition, kFileValue } kind = Kind::kFile;
  int value = 0;
};

class ParquetSource : public Source {
 public:
  ParquetSource(std::shared_ptr<const ReaderList> readers, Schema schema,
                std::vector<SourceColumn> columns, std::shared_ptr<const FileValues> file_values,
                const ExecContext& context)
      : readers_(std::move(readers)), schema_(std::move(schema)), columns_(std::move(columns)),
        file_values_(std::move(file_values)), context_(context) {}

  const Schema& schema() const override { return schema_; }

  Result<std::unique_ptr<Operator>> Open(
      const std::vector<int>& columns,
      std::shared_ptr<const StatisticsPredicate> predicate) override {
    ScanOptions options;
    // A predicate on a file-valued column would be checked against the files' statistics
    // of a column of that name: no pruning then.
    if (predicate && !NamesOnlyFileColumns(predicate->referenced_columns())) predicate.reset();
    options.predicate = std::move(predicate);
    options.pool = context_.pool;
    options.max_parallel_row_groups = std::max(1, context_.threads);
    auto out = std::make_shared<Schema>();
    std::vector<ScanSlot> slots;
    for (int index : columns) {
      out->fields.push_back(schema_.field(index));
      const SourceColumn& column = columns_[static_cast<size_t>(index)];
      switch (column.kind) {
        case SourceColumn::Kind::kFile:
          slots.push_back({true, static_cast<int>(options.columns.size())});
          options.columns.push_back(schema_.field(index).name);
          break;
        case SourceColumn::Kind::kPosition:
          options.with_position = true;
          slots.push_back({true, -1});  // placed after the columns, below
          break;
        case SourceColumn::Kind::kFileValue:
          slots.push_back({false, column.value});
          break;
      }
    }
    const bool no_columns = columns.empty();
    if (options.columns.empty()) {
      // The reader reads every column for an empty list: read one for the row counts.
      options.columns.push_back(readers_->front()->schema().field(0).name);
    }
    const int position = static_cast<int>(options.columns.size());
    bool identity = true;
    for (size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].read && slots[i].index < 0) slots[i].index = position;
      identity = identity && slots[i].read && slots[i].index == static_cast<int>(i);
    }
    const size_t read_columns = options.columns.size() + (options.with_position ? 1 : 0);
    if (identity && read_columns == slots.size()) slots.clear();
    // The reader's output, which a row filter is bound to.
    auto read = std::make_shared<Schema>();
    for (const std::string& name : options.columns) {
      read->fields.push_back(schema_.field(schema_.FindField(name)));
    }
    if (options.with_position) {
      read->fields.emplace_back("file_row_number", DataType(TypeId::kInt64), false);
    }
    std::shared_ptr<const BoundExpr> row_filter;
    if (where_ && !no_columns) {
      // Bound as the planner binds the WHERE over the columns read; when it does not bind
      // there (a file-valued column), the FILTER above does all the work.
      Result<std::unique_ptr<BoundExpr>> bound = Bind(*where_, *read);
      if (bound.ok() && (*bound)->type().id == TypeId::kBoolean && !(*bound)->IsConstant()) {
        row_filter = std::move(bound).value();
      }
    }
    return std::unique_ptr<Operator>(std::make_unique<ParquetScanOperator>(
        readers_, std::move(options), out, no_columns, std::move(row_filter), std::move(slots),
        file_values_));
  }

  void PushFilter(const ast::Expr& where) override { where_ = where.Clone(); }
  int64_t EstimatedRows() const override {
    int64_t rows = 0;
    for (const auto& reader : *readers_) rows += reader->num_rows();
    return rows;
  }

  // The span of an integer-valued column's bounds over every row group of every file.
  std::optional<double> DistinctValues(int column) const override {
    if (column < 0 || column >= schema_.num_fields() ||
        columns_[static_cast<size_t>(column)].kind != SourceColumn::Kind::kFile) {
      return std::nullopt;
    }
    const Field& field = schema_.field(column);
    bool integer = false;
    switch (field.type.id) {
      case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
      case TypeId::kDate:
        integer = true;
        break;
      default:
        break;
    }
    if (!integer) return std::nullopt;
    int64_t low = INT64_MAX;
    int64_t high = INT64_MIN;
    for (const auto& reader : *readers_) {
      const int index = reader->schema().FindField(field.name);
      if (index < 0) return std::nullopt;
      for (int group = 0; group < reader->num_row_groups(); ++group) {
        if (reader->row_group_num_rows(group) == 0) continue;
        std::optional<ColumnStatistics> stats = reader->RowGroupStatistics(group, index);
        if (!stats || !stats->min || !stats->max || stats->min->is_null() ||
            stats->max->is_null() ||
            !std::holds_alternative<int64_t>(stats->min->storage()) ||
            !std::holds_alternative<int64_t>(stats->max->storage())) {
          return std::nullopt;
        }
        low = std::min(low, stats->min->GetInt64());
        high = std::max(high, stats->max->GetInt64());
      }
    }
    const double rows = static_cast<double>(EstimatedRows());
    if (low > high) return rows;
    return std::min(rows, static_cast<double>(high) - static_cast<double>(low) + 1);
  }

 private:
  bool NamesOnlyFileColumns(const std::vector<std::string>& names) const {
    for (const std::string& name : names) {
      const int index = schema_.FindField(name);
      if (index < 0 || columns_[static_cast<size_t>(index)].kind != SourceColumn::Kind::kFile) {
        return false;
      }
    }
    return true;
  }

  std::shared_ptr<const ReaderList> readers_;
  Schema schema_;
  std::vector<SourceColumn> columns_;  // per schema column
  std::shared_ptr<const FileValues> file_values_;
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

// range(start, end, step): batches of 122,880 values, each computed from its index, so the
// batches are parts that several threads generate at once.
class RangeOperator : public Operator {
 public:
  static constexpr int64_t kBatchRows = 122880;

  RangeOperator(int64_t start, int64_t end, int64_t step, bool inclusive,
                std::shared_ptr<const Schema> schema)
      : start_(start), end_(end), step_(step), inclusive_(inclusive), schema_(std::move(schema)) {
    total_ = Count(start, end, step, inclusive);
  }

  // How many values: start + k * step for k = 0, 1, ... while short of end (or up to end when
  // inclusive). None lies past the int64 range, so none overflows.
  static uint64_t Count(int64_t start, int64_t end, int64_t step, bool inclusive) {
    const __int128 span = static_cast<__int128>(end) - start;
    if (step == 0) return 0;
    if (inclusive) {
      if (step > 0 ? span < 0 : span > 0) return 0;
      return static_cast<uint64_t>(span / step + 1);
    }
    if (step > 0 ? span <= 0 : span >= 0) return 0;
    return static_cast<uint64_t>((span + step + (step > 0 ? -1 : 1)) / step);  // ceil
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    if (next_part_ >= NumParts()) return std::shared_ptr<Batch>();
    return PartBatch(next_part_++);
  }

  int64_t num_parts() const override { return static_cast<int64_t>(NumParts()); }
  Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const override {
    if (part < 0 || static_cast<uint64_t>(part) >= NumParts()) {
      return Status::Internal("no range part ", part);
    }
    std::vector<std::shared_ptr<Batch>> batches = {PartBatch(static_cast<uint64_t>(part))};
    return MakeVectorReader(schema_, std::move(batches));
  }

  std::string label() const override { return "RANGE"; }
  std::vector<std::string> details() const override {
    return {std::string(inclusive_ ? "generate_series(" : "range(") + std::to_string(start_) +
            ", " + std::to_string(end_) + ", " + std::to_string(step_) + ")"};
  }

 private:
  uint64_t NumParts() const { return total_ / kBatchRows + (total_ % kBatchRows != 0 ? 1 : 0); }

  // Values part * kBatchRows ... of the range.
  std::shared_ptr<Batch> PartBatch(uint64_t part) const {
    const uint64_t first = part * kBatchRows;
    const int64_t rows = static_cast<int64_t>(std::min<uint64_t>(kBatchRows, total_ - first));
    if (schema_->fields.empty()) return MakeEmptyColumnsBatch(schema_, rows);
    auto values = Buffer::AllocateUninitialized(rows * static_cast<int64_t>(sizeof(int64_t)));
    int64_t* out = values->mutable_data_as<int64_t>();
    // In unsigned arithmetic, which wraps as two's complement: every value fits in int64.
    const uint64_t base = static_cast<uint64_t>(start_) + first * static_cast<uint64_t>(step_);
    for (int64_t i = 0; i < rows; ++i) {
      out[i] = static_cast<int64_t>(base + static_cast<uint64_t>(i) * static_cast<uint64_t>(step_));
    }
    auto column = std::make_shared<Column>();
    column->type = DataType(TypeId::kInt64);
    column->length = rows;
    column->values = std::move(values);
    return MakeBatch(schema_, {std::move(column)});
  }

  int64_t start_;
  int64_t end_;
  int64_t step_;
  bool inclusive_;
  uint64_t total_ = 0;
  uint64_t next_part_ = 0;
  std::shared_ptr<const Schema> schema_;
};

class RangeSource : public Source {
 public:
  RangeSource(int64_t start, int64_t end, int64_t step, std::string column, bool inclusive)
      : start_(start), end_(end), step_(step), inclusive_(inclusive) {
    schema_.fields.emplace_back(std::move(column), DataType(TypeId::kInt64), false);
  }
  const Schema& schema() const override { return schema_; }
  int64_t EstimatedRows() const override {
    const uint64_t count = RangeOperator::Count(start_, end_, step_, inclusive_);
    return static_cast<int64_t>(std::min<uint64_t>(count, INT64_MAX));
  }
  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    auto out = std::make_shared<Schema>();
    if (!columns.empty()) out->fields = schema_.fields;
    return std::unique_ptr<Operator>(
        std::make_unique<RangeOperator>(start_, end_, step_, inclusive_, out));
  }

 private:
  int64_t start_, end_, step_;
  bool inclusive_;
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
  const Schema& file_schema = readers->front()->schema();
  if (file_schema.fields.empty()) {
    return Status::NotSupported("read_parquet: ", options.files[0], " has no columns");
  }
  TARN_ASSIGN_OR_RETURN(HiveColumns hive, ReadHiveColumns(options));
  // The file-valued columns: filename, then the hive keys.
  const int hive_base = options.filename ? 1 : 0;
  auto file_values = std::make_shared<FileValues>();
  for (size_t f = 0; f < options.files.size(); ++f) {
    std::vector<Value> values;
    if (options.filename) values.push_back(Value::Varchar(options.files[f]));
    for (Value& value : hive.values[f]) values.push_back(std::move(value));
    file_values->push_back(std::move(values));
  }
  Schema schema;
  std::vector<SourceColumn> columns;
  std::vector<bool> hive_placed(hive.keys.size(), false);
  for (const Field& field : file_schema.fields) {
    // A file column named as a hive key takes the key's value (DuckDB's rule).
    int key = -1;
    for (size_t k = 0; k < hive.keys.size(); ++k) {
      if (EqualsIgnoreCase(hive.keys[k], field.name)) key = static_cast<int>(k);
    }
    if (key < 0) {
      schema.fields.push_back(field);
      columns.push_back({SourceColumn::Kind::kFile, 0});
      continue;
    }
    hive_placed[static_cast<size_t>(key)] = true;
    schema.fields.emplace_back(field.name, hive.types[static_cast<size_t>(key)]);
    columns.push_back({SourceColumn::Kind::kFileValue, hive_base + key});
  }
  if (options.file_row_number) {
    schema.fields.emplace_back("file_row_number", DataType(TypeId::kInt64), false);
    columns.push_back({SourceColumn::Kind::kPosition, 0});
  }
  if (options.filename) {
    schema.fields.emplace_back("filename", DataType(TypeId::kVarchar));
    columns.push_back({SourceColumn::Kind::kFileValue, 0});
  }
  for (size_t k = 0; k < hive.keys.size(); ++k) {
    if (hive_placed[k]) continue;
    schema.fields.emplace_back(hive.keys[k], hive.types[k]);
    columns.push_back({SourceColumn::Kind::kFileValue, hive_base + static_cast<int>(k)});
  }
  return std::unique_ptr<Source>(std::make_unique<ParquetSource>(
      std::move(readers), std::move(schema), std::move(columns), std::move(file_values),
      context));
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

std::unique_ptr<Source> MakeRangeSource(int64_t start, int64_t end, int64_t step,
                                        std::string column, bool inclusive) {
  return std::make_unique<RangeSource>(start, end, step, std::move(column), inclusive);
}

std::unique_ptr<Source> MakeCatalogSource(std::string name, const SqlTable* table,
                                          const ExecContext& context) {
  return std::make_unique<CatalogSource>(std::move(name), table, context);
}

}  // namespace tarn::sql
