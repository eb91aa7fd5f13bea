// The rows of data changes: data files with their column statistics and partition values,
// inlined inserts, delete files, inlined file deletes, ended data files and deleted inlined
// rows (reference §3.6, §3.7, §3.9).
#include <cmath>
#include <limits>
#include <map>

#include "catalog/commit_internal.h"
#include "catalog/postgres_sql.h"
#include "catalog/row_reader.h"
#include "catalog/stats_encode.h"
#include "tarn/format.h"

namespace tarn::catalog_internal {

bool IsLogicalConflict(const Status& status) {
  return status.code() == StatusCode::kConflict &&
         status.message().rfind("Transaction conflict: ", 0) == 0;
}

std::string InlinedColumnType(const DataType& type, std::string_view backend) {
  if (backend == "postgres") return PostgresInlinedColumnType(type);
  // As DuckDB's SQLite scanner declares the columns when the extension creates the table:
  // integers (booleans too) BIGINT, BLOB as BLOB, every other type VARCHAR (its DuckDB text).
  switch (type.id) {
    case TypeId::kBoolean:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
      return "BIGINT";
    case TypeId::kBlob:
      return "BLOB";
    default:
      return "VARCHAR";
  }
}

Status InsertFileColumnStats(CommitAttempt* a, int64_t file_id, int64_t table_id,
                             const NewFileColumnStats& s, const CatalogDatum& min,
                             const CatalogDatum& max) {
  const CatalogDatum nan = s.contains_nan.has_value() ? CatalogDatum::Boolean(*s.contains_nan)
                                                      : CatalogDatum::Null();
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "INSERT INTO ducklake_file_column_stats VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                          "?7, ?8, ?9, ?10)",
                          {CatalogDatum::Integer(file_id), CatalogDatum::Integer(table_id),
                           CatalogDatum::Integer(s.column_id),
                           CatalogDatum::Integer(s.column_size_bytes),
                           CatalogDatum::Integer(s.value_count), CatalogDatum::Integer(s.null_count),
                           min, max, nan, OptText(s.extra_stats)}));
  for (const NewVariantFieldStats& field : s.variant_fields) {
    TARN_RETURN_NOT_OK(Exec(
        a->store,
        "INSERT INTO ducklake_file_variant_stats VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
        "?10, ?11, ?12)",
        {CatalogDatum::Integer(file_id), CatalogDatum::Integer(table_id),
         CatalogDatum::Integer(s.column_id), CatalogDatum::Text(field.path),
         CatalogDatum::Text(field.shredded_type), CatalogDatum::Integer(field.column_size_bytes),
         CatalogDatum::Integer(field.value_count), CatalogDatum::Integer(field.null_count),
         OptText(field.min), OptText(field.max),
         field.contains_nan ? CatalogDatum::Boolean(*field.contains_nan) : CatalogDatum::Null(),
         CatalogDatum::Null()}));
  }
  return Status::OK();
}

Result<CatalogDatum> InlinedDatum(const Column& column, int64_t row, std::string_view backend) {
  if (column.IsNull(row)) return CatalogDatum::Null();
  const Value value = column.GetValue(row);
  if (backend == "postgres") {
    // bytea columns take text as its bytes; every other column parses the text of the value.
    if (column.type.id == TypeId::kVarchar || column.type.id == TypeId::kJson ||
        column.type.id == TypeId::kBlob) {
      return CatalogDatum::Blob(value.GetBytes());
    }
    if (column.type.id == TypeId::kBoolean) return CatalogDatum::Boolean(value.GetBool());
    return CatalogDatum::Text(FormatValue(value));
  }
  if (InlinedColumnType(column.type, backend) == "VARCHAR" && column.type.id != TypeId::kJson) {
    return CatalogDatum::Text(FormatValue(value));
  }
  switch (column.type.id) {
    case TypeId::kBoolean:
      return CatalogDatum::Boolean(value.GetBool());
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
      return CatalogDatum::Integer(value.GetInt64());
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
      return CatalogDatum::Integer(static_cast<int64_t>(value.GetUInt64()));
    case TypeId::kBlob:
      return CatalogDatum::Blob(value.GetBytes());
    case TypeId::kVarchar:
    case TypeId::kJson:
      return CatalogDatum::Text(value.GetBytes());
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimeNs:
    case TypeId::kTimestamp:
    case TypeId::kTimestampS:
    case TypeId::kTimestampMs:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTz:
    case TypeId::kUuid:
    // Types SQLite has no column type for: DuckDB's VARCHAR spelling, as the extension.
    case TypeId::kInterval:
    case TypeId::kTimeTz:
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap:
      return CatalogDatum::Text(FormatValue(value));
    default:
      return Status::NotSupported("inlined values of type ", column.type.ToString(),
                                  " are not supported");
  }
}

