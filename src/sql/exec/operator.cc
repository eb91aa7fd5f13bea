#include "sql/exec/operator.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <map>
#include <sstream>
#include <utility>

#include "expr/bind/bound.h"
#include "sql/exec/kept_runs.h"

namespace tarn::sql {
namespace {

class FilterOperator : public Operator {
 public:
  FilterOperator(std::unique_ptr<Operator> input, std::unique_ptr<BoundExpr> predicate)
      : input_(std::move(input)), predicate_(std::move(predicate)) {}

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    return NextTransformed(*this, input_.get());
  }
  Operator* per_batch_input() override { return input_.get(); }
  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    int64_t selected = 0;
    TARN_ASSIGN_OR_RETURN(std::vector<uint8_t> keep, SelectRows(*batch, *predicate_, &selected));
    return KeepRows(std::move(batch), keep, selected);
  }
  const BoundExpr* filter_predicate() const override { return predicate_.get(); }
  // Columns pass through unchanged: the input may drop what the filter's consumer would.
  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    return input_->AddRowFilter(std::move(filter));
  }
  std::string label() const override { return "FILTER"; }
  std::vector<std::string> details() const override { return {predicate_->ToString()}; }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  std::unique_ptr<Operator> input_;
  std::unique_ptr<BoundExpr> predicate_;
};

class ProjectionOperator : public Operator {
 public:
  ProjectionOperator(std::unique_ptr<Operator> input,
                     std::vector<std::unique_ptr<BoundExpr>> expressions,
                     std::vector<std::string> names)
      : input_(std::move(input)), expressions_(std::move(expressions)) {
    auto schema = std::make_shared<Schema>();
    for (size_t i = 0; i < expressions_.size(); ++i) {
      schema->fields.emplace_back(names[i], expressions_[i]->type());
    }
    schema_ = std::move(schema);
    std::vector<const BoundExpr*> all;
    for (const auto& expression : expressions_) all.push_back(expression.get());
    shared_ = std::make_unique<SharedEvaluation>(std::move(all));
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
    if (!batch) return batch;
    return TransformBatch(std::move(batch));
  }
  Operator* per_batch_input() override { return input_.get(); }
  // A filter on output columns that are input columns as they are goes to the input.
  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    std::vector<int> to_input(expressions_.size(), -1);
    for (int output : filter->columns()) {
      if (output < 0 || static_cast<size_t>(output) >= expressions_.size()) return false;
      const expr::BoundNode& node = expressions_[static_cast<size_t>(output)]->root();
      if (node.kind != expr::BoundKind::kColumn) return false;
      to_input[static_cast<size_t>(output)] = node.column_index;
    }
    auto on_input = parquet::RemappedRowFilter(std::move(filter), std::move(to_input));
    return on_input && input_->AddRowFilter(std::move(on_input));
  }
  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    if (expressions_.empty()) return MakeEmptyColumnsBatch(schema_, batch->num_rows);
    // What the expressions share is computed once (SELECT a * b AS x, a * b + 1 AS y).
    TARN_ASSIGN_OR_RETURN(std::vector<std::shared_ptr<Column>> columns,
                          shared_->Evaluate(*batch));
    return MakeBatch(schema_, std::move(columns));
  }
  std::string label() const override { return "PROJECTION"; }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    for (size_t i = 0; i < expressions_.size(); ++i) {
      std::string text = expressions_[i]->ToString();
      const std::string& name = schema_->field(static_cast<int>(i)).name;
      lines.push_back(text == name || text == ast::QuoteIdentifier(name) ? text
                                                                          : text + " AS " + name);
    }
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  std::unique_ptr<Operator> input_;
  std::vector<std::unique_ptr<BoundExpr>> expressions_;
  std::unique_ptr<SharedEvaluation> shared_;  // evaluates expressions_
  std::shared_ptr<const Schema> schema_;
};

