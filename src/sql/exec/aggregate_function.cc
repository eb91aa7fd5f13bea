#include "sql/exec/aggregate_function.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "expr/eval/cast.h"
#include "expr/eval/kernels.h"
#include "sql/exec/aggregate_library.h"

namespace tarn::sql {
namespace {

using expr::Phys;
using expr::WithTypedValues;

inline bool Included(const uint8_t* keep, int64_t row) { return keep == nullptr || GetBit(keep, row); }

// Calls fn(row) for each row of [begin, end) that `keep` includes (null: every row) and that
// is not NULL.
template <typename Fn>
inline void ForEachValue(const Column& input, int64_t begin, int64_t end, const uint8_t* keep,
                         Fn&& fn) {
  const uint8_t* valid = input.validity ? input.validity->data() : nullptr;
  if (keep == nullptr && valid == nullptr) {
    for (int64_t row = begin; row < end; ++row) fn(row);
    return;
  }
  for (int64_t row = begin; row < end; ++row) {
    if ((keep == nullptr || GetBit(keep, row)) && (valid == nullptr || GetBit(valid, row))) fn(row);
  }
}

bool IsIntegerPhys(Phys phys) {
  return phys == Phys::kI8 || phys == Phys::kI16 || phys == Phys::kI32 || phys == Phys::kI64 ||
         phys == Phys::kU8 || phys == Phys::kU16 || phys == Phys::kU32 || phys == Phys::kU64 ||
         phys == Phys::kI128;
}

Status NoMatch(std::string_view name, const DataType& type) {
  return Status::InvalidArgument("Binder Error: No function matches the given name and argument types '",
                                 name, "(", type.ToString(), ")'");
}

class CountState : public AggregateState {
 public:
  explicit CountState(bool star) : star_(star) { result_type_ = DataType(TypeId::kInt64); }
  void Resize(int64_t groups) override { counts_.resize(groups, 0); }
  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    if (counts_.size() == 1 && keep == nullptr &&
        (star_ || input->null_count == 0)) {  // one group, every row
      counts_[0] += end - begin;
      return Status::OK();
    }
    int64_t* counts = counts_.data();
    if (star_) {
      for (int64_t row = begin; row < end; ++row) {
        if (Included(keep, row)) ++counts[ids[row]];
      }
    } else {
      ForEachValue(*input, begin, end, keep, [&](int64_t row) { ++counts[ids[row]]; });
    }
    return Status::OK();
  }
  bool AddValueCount(int64_t rows) override {
    counts_[0] += rows;
    return true;
  }
  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<CountState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) counts_[mapping[g]] += from.counts_[g];
  }
  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) builder.AppendNumber<int64_t>(counts_[g]);
    return builder.Finish();
  }
  int64_t MemoryBytes(int64_t groups) const override { return groups * 8; }

 private:
  bool star_;
  std::vector<int64_t> counts_;
};

// sum and avg: per group a sum in Acc and a count. Acc is __int128 over integers and decimals
// (an exact sum) or double over floats (added in row order, as DuckDB adds them).
template <typename Acc>
class SumState : public AggregateState {
 public:
  static constexpr bool kFloating = std::is_floating_point_v<Acc>;

