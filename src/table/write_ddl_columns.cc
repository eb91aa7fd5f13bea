// Column DDL of a write transaction: add, drop, rename, type promotion, defaults, NOT NULL.
#include <algorithm>

#include "expr/eval/cast.h"
#include "table/reserved_columns.h"
#include "table/write_ddl.h"
#include "table/write_dml.h"
#include "table/write_match.h"

namespace tarn::table_internal {

namespace {

int FindColumnIndex(const TableInfo& table, const std::string& name) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (NameEquals(table.columns[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

Result<int> RequireColumn(const TableInfo& table, const std::string& name) {
  const int index = FindColumnIndex(table, name);
  if (index < 0) {
    // DuckDB's words.
    return Status::NotFound("Binder Error: Table \"", table.name,
                            "\" does not have a column with name \"", name, "\"");
  }
  return index;
}

// Records a new version of a column: folded into the table's creation, the column's ADD, or
// an earlier ALTER of it in this transaction.
void RecordColumnVersion(WriteState& state, const TableInfo& table, const ColumnInfo& column) {
  if (CreateTableChange* create = FindCreateTable(state, table.table_id)) {
    for (ColumnInfo& existing : create->columns) {
      if (existing.column_id == column.column_id) existing = column;
    }
    return;
  }
  for (LakeChange& change : state.ddl) {
    if (auto* add = std::get_if<AddColumnChange>(&change)) {
      if (add->table_id == table.table_id && add->column.column_id == column.column_id) {
        add->column = column;
        return;
      }
    }
    if (auto* alter = std::get_if<AlterColumnChange>(&change)) {
      if (alter->table_id == table.table_id && alter->column.column_id == column.column_id) {
        alter->column = column;
        return;
      }
    }
  }
  state.ddl.push_back(AlterColumnChange{table.table_id, column});
}

}  // namespace

Result<int64_t> MaxColumnId(WriteState& state, const TableInfo& table) {
  auto found = state.max_column_id.find(table.table_id);
  if (found != state.max_column_id.end()) return found->second;
  int64_t max_id = 0;
  std::vector<const ColumnInfo*> stack;
  for (const ColumnInfo& column : table.columns) stack.push_back(&column);
  while (!stack.empty()) {
    const ColumnInfo* column = stack.back();
    stack.pop_back();
    max_id = std::max(max_id, column->column_id);
    for (const ColumnInfo& child : column->children) stack.push_back(&child);
  }
  if (table.table_id >= 0 && state.lake->store() != nullptr) {
    // Dropped columns keep their ids: the catalog's maximum over every version counts.
    CatalogQuery query;
    query.sql = "SELECT MAX(column_id) FROM ducklake_column WHERE table_id = ?1";
    query.params.push_back(CatalogDatum::Integer(table.table_id));
    query.result_types = {CatalogType::kBigint};
    query.what = "ducklake_column";
    TARN_ASSIGN_OR_RETURN(auto result, state.lake->store()->Query(query));
    if (!result.rows.empty() && !result.rows[0].empty() && !result.rows[0][0].is_null()) {
      max_id = std::max(max_id, result.rows[0][0].integer());
    }
  }
  state.max_column_id[table.table_id] = max_id;
  return max_id;
}

namespace {

// Common start of a column change: the table, a mutable copy, and the column's index.
struct ColumnTarget {
  std::shared_ptr<const TableInfo> table;
  std::shared_ptr<TableInfo> copy;
  int index = -1;
};

Result<ColumnTarget> ResolveColumn(WriteState& state, const std::string& schema,
                                   const std::string& table, const std::string& column) {
  ColumnTarget target;
  TARN_ASSIGN_OR_RETURN(target.table, state.RequireTable(schema, table));
  TARN_ASSIGN_OR_RETURN(target.index, RequireColumn(*target.table, column));
  target.copy = std::make_shared<TableInfo>(*target.table);
  return target;
}

// Finishes a column change on target.copy->columns[target.index].
void CommitColumnChange(WriteState& state, ColumnTarget& target) {
  RecordColumnVersion(state, *target.copy, target.copy->columns[target.index]);
  RebuildSchema(target.copy.get());
  state.ReplaceTable(target.copy);
}

}  // namespace

Status DdlAddColumn(WriteState& state, const std::string& schema, const std::string& name,
                    const ColumnDefinition& def) {
  TARN_RETURN_NOT_OK(CheckName("column", def.name));
  TARN_RETURN_NOT_OK(CheckType(def.name, def.type));
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, name));
  TARN_RETURN_NOT_OK(CheckColumnNameAllowed(state, table->schema_id, table->table_id, def.name,
                                            "Catalog Error"));
  if (FindColumnIndex(*table, def.name) >= 0) {
    return Status::AlreadyExists("column \"", def.name, "\" already exists in table \"", name,
                                 "\"");
  }
  TARN_RETURN_NOT_OK(FlushPendingInlined(state, *table));
  TARN_ASSIGN_OR_RETURN(int64_t max_id, MaxColumnId(state, *table));
  int64_t next_id = max_id + 1;
  ColumnInfo column = BuildColumn(def.name, def.type, def.nulls_allowed, &next_id);
  state.max_column_id[table->table_id] = next_id - 1;
  if (!def.default_expression.empty()) return NonLiteralAddColumnDefault();
  if (def.default_value.has_value() && !def.default_value->is_null()) {
    TARN_ASSIGN_OR_RETURN(auto made, MakeDefault(def.name, column.type, *def.default_value));
    column.default_value = made.first;
    column.initial_default = made.first;
    column.initial_value = made.second;
  } else if (!def.nulls_allowed) {
    return Status::InvalidArgument("ADD COLUMN \"", def.name,
                                   "\" NOT NULL needs a non-NULL default");
  }
  auto copy = std::make_shared<TableInfo>(*table);
  copy->columns.push_back(column);
  RebuildSchema(copy.get());
  if (CreateTableChange* create = FindCreateTable(state, table->table_id)) {
    create->columns.push_back(column);
  } else {
    state.ddl.push_back(AddColumnChange{table->table_id, column});
  }
  state.ReplaceTable(std::move(copy));
  return Status::OK();
}

Status DdlDropColumn(WriteState& state, const std::string& schema, const std::string& name,
                     const std::string& column_name) {
  TARN_ASSIGN_OR_RETURN(ColumnTarget target, ResolveColumn(state, schema, name, column_name));
  if (target.table->columns.size() == 1) {
    return Status::InvalidArgument(
        "Catalog Error: Cannot drop column: table only has one column remaining!");
  }
  TARN_RETURN_NOT_OK(
      CheckDropSortedColumn(*target.table, target.table->columns[target.index].name));
  const int64_t column_id = target.table->columns[target.index].column_id;
  if (target.table->partitioning.has_value()) {
    for (const PartitionField& field : target.table->partitioning->fields) {
      if (field.column_id != column_id) continue;
      return Status::InvalidArgument(
          "Catalog Error: Cannot drop column \"", target.table->columns[target.index].name,
          "\" - the table is partitioned by this column. Reset or change the partitioning on "
          "this table in order to drop this column");
    }
  }
  TARN_RETURN_NOT_OK(FlushPendingInlined(state, *target.table));
  const int64_t table_id = target.table->table_id;
  if (CreateTableChange* create = FindCreateTable(state, table_id)) {
    std::erase_if(create->columns, [&](const ColumnInfo& c) { return c.column_id == column_id; });
  } else {
    const bool added_here = std::any_of(state.ddl.begin(), state.ddl.end(), [&](const auto& c) {
      auto* add = std::get_if<AddColumnChange>(&c);
      return add != nullptr && add->table_id == table_id && add->column.column_id == column_id;
    });
    // The changes to the column and to its fields go with it.
    std::vector<int64_t> ids;
    std::vector<const ColumnInfo*> stack = {&target.table->columns[target.index]};
    while (!stack.empty()) {
      const ColumnInfo* node = stack.back();
      stack.pop_back();
      ids.push_back(node->column_id);
      for (const ColumnInfo& child : node->children) stack.push_back(&child);
    }
    EraseColumnChanges(state, table_id, ids);
    if (!added_here) state.ddl.push_back(DropColumnChange{table_id, column_id});
  }
  target.copy->columns.erase(target.copy->columns.begin() + target.index);
  RebuildSchema(target.copy.get());
  state.ReplaceTable(target.copy);
  return Status::OK();
}

Status DdlRenameColumn(WriteState& state, const std::string& schema, const std::string& name,
                       const std::string& column, const std::string& new_name) {
  TARN_RETURN_NOT_OK(CheckName("column", new_name));
  TARN_ASSIGN_OR_RETURN(ColumnTarget target, ResolveColumn(state, schema, name, column));
  TARN_RETURN_NOT_OK(CheckColumnNameAllowed(state, target.table->schema_id,
                                            target.table->table_id, new_name, "Catalog Error"));
  const int other = FindColumnIndex(*target.table, new_name);
  if (other >= 0 && other != target.index) {
    return Status::AlreadyExists("column \"", new_name, "\" already exists in table \"", name,
                                 "\"");
  }
  const std::string old_name = target.copy->columns[target.index].name;
  target.copy->columns[target.index].name = new_name;
  CommitColumnChange(state, target);
  TARN_RETURN_NOT_OK(RenameSortKeyColumn(state, target.copy.get(), old_name, new_name));
  return Status::OK();
}

Status DdlAlterColumnType(WriteState& state, const std::string& schema, const std::string& name,
                          const std::string& column, const DataType& new_type) {
  TARN_ASSIGN_OR_RETURN(ColumnTarget target, ResolveColumn(state, schema, name, column));
  ColumnInfo& info = target.copy->columns[target.index];
  if (info.type == new_type) return Status::OK();
  if (!info.children.empty()) {
    // Field by field: the column's own row stays, its fields' rows change.
    TARN_RETURN_NOT_OK(FlushPendingInlined(state, *target.table));
    ColumnInfo evolved;
    TARN_RETURN_NOT_OK(EvolveNestedColumn(state, *target.table, info, new_type, &evolved));
    info = std::move(evolved);
    TARN_RETURN_NOT_OK(RecordFieldChanges(state, *target.copy, info));
    RebuildSchema(target.copy.get());
    state.ReplaceTable(target.copy);
    return Status::OK();
  }
  if (new_type.IsNested() || !IsAllowedPromotion(info.type, new_type)) {
    return PromotionError(info.name, info.type, new_type);
  }
  TARN_RETURN_NOT_OK(FlushPendingInlined(state, *target.table));
  info.type = new_type;
  info.type_name = new_type.ToDuckLakeName();
  if (info.initial_value.has_value() && !info.initial_value->is_null()) {
    TARN_ASSIGN_OR_RETURN(info.initial_value, expr::CastValue(*info.initial_value, new_type));
  } else {
    info.initial_value = Value::Null(new_type);
  }
  CommitColumnChange(state, target);
  return Status::OK();
}

Status DdlSetColumnDefault(WriteState& state, const std::string& schema, const std::string& name,
                           const std::string& column, std::optional<Value> default_value) {
  TARN_ASSIGN_OR_RETURN(ColumnTarget target, ResolveColumn(state, schema, name, column));
  ColumnInfo& info = target.copy->columns[target.index];
  if (default_value.has_value()) {
    TARN_ASSIGN_OR_RETURN(auto made, MakeDefault(info.name, info.type, *default_value));
    info.default_value = made.first;
  } else {
    info.default_value = ColumnDefault();
  }
  CommitColumnChange(state, target);
  return Status::OK();
}

Status DdlSetColumnDefaultExpression(WriteState& state, const std::string& schema,
                                     const std::string& name, const std::string& column,
                                     const std::string& expression) {
  TARN_ASSIGN_OR_RETURN(ColumnTarget target, ResolveColumn(state, schema, name, column));
  ColumnInfo& info = target.copy->columns[target.index];
  TARN_ASSIGN_OR_RETURN(info.default_value, MakeExpressionDefault(info.name, info.type, expression));
  CommitColumnChange(state, target);
  return Status::OK();
}

Status DdlSetColumnNotNull(WriteState& state, const std::string& schema, const std::string& name,
                           const std::string& column, bool not_null) {
  TARN_ASSIGN_OR_RETURN(ColumnTarget target, ResolveColumn(state, schema, name, column));
  ColumnInfo& info = target.copy->columns[target.index];
  if (info.nulls_allowed == !not_null) return Status::OK();
  if (not_null) {
    std::string quoted = "\"";
    for (char c : info.name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    TARN_ASSIGN_OR_RETURN(auto matched,
                          FindMatches(state, target.table, quoted + "\" IS NULL", false));
    if (matched.count > 0) {
      return Status::InvalidArgument("cannot set column \"", info.name, "\" NOT NULL: ",
                                     matched.count, " rows hold NULL");
    }
  }
  info.nulls_allowed = !not_null;
  CommitColumnChange(state, target);
  return Status::OK();
}

}  // namespace tarn::table_internal