class LimitOperator : public Operator {
 public:
  LimitOperator(std::unique_ptr<Operator> input, int64_t limit, int64_t offset)
      : input_(std::move(input)), limit_(limit), offset_(offset), to_skip_(offset),
        remaining_(limit < 0 ? INT64_MAX : limit) {}

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    while (remaining_ > 0) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
      if (!batch) break;
      int64_t begin = std::min(to_skip_, batch->num_rows);
      to_skip_ -= begin;
      int64_t length = std::min(remaining_, batch->num_rows - begin);
      if (length <= 0) continue;
      remaining_ -= length;
      if (begin == 0 && length == batch->num_rows) return batch;
      if (batch->num_columns() == 0) return MakeEmptyColumnsBatch(batch->schema, length);
      return SliceBatch(*batch, begin, length);
    }
    return std::shared_ptr<Batch>();
  }
  std::string label() const override { return "LIMIT"; }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    if (limit_ >= 0) lines.push_back("limit: " + std::to_string(limit_));
    if (offset_ > 0) lines.push_back("offset: " + std::to_string(offset_));
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  std::unique_ptr<Operator> input_;
  int64_t limit_;
  int64_t offset_;
  int64_t to_skip_;
  int64_t remaining_;
};

class LimitPercentOperator : public Operator {
 public:
  LimitPercentOperator(std::unique_ptr<Operator> input, double percent, int64_t offset)
      : input_(std::move(input)), percent_(percent), offset_(offset) {}

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    if (!drained_) {
      int64_t total = 0;
      while (true) {
        TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
        if (!batch) break;
        if (batch->num_rows == 0) continue;
        total += batch->num_rows;
        held_.push_back(std::move(batch));
      }
      drained_ = true;
      // DuckDB's arithmetic: the fraction of the count, truncated.
      remaining_ = std::min(total, static_cast<int64_t>(percent_ / 100.0 *
                                                        static_cast<double>(total)));
      to_skip_ = offset_;
    }
    while (remaining_ > 0 && next_held_ < held_.size()) {
      std::shared_ptr<Batch> batch = std::move(held_[next_held_++]);
      const int64_t begin = std::min(to_skip_, batch->num_rows);
      to_skip_ -= begin;
      const int64_t length = std::min(remaining_, batch->num_rows - begin);
      if (length <= 0) continue;
      remaining_ -= length;
      if (begin == 0 && length == batch->num_rows) return batch;
      if (batch->num_columns() == 0) return MakeEmptyColumnsBatch(batch->schema, length);
      return SliceBatch(*batch, begin, length);
    }
    held_.clear();
    return std::shared_ptr<Batch>();
  }
  std::string label() const override { return "LIMIT_PERCENT"; }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    std::ostringstream percent;
    percent << percent_;
    lines.push_back("limit: " + percent.str() + "%");
    if (offset_ > 0) lines.push_back("offset: " + std::to_string(offset_));
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  std::unique_ptr<Operator> input_;
  double percent_;
  int64_t offset_;
  bool drained_ = false;
  std::vector<std::shared_ptr<Batch>> held_;  // the input's batches, until passed on
  size_t next_held_ = 0;
  int64_t to_skip_ = 0;
  int64_t remaining_ = 0;
};

class EmptyResultOperator : public Operator {
 public:
  explicit EmptyResultOperator(std::shared_ptr<const Schema> schema) : schema_(std::move(schema)) {}
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override { return std::shared_ptr<Batch>(); }
  std::string label() const override { return "EMPTY_RESULT"; }

 private:
  std::shared_ptr<const Schema> schema_;
};

class ValuesOperator : public Operator {
 public:
  ValuesOperator(std::string label, std::shared_ptr<Batch> batch)
      : label_(std::move(label)), batch_(std::move(batch)) {}
  std::shared_ptr<const Schema> schema() const override { return batch_->schema; }
  Result<std::shared_ptr<Batch>> Next() override {
    if (done_) return std::shared_ptr<Batch>();
    done_ = true;
    return batch_;
  }
  std::string label() const override { return label_; }

 private:
  std::string label_;
  std::shared_ptr<Batch> batch_;
  bool done_ = false;
};