  SumState(const DataType& input, bool average) : phys_(expr::PhysOf(input)), average_(average) {
    if constexpr (kFloating) {
      result_type_ = DataType(TypeId::kFloat64);
    } else if (average) {
      result_type_ = DataType(TypeId::kFloat64);
      // DuckDB averages narrow integers (and decimals stored in 32 bits) in double, wider ones
      // in long double; decimals divide by 10^scale as well.
      int width = input.id == TypeId::kDecimal ? (input.precision <= 9 ? 4 : 8)
                  : (phys_ == Phys::kI8 || phys_ == Phys::kI16 || phys_ == Phys::kI32 ||
                     phys_ == Phys::kU8 || phys_ == Phys::kU16) ? 4 : 8;
      narrow_ = width == 4;
      scale_ = input.id == TypeId::kDecimal ? std::pow(10.0, input.scale) : 1.0;
    } else {
      result_type_ = input.id == TypeId::kDecimal ? DataType::Decimal(38, input.scale)
                                                  : DataType(TypeId::kInt128);
    }
  }
  void Resize(int64_t groups) override {
    sums_.resize(groups, Acc{0});
    counts_.resize(groups, 0);
  }
  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    if (sums_.size() == 1) {  // one group (no GROUP BY): the same additions, in a register
      Acc sum = sums_[0];
      int64_t count = counts_[0];
      WithTypedValues(*input, phys_, [&](const auto* values) {
        ForEachValue(*input, begin, end, keep, [&](int64_t row) {
          sum += static_cast<Acc>(values[row]);
          ++count;
        });
      });
      sums_[0] = sum;
      counts_[0] = count;
      return Status::OK();
    }
    if constexpr (!kFloating) {
      if (sums_.size() <= kLaneGroups) return UpdateLanes(input, ids, begin, end, keep);
    }
    Acc* sums = sums_.data();
    int64_t* counts = counts_.data();
    WithTypedValues(*input, phys_, [&](const auto* values) {
      ForEachValue(*input, begin, end, keep, [&](int64_t row) {
        sums[ids[row]] += static_cast<Acc>(values[row]);
        ++counts[ids[row]];
      });
    });
    return Status::OK();
  }
  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<SumState&>(other);
    from.FoldLanes();
    for (int64_t g = 0; g < other_groups; ++g) {
      sums_[mapping[g]] += from.sums_[g];
      counts_[mapping[g]] += from.counts_[g];
    }
  }
  // Adding partial float sums can round differently from adding the rows one by one.
  bool order_sensitive() const override { return kFloating; }
  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    FoldLanes();
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      if (counts_[g] == 0) {
        builder.AppendNull();
      } else if constexpr (kFloating) {
        builder.AppendNumber<double>(average_ ? sums_[g] / static_cast<double>(counts_[g])
                                              : sums_[g]);
      } else if (!average_) {
        builder.AppendNumber<__int128>(sums_[g]);
      } else if (narrow_) {
        double divident = static_cast<double>(counts_[g]) * scale_;
        builder.AppendNumber<double>(static_cast<double>(sums_[g]) / divident);
      } else {
        long double divident = static_cast<long double>(counts_[g]) * scale_;
        builder.AppendNumber<double>(
            static_cast<double>(static_cast<long double>(sums_[g]) / divident));
      }
    }
    return builder.Finish();
  }
  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(Acc) + sizeof(int64_t)) +
           static_cast<int64_t>(lanes_.size() * sizeof(Lane));
  }

 private:
  // Integer sums over few groups: rows long in one group would make each addition wait for
  // the previous one to the same memory; kLanes partial sums per group, row r adding to lane
  // r % kLanes, keep kLanes additions in flight. Exact integer sums do not depend on order.
  static constexpr int64_t kLanes = 4;
  static constexpr size_t kLaneGroups = 64;
  struct Lane {
    Acc sum;
    int64_t count;
  };

  Status UpdateLanes(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) {
    if (lanes_.size() < sums_.size() * kLanes) lanes_.resize(sums_.size() * kLanes, Lane{0, 0});
    Lane* lanes = lanes_.data();
    WithTypedValues(*input, phys_, [&](const auto* values) {
      ForEachValue(*input, begin, end, keep, [&](int64_t row) {
        Lane& lane = lanes[ids[row] * kLanes + (row & (kLanes - 1))];
        lane.sum += static_cast<Acc>(values[row]);
        ++lane.count;
      });
    });
    return Status::OK();
  }

  // Adds the lanes into sums_ and counts_ and empties them.
  void FoldLanes() {
    for (size_t i = 0; i < lanes_.size(); ++i) {
      sums_[i / kLanes] += lanes_[i].sum;
      counts_[i / kLanes] += lanes_[i].count;
    }
    lanes_.clear();
  }

  Phys phys_;
  bool average_;
  bool narrow_ = false;  // integer avg: divide in double (else long double)
  double scale_ = 1.0;   // integer avg: 10^scale of a decimal
  std::vector<Acc> sums_;
  std::vector<int64_t> counts_;
  std::vector<Lane> lanes_;  // kLanes per group while used; folded by Combine and Finish
};

using IntegerSumState = SumState<__int128>;
using FloatSumState = SumState<double>;

