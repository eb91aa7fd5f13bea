// Conversions between values of different types, DuckDB's implicit-cast rules, and the total
// order of values that comparisons, sorting and pruning share.
//
// Order: NULLs aside, values of one type compare by value; strings and blobs byte-wise;
// floating point puts NaN (either sign) above +inf and equal to itself, and -0.0 equal to 0.0.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "tarn/columnar.h"
#include "tarn/type.h"

namespace tarn::expr {

// DuckDB's physical spelling used in its overflow messages: "INT32", "UINT8", "INT128".
const char* PhysicalName(TypeId id);
// Range of an integer type (kInt8..kUInt64, kInt128; kUInt128 is clamped to int128).
void IntegerRange(TypeId id, __int128* min, __int128* max);
// The decimal an integer type widens to: INTEGER → DECIMAL(10,0).
DataType DecimalForInteger(TypeId id);
__int128 PowerOfTen(int exponent);  // REQUIRES: 0 <= exponent <= 38

// Numeric value as int128 / double (integers, decimals unscaled, booleans).
__int128 AsInt128(const Value& v);
double AsDouble(const Value& v);  // decimals are scaled
// A UHUGEINT value past 2^127 - 1: AsInt128 sees it as negative.
bool IsBeyondInt128(const Value& v);
// Builds an integer-typed value (signed, unsigned or 128-bit storage as the type needs).
Value MakeInteger(const DataType& type, __int128 v);

// Total order of two non-NULL values of the same type: <0, 0, >0.
int CompareValues(const Value& a, const Value& b);
inline bool FloatEqual(double a, double b) { return a == b || (a != a && b != b); }
inline bool FloatLess(double a, double b) { return b != b ? a == a : a < b; }

// CAST(v AS to). With try_cast, a failed conversion gives NULL instead of an error.
Result<Value> CastValue(const Value& v, const DataType& to, bool try_cast = false);
// DuckDB's VARCHAR rendering of a value (what CAST(v AS VARCHAR) gives).
std::string ValueToText(const Value& v);
// Shortest round-trip text, DuckDB style: "1.0", "0.1", "1e+20", "1e-05", "nan", "-inf".
std::string FormatDouble(double v, bool single_precision);

// The type two operands of a comparison, IN list, CASE or COALESCE are cast to, by DuckDB's
// implicit-cast rules for non-literal operands; nullopt when none exists.
std::optional<DataType> MaxType(const DataType& a, const DataType& b);
// Whether a value of `from` converts implicitly to `to` (for function arguments).
bool ImplicitlyCastable(const DataType& from, const DataType& to);

}  // namespace tarn::expr
