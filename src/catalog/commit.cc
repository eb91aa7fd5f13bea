// CommitLakeChanges: one attempt = one catalog write transaction (reference §3.4); the loop
// retries attempts that lost a race (§6).
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "catalog/commit_internal.h"
#include "catalog/row_reader.h"

namespace tarn {

namespace ci = catalog_internal;

namespace {

// Applies the commit's busy timeout on SQLite (short: the retry loop, not SQLite, waits for a
// lock) and restores the store's default afterwards.
class BusyTimeout {
 public:
  BusyTimeout(CatalogStore* store, int milliseconds) : store_(store) {
    if (store_->backend() == "sqlite") {
      (void)store_->Execute(StrCat("PRAGMA busy_timeout = ", milliseconds), {});
    }
  }
  ~BusyTimeout() {
    if (store_->backend() == "sqlite") (void)store_->Execute("PRAGMA busy_timeout = 5000", {});
  }
  BusyTimeout(const BusyTimeout&) = delete;
  BusyTimeout& operator=(const BusyTimeout&) = delete;

 private:
  CatalogStore* store_;
};

bool OnlyOptions(const LakeChanges& changes) {
  for (const LakeChange& change : changes.changes()) {
    if (!std::holds_alternative<SetOptionChange>(change)) return false;
  }
  return true;
}

Result<std::vector<ci::TheirSnapshot>> ReadTheirChanges(CatalogStore* store, int64_t start) {
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      ci::RunQuery(store,
                   "SELECT snapshot_id, changes_made FROM ducklake_snapshot_changes WHERE "
                   "snapshot_id > ?1 ORDER BY snapshot_id",
                   {CatalogDatum::Integer(start)}, {CatalogType::kBigint, CatalogType::kVarchar},
                   "ducklake_snapshot_changes"));
  std::vector<ci::TheirSnapshot> theirs;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    ci::RowReader row(*store, result, i, "ducklake_snapshot_changes", {0});
    ci::TheirSnapshot s;
    TARN_ASSIGN_OR_RETURN(s.snapshot_id, row.Int(0));
    s.changes_made = row.OptText(1).value_or("");
    Result<ci::ChangeTokens> tokens = ci::ParseChangesMade(s.changes_made);
    if (!tokens.ok()) return row.Error("changes_made: ", tokens.status().message());
    s.tokens = std::move(tokens).value();
    theirs.push_back(std::move(s));
  }
  return theirs;
}

// The lake's require_commit_message option: a snapshot then needs the author or message of
// set_commit_message (the extension's rule and words).
Status CheckCommitInfo(CatalogStore* store, const CommitOptions& options) {
  if (options.author || options.commit_message || options.commit_extra_info) {
    return Status::OK();
  }
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      ci::RunQuery(store,
                   "SELECT value FROM ducklake_metadata WHERE key = 'require_commit_message' AND "
                   "(scope IS NULL OR scope = '')",
                   {}, {CatalogType::kVarchar}, "ducklake_metadata"));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    ci::RowReader row(*store, result, i, "ducklake_metadata", {});
    std::string value = row.OptText(0).value_or("");
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (value == "true" || value == "1") {
      return Status::InvalidArgument(
          "Invalid Configuration Error: Commit Information for the snapshot is required but "
          "has not been provided. \n * Provide the information with \"CALL "
          "ducklake.set_commit_message('author_name', 'commit_message'); \n * Set the "
          "required commit message to false with \"CALL "
          "ducklake.set_option('require_commit_message', False)\" '\"");
    }
  }
  return Status::OK();
}

