#include "util/byte_size.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace tarn {

Result<int64_t> ParseByteSize(std::string_view text) {
  constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if ((!lower.empty() && lower[0] == '-') || lower == "null" || lower == "none") return kUnlimited;
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  size_t pos = 0;
  while (pos < lower.size() && is_space(lower[pos])) ++pos;
  const size_t number_start = pos;
  while (pos < lower.size() && (std::isdigit(static_cast<unsigned char>(lower[pos])) ||
                                lower[pos] == '.' || lower[pos] == 'e' || lower[pos] == '-')) {
    ++pos;
  }
  if (pos == number_start) {
    return Status::InvalidArgument("Parser Error: Memory must have a number (e.g. 1GB)");
  }
  const std::string number = lower.substr(number_start, pos - number_start);
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(value)) {
    return Status::InvalidArgument("Parser Error: Invalid memory limit: '",
                                   std::string(text.substr(number_start, number.size())), "'");
  }
  while (pos < lower.size() && is_space(lower[pos])) ++pos;
  const size_t unit_start = pos;
  while (pos < lower.size() && !is_space(lower[pos])) ++pos;
  if (value < 0) return kUnlimited;
  const std::string unit = lower.substr(unit_start, pos - unit_start);
  struct Unit {
    const char* name;
    double bytes;
  };
  static const Unit kUnits[] = {
      {"byte", 1},        {"bytes", 1},      {"b", 1},
      {"kilobyte", 1e3},  {"kilobytes", 1e3}, {"kb", 1e3},        {"k", 1e3},
      {"megabyte", 1e6},  {"megabytes", 1e6}, {"mb", 1e6},        {"m", 1e6},
      {"gigabyte", 1e9},  {"gigabytes", 1e9}, {"gb", 1e9},        {"g", 1e9},
      {"terabyte", 1e12}, {"terabytes", 1e12}, {"tb", 1e12},      {"t", 1e12},
      {"kib", 1024.0},    {"mib", 1048576.0}, {"gib", 1073741824.0},
      {"tib", 1099511627776.0}};
  for (const Unit& candidate : kUnits) {
    if (unit != candidate.name) continue;
    const double bytes = value * candidate.bytes;
    if (bytes >= 9.2e18) return kUnlimited;
    return static_cast<int64_t>(bytes);
  }
  return Status::InvalidArgument(
      "Parser Error: Unknown unit for memory: '", unit,
      "' (expected: KB, MB, GB, TB for 1000^i units or KiB, MiB, GiB, TiB for 1024^i units)");
}

}  // namespace tarn
