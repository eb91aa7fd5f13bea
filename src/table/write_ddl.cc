#include "table/write_ddl.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "catalog/column_tree.h"
#include "catalog/inlined_text.h"
#include "catalog/loader.h"
#include "expr/eval/cast.h"
#include "table/reserved_columns.h"
#include "table/write_dml.h"
#include "table/write_files.h"
#include "table/write_match.h"
#include "table/write_rows.h"
#include "util/byte_size.h"

namespace tarn::table_internal {

namespace {

// Removes every DDL change for `table_id` of the kinds that edit a table.
void EraseTableChanges(WriteState& state, int64_t table_id) {
  std::erase_if(state.ddl, [&](const LakeChange& change) {
    return std::visit(
        [&](const auto& c) -> bool {
          using T = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<T, CreateTableChange>) {
            return c.provisional_id == table_id;
          } else if constexpr (std::is_same_v<T, RenameTableChange> ||
                               std::is_same_v<T, AddColumnChange> ||
                               std::is_same_v<T, DropColumnChange> ||
                               std::is_same_v<T, AlterColumnChange> ||
                               std::is_same_v<T, SetPartitioningChange> ||
                               std::is_same_v<T, SetSortKeyChange>) {
            return c.table_id == table_id;
          } else if constexpr (std::is_same_v<T, SetCommentChange>) {
            return c.target != SetCommentChange::Target::kView && c.object_id == table_id;
          } else {
            return false;
          }
        },
        change);
  });
}

Status NeedSchema(const WriteState& state, const std::string& schema) {
  if (state.FindSchema(schema) == nullptr) {
    return Status::NotFound("Binder Error: Schema with name \"", schema, "\" not found");
  }
  return Status::OK();
}

}  // namespace

Status CheckName(const std::string& what, const std::string& name) {
  if (name.empty()) return Status::InvalidArgument(what, " name must not be empty");
  return Status::OK();
}


// A column's catalog row tree for `type`, ids assigned depth-first from *next_id.
ColumnInfo BuildColumn(const std::string& name, const DataType& type, bool nulls_allowed,
                       int64_t* next_id) {
  ColumnInfo column;
  column.column_id = (*next_id)++;
  column.column_order = column.column_id;
  column.name = name;
  column.nulls_allowed = nulls_allowed;
  column.type_name = type.ToDuckLakeName();
  column.type = type;
  switch (type.id) {
    case TypeId::kStruct:
      for (const Field& child : type.children) {
        column.children.push_back(BuildColumn(child.name, child.type, true, next_id));
      }
      break;
    case TypeId::kList:
      column.children.push_back(BuildColumn("element", type.children[0].type, true, next_id));
      break;
    case TypeId::kMap: {
      const auto& entry = type.children[0].type.children;
      // The extension records the key column with nulls_allowed true (keys are never NULL in
      // a map value all the same).
      column.children.push_back(BuildColumn("key", entry[0].type, true, next_id));
      column.children.push_back(BuildColumn("value", entry[1].type, true, next_id));
      break;
    }
    default:
      break;
  }
  // The nested type as the catalog loader builds it back: field ids are the children's ids.
  catalog_internal::ComposeNestedType(&column);
  column.initial_value = Value::Null(column.type);
  return column;
}

Status CheckType(const std::string& column, const DataType& type) {
  if (type.id == TypeId::kNull) {
    return Status::InvalidArgument("column \"", column, "\" has no type");
  }
  if (type.id == TypeId::kMap && (type.children.size() != 1 ||
                                  type.children[0].type.children.size() != 2)) {
    return Status::InvalidArgument("column \"", column, "\" has a malformed MAP type");
  }
  if (type.id == TypeId::kList && type.children.size() != 1) {
    return Status::InvalidArgument("column \"", column, "\" has a malformed LIST type");
  }
  for (const Field& child : type.children) TARN_RETURN_NOT_OK(CheckType(column, child.type));
  return Status::OK();
}

// `value` cast to the column's type, as a catalog literal default.
Result<std::pair<ColumnDefault, Value>> MakeDefault(const std::string& column,
                                                    const DataType& type, const Value& value) {
  if (value.is_null()) return std::make_pair(ColumnDefault(), Value::Null(type));
  auto cast = expr::CastValue(value, type);
  if (!cast.ok()) {
    return Status::InvalidArgument("default of column \"", column, "\": ",
                                   cast.status().message());
  }
  ColumnDefault def;
  def.kind = ColumnDefault::Kind::kLiteral;
  def.text = expr::ValueToText(*cast);
  def.dialect = "duckdb";
  return std::make_pair(std::move(def), std::move(cast).value());
}