// min / max over a fixed-width numeric type stored as T.
template <typename T>
class NumericMinMaxState : public AggregateState {
 public:
  NumericMinMaxState(const DataType& input, bool is_max) : phys_(expr::PhysOf(input)), is_max_(is_max) {
    result_type_ = input;
  }
  void Resize(int64_t groups) override {
    values_.resize(groups, T());
    seen_.resize(groups, 0);
  }
  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    const uint8_t* bytes = input->values->data();
    if (values_.size() == 1 && keep == nullptr && input->validity == nullptr && end > begin) {
      return UpdateOneGroupDense(input->values_as<T>() + begin, end - begin);
    }
    if (values_.size() == 1) {  // one group: keep the best in a register
      T best = values_[0];
      bool any = seen_[0] != 0;
      ForEachValue(*input, begin, end, keep, [&](int64_t row) {
        T v;
        std::memcpy(&v, bytes + row * sizeof(T), sizeof(T));
        if (!any || (is_max_ ? Less(best, v) : Less(v, best))) {
          best = v;
          any = true;
        }
      });
      values_[0] = best;
      seen_[0] = any ? 1 : 0;
      return Status::OK();
    }
    T* values = values_.data();
    uint8_t* seen = seen_.data();
    auto update = [&](int64_t row, auto better) {
      uint32_t g = ids[row];
      T v;
      std::memcpy(&v, bytes + row * sizeof(T), sizeof(T));
      if (!seen[g] || better(v, values[g])) {
        values[g] = v;
        seen[g] = 1;
      }
    };
    if (is_max_) {
      ForEachValue(*input, begin, end, keep, [&](int64_t row) {
        update(row, [](T v, T current) { return Less(current, v); });
      });
    } else {
      ForEachValue(*input, begin, end, keep, [&](int64_t row) {
        update(row, [](T v, T current) { return Less(v, current); });
      });
    }
    return Status::OK();
  }
  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<NumericMinMaxState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      if (!from.seen_[g]) continue;
      uint32_t to = mapping[g];
      T v = from.values_[g];
      if (!seen_[to] || (is_max_ ? Less(values_[to], v) : Less(v, values_[to]))) {
        values_[to] = v;
        seen_[to] = 1;
      }
    }
  }
  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      if (seen_[g]) {
        builder.AppendNumber<T>(values_[g]);
      } else {
        builder.AppendNull();
      }
    }
    return builder.Finish();
  }
  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(T) + 1);
  }

 private:
  // One group, every row a value: a branch-free pass. Integers keep four running bests (ties
  // are equal values, so which one wins does not matter); floats keep one, so a tie keeps the
  // first value (0.0 and -0.0 compare equal).
  Status UpdateOneGroupDense(const T* values, int64_t rows) {
    T best = seen_[0] ? values_[0] : values[0];
    if constexpr (std::is_floating_point_v<T>) {
      if (is_max_) {
        for (int64_t row = 0; row < rows; ++row) best = Less(best, values[row]) ? values[row] : best;
      } else {
        for (int64_t row = 0; row < rows; ++row) best = Less(values[row], best) ? values[row] : best;
      }
    } else {
      T lanes[4] = {best, best, best, best};
      int64_t row = 0;
      if (is_max_) {
        for (; row + 4 <= rows; row += 4) {
          for (int lane = 0; lane < 4; ++lane) lanes[lane] = std::max(lanes[lane], values[row + lane]);
        }
        for (; row < rows; ++row) lanes[0] = std::max(lanes[0], values[row]);
        best = std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
      } else {
        for (; row + 4 <= rows; row += 4) {
          for (int lane = 0; lane < 4; ++lane) lanes[lane] = std::min(lanes[lane], values[row + lane]);
        }
        for (; row < rows; ++row) lanes[0] = std::min(lanes[0], values[row]);
        best = std::min(std::min(lanes[0], lanes[1]), std::min(lanes[2], lanes[3]));
      }
    }
    values_[0] = best;
    seen_[0] = 1;
    return Status::OK();
  }
  static bool Less(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return expr::FloatLess(static_cast<double>(a), static_cast<double>(b));
    } else {
      return a < b;
    }
  }
  Phys phys_;
  bool is_max_;
  std::vector<T> values_;
  std::vector<uint8_t> seen_;
};

