// The databases of a Session, by name, and the default one (USE): what ATTACH, DETACH and USE
// change, and how a statement finds the database it writes.
//
// DuckDB's rules: names are case-insensitive; "memory" is the session's own database, the
// default until USE names another; "temp" holds CREATE TEMP tables and views and is searched
// first for an unqualified name; a lake attached through SQL does not become the default, one
// attached through the C++ API does while "memory" is; the default database cannot be
// detached; a transaction (BEGIN ... COMMIT) spans every database.
//
// "memory" and "temp" are lakes of their own (kind kMemory / kTemp): a DuckLake catalog in an
// in-memory SQLite database with its data files in a private in-memory FileSystem, so every
// statement that works on a lake works on them, and everything they hold is gone with the
// session. Each is created when a statement first writes it; until then it is empty and its
// binding is left out of Bindings(). The SqlCatalog's tables (Session::catalog()) are
// "memory"'s as well.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sql/lake/write_statements.h"
#include "sql/parse/statement.h"
#include "tarn/io.h"
#include "tarn/sql.h"

namespace tarn::sql {

class AttachedLakes {
 public:
  AttachedLakes();
  ~AttachedLakes();
  AttachedLakes(const AttachedLakes&) = delete;
  AttachedLakes& operator=(const AttachedLakes&) = delete;

  // Opens (or, with options.create_if_missing, creates) the lake at `locator` and attaches it
  // as options.name. `make_default` makes it the default database while "memory" is.
  Status Attach(std::string_view locator, const AttachOptions& options,
                std::shared_ptr<FileSystem> fs, bool make_default);
  Status Attach(std::unique_ptr<Lake> lake, const AttachOptions& options,
                std::shared_ptr<FileSystem> fs, bool make_default);
  // ATTACH / DETACH / USE as SQL states them.
  Status Run(const Statement& statement, std::shared_ptr<FileSystem> fs,
             const ExecContext& context);

  // The database named `name` (case-insensitive): an attached lake, "memory" or "temp"
  // (created or not); null when there is none.
  LakeState* Find(std::string_view name);
  // The default database (USE): "memory" unless USE chose another.
  LakeState* default_database() { return current_; }
  // The default database when it is an attached DuckLake lake, else null.
  LakeState* current() { return current_->binding.is_ducklake() ? current_ : nullptr; }
  // The binding of every database that holds anything: "memory" once created, the attached
  // lakes in attach order, "temp" once created.
  std::vector<const LakeBinding*> Bindings() const;
  // The database `statement` writes, as DuckDB's binder finds it: the catalog part of its
  // target name, "temp" for CREATE TEMP and for an unqualified name "temp" holds, the catalog
  // a CALL's first argument names, else the default database. A built-in database is created
  // here when it has not been. Errors: an unknown catalog, TEMP with another catalog.
  Result<LakeState*> TargetOf(const Statement& statement, const ExecContext& context);

  // BEGIN / COMMIT / ROLLBACK over every database.
  Status Begin(const Statement& statement, const ExecContext& context);
  Status End(const Statement& statement, const ExecContext& context);
  bool in_transaction() const { return in_transaction_; }

  // The session's ducklake_* settings every lake's writes use (LakeBinding::settings).
  // REQUIRES: `settings` outlives this object.
  void set_settings(const LakeSessionSettings* settings);

 private:
  Status RunAttach(const Statement& statement, std::shared_ptr<FileSystem> fs);
  Status RunDetach(const SessionStmt& detach);
  Status RunUse(const SessionStmt& use, const ExecContext& context);
  // Creates the lake behind a built-in database (a no-op when it exists); it joins an open
  // transaction.
  Status Create(LakeState* builtin, const ExecContext& context);
  // Every database that holds anything, "memory" first and "temp" last.
  std::vector<LakeState*> Databases() const;

  std::unique_ptr<LakeState> memory_;               // null once DETACHed
  std::unique_ptr<LakeState> temp_;
  std::vector<std::unique_ptr<LakeState>> lakes_;  // attach order
  LakeState* current_ = nullptr;                    // the default database; never null
  bool in_transaction_ = false;
  const LakeSessionSettings* settings_ = nullptr;
};

// A BEGIN, COMMIT or ROLLBACK statement (`what` its text), as the session runs one.
std::unique_ptr<Statement> TransactionStatement(StatementKind kind, const char* what);

// The catalog name DuckDB derives from an ATTACH path: the file name without its extension
// ("ducklake:sqlite:/x/lake.db" -> "lake").
std::string DefaultAttachName(std::string_view locator);

}  // namespace tarn::sql
