// The recursive-descent parser behind ParseStatements (sql/parse/statement_parser.h), shared
// by its parts: statement_parser.cc (queries, COPY, EXPLAIN, DESCRIBE, SHOW, SET, CALL,
// unsupported statements), statement_parser_write.cc (the lake writes: CREATE, DROP,
// INSERT, DELETE, UPDATE, ALTER, BEGIN/COMMIT/ROLLBACK) and statement_parser_session.cc
// (ATTACH, DETACH, USE).
//
// Each Parse* method starts at the current token and leaves the position after what it read;
// a syntax error carries line, column and a caret (FormatSyntaxError).
//
// Thread-safety: one parser per text, used by one thread; it borrows the text and tokens.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "expr/parse/lexer.h"
#include "sql/parse/statement.h"
#include "tarn/status.h"

namespace tarn::sql::parser_internal {

// Levels of queries inside queries (subqueries in FROM, parenthesized queries, EXPLAIN of
// EXPLAIN) a statement may nest: enough for any hand-written or generated query, and shallow
// enough that parsing, planning and running the deepest one stays well within a thread's
// stack in every build (sanitizers and -O0 included).
constexpr int kMaxQueryDepth = 64;
// Set operations and joins (JOIN or ',') in one statement. Each builds one more level of the
// left-deep trees that planning walks recursively, so their count bounds those trees' height.
// Planning a chain of 1000 set operations overflows an 8 MiB stack under AddressSanitizer;
// 256 leaves a wide margin (DuckDB allows 1000 joins).
constexpr int kMaxQueryOperators = 256;

class StatementParser {
 public:
  // REQUIRES: `tokens` is Tokenize(text), ending with a kEnd token; both outlive the parser.
  StatementParser(std::string_view text, const std::vector<Token>& tokens)
      : text_(text), tokens_(tokens) {}

  // Every ';'-separated statement (empty statements are skipped).
  Result<std::vector<std::unique_ptr<Statement>>> ParseAll();

 private:
  // --- tokens ---
  const Token& Peek(size_t ahead = 0) const {
    size_t index = pos_ + ahead;
    return tokens_[index < tokens_.size() ? index : tokens_.size() - 1];
  }
  const Token& Advance() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool AcceptKeyword(std::string_view keyword) {
    if (!Peek().IsKeyword(keyword)) return false;
    Advance();
    return true;
  }
  bool AcceptOperator(std::string_view op) {
    if (!Peek().IsOperator(op)) return false;
    Advance();
    return true;
  }
  Status ExpectKeyword(std::string_view keyword) {
    return AcceptKeyword(keyword) ? Status::OK() : SyntaxError();
  }
  Status ExpectOperator(std::string_view op) {
    return AcceptOperator(op) ? Status::OK() : SyntaxError();
  }
  Status SyntaxError() const { return Status::InvalidArgument(FormatSyntaxError(text_, Peek())); }

  // One open level of a recursive rule; it closes when destroyed.
  class Nesting {
   public:
    explicit Nesting(int* depth) : depth_(depth) { ++*depth_; }
    Nesting(Nesting&& other) noexcept : depth_(other.depth_) { other.depth_ = nullptr; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Nesting& operator=(Nesting&&) = delete;
    ~Nesting() {
      if (depth_ != nullptr) --*depth_;
    }

   private:
    int* depth_;
  };
  // Opens one level at the current token: "query nested too deeply", naming the position,
  // when kMaxQueryDepth levels are open already.
  Result<Nesting> Nest();
  // Counts one more set operation or join of the statement, at `offset` (the operator's
  // first token): "query nested too deeply" past kMaxQueryOperators.
  Status CountOperator(int32_t offset);
  static std::string Upper(std::string text);

  // --- shared pieces (statement_parser.cc) ---
  // `percent_suffix`: a `%` that ends the expression (LIMIT 10%) is left unread.
  Result<std::unique_ptr<ast::Expr>> ParseExpr(bool percent_suffix = false);
  // GROUP BY items with GROUPING SETS / ROLLUP / CUBE (statement.h's grouping_sets).
  Status ParseGroupByList(SelectStmt* select);
  Result<std::vector<std::vector<int>>> ParseGroupElement(SelectStmt* select, bool* plain);
  static int GroupIndex(SelectStmt* select, std::unique_ptr<ast::Expr> e);
  // WINDOW name AS ( ... ): the part in parentheses, as a kWindow node without a function.
  Result<std::unique_ptr<ast::Expr>> ParseWindowDefinition();
  Result<std::string> ParseName();
  Result<MacroImplDef> ParseMacroImpl();
  bool AtStatementEnd() const;
  // The source text from token `first` to the token before the current one.
  std::string TextFrom(size_t first) const;
  // The '>' of "=>" right after an '=' (the lexer splits the arrow).
  bool AcceptArrowTail();
  // AT ( VERSION => expr ) | AT ( TIMESTAMP => expr )
  Result<AtClause> ParseAtClause();
  // A statement tarn does not run, already named: skips to its end.
  Result<std::unique_ptr<Statement>> ParseUnsupportedNamed(std::string what);
  void SkipToStatementEnd();

