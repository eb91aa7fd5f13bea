// The hash aggregate operator: GROUP BY keys → one row per group with its aggregates.
//
// It drains its input on up to ExecContext::threads threads of the session's pool, pulling
// through a ParallelFeed (so the filters and projections below it run on those threads too).
// Each batch is aggregated on its own into a partial: a small GroupTable and a partial state
// per aggregate. Partials are merged into the final table strictly in input order, so the
// result does not depend on the thread count: groups come out in first-seen order, min/max
// ties keep the first value, and floating sums (whose rounding depends on the order of
// additions) are replayed row by row into the final state, adding in input order as a
// single-threaded pass does. DISTINCT aggregates drop rows whose (group, value) pair was seen,
// first within the batch (in parallel), then against the final set (in order). Without GROUP
// BY there is exactly one group, even over no rows. After each merge the state's size is
// checked against ExecContext::memory_limit; past it a grouped aggregate with a temp_directory
// freezes its groups and spills the rows of new keys to partition files, aggregated after the
// held groups (sql/exec/spill.h); otherwise the query fails naming the operator and the limit. At most a few items (batches, or parts of the source such as Parquet row
// groups, each read on the worker that takes it) beyond the oldest unmerged one are in flight.
// Output: the key columns, then one column per aggregate.
//
// Thread-safety: one thread at a time (the operator runs its own workers inside Next()).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/exec/aggregate_function.h"
#include "sql/exec/operator.h"

namespace tarn::sql {

struct AggregateSpec {
  std::string function;                 // lower case: count_star, count, sum, avg, min, max
  std::unique_ptr<BoundExpr> argument;  // null for count_star
  std::vector<Value> parameters;        // constant arguments after the first (string_agg)
  bool distinct = false;
  std::string name;                     // output column name
  std::string display;                  // for EXPLAIN: "sum(x)"
};

// Builds the states now, so the output schema (and any type error) is known at plan time.
Result<std::unique_ptr<Operator>> MakeHashAggregate(
    std::unique_ptr<Operator> input, std::vector<std::unique_ptr<BoundExpr>> keys,
    std::vector<std::string> key_names, std::vector<AggregateSpec> aggregates,
    const ExecContext& context);

}  // namespace tarn::sql
