#include "expr/eval/like.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "expr/functions/case_mapping.h"

namespace tarn::expr {
namespace {

// Where `needle` (not empty) first occurs in `text` at or after `from`, or npos. Sixteen
// candidate starts at a time: those whose first and last bytes match, then the rest compared
// (W. Muła's SIMD substring search); short texts cost no call setup as memmem's does.
size_t FindLiteral(std::string_view text, std::string_view needle, size_t from) {
  const size_t k = needle.size();
  if (from > text.size() || text.size() - from < k) return std::string_view::npos;
  if (k == 0) return from;
  const char* data = text.data();
  if (k == 1) {
    const void* hit = memchr(data + from, needle[0], text.size() - from);
    return hit == nullptr ? std::string_view::npos
                          : static_cast<size_t>(static_cast<const char*>(hit) - data);
  }
  const size_t last_start = text.size() - k;  // the last position a match may start at
  size_t i = from;
#if defined(__SSE2__)
  if (k >= 2) {
    const __m128i first = _mm_set1_epi8(needle[0]);
    const __m128i last = _mm_set1_epi8(needle[k - 1]);
    for (; i + 16 <= last_start + 1; i += 16) {
      const __m128i block_first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
      const __m128i block_last =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i + k - 1));
      unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(
          _mm_and_si128(_mm_cmpeq_epi8(block_first, first), _mm_cmpeq_epi8(block_last, last))));
      while (mask != 0) {
        const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
        if (memcmp(data + at + 1, needle.data() + 1, k - 2) == 0) return at;
        mask &= mask - 1;
      }
    }
  }
#endif
  for (; i <= last_start; ++i) {
    if (data[i] == needle[0] && memcmp(data + i + 1, needle.data() + 1, k - 1) == 0) return i;
  }
  return std::string_view::npos;
}

// ILIKE compares both sides lowercased, code point by code point (DuckDB's rule).
std::string Fold(std::string_view s) { return LowerUtf8(s); }

size_t CodePointLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 1;
}

}  // namespace

Result<LikeMatcher> LikeMatcher::Compile(std::string_view pattern, std::string_view escape,
                                         bool case_insensitive) {
  if (escape.size() > 1) {
    return Status::InvalidArgument("Invalid Input Error: Invalid escape string. Escape string "
                                   "must be empty or one character.");
  }
  LikeMatcher matcher;
  matcher.case_insensitive_ = case_insensitive;
  std::string folded = case_insensitive ? Fold(pattern) : std::string(pattern);
  for (size_t i = 0; i < folded.size(); ++i) {
    char c = folded[i];
    if (!escape.empty() && c == escape[0]) {
      if (i + 1 >= folded.size()) {
        return Status::InvalidArgument(
            "Invalid Input Error: Like pattern must not end with escape character!");
      }
      c = folded[++i];
    } else if (c == '%') {
      if (matcher.pieces_.empty() || matcher.pieces_.back().kind != Piece::kAnyRun) {
        matcher.pieces_.push_back(Piece{Piece::kAnyRun, ""});
      }
      continue;
    } else if (c == '_') {
      matcher.pieces_.push_back(Piece{Piece::kAnyOne, ""});
      continue;
    }
    if (matcher.pieces_.empty() || matcher.pieces_.back().kind != Piece::kLiteral) {
      matcher.pieces_.push_back(Piece{Piece::kLiteral, ""});
    }
    matcher.pieces_.back().literal.push_back(c);
  }
  return matcher;
}

bool LikeMatcher::Matches(std::string_view text) const {
  if (case_insensitive_) {
    std::string folded = Fold(text);
    return MatchFrom(0, folded);
  }
  return MatchFrom(0, text);
}

