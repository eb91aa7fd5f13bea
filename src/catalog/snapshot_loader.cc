// Lake::LoadSnapshot: schemas, tables, columns, views, partitioning, sorting and the inlined
// data registry as of one snapshot.
#include <algorithm>
#include <map>
#include <set>

#include "catalog/column_tree.h"
#include "catalog/loader.h"
#include "catalog/row_reader.h"

namespace tarn {

using catalog_internal::RowReader;
using catalog_internal::RunQuery;
using catalog_internal::StoreName;

namespace catalog_internal {

ReadTransaction::ReadTransaction(CatalogStore* store) : store_(store) {
  if (!store_->in_transaction()) {
    status_ = store_->Begin(CatalogTransactionMode::kRead);
    owns_ = status_.ok();
  }
}

ReadTransaction::~ReadTransaction() {
  // A read changes nothing: ending it either way is the same; commit releases the lock.
  if (owns_) (void)store_->Commit();
}

}  // namespace catalog_internal

namespace {

using T = CatalogType;

constexpr std::string_view kVisible =
    "begin_snapshot <= ?1 AND (end_snapshot IS NULL OR end_snapshot > ?1)";

// A catalog id (schema, table, view, partition, sort) is allocated from next_catalog_id, which
// starts at 0: it is never negative.
Status CheckCatalogId(const RowReader& row, std::string_view column, int64_t id) {
  if (id < 0) return row.Error(column, " is negative (", id, ")");
  return Status::OK();
}

// Splits '"a","b"' (names double-quoted, "" inside a name) into names.
Result<std::vector<std::string>> ParseColumnAliases(std::string_view text) {
  std::vector<std::string> names;
  size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] != '"') return Status::InvalidArgument("expected '\"' at offset ", pos);
    ++pos;
    std::string name;
    while (true) {
      if (pos >= text.size()) return Status::InvalidArgument("unterminated quoted name");
      if (text[pos] == '"') {
        if (pos + 1 < text.size() && text[pos + 1] == '"') {
          name += '"';
          pos += 2;
          continue;
        }
        ++pos;
        break;
      }
      name += text[pos++];
    }
    names.push_back(std::move(name));
    if (pos < text.size()) {
      if (text[pos] != ',') return Status::InvalidArgument("expected ',' at offset ", pos);
      ++pos;
      if (pos == text.size()) return Status::InvalidArgument("trailing ','");
    }
  }
  return names;
}

Result<std::vector<SchemaInfo>> LoadSchemas(CatalogStore* store, const SnapshotInfo& info,
                                            const std::string& data_path) {
  const int64_t snapshot = info.snapshot_id;
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               StrCat("SELECT schema_id, schema_uuid, begin_snapshot, schema_name, path, "
                      "path_is_relative FROM ducklake_schema WHERE ",
                      kVisible),
               {CatalogDatum::Integer(snapshot)},
               {T::kBigint, T::kVarchar, T::kBigint, T::kVarchar, T::kVarchar, T::kBoolean},
               "ducklake_schema"));
  std::vector<SchemaInfo> schemas;
  std::set<int64_t> ids;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_schema", {0});
    SchemaInfo schema;
    TARN_ASSIGN_OR_RETURN(schema.schema_id, row.Int(0));
    TARN_RETURN_NOT_OK(CheckCatalogId(row, "schema_id", schema.schema_id));
    schema.schema_uuid = row.OptText(1).value_or("");
    TARN_ASSIGN_OR_RETURN(schema.begin_snapshot, row.Int(2));
    TARN_ASSIGN_OR_RETURN(schema.name, row.Text(3));
    schema.path = catalog_internal::ResolveCatalogPath(data_path, row.OptText(4),
                                                       row.BoolOr(5, true), true);
    if (!ids.insert(schema.schema_id).second) {
      return row.Error("schema_id has more than one visible version at snapshot ", snapshot);
    }
    schemas.push_back(std::move(schema));
  }
  std::sort(schemas.begin(), schemas.end(),
            [](const SchemaInfo& a, const SchemaInfo& b) { return a.schema_id < b.schema_id; });
  return schemas;
}

