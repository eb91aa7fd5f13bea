// A query part read more than once that runs once: a CTE that several FROM items name.
//
// SharedRows holds the plan of the part; the first scan to be read runs it to the end and
// keeps its batches (within memory_limit, else "Out of Memory Error: ..."), and every scan then
// reads those batches from the start. EXPLAIN shows the plan under the first scan only.
//
// Thread-safety: the scans of one SharedRows are used by one thread at a time (one operator
// tree).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sql/exec/operator.h"

namespace tarn::sql {

struct SharedRows {
  std::string name;  // for EXPLAIN and errors
  std::unique_ptr<Operator> plan;
  int64_t memory_limit = INT64_MAX;
  // Filled by the first read.
  bool done = false;
  Status status;
  std::vector<std::shared_ptr<Batch>> batches;
  int scans = 0;  // scans made so far
};

// A scan of `rows` (planned already). The first scan made shows the plan in EXPLAIN.
std::unique_ptr<Operator> MakeSharedScan(std::shared_ptr<SharedRows> rows);

}  // namespace tarn::sql
