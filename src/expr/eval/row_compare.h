// Row order as DuckDB sorts: values by type, NaN above every number, NULLs last unless NULLS
// FIRST, DESC reversing values but not where NULLs go. Shared by ORDER BY (sql/exec/sort) and
// the sorted writes of lake tables (table/sort_rows).
//
// Thread-safety: a comparator only reads its columns; it may be used from several threads.
#pragma once

#include <cstdint>
#include <vector>

#include "expr/eval/kernels.h"
#include "tarn/columnar.h"

namespace tarn::expr {

struct OrderColumn {
  const Column* column = nullptr;  // borrowed: must outlive the comparator
  bool descending = false;
  bool nulls_first = false;
};

class RowComparator {
 public:
  explicit RowComparator(const std::vector<OrderColumn>& keys);
  // Rows a and b of the key columns: <0, 0, >0.
  int Compare(int64_t a, int64_t b) const;
  // Row a of these key columns against row b of `other`'s, which holds the same keys over
  // other columns of the same types (a merge of sorted runs): <0, 0, >0.
  int Compare(int64_t a, const RowComparator& other, int64_t b) const;

 private:
  struct Key {
    const Column* column;
    Phys phys;
    bool descending;
    bool nulls_first;
    // Row a of `column` against row b of `other` (of the same type).
    int CompareValues(int64_t a, const Column& other, int64_t b) const;
  };
  static int CompareKey(const Key& key, int64_t a, const Key& other, int64_t b);
  std::vector<Key> keys_;
};

}  // namespace tarn::expr
