// SQL LIKE / ILIKE matching: % matches any run of characters, _ exactly one code point, and an
// optional escape character makes the next pattern character literal. ILIKE lowercases both
// sides with Unicode case mapping (case_mapping.h).
//
// Thread-safety: a LikeMatcher is immutable after Compile.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::expr {

class LikeMatcher {
 public:
  // `escape` is empty or one character; otherwise an error, as in DuckDB.
  static Result<LikeMatcher> Compile(std::string_view pattern, std::string_view escape,
                                     bool case_insensitive);
  bool Matches(std::string_view text) const;

  // Sets bit i of `out` (zeroed by the caller, `rows` bits) for each of the `rows` strings
  // (string i is data[offsets[i], offsets[i + 1])) that matches. Patterns of literals between
  // `%`s search their first literal once over the strings' bytes, hits mapped back to rows;
  // prefixes, suffixes and exact texts are compared in place; others row by row.
  void MatchRows(const int64_t* offsets, const char* data, int64_t rows, uint8_t* out) const;

 private:
  struct Piece {
    enum Kind : uint8_t { kLiteral, kAnyOne, kAnyRun } kind;
    std::string literal;
  };
  std::vector<Piece> pieces_;
  bool case_insensitive_ = false;
  bool MatchFrom(size_t piece, std::string_view text) const;
};

}  // namespace tarn::expr