Result<ColumnDefault> MakeExpressionDefault(const std::string& column, const DataType& type,
                                            const std::string& expression) {
  ColumnDefault def;
  def.kind = ColumnDefault::Kind::kExpression;
  def.text = expression;
  def.dialect = "duckdb";
  ColumnInfo probe;
  probe.name = column;
  probe.type = type;
  probe.default_value = def;
  TARN_RETURN_NOT_OK(InsertDefault(probe).status());
  return def;
}

Status NonLiteralAddColumnDefault() {
  return Status::NotSupported(
      "Not implemented Error: We cannot add a column with a non-literal default value. Add the "
      "column and then explicitly set the default for new values using \"ALTER ... SET "
      "DEFAULT\"");
}

void RebuildSchema(TableInfo* table) {
  table->schema = catalog_internal::SchemaOfColumns(table->columns);
}

CreateTableChange* FindCreateTable(WriteState& state, int64_t table_id) {
  for (LakeChange& change : state.ddl) {
    if (auto* create = std::get_if<CreateTableChange>(&change)) {
      if (create->provisional_id == table_id) return create;
    }
  }
  return nullptr;
}

std::optional<std::string> PathSegmentFor(const std::string& name) {
  if (name.empty()) return std::nullopt;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return std::nullopt;
  }
  return name;
}

namespace {

// Decimal digits an integer type needs, as DuckDB counts them when it widens an integer to a
// decimal; 0 for types that have no decimal form.
int IntegerDigits(TypeId id) {
  switch (id) {
    case TypeId::kInt8: case TypeId::kUInt8: return 3;
    case TypeId::kInt16: case TypeId::kUInt16: return 5;
    case TypeId::kInt32: case TypeId::kUInt32: return 10;
    case TypeId::kInt64: return 19;
    case TypeId::kUInt64: return 20;
    case TypeId::kInt128: return 38;
    default: return 0;
  }
}

// Timestamps (and DATE) by the fineness of their unit; 0 for other types.
int TimestampRank(TypeId id) {
  switch (id) {
    case TypeId::kDate: return 1;
    case TypeId::kTimestampS: return 2;
    case TypeId::kTimestampMs: return 3;
    case TypeId::kTimestamp: return 4;
    case TypeId::kTimestampNs: return 5;
    default: return 0;
  }
}

}  // namespace

// DuckLake allows a change whose DuckDB max logical type is the target. These are the pairs of
// that rule tarn's readers cast old files for: integer widening (integers.MaxType), integers and
// decimals to FLOAT/DOUBLE or to a decimal that holds every value, FLOAT to DOUBLE, DATE and
// timestamps to finer timestamps, DATE and TIMESTAMP to TIMESTAMPTZ.
bool IsAllowedPromotion(const DataType& from, const DataType& to) {
  if (from == to) return false;
  if (from.IsInteger() && to.IsInteger()) {
    auto max = expr::MaxType(from, to);
    return max.has_value() && *max == to;
  }
  if (to.id == TypeId::kFloat64 || to.id == TypeId::kFloat32) {
    return from.IsInteger() || from.id == TypeId::kDecimal ||
           (from.id == TypeId::kFloat32 && to.id == TypeId::kFloat64);
  }
  if (to.id == TypeId::kDecimal) {
    if (from.id == TypeId::kDecimal) {
      return to.scale >= from.scale && to.precision - to.scale >= from.precision - from.scale;
    }
    const int digits = IntegerDigits(from.id);
    return digits > 0 && digits + to.scale <= to.precision;
  }
  if (to.id == TypeId::kTimestampTz) {
    return from.id == TypeId::kTimestamp || from.id == TypeId::kDate;
  }
  const int from_rank = TimestampRank(from.id);
  const int to_rank = TimestampRank(to.id);
  return from_rank > 0 && to_rank > from_rank;
}

Status PromotionError(const std::string& column, const DataType& from, const DataType& to) {
  return Status::InvalidArgument("Catalog Error: Cannot change type of column ", column,
                                 " from ", from.ToString(), " to ", to.ToString(),
                                 " - only widening type promotions are allowed");
}