// After a commit that flushed inlined rows, as the extension does: the inlined-data tables of
// older schema versions that hold no rows any more (a newer one exists for the table) are
// dropped with their ducklake_inlined_data_tables rows.
Status DropEmptySupersededInlinedTables(CatalogStore* store) {
  TARN_RETURN_NOT_OK(store->Begin(CatalogTransactionMode::kWrite));
  catalog_internal::RollbackGuard guard(store);
  TARN_ASSIGN_OR_RETURN(
      CatalogResult superseded,
      ci::RunQuery(store,
                   "SELECT t.table_id, t.schema_version, t.table_name FROM "
                   "ducklake_inlined_data_tables t WHERE t.schema_version < (SELECT "
                   "max(t2.schema_version) FROM ducklake_inlined_data_tables t2 WHERE "
                   "t2.table_id = t.table_id)",
                   {}, {CatalogType::kBigint, CatalogType::kBigint, CatalogType::kVarchar},
                   "ducklake_inlined_data_tables"));
  for (size_t i = 0; i < superseded.rows.size(); ++i) {
    ci::RowReader row(*store, superseded, i, "ducklake_inlined_data_tables", {0, 1});
    TARN_ASSIGN_OR_RETURN(int64_t table_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(int64_t version, row.Int(1));
    TARN_ASSIGN_OR_RETURN(std::string name, row.Text(2));
    TARN_ASSIGN_OR_RETURN(bool exists, store->TableExists(name));
    if (exists) {
      TARN_ASSIGN_OR_RETURN(
          CatalogResult count,
          ci::RunQuery(store, "SELECT count(*) FROM " + ci::QuoteName(name), {},
                       {CatalogType::kBigint}, name));
      ci::RowReader counted(*store, count, 0, name, {});
      TARN_ASSIGN_OR_RETURN(int64_t rows, counted.Int(0));
      if (rows != 0) continue;
      TARN_RETURN_NOT_OK(ci::Exec(store, "DROP TABLE " + ci::QuoteName(name), {}));
    }
    TARN_RETURN_NOT_OK(ci::Exec(store,
                                "DELETE FROM ducklake_inlined_data_tables WHERE table_id = ?1 "
                                "AND schema_version = ?2",
                                {CatalogDatum::Integer(table_id), CatalogDatum::Integer(version)}));
  }
  TARN_RETURN_NOT_OK(store->Commit());
  return Status::OK();
}

// One attempt. On error the caller's RollbackGuard undoes everything.
Result<CommitResult> TryCommit(Lake& lake, int64_t start, const LakeChanges& changes,
                               const CommitOptions& options, bool* metadata_changed) {
  CatalogStore* store = lake.store();
  ci::CrashPoint("begin");
  TARN_RETURN_NOT_OK(store->Begin(CatalogTransactionMode::kWrite));
  catalog_internal::RollbackGuard guard(store);

  ci::CommitAttempt a;
  a.lake = &lake;
  a.store = store;
  a.changes = &changes;
  a.options = &options;
  a.start_snapshot_id = start;
  TARN_ASSIGN_OR_RETURN(a.latest, lake.FindSnapshot(SnapshotSelector::Latest()));
  if (start > a.latest.snapshot_id) {
    return Status::InvalidArgument("commit: start snapshot ", start,
                                   " is newer than the latest snapshot ", a.latest.snapshot_id);
  }
  TARN_ASSIGN_OR_RETURN(a.catalog, lake.LoadSnapshot(SnapshotSelector::Id(a.latest.snapshot_id)));
  if (a.latest.snapshot_id > start) {
    TARN_ASSIGN_OR_RETURN(std::vector<ci::TheirSnapshot> theirs, ReadTheirChanges(store, start));
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<const LakeSnapshot> at_start,
                          lake.LoadSnapshot(SnapshotSelector::Id(start)));
    ci::OurFileDeletes our_files;
    TARN_ASSIGN_OR_RETURN(ci::ChangeTokens ours,
                          ci::TokensOfChanges(changes, *at_start, &our_files));
    TARN_RETURN_NOT_OK(ci::CheckConflicts(store, start, ours, our_files, theirs));
  }
  ci::CrashPoint("read");

  a.snapshot_id = a.latest.snapshot_id + 1;
  a.schema_version = a.latest.schema_version;
  a.next_catalog_id = a.latest.next_catalog_id;
  a.next_file_id = a.latest.next_file_id;
  a.now_text = ci::NowTimestampText();

  CommitResult result;
  result.snapshot.snapshot_id = -1;
  if (OnlyOptions(changes)) {
    // Options are written outside snapshots.
    TARN_RETURN_NOT_OK(ci::WriteCatalogChanges(&a));
    ci::CrashPoint("before_commit");
    TARN_RETURN_NOT_OK(store->Commit());
    ci::CrashPoint("after_commit");
    *metadata_changed = true;
    return result;
  }

  TARN_RETURN_NOT_OK(CheckCommitInfo(store, options));
  TARN_RETURN_NOT_OK(ci::WriteCatalogChanges(&a));
  if (a.schema_changed) a.schema_version++;
  TARN_RETURN_NOT_OK(ci::WriteNewInlinedTables(&a));
  ci::CrashPoint("catalog_rows");
  // A transaction's flushes and compactions (run on its start snapshot) take their file ids
  // before its own new files, as the extension's do when called before its inserts.
  TARN_RETURN_NOT_OK(ci::WriteMaintenanceChanges(&a));
  TARN_RETURN_NOT_OK(ci::WriteDataChanges(&a));
  ci::CrashPoint("data_rows");
  TARN_RETURN_NOT_OK(ci::WriteTableStats(&a));
  TARN_RETURN_NOT_OK(ci::WriteSchemaVersionRows(&a));
  ci::CrashPoint("stats");

  const std::string changes_made = ci::FormatChangesMade(a.tokens);
  TARN_RETURN_NOT_OK(ci::Exec(store, "INSERT INTO ducklake_snapshot VALUES (?1, ?2, ?3, ?4, ?5)",
                              {CatalogDatum::Integer(a.snapshot_id), CatalogDatum::Text(a.now_text),
                               CatalogDatum::Integer(a.schema_version),
                               CatalogDatum::Integer(a.next_catalog_id),
                               CatalogDatum::Integer(a.next_file_id)}));
  TARN_RETURN_NOT_OK(ci::Exec(store,
                              "INSERT INTO ducklake_snapshot_changes VALUES (?1, ?2, ?3, ?4, ?5)",
                              {CatalogDatum::Integer(a.snapshot_id),
                               CatalogDatum::Text(changes_made), ci::OptText(options.author),
                               ci::OptText(options.commit_message),
                               ci::OptText(options.commit_extra_info)}));
  ci::CrashPoint("snapshot");
  ci::CrashPoint("before_commit");
  TARN_RETURN_NOT_OK(store->Commit());
  ci::CrashPoint("after_commit");
  if (!a.tokens.flushed.empty()) {
    // The snapshot is committed; a failure here leaves empty tables behind, nothing worse.
    (void)DropEmptySupersededInlinedTables(store);
  }

  SnapshotInfo& info = result.snapshot;
  info.snapshot_id = a.snapshot_id;
  info.snapshot_time_text = a.now_text;
  info.snapshot_time_micros = ParseCatalogTimestamp(a.now_text).ValueOr(0);
  info.schema_version = a.schema_version;
  info.next_catalog_id = a.next_catalog_id;
  info.next_file_id = a.next_file_id;
  info.changes_made = changes_made;
  info.author = options.author;
  info.commit_message = options.commit_message;
  info.commit_extra_info = options.commit_extra_info;
  result.id_mapping = std::move(a.id_mapping);
  *metadata_changed = a.metadata_changed;
  return result;
}

}  // namespace