namespace {

using T = CatalogType;

Result<const ColumnInfo*> ColumnOf(const TableState& table, int64_t column_id) {
  const ColumnInfo* column = FindInTree(table.columns, column_id);
  if (column == nullptr) {
    return Status::InvalidArgument("column_id ", column_id, " is not a column of table ",
                                   table.schema_name, ".", table.name);
  }
  return column;
}

// A file written before a column was added (earlier in the same transaction) has no values for
// it: its rows read the column's initial default, so the table-wide bounds take that value.
Status FoldMissingColumns(TableStatsAccum* accum, const TableState& table,
                          const NewDataFile& f) {
  if (f.record_count == 0 || f.column_stats.empty()) return Status::OK();
  for (const ColumnInfo& column : table.columns) {
    if (column.type.IsNested() || !column.initial_value.has_value()) continue;
    bool present = false;
    for (const NewFileColumnStats& s : f.column_stats) present |= s.column_id == column.column_id;
    if (present) continue;
    const Value& fill = *column.initial_value;
    std::optional<Value> bound;
    if (!fill.is_null() && HasStatsText(column.type)) bound = fill;
    std::optional<bool> nan;
    if (column.type.IsFloating()) nan = !fill.is_null() && std::isnan(fill.GetDouble());
    if (nan.value_or(false)) bound.reset();
    Status folded = AccumulateColumnStats(&accum->columns[column.column_id], column.type, bound,
                                          bound, fill.is_null(), nan);
    TARN_RETURN_NOT_OK(folded.WithContext(
        StrCat("data file ", f.path, " column ", column.name, " (its initial default)")));
  }
  return Status::OK();
}

struct InlinedLeafStats {
  std::optional<Value> min, max;
  bool has_null = false;
  std::optional<bool> nan;
};

// Folds one value of `info` (NULL included) into the statistics of its leaf columns. A NULL
// struct makes its fields NULL; a NULL list or map has no elements.
void GatherInlinedStats(const ColumnInfo& info, const Value& v,
                        std::map<int64_t, InlinedLeafStats>* leaves) {
  switch (info.type.id) {
    case TypeId::kStruct:
      for (size_t i = 0; i < info.children.size(); ++i) {
        const bool has = !v.is_null() && i < v.children().size();
        GatherInlinedStats(info.children[i],
                           has ? v.children()[i] : Value::Null(info.children[i].type), leaves);
      }
      return;
    case TypeId::kList:
      if (v.is_null() || info.children.size() != 1) return;
      for (const Value& element : v.children()) {
        GatherInlinedStats(info.children[0], element, leaves);
      }
      return;
    case TypeId::kMap:
      if (v.is_null() || info.children.size() != 2) return;
      for (const Value& entry : v.children()) {
        for (size_t k = 0; k < 2; ++k) {
          const bool has = !entry.is_null() && k < entry.children().size();
          GatherInlinedStats(info.children[k],
                             has ? entry.children()[k] : Value::Null(info.children[k].type),
                             leaves);
        }
      }
      return;
    default:
      break;
  }
  if (info.type.IsNested()) return;
  InlinedLeafStats& leaf = (*leaves)[info.column_id];
  if (info.type.IsFloating() && !leaf.nan.has_value()) leaf.nan = false;
  if (v.is_null()) {
    leaf.has_null = true;
    return;
  }
  if (info.type.IsFloating() && std::isnan(v.GetDouble())) {
    leaf.nan = true;
    return;
  }
  if (!HasStatsText(info.type)) return;
  if (!leaf.min.has_value() || CompareStatsValues(v, *leaf.min) < 0) leaf.min = v;
  if (!leaf.max.has_value() || CompareStatsValues(v, *leaf.max) > 0) leaf.max = v;
}

Result<CatalogDatum> StatsText(const std::optional<Value>& bound, std::string_view what) {
  if (!bound.has_value() || bound->is_null()) return CatalogDatum::Null();
  const Value& v = *bound;
  if ((v.type().id == TypeId::kVarchar || v.type().id == TypeId::kJson) &&
      v.GetBytes().find('\0') != std::string::npos) {
    return CatalogDatum::Null();  // as the extension: a bound holding NUL is not stored
  }
  Result<std::string> text = EncodeStatsValue(v, v.type());
  if (!text.ok()) return text.status().WithContext(what);
  return CatalogDatum::Text(*text);
}

bool SameEntry(const NameMappingEntry& a, const NameMappingEntry& b) {
  return a.column_id == b.column_id && a.source_name == b.source_name &&
         a.target_field_id == b.target_field_id && a.parent_column == b.parent_column &&
         a.is_partition == b.is_partition;
}

// The mapping_id of `entries` for the table: an equal mapping the table already has (the
// extension writes one mapping per distinct shape, not one per file), else a new one with its
// id from next_file_id.
Result<int64_t> ResolveNameMapping(CommitAttempt* a, int64_t table_id,
                                   const std::vector<NameMappingEntry>& entries) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(a->store,
               "SELECT m.mapping_id, n.column_id, n.source_name, n.target_field_id, "
               "n.parent_column, n.is_partition FROM ducklake_column_mapping m JOIN "
               "ducklake_name_mapping n ON n.mapping_id = m.mapping_id WHERE m.table_id = ?1 "
               "AND m.type = 'map_by_name' ORDER BY m.mapping_id, n.column_id",
               {CatalogDatum::Integer(table_id)},
               {T::kBigint, T::kBigint, T::kVarchar, T::kBigint, T::kBigint, T::kBoolean},
               "ducklake_name_mapping"));
  std::map<int64_t, std::vector<NameMappingEntry>> existing;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*a->store, result, i, "ducklake_name_mapping", {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t mapping_id, row.Int(0));
    NameMappingEntry entry;
    TARN_ASSIGN_OR_RETURN(entry.column_id, row.Int(1));
    entry.source_name = row.OptText(2).value_or("");
    entry.target_field_id = row.OptInt(3).value_or(-1);
    entry.parent_column = row.OptInt(4);
    entry.is_partition = row.BoolOr(5, false);
    existing[mapping_id].push_back(std::move(entry));
  }
  for (const auto& [mapping_id, stored] : existing) {
    if (stored.size() != entries.size()) continue;
    bool same = true;
    for (size_t i = 0; same && i < entries.size(); ++i) same = SameEntry(stored[i], entries[i]);
    if (same) return mapping_id;
  }
  const int64_t mapping_id = a->next_file_id++;
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "INSERT INTO ducklake_column_mapping VALUES (?1, ?2, 'map_by_name')",
                          {CatalogDatum::Integer(mapping_id), CatalogDatum::Integer(table_id)}));
  for (const NameMappingEntry& entry : entries) {
    TARN_RETURN_NOT_OK(Exec(
        a->store, "INSERT INTO ducklake_name_mapping VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        {CatalogDatum::Integer(mapping_id), CatalogDatum::Integer(entry.column_id),
         CatalogDatum::Text(entry.source_name), CatalogDatum::Integer(entry.target_field_id),
         OptInteger(entry.parent_column), CatalogDatum::Boolean(entry.is_partition)}));
  }
  return mapping_id;
}