Status DdlCreateSchema(WriteState& state, const std::string& name, bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckName("schema", name));
  if (state.FindSchema(name) != nullptr) {
    if (if_not_exists) return Status::OK();
    return Status::AlreadyExists("Catalog Error: Schema with name \"", name, "\" already exists!");
  }
  SchemaInfo schema;
  schema.schema_id = state.NewProvisionalId();
  schema.name = name;
  schema.begin_snapshot = state.start_snapshot_id;
  auto segment = PathSegmentFor(name);
  // Names that need a uuid directory get their path from the commit; see DataPathOf.
  schema.path = segment.has_value() ? state.start->data_path() + *segment + "/" : "";
  state.schemas.push_back(schema);
  state.ddl.push_back(CreateSchemaChange{schema.schema_id, name});
  return Status::OK();
}

Status DdlDropSchema(WriteState& state, const std::string& name, bool if_exists,
                     bool cascade) {
  const SchemaInfo* schema = state.FindSchema(name);
  if (schema == nullptr) {
    if (if_exists) return Status::OK();
    return Status::NotFound("Binder Error: Schema with name \"", name, "\" not found");
  }
  const int64_t id = schema->schema_id;
  const std::string schema_name = schema->name;
  // The entries the schema still holds: dropped with it under CASCADE, else an error.
  std::vector<std::string> tables, views;
  std::vector<std::pair<std::string, bool>> macros;
  for (const auto& table : state.tables) {
    if (table->schema_id == id) tables.push_back(table->name);
  }
  for (const ViewInfo& view : state.views) {
    if (view.schema_id == id) views.push_back(view.name);
  }
  for (const MacroInfo& macro : state.macros) {
    if (macro.schema_id == id) macros.emplace_back(macro.name, macro.is_table());
  }
  if (!cascade && (!tables.empty() || !views.empty() || !macros.empty())) {
    const std::string entry = !tables.empty() ? "table \"" + tables[0] + "\""
                              : !views.empty() ? "view \"" + views[0] + "\""
                                               : "macro \"" + macros[0].first + "\"";
    return Status::InvalidArgument(
        "Dependency Error: Cannot drop entry \"", schema_name,
        "\" because there are entries that depend on it (", entry,
        "). Use DROP...CASCADE to drop all dependents.");
  }
  for (const std::string& table : tables) {
    TARN_RETURN_NOT_OK(DdlDropTable(state, schema_name, table, false));
  }
  for (const std::string& view : views) {
    TARN_RETURN_NOT_OK(DdlDropView(state, schema_name, view, false));
  }
  for (const auto& [macro, is_table] : macros) {
    TARN_RETURN_NOT_OK(DdlDropMacro(state, schema_name, macro, is_table, false));
  }
  if (id < 0) {
    std::erase_if(state.ddl, [&](const LakeChange& change) {
      auto* create = std::get_if<CreateSchemaChange>(&change);
      return create != nullptr && create->provisional_id == id;
    });
  } else {
    state.ddl.push_back(DropSchemaChange{id});
  }
  std::erase_if(state.schemas, [&](const SchemaInfo& s) { return s.schema_id == id; });
  return Status::OK();
}

