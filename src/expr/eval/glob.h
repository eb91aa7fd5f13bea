// SQL GLOB matching as DuckDB does it (its `~~~` operator): `*` matches any run of bytes, `?`
// exactly one byte, `[...]` one byte of a set of bytes and ranges (`[!...]` one byte outside
// it; a `]` first in the set is literal), and `\` makes the next pattern byte literal. A
// pattern ending in `\` or holding an unclosed `[` matches nothing. Matching is by bytes, not
// code points, and case-sensitive.
//
// Thread-safety: a GlobMatcher is immutable after construction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tarn::expr {

class GlobMatcher {
 public:
  explicit GlobMatcher(std::string_view pattern) : pattern_(pattern) {}

  bool Matches(std::string_view text) const;

  // Sets bit i of `out` (zeroed by the caller, `rows` bits) for each of the `rows` strings
  // (string i is data[offsets[i], offsets[i + 1])) that matches.
  void MatchRows(const int64_t* offsets, const char* data, int64_t rows, uint8_t* out) const;

 private:
  std::string pattern_;
};

}  // namespace tarn::expr