Status AddDataFile(CommitAttempt* a, const NewDataFile& f) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(f.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(table_id));
  TARN_ASSIGN_OR_RETURN(TableStatsAccum * accum, StatsFor(a, table_id));
  if (f.record_count < 0 || f.file_size_bytes < 0) {
    return Status::InvalidArgument("data file ", f.path, ": negative record_count or size");
  }
  if (f.partition_id.has_value() != !f.partition_values.empty()) {
    return Status::InvalidArgument("data file ", f.path,
                                   ": partition_id and partition values go together");
  }
  std::optional<int64_t> partition_id;
  if (f.partition_id.has_value()) {
    TARN_ASSIGN_OR_RETURN(partition_id, a->Resolve(*f.partition_id, "partition"));
  }
  std::optional<int64_t> mapping_id;
  if (!f.name_mapping.empty()) {
    TARN_ASSIGN_OR_RETURN(mapping_id, ResolveNameMapping(a, table_id, f.name_mapping));
  }
  const int64_t id = a->next_file_id++;
  if (f.provisional_id < 0) a->id_mapping[f.provisional_id] = id;
  const int64_t row_id_start = accum->next_row_id;
  accum->next_row_id += f.record_count;
  if (f.counts_toward_record_count) accum->added_records += f.record_count;
  accum->added_bytes += f.file_size_bytes;
  accum->has_data_files = true;
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, end_snapshot, "
      "file_order, path, path_is_relative, file_format, record_count, file_size_bytes, "
      "footer_size, row_id_start, partition_id, encryption_key, mapping_id, partial_max) VALUES "
      "(?1, ?2, ?3, NULL, NULL, ?4, ?5, 'parquet', ?6, ?7, ?8, ?9, ?10, NULL, ?11, NULL)",
      {CatalogDatum::Integer(id), CatalogDatum::Integer(table_id),
       CatalogDatum::Integer(a->snapshot_id), CatalogDatum::Text(f.path),
       CatalogDatum::Boolean(f.path_is_relative), CatalogDatum::Integer(f.record_count),
       CatalogDatum::Integer(f.file_size_bytes), CatalogDatum::Integer(f.footer_size),
       CatalogDatum::Integer(row_id_start), OptInteger(partition_id), OptInteger(mapping_id)}));
  for (const NewFileColumnStats& s : f.column_stats) {
    TARN_ASSIGN_OR_RETURN(const ColumnInfo* column, ColumnOf(*table, s.column_id));
    const std::string what = StrCat("data file ", f.path, " column ", column->name);
    TARN_ASSIGN_OR_RETURN(CatalogDatum min, StatsText(s.min, what));
    TARN_ASSIGN_OR_RETURN(CatalogDatum max, StatsText(s.max, what));
    TARN_RETURN_NOT_OK(InsertFileColumnStats(a, id, table_id, s, min, max));
    Status folded = AccumulateColumnStats(&accum->columns[s.column_id], column->type, s.min, s.max,
                                          s.null_count > 0, s.contains_nan);
    ColumnStatsAccum& column_accum = accum->columns[s.column_id];
    MergeExtraStats(column->type, column_accum.extra_seen, &column_accum.extra_stats,
                    s.extra_stats);
    column_accum.extra_seen = true;
    TARN_RETURN_NOT_OK(folded.WithContext(what));
  }
  TARN_RETURN_NOT_OK(FoldMissingColumns(accum, *table, f));
  for (size_t k = 0; k < f.partition_values.size(); ++k) {
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "INSERT INTO ducklake_file_partition_value VALUES (?1, ?2, ?3, ?4)",
                            {CatalogDatum::Integer(id), CatalogDatum::Integer(table_id),
                             CatalogDatum::Integer(static_cast<int64_t>(k)),
                             OptText(f.partition_values[k])}));
  }
  a->tokens.inserted.insert(table_id);
  return Status::OK();
}