Status DdlCreateTable(WriteState& state, const std::string& schema_name, const std::string& name,
                      const std::vector<ColumnDefinition>& columns, bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckName("table", name));
  TARN_RETURN_NOT_OK(NeedSchema(state, schema_name));
  if (state.FindTable(schema_name, name) || state.FindView(schema_name, name)) {
    if (if_not_exists && state.FindTable(schema_name, name)) return Status::OK();
    // DuckDB's words, whether the name is a table's or a view's.
    return Status::AlreadyExists("Catalog Error: Table with name \"", name, "\" already exists!");
  }
  if (columns.empty()) {
    return Status::InvalidArgument("table \"", name, "\" must have at least one column");
  }
  const SchemaInfo& schema = *state.FindSchema(schema_name);
  auto table = std::make_shared<TableInfo>();
  table->table_id = state.NewProvisionalId();
  table->schema_id = schema.schema_id;
  table->schema_name = schema.name;
  table->name = name;
  table->begin_snapshot = state.start_snapshot_id;
  auto segment = PathSegmentFor(name);
  table->path = schema.path.empty() || !segment.has_value() ? "" : schema.path + *segment + "/";
  int64_t next_id = 1;
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnDefinition& def = columns[i];
    TARN_RETURN_NOT_OK(CheckName("column", def.name));
    TARN_RETURN_NOT_OK(CheckType(def.name, def.type));
    TARN_RETURN_NOT_OK(CheckColumnNameAllowed(state, schema.schema_id, std::nullopt, def.name,
                                              "Binder Error"));
    for (size_t j = 0; j < i; ++j) {
      if (NameEquals(columns[j].name, def.name)) {
        return Status::InvalidArgument("column \"", def.name, "\" is defined twice in table \"",
                                       name, "\"");
      }
    }
    ColumnInfo column = BuildColumn(def.name, def.type, def.nulls_allowed, &next_id);
    if (!def.default_expression.empty()) {
      TARN_ASSIGN_OR_RETURN(column.default_value,
                            MakeExpressionDefault(def.name, column.type, def.default_expression));
    } else if (def.default_value.has_value()) {
      TARN_ASSIGN_OR_RETURN(auto made, MakeDefault(def.name, column.type, *def.default_value));
      column.default_value = made.first;
    }
    table->columns.push_back(std::move(column));
  }
  RebuildSchema(table.get());
  state.max_column_id[table->table_id] = next_id - 1;
  state.ddl.push_back(CreateTableChange{table->table_id, schema.schema_id, name, table->columns});
  state.tables.push_back(std::move(table));
  return Status::OK();
}

Status DdlDropTable(WriteState& state, const std::string& schema, const std::string& name,
                    bool if_exists) {
  auto table = state.FindTable(schema, name);
  if (!table) {
    if (if_exists) return Status::OK();
    return state.RequireTable(schema, name).status();
  }
  const int64_t id = table->table_id;
  DiscardDml(state, id);
  EraseTableChanges(state, id);
  if (id >= 0) state.ddl.push_back(DropTableChange{id});
  std::erase_if(state.tables, [&](const auto& t) { return t->table_id == id; });
  return Status::OK();
}

Status DdlRenameTable(WriteState& state, const std::string& schema, const std::string& name,
                      const std::string& new_name) {
  TARN_RETURN_NOT_OK(CheckName("table", new_name));
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, name));
  // Only a name other than the table's own (a rename that changes its case is allowed).
  auto existing = state.FindTable(schema, new_name);
  if ((existing && existing->table_id != table->table_id) || state.FindView(schema, new_name)) {
    return Status::AlreadyExists("Binder Error: Cannot rename table ", name, " to ", new_name,
                                 ", since ", new_name, " already exists.");
  }
  auto copy = std::make_shared<TableInfo>(*table);
  copy->name = new_name;
  if (CreateTableChange* create = FindCreateTable(state, table->table_id)) {
    // The commit names the new table's folder after its name. Once data files lie in the
    // folder of an earlier name, the table keeps that folder (as the extension keeps a
    // table's path through renames).
    const TableDml* dml = state.FindDml(table->table_id);
    const bool files_written = dml != nullptr && !dml->files.empty();
    if (files_written || !create->path_name.empty()) {
      if (create->path_name.empty()) create->path_name = create->name;
    } else {
      auto segment = PathSegmentFor(new_name);
      const SchemaInfo* owner = state.FindSchemaById(table->schema_id);
      copy->path = owner == nullptr || owner->path.empty() || !segment.has_value()
                       ? ""
                       : owner->path + *segment + "/";
    }
    create->name = new_name;
  } else {
    bool folded = false;
    for (LakeChange& change : state.ddl) {
      if (auto* rename = std::get_if<RenameTableChange>(&change)) {
        if (rename->table_id == table->table_id) {
          rename->new_name = new_name;
          folded = true;
        }
      }
    }
    if (!folded) state.ddl.push_back(RenameTableChange{table->table_id, new_name});
  }
  state.ReplaceTable(std::move(copy));
  return Status::OK();
}

