// Sources: what a FROM clause reads. A Source knows its full schema and opens a scan operator
// for the columns a query needs, with an optional statistics predicate for pruning.
//
// Implementations: Parquet files (read_parquet: projection and row-group pruning pushed into
// ParquetReader), CSV files (read_csv), range(), tables of the SqlCatalog, and the attached
// lake's tables, views and ducklake_* functions (lake_source.h, ducklake_functions.h).
// BindTableRef resolves a FROM item to one of them.
//
// Thread-safety: a Source is used by one thread at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"
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
  // Schema columns at index >= visible_columns() are pseudo-columns (a lake table's rowid):
  // a query names them explicitly; `*` does not expand to them.
  virtual int visible_columns() const { return schema().num_fields(); }
  // The WHERE clause over this source's columns, for sources that evaluate it while scanning
  // (a lake scan pushes it into OpenTableScan for file, row-group and row filtering). Called
  // before Open. The planner filters the rows itself as well.
  virtual void PushFilter(const ast::Expr& where) { (void)where; }
  // True when the rows Open returns already satisfy the filter given to PushFilter, so the
  // planner adds no filter of its own (a join, which distributes the WHERE over its inputs).
  virtual bool FiltersRows() const { return false; }
  // True when what the source knows without reading its data proves that no row passes the
  // filter given to PushFilter (a lake table whose files' statistics and partition values
  // exclude it and whose inlined rows fail it): the planner then reads nothing.
  virtual bool ProvablyEmpty() { return false; }
  // About how many rows a scan without filter returns (Parquet footers, catalog row counts),
  // for choosing join sides; -1 when unknown.
  virtual int64_t EstimatedRows() const { return -1; }
  // True when the work behind the source reports to Session::Progress itself (publishing row
  // summaries): its result rows are not counted again.
  virtual bool ReportsProgress() const { return false; }
  // At most how many distinct values schema column `column` holds, from what the source knows
  // without reading its data (for an integer or date column, the span of its statistics'
  // bounds), for estimating join sizes; nullopt when unknown. Never above EstimatedRows().
  virtual std::optional<double> DistinctValues(int column) const {
    (void)column;
    return std::nullopt;
  }
  // DuckDB's stats(expr) text ("[Min: 1, Max: 7][Has Null: true, Has No Null: true]") for
  // `expr` naming one of the source's columns, a struct field or a list's elements (`l[1]`),
  // from statistics the source keeps; nullopt when it keeps none.
  virtual std::optional<std::string> StatisticsText(const ast::Expr& expr) const {
    (void)expr;
    return std::nullopt;
  }
  // The exact answer of the aggregate call `call` (min(column), max(column), count(*)) over
  // every row a scan without filter returns, from what the source knows without reading its
  // data (a lake table's file statistics), as DuckDB folds such aggregates over a DuckLake
  // table; nullopt when that does not determine it.
  virtual std::optional<Value> AggregateFromStatistics(const ast::Expr& call) {
    (void)call;
    return std::nullopt;
  }
};

// Resolves a table function call, a file name or a catalog table. Errors name the closest
// known function or table.
Result<std::unique_ptr<Source>> BindTableRef(const TableRef& ref, std::string_view sql_text,
                                             const ExecContext& context);

// The files a glob pattern names (sorted); a pattern without wildcards names itself.
// NotFound when nothing matches.
Result<std::vector<std::string>> ExpandGlob(FileSystem* fs, const std::string& pattern);

// `op`, just opened from `source`, watched for the statement's interrupt and counted for its
// progress (MakeWatchedSource, planned at the source's estimate) unless the source reports
// its own.
std::unique_ptr<Operator> WatchSource(std::unique_ptr<Operator> op, const Source& source,
                                      const ExecContext& context);

}  // namespace tarn::sql
