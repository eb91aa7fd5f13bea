#include <algorithm>

#include "tarn/parquet.h"

namespace tarn {

RowSelection RowSelection::All(int64_t num_rows) {
  RowSelection selection;
  if (num_rows > 0) selection.ranges_.emplace_back(0, num_rows);
  return selection;
}

RowSelection RowSelection::FromRanges(std::vector<std::pair<int64_t, int64_t>> ranges) {
  std::erase_if(ranges, [](const auto& range) { return range.first >= range.second; });
  std::sort(ranges.begin(), ranges.end());
  RowSelection selection;
  for (const auto& range : ranges) {
    if (!selection.ranges_.empty() && range.first <= selection.ranges_.back().second) {
      selection.ranges_.back().second = std::max(selection.ranges_.back().second, range.second);
    } else {
      selection.ranges_.push_back(range);
    }
  }
  return selection;
}

RowSelection RowSelection::FromPositions(std::span<const int64_t> sorted_positions) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const int64_t position : sorted_positions) {
    if (!ranges.empty() && ranges.back().second == position) {
      ++ranges.back().second;
    } else {
      ranges.emplace_back(position, position + 1);
    }
  }
  return FromRanges(std::move(ranges));  // also repairs unsorted or repeated input
}

int64_t RowSelection::count() const {
  int64_t total = 0;
  for (const auto& range : ranges_) total += range.second - range.first;
  return total;
}

bool RowSelection::Contains(int64_t position) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), position,
                             [](int64_t value, const auto& range) { return value < range.first; });
  if (it == ranges_.begin()) return false;
  --it;
  return position < it->second;
}

RowSelection RowSelection::Intersect(int64_t begin, int64_t end) const {
  RowSelection selection;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), begin,
                             [](int64_t value, const auto& range) { return value < range.first; });
  if (it != ranges_.begin()) --it;
  for (; it != ranges_.end() && it->first < end; ++it) {
    const int64_t lo = std::max(it->first, begin);
    const int64_t hi = std::min(it->second, end);
    if (lo < hi) selection.ranges_.emplace_back(lo - begin, hi - begin);
  }
  return selection;
}

}  // namespace tarn
