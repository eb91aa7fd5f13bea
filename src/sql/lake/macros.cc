#include "sql/lake/macros.h"

#include <cctype>
#include <functional>
#include <utility>

#include "expr/functions/functions.h"
#include "expr/bind/macro_expansion.h"
#include "expr/parse/parser.h"
#include "sql/exec/aggregate_function.h"
#include "sql/exec/window.h"
#include "columnar/sql_keywords.h"
#include "sql/lake/lake_source.h"
#include "sql/parse/statement_clone.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "tarn/type.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

using expr::kMaxMacroDepth;

bool SameName(std::string_view a, std::string_view b) {
  return LowerAscii(std::string(a)) == LowerAscii(std::string(b));
}

// Names the binder or planner resolve themselves: never a macro call.
bool IsBuiltinName(const std::string& name) {
  const std::string lower = LowerAscii(name);
  if (lower.empty() || lower[0] == '#') return true;  // "#subquery", "#exists"
  return expr::LookupFunction(lower, 1) != expr::FunctionId::kNone || IsAggregateName(lower) ||
         IsWindowFunctionName(lower) || lower == "coalesce" || lower == "ifnull" ||
         lower == "typeof" || lower == "grouping" || lower == "unnest" || lower == "now" ||
         lower == "get_current_timestamp" || lower == "transaction_timestamp" ||
         lower == "current_timestamp" || lower == "current_date" || lower == "today" || lower == "getvariable" ||
         lower == "current_setting";
}

// ---- walking the expressions of a query ----------------------------------------------------

// Calls fn on each expression slot of `ref` (table function arguments, AT values, join
// conditions), not inside its subquery.
template <typename Ref, typename Fn>
Status VisitRef(Ref& ref, Fn& fn) {
  for (auto& arg : ref.args) {
    if (arg.expr) TARN_RETURN_NOT_OK(fn(arg.expr));
    for (auto& item : arg.list) TARN_RETURN_NOT_OK(fn(item));
  }
  if (ref.at.has_value() && ref.at->value) TARN_RETURN_NOT_OK(fn(ref.at->value));
  if (ref.on) TARN_RETURN_NOT_OK(fn(ref.on));
  if (ref.left) TARN_RETURN_NOT_OK(VisitRef(*ref.left, fn));
  if (ref.right) TARN_RETURN_NOT_OK(VisitRef(*ref.right, fn));
  return Status::OK();
}

// Calls fn on each expression slot of `select` at its own level.
template <typename Select, typename Fn>
Status VisitLevel(Select& select, Fn& fn) {
  for (auto& row : select.values) {
    for (auto& value : row) TARN_RETURN_NOT_OK(fn(value));
  }
  for (auto& item : select.items) {
    if (item.expr) TARN_RETURN_NOT_OK(fn(item.expr));
  }
  TARN_RETURN_NOT_OK(VisitRef(select.from, fn));
  if (select.where) TARN_RETURN_NOT_OK(fn(select.where));
  for (auto& group : select.group_by) TARN_RETURN_NOT_OK(fn(group));
  if (select.having) TARN_RETURN_NOT_OK(fn(select.having));
  for (auto& window : select.windows) {
    if (window.spec) TARN_RETURN_NOT_OK(fn(window.spec));
  }
  if (select.qualify) TARN_RETURN_NOT_OK(fn(select.qualify));
  for (auto& item : select.order_by) {
    if (item.expr) TARN_RETURN_NOT_OK(fn(item.expr));
  }
  if (select.limit) TARN_RETURN_NOT_OK(fn(select.limit));
  if (select.offset) TARN_RETURN_NOT_OK(fn(select.offset));
  return Status::OK();
}

// Calls fn on each expression slot of `select` and of the queries inside its FROM clause, WITH
// clause and set operation (WITH queries are copied first: they are shared).
Status VisitDeep(SelectStmt& select, const std::function<Status(ExprPtr&)>& fn);

