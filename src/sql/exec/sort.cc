#include "sql/exec/sort.h"

#include "sql/exec/batch_bytes.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <queue>
#include <type_traits>
#include <utility>

#include "expr/eval/cast.h"
#include "expr/eval/kernels.h"
#include "sql/exec/spill.h"
#include "tarn/sql.h"

namespace tarn::sql {
namespace {

using expr::Phys;

}  // namespace

RowComparator::RowComparator(const Batch& batch, const std::vector<SortKey>& keys)
    : comparator_([&] {
        std::vector<expr::OrderColumn> columns;
        for (const SortKey& key : keys) {
          columns.push_back({batch.columns[key.column].get(), key.descending, key.nulls_first});
        }
        return columns;
      }()) {}

int RowComparator::Compare(int64_t a, int64_t b) const { return comparator_.Compare(a, b); }

namespace {

constexpr int64_t kOutputBatchRows = 122880;

std::shared_ptr<Batch> TakeRows(const Batch& batch, const std::vector<int64_t>& order,
                                int64_t begin, int64_t end, std::shared_ptr<const Schema> schema,
                                int width) {
  std::span<const int64_t> indices(order.data() + begin, static_cast<size_t>(end - begin));
  if (width == 0) return MakeEmptyColumnsBatch(std::move(schema), end - begin);
  std::vector<std::shared_ptr<Column>> columns;
  for (int c = 0; c < width; ++c) columns.push_back(Take(*batch.columns[c], indices));
  return MakeBatch(std::move(schema), std::move(columns));
}

// Sorts `batch` by `keys` and keeps the first `keep` rows of the order (all when keep < 0).
// Ties keep input order, so results are deterministic.
template <typename T>
void NormalizeKey(const Column& column, const SortKey& key, std::vector<uint64_t>* out) {
  const T* values = column.values_as<T>();
  const int64_t rows = column.length;
  out->resize(static_cast<size_t>(rows));
  uint64_t* norm = out->data();
  // Order-preserving map to unsigned: flip the sign bit of signed values.
  constexpr uint64_t kFlip = std::is_signed_v<T> ? uint64_t{1} << 63 : 0;
  const uint64_t invert = key.descending ? ~uint64_t{0} : 0;
  for (int64_t row = 0; row < rows; ++row) {
    norm[row] = ((static_cast<uint64_t>(static_cast<int64_t>(values[row])) ^ kFlip) ^ invert);
  }
  if (column.validity) {
    const uint64_t null_value = key.nulls_first ? 0 : ~uint64_t{0};
    const uint8_t* valid = column.validity->data();
    for (int64_t row = 0; row < rows; ++row) {
      if (!GetBit(valid, row)) norm[row] = null_value;
    }
  }
}

// The first key as one unsigned word per row whose order agrees with the comparator's (equal
// words may still differ: the comparator decides); false for types it does not cover.
bool NormalizeFirstKey(const Batch& batch, const SortKey& key, std::vector<uint64_t>* out) {
  const Column& column = *batch.columns[key.column];
  switch (expr::PhysOf(column.type)) {
    case Phys::kI8: NormalizeKey<int8_t>(column, key, out); return true;
    case Phys::kI16: NormalizeKey<int16_t>(column, key, out); return true;
    case Phys::kI32: NormalizeKey<int32_t>(column, key, out); return true;
    case Phys::kI64: NormalizeKey<int64_t>(column, key, out); return true;
    case Phys::kU8: NormalizeKey<uint8_t>(column, key, out); return true;
    case Phys::kU16: NormalizeKey<uint16_t>(column, key, out); return true;
    case Phys::kU32: NormalizeKey<uint32_t>(column, key, out); return true;
    default: return false;
  }
}

}  // namespace

std::vector<int64_t> OrderRows(const Batch& batch, const std::vector<SortKey>& keys,
                               int64_t keep) {
  // Filled by appending: a sized vector would be zeroed first, then overwritten.
  std::vector<int64_t> order;
  order.reserve(static_cast<size_t>(batch.num_rows));
  for (int64_t row = 0; row < batch.num_rows; ++row) order.push_back(row);
  RowComparator comparator(batch, keys);
  // Reused by this thread's next batch, so resizing it to a batch's rows rarely zeroes anything.
  thread_local std::vector<uint64_t> first;
  const bool normalized = !keys.empty() && NormalizeFirstKey(batch, keys[0], &first);
  auto sort = [&](auto less) {
    if (keep >= 0 && keep < batch.num_rows) {
      std::partial_sort(order.begin(), order.begin() + keep, order.end(), less);
      order.resize(static_cast<size_t>(keep));
    } else {
      std::sort(order.begin(), order.end(), less);
    }
  };
  if (normalized) {
    // Most comparisons end at the first key's words; equal words go to the comparator.
    const uint64_t* words = first.data();
    sort([&](int64_t a, int64_t b) {
      if (words[a] != words[b]) return words[a] < words[b];
      int c = comparator.Compare(a, b);
      return c != 0 ? c < 0 : a < b;
    });
  } else {
    // Ties keep input order, so results are deterministic.
    sort([&](int64_t a, int64_t b) {
      int c = comparator.Compare(a, b);
      return c != 0 ? c < 0 : a < b;
    });
  }
  // A whole large result's words are not worth keeping for the next batch.
  if (first.capacity() > (size_t{1} << 20)) std::vector<uint64_t>().swap(first);
  return order;
}

namespace {

// The per-batch half of a top-N: each batch shrinks to its own best N rows, in order. A row
// of the overall top N is among the top N of its batch, and ties keep input order in both
// steps, so the TOP_N above gives the same rows as over the whole input.
class TopNPartialOperator : public Operator {
 public:
  TopNPartialOperator(std::unique_ptr<Operator> input, std::vector<SortKey> keys, int64_t n,
                      std::shared_ptr<TopNBound> bound)
      : input_(std::move(input)), keys_(std::move(keys)), n_(n), bound_(std::move(bound)) {}

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
    if (!batch) return batch;
    return TransformBatch(std::move(batch));
  }
  Operator* per_batch_input() override { return input_.get(); }
  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    if (batch->num_rows < n_ || n_ == 0) return batch;
    std::vector<int64_t> order = OrderRows(*batch, keys_, n_);
    if (bound_) bound_->Offer(*batch->columns[keys_[0].column], order.back());
    if (batch->num_rows == n_) return batch;
    return TakeRows(*batch, order, 0, static_cast<int64_t>(order.size()), batch->schema,
                    batch->num_columns());
  }
  // Not shown by EXPLAIN: the TOP_N above it stands for both halves.
  std::string label() const override { return ""; }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  std::unique_ptr<Operator> input_;
  std::vector<SortKey> keys_;
  int64_t n_;
  std::shared_ptr<TopNBound> bound_;  // or null
};

