// Catalog-only maintenance (tarn/lake_maintenance.h): ducklake_expire_snapshots,
// ducklake_cleanup_old_files, ducklake_delete_orphaned_files (reference §3.11-§3.13).
#include <chrono>
#include <set>

#include "catalog/commit_internal.h"
#include "catalog/row_reader.h"
#include "tarn/lake_maintenance.h"
#include "tarn/s3.h"

namespace tarn {

namespace ci = catalog_internal;

namespace {

using T = CatalogType;

constexpr int64_t kTwoDaysMicros = int64_t{2} * 24 * 3600 * 1000000;

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status Writable(Lake& lake) {
  if (lake.store()->read_only()) {
    return Status::InvalidArgument("cannot change ", ci::StoreName(*lake.store()),
                                   ": the lake was opened read-only");
  }
  return Status::OK();
}

// True when `path` (which lies under data_path by its text) really does, with symbolic links
// resolved: a link may lead a relative path out of the data path.
Result<bool> InsideDataPath(FileSystem& fs, const std::string& data_root,
                            const std::string& path) {
  Result<std::string> real = fs.RealPath(path);
  // No folder, so no file there and no link to follow: the row can go.
  if (!real.ok()) return real.status().IsNotFound() ? Result<bool>(true) : real.status();
  return real->compare(0, data_root.size(), data_root) == 0;
}

// data_path with symbolic links resolved, ending in '/'.
Result<std::string> RealDataPath(FileSystem& fs, const Lake& lake) {
  TARN_ASSIGN_OR_RETURN(std::string root, fs.RealPath(lake.data_path()));
  if (root.empty() || root.back() != '/') root += '/';
  return root;
}

// The `.rowsum` sidecar tarn publishes beside a data file (docs/formats/rowsum.md): it goes
// with its data file.
constexpr std::string_view kSidecarSuffix = ".rowsum";

// The data file `path` is the sidecar of, or empty when it is none.
std::string_view SidecarOf(std::string_view path) {
  if (path.size() <= kSidecarSuffix.size() || !path.ends_with(kSidecarSuffix)) return {};
  return path.substr(0, path.size() - kSidecarSuffix.size());
}

// True for `<base>.tarn-tmp-<pid>-<n>` with `base` ending in `tail`: the temporary of a tarn
// writer that never finished (killed) before renaming it to `base`.
bool IsTemporaryOf(std::string_view path, std::string_view tail) {
  const std::string marker = std::string(tail) + ".tarn-tmp-";
  const size_t tmp = path.rfind(marker);
  if (tmp == std::string_view::npos) return false;
  std::string_view rest = path.substr(tmp + marker.size());
  const size_t dash = rest.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 == rest.size()) return false;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (i != dash && (rest[i] < '0' || rest[i] > '9')) return false;
  }
  return true;
}

// A file DuckLake or tarn writes and orphan cleanup may remove when the catalog does not name
// it: `*.parquet`, and the temporaries of tarn's data and sidecar writers. (A `.rowsum` sidecar
// is an orphan when its data file is not the lake's: see DeleteOrphanedFiles.)
bool IsDataFileName(std::string_view path) {
  return path.ends_with(".parquet") || IsTemporaryOf(path, ".parquet") ||
         IsTemporaryOf(path, kSidecarSuffix);
}

// The path of every table (by id) relative to data_path: schema path + table path when both
// are relative; otherwise the absolute one.
Result<std::map<int64_t, std::string>> TablePaths(Lake& lake) {
  CatalogStore* store = lake.store();
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      ci::RunQuery(store,
                   "SELECT t.table_id, s.path, s.path_is_relative, t.path, t.path_is_relative "
                   "FROM ducklake_table t JOIN ducklake_schema s ON s.schema_id = t.schema_id "
                   "ORDER BY t.begin_snapshot",
                   {}, {T::kBigint, T::kVarchar, T::kBoolean, T::kVarchar, T::kBoolean},
                   "ducklake_table"));
  std::map<int64_t, std::string> out;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    ci::RowReader row(*store, result, i, "ducklake_table", {0});
    TARN_ASSIGN_OR_RETURN(int64_t id, row.Int(0));
    // An absolute schema path is used as is, a relative one is already data_path-relative.
    std::string schema = row.OptText(1).value_or("");
    std::string table = row.OptText(3).value_or("");
    out[id] = row.BoolOr(4, true) ? schema + table : table;
  }
  return out;
}