// Partition specs visible at the snapshot, by table id.
Status LoadPartitioning(CatalogStore* store, const SnapshotInfo& info,
                        std::map<int64_t, std::shared_ptr<TableInfo>>* tables) {
  const int64_t snapshot = info.snapshot_id;
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT pi.partition_id, pi.table_id, pc.partition_key_index, pc.column_id, "
               "pc.transform FROM ducklake_partition_info pi LEFT JOIN "
               "ducklake_partition_column pc ON pc.partition_id = pi.partition_id AND "
               "pc.table_id = pi.table_id WHERE pi.begin_snapshot <= ?1 AND "
               "(pi.end_snapshot IS NULL OR pi.end_snapshot > ?1)",
               {CatalogDatum::Integer(snapshot)},
               {T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kVarchar},
               "ducklake_partition_info/ducklake_partition_column"));
  std::map<int64_t, int64_t> spec_of_table;  // table_id -> partition_id
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_partition_column", {0, 1, 2});
    TARN_ASSIGN_OR_RETURN(int64_t partition_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(int64_t table_id, row.Int(1));
    auto table_it = tables->find(table_id);
    if (table_it == tables->end()) continue;  // a table not visible at this snapshot
    TARN_RETURN_NOT_OK(CheckCatalogId(row, "partition_id", partition_id));
    TableInfo& table = *table_it->second;
    auto [spec_it, inserted] = spec_of_table.emplace(table_id, partition_id);
    if (!inserted && spec_it->second != partition_id) {
      return row.Error("table ", table_id, " has two visible partition specs (",
                       spec_it->second, " and ", partition_id, ") at snapshot ", snapshot);
    }
    if (row.IsNull(2)) continue;  // a spec without columns: RESET PARTITIONED BY
    if (!table.partitioning.has_value()) {
      table.partitioning.emplace();
      table.partitioning->partition_id = partition_id;
    }
    PartitionField field;
    TARN_ASSIGN_OR_RETURN(field.partition_key_index, row.Int(2));
    TARN_ASSIGN_OR_RETURN(field.column_id, row.Int(3));
    TARN_ASSIGN_OR_RETURN(std::string transform, row.Text(4));
    const ColumnInfo* column = table.FindColumn(field.column_id);
    if (column == nullptr) {
      return row.Error("partition column_id ", field.column_id, " is not a column of table ",
                       table_id, " at snapshot ", snapshot);
    }
    Status parsed = catalog_internal::ParsePartitionTransform(transform, column->type, &field);
    if (!parsed.ok()) return row.Error(parsed.message());
    table.partitioning->fields.push_back(std::move(field));
  }
  for (auto& [table_id, table] : *tables) {
    if (!table->partitioning.has_value()) continue;
    auto& fields = table->partitioning->fields;
    std::sort(fields.begin(), fields.end(), [](const PartitionField& a, const PartitionField& b) {
      return a.partition_key_index < b.partition_key_index;
    });
    for (size_t k = 0; k < fields.size(); ++k) {
      if (fields[k].partition_key_index != static_cast<int64_t>(k)) {
        return Status::Corruption(StoreName(*store), ": ducklake_partition_column of partition ",
                                  table->partitioning->partition_id,
                                  " has key indexes that are not 0..", fields.size() - 1);
      }
    }
  }
  return Status::OK();
}