// The inlined-data table rows of `table` go to: the registered one with the highest schema
// version when its columns are the table's, else a new one (which bumps schema_version).
Result<std::string> InlinedTarget(CommitAttempt* a, const TableState& table) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(a->store,
               "SELECT table_name, schema_version FROM ducklake_inlined_data_tables WHERE "
               "table_id = ?1 ORDER BY schema_version DESC LIMIT 1",
               {CatalogDatum::Integer(table.table_id)}, {T::kVarchar, T::kBigint},
               "ducklake_inlined_data_tables"));
  if (!result.rows.empty()) {
    RowReader row(*a->store, result, 0, "ducklake_inlined_data_tables", {0});
    TARN_ASSIGN_OR_RETURN(std::string name, row.Text(0));
    TARN_ASSIGN_OR_RETURN(std::vector<std::string> stored, a->store->TableColumns(name));
    bool same = stored.size() == table.columns.size() + 3;
    for (size_t i = 0; same && i < table.columns.size(); ++i) {
      same = stored[i + 3] == table.columns[i].name;
    }
    if (same) return name;
  }
  a->schema_version++;
  return CreateInlinedDataTable(a, table.table_id, a->schema_version, table.columns);
}

Status AddInlinedRows(CommitAttempt* a, const InlinedInsert& insert) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(insert.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(table_id));
  if (insert.rows == nullptr) return Status::InvalidArgument("inlined insert without rows");
  const Batch& batch = *insert.rows;
  if (batch.num_columns() != static_cast<int>(table->columns.size())) {
    return Status::InvalidArgument("inlined insert into ", table->schema_name, ".", table->name,
                                   " has ", batch.num_columns(), " columns, the table ",
                                   table->columns.size());
  }
  if (!CanInlineColumns(table->columns)) {
    return Status::NotSupported("table ", table->schema_name, ".", table->name,
                                " cannot hold inlined rows (column names or types)");
  }
  if (insert.row_ids.has_value() &&
      static_cast<int64_t>(insert.row_ids->size()) != batch.num_rows) {
    return Status::InvalidArgument("inlined insert: ", insert.row_ids->size(), " row ids for ",
                                   batch.num_rows, " rows");
  }
  TARN_ASSIGN_OR_RETURN(TableStatsAccum * accum, StatsFor(a, table_id));
  TARN_ASSIGN_OR_RETURN(std::string target, InlinedTarget(a, *table));
  std::string sql = StrCat("INSERT INTO ", QuoteName(target),
                           " (\"row_id\", \"begin_snapshot\", \"end_snapshot\"");
  std::string placeholders = "?1, ?2, NULL";
  for (size_t c = 0; c < table->columns.size(); ++c) {
    sql += ", " + QuoteName(table->columns[c].name);
    placeholders += StrCat(", ?", c + 3);
  }
  sql += ") VALUES (" + placeholders + ")";
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    int64_t row_id = 0;
    if (insert.row_ids.has_value()) {
      row_id = (*insert.row_ids)[static_cast<size_t>(r)];
      if (row_id < 0) return Status::InvalidArgument("inlined insert: negative row id ", row_id);
    } else {
      row_id = accum->next_row_id++;
    }
    std::vector<CatalogDatum> params = {CatalogDatum::Integer(row_id),
                                        CatalogDatum::Integer(a->snapshot_id)};
    for (int c = 0; c < batch.num_columns(); ++c) {
      const Column& column = batch.column(c);
      if (column.type.id != table->columns[static_cast<size_t>(c)].type.id) {
        return Status::InvalidArgument("inlined insert column ", c, " is ",
                                       column.type.ToString(), ", the table's column ",
                                       table->columns[static_cast<size_t>(c)].name, " is ",
                                       table->columns[static_cast<size_t>(c)].type.ToString());
      }
      TARN_ASSIGN_OR_RETURN(CatalogDatum datum, InlinedDatum(column, r, a->store->backend()));
      params.push_back(std::move(datum));
    }
    TARN_RETURN_NOT_OK(Exec(a->store, sql, std::move(params)));
  }
  if (insert.row_ids.has_value()) {
    for (int64_t row_id : *insert.row_ids) {
      accum->next_row_id = std::max(accum->next_row_id, row_id + 1);
    }
  }
  // Statistics of the inserted values, per leaf column (a list's elements, a struct's fields,
  // a map's keys and values), as the extension gathers them for inlined rows.
  std::map<int64_t, InlinedLeafStats> leaves;
  for (int c = 0; c < batch.num_columns(); ++c) {
    const Column& column = batch.column(c);
    const ColumnInfo& info = table->columns[static_cast<size_t>(c)];
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      GatherInlinedStats(info, column.IsNull(r) ? Value::Null(info.type) : column.GetValue(r),
                         &leaves);
    }
  }
  for (const auto& [column_id, leaf] : leaves) {
    const ColumnInfo* info = FindInTree(table->columns, column_id);
    if (info == nullptr) continue;
    Status folded = AccumulateColumnStats(&accum->columns[column_id], info->type, leaf.min,
                                          leaf.max, leaf.has_null, leaf.nan);
    TARN_RETURN_NOT_OK(folded.WithContext(StrCat("inlined column ", info->name)));
  }
  accum->added_records += batch.num_rows;
  accum->has_inlined = true;
  a->tokens.inlined_inserted.insert(table_id);
  return Status::OK();
}

