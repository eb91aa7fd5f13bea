#include "sql/exec/aggregate_library.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "expr/eval/cast.h"
#include "expr/functions/hash_functions.h"
#include "expr/functions/json_functions.h"
#include "format/json_text.h"

namespace tarn::sql {
namespace {

bool Included(const uint8_t* keep, int64_t row) { return keep == nullptr || GetBit(keep, row); }

Status NoMatch(std::string_view name, const DataType& type, std::string_view candidates) {
  return Status::InvalidArgument(
      "Binder Error: No function matches the given name and argument types '", name, "(",
      type.ToString(), ")'. You might need to add explicit type casts.\n\tCandidate functions:\n\t",
      candidates);
}

// The memory a value holds beyond its slot (strings and nested values).
int64_t HeldBytes(const Value& value) {
  if (const auto* bytes = std::get_if<std::string>(&value.storage())) {
    return static_cast<int64_t>(bytes->size());
  }
  if (const auto* children = std::get_if<std::vector<Value>>(&value.storage())) {
    int64_t total = 0;
    for (const Value& child : *children) total += static_cast<int64_t>(sizeof(Value)) + HeldBytes(child);
    return total;
  }
  return 0;
}

// ---- collecting states: list, string_agg, quantiles, mode ----------------------------------

enum class Collect { kList, kStringAgg, kQuantileCont, kQuantileDisc, kMode, kHistogram, kEntropy,
                     kMad, kApproxQuantile, kJsonArray, kJsonObject };

// approx_quantile's result type: the input's, but a DECIMAL's integer of its storage width
// (DuckDB's t-digest answers in the physical type).
DataType ApproxQuantileType(const DataType& input) {
  // Timestamps of other precisions are taken in microseconds (DuckDB's t-digest sees them as
  // TIMESTAMP).
  if (input.id == TypeId::kTimestampS || input.id == TypeId::kTimestampMs ||
      input.id == TypeId::kTimestampNs) {
    return DataType(TypeId::kTimestamp);
  }
  if (input.id != TypeId::kDecimal) return input;
  if (input.precision <= 4) return DataType(TypeId::kInt16);
  if (input.precision <= 9) return DataType(TypeId::kInt32);
  if (input.precision <= 18) return DataType(TypeId::kInt64);
  return DataType(TypeId::kInt128);
}

class CollectState : public AggregateState {
 public:
  CollectState(Collect kind, const DataType& input, std::string separator, double fraction)
      : kind_(kind), separator_(std::move(separator)), fraction_(fraction) {
    switch (kind) {
      case Collect::kList: result_type_ = DataType::List(input); break;
      case Collect::kStringAgg: result_type_ = DataType(TypeId::kVarchar); break;
      case Collect::kQuantileCont: result_type_ = DataType(TypeId::kFloat64); break;
      case Collect::kQuantileDisc:
      case Collect::kMode: result_type_ = input; break;
      case Collect::kHistogram: result_type_ = DataType::Map(input, DataType(TypeId::kUInt64)); break;
      case Collect::kEntropy: result_type_ = DataType(TypeId::kFloat64); break;
      case Collect::kApproxQuantile:
        result_type_ = ApproxQuantileType(input);
        decimal_input_ = input.id == TypeId::kDecimal;
        input_id_ = input.id;
        break;
      case Collect::kMad:
        result_type_ = input.id == TypeId::kDecimal ? input : DataType(TypeId::kFloat64);
        break;
      case Collect::kJsonArray: case Collect::kJsonObject:
        result_type_ = DataType(TypeId::kJson);
        input_type_ = input;
        break;
    }
  }

