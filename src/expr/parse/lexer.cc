#include "expr/parse/lexer.h"

#include <algorithm>
#include <cctype>

namespace tarn::sql {
namespace {

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() {
    if (text_.size() > kMaxSqlTextBytes) {
      return Status::InvalidArgument("SQL text of ", text_.size(),
                                     " bytes is longer than the limit of ", kMaxSqlTextBytes,
                                     " bytes");
    }
    std::vector<Token> tokens;
    while (true) {
      TARN_RETURN_NOT_OK(SkipSpaceAndComments());
      Token token;
      token.offset = static_cast<int32_t>(pos_);
      if (pos_ >= text_.size()) {
        tokens.push_back(std::move(token));
        return tokens;
      }
      TARN_RETURN_NOT_OK(Next(&token));
      token.length = static_cast<int32_t>(pos_) - token.offset;
      tokens.push_back(std::move(token));
    }
  }

 private:
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  Status SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '-' && Peek(1) == '-') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && Peek(1) == '*') {
        size_t start = pos_;
        size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) {
          return Status::InvalidArgument(
              FormatErrorAt(text_, "unterminated /* comment", static_cast<int32_t>(start)));
        }
        pos_ = end + 2;
      } else {
        break;
      }
    }
    return Status::OK();
  }

  // Reads a quoted run ending in `quote`, where a doubled quote stands for one.
  Status Quoted(char quote, Token* token, const char* what) {
    ++pos_;
    std::string value;
    while (true) {
      size_t end = text_.find(quote, pos_);
      if (end == std::string_view::npos) {
        return Status::InvalidArgument(FormatErrorAt(text_, what, token->offset));
      }
      value.append(text_.substr(pos_, end - pos_));
      pos_ = end + 1;
      if (Peek() != quote) break;
      value.push_back(quote);
      ++pos_;
    }
    token->text = std::move(value);
    return Status::OK();
  }

  // Digits with single underscores between them (DuckDB's `1_000_000`).
  void Digits() {
    while (std::isdigit(static_cast<unsigned char>(Peek())) ||
           (Peek() == '_' && pos_ > 0 && std::isdigit(static_cast<unsigned char>(text_[pos_ - 1])) &&
            std::isdigit(static_cast<unsigned char>(Peek(1))))) {
      ++pos_;
    }
  }

  void Number(Token* token) {
    size_t start = pos_;
    bool has_dot = false, has_exp = false;
    Digits();
    if (Peek() == '.' && Peek(1) != '.') {
      has_dot = true;
      ++pos_;
      Digits();
    }
    if ((Peek() == 'e' || Peek() == 'E') &&
        (std::isdigit(static_cast<unsigned char>(Peek(1))) ||
         ((Peek(1) == '+' || Peek(1) == '-') && std::isdigit(static_cast<unsigned char>(Peek(2)))))) {
      has_exp = true;
      pos_ += 2;
      Digits();
    }
    token->kind = has_exp ? TokenKind::kFloat : has_dot ? TokenKind::kDecimal : TokenKind::kInteger;
    token->text.clear();
    for (char digit : text_.substr(start, pos_ - start)) {
      if (digit != '_') token->text.push_back(digit);
    }
  }

  Status Next(Token* token) {
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (IsIdentStart(c)) {
      size_t start = pos_;
      while (pos_ < text_.size() && IsIdentChar(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      token->kind = TokenKind::kIdentifier;
      token->text = std::string(text_.substr(start, pos_ - start));
      return Status::OK();
    }
    if (std::isdigit(c) || (c == '.' && std::isdigit(static_cast<unsigned char>(Peek(1))))) {
      // A word right after a number is the next token, as DuckDB lexes it (`1FROM t`).
      Number(token);
      return Status::OK();
    }
    if (c == '\'') {
      token->kind = TokenKind::kString;
      return Quoted('\'', token, "unterminated quoted string");
    }
    if (c == '"') {
      token->kind = TokenKind::kQuotedIdentifier;
      TARN_RETURN_NOT_OK(Quoted('"', token, "unterminated quoted identifier"));
      if (token->text.empty()) {
        return Status::InvalidArgument(
            FormatErrorAt(text_, "zero-length delimited identifier", token->offset));
      }
      return Status::OK();
    }
    if (c == '$' && std::isdigit(static_cast<unsigned char>(Peek(1)))) {
      size_t start = pos_++;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
      token->kind = TokenKind::kParameter;
      token->text = std::string(text_.substr(start, pos_ - start));
      return Status::OK();
    }
    if (c == '?') {
      ++pos_;
      token->kind = TokenKind::kParameter;
      token->text = "?";
      return Status::OK();
    }
    if (text_.substr(pos_, 3) == "->>") {
      token->kind = TokenKind::kOperator;
      token->text = "->>";
      pos_ += 3;
      return Status::OK();
    }
    static constexpr std::string_view kTwoChar[] = {"//", "**", "||", "==", "!=", "<>",
                                                    "<=", ">=", "::", "!~", "->", "<<",
                                                    ">>"};
    for (std::string_view op : kTwoChar) {
      if (text_.substr(pos_, 2) == op) {
        token->kind = TokenKind::kOperator;
        token->text = std::string(op);
        pos_ += 2;
        return Status::OK();
      }
    }
    static constexpr std::string_view kOneChar = "+-*/%^=<>()[]{},.;:~&|";
    if (kOneChar.find(static_cast<char>(c)) != std::string_view::npos) {
      token->kind = TokenKind::kOperator;
      token->text = std::string(1, static_cast<char>(c));
      ++pos_;
      return Status::OK();
    }
    return Status::InvalidArgument(FormatErrorAt(
        text_, StrCat("syntax error at or near \"", static_cast<char>(c), "\""), token->offset));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

bool Token::IsKeyword(std::string_view keyword) const {
  if (kind != TokenKind::kIdentifier || text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != keyword[i]) return false;
  }
  return true;
}

Result<std::vector<Token>> Tokenize(std::string_view text) { return Lexer(text).Run(); }

LineColumn LineColumnOf(std::string_view text, int32_t offset) {
  LineColumn position;
  size_t end = std::min(static_cast<size_t>(std::max(offset, 0)), text.size());
  size_t line_start = 0;
  for (size_t pos = text.find('\n'); pos != std::string_view::npos && pos < end;
       pos = text.find('\n', pos + 1)) {
    ++position.line;
    line_start = pos + 1;
  }
  position.column = static_cast<int32_t>(end - line_start) + 1;
  return position;
}

std::string FormatErrorAt(std::string_view text, std::string_view what, int32_t offset) {
  const LineColumn position = LineColumnOf(text, offset);
  size_t caret_at = static_cast<size_t>(position.column - 1);
  size_t line_start = std::min(static_cast<size_t>(std::max(offset, 0)), text.size()) - caret_at;
  size_t line_end = text.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text.size();
  std::string_view source_line = text.substr(line_start, line_end - line_start);
  // A long line (a generated statement, a large VALUES list) is cut to the part around the
  // caret, on UTF-8 character boundaries.
  constexpr size_t kShownBytes = 120;
  std::string shown;
  if (source_line.size() > kShownBytes) {
    auto is_continuation = [&](size_t at) {
      return at < source_line.size() &&
             (static_cast<unsigned char>(source_line[at]) & 0xC0) == 0x80;
    };
    size_t from = caret_at > kShownBytes / 2 ? caret_at - kShownBytes / 2 : 0;
    while (from > 0 && is_continuation(from)) --from;
    size_t to = std::min(source_line.size(), from + kShownBytes);
    while (to < source_line.size() && is_continuation(to)) ++to;
    std::string_view window = source_line.substr(from, to - from);
    std::string_view lead = from > 0 ? "..." : "";
    shown = StrCat(lead, window, to < source_line.size() ? "..." : "");
    caret_at = caret_at - from + lead.size();
    source_line = shown;
  }
  std::string caret(caret_at, ' ');
  // Keep tabs so the caret lines up under the token in a terminal.
  for (size_t i = 0; i < caret.size() && i < source_line.size(); ++i) {
    if (source_line[i] == '\t') caret[i] = '\t';
  }
  return StrCat(what, " (line ", position.line, ", column ", position.column, ")\n",
                source_line, "\n", caret, "^");
}

std::string FormatSyntaxError(std::string_view text, const Token& token) {
  if (token.kind == TokenKind::kEnd) {
    return FormatErrorAt(text, "syntax error at end of input", token.offset);
  }
  std::string_view shown = text.substr(static_cast<size_t>(token.offset),
                                       static_cast<size_t>(token.length));
  return FormatErrorAt(text, StrCat("syntax error at or near \"", shown, "\""), token.offset);
}

}  // namespace tarn::sql