class ReaderSource : public Operator {
 public:
  ReaderSource(std::string label, std::unique_ptr<BatchReader> reader)
      : label_(std::move(label)), reader_(std::move(reader)) {}
  std::shared_ptr<const Schema> schema() const override { return reader_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override { return reader_->Next(); }
  std::string label() const override { return label_; }

 private:
  std::string label_;
  std::unique_ptr<BatchReader> reader_;
};

// Runs the per-batch operators of its input on several threads and hands their batches on in
// input order. Up to kBatchesAhead items (batches, or parts of the source) past the next one
// to hand on are in flight; pool tasks and the consumer itself pull them through a
// ParallelFeed.
class GatherOperator : public Operator {
 public:
  static constexpr int64_t kBatchesAhead = 4;

  GatherOperator(std::unique_ptr<Operator> input, ThreadPool* pool, int threads)
      : input_(std::move(input)), pool_(pool), helpers_(std::max(1, threads - 1)) {}

  ~GatherOperator() override {
    std::unique_lock<std::mutex> lock(mu_);
    stopping_ = true;
    cv_.wait(lock, [&] { return active_ == 0; });
  }

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }

  Result<std::shared_ptr<Batch>> Next() override {
    if (!feed_) feed_ = std::make_unique<ParallelFeed>(input_.get());
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      while (emit_position_ < emitting_.size()) {
        std::shared_ptr<Batch> batch = std::move(emitting_[emit_position_++]);
        if (batch->num_rows > 0) return batch;
      }
      auto it = ready_.find(next_emit_);
      if (it != ready_.end()) {
        emitting_ = std::move(it->second);
        emit_position_ = 0;
        ready_.erase(it);
        ++next_emit_;
        StartHelpers();
        continue;
      }
      if (failed_) return error_;
      if (ended_ && pulling_ == 0 && ready_.empty()) {
        return std::shared_ptr<Batch>();
      }
      StartHelpers();
      if (!ended_ && reserved_ - next_emit_ < kBatchesAhead) {
        // Work instead of waiting: pull the next batch on this thread.
        PullOne(lock);
        continue;
      }
      cv_.wait(lock);
    }
  }

  // Not shown by EXPLAIN: the plan means the same on any number of threads.
  std::string label() const override { return ""; }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  // Pulls one batch through the feed. REQUIRES: lock held; released while pulling.
  void PullOne(std::unique_lock<std::mutex>& lock) {
    ++reserved_;
    ++pulling_;
    lock.unlock();
    Result<ParallelFeed::Item> item = feed_->Next();
    lock.lock();
    --pulling_;
    if (!item.ok()) {
      if (!failed_) error_ = item.status();
      failed_ = true;
    } else if (item->sequence < 0) {
      ended_ = true;
      --reserved_;  // nothing was pulled
    } else {
      ready_.emplace(item->sequence, std::move(item->batches));
    }
    cv_.notify_all();
  }

  // Starts pool helpers up to the limit while there is work. REQUIRES: lock held.
  void StartHelpers() {
    if (pool_ == nullptr) return;
    while (active_ < helpers_ && !ended_ && !failed_ && !stopping_ &&
           reserved_ - next_emit_ < kBatchesAhead) {
      ++active_;
      pool_->Submit([this] {
        std::unique_lock<std::mutex> lock(mu_);
        while (!ended_ && !failed_ && !stopping_ && reserved_ - next_emit_ < kBatchesAhead) {
          PullOne(lock);
        }
        --active_;
        cv_.notify_all();
        return 0;
      });
    }
  }

  std::unique_ptr<Operator> input_;
  ThreadPool* pool_;
  int helpers_;
  std::unique_ptr<ParallelFeed> feed_;

  std::mutex mu_;  // guards the fields below
  std::condition_variable cv_;
  std::map<int64_t, std::vector<std::shared_ptr<Batch>>> ready_;
  std::vector<std::shared_ptr<Batch>> emitting_;  // the item being handed on
  size_t emit_position_ = 0;                      // its next batch
  int64_t next_emit_ = 0;  // sequence number of the next item to hand on
  int64_t reserved_ = 0;   // batches pulled or being pulled
  int pulling_ = 0;        // pulls in progress
  int active_ = 0;         // helper tasks started and not finished
  bool ended_ = false;
  bool failed_ = false;
  bool stopping_ = false;
  Status error_;
};

