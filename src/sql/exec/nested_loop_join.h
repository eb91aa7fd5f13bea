// The nested-loop join: every probe row against every build row, for joins without an
// equality condition (CROSS JOIN, comma joins without one, ON conditions such as a < b).
//
// The build input is read whole (join.h's JoinBuild) on the first probe batch; each probe
// batch is paired with all build rows in slices of at most kPairsPerSlice pairs, the pairs
// filtered by the condition (null: every pair matches) and resolved by the join kind
// (FinishProbe). Like the hash join it is a per-batch operator, so the probe runs on every
// thread of a ParallelFeed above it; the build side counts against ExecContext::memory_limit.
//
// Thread-safety: as Operator; TransformBatch may run on several threads at once.
#pragma once

#include <memory>

#include "sql/exec/join.h"

namespace tarn::sql {

// `condition` is bound against probe ++ build columns (PairSchema). For the kinds that output
// build rows at the end (FULL OUTER, right semi and anti: see join.h) the returned tree emits
// them after the probe ends.
Result<std::unique_ptr<Operator>> MakeNestedLoopJoin(std::unique_ptr<Operator> probe,
                                                     std::unique_ptr<Operator> build,
                                                     JoinKind kind,
                                                     std::unique_ptr<BoundExpr> condition,
                                                     const ExecContext& context);

}  // namespace tarn::sql
