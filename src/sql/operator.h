// The physical operators a query runs as: a tree of pull-based batch streams.
//
// Each Operator is a BatchReader (Next() returns the next batch, nullptr at the end) that
// also describes itself for EXPLAIN: a label ("FILTER"), detail lines, and its inputs.
// Operators stream: scan → filter → project → limit hold one batch at a time; aggregate and
// sort hold their state (bounded by ExecContext::memory_limit).
//
// Thread-safety: an operator tree is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/expr.h"
#include "tarn/io.h"
#include "tarn/sql.h"
#include "tarn/thread_pool.h"

namespace tarn::sql {

// What operators need from the session.
struct ExecContext {
  std::shared_ptr<FileSystem> fs;
  ThreadPool* pool = nullptr;
  int threads = 1;
  int64_t memory_limit = INT64_MAX;
  const SqlCatalog* catalog = nullptr;
};

class Operator : public BatchReader {
 public:
  virtual std::string label() const = 0;
  virtual std::vector<std::string> details() const { return {}; }
  virtual std::vector<const Operator*> inputs() const { return {}; }
};

// The operator tree as indented text, one line per entry:
//   PROJECTION
//     expressions: a, (b + 1)
//     FILTER
//       ...
std::vector<std::string> ExplainLines(const Operator& root);

// Keeps the rows where a BOOLEAN predicate is TRUE; skips batches left empty.
std::unique_ptr<Operator> MakeFilter(std::unique_ptr<Operator> input,
                                     std::unique_ptr<BoundExpr> predicate);

// Computes one output column per expression (bound against the input's schema).
std::unique_ptr<Operator> MakeProjection(std::unique_ptr<Operator> input,
                                         std::vector<std::unique_ptr<BoundExpr>> expressions,
                                         std::vector<std::string> names);

// Skips `offset` rows, then passes at most `limit` rows (-1: no limit) and stops pulling from
// its input once the limit is reached.
std::unique_ptr<Operator> MakeLimit(std::unique_ptr<Operator> input, int64_t limit,
                                    int64_t offset);

// One batch of one row and no columns: the input of a SELECT without FROM.
std::unique_ptr<Operator> MakeSingleRow();

// Batches already computed (EXPLAIN, DESCRIBE, SHOW output).
std::unique_ptr<Operator> MakeValues(std::string label, std::shared_ptr<Batch> batch);

// A batch with no columns and `rows` rows, of an empty schema.
std::shared_ptr<Batch> MakeEmptyColumnsBatch(std::shared_ptr<const Schema> schema, int64_t rows);

}  // namespace tarn::sql
