// Write statements over the attached lake, run through tarn::WriteTransaction
// (tarn/table_write.h): CREATE/DROP SCHEMA, CREATE TABLE (columns | AS query), DROP TABLE,
// ALTER TABLE, CREATE/DROP VIEW, INSERT (VALUES | query), DELETE, UPDATE, BEGIN / COMMIT /
// ROLLBACK, CALL ducklake_set_option / ducklake_set_commit_message.
//
// Outside BEGIN ... COMMIT each statement is its own transaction (one snapshot, committed when
// the statement succeeds, rolled back when it fails). Inside, every statement joins the open
// transaction and COMMIT makes them one snapshot; reads in between see the transaction's own
// changes. A lake attached read-only refuses every write.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sql/exec/operator.h"
#include "sql/lake/lake_source.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// Deletes a WriteTransaction (rolling it back when still open).
struct TransactionDeleter {
  void operator()(WriteTransaction* transaction) const;
};
using TransactionPtr = std::unique_ptr<WriteTransaction, TransactionDeleter>;

// The session's lake: the Lake, what SQL sees of it, and the open transaction.
struct LakeState {
  std::unique_ptr<Lake> lake;
  LakeBinding binding;  // binding.transaction mirrors `transaction`
  TransactionPtr transaction;

  LakeState();
  ~LakeState();
  LakeState(const LakeState&) = delete;
  LakeState& operator=(const LakeState&) = delete;
};

// Whether `statement` changes a lake (or a transaction): the write kinds and
// CALL ducklake_set_option / ducklake_set_commit_message.
bool IsWriteStatement(const Statement& statement);

// Runs a write statement. `lake` is null when no lake is attached. Returns the rows it
// inserted, deleted or updated, or nullopt for statements that count no rows.
Result<std::optional<int64_t>> ExecuteWriteStatement(const Statement& statement, LakeState* lake,
                                                     const ExecContext& context);

}  // namespace tarn::sql
