// Level building ("shredding"): turns one top-level column in Arrow layout into the definition
// and repetition levels of one leaf column, plus the rows of the leaf's own Column that hold
// its present (non-NULL) values, in order.
//
// A flat column takes a fast path: its levels come straight from the validity bitmap and its
// present values are its valid rows (no row list is built).
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <vector>

#include "parquet/writer_schema.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::parquet {

struct LeafLevels {
  std::vector<int16_t> def_levels;  // one per level entry; empty when max_def == 0
  std::vector<int16_t> rep_levels;  // one per level entry; empty when max_rep == 0
  int64_t num_levels = 0;
  int64_t num_rows = 0;             // records (top-level rows)
  const Column* leaf = nullptr;     // the column holding the leaf values
  // Present values: when `dense`, the valid rows of `leaf` in order (flat columns);
  // otherwise exactly the rows listed in `value_rows`.
  bool dense = true;
  std::vector<int64_t> value_rows;
  int64_t num_values = 0;           // present values
};

// Shreds `column` (the top-level column of `leaf_schema.top_level_column`) for one leaf.
// Fails with Corruption-free InvalidArgument when the column's shape does not match the
// schema (missing children, offsets out of range).
Status BuildLeafLevels(const WriterLeaf& leaf_schema, const Column& column, LeafLevels* out);

}  // namespace tarn::parquet
