#include "sql/lake/lake_source.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <utility>

#include "catalog/variant_extra_stats.h"
#include "columnar/geometry.h"
#include "expr/bind/binder.h"
#include "expr/bind/bound.h"
#include "expr/eval/cast.h"
#include "expr/parse/lexer.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "table/file_pruning.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/table.h"
#if TARN_SQL_LAKE_WRITES
#include "tarn/table_write.h"
#endif

namespace tarn::sql {
namespace {

bool SameName(std::string_view a, std::string_view b) {
  return LowerAscii(std::string(a)) == LowerAscii(std::string(b));
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "(none: row counts only)" : out;
}

Result<Value> ConstantValue(const ast::Expr& expr, std::string_view what) {
  Schema empty;
  Result<std::unique_ptr<BoundExpr>> bound = Bind(expr, empty);
  if (!bound.ok() || !(*bound)->IsConstant()) {
    return Status::InvalidArgument("Binder Error: ", what, " must be a constant, not \"",
                                   expr.ToString(), "\"");
  }
  return (*bound)->EvaluateConstant();
}

std::string SnapshotRange(Lake& lake) {
  Result<std::vector<SnapshotInfo>> snapshots = lake.ListSnapshots();
  if (!snapshots.ok() || snapshots->empty()) return "";
  return StrCat(" (snapshots ", snapshots->front().snapshot_id, " to ",
                snapshots->back().snapshot_id, ", from ", snapshots->front().snapshot_time_text,
                " to ", snapshots->back().snapshot_time_text, ")");
}

// The virtual columns of a lake table, as the DuckLake extension has them, in the order they
// follow the table's columns.
enum class VirtualColumn : uint8_t { kRowId, kSnapshotId, kFileRowNumber, kFilename };

struct VirtualColumnInfo {
  VirtualColumn kind;
  const char* name;
  TypeId type;
};

constexpr VirtualColumnInfo kVirtualColumns[] = {
    {VirtualColumn::kRowId, kRowIdColumnName, TypeId::kInt64},
    {VirtualColumn::kSnapshotId, kSnapshotIdColumnName, TypeId::kInt64},
    {VirtualColumn::kFileRowNumber, kFileRowNumberColumnName, TypeId::kInt64},
    {VirtualColumn::kFilename, kFilenameColumnName, TypeId::kVarchar},
};

// The schema a lake table presents to queries: its columns, then the virtual columns a real
// column does not shadow (`virtuals` gets their kinds, in schema order). A table of a
// built-in database has DuckDB's one virtual column, rowid.
Schema LakeTableSchema(const TableInfo& table, bool ducklake,
                       std::vector<VirtualColumn>* virtuals) {
  Schema schema;
  for (const ColumnInfo& column : table.columns) {
    Field field = column.ToField();
    field.nullable = true;
    schema.fields.push_back(std::move(field));
  }
  const int num_columns = schema.num_fields();
  for (const VirtualColumnInfo& info : kVirtualColumns) {
    if (!ducklake && info.kind != VirtualColumn::kRowId) continue;
    const int found = schema.FindField(info.name);
    if (found >= 0 && found < num_columns) continue;
    schema.fields.emplace_back(info.name, DataType(info.type),
                               info.kind == VirtualColumn::kSnapshotId);
    virtuals->push_back(info.kind);
  }
  return schema;
}

class LakeScanOperator : public Operator {
 public:
  // Output column i is the scan's column order[i].
  LakeScanOperator(std::unique_ptr<TableScanReader> reader, std::shared_ptr<const Schema> schema,
                   std::vector<int> order, std::vector<std::string> description,
                   std::vector<std::string> estimate, std::string label)
      : reader_(std::move(reader)), schema_(std::move(schema)), order_(std::move(order)),
        description_(std::move(description)), estimate_(std::move(estimate)),
        label_(std::move(label)) {}

  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    ran_ = true;
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader_->Next());
    if (!batch) {
      finished_ = true;
      return batch;
    }
    return Reorder(*batch);
  }

