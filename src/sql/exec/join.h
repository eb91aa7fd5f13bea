// What the join operators (hash_join.h, nested_loop_join.h) share: the kinds of join they run,
// the build side they hold in memory, and the assembly of output rows from row pairs.
//
// A join reads its build input whole, once, then streams its probe input: each probe batch
// becomes one output batch (see Operator::TransformBatch), so the probe runs on every thread
// through a ParallelFeed like a filter does. The planner puts the side whose rows must all
// survive (the left of LEFT JOIN, the right of RIGHT JOIN) on the probe side; FULL OUTER
// JOIN also emits the build rows no probe row matched, after the probe ends; so does a LEFT
// or RIGHT JOIN whose preserved side is the smaller, built on as kRightOuter. A semi or anti
// join whose outer side is the smaller builds on it (kRightSemi, kRightAnti): the probe only
// marks the build rows it matches, and the build rows are output after the probe ends.
//
// Thread-safety: a JoinBuild is read by any number of threads once built; MarkMatched may be
// called from several threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "sql/exec/operator.h"

namespace tarn::sql {

enum class JoinKind : uint8_t {
  kInner,      // pairs that match
  kLeftOuter,  // and every probe row without a match, with NULL build columns
  kRightOuter,  // and, at the end, every build row without a match, with NULL probe columns
  kFullOuter,  // and, at the end, every build row without a match, with NULL probe columns
  kSemi,       // probe rows with a match (probe columns only)
  kAnti,       // probe rows without a match (probe columns only)
  kRightSemi,  // at the end, build rows with a match (build columns only)
  kRightAnti,  // at the end, build rows without a match (build columns only)
};

const char* JoinKindName(JoinKind kind);

// Semi and anti joins output only the probe columns, right semi and right anti joins only the
// build columns; the others probe ++ build.
inline bool OutputsBuildColumns(JoinKind kind) {
  return kind != JoinKind::kSemi && kind != JoinKind::kAnti;
}
inline bool OutputsProbeColumns(JoinKind kind) {
  return kind != JoinKind::kRightSemi && kind != JoinKind::kRightAnti;
}
inline bool IsRightSemiOrAnti(JoinKind kind) {
  return kind == JoinKind::kRightSemi || kind == JoinKind::kRightAnti;
}
// Kinds that output build rows after the probe ends, and so mark the build rows matched.
inline bool OutputsBuildRowsAtEnd(JoinKind kind) {
  return kind == JoinKind::kFullOuter || kind == JoinKind::kRightOuter || IsRightSemiOrAnti(kind);
}
// Kinds whose build side carries an all-NULL row for probe rows without a match.
inline bool NeedsNullBuildRow(JoinKind kind) {
  return kind == JoinKind::kLeftOuter || kind == JoinKind::kFullOuter;
}

// The build side's rows, all in one batch, with one extra all-NULL row at index `rows` for
// outer joins (a probe row without a match takes it), and the matched flags of a FULL join.
class JoinBuild {
 public:
  // Drains `input`. Fails with an Out of Memory Error naming `label` when the rows (plus
  // `extra_bytes_per_row` each, for the caller's own tables) exceed `memory_limit`.
  static Result<std::unique_ptr<JoinBuild>> Read(Operator* input, const std::string& label,
                                                 bool with_null_row, bool track_matches,
                                                 int64_t extra_bytes_per_row,
                                                 int64_t memory_limit);

  // The rows of `batches` (of `schema`, none empty), as Read makes them.
  static Result<std::unique_ptr<JoinBuild>> FromBatches(
      std::vector<std::shared_ptr<Batch>> batches, const std::shared_ptr<const Schema>& schema,
      const std::string& label, bool with_null_row, bool track_matches);

  int64_t rows() const { return rows_; }
  const Batch& batch() const { return *batch_; }  // rows() (+1 NULL row) rows
  int64_t null_row() const { return rows_; }       // REQUIRES: with_null_row
  int64_t memory_bytes() const { return memory_bytes_; }

  void MarkMatched(int64_t row) { matched_[row].store(1, std::memory_order_relaxed); }
  bool matched(int64_t row) const { return matched_[row].load(std::memory_order_relaxed) != 0; }

 private:
  JoinBuild() = default;
  std::shared_ptr<Batch> batch_;
  int64_t rows_ = 0;
  int64_t memory_bytes_ = 0;
  // OutputsBuildRowsAtEnd kinds: one flag per build row.
  std::unique_ptr<std::atomic<uint8_t>[]> matched_;
};

// Bytes of a batch's buffers, children included.
int64_t BatchMemoryBytes(const Batch& batch);

// The output rows for probe rows `probe_rows` paired with build rows `build_rows` (same
// length): the probe columns then, when `with_build`, the build columns.
std::shared_ptr<Batch> AssemblePairs(std::shared_ptr<const Schema> schema, const Batch& probe,
                                     std::span<const int64_t> probe_rows, const Batch& build,
                                     std::span<const int64_t> build_rows, bool with_build);

// Resolves the pairs a join found for one probe batch into its output, by kind: filters the
// pairs by `residual` (bound against probe ++ build columns, may be null), then keeps pairs
// (inner, outer), adds probe rows without a match (left/full outer), or keeps probe rows with
// / without one (semi / anti). Marks matched build rows of a FULL join; a right semi or anti
// join only marks them (skipping pairs whose build row is marked already) and outputs no rows.
Result<std::shared_ptr<Batch>> FinishProbe(JoinKind kind, const BoundExpr* residual,
                                           std::shared_ptr<const Schema> output_schema,
                                           std::shared_ptr<const Schema> pair_schema,
                                           const std::shared_ptr<Batch>& probe, JoinBuild* build,
                                           std::vector<int64_t>* probe_rows,
                                           std::vector<int64_t>* build_rows);

// The schema of probe ++ build columns.
std::shared_ptr<const Schema> PairSchema(const Schema& probe, const Schema& build);

// The end of a join of `kind` whose probe side has `probe_columns` columns: unless the kind
// outputs build rows at the end, `join` itself. Else `join` gathered (by `context`'s threads),
// its batches passed on, then once it has ended the rows of `build()`: for FULL OUTER those no
// probe row matched, with NULL probe columns; for right semi / anti those matched / not.
std::unique_ptr<Operator> WithBuildRowsAtEnd(std::unique_ptr<Operator> join, JoinKind kind,
                                             int probe_columns,
                                             std::function<Result<const JoinBuild*>()> build,
                                             const ExecContext& context);

}  // namespace tarn::sql
