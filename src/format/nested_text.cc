#include "format/nested_text.h"

#include <optional>
#include <string>
#include <vector>

namespace tarn::format {

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool IsQuote(char c) { return c == '\'' || c == '"'; }

// "null" in any case.
bool IsNullWord(std::string_view text) {
  if (text.size() != 4) return false;
  constexpr std::string_view kNull = "null";
  for (size_t i = 0; i < 4; ++i) {
    const char c = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
    if (c != kNull[i]) return false;
  }
  return true;
}

// Walks nested text as DuckDB's VARCHAR cast prints it. Quoted strings ('...' or "...")
// hold `\` escapes; outside quotes a backslash escapes only a following quote; brackets
// ({}, [], ()) nest, with quotes inside them honored.
class Splitter {
 public:
  explicit Splitter(std::string_view text) : buf_(text) {}

  bool AtEnd() const { return pos_ >= buf_.size(); }
  char Peek() const { return buf_[pos_]; }
  void Advance() { ++pos_; }
  void SkipSpace() {
    while (pos_ < buf_.size() && IsSpace(buf_[pos_])) ++pos_;
  }
  // After the last element: only spaces may follow the closing bracket.
  bool FinishAfterClose() {
    ++pos_;
    SkipSpace();
    return pos_ == buf_.size();
  }

  // Scans one element up to (not including) a top-level character in `stops`; [start, end]
  // spans its first to last non-space character (start unset when it is empty). With
  // `brackets` false, brackets are ordinary characters (struct keys).
  bool ScanElement(std::string_view stops, bool brackets, std::optional<size_t>* start,
                   size_t* end) {
    while (pos_ < buf_.size() && stops.find(buf_[pos_]) == std::string_view::npos) {
      const char c = buf_[pos_];
      if (!IsSpace(c) && !*start) *start = pos_;
      if (c == '\\' && pos_ + 1 < buf_.size() && IsQuote(buf_[pos_ + 1])) {
        ++pos_;
      } else if (IsQuote(c)) {
        if (!SkipQuoted(&pos_)) return false;
      } else if (brackets && (c == '{' || c == '[' || c == '(')) {
        if (!SkipBrackets(&pos_)) return false;
      }
      if (!IsSpace(buf_[pos_])) *end = pos_;
      ++pos_;
    }
    return pos_ < buf_.size();
  }

  // The piece between start and end (inclusive), or an empty string for an empty element.
  NestedPiece Take(const std::optional<size_t>& start, size_t end) const {
    NestedPiece piece;
    if (!start) return piece;
    std::string_view raw = buf_.substr(*start, end + 1 - *start);
    if (IsNullWord(raw)) {
      piece.is_null = true;
      return piece;
    }
    piece.text = Unquote(raw);
    return piece;
  }

 private:
  // REQUIRES: *pos at a quote. Moves *pos to the matching closing quote; false when none.
  static bool SkipQuotedIn(std::string_view buf, size_t* pos) {
    const char quote = buf[*pos];
    for (++*pos; *pos < buf.size(); ++*pos) {
      if (buf[*pos] == '\\') {
        ++*pos;
      } else if (buf[*pos] == quote) {
        return true;
      }
    }
    return false;
  }
  bool SkipQuoted(size_t* pos) const { return SkipQuotedIn(buf_, pos); }

  // REQUIRES: *pos at an opening bracket. Moves *pos to its closing bracket.
  static bool SkipBracketsIn(std::string_view buf, size_t* pos) {
    std::vector<char> closers;
    for (; *pos < buf.size(); ++*pos) {
      const char c = buf[*pos];
      if (c == '\\' && *pos + 1 < buf.size() && IsQuote(buf[*pos + 1])) {
        ++*pos;
      } else if (IsQuote(c)) {
        if (!SkipQuotedIn(buf, pos)) return false;
      } else if (c == '{') {
        closers.push_back('}');
      } else if (c == '[') {
        closers.push_back(']');
      } else if (c == '(') {
        closers.push_back(')');
      } else if (c == '}' || c == ']' || c == ')') {
        if (closers.empty() || c != closers.back()) return false;
        closers.pop_back();
        if (closers.empty()) return true;
      }
    }
    return false;
  }
  bool SkipBrackets(size_t* pos) const { return SkipBracketsIn(buf_, pos); }

  // Removes the quotes and escapes of the top level; bracketed text is kept as is (the
  // child's type parses it again). Adjacent pieces join: 'it''s' is "its", as DuckDB reads it.
  static std::string Unquote(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
      const char c = raw[i];
      if (c == '\\' && i + 1 < raw.size() && IsQuote(raw[i + 1])) {
        out += raw[++i];
      } else if (IsQuote(c)) {
        for (++i; i < raw.size() && raw[i] != c; ++i) {
          if (raw[i] == '\\' && i + 1 < raw.size()) ++i;
          out += raw[i];
        }
      } else if (c == '{' || c == '[' || c == '(') {
        size_t close = i;
        if (!SkipBracketsIn(raw, &close)) close = raw.size() - 1;
        out.append(raw.substr(i, close + 1 - i));
        i = close;
      } else {
        out += c;
      }
    }
    return out;
  }

  std::string_view buf_;
  size_t pos_ = 0;
};

}  // namespace