// "a, b, c".
std::string IdList(const std::vector<int64_t>& ids) {
  std::string out;
  for (int64_t id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
  return out;
}

// The tables no remaining snapshot sees in any of their versions (dropped before the oldest).
Result<std::vector<int64_t>> DeadTables(CatalogStore* store) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      ci::RunQuery(store,
                   "SELECT DISTINCT table_id FROM ducklake_table t WHERE NOT EXISTS (SELECT 1 "
                   "FROM ducklake_table t2 WHERE t2.table_id = t.table_id AND (t2.end_snapshot "
                   "IS NULL OR EXISTS (SELECT 1 FROM ducklake_snapshot s WHERE s.snapshot_id >= "
                   "t2.begin_snapshot AND s.snapshot_id < t2.end_snapshot))) ORDER BY table_id",
                   {}, {T::kBigint}, "ducklake_table"));
  std::vector<int64_t> ids;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    ci::RowReader row(*store, result, i, "ducklake_table", {0});
    TARN_ASSIGN_OR_RETURN(int64_t id, row.Int(0));
    ids.push_back(id);
  }
  return ids;
}

// Removes what is left of dead tables, as the extension does: their rows in every per-table
// catalog table and their inlined data and deletion tables.
Status RemoveDeadTables(CatalogStore* store, const std::vector<int64_t>& tables) {
  if (tables.empty()) return Status::OK();
  const std::string ids = IdList(tables);
  TARN_ASSIGN_OR_RETURN(
      CatalogResult inlined,
      ci::RunQuery(store,
                   StrCat("SELECT table_name FROM ducklake_inlined_data_tables WHERE table_id IN (",
                          ids, ")"),
                   {}, {T::kVarchar}, "ducklake_inlined_data_tables"));
  std::vector<std::string> drop;
  for (size_t i = 0; i < inlined.rows.size(); ++i) {
    ci::RowReader row(*store, inlined, i, "ducklake_inlined_data_tables", {});
    TARN_ASSIGN_OR_RETURN(std::string name, row.Text(0));
    drop.push_back(std::move(name));
  }
  for (int64_t id : tables) drop.push_back(StrCat("ducklake_inlined_delete_", id));
  for (const char* table :
       {"ducklake_table", "ducklake_table_stats", "ducklake_table_column_stats",
        "ducklake_partition_info", "ducklake_partition_column", "ducklake_column",
        "ducklake_column_tag", "ducklake_sort_info", "ducklake_sort_expression",
        "ducklake_schema_versions", "ducklake_inlined_data_tables", "ducklake_column_mapping"}) {
    TARN_ASSIGN_OR_RETURN(bool exists, store->TableExists(table));
    if (!exists) continue;
    TARN_RETURN_NOT_OK(
        ci::Exec(store, StrCat("DELETE FROM ", table, " WHERE table_id IN (", ids, ")"), {}));
  }
  for (const std::string& name : drop) {
    TARN_RETURN_NOT_OK(ci::Exec(store, "DROP TABLE IF EXISTS " + ci::QuoteName(name), {}));
  }
  return Status::OK();
}

