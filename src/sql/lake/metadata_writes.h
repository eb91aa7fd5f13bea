// INSERT, UPDATE and DELETE on the tables of a lake's catalog database
// (`__ducklake_metadata_<lake>.<table>`, or the METADATA_CATALOG name), as DuckDB writes them:
// they are plain tables of the catalog's SQLite database, which DuckDB attaches next to the
// lake. The rows change as stated, in one catalog transaction per statement, with no check of
// what they mean to the lake (the extension makes none either).
//
// Values and expressions are evaluated by tarn over the rows as metadata_tables.h reads them
// (INT* columns as BIGINT, REAL/DOUBLE as DOUBLE, BLOB, the rest as VARCHAR) and stored in the
// column's declared form: integers as integers, text as text. After a write to
// ducklake_metadata the lake re-reads its options.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <cstdint>
#include <optional>

#include "sql/exec/operator.h"
#include "sql/lake/lake_source.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// The lake whose catalog database `statement` (INSERT, UPDATE or DELETE) writes, or null when
// its target names none.
const LakeBinding* MetadataWriteTarget(const Statement& statement, const ExecContext& context);

// Runs the write on `lake`'s catalog database. Returns the rows inserted, updated or deleted.
// Errors: an unknown table or column, values that do not convert, a read-only lake, an open
// transaction on the lake (its snapshot would not see the change), the database's own errors
// (a primary key taken is Conflict).
Result<int64_t> ExecuteMetadataWrite(const Statement& statement, const LakeBinding& lake,
                                     const ExecContext& context);

}  // namespace tarn::sql