  // A join's key filter (over this operator's columns) goes to the table scan, which checks it
  // while its files decode and prunes files, row groups and pages with its range.
  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    if (ran_) return false;
    std::string read;
    for (int column : filter->columns()) {
      if (column < 0 || column >= schema_->num_fields()) return false;
      read += (read.empty() ? "" : ", ") + schema_->field(column).name;
    }
    const std::string label = filter->label() + " on " + read;
    auto on_scan = parquet::RemappedRowFilter(std::move(filter), order_);
    if (!on_scan || !reader_->AddRowFilter(std::move(on_scan))) return false;
    description_.push_back("while decoding: " + label);
    return true;
  }

  // The table scan's parts (files, runs of a large file's row groups, inlined rows).
  int64_t num_parts() const override { return reader_->num_parts(); }

  Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const override {
    ran_ = true;
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, reader_->OpenPart(part));
    return std::unique_ptr<BatchReader>(std::make_unique<PartReader>(this, std::move(reader)));
  }

  // DuckDB's name for the scan: TABLE_SCAN of a DuckLake table, SEQ_SCAN of one of its own.
  std::string label() const override { return label_; }

  std::vector<std::string> details() const override {
    std::vector<std::string> lines = description_;
    std::vector<std::string> names;
    for (const Field& field : schema_->fields) names.push_back(field.name);
    lines.push_back("columns: " + JoinNames(names));
    // A scan that ran (to its end, or until a LIMIT above it had enough rows) reports what it
    // did; one that never ran, the catalog-level estimate.
    if (!finished_ && !ran_) {
      for (const std::string& line : estimate_) lines.push_back(line);
      return lines;
    }
    const TableScanMetrics& m = reader_->metrics();
    lines.push_back(StrCat("files: ", m.files_total, " considered, ", m.files_pruned_by_stats,
                           " pruned by statistics, ", m.files_pruned_by_partition,
                           " pruned by partition, ", m.files_read, " read"));
    // The DuckLake extension's profiling key for the same count, with the files considered.
    lines.push_back(StrCat("Total Files Read: ", m.files_read, " of ", m.files_total));
    if (m.row_id_lookup) {
      lines.push_back(StrCat("rowid lookup: ", m.files_pruned_by_rowid,
                             " files hold none of the rowids sought"));
    }
    lines.push_back(StrCat("row groups: ", m.row_groups_total, " considered, ",
                           m.row_groups_pruned, " pruned by statistics"));
    lines.push_back(StrCat("rows: ", m.rows_deleted, " deleted, ", m.rows_after_snapshot,
                           " after the snapshot, ", m.rows_filtered, " filtered, ",
                           m.inlined_rows, " inlined"));
    return lines;
  }

 private:
  // One part's batches in the operator's column order.
  class PartReader : public BatchReader {
   public:
    PartReader(const LakeScanOperator* scan, std::unique_ptr<BatchReader> input)
        : scan_(scan), input_(std::move(input)) {}
    std::shared_ptr<const Schema> schema() const override { return scan_->schema_; }
    Result<std::shared_ptr<Batch>> Next() override {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
      if (!batch) return batch;
      return scan_->Reorder(*batch);
    }

   private:
    const LakeScanOperator* scan_;
    std::unique_ptr<BatchReader> input_;
  };

  // A batch of the table scan with this operator's columns.
  std::shared_ptr<Batch> Reorder(const Batch& batch) const {
    if (order_.empty()) return MakeEmptyColumnsBatch(schema_, batch.num_rows);
    std::vector<std::shared_ptr<Column>> columns;
    columns.reserve(order_.size());
    for (int index : order_) columns.push_back(batch.columns[static_cast<size_t>(index)]);
    auto out = MakeBatch(schema_, std::move(columns));
    out->num_rows = batch.num_rows;
    return out;
  }

  std::unique_ptr<TableScanReader> reader_;
  std::shared_ptr<const Schema> schema_;
  std::vector<int> order_;
  std::vector<std::string> description_;
  std::vector<std::string> estimate_;  // before the scan ran: catalog-level file pruning
  std::string label_;
  bool finished_ = false;
  mutable std::atomic<bool> ran_ = false;
};

class LakeTableSource : public Source {
 public:
  LakeTableSource(const LakeBinding& lake, LakeObjectName name,
                  std::shared_ptr<const TableMetadata> table, bool through_transaction,
                  const ExecContext& context)
      : lake_(lake), name_(std::move(name)), table_(std::move(table)),
        through_transaction_(through_transaction), context_(context) {
    schema_ = LakeTableSchema(*table_->table, lake_.is_ducklake(), &virtuals_);
  }

  const Schema& schema() const override { return schema_; }
  int visible_columns() const override {
    return schema_.num_fields() - static_cast<int>(virtuals_.size());
  }
  void PushFilter(const ast::Expr& where) override { filter_ = where.ToString(); }

  // From the table-wide statistics (ducklake_table_column_stats) of the column `expr` names.
  // An element of a list column (l[i]) has its element's statistics and may be NULL, as
  // DuckDB's list_extract propagates them.
  std::optional<std::string> StatisticsText(const ast::Expr& expr) const override {
    if (expr.kind == ast::ExprKind::kSubscript && expr.children.size() == 2) {
      const ColumnInfo* list = StatisticsColumn(*expr.children[0]);
      if (list == nullptr || list->type.id != TypeId::kList || list->children.size() != 1) {
        return std::nullopt;
      }
      std::optional<std::string> element = ColumnStatisticsText(list->children[0]);
      if (!element) return std::nullopt;
      const size_t validity = element->rfind("[Has Null: ");
      if (validity == std::string::npos) return std::nullopt;
      return element->substr(0, validity) + "[Has Null: true, Has No Null: true]";
    }
    const ColumnInfo* column = StatisticsColumn(expr);
    if (column == nullptr) return std::nullopt;
    return ColumnStatisticsText(*column);
  }

  // min(c), max(c) and count(*) from the files' statistics and the inlined rows, when no row
  // of the snapshot is deleted (a deleted row may hold a file's bound) and every file states
  // exact bounds of the column: integer, decimal and temporal types (string bounds may be
  // truncated, float bounds leave out NaN, HUGEINT files hold DOUBLEs).
  std::optional<Value> AggregateFromStatistics(const ast::Expr& call) override {
    if (through_transaction_ || call.kind != ast::ExprKind::kFunction || call.has_filter ||
        !call.arg_orders.empty() ||
        call.names.size() != 1 ||
        !FilesWhole()) {
      return std::nullopt;
    }
    const std::string function = LowerAscii(call.names[0]);
    if (function == "count" && (call.children.empty() ||
                                (call.children.size() == 1 &&
                                 call.children[0]->kind == ast::ExprKind::kStar))) {
      const std::optional<InlinedSummary>& inlined = Inlined(nullptr);
      if (!inlined) return std::nullopt;
      int64_t rows = inlined->rows;
      for (const DataFileInfo& file : table_->data_files) rows += file.record_count;
      return Value::Int64(rows);
    }
    if ((function != "min" && function != "max") || call.children.size() != 1 ||
        call.children[0]->kind != ast::ExprKind::kColumnRef) {
      return std::nullopt;
    }
    const ColumnInfo* column = StatisticsColumn(*call.children[0]);
    if (column == nullptr || column->parent_column.has_value() ||
        !HasExactBounds(column->type)) {
      return std::nullopt;
    }
    const bool is_min = function == "min";
    std::optional<Value> best;
    auto consider = [&](const Value& value) -> bool {
      Result<Value> typed = expr::CastValue(value, column->type);
      if (!typed.ok()) return false;
      if (!best || (is_min ? expr::CompareValues(*typed, *best) < 0
                           : expr::CompareValues(*typed, *best) > 0)) {
        best = std::move(typed).value();
      }
      return true;
    };
    for (const DataFileInfo& file : table_->data_files) {
      if (file.record_count == 0) continue;
      const FileColumnStats* stats = file.FindStats(column->column_id);
      if (stats == nullptr || !stats->null_count) return std::nullopt;
      if (*stats->null_count == file.record_count) continue;  // only NULLs
      const Value& bound = is_min ? stats->min : stats->max;
      if (bound.is_null() || !consider(bound)) return std::nullopt;
    }
    const std::optional<InlinedSummary>& inlined = Inlined(column);
    if (!inlined) return std::nullopt;
    const std::optional<Value>& bound = is_min ? inlined->min : inlined->max;
    if (bound && !consider(*bound)) return std::nullopt;
    return best ? *best : Value::Null(column->type);
  }

