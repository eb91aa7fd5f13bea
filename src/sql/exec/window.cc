#include "sql/exec/window.h"

#include "sql/exec/batch_bytes.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <span>
#include <utility>

#include "expr/eval/cast.h"
#include "expr/eval/kernels.h"
#include "sql/exec/aggregate_function.h"
#include "sql/exec/group_table.h"
#include "sql/exec/spill.h"
#include "sql/exec/window_layout.h"
#include "tarn/sql.h"

namespace tarn::sql {
namespace {

using ast::FrameBound;
using ast::FrameUnit;
using expr::Phys;

constexpr int64_t kOutputBatchRows = 122880;

// Partition files a spilling window splits its rows into at each level.
constexpr int kSpillPartitions = 32;

enum class Kind : uint8_t {
  kRowNumber, kRank, kDenseRank, kPercentRank, kCumeDist, kNtile, kLag, kLead, kFirstValue,
  kLastValue, kNthValue, kCountStar, kCount, kSum, kAvg, kMin, kMax,
};

std::optional<Kind> KindOf(const std::string& name) {
  static const std::pair<const char*, Kind> kNames[] = {
      {"row_number", Kind::kRowNumber}, {"rank", Kind::kRank},
      {"dense_rank", Kind::kDenseRank}, {"percent_rank", Kind::kPercentRank},
      {"cume_dist", Kind::kCumeDist},   {"ntile", Kind::kNtile},
      {"lag", Kind::kLag},              {"lead", Kind::kLead},
      {"first_value", Kind::kFirstValue}, {"last_value", Kind::kLastValue},
      {"nth_value", Kind::kNthValue},   {"count_star", Kind::kCountStar},
      {"count", Kind::kCount},          {"sum", Kind::kSum},
      {"avg", Kind::kAvg},              {"min", Kind::kMin},
      {"max", Kind::kMax},
  };
  for (const auto& [spelling, kind] : kNames) {
    if (name == spelling) return kind;
  }
  return std::nullopt;
}

std::shared_ptr<Column> NullRow(const DataType& type) {
  ColumnBuilder builder(type);
  builder.AppendNull();
  return builder.Finish();
}

// The rows of `values` named by `indices`, where an index of -1 is NULL.
std::shared_ptr<Column> TakeOrNull(const Column& values, std::vector<int64_t> indices) {
  bool any_null = false;
  for (int64_t index : indices) any_null = any_null || index < 0;
  if (!any_null) return Take(values, indices);
  std::shared_ptr<Column> copy = std::make_shared<Column>(values);
  std::shared_ptr<Column> parts[] = {copy, NullRow(values.type)};
  std::shared_ptr<Column> extended = Concatenate(parts);
  for (int64_t& index : indices) {
    if (index < 0) index = values.length;
  }
  return Take(*extended, indices);
}

template <typename T>
std::shared_ptr<Column> NumberColumn(const DataType& type, const std::vector<T>& values,
                                     const std::vector<uint8_t>* valid) {
  ColumnBuilder builder(type);
  builder.Reserve(static_cast<int64_t>(values.size()));
  for (size_t row = 0; row < values.size(); ++row) {
    if (valid != nullptr && !(*valid)[row]) {
      builder.AppendNull();
    } else {
      builder.AppendNumber<T>(values[row]);
    }
  }
  return builder.Finish();
}

// Compares row i of `a` with row j of `b`, two non-NULL values of one type.
int CompareAcross(const Column& a, int64_t i, const Column& b, int64_t j, Phys phys) {
  auto three = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (phys) {
    case Phys::kI8: return three(a.values_as<int8_t>()[i], b.values_as<int8_t>()[j]);
    case Phys::kI16: return three(a.values_as<int16_t>()[i], b.values_as<int16_t>()[j]);
    case Phys::kI32: return three(a.values_as<int32_t>()[i], b.values_as<int32_t>()[j]);
    case Phys::kI64: return three(a.values_as<int64_t>()[i], b.values_as<int64_t>()[j]);
    case Phys::kU8: return three(a.values_as<uint8_t>()[i], b.values_as<uint8_t>()[j]);
    case Phys::kU16: return three(a.values_as<uint16_t>()[i], b.values_as<uint16_t>()[j]);
    case Phys::kU32: return three(a.values_as<uint32_t>()[i], b.values_as<uint32_t>()[j]);
    case Phys::kU64: return three(a.values_as<uint64_t>()[i], b.values_as<uint64_t>()[j]);
    case Phys::kI128: return three(a.values_as<__int128>()[i], b.values_as<__int128>()[j]);
    default: return expr::CompareValues(a.GetValue(i), b.GetValue(j));
  }
}

// Each sorted position's frame [begin, end), as positions of the sort order.
struct Frames {
  std::vector<int64_t> begin;
  std::vector<int64_t> end;
  // Whether begin and end never decrease within a partition (a sliding frame), so that a
  // running minimum can slide along.
  bool monotone = true;
};

class FrameBuilder {
 public:
  FrameBuilder(const WindowLayout& layout, const WindowFrame& frame, const Column* start,
               const Column* end, const Column* range_key, bool descending)
      : layout_(layout), frame_(frame), start_(start), end_(end), key_(range_key),
        descending_(descending) {}

