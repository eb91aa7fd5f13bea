// The physical operators a query runs as: a tree of pull-based batch streams.
//
// Each Operator is a BatchReader (Next() returns the next batch, nullptr at the end) that
// also describes itself for EXPLAIN: a label ("FILTER"), detail lines, and its inputs.
// Operators stream: scan → filter → project → limit hold one batch at a time; aggregate and
// sort hold their state (bounded by ExecContext::memory_limit).
//
// Per-batch operators (FILTER, PROJECTION) turn each input batch into one output batch and
// keep no state between batches, so a consumer that works on several threads (the hash
// aggregate) pulls through a ParallelFeed: the stateful part of the tree below is pulled under
// a lock, one thread at a time, and the per-batch operators above it run on the pulling
// threads in parallel.
//
// Thread-safety: an operator tree is used by one thread at a time, except TransformBatch
// (any number of threads) and ParallelFeed::Next (any number of threads).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "parquet/filtered_scan.h"
#include "tarn/columnar.h"
#include "tarn/expr.h"
#include "tarn/io.h"
#include "tarn/layout.h"
#include "tarn/sql.h"
#include "tarn/thread_pool.h"
#include "tarn/work_watch.h"

namespace tarn::sql {

struct LakeBinding;  // sql/lake/lake_source.h
class StorageSecrets;  // sql/system/secrets.h
struct CteScope;     // sql/plan/common_table.h

// What operators need from the session.
struct ExecContext {
  std::shared_ptr<FileSystem> fs;
  ThreadPool* pool = nullptr;
  int threads = 1;
  int64_t memory_limit = INT64_MAX;
  // SET temp_directory: where stateful operators spill past memory_limit (sql/exec/spill.h);
  // empty: they fail there instead.
  std::string temp_directory;
  const SqlCatalog* catalog = nullptr;
  // The default DuckLake lake (USE; and its open transaction), or null.
  const LakeBinding* lake = nullptr;
  // Every attached lake, in attach order (the default one among them).
  std::vector<const LakeBinding*> lakes;
  // CREATE SECRET's secrets, for duckdb_secrets(); null outside a session.
  const StorageSecrets* secrets = nullptr;
  // The WITH queries in scope while planning, innermost first, or null.
  const CteScope* ctes = nullptr;
  // How many queries are being planned around this one (PlanSelect in PlanSelect: derived
  // tables, CTEs, subqueries, set operation sides), for the planner's "nested too deeply".
  int plan_depth = 0;
  // SET layout_picker / layout_sample_rows: how SORTED BY AUTO picks its key (tarn/layout.h).
  PickerMode layout_picker = PickerMode::kMeasured;
  int64_t layout_sample_rows = 1 << 20;
  // Set by Session::Interrupt(): scans stop at their next batch with Cancelled("Interrupted").
  // Null: never interrupted.
  const std::atomic<bool>* interrupted = nullptr;
  // Session::Progress(): rows the statement's sources have read, and were planned to read
  // (MakeWatchedSource adds to both). Null: not counted.
  std::atomic<int64_t>* rows_read = nullptr;
  std::atomic<int64_t>* rows_planned = nullptr;
  // What Session::Progress() counts: "rows" unless work below the statement counts files.
  std::atomic<const char*>* progress_unit = nullptr;

  // The same counters and flag for the layers below (table writes, row summaries).
  WorkWatch Watch() const { return WorkWatch{interrupted, rows_read, rows_planned, progress_unit}; }
};

class Operator : public BatchReader {
 public:
  // Empty for operators EXPLAIN leaves out (their inputs take their place).
  virtual std::string label() const = 0;
  virtual std::vector<std::string> details() const { return {}; }
  virtual std::vector<const Operator*> inputs() const { return {}; }

  // Per-batch operators return their input; every other operator returns null.
  virtual Operator* per_batch_input() { return nullptr; }
  // Per-batch operators: the output batch for one input batch (possibly 0 rows, e.g. a filter
  // that keeps no row). Safe to call from several threads at once. Others: Internal error.
  virtual Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const;

  // Sources that evaluate row filters while decoding (a Parquet scan): adds `filter`, over
  // this operator's output columns, and returns true; rows it rejects may be left out. Others
  // return false.
  virtual bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) {
    (void)filter;
    return false;
  }

  // A filter's predicate, for a consumer that applies it itself (the hash aggregate, which
  // can skip the rows it drops instead of copying the rows it keeps); null for others.
  virtual const BoundExpr* filter_predicate() const { return nullptr; }

  // Per-batch operators that hold rows back while their input streams (a hash join whose
  // build side was spilled, sql/exec/spill.h): the rows still owed once TransformBatch has seen
  // every input batch, as a source (possibly in parts); null when none. Called once, after the
  // last TransformBatch returned, by whoever drained the input (ParallelFeed, or the
  // operator's own Next()).
  virtual Result<std::unique_ptr<Operator>> OpenTail() const;

  // Sources whose input splits into parts that several threads can read at once (a Parquet
  // scan's row groups): how many parts there are; every other operator returns 0. Reading the
  // parts in order gives what Next() gives.
  virtual int64_t num_parts() const { return 0; }
  // A reader of part `part`'s batches, which decodes on the calling thread. Safe to call, and
  // to use the readers, from several threads at once. Others: Internal error.
  virtual Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const;
};

