// The hash aggregate operator: GROUP BY keys → one row per group with its aggregates.
//
// It drains its input, assigning each row a group (GroupTable) and updating every aggregate's
// state column-wise; DISTINCT aggregates first drop rows whose (group, value) pair was seen.
// Without GROUP BY there is exactly one group, even over no rows. After each batch the state's
// size is checked against ExecContext::memory_limit; past it the query fails naming the
// operator and the limit. Output: the key columns, then one column per aggregate.
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/aggregate_function.h"
#include "sql/operator.h"

namespace tarn::sql {

struct AggregateSpec {
  std::string function;                 // lower case: count_star, count, sum, avg, min, max
  std::unique_ptr<BoundExpr> argument;  // null for count_star
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