  Status Build(Frames* out) {
    const int64_t n = layout_.rows();
    out->begin.resize(static_cast<size_t>(n));
    out->end.resize(static_cast<size_t>(n));
    for (int64_t p = 0; p < n; ++p) {
      TARN_ASSIGN_OR_RETURN(int64_t begin, Bound(p, frame_.start, start_, true));
      TARN_ASSIGN_OR_RETURN(int64_t end, Bound(p, frame_.end, end_, false));
      if (end < begin) end = begin;
      out->begin[static_cast<size_t>(p)] = begin;
      out->end[static_cast<size_t>(p)] = end;
      if (p > 0 && layout_.partition_begin(p) == layout_.partition_begin(p - 1) &&
          (begin < out->begin[static_cast<size_t>(p - 1)] ||
           end < out->end[static_cast<size_t>(p - 1)])) {
        out->monotone = false;
      }
    }
    return Status::OK();
  }

 private:
  Result<int64_t> Offset(const Column* offsets, int64_t row) const {
    if (offsets->IsNull(row)) {
      return Status::InvalidArgument("Invalid Input Error: a window frame offset is NULL");
    }
    return offsets->values_as<int64_t>()[row];
  }

  Result<int64_t> Bound(int64_t p, FrameBound bound, const Column* offsets, bool is_start) const {
    const int64_t pb = layout_.partition_begin(p);
    const int64_t pe = layout_.partition_end(p);
    auto clamp = [&](int64_t v) { return std::clamp(v, pb, pe); };
    switch (bound) {
      case FrameBound::kUnboundedPreceding: return pb;
      case FrameBound::kUnboundedFollowing: return pe;
      case FrameBound::kCurrentRow:
        if (frame_.unit == FrameUnit::kRows) return is_start ? p : p + 1;
        return is_start ? layout_.peer_begin(p) : layout_.peer_end(p);
      case FrameBound::kPreceding:
      case FrameBound::kFollowing:
        break;
    }
    const int64_t row = layout_.row(p);
    const bool preceding = bound == FrameBound::kPreceding;
    if (frame_.unit == FrameUnit::kRows) {
      TARN_ASSIGN_OR_RETURN(int64_t offset, Offset(offsets, row));
      const int64_t target = preceding ? p - offset : p + offset;
      return clamp(is_start ? target : target + 1);
    }
    if (frame_.unit == FrameUnit::kGroups) {
      TARN_ASSIGN_OR_RETURN(int64_t offset, Offset(offsets, row));
      const int64_t group = layout_.group_in_partition(p) + (preceding ? -offset : offset);
      if (group < 0) return pb;
      if (group >= layout_.groups_in_partition(p)) return pe;
      const int64_t first = layout_.first_group(p) + group;
      return is_start ? layout_.group_begin(first) : layout_.group_end(first);
    }
    // RANGE: a NULL key's frame bound is its peers'; otherwise search the partition's
    // non-NULL keys for the bound's value.
    if (key_->IsNull(row) || offsets->IsNull(row)) {
      return is_start ? layout_.peer_begin(p) : layout_.peer_end(p);
    }
    const Phys phys = expr::PhysOf(key_->type);
    int64_t lo = layout_.valid_begin(p);
    int64_t hi = layout_.valid_end(p);
    // The first position whose key is past the bound (end) or not before it (start), in the
    // order's direction.
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      int c = CompareAcross(*key_, layout_.row(mid), *offsets, row, phys);
      if (descending_) c = -c;
      const bool before = is_start ? c < 0 : c <= 0;
      if (before) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  const WindowLayout& layout_;
  const WindowFrame& frame_;
  const Column* start_;
  const Column* end_;
  const Column* key_;
  bool descending_;
};

// Aggregates over frames.
class FrameAggregator {
 public:
  FrameAggregator(const WindowLayout& layout, const Frames& frames, const DataType& result_type)
      : layout_(layout), frames_(frames), result_type_(result_type) {}

