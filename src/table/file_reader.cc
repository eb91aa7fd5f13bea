#include "table/file_reader.h"

#include <algorithm>

#include "table/column_conform.h"
#include "table/deletes.h"
#include "table/file_pruning.h"
#include "expr/bind/bound.h"
#include "expr/eval/cast.h"
#include "parquet/filtered_scan.h"

namespace tarn::table_internal {

namespace {

// Row-group pruning for one file: the scan's predicate (over the table's names and types)
// re-pointed at the file's column names, with the file's statistics cast to the table's types
// (promotions). Columns the file lacks are unknown.
class FileStatisticsPredicate : public StatisticsPredicate {
 public:
  FileStatisticsPredicate(std::shared_ptr<const StatisticsPredicate> inner,
                          std::vector<std::string> file_names, std::vector<int> inner_to_file,
                          std::vector<DataType> types)
      : inner_(std::move(inner)), file_names_(std::move(file_names)),
        inner_to_file_(std::move(inner_to_file)), types_(std::move(types)) {}

  std::vector<std::string> referenced_columns() const override { return file_names_; }

  bool MayMatch(std::span<const ColumnStatistics* const> stats,
                int64_t num_rows) const override {
    std::vector<ColumnStatistics> storage(inner_to_file_.size());
    std::vector<const ColumnStatistics*> inner(inner_to_file_.size(), nullptr);
    for (size_t i = 0; i < inner_to_file_.size(); ++i) {
      const int index = inner_to_file_[i];
      if (index < 0 || static_cast<size_t>(index) >= stats.size() || stats[index] == nullptr) {
        continue;
      }
      storage[i] = *stats[index];
      if (!Retype(&storage[i].min, types_[i]) || !Retype(&storage[i].max, types_[i])) continue;
      inner[i] = &storage[i];
    }
    return inner_->MayMatch(inner, num_rows);
  }

 private:
  // Casts a bound to the table's type; false when it does not convert (then unknown).
  static bool Retype(std::optional<Value>* bound, const DataType& type) {
    if (!bound->has_value() || (*bound)->is_null() || (*bound)->type() == type) return true;
    auto cast = expr::CastValue(**bound, type, /*try_cast=*/true);
    if (!cast.ok() || cast->is_null()) return false;
    *bound = *cast;
    return true;
  }

  std::shared_ptr<const StatisticsPredicate> inner_;
  std::vector<std::string> file_names_;
  std::vector<int> inner_to_file_;
  std::vector<DataType> types_;
};

int FindByFieldId(const Schema& schema, int64_t field_id) {
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (schema.field(i).field_id.has_value() && *schema.field(i).field_id == field_id) return i;
  }
  return -1;
}

int FindByName(const Schema& schema, const std::string& name) {
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (schema.field(i).name == name) return i;
  }
  return schema.FindField(name);
}

std::string PercentDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    if (text[i] == '%' && i + 2 < text.size() &&
        hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The value of a hive partition key `name=value` in `path`, cast to `type`.
Result<Value> HivePartitionValue(const std::string& path, const std::string& name,
                                 const DataType& type) {
  const std::string key = name + "=";
  size_t start = 0;
  while (start < path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) break;  // the file name itself
    std::string_view segment(path.data() + start, end - start);
    if (segment.size() >= key.size() && segment.substr(0, key.size()) == key) {
      std::string text = PercentDecode(segment.substr(key.size()));
      if (text == "NULL" || text == "__HIVE_DEFAULT_PARTITION__") return Value::Null(type);
      return expr::CastValue(Value::Varchar(text), type);
    }
    start = end + 1;
  }
  return Status::Corruption("data file '", path, "' is name-mapped with partition column '",
                            name, "' but its path has no '", key, "' directory");
}

// Whether `node` can be evaluated over the scan's columns (to_scan[internal column] = scan
// column, -1 when not readable there as it is) and cannot fail: only constants, columns,
// comparisons, IN lists, IS NULL and boolean logic are taken.
bool EvaluableInScan(const expr::BoundNode& node, const std::vector<int>& to_scan) {
  using expr::BoundKind;
  switch (node.kind) {
    case BoundKind::kConstant: case BoundKind::kCompare: case BoundKind::kAnd:
    case BoundKind::kOr: case BoundKind::kNot: case BoundKind::kIsNull: case BoundKind::kIn:
      break;
    case BoundKind::kColumn:
      if (node.column_index < 0 || node.column_index >= static_cast<int>(to_scan.size()) ||
          to_scan[node.column_index] < 0) {
        return false;
      }
      break;
    default:
      return false;
  }
  for (const auto& child : node.children) {
    if (!EvaluableInScan(*child, to_scan)) return false;
  }
  return true;
}

