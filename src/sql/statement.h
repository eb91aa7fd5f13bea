// The syntax tree of a SQL statement, as written: table and column names unresolved.
//
// Expressions inside statements are ast::Expr trees from the expression parser
// (expr/parser.h). The statement parser (statement_parser.h) builds these; the planner
// (planner.h) turns a SelectStmt into an operator tree.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "expr/ast.h"

namespace tarn::sql {

struct SelectStmt;

// One argument of a table function: an expression, a [list, of, expressions], and/or a name
// (name => value or name = value).
struct TableArg {
  std::string name;  // empty for a positional argument
  std::unique_ptr<ast::Expr> expr;
  bool is_list = false;
  std::vector<std::unique_ptr<ast::Expr>> list;
};

struct TableRef {
  enum class Kind : uint8_t { kNone, kTable, kFunction, kFile, kSubquery };
  Kind kind = Kind::kNone;
  std::vector<std::string> names;  // kTable: name parts; kFunction: names[0] is the function
  std::string file;                // kFile: FROM 'path'
  std::vector<TableArg> args;      // kFunction
  std::unique_ptr<SelectStmt> subquery;
  std::string alias;
  std::vector<std::string> column_aliases;
  int32_t offset = 0;  // where the reference starts in the source text, for errors
};

struct SelectItem {
  std::unique_ptr<ast::Expr> expr;  // null for a star
  std::string alias;                // empty: named after the expression
  bool star = false;
  std::string star_qualifier;       // t.*
  std::vector<std::string> exclude; // * EXCLUDE (a, b)
};

struct OrderItem {
  std::unique_ptr<ast::Expr> expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // absent: DuckDB's default, NULLS LAST
};

struct SelectStmt {
  bool distinct = false;
  std::vector<SelectItem> items;
  TableRef from;  // kNone: SELECT without FROM
  std::unique_ptr<ast::Expr> where;
  std::vector<std::unique_ptr<ast::Expr>> group_by;
  bool group_by_all = false;
  std::unique_ptr<ast::Expr> having;
  std::vector<OrderItem> order_by;
  std::unique_ptr<ast::Expr> limit;
  std::unique_ptr<ast::Expr> offset;
};

enum class StatementKind : uint8_t {
  kSelect,
  kCopy,
  kExplain,
  kDescribe,
  kShowTables,
  kSet,
  kReset,
  kUnsupported,  // a write or lake statement: parsed far enough to name it
};

struct Statement {
  StatementKind kind = StatementKind::kSelect;
  std::unique_ptr<SelectStmt> select;  // kSelect, kCopy source, kDescribe
  std::unique_ptr<Statement> inner;    // kExplain
  bool analyze = false;                // EXPLAIN ANALYZE
  // kCopy
  std::string copy_path;
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> copy_options;
  // kSet / kReset
  std::string setting;
  std::unique_ptr<ast::Expr> value;
  // kUnsupported: "CREATE TABLE", "INSERT", "CALL ducklake_expire_snapshots"
  std::string what;
  std::string text;  // the statement's source text
};

}  // namespace tarn::sql