  // The catalog's row count of the table (ducklake_table_stats, inlined rows included), else
  // its files' rows less their deleted rows.
  int64_t EstimatedRows() const override {
    if (table_->stats) return std::max<int64_t>(0, table_->stats->record_count);
    return std::max<int64_t>(0, table_->FileRowCount());
  }

  // The span of an integer or date column's bounds over the data files' statistics.
  std::optional<double> DistinctValues(int column) const override {
    if (column < 0 || column >= visible_columns()) return std::nullopt;
    const ColumnInfo* info = nullptr;
    for (const ColumnInfo& top : table_->table->columns) {
      if (top.name == schema_.field(column).name) info = &top;
    }
    if (info == nullptr) return std::nullopt;
    switch (info->type.id) {
      case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
      case TypeId::kDate:
        break;
      default:
        return std::nullopt;
    }
    int64_t low = INT64_MAX;
    int64_t high = INT64_MIN;
    for (const DataFileInfo& file : table_->data_files) {
      if (file.record_count == 0) continue;
      const FileColumnStats* stats = file.FindStats(info->column_id);
      if (stats == nullptr) return std::nullopt;
      if (stats->null_count && *stats->null_count == file.record_count) continue;
      if (stats->min.is_null() || stats->max.is_null()) return std::nullopt;
      Result<Value> min = expr::CastValue(stats->min, info->type);
      Result<Value> max = expr::CastValue(stats->max, info->type);
      if (!min.ok() || !max.ok() || !std::holds_alternative<int64_t>(min->storage()) ||
          !std::holds_alternative<int64_t>(max->storage())) {
        return std::nullopt;
      }
      low = std::min(low, min->GetInt64());
      high = std::max(high, max->GetInt64());
    }
    const double rows = static_cast<double>(EstimatedRows());
    if (low > high) return rows;
    return std::min(rows, static_cast<double>(high) - static_cast<double>(low) + 1);
  }

  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    if (table_->table->columns.empty()) {
      // The catalog loader refuses such tables; a view assembled elsewhere must too.
      return Status::Corruption("table ", lake_.name, ".", name_.ToString(), " has no columns");
    }
    TableScanOptions options;
    options.pool = context_.pool;
    options.local_snapshot_id_null = true;
    auto out = std::make_shared<Schema>();
    const int first_virtual = visible_columns();
    for (int index : columns) {
      out->fields.push_back(schema_.field(index));
      if (index < first_virtual) {
        options.columns.push_back(schema_.field(index).name);
        continue;
      }
      switch (virtuals_[static_cast<size_t>(index - first_virtual)]) {
        case VirtualColumn::kRowId: options.with_rowid = true; break;
        case VirtualColumn::kSnapshotId: options.with_snapshot_id = true; break;
        case VirtualColumn::kFileRowNumber: options.with_file_row_number = true; break;
        case VirtualColumn::kFilename: options.with_filename = true; break;
      }
    }
    const bool only_virtual = options.columns.empty();
    if (only_virtual) {
      // An empty list means every column: read the cheapest one, dropped below.
      options.columns.push_back(CheapestColumn());
    }
    // The scan's layout: [snapshot_id][rowid], the table columns, [file_row_number][filename].
    std::vector<int> scan_of_virtual(std::size(kVirtualColumns), -1);
    int next = 0;
    if (options.with_snapshot_id) scan_of_virtual[1] = next++;
    if (options.with_rowid) scan_of_virtual[0] = next++;
    const int first_table_column = next;
    next += static_cast<int>(options.columns.size());
    if (options.with_file_row_number) scan_of_virtual[2] = next++;
    if (options.with_filename) scan_of_virtual[3] = next++;
    std::vector<int> order;
    int table_column = first_table_column;
    for (int index : columns) {
      if (index < first_virtual) {
        order.push_back(table_column++);
      } else {
        order.push_back(scan_of_virtual[static_cast<size_t>(
            virtuals_[static_cast<size_t>(index - first_virtual)])]);
      }
    }
    options.filter = filter_;
    Result<std::unique_ptr<TableScanReader>> reader = OpenScan(options);
    if (!reader.ok() && filter_.has_value() &&
        (reader.status().code() == StatusCode::kInvalidArgument || reader.status().IsNotFound())) {
      // A predicate the scan cannot take (the planner filters anyway).
      options.filter.reset();
      reader = OpenScan(options);
    }
    TARN_RETURN_NOT_OK(reader.status());
    std::vector<std::string> description = {
        lake_.is_ducklake()
            ? StrCat("table: ", lake_.name, ".", name_.ToString(), " at snapshot ",
                     table_->snapshot_id,
                     through_transaction_ ? " (in the open transaction)" : "")
            : StrCat("table: ", lake_.name, ".", name_.ToString())};
    if (options.filter) description.push_back("filter: " + *options.filter);
    return std::unique_ptr<Operator>(std::make_unique<LakeScanOperator>(
        std::move(reader).value(), out, std::move(order), std::move(description),
        Estimate(options), lake_.is_ducklake() ? "TABLE_SCAN" : "SEQ_SCAN"));
  }

 private:
  Result<std::unique_ptr<TableScanReader>> OpenScan(const TableScanOptions& options) {
    if (through_transaction_) {
#if TARN_SQL_LAKE_WRITES
      return lake_.transaction->Scan(name_.schema, name_.name, options);
#else
      return Status::NotSupported("not yet supported: reads inside a transaction");
#endif
    }
    return OpenTableScan(*lake_.lake, lake_.fs, table_, options);
  }

  bool ProvablyEmpty() override {
    if (!filter_ || through_transaction_) return false;
    std::shared_ptr<const Schema> full_schema = FullSchema();
    Result<std::unique_ptr<BoundExpr>> bound = ParseAndBind(*filter_, *full_schema);
    if (!bound.ok()) return false;
    std::shared_ptr<const StatisticsPredicate> predicate =
        MakeStatisticsPredicate(**bound, *full_schema);
    if (!predicate) return false;
    table_internal::FilePruner pruner(predicate, full_schema, table_);
    for (const DataFileInfo& file : table_->data_files) {
      if (pruner.Check(file) == table_internal::FilePruner::Decision::kRead) return false;
    }
    if (table_->table->inlined_tables.empty()) return true;
    // The inlined rows have no statistics of their own: the filter runs over them.
    Result<std::unique_ptr<TableScanReader>> reader =
        OpenInlinedScan(table_->table->columns[0].name, filter_);
    if (!reader.ok()) return false;
    while (true) {
      Result<std::shared_ptr<Batch>> batch = (*reader)->Next();
      if (!batch.ok()) return false;
      if (!*batch) return true;
      if ((*batch)->num_rows > 0) return false;
    }
  }

  // Whether every row of the visible files is live at the snapshot.
  bool FilesWhole() const {
    for (const DataFileInfo& file : table_->data_files) {
      if (file.delete_file || !file.other_delete_files.empty() || !file.inlined_deletes.empty() ||
          (file.partial_max && *file.partial_max > table_->snapshot_id)) {
        return false;
      }
    }
    return true;
  }

  static bool HasExactBounds(const DataType& type) {
    switch (type.id) {
      case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
      case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      case TypeId::kDecimal: case TypeId::kDate: case TypeId::kTime:
      case TypeId::kTimestamp: case TypeId::kTimestampS: case TypeId::kTimestampMs:
      case TypeId::kTimestampNs: case TypeId::kTimestampTz:
        return true;
      default:
        return false;
    }
  }

  // A scan of only the live inlined rows (read from the catalog, no data file) of `column`.
  Result<std::unique_ptr<TableScanReader>> OpenInlinedScan(const std::string& column,
                                                           std::optional<std::string> filter) {
    auto alone = std::make_shared<TableMetadata>(*table_);
    alone->data_files.clear();
    TableScanOptions options;
    options.columns = {column};
    options.filter = std::move(filter);
    return OpenTableScan(*lake_.lake, lake_.fs, alone, options);
  }

  // The live inlined rows: how many, and the least and greatest non-NULL value of `column`
  // among them when a column is given. Read once per column (min and max share it); nullopt
  // when they cannot be read.
  struct InlinedSummary {
    int64_t rows = 0;
    std::optional<Value> min;
    std::optional<Value> max;
  };
  const std::optional<InlinedSummary>& Inlined(const ColumnInfo* column) {
    const int64_t key = column ? column->column_id : -1;
    auto cached = inlined_.find(key);
    if (cached != inlined_.end()) return cached->second;
    std::optional<InlinedSummary>& summary = inlined_[key];
    summary.emplace();
    if (table_->table->inlined_tables.empty()) return summary;
    Result<std::unique_ptr<TableScanReader>> reader =
        OpenInlinedScan(column ? column->name : table_->table->columns[0].name, std::nullopt);
    if (!reader.ok()) return summary = std::nullopt;
    while (true) {
      Result<std::shared_ptr<Batch>> batch = (*reader)->Next();
      if (!batch.ok()) return summary = std::nullopt;
      if (!*batch) break;
      summary->rows += (*batch)->num_rows;
      if (!column) continue;
      for (int64_t row = 0; row < (*batch)->num_rows; ++row) {
        Value value = (*batch)->column(0).GetValue(row);
        if (value.is_null()) continue;
        if (!summary->min || expr::CompareValues(value, *summary->min) < 0) summary->min = value;
        if (!summary->max || expr::CompareValues(value, *summary->max) > 0) summary->max = value;
      }
    }
    return summary;
  }

  // The column (or nested column) `expr` names: c, t.c, c.field, c[1] (a list's elements).
  const TableColumnStats* StatsRow(int64_t column_id) const {
    for (const TableColumnStats& stats : table_->column_stats) {
      if (stats.column_id == column_id) return &stats;
    }
    return nullptr;
  }

  // DuckDB's text of one column's statistics: nested columns from their leaves' rows (a
  // parent has no row of its own, so its validity is unknown), a geometry leaf from its
  // extra_stats. nullopt when some leaf has no row.
  std::optional<std::string> ColumnStatisticsText(const ColumnInfo& column) const {
    const TableColumnStats* stats = StatsRow(column.column_id);
    const std::string validity =
        StrCat("[Has Null: ", !stats || stats->contains_null.value_or(true) ? "true" : "false",
               ", Has No Null: true]");
    switch (column.type.id) {
      case TypeId::kStruct: {
        std::string out = " {";
        for (size_t i = 0; i < column.children.size(); ++i) {
          std::optional<std::string> child = ColumnStatisticsText(column.children[i]);
          if (!child) return std::nullopt;
          out += StrCat(i > 0 ? ", " : "", column.children[i].name, ": ", *child);
        }
        return StrCat(out, "}", validity);
      }
      case TypeId::kList: {
        if (column.children.size() != 1) return std::nullopt;
        std::optional<std::string> child = ColumnStatisticsText(column.children[0]);
        if (!child) return std::nullopt;
        return StrCat("[", *child, "]", validity);
      }
      case TypeId::kMap: {
        // A map is a list of {key, value} structs to DuckDB.
        if (column.children.size() != 2) return std::nullopt;
        std::optional<std::string> key = ColumnStatisticsText(column.children[0]);
        std::optional<std::string> value = ColumnStatisticsText(column.children[1]);
        if (!key || !value) return std::nullopt;
        return StrCat("[ {key: ", *key, ", value: ", *value,
                      "}[Has Null: true, Has No Null: true]]", validity);
      }
      default:
        break;
    }
    if (column.type.id == TypeId::kVariant) return VariantStatisticsText(stats);
    if (stats == nullptr) return std::nullopt;
    if (column.type.id == TypeId::kGeometry) {
      std::optional<geometry::GeometryStats> geo =
          stats->extra_stats ? geometry::GeometryStats::FromJson(*stats->extra_stats)
                             : std::nullopt;
      if (!geo) return std::nullopt;
      return geometry::StatisticsText(*geo) + validity;
    }
    // DuckDB keeps the first 8 bytes of a string bound.
    auto bound = [&](const std::optional<std::string>& text) -> std::string {
      if (!text) return "NULL";
      if (column.type.id == TypeId::kVarchar) return text->substr(0, 8);
      // Booleans are stored as 0 and 1; DuckDB shows them as false and true.
      if (column.type.id == TypeId::kBoolean && (*text == "0" || *text == "1")) {
        return *text == "1" ? "true" : "false";
      }
      return *text;
    };
    return StrCat("[Min: ", bound(stats->min_text), ", Max: ", bound(stats->max_text), "]",
                  validity);
  }

  // A VARIANT column's statistics as DuckDB prints the variant statistics DuckLake hands over:
  // SHREDDED with the shredded fields' types and bounds when the table-wide extra_stats keep
  // some, else INCONSISTENT.
  static std::string VariantStatisticsText(const TableColumnStats* stats) {
    std::optional<std::vector<catalog_internal::VariantFieldEntry>> entries;
    if (stats != nullptr && stats->extra_stats) {
      entries = catalog_internal::VariantEntriesFromJson(*stats->extra_stats);
    }
    const std::string validity = "'has_null': true, 'has_no_null': true}";
    if (!entries || entries->empty()) return "{'shredding_state': INCONSISTENT, " + validity;
    // The fields as a tree: "a"."b" nests, element is a list's child_stats.
    struct Node {
      std::map<std::string, Node> fields;
      std::unique_ptr<Node> element;
      const catalog_internal::VariantFieldEntry* leaf = nullptr;
    };
    Node root;
    for (const auto& entry : *entries) {
      Node* node = &root;
      if (entry.field_name != "root") {
        std::string_view path = entry.field_name;
        while (!path.empty()) {
          if (path.front() == '"') {
            std::string name;
            size_t i = 1;
            for (; i < path.size(); ++i) {
              if (path[i] == '"') {
                if (i + 1 < path.size() && path[i + 1] == '"') {
                  name.push_back('"');
                  ++i;
                  continue;
                }
                break;
              }
              name.push_back(path[i]);
            }
            node = &node->fields[name];
            path.remove_prefix(std::min(path.size(), i + 1));
          } else {
            if (!node->element) node->element = std::make_unique<Node>();
            node = node->element.get();
            path.remove_prefix(std::min(path.size(), path.find('.') == std::string_view::npos
                                                        ? path.size()
                                                        : path.find('.')));
          }
          if (!path.empty() && path.front() == '.') path.remove_prefix(1);
        }
      }
      node->leaf = &entry;
    }
    std::function<std::string(const Node&)> text = [&](const Node& node) -> std::string {
      if (node.leaf != nullptr) {
        const auto& e = *node.leaf;
        Result<DataType> type = ParseDuckLakeType(e.shredded_type);
        std::string out = StrCat("{'type': ", type.ok() ? type->ToString() : e.shredded_type,
                                 ", 'stats': {");
        if (e.min && e.max) out += StrCat("'min': ", *e.min, ", 'max': ", *e.max, ", ");
        return StrCat(out, "'has_null': ", e.null_count > 0 ? "true" : "false",
                      ", 'has_no_null': ", e.num_values > e.null_count ? "true" : "false", "}}");
      }
      if (node.element) return StrCat("{'child_stats': ", text(*node.element), "}");
      std::string out = "{";
      for (const auto& [name, child] : node.fields) {
        if (out.size() > 1) out += ", ";
        out += StrCat("'", name, "': ", text(child));
      }
      return out + "}";
    };
    return StrCat("{'shredding_state': SHREDDED, 'fully_shredded': ", text(root), ", ", validity);
  }

  const ColumnInfo* StatisticsColumn(const ast::Expr& expr) const {
    auto child = [](const ColumnInfo* parent, const std::string& name) -> const ColumnInfo* {
      if (parent == nullptr || parent->type.id != TypeId::kStruct) return nullptr;
      for (const ColumnInfo& field : parent->children) {
        if (SameName(field.name, name)) return &field;
      }
      return nullptr;
    };
    switch (expr.kind) {
      case ast::ExprKind::kColumnRef: {
        std::vector<std::string> names = expr.names;
        if (names.size() > 1 && SameName(names[0], name_.name)) names.erase(names.begin());
        const ColumnInfo* column = nullptr;
        for (const ColumnInfo& top : table_->table->columns) {
          if (SameName(top.name, names[0])) column = &top;
        }
        for (size_t i = 1; i < names.size(); ++i) column = child(column, names[i]);
        return column;
      }
      case ast::ExprKind::kField:
        return child(StatisticsColumn(*expr.children[0]), expr.names[0]);
      case ast::ExprKind::kSubscript: {
        const ColumnInfo* list = StatisticsColumn(*expr.children[0]);
        if (list == nullptr || list->type.id != TypeId::kList || list->children.empty()) {
          return nullptr;
        }
        return &list->children[0];
      }
      default:
        return nullptr;
    }
  }

  std::string CheapestColumn() const {
    for (const ColumnInfo& column : table_->table->columns) {
      if (column.type.FixedWidth() > 0 || column.type.id == TypeId::kBoolean) return column.name;
    }
    return table_->table->columns.front().name;
  }

  // The table's columns, then rowid and snapshot_id: what a scan's filter is bound over.
  std::shared_ptr<const Schema> FullSchema() const {
    std::vector<Field> full_fields;
    for (const ColumnInfo& column : table_->table->columns) {
      Field field = column.ToField();
      field.nullable = true;
      full_fields.push_back(std::move(field));
    }
    full_fields.emplace_back(kRowIdColumnName, DataType(TypeId::kInt64));
    full_fields.emplace_back(kSnapshotIdColumnName, DataType(TypeId::kInt64));
    return std::make_shared<Schema>(std::move(full_fields));
  }

  // What EXPLAIN shows before the scan ran: the files the catalog statistics prune.
  std::vector<std::string> Estimate(const TableScanOptions& options) const {
    int64_t pruned_stats = 0, pruned_partition = 0;
    std::shared_ptr<const Schema> full_schema = FullSchema();
    std::shared_ptr<const StatisticsPredicate> predicate;
    if (options.filter) {
      Result<std::unique_ptr<BoundExpr>> bound = ParseAndBind(*options.filter, *full_schema);
      if (bound.ok()) predicate = MakeStatisticsPredicate(**bound, *full_schema);
    }
    table_internal::FilePruner pruner(predicate, full_schema, table_);
    for (const DataFileInfo& file : table_->data_files) {
      switch (pruner.Check(file)) {
        case table_internal::FilePruner::Decision::kPrunedByStats: ++pruned_stats; break;
        case table_internal::FilePruner::Decision::kPrunedByPartition: ++pruned_partition; break;
        case table_internal::FilePruner::Decision::kRead: break;
      }
    }
    int64_t total = static_cast<int64_t>(table_->data_files.size());
    return {StrCat("files: ", total, " considered, ", pruned_stats, " pruned by statistics, ",
                   pruned_partition, " pruned by partition, ",
                   total - pruned_stats - pruned_partition, " to read"),
            "row groups: counted by EXPLAIN ANALYZE"};
  }

  LakeBinding lake_;
  LakeObjectName name_;
  std::shared_ptr<const TableMetadata> table_;
  bool through_transaction_;
  ExecContext context_;
  Schema schema_;
  std::vector<VirtualColumn> virtuals_;  // the kinds of the schema's last columns
  std::optional<std::string> filter_;
  // AggregateFromStatistics' reads of the inlined rows, by column id (-1: count only).
  std::map<int64_t, std::optional<InlinedSummary>> inlined_;
};