void Explain(const Operator& op, int depth, std::vector<std::string>* lines) {
  if (op.label().empty()) {  // an execution detail that does not change the plan's meaning
    for (const Operator* input : op.inputs()) Explain(*input, depth, lines);
    return;
  }
  std::string indent(static_cast<size_t>(depth) * 2, ' ');
  lines->push_back(indent + op.label());
  for (const std::string& detail : op.details()) lines->push_back(indent + "    " + detail);
  for (const Operator* input : op.inputs()) Explain(*input, depth + 1, lines);
}

}  // namespace

Result<std::unique_ptr<Operator>> Operator::OpenTail() const {
  return std::unique_ptr<Operator>();
}

Result<std::shared_ptr<Batch>> Operator::TransformBatch(std::shared_ptr<Batch>) const {
  return Status::Internal(label(), " is not a per-batch operator");
}

Result<std::unique_ptr<BatchReader>> Operator::OpenPart(int64_t) const {
  return Status::Internal(label(), " does not split into parts");
}

ParallelFeed::ParallelFeed(Operator* root) {
  std::vector<const Operator*> top_first;
  while (Operator* input = root->per_batch_input()) {
    top_first.push_back(root);
    root = input;
  }
  source_ = root;
  transforms_.assign(top_first.rbegin(), top_first.rend());
  num_parts_ = source_->num_parts();
}

ParallelFeed::~ParallelFeed() = default;

Status ParallelFeed::NextStage() {
  while (first_transform_ < transforms_.size()) {
    const Operator* holder = transforms_[first_transform_++];
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> tail, holder->OpenTail());
    if (!tail) continue;
    source_ = tail.get();
    tails_.push_back(std::move(tail));
    num_parts_ = source_->num_parts();
    next_part_ = 0;
    source_ended_ = false;
    return Status::OK();
  }
  done_ = true;
  return Status::OK();
}

Result<std::shared_ptr<Batch>> ParallelFeed::Transform(std::shared_ptr<Batch> batch,
                                                       size_t first) const {
  for (size_t t = first; t < transforms_.size(); ++t) {
    if (batch->num_rows == 0) break;
    TARN_ASSIGN_OR_RETURN(batch, transforms_[t]->TransformBatch(std::move(batch)));
  }
  return batch;
}

Result<ParallelFeed::Item> ParallelFeed::Next() {
  Item item;
  std::shared_ptr<Batch> batch;
  int64_t part = -1;
  size_t first = 0;
  Operator* source = nullptr;
  {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      if (done_) return item;
      if (!source_ended_) {
        if (num_parts_ > 0) {
          if (next_part_ < num_parts_) {
            part = next_part_++;
            break;
          }
        } else {
          Result<std::shared_ptr<Batch>> pulled = source_->Next();
          if (!pulled.ok()) {
            done_ = true;
            return pulled.status();
          }
          if (*pulled) {
            batch = std::move(pulled).value();
            break;
          }
        }
        source_ended_ = true;
      }
      // The source has ended: once every item in flight is through, the next tail.
      if (in_flight_ > 0) {
        idle_.wait(lock);
        continue;
      }
      Status staged = NextStage();
      if (!staged.ok()) {
        done_ = true;
        return staged;
      }
    }
    item.sequence = next_sequence_++;
    first = first_transform_;
    source = source_;
    ++in_flight_;
  }
  auto finish = [&](Status status) -> Status {
    std::lock_guard<std::mutex> lock(mu_);
    if (!status.ok()) done_ = true;
    if (--in_flight_ == 0) idle_.notify_all();
    return status;
  };
  if (part < 0) {
    Result<std::shared_ptr<Batch>> transformed = Transform(std::move(batch), first);
    TARN_RETURN_NOT_OK(finish(transformed.status()));
    item.batches.push_back(std::move(transformed).value());
    return item;
  }
  Result<std::unique_ptr<BatchReader>> reader = source->OpenPart(part);
  if (!reader.ok()) return finish(reader.status());
  while (true) {
    Result<std::shared_ptr<Batch>> pulled = (*reader)->Next();
    if (!pulled.ok()) return finish(pulled.status());
    if (!*pulled) break;
    Result<std::shared_ptr<Batch>> transformed = Transform(std::move(pulled).value(), first);
    if (!transformed.ok()) return finish(transformed.status());
    if ((*transformed)->num_rows > 0) item.batches.push_back(std::move(transformed).value());
  }
  TARN_RETURN_NOT_OK(finish(Status::OK()));
  return item;
}

