// The session's databases as seen by the SQL front end — attached DuckLake lakes and the
// built-in "memory" and "temp" (lakes of the session's own): name resolution, time travel, and
// the Source that scans a lake table through OpenTableScan.
//
// A table reference resolves as DuckDB resolves it along its search path:
//   t          → "temp".main.t when temp holds it, else the default database's default schema
//   s.t        → schema s of the default database (or, when s names a database and the default
//                one has no schema s, s.main.t)
//   db.s.t     → schema s, table t of database db
// Views are planned from their stored SQL, with their own database as the default. A lake
// table's source has the table's columns at the snapshot plus the virtual columns (`rowid`,
// and for DuckLake lakes `snapshot_id`, `file_row_number`, `filename`) unless a real column
// shadows one; `AT (VERSION => n)` / `AT (TIMESTAMP => '...')` pick the snapshot. The WHERE
// clause is pushed into the scan (file pruning on catalog statistics, row-group pruning, row
// filtering). Inside an explicit transaction, reads without AT go through the transaction, so
// they see its own writes.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/parse/statement.h"
#include "sql/plan/source.h"
#include "tarn/catalog.h"
#include "tarn/io.h"

// 1: write statements and reads inside a transaction run through tarn::WriteTransaction
// (tarn/table_write.h). 0 builds without the write side: they report "not yet supported".
#ifndef TARN_SQL_LAKE_WRITES
#define TARN_SQL_LAKE_WRITES 1
#endif

namespace tarn {
class WriteTransaction;
struct LakeSessionSettings;
}  // namespace tarn

namespace tarn::sql {

// What a database of the session is. DuckDB's built-in databases — `memory` (the default one)
// and `temp` (CREATE TEMP TABLE; searched first for unqualified names) — are private lakes of
// the session (attached_lakes.h) that SQL sees as DuckDB's in-memory databases: type
// "duckdb", no snapshots, no time travel, no catalog database, no ducklake_* functions.
enum class DatabaseKind : uint8_t { kDuckLake, kMemory, kTemp };

// A database of the session: an attached lake, or a built-in database.
struct LakeBinding {
  std::string name;  // the catalog name used in SQL
  DatabaseKind kind = DatabaseKind::kDuckLake;
  Lake* lake = nullptr;
  std::shared_ptr<FileSystem> fs;
  bool read_only = false;
  // The open explicit transaction (BEGIN ... COMMIT), or null.
  WriteTransaction* transaction = nullptr;
  // Where one-part names resolve (USE lake.schema). Default: "main".
  std::string default_schema = "main";
  // ATTACH (SNAPSHOT_VERSION | SNAPSHOT_TIME): every read without AT sees this snapshot.
  std::optional<int64_t> pinned_snapshot;
  // The name SQL reads the catalog database's tables under (metadata_tables.h); empty for a
  // built-in database.
  std::string metadata_catalog;
  // The session's ducklake_* settings (SET ducklake_target_file_size, ...), or null for the
  // defaults. Owned by the session.
  const LakeSessionSettings* settings = nullptr;

  bool is_ducklake() const { return kind == DatabaseKind::kDuckLake; }
};

// NotADuckLake when the first argument of a ducklake_* call names a database that is no lake
// ('memory', 'temp', 'system'), created or not; OK otherwise.
Status CheckFirstArgumentIsLake(const TableRef& ref, const ExecContext& context);

// The extension's refusal of a ducklake_* function or procedure on a database that is no lake:
// "Binder Error: Attached database "memory" does not refer to a DuckLake database".
Status NotADuckLake(std::string_view name);

// The names of DuckDB's built-in databases, which no ATTACH may take: "memory", "temp",
// "system" (case-insensitive).
bool IsBuiltinDatabaseName(std::string_view name);

// A planned query (a view's, a table macro's) as a source of its output columns.
std::unique_ptr<Source> MakeQuerySource(std::unique_ptr<Operator> plan);

// The attached lake named `name` (case-insensitive), or null.
const LakeBinding* FindLake(const ExecContext& context, std::string_view name);

// The database a table function's first argument names ('lake' as a string literal), else
// the default database when it is a lake (else null).
const LakeBinding* LakeOfFirstArgument(const TableRef& ref, const ExecContext& context);

// The database `names` ([catalog.][schema.]name) refer to, along DuckDB's search path: the
// catalog part when it names a database, else "temp" when it holds the table or view (in
// schema main), else the default database (null while it is an empty built-in one).
const LakeBinding* LakeOfNames(const std::vector<std::string>& names,
                               const ExecContext& context);

// DuckDB's error for a table reference nothing resolves: "Catalog Error: Table with name t does
// not exist!", placed in `sql_text`, with the closest of `candidates`.
Status TableNotFound(const TableRef& ref, std::string_view sql_text,
                     const std::vector<std::string>& candidates);

// A resolved [catalog.][schema.]name.
struct LakeObjectName {
  std::string schema;
  std::string name;
  std::string ToString() const { return schema + "." + name; }
};

// Resolves `names` (1 to 3 parts) against `snapshot`'s schemas: InvalidArgument for an unknown
// catalog part. The object itself is not looked up.
Result<LakeObjectName> ResolveLakeName(const std::vector<std::string>& names,
                                       const LakeBinding& lake, const LakeSnapshot& snapshot);

// The snapshot a query reads: the one `at` names, else the transaction's view when one is
// open, else the latest. An unknown version or a time before the first snapshot is NotFound
// naming the lake's snapshot range. `sql_text`/`offset` place the error.
Result<std::shared_ptr<const LakeSnapshot>> LoadLakeSnapshot(const LakeBinding& lake,
                                                             const std::optional<AtClause>& at,
                                                             std::string_view sql_text,
                                                             int32_t offset);

// The snapshot `at` selects (nullopt: the latest), as a selector of an existing snapshot id.
Result<SnapshotSelector> SelectSnapshot(Lake& lake, const std::string& lake_name,
                                        const AtClause& at);

// Binds a kTable reference against the lake. Returns null (not an error) when `ref` has one
// part and the lake has no table or view of that name, so other catalogs may be tried; every
// other miss is NotFound naming the closest tables.
Result<std::unique_ptr<Source>> BindLakeTableRef(const TableRef& ref, std::string_view sql_text,
                                                 const ExecContext& context);

// Table and view names of `snapshot` as a user writes them: "t" in schema main, "s.t"
// otherwise; sorted.
std::vector<std::string> LakeObjectNames(const LakeSnapshot& snapshot);

// The table `name` at `snapshot`, its metadata loaded (through the transaction when one is
// open and `at_latest`). NotFound naming the closest names when absent.
Result<std::shared_ptr<const TableMetadata>> LoadLakeTable(const LakeBinding& lake,
                                                           const LakeSnapshot& snapshot,
                                                           const LakeObjectName& name,
                                                           bool through_transaction);

}  // namespace tarn::sql