  void Resize(int64_t groups) override { values_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    const bool keep_nulls = kind_ == Collect::kList || kind_ == Collect::kJsonArray;
    if (kind_ == Collect::kEntropy && input->type.id == TypeId::kNull) return Status::OK();
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row)) continue;
      if (input->IsNull(row) && !keep_nulls) continue;
      Value value = input->GetValue(row);
      bytes_ += static_cast<int64_t>(sizeof(Value)) + HeldBytes(value);
      values_[ids[row]].push_back(std::move(value));
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<CollectState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      std::vector<Value>& target = values_[mapping[g]];
      for (Value& value : from.values_[static_cast<size_t>(g)]) target.push_back(std::move(value));
      from.values_[static_cast<size_t>(g)].clear();
    }
    bytes_ += from.bytes_;
    from.bytes_ = 0;
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      std::vector<Value>& values = values_[static_cast<size_t>(g)];
      if (values.empty()) {
        if (kind_ == Collect::kEntropy) {
          builder.AppendNumber<double>(0.0);  // entropy of no value: 0, as DuckDB gives
        } else {
          builder.AppendNull();
        }
        continue;
      }
      TARN_ASSIGN_OR_RETURN(Value result, FinishGroup(values));
      TARN_RETURN_NOT_OK(builder.Append(result));
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(std::vector<Value>)) + bytes_;
  }

 private:
  Result<Value> FinishGroup(std::vector<Value>& values) const {
    switch (kind_) {
      case Collect::kList:
        return Value::Nested(result_type_, values);
      case Collect::kJsonArray: {  // to_json(list(x)), as DuckDB's macro
        const Value list[] = {Value::Nested(DataType::List(input_type_), values)};
        return expr::InvokeJsonFunction(expr::FunctionId::kToJson, list, result_type_);
      }
      case Collect::kJsonObject: {
        std::string out = "{";
        for (size_t i = 0; i < values.size(); ++i) {
          const Value& key = values[i].children()[0];
          if (key.is_null()) {
            return Status::InvalidArgument(
                "Invalid Input Error: json_group_object key cannot be NULL");
          }
          if (i > 0) out.push_back(',');
          format::AppendJsonString(expr::ValueToText(key), &out);
          out.push_back(':');
          const Value value[] = {values[i].children()[1]};
          if (value[0].is_null()) {
            out.append("null");
          } else {
            TARN_ASSIGN_OR_RETURN(Value json, expr::InvokeJsonFunction(expr::FunctionId::kToJson,
                                                                       value, result_type_));
            out.append(json.GetBytes());
          }
        }
        out.push_back('}');
        return Value::Bytes(result_type_, std::move(out));
      }
      case Collect::kStringAgg: {
        std::string out;
        for (size_t i = 0; i < values.size(); ++i) {
          if (i > 0) out += separator_;
          out += values[i].GetBytes();
        }
        return Value::Varchar(std::move(out));
      }
      case Collect::kQuantileCont: {
        std::vector<double> numbers;
        numbers.reserve(values.size());
        for (const Value& value : values) numbers.push_back(expr::AsDouble(value));
        std::sort(numbers.begin(), numbers.end(), expr::FloatLess);
        const double position = static_cast<double>(numbers.size() - 1) * fraction_;
        const auto lower = static_cast<size_t>(std::floor(position));
        const auto upper = static_cast<size_t>(std::ceil(position));
        if (lower == upper) return Value::Float64(numbers[lower]);
        const double low = numbers[lower];
        return Value::Float64(low + (position - static_cast<double>(lower)) *
                                        (numbers[upper] - low));
      }
      case Collect::kApproxQuantile: {
        // DuckDB's t-digest while it holds every value as its own centroid (small inputs):
        // the value at position q * n - 1/2, interpolated, then rounded half to even to the
        // result type. DECIMALs are first cast to that integer type (half away from zero).
        std::vector<double> numbers;
        numbers.reserve(values.size());
        for (const Value& value : values) {
          double number = expr::AsDouble(value);
          if (input_id_ == TypeId::kTimestampS) {
            number = static_cast<double>(value.GetInt64()) * 1e6;
          } else if (input_id_ == TypeId::kTimestampMs) {
            number = static_cast<double>(value.GetInt64()) * 1e3;
          } else if (input_id_ == TypeId::kTimestampNs) {
            number = static_cast<double>(value.GetInt64() / 1000);
          }
          numbers.push_back(decimal_input_ ? std::round(number) : number);
        }
        std::sort(numbers.begin(), numbers.end(), expr::FloatLess);
        const double last = static_cast<double>(numbers.size() - 1);
        const double position =
            std::clamp(fraction_ * static_cast<double>(numbers.size()) - 0.5, 0.0, last);
        const auto lower = static_cast<size_t>(std::floor(position));
        const auto upper = static_cast<size_t>(std::ceil(position));
        const double low = numbers[lower];
        const double quantile =
            lower == upper ? low : low + (position - static_cast<double>(lower)) *
                                             (numbers[upper] - low);
        if (result_type_.IsFloating()) return Value::Double(result_type_, quantile);
        return expr::MakeInteger(result_type_,
                                 static_cast<__int128>(std::nearbyint(quantile)));
      }
      case Collect::kQuantileDisc: {
        std::stable_sort(values.begin(), values.end(), [](const Value& a, const Value& b) {
          return expr::CompareValues(a, b) < 0;
        });
        // The value at ceil(q * n) - 1, as DuckDB picks it.
        const double position = std::ceil(fraction_ * static_cast<double>(values.size())) - 1;
        const size_t index = position < 0 ? 0 : std::min(values.size() - 1,
                                                         static_cast<size_t>(position));
        return values[index];
      }
      case Collect::kHistogram:
      case Collect::kEntropy: {
        // Counts per distinct value, in value order.
        std::vector<Value> entries;
        const DataType& entry_type = result_type_.id == TypeId::kMap
                                         ? result_type_.children[0].type
                                         : result_type_;
        const auto total = static_cast<double>(values.size());
        if (kind_ == Collect::kEntropy) return Value::Float64(Entropy(values, total));
        std::stable_sort(values.begin(), values.end(), [](const Value& a, const Value& b) {
          return expr::CompareValues(a, b) < 0;
        });
        for (size_t i = 0; i < values.size();) {
          size_t j = i;
          while (j < values.size() && expr::CompareValues(values[j], values[i]) == 0) ++j;
          const auto count = static_cast<uint64_t>(j - i);
          {
            entries.push_back(Value::Nested(
                entry_type, {values[i], Value::UInt(DataType(TypeId::kUInt64), count)}));
          }
          i = j;
        }
        return Value::Nested(result_type_, std::move(entries));
      }
      case Collect::kMad: {
        // The median of the absolute deviations from the median (both interpolated).
        std::vector<double> numbers;
        numbers.reserve(values.size());
        for (const Value& value : values) numbers.push_back(expr::AsDouble(value));
        auto median = [](std::vector<double>& sorted) {
          std::sort(sorted.begin(), sorted.end(), expr::FloatLess);
          const double position = static_cast<double>(sorted.size() - 1) * 0.5;
          const auto lower = static_cast<size_t>(std::floor(position));
          const auto upper = static_cast<size_t>(std::ceil(position));
          const double low = sorted[lower];
          if (lower == upper) return low;
          return low + (position - static_cast<double>(lower)) * (sorted[upper] - low);
        };
        const double center = median(numbers);
        for (double& x : numbers) x = std::fabs(x - center);
        if (result_type_.id == TypeId::kDecimal) {
          return expr::CastValue(Value::Float64(median(numbers)), result_type_);
        }
        return Value::Float64(median(numbers));
      }
      case Collect::kMode: {
        // Counts by value; among the most frequent, the one seen first.
        std::vector<size_t> order(values.size());
        for (size_t i = 0; i < values.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
          return expr::CompareValues(values[a], values[b]) < 0;
        });
        size_t best_first = 0;
        int64_t best_count = 0;
        for (size_t i = 0; i < order.size();) {
          size_t j = i;
          size_t first = order[i];
          while (j < order.size() && expr::CompareValues(values[order[j]], values[order[i]]) == 0) {
            first = std::min(first, order[j]);
            ++j;
          }
          const auto count = static_cast<int64_t>(j - i);
          if (count > best_count || (count == best_count && first < best_first)) {
            best_count = count;
            best_first = first;
          }
          i = j;
        }
        return values[best_first];
      }
    }
    return Status::Internal("unknown collecting aggregate");
  }

  // -sum p log2 p over the distinct values' shares, added in the order the values were first
  // seen (the order DuckDB adds them in, which decides the last bits).
  static double Entropy(const std::vector<Value>& values, double total) {
    std::vector<size_t> order(values.size());
    for (size_t i = 0; i < values.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return expr::CompareValues(values[a], values[b]) < 0;
    });
    std::vector<std::pair<size_t, double>> counts;  // (first seen, count)
    for (size_t i = 0; i < order.size();) {
      size_t j = i;
      while (j < order.size() && expr::CompareValues(values[order[j]], values[order[i]]) == 0) ++j;
      counts.emplace_back(order[i], static_cast<double>(j - i));
      i = j;
    }
    std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
      return a.first < b.first;
    });
    double entropy = 0;
    for (const auto& [first, count] : counts) entropy += (count / total) * std::log2(total / count);
    return entropy;
  }

  Collect kind_;
  DataType input_type_;  // json_group_array's elements
  std::string separator_;
  double fraction_;
  bool decimal_input_ = false;  // approx_quantile of a DECIMAL
  TypeId input_id_ = TypeId::kNull;  // approx_quantile: the input's type
  std::vector<std::vector<Value>> values_;
  int64_t bytes_ = 0;
};

// ---- first, last, any_value ----------------------------------------------------------------

enum class Pick { kFirst, kLast, kAnyValue };

class PickState : public AggregateState {
 public:
  PickState(Pick kind, const DataType& input) : kind_(kind) { result_type_ = input; }

  void Resize(int64_t groups) override { picked_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row)) continue;
      if (kind_ == Pick::kAnyValue && input->IsNull(row)) continue;
      std::optional<Value>& slot = picked_[ids[row]];
      if (kind_ != Pick::kLast && slot.has_value()) continue;
      slot = input->GetValue(row);
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<PickState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      std::optional<Value>& theirs = from.picked_[static_cast<size_t>(g)];
      std::optional<Value>& ours = picked_[mapping[g]];
      if (theirs.has_value() && (kind_ == Pick::kLast || !ours.has_value())) {
        ours = std::move(theirs);
      }
    }
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const std::optional<Value>& picked = picked_[static_cast<size_t>(g)];
      if (picked.has_value() && !picked->is_null()) {
        TARN_RETURN_NOT_OK(builder.Append(*picked));
      } else {
        builder.AppendNull();
      }
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(std::optional<Value>));
  }

 private:
  Pick kind_;
  std::vector<std::optional<Value>> picked_;
};

// ---- bool_and, bool_or, count_if -----------------------------------------------------------

enum class Logic { kAnd, kOr, kCountIf };