// Pulls an operator tree's batches for several threads. Items are numbered 0, 1, ... in input
// order; the per-batch operators on top run on the calling thread, outside the lock. When the
// tree's stateful part is a source that splits into parts, each item is one whole part, read
// (decoded) on the calling thread, so threads read different parts at once; otherwise each item
// is one batch, pulled under the lock. When the source ends, each per-batch operator's tail
// (Operator::OpenTail), bottom first, is opened once every item in flight is through, and fed
// the same way through the operators above it. REQUIRES: the tree outlives the feed.
class ParallelFeed {
 public:
  explicit ParallelFeed(Operator* root);

  struct Item {
    int64_t sequence = -1;  // -1: no more items
    // In order; possibly none, or batches of 0 rows. The item's number must still be consumed.
    std::vector<std::shared_ptr<Batch>> batches;
  };
  // After the end or an error, every later call returns the end.
  Result<Item> Next();

  ~ParallelFeed();

 private:
  // The source has ended and no item is in flight: the next tail, or the end. REQUIRES: mu_.
  Status NextStage();
  // Runs the transforms from `first` on over one batch.
  Result<std::shared_ptr<Batch>> Transform(std::shared_ptr<Batch> batch, size_t first) const;

  std::mutex mu_;  // guards source_ and the fields below
  std::condition_variable idle_;  // in_flight_ fell to 0
  Operator* source_;
  std::vector<const Operator*> transforms_;  // bottom first
  size_t first_transform_ = 0;  // the transforms applied to source_'s batches start here
  std::vector<std::unique_ptr<Operator>> tails_;  // opened so far (source_ may be the last)
  int64_t num_parts_ = 0;
  int64_t next_part_ = 0;
  int64_t next_sequence_ = 0;
  int in_flight_ = 0;  // items pulled whose transforms are still running
  bool source_ended_ = false;
  bool done_ = false;
};

// What a per-batch operator's Next() returns: the next of `op`'s TransformBatch outputs over
// `input`'s batches that has rows (a filter or join may leave a batch empty), null at the end.
Result<std::shared_ptr<Batch>> NextTransformed(const Operator& op, Operator* input);

// A source over a reader's batches (spill files read back, say); `label` for EXPLAIN.
std::unique_ptr<Operator> MakeReaderSource(std::string label, std::unique_ptr<BatchReader> reader);

// The operator tree as indented text, one line per entry:
//   PROJECTION
//     expressions: a, (b + 1)
//     FILTER
//       ...
std::vector<std::string> ExplainLines(const Operator& root);

// The rows of `batch` whose bit is set in `keep` (`selected` of them).
std::shared_ptr<Batch> KeepRows(std::shared_ptr<Batch> batch, const std::vector<uint8_t>& keep,
                                int64_t selected);

// Keeps the rows where a BOOLEAN predicate is TRUE; skips batches left empty.
std::unique_ptr<Operator> MakeFilter(std::unique_ptr<Operator> input,
                                     std::unique_ptr<BoundExpr> predicate);

// Computes one output column per expression (bound against the input's schema).
std::unique_ptr<Operator> MakeProjection(std::unique_ptr<Operator> input,
                                         std::vector<std::unique_ptr<BoundExpr>> expressions,
                                         std::vector<std::string> names);

// Runs the per-batch operators on top of `input` (filters, projections) on up to
// context.threads threads and yields their batches in input order, skipping empty ones.
// Returns `input` itself when it has no per-batch operator on top or there is one thread.
std::unique_ptr<Operator> MakeGather(std::unique_ptr<Operator> input, const ExecContext& context);

// Skips `offset` rows, then passes at most `limit` rows (-1: no limit) and stops pulling from
// its input once the limit is reached.
std::unique_ptr<Operator> MakeLimit(std::unique_ptr<Operator> input, int64_t limit,
                                    int64_t offset);

// LIMIT p% (DuckDB's LIMIT_PERCENT): holds every input row, then skips `offset` rows and
// passes floor(p / 100 * total rows) of them. REQUIRES: 0 <= percent <= 100.
std::unique_ptr<Operator> MakeLimitPercent(std::unique_ptr<Operator> input, double percent,
                                           int64_t offset);

// `input` itself when `interrupted` is null; otherwise `input` behind a check of *interrupted
// before each batch (and each part's batch), which fails with Cancelled("Interrupted"). The
// check is invisible: EXPLAIN, row filters and parts pass through to `input`.
std::unique_ptr<Operator> MakeInterruptible(std::unique_ptr<Operator> input,
                                            const std::atomic<bool>* interrupted);

// A statement's source as MakeInterruptible makes it, which also counts the rows it reads into
// context.rows_read (and `planned_rows`, when known, into context.rows_planned) for
// Session::Progress().
std::unique_ptr<Operator> MakeWatchedSource(std::unique_ptr<Operator> input,
                                            const ExecContext& context, int64_t planned_rows);

// One batch of one row and no columns: the input of a SELECT without FROM.
std::unique_ptr<Operator> MakeSingleRow();

// No rows of `schema`: a scan the statistics prove empty (DuckDB's EMPTY_RESULT).
std::unique_ptr<Operator> MakeEmptyResult(std::shared_ptr<const Schema> schema);

// Batches already computed (EXPLAIN, DESCRIBE, SHOW output).
std::unique_ptr<Operator> MakeValues(std::string label, std::shared_ptr<Batch> batch);

// A batch with no columns and `rows` rows, of an empty schema.
std::shared_ptr<Batch> MakeEmptyColumnsBatch(std::shared_ptr<const Schema> schema, int64_t rows);

}  // namespace tarn::sql