std::shared_ptr<Batch> KeepRows(std::shared_ptr<Batch> batch, const std::vector<uint8_t>& keep,
                                int64_t selected) {
  if (selected == batch->num_rows) return batch;
  if (selected == 0 || batch->num_columns() == 0) {
    return MakeEmptyColumnsBatch(batch->schema, selected);
  }
  const int64_t rows = batch->num_rows;
  std::vector<std::shared_ptr<Column>> columns;
  columns.reserve(batch->columns.size());
  // Most rows kept: copy runs of consecutive rows instead of gathering row by row.
  if (selected * 2 >= rows) {
    const RowRuns runs = KeptRuns(keep.data(), rows);
    if (RunsPay(runs, selected)) {
      for (const auto& column : batch->columns) {
        columns.push_back(CopyRuns(*column, runs, selected));
      }
      return MakeBatch(batch->schema, std::move(columns));
    }
  }
  // The kept rows' positions once for all columns.
  std::vector<int64_t> indices;
  indices.reserve(static_cast<size_t>(selected));
  const int64_t full_words = rows / 64;
  for (int64_t word_index = 0; word_index < full_words; ++word_index) {
    uint64_t word;
    std::memcpy(&word, keep.data() + word_index * 8, 8);
    while (word != 0) {
      indices.push_back(word_index * 64 + __builtin_ctzll(word));
      word &= word - 1;
    }
  }
  for (int64_t row = full_words * 64; row < rows; ++row) {
    if (GetBit(keep.data(), row)) indices.push_back(row);
  }
  for (const auto& column : batch->columns) columns.push_back(tarn::Take(*column, indices));
  return MakeBatch(batch->schema, std::move(columns));
}

std::vector<std::string> ExplainLines(const Operator& root) {
  std::vector<std::string> lines;
  Explain(root, 0, &lines);
  return lines;
}

namespace {

Status InterruptedStatus() { return Status::Cancelled("Interrupted"); }

// Interruption checks and row counts of a source's batches (either may be null).
struct SourceWatch {
  const std::atomic<bool>* interrupted = nullptr;
  std::atomic<int64_t>* rows_read = nullptr;

  Status Check() const {
    if (interrupted != nullptr && interrupted->load(std::memory_order_relaxed)) {
      return InterruptedStatus();
    }
    return Status::OK();
  }
  Result<std::shared_ptr<Batch>> Count(Result<std::shared_ptr<Batch>> batch) const {
    if (rows_read != nullptr && batch.ok() && *batch) {
      rows_read->fetch_add((*batch)->num_rows, std::memory_order_relaxed);
    }
    return batch;
  }
};

class WatchedReader : public BatchReader {
 public:
  WatchedReader(std::unique_ptr<BatchReader> input, SourceWatch watch)
      : input_(std::move(input)), watch_(watch) {}
  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_RETURN_NOT_OK(watch_.Check());
    return watch_.Count(input_->Next());
  }

 private:
  std::unique_ptr<BatchReader> input_;
  SourceWatch watch_;
};

class WatchedOperator : public Operator {
 public:
  WatchedOperator(std::unique_ptr<Operator> input, SourceWatch watch)
      : input_(std::move(input)), watch_(watch) {}
  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_RETURN_NOT_OK(watch_.Check());
    return watch_.Count(input_->Next());
  }
  std::string label() const override { return ""; }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }
  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    return input_->AddRowFilter(std::move(filter));
  }
  // Per-batch, so a parallel consumer reads through it: the join tree it may wrap runs its
  // probe on every thread, and a source's parts are read below it and counted here.
  Operator* per_batch_input() override { return input_.get(); }
  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    TARN_RETURN_NOT_OK(watch_.Check());
    return watch_.Count(std::move(batch));
  }
  int64_t num_parts() const override { return input_->num_parts(); }
  Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const override {
    TARN_RETURN_NOT_OK(watch_.Check());
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, input_->OpenPart(part));
    return std::unique_ptr<BatchReader>(
        std::make_unique<WatchedReader>(std::move(reader), watch_));
  }

 private:
  std::unique_ptr<Operator> input_;
  SourceWatch watch_;
};

}  // namespace