class LogicState : public AggregateState {
 public:
  explicit LogicState(Logic kind) : kind_(kind) {
    result_type_ = DataType(kind == Logic::kCountIf ? TypeId::kInt128 : TypeId::kBoolean);
  }

  void Resize(int64_t groups) override {
    trues_.resize(static_cast<size_t>(groups), 0);
    values_.resize(static_cast<size_t>(groups), 0);
  }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      ++values_[ids[row]];
      if (input->GetValue(row).GetBool()) ++trues_[ids[row]];
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<LogicState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      trues_[mapping[g]] += from.trues_[static_cast<size_t>(g)];
      values_[mapping[g]] += from.values_[static_cast<size_t>(g)];
    }
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const auto i = static_cast<size_t>(g);
      if (kind_ == Logic::kCountIf) {
        TARN_RETURN_NOT_OK(builder.Append(Value::Int128(result_type_, trues_[i])));
      } else if (values_[i] == 0) {
        builder.AppendNull();
      } else {
        const bool result = kind_ == Logic::kAnd ? trues_[i] == values_[i] : trues_[i] > 0;
        TARN_RETURN_NOT_OK(builder.Append(Value::Boolean(result)));
      }
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override { return groups * 16; }

 private:
  Logic kind_;
  std::vector<int64_t> trues_;   // TRUE values per group
  std::vector<int64_t> values_;  // non-NULL values per group
};

// ---- product, variance and standard deviation ----------------------------------------------

enum class Moment { kProduct, kVarSamp, kVarPop, kStddevSamp, kStddevPop };

// Per group a count and, for the product, the product; for the others the mean and the sum
// of squared differences from it, updated as DuckDB updates them (Welford), in row order.
class MomentState : public AggregateState {
 public:
  explicit MomentState(Moment kind) : kind_(kind) { result_type_ = DataType(TypeId::kFloat64); }

  void Resize(int64_t groups) override {
    counts_.resize(static_cast<size_t>(groups), 0);
    means_.resize(static_cast<size_t>(groups), kind_ == Moment::kProduct ? 1.0 : 0.0);
    squares_.resize(static_cast<size_t>(groups), 0.0);
  }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      Add(ids[row], expr::AsDouble(input->GetValue(row)));
    }
    return Status::OK();
  }

  // Rows are replayed in order (order_sensitive), so Combine folds only disjoint groups.
  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<MomentState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      const auto i = static_cast<size_t>(g);
      const uint32_t t = mapping[g];
      if (from.counts_[i] == 0) continue;
      if (kind_ == Moment::kProduct) {
        means_[t] *= from.means_[i];
        counts_[t] += from.counts_[i];
        continue;
      }
      // Chan et al.'s combination of two partial moments.
      const double n1 = static_cast<double>(counts_[t]);
      const double n2 = static_cast<double>(from.counts_[i]);
      const double delta = from.means_[i] - means_[t];
      const double n = n1 + n2;
      means_[t] = (n1 * means_[t] + n2 * from.means_[i]) / n;
      squares_[t] += from.squares_[i] + delta * delta * n1 * n2 / n;
      counts_[t] += from.counts_[i];
    }
  }

  bool order_sensitive() const override { return true; }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const auto i = static_cast<size_t>(g);
      const int64_t n = counts_[i];
      std::optional<double> result;
      switch (kind_) {
        case Moment::kProduct:
          if (n > 0) result = means_[i];
          break;
        case Moment::kVarSamp:
        case Moment::kStddevSamp:
          if (n > 1) result = squares_[i] / static_cast<double>(n - 1);
          break;
        case Moment::kVarPop:
        case Moment::kStddevPop:
          if (n > 0) result = n > 1 ? squares_[i] / static_cast<double>(n) : 0.0;
          break;
      }
      if (result.has_value() && (kind_ == Moment::kStddevSamp || kind_ == Moment::kStddevPop)) {
        result = std::sqrt(*result);
      }
      if (result.has_value() && kind_ != Moment::kProduct && !std::isfinite(*result)) {
        return Status::InvalidArgument("Out of Range Error: ", Name(), " is out of range!");
      }
      if (result.has_value()) {
        builder.AppendNumber<double>(*result);
      } else {
        builder.AppendNull();
      }
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override { return groups * 24; }

 private:
  void Add(uint32_t group, double x) {
    const int64_t n = ++counts_[group];
    if (kind_ == Moment::kProduct) {
      means_[group] *= x;
      return;
    }
    const double mean = means_[group];
    const double new_mean = mean + (x - mean) / static_cast<double>(n);
    squares_[group] += (x - new_mean) * (x - mean);
    means_[group] = new_mean;
  }

  const char* Name() const {
    switch (kind_) {
      case Moment::kVarSamp: return "VARSAMP";
      case Moment::kVarPop: return "VARPOP";
      case Moment::kStddevSamp: return "STDDEV_SAMP";
      case Moment::kStddevPop: return "STDDEV_POP";
      case Moment::kProduct: return "PRODUCT";
    }
    return "";
  }

  Moment kind_;
  std::vector<int64_t> counts_;
  std::vector<double> means_;    // the product for kProduct
  std::vector<double> squares_;
};

// ---- bit_and, bit_or, bit_xor --------------------------------------------------------------

enum class Bits { kAnd, kOr, kXor };

class BitsState : public AggregateState {
 public:
  BitsState(Bits kind, const DataType& input) : kind_(kind) { result_type_ = input; }

  void Resize(int64_t groups) override {
    bits_.resize(static_cast<size_t>(groups), 0);
    seen_.resize(static_cast<size_t>(groups), 0);
  }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      Fold(ids[row], expr::AsInt128(input->GetValue(row)));
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<BitsState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      if (from.seen_[static_cast<size_t>(g)]) Fold(mapping[g], from.bits_[static_cast<size_t>(g)]);
    }
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const auto i = static_cast<size_t>(g);
      if (!seen_[i]) {
        builder.AppendNull();
        continue;
      }
      TARN_RETURN_NOT_OK(builder.Append(expr::MakeInteger(result_type_, bits_[i])));
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override { return groups * 17; }

 private:
  void Fold(uint32_t group, __int128 value) {
    if (!seen_[group]) {
      bits_[group] = value;
      seen_[group] = 1;
      return;
    }
    switch (kind_) {
      case Bits::kAnd: bits_[group] &= value; break;
      case Bits::kOr: bits_[group] |= value; break;
      case Bits::kXor: bits_[group] ^= value; break;
    }
  }

  Bits kind_;
  std::vector<__int128> bits_;
  std::vector<uint8_t> seen_;
};

// ---- arg_min, arg_max ----------------------------------------------------------------------

// The argument is a struct (value, ordering); rows where either is NULL are skipped.
class ArgState : public AggregateState {
 public:
  ArgState(bool max, const DataType& input) : max_(max) {
    result_type_ = input.children[0].type;
  }