  std::shared_ptr<Column> CountStar() const {
    std::vector<int64_t> values(static_cast<size_t>(layout_.rows()));
    for (int64_t p = 0; p < layout_.rows(); ++p) {
      values[static_cast<size_t>(layout_.row(p))] = End(p) - Begin(p);
    }
    return NumberColumn<int64_t>(result_type_, values, nullptr);
  }

  std::shared_ptr<Column> Count(const Column& input) const {
    std::vector<int64_t> prefix = ValidPrefix(input);
    std::vector<int64_t> values(static_cast<size_t>(layout_.rows()));
    for (int64_t p = 0; p < layout_.rows(); ++p) {
      values[static_cast<size_t>(layout_.row(p))] =
          prefix[static_cast<size_t>(End(p))] - prefix[static_cast<size_t>(Begin(p))];
    }
    return NumberColumn<int64_t>(result_type_, values, nullptr);
  }

  // sum and avg, as the hash aggregate computes them (aggregate_function.h): exact 128-bit
  // sums of integers and decimals, floats added in order.
  std::shared_ptr<Column> SumOrAverage(const Column& input, bool average) const {
    const Phys phys = expr::PhysOf(input.type);
    const int64_t n = layout_.rows();
    std::vector<int64_t> counts = ValidPrefix(input);
    std::vector<uint8_t> valid(static_cast<size_t>(n), 0);
    if (phys == Phys::kF32 || phys == Phys::kF64) {
      std::vector<double> results(static_cast<size_t>(n), 0.0);
      expr::WithTypedValues(input, phys, [&](const auto* values) {
        // Sums its frame in order; a frame that only grows at its end keeps adding.
        int64_t sum_begin = -1;
        int64_t sum_end = -1;
        double sum = 0;
        for (int64_t p = 0; p < n; ++p) {
          const int64_t begin = Begin(p);
          const int64_t end = End(p);
          if (begin != sum_begin || end < sum_end) {
            sum = 0;
            sum_begin = begin;
            sum_end = begin;
          }
          for (; sum_end < end; ++sum_end) {
            const int64_t row = layout_.row(sum_end);
            if (input.IsValid(row)) sum += static_cast<double>(values[row]);
          }
          const int64_t count = counts[static_cast<size_t>(end)] - counts[static_cast<size_t>(begin)];
          const size_t out = static_cast<size_t>(layout_.row(p));
          if (count > 0) {
            valid[out] = 1;
            results[out] = average ? sum / static_cast<double>(count) : sum;
          }
        }
      });
      return NumberColumn<double>(result_type_, results, &valid);
    }
    std::vector<__int128> prefix(static_cast<size_t>(n) + 1, 0);
    expr::WithTypedValues(input, phys, [&](const auto* values) {
      for (int64_t p = 0; p < n; ++p) {
        const int64_t row = layout_.row(p);
        prefix[static_cast<size_t>(p) + 1] =
            prefix[static_cast<size_t>(p)] +
            (input.IsValid(row) ? static_cast<__int128>(values[row]) : 0);
      }
    });
    const bool decimal = input.type.id == TypeId::kDecimal;
    const bool narrow = decimal ? input.type.precision <= 9
                                : (phys == Phys::kI8 || phys == Phys::kI16 ||
                                   phys == Phys::kI32 || phys == Phys::kU8 || phys == Phys::kU16);
    const double scale = decimal ? std::pow(10.0, input.type.scale) : 1.0;
    std::vector<__int128> sums(static_cast<size_t>(n), 0);
    std::vector<double> averages(static_cast<size_t>(n), 0.0);
    for (int64_t p = 0; p < n; ++p) {
      const size_t begin = static_cast<size_t>(Begin(p));
      const size_t end = static_cast<size_t>(End(p));
      const int64_t count = counts[end] - counts[begin];
      const size_t out = static_cast<size_t>(layout_.row(p));
      if (count == 0) continue;
      valid[out] = 1;
      const __int128 sum = prefix[end] - prefix[begin];
      if (!average) {
        sums[out] = sum;
      } else if (narrow) {
        averages[out] = static_cast<double>(sum) / (static_cast<double>(count) * scale);
      } else {
        const long double divident = static_cast<long double>(count) * scale;
        averages[out] = static_cast<double>(static_cast<long double>(sum) / divident);
      }
    }
    if (average) return NumberColumn<double>(result_type_, averages, &valid);
    return NumberColumn<__int128>(result_type_, sums, &valid);
  }

