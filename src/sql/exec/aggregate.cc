#include "sql/exec/aggregate.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <utility>

#include "expr/bind/bound.h"
#include "sql/exec/aggregate_distinct.h"
#include "sql/exec/group_table.h"
#include "sql/exec/spill.h"
#include "tarn/sql.h"

namespace tarn::sql {
namespace {

constexpr int64_t kOutputBatchRows = 122880;

// Rows per part when a batch's rows go to several aggregate states (see AggregateBatch).
constexpr int64_t kUpdateRows = 4096;

// How many batches past the oldest one not yet merged a worker may start; bounds the partials
// held while one batch is slow.
constexpr int64_t kBatchesAhead = 4;

// Partitions the rows of new keys are spilled to once the table froze.
constexpr int kSpillPartitions = 32;

// Where a hash aggregate may spill, and how deep in re-partitioning it runs.
struct AggregateSpill {
  std::string temp_directory;  // empty: no spilling
  const std::atomic<bool>* interrupted = nullptr;
  int level = 0;  // 0: the aggregate the planner made; n: a partition of a level n - 1 one
  std::shared_ptr<SpillFolder> folder;  // shared with the partitions' aggregates
};

Result<std::unique_ptr<Operator>> MakeHashAggregateAt(
    std::unique_ptr<Operator> input, std::vector<std::unique_ptr<BoundExpr>> keys,
    std::vector<std::string> key_names, std::vector<AggregateSpec> aggregates,
    const ExecContext& context, AggregateSpill spill);

// One input batch aggregated on its own: local group ids, and per aggregate either a partial
// state (combined into the final one) or the argument column and row selection to replay into
// the final state (DISTINCT and order-sensitive aggregates).
struct BatchPartial {
  int64_t rows = 0;
  // Made after the final table froze (see HashAggregateOperator::CanSpill): no partial
  // states, every aggregate keeps its argument column.
  bool frozen = false;
  // An aggregate that can spill keeps the batch's key and argument columns in every partial,
  // so the rows of keys a frozen table does not hold can be spilled.
  std::vector<std::shared_ptr<Column>> key_columns;
  std::unique_ptr<GroupTable> table;
  std::vector<uint32_t> ids;
  // A batch aggregated past the rows a filter drops: the kept rows' bits (empty: every row
  // counts), and the table's groups that have kept rows, in the order of their first kept row
  // (ids are renumbered to positions in this list; dropped rows get 0).
  std::vector<uint8_t> keep;
  std::vector<int64_t> used;
  std::vector<std::unique_ptr<AggregateState>> states;
  std::vector<std::shared_ptr<Column>> arguments;
  // DISTINCT aggregates: the rows that are first in the batch with their (group, value).
  std::vector<std::vector<uint8_t>> first_in_batch;
  // DISTINCT aggregates: the batch's own (group, value) sets, cleared and reused by the next
  // batch that gets this partial (a set keeps its table's size instead of growing again).
  std::vector<std::unique_ptr<DistinctSet>> seen;
};

class HashAggregateOperator : public Operator {
 public:
  HashAggregateOperator(std::unique_ptr<Operator> input,
                        std::vector<std::unique_ptr<BoundExpr>> keys,
                        std::vector<AggregateSpec> aggregates,
                        std::vector<std::unique_ptr<AggregateState>> states,
                        std::shared_ptr<const Schema> schema, const ExecContext& context,
                        AggregateSpill spill)
      : input_(std::move(input)), keys_(std::move(keys)), aggregates_(std::move(aggregates)),
        states_(std::move(states)), schema_(std::move(schema)), context_(context),
        pool_(context.pool), threads_(std::max(1, context.threads)),
        memory_limit_(context.memory_limit), spill_(std::move(spill)),
        filter_(input_->filter_predicate()) {
    spillable_ = CanSpill();
    for (const auto& key : keys_) key_types_.push_back(key->type());
    std::vector<const BoundExpr*> arguments;
    for (const AggregateSpec& spec : aggregates_) arguments.push_back(spec.argument.get());
    arguments_ = std::make_unique<SharedEvaluation>(std::move(arguments));
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      const AggregateSpec& spec = aggregates_[a];
      distinct_.push_back(spec.distinct && spec.argument
                              ? std::make_unique<DistinctSet>(spec.argument->type())
                              : nullptr);
      pooled_.push_back(keys_.empty() && distinct_[a] != nullptr &&
                        IntegerValueSet::Holds(spec.argument->type()) &&
                        !states_[a]->order_sensitive());
    }
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    if (!result_) {
      // A failed build has consumed part of the input: it fails the same way again.
      if (build_error_.ok()) build_error_ = Build();
      TARN_RETURN_NOT_OK(build_error_);
    }
    if (emitted_ >= result_->num_rows) return NextSpilled();
    int64_t length = std::min(kOutputBatchRows, result_->num_rows - emitted_);
    std::shared_ptr<Batch> batch =
        (emitted_ == 0 && length == result_->num_rows)
            ? result_
            : (result_->num_columns() == 0 ? MakeEmptyColumnsBatch(schema_, length)
                                           : SliceBatch(*result_, emitted_, length));
    emitted_ += length;
    return batch;
  }