Status DdlSetPartitioning(WriteState& state, const std::string& schema, const std::string& name,
                          const std::vector<PartitionKeyDefinition>& keys) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, name));
  std::vector<PartitionField> fields;
  for (const PartitionKeyDefinition& key : keys) {
    const ColumnInfo* column = nullptr;
    for (const ColumnInfo& candidate : table->columns) {
      if (NameEquals(candidate.name, key.column)) column = &candidate;
    }
    if (column == nullptr) {
      return Status::NotFound("Binder Error: column \"", key.column,
                              "\" does not exist in table \"", table->schema_name, ".",
                              table->name, "\" (a partition key)");
    }
    const TypeId type = column->type.id;
    // A nested value can be bucketed (by the hash of its text, as the extension does), not
    // used as a partition value itself.
    const bool nested = type == TypeId::kStruct || type == TypeId::kList || type == TypeId::kMap;
    if ((nested && key.transform != PartitionTransform::kBucket) || type == TypeId::kVariant ||
        type == TypeId::kGeometry) {
      return Status::InvalidArgument("Binder Error: cannot partition table \"", table->name,
                                     "\" by column \"", column->name, "\" of type ",
                                     column->type.ToString());
    }
    PartitionField field;
    field.partition_key_index = static_cast<int64_t>(fields.size());
    field.column_id = column->column_id;
    field.transform = key.transform;
    switch (key.transform) {
      case PartitionTransform::kIdentity: field.transform_text = "identity"; break;
      case PartitionTransform::kYear: field.transform_text = "year"; break;
      case PartitionTransform::kMonth: field.transform_text = "month"; break;
      case PartitionTransform::kDay: field.transform_text = "day"; break;
      case PartitionTransform::kHour: field.transform_text = "hour"; break;
      case PartitionTransform::kBucket:
        if (key.bucket_count < 1 || key.bucket_count > INT32_MAX) {
          return Status::InvalidArgument("Binder Error: bucket count ", key.bucket_count,
                                         " of partition key \"", column->name,
                                         "\" must be between 1 and 2147483647");
        }
        field.bucket_count = key.bucket_count;
        field.transform_text = "bucket(" + std::to_string(key.bucket_count) + ")";
        break;
    }
    const bool temporal = key.transform == PartitionTransform::kYear ||
                          key.transform == PartitionTransform::kMonth ||
                          key.transform == PartitionTransform::kDay ||
                          key.transform == PartitionTransform::kHour;
    const bool has_date = type == TypeId::kDate || type == TypeId::kTimestamp ||
                          type == TypeId::kTimestampS || type == TypeId::kTimestampMs ||
                          type == TypeId::kTimestampNs || type == TypeId::kTimestampTz;
    if (temporal && (!has_date || (key.transform == PartitionTransform::kHour &&
                                   type == TypeId::kDate))) {
      return Status::InvalidArgument("Binder Error: partition transform ", field.transform_text,
                                     "() needs a ",
                                     key.transform == PartitionTransform::kHour
                                         ? "TIMESTAMP"
                                         : "DATE or TIMESTAMP",
                                     " column, but \"", column->name, "\" is ",
                                     column->type.ToString());
    }
    Status parsed = catalog_internal::ParsePartitionTransform(field.transform_text, column->type,
                                                              &field);
    TARN_RETURN_NOT_OK(parsed);
    fields.push_back(std::move(field));
  }
  // Setting the same keys again, or resetting an unpartitioned table, changes nothing.
  const std::vector<PartitionField> none;
  const std::vector<PartitionField>& current =
      table->partitioning.has_value() ? table->partitioning->fields : none;
  bool same = current.size() == fields.size();
  for (size_t k = 0; same && k < fields.size(); ++k) {
    same = current[k].column_id == fields[k].column_id &&
           current[k].transform_text == fields[k].transform_text;
  }
  if (same) return Status::OK();
  auto copy = std::make_shared<TableInfo>(*table);
  SetPartitioningChange change;
  change.provisional_id = state.NewProvisionalId();
  change.table_id = table->table_id;
  change.fields = fields;
  if (fields.empty()) {
    copy->partitioning.reset();
  } else {
    PartitionSpec spec;
    spec.partition_id = change.provisional_id;
    spec.fields = std::move(fields);
    copy->partitioning = std::move(spec);
  }
  state.ddl.push_back(std::move(change));
  state.ReplaceTable(std::move(copy));
  return Status::OK();
}