// Removes file rows whose [begin, end) holds no remaining snapshot, and those of dead tables;
// schedules their files.
Status RemoveDeadFiles(Lake& lake, const std::string& now_text,
                       const std::vector<int64_t>& dead_tables) {
  CatalogStore* store = lake.store();
  TARN_ASSIGN_OR_RETURN(auto table_paths, TablePaths(lake));
  const std::string dead_text = StrCat(
      dead_tables.empty() ? "" : StrCat("f.table_id IN (", IdList(dead_tables), ") OR "),
      "(end_snapshot IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ducklake_snapshot s WHERE "
      "s.snapshot_id >= f.begin_snapshot AND s.snapshot_id < f.end_snapshot))");
  const char* dead = dead_text.c_str();
  struct Dead {
    int64_t id, table_id;
    std::string path;
    bool relative;
  };
  auto collect = [&](const std::string& sql, const char* what) -> Result<std::vector<Dead>> {
    TARN_ASSIGN_OR_RETURN(CatalogResult result,
                          ci::RunQuery(store, sql, {},
                                       {T::kBigint, T::kBigint, T::kVarchar, T::kBoolean}, what));
    std::vector<Dead> out;
    for (size_t i = 0; i < result.rows.size(); ++i) {
      ci::RowReader row(*store, result, i, what, {0});
      Dead d;
      TARN_ASSIGN_OR_RETURN(d.id, row.Int(0));
      TARN_ASSIGN_OR_RETURN(d.table_id, row.Int(1));
      TARN_ASSIGN_OR_RETURN(d.path, row.Text(2));
      d.relative = row.BoolOr(3, true);
      out.push_back(std::move(d));
    }
    return out;
  };
  TARN_ASSIGN_OR_RETURN(
      std::vector<Dead> data,
      collect(StrCat("SELECT data_file_id, table_id, path, path_is_relative FROM "
                     "ducklake_data_file f WHERE ", dead),
              "ducklake_data_file"));
  std::set<int64_t> dead_data;
  for (const Dead& d : data) dead_data.insert(d.id);
  TARN_ASSIGN_OR_RETURN(
      std::vector<Dead> deletes,
      collect(StrCat("SELECT delete_file_id, table_id, path, path_is_relative FROM "
                     "ducklake_delete_file f WHERE (", dead, ") OR data_file_id IN (SELECT "
                     "data_file_id FROM ducklake_data_file f WHERE ", dead, ")"),
              "ducklake_delete_file"));
  auto schedule = [&](const Dead& d) -> Status {
    const std::string path = d.relative ? table_paths[d.table_id] + d.path : d.path;
    return ci::Exec(store, "INSERT INTO ducklake_files_scheduled_for_deletion VALUES (?1, ?2, ?3, ?4)",
                    {CatalogDatum::Integer(d.id), CatalogDatum::Text(path),
                     CatalogDatum::Boolean(d.relative), CatalogDatum::Text(now_text)})
        .status();
  };
  for (const Dead& d : data) {
    for (const char* table : {"ducklake_data_file", "ducklake_file_column_stats",
                              "ducklake_file_variant_stats", "ducklake_file_partition_value"}) {
      TARN_RETURN_NOT_OK(ci::Exec(store, StrCat("DELETE FROM ", table, " WHERE data_file_id = ?1"),
                                  {CatalogDatum::Integer(d.id)}));
    }
    // The file's inlined deletions (a flush leaves those of files no longer live).
    const std::string inlined_deletes = StrCat("ducklake_inlined_delete_", d.table_id);
    TARN_ASSIGN_OR_RETURN(bool has_inlined_deletes, store->TableExists(inlined_deletes));
    if (has_inlined_deletes) {
      TARN_RETURN_NOT_OK(ci::Exec(store,
                                  StrCat("DELETE FROM ", ci::QuoteName(inlined_deletes),
                                         " WHERE file_id = ?1"),
                                  {CatalogDatum::Integer(d.id)}));
    }
    TARN_RETURN_NOT_OK(schedule(d));
  }
  for (const Dead& d : deletes) {
    TARN_RETURN_NOT_OK(ci::Exec(store, "DELETE FROM ducklake_delete_file WHERE delete_file_id = ?1",
                                {CatalogDatum::Integer(d.id)}));
    TARN_RETURN_NOT_OK(schedule(d));
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<SnapshotInfo>> ExpireSnapshots(Lake& lake,
                                                  const ExpireSnapshotsOptions& options) {
  TARN_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> all, lake.ListSnapshots());
  std::vector<SnapshotInfo> chosen;
  if (all.empty()) return chosen;
  const int64_t latest = all.back().snapshot_id;
  const std::set<int64_t> versions(options.versions.begin(), options.versions.end());
  for (const SnapshotInfo& s : all) {
    if (s.snapshot_id == latest) continue;
    const bool by_time =
        options.older_than_micros.has_value() && s.snapshot_time_micros < *options.older_than_micros;
    if (by_time || versions.count(s.snapshot_id) > 0) chosen.push_back(s);
  }
  if (options.dry_run || chosen.empty()) return chosen;
  TARN_RETURN_NOT_OK(Writable(lake));
  CatalogStore* store = lake.store();
  TARN_RETURN_NOT_OK(store->Begin(CatalogTransactionMode::kWrite));
  ci::RollbackGuard guard(store);
  for (const SnapshotInfo& s : chosen) {
    for (const char* table : {"ducklake_snapshot", "ducklake_snapshot_changes"}) {
      TARN_RETURN_NOT_OK(ci::Exec(store, StrCat("DELETE FROM ", table, " WHERE snapshot_id = ?1"),
                                  {CatalogDatum::Integer(s.snapshot_id)}));
    }
  }
  TARN_ASSIGN_OR_RETURN(std::vector<int64_t> dead_tables, DeadTables(store));
  TARN_RETURN_NOT_OK(RemoveDeadFiles(lake, ci::NowTimestampText(), dead_tables));
  TARN_RETURN_NOT_OK(RemoveDeadTables(store, dead_tables));
  // Versions of schemas, views, tags and macros no remaining snapshot sees, and the
  // implementations and parameters of macros gone with them.
  for (const char* table : {"ducklake_schema", "ducklake_view", "ducklake_tag", "ducklake_macro"}) {
    TARN_RETURN_NOT_OK(ci::Exec(
        store,
        StrCat("DELETE FROM ", table,
               " WHERE end_snapshot IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ducklake_snapshot s "
               "WHERE s.snapshot_id >= ", table, ".begin_snapshot AND s.snapshot_id < ", table,
               ".end_snapshot)"),
        {}));
  }
  for (const char* table : {"ducklake_macro_impl", "ducklake_macro_parameters"}) {
    TARN_RETURN_NOT_OK(ci::Exec(store,
                                StrCat("DELETE FROM ", table, " WHERE macro_id NOT IN (SELECT "
                                       "macro_id FROM ducklake_macro)"),
                                {}));
  }
  TARN_RETURN_NOT_OK(store->Commit());
  return chosen;
}

Result<std::vector<std::string>> CleanupOldFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                 const CleanupOptions& options) {
  if (fs == nullptr) fs = DefaultFileSystem();
  CatalogStore* store = lake.store();
  const int64_t cutoff = options.older_than_micros.value_or(NowMicros() - kTwoDaysMicros);
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      ci::RunQuery(store,
                   "SELECT data_file_id, path, path_is_relative, schedule_start FROM "
                   "ducklake_files_scheduled_for_deletion",
                   {}, {T::kBigint, T::kVarchar, T::kBoolean, T::kVarchar},
                   "ducklake_files_scheduled_for_deletion"));
  std::vector<std::pair<int64_t, std::string>> chosen;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    ci::RowReader row(*store, result, i, "ducklake_files_scheduled_for_deletion", {0});
    TARN_ASSIGN_OR_RETURN(int64_t id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(std::string path, row.Text(1));
    if (row.BoolOr(2, true)) path = lake.data_path() + path;
    if (!options.cleanup_all) {
      TARN_ASSIGN_OR_RETURN(std::string start, row.Text(3));
      Result<int64_t> micros = ParseCatalogTimestamp(start);
      if (!micros.ok()) return row.Error("schedule_start: ", micros.status().message());
      if (*micros >= cutoff) continue;
    }
    chosen.emplace_back(id, std::move(path));
  }
  // Nothing scheduled: the data path need not exist (a lake that never wrote a file).
  if (chosen.empty()) return std::vector<std::string>();
  // Never through a symbolic link out of the data path: such a file stays scheduled.
  TARN_ASSIGN_OR_RETURN(std::string data_root, RealDataPath(*fs, lake));
  std::vector<std::pair<int64_t, std::string>> inside;
  for (auto& c : chosen) {
    if (c.second.compare(0, lake.data_path().size(), lake.data_path()) == 0) {
      TARN_ASSIGN_OR_RETURN(bool ok, InsideDataPath(*fs, data_root, c.second));
      if (!ok) continue;
    }
    inside.push_back(std::move(c));
  }
  chosen = std::move(inside);
  std::vector<std::string> paths;
  for (const auto& c : chosen) paths.push_back(c.second);
  if (options.dry_run || chosen.empty()) return paths;
  TARN_RETURN_NOT_OK(Writable(lake));
  // Each file and its sidecar, if one was published (gone meanwhile is fine), in batches
  // on object storage.
  std::vector<std::string> doomed;
  for (const auto& [id, path] : chosen) {
    doomed.push_back(path);
    doomed.push_back(path + std::string(kSidecarSuffix));
  }
  TARN_RETURN_NOT_OK(fs->DeleteFiles(doomed));
  TARN_RETURN_NOT_OK(store->Begin(CatalogTransactionMode::kWrite));
  ci::RollbackGuard guard(store);
  for (const auto& [id, path] : chosen) {
    TARN_RETURN_NOT_OK(ci::Exec(store,
                                "DELETE FROM ducklake_files_scheduled_for_deletion WHERE "
                                "data_file_id = ?1",
                                {CatalogDatum::Integer(id)}));
  }
  TARN_RETURN_NOT_OK(store->Commit());
  return paths;
}