// Points a copy's column references at the scan's columns.
void RemapColumns(expr::BoundNode* node, const std::vector<int>& to_scan) {
  if (node->kind == expr::BoundKind::kColumn) node->column_index = to_scan[node->column_index];
  for (auto& child : node->children) RemapColumns(child.get(), to_scan);
}

// The scan column of each internal column the scan reads as it is (the file's type is the
// table's, not nested); -1 for the others. Internal columns 0..n-1 are the requested table
// columns; rowid, snapshot_id and the position come after and are not the file's columns.
std::vector<int> ScanColumnsOf(const DataFilePlan& plan) {
  std::vector<int> to_scan(plan.columns.size(), -1);
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const DataFilePlan::Source& source = plan.sources[i];
    if (source.file_column >= 0 && !plan.columns[i]->type.IsNested() &&
        source.file_field->type == plan.columns[i]->type) {
      to_scan[i] = source.file_column;
    }
  }
  return to_scan;
}

// `filter` (over the internal schema) over the scan's columns, when it can be evaluated there
// while decoding; else null.
std::shared_ptr<const BoundExpr> ScanFilter(const std::vector<int>& to_scan,
                                            const BoundExpr& filter) {
  if (!EvaluableInScan(filter.root(), to_scan) || filter.root().IsConstant()) return nullptr;
  auto root = expr::CloneBound(filter.root());
  RemapColumns(root.get(), to_scan);
  return std::make_shared<const BoundExpr>(std::move(root));
}

}  // namespace

std::shared_ptr<const Schema> MakeInternalSchema(const std::vector<const ColumnInfo*>& columns) {
  std::vector<Field> fields;
  for (const ColumnInfo* column : columns) {
    Field field = column->ToField();
    field.nullable = true;
    fields.push_back(std::move(field));
  }
  fields.emplace_back("rowid", DataType(TypeId::kInt64));
  fields.emplace_back("snapshot_id", DataType(TypeId::kInt64));
  fields.emplace_back(kPositionColumnName, DataType(TypeId::kInt64));
  return std::make_shared<Schema>(std::move(fields));
}