Status AddDeleteFile(CommitAttempt* a, const NewDeleteFile& d) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(d.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(int64_t data_file_id, a->Resolve(d.data_file_id, "data file"));
  const int64_t id = a->next_file_id++;
  if (d.replaces_delete_file_id.has_value()) {
    TARN_ASSIGN_OR_RETURN(
        int64_t changed,
        Exec(a->store,
             "UPDATE ducklake_delete_file SET end_snapshot = ?1 WHERE delete_file_id = ?2 AND "
             "data_file_id = ?3 AND end_snapshot IS NULL",
             {CatalogDatum::Integer(a->snapshot_id),
              CatalogDatum::Integer(*d.replaces_delete_file_id),
              CatalogDatum::Integer(data_file_id)}));
    if (changed == 0) {
      return LogicalConflict("delete file ", *d.replaces_delete_file_id, " of data file ",
                             data_file_id, " is no longer the visible one");
    }
  }
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_delete_file (delete_file_id, table_id, begin_snapshot, end_snapshot, "
      "data_file_id, path, path_is_relative, format, delete_count, file_size_bytes, "
      "footer_size, encryption_key, partial_max) VALUES "
      "(?1, ?2, ?3, NULL, ?4, ?5, TRUE, ?9, ?6, ?7, ?8, NULL, NULL)",
      {CatalogDatum::Integer(id), CatalogDatum::Integer(table_id),
       CatalogDatum::Integer(a->snapshot_id), CatalogDatum::Integer(data_file_id),
       CatalogDatum::Text(d.path), CatalogDatum::Integer(d.delete_count),
       CatalogDatum::Integer(d.file_size_bytes), CatalogDatum::Integer(d.footer_size),
       CatalogDatum::Text(DeleteFileFormatName(d.format))}));
  a->tokens.deleted.insert(table_id);
  if (d.data_file_id >= 0) a->file_deletes.data_files_by_table[table_id].insert(data_file_id);
  return Status::OK();
}

