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
#include <string>
#include <string_view>
#include <vector>

#include "sql/exec/operator.h"
#include "sql/lake/lake_source.h"
#include "sql/parse/statement.h"
#include "sql/plan/source.h"

namespace tarn::sql {

// The catalog table `ref` names, read in full; null when its first name part is no
// `__ducklake_metadata_<lake>` of an attached lake.
Result<std::unique_ptr<Source>> BindMetadataTable(const TableRef& ref, std::string_view sql_text,
                                                  const ExecContext& context);

// The lake whose catalog database SQL names `name` (case-insensitive), or null.
const LakeBinding* FindMetadataCatalog(const ExecContext& context, std::string_view name);

// A table of a catalog database as SQL reads it.
struct MetadataTable {
  std::string name;                   // as the database spells it
  std::vector<Field> fields;          // the columns, typed as above
  std::vector<CatalogType> read_as;   // how the store reads each column
};

// The table `names` ([catalog.][main.]table) names in `lake`'s catalog database: NotFound
// naming the closest table (or the schema, which must be main).
Result<MetadataTable> FindMetadataTable(const LakeBinding& lake,
                                        const std::vector<std::string>& names);

// Every row of `table`; with `with_rowid`, SQLite's rowid of each row comes first (a BIGINT
// column "rowid").
Result<std::shared_ptr<Batch>> ReadMetadataRows(const LakeBinding& lake,
                                                const MetadataTable& table, bool with_rowid);

// `name` as a double-quoted SQL identifier.
std::string QuoteSqlName(const std::string& name);

}  // namespace tarn::sql
