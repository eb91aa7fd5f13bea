// The lakes a Session has attached, by name, and the default one (USE): what ATTACH, DETACH
// and USE change, and how a statement finds the lake it writes.
//
// DuckDB's rules: names are case-insensitive; "memory" is the session's own catalog (files
// and SqlCatalog tables), the default until USE names a lake; a lake attached through SQL does
// not become the default, one attached through the C++ API does when there is none; the
// default lake cannot be detached; a transaction (BEGIN ... COMMIT) spans every attached lake.
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
  // Opens (or, with options.create_if_missing, creates) the lake at `locator` and attaches it
  // as options.name. `make_default` makes it the default lake when there is none.
  Status Attach(std::string_view locator, const AttachOptions& options,
                std::shared_ptr<FileSystem> fs, bool make_default);
  Status Attach(std::unique_ptr<Lake> lake, const AttachOptions& options,
                std::shared_ptr<FileSystem> fs, bool make_default);
  // ATTACH / DETACH / USE as SQL states them.
  Status Run(const Statement& statement, std::shared_ptr<FileSystem> fs,
             const ExecContext& context);

  // The lake named `name` (case-insensitive), or null.
  LakeState* Find(std::string_view name);
  // The default lake, or null ("memory").
  LakeState* current() { return current_; }
  // Every attached lake's binding, in attach order.
  std::vector<const LakeBinding*> Bindings() const;
  // The lake `statement` writes: the catalog part of its target name or the catalog named by
  // the first argument of a CALL, else the default lake (may be null).
  LakeState* TargetOf(const Statement& statement);

  // BEGIN / COMMIT / ROLLBACK over every attached lake.
  Status Begin(const Statement& statement, const ExecContext& context);
  Status End(const Statement& statement, const ExecContext& context);
  bool in_transaction() const { return in_transaction_; }

  // The session's ducklake_* settings every lake's writes use (LakeBinding::settings).
  // REQUIRES: `settings` outlives this object.
  void set_settings(const LakeSessionSettings* settings) { settings_ = settings; }

 private:
  Status RunAttach(const Statement& statement, std::shared_ptr<FileSystem> fs);
  Status RunDetach(const SessionStmt& detach);
  Status RunUse(const SessionStmt& use, const ExecContext& context);

  std::vector<std::unique_ptr<LakeState>> lakes_;  // attach order
  LakeState* current_ = nullptr;                    // one of lakes_, or null
  bool in_transaction_ = false;
  const LakeSessionSettings* settings_ = nullptr;
};

// The catalog name DuckDB derives from an ATTACH path: the file name without its extension
// ("ducklake:sqlite:/x/lake.db" -> "lake").
std::string DefaultAttachName(std::string_view locator);

}  // namespace tarn::sql