  // min and max: the best row of each frame by the values' order (NULLs never win).
  std::shared_ptr<Column> MinOrMax(const std::shared_ptr<Column>& input, bool max) const {
    const int64_t n = layout_.rows();
    Batch values;
    values.columns = {input};
    values.num_rows = input->length;
    const std::vector<SortKey> keys = {SortKey{0, max, false}};
    RowComparator comparator(values, keys);
    // Whether sorted position a's value beats b's (a NULL never does).
    auto better = [&](int64_t a, int64_t b) {
      return comparator.Compare(layout_.row(a), layout_.row(b)) < 0;
    };
    std::vector<int64_t> best(static_cast<size_t>(n), -1);
    if (frames_.monotone) {
      // Sliding frames: a deque of candidates, best first.
      std::deque<int64_t> candidates;
      int64_t pushed = 0;
      int64_t partition = -1;
      for (int64_t p = 0; p < n; ++p) {
        if (layout_.partition_begin(p) != partition) {
          partition = layout_.partition_begin(p);
          candidates.clear();
          pushed = partition;
        }
        const int64_t begin = Begin(p);
        const int64_t end = End(p);
        if (pushed < begin) pushed = begin;
        for (; pushed < end; ++pushed) {
          if (input->IsNull(layout_.row(pushed))) continue;
          while (!candidates.empty() && !better(candidates.back(), pushed)) {
            candidates.pop_back();
          }
          candidates.push_back(pushed);
        }
        while (!candidates.empty() && candidates.front() < begin) candidates.pop_front();
        if (!candidates.empty()) best[static_cast<size_t>(layout_.row(p))] =
            layout_.row(candidates.front());
      }
    } else {
      for (int64_t p = 0; p < n; ++p) {
        int64_t winner = -1;
        for (int64_t q = Begin(p); q < End(p); ++q) {
          if (input->IsNull(layout_.row(q))) continue;
          if (winner < 0 || better(q, winner)) winner = q;
        }
        if (winner >= 0) best[static_cast<size_t>(layout_.row(p))] = layout_.row(winner);
      }
    }
    return TakeOrNull(*input, std::move(best));
  }

 private:
  int64_t Begin(int64_t p) const { return frames_.begin[static_cast<size_t>(p)]; }
  int64_t End(int64_t p) const { return frames_.end[static_cast<size_t>(p)]; }

  // prefix[p]: the non-NULL values at sorted positions before p.
  std::vector<int64_t> ValidPrefix(const Column& input) const {
    std::vector<int64_t> prefix(static_cast<size_t>(layout_.rows()) + 1, 0);
    for (int64_t p = 0; p < layout_.rows(); ++p) {
      prefix[static_cast<size_t>(p) + 1] =
          prefix[static_cast<size_t>(p)] + (input.IsValid(layout_.row(p)) ? 1 : 0);
    }
    return prefix;
  }

  const WindowLayout& layout_;
  const Frames& frames_;
  const DataType& result_type_;
};

class WindowOperator : public Operator {
 public:
  WindowOperator(std::unique_ptr<Operator> input, std::vector<WindowFunction> functions,
                 std::vector<DataType> types, const ExecContext& context)
      : input_(std::move(input)), functions_(std::move(functions)), types_(std::move(types)),
        memory_limit_(context.memory_limit), temp_directory_(context.temp_directory) {
    auto schema = std::make_shared<Schema>(*input_->schema());
    for (size_t f = 0; f < functions_.size(); ++f) {
      schema->fields.push_back(Field{functions_[f].name, types_[f], true});
    }
    schema_ = std::move(schema);
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    if (!output_) TARN_RETURN_NOT_OK(Compute());
    while (emitted_ >= output_->num_rows) {
      if (pending_.empty()) return std::shared_ptr<Batch>();
      TARN_RETURN_NOT_OK(ComputeNextPartition());
    }
    const int64_t rows = std::min(kOutputBatchRows, output_->num_rows - emitted_);
    std::shared_ptr<Batch> batch = emitted_ == 0 && rows == output_->num_rows
                                       ? output_
                                       : SliceBatch(*output_, emitted_, rows);
    emitted_ += rows;
    return batch;
  }