Status DdlCreateView(WriteState& state, const std::string& schema_name, const std::string& name,
                     const std::string& sql, const std::vector<std::string>& column_aliases,
                     bool or_replace) {
  TARN_RETURN_NOT_OK(CheckName("view", name));
  TARN_RETURN_NOT_OK(NeedSchema(state, schema_name));
  if (state.FindTable(schema_name, name)) {
    return Status::AlreadyExists("Catalog Error: View with name \"", name, "\" already exists!");
  }
  if (state.FindView(schema_name, name)) {
    if (!or_replace) {
      return Status::AlreadyExists("Catalog Error: View with name \"", name,
                                   "\" already exists!");
    }
    TARN_RETURN_NOT_OK(DdlDropView(state, schema_name, name, false));
  }
  const SchemaInfo& schema = *state.FindSchema(schema_name);
  ViewInfo view;
  view.view_id = state.NewProvisionalId();
  view.schema_id = schema.schema_id;
  view.schema_name = schema.name;
  view.name = name;
  view.dialect = "duckdb";
  view.sql = sql;
  view.column_aliases = column_aliases;
  view.begin_snapshot = state.start_snapshot_id;
  state.views.push_back(view);
  state.ddl.push_back(
      CreateViewChange{view.view_id, schema.schema_id, name, sql, column_aliases});
  return Status::OK();
}

Status DdlDropView(WriteState& state, const std::string& schema, const std::string& name,
                   bool if_exists) {
  const ViewInfo* view = state.FindView(schema, name);
  if (view == nullptr) {
    if (if_exists) return Status::OK();
    return Status::NotFound("Catalog Error: View with name ", name, " does not exist!");
  }
  const int64_t id = view->view_id;
  std::erase_if(state.ddl, [&](const LakeChange& change) {
    if (auto* create = std::get_if<CreateViewChange>(&change)) return create->provisional_id == id;
    if (auto* rename = std::get_if<RenameViewChange>(&change)) return rename->view_id == id;
    if (auto* comment = std::get_if<SetCommentChange>(&change)) {
      return comment->target == SetCommentChange::Target::kView && comment->object_id == id;
    }
    return false;
  });
  if (id >= 0) state.ddl.push_back(DropViewChange{id});
  std::erase_if(state.views, [&](const ViewInfo& v) { return v.view_id == id; });
  return Status::OK();
}

Status DdlRenameView(WriteState& state, const std::string& schema, const std::string& name,
                     const std::string& new_name, bool if_exists) {
  TARN_RETURN_NOT_OK(CheckName("view", new_name));
  const ViewInfo* view = state.FindView(schema, name);
  if (view == nullptr) {
    if (state.FindTable(schema, name)) {
      return Status::InvalidArgument("Binder Error: Cannot use ALTER VIEW on entry ", name,
                                     " - it is not a view");
    }
    if (if_exists) return Status::OK();
    return Status::NotFound("Catalog Error: View with name ", name, " does not exist!");
  }
  if (!NameEquals(name, new_name) &&
      (state.FindTable(schema, new_name) || state.FindView(schema, new_name))) {
    return Status::AlreadyExists("Catalog Error: Could not rename view \"", name, "\" to \"",
                                 new_name, "\": another entry with this name already exists!");
  }
  const int64_t id = view->view_id;
  bool folded = false;
  for (LakeChange& change : state.ddl) {
    if (auto* create = std::get_if<CreateViewChange>(&change); create && create->provisional_id == id) {
      create->name = new_name;
      folded = true;
    } else if (auto* rename = std::get_if<RenameViewChange>(&change); rename && rename->view_id == id) {
      rename->new_name = new_name;
      folded = true;
    }
  }
  if (!folded) state.ddl.push_back(RenameViewChange{id, new_name});
  for (ViewInfo& v : state.views) {
    if (v.view_id == id) v.name = new_name;
  }
  return Status::OK();
}

