// The rows of schema objects: schemas, tables and their columns, views, options, and the
// inlined-data tables and schema_versions rows that schema changes bring (reference §3.5).
#include <algorithm>
#include <cctype>

#include "catalog/commit_internal.h"
#include "catalog/row_reader.h"
#include "catalog/value_text.h"

namespace tarn::catalog_internal {

Result<int64_t> CommitAttempt::Resolve(int64_t id, std::string_view what) const {
  if (id >= 0) return id;
  auto it = id_mapping.find(id);
  if (it == id_mapping.end()) {
    return Status::InvalidArgument("change set refers to provisional ", what, " id ", id,
                                   " before the change that creates it");
  }
  return it->second;
}

Result<TableState*> CommitAttempt::Table(int64_t real_table_id) {
  auto it = tables.find(real_table_id);
  if (it != tables.end()) return &it->second;
  std::shared_ptr<const TableInfo> info = catalog->FindTableById(real_table_id);
  if (info == nullptr) {
    return Status::NotFound("table_id ", real_table_id, " does not exist at snapshot ",
                            latest.snapshot_id, " (the latest)");
  }
  TableState state;
  state.table_id = real_table_id;
  state.schema_id = info->schema_id;
  state.schema_name = info->schema_name;
  state.name = info->name;
  state.columns = info->columns;
  if (info->sorting.has_value()) state.sort_fields = info->sorting->fields;
  return &tables.emplace(real_table_id, std::move(state)).first->second;
}

Result<SchemaState*> CommitAttempt::Schema(int64_t real_schema_id) {
  auto it = schemas.find(real_schema_id);
  if (it != schemas.end()) return &it->second;
  for (const SchemaInfo& info : catalog->schemas()) {
    if (info.schema_id != real_schema_id) continue;
    SchemaState state{info.schema_id, info.name};
    return &schemas.emplace(real_schema_id, std::move(state)).first->second;
  }
  return Status::NotFound("schema_id ", real_schema_id, " does not exist at snapshot ",
                          latest.snapshot_id, " (the latest)");
}

namespace {

using T = CatalogType;

std::string ColumnTypeName(const ColumnInfo& column) {
  return column.type_name.empty() ? column.type.ToDuckLakeName() : column.type_name;
}

bool IsNestedColumn(const ColumnInfo& column) {
  if (column.type.IsNested()) return true;
  const std::string name = ColumnTypeName(column);
  return name == "struct" || name == "list" || name == "map";
}

// One ducklake_column row per column of the tree, parents before their children.
Status WriteColumnRows(CommitAttempt* a, int64_t table_id, const ColumnInfo& column,
                       std::optional<int64_t> parent) {
  CatalogDatum initial = column.initial_default.kind == ColumnDefault::Kind::kNone
                             ? CatalogDatum::Null()
                             : CatalogDatum::Text(column.initial_default.text);
  CatalogDatum value = column.default_value.kind == ColumnDefault::Kind::kNone
                           ? CatalogDatum::Text("NULL")
                           : CatalogDatum::Text(column.default_value.text);
  // The extension writes an empty type for struct/list/map parents.
  CatalogDatum value_type =
      IsNestedColumn(column)
          ? CatalogDatum::Text("")
          : CatalogDatum::Text(column.default_value.kind == ColumnDefault::Kind::kExpression
                                   ? "expression"
                                   : "literal");
  CatalogDatum dialect = CatalogDatum::Text(
      column.default_value.dialect.empty() ? std::string("duckdb") : column.default_value.dialect);
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_column (column_id, begin_snapshot, end_snapshot, table_id, "
      "column_order, column_name, column_type, initial_default, default_value, nulls_allowed, "
      "parent_column, default_value_type, default_value_dialect) VALUES "
      "(?1, ?2, NULL, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
      {CatalogDatum::Integer(column.column_id), CatalogDatum::Integer(a->snapshot_id),
       CatalogDatum::Integer(table_id),
       CatalogDatum::Integer(column.column_order != 0 ? column.column_order : column.column_id),
       CatalogDatum::Text(column.name), CatalogDatum::Text(ColumnTypeName(column)), initial, value,
       CatalogDatum::Boolean(column.nulls_allowed), OptInteger(parent), value_type, dialect}));
  for (const ColumnInfo& child : column.children) {
    TARN_RETURN_NOT_OK(WriteColumnRows(a, table_id, child, column.column_id));
  }
  return Status::OK();
}

// Finds a column anywhere in a tree: the vector holding it and its index.
bool FindColumnSlot(std::vector<ColumnInfo>* columns, int64_t column_id,
                    std::vector<ColumnInfo>** holder, size_t* index) {
  for (size_t i = 0; i < columns->size(); ++i) {
    if ((*columns)[i].column_id == column_id) {
      *holder = columns;
      *index = i;
      return true;
    }
    if (FindColumnSlot(&(*columns)[i].children, column_id, holder, index)) return true;
  }
  return false;
}

void CollectIds(const ColumnInfo& column, std::vector<int64_t>* ids) {
  ids->push_back(column.column_id);
  for (const ColumnInfo& child : column.children) CollectIds(child, ids);
}

Status EndRows(CommitAttempt* a, std::string_view table, std::string_view key, int64_t id,
               int64_t* changed = nullptr) {
  TARN_ASSIGN_OR_RETURN(
      int64_t n, Exec(a->store,
                      StrCat("UPDATE ", table, " SET end_snapshot = ?1 WHERE ", key,
                             " = ?2 AND end_snapshot IS NULL"),
                      {CatalogDatum::Integer(a->snapshot_id), CatalogDatum::Integer(id)}));
  if (changed != nullptr) *changed = n;
  return Status::OK();
}

Status CreateSchema(CommitAttempt* a, const CreateSchemaChange& c) {
  const int64_t id = a->next_catalog_id++;
  a->id_mapping[c.provisional_id] = id;
  const std::string uuid = NewUuidV7();
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "INSERT INTO ducklake_schema (schema_id, schema_uuid, begin_snapshot, "
                          "end_snapshot, schema_name, path, path_is_relative) VALUES "
                          "(?1, ?2, ?3, NULL, ?4, ?5, TRUE)",
                          {CatalogDatum::Integer(id), CatalogDatum::Text(uuid),
                           CatalogDatum::Integer(a->snapshot_id), CatalogDatum::Text(c.name),
                           CatalogDatum::Text(ObjectPath(c.name, uuid))}));
  a->schemas[id] = SchemaState{id, c.name};
  a->tokens.created_schemas.push_back(c.name);
  a->schema_changed = true;
  return Status::OK();
}

