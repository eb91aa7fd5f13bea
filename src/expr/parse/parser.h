// The expression grammar: SQL tokens → ast::Expr, with DuckDB's (PostgreSQL's) precedence.
//
// From loosest to tightest: OR; AND; NOT; IS [NOT] NULL / IS [NOT] DISTINCT FROM; comparisons
// (= == != <> < <= > >=); [NOT] BETWEEN / IN / LIKE / ILIKE; || ; + -; * / // %; ^ **;
// unary - +; x::T; x[i], x[a:b] and x.f; primaries (literals, names, calls, CASE, CAST,
// parentheses, (a, b) rows). Looser than all of them, a lambda `x -> body` (also
// `lambda x: body`); `x.f(args)` is the call f(x, args) and `[e FOR x IN l IF c]` a list
// comprehension.
//
// ExprParser works on a token vector and a position so the SQL statement parser can call
// ParseExpr in the middle of a statement and continue after it.
//
// Thread-safety: one parser per thread.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "expr/parse/ast.h"
#include "expr/parse/lexer.h"
#include "tarn/status.h"

namespace tarn::sql {

// Nesting limits. They keep the parser's recursion, and every recursive walk of the trees it
// builds (binding, evaluation, printing, destruction), well within a thread's stack in every
// build, sanitizers and -O0 included; a deeper input is refused with "nested too deeply" and
// the position where the limit was passed.
//
// Parentheses, calls, CASE, casts, list/struct/map literals and prefix operators nested
// inside one another:
constexpr int kMaxExpressionDepth = 64;
// Nodes on one path of the tree, which also counts chains such as a + b + c ... or x[1][1]...:
constexpr int kMaxExpressionHeight = 1000;
// Nested types in a type name (STRUCT(a STRUCT(...)), MAP(K, V), LIST(T), T[]):
constexpr int kMaxTypeDepth = 64;

class ExprParser {
 public:
  // `text` and `tokens` (ending in kEnd) must outlive the parser.
  ExprParser(std::string_view text, const std::vector<Token>& tokens, size_t position = 0)
      : text_(text), tokens_(tokens), pos_(position) {}

  // Parses one expression starting at position() and leaves position() after it.
  Result<std::unique_ptr<ast::Expr>> ParseExpr();

  // Parses a subquery that starts at *position (at SELECT, WITH, VALUES or FROM, inside
  // parentheses) and moves *position past it; returns the node standing for it. The SQL
  // statement parser sets one; without it a subquery is a syntax error.
  using SubqueryHook = std::function<Result<std::unique_ptr<ast::Expr>>(size_t* position)>;
  void set_subquery_hook(const SubqueryHook* hook) { subquery_hook_ = hook; }

  size_t position() const { return pos_; }
  // The expression nesting already open around this parser (a subquery's expressions continue
  // the count of the expression that holds the subquery), so that kMaxExpressionDepth bounds
  // the whole statement. Default: 0.
  void set_depth(int depth) { depth_ = depth; }
  // When set, a `%` followed by the end of input, `)`, `;` or OFFSET is not a modulo but left
  // unread, for LIMIT 10% to take. Default: false.
  void set_percent_suffix(bool percent_suffix) { percent_suffix_ = percent_suffix; }
  int depth() const { return depth_; }
  const Token& Peek(size_t ahead = 0) const;
  // A syntax error at the current token (or at `token`).
  Status SyntaxError() const;
  Status SyntaxError(const Token& token) const;

 private:
  const Token& Advance() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool AcceptKeyword(std::string_view keyword);
  bool AcceptOperator(std::string_view op);
  Status ExpectKeyword(std::string_view keyword);
  Status ExpectOperator(std::string_view op);

