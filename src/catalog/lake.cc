// Lake: opening a DuckLake catalog, its metadata, and snapshot lookup.
#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

#include "catalog/loader.h"
#include "catalog/postgres_sql.h"
#include "catalog/row_reader.h"
#include "tarn/catalog.h"
#include "tarn/catalog_locator.h"

namespace tarn {

using catalog_internal::RowReader;
using catalog_internal::RunQuery;
using catalog_internal::StoreName;

namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

constexpr std::string_view kSnapshotColumns =
    "SELECT s.snapshot_id, s.snapshot_time, s.schema_version, s.next_catalog_id, "
    "s.next_file_id, c.changes_made, c.author, c.commit_message, c.commit_extra_info "
    "FROM ducklake_snapshot s LEFT JOIN ducklake_snapshot_changes c "
    "ON c.snapshot_id = s.snapshot_id";

const std::vector<CatalogType> kSnapshotTypes = {
    CatalogType::kBigint,  CatalogType::kVarchar, CatalogType::kBigint,
    CatalogType::kBigint,  CatalogType::kBigint,  CatalogType::kVarchar,
    CatalogType::kVarchar, CatalogType::kVarchar, CatalogType::kVarchar};

Result<std::vector<SnapshotInfo>> ReadSnapshots(CatalogStore* store, std::string where,
                                                std::vector<CatalogDatum> params) {
  TARN_ASSIGN_OR_RETURN(CatalogResult result,
                        RunQuery(store, StrCat(kSnapshotColumns, where), std::move(params),
                                 kSnapshotTypes, "ducklake_snapshot"));
  std::vector<SnapshotInfo> snapshots;
  snapshots.reserve(result.rows.size());
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_snapshot", {0});
    SnapshotInfo info;
    TARN_ASSIGN_OR_RETURN(info.snapshot_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(info.snapshot_time_text, row.Text(1));
    Result<int64_t> micros = ParseCatalogTimestamp(info.snapshot_time_text);
    if (!micros.ok()) return row.Error("snapshot_time: ", micros.status().message());
    info.snapshot_time_micros = *micros;
    TARN_ASSIGN_OR_RETURN(info.schema_version, row.Int(2));
    TARN_ASSIGN_OR_RETURN(info.next_catalog_id, row.Int(3));
    TARN_ASSIGN_OR_RETURN(info.next_file_id, row.Int(4));
    // Ids and counters are never negative: new ids come from the counters.
    const std::pair<std::string_view, int64_t> counters[] = {
        {"snapshot_id", info.snapshot_id},
        {"schema_version", info.schema_version},
        {"next_catalog_id", info.next_catalog_id},
        {"next_file_id", info.next_file_id}};
    for (const auto& [column, value] : counters) {
      if (value < 0) return row.Error(column, " is negative (", value, ")");
    }
    info.changes_made = row.OptText(5);
    info.author = row.OptText(6);
    info.commit_message = row.OptText(7);
    info.commit_extra_info = row.OptText(8);
    snapshots.push_back(std::move(info));
  }
  std::sort(snapshots.begin(), snapshots.end(),
            [](const SnapshotInfo& a, const SnapshotInfo& b) {
              return a.snapshot_id < b.snapshot_id;
            });
  return snapshots;
}

}  // namespace

Result<CatalogLocator> ParseCatalogLocator(std::string_view locator) {
  std::string_view path = locator;
  constexpr std::string_view kDuckLake = "ducklake:";
  if (path.substr(0, kDuckLake.size()) == kDuckLake) path.remove_prefix(kDuckLake.size());
  constexpr std::string_view kSqlite = "sqlite:";
  constexpr std::string_view kPostgres = "postgres:";
  CatalogLocator parsed;
  if (path.substr(0, kPostgres.size()) == kPostgres) {
    path.remove_prefix(kPostgres.size());
    parsed.backend = CatalogLocator::Backend::kPostgres;
    parsed.target = std::string(path);  // empty: libpq's defaults
    return parsed;
  }
  if (path.substr(0, kSqlite.size()) == kSqlite) {
    path.remove_prefix(kSqlite.size());
  } else if (!(EndsWith(path, ".sqlite") || EndsWith(path, ".sqlite3") || EndsWith(path, ".db"))) {
    return Status::InvalidArgument(
        "DuckLake locator '", locator,
        "' is not understood: expected ducklake:sqlite:PATH, ducklake:postgres:CONNINFO or a "
        "PATH ending in .sqlite");
  }
  if (path.empty()) {
    return Status::InvalidArgument("DuckLake locator '", locator, "' names no catalog file");
  }
  parsed.target = std::string(path);
  return parsed;
}

std::string RedactLocator(std::string_view locator) {
  Result<CatalogLocator> parsed = ParseCatalogLocator(locator);
  if (!parsed.ok() || parsed->backend != CatalogLocator::Backend::kPostgres) {
    return std::string(locator);
  }
  const std::string prefix(locator.substr(0, locator.size() - parsed->target.size()));
  Result<std::string> redacted = catalog_internal::RedactConninfo(parsed->target);
  return prefix + (redacted.ok() ? *redacted : std::string("<connection string not understood>"));
}