Status DropSchema(CommitAttempt* a, const DropSchemaChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.schema_id, "schema"));
  int64_t changed = 0;
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_schema", "schema_id", id, &changed));
  if (changed == 0) {
    return Status::NotFound("drop schema: schema_id ", id, " is not visible at snapshot ",
                            a->latest.snapshot_id);
  }
  if (c.schema_id >= 0) a->tokens.dropped_schemas.insert(id);
  a->schema_changed = true;
  return Status::OK();
}

Status CreateTable(CommitAttempt* a, const CreateTableChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t schema_id, a->Resolve(c.schema_id, "schema"));
  TARN_ASSIGN_OR_RETURN(SchemaState * schema, a->Schema(schema_id));
  const int64_t id = a->next_catalog_id++;
  a->id_mapping[c.provisional_id] = id;
  const std::string uuid = NewUuidV7();
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_table (table_id, table_uuid, begin_snapshot, end_snapshot, "
      "schema_id, table_name, path, path_is_relative) VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, TRUE)",
      {CatalogDatum::Integer(id), CatalogDatum::Text(uuid), CatalogDatum::Integer(a->snapshot_id),
       CatalogDatum::Integer(schema_id), CatalogDatum::Text(c.name),
       CatalogDatum::Text(ObjectPath(c.path_name.empty() ? c.name : c.path_name, uuid))}));
  for (const ColumnInfo& column : c.columns) {
    TARN_RETURN_NOT_OK(WriteColumnRows(a, id, column, std::nullopt));
  }
  TableState state;
  state.table_id = id;
  state.schema_id = schema_id;
  state.schema_name = schema->name;
  state.name = c.name;
  state.columns = c.columns;
  state.created_here = true;
  state.schema_version_row = true;
  a->tables[id] = std::move(state);
  a->tokens.created_tables.push_back({schema->name, c.name, false});
  a->schema_changed = true;
  return Status::OK();
}