  // --- queries and the other read statements (statement_parser.cc) ---
  Result<std::unique_ptr<Statement>> ParseStatement();
  // CALL name(args): SELECT * FROM name(args).
  Result<std::unique_ptr<Statement>> ParseCall();
  // Names the statement (first words) and skips to its end.
  Result<std::unique_ptr<Statement>> ParseUnsupported();
  Result<std::unique_ptr<Statement>> ParseCopy();
  // DESCRIBE SELECT ... | DESCRIBE FROM ... | DESCRIBE source
  Result<std::unique_ptr<SelectStmt>> ParseDescribeTarget();
  Status ParseColumnAliases(TableRef* ref);
  Result<std::unique_ptr<SelectStmt>> ParseQuery();
  Result<std::unique_ptr<SelectStmt>> ParseSetExpression(int min_precedence);
  Result<std::unique_ptr<SelectStmt>> ParseSetOperand();
  // After USING SAMPLE or TABLESAMPLE.
  Result<std::shared_ptr<const SampleSpec>> ParseSample();
  // After PIVOT or UNPIVOT.
  Result<std::unique_ptr<SelectStmt>> ParsePivot(bool unpivot);
  Status ParseSelectList(SelectStmt* select);
  // [AS] name, or nothing.
  Result<std::string> ParseAlias();
  Result<TableRef> ParseTableRef();
  // A FROM clause: table references combined by ',' and [NATURAL] [INNER | LEFT | RIGHT |
  // FULL [OUTER] | CROSS | SEMI | ANTI] JOIN with ON condition / USING (columns), left to right.
  Result<TableRef> ParseFromClause();
  // One ','-separated item of a FROM clause: a table reference and the JOINs after it.
  Result<TableRef> ParseJoinChain();
  // One side of a join: a table reference or a parenthesized FROM clause.
  // A table, file, function or subquery, then any standard PIVOT (...) / UNPIVOT (...) after
  // it.
  Result<TableRef> ParseJoinOperand();
  Result<TableRef> ParseJoinOperandBase();
  [[gnu::noinline]] Result<TableRef> ParseLateralOperand();
  [[gnu::noinline]] Result<TableRef> ParseShowTablesOperand();
  [[gnu::noinline]] Result<TableRef> ParseDescribeOperand();
  Result<TableRef> ParsePivotSuffixes(TableRef ref);
  Result<TableRef> ParseStandardPivot(TableRef source, bool unpivot);
  Status ParseTableArgs(TableRef* ref);

  // --- lake writes (statement_parser_write.cc) ---
  // name [. name [. name]]
  Result<std::vector<std::string>> ParseQualifiedName();
  // A column or a nested field: name ('.' name)*.
  Result<std::vector<std::string>> ParseColumnPath();
  bool AcceptIfExists();
  bool AcceptIfNotExists();
  // A type as written, up to a ',' or ')' at depth 0, a constraint keyword or the end.
  Result<std::string> ParseTypeText();
  // name type [NOT NULL | NULL | DEFAULT expr]...
  Result<ColumnDef> ParseColumnDef();
  static std::unique_ptr<Statement> WriteStatement(StatementKind kind, std::string what);
  Result<std::unique_ptr<Statement>> ParseCreate();
  Result<std::unique_ptr<Statement>> ParseDrop();
  Result<std::unique_ptr<Statement>> ParseInsert();
  Result<std::unique_ptr<Statement>> ParseDelete();
  Result<std::unique_ptr<Statement>> ParseUpdate();
  // MERGE INTO target [[AS] alias] USING source (ON condition | USING (columns))
  // WHEN [NOT] MATCHED [BY SOURCE | BY TARGET] [AND condition] THEN action ...
  Result<std::unique_ptr<Statement>> ParseMerge();
  Result<MergeAction> ParseMergeAction();
  Result<std::unique_ptr<Statement>> ParseAlter();
  Result<std::unique_ptr<Statement>> ParseComment();
  // (expr [ASC|DESC] [NULLS FIRST|LAST], ...) of SET SORTED BY / CREATE TABLE ... SORTED BY.
  Result<std::vector<OrderItem>> ParseSortKeyList();
  // BEGIN [TRANSACTION] | START TRANSACTION | COMMIT | END | ROLLBACK | ABORT [TRANSACTION]
  Result<std::unique_ptr<Statement>> ParseTransaction();
  // The table an INSERT, DELETE or UPDATE writes: a qualified name into write->names, then,
  // when `with_alias`, an optional [AS] alias (never a clause keyword) into write->alias.
  Status ParseWriteTarget(WriteStmt* write, bool with_alias);
  // The end of the write statement `what` (INSERT, DELETE, UPDATE): NotSupported when the
  // current token is one of `refused` (clauses tarn does not run), then, when `where` is
  // given, an optional WHERE condition into *where.
  Status ParseWriteTail(std::string_view what, std::initializer_list<std::string_view> refused,
                        std::unique_ptr<ast::Expr>* where);

  // --- session statements (statement_parser_session.cc) ---
  Result<std::unique_ptr<Statement>> ParseAttach();
  Result<std::unique_ptr<Statement>> ParseDetach();
  // CREATE … SECRET / DROP … SECRET, when the tokens from the current one spell it.
  bool AtSecretStatement() const;
  Result<std::unique_ptr<Statement>> ParseSecret();
  // "(NAME value, …)" after ATTACH or CREATE SECRET, into `options`.
  Status ParseSessionOptions(std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>>* options);
  Result<std::unique_ptr<Statement>> ParseUse();

  std::string_view text_;
  const std::vector<Token>& tokens_;
  size_t pos_ = 0;
  int depth_ = 0;  // open Nesting levels
  int operators_ = 0;  // set operations and joins of the current statement
  int expression_depth_ = 0;  // expression levels open around the current subquery
};

}  // namespace tarn::sql::parser_internal
