// Lake::LoadTable: one table's files, delete files, statistics, partition values, name
// mappings and inlined deletions as of a snapshot.
#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string_view>

#include "catalog/loader.h"
#include "catalog/row_reader.h"
#include "catalog/value_text.h"

namespace tarn {

using catalog_internal::RowReader;
using catalog_internal::RunQuery;
using catalog_internal::StoreName;

namespace {

using T = CatalogType;

// ?1 = snapshot, ?2 = table_id.
constexpr std::string_view kVisibleFiles =
    "SELECT data_file_id FROM ducklake_data_file WHERE table_id = ?2 AND begin_snapshot <= ?1 "
    "AND (end_snapshot IS NULL OR end_snapshot > ?1)";

// Decodes a statistics bound; unknown (NULL) when absent or undecodable: pruning then keeps
// the file, which is always safe.
Value DecodeBound(const std::optional<std::string>& text, const ColumnInfo* column) {
  if (!text.has_value() || column == nullptr) return Value();
  Result<Value> value = DecodeStatsValue(*text, column->type);
  if (!value.ok()) return Value::Null(column->type);
  return std::move(value).value();
}

Status LoadTableStats(CatalogStore* store, const TableInfo& table, TableMetadata* out) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT table_id, record_count, next_row_id, file_size_bytes "
               "FROM ducklake_table_stats WHERE table_id = ?1",
               {CatalogDatum::Integer(table.table_id)},
               {T::kBigint, T::kBigint, T::kBigint, T::kBigint}, "ducklake_table_stats"));
  if (result.rows.size() > 1) {
    return Status::Corruption(StoreName(*store), ": ducklake_table_stats has ",
                              result.rows.size(), " rows for table_id ", table.table_id);
  }
  if (result.rows.size() == 1) {
    RowReader row(*store, result, 0, "ducklake_table_stats", {0});
    TableStats stats;
    TARN_ASSIGN_OR_RETURN(stats.record_count, row.Int(1));
    TARN_ASSIGN_OR_RETURN(stats.next_row_id, row.Int(2));
    stats.file_size_bytes = row.OptInt(3).value_or(0);
    if (stats.record_count < 0 || stats.next_row_id < 0 || stats.file_size_bytes < 0) {
      return row.Error("negative record_count, next_row_id or file_size_bytes (",
                       stats.record_count, ", ", stats.next_row_id, ", ", stats.file_size_bytes,
                       ")");
    }
    out->stats = stats;
  }
  TARN_ASSIGN_OR_RETURN(
      CatalogResult columns,
      RunQuery(store,
               "SELECT column_id, contains_null, contains_nan, min_value, max_value, extra_stats "
               "FROM ducklake_table_column_stats WHERE table_id = ?1",
               {CatalogDatum::Integer(table.table_id)},
               {T::kBigint, T::kBoolean, T::kBoolean, T::kVarchar, T::kVarchar, T::kVarchar},
               "ducklake_table_column_stats"));
  for (size_t i = 0; i < columns.rows.size(); ++i) {
    RowReader row(*store, columns, i, "ducklake_table_column_stats", {0});
    TableColumnStats stats;
    TARN_ASSIGN_OR_RETURN(stats.column_id, row.Int(0));
    stats.contains_null = row.OptBool(1);
    stats.contains_nan = row.OptBool(2);
    stats.min_text = row.OptText(3);
    stats.max_text = row.OptText(4);
    stats.extra_stats = row.OptText(5);
    const ColumnInfo* column = table.FindColumn(stats.column_id);
    stats.min = DecodeBound(stats.min_text, column);
    stats.max = DecodeBound(stats.max_text, column);
    out->column_stats.push_back(std::move(stats));
  }
  std::sort(out->column_stats.begin(), out->column_stats.end(),
            [](const TableColumnStats& a, const TableColumnStats& b) {
              return a.column_id < b.column_id;
            });
  return Status::OK();
}

// A file id (data or delete file) is allocated from next_file_id, which starts at 0: it is
// never negative.
Status CheckFileId(const RowReader& row, std::string_view column, int64_t id) {
  if (id < 0) return row.Error(column, " is negative (", id, ")");
  return Status::OK();
}

