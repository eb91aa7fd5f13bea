// The column plan of a table scan: which table columns are read (the projection plus those
// the predicate reads), the internal batch layout, the bound residual filter, the pruning
// predicate, and the output layout ([snapshot_id][rowid], the projection, then
// [file_row_number][filename]).
//
// Names resolve case-insensitively against the table's columns first, then the
// pseudo-columns rowid and snapshot_id (a table column of the same name shadows them).
//
// Thread-safety: immutable after Make; Finish may run on many threads.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/expr.h"
#include "tarn/parquet.h"
#include "tarn/table.h"

namespace tarn::table_internal {

struct ScanColumns {
  std::vector<const ColumnInfo*> needed;           // in table column order
  std::shared_ptr<const Schema> internal_schema;   // MakeInternalSchema(needed)
  std::shared_ptr<const Schema> full_schema;       // every table column, rowid, snapshot_id
  std::shared_ptr<const Schema> output_schema;
  // Internal column of each output column; kFilenameColumn for the filename.
  std::vector<int> output_columns;
  static constexpr int kFilenameColumn = -1;
  std::shared_ptr<const BoundExpr> filter;         // over internal_schema; null = none
  std::shared_ptr<const StatisticsPredicate> pruning_predicate;  // over full_schema
  std::shared_ptr<const BoundExpr> full_filter;  // the filter over full_schema; null = none

  static Result<ScanColumns> Make(const TableInfo& table, const TableScanOptions& options);

  // Filters an internal batch and projects it to the output layout; adds the rows the filter
  // dropped to *filtered. `filename` names the batch's file (with_filename).
  Result<std::shared_ptr<Batch>> Finish(const Batch& internal, int64_t* filtered,
                                        std::string_view filename = {}) const;
};

// The batches end to end, or an empty batch of `schema` when there are none.
std::shared_ptr<Batch> ConcatenateOrEmpty(std::shared_ptr<const Schema> schema,
                                          std::span<const std::shared_ptr<Batch>> batches);

}  // namespace tarn::table_internal
