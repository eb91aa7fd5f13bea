// Vectorized casts (kernels.h ConversionCastKernel): a typed loop per pair of physical types,
// appending text without a Value per row, parsing text from views. Every row the loop cannot
// convert plainly (out of range, malformed, infinite, unusual spellings) is converted alone by
// CastValue, so results, error messages and TRY_CAST's NULLs are exactly the row-wise ones.
#include <charconv>
#include <cmath>
#include <cstring>

#include "expr/eval/cast.h"
#include "expr/eval/cast_internal.h"
#include "expr/eval/kernels.h"
#include "expr/functions/datetime.h"
#include "expr/functions/json_functions.h"
#include "format/scalar_text.h"
#include "util/integer_math.h"

namespace tarn::expr {
namespace {

constexpr int32_t kDateInfinity = std::numeric_limits<int32_t>::max();
constexpr int64_t kTimestampInfinity = std::numeric_limits<int64_t>::max();

bool IsTimestampType(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampS || id == TypeId::kTimestampMs ||
         id == TypeId::kTimestampNs || id == TypeId::kTimestampTz;
}

int64_t UnitsPerSecond(TypeId id) {
  switch (id) {
    case TypeId::kTimestampS: return 1;
    case TypeId::kTimestampMs: return 1000;
    case TypeId::kTimestampNs: return 1000000000;
    default: return 1000000;
  }
}

// Calls f(T{}) with the C++ type holding values of an integer type of at most 64 bits.
template <typename F>
void VisitIntegerStorage(const DataType& type, F&& f) {
  switch (type.id) {
    case TypeId::kInt8: f(int8_t{}); break;
    case TypeId::kInt16: f(int16_t{}); break;
    case TypeId::kInt32: f(int32_t{}); break;
    case TypeId::kInt64: f(int64_t{}); break;
    case TypeId::kUInt8: f(uint8_t{}); break;
    case TypeId::kUInt16: f(uint16_t{}); break;
    case TypeId::kUInt32: f(uint32_t{}); break;
    case TypeId::kUInt64: f(uint64_t{}); break;
    default: break;
  }
}

// The fixed-width storage of a value of the column's type, as a Value of that type holds it.
template <typename Out>
Out StoredValue(const Value& v) {
  const auto& s = v.storage();
  if constexpr (std::is_floating_point_v<Out>) {
    return static_cast<Out>(std::get<double>(s));
  } else {
    if (auto* i = std::get_if<int64_t>(&s)) return static_cast<Out>(*i);
    if (auto* u = std::get_if<uint64_t>(&s)) return static_cast<Out>(*u);
    if (auto* h = std::get_if<__int128>(&s)) return static_cast<Out>(*h);
    return Out{};
  }
}

// The loop shared by every cast to a fixed-width type: out[i] = fast(i) when it converts the
// row (returns true), else CastValue of that row alone.
template <typename Out, typename Fast>
Result<Vec> FixedCast(const Vec& operand, const DataType& to, bool try_cast, int64_t rows,
                      Fast&& fast) {
  const Column& in = *operand.column;
  const int64_t n = operand.constant ? 1 : rows;
  auto values = Buffer::AllocateUninitialized(n * static_cast<int64_t>(sizeof(Out)));
  Out* out = values->mutable_data_as<Out>();
  std::shared_ptr<Buffer> validity = in.validity;
  int64_t null_count = in.null_count;
  bool own_validity = false;
  int64_t i = 0;
  if (in.null_count == 0) {
    // Blocks of rows without a branch per row; a block where some row does not convert is
    // done again by the loop below, from its first row.
    constexpr int64_t kBlock = 256;
    for (; i + kBlock <= n; i += kBlock) {
      bool converted = true;
      for (int64_t j = i; j < i + kBlock; ++j) converted &= fast(j, &out[j]);
      if (!converted) break;
    }
  }
  for (; i < n; ++i) {
    if (!in.IsValid(i)) {
      out[i] = Out{};
      continue;
    }
    if (fast(i, &out[i])) continue;
    TARN_ASSIGN_OR_RETURN(Value v, CastValue(in.GetValue(i), to, try_cast));
    if (!v.is_null()) {
      out[i] = StoredValue<Out>(v);
      continue;
    }
    out[i] = Out{};  // TRY_CAST of a row that does not convert
    if (!own_validity) {
      auto copy = Buffer::Allocate((n + 7) / 8);
      if (validity) {
        std::memcpy(copy->mutable_data(), validity->data(), static_cast<size_t>((n + 7) / 8));
      } else {
        std::memset(copy->mutable_data(), 0xFF, static_cast<size_t>((n + 7) / 8));
      }
      validity = std::move(copy);
      own_validity = true;
    }
    ClearBit(validity->mutable_data(), i);
    ++null_count;
  }
  return Vec{MakeColumn(to, n, values, validity, null_count), operand.constant};
}

// Every cast to VARCHAR: append(i, &text) writes row i's text.
template <typename Append>
Vec TextCast(const Vec& operand, const DataType& to, int64_t rows, size_t bytes_per_row,
             Append&& append) {
  const Column& in = *operand.column;
  const int64_t n = operand.constant ? 1 : rows;
  StringColumnWriter writer(n, static_cast<size_t>(n) * bytes_per_row);
  std::string* text = writer.text();
  for (int64_t i = 0; i < n; ++i) {
    if (in.IsValid(i)) append(i, text);
    writer.EndRow();
  }
  return Vec{writer.Finish(to, in.validity, in.null_count), operand.constant};
}

template <typename T>
void AppendInteger(T v, std::string* out) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  out->append(buffer, result.ptr);
}

Result<Vec> ToText(const Vec& operand, const DataType& to, int64_t rows) {
  const Column& in = *operand.column;
  const DataType& from = in.type;
  switch (from.id) {
    case TypeId::kBoolean:
      return TextCast(operand, to, rows, 5, [&](int64_t i, std::string* out) {
        out->append(in.GetBool(i) ? "true" : "false");
      });
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64: {
      Vec result;
      WithTypedValues(in, PhysOf(from), [&](const auto* values) {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
        if constexpr (std::is_integral_v<T>) {
          result = TextCast(operand, to, rows, 8,
                            [&](int64_t i, std::string* out) { AppendInteger(values[i], out); });
        }
      });
      return result;
    }
    case TypeId::kInt128: {
      const __int128* values = in.values_as<__int128>();
      return TextCast(operand, to, rows, 12, [&](int64_t i, std::string* out) {
        format::AppendInt128(values[i], out);
      });
    }
    case TypeId::kDecimal: {
      const __int128* values = in.values_as<__int128>();
      return TextCast(operand, to, rows, 12, [&](int64_t i, std::string* out) {
        format::AppendDecimal(values[i], from.precision, from.scale, out);
      });
    }
    case TypeId::kFloat32: {
      const float* values = in.values_as<float>();
      return TextCast(operand, to, rows, 12, [&](int64_t i, std::string* out) {
        AppendDoubleText(values[i], /*single_precision=*/true, out);
      });
    }
    case TypeId::kFloat64: {
      const double* values = in.values_as<double>();
      return TextCast(operand, to, rows, 16, [&](int64_t i, std::string* out) {
        AppendDoubleText(values[i], /*single_precision=*/false, out);
      });
    }
    case TypeId::kDate: {
      const int32_t* values = in.values_as<int32_t>();
      return TextCast(operand, to, rows, 10, [&](int64_t i, std::string* out) {
        format::AppendDate(values[i], out);
      });
    }
    default:
      break;
  }
  if (IsTimestampType(from.id)) {
    const int64_t* values = in.values_as<int64_t>();
    const int64_t units = UnitsPerSecond(from.id);
    const bool utc = from.id == TypeId::kTimestampTz;
    return TextCast(operand, to, rows, 26, [&](int64_t i, std::string* out) {
      format::AppendTimestamp(values[i], units, utc, out);
    });
  }
  return Vec{};
}

// "[-]digits" of at most 18 digits, nothing else: the text of most integers.
bool ParsePlainInteger(std::string_view s, int64_t* out) {
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  if (s.empty() || s.size() > 18) return false;
  int64_t v = 0;
  for (char c : s) {
    const unsigned digit = static_cast<unsigned>(c - '0');
    if (digit > 9) return false;
    v = v * 10 + digit;
  }
  *out = negative ? -v : v;
  return true;
}

// Text without spaces, signs other than a leading '-', or letters other than an exponent's:
// what std::from_chars reads exactly as the row-wise path does.
bool IsPlainNumberText(std::string_view s) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' ||
          ((c == '-' || c == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E')))) {
      return false;
    }
  }
  return true;
}