std::unique_ptr<Operator> MakeInterruptible(std::unique_ptr<Operator> input,
                                            const std::atomic<bool>* interrupted) {
  if (interrupted == nullptr) return input;
  return std::make_unique<WatchedOperator>(std::move(input), SourceWatch{interrupted, nullptr});
}

std::unique_ptr<Operator> MakeWatchedSource(std::unique_ptr<Operator> input,
                                            const ExecContext& context, int64_t planned_rows) {
  if (context.rows_planned != nullptr && planned_rows > 0) {
    context.rows_planned->fetch_add(planned_rows, std::memory_order_relaxed);
  }
  if (context.interrupted == nullptr && context.rows_read == nullptr) return input;
  return std::make_unique<WatchedOperator>(std::move(input),
                                           SourceWatch{context.interrupted, context.rows_read});
}

Result<std::shared_ptr<Batch>> NextTransformed(const Operator& op, Operator* input) {
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input->Next());
    if (!batch) return batch;
    TARN_ASSIGN_OR_RETURN(batch, op.TransformBatch(std::move(batch)));
    if (batch->num_rows > 0) return batch;
  }
}

std::unique_ptr<Operator> MakeFilter(std::unique_ptr<Operator> input,
                                     std::unique_ptr<BoundExpr> predicate) {
  return std::make_unique<FilterOperator>(std::move(input), std::move(predicate));
}

std::unique_ptr<Operator> MakeProjection(std::unique_ptr<Operator> input,
                                         std::vector<std::unique_ptr<BoundExpr>> expressions,
                                         std::vector<std::string> names) {
  return std::make_unique<ProjectionOperator>(std::move(input), std::move(expressions),
                                              std::move(names));
}

std::unique_ptr<Operator> MakeGather(std::unique_ptr<Operator> input, const ExecContext& context) {
  if (context.pool == nullptr || context.threads <= 1 || input->per_batch_input() == nullptr) {
    return input;
  }
  return std::make_unique<GatherOperator>(std::move(input), context.pool, context.threads);
}

std::unique_ptr<Operator> MakeLimit(std::unique_ptr<Operator> input, int64_t limit,
                                    int64_t offset) {
  return std::make_unique<LimitOperator>(std::move(input), limit, offset);
}

std::unique_ptr<Operator> MakeLimitPercent(std::unique_ptr<Operator> input, double percent,
                                           int64_t offset) {
  return std::make_unique<LimitPercentOperator>(std::move(input), percent, offset);
}

std::shared_ptr<Batch> MakeEmptyColumnsBatch(std::shared_ptr<const Schema> schema, int64_t rows) {
  auto batch = std::make_shared<Batch>();
  batch->schema = std::move(schema);
  batch->num_rows = rows;
  return batch;
}

std::unique_ptr<Operator> MakeEmptyResult(std::shared_ptr<const Schema> schema) {
  return std::make_unique<EmptyResultOperator>(std::move(schema));
}

std::unique_ptr<Operator> MakeSingleRow() {
  return std::make_unique<ValuesOperator>(
      "DUMMY_SCAN", MakeEmptyColumnsBatch(std::make_shared<Schema>(), 1));
}

std::unique_ptr<Operator> MakeReaderSource(std::string label, std::unique_ptr<BatchReader> reader) {
  return std::make_unique<ReaderSource>(std::move(label), std::move(reader));
}

std::unique_ptr<Operator> MakeValues(std::string label, std::shared_ptr<Batch> batch) {
  return std::make_unique<ValuesOperator>(std::move(label), std::move(batch));
}

}  // namespace tarn::sql
