// Checks that a Value can be stored in a column of a given type: the storage kind matches,
// integers fit the width, decimals fit the precision, UUIDs are 16 bytes, nested values have
// the right number of children and no NULL where a field is not nullable.
//
// Thread-safety: pure functions.
#pragma once

#include "tarn/columnar.h"

namespace tarn::internal {

// Returns InvalidArgument naming the type and the value when `value` cannot be stored as
// `type`. A NULL value (of any type) is always accepted.
Status CheckValueForType(const DataType& type, const Value& value);

// 10^digits as an int128, for 0 <= digits <= 38.
__int128 PowerOfTen(int digits);

}  // namespace tarn::internal