Result<Vec> FromText(const Vec& operand, const DataType& to, bool try_cast, int64_t rows) {
  const Column& in = *operand.column;
  if (to.IsInteger() && to.id != TypeId::kInt128 && to.id != TypeId::kUInt128) {
    __int128 lo, hi;
    IntegerRange(to.id, &lo, &hi);
    Result<Vec> result = Vec{};
    VisitIntegerStorage(to, [&](auto tag) {
      using T = decltype(tag);
      result = FixedCast<T>(operand, to, try_cast, rows, [&](int64_t i, T* out) {
        int64_t v = 0;
        if (!ParsePlainInteger(in.GetView(i), &v) || v < lo || v > hi) return false;
        *out = static_cast<T>(v);
        return true;
      });
    });
    return result;
  }
  switch (to.id) {
    case TypeId::kFloat64:
      return FixedCast<double>(operand, to, try_cast, rows, [&](int64_t i, double* out) {
        const std::string_view s = in.GetView(i);
        if (!IsPlainNumberText(s)) return false;
        const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
        return ec == std::errc() && ptr == s.data() + s.size();
      });
    case TypeId::kDecimal: {
      const __int128 limit = PowerOfTen(to.precision);
      return FixedCast<__int128>(operand, to, try_cast, rows, [&](int64_t i, __int128* out) {
        return ParseDecimalText(in.GetView(i), to.scale, out) && *out < limit && *out > -limit;
      });
    }
    case TypeId::kDate:
      return FixedCast<int32_t>(operand, to, try_cast, rows, [&](int64_t i, int32_t* out) {
        const std::string_view s = in.GetView(i);
        if (s.empty() || s[0] < '0' || s[0] > '9') return false;  // signs, words, spaces
        const std::optional<int32_t> days = ParseDate(s);
        if (!days || *days == kDateInfinity || *days == -kDateInfinity) return false;
        *out = *days;
        return true;
      });
    case TypeId::kTimestamp:
      return FixedCast<int64_t>(operand, to, try_cast, rows, [&](int64_t i, int64_t* out) {
        const std::string_view s = in.GetView(i);
        if (s.empty() || s[0] < '0' || s[0] > '9') return false;
        const std::optional<int64_t> micros = ParseTimestampMicros(s);
        if (!micros || *micros == kTimestampInfinity || *micros == -kTimestampInfinity) {
          return false;
        }
        *out = *micros;
        return true;
      });
    default:
      return Vec{};
  }
}

