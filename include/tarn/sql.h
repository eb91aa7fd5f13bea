// tarn's SQL front end: a Session executes SQL text (DuckDB's dialect) and returns results as
// streams of batches.
//
// Queries read files through table functions (read_parquet, read_csv, range) or tables that a
// SqlCatalog names; a DuckLake lake, once attached, registers its tables in the catalog as
// SqlTable implementations. Execution is vectorized and streaming: a scan feeds filters,
// projections and limits batch by batch (a LIMIT stops the scan early); aggregates and sorts
// hold only their state, bounded by the session's memory_limit.
//
// Statements: SELECT (expressions, WHERE, GROUP BY, HAVING, DISTINCT, ORDER BY, LIMIT/OFFSET),
// COPY (query) TO 'file.parquet' | 'file.csv', EXPLAIN, DESCRIBE, SHOW [ALL] TABLES, SET/RESET
// threads | memory_limit, CALL f(...).
//
// Lakes: Attach opens a DuckLake lake as a catalog (default name "lake"). Its tables are then
// named `t`, `s.t`, `lake.t` or `lake.s.t` (default schema "main"), with the `rowid`
// pseudo-column and time travel (`FROM t AT (VERSION => n)`, `AT (TIMESTAMP => '...')`); the
// read-only ducklake_* table functions (ducklake_snapshots, ducklake_table_changes, ...) work
// in FROM and CALL, with or without the catalog name as first argument. Write statements
// (CREATE/DROP SCHEMA|TABLE|VIEW, INSERT, DELETE, UPDATE, ALTER TABLE, BEGIN/COMMIT/ROLLBACK,
// CALL ducklake_set_option / ducklake_set_commit_message) need an attached, writable lake.
// docs/sql.md lists the grammar.
// Every error is a Status; syntax errors carry line, column and a caret excerpt.
//
// Thread-safety: a Session is used by one thread at a time (Interrupt() and Progress()
// excepted, which any thread may call); a QueryResult's reader belongs to its caller and may outlive neither the
// Session nor the catalog's tables.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/parquet.h"
#include "tarn/status.h"
#include "tarn/thread_pool.h"

namespace tarn {

class Lake;  // tarn/catalog.h

// What a scan of a named table asks for.
struct TableScanRequest {
  // Top-level columns to produce, by name, in this order. Empty: no column (only row counts
  // matter, e.g. count(*)); the reader then returns batches with num_rows set and no columns.
  std::vector<std::string> columns;
  // Pruning on statistics (null: none). Bound against the table's schema; rows it does not
  // prune must still be filtered by the caller.
  std::shared_ptr<const StatisticsPredicate> predicate;
  ThreadPool* pool = nullptr;  // where to decode in parallel (null: the default pool)
  int max_parallelism = 2;
};

// A table the SQL front end can scan by name.
class SqlTable {
 public:
  virtual ~SqlTable() = default;
  virtual const Schema& schema() const = 0;
  virtual Result<std::unique_ptr<BatchReader>> Scan(const TableScanRequest& request) const = 0;
  // One line for EXPLAIN, e.g. "lake.main.orders (12 files)".
  virtual std::string Describe() const = 0;
};

// Named tables, case-insensitive. Not thread-safe.
class SqlCatalog {
 public:
  // AlreadyExists when the name is taken.
  Status AddTable(const std::string& name, std::shared_ptr<const SqlTable> table);
  Status DropTable(const std::string& name);  // NotFound when absent
  // Null when absent.
  const SqlTable* FindTable(std::string_view name) const;
  // Sorted.
  std::vector<std::string> TableNames() const;