Status VisitRefQueries(TableRef& ref, const std::function<Status(ExprPtr&)>& fn) {
  if (ref.subquery) TARN_RETURN_NOT_OK(VisitDeep(*ref.subquery, fn));
  if (ref.left) TARN_RETURN_NOT_OK(VisitRefQueries(*ref.left, fn));
  if (ref.right) TARN_RETURN_NOT_OK(VisitRefQueries(*ref.right, fn));
  return Status::OK();
}

Status VisitDeep(SelectStmt& select, const std::function<Status(ExprPtr&)>& fn) {
  for (CommonTableExpr& cte : select.ctes) {
    std::unique_ptr<SelectStmt> copy = CloneSelect(*cte.query);
    TARN_RETURN_NOT_OK(VisitDeep(*copy, fn));
    cte.query = std::move(copy);
  }
  if (select.set_left) TARN_RETURN_NOT_OK(VisitDeep(*select.set_left, fn));
  if (select.set_right) TARN_RETURN_NOT_OK(VisitDeep(*select.set_right, fn));
  auto level = [&](ExprPtr& slot) { return fn(slot); };
  TARN_RETURN_NOT_OK(VisitLevel(select, level));
  return VisitRefQueries(select.from, fn);
}

bool CallsNonBuiltin(const Expr& expr) {
  if (expr.kind == ExprKind::kFunction && !IsBuiltinName(expr.names[0])) return true;
  for (const auto& child : expr.children) {
    if (CallsNonBuiltin(*child)) return true;
  }
  return false;
}

// ---- one call ------------------------------------------------------------------------------

// The macros of the "temp" database, then of the default one, at their snapshots (the
// transaction's, when one is open).
class MacroScope {
 public:
  explicit MacroScope(const ExecContext& context)
      : context_(context),
        expander_([this](const std::string& name) { return Find(name, /*is_table=*/false); },
                  IsBuiltinName) {}

  // The macro `name` of the kind asked for, else of the other kind (for the message), else
  // null. A scalar and a table macro may share a name.
  Result<const MacroInfo*> Find(const std::string& name, bool is_table) {
    if (snapshots_.empty()) {
      for (const LakeBinding* database : {FindLake(context_, "temp"), context_.lake}) {
        if (database == nullptr || database->lake == nullptr) continue;
        TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(*database, std::nullopt, "", 0));
        snapshots_.emplace_back(database, std::move(snapshot));
      }
    }
    const MacroInfo* other = nullptr;
    for (const auto& [database, snapshot] : snapshots_) {
      for (const std::string& schema : {database->default_schema, std::string("main")}) {
        for (const MacroInfo& macro : snapshot->macros()) {
          if (!SameName(macro.schema_name, schema) || !SameName(macro.name, name)) continue;
          if (macro.is_table() == is_table) return &macro;
          if (other == nullptr) other = &macro;
        }
      }
    }
    return other;
  }

  // Expands the scalar macro calls in `slot`, innermost first.
  Status Expand(ExprPtr& slot) { return expander_.Expand(slot); }

  int expansions() const { return expander_.expansions(); }

 private:
  const ExecContext& context_;
  std::vector<std::pair<const LakeBinding*, std::shared_ptr<const LakeSnapshot>>> snapshots_;
  expr::ScalarMacroExpander expander_;
};

// Table macros calling table macros: a bound on the nesting.
thread_local int table_macro_depth = 0;

}  // namespace

bool MayCallMacros(const SelectStmt& select) {
  bool found = false;
  auto check = [&](const ExprPtr& slot) {
    found = found || CallsNonBuiltin(*slot);
    return Status::OK();
  };
  (void)VisitLevel(select, check);
  return found;
}

bool HasMacroDatabases(const ExecContext& context) {
  return context.lake != nullptr || FindLake(context, "temp") != nullptr;
}

