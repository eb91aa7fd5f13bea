// The one entry point shared by the SQL libFuzzer target (sql_fuzzer.cc) and the corpus replay
// test (corpus_replay_test.cc): feeds arbitrary bytes through tarn's SQL front end.
//
// The bytes are SQL text. They are tokenized, parsed as a script of statements, and parsed as
// one expression; an expression that parses is printed (ast::Expr::ToString), the printed
// text parsed again, and the expression bound against a small schema of common types.
//
// Every outcome but a crash, a sanitizer report, a hang or an allocation past libFuzzer's limit
// is acceptable: syntax and binding errors are the expected answer to most inputs. The
// parser's nesting limits (expr/parse/parser.h, sql/statement_parser_internal.h) are what keep deep
// inputs, which the corpus holds many of, within the stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "expr/parse/lexer.h"
#include "expr/parse/parser.h"
#include "sql/parse/statement_parser.h"
#include "tarn/expr.h"

namespace tarn::fuzz {

inline const Schema& FuzzSchema() {
  static const Schema schema({
      Field("i", DataType(TypeId::kInt32)),
      Field("b", DataType(TypeId::kInt64)),
      Field("d", DataType(TypeId::kFloat64)),
      Field("s", DataType(TypeId::kVarchar)),
      Field("dt", DataType(TypeId::kDate)),
      Field("ts", DataType(TypeId::kTimestamp)),
      Field("m", DataType::Decimal(9, 2)),
      Field("l", DataType::List(DataType(TypeId::kInt32))),
      Field("st", DataType::Struct({Field("a", DataType(TypeId::kInt32)),
                                    Field("b", DataType(TypeId::kVarchar))})),
  });
  return schema;
}

inline int FuzzSqlText(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)sql::Tokenize(text);
  (void)sql::ParseStatements(text);
  auto expression = sql::ParseExpressionText(text);
  if (!expression.ok()) return 0;
  const std::string printed = (*expression)->ToString();
  (void)sql::ParseExpressionText(printed);
  (void)Bind(**expression, FuzzSchema());
  return 0;
}

}  // namespace tarn::fuzz