Status LoadDataFiles(CatalogStore* store, const TableInfo& table, int64_t snapshot,
                     TableMetadata* out) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT data_file_id, begin_snapshot, end_snapshot, path, path_is_relative, "
               "file_format, record_count, file_size_bytes, footer_size, row_id_start, "
               "partition_id, encryption_key, mapping_id, partial_max FROM ducklake_data_file "
               "WHERE table_id = ?2 AND begin_snapshot <= ?1 AND "
               "(end_snapshot IS NULL OR end_snapshot > ?1)",
               {CatalogDatum::Integer(snapshot), CatalogDatum::Integer(table.table_id)},
               {T::kBigint, T::kBigint, T::kBigint, T::kVarchar, T::kBoolean, T::kVarchar,
                T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kVarchar,
                T::kBigint, T::kBigint},
               "ducklake_data_file"));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_data_file", {0});
    DataFileInfo file;
    TARN_ASSIGN_OR_RETURN(file.data_file_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(file.begin_snapshot, row.Int(1));
    file.end_snapshot = row.OptInt(2);
    TARN_ASSIGN_OR_RETURN(file.relative_path, row.Text(3));
    file.path_is_relative = row.BoolOr(4, true);
    file.path = catalog_internal::ResolveCatalogPath(table.path, file.relative_path,
                                                     file.path_is_relative, false);
    file.file_format = row.OptText(5).value_or("parquet");
    if (file.file_format != "parquet") {
      return row.Error("file_format '", file.file_format, "' is not supported (only parquet)");
    }
    TARN_ASSIGN_OR_RETURN(file.record_count, row.Int(6));
    TARN_ASSIGN_OR_RETURN(file.file_size_bytes, row.Int(7));
    file.footer_size = row.OptInt(8).value_or(0);
    file.row_id_start = row.OptInt(9);
    file.partition_id = row.OptInt(10);
    file.encryption_key = row.OptText(11);
    file.mapping_id = row.OptInt(12);
    file.partial_max = row.OptInt(13);
    if (file.record_count < 0 || file.file_size_bytes < 0 || file.footer_size < 0 ||
        (file.row_id_start.has_value() && *file.row_id_start < 0)) {
      return row.Error("negative record_count, file_size_bytes, footer_size or row_id_start");
    }
    TARN_RETURN_NOT_OK(CheckFileId(row, "data_file_id", file.data_file_id));
    if (file.row_id_start.has_value() &&
        *file.row_id_start > std::numeric_limits<int64_t>::max() - file.record_count) {
      return row.Error("row_id_start ", *file.row_id_start, " + record_count ",
                       file.record_count, " overflows a BIGINT row id");
    }
    if (file.partial_max.has_value() && *file.partial_max < file.begin_snapshot) {
      return row.Error("partial_max ", *file.partial_max, " is before begin_snapshot ",
                       file.begin_snapshot);
    }
    if ((file.partition_id.has_value() && *file.partition_id < 0) ||
        (file.mapping_id.has_value() && *file.mapping_id < 0)) {
      return row.Error("negative partition_id or mapping_id");
    }
    out->data_files.push_back(std::move(file));
  }
  std::sort(out->data_files.begin(), out->data_files.end(),
            [](const DataFileInfo& a, const DataFileInfo& b) {
              return a.data_file_id < b.data_file_id;
            });
  for (size_t i = 1; i < out->data_files.size(); ++i) {
    if (out->data_files[i].data_file_id == out->data_files[i - 1].data_file_id) {
      return Status::Corruption(StoreName(*store), ": ducklake_data_file has two visible rows ",
                                "with data_file_id ", out->data_files[i].data_file_id);
    }
  }
  return Status::OK();
}

DataFileInfo* FindFile(TableMetadata* out, int64_t data_file_id) {
  auto it = std::lower_bound(
      out->data_files.begin(), out->data_files.end(), data_file_id,
      [](const DataFileInfo& file, int64_t id) { return file.data_file_id < id; });
  if (it == out->data_files.end() || it->data_file_id != data_file_id) return nullptr;
  return &*it;
}

