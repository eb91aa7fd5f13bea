// Lookups on the immutable metadata model, and the catalog's name matching (names.h).
#include <algorithm>
#include <cctype>

#include "catalog/column_tree.h"
#include "catalog/names.h"
#include "tarn/catalog.h"

namespace tarn {

namespace catalog_internal {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    const char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

}  // namespace catalog_internal

namespace {

using catalog_internal::NameEquals;

}  // namespace

Field ColumnInfo::ToField() const {
  // Column ids are int64 in the catalog and int32 field ids in Parquet; the extension assigns
  // small ids, and a larger one cannot be matched against a file anyway.
  std::optional<int32_t> id;
  if (column_id >= 0 && column_id <= INT32_MAX) id = static_cast<int32_t>(column_id);
  return Field(name, type, nulls_allowed, id);
}

const ColumnInfo* TableInfo::FindColumn(int64_t column_id) const {
  return catalog_internal::FindInTree(columns, column_id);
}

const SchemaInfo* LakeSnapshot::FindSchema(std::string_view name) const {
  for (const SchemaInfo& schema : schemas_) {
    if (NameEquals(schema.name, name)) return &schema;
  }
  return nullptr;
}

std::shared_ptr<const TableInfo> LakeSnapshot::FindTable(std::string_view schema,
                                                         std::string_view name) const {
  for (const auto& table : tables_) {
    if (NameEquals(table->schema_name, schema) && NameEquals(table->name, name)) return table;
  }
  return nullptr;
}

std::shared_ptr<const TableInfo> LakeSnapshot::FindTableById(int64_t table_id) const {
  for (const auto& table : tables_) {
    if (table->table_id == table_id) return table;
  }
  return nullptr;
}

const ViewInfo* LakeSnapshot::FindView(std::string_view schema, std::string_view name) const {
  for (const ViewInfo& view : views_) {
    if (NameEquals(view.schema_name, schema) && NameEquals(view.name, name)) return &view;
  }
  return nullptr;
}

const MacroInfo* LakeSnapshot::FindMacro(std::string_view schema, std::string_view name) const {
  for (const MacroInfo& macro : macros_) {
    if (NameEquals(macro.schema_name, schema) && NameEquals(macro.name, name)) return &macro;
  }
  return nullptr;
}

const FileColumnStats* DataFileInfo::FindStats(int64_t column_id) const {
  auto it = std::lower_bound(
      column_stats.begin(), column_stats.end(), column_id,
      [](const FileColumnStats& stats, int64_t id) { return stats.column_id < id; });
  if (it == column_stats.end() || it->column_id != column_id) return nullptr;
  return &*it;
}

int64_t TableMetadata::FileRowCount() const {
  int64_t rows = 0;
  for (const DataFileInfo& file : data_files) {
    rows += file.record_count;
    if (file.delete_file.has_value()) rows -= file.delete_file->delete_count;
    for (const DeleteFileInfo& other : file.other_delete_files) rows -= other.delete_count;
    rows -= static_cast<int64_t>(file.inlined_deletes.size());
  }
  return rows;
}

}  // namespace tarn