Result<std::shared_ptr<const DataFilePlan>> DataFileReader::Prepare(
    std::shared_ptr<FileSystem> fs, const DataFileInfo& file, const TableInfo& target,
    const std::map<int64_t, NameMapping>& mappings, std::vector<const ColumnInfo*> columns,
    std::shared_ptr<const Schema> internal_schema, const FileReadOptions& options) {
  auto self = std::make_shared<DataFilePlan>();
  self->file = file;
  self->options = options;
  self->columns = std::move(columns);
  self->internal_schema = std::move(internal_schema);
  TARN_ASSIGN_OR_RETURN(self->reader, ParquetReader::Open(fs, file.path));
  const Schema& schema = self->reader->schema();
  if (self->reader->num_rows() != file.record_count) {
    return Status::Corruption("data file '", file.path, "' has ", self->reader->num_rows(),
                              " rows; the catalog records ", file.record_count);
  }

  const NameMapping* mapping = nullptr;
  if (file.mapping_id.has_value()) {
    auto it = mappings.find(*file.mapping_id);
    if (it == mappings.end()) {
      return Status::Corruption("data file '", file.path, "' names mapping ", *file.mapping_id,
                                ", which the catalog does not hold");
    }
    mapping = &it->second;
    self->name_mapped = true;
    for (const NameMappingEntry& entry : mapping->entries) {
      if (entry.parent_column.has_value() && !entry.is_partition) {
        self->mapped_names[entry.target_field_id] = entry.source_name;
      }
    }
  }
  bool has_ids = false;
  for (const Field& field : schema.fields) has_ids |= field.field_id.has_value();

  // Each requested column's file column (index into `schema`), or a constant.
  std::vector<int> file_index(self->columns.size(), -1);
  self->sources.resize(self->columns.size());
  for (size_t i = 0; i < self->columns.size(); ++i) {
    const ColumnInfo& column = *self->columns[i];
    DataFilePlan::Source& source = self->sources[i];
    if (mapping != nullptr) {
      for (const NameMappingEntry& entry : mapping->entries) {
        if (entry.parent_column.has_value() || entry.target_field_id != column.column_id) continue;
        if (entry.is_partition) {
          TARN_ASSIGN_OR_RETURN(Value value,
                                HivePartitionValue(file.path, entry.source_name, column.type));
          source.constant = std::move(value);
        } else {
          file_index[i] = FindByName(schema, entry.source_name);
        }
        break;
      }
    } else if (has_ids) {
      file_index[i] = FindByFieldId(schema, column.column_id);
    } else {
      // A file without field ids or mapping: columns by position.
      for (size_t pos = 0; pos < target.columns.size(); ++pos) {
        if (target.columns[pos].column_id == column.column_id &&
            static_cast<int>(pos) < schema.num_fields()) {
          file_index[i] = static_cast<int>(pos);
        }
      }
    }
    if (file_index[i] < 0 && !source.constant.has_value()) source.constant = InitialValue(column);
  }
  const bool by_id = has_ids && mapping == nullptr;
  const int row_id_index = by_id ? FindByFieldId(schema, kRowIdFieldId)
                                 : FindByName(schema, kRowIdInternalName);
  const int snapshot_index = by_id ? FindByFieldId(schema, kSnapshotIdFieldId)
                                   : FindByName(schema, kSnapshotIdInternalName);

  // The scan's columns: each file column once.
  ScanOptions scan;
  std::vector<int> scan_of_file(schema.num_fields(), -1);
  auto add = [&](int index) {
    if (index < 0) return -1;
    if (scan_of_file[index] < 0) {
      scan_of_file[index] = static_cast<int>(scan.columns.size());
      scan.columns.push_back(schema.field(index).name);
    }
    return scan_of_file[index];
  };
  for (size_t i = 0; i < self->columns.size(); ++i) {
    self->sources[i].file_column = add(file_index[i]);
    if (file_index[i] >= 0) self->sources[i].file_field = &schema.field(file_index[i]);
  }
  self->row_id_column = add(row_id_index);
  self->snapshot_column = add(snapshot_index);
  // No file column needed (every requested column is missing from the file): an empty list
  // would read every column, so read the first one only; its values are not used.
  if (scan.columns.empty() && schema.num_fields() > 0) add(0);
  self->position_column = static_cast<int>(scan.columns.size());
  scan.with_position = true;
  scan.position_column_name = kPositionColumnName;
  scan.pool = options.pool;
  scan.batch_rows = options.batch_rows;
  scan.cancel = options.cancel;

  if (options.apply_snapshot_filter && file.partial_max.has_value() &&
      *file.partial_max > options.snapshot_id && self->snapshot_column < 0) {
    return Status::Corruption("data file '", file.path, "' is partial (partial_max ",
                              *file.partial_max, ") but has no ", kSnapshotIdInternalName,
                              " column");
  }
  if (self->row_id_column < 0 && !file.row_id_start.has_value()) {
    return Status::Corruption("data file '", file.path, "' has neither row_id_start nor a ",
                              kRowIdInternalName, " column");
  }

  // Row-group pruning through the file's names.
  if (options.predicate) {
    std::vector<std::string> names;
    std::vector<int> inner_to_file;
    std::vector<DataType> types;
    for (const std::string& name : options.predicate->referenced_columns()) {
      int full_index = options.predicate_schema->FindField(name);
      int mapped = -1;
      DataType type;
      if (full_index >= 0 && full_index < static_cast<int>(target.columns.size())) {
        const ColumnInfo& column = target.columns[full_index];
        type = column.type;
        for (size_t i = 0; i < self->columns.size(); ++i) {
          if (self->columns[i]->column_id != column.column_id || file_index[i] < 0) continue;
          if (schema.field(file_index[i]).type.IsNested()) continue;
          mapped = static_cast<int>(names.size());
          names.push_back(schema.field(file_index[i]).name);
        }
      }
      inner_to_file.push_back(mapped);
      types.push_back(type);
    }
    scan.predicate = std::make_shared<FileStatisticsPredicate>(
        options.predicate, std::move(names), std::move(inner_to_file), std::move(types));
  }

  std::vector<int64_t> deleted;
  if (options.apply_deletes) {
    const int64_t num_rows = self->reader->num_rows();
    TARN_ASSIGN_OR_RETURN(deleted, DeletedPositionsAt(fs, file, num_rows, options.snapshot_id));
    if (!deleted.empty()) {
      self->deleted.assign(static_cast<size_t>((num_rows + 7) / 8), 0);
      for (int64_t position : deleted) SetBit(self->deleted.data(), position);
      // Deleted rows are not even decoded; the bitmap below stays the authority.
      std::vector<std::pair<int64_t, int64_t>> ranges;
      int64_t begin = 0;
      for (int64_t position : deleted) {
        if (position > begin) ranges.emplace_back(begin, position);
        begin = position + 1;
      }
      if (begin < num_rows) ranges.emplace_back(begin, num_rows);
      scan.selection = RowSelection::FromRanges(std::move(ranges));
    }
  }
  if (options.positions) {
    // A point lookup: only the placed positions that are not deleted are decoded.
    std::vector<int64_t> wanted;
    for (int64_t position : *options.positions) {
      if (position < 0 || position >= self->reader->num_rows()) {
        return Status::Corruption("data file '", file.path, "': row position ", position,
                                  " outside its ", self->reader->num_rows(), " rows");
      }
      if (!std::binary_search(deleted.begin(), deleted.end(), position)) {
        wanted.push_back(position);
      } else {
        ++self->positions_deleted;
      }
    }
    scan.selection = RowSelection::FromPositions(wanted);
  }
  // Filters evaluated while decoding, over the scan's columns: the caller's filter and row
  // filters whose columns the file holds as they are; ranges prune row groups and pages.
  const std::vector<int> to_scan = ScanColumnsOf(*self);
  std::vector<std::shared_ptr<const parquet::RowFilter>> filters;
  if (options.filter) {
    if (auto on_scan = ScanFilter(to_scan, *options.filter)) {
      filters.push_back(parquet::ExpressionRowFilter(std::move(on_scan)));
    }
  }
  for (const auto& filter : options.row_filters) {
    filters.push_back(parquet::RemappedRowFilter(filter, to_scan));
  }
  self->scan_filter = parquet::AllRowFilters(std::move(filters));
  for (const parquet::KeptRange& range : options.ranges) {
    if (range.column < 0 || static_cast<size_t>(range.column) >= to_scan.size() ||
        to_scan[static_cast<size_t>(range.column)] < 0 ||
        !parquet::KeptRangeApplies(self->columns[static_cast<size_t>(range.column)]->type)) {
      continue;
    }
    const std::string& name = scan.columns[static_cast<size_t>(to_scan[static_cast<size_t>(range.column)])];
    scan.predicate = parquet::BothPredicates(
        scan.predicate, parquet::IntegerRangePredicate(name, range.low, range.high));
  }
  self->scan = std::move(scan);
  return std::shared_ptr<const DataFilePlan>(std::move(self));
}

