// The proleptic Gregorian calendar on day counts since 1970-01-01, for every module that turns
// days into dates or back (date functions, DATE text, partition values, catalog values).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

namespace tarn {

// Days since 1970-01-01 of a proleptic Gregorian date (any year; no validation).
int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day);
// The calendar date of any day count, by 64-bit divisions (CivilFromDays' path for days
// outside about years -32,800 .. 2,900,000).
void CivilFromDaysWide(int64_t days, int64_t* year, int64_t* month, int64_t* day);

// The calendar date of a day count. Days in [-12,699,422, 1,000,000,000) by 32-bit Euclidean
// affine arithmetic (Neri and Schneider, "Euclidean affine functions and their application to
// calendar algorithms", 2022): multiplications and shifts, no division by a variable.
inline void CivilFromDays(int64_t days, int64_t* year, int64_t* month, int64_t* day) {
  constexpr int64_t kShift = 82;  // 400-year cycles that make every supported day positive
  constexpr int64_t kOffset = 719468 + 146097 * kShift;
  if (days < -kOffset || days >= 1000000000) {
    CivilFromDaysWide(days, year, month, day);
    return;
  }
  const uint32_t n = static_cast<uint32_t>(days + kOffset);
  const uint32_t n1 = 4 * n + 3;
  const uint32_t century = n1 / 146097;
  const uint32_t n_century = n1 % 146097 / 4;
  const uint32_t n2 = 4 * n_century + 3;
  const uint64_t p2 = uint64_t{2939745} * n2;
  const uint32_t year_of_century = static_cast<uint32_t>(p2 >> 32);
  const uint32_t day_of_year = static_cast<uint32_t>(p2) / 2939745 / 4;
  const uint32_t n3 = 2141 * day_of_year + 197913;
  const uint32_t m = n3 >> 16;
  const uint32_t d = (n3 & 0xFFFF) / 2141;
  const uint32_t january_or_february = day_of_year >= 306;
  *year = static_cast<int64_t>(100 * century + year_of_century) - 400 * kShift +
          january_or_february;
  *month = january_or_february ? m - 12 : m;
  *day = d + 1;
}

}  // namespace tarn