// A planned query (a lake view) as a source.
class QuerySource : public Source {
 public:
  explicit QuerySource(std::unique_ptr<Operator> plan) : plan_(std::move(plan)) {
    schema_ = *plan_->schema();
  }
  const Schema& schema() const override { return schema_; }
  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    if (!plan_) return Status::Internal("a view source opened twice");
    std::vector<std::unique_ptr<BoundExpr>> expressions;
    std::vector<std::string> names;
    for (int index : columns) {
      auto node = std::make_unique<expr::BoundNode>();
      node->kind = expr::BoundKind::kColumn;
      node->type = schema_.field(index).type;
      node->column_index = index;
      node->name = schema_.field(index).name;
      expressions.push_back(std::make_unique<BoundExpr>(std::move(node)));
      names.push_back(schema_.field(index).name);
    }
    return MakeProjection(std::move(plan_), std::move(expressions), std::move(names));
  }

 private:
  std::unique_ptr<Operator> plan_;
  Schema schema_;
};

// Views referring to views: a bound on the nesting, against a view that names itself.
thread_local int view_depth = 0;

Result<std::unique_ptr<Source>> BindLakeView(const ViewInfo& view, const ExecContext& context) {
  if (view_depth >= 16) {
    return Status::InvalidArgument("Binder Error: view ", view.schema_name, ".", view.name,
                                   " nests views more than 16 deep (does it name itself?)");
  }
  TARN_ASSIGN_OR_RETURN(auto statements, ParseStatements(view.sql));
  if (statements.size() != 1 || statements[0]->kind != StatementKind::kSelect) {
    return Status::NotSupported("not yet supported: view ", view.schema_name, ".", view.name,
                                " is not a single SELECT: ", view.sql);
  }
  ++view_depth;
  Result<std::unique_ptr<Operator>> plan = PlanSelect(*statements[0]->select, view.sql, context);
  --view_depth;
  if (!plan.ok()) {
    return Status(plan.status().code(), StrCat("in view ", view.schema_name, ".", view.name,
                                               ": ", plan.status().message()));
  }
  std::unique_ptr<Operator> root = std::move(plan).value();
  if (!view.column_aliases.empty()) {
    const Schema& schema = *root->schema();
    std::vector<std::unique_ptr<BoundExpr>> expressions;
    std::vector<std::string> names;
    for (int c = 0; c < schema.num_fields(); ++c) {
      TARN_ASSIGN_OR_RETURN(auto bound,
                            Bind(*ast::MakeColumnRef({schema.field(c).name}), schema));
      expressions.push_back(std::move(bound));
      names.push_back(static_cast<size_t>(c) < view.column_aliases.size()
                          ? view.column_aliases[c]
                          : schema.field(c).name);
    }
    root = MakeProjection(std::move(root), std::move(expressions), std::move(names));
  }
  return std::unique_ptr<Source>(std::make_unique<QuerySource>(std::move(root)));
}

}  // namespace