// min / max over any other type, through Values (strings compare byte-wise).
class ValueMinMaxState : public AggregateState {
 public:
  ValueMinMaxState(const DataType& input, bool is_max) : is_max_(is_max) { result_type_ = input; }
  void Resize(int64_t groups) override { values_.resize(groups); }
  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    bool bytes = input->type.IsVarLength();
    if (bytes && values_.size() == 1) return UpdateOneStringGroup(*input, begin, end, keep);
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      Value& current = values_[ids[row]];
      if (bytes && !current.is_null()) {
        std::string_view view = input->GetView(row);
        int c = view.compare(current.GetBytes());
        if (is_max_ ? c > 0 : c < 0) current = Value::Bytes(input->type, std::string(view));
        continue;
      }
      Value v = input->GetValue(row);
      if (current.is_null()) {
        bytes_ += v.type().IsVarLength() ? static_cast<int64_t>(v.GetBytes().size()) : 0;
        current = std::move(v);
        continue;
      }
      int c = expr::CompareValues(v, current);
      if (is_max_ ? c > 0 : c < 0) current = std::move(v);
    }
    return Status::OK();
  }
  // One group of strings: the batch's best as a view, copied once at the end.
  Status UpdateOneStringGroup(const Column& input, int64_t begin, int64_t end,
                              const uint8_t* keep) {
    Value& current = values_[0];
    bool have = !current.is_null();
    std::string_view best = have ? std::string_view(current.GetBytes()) : std::string_view();
    const int64_t* offsets = input.values_as<int64_t>();
    const char* data = reinterpret_cast<const char*>(input.data->data());
    const int64_t readable = input.data->capacity();
    uint64_t best_prefix = have ? Prefix(best.data(), best.size(), false) : 0;
    bool changed = false;
    if (keep == nullptr && input.validity == nullptr && begin < end && !have) {
      best = input.GetView(begin);  // the first value is the best so far
      best_prefix = Prefix(best.data(), best.size(), false);
      have = changed = true;
      ++begin;
    }
    if (keep == nullptr && input.validity == nullptr && have && begin < end &&
        offsets[end] + 8 <= readable) {
      // Every row a value, and eight bytes readable from each: the tight loop.
      int64_t winner = is_max_ ? DenseBest<true>(offsets, data, begin, end, best, best_prefix)
                               : DenseBest<false>(offsets, data, begin, end, best, best_prefix);
      if (winner >= 0) {
        best = input.GetView(winner);
        changed = true;
      }
      begin = end;
    }
    ForEachValue(input, begin, end, keep, [&](int64_t row) {
      const int64_t start = offsets[row];
      const size_t size = static_cast<size_t>(offsets[row + 1] - start);
      const uint64_t prefix = Prefix(data + start, size, start + 8 <= readable);
      if (!have) {
        best = std::string_view(data + start, size);
        best_prefix = prefix;
        have = changed = true;
        return;
      }
      // Most comparisons are decided by the first eight bytes.
      int c;
      if (prefix != best_prefix) {
        c = prefix < best_prefix ? -1 : 1;
      } else if (size <= 8 && best.size() <= 8) {
        c = size < best.size() ? -1 : (size > best.size() ? 1 : 0);  // equal up to the shorter
      } else {
        c = std::string_view(data + start, size).compare(best);
      }
      if (is_max_ ? c > 0 : c < 0) {
        best = std::string_view(data + start, size);
        best_prefix = prefix;
        changed = true;
      }
    });
    if (changed) {
      if (current.is_null()) bytes_ += static_cast<int64_t>(best.size());
      current = Value::Bytes(input.type, std::string(best));
    }
    return Status::OK();
  }

  // The row of [begin, end) that beats `best` (whose prefix is best_prefix) and every row before
  // it, the first such on ties; -1 if none does. REQUIRES: eight bytes readable from every
  // row's start.
  template <bool kMax>
  static int64_t DenseBest(const int64_t* offsets, const char* data, int64_t begin, int64_t end,
                           std::string_view best, uint64_t best_prefix) {
    int64_t winner = -1;
    for (int64_t row = begin; row < end; ++row) {
      const int64_t start = offsets[row];
      const size_t size = static_cast<size_t>(offsets[row + 1] - start);
      const uint64_t prefix = Prefix(data + start, size, true);
      // Most rows lose on their prefix alone.
      if (kMax ? prefix < best_prefix : prefix > best_prefix) continue;
      if (prefix == best_prefix) {
        const std::string_view view(data + start, size);
        const int c = (size <= 8 && best.size() <= 8)
                          ? (size < best.size() ? -1 : (size > best.size() ? 1 : 0))
                          : view.compare(best);
        if (kMax ? c <= 0 : c >= 0) continue;
      }
      best = std::string_view(data + start, size);
      best_prefix = prefix;
      winner = row;
    }
    return winner;
  }

  // The first eight bytes of a string, zero-padded, as a number that orders as the bytes do:
  // two strings whose prefixes differ compare as their prefixes. `can_overread`: eight bytes
  // from `bytes` may be read whatever `size` is.
  static uint64_t Prefix(const char* bytes, size_t size, bool can_overread) {
    uint64_t word = 0;
    if (can_overread) {
      std::memcpy(&word, bytes, 8);
      if (size < 8) word &= (uint64_t{1} << (8 * size)) - 1;
    } else if (size > 0) {
      std::memcpy(&word, bytes, std::min<size_t>(size, 8));
    }
    return __builtin_bswap64(word);
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<ValueMinMaxState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      Value& v = from.values_[g];
      if (v.is_null()) continue;
      Value& current = values_[mapping[g]];
      if (current.is_null()) {
        bytes_ += v.type().IsVarLength() ? static_cast<int64_t>(v.GetBytes().size()) : 0;
        current = std::move(v);
        continue;
      }
      int c = expr::CompareValues(v, current);
      if (is_max_ ? c > 0 : c < 0) current = std::move(v);
    }
  }
  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      if (values_[g].is_null()) {
        builder.AppendNull();
      } else {
        TARN_RETURN_NOT_OK(builder.Append(values_[g]));
      }
    }
    return builder.Finish();
  }
  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(Value)) + bytes_;
  }

 private:
  bool is_max_;
  int64_t bytes_ = 0;
  std::vector<Value> values_;
};