  std::string label() const override { return "WINDOW"; }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    for (const WindowFunction& function : functions_) lines.push_back(function.display);
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  Status OutOfMemory(int level = 0) const {
    std::string note = SpillDisabledNote(temp_directory_);
    if (note.empty() && !Partitioned()) {
      note = " (it spills only when all its functions share a PARTITION BY)";
    } else if (note.empty()) {
      note = StrCat(" (after splitting its input ", level, " times: a partition is too large)");
    }
    return Status::ResourceExhausted("Out of Memory Error: WINDOW needs more than the "
                                     "memory_limit of ", FormatMemorySize(memory_limit_), note);
  }

  // Whether every function has the same PARTITION BY, and one: the rows can then be split by
  // those keys and each part computed on its own.
  bool Partitioned() const {
    if (functions_.empty() || functions_[0].partitions.empty()) return false;
    for (const WindowFunction& function : functions_) {
      if (function.partitions.size() != functions_[0].partitions.size()) return false;
      for (size_t k = 0; k < function.partitions.size(); ++k) {
        if (function.partitions[k]->ToString() != functions_[0].partitions[k]->ToString()) {
          return false;
        }
      }
    }
    return true;
  }

  // Spilling: past memory_limit, a window whose functions share their PARTITION BY writes its
  // rows to partition files by the hash of those keys (every row of a window partition lands
  // in one file, in input order) and computes each file on its own; a file still too large is
  // split again at the next level. The output then comes partition file by partition file
  // rather than in input order.
  struct PendingPart {
    std::shared_ptr<SpillPartitions> parts;
    int index = 0;
    int level = 0;
  };

  Status Route(const Batch& batch, SpillPartitions* parts, int level) const {
    TARN_ASSIGN_OR_RETURN(auto keys, EvaluateAll(functions_[0].partitions, batch));
    std::vector<uint16_t> partition_of(static_cast<size_t>(batch.num_rows));
    std::string key;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      key.clear();
      for (const auto& column : keys) GroupTable::AppendKeyBytes(*column, row, &key);
      partition_of[static_cast<size_t>(row)] =
          static_cast<uint16_t>(PartitionOfHash(HashBytes(key), level, parts->count()));
    }
    return parts->Append(batch, partition_of);
  }

  // Moves `held` and the rest of `input` to new partition files of `level`, queued.
  Status SpillRows(std::vector<std::shared_ptr<Batch>> held, BatchReader* input, int level) {
    if (!folder_) folder_ = std::make_shared<SpillFolder>(temp_directory_);
    auto parts = std::make_shared<SpillPartitions>(folder_.get(), "window-" + std::to_string(level),
                                                   input_->schema(), kSpillPartitions);
    for (const auto& batch : held) TARN_RETURN_NOT_OK(Route(*batch, parts.get(), level));
    held.clear();
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input->Next());
      if (!batch) break;
      if (batch->num_rows > 0) TARN_RETURN_NOT_OK(Route(*batch, parts.get(), level));
    }
    TARN_RETURN_NOT_OK(parts->Finish());
    for (int p = parts->count() - 1; p >= 0; --p) {
      if (parts->rows(p) > 0) pending_.push_back(PendingPart{parts, p, level});
    }
    return Status::OK();
  }