std::unique_ptr<Source> MakeQuerySource(std::unique_ptr<Operator> plan) {
  return std::make_unique<QuerySource>(std::move(plan));
}

std::vector<std::string> LakeObjectNames(const LakeSnapshot& snapshot) {
  std::vector<std::string> names;
  auto add = [&](const std::string& schema, const std::string& name) {
    names.push_back(SameName(schema, "main") ? name : schema + "." + name);
  };
  for (const auto& table : snapshot.tables()) add(table->schema_name, table->name);
  for (const ViewInfo& view : snapshot.views()) add(view.schema_name, view.name);
  std::sort(names.begin(), names.end());
  return names;
}

const LakeBinding* FindLake(const ExecContext& context, std::string_view name) {
  for (const LakeBinding* lake : context.lakes) {
    if (SameName(lake->name, name)) return lake;
  }
  return nullptr;
}

const LakeBinding* LakeOfFirstArgument(const TableRef& ref, const ExecContext& context) {
  if (!ref.args.empty() && ref.args[0].name.empty() && !ref.args[0].is_list &&
      ref.args[0].expr != nullptr && ref.args[0].expr->kind == ast::ExprKind::kLiteral &&
      ref.args[0].expr->literal_kind == ast::LiteralKind::kString) {
    if (const LakeBinding* named = FindLake(context, ref.args[0].expr->text)) return named;
  }
  return context.lake != nullptr && context.lake->is_ducklake() ? context.lake : nullptr;
}