Status DropTable(CommitAttempt* a, const DropTableChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(id));
  int64_t changed = 0;
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_table", "table_id", id, &changed));
  if (changed == 0) {
    return Status::NotFound("drop table: table_id ", id, " is not visible at snapshot ",
                            a->latest.snapshot_id);
  }
  for (std::string_view t : {"ducklake_partition_info", "ducklake_column", "ducklake_column_tag",
                             "ducklake_data_file", "ducklake_delete_file", "ducklake_sort_info"}) {
    TARN_RETURN_NOT_OK(EndRows(a, t, "table_id", id));
  }
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_tag", "object_id", id));
  table->dropped_here = true;
  if (!table->created_here) a->tokens.dropped_tables.insert(id);
  a->schema_changed = true;
  return Status::OK();
}

Status RenameTable(CommitAttempt* a, const RenameTableChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(id));
  TARN_ASSIGN_OR_RETURN(
      CatalogResult current,
      RunQuery(a->store,
               "SELECT table_uuid, schema_id, path, path_is_relative FROM ducklake_table "
               "WHERE table_id = ?1 AND end_snapshot IS NULL",
               {CatalogDatum::Integer(id)}, {T::kVarchar, T::kBigint, T::kVarchar, T::kBoolean},
               "ducklake_table"));
  if (current.rows.size() != 1) {
    return Status::NotFound("rename table: table_id ", id, " has ", current.rows.size(),
                            " current rows at snapshot ", a->latest.snapshot_id);
  }
  const auto& row = current.rows[0];
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_table", "table_id", id));
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_table (table_id, table_uuid, begin_snapshot, end_snapshot, "
      "schema_id, table_name, path, path_is_relative) VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7)",
      {CatalogDatum::Integer(id), row[0], CatalogDatum::Integer(a->snapshot_id), row[1],
       CatalogDatum::Text(c.new_name), row[2], row[3]}));
  table->name = c.new_name;
  table->schema_version_row = true;
  a->tokens.created_tables.push_back({table->schema_name, c.new_name, false});
  a->schema_changed = true;
  return Status::OK();
}

Status AlterColumns(CommitAttempt* a, int64_t table_ref, const LakeChange& change) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(table_ref, "table"));
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(id));
  if (const auto* add = std::get_if<AddColumnChange>(&change)) {
    const ColumnInfo& column = add->column;
    TARN_RETURN_NOT_OK(WriteColumnRows(a, id, column, column.parent_column));
    if (column.parent_column.has_value()) {
      std::vector<ColumnInfo>* holder = nullptr;
      size_t index = 0;
      if (!FindColumnSlot(&table->columns, *column.parent_column, &holder, &index)) {
        return Status::NotFound("add column: parent column ", *column.parent_column,
                                " is not in table_id ", id);
      }
      (*holder)[index].children.push_back(column);
    } else {
      table->columns.push_back(column);
    }
  } else if (const auto* drop = std::get_if<DropColumnChange>(&change)) {
    std::vector<ColumnInfo>* holder = nullptr;
    size_t index = 0;
    if (!FindColumnSlot(&table->columns, drop->column_id, &holder, &index)) {
      return Status::NotFound("drop column: column_id ", drop->column_id, " is not in table ",
                              table->schema_name, ".", table->name);
    }
    std::vector<int64_t> ids;
    CollectIds((*holder)[index], &ids);
    for (int64_t column_id : ids) {
      TARN_RETURN_NOT_OK(Exec(a->store,
                              "UPDATE ducklake_column SET end_snapshot = ?1 WHERE table_id = ?2 "
                              "AND column_id = ?3 AND end_snapshot IS NULL",
                              {CatalogDatum::Integer(a->snapshot_id), CatalogDatum::Integer(id),
                               CatalogDatum::Integer(column_id)}));
    }
    holder->erase(holder->begin() + static_cast<std::ptrdiff_t>(index));
  } else if (const auto* alter = std::get_if<AlterColumnChange>(&change)) {
    std::vector<ColumnInfo>* holder = nullptr;
    size_t index = 0;
    if (!FindColumnSlot(&table->columns, alter->column.column_id, &holder, &index)) {
      return Status::NotFound("alter column: column_id ", alter->column.column_id,
                              " is not in table ", table->schema_name, ".", table->name);
    }
    std::optional<int64_t> parent = (*holder)[index].parent_column;
    TARN_ASSIGN_OR_RETURN(int64_t changed,
                          Exec(a->store,
                               "UPDATE ducklake_column SET end_snapshot = ?1 WHERE table_id = ?2 "
                               "AND column_id = ?3 AND end_snapshot IS NULL",
                               {CatalogDatum::Integer(a->snapshot_id), CatalogDatum::Integer(id),
                                CatalogDatum::Integer(alter->column.column_id)}));
    if (changed == 0) {
      return Status::NotFound("alter column: column_id ", alter->column.column_id,
                              " has no current row");
    }
    // Only this column's row gets a new version; children keep theirs.
    ColumnInfo row_only = alter->column;
    row_only.children.clear();
    TARN_RETURN_NOT_OK(WriteColumnRows(a, id, row_only, parent));
    // Field rows change through their own AddColumn/DropColumn/AlterColumn changes, applied
    // to this model in order: the children the model has so far stay.
    std::vector<ColumnInfo> children = std::move((*holder)[index].children);
    (*holder)[index] = alter->column;
    (*holder)[index].children = std::move(children);
  }
  table->schema_version_row = true;
  if (!table->created_here) a->tokens.altered_tables.insert(id);
  a->schema_changed = true;
  return Status::OK();
}