Result<std::unique_ptr<DataFileReader>> DataFileReader::Open(
    std::shared_ptr<const DataFilePlan> plan, std::vector<int> row_groups) {
  std::unique_ptr<DataFileReader> self(new DataFileReader());
  self->plan_ = std::move(plan);
  const DataFilePlan& p = *self->plan_;
  ScanOptions scan = p.scan;
  if (!row_groups.empty()) {
    self->part_row_groups_ = static_cast<int64_t>(row_groups.size());
    scan.row_groups = std::move(row_groups);
    scan.max_parallel_row_groups = 1;  // decode on the calling thread
  } else {
    self->metrics_.rows_deleted = p.positions_deleted;
  }
  TARN_ASSIGN_OR_RETURN(self->scan_, parquet::ScanWithRowFilter(*p.reader, scan, p.scan_filter));
  return self;
}

Result<std::unique_ptr<DataFileReader>> DataFileReader::Open(
    std::shared_ptr<FileSystem> fs, const DataFileInfo& file, const TableInfo& target,
    const std::map<int64_t, NameMapping>& mappings, std::vector<const ColumnInfo*> columns,
    std::shared_ptr<const Schema> internal_schema, const FileReadOptions& options) {
  TARN_ASSIGN_OR_RETURN(auto plan, Prepare(std::move(fs), file, target, mappings,
                                           std::move(columns), std::move(internal_schema),
                                           options));
  return Open(std::move(plan));
}

FileReadMetrics DataFileReader::metrics() const {
  FileReadMetrics out = metrics_;
  if (scan_) {
    const ScanMetrics& scan = scan_->metrics();
    // A part counts only its own row groups (the others are the other parts').
    out.row_groups_total = part_row_groups_ >= 0 ? part_row_groups_ : scan.row_groups_total;
    out.row_groups_pruned = scan.row_groups_pruned;
  }
  return out;
}

Result<std::shared_ptr<Batch>> DataFileReader::Next() {
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, scan_->Next());
    if (!batch) return batch;
    TARN_ASSIGN_OR_RETURN(auto converted, Convert(*batch));
    if (converted) return converted;
  }
}

namespace {

// A BIGINT column of `rows` values, none NULL, for the caller to fill.
std::shared_ptr<Column> Int64Column(int64_t rows) {
  auto column = std::make_shared<Column>();
  column->type = DataType(TypeId::kInt64);
  column->length = rows;
  column->values = Buffer::AllocateUninitialized(rows * static_cast<int64_t>(sizeof(int64_t)));
  return column;
}

}  // namespace

