#include "expr/functions/conversion_functions.h"

#include <cmath>
#include <cstring>
#include <string>

#include "expr/eval/cast.h"
#include "format/scalar_text.h"
#include "util/murmur3.h"
#include "util/md5.h"

namespace tarn::expr {
namespace {

struct UnitInfo {
  FunctionId id;
  const char* plural;     // for messages
  TypeId argument;        // kFloat64, kInt64 or kInt32
  int64_t micros;         // per unit, for sub-day units (0 otherwise)
  int32_t days;           // per unit, for days and weeks
  int32_t months;         // per unit, for month-based units
};

constexpr UnitInfo kUnits[] = {
    {FunctionId::kToMicroseconds, "microseconds", TypeId::kInt64, 1, 0, 0},
    {FunctionId::kToMilliseconds, "milliseconds", TypeId::kFloat64, 1000, 0, 0},
    {FunctionId::kToSeconds, "seconds", TypeId::kFloat64, 1000000, 0, 0},
    {FunctionId::kToMinutes, "minutes", TypeId::kInt64, 60000000, 0, 0},
    {FunctionId::kToHours, "hours", TypeId::kInt64, 3600000000LL, 0, 0},
    {FunctionId::kToDays, "days", TypeId::kInt32, 0, 1, 0},
    {FunctionId::kToWeeks, "weeks", TypeId::kInt32, 0, 7, 0},
    {FunctionId::kToMonths, "months", TypeId::kInt32, 0, 0, 1},
    {FunctionId::kToQuarters, "quarters", TypeId::kInt32, 0, 0, 3},
    {FunctionId::kToYears, "years", TypeId::kInt32, 0, 0, 12},
    {FunctionId::kToDecades, "decades", TypeId::kInt32, 0, 0, 120},
    {FunctionId::kToCenturies, "centuries", TypeId::kInt32, 0, 0, 1200},
    {FunctionId::kToMillennia, "millennia", TypeId::kInt32, 0, 0, 12000},
};

const UnitInfo* FindUnit(FunctionId id) {
  for (const UnitInfo& unit : kUnits) {
    if (unit.id == id) return &unit;
  }
  return nullptr;
}

Status IntervalOutOfRange(const std::string& amount, const UnitInfo& unit) {
  return Status::InvalidArgument("Out of Range Error: Interval value ", amount, " ",
                                 unit.plural, " out of range");
}

// `amount` units as an interval; nullopt when out of range.
std::optional<Interval> UnitsToInterval(const UnitInfo& unit, double amount) {
  const double micros = std::nearbyint(amount * static_cast<double>(unit.micros));
  // 2^63 as a double: anything at or beyond it (or NaN) does not fit an int64.
  if (!(micros > -9223372036854775808.0 && micros < 9223372036854775808.0)) return std::nullopt;
  Interval out{0, 0, 0};
  out.nanos = static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(micros)) * 1000);
  if (out.nanos / 1000 != static_cast<int64_t>(micros)) return std::nullopt;
  return out;
}

std::optional<Interval> UnitsToInterval(const UnitInfo& unit, int64_t amount) {
  Interval out{0, 0, 0};
  if (unit.micros != 0) {
    int64_t micros = 0;
    if (__builtin_mul_overflow(amount, unit.micros, &micros) ||
        __builtin_mul_overflow(micros, int64_t{1000}, &out.nanos)) {
      return std::nullopt;
    }
  } else if (unit.days != 0) {
    if (__builtin_mul_overflow(static_cast<int32_t>(amount), unit.days, &out.days)) {
      return std::nullopt;
    }
  } else if (__builtin_mul_overflow(static_cast<int32_t>(amount), unit.months, &out.months)) {
    return std::nullopt;
  }
  return out;
}

Result<Value> ToInterval(const UnitInfo& unit, const Value& amount) {
  const bool floating = unit.argument == TypeId::kFloat64;
  std::optional<Interval> out = floating ? UnitsToInterval(unit, amount.GetDouble())
                                         : UnitsToInterval(unit, amount.GetInt64());
  if (!out) {
    return IntervalOutOfRange(floating ? std::to_string(amount.GetDouble())
                                       : std::to_string(amount.GetInt64()),
                              unit);
  }
  return Value::MakeInterval(*out);
}

Result<Value> ToTimestamp(const Value& seconds, const DataType& result_type) {
  double micros = std::nearbyint(seconds.GetDouble() * 1e6);
  // DuckDB's TIMESTAMP range ends below the int64 limits (they stand for +-infinity).
  if (!(micros > -9223372036854775808.0 && micros < 9223372036854775807.0)) {
    return Status::InvalidArgument(
        "Conversion Error: Epoch seconds out of range for TIMESTAMP WITH TIME ZONE");
  }
  return Value::Int(result_type, static_cast<int64_t>(micros));
}

}  // namespace

bool IsConversionFunction(FunctionId id) {
  return id == FunctionId::kTrunc || id == FunctionId::kMd5 || id == FunctionId::kMurmur3 ||
         id == FunctionId::kToTimestamp || FindUnit(id) != nullptr;
}