Status SetPartitioning(CommitAttempt* a, const SetPartitioningChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(id));
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_partition_info", "table_id", id));
  const int64_t partition_id = a->next_catalog_id++;
  a->id_mapping[c.provisional_id] = partition_id;
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "INSERT INTO ducklake_partition_info (partition_id, table_id, "
                          "begin_snapshot, end_snapshot) VALUES (?1, ?2, ?3, NULL)",
                          {CatalogDatum::Integer(partition_id), CatalogDatum::Integer(id),
                           CatalogDatum::Integer(a->snapshot_id)}));
  for (size_t key = 0; key < c.fields.size(); ++key) {
    const PartitionField& field = c.fields[key];
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "INSERT INTO ducklake_partition_column (partition_id, table_id, "
                            "partition_key_index, column_id, transform) VALUES "
                            "(?1, ?2, ?3, ?4, ?5)",
                            {CatalogDatum::Integer(partition_id), CatalogDatum::Integer(id),
                             CatalogDatum::Integer(static_cast<int64_t>(key)),
                             CatalogDatum::Integer(field.column_id),
                             CatalogDatum::Text(field.transform_text)}));
  }
  table->schema_version_row = true;
  a->tokens.altered_tables.insert(id);  // a table created here too (the extension's rule)
  a->schema_changed = true;
  return Status::OK();
}

bool SameSortFields(const std::vector<SortField>& a, const std::vector<SortField>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].expression != b[k].expression || a[k].dialect != b[k].dialect ||
        a[k].descending != b[k].descending || a[k].nulls_first != b[k].nulls_first) {
      return false;
    }
  }
  return true;
}

Status SetSortKey(CommitAttempt* a, const SetSortKeyChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(id));
  a->tokens.altered_tables.insert(id);  // a table created here too (the extension's rule)
  a->schema_changed = true;
  // As the extension does: an unchanged key (or a RESET of none) writes no rows.
  if (SameSortFields(table->sort_fields, c.fields)) return Status::OK();
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_sort_info", "table_id", id));
  table->sort_fields = c.fields;
  if (c.fields.empty()) return Status::OK();
  const int64_t sort_id = a->next_catalog_id++;
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "INSERT INTO ducklake_sort_info (sort_id, table_id, begin_snapshot, "
                          "end_snapshot) VALUES (?1, ?2, ?3, NULL)",
                          {CatalogDatum::Integer(sort_id), CatalogDatum::Integer(id),
                           CatalogDatum::Integer(a->snapshot_id)}));
  for (size_t k = 0; k < c.fields.size(); ++k) {
    const SortField& field = c.fields[k];
    TARN_RETURN_NOT_OK(Exec(
        a->store,
        "INSERT INTO ducklake_sort_expression (sort_id, table_id, sort_key_index, expression, "
        "dialect, sort_direction, null_order) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        {CatalogDatum::Integer(sort_id), CatalogDatum::Integer(id),
         CatalogDatum::Integer(static_cast<int64_t>(k)), CatalogDatum::Text(field.expression),
         CatalogDatum::Text(field.dialect.empty() ? std::string("duckdb") : field.dialect),
         CatalogDatum::Text(field.descending ? "DESC" : "ASC"),
         CatalogDatum::Text(field.nulls_first ? "NULLS_FIRST" : "NULLS_LAST")}));
  }
  return Status::OK();
}