Status CheckFirstArgumentIsLake(const TableRef& ref, const ExecContext& context) {
  if (ref.args.empty() || !ref.args[0].name.empty() || ref.args[0].is_list ||
      ref.args[0].expr == nullptr || ref.args[0].expr->kind != ast::ExprKind::kLiteral ||
      ref.args[0].expr->literal_kind != ast::LiteralKind::kString) {
    return Status::OK();
  }
  const std::string& name = ref.args[0].expr->text;
  const LakeBinding* named = FindLake(context, name);
  if ((named != nullptr && !named->is_ducklake()) ||
      (named == nullptr && IsBuiltinDatabaseName(name))) {
    return NotADuckLake(name);
  }
  return Status::OK();
}

Status NotADuckLake(std::string_view name) {
  return Status::InvalidArgument("Binder Error: Attached database \"", name,
                                 "\" does not refer to a DuckLake database");
}

bool IsBuiltinDatabaseName(std::string_view name) {
  return SameName(name, "memory") || SameName(name, "temp") || SameName(name, "system");
}

const LakeBinding* LakeOfNames(const std::vector<std::string>& names,
                               const ExecContext& context) {
  if (names.size() >= 2) {
    if (const LakeBinding* named = FindLake(context, names[0])) return named;
  }
  if (names.size() == 1 || (names.size() == 2 && SameName(names[0], "main"))) {
    // temp.main comes first on DuckDB's search path.
    const LakeBinding* temp = FindLake(context, "temp");
    if (temp != nullptr && temp->kind == DatabaseKind::kTemp && temp->lake != nullptr) {
      Result<std::shared_ptr<const LakeSnapshot>> snapshot =
          LoadLakeSnapshot(*temp, std::nullopt, "", 0);
      if (snapshot.ok() && ((*snapshot)->FindTable("main", names.back()) != nullptr ||
                            (*snapshot)->FindView("main", names.back()) != nullptr)) {
        return temp;
      }
    }
  }
  return context.lake;
}