Result<std::unique_ptr<Lake>> Lake::Open(std::string_view locator, LakeOpenOptions options) {
  TARN_ASSIGN_OR_RETURN(CatalogLocator parsed, ParseCatalogLocator(locator));
  std::unique_ptr<CatalogStore> store;
  if (parsed.backend == CatalogLocator::Backend::kPostgres) {
    TARN_ASSIGN_OR_RETURN(store, OpenPostgresCatalogStore(parsed.target, options.read_only));
    // A database is no file that exists or not: an empty schema is a lake not created yet.
    TARN_ASSIGN_OR_RETURN(bool has_metadata, store->TableExists("ducklake_metadata"));
    if (!has_metadata) {
      return Status::NotFound("PostgreSQL catalog '", store->location(),
                              "' holds no DuckLake: its schema has no ducklake_metadata table");
    }
  } else {
    TARN_ASSIGN_OR_RETURN(store, OpenSqliteCatalogStore(parsed.target, options.read_only));
  }
  return Open(std::move(store), std::move(options));
}

Result<std::unique_ptr<Lake>> Lake::Open(std::unique_ptr<CatalogStore> store,
                                         LakeOpenOptions options) {
  if (store == nullptr) return Status::InvalidArgument("Lake::Open: no catalog store");
  std::unique_ptr<Lake> lake(new Lake());
  lake->store_ = std::move(store);
  TARN_RETURN_NOT_OK(lake->Initialize(options));
  return lake;
}

Lake::~Lake() = default;