Status AddInlinedFileDeletes(CommitAttempt* a, const InlinedFileDeletes& d) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(d.table_id, "table"));
  const std::string name = QuoteName(StrCat("ducklake_inlined_delete_", table_id));
  TARN_RETURN_NOT_OK(Exec(a->store,
                          StrCat("CREATE TABLE IF NOT EXISTS ", name,
                                 " (\"file_id\" BIGINT, \"row_id\" BIGINT, "
                                 "\"begin_snapshot\" BIGINT)"),
                          {}));
  const std::string sql = StrCat("INSERT INTO ", name, " VALUES (?1, ?2, ?3)");
  for (int64_t position : d.positions) {
    TARN_RETURN_NOT_OK(Exec(a->store, sql,
                            {CatalogDatum::Integer(d.data_file_id), CatalogDatum::Integer(position),
                             CatalogDatum::Integer(a->snapshot_id)}));
  }
  a->tokens.inlined_deleted.insert(table_id);
  a->file_deletes.data_files_by_table[table_id].insert(d.data_file_id);
  return Status::OK();
}

Status EndFile(CommitAttempt* a, const EndDataFile& e) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(e.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(int64_t changed,
                        Exec(a->store,
                             "UPDATE ducklake_data_file SET end_snapshot = ?1 WHERE "
                             "data_file_id = ?2 AND table_id = ?3 AND end_snapshot IS NULL",
                             {CatalogDatum::Integer(a->snapshot_id),
                              CatalogDatum::Integer(e.data_file_id),
                              CatalogDatum::Integer(table_id)}));
  if (changed == 0) {
    return LogicalConflict("data file ", e.data_file_id, " of table_id ", table_id,
                           " is no longer visible");
  }
  a->tokens.deleted.insert(table_id);
  a->file_deletes.data_files_by_table[table_id].insert(e.data_file_id);
  return Status::OK();
}

