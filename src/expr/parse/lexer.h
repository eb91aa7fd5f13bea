// The SQL tokenizer: turns SQL text into tokens with byte offsets.
//
// Tokenizing is linear in the text: a token records only its byte offset and length, and the
// line and column of an offset are computed when an error is reported (LineColumnOf), never
// per token.
//
// Shared by the expression parser and the SQL statement parser. Keywords are not a separate
// token kind: a bare word is an kIdentifier and parsers compare its text case-insensitively
// (Token::IsKeyword), so the same lexer serves every grammar. Quoted identifiers ("Name") keep
// their exact spelling with "" unescaped; string literals ('it''s') are unescaped likewise.
//
// Thread-safety: Tokenize is a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::sql {

enum class TokenKind : uint8_t {
  kIdentifier,        // a bare word: name or keyword
  kQuotedIdentifier,  // "Name"
  kInteger,           // 123
  kDecimal,           // 1.5, .5, 1.
  kFloat,             // 1e3, 1.5E-2
  kString,            // 'text'
  kOperator,          // + - * / // % ^ ** || = == != <> < <= > >= :: -> ( ) [ ] { } , . ; : ?
  kParameter,         // $1, ?
  kEnd,               // end of input (always the last token)
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;   // the token's value: unescaped for strings and quoted identifiers
  int32_t offset = 0; // byte offset of the first character in the source
  int32_t length = 0; // bytes in the source (including quotes)

  bool Is(TokenKind k, std::string_view t) const { return kind == k && text == t; }
  bool IsOperator(std::string_view op) const { return Is(TokenKind::kOperator, op); }
  // True for a bare word equal to `keyword` ignoring ASCII case. REQUIRES: keyword uppercase.
  bool IsKeyword(std::string_view keyword) const;
};

// The largest SQL text tarn tokenizes (token offsets are 32-bit): 2 GiB - 1 bytes.
constexpr size_t kMaxSqlTextBytes = 0x7fffffff;

// Splits `text` into tokens, skipping whitespace and comments (-- to end of line, /* */).
// Fails on an unterminated string, quoted identifier or comment, on characters that start no
// token, with the line/column message of FormatSyntaxError, and on a text longer than
// kMaxSqlTextBytes. Time and memory are linear in the text.
Result<std::vector<Token>> Tokenize(std::string_view text);

struct LineColumn {
  int32_t line = 1;    // 1-based
  int32_t column = 1;  // 1-based, in bytes
};
// The line and column of byte `offset` of `text` (offsets past the end count as the end).
// Linear in `offset`: for error messages, not for every token.
LineColumn LineColumnOf(std::string_view text, int32_t offset);

// "syntax error at or near "FROM" (line 1, column 12)" followed by the source line and a caret
// under the token: the message every SQL syntax error carries. A source line longer than 120
// bytes is shown as the part around the caret, marked "..." where it was cut.
std::string FormatSyntaxError(std::string_view text, const Token& token);
// The same with a custom lead, e.g. "unterminated quoted string".
std::string FormatErrorAt(std::string_view text, std::string_view what, int32_t offset);

}  // namespace tarn::sql