// Deletions (a visible delete file, inlined file deletions) whose data file is not visible
// are normal once the data file was deleted whole. But the data file must exist, in the same
// table, and must not begin after the deletion: otherwise deleted rows would silently return.
// `deletes` holds the rows: column `id_column` names the data file, column 2 is
// begin_snapshot; `unattached` maps each such data file id to a row of `deletes` naming it.
// When `missing_ok`, a data file id that names no row is taken as a file whose row expiring
// snapshots removed (inlined file deletions are not removed with it).
Status CheckUnattachedDeletes(CatalogStore* store, const TableInfo& table,
                              const CatalogResult& deletes, std::string_view what,
                              size_t id_column, bool missing_ok,
                              const std::map<int64_t, size_t>& unattached) {
  if (unattached.empty()) return Status::OK();
  std::string ids;
  std::vector<CatalogDatum> params;
  for (const auto& [data_file_id, row_index] : unattached) {
    params.push_back(CatalogDatum::Integer(data_file_id));
    ids += StrCat(ids.empty() ? "?" : ", ?", params.size());
  }
  TARN_ASSIGN_OR_RETURN(
      CatalogResult files,
      RunQuery(store,
               StrCat("SELECT data_file_id, table_id, begin_snapshot FROM ducklake_data_file "
                      "WHERE data_file_id IN (", ids, ")"),
               std::move(params), {T::kBigint, T::kBigint, T::kBigint}, "ducklake_data_file"));
  std::map<int64_t, std::pair<int64_t, int64_t>> found;  // id -> (table_id, begin_snapshot)
  for (size_t i = 0; i < files.rows.size(); ++i) {
    RowReader row(*store, files, i, "ducklake_data_file", {0});
    TARN_ASSIGN_OR_RETURN(int64_t data_file_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(int64_t table_id, row.Int(1));
    TARN_ASSIGN_OR_RETURN(int64_t begin, row.Int(2));
    auto [it, inserted] = found.emplace(data_file_id, std::make_pair(table_id, begin));
    if (!inserted && table_id == table.table_id) it->second = {table_id, begin};
  }
  const std::string& column = deletes.column_names[id_column];
  for (const auto& [data_file_id, row_index] : unattached) {
    RowReader row = id_column == 0 ? RowReader(*store, deletes, row_index, what, {0, 1})
                                   : RowReader(*store, deletes, row_index, what, {0});
    auto it = found.find(data_file_id);
    if (it == found.end()) {
      if (missing_ok) continue;
      return row.Error(column, " ", data_file_id, " names no row of ducklake_data_file");
    }
    if (it->second.first != table.table_id) {
      return row.Error(column, " ", data_file_id, " is a data file of table_id ",
                       it->second.first, ", not of table_id ", table.table_id);
    }
    TARN_ASSIGN_OR_RETURN(int64_t delete_begin, row.Int(2));
    if (it->second.second > delete_begin) {
      return row.Error(column, " ", data_file_id, " begins at snapshot ", it->second.second,
                       ", after its deletion (begin_snapshot ", delete_begin, ")");
    }
  }
  return Status::OK();
}

Status LoadDeleteFiles(CatalogStore* store, const TableInfo& table, int64_t snapshot,
                       TableMetadata* out) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT delete_file_id, data_file_id, begin_snapshot, end_snapshot, path, "
               "path_is_relative, format, delete_count, file_size_bytes, footer_size, "
               "encryption_key, partial_max FROM ducklake_delete_file WHERE table_id = ?2 AND "
               "begin_snapshot <= ?1 AND (end_snapshot IS NULL OR end_snapshot > ?1)",
               {CatalogDatum::Integer(snapshot), CatalogDatum::Integer(table.table_id)},
               {T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kVarchar, T::kBoolean,
                T::kVarchar, T::kBigint, T::kBigint, T::kBigint, T::kVarchar, T::kBigint},
               "ducklake_delete_file"));
  // Delete rows whose data file is not visible here, by data_file_id: checked below.
  std::map<int64_t, size_t> unattached;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_delete_file", {0});
    DeleteFileInfo del;
    TARN_ASSIGN_OR_RETURN(del.delete_file_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(del.data_file_id, row.Int(1));
    TARN_ASSIGN_OR_RETURN(del.begin_snapshot, row.Int(2));
    del.end_snapshot = row.OptInt(3);
    TARN_ASSIGN_OR_RETURN(std::string path, row.Text(4));
    del.path = catalog_internal::ResolveCatalogPath(table.path, path, row.BoolOr(5, true), false);
    del.format_text = row.OptText(6).value_or("parquet");
    if (del.format_text == "parquet") {
      del.format = DeleteFileFormat::kParquet;
    } else if (del.format_text == "puffin") {
      del.format = DeleteFileFormat::kPuffin;
    } else {
      return row.Error("delete file format '", del.format_text,
                       "' is not known (expected parquet or puffin)");
    }
    TARN_ASSIGN_OR_RETURN(del.delete_count, row.Int(7));
    TARN_ASSIGN_OR_RETURN(del.file_size_bytes, row.Int(8));
    del.footer_size = row.OptInt(9).value_or(0);
    del.encryption_key = row.OptText(10);
    del.partial_max = row.OptInt(11);
    if (del.delete_count < 0 || del.file_size_bytes < 0 || del.footer_size < 0) {
      return row.Error("negative delete_count, file_size_bytes or footer_size");
    }
    TARN_RETURN_NOT_OK(CheckFileId(row, "delete_file_id", del.delete_file_id));
    if (del.partial_max.has_value() && *del.partial_max < del.begin_snapshot) {
      return row.Error("partial_max ", *del.partial_max, " is before begin_snapshot ",
                       del.begin_snapshot);
    }
    DataFileInfo* file = FindFile(out, del.data_file_id);
    if (file == nullptr) {
      unattached.emplace(del.data_file_id, i);
      continue;
    }
    if (file->begin_snapshot > del.begin_snapshot) {
      return row.Error("data_file_id ", del.data_file_id, " begins at snapshot ",
                       file->begin_snapshot, ", after its deletion (begin_snapshot ",
                       del.begin_snapshot, ")");
    }
    if (del.delete_count > file->record_count) {
      return row.Error("delete_count ", del.delete_count, " exceeds the ", file->record_count,
                       " rows of data file ", del.data_file_id);
    }
    if (file->delete_file.has_value()) {
      // Several visible delete files (as the extension writes a later deletion of a file):
      // their positions add up; the latest is the one a new delete file replaces.
      if (std::make_pair(del.begin_snapshot, del.delete_file_id) <
          std::make_pair(file->delete_file->begin_snapshot, file->delete_file->delete_file_id)) {
        file->other_delete_files.push_back(std::move(del));
        continue;
      }
      file->other_delete_files.push_back(std::move(*file->delete_file));
    }
    file->delete_file = std::move(del);
  }
  return CheckUnattachedDeletes(store, table, result, "ducklake_delete_file", 1,
                                /*missing_ok=*/false, unattached);
}

