// Nested field DDL of a write transaction: ADD, DROP and RENAME of struct fields by path, and
// SET DATA TYPE of STRUCT, LIST and MAP columns field by field, as DuckLake evolves them.
//
// Every field is a ducklake_column row of its own (parent_column = the enclosing column), so a
// change ends or adds field rows and leaves the top-level column's row alone. The transaction
// keeps the evolved column tree at its view; what the commit gets is the difference of that
// tree from the start snapshot, recomputed after each change, so that repeated changes to one
// column inside a transaction leave one version of each field row.
#include <algorithm>
#include <set>

#include "catalog/column_tree.h"
#include "expr/eval/cast.h"
#include "table/write_ddl.h"
#include "table/write_dml.h"

namespace tarn::table_internal {

namespace {

std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& part : path) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

Status FieldNotFound(const std::vector<std::string>& path) {
  return Status::NotFound("Binder Error: Column \"", JoinPath(path), "\" does not exist");
}

int FindChild(const ColumnInfo& column, const std::string& name) {
  for (size_t i = 0; i < column.children.size(); ++i) {
    if (NameEquals(column.children[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

// The column at `path` in `columns` (top-level name, then child names: struct fields,
// "element", "key", "value"), or nullptr.
ColumnInfo* FindPath(std::vector<ColumnInfo>& columns, const std::vector<std::string>& path) {
  if (path.empty()) return nullptr;
  ColumnInfo* node = nullptr;
  for (ColumnInfo& column : columns) {
    if (NameEquals(column.name, path[0])) node = &column;
  }
  for (size_t depth = 1; node != nullptr && depth < path.size(); ++depth) {
    const int child = FindChild(*node, path[depth]);
    node = child < 0 ? nullptr : &node->children[child];
  }
  return node;
}

// Types of a nested column's children rebuilt bottom-up after a field changed.
void Recompose(ColumnInfo* column) {
  for (ColumnInfo& child : column->children) Recompose(&child);
  if (column->children.empty()) return;
  catalog_internal::ComposeNestedType(column);
  if (!column->initial_value.has_value() || column->initial_value->is_null()) {
    column->initial_value = Value::Null(column->type);
  }
}

void SetParents(ColumnInfo* column, std::optional<int64_t> parent) {
  column->parent_column = parent;
  for (ColumnInfo& child : column->children) SetParents(&child, column->column_id);
}

void CollectIds(const ColumnInfo& column, std::vector<int64_t>* ids) {
  ids->push_back(column.column_id);
  for (const ColumnInfo& child : column.children) CollectIds(child, ids);
}

bool SameDefault(const ColumnDefault& a, const ColumnDefault& b) {
  return a.kind == b.kind && a.text == b.text;
}

// Whether the catalog row of a column differs between two versions (its children aside).
bool RowChanged(const ColumnInfo& before, const ColumnInfo& after) {
  return before.name != after.name || before.type_name != after.type_name ||
         before.nulls_allowed != after.nulls_allowed ||
         !SameDefault(before.initial_default, after.initial_default) ||
         !SameDefault(before.default_value, after.default_value);
}

// The changes that take the field rows of `before` to those of `after` (same column id).
void DiffFields(int64_t table_id, const ColumnInfo& before, const ColumnInfo& after,
                std::vector<LakeChange>* out) {
  for (const ColumnInfo& child : after.children) {
    const ColumnInfo* old_child = nullptr;
    for (const ColumnInfo& candidate : before.children) {
      if (candidate.column_id == child.column_id) old_child = &candidate;
    }
    if (old_child == nullptr) {
      ColumnInfo added = child;
      SetParents(&added, after.column_id);
      out->push_back(AddColumnChange{table_id, std::move(added)});
      continue;
    }
    if (RowChanged(*old_child, child)) out->push_back(AlterColumnChange{table_id, child});
    DiffFields(table_id, *old_child, child, out);
  }
  for (const ColumnInfo& old_child : before.children) {
    const bool kept = std::any_of(after.children.begin(), after.children.end(),
                                  [&](const ColumnInfo& c) {
                                    return c.column_id == old_child.column_id;
                                  });
    if (!kept) out->push_back(DropColumnChange{table_id, old_child.column_id});
  }
}

// The names and types a nested type gives its children: struct fields, a list's element, a
// map's key and value.
std::vector<std::pair<std::string, DataType>> NestedChildren(const DataType& type) {
  std::vector<std::pair<std::string, DataType>> out;
  switch (type.id) {
    case TypeId::kStruct:
      for (const Field& field : type.children) out.emplace_back(field.name, field.type);
      break;
    case TypeId::kList:
      out.emplace_back("element", type.children[0].type);
      break;
    case TypeId::kMap:
      out.emplace_back("key", type.children[0].type.children[0].type);
      out.emplace_back("value", type.children[0].type.children[1].type);
      break;
    default:
      break;
  }
  return out;
}

Status Evolve(const ColumnInfo& source, const DataType& target, int64_t* next_id,
              ColumnInfo* out) {
  if (source.children.empty()) {
    *out = source;
    if (source.type == target) return Status::OK();
    if (target.IsNested() || !IsAllowedPromotion(source.type, target)) {
      return PromotionError(source.name, source.type, target);
    }
    // Same column id, new type: old files hold the old type and are cast on read.
    out->type = target;
    out->type_name = target.ToDuckLakeName();
    if (source.initial_value.has_value() && !source.initial_value->is_null()) {
      TARN_ASSIGN_OR_RETURN(out->initial_value, expr::CastValue(*source.initial_value, target));
    } else {
      out->initial_value = Value::Null(target);
    }
    return Status::OK();
  }
  if (source.type.id != target.id) {
    return Status::NotSupported("Not implemented Error: Type evolution is not supported from "
                                "type ",
                                source.type.ToString(), " to type ", target.ToString());
  }
  const auto wanted = NestedChildren(target);
  std::vector<bool> matched(wanted.size(), false);
  *out = source;
  out->children.clear();
  // Kept fields stay in their catalog order (column_order = column_id); new ones follow.
  for (const ColumnInfo& child : source.children) {
    for (size_t i = 0; i < wanted.size(); ++i) {
      if (matched[i] || !NameEquals(child.name, wanted[i].first)) continue;
      matched[i] = true;
      ColumnInfo evolved;
      TARN_RETURN_NOT_OK(Evolve(child, wanted[i].second, next_id, &evolved));
      out->children.push_back(std::move(evolved));
      break;
    }
  }
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (matched[i]) continue;
    ColumnInfo added = BuildColumn(wanted[i].first, wanted[i].second, true, next_id);
    SetParents(&added, source.column_id);
    out->children.push_back(std::move(added));
  }
  if (out->children.empty()) {
    return Status::InvalidArgument("Catalog Error: column \"", source.name,
                                   "\" must keep at least one field");
  }
  Recompose(out);
  return Status::OK();
}

// The common start of a field change: a mutable copy of the table and its top-level column.
struct FieldTarget {
  std::shared_ptr<const TableInfo> table;
  std::shared_ptr<TableInfo> copy;
  ColumnInfo* top = nullptr;
};

Result<FieldTarget> ResolveTop(WriteState& state, const std::string& schema,
                               const std::string& table, const std::vector<std::string>& path) {
  FieldTarget target;
  TARN_ASSIGN_OR_RETURN(target.table, state.RequireTable(schema, table));
  target.copy = std::make_shared<TableInfo>(*target.table);
  target.top = FindPath(target.copy->columns, {path.empty() ? std::string() : path[0]});
  return target;
}

Status FinishFieldChange(WriteState& state, FieldTarget& target) {
  Recompose(target.top);
  TARN_RETURN_NOT_OK(RecordFieldChanges(state, *target.copy, *target.top));
  RebuildSchema(target.copy.get());
  state.ReplaceTable(target.copy);
  return Status::OK();
}

}  // namespace

void EraseColumnChanges(WriteState& state, int64_t table_id,
                        const std::vector<int64_t>& column_ids) {
  const std::set<int64_t> ids(column_ids.begin(), column_ids.end());
  std::erase_if(state.ddl, [&](const LakeChange& change) {
    if (auto* add = std::get_if<AddColumnChange>(&change)) {
      return add->table_id == table_id && ids.count(add->column.column_id) > 0;
    }
    if (auto* drop = std::get_if<DropColumnChange>(&change)) {
      return drop->table_id == table_id && ids.count(drop->column_id) > 0;
    }
    if (auto* alter = std::get_if<AlterColumnChange>(&change)) {
      return alter->table_id == table_id && ids.count(alter->column.column_id) > 0;
    }
    return false;
  });
}

Status RecordFieldChanges(WriteState& state, const TableInfo& table, const ColumnInfo& column) {
  if (CreateTableChange* create = FindCreateTable(state, table.table_id)) {
    for (ColumnInfo& existing : create->columns) {
      if (existing.column_id == column.column_id) existing = column;
    }
    return Status::OK();
  }
  for (LakeChange& change : state.ddl) {
    auto* add = std::get_if<AddColumnChange>(&change);
    if (add != nullptr && add->table_id == table.table_id &&
        add->column.column_id == column.column_id) {
      add->column = column;
      return Status::OK();
    }
  }
  const std::shared_ptr<const TableInfo> committed = state.start->FindTableById(table.table_id);
  const ColumnInfo* before =
      committed == nullptr ? nullptr
                           : catalog_internal::FindInTree(committed->columns, column.column_id);
  if (before == nullptr) {
    return Status::Internal("column ", column.column_id, " of table ", table.name,
                            " is neither new nor in the start snapshot");
  }
  // Every field the column had at the start, has now, or had at the view before this change
  // (fields added here and then dropped are in none of the others).
  std::vector<int64_t> ids;
  CollectIds(*before, &ids);
  CollectIds(column, &ids);
  if (auto view = state.FindTableById(table.table_id)) {
    if (const ColumnInfo* current = catalog_internal::FindInTree(view->columns, column.column_id)) {
      CollectIds(*current, &ids);
    }
  }
  EraseColumnChanges(state, table.table_id, ids);
  if (RowChanged(*before, column)) state.ddl.push_back(AlterColumnChange{table.table_id, column});
  std::vector<LakeChange> changes;
  DiffFields(table.table_id, *before, column, &changes);
  for (LakeChange& change : changes) state.ddl.push_back(std::move(change));
  return Status::OK();
}

Status EvolveNestedColumn(WriteState& state, const TableInfo& table, const ColumnInfo& column,
                          const DataType& new_type, ColumnInfo* target) {
  TARN_RETURN_NOT_OK(CheckType(column.name, new_type));
  TARN_ASSIGN_OR_RETURN(int64_t max_id, MaxColumnId(state, table));
  int64_t next_id = max_id + 1;
  TARN_RETURN_NOT_OK(Evolve(column, new_type, &next_id, target));
  state.max_column_id[table.table_id] = next_id - 1;
  return Status::OK();
}

Status DdlAddField(WriteState& state, const std::string& schema, const std::string& table,
                   const std::vector<std::string>& parent_path, const ColumnDefinition& def,
                   bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckName("column", def.name));
  TARN_RETURN_NOT_OK(CheckType(def.name, def.type));
  TARN_ASSIGN_OR_RETURN(FieldTarget target, ResolveTop(state, schema, table, parent_path));
  ColumnInfo* parent = FindPath(target.copy->columns, parent_path);
  if (parent == nullptr) return FieldNotFound(parent_path);
  if (parent->type.id != TypeId::kStruct) {
    return Status::InvalidArgument("Catalog Error: Fields can only be added to structs - ",
                                   parent->name, " is a ", parent->type.ToString());
  }
  if (FindChild(*parent, def.name) >= 0) {
    if (if_not_exists) return Status::OK();
    return Status::AlreadyExists("Catalog Error: Failed to add field - field \"", def.name,
                                 "\" already exists in column \"", parent_path.back(), "\"");
  }
  TARN_RETURN_NOT_OK(FlushPendingInlined(state, *target.table));
  TARN_ASSIGN_OR_RETURN(int64_t max_id, MaxColumnId(state, *target.table));
  int64_t next_id = max_id + 1;
  ColumnInfo field = BuildColumn(def.name, def.type, def.nulls_allowed, &next_id);
  state.max_column_id[target.table->table_id] = next_id - 1;
  if (!def.default_expression.empty()) return NonLiteralAddColumnDefault();
  if (def.default_value.has_value() && !def.default_value->is_null()) {
    TARN_ASSIGN_OR_RETURN(auto made, MakeDefault(def.name, field.type, *def.default_value));
    field.default_value = made.first;
    field.initial_default = made.first;
    field.initial_value = made.second;
  } else if (!def.nulls_allowed) {
    return Status::InvalidArgument("ADD COLUMN \"", JoinPath(parent_path), ".", def.name,
                                   "\" NOT NULL needs a non-NULL default");
  }
  SetParents(&field, parent->column_id);
  parent->children.push_back(std::move(field));
  return FinishFieldChange(state, target);
}

Status DdlDropField(WriteState& state, const std::string& schema, const std::string& table,
                    const std::vector<std::string>& path, bool if_exists) {
  TARN_ASSIGN_OR_RETURN(FieldTarget target, ResolveTop(state, schema, table, path));
  const std::vector<std::string> parent_path(path.begin(), path.end() - 1);
  ColumnInfo* parent = FindPath(target.copy->columns, parent_path);
  const int index = parent == nullptr ? -1 : FindChild(*parent, path.back());
  if (index < 0) {
    if (if_exists) return Status::OK();
    return FieldNotFound(path);
  }
  if (parent->type.id != TypeId::kStruct) {
    return Status::InvalidArgument("Catalog Error: Cannot drop field '", path.back(),
                                   "' from column '", parent->name, "' - it's not a struct");
  }
  if (parent->children.size() == 1) {
    return Status::InvalidArgument("Catalog Error: Cannot drop field '", path.back(),
                                   "' from column '", parent->name,
                                   "' - it is the only field of the struct");
  }
  TARN_RETURN_NOT_OK(FlushPendingInlined(state, *target.table));
  parent->children.erase(parent->children.begin() + index);
  return FinishFieldChange(state, target);
}

Status DdlRenameField(WriteState& state, const std::string& schema, const std::string& table,
                      const std::vector<std::string>& path, const std::string& new_name) {
  TARN_RETURN_NOT_OK(CheckName("column", new_name));
  TARN_ASSIGN_OR_RETURN(FieldTarget target, ResolveTop(state, schema, table, path));
  const std::vector<std::string> parent_path(path.begin(), path.end() - 1);
  ColumnInfo* parent = FindPath(target.copy->columns, parent_path);
  const int index = parent == nullptr ? -1 : FindChild(*parent, path.back());
  if (index < 0) return FieldNotFound(path);
  if (parent->type.id != TypeId::kStruct) {
    return Status::NotSupported(
        "Not implemented Error: Only rename on top-level struct fields is supported currently");
  }
  const int other = FindChild(*parent, new_name);
  if (other >= 0 && other != index) {
    return Status::AlreadyExists("Catalog Error: Failed to rename field \"", path.back(),
                                 "\" to \"", new_name,
                                 "\" - field with this name already exists in column \"",
                                 JoinPath(parent_path), "\"");
  }
  TARN_RETURN_NOT_OK(FlushPendingInlined(state, *target.table));
  parent->children[index].name = new_name;
  return FinishFieldChange(state, target);
}

}  // namespace tarn::table_internal
