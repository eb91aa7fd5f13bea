// The calendar arithmetic under every date function: CivilFromDays' 32-bit fast path against
// the 64-bit one over every day near the edges of the fast range and across the years people
// use, a stride through the rest, and round trips through DaysFromCivil.
#include <gtest/gtest.h>

#include <cstdint>

#include "expr/functions/datetime.h"

namespace tarn::expr {
namespace {

void ExpectSameDate(int64_t days) {
  int64_t y1, m1, d1, y2, m2, d2;
  CivilFromDays(days, &y1, &m1, &d1);
  CivilFromDaysWide(days, &y2, &m2, &d2);
  ASSERT_TRUE(y1 == y2 && m1 == m2 && d1 == d2)
      << "day " << days << ": " << y1 << "-" << m1 << "-" << d1 << " against " << y2 << "-"
      << m2 << "-" << d2;
}

TEST(CalendarTest, FastCivilFromDaysEqualsTheWideOne) {
  constexpr int64_t kLow = -719468 - 146097 * 82;  // where the fast path begins
  constexpr int64_t kHigh = 1000000000;           // and ends
  for (int64_t edge : {kLow, kHigh, int64_t{0}}) {
    for (int64_t days = edge - 200000; days < edge + 200000; ++days) ExpectSameDate(days);
  }
  // Years 1600 .. 2800 day by day, then a stride over the whole DATE range.
  for (int64_t days = -135140; days < 303000; ++days) ExpectSameDate(days);
  for (int64_t days = kMinDateDays; days <= kMaxDateDays - 9973; days += 9973) {
    ExpectSameDate(days);
  }
  ExpectSameDate(kMinDateDays);
  ExpectSameDate(kMaxDateDays);
}

TEST(CalendarTest, DaysRoundTripThroughTheCalendar) {
  for (int64_t days = -3000000; days < 3000000; days += 7) {
    int64_t year, month, day;
    CivilFromDays(days, &year, &month, &day);
    ASSERT_EQ(DaysFromCivil(year, month, day), days);
  }
  int64_t year, month, day;
  CivilFromDays(0, &year, &month, &day);
  EXPECT_EQ(year * 10000 + month * 100 + day, 19700101);
  CivilFromDays(11016, &year, &month, &day);  // 2000-02-29
  EXPECT_EQ(year * 10000 + month * 100 + day, 20000229);
  CivilFromDays(-719528, &year, &month, &day);  // 0000-01-01 (1 BC)
  EXPECT_EQ(year * 10000 + month * 100 + day, 101);
}

}  // namespace
}  // namespace tarn::expr