// Runs (spill files of rows in key order, each with the batch's columns) merged into one
// order: ties go to the earlier run, so a merge of runs made in input order is stable.
class RunMerger {
 public:
  static Result<std::unique_ptr<RunMerger>> Open(const std::vector<std::string>& paths,
                                                 std::shared_ptr<const Schema> schema,
                                                 const std::vector<SortKey>& keys) {
    auto merger = std::unique_ptr<RunMerger>(new RunMerger(std::move(schema), keys));
    merger->runs_.resize(paths.size());
    for (size_t r = 0; r < paths.size(); ++r) {
      TARN_ASSIGN_OR_RETURN(merger->runs_[r].reader, SpillReader::Open(paths[r], merger->schema_));
      TARN_RETURN_NOT_OK(merger->Advance(&merger->runs_[r]));
      if (merger->runs_[r].batch) merger->heap_.push(r);
    }
    return merger;
  }

  // The next rows in order (every column; up to about `rows`), or null after the last.
  Result<std::shared_ptr<Batch>> Next(int64_t rows) {
    if (heap_.empty()) return std::shared_ptr<Batch>();
    const size_t width = schema_->fields.size();
    std::vector<std::vector<std::shared_ptr<Column>>> pieces(width);
    int64_t gathered = 0;
    while (!heap_.empty() && gathered < rows) {
      const size_t r = heap_.top();
      heap_.pop();
      Run& run = runs_[r];
      // This run's rows while they sort before the best row of every other run.
      const int64_t start = run.row;
      const int64_t end = std::min(run.batch->num_rows, start + (rows - gathered));
      int64_t stop = start + 1;
      if (heap_.empty()) {
        stop = end;
      } else {
        const size_t next = heap_.top();
        run.row = stop;
        while (stop < end && Before(r, next)) run.row = ++stop;
      }
      for (size_t c = 0; c < width; ++c) {
        pieces[c].push_back(Slice(*run.batch->columns[c], start, stop - start));
      }
      gathered += stop - start;
      run.row = stop;
      if (run.row >= run.batch->num_rows) TARN_RETURN_NOT_OK(Advance(&run));
      if (run.batch) heap_.push(r);
    }
    if (width == 0) return MakeEmptyColumnsBatch(schema_, gathered);
    std::vector<std::shared_ptr<Column>> columns;
    for (auto& column_pieces : pieces) {
      columns.push_back(column_pieces.size() == 1 ? column_pieces[0] : Concatenate(column_pieces));
    }
    auto batch = MakeBatch(schema_, std::move(columns));
    batch->num_rows = gathered;
    return batch;
  }

