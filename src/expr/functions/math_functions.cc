#include "expr/functions/math_functions.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "expr/eval/cast.h"

namespace tarn::expr {
namespace {

const DataType kDouble(TypeId::kFloat64);
const DataType kBigint(TypeId::kInt64);

__int128 Gcd(__int128 a, __int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const __int128 r = a % b;
    a = b;
    b = r;
  }
  return a;
}

Status OutOfRange() { return Status::InvalidArgument("Out of Range Error: Value out of range"); }

double RoundEven(double x, int64_t digits) {
  if (!std::isfinite(x)) return x;
  const double factor = std::pow(10.0, static_cast<double>(digits));
  const double scaled = x * factor;
  double rounded = std::nearbyint(scaled);  // the default rounding mode: half to even
  if (std::fabs(scaled - std::trunc(scaled)) != 0.5) rounded = std::round(scaled);
  const double result = rounded / factor;
  return std::isfinite(result) ? result : x;
}

}  // namespace

bool IsMathFunction(FunctionId id) { return id >= FunctionId::kGcd && id <= FunctionId::kLgamma; }

Status ResolveMathFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                std::vector<DataType>* cast_to, DataType* result) {
  const size_t n = arg_types.size();
  auto expect = [&](std::vector<DataType> want, DataType out) {
    return ExpectArgumentTypes(arg_types, std::move(want), std::move(out), cast_to, result);
  };
  const bool floats = n > 0 && std::all_of(arg_types.begin(), arg_types.end(), [](const DataType& t) {
                        return t.id == TypeId::kFloat32;
                      });
  switch (id) {
    case FunctionId::kGcd: case FunctionId::kLcm: {
      const bool huge = n == 2 && (arg_types[0].id == TypeId::kInt128 ||
                                   arg_types[1].id == TypeId::kInt128);
      const DataType type(huge ? TypeId::kInt128 : TypeId::kInt64);
      return expect({type, type}, type);
    }
    case FunctionId::kFactorial:
      return expect({DataType(TypeId::kInt32)}, DataType(TypeId::kInt128));
    case FunctionId::kEven: return expect({kDouble}, kDouble);
    case FunctionId::kNextAfter:
      if (floats && n == 2) return expect({arg_types[0], arg_types[1]}, arg_types[0]);
      return expect({kDouble, kDouble}, kDouble);
    case FunctionId::kSignBit:
      if (floats && n == 1) return expect({arg_types[0]}, DataType(TypeId::kBoolean));
      return expect({kDouble}, DataType(TypeId::kBoolean));
    case FunctionId::kRoundEven: return expect({kDouble, DataType(TypeId::kInt32)}, kDouble);
    case FunctionId::kFmod: return expect({kDouble, kDouble}, kDouble);
    default: return expect({kDouble}, kDouble);
  }
}

Result<Value> InvokeMathFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type) {
  switch (id) {
    case FunctionId::kGcd: return MakeInteger(result_type, Gcd(AsInt128(args[0]), AsInt128(args[1])));
    case FunctionId::kLcm: {
      const __int128 a = AsInt128(args[0]), b = AsInt128(args[1]);
      if (a == 0 || b == 0) return MakeInteger(result_type, 0);
      __int128 product = 0;
      if (__builtin_mul_overflow(a / Gcd(a, b), b, &product)) return OutOfRange();
      if (product < 0) product = -product;
      if (result_type.id == TypeId::kInt64 && (product > INT64_MAX || product < INT64_MIN)) {
        return OutOfRange();
      }
      return MakeInteger(result_type, product);
    }
    case FunctionId::kFactorial: {
      const int64_t x = static_cast<int64_t>(AsInt128(args[0]));
      if (x < 0) {
        return Status::InvalidArgument(
            "Out of Range Error: factorial of a negative number is undefined");
      }
      __int128 product = 1;
      for (int64_t i = 2; i <= x; ++i) {
        if (__builtin_mul_overflow(product, static_cast<__int128>(i), &product)) return OutOfRange();
      }
      return Value::Int128(result_type, product);
    }
    case FunctionId::kEven: {
      const double x = args[0].GetDouble();
      double value = x >= 0 ? std::ceil(x) : std::ceil(-x);
      if (std::fmod(value, 2.0) != 0) value += 1;
      return Value::Float64(x >= 0 ? value : -value);
    }
    case FunctionId::kNextAfter:
      if (result_type.id == TypeId::kFloat32) {
        return Value::Double(result_type,
                             std::nextafter(static_cast<float>(args[0].GetDouble()),
                                            static_cast<float>(args[1].GetDouble())));
      }
      return Value::Float64(std::nextafter(args[0].GetDouble(), args[1].GetDouble()));
    case FunctionId::kSignBit: return Value::Boolean(std::signbit(args[0].GetDouble()));
    case FunctionId::kRoundEven:
      return Value::Float64(RoundEven(args[0].GetDouble(), static_cast<int64_t>(AsInt128(args[1]))));
    case FunctionId::kFmod: {
      const double x = args[0].GetDouble(), y = args[1].GetDouble();
      return Value::Float64(x - y * std::floor(x / y));
    }
    case FunctionId::kSinh: return Value::Float64(std::sinh(args[0].GetDouble()));
    case FunctionId::kCosh: return Value::Float64(std::cosh(args[0].GetDouble()));
    case FunctionId::kTanh: return Value::Float64(std::tanh(args[0].GetDouble()));
    case FunctionId::kAsinh: return Value::Float64(std::asinh(args[0].GetDouble()));
    case FunctionId::kAcosh: return Value::Float64(std::acosh(args[0].GetDouble()));
    case FunctionId::kAtanh: {
      const double x = args[0].GetDouble();
      if (x < -1 || x > 1) {
        return Status::InvalidArgument("Invalid Input Error: ATANH is undefined outside [-1,1]");
      }
      return Value::Float64(std::atanh(x));
    }
    case FunctionId::kGamma: {
      const double x = args[0].GetDouble();
      if (x == 0) return Status::InvalidArgument("Out of Range Error: cannot take gamma of zero");
      return Value::Float64(std::tgamma(x));
    }
    case FunctionId::kLgamma: {
      const double x = args[0].GetDouble();
      if (x == 0) return Status::InvalidArgument("Out of Range Error: cannot take gamma of zero");
      return Value::Float64(std::lgamma(x));
    }
    default: return Status::Internal("not a math function");
  }
}

}  // namespace tarn::expr