// Casts between integers, decimals and floats, and between dates and timestamps.
Result<Vec> Numeric(const Vec& operand, const DataType& to, bool try_cast, int64_t rows) {
  const Column& in = *operand.column;
  const DataType& from = in.type;
  const Phys pf = PhysOf(from);
  const bool from_integer = from.IsInteger() && pf != Phys::kI128 && pf != Phys::kOther;
  const bool to_integer = to.IsInteger() && to.id != TypeId::kInt128 && to.id != TypeId::kUInt128;
  Result<Vec> result = Vec{};
  if (from_integer && (to_integer || to.id == TypeId::kDecimal)) {
    // Integer to a narrower, or differently signed, integer; integer to DECIMAL.
    if (to.id == TypeId::kDecimal) {
      if (to.scale > 18) return Vec{};
      const __int128 scale = PowerOfTen(to.scale);
      const __int128 limit = PowerOfTen(to.precision);
      WithTypedValues(in, pf, [&](const auto* values) {
        using F = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
        // Values that fit 64 bits: the product and its bound in 64 bits.
        if constexpr (std::is_integral_v<F> && (sizeof(F) <= 4 || std::is_signed_v<F>)) {
          if (to.precision <= 18) {
            const int64_t scale64 = static_cast<int64_t>(scale);
            const int64_t limit64 = static_cast<int64_t>(limit);
            result = FixedCast<__int128>(operand, to, try_cast, rows, [&](int64_t i, __int128* out) {
              int64_t v;
              const bool overflow = __builtin_mul_overflow(static_cast<int64_t>(values[i]), scale64, &v);
              *out = v;
              return !overflow && v < limit64 && v > -limit64;
            });
            return;
          }
        }
        if constexpr (std::is_integral_v<F>) {
          result = FixedCast<__int128>(operand, to, try_cast, rows, [&](int64_t i, __int128* out) {
            const __int128 v = static_cast<__int128>(values[i]) * scale;
            *out = v;
            return v < limit && v > -limit;
          });
        }
      });
      return result;
    }
    __int128 lo, hi;
    IntegerRange(to.id, &lo, &hi);
    WithTypedValues(in, pf, [&](const auto* values) {
      using F = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
      if constexpr (std::is_integral_v<F>) {
        VisitIntegerStorage(to, [&](auto tag) {
          using T = decltype(tag);
          result = FixedCast<T>(operand, to, try_cast, rows, [&](int64_t i, T* out) {
            const __int128 v = values[i];
            *out = static_cast<T>(v);
            return v >= lo && v <= hi;
          });
        });
      }
    });
    return result;
  }
  if (from.id == TypeId::kDecimal) {
    const __int128* values = in.values_as<__int128>();
    if (to.id == TypeId::kFloat64) {
      const long double divisor = static_cast<long double>(PowerOfTen(from.scale));
      return FixedCast<double>(operand, to, try_cast, rows, [&](int64_t i, double* out) {
        *out = static_cast<double>(static_cast<long double>(values[i]) / divisor);
        return true;
      });
    }
    if (to.id == TypeId::kDecimal) {
      const int up = to.scale - from.scale;
      const __int128 limit = PowerOfTen(to.precision);
      if (up >= 0) {
        const __int128 factor = PowerOfTen(up);
        const __int128 before = PowerOfTen(38 - up);
        return FixedCast<__int128>(operand, to, try_cast, rows, [&](int64_t i, __int128* out) {
          if (values[i] >= before || values[i] <= -before) return false;
          *out = values[i] * factor;
          return *out < limit && *out > -limit;
        });
      }
      return FixedCast<__int128>(operand, to, try_cast, rows, [&](int64_t i, __int128* out) {
        *out = RoundDivide(values[i], -up);
        return *out < limit && *out > -limit;
      });
    }
    if (to_integer) {
      __int128 lo, hi;
      IntegerRange(to.id, &lo, &hi);
      VisitIntegerStorage(to, [&](auto tag) {
        using T = decltype(tag);
        result = FixedCast<T>(operand, to, try_cast, rows, [&](int64_t i, T* out) {
          const __int128 v = RoundDivide(values[i], from.scale);
          *out = static_cast<T>(v);
          return v >= lo && v <= hi;
        });
      });
      return result;
    }
    return Vec{};
  }
  if (from.IsFloating() && to_integer) {
    __int128 lo, hi;
    IntegerRange(to.id, &lo, &hi);
    const double low = static_cast<double>(lo);
    const double high = static_cast<double>(hi) + 1.0;
    WithTypedValues(in, pf, [&](const auto* values) {
      using F = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
      if constexpr (std::is_floating_point_v<F>) {
        VisitIntegerStorage(to, [&](auto tag) {
          using T = decltype(tag);
          result = FixedCast<T>(operand, to, try_cast, rows, [&](int64_t i, T* out) {
            const double rounded = std::nearbyint(static_cast<double>(values[i]));
            if (!(rounded >= low && rounded < high)) return false;  // NaN too
            *out = static_cast<T>(rounded);
            return true;
          });
        });
      }
    });
    return result;
  }
  if (from.id == TypeId::kDate && to.id == TypeId::kTimestamp) {
    const int32_t* values = in.values_as<int32_t>();
    return FixedCast<int64_t>(operand, to, try_cast, rows, [&](int64_t i, int64_t* out) {
      // Infinite dates and dates past the timestamp range go row-wise.
      if (values[i] <= kMinTimestampDays || values[i] >= -kMinTimestampDays) return false;
      *out = static_cast<int64_t>(values[i]) * kMicrosPerDay;
      return true;
    });
  }
  if (from.id == TypeId::kTimestamp && to.id == TypeId::kDate) {
    const int64_t* values = in.values_as<int64_t>();
    return FixedCast<int32_t>(operand, to, try_cast, rows, [&](int64_t i, int32_t* out) {
      const int64_t micros = values[i];
      if (micros == kTimestampInfinity || micros == -kTimestampInfinity) return false;
      *out = static_cast<int32_t>(FloorDiv(micros, kMicrosPerDay));
      return true;
    });
  }
  return Vec{};
}