  std::string label() const override {
    return keys_.empty() ? "UNGROUPED_AGGREGATE" : "HASH_GROUP_BY";
  }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    for (const auto& key : keys_) lines.push_back("group: " + key->ToString());
    for (const auto& aggregate : aggregates_) {
      lines.push_back(aggregate.name + " = " +
                      (aggregate.display.empty() ? aggregate.function : aggregate.display));
    }
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  // Drains the input on up to `threads_` threads. Each batch is aggregated on its own by the
  // thread that pulled it; the partials are merged into the final table strictly in input
  // order, so groups, ties and floating sums come out as a one-row-at-a-time pass gives them,
  // whatever the thread count.
  Status Build() {
    table_ = std::make_unique<GroupTable>(key_types_);
    const int workers = pool_ == nullptr ? 1 : threads_;
    worker_sets_.resize(static_cast<size_t>(workers));
    for (auto& sets : worker_sets_) {
      for (size_t a = 0; a < aggregates_.size(); ++a) {
        sets.push_back(pooled_[a]
                           ? std::make_unique<IntegerValueSet>(aggregates_[a].argument->type())
                           : nullptr);
      }
    }
    // A filter right below is applied here (see FilterAndAggregate).
    ParallelFeed feed(filter_ != nullptr ? input_->per_batch_input() : input_.get());
    if (workers <= 1) {
      Work(&feed, 0);
    } else {
      TARN_RETURN_NOT_OK(pool_->ParallelFor(static_cast<size_t>(threads_), [&](size_t worker) {
        Work(&feed, worker);
        return Status::OK();
      }));
    }
    pending_.clear();
    free_partials_.clear();
    if (!error_.ok()) return error_;
    if (keys_.empty() && table_->num_groups() == 0) {
      std::vector<uint32_t> ids;
      TARN_RETURN_NOT_OK(table_->Assign({}, 0, &ids));  // one group even over no rows
    }
    int64_t groups = table_->num_groups();
    std::vector<std::shared_ptr<Column>> columns = table_->FinishKeys();
    for (size_t a = 0; a < states_.size(); ++a) {
      AggregateState& state = *states_[a];
      state.Resize(groups);
      if (pooled_[a]) TARN_RETURN_NOT_OK(FeedPooled(a, &state));
      TARN_ASSIGN_OR_RETURN(auto column, state.Finish(groups));
      columns.push_back(std::move(column));
    }
    worker_sets_.clear();
    if (columns.empty()) {
      result_ = MakeEmptyColumnsBatch(schema_, groups);
    } else {
      result_ = MakeBatch(schema_, std::move(columns));
    }
    states_.clear();
    distinct_.clear();
    table_.reset();
    return Status::OK();
  }