Status DeleteInlinedRows(CommitAttempt* a, const InlinedRowDeletes& d) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(d.table_id, "table"));
  TARN_ASSIGN_OR_RETURN(
      CatalogResult tables,
      RunQuery(a->store,
               "SELECT table_name FROM ducklake_inlined_data_tables WHERE table_id = ?1",
               {CatalogDatum::Integer(table_id)}, {T::kVarchar}, "ducklake_inlined_data_tables"));
  int64_t ended = 0;
  for (size_t i = 0; i < tables.rows.size(); ++i) {
    RowReader row(*a->store, tables, i, "ducklake_inlined_data_tables", {0});
    TARN_ASSIGN_OR_RETURN(std::string name, row.Text(0));
    TARN_ASSIGN_OR_RETURN(bool exists, a->store->TableExists(name));
    if (!exists) continue;
    // Rows this commit inserted (an UPDATE re-inserts the row id it deletes) stay.
    const std::string sql = StrCat("UPDATE ", QuoteName(name),
                                   " SET end_snapshot = ?1 WHERE row_id = ?2 AND "
                                   "end_snapshot IS NULL AND begin_snapshot < ?1");
    for (int64_t row_id : d.row_ids) {
      TARN_ASSIGN_OR_RETURN(int64_t n, Exec(a->store, sql,
                                            {CatalogDatum::Integer(a->snapshot_id),
                                             CatalogDatum::Integer(row_id)}));
      ended += n;
    }
  }
  if (ended < static_cast<int64_t>(d.row_ids.size())) {
    return LogicalConflict("deleting ", d.row_ids.size(), " inlined rows of table_id ", table_id,
                           ": only ", ended, " are still visible");
  }
  a->tokens.inlined_deleted.insert(table_id);
  return Status::OK();
}

}  // namespace

Status WriteDataChanges(CommitAttempt* a) {
  const auto& changes = a->changes->changes();
  for (const LakeChange& change : changes) {
    if (const auto* f = std::get_if<NewDataFile>(&change)) TARN_RETURN_NOT_OK(AddDataFile(a, *f));
  }
  for (const LakeChange& change : changes) {
    if (const auto* i = std::get_if<InlinedInsert>(&change)) {
      TARN_RETURN_NOT_OK(AddInlinedRows(a, *i));
    }
  }
  // A table that got only inlined rows still moves next_file_id, as a change signal.
  for (const auto& [table_id, accum] : a->stats) {
    if (accum.has_inlined && !accum.has_data_files) a->next_file_id++;
  }
  for (const LakeChange& change : changes) {
    Status status;
    if (const auto* d = std::get_if<NewDeleteFile>(&change)) {
      status = AddDeleteFile(a, *d);
    } else if (const auto* fd = std::get_if<InlinedFileDeletes>(&change)) {
      status = AddInlinedFileDeletes(a, *fd);
    } else if (const auto* e = std::get_if<EndDataFile>(&change)) {
      status = EndFile(a, *e);
    } else if (const auto* rd = std::get_if<InlinedRowDeletes>(&change)) {
      status = DeleteInlinedRows(a, *rd);
    }
    TARN_RETURN_NOT_OK(status);
  }
  return Status::OK();
}

}  // namespace tarn::catalog_internal