void LikeMatcher::MatchRows(const int64_t* offsets, const char* data, int64_t rows,
                            uint8_t* out) const {
  if (rows <= 0) return;
  const auto set = [out](int64_t row) { out[row >> 3] |= static_cast<uint8_t>(1u << (row & 7)); };
  const size_t n = pieces_.size();
  const auto literal_at = [&](size_t i) {
    return i < n && pieces_[i].kind == Piece::kLiteral;
  };
  const auto any_run_at = [&](size_t i) { return i < n && pieces_[i].kind == Piece::kAnyRun; };
  bool chain = !case_insensitive_ && n >= 3 && n % 2 == 1;
  for (size_t i = 0; chain && i < n; ++i) chain = i % 2 == 0 ? any_run_at(i) : literal_at(i);
  if (chain) {
    // '%a%' or '%a%b%…': one search for the first literal over all rows' bytes; a hit counts
    // for the row it starts in when it ends there too. The row then matches when each later
    // literal occurs after the one before (the leftmost occurrence of each leaves the most room
    // for the rest), and the search resumes at the next row.
    const std::string_view first = pieces_[1].literal;
    const std::string_view all(data + offsets[0], static_cast<size_t>(offsets[rows] - offsets[0]));
    const int64_t base = offsets[0];
    int64_t row = 0;
    size_t from = 0;
    while (row < rows) {
      const size_t found = FindLiteral(all, first, from);
      if (found == std::string_view::npos) break;
      const int64_t at = base + static_cast<int64_t>(found);
      while (offsets[row + 1] <= at) ++row;  // the row the hit starts in
      const int64_t row_end = offsets[row + 1];
      if (at + static_cast<int64_t>(first.size()) > row_end) {
        from = found + 1;
        continue;
      }
      const std::string_view text(data + offsets[row], static_cast<size_t>(row_end - offsets[row]));
      size_t pos = static_cast<size_t>(at - offsets[row]) + first.size();
      bool matched = true;
      for (size_t piece = 3; piece < n && matched; piece += 2) {
        const std::string_view literal = pieces_[piece].literal;
        const size_t next = FindLiteral(text, literal, pos);
        matched = next != std::string_view::npos;
        pos = next + literal.size();
      }
      if (matched) set(row);
      ++row;
      if (row >= rows) break;
      from = static_cast<size_t>(offsets[row] - base);
    }
    return;
  }
  const auto view = [&](int64_t i) {
    return std::string_view(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  };
  if (!case_insensitive_ && (n == 1 || n == 2) && literal_at(0) && (n == 1 || any_run_at(1))) {
    const std::string_view literal = pieces_[0].literal;
    const bool exact = n == 1;
    for (int64_t i = 0; i < rows; ++i) {
      const std::string_view text = view(i);
      if (exact ? text == literal : text.starts_with(literal)) set(i);
    }
    return;
  }
  if (!case_insensitive_ && n == 2 && any_run_at(0) && literal_at(1)) {
    const std::string_view literal = pieces_[1].literal;
    for (int64_t i = 0; i < rows; ++i) {
      if (view(i).ends_with(literal)) set(i);
    }
    return;
  }
  for (int64_t i = 0; i < rows; ++i) {
    if (Matches(view(i))) set(i);
  }
}

bool LikeMatcher::MatchFrom(size_t piece, std::string_view text) const {
  while (piece < pieces_.size()) {
    const Piece& p = pieces_[piece];
    switch (p.kind) {
      case Piece::kLiteral:
        if (!text.starts_with(p.literal)) return false;
        text.remove_prefix(p.literal.size());
        ++piece;
        break;
      case Piece::kAnyOne: {
        if (text.empty()) return false;
        size_t length = CodePointLength(static_cast<unsigned char>(text[0]));
        text.remove_prefix(std::min(length, text.size()));
        ++piece;
        break;
      }
      case Piece::kAnyRun: {
        if (piece + 1 == pieces_.size()) return true;
        // A following literal can only start where it occurs: jump between occurrences.
        const Piece& next = pieces_[piece + 1];
        if (next.kind == Piece::kLiteral) {
          size_t from = 0;
          while (true) {
            const size_t found = FindLiteral(text, next.literal, from);
            if (found == std::string_view::npos) return false;
            if (MatchFrom(piece + 1, text.substr(found))) return true;
            from = found + 1;
          }
        }
        for (size_t start = 0; start <= text.size(); ++start) {
          if (MatchFrom(piece + 1, text.substr(start))) return true;
        }
        return false;
      }
    }
  }
  return text.empty();
}

}  // namespace tarn::expr
