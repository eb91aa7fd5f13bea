// Parquet scans that evaluate a row filter while decoding (late materialization).
//
// The filter's columns of each batch are decoded first and the filter evaluated on them;
// where it keeps few rows (at most 1 in 8), the other columns are decoded only for the kept
// rows (the rest skipped inside the pages) and the batch holds just those rows; where it keeps
// more, every column is decoded and the batch is returned whole. So rows the filter rejects
// may or may not be dropped, rows it keeps never are: the caller applies the filter again.
// Batches where it keeps no row are not returned.
//
// Thread-safety: as ParquetReader::Scan.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tarn/expr.h"
#include "tarn/parquet.h"

namespace tarn::parquet {

// An integer column's range: `column` is an index of the filter's columns() space.
struct KeptRange {
  int column = -1;
  int64_t low = 0;
  int64_t high = -1;  // low > high: no value at all
};

// A filter a scan evaluates on each batch's filter columns before it decodes the others.
// Safe to call from several threads at once.
class RowFilter {
 public:
  virtual ~RowFilter() = default;
  // The scan's output columns it reads (indexes: options.columns in order, then the position).
  virtual std::vector<int> columns() const = 0;
  // Of `probe`'s rows (only the columns() are set), the bits of those to keep (LSB first,
  // at least every row that must be kept) and, in *selected, how many.
  virtual Result<std::vector<uint8_t>> Select(const Batch& probe, int64_t* selected) const = 0;
  // What it is, for EXPLAIN ("top-N bound").
  virtual std::string label() const { return "row filter"; }
  // The range of one integer column outside which (and at NULL) the filter keeps no row, when
  // it knows one: a scan prunes files, row groups and pages with it before decoding. May do
  // work (a join's filter builds the join's side first); a scan asks once.
  virtual Result<std::optional<KeptRange>> Range() const {
    return std::optional<KeptRange>();
  }
};

// The same filter over a batch whose columns sit elsewhere: its column c is the new batch's
// column to_new[c]. Null when a column of the filter has no place (-1 or past to_new), or when
// `filter` is null.
std::shared_ptr<const RowFilter> RemappedRowFilter(std::shared_ptr<const RowFilter> filter,
                                                   std::vector<int> to_new);

// Row-group and page pruning for a KeptRange: true where column `name`'s statistics may hold a
// value in [low, high] (not only NULLs). Integer statistics only; others always may match.
std::shared_ptr<const StatisticsPredicate> IntegerRangePredicate(std::string name, int64_t low,
                                                                 int64_t high);
// Whether a KeptRange's bounds compare with the statistics of a column of `type` as they are:
// signed integers and DATE.
bool KeptRangeApplies(const DataType& type);
// Both predicates (a null one is ignored; null when both are).
std::shared_ptr<const StatisticsPredicate> BothPredicates(
    std::shared_ptr<const StatisticsPredicate> a, std::shared_ptr<const StatisticsPredicate> b);

// A BOOLEAN expression bound against the scan's output schema as a RowFilter (keeps the rows
// where it is TRUE).
std::shared_ptr<const RowFilter> ExpressionRowFilter(std::shared_ptr<const BoundExpr> filter);
// Keeps the rows every one of `filters` keeps (null entries are ignored; null when none).
std::shared_ptr<const RowFilter> AllRowFilters(std::vector<std::shared_ptr<const RowFilter>> filters);

// Like reader.Scan(options), with `filter` evaluated while decoding. Readers not opened by
// ParquetReader::Open, and a null filter, scan without it.
Result<std::unique_ptr<ScanReader>> ScanWithRowFilter(const ParquetReader& reader,
                                                      const ScanOptions& options,
                                                      std::shared_ptr<const RowFilter> filter);
// The same with ExpressionRowFilter(filter).
Result<std::unique_ptr<ScanReader>> ScanWithRowFilter(const ParquetReader& reader,
                                                      const ScanOptions& options,
                                                      std::shared_ptr<const BoundExpr> filter);

}  // namespace tarn::parquet
