#include "expr/eval/like.h"

#include <string.h>

#include "expr/functions/case_mapping.h"

namespace tarn::expr {
namespace {

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
            if (from > text.size()) return false;
            const void* at = memmem(text.data() + from, text.size() - from, next.literal.data(),
                                    next.literal.size());
            if (at == nullptr) return false;
            const size_t found = static_cast<size_t>(static_cast<const char*>(at) - text.data());
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