  void Resize(int64_t groups) override { best_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      Value pair = input->GetValue(row);
      const std::vector<Value>& fields = pair.children();
      if (fields[0].is_null() || fields[1].is_null()) continue;
      Offer(ids[row], fields[1], fields[0]);
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<ArgState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      auto& theirs = from.best_[static_cast<size_t>(g)];
      if (theirs.has_value()) Offer(mapping[g], theirs->first, theirs->second);
    }
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const auto& best = best_[static_cast<size_t>(g)];
      if (best.has_value()) {
        TARN_RETURN_NOT_OK(builder.Append(best->second));
      } else {
        builder.AppendNull();
      }
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(std::optional<std::pair<Value, Value>>));
  }

 private:
  // A later row replaces the best only when strictly better: the first of equals stays.
  void Offer(uint32_t group, const Value& key, const Value& value) {
    auto& best = best_[group];
    if (best.has_value()) {
      const int order = expr::CompareValues(key, best->first);
      if (max_ ? order <= 0 : order >= 0) return;
    }
    best = std::make_pair(key, value);
  }

  bool max_;
  std::vector<std::optional<std::pair<Value, Value>>> best_;  // (ordering, value)
};

// ---- ordered aggregates: f(x ORDER BY k, ...) ------------------------------------------------

// The argument is a struct (x, k1, k2, ...); a NULL struct (a row FILTER drops) is skipped.
// Rows are held per group in input order; Finish sorts each group's rows by the keys (stably,
// so ties keep input order) and feeds their x values to the inner aggregate in that order.
class OrderedState : public AggregateState {
 public:
  OrderedState(std::unique_ptr<AggregateState> inner, std::vector<OrderKey> keys,
               const DataType& input)
      : inner_(std::move(inner)), keys_(std::move(keys)), value_type_(input.children[0].type) {
    result_type_ = inner_->result_type();
  }

  void Resize(int64_t groups) override { rows_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      Value value = input->GetValue(row);
      bytes_ += static_cast<int64_t>(sizeof(Value)) + HeldBytes(value);
      rows_[ids[row]].push_back(std::move(value));
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<OrderedState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      std::vector<Value>& target = rows_[mapping[g]];
      for (Value& value : from.rows_[static_cast<size_t>(g)]) target.push_back(std::move(value));
      from.rows_[static_cast<size_t>(g)].clear();
    }
    bytes_ += from.bytes_;
    from.bytes_ = 0;
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder values(value_type_);
    std::vector<uint32_t> ids;
    for (int64_t g = 0; g < groups; ++g) {
      std::vector<Value>& rows = rows_[static_cast<size_t>(g)];
      std::stable_sort(rows.begin(), rows.end(), [&](const Value& a, const Value& b) {
        return Compare(a, b) < 0;
      });
      for (const Value& row : rows) {
        TARN_RETURN_NOT_OK(values.Append(row.children()[0]));
        ids.push_back(static_cast<uint32_t>(g));
      }
      rows.clear();
      rows.shrink_to_fit();
    }
    bytes_ = 0;
    std::shared_ptr<Column> column = values.Finish();
    inner_->Resize(groups);
    TARN_RETURN_NOT_OK(inner_->Update(column.get(), ids.data(), static_cast<int64_t>(ids.size()),
                                      nullptr));
    return inner_->Finish(groups);
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(std::vector<Value>)) + bytes_;
  }

 private:
  int Compare(const Value& a, const Value& b) const {
    const std::vector<Value>& x = a.children();
    const std::vector<Value>& y = b.children();
    for (size_t k = 0; k < keys_.size(); ++k) {
      const Value& p = x[k + 1];
      const Value& q = y[k + 1];
      if (p.is_null() || q.is_null()) {
        if (p.is_null() && q.is_null()) continue;
        return (p.is_null() == keys_[k].nulls_first) ? -1 : 1;
      }
      int order = expr::CompareValues(p, q);
      if (order != 0) return keys_[k].descending ? -order : order;
    }
    return 0;
  }

  std::unique_ptr<AggregateState> inner_;
  std::vector<OrderKey> keys_;
  DataType value_type_;
  std::vector<std::vector<Value>> rows_;
  int64_t bytes_ = 0;
};

// ---- corr, covar_pop, covar_samp, regr_* -----------------------------------------------------

enum class Pair {
  kCorr, kCovarPop, kCovarSamp, kRegrSlope, kRegrIntercept, kRegrR2, kRegrCount, kRegrAvgX,
  kRegrAvgY, kRegrSxx, kRegrSyy, kRegrSxy,
};

// The argument is a struct (y, x); rows where either is NULL are skipped. Per group the count,
// the means, the co-moment and both sums of squared differences, updated as DuckDB updates its
// covariance and standard deviation states, in row order (order_sensitive).
class PairState : public AggregateState {
 public:
  explicit PairState(Pair kind) : kind_(kind) {
    result_type_ = DataType(kind == Pair::kRegrCount ? TypeId::kUInt32 : TypeId::kFloat64);
  }