Result<std::vector<std::string>> DeleteOrphanedFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                     const CleanupOptions& options) {
  if (fs == nullptr) fs = DefaultFileSystem();
  const int64_t cutoff = options.older_than_micros.value_or(NowMicros() - kTwoDaysMicros);
  CatalogStore* store = lake.store();
  TARN_ASSIGN_OR_RETURN(auto table_paths, TablePaths(lake));
  std::set<std::string> known;
  for (const char* table : {"ducklake_data_file", "ducklake_delete_file"}) {
    TARN_ASSIGN_OR_RETURN(
        CatalogResult result,
        ci::RunQuery(store, StrCat("SELECT table_id, path, path_is_relative FROM ", table), {},
                     {T::kBigint, T::kVarchar, T::kBoolean}, table));
    for (size_t i = 0; i < result.rows.size(); ++i) {
      ci::RowReader row(*store, result, i, table, {0});
      TARN_ASSIGN_OR_RETURN(int64_t table_id, row.Int(0));
      TARN_ASSIGN_OR_RETURN(std::string path, row.Text(1));
      if (row.BoolOr(2, true)) {
        const std::string& base = table_paths[table_id];
        path = (base.empty() || base[0] != '/' ? lake.data_path() + base : base) + path;
      }
      known.insert(path);
    }
  }
  TARN_ASSIGN_OR_RETURN(
      CatalogResult scheduled,
      ci::RunQuery(store, "SELECT path, path_is_relative FROM ducklake_files_scheduled_for_deletion",
                   {}, {T::kVarchar, T::kBoolean}, "ducklake_files_scheduled_for_deletion"));
  for (size_t i = 0; i < scheduled.rows.size(); ++i) {
    ci::RowReader row(*store, scheduled, i, "ducklake_files_scheduled_for_deletion", {0});
    TARN_ASSIGN_OR_RETURN(std::string path, row.Text(0));
    known.insert(row.BoolOr(1, true) ? lake.data_path() + path : path);
  }
  // The listing follows no symbolic link (so it stays inside data_path and ends on a cycle);
  // links themselves are not files the lake wrote and are left alone.
  TARN_ASSIGN_OR_RETURN(std::vector<FileInfo> files, fs->List(lake.data_path(), true));
  std::vector<std::string> orphans;
  for (const FileInfo& file : files) {
    if (file.is_directory || file.is_symlink) continue;
    const std::string_view sidecar_of = SidecarOf(file.path);
    if (!sidecar_of.empty()) {
      // A sidecar stays while its data file is the lake's.
      if (known.count(std::string(sidecar_of)) > 0) continue;
    } else if (!IsDataFileName(file.path) || known.count(file.path) > 0) {
      continue;
    }
    // As the extension: last_modified < cutoff unless cleanup_all; a file system that keeps
    // no times (modified_micros 0) cannot show a file is old enough.
    if (!options.cleanup_all && (file.modified_micros <= 0 || file.modified_micros >= cutoff)) {
      continue;
    }
    orphans.push_back(file.path);
  }
  if (options.dry_run) return orphans;
  TARN_RETURN_NOT_OK(Writable(lake));
  TARN_RETURN_NOT_OK(fs->DeleteFiles(orphans));  // gone meanwhile is fine
  return orphans;
}

}  // namespace tarn