std::string FormatAliases(const std::vector<std::string>& aliases) {
  std::string text;
  for (const std::string& alias : aliases) {
    if (!text.empty()) text.push_back(',');
    text += QuoteName(alias);
  }
  return text;
}

Status CreateView(CommitAttempt* a, const CreateViewChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t schema_id, a->Resolve(c.schema_id, "schema"));
  TARN_ASSIGN_OR_RETURN(SchemaState * schema, a->Schema(schema_id));
  const int64_t id = a->next_catalog_id++;
  a->id_mapping[c.provisional_id] = id;
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_view (view_id, view_uuid, begin_snapshot, end_snapshot, schema_id, "
      "view_name, dialect, sql, column_aliases) VALUES (?1, ?2, ?3, NULL, ?4, ?5, 'duckdb', ?6, ?7)",
      {CatalogDatum::Integer(id), CatalogDatum::Text(NewUuidV7()),
       CatalogDatum::Integer(a->snapshot_id), CatalogDatum::Integer(schema_id),
       CatalogDatum::Text(c.name), CatalogDatum::Text(c.sql),
       CatalogDatum::Text(FormatAliases(c.column_aliases))}));
  a->tokens.created_tables.push_back({schema->name, c.name, true});
  a->schema_changed = true;
  return Status::OK();
}

Status DropView(CommitAttempt* a, const DropViewChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.view_id, "view"));
  int64_t changed = 0;
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_view", "view_id", id, &changed));
  if (changed == 0) {
    return Status::NotFound("drop view: view_id ", id, " is not visible at snapshot ",
                            a->latest.snapshot_id);
  }
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_tag", "object_id", id));
  if (c.view_id >= 0) a->tokens.dropped_views.insert(id);
  a->schema_changed = true;
  return Status::OK();
}

CatalogDatum OptionalText(const std::optional<std::string>& text) {
  return text ? CatalogDatum::Text(*text) : CatalogDatum::Null();
}

Status RenameView(CommitAttempt* a, const RenameViewChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.view_id, "view"));
  TARN_ASSIGN_OR_RETURN(
      CatalogResult current,
      RunQuery(a->store,
               "SELECT view_uuid, schema_id, dialect, sql, column_aliases FROM ducklake_view "
               "WHERE view_id = ?1 AND end_snapshot IS NULL",
               {CatalogDatum::Integer(id)},
               {T::kVarchar, T::kBigint, T::kVarchar, T::kVarchar, T::kVarchar},
               "ducklake_view"));
  if (current.rows.size() != 1) {
    return Status::NotFound("rename view: view_id ", id, " has ", current.rows.size(),
                            " current rows at snapshot ", a->latest.snapshot_id);
  }
  const auto& row = current.rows[0];
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_view", "view_id", id));
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_view (view_id, view_uuid, begin_snapshot, end_snapshot, schema_id, "
      "view_name, dialect, sql, column_aliases) VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7, ?8)",
      {CatalogDatum::Integer(id), row[0], CatalogDatum::Integer(a->snapshot_id), row[1],
       CatalogDatum::Text(c.new_name), row[2], row[3], row[4]}));
  const int64_t schema_id = row[1].is_null() ? 0 : row[1].integer();
  TARN_ASSIGN_OR_RETURN(SchemaState * schema, a->Schema(schema_id));
  a->tokens.created_tables.push_back({schema->name, c.new_name, true});
  a->schema_changed = true;
  return Status::OK();
}

