#include "layout/hyperloglog.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace tarn::layout {

HyperLogLog::HyperLogLog(int precision)
    : precision_(precision), registers_(size_t{1} << precision, 0) {
  assert(precision >= 4 && precision <= 18);
}

void HyperLogLog::Merge(const HyperLogLog& other) {
  assert(other.precision_ == precision_);
  for (size_t i = 0; i < registers_.size(); ++i) {
    registers_[i] = std::max(registers_[i], other.registers_[i]);
  }
}

int64_t HyperLogLog::Estimate() const {
  const double m = static_cast<double>(registers_.size());
  double sum = 0;
  int64_t zeros = 0;
  for (uint8_t value : registers_) {
    sum += std::ldexp(1.0, -static_cast<int>(value));
    if (value == 0) ++zeros;
  }
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double estimate = alpha * m * m / sum;
  if (estimate <= 2.5 * m && zeros > 0) {
    estimate = m * std::log(m / static_cast<double>(zeros));  // linear counting
  }
  return static_cast<int64_t>(std::llround(estimate));
}

}  // namespace tarn::layout