  // A pooled DISTINCT aggregate: the workers' sets made one, its values fed to the state of
  // the single group once.
  Status FeedPooled(size_t a, AggregateState* state) {
    IntegerValueSet& all = *worker_sets_[0][a];
    // Partitions merge independently: thread t takes partitions t, t + threads, ...
    const size_t threads = worker_sets_.size();
    if (threads > 1) {
      TARN_RETURN_NOT_OK(pool_->ParallelFor(threads, [&](size_t t) {
        for (size_t p = t; p < IntegerValueSet::num_partitions(); p += threads) {
          for (size_t worker = 1; worker < threads; ++worker) {
            all.MergePartition(*worker_sets_[worker][a], p);
          }
        }
        return Status::OK();
      }));
    }
    for (size_t worker = 1; worker < worker_sets_.size(); ++worker) worker_sets_[worker][a].reset();
    TARN_RETURN_NOT_OK(CheckMemory(all.MemoryBytes(), 1));
    if (state->AddValueCount(all.size())) return Status::OK();  // count(DISTINCT x)
    std::shared_ptr<Column> values = all.Values();
    std::vector<uint32_t> zeros(static_cast<size_t>(values->length), 0);
    return state->Update(values.get(), zeros.data(), values->length, nullptr);
  }

  // One worker: pulls, aggregates and hands over batches until the input ends or any worker
  // fails (the first error is kept in error_).
  void Work(ParallelFeed* feed, size_t worker) {
    while (true) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (failed_) return;
      }
      Result<ParallelFeed::Item> item = feed->Next();
      if (!item.ok()) return Fail(item.status());
      if (item->sequence < 0) return;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return failed_ || item->sequence - next_merge_ < kBatchesAhead; });
        if (failed_) return;
      }
      std::vector<std::unique_ptr<BatchPartial>> partials;
      for (const std::shared_ptr<Batch>& batch : item->batches) {
        if (batch->num_rows == 0) continue;
        std::unique_ptr<BatchPartial> partial = TakeFreePartial();
        Status status = FilterAndAggregate(batch, partial.get(), worker);
        if (!status.ok()) return Fail(std::move(status));
        partials.push_back(std::move(partial));
      }
      Deliver(item->sequence, std::move(partials));
    }
  }

  void Fail(Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    if (error_.ok()) error_ = std::move(status);
    failed_ = true;
    cv_.notify_all();
  }

  // Applies the filter right below the aggregate, if any, then aggregates the batch. When the
  // filter keeps most rows, the whole batch is aggregated with the dropped rows skipped, which
  // saves copying the kept ones; should an expression fail there (on a dropped row, say), the
  // kept rows are copied and aggregated again, so errors are those of the filtered rows.
  Status FilterAndAggregate(const std::shared_ptr<Batch>& batch, BatchPartial* partial,
                            size_t worker) const {
    if (filter_ == nullptr) return AggregateBatch(*batch, nullptr, partial, worker);
    int64_t selected = 0;
    TARN_ASSIGN_OR_RETURN(std::vector<uint8_t> keep, SelectRows(*batch, *filter_, &selected));
    if (selected == 0) {
      partial->rows = 0;  // nothing to merge
      return Status::OK();
    }
    if (selected == batch->num_rows) return AggregateBatch(*batch, nullptr, partial, worker);
    if (selected * 4 >= batch->num_rows * 3 &&
        AggregateBatch(*batch, &keep, partial, worker).ok()) {
      return Status::OK();
    }
    return AggregateBatch(*KeepRows(batch, keep, selected), nullptr, partial, worker);
  }

  // Runs on the worker's thread: everything about a batch that needs no shared state but the
  // worker's own pooled DISTINCT sets. With `keep`, only the rows whose bit is set count.
  Status AggregateBatch(const Batch& batch, const std::vector<uint8_t>* kept_rows,
                        BatchPartial* partial, size_t worker) const {
    std::vector<std::shared_ptr<Column>> key_columns;
    for (const auto& key : keys_) {
      TARN_ASSIGN_OR_RETURN(auto column, key->Evaluate(batch));
      key_columns.push_back(std::move(column));
    }
    partial->rows = batch.num_rows;
    partial->frozen = frozen_.load(std::memory_order_acquire);
    if (spillable_) partial->key_columns = key_columns;
    partial->table = std::make_unique<GroupTable>(key_types_);
    TARN_RETURN_NOT_OK(partial->table->Assign(key_columns, batch.num_rows, &partial->ids));
    int64_t groups = partial->table->num_groups();
    const uint8_t* keep = nullptr;
    partial->used.clear();
    partial->keep.clear();
    if (kept_rows != nullptr) {
      partial->keep = *kept_rows;
      keep = partial->keep.data();
      if (!keys_.empty()) groups = KeepUsedGroups(partial);
    }
    partial->states.resize(aggregates_.size());
    partial->arguments.resize(aggregates_.size());
    partial->first_in_batch.resize(aggregates_.size());
    partial->seen.resize(aggregates_.size());
    // Every argument at once: what they share (TPC-H Q01's discounted price) computed once.
    TARN_ASSIGN_OR_RETURN(std::vector<std::shared_ptr<Column>> evaluated,
                          arguments_->Evaluate(batch));
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      const AggregateSpec& spec = aggregates_[a];
      std::shared_ptr<Column> argument = std::move(evaluated[a]);
      if (pooled_[a]) {
        IntegerValueSet& set = *worker_sets_[worker][a];
        const int64_t before = set.MemoryBytes();
        set.Insert(*argument, keep);
        const int64_t grown = set.MemoryBytes() - before;
        TARN_RETURN_NOT_OK(CheckMemory(pooled_bytes_.fetch_add(grown) + grown, 1));
      } else if (distinct_[a]) {
        std::unique_ptr<DistinctSet>& seen = partial->seen[a];
        if (seen == nullptr) {
          seen = std::make_unique<DistinctSet>(argument->type);
        } else {
          seen->Clear();
        }
        std::vector<uint8_t>& first = partial->first_in_batch[a];
        first.assign(static_cast<size_t>((batch.num_rows + 7) / 8), 0);
        seen->InsertNew(*argument, partial->ids.data(), batch.num_rows, keep, first.data());
        partial->arguments[a] = std::move(argument);
      } else if (states_[a]->order_sensitive() || partial->frozen) {
        partial->arguments[a] = std::move(argument);
      } else {
        TARN_ASSIGN_OR_RETURN(auto state,
                              MakeAggregateState(spec.function,
                                                 spec.argument ? spec.argument->type()
                                                               : DataType(TypeId::kInt64),
                                                 spec.parameters));
        state->Resize(groups);
        partial->states[a] = std::move(state);
        partial->arguments[a] = std::move(argument);
      }
    }
    // The combinable states go through the batch a part at a time, every state over one part
    // before the next, so aggregates over the same columns read them from cache. Each state
    // still sees its rows in order.
    for (int64_t begin = 0; begin < batch.num_rows; begin += kUpdateRows) {
      const int64_t end = std::min(batch.num_rows, begin + kUpdateRows);
      for (size_t a = 0; a < aggregates_.size(); ++a) {
        if (!partial->states[a]) continue;
        TARN_RETURN_NOT_OK(partial->states[a]->UpdateRange(
            partial->arguments[a].get(), partial->ids.data(), begin, end, keep));
      }
    }
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      if (partial->states[a] && !spillable_) partial->arguments[a].reset();
    }
    return Status::OK();
  }

  // Renumbers a filtered partial's groups to those with kept rows (see BatchPartial::used);
  // returns how many there are.
  static int64_t KeepUsedGroups(BatchPartial* partial) {
    thread_local std::vector<uint32_t> renumbered;
    renumbered.assign(static_cast<size_t>(partial->table->num_groups()), UINT32_MAX);
    const uint8_t* keep = partial->keep.data();
    uint32_t* ids = partial->ids.data();
    for (int64_t row = 0; row < partial->rows; ++row) {
      if (!GetBit(keep, row)) {
        ids[row] = 0;
        continue;
      }
      uint32_t& id = renumbered[ids[row]];
      if (id == UINT32_MAX) {
        id = static_cast<uint32_t>(partial->used.size());
        partial->used.push_back(ids[row]);
      }
      ids[row] = id;
    }
    return static_cast<int64_t>(partial->used.size());
  }

  // Queues the partials of item `sequence` (one per batch, in order); whichever worker finds
  // no merge running merges every queued item that is next in input order.
  void Deliver(int64_t sequence, std::vector<std::unique_ptr<BatchPartial>> partials) {
    std::unique_lock<std::mutex> lock(mu_);
    pending_.emplace(sequence, std::move(partials));
    if (merging_) return;
    merging_ = true;
    while (!failed_) {
      auto it = pending_.find(next_merge_);
      if (it == pending_.end()) break;
      std::vector<std::unique_ptr<BatchPartial>> next = std::move(it->second);
      pending_.erase(it);
      lock.unlock();
      Status status;
      for (auto& partial : next) {
        if (status.ok()) status = Merge(partial.get());
        Recycle(partial.get());
      }
      lock.lock();
      for (auto& partial : next) free_partials_.push_back(std::move(partial));
      if (!status.ok()) {
        if (error_.ok()) error_ = std::move(status);
        failed_ = true;
      }
      ++next_merge_;
      cv_.notify_all();
    }
    merging_ = false;
  }

  // A partial to fill, reusing the buffers of merged ones. REQUIRES: mu_ not held.
  std::unique_ptr<BatchPartial> TakeFreePartial() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_partials_.empty()) return std::make_unique<BatchPartial>();
    std::unique_ptr<BatchPartial> partial = std::move(free_partials_.back());
    free_partials_.pop_back();
    return partial;
  }

  // Drops what a merged partial refers to, keeping its vectors' capacity.
  static void Recycle(BatchPartial* partial) {
    partial->rows = 0;
    partial->frozen = false;
    partial->key_columns.clear();
    partial->table.reset();
    partial->ids.clear();
    partial->keep.clear();
    partial->used.clear();
    for (auto& state : partial->states) state.reset();
    for (auto& argument : partial->arguments) argument.reset();
  }

  // Folds one batch's partial into the final table and states. One thread at a time, in
  // input order.
  Status Merge(BatchPartial* partial) {
    if (partial->rows == 0) return Status::OK();
    int64_t local_groups = partial->table->num_groups();
    std::vector<std::shared_ptr<Column>> local_keys = partial->table->FinishKeys();
    if (!partial->keep.empty() && !keys_.empty()) {  // only the groups with kept rows
      local_groups = static_cast<int64_t>(partial->used.size());
      for (auto& key : local_keys) key = Take(*key, partial->used);
    }
    if (spillable_ && !frozen_.load(std::memory_order_relaxed) &&
        held_bytes_ + PartialBytes(*partial, local_groups) > memory_limit_) {
      Freeze();  // before a batch whose groups would not fit
    }
    if (frozen_.load(std::memory_order_relaxed)) {
      return MergeFrozen(partial, local_keys, local_groups);
    }
    TARN_RETURN_NOT_OK(table_->Assign(local_keys, local_groups, &mapping_));
    int64_t groups = table_->num_groups();
    bool have_row_ids = false;
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      AggregateState& state = *states_[a];
      state.Resize(groups);
      if (pooled_[a]) continue;  // fed once at the end (FeedPooled)
      if (partial->states[a]) {
        state.Combine(*partial->states[a], mapping_.data(), local_groups);
        continue;
      }
      if (!have_row_ids) {
        row_ids_.resize(static_cast<size_t>(partial->rows));
        for (int64_t row = 0; row < partial->rows; ++row) row_ids_[row] = mapping_[partial->ids[row]];
        have_row_ids = true;
      }
      const Column* argument = partial->arguments[a].get();
      if (distinct_[a]) {
        keep_.assign(static_cast<size_t>((partial->rows + 7) / 8), 0);
        distinct_[a]->InsertNew(*argument, row_ids_.data(), partial->rows,
                                partial->first_in_batch[a].data(), keep_.data());
        TARN_RETURN_NOT_OK(state.Update(argument, row_ids_.data(), partial->rows, keep_.data()));
      } else {
        TARN_RETURN_NOT_OK(state.Update(argument, row_ids_.data(), partial->rows,
                                        partial->keep.empty() ? nullptr : partial->keep.data()));
      }
    }
    held_bytes_ = HeldBytes();
    if (held_bytes_ > memory_limit_ && spillable_) {
      Freeze();
      return Status::OK();
    }
    return CheckMemory(held_bytes_, table_->num_groups());
  }

  // What a partial's groups would add to the final table, at most.
  static int64_t PartialBytes(const BatchPartial& partial, int64_t local_groups) {
    int64_t bytes = partial.table->MemoryBytes();
    for (const auto& state : partial.states) bytes += state ? state->MemoryBytes(local_groups) : 0;
    return bytes;
  }

  int64_t HeldBytes() const {
    int64_t bytes = table_->MemoryBytes();
    for (const auto& state : states_) bytes += state->MemoryBytes(table_->num_groups());
    for (const auto& set : distinct_) bytes += set ? set->MemoryBytes() : 0;
    return bytes;
  }

  // Spilling: a grouped aggregate whose groups pass memory_limit freezes its table. Rows of
  // keys it holds are still aggregated in memory; rows of any other key are written, with
  // their aggregates' arguments, to partition files by key hash, and each partition is
  // aggregated on its own once the input ends (by an aggregate of the next level, which
  // spills again, split differently, should a partition still not fit). Every row of a key
  // lands in one place, in input order, so order-sensitive aggregates (first, list,
  // string_agg, floating sums) see their rows as they would in memory. The held groups' states
  // may still grow (list, string_agg); past twice the limit the query fails.
  bool CanSpill() const {
    return !keys_.empty() && !spill_.temp_directory.empty() && spill_.level < kMaxSpillLevels;
  }

  void Freeze() {
    table_->set_frozen(true);
    frozen_.store(true, std::memory_order_release);
  }

  // The schema of spilled rows: the keys, then each aggregate's argument (count(*) has none).
  std::shared_ptr<const Schema> SpillSchema() const {
    auto schema = std::make_shared<Schema>();
    for (size_t k = 0; k < keys_.size(); ++k) {
      schema->fields.emplace_back("k" + std::to_string(k), key_types_[k]);
    }
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      if (aggregates_[a].argument) {
        schema->fields.emplace_back("a" + std::to_string(a), aggregates_[a].argument->type());
      }
    }
    return schema;
  }

  // Folds a partial made after the table froze: rows of held keys into their groups, the
  // others to the spill files.
  Status MergeFrozen(BatchPartial* partial, const std::vector<std::shared_ptr<Column>>& local_keys,
                     int64_t local_groups) {
    TARN_RETURN_NOT_OK(table_->Assign(local_keys, local_groups, &mapping_));
    const int64_t rows = partial->rows;
    const uint8_t* kept = partial->keep.empty() ? nullptr : partial->keep.data();
    row_ids_.resize(static_cast<size_t>(rows));
    held_rows_.assign(static_cast<size_t>((rows + 7) / 8), 0);
    spill_rows_.clear();
    for (int64_t row = 0; row < rows; ++row) {
      if (kept != nullptr && !GetBit(kept, row)) {
        row_ids_[row] = 0;
        continue;
      }
      const uint32_t id = mapping_[partial->ids[row]];
      row_ids_[row] = id == GroupTable::kNoGroup ? 0 : id;
      if (id == GroupTable::kNoGroup) {
        spill_rows_.push_back(row);
      } else {
        SetBit(held_rows_.data(), row);
      }
    }
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      AggregateState& state = *states_[a];
      const Column* argument = partial->arguments[a].get();
      if (distinct_[a]) {
        std::vector<uint8_t> candidates = partial->first_in_batch[a];
        for (size_t i = 0; i < candidates.size(); ++i) candidates[i] &= held_rows_[i];
        keep_.assign(static_cast<size_t>((rows + 7) / 8), 0);
        distinct_[a]->InsertNew(*argument, row_ids_.data(), rows, candidates.data(), keep_.data());
        TARN_RETURN_NOT_OK(state.Update(argument, row_ids_.data(), rows, keep_.data()));
      } else {
        TARN_RETURN_NOT_OK(state.Update(argument, row_ids_.data(), rows, held_rows_.data()));
      }
    }
    if (!spill_rows_.empty()) TARN_RETURN_NOT_OK(SpillRows(*partial));
    const int64_t bytes = HeldBytes();
    if (bytes <= 2 * memory_limit_) return Status::OK();
    return Status::ResourceExhausted(
        "Out of Memory Error: ", label(), " needs ", FormatMemorySize(bytes), " for the states of ",
        table_->num_groups(), " groups held in memory, more than twice the memory_limit of ",
        FormatMemorySize(memory_limit_));
  }

  // Appends the rows spill_rows_ of a frozen partial to their partitions.
  Status SpillRows(const BatchPartial& partial) {
    if (!spilled_) {
      if (!spill_.folder) spill_.folder = std::make_shared<SpillFolder>(spill_.temp_directory);
      spilled_ = std::make_unique<SpillPartitions>(
          spill_.folder.get(), "aggregate-" + std::to_string(spill_.level), SpillSchema(),
          kSpillPartitions);
    }
    auto batch = std::make_shared<Batch>();
    batch->num_rows = static_cast<int64_t>(spill_rows_.size());
    for (const auto& key : partial.key_columns) batch->columns.push_back(Take(*key, spill_rows_));
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      if (partial.arguments[a]) {
        batch->columns.push_back(Take(*partial.arguments[a], spill_rows_));
      }
    }
    std::vector<uint16_t> partition_of(spill_rows_.size());
    std::string key;
    for (size_t r = 0; r < spill_rows_.size(); ++r) {
      key.clear();
      for (size_t k = 0; k < keys_.size(); ++k) {
        GroupTable::AppendKeyBytes(*batch->columns[k], static_cast<int64_t>(r), &key);
      }
      partition_of[r] = static_cast<uint16_t>(
          PartitionOfHash(HashBytes(key), spill_.level, kSpillPartitions));
    }
    return spilled_->Append(*batch, partition_of);
  }

  // After the groups held in memory: each spilled partition aggregated in turn.
  Result<std::shared_ptr<Batch>> NextSpilled() {
    if (!spilled_) return std::shared_ptr<Batch>();
    if (!spill_finished_) {
      spill_finished_ = true;
      TARN_RETURN_NOT_OK(spilled_->Finish());
    }
    while (true) {
      if (partition_aggregate_) {
        TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, partition_aggregate_->Next());
        if (batch) {
          batch->schema = schema_;
          return batch;
        }
        partition_aggregate_.reset();
      }
      if (next_partition_ == spilled_->count()) return std::shared_ptr<Batch>();
      const int p = next_partition_++;
      if (spilled_->rows(p) == 0) continue;
      TARN_ASSIGN_OR_RETURN(partition_aggregate_, OpenPartition(p));
    }
  }

  // The aggregate of one spilled partition: the same keys and aggregates over its columns.
  Result<std::unique_ptr<Operator>> OpenPartition(int p) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> rows, spilled_->Open(p));
    std::shared_ptr<const Schema> schema = rows->schema();
    std::unique_ptr<Operator> input = MakeInterruptible(
        MakeReaderSource("SPILLED_GROUPS", std::move(rows)), spill_.interrupted);
    auto column = [&](int index) {
      auto node = std::make_unique<expr::BoundNode>();
      node->kind = expr::BoundKind::kColumn;
      node->type = schema->field(index).type;
      node->column_index = index;
      node->name = schema->field(index).name;
      return std::make_unique<BoundExpr>(std::move(node));
    };
    std::vector<std::unique_ptr<BoundExpr>> keys;
    std::vector<std::string> key_names;
    int index = 0;
    for (size_t k = 0; k < keys_.size(); ++k, ++index) {
      keys.push_back(column(index));
      key_names.push_back(schema_->field(static_cast<int>(k)).name);
    }
    std::vector<AggregateSpec> aggregates;
    for (const AggregateSpec& spec : aggregates_) {
      AggregateSpec copy;
      copy.function = spec.function;
      if (spec.argument) copy.argument = column(index++);
      copy.parameters = spec.parameters;
      copy.distinct = spec.distinct;
      copy.name = spec.name;
      copy.display = spec.display;
      aggregates.push_back(std::move(copy));
    }
    AggregateSpill nested = spill_;
    nested.level = spill_.level + 1;
    return MakeHashAggregateAt(std::move(input), std::move(keys), std::move(key_names),
                               std::move(aggregates), context_, std::move(nested));
  }

  Status CheckMemory(int64_t bytes, int64_t groups) const {
    if (bytes <= memory_limit_) return Status::OK();
    std::string note;
    if (!keys_.empty()) {
      note = SpillDisabledNote(spill_.temp_directory);
      if (note.empty()) {
        note = StrCat(" (after splitting its input ", spill_.level,
                      " times: too many rows share one key)");
      }
    }
    return Status::ResourceExhausted(
        "Out of Memory Error: ", label(), " needs ", FormatMemorySize(bytes),
        " for ", groups, " groups, more than the memory_limit of ",
        FormatMemorySize(memory_limit_), note);
  }

  std::unique_ptr<Operator> input_;
  std::vector<std::unique_ptr<BoundExpr>> keys_;
  std::vector<DataType> key_types_;
  std::vector<AggregateSpec> aggregates_;
  std::unique_ptr<SharedEvaluation> arguments_;           // the aggregates' arguments
  std::vector<std::unique_ptr<AggregateState>> states_;  // the final states
  std::vector<std::unique_ptr<DistinctSet>> distinct_;   // per aggregate; null unless DISTINCT
  // Per aggregate: an ungrouped DISTINCT aggregate over integers whose result does not depend
  // on the order of its values. Each worker keeps one set of its values over all the batches
  // it takes (worker_sets_[worker][aggregate]) instead of a set per batch merged in input
  // order; the sets are merged once at the end.
  std::vector<bool> pooled_;
  std::vector<std::vector<std::unique_ptr<IntegerValueSet>>> worker_sets_;
  mutable std::atomic<int64_t> pooled_bytes_{0};  // held by all workers' sets
  std::shared_ptr<const Schema> schema_;
  ExecContext context_;  // for the spilled partitions' aggregates
  ThreadPool* pool_;
  int threads_;
  int64_t memory_limit_;
  AggregateSpill spill_;
  bool spillable_ = false;  // CanSpill(), fixed at construction
  const BoundExpr* filter_;  // the predicate of a filter right below, applied here; or null

  // The final table, and scratch for Merge (used by the merging thread only).
  std::unique_ptr<GroupTable> table_;
  std::vector<uint32_t> mapping_;
  std::vector<uint32_t> row_ids_;
  std::vector<uint8_t> keep_;
  std::vector<uint8_t> held_rows_;     // MergeFrozen: rows of groups held in memory
  std::vector<int64_t> spill_rows_;    // MergeFrozen: rows of other keys

  // Spilling (see CanSpill): set by the merging thread, read by the workers.
  std::atomic<bool> frozen_{false};
  int64_t held_bytes_ = 0;  // HeldBytes() after the last merge
  std::unique_ptr<SpillPartitions> spilled_;
  bool spill_finished_ = false;
  int next_partition_ = 0;
  std::unique_ptr<Operator> partition_aggregate_;

  std::mutex mu_;  // guards the fields below
  std::condition_variable cv_;
  std::map<int64_t, std::vector<std::unique_ptr<BatchPartial>>> pending_;
  std::vector<std::unique_ptr<BatchPartial>> free_partials_;
  int64_t next_merge_ = 0;
  bool merging_ = false;
  bool failed_ = false;
  Status error_;

  Status build_error_;
  std::shared_ptr<Batch> result_;
  int64_t emitted_ = 0;
};

}  // namespace

