// ORDER BY: a full sort, or a top-N when a LIMIT bounds the rows needed.
//
// Sort keys are columns of the input batch (the planner projects ORDER BY expressions into
// hidden columns after the visible ones; the sort drops them: it outputs the first
// `output_columns` columns). Ordering is DuckDB's: values by type, NaN above every number,
// NULLs last unless NULLS FIRST, DESC reversing values but not where NULLs go.
// The full sort holds its input up to memory_limit; past it (with a temp_directory) it writes
// sorted runs to spill files and merges them, ties to the earlier run, else it fails. The
// top-N keeps only the best N rows seen so far, merging each new batch into them.
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "expr/eval/kernels.h"
#include "expr/eval/row_compare.h"
#include "parquet/filtered_scan.h"
#include "sql/exec/operator.h"

namespace tarn::sql {

struct SortKey {
  int column = 0;
  bool descending = false;
  bool nulls_first = false;
};

// top_n < 0: sort everything.
std::unique_ptr<Operator> MakeSort(std::unique_ptr<Operator> input, std::vector<SortKey> keys,
                                   int output_columns, int64_t top_n, const ExecContext& context);

// The value a row's first sort key must reach for the row to enter a top-N, once known: when
// N rows of one batch have a non-NULL first key, a row whose first key sorts after the N-th
// of them cannot be among the top N (equal keys can: later keys decide). The per-batch top-N
// tightens it as batches go by; the scan below evaluates it while decoding, so rows that
// cannot make the top N are not decoded past that key. For first keys of integer-like,
// DECIMAL or floating types, NULLS LAST; rows with a NULL key are dropped once the bound is
// known.
class TopNBound : public parquet::RowFilter {
 public:
  // Whether a first key of `type` (with `key`'s direction and NULL placement) can have one.
  static bool Supports(const DataType& type, const SortKey& key);
  // `scan_column`: the key's column in the scan's output. REQUIRES: Supports(type, key).
  TopNBound(int scan_column, const DataType& type, bool descending);

  // Row `row` of `key` (a column of the bound's type), the N-th best row of a batch: the
  // bound becomes its value unless it is already as tight. NULL rows are ignored.
  void Offer(const Column& key, int64_t row);

  std::vector<int> columns() const override { return {scan_column_}; }
  std::string label() const override { return "top-N bound"; }
  Result<std::vector<uint8_t>> Select(const Batch& probe, int64_t* selected) const override;

 private:
  int scan_column_;
  expr::Phys phys_;
  bool descending_;
  mutable std::mutex mu_;  // guards the fields below
  bool known_ = false;
  __int128 integer_ = 0;  // integer-like and DECIMAL keys
  double floating_ = 0;   // floating keys
};

// A per-batch operator that shrinks each batch to its best `top_n` rows by `keys` (the same
// columns of the same schema). Below a gather and a top-N sort of the same keys and N, it lets
// the threads do most of a top-N's work without changing its result. With `bound`, each batch
// of at least `top_n` rows offers its N-th row's first key to it.
std::unique_ptr<Operator> MakeTopNPerBatch(std::unique_ptr<Operator> input,
                                           std::vector<SortKey> keys, int64_t top_n,
                                           std::shared_ptr<TopNBound> bound = nullptr);

// The row numbers of `batch` in the order of `keys` (ties in input order): the first `keep`
// of them, or all when keep < 0.
std::vector<int64_t> OrderRows(const Batch& batch, const std::vector<SortKey>& keys,
                               int64_t keep);

// Compares rows of one batch by the keys: <0, 0, >0 (expr::RowComparator over the batch's key
// columns; the batch must outlive the comparator).
class RowComparator {
 public:
  RowComparator(const Batch& batch, const std::vector<SortKey>& keys);
  int Compare(int64_t a, int64_t b) const;

 private:
  expr::RowComparator comparator_;
};

}  // namespace tarn::sql