Status DdlSetComment(WriteState& state, SetCommentChange::Target target,
                     const std::string& schema, const std::string& name,
                     const std::string& column, std::optional<std::string> comment) {
  SetCommentChange change;
  change.target = target;
  change.comment = comment;
  if (target == SetCommentChange::Target::kView) {
    const ViewInfo* view = state.FindView(schema, name);
    if (view == nullptr) {
      if (state.FindTable(schema, name)) {
        return Status::InvalidArgument("Binder Error: Cannot use ALTER VIEW on entry ", name,
                                       " - it is not a view");
      }
      return Status::NotFound("Catalog Error: View with name ", name, " does not exist!");
    }
    change.object_id = view->view_id;
    for (ViewInfo& v : state.views) {
      if (v.view_id == change.object_id) v.comment = comment;
    }
  } else {
    auto table = state.FindTable(schema, name);
    if (table == nullptr) {
      if (state.FindView(schema, name)) {
        return Status::InvalidArgument(
            "Binder Error: ",
            target == SetCommentChange::Target::kColumn
                ? StrCat("Cannot comment on columns for entry ", name, " - it is not a table")
                : StrCat("Cannot use ALTER TABLE on entry ", name, " - it is not a table"));
      }
      return state.RequireTable(schema, name).status();
    }
    change.object_id = table->table_id;
    auto copy = std::make_shared<TableInfo>(*table);
    if (target == SetCommentChange::Target::kColumn) {
      const ColumnInfo* found = nullptr;
      for (const ColumnInfo& c : table->columns) {
        if (NameEquals(c.name, column)) found = &c;
      }
      if (found == nullptr) {
        return Status::InvalidArgument("Binder Error: Table \"", name,
                                       "\" does not have a column with name \"", column, "\"");
      }
      change.column_id = found->column_id;
      if (comment.has_value()) {
        copy->column_comments[found->column_id] = *comment;
      } else {
        copy->column_comments.erase(found->column_id);
      }
    } else {
      copy->comment = comment;
    }
    state.ReplaceTable(std::move(copy));
  }
  // Only the latest comment of an object in a transaction is written, as the extension does.
  std::erase_if(state.ddl, [&](const LakeChange& other) {
    auto* previous = std::get_if<SetCommentChange>(&other);
    return previous != nullptr && previous->target == change.target &&
           previous->object_id == change.object_id && previous->column_id == change.column_id;
  });
  state.ddl.push_back(std::move(change));
  return Status::OK();
}

Status DdlCreateMacro(WriteState& state, const std::string& schema_name, const std::string& name,
                      std::vector<MacroImpl> impls, bool or_replace, bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckName("macro", name));
  TARN_RETURN_NOT_OK(NeedSchema(state, schema_name));
  if (impls.empty()) return Status::InvalidArgument("macro \"", name, "\" has no implementation");
  for (const MacroImpl& impl : impls) {
    if (impl.is_table != impls[0].is_table) {
      return Status::InvalidArgument("Parser Error: macro \"", name,
                                     "\" mixes scalar and table implementations");
    }
  }
  if (const MacroInfo* existing = state.FindMacro(schema_name, name, impls[0].is_table)) {
    if (if_not_exists) return Status::OK();
    if (!or_replace) {
      return Status::AlreadyExists("Catalog Error: Macro Function with name \"", name,
                                   "\" already exists!");
    }
    TARN_RETURN_NOT_OK(
        DdlDropMacro(state, schema_name, existing->name, existing->is_table(), false));
  }
  const SchemaInfo& schema = *state.FindSchema(schema_name);
  MacroInfo macro;
  macro.macro_id = state.NewProvisionalId();
  macro.schema_id = schema.schema_id;
  macro.schema_name = schema.name;
  macro.name = name;
  macro.begin_snapshot = state.start_snapshot_id;
  macro.impls = std::move(impls);
  state.ddl.push_back(CreateMacroChange{macro.macro_id, schema.schema_id, name, macro.impls});
  state.macros.push_back(std::move(macro));
  return Status::OK();
}

Status DdlDropMacro(WriteState& state, const std::string& schema, const std::string& name,
                    bool is_table, bool if_exists) {
  const MacroInfo* macro = state.FindMacro(schema, name, is_table);
  if (macro == nullptr) {
    if (if_exists) return Status::OK();
    return Status::NotFound("Catalog Error: ", is_table ? "Table Macro" : "Macro",
                            " Function with name ", name, " does not exist!");
  }
  const int64_t id = macro->macro_id;
  if (id < 0) {
    std::erase_if(state.ddl, [&](const LakeChange& change) {
      auto* create = std::get_if<CreateMacroChange>(&change);
      return create != nullptr && create->provisional_id == id;
    });
  } else {
    state.ddl.push_back(DropMacroChange{id, is_table});
  }
  std::erase_if(state.macros, [&](const MacroInfo& m) { return m.macro_id == id; });
  return Status::OK();
}