Status LoadSorting(CatalogStore* store, const SnapshotInfo& info,
                   std::map<int64_t, std::shared_ptr<TableInfo>>* tables) {
  const int64_t snapshot = info.snapshot_id;
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT si.sort_id, si.table_id, se.sort_key_index, se.expression, se.dialect, "
               "se.sort_direction, se.null_order FROM ducklake_sort_info si JOIN "
               "ducklake_sort_expression se ON se.sort_id = si.sort_id AND "
               "se.table_id = si.table_id WHERE si.begin_snapshot <= ?1 AND "
               "(si.end_snapshot IS NULL OR si.end_snapshot > ?1)",
               {CatalogDatum::Integer(snapshot)},
               {T::kBigint, T::kBigint, T::kBigint, T::kVarchar, T::kVarchar, T::kVarchar,
                T::kVarchar},
               "ducklake_sort_info/ducklake_sort_expression"));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_sort_expression", {0, 1, 2});
    TARN_ASSIGN_OR_RETURN(int64_t sort_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(int64_t table_id, row.Int(1));
    auto table_it = tables->find(table_id);
    if (table_it == tables->end()) continue;
    TARN_RETURN_NOT_OK(CheckCatalogId(row, "sort_id", sort_id));
    TableInfo& table = *table_it->second;
    if (!table.sorting.has_value()) {
      table.sorting.emplace();
      table.sorting->sort_id = sort_id;
    } else if (table.sorting->sort_id != sort_id) {
      return row.Error("table ", table_id, " has two visible sort specs at snapshot ", snapshot);
    }
    SortField field;
    TARN_ASSIGN_OR_RETURN(field.sort_key_index, row.Int(2));
    TARN_ASSIGN_OR_RETURN(field.expression, row.Text(3));
    field.dialect = row.OptText(4).value_or("");
    std::string direction = row.OptText(5).value_or("ASC");
    std::string nulls = row.OptText(6).value_or("NULLS_LAST");
    if (direction != "ASC" && direction != "DESC") {
      return row.Error("sort_direction '", direction, "' (expected ASC or DESC)");
    }
    if (nulls != "NULLS_FIRST" && nulls != "NULLS_LAST") {
      return row.Error("null_order '", nulls, "' (expected NULLS_FIRST or NULLS_LAST)");
    }
    field.descending = direction == "DESC";
    field.nulls_first = nulls == "NULLS_FIRST";
    table.sorting->fields.push_back(std::move(field));
  }
  for (auto& [table_id, table] : *tables) {
    if (!table->sorting.has_value()) continue;
    std::sort(table->sorting->fields.begin(), table->sorting->fields.end(),
              [](const SortField& a, const SortField& b) {
                return a.sort_key_index < b.sort_key_index;
              });
    const std::vector<SortField>& fields = table->sorting->fields;
    for (size_t k = 0; k < fields.size(); ++k) {
      if (fields[k].sort_key_index < 0 ||
          (k > 0 && fields[k].sort_key_index == fields[k - 1].sort_key_index)) {
        return Status::Corruption(StoreName(*store), ": ducklake_sort_expression of sort_id ",
                                  table->sorting->sort_id, " has sort_key_index ",
                                  fields[k].sort_key_index,
                                  fields[k].sort_key_index < 0 ? " (negative)" : " twice");
      }
    }
  }
  return Status::OK();
}

// The snapshot whose columns an inlined table of `schema_version` holds: the table's latest
// ducklake_schema_versions row at or below that version, else the table's begin_snapshot.
Result<int64_t> InlinedSchemaSnapshot(CatalogStore* store, const TableInfo& table,
                                      int64_t schema_version) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT begin_snapshot, schema_version FROM ducklake_schema_versions "
               "WHERE table_id = ?1 AND schema_version <= ?2",
               {CatalogDatum::Integer(table.table_id), CatalogDatum::Integer(schema_version)},
               {T::kBigint, T::kBigint}, "ducklake_schema_versions"));
  int64_t best_version = -1;
  int64_t best_snapshot = table.begin_snapshot;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_schema_versions", {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t begin, row.Int(0));
    TARN_ASSIGN_OR_RETURN(int64_t version, row.Int(1));
    if (version > best_version) {
      best_version = version;
      best_snapshot = begin;
    }
  }
  return best_snapshot;
}

