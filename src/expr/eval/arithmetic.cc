#include "expr/eval/arithmetic.h"

#include <cmath>

#include "expr/eval/cast.h"
#include "expr/functions/datetime.h"

namespace tarn::expr {
namespace {

using ast::Op;

const char* OpWord(Op op) {
  switch (op) {
    case Op::kAdd: return "addition";
    case Op::kSubtract: return "subtraction";
    case Op::kMultiply: return "multiplication";
    case Op::kIntDivide: case Op::kDivide: return "division";
    case Op::kModulo: return "modulo";
    default: return "operation";
  }
}

std::string Int128Text(__int128 v) { return ValueToText(Value::Int128(DataType(TypeId::kInt128), v)); }

double ApplyDouble(Op op, double a, double b) {
  switch (op) {
    case Op::kAdd: return a + b;
    case Op::kSubtract: return a - b;
    case Op::kMultiply: return a * b;
    case Op::kDivide: case Op::kIntDivide: return a / b;
    case Op::kModulo: return std::fmod(a, b);
    case Op::kPower: return std::pow(a, b);
    default: return NAN;
  }
}

}  // namespace

Status OverflowError(Op op, TypeId type, __int128 left, __int128 right) {
  return Status::InvalidArgument("Out of Range Error: Overflow in ", OpWord(op), " of ",
                                 PhysicalName(type), " (", Int128Text(left), " ",
                                 ast::OpName(op), " ", Int128Text(right), ")!");
}

// UHUGEINT arithmetic in unsigned 128-bit arithmetic, so values past 2^127 - 1 work. A negative
// operand of another type can only be added or subtracted.
Result<Value> UnsignedArithmetic(Op op, const Value& left, const Value& right,
                                 const DataType& result_type) {
  using U = unsigned __int128;
  auto magnitude = [](const Value& v, bool* negative) {
    __int128 x = AsInt128(v);
    *negative = !IsBeyondInt128(v) && x < 0;
    return *negative ? static_cast<U>(0) - static_cast<U>(x) : static_cast<U>(x);
  };
  bool a_negative = false, b_negative = false;
  U a = magnitude(left, &a_negative), b = magnitude(right, &b_negative), r = 0;
  bool overflow = a_negative;  // a negative left operand of a UHUGEINT result never fits
  switch (op) {
    case Op::kAdd:
      overflow = overflow || (b_negative ? __builtin_sub_overflow(a, b, &r)
                                         : __builtin_add_overflow(a, b, &r));
      break;
    case Op::kSubtract:
      overflow = overflow || (b_negative ? __builtin_add_overflow(a, b, &r)
                                         : __builtin_sub_overflow(a, b, &r));
      break;
    case Op::kMultiply:
      overflow = overflow || (b_negative && a != 0 && b != 0) || __builtin_mul_overflow(a, b, &r);
      break;
    case Op::kIntDivide:
    case Op::kModulo:
      if (b == 0) return Value::Null(result_type);
      overflow = overflow || b_negative;
      r = op == Op::kIntDivide ? a / b : a % b;
      break;
    default: return Status::Internal("bad integer operator");
  }
  if (overflow) {
    return Status::InvalidArgument("Out of Range Error: Overflow in ", OpWord(op), " of ",
                                   PhysicalName(result_type.id), " (", ValueToText(left), " ",
                                   ast::OpName(op), " ", ValueToText(right), ")!");
  }
  return Value::Int128(result_type, static_cast<__int128>(r));
}

Result<Value> ArithmeticValues(Op op, const Value& left, const Value& right,
                               const DataType& result_type) {
  const DataType& lt = left.type();
  const DataType& rt = right.type();
  if (result_type.IsFloating()) {
    if (op == Op::kIntDivide && AsDouble(right) == 0) return Value::Null(result_type);
    double v = ApplyDouble(op, AsDouble(left), AsDouble(right));
    if (result_type.id == TypeId::kFloat32) v = static_cast<float>(v);
    return Value::Double(result_type, v);
  }
  if (result_type.id == TypeId::kUInt128 && lt.IsInteger() && rt.IsInteger()) {
    return UnsignedArithmetic(op, left, right, result_type);
  }
  if (result_type.IsInteger() && lt.IsInteger() && rt.IsInteger()) {
    __int128 a = AsInt128(left), b = AsInt128(right), r = 0;
    bool overflow = false;
    switch (op) {
      case Op::kAdd: overflow = __builtin_add_overflow(a, b, &r); break;
      case Op::kSubtract: overflow = __builtin_sub_overflow(a, b, &r); break;
      case Op::kMultiply: overflow = __builtin_mul_overflow(a, b, &r); break;
      case Op::kIntDivide:
      case Op::kModulo: {
        if (b == 0) return Value::Null(result_type);
        __int128 lo, hi;
        IntegerRange(result_type.id, &lo, &hi);
        if (b == -1 && a == lo && lo != 0) {
          if (op == Op::kModulo) return MakeInteger(result_type, 0);
          return OverflowError(op, result_type.id, a, b);
        }
        r = op == Op::kIntDivide ? a / b : a % b;
        break;
      }
      default: return Status::Internal("bad integer operator");
    }
    __int128 lo, hi;
    IntegerRange(result_type.id, &lo, &hi);
    if (overflow || r < lo || r > hi) return OverflowError(op, result_type.id, a, b);
    return MakeInteger(result_type, r);
  }
  if (result_type.id == TypeId::kDecimal) {
    __int128 a = AsInt128(left), b = AsInt128(right), r = 0;
    bool overflow = false;
    switch (op) {
      case Op::kAdd: overflow = __builtin_add_overflow(a, b, &r); break;
      case Op::kSubtract: overflow = __builtin_sub_overflow(a, b, &r); break;
      case Op::kMultiply: overflow = __builtin_mul_overflow(a, b, &r); break;
      case Op::kModulo:
        if (b == 0) return Value::Null(result_type);
        r = a % b;
        break;
      default: return Status::Internal("bad decimal operator");
    }
    __int128 limit = PowerOfTen(result_type.precision);
    if (overflow || r >= limit || r <= -limit) {
      // DuckDB's words: 64-bit decimals suggest a wider type, 38 digits a smaller scale (for
      // products; sums end plainly).
      const bool wide = result_type.precision > 18;
      const char* advice = !wide ? ". You might want to add an explicit cast to a bigger decimal."
                           : op == Op::kMultiply
                               ? ". You might want to add an explicit cast to a decimal with a "
                                 "smaller scale."
                               : ";";
      return Status::InvalidArgument(
          "Out of Range Error: Overflow in ", op == Op::kSubtract ? "subtract" : OpWord(op),
          " of DECIMAL(", int(result_type.precision), ") (", ValueToText(left), " ",
          ast::OpName(op), " ", ValueToText(right), ")", advice);
    }
    return Value::Int128(result_type, r);
  }
  // Calendar arithmetic.
  if (lt.id == TypeId::kDate && rt.IsInteger()) {
    int64_t delta = static_cast<int64_t>(AsInt128(right));
    int64_t days = left.GetInt64() + (op == Op::kAdd ? delta : -delta);
    if (days > INT32_MAX || days < INT32_MIN) {
      return Status::InvalidArgument("Out of Range Error: Date out of range");
    }
    return Value::Int(result_type, days);
  }
  if (lt.id == TypeId::kDate && rt.id == TypeId::kDate) {
    return Value::Int64(left.GetInt64() - right.GetInt64());
  }
  if (lt.id == TypeId::kTime && rt.id == TypeId::kInterval) {
    // Only the interval's time part counts; the result wraps around midnight (DuckDB).
    int64_t delta = right.GetInterval().nanos / 1000 % kMicrosPerDay;
    if (op == Op::kSubtract) delta = -delta;
    int64_t micros = (left.GetInt64() % kMicrosPerDay + delta) % kMicrosPerDay;
    if (micros < 0) micros += kMicrosPerDay;
    return Value::Int(result_type, micros);
  }
  if (rt.id == TypeId::kInterval && lt.id != TypeId::kInterval) {
    Interval interval = right.GetInterval();
    if (op == Op::kSubtract) {
      interval.months = -interval.months;
      interval.days = -interval.days;
      interval.nanos = -interval.nanos;
    }
    return Value::Int(result_type, AddInterval(left.GetInt64(), interval));
  }
  if (lt.id == TypeId::kInterval && rt.id == TypeId::kInterval) {
    Interval a = left.GetInterval(), b = right.GetInterval();
    int sign = op == Op::kAdd ? 1 : -1;
    return Value::MakeInterval(
        Interval{a.months + sign * b.months, a.days + sign * b.days, a.nanos + sign * b.nanos});
  }
  if (result_type.id == TypeId::kInterval) {  // timestamp - timestamp
    int64_t micros = left.GetInt64() - right.GetInt64();
    int64_t days = micros / kMicrosPerDay;
    return Value::MakeInterval(Interval{0, static_cast<int32_t>(days),
                                        (micros - days * kMicrosPerDay) * 1000});
  }
  return Status::NotSupported("arithmetic ", ast::OpName(op), " on ", lt.ToString(), " and ",
                              rt.ToString());
}

Result<Value> NegateValue(const Value& v) {
  const DataType& type = v.type();
  if (type.IsFloating()) return Value::Double(type, -v.GetDouble());
  if (type.id == TypeId::kInterval) {
    Interval i = v.GetInterval();
    return Value::MakeInterval(Interval{-i.months, -i.days, -i.nanos});
  }
  __int128 x = AsInt128(v);
  if (type.id == TypeId::kDecimal) return Value::Int128(type, -x);
  __int128 lo, hi;
  IntegerRange(type.id, &lo, &hi);
  if (IsBeyondInt128(v) || -x < lo || -x > hi) {
    return Status::InvalidArgument("Out of Range Error: Overflow in negation of ",
                                   PhysicalName(type.id), " (", ValueToText(v), ")!");
  }
  return MakeInteger(type, -x);
}

}  // namespace tarn::expr