Status DdlSetOption(WriteState& state, const std::string& key, const std::string& value,
                    const std::optional<std::string>& scope_schema,
                    const std::optional<std::string>& scope_table) {
  TARN_RETURN_NOT_OK(CheckName("option", key));
  MetadataEntry entry;
  entry.key = key;
  entry.value = value;
  if ((key == "expire_older_than" || key == "delete_older_than") && !value.empty()) {
    // An interval ('1 week'); '' unsets the cutoff.
    Interval interval;
    if (!catalog_internal::ParseIntervalText(value, &interval)) {
      return Status::InvalidArgument("Invalid Input Error: ", key,
                                     " is not a valid interval value.");
    }
  }
  if (key == "sort_on_insert" || key == "auto_compact" || key == "hive_file_pattern" ||
      key == "require_commit_message" || key == "per_thread_output" ||
      key == "write_deletion_vectors") {
    // A boolean option: the value is cast as DuckDB casts text to BOOLEAN.
    std::string lower = value;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "true" || lower == "t" || lower == "1") {
      entry.value = "true";
    } else if (lower == "false" || lower == "f" || lower == "0") {
      entry.value = "false";
    } else {
      return Status::InvalidArgument("Conversion Error: Could not convert string '", value,
                                     "' to BOOL");
    }
  }
  if (key == "target_file_size" || key == "parquet_row_group_size_bytes") {
    // A byte count in DuckDB's spelling ('1KB', '5MB', '1GiB'), stored as the number of bytes
    // as the extension stores it; a plain number is bytes.
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
      TARN_ASSIGN_OR_RETURN(int64_t bytes, ParseByteSize(value));
      entry.value = std::to_string(bytes);
    }
    if (key == "parquet_row_group_size_bytes" && entry.value.find_first_not_of('0') == std::string::npos) {
      return Status::NotSupported("Not implemented Error: Row group size bytes cannot be 0");
    }
  }
  if (scope_table.has_value()) {
    const std::string schema = scope_schema.value_or("main");
    TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, *scope_table));
    entry.scope = MetadataEntry::Scope::kTable;
    entry.scope_id = table->table_id;
  } else if (scope_schema.has_value()) {
    const SchemaInfo* schema = state.FindSchema(*scope_schema);
    if (schema == nullptr) return Status::NotFound("schema \"", *scope_schema, "\" not found");
    entry.scope = MetadataEntry::Scope::kSchema;
    entry.scope_id = schema->schema_id;
  }
  if (entry.scope_id < 0) {
    return Status::NotSupported("setting option ", key, " on an object created in the same ",
                                "transaction; commit the object first");
  }
  const bool digits_only = !value.empty() && value.find_first_not_of("0123456789") ==
                                                  std::string::npos;
  if (key == "data_inlining_row_limit" && digits_only &&
      value.find_first_not_of('0') != std::string::npos) {
    // Turning inlining on: no table it reaches may have a reserved column name.
    std::optional<int64_t> schema_id, table_id;
    if (entry.scope == MetadataEntry::Scope::kTable) table_id = entry.scope_id;
    if (entry.scope == MetadataEntry::Scope::kSchema) schema_id = entry.scope_id;
    TARN_RETURN_NOT_OK(CheckCanEnableInlining(state, schema_id, table_id));
  }
  auto same = [&](const MetadataEntry& e) {
    return e.key == entry.key && e.scope == entry.scope && e.scope_id == entry.scope_id;
  };
  std::erase_if(state.pending_options, same);
  state.pending_options.push_back(entry);
  std::erase_if(state.ddl, [&](const LakeChange& change) {
    auto* set = std::get_if<SetOptionChange>(&change);
    return set != nullptr && same(set->entry);
  });
  state.ddl.push_back(SetOptionChange{entry});
  // Reject values the write path cannot use now rather than at the next insert.
  if (key.rfind("parquet_", 0) == 0 || key == "target_file_size" ||
      key == "data_inlining_row_limit") {
    for (const auto& table : state.tables) {
      auto settings = ResolveWriteSettings(state, *table);
      if (!settings.ok()) {
        std::erase_if(state.pending_options, same);
        std::erase_if(state.ddl, [&](const LakeChange& change) {
          auto* set = std::get_if<SetOptionChange>(&change);
          return set != nullptr && same(set->entry);
        });
        return settings.status();
      }
      break;
    }
  }
  return Status::OK();
}

}  // namespace tarn::table_internal