Status TableNotFound(const TableRef& ref, std::string_view sql_text,
                     const std::vector<std::string>& candidates) {
  const std::string& name = ref.names.back();
  std::string message = FormatErrorAt(
      sql_text, StrCat("Catalog Error: Table with name ", name, " does not exist!"), ref.offset);
  std::string written;
  for (const std::string& part : ref.names) written += (written.empty() ? "" : ".") + part;
  std::vector<std::string> closest = expr::ClosestNames(written, candidates);
  if (!closest.empty()) message += "\nDid you mean \"" + closest[0] + "\"?";
  return Status::NotFound(message);
}

Result<LakeObjectName> ResolveLakeName(const std::vector<std::string>& names,
                                       const LakeBinding& lake, const LakeSnapshot& snapshot) {
  if (names.size() == 1) return LakeObjectName{lake.default_schema, names[0]};
  if (names.size() == 2) {
    if (SameName(names[0], lake.name) && snapshot.FindSchema(names[0]) == nullptr) {
      return LakeObjectName{lake.default_schema, names[1]};
    }
    return LakeObjectName{names[0], names[1]};
  }
  if (names.size() == 3) {
    if (!SameName(names[0], lake.name)) {
      return Status::NotFound("Catalog Error: catalog \"", names[0],
                              "\" does not exist; the attached lake is \"", lake.name, "\"");
    }
    return LakeObjectName{names[1], names[2]};
  }
  return Status::InvalidArgument("Parser Error: a name has at most three parts");
}

Result<SnapshotSelector> SelectSnapshot(Lake& lake, const std::string& lake_name,
                                        const AtClause& at) {
  TARN_ASSIGN_OR_RETURN(Value value, ConstantValue(*at.value, "an AT clause"));
  SnapshotSelector selector;
  std::string wanted;
  if (!at.timestamp) {
    if (value.is_null() || !value.type().IsInteger()) {
      return Status::InvalidArgument("Binder Error: AT (VERSION => ...) needs an integer, not \"",
                                     at.value->ToString(), "\"");
    }
    TARN_ASSIGN_OR_RETURN(Value id, expr::CastValue(value, DataType(TypeId::kInt64)));
    selector = SnapshotSelector::Id(id.GetInt64());
    wanted = StrCat("with version ", id.GetInt64());
  } else {
    int64_t micros = 0;
    if (!value.is_null() && value.type().id == TypeId::kVarchar) {
      Result<int64_t> parsed = ParseCatalogTimestamp(value.GetBytes());
      if (!parsed.ok()) {
        return Status::InvalidArgument("Binder Error: AT (TIMESTAMP => '", value.GetBytes(),
                                       "'): not a timestamp: ", parsed.status().message());
      }
      micros = *parsed;
    } else if (!value.is_null() && (value.type().id == TypeId::kTimestamp ||
                                    value.type().id == TypeId::kTimestampTz)) {
      micros = value.GetInt64();
    } else if (!value.is_null() && value.type().id == TypeId::kDate) {
      micros = value.GetInt64() * 86400000000LL;
    } else {
      return Status::InvalidArgument(
          "Binder Error: AT (TIMESTAMP => ...) needs a timestamp or its text, not \"",
          at.value->ToString(), "\"");
    }
    selector = SnapshotSelector::AtTime(micros);
    wanted = "at or before " + (value.type().id == TypeId::kVarchar ? value.GetBytes()
                                                                     : FormatValue(value));
  }
  Result<SnapshotInfo> found = lake.FindSnapshot(selector);
  if (!found.ok()) {
    if (!found.status().IsNotFound()) return found.status();
    return Status::NotFound("Catalog Error: lake \"", lake_name, "\" has no snapshot ", wanted,
                            SnapshotRange(lake));
  }
  return SnapshotSelector::Id(found->snapshot_id);
}

