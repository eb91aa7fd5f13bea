// UPDATE … FROM, DELETE … USING and MERGE INTO: writes whose rows come from a join of the
// target table with other tables (docs/sql.md "Write statements").
//
// Each reads what it needs first — a query over the target (through the statement's
// transaction, so it sees the transaction's own changes) and the other tables — and then
// applies it: updates by rowid (WriteTransaction::UpdateByRowId), deletes by rowid, inserts.
// A target row that several rows join is changed once, by the first of them.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <cstdint>
#include <optional>

#include "sql/exec/operator.h"
#include "sql/lake/lake_source.h"
#include "sql/parse/statement.h"

namespace tarn {
class WriteTransaction;
}  // namespace tarn

namespace tarn::sql {

// Runs `statement` (UPDATE or DELETE with write->from, or MERGE) on the table `target` in
// `txn`; `context` resolves the other names. Returns the rows updated, deleted and inserted.
Result<std::optional<int64_t>> RunJoinedWrite(const Statement& statement,
                                              const LakeObjectName& target,
                                              WriteTransaction* txn, const ExecContext& context);

}  // namespace tarn::sql
