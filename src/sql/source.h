// Sources: what a FROM clause reads. A Source knows its full schema and opens a scan operator
// for the columns a query needs, with an optional statistics predicate for pruning.
//
// Implementations: Parquet files (read_parquet: projection and row-group pruning pushed into
// ParquetReader), CSV files (read_csv), range(), and tables of the SqlCatalog (which a lake
// populates). BindTableRef resolves a FROM item to one of them.
//
// Thread-safety: a Source is used by one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/operator.h"
#include "sql/statement.h"
#include "tarn/parquet.h"
#include "tarn/status.h"

namespace tarn::sql {

class Source {
 public:
  virtual ~Source() = default;
  virtual const Schema& schema() const = 0;
  // Opens a scan producing schema columns `columns` (ascending indices; empty: no columns,
  // only rows). `predicate`, bound against the schema of exactly those columns, may prune.
  virtual Result<std::unique_ptr<Operator>> Open(
      const std::vector<int>& columns, std::shared_ptr<const StatisticsPredicate> predicate) = 0;
};

// Resolves a table function call, a file name or a catalog table. Errors name the closest
// known function or table.
Result<std::unique_ptr<Source>> BindTableRef(const TableRef& ref, std::string_view sql_text,
                                             const ExecContext& context);

// The files a glob pattern names (sorted); a pattern without wildcards names itself.
// NotFound when nothing matches.
Result<std::vector<std::string>> ExpandGlob(FileSystem* fs, const std::string& pattern);

}  // namespace tarn::sql
