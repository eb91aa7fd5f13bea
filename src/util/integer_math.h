// Integer division rounding toward negative infinity, as calendars need it (day -1 is
// 1969-12-31, not 1970-01-01).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

namespace tarn {

// a / b rounded down. REQUIRES: b != 0.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The remainder matching FloorDiv: the sign of b.
inline int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

}  // namespace tarn
