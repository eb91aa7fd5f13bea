// Macros of attached lakes (CREATE MACRO), expanded before planning, as DuckDB expands them.
//
// A call f(args) resolves to a macro of the "temp" database, then of the default database:
// its default schema (USE), then "main". Built-in functions come first: a macro named like one is never called. Calls whose
// name is neither stay as they are, and the binder reports them.
//
// A macro has one or more implementations; a call takes the first whose parameters its
// arguments fit: positional arguments fill parameters in order, `name := value` arguments the
// parameters they name, and the parameters left take their defaults (a parameter without one
// must be given). The call is replaced by the implementation's expression with each parameter
// replaced by its argument (cast to the parameter's type when it has one), so the arguments are
// evaluated where the macro uses them, once per use. Macros may call macros, up to a depth of
// 32.
//
// A table macro (AS TABLE query) is called in FROM: its query, with the parameters replaced
// throughout (subqueries in FROM, WITH and set operations included; not inside subqueries of
// expressions), is planned as a subquery.
//
// Thread-safety: plain functions over the session's state.
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"
#include "sql/plan/source.h"

namespace tarn::sql {

// True when an expression of `select` at its own level (not in its FROM subqueries, which are
// planned on their own) calls a name that is no built-in function, so it may be a macro call.
bool MayCallMacros(const SelectStmt& select);

// Whether any database macros could come from holds anything ("temp" or the default one).
bool HasMacroDatabases(const ExecContext& context);

// `select` with every macro call at its own level expanded; null when it calls none.
Result<std::unique_ptr<SelectStmt>> ExpandMacroCalls(const SelectStmt& select,
                                                     const ExecContext& context);

// Expands *call when it calls a scalar macro of the default lake (else leaves it), for the
// binder's expr::MacroExpansionScope.
Status ExpandMacroCall(std::unique_ptr<ast::Expr>* call, const ExecContext& context);

// The table macro `ref` (a table function call) names, planned with its arguments; null when
// the default lake has no table macro of that name.
Result<std::unique_ptr<Source>> BindTableMacro(const TableRef& ref, std::string_view sql_text,
                                               const ExecContext& context);

}  // namespace tarn::sql