Status SetComment(CommitAttempt* a, const SetCommentChange& c) {
  const bool view = c.target == SetCommentChange::Target::kView;
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.object_id, view ? "view" : "table"));
  if (view) {
    if (c.object_id >= 0) a->tokens.altered_views.insert(id);
  } else {
    TARN_RETURN_NOT_OK(a->Table(id).status());  // the table must exist
    a->tokens.altered_tables.insert(id);  // a table created here too (the extension's rule)
  }
  a->schema_changed = true;  // as the extension bumps schema_version; no schema_versions row
  const CatalogDatum snapshot = CatalogDatum::Integer(a->snapshot_id);
  if (c.target == SetCommentChange::Target::kColumn) {
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "UPDATE ducklake_column_tag SET end_snapshot = ?1 WHERE table_id = ?2 "
                            "AND column_id = ?3 AND key = 'comment' AND end_snapshot IS NULL",
                            {snapshot, CatalogDatum::Integer(id),
                             CatalogDatum::Integer(c.column_id)})
                           .status());
    return Exec(a->store,
                "INSERT INTO ducklake_column_tag (table_id, column_id, begin_snapshot, "
                "end_snapshot, key, value) VALUES (?1, ?2, ?3, NULL, 'comment', ?4)",
                {CatalogDatum::Integer(id), CatalogDatum::Integer(c.column_id), snapshot,
                 OptionalText(c.comment)})
        .status();
  }
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "UPDATE ducklake_tag SET end_snapshot = ?1 WHERE object_id = ?2 AND "
                          "key = 'comment' AND end_snapshot IS NULL",
                          {snapshot, CatalogDatum::Integer(id)})
                         .status());
  return Exec(a->store,
              "INSERT INTO ducklake_tag (object_id, begin_snapshot, end_snapshot, key, value) "
              "VALUES (?1, ?2, NULL, 'comment', ?3)",
              {CatalogDatum::Integer(id), snapshot, OptionalText(c.comment)})
      .status();
}

Status CreateMacro(CommitAttempt* a, const CreateMacroChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t schema_id, a->Resolve(c.schema_id, "schema"));
  TARN_ASSIGN_OR_RETURN(SchemaState * schema, a->Schema(schema_id));
  const int64_t id = a->next_catalog_id++;
  a->id_mapping[c.provisional_id] = id;
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "INSERT INTO ducklake_macro (schema_id, macro_id, macro_name, "
                          "begin_snapshot, end_snapshot) VALUES (?1, ?2, ?3, ?4, NULL)",
                          {CatalogDatum::Integer(schema_id), CatalogDatum::Integer(id),
                           CatalogDatum::Text(c.name), CatalogDatum::Integer(a->snapshot_id)}));
  for (size_t i = 0; i < c.impls.size(); ++i) {
    const MacroImpl& impl = c.impls[i];
    const auto impl_id = static_cast<int64_t>(i);
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "INSERT INTO ducklake_macro_impl (macro_id, impl_id, dialect, sql, "
                            "type) VALUES (?1, ?2, ?3, ?4, ?5)",
                            {CatalogDatum::Integer(id), CatalogDatum::Integer(impl_id),
                             CatalogDatum::Text(impl.dialect), CatalogDatum::Text(impl.sql),
                             CatalogDatum::Text(impl.is_table ? "table" : "scalar")}));
    for (size_t p = 0; p < impl.parameters.size(); ++p) {
      const MacroParameter& parameter = impl.parameters[p];
      TARN_RETURN_NOT_OK(Exec(
          a->store,
          "INSERT INTO ducklake_macro_parameters (macro_id, impl_id, column_id, parameter_name, "
          "parameter_type, default_value, default_value_type) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
          {CatalogDatum::Integer(id), CatalogDatum::Integer(impl_id),
           CatalogDatum::Integer(static_cast<int64_t>(p)), CatalogDatum::Text(parameter.name),
           CatalogDatum::Text(parameter.type), OptionalText(parameter.default_value),
           CatalogDatum::Text(parameter.default_value_type)}));
    }
  }
  ChangeTokens::Created created{schema->name, c.name};
  created.is_table_macro = !c.impls.empty() && c.impls[0].is_table;
  a->tokens.created_macros.push_back(std::move(created));
  a->schema_changed = true;
  return Status::OK();
}