 private:
  struct Run {
    std::unique_ptr<SpillReader> reader;
    std::shared_ptr<Batch> batch;  // null after the last
    std::unique_ptr<expr::RowComparator> comparator;
    int64_t row = 0;
  };

  RunMerger(std::shared_ptr<const Schema> schema, std::vector<SortKey> keys)
      : schema_(std::move(schema)), keys_(std::move(keys)),
        heap_([this](size_t a, size_t b) { return Before(b, a); }) {}

  Status Advance(Run* run) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(run->batch, run->reader->Next());
      if (!run->batch || run->batch->num_rows > 0) break;
    }
    run->row = 0;
    run->comparator.reset();
    if (!run->batch) return Status::OK();
    std::vector<expr::OrderColumn> columns;
    for (const SortKey& key : keys_) {
      columns.push_back({run->batch->columns[key.column].get(), key.descending, key.nulls_first});
    }
    run->comparator = std::make_unique<expr::RowComparator>(columns);
    return Status::OK();
  }

  // Run a's current row sorts before run b's: by the keys, then the earlier run.
  bool Before(size_t a, size_t b) const {
    const int c = runs_[a].comparator->Compare(runs_[a].row, *runs_[b].comparator, runs_[b].row);
    return c != 0 ? c < 0 : a < b;
  }

  std::shared_ptr<const Schema> schema_;
  std::vector<SortKey> keys_;
  std::vector<Run> runs_;
  std::priority_queue<size_t, std::vector<size_t>, std::function<bool(size_t, size_t)>> heap_;
};

// Runs merged at once; more are merged in passes first.
constexpr size_t kMergeFanIn = 16;

