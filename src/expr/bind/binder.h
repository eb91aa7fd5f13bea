// The binder: ast::Expr + Schema → BoundNode tree.
//
// Resolves column names case-insensitively (struct fields by dotted names), types every node
// by DuckDB's rules (integer literals → INTEGER/BIGINT/HUGEINT by size and adapting to the
// other operand's integer type when they fit; string literals converting to the other side's
// type; DECIMAL arithmetic widths), and makes every implicit cast an explicit kCast node.
//
// Thread-safety: pure functions.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "expr/parse/ast.h"
#include "expr/bind/bound.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn::expr {

Result<std::unique_ptr<BoundNode>> BindExpr(const ast::Expr& expr, const Schema& schema);

// Wraps `node` in a cast to `type` (constants are converted now); no-op when already `type`.
Result<std::unique_ptr<BoundNode>> CastTo(std::unique_ptr<BoundNode> node, const DataType& type);

// now(), current_timestamp, current_date: the time a statement started, the same for every call
// in it. The session pins it per statement (StatementTimeScope) on its thread; unpinned, each
// bind reads the clock.
int64_t StatementTimeMicros();
class StatementTimeScope {
 public:
  StatementTimeScope();  // pins the current time
  ~StatementTimeScope();
  StatementTimeScope(const StatementTimeScope&) = delete;
  StatementTimeScope& operator=(const StatementTimeScope&) = delete;

 private:
  bool outer_;  // the outermost scope on this thread, which unpins on exit
};

// getvariable('name'): the session's variables (SET VARIABLE) while a statement runs on this
// thread; an unknown name, or no scope, is NULL.
class VariablesScope {
 public:
  explicit VariablesScope(const std::map<std::string, Value>* variables);
  ~VariablesScope();
  VariablesScope(const VariablesScope&) = delete;
  VariablesScope& operator=(const VariablesScope&) = delete;

 private:
  const std::map<std::string, Value>* outer_;
};

// current_setting('name'): the session's settings (SET) while a statement runs on this
// thread, by lower-case name; an unknown name, or no scope, is DuckDB's Catalog Error.
class SettingsScope {
 public:
  explicit SettingsScope(const std::map<std::string, Value>* settings);
  ~SettingsScope();
  SettingsScope(const SettingsScope&) = delete;
  SettingsScope& operator=(const SettingsScope&) = delete;

 private:
  const std::map<std::string, Value>* outer_;
};

// The lake's scalar macros while a statement runs on this thread: the binder passes a call to
// a name that is no function to `expand`, which replaces it by the macro's expression (or
// leaves it when no macro has that name). The planner expands a query's macro calls itself;
// this serves expressions bound elsewhere, such as a table's sort key when rows are written.
class MacroExpansionScope {
 public:
  using Expand = std::function<Status(std::unique_ptr<ast::Expr>* call)>;
  explicit MacroExpansionScope(const Expand* expand);
  ~MacroExpansionScope();
  MacroExpansionScope(const MacroExpansionScope&) = delete;
  MacroExpansionScope& operator=(const MacroExpansionScope&) = delete;

 private:
  const Expand* outer_;
};

// Levenshtein distance, ASCII case-insensitive.
size_t EditDistance(std::string_view a, std::string_view b);
// The names closest to `name` (at most three, the smallest distance first), for messages.
std::vector<std::string> ClosestNames(std::string_view name,
                                      const std::vector<std::string>& candidates);

}  // namespace tarn::expr