Result<CommitResult> CommitLakeChanges(Lake& lake, int64_t start_snapshot_id,
                                       const LakeChanges& changes, const CommitOptions& options) {
  CommitResult empty;
  empty.snapshot.snapshot_id = -1;
  if (changes.empty()) return empty;
  CatalogStore* store = lake.store();
  if (store->read_only()) {
    return Status::InvalidArgument("cannot commit to ", ci::StoreName(*store),
                                   ": the lake was opened read-only");
  }
  if (store->in_transaction()) {
    return Status::Internal("commit: the catalog store is already in a transaction");
  }
  if (options.max_retries < 0 || options.retry_wait_ms < 0 || options.retry_backoff < 1) {
    return Status::InvalidArgument("commit: max_retries and retry_wait_ms must be >= 0, "
                                   "retry_backoff >= 1");
  }
  BusyTimeout busy(store, 10);
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  Status last;
  for (int attempt = 0; attempt <= options.max_retries; ++attempt) {
    bool metadata_changed = false;
    Result<CommitResult> result = TryCommit(lake, start_snapshot_id, changes, options,
                                            &metadata_changed);
    if (result.ok()) {
      result->attempts = attempt + 1;
      // Committed: a failure to refresh the cached options must not report the commit failed.
      if (metadata_changed) (void)lake.ReloadMetadata();
      return result;
    }
    last = result.status();
    // A constraint violation or a busy catalog is a lost race; anything else is final.
    if (last.code() != StatusCode::kConflict || ci::IsLogicalConflict(last)) return last;
    if (attempt == options.max_retries) break;
    const double wait = static_cast<double>(options.retry_wait_ms) *
                        std::pow(options.retry_backoff, attempt) * jitter(rng);
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(wait * 1000)));
  }
  return Status::Conflict("commit lost the race ", options.max_retries + 1,
                          " times (every attempt found the catalog changed or locked); last: ",
                          last.message());
}

}  // namespace tarn
