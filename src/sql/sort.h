// ORDER BY: a full sort, or a top-N when a LIMIT bounds the rows needed.
//
// Sort keys are columns of the input batch (the planner projects ORDER BY expressions into
// hidden columns after the visible ones; the sort drops them: it outputs the first
// `output_columns` columns). Ordering is DuckDB's: values by type, NaN above every number,
// NULLs last unless NULLS FIRST, DESC reversing values but not where NULLs go.
// The full sort holds its whole input (failing past memory_limit); the top-N keeps only the
// best N rows seen so far, merging each new batch into them.
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sql/operator.h"

namespace tarn::sql {

struct SortKey {
  int column = 0;
  bool descending = false;
  bool nulls_first = false;
};

// top_n < 0: sort everything.
std::unique_ptr<Operator> MakeSort(std::unique_ptr<Operator> input, std::vector<SortKey> keys,
                                   int output_columns, int64_t top_n, const ExecContext& context);

// A per-batch operator that shrinks each batch to its best `top_n` rows by `keys` (the same
// columns of the same schema). Below a gather and a top-N sort of the same keys and N, it lets
// the threads do most of a top-N's work without changing its result.
std::unique_ptr<Operator> MakeTopNPerBatch(std::unique_ptr<Operator> input,
                                           std::vector<SortKey> keys, int64_t top_n);

// Compares rows of one batch by the keys: <0, 0, >0.
class RowComparator {
 public:
  RowComparator(const Batch& batch, const std::vector<SortKey>& keys);
  int Compare(int64_t a, int64_t b) const;

 private:
  struct Key;
  std::vector<Key> keys_;
};

}  // namespace tarn::sql