Status ResolveConversionFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                      std::vector<DataType>* cast_to, DataType* result) {
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  if (arg_types.size() != 1) return mismatch();
  const DataType& arg = arg_types[0];
  auto accept = [&](DataType want, DataType out) {
    if (!ImplicitlyCastable(arg, want)) return mismatch();
    *cast_to = {std::move(want)};
    *result = std::move(out);
    return Status::OK();
  };
  if (const UnitInfo* unit = FindUnit(id)) {
    return accept(DataType(unit->argument), DataType(TypeId::kInterval));
  }
  switch (id) {
    case FunctionId::kTrunc:
      if (arg.id == TypeId::kNull) return accept(DataType(TypeId::kFloat64), DataType(TypeId::kFloat64));
      if (arg.id == TypeId::kDecimal) return accept(arg, DataType::Decimal(arg.precision, 0));
      if (!arg.IsInteger() && !arg.IsFloating()) return mismatch();
      return accept(arg, arg);
    case FunctionId::kMd5:
      if (arg.id == TypeId::kBlob) return accept(arg, DataType(TypeId::kVarchar));
      if (arg.id != TypeId::kVarchar && arg.id != TypeId::kNull) return mismatch();
      return accept(DataType(TypeId::kVarchar), DataType(TypeId::kVarchar));
    case FunctionId::kToTimestamp:
      return accept(DataType(TypeId::kFloat64), DataType(TypeId::kTimestampTz));
    case FunctionId::kMurmur3:
      if (arg.id == TypeId::kVariant || arg.id == TypeId::kGeometry ||
          arg.id == TypeId::kInterval || arg.id == TypeId::kTimeTz) {
        return mismatch();
      }
      return accept(arg.id == TypeId::kNull ? DataType(TypeId::kInt32) : arg,
                    DataType(TypeId::kInt32));
    default:
      return mismatch();
  }
}

bool IsIntervalUnitFunction(FunctionId id) { return FindUnit(id) != nullptr; }

std::optional<Interval> IntervalOfUnits(FunctionId id, double amount) {
  const UnitInfo* unit = FindUnit(id);
  if (unit == nullptr || unit->argument != TypeId::kFloat64) return std::nullopt;
  return UnitsToInterval(*unit, amount);
}

std::optional<Interval> IntervalOfUnits(FunctionId id, int64_t amount) {
  const UnitInfo* unit = FindUnit(id);
  if (unit == nullptr || unit->argument == TypeId::kFloat64) return std::nullopt;
  return UnitsToInterval(*unit, amount);
}

Result<Value> InvokeConversionFunction(FunctionId id, std::span<const Value> args,
                                       const DataType& result_type) {
  if (const UnitInfo* unit = FindUnit(id)) return ToInterval(*unit, args[0]);
  switch (id) {
    case FunctionId::kTrunc:
      if (result_type.IsFloating()) return Value::Double(result_type, std::trunc(args[0].GetDouble()));
      if (result_type.id == TypeId::kDecimal) {  // toward zero, to scale 0
        const int scale = args[0].type().scale;
        __int128 divisor = 1;
        for (int i = 0; i < scale; ++i) divisor *= 10;
        return Value::Int128(result_type, args[0].GetInt128() / divisor);
      }
      return args[0];
    case FunctionId::kMd5: return Value::Varchar(Md5Hex(args[0].GetBytes()));
    case FunctionId::kToTimestamp: return ToTimestamp(args[0], result_type);
    case FunctionId::kMurmur3: {
      std::optional<int32_t> hash = Murmur3Of(args[0]);
      if (!hash) return Value::Null(result_type);
      return Value::Int(result_type, *hash);
    }
    default: return Status::Internal("not a conversion function");
  }
}

std::optional<int32_t> Murmur3Of(const Value& value) {
  if (value.is_null()) return std::nullopt;
  const DataType& type = value.type();
  switch (type.id) {
    case TypeId::kBoolean:
      return Murmur3HashInt64(value.GetBool() ? 1 : 0);
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kDate: case TypeId::kTime: case TypeId::kTimeNs: case TypeId::kTimestamp:
    case TypeId::kTimestampS: case TypeId::kTimestampMs: case TypeId::kTimestampNs:
    case TypeId::kTimestampTz:
      return Murmur3HashInt64(value.GetInt64());
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      return Murmur3Hash32(std::to_string(value.GetUInt64()));
    case TypeId::kInt128: case TypeId::kUInt128: {
      std::string text;
      if (type.id == TypeId::kInt128) {
        format::AppendInt128(value.GetInt128(), &text);
      } else {
        format::AppendUInt128(static_cast<unsigned __int128>(value.GetInt128()), &text);
      }
      return Murmur3Hash32(text);
    }
    case TypeId::kDecimal: {
      if (type.precision <= 18) return Murmur3HashInt64(static_cast<int64_t>(value.GetInt128()));
      std::string text;
      format::AppendDecimal(value.GetInt128(), type.precision, type.scale, &text);
      return Murmur3Hash32(text);
    }
    case TypeId::kFloat32: case TypeId::kFloat64: {
      double d = value.GetDouble();
      if (d == 0.0) d = 0.0;
      int64_t bits = 0;
      std::memcpy(&bits, &d, sizeof(bits));
      return Murmur3HashInt64(bits);
    }
    case TypeId::kVarchar: case TypeId::kJson: case TypeId::kBlob:
      return Murmur3Hash32(value.GetBytes());
    case TypeId::kUuid: {
      if (value.GetBytes().size() != 16) return std::nullopt;
      std::string text;
      format::AppendUuid(value.GetBytes(), &text);
      return Murmur3Hash32(text);
    }
    case TypeId::kStruct: case TypeId::kList: case TypeId::kMap:
      return Murmur3Hash32(ValueToText(value));  // DuckDB's text of the value
    default:
      return std::nullopt;
  }
}

}  // namespace tarn::expr