Result<std::unique_ptr<SelectStmt>> ExpandMacroCalls(const SelectStmt& select,
                                                     const ExecContext& context) {
  if (!HasMacroDatabases(context)) return std::unique_ptr<SelectStmt>();
  MacroScope scope(context);
  std::unique_ptr<SelectStmt> out = CloneSelect(select);
  // A select item keeps the name DuckDB gives it, the call as written: simple(1).
  for (SelectItem& item : out->items) {
    if (!item.expr || !item.alias.empty() || item.expr->kind == ExprKind::kColumnRef) continue;
    const int before = scope.expansions();
    // DefaultColumnName quotes a function name that is a keyword: "simple"(1).
    std::string written = DefaultColumnName(*item.expr);
    TARN_RETURN_NOT_OK(scope.Expand(item.expr));
    if (scope.expansions() > before) item.alias = std::move(written);
  }
  auto expand = [&](ExprPtr& slot) { return scope.Expand(slot); };
  TARN_RETURN_NOT_OK(VisitLevel(*out, expand));
  if (scope.expansions() == 0) return std::unique_ptr<SelectStmt>();
  return out;
}

Status ExpandMacroCall(std::unique_ptr<ast::Expr>* call, const ExecContext& context) {
  if (!HasMacroDatabases(context)) return Status::OK();
  MacroScope scope(context);
  return scope.Expand(*call);
}

Result<std::unique_ptr<Source>> BindTableMacro(const TableRef& ref, std::string_view sql_text,
                                               const ExecContext& context) {
  (void)sql_text;
  if (!HasMacroDatabases(context) || ref.names.size() != 1) return std::unique_ptr<Source>();
  MacroScope scope(context);
  TARN_ASSIGN_OR_RETURN(const MacroInfo* macro, scope.Find(ref.names[0], /*is_table=*/true));
  if (macro == nullptr) return std::unique_ptr<Source>();
  if (!macro->is_table()) {
    return Status::InvalidArgument("Binder Error: ", macro->name,
                                   " is a scalar macro: call it in an expression, not in FROM");
  }
  if (table_macro_depth >= kMaxMacroDepth) {
    return Status::InvalidArgument("Binder Error: table macros nest more than ",
                                   kMaxMacroDepth, " deep at ", macro->name,
                                   " (does it call itself?)");
  }
  // The arguments as expressions ([a, b] as a list).
  std::vector<ExprPtr> owned;
  std::vector<const Expr*> args;
  std::vector<std::string> names;
  for (const TableArg& arg : ref.args) {
    if (arg.is_list) {
      auto list = std::make_unique<Expr>();
      list->kind = ExprKind::kList;
      for (const auto& item : arg.list) list->children.push_back(item->Clone());
      ast::UpdateHeight(list.get());
      owned.push_back(std::move(list));
      args.push_back(owned.back().get());
    } else {
      args.push_back(arg.expr.get());
    }
    names.push_back(arg.name);
  }
  TARN_ASSIGN_OR_RETURN(expr::MacroCall bound, expr::BindMacroArguments(*macro, args, names));
  const std::string& sql = bound.impl->sql;
  Result<std::vector<std::unique_ptr<Statement>>> statements = ParseStatements(sql);
  if (!statements.ok() || statements->size() != 1 ||
      (*statements)[0]->kind != StatementKind::kSelect || !(*statements)[0]->select) {
    return Status::Corruption("macro ", macro->schema_name, ".", macro->name,
                              ": its stored query is not one SELECT: ", sql);
  }
  std::unique_ptr<SelectStmt> query = std::move((*statements)[0]->select);
  TARN_RETURN_NOT_OK(VisitDeep(*query, [&](ExprPtr& slot) {
    expr::SubstituteMacroParameters(slot, bound);
    return Status::OK();
  }));
  ExecContext inner = context;
  inner.ctes = nullptr;  // the macro's query sees the catalog, not the caller's WITH queries
  ++table_macro_depth;
  Result<std::unique_ptr<Operator>> plan = PlanSelect(*query, sql, inner);
  --table_macro_depth;
  if (!plan.ok()) {
    return Status(plan.status().code(), StrCat("in macro ", macro->schema_name, ".",
                                               macro->name, ": ", plan.status().message()));
  }
  return MakeQuerySource(std::move(plan).value());
}

}  // namespace tarn::sql