bool SplitListText(std::string_view text, std::vector<NestedPiece>* pieces) {
  Splitter s(text);
  s.SkipSpace();
  if (s.AtEnd() || s.Peek() != '[') return false;
  s.Advance();
  s.SkipSpace();
  bool seen_value = false;
  while (!s.AtEnd()) {
    std::optional<size_t> start;
    size_t end = 0;
    if (!s.ScanElement(",]", true, &start, &end)) return false;
    // "[]" has no element, "[,]" two empty ones.
    if (s.Peek() != ']' || start || seen_value) {
      pieces->push_back(s.Take(start, end));
      seen_value = true;
    }
    if (s.Peek() == ']') break;
    s.Advance();
    s.SkipSpace();
  }
  if (s.AtEnd()) return false;
  return s.FinishAfterClose();
}

// A list of JSON prints its elements as they are, so its text is a JSON array, which DuckDB
// reads back by parsing JSON: an element keeps its double quotes ("é" is the JSON string, not
// é) and loses the spaces between its tokens. A bare NULL (not JSON, but what a SQL NULL
// element prints as) is a NULL element; JSON's null is the JSON text null.
bool SplitJsonArrayText(std::string_view text, std::vector<NestedPiece>* pieces) {
  size_t pos = 0;
  while (pos < text.size() && IsSpace(text[pos])) ++pos;
  if (pos == text.size() || text[pos] != '[') return false;
  ++pos;
  std::string element;
  int depth = 0;
  bool any = false;    // a token since the last top-level ','
  bool space = false;  // spaces since the last character kept
  // Two tokens side by side ("1 2", "\"a\" x") are not JSON: the spaces between them cannot go.
  auto adjacent = [&]() {
    if (!space || element.empty()) return false;
    const char last = element.back();
    return last != '[' && last != '{' && last != ':' && last != ',';
  };
  auto finish = [&]() {
    NestedPiece piece;
    if (IsNullWord(element) && element != "null") {
      piece.is_null = true;
    } else {
      piece.text = std::move(element);
    }
    pieces->push_back(std::move(piece));
    element.clear();
    any = false;
  };
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (!IsSpace(c) && c != ',' && c != ':' && c != ']' && c != '}' && adjacent()) return false;
    space = IsSpace(c);
    if (c == '"') {
      const size_t start = pos;
      for (++pos; pos < text.size() && text[pos] != '"'; ++pos) {
        if (text[pos] == '\\') ++pos;
      }
      if (pos >= text.size()) return false;
      element.append(text.substr(start, pos + 1 - start));
      any = true;
    } else if (IsSpace(c)) {
      continue;
    } else if (c == '[' || c == '{') {
      ++depth;
      element += c;
      any = true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
      element += c;
    } else if (c == ']') {
      if (any) {
        finish();
      } else if (!pieces->empty()) {
        return false;  // "[1, ]"
      }
      ++pos;
      while (pos < text.size() && IsSpace(text[pos])) ++pos;
      return pos == text.size();
    } else if (c == ',' && depth == 0) {
      if (!any) return false;
      finish();
    } else {
      element += c;
      any = true;
    }
  }
  return false;
}

// Named pieces of a struct; `positional` for the `(v1, v2)` form (names empty).
bool SplitStructText(std::string_view text, std::vector<std::pair<std::string, NestedPiece>>* pieces,
                 bool* positional) {
  Splitter s(text);
  s.SkipSpace();
  if (s.AtEnd() || (s.Peek() != '{' && s.Peek() != '(')) return false;
  const char close = s.Peek() == '{' ? '}' : ')';
  *positional = close == ')';
  s.Advance();
  s.SkipSpace();
  if (s.AtEnd()) return false;
  if (s.Peek() == close) return s.FinishAfterClose();
  const std::string stops = std::string(",") + close;
  while (!s.AtEnd()) {
    std::string name;
    if (!*positional) {
      std::optional<size_t> key_start;
      size_t key_end = 0;
      if (!s.ScanElement(":", false, &key_start, &key_end) || !key_start) return false;
      NestedPiece key = s.Take(key_start, key_end);
      if (key.is_null) return false;
      name = std::move(key.text);
      s.Advance();  // ':'
      s.SkipSpace();
    }
    std::optional<size_t> start;
    size_t end = 0;
    if (!s.ScanElement(stops, true, &start, &end)) return false;
    pieces->emplace_back(std::move(name), s.Take(start, end));
    if (s.Peek() == close) break;
    s.Advance();
    s.SkipSpace();
  }
  if (s.AtEnd()) return false;
  return s.FinishAfterClose();
}

bool SplitMapText(std::string_view text, std::vector<std::pair<NestedPiece, NestedPiece>>* pieces) {
  Splitter s(text);
  s.SkipSpace();
  if (s.AtEnd() || s.Peek() != '{') return false;
  s.Advance();
  s.SkipSpace();
  if (s.AtEnd()) return false;
  if (s.Peek() == '}') return s.FinishAfterClose();
  while (!s.AtEnd()) {
    std::optional<size_t> key_start;
    size_t key_end = 0;
    if (!s.ScanElement("=", true, &key_start, &key_end)) return false;
    NestedPiece key = s.Take(key_start, key_end);
    if (key.is_null) return false;
    s.Advance();  // '='
    s.SkipSpace();
    std::optional<size_t> start;
    size_t end = 0;
    if (!s.ScanElement(",}", true, &start, &end)) return false;
    pieces->emplace_back(std::move(key), s.Take(start, end));
    if (s.Peek() == '}') break;
    s.Advance();
    s.SkipSpace();
  }
  if (s.AtEnd()) return false;
  return s.FinishAfterClose();
}

}  // namespace tarn::format