Status LoadFileColumnStats(CatalogStore* store, const TableInfo& table, int64_t snapshot,
                           TableMetadata* out) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               StrCat("SELECT data_file_id, column_id, column_size_bytes, value_count, "
                      "null_count, min_value, max_value, contains_nan, extra_stats "
                      "FROM ducklake_file_column_stats WHERE table_id = ?2 AND data_file_id IN (",
                      kVisibleFiles, ")"),
               {CatalogDatum::Integer(snapshot), CatalogDatum::Integer(table.table_id)},
               {T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kVarchar,
                T::kVarchar, T::kBoolean, T::kVarchar},
               "ducklake_file_column_stats"));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_file_column_stats", {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t data_file_id, row.Int(0));
    DataFileInfo* file = FindFile(out, data_file_id);
    if (file == nullptr) continue;
    FileColumnStats stats;
    TARN_ASSIGN_OR_RETURN(stats.column_id, row.Int(1));
    stats.column_size_bytes = row.OptInt(2);
    stats.value_count = row.OptInt(3);
    stats.null_count = row.OptInt(4);
    for (const std::optional<int64_t>& count :
         {stats.column_size_bytes, stats.value_count, stats.null_count}) {
      if (count.has_value() && *count < 0) {
        return row.Error("negative column_size_bytes, value_count or null_count");
      }
    }
    stats.min_text = row.OptText(5);
    stats.max_text = row.OptText(6);
    stats.contains_nan = row.OptBool(7);
    stats.extra_stats = row.OptText(8);
    const ColumnInfo* column = table.FindColumn(stats.column_id);
    stats.min = DecodeBound(stats.min_text, column);
    stats.max = DecodeBound(stats.max_text, column);
    file->column_stats.push_back(std::move(stats));
  }
  for (DataFileInfo& file : out->data_files) {
    std::sort(file.column_stats.begin(), file.column_stats.end(),
              [](const FileColumnStats& a, const FileColumnStats& b) {
                return a.column_id < b.column_id;
              });
    for (size_t k = 1; k < file.column_stats.size(); ++k) {
      if (file.column_stats[k].column_id == file.column_stats[k - 1].column_id) {
        return Status::Corruption(StoreName(*store), ": ducklake_file_column_stats has two rows ",
                                  "for data_file_id ", file.data_file_id, ", column_id ",
                                  file.column_stats[k].column_id);
      }
    }
  }
  return Status::OK();
}