  void Resize(int64_t groups) override { moments_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      Value pair = input->GetValue(row);
      const std::vector<Value>& fields = pair.children();
      if (fields[0].is_null() || fields[1].is_null()) continue;
      Add(moments_[ids[row]], expr::AsDouble(fields[0]), expr::AsDouble(fields[1]));
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<PairState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      const Moments& source = from.moments_[static_cast<size_t>(g)];
      Moments& target = moments_[mapping[g]];
      if (source.count == 0) continue;
      if (target.count == 0) {
        target = source;
        continue;
      }
      const double n1 = static_cast<double>(target.count);
      const double n2 = static_cast<double>(source.count);
      const double n = n1 + n2;
      const double dx = target.mean_x - source.mean_x;
      const double dy = target.mean_y - source.mean_y;
      target.co_moment += source.co_moment + dx * dy * n1 * n2 / n;
      target.squares_x += source.squares_x + dx * dx * n1 * n2 / n;
      target.squares_y += source.squares_y + dy * dy * n1 * n2 / n;
      target.mean_x = (n1 * target.mean_x + n2 * source.mean_x) / n;
      target.mean_y = (n1 * target.mean_y + n2 * source.mean_y) / n;
      target.sum_x += source.sum_x;
      target.sum_y += source.sum_y;
      target.count += source.count;
    }
  }

  bool order_sensitive() const override { return true; }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const Moments& m = moments_[static_cast<size_t>(g)];
      if (kind_ == Pair::kRegrCount) {
        builder.AppendNumber<uint32_t>(static_cast<uint32_t>(m.count));
        continue;
      }
      TARN_ASSIGN_OR_RETURN(std::optional<double> result, Compute(m));
      if (result.has_value() && std::isnan(*result)) {
        result = std::numeric_limits<double>::quiet_NaN();  // 0 / 0 without its sign bit
      }
      if (result.has_value()) {
        builder.AppendNumber<double>(*result);
      } else {
        builder.AppendNull();
      }
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(Moments));
  }

 private:
  struct Moments {
    int64_t count = 0;
    double mean_x = 0, mean_y = 0, co_moment = 0, squares_x = 0, squares_y = 0;
    double sum_x = 0, sum_y = 0;
  };

  static void Add(Moments& m, double y, double x) {
    const double n = static_cast<double>(++m.count);
    const double dx = x - m.mean_x;
    const double mean_x = m.mean_x + dx / n;
    const double dy = y - m.mean_y;
    const double mean_y = m.mean_y + dy / n;
    m.co_moment += dx * (y - mean_y);
    m.squares_x += (x - mean_x) * dx;
    m.squares_y += (y - mean_y) * dy;
    m.mean_x = mean_x;
    m.mean_y = mean_y;
    m.sum_x += x;
    m.sum_y += y;
  }

  static Result<double> PopVariance(const Moments& m, bool x) {
    const double squares = x ? m.squares_x : m.squares_y;
    const double variance = m.count > 1 ? squares / static_cast<double>(m.count) : 0.0;
    if (!std::isfinite(variance)) {
      return Status::InvalidArgument("Out of Range Error: VARPOP is out of range!");
    }
    return variance;
  }

  // 0 / 0 is NaN, as in DuckDB.
  static Result<std::optional<double>> Correlation(const Moments& m) {
    const double n = static_cast<double>(m.count);
    const double covariance = m.co_moment / n;
    const double std_x = m.count > 1 ? std::sqrt(m.squares_x / n) : 0.0;
    if (!std::isfinite(std_x)) {
      return Status::InvalidArgument("Out of Range Error: STDDEV_POP for X is out of range!");
    }
    const double std_y = m.count > 1 ? std::sqrt(m.squares_y / n) : 0.0;
    if (!std::isfinite(std_y)) {
      return Status::InvalidArgument("Out of Range Error: STDDEV_POP for Y is out of range!");
    }
    return std::optional<double>(covariance / (std_x * std_y));
  }

  static Result<std::optional<double>> Slope(const Moments& m) {
    if (m.count == 0) return std::optional<double>();
    const double covariance = m.co_moment / static_cast<double>(m.count);
    TARN_ASSIGN_OR_RETURN(const double variance, PopVariance(m, true));
    return std::optional<double>(covariance / variance);
  }

  Result<std::optional<double>> Compute(const Moments& m) const {
    using Out = std::optional<double>;
    const double n = static_cast<double>(m.count);
    switch (kind_) {
      case Pair::kCorr: return m.count == 0 ? Out() : Correlation(m);
      case Pair::kCovarPop: return m.count == 0 ? Out() : Out(m.co_moment / n);
      case Pair::kCovarSamp: return m.count < 2 ? Out() : Out(m.co_moment / (n - 1));
      case Pair::kRegrSlope: return Slope(m);
      case Pair::kRegrIntercept: {
        if (m.count == 0) return Out();
        TARN_ASSIGN_OR_RETURN(const double variance_x, PopVariance(m, true));
        if (variance_x == 0) return Out();
        TARN_ASSIGN_OR_RETURN(const Out slope, Slope(m));
        if (!slope.has_value()) return Out();
        return Out(m.sum_y / n - *slope * (m.sum_x / n));
      }
      case Pair::kRegrR2: {
        if (m.count == 0) return Out();
        TARN_ASSIGN_OR_RETURN(const double variance_x, PopVariance(m, true));
        if (variance_x == 0) return Out();
        TARN_ASSIGN_OR_RETURN(const double variance_y, PopVariance(m, false));
        if (variance_y == 0) return Out(1.0);
        TARN_ASSIGN_OR_RETURN(const Out correlation, Correlation(m));
        if (!correlation.has_value()) return Out();
        return Out(*correlation * *correlation);
      }
      case Pair::kRegrAvgX: return m.count == 0 ? Out() : Out(m.sum_x / n);
      case Pair::kRegrAvgY: return m.count == 0 ? Out() : Out(m.sum_y / n);
      case Pair::kRegrSxx: case Pair::kRegrSyy: {
        if (m.count == 0) return Out();
        TARN_ASSIGN_OR_RETURN(const double variance, PopVariance(m, kind_ == Pair::kRegrSxx));
        return Out(variance * n);
      }
      case Pair::kRegrSxy: return m.count == 0 ? Out() : Out(m.co_moment / n * n);
      case Pair::kRegrCount: break;
    }
    return Out();
  }

  Pair kind_;
  std::vector<Moments> moments_;
};

// ---- kurtosis, kurtosis_pop, skewness ------------------------------------------------------

enum class Shape { kKurtosis, kKurtosisPop, kSkewness };

// Per group the count and the sums of x, x², x³ and x⁴, as DuckDB keeps them.
class ShapeState : public AggregateState {
 public:
  explicit ShapeState(Shape kind) : kind_(kind) { result_type_ = DataType(TypeId::kFloat64); }

  void Resize(int64_t groups) override { sums_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      const double x = expr::AsDouble(input->GetValue(row));
      Sums& s = sums_[ids[row]];
      ++s.n;
      s.sum += x;
      s.sum_sqr += std::pow(x, 2);
      s.sum_cub += std::pow(x, 3);
      s.sum_four += std::pow(x, 4);
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<ShapeState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      const Sums& source = from.sums_[static_cast<size_t>(g)];
      Sums& target = sums_[mapping[g]];
      target.n += source.n;
      target.sum += source.sum;
      target.sum_sqr += source.sum_sqr;
      target.sum_cub += source.sum_cub;
      target.sum_four += source.sum_four;
    }
  }

  bool order_sensitive() const override { return true; }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const Sums& s = sums_[static_cast<size_t>(g)];
      std::optional<double> result =
          kind_ == Shape::kSkewness ? Skewness(s) : Kurtosis(s, kind_ == Shape::kKurtosis);
      if (result.has_value() && !std::isfinite(*result)) {
        return Status::InvalidArgument(kind_ == Shape::kSkewness
                                           ? "Out of Range Error: SKEW is out of range!"
                                           : "Out of Range Error: Kurtosis is out of range!");
      }
      if (result.has_value()) {
        builder.AppendNumber<double>(*result);
      } else {
        builder.AppendNull();
      }
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(Sums));
  }

 private:
  struct Sums {
    int64_t n = 0;
    double sum = 0, sum_sqr = 0, sum_cub = 0, sum_four = 0;
  };

  static std::optional<double> Kurtosis(const Sums& s, bool bias_corrected) {
    const double n = static_cast<double>(s.n);
    if (n <= 1 || (bias_corrected && n <= 3)) return std::nullopt;
    const double temp = 1 / n;
    const long double temp_long = 1 / static_cast<long double>(n);
    if (s.sum_sqr - s.sum * s.sum * temp == 0 || s.sum_sqr - s.sum * s.sum * temp_long == 0) {
      return std::nullopt;
    }
    const double m4 = temp * (s.sum_four - 4 * s.sum_cub * s.sum * temp +
                              6 * s.sum_sqr * s.sum * s.sum * temp * temp -
                              3 * std::pow(s.sum, 4) * std::pow(temp, 3));
    const double m2 = temp * (s.sum_sqr - s.sum * s.sum * temp);
    if (m2 <= 0) return std::nullopt;
    if (!bias_corrected) return m4 / (m2 * m2) - 3;
    return (n - 1) * ((n + 1) * m4 / (m2 * m2) - 3 * (n - 1)) / ((n - 2) * (n - 3));
  }

  static std::optional<double> Skewness(const Sums& s) {
    const double n = static_cast<double>(s.n);
    if (n <= 2) return std::nullopt;
    const double temp = 1 / n;
    const double p = std::pow(temp * (s.sum_sqr - s.sum * s.sum * temp), 3);
    if (p < 0) return std::nullopt;
    const double div = std::sqrt(p);
    if (div == 0) return std::nullopt;
    const double temp1 = std::sqrt(n * (n - 1)) / (n - 2);
    return temp1 * temp *
           (s.sum_cub - 3 * s.sum_sqr * s.sum * temp + 2 * std::pow(s.sum, 3) * temp * temp) / div;
  }

  Shape kind_;
  std::vector<Sums> sums_;
};

// ---- fsum / sumkahan / kahan_sum, favg, geomean --------------------------------------------