  // Reads `input` whole unless it passes the limit: then, when it can, spills it (at `level`).
  // Sets *spilled when it did.
  Result<std::shared_ptr<Batch>> ReadAll(BatchReader* input, int level, bool* spilled) {
    std::vector<std::shared_ptr<Batch>> batches;
    int64_t bytes = 0;
    int64_t rows = 0;
    *spilled = false;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input->Next());
      if (!batch) break;
      if (batch->num_rows == 0) continue;
      bytes += BatchBytes(*batch);
      rows += batch->num_rows;
      batches.push_back(std::move(batch));
      // The sort order, partitions, peers and frames: about 12 words per row.
      if (bytes + rows * 96 > memory_limit_) {
        if (temp_directory_.empty() || !Partitioned() || level >= kMaxSpillLevels) {
          return OutOfMemory(level);
        }
        *spilled = true;
        TARN_RETURN_NOT_OK(SpillRows(std::move(batches), input, level));
        return std::shared_ptr<Batch>();
      }
    }
    if (batches.empty()) return std::shared_ptr<Batch>();
    return batches.size() == 1 ? batches[0] : ConcatenateBatches(batches);
  }

  Status ComputeNextPartition() {
    PendingPart part = std::move(pending_.back());
    pending_.pop_back();
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, part.parts->Open(part.index));
    bool spilled = false;
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> all,
                          ReadAll(reader.get(), part.level + 1, &spilled));
    emitted_ = 0;
    if (!all) {
      output_ = MakeEmptyColumnsBatch(schema_, 0);
      return Status::OK();
    }
    return ComputeOn(std::move(all));
  }

  Status Compute() {
    bool spilled = false;
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> all, ReadAll(input_.get(), 0, &spilled));
    if (!all) {
      output_ = MakeEmptyColumnsBatch(schema_, 0);
      return Status::OK();
    }
    return ComputeOn(std::move(all));
  }

  Status ComputeOn(std::shared_ptr<Batch> all) {
    int64_t bytes = BatchBytes(*all);
    std::vector<std::shared_ptr<Column>> columns = all->columns;
    for (size_t f = 0; f < functions_.size(); ++f) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Column> result, Evaluate(functions_[f], types_[f], *all));
      bytes += BatchBytes(Batch{nullptr, {result}, result->length});
      if (bytes > memory_limit_) return OutOfMemory();
      columns.push_back(std::move(result));
    }
    output_ = MakeBatch(schema_, std::move(columns));
    output_->num_rows = all->num_rows;
    return Status::OK();
  }

  static Result<std::vector<std::shared_ptr<Column>>> EvaluateAll(
      const std::vector<std::unique_ptr<BoundExpr>>& exprs, const Batch& batch) {
    std::vector<std::shared_ptr<Column>> columns;
    for (const auto& e : exprs) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Column> column, e->Evaluate(batch));
      columns.push_back(std::move(column));
    }
    return columns;
  }

  Result<std::shared_ptr<Column>> Evaluate(const WindowFunction& function, const DataType& type,
                                           const Batch& all) {
    const std::optional<Kind> kind = KindOf(function.function);
    if (!kind) return Status::Internal("unknown window function ", function.function);
    TARN_ASSIGN_OR_RETURN(auto partitions, EvaluateAll(function.partitions, all));
    TARN_ASSIGN_OR_RETURN(auto orders, EvaluateAll(function.orders, all));
    TARN_ASSIGN_OR_RETURN(auto arguments, EvaluateAll(function.arguments, all));
    WindowLayout layout(all.num_rows, partitions, orders, function.order_keys);
    const int64_t n = all.num_rows;
    auto numbers = [&](auto compute) {
      std::vector<int64_t> values(static_cast<size_t>(n));
      for (int64_t p = 0; p < n; ++p) values[static_cast<size_t>(layout.row(p))] = compute(p);
      return NumberColumn<int64_t>(type, values, nullptr);
    };
    auto ratios = [&](auto compute) {
      std::vector<double> values(static_cast<size_t>(n));
      for (int64_t p = 0; p < n; ++p) values[static_cast<size_t>(layout.row(p))] = compute(p);
      return NumberColumn<double>(type, values, nullptr);
    };
    switch (*kind) {
      case Kind::kRowNumber:
        return numbers([&](int64_t p) { return p - layout.partition_begin(p) + 1; });
      case Kind::kRank:
        return numbers([&](int64_t p) { return layout.peer_begin(p) - layout.partition_begin(p) + 1; });
      case Kind::kDenseRank:
        return numbers([&](int64_t p) { return layout.group_in_partition(p) + 1; });
      case Kind::kPercentRank:
        return ratios([&](int64_t p) {
          const int64_t size = layout.partition_end(p) - layout.partition_begin(p);
          if (size <= 1) return 0.0;
          return static_cast<double>(layout.peer_begin(p) - layout.partition_begin(p)) /
                 static_cast<double>(size - 1);
        });
      case Kind::kCumeDist:
        return ratios([&](int64_t p) {
          const int64_t size = layout.partition_end(p) - layout.partition_begin(p);
          return static_cast<double>(layout.peer_end(p) - layout.partition_begin(p)) /
                 static_cast<double>(size);
        });
      case Kind::kNtile: return Ntile(layout, *arguments[0], type);
      case Kind::kLag:
      case Kind::kLead: return Shift(layout, arguments, *kind == Kind::kLag);
      default:
        break;
    }
    // The rest read their frame.
    Frames frames;
    {
      std::shared_ptr<Column> start, end, key;
      if (function.frame.start_offset) {
        TARN_ASSIGN_OR_RETURN(start, function.frame.start_offset->Evaluate(all));
      }
      if (function.frame.end_offset) {
        TARN_ASSIGN_OR_RETURN(end, function.frame.end_offset->Evaluate(all));
      }
      if (function.frame.range_key) {
        TARN_ASSIGN_OR_RETURN(key, function.frame.range_key->Evaluate(all));
      }
      const bool descending = !function.order_keys.empty() && function.order_keys[0].descending;
      FrameBuilder builder(layout, function.frame, start.get(), end.get(), key.get(), descending);
      TARN_RETURN_NOT_OK(builder.Build(&frames));
    }
    FrameAggregator aggregator(layout, frames, type);
    switch (*kind) {
      case Kind::kFirstValue:
      case Kind::kLastValue:
      case Kind::kNthValue: {
        std::vector<int64_t> picks(static_cast<size_t>(n), -1);
        for (int64_t p = 0; p < n; ++p) {
          const int64_t begin = frames.begin[static_cast<size_t>(p)];
          const int64_t end = frames.end[static_cast<size_t>(p)];
          int64_t pick = -1;
          if (*kind == Kind::kFirstValue) {
            pick = begin < end ? begin : -1;
          } else if (*kind == Kind::kLastValue) {
            pick = begin < end ? end - 1 : -1;
          } else {
            const Column& nth = *arguments[1];
            const int64_t row = layout.row(p);
            if (nth.IsValid(row)) {
              const int64_t k = nth.values_as<int64_t>()[row];
              if (k >= 1 && k <= end - begin) pick = begin + k - 1;
            }
          }
          picks[static_cast<size_t>(layout.row(p))] = pick < 0 ? -1 : layout.row(pick);
        }
        return TakeOrNull(*arguments[0], std::move(picks));
      }
      case Kind::kCountStar: return aggregator.CountStar();
      case Kind::kCount: return aggregator.Count(*arguments[0]);
      case Kind::kSum: return aggregator.SumOrAverage(*arguments[0], false);
      case Kind::kAvg: return aggregator.SumOrAverage(*arguments[0], true);
      case Kind::kMin: return aggregator.MinOrMax(arguments[0], false);
      case Kind::kMax: return aggregator.MinOrMax(arguments[0], true);
      default:
        return Status::Internal("unhandled window function ", function.function);
    }
  }

  // ntile(n): the partition's rows split into n buckets as evenly as possible, the larger
  // ones first (DuckDB's formula).
  static Result<std::shared_ptr<Column>> Ntile(const WindowLayout& layout, const Column& buckets,
                                               const DataType& type) {
    const int64_t n = layout.rows();
    std::vector<int64_t> values(static_cast<size_t>(n), 0);
    std::vector<uint8_t> valid(static_cast<size_t>(n), 0);
    for (int64_t p = 0; p < n; ++p) {
      const int64_t row = layout.row(p);
      if (buckets.IsNull(row)) continue;
      int64_t count = buckets.values_as<int64_t>()[row];
      if (count <= 0) {
        return Status::InvalidArgument(
            "Invalid Input Error: Argument for ntile must be greater than zero");
      }
      const int64_t size = layout.partition_end(p) - layout.partition_begin(p);
      if (count > size) count = size;
      const int64_t small = size / count;
      const int64_t large = size - count * small;
      const int64_t large_rows = large * (small + 1);
      const int64_t index = p - layout.partition_begin(p);
      values[static_cast<size_t>(row)] = index < large_rows
                                             ? 1 + index / (small + 1)
                                             : 1 + large + (index - large_rows) / small;
      valid[static_cast<size_t>(row)] = 1;
    }
    return NumberColumn<int64_t>(type, values, &valid);
  }

  // lag / lead (x [, offset [, default]]): x at `offset` rows before / after in the
  // partition, else the default (NULL without one).
  static Result<std::shared_ptr<Column>> Shift(const WindowLayout& layout,
                                               const std::vector<std::shared_ptr<Column>>& args,
                                               bool lag) {
    const int64_t n = layout.rows();
    const Column& x = *args[0];
    const Column* offsets = args.size() > 1 ? args[1].get() : nullptr;
    std::vector<std::shared_ptr<Column>> parts = {args[0]};
    if (args.size() > 2) parts.push_back(args[2]);
    parts.push_back(NullRow(x.type));
    std::shared_ptr<Column> values = Concatenate(parts);
    const int64_t null_index = values->length - 1;
    std::vector<int64_t> picks(static_cast<size_t>(n), null_index);
    for (int64_t p = 0; p < n; ++p) {
      const int64_t row = layout.row(p);
      int64_t pick = null_index;
      if (offsets == nullptr || offsets->IsValid(row)) {
        const int64_t offset = offsets == nullptr ? 1 : offsets->values_as<int64_t>()[row];
        const int64_t target = lag ? p - offset : p + offset;
        if (target >= layout.partition_begin(p) && target < layout.partition_end(p)) {
          pick = layout.row(target);
        } else if (args.size() > 2) {
          pick = n + row;
        }
      }
      picks[static_cast<size_t>(row)] = pick;
    }
    return Take(*values, picks);
  }

  std::unique_ptr<Operator> input_;
  std::vector<WindowFunction> functions_;
  std::vector<DataType> types_;
  int64_t memory_limit_;
  std::string temp_directory_;
  std::shared_ptr<SpillFolder> folder_;
  std::vector<PendingPart> pending_;  // spilled partition files still to compute, last first
  std::shared_ptr<const Schema> schema_;
  std::shared_ptr<Batch> output_;
  int64_t emitted_ = 0;
};

}  // namespace