// VARCHAR -> JSON (each row validated) and JSON -> VARCHAR: the same bytes under the other
// type, buffers shared.
Result<Vec> Retag(const Vec& operand, const DataType& to, bool validate) {
  const Column& in = *operand.column;
  if (validate) {
    for (int64_t i = 0; i < in.length; ++i) {
      if (in.IsValid(i)) TARN_RETURN_NOT_OK(ValidateJsonText(in.GetView(i)));
    }
  }
  auto out = std::make_shared<Column>(in);
  out->type = to;
  out->dictionary = nullptr;  // its entries carry the old type
  return Vec{std::move(out), operand.constant};
}

}  // namespace

Result<Vec> ConversionCastKernel(const BoundNode& node, const Vec& operand, int64_t rows) {
  const DataType& from = operand.column->type;
  const DataType& to = node.type;
  if (from == to) return operand;
  if (from.id == TypeId::kJson && to.id == TypeId::kVarchar) return Retag(operand, to, false);
  if (from.id == TypeId::kVarchar && to.id == TypeId::kJson && !node.try_cast) {
    return Retag(operand, to, true);
  }
  // Other JSON casts read or write JSON row by row (CastValue).
  if (to.id == TypeId::kJson || from.id == TypeId::kJson) return Vec{};
  if (to.id == TypeId::kVarchar) return ToText(operand, to, rows);
  if (from.id == TypeId::kVarchar) return FromText(operand, to, node.try_cast, rows);
  return Numeric(operand, to, node.try_cast, rows);
}

}  // namespace tarn::expr