enum class Compensated { kSum, kAvg, kGeometricMean };

// Kahan-compensated sums (of x, or of ln x for the geometric mean), in row order.
class CompensatedState : public AggregateState {
 public:
  explicit CompensatedState(Compensated kind) : kind_(kind) {
    result_type_ = DataType(TypeId::kFloat64);
  }

  void Resize(int64_t groups) override { sums_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      double x = expr::AsDouble(input->GetValue(row));
      Sum& s = sums_[ids[row]];
      ++s.count;
      if (kind_ == Compensated::kGeometricMean) {
        s.value += std::log(x);
      } else {
        Add(s, x);
      }
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<CompensatedState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      const Sum& source = from.sums_[static_cast<size_t>(g)];
      Sum& target = sums_[mapping[g]];
      target.count += source.count;
      if (kind_ == Compensated::kGeometricMean) {
        target.value += source.value;
      } else {
        Add(target, source.value);
        Add(target, source.error);
      }
    }
  }

  bool order_sensitive() const override { return true; }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      const Sum& s = sums_[static_cast<size_t>(g)];
      if (s.count == 0) {
        builder.AppendNull();
        continue;
      }
      const double n = static_cast<double>(s.count);
      double result = s.value;
      if (kind_ == Compensated::kAvg) result = s.value / n;
      if (kind_ == Compensated::kGeometricMean) result = std::exp(s.value / n);
      builder.AppendNumber<double>(result);
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(Sum));
  }

 private:
  struct Sum {
    int64_t count = 0;
    double value = 0, error = 0;
  };

  static void Add(Sum& s, double x) {
    const double diff = x - s.error;
    const double next = s.value + diff;
    s.error = (next - s.value) - diff;
    s.value = next;
  }

  Compensated kind_;
  std::vector<Sum> sums_;
};

// ---- approx_count_distinct -------------------------------------------------------------------

// DuckDB's HyperLogLog: 64 registers over DuckDB's hash of each value (hash()), the register
// from the hash's low 6 bits and the rank from the trailing zeros of the rest, estimated with
// Ertl's improved estimator.
class ApproxDistinctState : public AggregateState {
 public:
  static constexpr int kP = 6;
  static constexpr int kQ = 64 - kP;
  static constexpr int kM = 1 << kP;

  explicit ApproxDistinctState(const DataType& input) : input_type_(input) {
    result_type_ = DataType(TypeId::kInt64);
  }

  void Resize(int64_t groups) override { registers_.resize(static_cast<size_t>(groups) * kM, 0); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      uint64_t h = expr::DuckDBHash(input->GetValue(row), input_type_);
      const size_t index = static_cast<size_t>(h & (kM - 1));
      h >>= kP;
      h |= uint64_t{1} << kQ;
      const auto rank = static_cast<uint8_t>(__builtin_ctzll(h) + 1);
      uint8_t& slot = registers_[static_cast<size_t>(ids[row]) * kM + index];
      if (rank > slot) slot = rank;
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<ApproxDistinctState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      for (int i = 0; i < kM; ++i) {
        const uint8_t theirs = from.registers_[static_cast<size_t>(g) * kM + i];
        uint8_t& ours = registers_[static_cast<size_t>(mapping[g]) * kM + i];
        if (theirs > ours) ours = theirs;
      }
    }
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      uint32_t counts[kQ + 2] = {0};
      for (int i = 0; i < kM; ++i) ++counts[registers_[static_cast<size_t>(g) * kM + i]];
      builder.AppendNumber<int64_t>(Estimate(counts));
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override { return groups * kM; }

 private:
  static double Sigma(double x) {
    if (x == 1.0) return std::numeric_limits<double>::infinity();
    double y = 1;
    double z = x;
    double previous;
    do {
      x *= x;
      previous = z;
      z += x * y;
      y += y;
    } while (previous != z);
    return z;
  }

  static double Tau(double x) {
    if (x == 0.0 || x == 1.0) return 0.0;
    double y = 1.0;
    double z = 1 - x;
    double previous;
    do {
      x = std::sqrt(x);
      previous = z;
      y *= 0.5;
      z -= std::pow(1 - x, 2) * y;
    } while (previous != z);
    return z / 3;
  }

  static int64_t Estimate(const uint32_t* counts) {
    constexpr double kAlpha = 0.721347520444481703680;  // 1 / (2 ln 2)
    const double m = kM;
    double z = m * Tau((m - counts[kQ + 1]) / m);
    for (int k = kQ; k >= 1; --k) {
      z += counts[k];
      z *= 0.5;
    }
    z += m * Sigma(counts[0] / m);
    return static_cast<int64_t>(std::llround(static_cast<long double>(kAlpha * m * m / z)));
  }

  DataType input_type_;
  std::vector<uint8_t> registers_;  // kM per group
};

// ---- arg_min / arg_max / min / max with n: the n best values as a list ----------------------

class TopNState : public AggregateState {
 public:
  // `paired`: the argument is a struct (value, ordering), else the value orders itself.
  TopNState(bool max, bool paired, int64_t n, const DataType& input)
      : max_(max), paired_(paired), n_(n) {
    result_type_ = DataType::List(paired ? input.children[0].type : input);
  }

  void Resize(int64_t groups) override { rows_.resize(static_cast<size_t>(groups)); }

  Status UpdateRange(const Column* input, const uint32_t* ids, int64_t begin, int64_t end,
                     const uint8_t* keep) override {
    for (int64_t row = begin; row < end; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      Value value = input->GetValue(row);
      if (paired_) {
        const std::vector<Value>& fields = value.children();
        if (fields[0].is_null() || fields[1].is_null()) continue;
        bytes_ += static_cast<int64_t>(2 * sizeof(Value)) + HeldBytes(value);
        rows_[ids[row]].emplace_back(fields[1], fields[0]);
      } else {
        bytes_ += static_cast<int64_t>(2 * sizeof(Value)) + 2 * HeldBytes(value);
        rows_[ids[row]].emplace_back(value, value);
      }
    }
    return Status::OK();
  }

  void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) override {
    auto& from = static_cast<TopNState&>(other);
    for (int64_t g = 0; g < other_groups; ++g) {
      auto& target = rows_[mapping[g]];
      for (auto& row : from.rows_[static_cast<size_t>(g)]) target.push_back(std::move(row));
      from.rows_[static_cast<size_t>(g)].clear();
    }
    bytes_ += from.bytes_;
    from.bytes_ = 0;
  }

  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      auto& rows = rows_[static_cast<size_t>(g)];
      if (rows.empty()) {
        builder.AppendNull();
        continue;
      }
      std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
        const int order = expr::CompareValues(a.first, b.first);
        return max_ ? order > 0 : order < 0;
      });
      std::vector<Value> best;
      for (size_t i = 0; i < rows.size() && static_cast<int64_t>(i) < n_; ++i) {
        best.push_back(rows[i].second);
      }
      TARN_RETURN_NOT_OK(builder.Append(Value::Nested(result_type_, std::move(best))));
    }
    return builder.Finish();
  }

  int64_t MemoryBytes(int64_t groups) const override {
    return groups * static_cast<int64_t>(sizeof(rows_[0])) + bytes_;
  }

 private:
  bool max_;
  bool paired_;
  int64_t n_;
  std::vector<std::vector<std::pair<Value, Value>>> rows_;  // (ordering, value)
  int64_t bytes_ = 0;
};