Status LoadInlinedRegistry(CatalogStore* store, int64_t snapshot,
                           std::map<int64_t, std::shared_ptr<TableInfo>>* tables) {
  TARN_ASSIGN_OR_RETURN(bool exists, store->TableExists("ducklake_inlined_data_tables"));
  if (!exists) return Status::OK();
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT table_id, table_name, schema_version FROM ducklake_inlined_data_tables",
               {}, {T::kBigint, T::kVarchar, T::kBigint}, "ducklake_inlined_data_tables"));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_inlined_data_tables", {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t table_id, row.Int(0));
    auto table_it = tables->find(table_id);
    if (table_it == tables->end()) continue;
    TableInfo& table = *table_it->second;
    InlinedDataTable inlined;
    TARN_ASSIGN_OR_RETURN(inlined.table_name, row.Text(1));
    TARN_ASSIGN_OR_RETURN(inlined.schema_version, row.Int(2));
    // Only an inlined-data table may be read as one: never another catalog table.
    if (!inlined.table_name.starts_with("ducklake_inlined_data_")) {
      return row.Error("table_name '", inlined.table_name,
                       "' is not an inlined data table (ducklake_inlined_data_...)");
    }
    if (inlined.schema_version < 0) {
      return row.Error("schema_version is negative (", inlined.schema_version, ")");
    }
    TARN_ASSIGN_OR_RETURN(inlined.schema_snapshot,
                          InlinedSchemaSnapshot(store, table, inlined.schema_version));
    // Created after this snapshot: it cannot hold rows visible here.
    if (inlined.schema_snapshot > snapshot) continue;
    TARN_ASSIGN_OR_RETURN(bool table_exists, store->TableExists(inlined.table_name));
    if (!table_exists) {
      return row.Error("registered inlined data table ", inlined.table_name, " does not exist");
    }
    TARN_ASSIGN_OR_RETURN(auto columns,
                          catalog_internal::LoadColumns(store, inlined.schema_snapshot, table_id));
    inlined.columns = std::move(columns[table_id]);
    if (inlined.columns.empty()) {
      return row.Error("inlined data table ", inlined.table_name, " of table ", table.schema_name,
                       ".", table.name, " has no columns in ducklake_column at snapshot ",
                       inlined.schema_snapshot);
    }
    table.inlined_tables.push_back(std::move(inlined));
  }
  for (auto& [table_id, table] : *tables) {
    std::sort(table->inlined_tables.begin(), table->inlined_tables.end(),
              [](const InlinedDataTable& a, const InlinedDataTable& b) {
                return a.schema_version < b.schema_version;
              });
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<TableSchemaVersion>> Lake::LoadSchemaVersions(const TableInfo& table,
                                                                 int64_t snapshot_id) {
  std::lock_guard<std::mutex> lock(mu_);
  CatalogStore* store = store_.get();
  catalog_internal::ReadTransaction transaction(store);
  TARN_RETURN_NOT_OK(transaction.status());
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT begin_snapshot, schema_version FROM ducklake_schema_versions "
               "WHERE table_id = ?1 AND begin_snapshot <= ?2 ORDER BY begin_snapshot, "
               "schema_version",
               {CatalogDatum::Integer(table.table_id), CatalogDatum::Integer(snapshot_id)},
               {T::kBigint, T::kBigint}, "ducklake_schema_versions"));
  std::vector<TableSchemaVersion> out;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_schema_versions", {0, 1});
    TableSchemaVersion version;
    TARN_ASSIGN_OR_RETURN(version.begin_snapshot, row.Int(0));
    TARN_ASSIGN_OR_RETURN(version.schema_version, row.Int(1));
    if (!out.empty() && out.back().begin_snapshot == version.begin_snapshot) {
      out.back().schema_version = version.schema_version;  // the later of one snapshot's rows
      continue;
    }
    out.push_back(std::move(version));
  }
  if (out.empty() || out.front().begin_snapshot > table.begin_snapshot) {
    TableSchemaVersion first;
    first.begin_snapshot = table.begin_snapshot;
    out.insert(out.begin(), std::move(first));
  }
  for (TableSchemaVersion& version : out) {
    TARN_ASSIGN_OR_RETURN(auto columns, catalog_internal::LoadColumns(store, version.begin_snapshot,
                                                                      table.table_id));
    version.columns = std::move(columns[table.table_id]);
    if (version.columns.empty()) {
      return Status::Corruption(StoreName(*store), ": table ", table.schema_name, ".", table.name,
                                " has no columns in ducklake_column at snapshot ",
                                version.begin_snapshot, " (schema version ",
                                version.schema_version, ")");
    }
  }
  return out;
}