Result<std::shared_ptr<Batch>> DataFileReader::Convert(const Batch& batch) {
  const DataFilePlan& plan = *plan_;
  const int64_t rows = batch.num_rows;
  const Column& position = batch.column(plan.position_column);
  const int64_t* positions = position.values_as<int64_t>();
  const bool snapshot_filter = plan.options.apply_snapshot_filter && plan.file.partial_max.has_value() &&
                               *plan.file.partial_max > plan.options.snapshot_id;
  const Column* snapshots = plan.snapshot_column >= 0 ? &batch.column(plan.snapshot_column) : nullptr;
  std::vector<uint8_t> keep(static_cast<size_t>((rows + 7) / 8), 0);
  int64_t keep_count = 0;
  const int64_t file_rows = plan.reader->num_rows();
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t pos = positions[row];
    if (pos < 0 || pos >= file_rows) {
      return Status::Internal("position ", pos, " outside data file '", plan.file.path, "'");
    }
    if (!plan.deleted.empty() && GetBit(plan.deleted.data(), pos)) {
      ++metrics_.rows_deleted;
      continue;
    }
    if (snapshot_filter) {
      if (snapshots->IsNull(row)) {
        return Status::Corruption("data file '", plan.file.path, "' position ", pos, ": ",
                                  kSnapshotIdInternalName, " is NULL");
      }
      if (snapshots->values_as<int64_t>()[row] > plan.options.snapshot_id) {
        ++metrics_.rows_after_snapshot;
        continue;
      }
    }
    SetBit(keep.data(), row);
    ++keep_count;
  }
  if (keep_count == 0) return std::shared_ptr<Batch>();
  auto filtered = [&](int index) {
    return keep_count == rows ? batch.columns[index]
                              : Filter(batch.column(index), keep.data(), keep_count);
  };
  std::vector<std::shared_ptr<Column>> out;
  out.reserve(plan.columns.size() + 3);
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const DataFilePlan::Source& source = plan.sources[i];
    std::shared_ptr<Column> column;
    if (source.file_column >= 0) {
      TARN_ASSIGN_OR_RETURN(column, ConformColumn(filtered(source.file_column),
                                                  *source.file_field, *plan.columns[i],
                                                  plan.name_mapped ? &plan.mapped_names : nullptr));
    } else {
      TARN_ASSIGN_OR_RETURN(column, ConstantColumn(*source.constant, plan.columns[i]->type,
                                                   keep_count));
    }
    out.push_back(std::move(column));
  }
  auto kept_positions = filtered(plan.position_column);
  const int64_t* pos = kept_positions->values_as<int64_t>();
  std::shared_ptr<Column> embedded_rowid =
      plan.row_id_column >= 0 ? filtered(plan.row_id_column) : nullptr;
  std::shared_ptr<Column> embedded_snapshot =
      plan.snapshot_column >= 0 ? filtered(plan.snapshot_column) : nullptr;
  // Row lineage, written straight into the columns' buffers (every row gets a value).
  auto rowid = Int64Column(keep_count);
  int64_t* rowids = rowid->values->mutable_data_as<int64_t>();
  const bool have_start = plan.file.row_id_start.has_value();
  const int64_t start = have_start ? *plan.file.row_id_start : 0;
  if (embedded_rowid == nullptr && have_start) {
    for (int64_t row = 0; row < keep_count; ++row) rowids[row] = start + pos[row];
  } else {
    for (int64_t row = 0; row < keep_count; ++row) {
      if (embedded_rowid && embedded_rowid->IsValid(row)) {
        rowids[row] = embedded_rowid->values_as<int64_t>()[row];
      } else if (have_start) {
        rowids[row] = start + pos[row];
      } else {
        return Status::Corruption("data file '", plan.file.path, "' position ", pos[row], ": ",
                                  kRowIdInternalName, " is NULL and the file has no row_id_start");
      }
    }
  }
  auto snapshot = Int64Column(keep_count);
  int64_t* snapshots_out = snapshot->values->mutable_data_as<int64_t>();
  for (int64_t row = 0; row < keep_count; ++row) {
    snapshots_out[row] = embedded_snapshot && embedded_snapshot->IsValid(row)
                             ? embedded_snapshot->values_as<int64_t>()[row]
                             : plan.file.begin_snapshot;
  }
  out.push_back(std::move(rowid));
  out.push_back(std::move(snapshot));
  out.push_back(std::move(kept_positions));
  return MakeBatch(plan.internal_schema, std::move(out));
}

}  // namespace tarn::table_internal