Status LoadPartitionValues(CatalogStore* store, const TableInfo& table, int64_t snapshot,
                           TableMetadata* out) {
  bool any_partitioned = false;
  for (const DataFileInfo& file : out->data_files) any_partitioned |= file.partition_id.has_value();
  if (any_partitioned) {
    // Every spec of the table: a file may have been written under an older one.
    TARN_ASSIGN_OR_RETURN(
        CatalogResult specs,
        RunQuery(store,
                 "SELECT partition_id, partition_key_index, column_id, transform "
                 "FROM ducklake_partition_column WHERE table_id = ?1",
                 {CatalogDatum::Integer(table.table_id)},
                 {T::kBigint, T::kBigint, T::kBigint, T::kVarchar}, "ducklake_partition_column"));
    for (size_t i = 0; i < specs.rows.size(); ++i) {
      RowReader row(*store, specs, i, "ducklake_partition_column", {0, 1});
      PartitionField field;
      TARN_ASSIGN_OR_RETURN(int64_t partition_id, row.Int(0));
      TARN_ASSIGN_OR_RETURN(field.partition_key_index, row.Int(1));
      TARN_ASSIGN_OR_RETURN(field.column_id, row.Int(2));
      TARN_ASSIGN_OR_RETURN(std::string transform, row.Text(3));
      const ColumnInfo* column = table.FindColumn(field.column_id);
      // A column dropped since: its values stay undecoded (kNull type).
      Status parsed = catalog_internal::ParsePartitionTransform(
          transform, column != nullptr ? column->type : DataType(), &field);
      if (!parsed.ok()) return row.Error(parsed.message());
      PartitionSpec& spec = out->partition_specs[partition_id];
      spec.partition_id = partition_id;
      spec.fields.push_back(std::move(field));
    }
    for (auto& [id, spec] : out->partition_specs) {
      std::sort(spec.fields.begin(), spec.fields.end(),
                [](const PartitionField& a, const PartitionField& b) {
                  return a.partition_key_index < b.partition_key_index;
                });
    }
  }
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               StrCat("SELECT data_file_id, partition_key_index, partition_value "
                      "FROM ducklake_file_partition_value WHERE table_id = ?2 AND "
                      "data_file_id IN (",
                      kVisibleFiles, ")"),
               {CatalogDatum::Integer(snapshot), CatalogDatum::Integer(table.table_id)},
               {T::kBigint, T::kBigint, T::kVarchar}, "ducklake_file_partition_value"));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_file_partition_value", {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t data_file_id, row.Int(0));
    DataFileInfo* file = FindFile(out, data_file_id);
    if (file == nullptr) continue;
    FilePartitionValue value;
    TARN_ASSIGN_OR_RETURN(value.partition_key_index, row.Int(1));
    value.text = row.OptText(2);
    if (!file->partition_id.has_value()) {
      return row.Error("data file ", data_file_id, " has partition values but no partition_id");
    }
    auto spec_it = out->partition_specs.find(*file->partition_id);
    if (spec_it == out->partition_specs.end()) {
      return row.Error("partition_id ", *file->partition_id, " of data file ", data_file_id,
                       " has no ducklake_partition_column rows");
    }
    const PartitionSpec& spec = spec_it->second;
    const PartitionField* field = nullptr;
    for (const PartitionField& f : spec.fields) {
      if (f.partition_key_index == value.partition_key_index) field = &f;
    }
    if (field == nullptr) {
      return row.Error("partition_key_index ", value.partition_key_index,
                       " is not a key of partition ", spec.partition_id);
    }
    if (!value.text.has_value()) {
      value.value = Value::Null(field->result_type);
      value.value_known = true;
    } else if (field->result_type.id != TypeId::kNull) {
      Result<Value> decoded = DecodeStatsValue(*value.text, field->result_type);
      if (field->result_type.id == TypeId::kBlob || !decoded.ok()) {
        // Partition values are DuckDB's VARCHAR text: for blobs, and when the stats form fails.
        decoded = catalog_internal::DecodeLiteralValue(*value.text, field->result_type);
      }
      if (decoded.ok()) {
        value.value = std::move(decoded).value();
        value.value_known = true;
      } else {
        value.value = Value::Null(field->result_type);
      }
    }
    file->partition_values.push_back(std::move(value));
  }
  for (DataFileInfo& file : out->data_files) {
    std::sort(file.partition_values.begin(), file.partition_values.end(),
              [](const FilePartitionValue& a, const FilePartitionValue& b) {
                return a.partition_key_index < b.partition_key_index;
              });
  }
  return Status::OK();
}