bool IsWindowFunctionName(const std::string& name) { return KindOf(name).has_value(); }

Result<DataType> WindowResultType(const std::string& function,
                                  const std::vector<DataType>& argument_types) {
  const std::optional<Kind> kind = KindOf(function);
  if (!kind) {
    return Status::InvalidArgument("Catalog Error: ", function, " is not a window function");
  }
  auto arity = [&](size_t min, size_t max) -> Status {
    if (argument_types.size() < min || argument_types.size() > max) {
      return Status::InvalidArgument("Binder Error: ", function, " takes ",
                                     min == max ? std::to_string(min)
                                                : std::to_string(min) + " to " + std::to_string(max),
                                     " argument", max == 1 ? "" : "s", ", not ",
                                     argument_types.size());
    }
    return Status::OK();
  };
  switch (*kind) {
    case Kind::kRowNumber:
    case Kind::kRank:
    case Kind::kDenseRank:
      TARN_RETURN_NOT_OK(arity(0, 0));
      return DataType(TypeId::kInt64);
    case Kind::kPercentRank:
    case Kind::kCumeDist:
      TARN_RETURN_NOT_OK(arity(0, 0));
      return DataType(TypeId::kFloat64);
    case Kind::kNtile:
      TARN_RETURN_NOT_OK(arity(1, 1));
      return DataType(TypeId::kInt64);
    case Kind::kLag:
    case Kind::kLead:
      TARN_RETURN_NOT_OK(arity(1, 3));
      return argument_types[0];
    case Kind::kFirstValue:
    case Kind::kLastValue:
      TARN_RETURN_NOT_OK(arity(1, 1));
      return argument_types[0];
    case Kind::kNthValue:
      TARN_RETURN_NOT_OK(arity(2, 2));
      return argument_types[0];
    case Kind::kCountStar:
      TARN_RETURN_NOT_OK(arity(0, 0));
      return DataType(TypeId::kInt64);
    default: {
      TARN_RETURN_NOT_OK(arity(1, 1));
      TARN_ASSIGN_OR_RETURN(std::unique_ptr<AggregateState> state,
                            MakeAggregateState(function, argument_types[0]));
      return state->result_type();
    }
  }
}

Result<std::unique_ptr<Operator>> MakeWindow(std::unique_ptr<Operator> input,
                                             std::vector<WindowFunction> functions,
                                             const ExecContext& context) {
  std::vector<DataType> types;
  for (const WindowFunction& function : functions) {
    std::vector<DataType> argument_types;
    for (const auto& argument : function.arguments) argument_types.push_back(argument->type());
    TARN_ASSIGN_OR_RETURN(DataType type, WindowResultType(function.function, argument_types));
    types.push_back(std::move(type));
  }
  return std::unique_ptr<Operator>(
      new WindowOperator(std::move(input), std::move(functions), std::move(types), context));
}

}  // namespace tarn::sql
