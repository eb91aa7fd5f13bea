// Row order as DuckDB sorts: values by type, NaN above every number, NULLs last unless NULLS
// FIRST, DESC reversing values but not where NULLs go. Shared by ORDER BY (sql/exec/sort) and
// the sorted writes of lake tables (table/sort_rows).
//
// Thread-safety: a comparator only reads its columns; it may be used from several threads.
#pragma once

#include <cstdint>
#include <vector>

#include "expr/kernels.h"
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

 private:
  struct Key {
    const Column* column;
    Phys phys;
    bool descending;
    bool nulls_first;
    int CompareValues(int64_t a, int64_t b) const;
  };
  std::vector<Key> keys_;
};

}  // namespace tarn::expr