Result<std::unique_ptr<AggregateState>> MakeMinMax(std::string_view name, const DataType& type) {
  bool is_max = name == "max";
  if (type.IsNested() || type.id == TypeId::kNull) return NoMatch(name, type);
  switch (expr::PhysOf(type)) {
    case Phys::kI8: return std::unique_ptr<AggregateState>(new NumericMinMaxState<int8_t>(type, is_max));
    case Phys::kI16: return std::unique_ptr<AggregateState>(new NumericMinMaxState<int16_t>(type, is_max));
    case Phys::kI32: return std::unique_ptr<AggregateState>(new NumericMinMaxState<int32_t>(type, is_max));
    case Phys::kI64: return std::unique_ptr<AggregateState>(new NumericMinMaxState<int64_t>(type, is_max));
    case Phys::kU8: return std::unique_ptr<AggregateState>(new NumericMinMaxState<uint8_t>(type, is_max));
    case Phys::kU16: return std::unique_ptr<AggregateState>(new NumericMinMaxState<uint16_t>(type, is_max));
    case Phys::kU32: return std::unique_ptr<AggregateState>(new NumericMinMaxState<uint32_t>(type, is_max));
    case Phys::kU64: return std::unique_ptr<AggregateState>(new NumericMinMaxState<uint64_t>(type, is_max));
    case Phys::kI128: return std::unique_ptr<AggregateState>(new NumericMinMaxState<__int128>(type, is_max));
    case Phys::kF32: return std::unique_ptr<AggregateState>(new NumericMinMaxState<float>(type, is_max));
    case Phys::kF64: return std::unique_ptr<AggregateState>(new NumericMinMaxState<double>(type, is_max));
    default: return std::unique_ptr<AggregateState>(new ValueMinMaxState(type, is_max));
  }
}

}  // namespace

bool IsAggregateName(std::string_view name) {
  return name == "count" || name == "count_star" || name == "sum" || name == "avg" ||
         name == "mean" || name == "min" || name == "max" || IsLibraryAggregateName(name);
}

Result<std::unique_ptr<AggregateState>> MakeAggregateState(
    std::string_view name, const DataType& input_type, const std::vector<Value>& parameters) {
  if (IsLibraryAggregateName(name)) {
    return MakeLibraryAggregateState(name, input_type, parameters);
  }
  if (IsOrderedAggregateName(name)) return MakeOrderedAggregateState(name, input_type, parameters);
  if (name == "count_star") return std::unique_ptr<AggregateState>(new CountState(true));
  if (name == "count") return std::unique_ptr<AggregateState>(new CountState(false));
  if (name == "min" || name == "max") return MakeMinMax(name, input_type);
  if (name == "sum" || name == "avg" || name == "mean") {
    bool average = name != "sum";
    Phys phys = expr::PhysOf(input_type);
    if (input_type.id == TypeId::kDecimal || (input_type.IsInteger() && IsIntegerPhys(phys))) {
      return std::unique_ptr<AggregateState>(new IntegerSumState(input_type, average));
    }
    if (input_type.IsFloating()) {
      return std::unique_ptr<AggregateState>(new FloatSumState(input_type, average));
    }
    return NoMatch(name, input_type);
  }
  return Status::NotFound("Catalog Error: aggregate function \"", name, "\" does not exist");
}

}  // namespace tarn::sql
