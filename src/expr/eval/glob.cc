#include "expr/eval/glob.h"

namespace tarn::expr {
namespace {

// Where the bracket expression starting after `[` at pattern[pattern_at] ends (the index past
// its `]`), and in *matched whether byte `c` belongs to it; npos when it never closes. DuckDB's
// rules: `!` first inverts; a `]` first is literal; `a-b` is a range; a set ending right after
// a byte or a `-` is unclosed.
size_t MatchBracket(std::string_view pattern, size_t pattern_at, char c, bool* matched) {
  size_t at = pattern_at;
  if (at == pattern.size()) return std::string_view::npos;
  bool invert = false;
  if (pattern[at] == '!') {
    invert = true;
    ++at;
  }
  const size_t start = at;
  bool found = false;
  while (at < pattern.size()) {
    const char p = pattern[at];
    if (p == ']' && at > start) {
      *matched = found != invert;
      return at + 1;
    }
    if (at + 1 == pattern.size()) break;
    if (pattern[at + 1] == '-') {
      if (at + 2 == pattern.size()) break;
      const char high = pattern[at + 2];
      if (c >= p && c <= high) found = true;
      at += 3;
    } else {
      if (c == p) found = true;
      ++at;
    }
  }
  return std::string_view::npos;
}

bool GlobFrom(std::string_view text, std::string_view pattern) {
  size_t t = 0;
  size_t p = 0;
  while (t < text.size() && p < pattern.size()) {
    const char c = pattern[p];
    if (c == '*') {
      while (p < pattern.size() && pattern[p] == '*') ++p;
      if (p == pattern.size()) return true;
      for (; t < text.size(); ++t) {
        if (GlobFrom(text.substr(t), pattern.substr(p))) return true;
      }
      return false;
    }
    if (c == '[') {
      bool matched = false;
      const size_t next = MatchBracket(pattern, p + 1, text[t], &matched);
      if (next == std::string_view::npos || !matched) return false;
      p = next;
      ++t;
      continue;
    }
    if (c == '\\') {
      if (++p == pattern.size() || text[t] != pattern[p]) return false;
    } else if (c != '?' && text[t] != c) {
      return false;
    }
    ++t;
    ++p;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size() && t == text.size();
}

}  // namespace

bool GlobMatcher::Matches(std::string_view text) const { return GlobFrom(text, pattern_); }

void GlobMatcher::MatchRows(const int64_t* offsets, const char* data, int64_t rows,
                            uint8_t* out) const {
  for (int64_t row = 0; row < rows; ++row) {
    const std::string_view text(data + offsets[row],
                                static_cast<size_t>(offsets[row + 1] - offsets[row]));
    if (GlobFrom(text, pattern_)) out[row >> 3] |= static_cast<uint8_t>(1u << (row & 7));
  }
}

}  // namespace tarn::expr
