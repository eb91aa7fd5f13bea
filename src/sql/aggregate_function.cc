#include "sql/aggregate_function.h"

#include <cmath>
#include <string>
#include <vector>

#include "expr/cast.h"
#include "expr/kernels.h"

namespace tarn::sql {
namespace {

using expr::Phys;

inline bool Included(const uint8_t* keep, int64_t row) { return keep == nullptr || GetBit(keep, row); }

// Reads row `row` of a fixed-width numeric column as T.
template <typename T>
T Load(const Column& column, Phys phys, int64_t row) {
  switch (phys) {
    case Phys::kI8: return static_cast<T>(column.values_as<int8_t>()[row]);
    case Phys::kI16: return static_cast<T>(column.values_as<int16_t>()[row]);
    case Phys::kI32: return static_cast<T>(column.values_as<int32_t>()[row]);
    case Phys::kI64: return static_cast<T>(column.values_as<int64_t>()[row]);
    case Phys::kU8: return static_cast<T>(column.values_as<uint8_t>()[row]);
    case Phys::kU16: return static_cast<T>(column.values_as<uint16_t>()[row]);
    case Phys::kU32: return static_cast<T>(column.values_as<uint32_t>()[row]);
    case Phys::kU64: return static_cast<T>(column.values_as<uint64_t>()[row]);
    case Phys::kI128: {
      __int128 v;
      std::memcpy(&v, column.values->data() + row * 16, 16);
      return static_cast<T>(v);
    }
    case Phys::kF32: return static_cast<T>(column.values_as<float>()[row]);
    case Phys::kF64: return static_cast<T>(column.values_as<double>()[row]);
    default: return T();
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
  Status Update(const Column* input, const uint32_t* ids, int64_t rows,
                const uint8_t* keep) override {
    for (int64_t row = 0; row < rows; ++row) {
      if (Included(keep, row) && (star_ || input->IsValid(row))) ++counts_[ids[row]];
    }
    return Status::OK();
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

// sum and avg over integers and decimals: an exact 128-bit sum and a count.
class IntegerSumState : public AggregateState {
 public:
  IntegerSumState(const DataType& input, bool average) : phys_(expr::PhysOf(input)), average_(average) {
    if (average) {
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
    sums_.resize(groups, 0);
    counts_.resize(groups, 0);
  }
  Status Update(const Column* input, const uint32_t* ids, int64_t rows,
                const uint8_t* keep) override {
    for (int64_t row = 0; row < rows; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      sums_[ids[row]] += Load<__int128>(*input, phys_, row);
      ++counts_[ids[row]];
    }
    return Status::OK();
  }
  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      if (counts_[g] == 0) {
        builder.AppendNull();
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
  int64_t MemoryBytes(int64_t groups) const override { return groups * 24; }

 private:
  Phys phys_;
  bool average_;
  bool narrow_ = false;
  double scale_ = 1.0;
  std::vector<__int128> sums_;
  std::vector<int64_t> counts_;
};

class FloatSumState : public AggregateState {
 public:
  FloatSumState(const DataType& input, bool average) : phys_(expr::PhysOf(input)), average_(average) {
    result_type_ = DataType(TypeId::kFloat64);
  }
  void Resize(int64_t groups) override {
    sums_.resize(groups, 0.0);
    counts_.resize(groups, 0);
  }
  Status Update(const Column* input, const uint32_t* ids, int64_t rows,
                const uint8_t* keep) override {
    for (int64_t row = 0; row < rows; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      sums_[ids[row]] += Load<double>(*input, phys_, row);
      ++counts_[ids[row]];
    }
    return Status::OK();
  }
  Result<std::shared_ptr<Column>> Finish(int64_t groups) override {
    ColumnBuilder builder(result_type_);
    for (int64_t g = 0; g < groups; ++g) {
      if (counts_[g] == 0) {
        builder.AppendNull();
      } else {
        builder.AppendNumber<double>(average_ ? sums_[g] / static_cast<double>(counts_[g])
                                              : sums_[g]);
      }
    }
    return builder.Finish();
  }
  int64_t MemoryBytes(int64_t groups) const override { return groups * 16; }

 private:
  Phys phys_;
  bool average_;
  std::vector<double> sums_;
  std::vector<int64_t> counts_;
};

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
  Status Update(const Column* input, const uint32_t* ids, int64_t rows,
                const uint8_t* keep) override {
    const T* data = input->values_as<T>();
    for (int64_t row = 0; row < rows; ++row) {
      if (!Included(keep, row) || input->IsNull(row)) continue;
      uint32_t g = ids[row];
      T v;
      std::memcpy(&v, data + row, sizeof(T));
      if (!seen_[g] || (is_max_ ? Less(values_[g], v) : Less(v, values_[g]))) {
        values_[g] = v;
        seen_[g] = 1;
      }
    }
    return Status::OK();
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
  Status Update(const Column* input, const uint32_t* ids, int64_t rows,
                const uint8_t* keep) override {
    bool bytes = input->type.IsVarLength();
    for (int64_t row = 0; row < rows; ++row) {
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
         name == "mean" || name == "min" || name == "max";
}

Result<std::unique_ptr<AggregateState>> MakeAggregateState(std::string_view name,
                                                           const DataType& input_type) {
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
