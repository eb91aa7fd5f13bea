#include "table/write_state.h"

#include <algorithm>
#include <cctype>

namespace tarn::table_internal {

namespace {

// Levenshtein distance, case-insensitive, for "did you mean" suggestions.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

const SchemaInfo* WriteState::FindSchema(std::string_view name) const {
  for (const SchemaInfo& schema : schemas) {
    if (NameEquals(schema.name, name)) return &schema;
  }
  return nullptr;
}

const SchemaInfo* WriteState::FindSchemaById(int64_t schema_id) const {
  for (const SchemaInfo& schema : schemas) {
    if (schema.schema_id == schema_id) return &schema;
  }
  return nullptr;
}

std::shared_ptr<const TableInfo> WriteState::FindTable(std::string_view schema,
                                                       std::string_view name) const {
  for (const auto& table : tables) {
    if (NameEquals(table->schema_name, schema) && NameEquals(table->name, name)) return table;
  }
  return nullptr;
}

std::shared_ptr<const TableInfo> WriteState::FindTableById(int64_t table_id) const {
  for (const auto& table : tables) {
    if (table->table_id == table_id) return table;
  }
  return nullptr;
}

const MacroInfo* WriteState::FindMacro(std::string_view schema, std::string_view name,
                                       bool is_table) const {
  for (const MacroInfo& macro : macros) {
    if (NameEquals(macro.schema_name, schema) && NameEquals(macro.name, name) &&
        macro.is_table() == is_table) {
      return &macro;
    }
  }
  return nullptr;
}

const ViewInfo* WriteState::FindView(std::string_view schema, std::string_view name) const {
  for (const ViewInfo& view : views) {
    if (NameEquals(view.schema_name, schema) && NameEquals(view.name, name)) return &view;
  }
  return nullptr;
}

Result<std::shared_ptr<const TableInfo>> WriteState::RequireTable(const std::string& schema,
                                                                  const std::string& table) const {
  if (auto found = FindTable(schema, table)) return found;
  if (FindSchema(schema) == nullptr) {
    return Status::NotFound("Binder Error: Schema with name \"", schema, "\" not found");
  }
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const auto& candidate : tables) {
    if (!NameEquals(candidate->schema_name, schema)) continue;
    const size_t distance = EditDistance(candidate->name, table);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate->name;
    }
  }
  if (!best.empty() && best_distance <= std::max<size_t>(2, table.size() / 3)) {
    return Status::NotFound("Catalog Error: Table with name ", table,
                            " does not exist!\nDid you mean \"", schema, ".", best, "\"?");
  }
  return Status::NotFound("Catalog Error: Table with name ", table, " does not exist!");
}

void WriteState::ReplaceTable(std::shared_ptr<const TableInfo> table) {
  for (auto& entry : tables) {
    if (entry->table_id == table->table_id) {
      entry = std::move(table);
      return;
    }
  }
  tables.push_back(std::move(table));
}

std::optional<std::string> WriteState::GetOption(std::string_view key, int64_t schema_id,
                                                 int64_t table_id) const {
  const MetadataEntry* best = nullptr;
  int best_rank = -1;
  auto consider = [&](const MetadataEntry& entry) {
    if (entry.key != key) return;
    int rank = -1;
    if (entry.scope == MetadataEntry::Scope::kGlobal) {
      rank = 0;
    } else if (entry.scope == MetadataEntry::Scope::kSchema) {
      if (entry.scope_id == schema_id) rank = 1;
    } else if (entry.scope_id == table_id) {
      rank = 2;
    }
    if (rank >= best_rank && rank >= 0) {  // later entries (pending ones) win ties
      best = &entry;
      best_rank = rank;
    }
  };
  for (const MetadataEntry& entry : lake->metadata()) consider(entry);
  for (const MetadataEntry& entry : pending_options) consider(entry);
  if (best == nullptr) return std::nullopt;
  return best->value;
}

Result<std::shared_ptr<const TableMetadata>> WriteState::BaseTable(const TableInfo& table) {
  auto found = base_tables.find(table.table_id);
  if (found != base_tables.end()) return found->second;
  std::shared_ptr<const TableMetadata> metadata;
  if (table.table_id >= 0 && start->FindTableById(table.table_id) != nullptr) {
    TARN_ASSIGN_OR_RETURN(metadata, lake->LoadTable(*start, table.table_id));
  } else {
    auto empty = std::make_shared<TableMetadata>();
    empty->snapshot_id = start_snapshot_id;
    metadata = std::move(empty);
  }
  base_tables[table.table_id] = metadata;
  return metadata;
}

TableDml& WriteState::Dml(int64_t table_id) {
  if (TableDml* found = FindDml(table_id)) return *found;
  dml.emplace_back();
  dml.back().table_id = table_id;
  return dml.back();
}

TableDml* WriteState::FindDml(int64_t table_id) {
  for (TableDml& entry : dml) {
    if (entry.table_id == table_id) return &entry;
  }
  return nullptr;
}

void WriteState::DropWrittenFile(const std::string& absolute_path) {
  // Only files this transaction wrote: files added by AddDataFiles are not its to delete.
  if (written_files.erase(absolute_path) == 0) return;
  (void)fs->Delete(absolute_path);  // best effort: an orphan is harmless and cleanup finds it
}

Status WriteState::EnsureDirectory(const std::string& dir) {
  if (created_directories.count(dir) > 0) return Status::OK();
  TARN_RETURN_NOT_OK(fs->CreateDirectories(dir));
  created_directories.insert(dir);
  return Status::OK();
}

}  // namespace tarn::table_internal