Status LoadNameMappings(CatalogStore* store, const TableInfo& table, TableMetadata* out) {
  std::map<int64_t, bool> wanted;
  for (const DataFileInfo& file : out->data_files) {
    if (file.mapping_id.has_value()) wanted[*file.mapping_id] = false;
  }
  if (wanted.empty()) return Status::OK();
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               "SELECT m.mapping_id, m.type, n.column_id, n.source_name, n.target_field_id, "
               "n.parent_column, n.is_partition FROM ducklake_column_mapping m "
               "LEFT JOIN ducklake_name_mapping n ON n.mapping_id = m.mapping_id "
               "WHERE m.table_id = ?1",
               {CatalogDatum::Integer(table.table_id)},
               {T::kBigint, T::kVarchar, T::kBigint, T::kVarchar, T::kBigint, T::kBigint,
                T::kBoolean},
               "ducklake_column_mapping/ducklake_name_mapping"));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_name_mapping", {0, 2});
    TARN_ASSIGN_OR_RETURN(int64_t mapping_id, row.Int(0));
    auto wanted_it = wanted.find(mapping_id);
    if (wanted_it == wanted.end()) continue;
    wanted_it->second = true;
    NameMapping& mapping = out->name_mappings[mapping_id];
    mapping.mapping_id = mapping_id;
    mapping.type = row.OptText(1).value_or("map_by_name");
    if (mapping.type != "map_by_name") {
      return row.Error("column mapping type '", mapping.type, "' is not known (map_by_name)");
    }
    if (row.IsNull(2)) continue;
    NameMappingEntry entry;
    TARN_ASSIGN_OR_RETURN(entry.column_id, row.Int(2));
    TARN_ASSIGN_OR_RETURN(entry.source_name, row.Text(3));
    TARN_ASSIGN_OR_RETURN(entry.target_field_id, row.Int(4));
    entry.parent_column = row.OptInt(5);
    entry.is_partition = row.BoolOr(6, false);
    mapping.entries.push_back(std::move(entry));
  }
  for (const auto& [mapping_id, found] : wanted) {
    if (!found) {
      return Status::Corruption(StoreName(*store), ": data files of table ", table.table_id,
                                " use mapping_id ", mapping_id,
                                ", which has no ducklake_column_mapping row");
    }
  }
  for (auto& [id, mapping] : out->name_mappings) {
    std::sort(mapping.entries.begin(), mapping.entries.end(),
              [](const NameMappingEntry& a, const NameMappingEntry& b) {
                return a.column_id < b.column_id;
              });
    std::set<int64_t> entries;
    for (const NameMappingEntry& entry : mapping.entries) {
      if (!entries.insert(entry.column_id).second) {
        return Status::Corruption(StoreName(*store), ": ducklake_name_mapping of mapping_id ",
                                  id, " has entry column_id ", entry.column_id, " twice");
      }
    }
    for (const NameMappingEntry& entry : mapping.entries) {
      if (entry.parent_column.has_value() &&
          (*entry.parent_column == entry.column_id || entries.count(*entry.parent_column) == 0)) {
        return Status::Corruption(StoreName(*store), ": ducklake_name_mapping of mapping_id ",
                                  id, ", entry column_id ", entry.column_id,
                                  ": parent_column ", *entry.parent_column,
                                  " is not another entry of the mapping");
      }
    }
  }
  return Status::OK();
}