class SortOperator : public Operator {
 public:
  SortOperator(std::unique_ptr<Operator> input, std::vector<SortKey> keys, int output_columns,
               int64_t top_n, const ExecContext& context)
      : input_(std::move(input)), keys_(std::move(keys)), width_(output_columns), top_n_(top_n),
        memory_limit_(context.memory_limit), temp_directory_(context.temp_directory) {
    auto schema = std::make_shared<Schema>();
    for (int c = 0; c < width_; ++c) schema->fields.push_back(input_->schema()->field(c));
    schema_ = std::move(schema);
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    if (!sorted_ && !merger_) TARN_RETURN_NOT_OK(Build());
    if (merger_) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, merger_->Next(kOutputBatchRows));
      if (!batch) return batch;
      if (width_ == 0) return MakeEmptyColumnsBatch(schema_, batch->num_rows);
      std::vector<std::shared_ptr<Column>> columns(batch->columns.begin(),
                                                   batch->columns.begin() + width_);
      return MakeBatch(schema_, std::move(columns));
    }
    if (emitted_ >= static_cast<int64_t>(order_.size())) return std::shared_ptr<Batch>();
    int64_t end = std::min<int64_t>(emitted_ + kOutputBatchRows, order_.size());
    auto batch = TakeRows(*sorted_, order_, emitted_, end, schema_, width_);
    emitted_ = end;
    return batch;
  }

  std::string label() const override { return top_n_ >= 0 ? "TOP_N" : "ORDER_BY"; }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    const Schema& input = *input_->schema();
    for (const SortKey& key : keys_) {
      lines.push_back(input.field(key.column).name + (key.descending ? " DESC" : " ASC") +
                      (key.nulls_first ? " NULLS FIRST" : " NULLS LAST"));
    }
    if (top_n_ >= 0) lines.push_back("top: " + std::to_string(top_n_));
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  std::vector<int64_t> Order(const Batch& batch, int64_t keep) const {
    return OrderRows(batch, keys_, keep);
  }

  Status Build() {
    std::vector<std::shared_ptr<Batch>> batches;
    int64_t bytes = 0;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
      if (!batch) break;
      if (batch->num_rows == 0) continue;
      if (top_n_ >= 0) {
        // Keep only the best top_n rows so far.
        if (kept_) batches = {kept_, batch};
        else batches = {batch};
        auto merged = batches.size() == 1 ? batch : ConcatenateBatches(batches);
        std::vector<int64_t> order = Order(*merged, top_n_);
        kept_ = TakeRows(*merged, order, 0, static_cast<int64_t>(order.size()),
                         merged->schema, merged->num_columns());
        kept_->num_rows = static_cast<int64_t>(order.size());
        batches.clear();
        continue;
      }
      bytes += BatchBytes(*batch);
      batches.push_back(std::move(batch));
      if (bytes > memory_limit_) {
        if (temp_directory_.empty()) {
          return Status::ResourceExhausted("Out of Memory Error: ORDER_BY needs more than the "
                                           "memory_limit of ", FormatMemorySize(memory_limit_),
                                           SpillDisabledNote(temp_directory_));
        }
        TARN_RETURN_NOT_OK(SpillRun(std::move(batches)));
        batches.clear();
        bytes = 0;
      }
    }
    if (!runs_.empty()) {
      // Past the limit: the rest is one more run, and the runs are merged as Next() asks.
      if (!batches.empty()) TARN_RETURN_NOT_OK(SpillRun(std::move(batches)));
      return OpenMerge();
    }
    if (top_n_ >= 0) {
      sorted_ = kept_ ? kept_ : MakeEmptyColumnsBatch(input_->schema(), 0);
    } else if (batches.empty()) {
      sorted_ = MakeEmptyColumnsBatch(input_->schema(), 0);
    } else {
      sorted_ = batches.size() == 1 ? batches[0] : ConcatenateBatches(batches);
    }
    order_ = sorted_->num_rows > 0 ? Order(*sorted_, -1) : std::vector<int64_t>();
    return Status::OK();
  }

  // Sorts the rows held and writes them as one run. Its batches are a sixteenth of it, so a
  // merge of kMergeFanIn runs holds about one run's bytes.
  Status SpillRun(std::vector<std::shared_ptr<Batch>> batches) {
    std::shared_ptr<Batch> all = batches.size() == 1 ? batches[0] : ConcatenateBatches(batches);
    batches.clear();
    std::vector<int64_t> order = Order(*all, -1);
    if (!folder_) folder_ = std::make_unique<SpillFolder>(temp_directory_);
    TARN_ASSIGN_OR_RETURN(std::string path, folder_->NewPath("sort-run"));
    TARN_ASSIGN_OR_RETURN(auto writer, SpillWriter::Create(path));
    const int64_t rows = static_cast<int64_t>(order.size());
    const int64_t chunk = std::max<int64_t>(1024, rows / 16);
    for (int64_t begin = 0; begin < rows; begin += chunk) {
      const int64_t end = std::min(rows, begin + chunk);
      auto part = TakeRows(*all, order, begin, end, all->schema, all->num_columns());
      part->num_rows = end - begin;
      TARN_RETURN_NOT_OK(writer->Write(*part));
    }
    TARN_RETURN_NOT_OK(writer->Finish());
    runs_.push_back(std::move(path));
    return Status::OK();
  }

  // Merges runs kMergeFanIn at a time into longer ones until at most kMergeFanIn are left,
  // then opens their merge.
  Status OpenMerge() {
    const std::shared_ptr<const Schema> schema = input_->schema();
    while (runs_.size() > kMergeFanIn) {
      std::vector<std::string> merged;
      for (size_t begin = 0; begin < runs_.size(); begin += kMergeFanIn) {
        const size_t end = std::min(runs_.size(), begin + kMergeFanIn);
        std::vector<std::string> group(runs_.begin() + static_cast<int64_t>(begin),
                                       runs_.begin() + static_cast<int64_t>(end));
        if (group.size() == 1) {
          merged.push_back(group[0]);
          continue;
        }
        TARN_ASSIGN_OR_RETURN(auto merger, RunMerger::Open(group, schema, keys_));
        TARN_ASSIGN_OR_RETURN(std::string path, folder_->NewPath("sort-run"));
        TARN_ASSIGN_OR_RETURN(auto writer, SpillWriter::Create(path));
        while (true) {
          TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, merger->Next(kOutputBatchRows / 4));
          if (!batch) break;
          TARN_RETURN_NOT_OK(writer->Write(*batch));
        }
        TARN_RETURN_NOT_OK(writer->Finish());
        merger.reset();
        for (const std::string& used : group) std::remove(used.c_str());
        merged.push_back(std::move(path));
      }
      runs_ = std::move(merged);
    }
    TARN_ASSIGN_OR_RETURN(merger_, RunMerger::Open(runs_, schema, keys_));
    return Status::OK();
  }

  std::unique_ptr<Operator> input_;
  std::vector<SortKey> keys_;
  int width_;
  int64_t top_n_;
  int64_t memory_limit_;
  // Spilling (a full sort past memory_limit): sorted runs in files, then their merge.
  std::string temp_directory_;
  std::unique_ptr<SpillFolder> folder_;
  std::vector<std::string> runs_;
  std::unique_ptr<RunMerger> merger_;
  std::shared_ptr<const Schema> schema_;
  std::shared_ptr<Batch> kept_;
  std::shared_ptr<Batch> sorted_;
  std::vector<int64_t> order_;
  int64_t emitted_ = 0;
};

}  // namespace

