#include "expr/lexer.h"

#include <cctype>

namespace tarn::sql {
namespace {

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

// Line and column (1-based) of a byte offset.
void LineColumn(std::string_view text, int32_t offset, int32_t* line, int32_t* column) {
  *line = 1;
  int32_t line_start = 0;
  for (int32_t pos = 0; pos < offset && pos < static_cast<int32_t>(text.size()); ++pos) {
    if (text[pos] == '\n') {
      ++*line;
      line_start = pos + 1;
    }
  }
  *column = offset - line_start + 1;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      TARN_RETURN_NOT_OK(SkipSpaceAndComments());
      Token token;
      token.offset = static_cast<int32_t>(pos_);
      LineColumn(text_, token.offset, &token.line, &token.column);
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
      if (pos_ >= text_.size()) {
        return Status::InvalidArgument(FormatErrorAt(text_, what, token->offset));
      }
      char c = text_[pos_++];
      if (c == quote) {
        if (Peek() == quote) {
          value.push_back(quote);
          ++pos_;
          continue;
        }
        break;
      }
      value.push_back(c);
    }
    token->text = std::move(value);
    return Status::OK();
  }

  void Number(Token* token) {
    size_t start = pos_;
    bool has_dot = false, has_exp = false;
    while (std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
    if (Peek() == '.' && Peek(1) != '.') {
      has_dot = true;
      ++pos_;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
    }
    if ((Peek() == 'e' || Peek() == 'E') &&
        (std::isdigit(static_cast<unsigned char>(Peek(1))) ||
         ((Peek(1) == '+' || Peek(1) == '-') && std::isdigit(static_cast<unsigned char>(Peek(2)))))) {
      has_exp = true;
      pos_ += 2;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
    }
    token->kind = has_exp ? TokenKind::kFloat : has_dot ? TokenKind::kDecimal : TokenKind::kInteger;
    token->text = std::string(text_.substr(start, pos_ - start));
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
      Number(token);
      if (IsIdentStart(static_cast<unsigned char>(Peek()))) {
        return Status::InvalidArgument(FormatErrorAt(
            text_, StrCat("syntax error at or near \"", token->text, Peek(), "\""), token->offset));
      }
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
    static constexpr std::string_view kTwoChar[] = {"//", "**", "||", "==", "!=", "<>",
                                                    "<=", ">=", "::"};
    for (std::string_view op : kTwoChar) {
      if (text_.substr(pos_, 2) == op) {
        token->kind = TokenKind::kOperator;
        token->text = std::string(op);
        pos_ += 2;
        return Status::OK();
      }
    }
    static constexpr std::string_view kOneChar = "+-*/%^=<>()[]{},.;:";
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

std::string FormatErrorAt(std::string_view text, std::string_view what, int32_t offset) {
  int32_t line = 1, column = 1;
  LineColumn(text, offset, &line, &column);
  size_t line_start = static_cast<size_t>(offset - (column - 1));
  size_t line_end = text.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text.size();
  std::string_view source_line = text.substr(line_start, line_end - line_start);
  std::string caret(static_cast<size_t>(column - 1), ' ');
  // Keep tabs so the caret lines up under the token in a terminal.
  for (size_t i = 0; i < caret.size() && i < source_line.size(); ++i) {
    if (source_line[i] == '\t') caret[i] = '\t';
  }
  return StrCat(what, " (line ", line, ", column ", column, ")\n", source_line, "\n", caret, "^");
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
