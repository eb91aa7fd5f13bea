// The hash join: equality conditions between a probe input and a build input.
//
// The build input is read whole into one batch (join.h's JoinBuild) and a hash table over its
// key columns, on the first probe batch (or the first Next(), or a key filter's first check).
// A single integer-like key (integers up to 64 bits, dates, times, timestamps) goes into an
// open-addressing table of distinct keys; any other key (strings, decimals, floats, several
// columns) is compared as serialized bytes through chained buckets, floats normalized so that
// NaN matches NaN and -0.0 matches 0.0. A row with a NULL key matches nothing. Pairs that
// match are then filtered by the residual condition, if any, and resolved by the join kind
// (join.h's FinishProbe).
//
// Each probe batch is joined on its own (TransformBatch), so the probe runs on every thread
// of a ParallelFeed above it; output order follows the probe's batches. An inner or semi join
// with an integer key hands the probe side a filter on that key column (JoinKeyFilter: a bit
// per value of a small key range, else the table itself for one key, else the key range), which
// a Parquet scan below evaluates before decoding the other columns. A semi or anti join that
// builds on its outer side (right semi, right anti) marks the build rows probe rows match and
// outputs them after the probe (join.h).
//
// Memory: the build side and its table count against ExecContext::memory_limit. Past it, with
// a temp_directory, both sides go to partition files by key hash and the join's tail
// (Operator::OpenTail) joins the partitions one by one, splitting again those still too large
// (sql/exec/spill.h); without one the query fails naming HASH_JOIN and the limit.
//
// Thread-safety: as Operator; TransformBatch may run on several threads at once.
#pragma once

#include <memory>
#include <vector>

#include "sql/exec/join.h"

namespace tarn::sql {

struct HashJoinSpec {
  JoinKind kind = JoinKind::kInner;
  // Pairwise of one type: probe_keys[i] (bound against the probe schema) = build_keys[i]
  // (against the build schema). At least one.
  std::vector<std::unique_ptr<BoundExpr>> probe_keys;
  std::vector<std::unique_ptr<BoundExpr>> build_keys;
  // Bound against probe ++ build columns (PairSchema); null: none.
  std::unique_ptr<BoundExpr> residual;
  // For EXPLAIN: the conditions as written.
  std::vector<std::string> condition_text;
};

// For the kinds that output build rows at the end (FULL OUTER, right semi and anti: see
// join.h) the returned tree emits them after the probe ends.
Result<std::unique_ptr<Operator>> MakeHashJoin(std::unique_ptr<Operator> probe,
                                               std::unique_ptr<Operator> build, HashJoinSpec spec,
                                               const ExecContext& context);

}  // namespace tarn::sql