Status LoadInlinedDeletes(CatalogStore* store, const TableInfo& table, int64_t snapshot,
                          TableMetadata* out) {
  std::string name = StrCat("ducklake_inlined_delete_", table.table_id);
  TARN_ASSIGN_OR_RETURN(out->has_inlined_delete_table, store->TableExists(name));
  if (!out->has_inlined_delete_table) return Status::OK();
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store,
               StrCat("SELECT file_id, row_id, begin_snapshot FROM ", name,
                      " WHERE begin_snapshot <= ?1"),
               {CatalogDatum::Integer(snapshot)}, {T::kBigint, T::kBigint, T::kBigint}, name));
  std::map<int64_t, size_t> unattached;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, name, {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t file_id, row.Int(0));
    InlinedFileDelete del;
    TARN_ASSIGN_OR_RETURN(del.position, row.Int(1));
    TARN_ASSIGN_OR_RETURN(del.begin_snapshot, row.Int(2));
    DataFileInfo* file = FindFile(out, file_id);
    if (file == nullptr) {
      unattached.emplace(file_id, i);  // its data file is not visible here: checked below
      continue;
    }
    if (del.position < 0 || del.position >= file->record_count) {
      return row.Error("position ", del.position, " is outside data file ", file_id, " (",
                       file->record_count, " rows)");
    }
    file->inlined_deletes.push_back(del);
  }
  for (DataFileInfo& file : out->data_files) {
    auto& dels = file.inlined_deletes;
    std::sort(dels.begin(), dels.end(), [](const InlinedFileDelete& a, const InlinedFileDelete& b) {
      return a.position != b.position ? a.position < b.position
                                      : a.begin_snapshot < b.begin_snapshot;
    });
    // A position deleted twice counts once (the earliest deletion).
    dels.erase(std::unique(dels.begin(), dels.end(),
                           [](const InlinedFileDelete& a, const InlinedFileDelete& b) {
                             return a.position == b.position;
                           }),
               dels.end());
  }
  return CheckUnattachedDeletes(store, table, result, name, 0, /*missing_ok=*/true, unattached);
}

}  // namespace

Result<std::shared_ptr<const TableMetadata>> Lake::LoadTable(const LakeSnapshot& snapshot,
                                                             int64_t table_id) {
  std::shared_ptr<const TableInfo> table = snapshot.FindTableById(table_id);
  if (table == nullptr) {
    return Status::NotFound("table_id ", table_id, " is not in snapshot ", snapshot.snapshot_id());
  }
  std::lock_guard<std::mutex> lock(mu_);
  CatalogStore* store = store_.get();
  catalog_internal::ReadTransaction transaction(store);
  TARN_RETURN_NOT_OK(transaction.status());
  auto out = std::make_shared<TableMetadata>();
  out->snapshot_id = snapshot.snapshot_id();
  out->table = table;
  TARN_RETURN_NOT_OK(LoadTableStats(store, *table, out.get()));
  TARN_RETURN_NOT_OK(LoadDataFiles(store, *table, out->snapshot_id, out.get()));
  TARN_RETURN_NOT_OK(LoadDeleteFiles(store, *table, out->snapshot_id, out.get()));
  TARN_RETURN_NOT_OK(LoadFileColumnStats(store, *table, out->snapshot_id, out.get()));
  TARN_RETURN_NOT_OK(LoadPartitionValues(store, *table, out->snapshot_id, out.get()));
  TARN_RETURN_NOT_OK(LoadNameMappings(store, *table, out.get()));
  TARN_RETURN_NOT_OK(LoadInlinedDeletes(store, *table, out->snapshot_id, out.get()));
  return std::shared_ptr<const TableMetadata>(std::move(out));
}

}  // namespace tarn