bool TopNBound::Supports(const DataType& type, const SortKey& key) {
  if (key.nulls_first) return false;
  switch (expr::PhysOf(type)) {
    case Phys::kI8: case Phys::kI16: case Phys::kI32: case Phys::kI64:
    case Phys::kU8: case Phys::kU16: case Phys::kU32: case Phys::kU64:
    case Phys::kI128: case Phys::kF32: case Phys::kF64:
      return true;
    default:
      return false;
  }
}

TopNBound::TopNBound(int scan_column, const DataType& type, bool descending)
    : scan_column_(scan_column), phys_(expr::PhysOf(type)), descending_(descending) {}

namespace {

// Whether `a` sorts before `b` ascending (NaN after every number, as ORDER BY puts it).
template <typename T>
bool KeyLess(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return expr::FloatLess(a, b);
  } else {
    return a < b;
  }
}

}  // namespace

void TopNBound::Offer(const Column& key, int64_t row) {
  if (key.IsNull(row)) return;
  expr::WithTypedValues(key, phys_, [&](const auto* values) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
    const T value = values[row];
    std::lock_guard<std::mutex> lock(mu_);
    T current;
    if constexpr (std::is_floating_point_v<T>) {
      current = static_cast<T>(floating_);
    } else {
      current = static_cast<T>(integer_);
    }
    if (known_ && !(descending_ ? KeyLess(current, value) : KeyLess(value, current))) return;
    if constexpr (std::is_floating_point_v<T>) {
      floating_ = value;
    } else {
      integer_ = static_cast<__int128>(value);
    }
    known_ = true;
  });
}

Result<std::vector<uint8_t>> TopNBound::Select(const Batch& probe, int64_t* selected) const {
  const int64_t rows = probe.num_rows;
  std::vector<uint8_t> keep(static_cast<size_t>((rows + 7) / 8), 0);
  bool known;
  __int128 integer;
  double floating;
  {
    std::lock_guard<std::mutex> lock(mu_);
    known = known_;
    integer = integer_;
    floating = floating_;
  }
  if (!known) {
    std::fill(keep.begin(), keep.end(), 0xFF);
    *selected = rows;
    return keep;
  }
  if (scan_column_ >= probe.num_columns() || !probe.columns[scan_column_]) {
    return Status::Internal("a top-N bound reads column ", scan_column_, " of a batch of ",
                            probe.num_columns());
  }
  const Column& key = *probe.columns[scan_column_];
  const uint8_t* valid = key.validity ? key.validity->data() : nullptr;
  int64_t count = 0;
  expr::WithTypedValues(key, phys_, [&](const auto* values) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
    T bound;
    if constexpr (std::is_floating_point_v<T>) {
      bound = static_cast<T>(floating);
    } else {
      bound = static_cast<T>(integer);
    }
    for (int64_t row = 0; row < rows; ++row) {
      const T value = values[row];
      // Reaches the bound: not after it in the order (NULLs, last, never do).
      const bool reaches = (valid == nullptr || GetBit(valid, row)) &&
                           !(descending_ ? KeyLess(value, bound) : KeyLess(bound, value));
      keep[static_cast<size_t>(row >> 3)] |= static_cast<uint8_t>(reaches) << (row & 7);
      count += reaches;
    }
  });
  *selected = count;
  return keep;
}

std::unique_ptr<Operator> MakeTopNPerBatch(std::unique_ptr<Operator> input,
                                           std::vector<SortKey> keys, int64_t top_n,
                                           std::shared_ptr<TopNBound> bound) {
  return std::make_unique<TopNPartialOperator>(std::move(input), std::move(keys), top_n,
                                               std::move(bound));
}

std::unique_ptr<Operator> MakeSort(std::unique_ptr<Operator> input, std::vector<SortKey> keys,
                                   int output_columns, int64_t top_n,
                                   const ExecContext& context) {
  return std::make_unique<SortOperator>(std::move(input), std::move(keys), output_columns, top_n,
                                        context);
}

}  // namespace tarn::sql