namespace {

// Every ducklake_metadata row, checked (scopes NULL, 'schema' or 'table').
Result<std::vector<MetadataEntry>> ReadMetadata(CatalogStore* store) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store, "SELECT key, value, scope, scope_id FROM ducklake_metadata", {},
               {CatalogType::kVarchar, CatalogType::kVarchar, CatalogType::kVarchar,
                CatalogType::kBigint},
               "ducklake_metadata"));
  std::vector<MetadataEntry> entries;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_metadata", {0, 2, 3});
    MetadataEntry entry;
    TARN_ASSIGN_OR_RETURN(entry.key, row.Text(0));
    TARN_ASSIGN_OR_RETURN(entry.value, row.Text(1));
    std::optional<std::string> scope = row.OptText(2);
    if (!scope.has_value() || scope->empty()) {
      entry.scope = MetadataEntry::Scope::kGlobal;
    } else if (*scope == "schema" || *scope == "table") {
      entry.scope = *scope == "schema" ? MetadataEntry::Scope::kSchema
                                       : MetadataEntry::Scope::kTable;
      TARN_ASSIGN_OR_RETURN(entry.scope_id, row.Int(3));
    } else {
      return row.Error("unknown scope '", *scope, "' (expected NULL, 'schema' or 'table')");
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace

namespace {

// A data path as one spelling: absolute and normalized for local paths (a relative one is
// read from the current folder, as scans resolve it), ending in '/'. URLs are compared as
// written.
std::string DataPathKey(const std::string& path) {
  std::string key = path;
  if (key.find("://") == std::string::npos && !key.empty()) {
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(key, error);
    if (!error) key = absolute.lexically_normal().generic_string();
  }
  if (key.empty() || key.back() != '/') key += '/';
  return key;
}

bool SameDataPath(const std::string& a, const std::string& b) {
  return DataPathKey(a) == DataPathKey(b);
}

}  // namespace

Status Lake::ReloadMetadata() {
  std::lock_guard<std::mutex> lock(mu_);
  TARN_ASSIGN_OR_RETURN(std::vector<MetadataEntry> entries, ReadMetadata(store_.get()));
  metadata_ = std::move(entries);
  return Status::OK();
}

Status Lake::Initialize(const LakeOpenOptions& options) {
  CatalogStore* store = store_.get();
  TARN_ASSIGN_OR_RETURN(bool has_metadata, store->TableExists("ducklake_metadata"));
  if (!has_metadata) {
    return Status::InvalidArgument(StoreName(*store),
                                   " is not a DuckLake catalog: it has no ducklake_metadata table");
  }
  TARN_ASSIGN_OR_RETURN(metadata_, ReadMetadata(store));
  std::optional<std::string> version, encrypted, data_path;
  for (const MetadataEntry& entry : metadata_) {
    if (entry.scope != MetadataEntry::Scope::kGlobal) continue;
    if (entry.key == "version") version = entry.value;
    if (entry.key == "encrypted") encrypted = entry.value;
    if (entry.key == "data_path") data_path = entry.value;
  }
  if (!version.has_value()) {
    return Status::Corruption(StoreName(*store), ": ducklake_metadata has no 'version' key");
  }
  if (*version != "1.0") {
    return Status::NotSupported("DuckLake catalog version ", *version,
                                " is not supported; tarn reads 1.0 (", StoreName(*store), ")");
  }
  version_ = *version;
  if (encrypted.has_value()) {
    if (*encrypted == "true") {
      return Status::NotSupported(StoreName(*store),
                                  " is an encrypted DuckLake catalog; tarn does not read "
                                  "encrypted lakes yet");
    }
    if (*encrypted != "false") {
      return Status::Corruption(StoreName(*store), ": ducklake_metadata encrypted = '",
                                *encrypted, "' (expected 'true' or 'false')");
    }
  }
  catalog_data_path_ = data_path.value_or("");
  if (options.data_path.has_value()) {
    data_path_ = *options.data_path;
    if (!options.override_data_path && data_path.has_value() &&
        !SameDataPath(*options.data_path, *data_path)) {
      return Status::InvalidArgument(
          "Invalid Input Error: DATA_PATH parameter \"", *options.data_path,
          "\" does not match existing data path in the catalog \"", *data_path, "\" (",
          StoreName(*store), "). If the lake was moved there, use OVERRIDE_DATA_PATH");
    }
    // The same folder spelled otherwise: read it as the catalog spells it.
    if (!options.override_data_path && data_path.has_value()) data_path_ = *data_path;
  } else if (data_path.has_value()) {
    data_path_ = *data_path;
  } else {
    return Status::Corruption(StoreName(*store),
                              ": ducklake_metadata has no 'data_path' and none was given");
  }
  if (data_path_.empty()) {
    return Status::InvalidArgument(StoreName(*store), ": the data path is empty");
  }
  if (data_path_.back() != '/') data_path_ += '/';
  return Status::OK();
}

std::optional<std::string> Lake::GetOption(std::string_view key,
                                           std::optional<int64_t> schema_id,
                                           std::optional<int64_t> table_id) const {
  const MetadataEntry* best = nullptr;
  int best_rank = -1;
  for (const MetadataEntry& entry : metadata_) {
    if (entry.key != key) continue;
    int rank = -1;
    if (entry.scope == MetadataEntry::Scope::kGlobal) {
      rank = 0;
    } else if (entry.scope == MetadataEntry::Scope::kSchema) {
      if (schema_id == entry.scope_id) rank = 1;
    } else if (table_id == entry.scope_id) {
      rank = 2;
    }
    if (rank > best_rank) {
      best = &entry;
      best_rank = rank;
    }
  }
  if (best == nullptr) return std::nullopt;
  return best->value;
}

Result<std::vector<SnapshotInfo>> Lake::ListSnapshots() {
  std::lock_guard<std::mutex> lock(mu_);
  return ReadSnapshots(store_.get(), "", {});
}

Result<SnapshotInfo> catalog_internal::FindSnapshotLocked(CatalogStore* store,
                                                          const SnapshotSelector& selector) {
  switch (selector.kind) {
    case SnapshotSelector::Kind::kLatest: {
      TARN_ASSIGN_OR_RETURN(
          std::vector<SnapshotInfo> found,
          ReadSnapshots(store,
                        " WHERE s.snapshot_id = (SELECT MAX(snapshot_id) FROM ducklake_snapshot)",
                        {}));
      if (found.empty()) {
        return Status::Corruption(StoreName(*store), ": ducklake_snapshot has no rows");
      }
      return found.back();
    }
    case SnapshotSelector::Kind::kId: {
      TARN_ASSIGN_OR_RETURN(
          std::vector<SnapshotInfo> found,
          ReadSnapshots(store, " WHERE s.snapshot_id = ?1",
                        {CatalogDatum::Integer(selector.snapshot_id)}));
      if (found.empty()) {
        return Status::NotFound("no snapshot ", selector.snapshot_id, " in ", StoreName(*store));
      }
      if (found.size() > 1) {
        return Status::Corruption(StoreName(*store), ": ducklake_snapshot has ", found.size(),
                                  " rows with snapshot_id ", selector.snapshot_id);
      }
      return found.front();
    }
    case SnapshotSelector::Kind::kTimestamp: {
      // Times may be stored with different offsets: compare parsed instants, not text.
      TARN_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> all, ReadSnapshots(store, "", {}));
      const SnapshotInfo* best = nullptr;
      for (const SnapshotInfo& info : all) {
        if (info.snapshot_time_micros > selector.timestamp_micros) continue;
        if (best == nullptr || info.snapshot_time_micros > best->snapshot_time_micros ||
            (info.snapshot_time_micros == best->snapshot_time_micros &&
             info.snapshot_id > best->snapshot_id)) {
          best = &info;
        }
      }
      if (best == nullptr) {
        return Status::NotFound("no snapshot at or before timestamp ", selector.timestamp_micros,
                                " (microseconds since the epoch, UTC) in ", StoreName(*store));
      }
      return *best;
    }
  }
  return Status::InvalidArgument("unknown snapshot selector");
}

Result<SnapshotInfo> Lake::FindSnapshot(const SnapshotSelector& selector) {
  std::lock_guard<std::mutex> lock(mu_);
  return catalog_internal::FindSnapshotLocked(store_.get(), selector);
}

}  // namespace tarn