Status DropMacro(CommitAttempt* a, const DropMacroChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t id, a->Resolve(c.macro_id, "macro"));
  int64_t changed = 0;
  TARN_RETURN_NOT_OK(EndRows(a, "ducklake_macro", "macro_id", id, &changed));
  if (changed == 0) {
    return Status::NotFound("drop macro: macro_id ", id, " is not visible at snapshot ",
                            a->latest.snapshot_id);
  }
  if (c.macro_id >= 0) {
    (c.is_table ? a->tokens.dropped_table_macros : a->tokens.dropped_scalar_macros).insert(id);
  }
  a->schema_changed = true;
  return Status::OK();
}

Status SetOption(CommitAttempt* a, const SetOptionChange& c) {
  const MetadataEntry& e = c.entry;
  if (e.scope == MetadataEntry::Scope::kGlobal) {
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "DELETE FROM ducklake_metadata WHERE key = ?1 AND "
                            "(scope IS NULL OR scope = '')",
                            {CatalogDatum::Text(e.key)}));
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "INSERT INTO ducklake_metadata (key, value, scope, scope_id) "
                            "VALUES (?1, ?2, NULL, NULL)",
                            {CatalogDatum::Text(e.key), CatalogDatum::Text(e.value)}));
  } else {
    const char* scope = e.scope == MetadataEntry::Scope::kSchema ? "schema" : "table";
    TARN_ASSIGN_OR_RETURN(int64_t scope_id, a->Resolve(e.scope_id, scope));
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "DELETE FROM ducklake_metadata WHERE key = ?1 AND scope = ?2 AND "
                            "scope_id = ?3",
                            {CatalogDatum::Text(e.key), CatalogDatum::Text(scope),
                             CatalogDatum::Integer(scope_id)}));
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "INSERT INTO ducklake_metadata (key, value, scope, scope_id) "
                            "VALUES (?1, ?2, ?3, ?4)",
                            {CatalogDatum::Text(e.key), CatalogDatum::Text(e.value),
                             CatalogDatum::Text(scope), CatalogDatum::Integer(scope_id)}));
  }
  a->metadata_changed = true;
  return Status::OK();
}

}  // namespace

Status WriteCatalogChanges(CommitAttempt* a) {
  for (const LakeChange& change : a->changes->changes()) {
    Status status = std::visit(
        [&](const auto& c) -> Status {
          using C = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<C, CreateSchemaChange>) return CreateSchema(a, c);
          if constexpr (std::is_same_v<C, DropSchemaChange>) return DropSchema(a, c);
          if constexpr (std::is_same_v<C, CreateTableChange>) return CreateTable(a, c);
          if constexpr (std::is_same_v<C, DropTableChange>) return DropTable(a, c);
          if constexpr (std::is_same_v<C, RenameTableChange>) return RenameTable(a, c);
          if constexpr (std::is_same_v<C, AddColumnChange> || std::is_same_v<C, DropColumnChange> ||
                        std::is_same_v<C, AlterColumnChange>) {
            return AlterColumns(a, c.table_id, change);
          }
          if constexpr (std::is_same_v<C, SetPartitioningChange>) return SetPartitioning(a, c);
          if constexpr (std::is_same_v<C, SetSortKeyChange>) return SetSortKey(a, c);
          if constexpr (std::is_same_v<C, CreateViewChange>) return CreateView(a, c);
          if constexpr (std::is_same_v<C, DropViewChange>) return DropView(a, c);
          if constexpr (std::is_same_v<C, RenameViewChange>) return RenameView(a, c);
          if constexpr (std::is_same_v<C, SetCommentChange>) return SetComment(a, c);
          if constexpr (std::is_same_v<C, CreateMacroChange>) return CreateMacro(a, c);
          if constexpr (std::is_same_v<C, DropMacroChange>) return DropMacro(a, c);
          if constexpr (std::is_same_v<C, SetOptionChange>) return SetOption(a, c);
          return Status::OK();  // data changes: commit_data.cc
        },
        change);
    TARN_RETURN_NOT_OK(status);
  }
  return Status::OK();
}