bool IsOrdered(const DataType& type) {
  return type.id != TypeId::kStruct && type.id != TypeId::kList && type.id != TypeId::kMap &&
         type.id != TypeId::kVariant && type.id != TypeId::kGeometry && type.id != TypeId::kNull;
}

}  // namespace

namespace {

bool IsArgName(std::string_view name) {
  return name == "arg_min" || name == "argmin" || name == "min_by" || name == "arg_max" ||
         name == "argmax" || name == "max_by";
}

bool IsPairName(std::string_view name) {
  return name == "corr" || name == "covar_pop" || name == "covar_samp" ||
         name.starts_with("regr_");
}

}  // namespace

bool IsLibraryAggregateName(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "list", "array_agg", "string_agg", "group_concat", "listagg", "bool_and", "bool_or",
      "count_if", "countif", "first", "arbitrary", "last", "any_value", "product", "var_samp",
      "variance", "var_pop", "stddev_samp", "stddev", "stddev_pop", "bit_and", "bit_or",
      "bit_xor", "median", "quantile_cont", "quantile_disc", "quantile", "mode", "arg_min",
      "argmin", "min_by", "arg_max", "argmax", "max_by", "corr", "covar_pop", "covar_samp",
      "regr_slope", "regr_intercept", "regr_r2", "regr_count", "regr_avgx", "regr_avgy",
      "regr_sxx", "regr_syy", "regr_sxy", "kurtosis", "kurtosis_pop", "skewness", "entropy",
      "histogram", "approx_count_distinct", "fsum", "sumkahan", "kahan_sum", "favg",
      "geomean", "geometric_mean", "mad", "#min_n", "#max_n", "approx_quantile",
      "json_group_array", "json_group_object"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

int LibraryAggregateRowArguments(std::string_view name) {
  return IsArgName(name) || IsPairName(name) || name == "json_group_object" ? 2 : 1;
}

std::pair<int, int> LibraryAggregateArity(std::string_view name) {
  if (name == "string_agg" || name == "group_concat" || name == "listagg") return {1, 2};
  if (name == "quantile_cont" || name == "quantile_disc" || name == "quantile" ||
      name == "approx_quantile") {
    return {2, 2};
  }
  if (name == "#min_n" || name == "#max_n") return {2, 2};
  if (IsArgName(name)) return {2, 3};
  if (IsPairName(name) || name == "json_group_object") return {2, 2};
  return {1, 1};
}

bool LibraryAggregateKeepsNulls(std::string_view name) {
  return name == "list" || name == "array_agg" || name == "first" || name == "arbitrary" ||
         name == "last" || name == "json_group_array";
}

namespace {

// The n of arg_max(x, y, n) and max(x, n): a positive integer constant.
Result<int64_t> CountParameter(const Value& n, std::string_view what) {
  if (n.is_null() || !n.type().IsInteger()) {
    return Status::InvalidArgument("Binder Error: the n of ", what, " must be an integer constant");
  }
  const int64_t count = static_cast<int64_t>(expr::AsInt128(n));
  if (count <= 0) {
    return Status::InvalidArgument("Invalid Input Error: Invalid input for ", what,
                                   ": n value must be > 0");
  }
  return count;
}

}  // namespace

Result<std::unique_ptr<AggregateState>> MakeLibraryAggregateState(
    std::string_view name, const DataType& input, const std::vector<Value>& parameters) {
  using State = std::unique_ptr<AggregateState>;
  if (name == "list" || name == "array_agg") {
    return State(new CollectState(Collect::kList, input, "", 0));
  }
  if (name == "json_group_array") return State(new CollectState(Collect::kJsonArray, input, "", 0));
  if (name == "json_group_object") {
    return State(new CollectState(Collect::kJsonObject, input, "", 0));
  }
  if (name == "string_agg" || name == "group_concat" || name == "listagg") {
    if (input.id != TypeId::kVarchar) {
      return NoMatch(name, input, "string_agg(VARCHAR) -> VARCHAR");
    }
    std::string separator = ",";
    if (!parameters.empty()) {
      if (parameters[0].is_null()) {
        separator.clear();
      } else if (parameters[0].type().id != TypeId::kVarchar) {
        return Status::InvalidArgument("Binder Error: Separator argument to StringAgg must be "
                                       "a constant VARCHAR");
      } else {
        separator = parameters[0].GetBytes();
      }
    }
    return State(new CollectState(Collect::kStringAgg, input, std::move(separator), 0));
  }
  if (name == "bool_and" || name == "bool_or" || name == "count_if" || name == "countif") {
    if (input.id != TypeId::kBoolean) {
      return NoMatch(name, input,
                     StrCat(name, "(BOOLEAN) -> ",
                            name == "count_if" || name == "countif" ? "HUGEINT" : "BOOLEAN"));
    }
    return State(new LogicState(name == "bool_and"   ? Logic::kAnd
                                : name == "bool_or" ? Logic::kOr
                                                    : Logic::kCountIf));
  }
  if (name == "first" || name == "arbitrary") return State(new PickState(Pick::kFirst, input));
  if (name == "last") return State(new PickState(Pick::kLast, input));
  if (name == "any_value") return State(new PickState(Pick::kAnyValue, input));
  if (name == "product" || name == "var_samp" || name == "variance" || name == "var_pop" ||
      name == "stddev_samp" || name == "stddev" || name == "stddev_pop") {
    if (!input.IsNumeric()) return NoMatch(name, input, StrCat(name, "(DOUBLE) -> DOUBLE"));
    const Moment kind = name == "product"                             ? Moment::kProduct
                        : name == "var_samp" || name == "variance"    ? Moment::kVarSamp
                        : name == "var_pop"                           ? Moment::kVarPop
                        : name == "stddev_samp" || name == "stddev"   ? Moment::kStddevSamp
                                                                      : Moment::kStddevPop;
    return State(new MomentState(kind));
  }
  if (name == "bit_and" || name == "bit_or" || name == "bit_xor") {
    if (!input.IsInteger()) return NoMatch(name, input, StrCat(name, "(INTEGER) -> INTEGER"));
    const Bits kind = name == "bit_and" ? Bits::kAnd : name == "bit_or" ? Bits::kOr : Bits::kXor;
    return State(new BitsState(kind, input));
  }
  if (name == "median" || name == "quantile_cont" || name == "quantile_disc" ||
      name == "quantile") {
    double fraction = 0.5;
    if (name != "median") {
      if (parameters.empty() || parameters[0].is_null() || !parameters[0].type().IsNumeric()) {
        return Status::InvalidArgument("Binder Error: ", name,
                                       " needs a constant quantile between 0 and 1");
      }
      fraction = expr::AsDouble(parameters[0]);
      if (!(fraction >= 0 && fraction <= 1)) {
        return Status::InvalidArgument("Binder Error: QUANTILE can only take parameters in the "
                                       "range [-1, 1]");
      }
    }
    const bool continuous = name == "median" || name == "quantile_cont";
    if (continuous) {
      if (!input.IsInteger() && !input.IsFloating()) {
        return Status::NotSupported("not yet supported: ", name, " of ", input.ToString(),
                                    " (integers and floats are)");
      }
      return State(new CollectState(Collect::kQuantileCont, input, "", fraction));
    }
    if (!IsOrdered(input)) return NoMatch(name, input, StrCat(name, "(ANY, DOUBLE) -> ANY"));
    return State(new CollectState(Collect::kQuantileDisc, input, "", fraction));
  }
  if (name == "approx_quantile") {
    if (parameters.empty() || parameters[0].is_null() || !parameters[0].type().IsNumeric()) {
      return Status::InvalidArgument("Binder Error: approx_quantile needs a constant quantile "
                                     "between 0 and 1");
    }
    const double fraction = expr::AsDouble(parameters[0]);
    if (!(fraction >= 0 && fraction <= 1)) {
      return Status::InvalidArgument("Binder Error: APPROXIMATE QUANTILE can only take "
                                     "parameters in range [0, 1]");
    }
    const bool temporal = input.id == TypeId::kDate || input.id == TypeId::kTimestamp ||
                          input.id == TypeId::kTimestampS || input.id == TypeId::kTimestampMs ||
                          input.id == TypeId::kTimestampNs || input.id == TypeId::kTimestampTz ||
                          input.id == TypeId::kTime;
    if (!input.IsNumeric() && !temporal) {
      return NoMatch(name, input, "approx_quantile(ANY, FLOAT) -> ANY");
    }
    // DuckDB takes the quantile as a FLOAT.
    return State(new CollectState(Collect::kApproxQuantile, input, "",
                                  static_cast<double>(static_cast<float>(fraction))));
  }
  if (name == "mode") {
    if (!IsOrdered(input)) return NoMatch(name, input, "mode(ANY) -> ANY");
    return State(new CollectState(Collect::kMode, input, "", 0));
  }
  if (IsArgName(name)) {
    if (input.id != TypeId::kStruct || input.children.size() != 2 ||
        !IsOrdered(input.children[1].type)) {
      return NoMatch(name, input, StrCat(name, "(ANY, ANY) -> ANY"));
    }
    const bool max = name == "arg_max" || name == "argmax" || name == "max_by";
    if (!parameters.empty()) {
      TARN_ASSIGN_OR_RETURN(const int64_t n, CountParameter(parameters[0], "arg_min/arg_max"));
      return State(new TopNState(max, true, n, input));
    }
    return State(new ArgState(max, input));
  }
  if (name == "#min_n" || name == "#max_n") {
    if (!IsOrdered(input)) return NoMatch(name.substr(1, 3), input, "max(ANY, BIGINT) -> ANY[]");
    TARN_ASSIGN_OR_RETURN(const int64_t n, CountParameter(parameters[0], "MIN/MAX"));
    return State(new TopNState(name == "#max_n", false, n, input));
  }
  if (IsPairName(name)) {
    if (input.id != TypeId::kStruct || input.children.size() != 2 ||
        !(input.children[0].type.IsNumeric() || input.children[0].type.id == TypeId::kNull) ||
        !(input.children[1].type.IsNumeric() || input.children[1].type.id == TypeId::kNull)) {
      const bool two = input.id == TypeId::kStruct && input.children.size() == 2;
      return Status::InvalidArgument(
          "Binder Error: No function matches the given name and argument types '", name, "(",
          two ? StrCat(input.children[0].type.ToString(), ", ", input.children[1].type.ToString())
              : input.ToString(),
          ")'. You might need to add explicit type casts.\n\tCandidate functions:\n\t", name,
          "(DOUBLE, DOUBLE) -> DOUBLE");
    }
    static constexpr std::pair<std::string_view, Pair> kPairs[] = {
        {"corr", Pair::kCorr}, {"covar_pop", Pair::kCovarPop},
        {"covar_samp", Pair::kCovarSamp}, {"regr_slope", Pair::kRegrSlope},
        {"regr_intercept", Pair::kRegrIntercept}, {"regr_r2", Pair::kRegrR2},
        {"regr_count", Pair::kRegrCount}, {"regr_avgx", Pair::kRegrAvgX},
        {"regr_avgy", Pair::kRegrAvgY}, {"regr_sxx", Pair::kRegrSxx},
        {"regr_syy", Pair::kRegrSyy}, {"regr_sxy", Pair::kRegrSxy}};
    for (const auto& [pair_name, kind] : kPairs) {
      if (name == pair_name) return State(new PairState(kind));
    }
  }
  const bool numeric = input.IsNumeric() || input.id == TypeId::kNull;
  if (name == "kurtosis" || name == "kurtosis_pop" || name == "skewness") {
    if (!numeric) return NoMatch(name, input, StrCat(name, "(DOUBLE) -> DOUBLE"));
    return State(new ShapeState(name == "kurtosis"       ? Shape::kKurtosis
                                : name == "kurtosis_pop" ? Shape::kKurtosisPop
                                                         : Shape::kSkewness));
  }
  if (name == "fsum" || name == "sumkahan" || name == "kahan_sum" || name == "favg" ||
      name == "geomean" || name == "geometric_mean") {
    if (!numeric) return NoMatch(name, input, StrCat(name, "(DOUBLE) -> DOUBLE"));
    return State(new CompensatedState(name == "favg" ? Compensated::kAvg
                                      : name == "geomean" || name == "geometric_mean"
                                          ? Compensated::kGeometricMean
                                          : Compensated::kSum));
  }
  if (name == "mad") {
    if (!input.IsInteger() && !input.IsFloating() && input.id != TypeId::kDecimal) {
      return NoMatch(name, input, "mad(DOUBLE) -> DOUBLE");
    }
    return State(new CollectState(Collect::kMad, input, "", 0));
  }
  if (name == "entropy") return State(new CollectState(Collect::kEntropy, input, "", 0));
  if (name == "histogram") {
    if (!IsOrdered(input)) return NoMatch(name, input, "histogram(ANY) -> MAP");
    return State(new CollectState(Collect::kHistogram, input, "", 0));
  }
  if (name == "approx_count_distinct") return State(new ApproxDistinctState(input));
  return Status::NotFound("Catalog Error: aggregate function \"", name, "\" does not exist");
}

std::string OrderedAggregateName(std::string_view inner, const std::vector<OrderKey>& keys) {
  std::string name = "ordered:";
  for (const OrderKey& key : keys) {
    name += key.descending ? 'd' : 'a';
    name += key.nulls_first ? 'f' : 'l';
  }
  return StrCat(name, ":", inner);
}

bool IsOrderedAggregateName(std::string_view name) { return name.starts_with("ordered:"); }

Result<std::unique_ptr<AggregateState>> MakeOrderedAggregateState(
    std::string_view name, const DataType& input, const std::vector<Value>& parameters) {
  name.remove_prefix(std::string_view("ordered:").size());
  const size_t colon = name.find(':');
  if (colon == std::string_view::npos || colon % 2 != 0) {
    return Status::Internal("malformed ordered aggregate name");
  }
  std::vector<OrderKey> keys;
  for (size_t i = 0; i < colon; i += 2) keys.push_back({name[i] == 'd', name[i + 1] == 'f'});
  const std::string_view inner_name = name.substr(colon + 1);
  if (input.id != TypeId::kStruct || input.children.size() != keys.size() + 1) {
    return Status::Internal("an ordered aggregate's argument is a struct of value and keys");
  }
  TARN_ASSIGN_OR_RETURN(auto inner,
                        MakeAggregateState(inner_name, input.children[0].type, parameters));
  return std::unique_ptr<AggregateState>(new OrderedState(std::move(inner), std::move(keys), input));
}

}  // namespace tarn::sql