  Status NestedTooDeeply(const Token& at) const;
  // An error at `at` when `expr` is taller than kMaxExpressionHeight.
  Status CheckHeight(const ast::Expr& expr, const Token& at) const;
  Result<std::unique_ptr<ast::Expr>> ParseLevel(int level);
  // The suffix forms of the IS level (IS [NOT] NULL/TRUE/FALSE/DISTINCT FROM, ISNULL, NOTNULL)
  // and of the LIKE/IN/BETWEEN level, applied to *left when the current token starts one;
  // false when it does not. Apart from ParseLevel, so that its frame, one per level of every
  // nesting, stays small.
  Result<bool> ParseIsSuffix(const Token& first, std::unique_ptr<ast::Expr>* left);
  Result<bool> ParseMembershipSuffix(const Token& first, std::unique_ptr<ast::Expr>* left);
  Result<std::unique_ptr<ast::Expr>> ParsePrefix(int level);
  Result<std::unique_ptr<ast::Expr>> ParsePostfix(std::unique_ptr<ast::Expr> expr);
  Result<std::unique_ptr<ast::Expr>> ParsePrimary();
  Result<std::unique_ptr<ast::Expr>> ParseCase();
  Result<std::unique_ptr<ast::Expr>> ParseCastCall(bool try_cast);
  Result<std::unique_ptr<ast::Expr>> ParseFunctionCall(std::string name);
  // After the left side of `->`: the body, and the kLambda node.
  Result<std::unique_ptr<ast::Expr>> ParseArrowLambda(std::unique_ptr<ast::Expr> params);
  // `lambda x, y: body`; REQUIRES: AtKeywordLambda().
  Result<std::unique_ptr<ast::Expr>> ParseKeywordLambda();
  // LAMBDA, names separated by commas, then ':' (else `lambda` is a name).
  bool AtKeywordLambda() const;
 public:
  // parser_window.cc. After OVER: `name` or ( [name] [PARTITION BY ...] [ORDER BY ...]
  // [frame] ); turns the call into a kWindow node. With a null call, the definition of a
  // WINDOW clause (a kWindow node without a function).
  Result<std::unique_ptr<ast::Expr>> ParseOver(std::unique_ptr<ast::Expr> call,
                                               bool ignore_nulls);

 private:
  Result<ast::FrameBound> ParseFrameBound(std::vector<std::unique_ptr<ast::Expr>>* offsets);
  // key [ASC | DESC] [NULLS FIRST | LAST], ...: the keys appended to `keys`, their directions
  // to `orders` (a window's ORDER BY and an ordered aggregate's).
  Status ParseOrderList(std::vector<std::unique_ptr<ast::Expr>>* keys,
                        std::vector<ast::WindowOrder>* orders);
  // parser_literals.cc: [a, b], [e FOR x IN l], {'k': v}, MAP {k: v}, INTERVAL (expr) UNIT.
  Result<std::unique_ptr<ast::Expr>> ParseListLiteral();
  // After `[item` when FOR follows: a list comprehension up to its `]`, desugared as DuckDB
  // does; `first` is the `[`.
  Result<std::unique_ptr<ast::Expr>> ParseComprehension(const Token& first,
                                                        std::unique_ptr<ast::Expr> item);
  Result<std::unique_ptr<ast::Expr>> ParseStructLiteral();
  Result<std::unique_ptr<ast::Expr>> ParseMapLiteral();
  Result<std::unique_ptr<ast::Expr>> ParseIntervalExpr();
  // A type name followed by a string (TIMESTAMP_NS '...'), or null (position unchanged) when
  // the current tokens are not one.
  Result<std::unique_ptr<ast::Expr>> ParseTypedLiteral();
  // A type name: words, optional (p, s), optional [] suffixes; returns its text. Refuses more
  // than kMaxTypeDepth nested parentheses or [] suffixes.
  Result<std::string> ParseTypeName();
  // ( subquery ) through the hook; REQUIRES: AtSubquery().
  Result<std::unique_ptr<ast::Expr>> ParseSubquery();
  bool AtSubquery() const { return AtSubqueryAfter(0); }
  // A "(" then SELECT, WITH, VALUES or FROM, `ahead` tokens on, and a hook to parse it.
  bool AtSubqueryAfter(size_t ahead) const;

  std::string_view text_;
  const std::vector<Token>& tokens_;
  size_t pos_;
  int depth_ = 0;  // ParseExpr/prefix recursion, at most kMaxExpressionDepth
  bool percent_suffix_ = false;  // see set_percent_suffix
  const SubqueryHook* subquery_hook_ = nullptr;
};

// Parses a whole string as one expression; anything after it is a syntax error.
Result<std::unique_ptr<ast::Expr>> ParseExpressionText(std::string_view text);

}  // namespace tarn::sql