Result<std::shared_ptr<const LakeSnapshot>> LoadLakeSnapshot(const LakeBinding& lake,
                                                             const std::optional<AtClause>& at,
                                                             std::string_view sql_text,
                                                             int32_t offset) {
  if (at.has_value()) {
    Result<SnapshotSelector> selector = SelectSnapshot(*lake.lake, lake.name, *at);
    if (!selector.ok()) {
      if (sql_text.empty()) return selector.status();
      return Status(selector.status().code(),
                    FormatErrorAt(sql_text, selector.status().message(), offset));
    }
    return lake.lake->LoadSnapshot(*selector);
  }
  if (lake.transaction != nullptr) {
#if TARN_SQL_LAKE_WRITES
    return lake.transaction->Snapshot();
#else
    return Status::NotSupported("not yet supported: reads inside a transaction");
#endif
  }
  if (lake.pinned_snapshot.has_value()) {
    return lake.lake->LoadSnapshot(SnapshotSelector::Id(*lake.pinned_snapshot));
  }
  return lake.lake->LoadSnapshot(SnapshotSelector::Latest());
}

Result<std::shared_ptr<const TableMetadata>> LoadLakeTable(const LakeBinding& lake,
                                                           const LakeSnapshot& snapshot,
                                                           const LakeObjectName& name,
                                                           bool through_transaction) {
  std::shared_ptr<const TableInfo> info = snapshot.FindTable(name.schema, name.name);
  if (!info) {
    std::string message = StrCat("Catalog Error: Table with name ", name.name, " does not exist!");
    std::vector<std::string> candidates;
    for (const auto& table : snapshot.tables()) {
      candidates.push_back(table->schema_name + "." + table->name);
    }
    std::vector<std::string> closest = expr::ClosestNames(name.ToString(), candidates);
    if (!closest.empty()) message += "\nDid you mean \"" + closest[0] + "\"?";
    return Status::NotFound(message);
  }
  if (through_transaction) {
#if TARN_SQL_LAKE_WRITES
    return lake.transaction->LoadTable(name.schema, name.name);
#else
    return Status::NotSupported("not yet supported: reads inside a transaction");
#endif
  }
  return lake.lake->LoadTable(snapshot, info->table_id);
}

Result<std::unique_ptr<Source>> BindLakeTableRef(const TableRef& ref, std::string_view sql_text,
                                                 const ExecContext& context) {
  const LakeBinding& lake = *LakeOfNames(ref.names, context);
  if (ref.at.has_value() && !lake.is_ducklake()) {
    return Status::InvalidArgument(FormatErrorAt(
        sql_text, "Binder Error: Catalog type does not support time travel", ref.offset));
  }
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, ref.at, sql_text, ref.offset));
  Result<LakeObjectName> resolved = ResolveLakeName(ref.names, lake, *snapshot);
  if (!resolved.ok()) {
    return Status(resolved.status().code(),
                  FormatErrorAt(sql_text, resolved.status().message(), ref.offset));
  }
  const LakeObjectName& name = *resolved;
  std::shared_ptr<const TableInfo> info = snapshot->FindTable(name.schema, name.name);
  if (info) {
    bool through_transaction = lake.transaction != nullptr && !ref.at.has_value();
    TARN_ASSIGN_OR_RETURN(auto table,
                          LoadLakeTable(lake, *snapshot, name, through_transaction));
    return std::unique_ptr<Source>(std::make_unique<LakeTableSource>(
        lake, name, std::move(table), through_transaction, context));
  }
  if (const ViewInfo* view = snapshot->FindView(name.schema, name.name)) {
    if (ref.at.has_value()) {
      return Status::NotSupported(FormatErrorAt(
          sql_text, "not yet supported: AT (...) on a view", ref.offset));
    }
    // A view's query names what its own database holds, as DuckDB binds it (a temporary
    // view's search path is the session's, temp first).
    ExecContext view_context = context;
    if (lake.kind != DatabaseKind::kTemp) view_context.lake = &lake;
    return BindLakeView(*view, view_context);
  }
  if (ref.names.size() == 1) return std::unique_ptr<Source>();
  if (snapshot->FindSchema(name.schema) == nullptr) {
    std::vector<std::string> schemas;
    for (const SchemaInfo& schema : snapshot->schemas()) schemas.push_back(schema.name);
    std::string message = FormatErrorAt(
        sql_text, StrCat("Catalog Error: schema \"", name.schema, "\" does not exist"),
        ref.offset);
    std::vector<std::string> closest = expr::ClosestNames(name.schema, schemas);
    if (!closest.empty()) message += "\nDid you mean \"" + closest[0] + "\"?";
    return Status::NotFound(message);
  }
  std::vector<std::string> candidates = LakeObjectNames(*snapshot);
  for (const auto& table : snapshot->tables()) {
    candidates.push_back(table->schema_name + "." + table->name);
  }
  return TableNotFound(ref, sql_text, candidates);
}

}  // namespace tarn::sql
