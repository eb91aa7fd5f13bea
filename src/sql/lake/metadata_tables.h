// The catalog database of an attached lake, readable in SQL as DuckDB shows it: the tables of
// lake `l`'s catalog are `__ducklake_metadata_l.<table>` (and `__ducklake_metadata_l.main.<table>`;
// ATTACH ... (METADATA_CATALOG 'm') names them m.<table>), each row as stored (ducklake_snapshot, ducklake_data_file, ..., the inlined data tables).
// Columns take their declared types: INT* as BIGINT, BOOLEAN, REAL/DOUBLE/FLOAT as DOUBLE, BLOB,
// and everything else (VARCHAR, UUID, timestamps) as the VARCHAR text the catalog holds. A read
// sees the catalog as committed when it runs, not a transaction's pending changes.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"
#include "sql/plan/source.h"

namespace tarn::sql {

// The catalog table `ref` names, read in full; null when its first name part is no
// `__ducklake_metadata_<lake>` of an attached lake.
Result<std::unique_ptr<Source>> BindMetadataTable(const TableRef& ref, std::string_view sql_text,
                                                  const ExecContext& context);

}  // namespace tarn::sql