Result<int64_t> InliningRowLimit(CatalogStore* store, int64_t schema_id, int64_t table_id) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT value, scope, scope_id FROM ducklake_metadata WHERE key = "
               "'data_inlining_row_limit'",
               {}, {T::kVarchar, T::kVarchar, T::kBigint}, "ducklake_metadata"));
  int best_rank = -1;
  std::string best;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_metadata", {0});
    std::optional<std::string> scope = row.OptText(1);
    std::optional<int64_t> scope_id = row.OptInt(2);
    int rank = -1;
    if (!scope.has_value() || scope->empty()) rank = 0;
    else if (*scope == "schema" && scope_id == schema_id) rank = 1;
    else if (*scope == "table" && scope_id == table_id) rank = 2;
    if (rank > best_rank) {
      best_rank = rank;
      TARN_ASSIGN_OR_RETURN(best, row.Text(0));
    }
  }
  if (best_rank < 0) return int64_t{10};
  int64_t limit = 0;
  if (!ParseInt64Text(best, &limit) || limit < 0) {
    return Status::Corruption(StoreName(*store), ": ducklake_metadata data_inlining_row_limit = '",
                              best, "' is not a non-negative integer");
  }
  return limit;
}

Result<std::string> CreateInlinedDataTable(CommitAttempt* a, int64_t table_id,
                                           int64_t schema_version,
                                           const std::vector<ColumnInfo>& columns) {
  const std::string name = StrCat("ducklake_inlined_data_", table_id, "_", schema_version);
  TARN_ASSIGN_OR_RETURN(bool exists, a->store->TableExists(name));
  if (exists) return name;
  std::string ddl = StrCat("CREATE TABLE IF NOT EXISTS ", QuoteName(name),
                           " (\"row_id\" BIGINT, \"begin_snapshot\" BIGINT, "
                           "\"end_snapshot\" BIGINT");
  for (const ColumnInfo& column : columns) {
    ddl += StrCat(", ", QuoteName(column.name), " ",
                  InlinedColumnType(column.type, a->store->backend()));
  }
  ddl += ")";
  TARN_RETURN_NOT_OK(Exec(a->store, ddl, {}));
  TARN_RETURN_NOT_OK(Exec(a->store, "INSERT INTO ducklake_inlined_data_tables VALUES (?1, ?2, ?3)",
                          {CatalogDatum::Integer(table_id), CatalogDatum::Text(name),
                           CatalogDatum::Integer(schema_version)}));
  return name;
}

Status WriteNewInlinedTables(CommitAttempt* a) {
  for (auto& [table_id, table] : a->tables) {
    if (!table.schema_version_row || table.dropped_here) continue;
    if (!CanInlineColumns(table.columns)) continue;
    TARN_ASSIGN_OR_RETURN(int64_t limit, InliningRowLimit(a->store, table.schema_id, table_id));
    if (limit <= 0) continue;
    TARN_RETURN_NOT_OK(
        CreateInlinedDataTable(a, table_id, a->schema_version, table.columns).status());
  }
  return Status::OK();
}

Status WriteSchemaVersionRows(CommitAttempt* a) {
  for (auto& [table_id, table] : a->tables) {
    if (!table.schema_version_row || table.dropped_here) continue;
    TARN_RETURN_NOT_OK(Exec(a->store, "INSERT INTO ducklake_schema_versions VALUES (?1, ?2, ?3)",
                            {CatalogDatum::Integer(a->snapshot_id),
                             CatalogDatum::Integer(a->schema_version),
                             CatalogDatum::Integer(table_id)}));
  }
  return Status::OK();
}

}  // namespace tarn::catalog_internal

namespace tarn {

namespace {

// The extension inlines no GEOMETRY (nor VARIANT), not even inside a list, struct or map.
bool HoldsVariantOrGeometry(const DataType& type) {
  if (type.id == TypeId::kVariant || type.id == TypeId::kGeometry) return true;
  for (const Field& child : type.children) {
    if (HoldsVariantOrGeometry(child.type)) return true;
  }
  return false;
}

}  // namespace

bool CanInlineColumns(const std::vector<ColumnInfo>& columns) {
  for (const ColumnInfo& column : columns) {
    std::string lower = column.name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "row_id" || lower == "begin_snapshot" || lower == "end_snapshot" ||
        lower.rfind("_ducklake_internal_", 0) == 0) {
      return false;
    }
    if (column.type.id == TypeId::kNull || HoldsVariantOrGeometry(column.type)) return false;
  }
  return !columns.empty();
}

}  // namespace tarn