 private:
  struct Entry {
    std::string name;  // as registered
    std::shared_ptr<const SqlTable> table;
  };
  std::map<std::string, Entry> tables_;  // key: lower-case name
};

struct SqlSettings {
  int threads = 0;            // Default: the machine's cores (std::thread::hardware_concurrency)
  int64_t memory_limit = 0;   // Default: 80% of physical memory, in bytes
};

// Parses DuckDB's memory size spelling: "1GB" (10^9), "512MiB" (2^20), "100 KB", "42" bytes.
Result<int64_t> ParseMemorySize(std::string_view text);
// "1.5 GiB"-style text for messages.
std::string FormatMemorySize(int64_t bytes);

// How Session::Attach opens and names a lake.
struct AttachOptions {
  // The catalog name in SQL (lake.s.t, ducklake_snapshots('lake')). Default: "lake".
  std::string name = "lake";
  // The lake's data path (DATA_PATH). Default: the catalog's. On an existing lake it must
  // equal the catalog's data_path unless override_data_path is set (OVERRIDE_DATA_PATH: the
  // lake was moved); otherwise Attach fails naming both paths.
  std::optional<std::string> data_path;
  bool override_data_path = false;
  // Refuses every write statement. Default: false (the catalog is opened writable).
  bool read_only = false;
  // When the catalog file does not exist, creates a new lake there (CreateLake) with
  // `data_path` as its data path, as DuckDB's ATTACH does by default. Needs data_path (a
  // SQLite catalog has no default data path) and !read_only. Default: false.
  bool create_if_missing = false;
  // A new lake's global data_inlining_row_limit (CreateLake). Default: the built-in 10.
  std::optional<int64_t> data_inlining_row_limit;
  // A new lake's global write_deletion_vectors option (WRITE_DELETION_VECTORS): its delete
  // files are deletion vectors (puffin). Default: unset (Parquet delete files).
  std::optional<bool> write_deletion_vectors;
  // Pins every read to this snapshot (SNAPSHOT_VERSION); the lake is then read-only.
  std::optional<int64_t> snapshot_version;
  // Pins every read to the snapshot current at this time (SNAPSHOT_TIME, a timestamp's text).
  std::optional<std::string> snapshot_time;
  // The name under which SQL reads the catalog database's own tables (METADATA_CATALOG).
  // Default: __ducklake_metadata_<name>.
  std::optional<std::string> metadata_catalog;
};

enum class QueryKind : uint8_t { kRows, kCommand };

// How far the running statement has come: rows its scans (files, lake tables, ranges, the
// table layer's DELETE, UPDATE and compaction scans, row-summary publishing) have read, and
// the rows they were planned to read (from footers, catalog counts and lengths; 0 when
// unknown). A statement may read more or fewer rows than planned (filters prune). Work that
// counts files instead (sweeping row summaries) says so in `unit`.
struct StatementProgress {
  int64_t rows_read = 0;
  int64_t rows_planned = 0;
  std::string_view unit = "rows";  // "rows" or "files"
};

// The answer of one statement. kRows results (SELECT, EXPLAIN, DESCRIBE, SHOW) are shown to a
// user; kCommand results (SET, COPY) carry at most a row count.
struct QueryResult {
  QueryKind kind = QueryKind::kRows;
  std::shared_ptr<const Schema> schema;  // column names and types, in output order
  std::unique_ptr<BatchReader> reader;   // the rows; drained by the caller
  std::string statement;                 // the statement's text
};

class Session {
 public:
  // Files are read and written through `fs`; by default the local disk and, for s3:// paths,
  // object storage with the options of CREATE SECRET, the s3_* settings and the environment
  // (tarn/s3.h StorageRouter).
  explicit Session(std::shared_ptr<FileSystem> fs = nullptr);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  SqlCatalog* catalog();
  const SqlSettings& settings() const;

  // Opens the DuckLake lake at `locator` ("ducklake:sqlite:PATH", "sqlite:PATH" or a bare
  // PATH.sqlite) with Lake::Open and attaches it as options.name. Several lakes may be
  // attached under different names (SQL's ATTACH does the same); the first one attached
  // through this call becomes the session's default lake (unqualified names resolve in it) when
  // none is. AlreadyExists when the name is taken; Lake::Open's errors otherwise.
  Status Attach(std::string_view locator, const AttachOptions& options = {});
  // Attaches a lake the caller opened (options.data_path is ignored: the Lake has its own).
  // A lake opened read-only is attached read-only whatever options.read_only says.
  Status Attach(std::unique_ptr<Lake> lake, const AttachOptions& options = {});
  // The default lake (USE), or null.
  Lake* attached_lake();

  // Executes exactly one statement (a trailing ';' is allowed). The rows are produced lazily
  // as the reader is drained; errors while reading come from reader->Next().
  Result<QueryResult> Execute(std::string_view sql);
  // Parses every statement of `script` (a syntax error anywhere fails before anything runs),
  // then executes them in order, handing each result to `on_result` before the next starts.
  // Stops at the first error.
  Status ExecuteScript(std::string_view script,
                       const std::function<Status(QueryResult&)>& on_result);

  // Interrupts the statement running now: its scans stop within a batch and it fails with
  // Cancelled("Interrupted"); a write statement rolls back (the lake stays at its snapshot).
  // Each statement starts uninterrupted. Thread-safe, and async-signal-safe (a SIGINT handler
  // may call it): the only call on a Session that may come from another thread.
  void Interrupt();
  // The running statement's progress (each statement starts at zero). Thread-safe: another
  // thread polls it while a statement runs (the shell's progress bar).
  StatementProgress Progress() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Drains a reader into one batch (an empty batch of the schema when there are no rows).
Result<std::shared_ptr<Batch>> ReadAllBatches(BatchReader* reader);

}  // namespace tarn