namespace {

Result<std::unique_ptr<Operator>> MakeHashAggregateAt(
    std::unique_ptr<Operator> input, std::vector<std::unique_ptr<BoundExpr>> keys,
    std::vector<std::string> key_names, std::vector<AggregateSpec> aggregates,
    const ExecContext& context, AggregateSpill spill) {
  auto schema = std::make_shared<Schema>();
  for (size_t k = 0; k < keys.size(); ++k) schema->fields.emplace_back(key_names[k], keys[k]->type());
  std::vector<std::unique_ptr<AggregateState>> states;
  for (const AggregateSpec& spec : aggregates) {
    DataType input_type = spec.argument ? spec.argument->type() : DataType(TypeId::kInt64);
    TARN_ASSIGN_OR_RETURN(auto state,
                          MakeAggregateState(spec.function, input_type, spec.parameters));
    schema->fields.emplace_back(spec.name, state->result_type());
    states.push_back(std::move(state));
  }
  return std::unique_ptr<Operator>(std::make_unique<HashAggregateOperator>(
      std::move(input), std::move(keys), std::move(aggregates), std::move(states),
      std::move(schema), context, std::move(spill)));
}

}  // namespace

Result<std::unique_ptr<Operator>> MakeHashAggregate(
    std::unique_ptr<Operator> input, std::vector<std::unique_ptr<BoundExpr>> keys,
    std::vector<std::string> key_names, std::vector<AggregateSpec> aggregates,
    const ExecContext& context) {
  AggregateSpill spill;
  spill.temp_directory = context.temp_directory;
  spill.interrupted = context.interrupted;
  return MakeHashAggregateAt(std::move(input), std::move(keys), std::move(key_names),
                             std::move(aggregates), context, std::move(spill));
}

}  // namespace tarn::sql