// COMMENT ON: the 'comment' tags visible at `snapshot`. Table and view comments by object id
// into `object_comments` (as stored: NULL is no comment), column comments into their tables.
static Status LoadComments(CatalogStore* store, int64_t snapshot,
                           std::map<int64_t, std::shared_ptr<TableInfo>>* tables,
                           std::map<int64_t, std::optional<std::string>>* object_comments) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult tag_rows,
      RunQuery(store,
               StrCat("SELECT object_id, value FROM ducklake_tag WHERE key = 'comment' AND ",
                      kVisible),
               {CatalogDatum::Integer(snapshot)}, {T::kBigint, T::kVarchar}, "ducklake_tag"));
  for (size_t i = 0; i < tag_rows.rows.size(); ++i) {
    RowReader row(*store, tag_rows, i, "ducklake_tag", {0});
    TARN_ASSIGN_OR_RETURN(int64_t object_id, row.Int(0));
    (*object_comments)[object_id] = row.OptText(1);
  }
  TARN_ASSIGN_OR_RETURN(
      CatalogResult column_rows,
      RunQuery(store,
               StrCat("SELECT table_id, column_id, value FROM ducklake_column_tag WHERE "
                      "key = 'comment' AND ",
                      kVisible),
               {CatalogDatum::Integer(snapshot)}, {T::kBigint, T::kBigint, T::kVarchar},
               "ducklake_column_tag"));
  for (size_t i = 0; i < column_rows.rows.size(); ++i) {
    RowReader row(*store, column_rows, i, "ducklake_column_tag", {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t table_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(int64_t column_id, row.Int(1));
    auto table = tables->find(table_id);
    if (table == tables->end()) continue;  // a tag of a table not visible here
    std::optional<std::string> value = row.OptText(2);
    if (value.has_value()) {
      table->second->column_comments[column_id] = *value;
    } else {
      table->second->column_comments.erase(column_id);
    }
  }
  return Status::OK();
}

Result<std::shared_ptr<const LakeSnapshot>> Lake::LoadSnapshot(const SnapshotSelector& selector) {
  std::lock_guard<std::mutex> lock(mu_);
  CatalogStore* store = store_.get();
  catalog_internal::ReadTransaction transaction(store);
  TARN_RETURN_NOT_OK(transaction.status());

  auto result = std::make_shared<LakeSnapshot>();
  TARN_ASSIGN_OR_RETURN(result->snapshot_, catalog_internal::FindSnapshotLocked(store, selector));
  const int64_t snapshot = result->snapshot_.snapshot_id;
  result->data_path_ = data_path_;
  TARN_ASSIGN_OR_RETURN(result->schemas_, LoadSchemas(store, result->snapshot_, data_path_));
  std::map<int64_t, const SchemaInfo*> schema_by_id;
  for (const SchemaInfo& schema : result->schemas_) schema_by_id[schema.schema_id] = &schema;

  // Tables and their columns.
  TARN_ASSIGN_OR_RETURN(
      CatalogResult table_rows,
      RunQuery(store,
               StrCat("SELECT table_id, table_uuid, begin_snapshot, schema_id, table_name, path, "
                      "path_is_relative FROM ducklake_table WHERE ",
                      kVisible),
               {CatalogDatum::Integer(snapshot)},
               {T::kBigint, T::kVarchar, T::kBigint, T::kBigint, T::kVarchar, T::kVarchar,
                T::kBoolean},
               "ducklake_table"));
  TARN_ASSIGN_OR_RETURN(auto columns, catalog_internal::LoadColumns(store, snapshot, std::nullopt));
  std::map<int64_t, std::shared_ptr<TableInfo>> tables;
  for (size_t i = 0; i < table_rows.rows.size(); ++i) {
    RowReader row(*store, table_rows, i, "ducklake_table", {0});
    auto table = std::make_shared<TableInfo>();
    TARN_ASSIGN_OR_RETURN(table->table_id, row.Int(0));
    TARN_RETURN_NOT_OK(CheckCatalogId(row, "table_id", table->table_id));
    table->table_uuid = row.OptText(1).value_or("");
    TARN_ASSIGN_OR_RETURN(table->begin_snapshot, row.Int(2));
    TARN_ASSIGN_OR_RETURN(table->schema_id, row.Int(3));
    TARN_ASSIGN_OR_RETURN(table->name, row.Text(4));
    auto schema_it = schema_by_id.find(table->schema_id);
    if (schema_it == schema_by_id.end()) {
      return row.Error("schema_id ", table->schema_id, " is not a visible schema at snapshot ",
                       snapshot);
    }
    table->schema_name = schema_it->second->name;
    table->path = catalog_internal::ResolveCatalogPath(schema_it->second->path, row.OptText(5),
                                                       row.BoolOr(6, true), true);
    auto column_it = columns.find(table->table_id);
    if (column_it == columns.end() || column_it->second.empty()) {
      // Every DuckLake table has at least one column; scans and writes rely on it.
      return row.Error("table ", table->schema_name, ".", table->name,
                       " has no columns in ducklake_column at snapshot ", snapshot);
    }
    table->columns = std::move(column_it->second);
    table->schema = catalog_internal::SchemaOfColumns(table->columns);
    if (!tables.emplace(table->table_id, table).second) {
      return row.Error("table_id has more than one visible version at snapshot ", snapshot);
    }
  }
  TARN_RETURN_NOT_OK(LoadPartitioning(store, result->snapshot_, &tables));
  TARN_RETURN_NOT_OK(LoadSorting(store, result->snapshot_, &tables));
  TARN_RETURN_NOT_OK(LoadInlinedRegistry(store, snapshot, &tables));
  std::map<int64_t, std::optional<std::string>> object_comments;
  TARN_RETURN_NOT_OK(LoadComments(store, snapshot, &tables, &object_comments));
  for (auto& [table_id, table] : tables) {
    auto comment = object_comments.find(table_id);
    if (comment != object_comments.end()) table->comment = comment->second;
    result->tables_.push_back(std::move(table));
  }

  // Views.
  TARN_ASSIGN_OR_RETURN(
      CatalogResult view_rows,
      RunQuery(store,
               StrCat("SELECT view_id, view_uuid, begin_snapshot, schema_id, view_name, dialect, "
                      "sql, column_aliases FROM ducklake_view WHERE ",
                      kVisible),
               {CatalogDatum::Integer(snapshot)},
               {T::kBigint, T::kVarchar, T::kBigint, T::kBigint, T::kVarchar, T::kVarchar,
                T::kVarchar, T::kVarchar},
               "ducklake_view"));
  for (size_t i = 0; i < view_rows.rows.size(); ++i) {
    RowReader row(*store, view_rows, i, "ducklake_view", {0});
    ViewInfo view;
    TARN_ASSIGN_OR_RETURN(view.view_id, row.Int(0));
    TARN_RETURN_NOT_OK(CheckCatalogId(row, "view_id", view.view_id));
    view.view_uuid = row.OptText(1).value_or("");
    TARN_ASSIGN_OR_RETURN(view.begin_snapshot, row.Int(2));
    TARN_ASSIGN_OR_RETURN(view.schema_id, row.Int(3));
    TARN_ASSIGN_OR_RETURN(view.name, row.Text(4));
    view.dialect = row.OptText(5).value_or("");
    TARN_ASSIGN_OR_RETURN(view.sql, row.Text(6));
    auto schema_it = schema_by_id.find(view.schema_id);
    if (schema_it == schema_by_id.end()) {
      return row.Error("schema_id ", view.schema_id, " is not a visible schema at snapshot ",
                       snapshot);
    }
    view.schema_name = schema_it->second->name;
    Result<std::vector<std::string>> aliases = ParseColumnAliases(row.OptText(7).value_or(""));
    if (!aliases.ok()) return row.Error("column_aliases: ", aliases.status().message());
    view.column_aliases = std::move(aliases).value();
    auto comment = object_comments.find(view.view_id);
    if (comment != object_comments.end()) view.comment = comment->second;
    result->views_.push_back(std::move(view));
  }
  std::sort(result->views_.begin(), result->views_.end(),
            [](const ViewInfo& a, const ViewInfo& b) { return a.view_id < b.view_id; });

  // Macros, their implementations and parameters.
  TARN_ASSIGN_OR_RETURN(
      CatalogResult macro_rows,
      RunQuery(store,
               StrCat("SELECT macro_id, schema_id, macro_name, begin_snapshot FROM "
                      "ducklake_macro WHERE ",
                      kVisible, " ORDER BY macro_id"),
               {CatalogDatum::Integer(snapshot)},
               {T::kBigint, T::kBigint, T::kVarchar, T::kBigint}, "ducklake_macro"));
  std::map<int64_t, size_t> macro_index;
  for (size_t i = 0; i < macro_rows.rows.size(); ++i) {
    RowReader row(*store, macro_rows, i, "ducklake_macro", {0});
    MacroInfo macro;
    TARN_ASSIGN_OR_RETURN(macro.macro_id, row.Int(0));
    TARN_RETURN_NOT_OK(CheckCatalogId(row, "macro_id", macro.macro_id));
    TARN_ASSIGN_OR_RETURN(macro.schema_id, row.Int(1));
    TARN_ASSIGN_OR_RETURN(macro.name, row.Text(2));
    TARN_ASSIGN_OR_RETURN(macro.begin_snapshot, row.Int(3));
    auto schema_it = schema_by_id.find(macro.schema_id);
    if (schema_it == schema_by_id.end()) {
      return row.Error("schema_id ", macro.schema_id, " is not a visible schema at snapshot ",
                       snapshot);
    }
    macro.schema_name = schema_it->second->name;
    macro_index[macro.macro_id] = result->macros_.size();
    result->macros_.push_back(std::move(macro));
  }
  if (!result->macros_.empty()) {
    TARN_ASSIGN_OR_RETURN(
        CatalogResult impl_rows,
        RunQuery(store,
                 StrCat("SELECT macro_id, impl_id, dialect, sql, type FROM ducklake_macro_impl "
                        "WHERE macro_id IN (SELECT macro_id FROM ducklake_macro WHERE ",
                        kVisible, ") ORDER BY macro_id, impl_id"),
                 {CatalogDatum::Integer(snapshot)},
                 {T::kBigint, T::kBigint, T::kVarchar, T::kVarchar, T::kVarchar},
                 "ducklake_macro_impl"));
    for (size_t i = 0; i < impl_rows.rows.size(); ++i) {
      RowReader row(*store, impl_rows, i, "ducklake_macro_impl", {0, 1});
      TARN_ASSIGN_OR_RETURN(int64_t macro_id, row.Int(0));
      TARN_ASSIGN_OR_RETURN(int64_t impl_id, row.Int(1));
      auto index = macro_index.find(macro_id);
      if (index == macro_index.end()) return row.Error("macro_id ", macro_id, " names no macro");
      MacroInfo& macro = result->macros_[index->second];
      if (impl_id != static_cast<int64_t>(macro.impls.size())) {
        return row.Error("impl_id ", impl_id, " of macro ", macro.name, " is not ",
                         macro.impls.size(), " (impl ids count up from 0)");
      }
      MacroImpl impl;
      impl.dialect = row.OptText(2).value_or("duckdb");
      TARN_ASSIGN_OR_RETURN(impl.sql, row.Text(3));
      TARN_ASSIGN_OR_RETURN(std::string type, row.Text(4));
      if (type != "scalar" && type != "table") {
        return row.Error("type is '", type, "', not 'scalar' or 'table'");
      }
      impl.is_table = type == "table";
      macro.impls.push_back(std::move(impl));
    }
    TARN_ASSIGN_OR_RETURN(
        CatalogResult parameter_rows,
        RunQuery(store,
                 StrCat("SELECT macro_id, impl_id, column_id, parameter_name, parameter_type, "
                        "default_value, default_value_type FROM ducklake_macro_parameters "
                        "WHERE macro_id IN (SELECT macro_id FROM ducklake_macro WHERE ",
                        kVisible, ") ORDER BY macro_id, impl_id, column_id"),
                 {CatalogDatum::Integer(snapshot)},
                 {T::kBigint, T::kBigint, T::kBigint, T::kVarchar, T::kVarchar, T::kVarchar,
                  T::kVarchar},
                 "ducklake_macro_parameters"));
    for (size_t i = 0; i < parameter_rows.rows.size(); ++i) {
      RowReader row(*store, parameter_rows, i, "ducklake_macro_parameters", {0, 1, 2});
      TARN_ASSIGN_OR_RETURN(int64_t macro_id, row.Int(0));
      TARN_ASSIGN_OR_RETURN(int64_t impl_id, row.Int(1));
      TARN_ASSIGN_OR_RETURN(int64_t column_id, row.Int(2));
      auto index = macro_index.find(macro_id);
      if (index == macro_index.end()) return row.Error("macro_id ", macro_id, " names no macro");
      MacroInfo& macro = result->macros_[index->second];
      if (impl_id < 0 || impl_id >= static_cast<int64_t>(macro.impls.size())) {
        return row.Error("impl_id ", impl_id, " is not an implementation of macro ", macro.name);
      }
      MacroImpl& impl = macro.impls[impl_id];
      if (column_id != static_cast<int64_t>(impl.parameters.size())) {
        return row.Error("column_id ", column_id, " of macro ", macro.name, " is not ",
                         impl.parameters.size(), " (parameter positions count up from 0)");
      }
      MacroParameter parameter;
      TARN_ASSIGN_OR_RETURN(parameter.name, row.Text(3));
      parameter.type = row.OptText(4).value_or("unknown");
      parameter.default_value = row.OptText(5);
      parameter.default_value_type = row.OptText(6).value_or("unknown");
      impl.parameters.push_back(std::move(parameter));
    }
    for (const MacroInfo& macro : result->macros_) {
      if (macro.impls.empty()) {
        return Status::Corruption(StoreName(*store), ": macro ", macro.schema_name,
                                  ".", macro.name, " (macro_id ", macro.macro_id,
                                  ") has no row in ducklake_macro_impl");
      }
    }
  }
  return std::shared_ptr<const LakeSnapshot>(std::move(result));
}

}  // namespace tarn
