#include "sql/plan/planner.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <utility>

#include <re2/re2.h>

#include "expr/bind/bound.h"
#include "expr/eval/cast.h"
#include "sql/exec/aggregate.h"
#include "sql/exec/aggregate_library.h"
#include "sql/exec/sample.h"
#include "sql/exec/sort.h"
#include "sql/exec/unnest.h"
#include "sql/lake/macros.h"
#include "sql/parse/statement_clone.h"
#include "sql/plan/aggregate_rewrite.h"
#include "sql/plan/common_table.h"
#include "sql/plan/conjuncts.h"
#include "sql/plan/decorrelate.h"
#include "sql/plan/grouping_sets.h"
#include "sql/plan/join_source.h"
#include "sql/plan/names.h"
#include "sql/plan/pivot.h"
#include "sql/plan/summarize.h"
#include "sql/plan/set_query.h"
#include "sql/plan/subquery_rewrite.h"
#include "sql/plan/unnest_rewrite.h"
#include "sql/plan/source.h"
#include "sql/plan/window_rewrite.h"
#include "util/stack_check.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && LowerAscii(std::string(a)) == LowerAscii(std::string(b));
}

// t.col → col when t is the FROM item's name.
void StripQualifier(Expr* expr, const std::string& qualifier) {
  if (expr->kind == ExprKind::kColumnRef && expr->names.size() >= 2 && !qualifier.empty() &&
      SameName(expr->names[0], qualifier)) {
    expr->names.erase(expr->names.begin());
  }
  for (auto& child : expr->children) StripQualifier(child.get(), qualifier);
}

ExprPtr Prepared(const Expr& expr, const std::string& qualifier) {
  ExprPtr copy = expr.Clone();
  StripQualifier(copy.get(), qualifier);
  return copy;
}

void CollectColumns(const Expr& expr, const Schema& schema, std::vector<bool>* needed) {
  if (expr.kind == ExprKind::kColumnRef) {
    int index = schema.FindField(expr.names[0]);
    if (index >= 0) (*needed)[index] = true;
  }
  for (const auto& child : expr.children) CollectColumns(*child, schema, needed);
}

struct OutputItem {
  ExprPtr expr;
  std::string name;
};

// Replaces references to select-list aliases (names that are no source column) by the aliased
// expression, as DuckDB allows in WHERE, HAVING and ORDER BY expressions.
// A lambda's parameters are no aliases inside its body (`hidden`).
void SubstituteAliases(ExprPtr* expr, const std::vector<OutputItem>& items, const Schema& schema,
                       std::vector<std::string>* hidden) {
  Expr& e = **expr;
  if (e.kind == ExprKind::kColumnRef && e.names.size() == 1 && schema.FindField(e.names[0]) < 0) {
    for (const std::string& name : *hidden) {
      if (SameName(name, e.names[0])) return;
    }
    for (const auto& item : items) {
      if (SameName(item.name, e.names[0])) {
        *expr = item.expr->Clone();
        return;
      }
    }
  }
  const size_t outer = hidden->size();
  if (e.kind == ExprKind::kLambda) hidden->insert(hidden->end(), e.names.begin(), e.names.end());
  for (auto& child : e.children) SubstituteAliases(&child, items, schema, hidden);
  hidden->resize(outer);
}

void SubstituteAliases(ExprPtr* expr, const std::vector<OutputItem>& items, const Schema& schema) {
  std::vector<std::string> hidden;
  SubstituteAliases(expr, items, schema, &hidden);
}

bool IsIntegerLiteral(const Expr& expr) {
  return expr.kind == ExprKind::kLiteral && expr.literal_kind == ast::LiteralKind::kInteger;
}

// LIMIT / OFFSET values: non-negative integer constants.
Result<int64_t> ConstantCount(const Expr& expr, const char* clause) {
  Schema empty;
  Result<std::unique_ptr<BoundExpr>> bound = Bind(expr, empty);
  if (!bound.ok() || !(*bound)->IsConstant() || !(*bound)->type().IsInteger()) {
    return Status::InvalidArgument("Binder Error: ", clause, " must be an integer constant, not \"",
                                   expr.ToString(), "\"");
  }
  TARN_ASSIGN_OR_RETURN(Value value, (*bound)->EvaluateConstant());
  if (value.is_null()) return int64_t{-1};
  TARN_ASSIGN_OR_RETURN(Value cast, expr::CastValue(value, DataType(TypeId::kInt64)));
  if (cast.GetInt64() < 0) {
    return Status::InvalidArgument("Binder Error: ", clause, " cannot be negative: ",
                                   cast.GetInt64());
  }
  return cast.GetInt64();
}

// LIMIT p%: the percentage, a constant between 0 and 100 (DuckDB's range check), or -1 for
// NULL (no limit).
Result<double> ConstantPercent(const Expr& expr) {
  Schema empty;
  Result<std::unique_ptr<BoundExpr>> bound = Bind(expr, empty);
  if (!bound.ok() || !(*bound)->IsConstant()) {
    return Status::InvalidArgument("Binder Error: LIMIT percentage must be a constant, not \"",
                                   expr.ToString(), "\"");
  }
  TARN_ASSIGN_OR_RETURN(Value value, (*bound)->EvaluateConstant());
  if (value.is_null()) return -1.0;
  TARN_ASSIGN_OR_RETURN(Value cast, expr::CastValue(value, DataType(TypeId::kFloat64)));
  const double percent = cast.GetDouble();
  if (!(percent >= 0 && percent <= 100)) {
    return Status::InvalidArgument(
        "Out of Range Error: Limit percent out of range, should be between 0% and 100%");
  }
  return percent;
}

// LIMIT and OFFSET of a SELECT (-1: no limit; a negative offset counts as 0).
struct LimitOffset {
  int64_t limit = -1;
  int64_t offset = 0;
  // The rows a sort must keep for them: limit + offset, or -1 for every row.
  int64_t TopN() const { return limit >= 0 && limit <= INT64_MAX - offset ? limit + offset : -1; }
};

Result<LimitOffset> LimitOffsetOf(const SelectStmt& select) {
  LimitOffset bounds;
  if (select.limit) {
    TARN_ASSIGN_OR_RETURN(bounds.limit, ConstantCount(*select.limit, "LIMIT"));
  }
  if (select.offset) {
    TARN_ASSIGN_OR_RETURN(bounds.offset, ConstantCount(*select.offset, "OFFSET"));
    if (bounds.offset < 0) bounds.offset = 0;
  }
  return bounds;
}

// Binds against `schema` (the scanned columns); an unknown name is reported against `all` (every
// source column) so the message suggests the closest names, not only the scanned ones.
Result<std::unique_ptr<BoundExpr>> BindScanned(const Expr& expr, const Schema& schema,
                                               const Schema* all) {
  Result<std::unique_ptr<BoundExpr>> bound = Bind(expr, schema);
  if (!bound.ok() && bound.status().IsNotFound() && all != nullptr) {
    Result<std::unique_ptr<BoundExpr>> full = Bind(expr, *all);
    if (!full.ok()) return full.status();
  }
  return bound;
}

// The column names an expression refers to (lower case).
void CollectColumnNames(const Expr& expr, std::vector<std::string>* out) {
  if (expr.kind == ExprKind::kColumnRef && !expr.names.empty()) {
    out->push_back(LowerAscii(expr.names.back()));
  }
  for (const auto& child : expr.children) CollectColumnNames(*child, out);
}

// The argument and constant parameters of an aggregate of aggregate_library.h: string_agg's
// separator and a quantile's fraction are constants; arg_min's two arguments become one
// struct; string_agg reads its values as VARCHAR. `filtered` applies FILTER (WHERE ...), which
// an aggregate that sees NULLs (list, first) cannot take that way.
Status BindLibraryAggregate(const Expr& call, size_t args,
                            const std::function<ExprPtr(ExprPtr)>& filtered,
                            const Schema& scan_schema, const Schema* source_schema,
                            AggregateSpec* spec) {
  const auto [least, most] = LibraryAggregateArity(spec->function);
  if (args < static_cast<size_t>(least) || args > static_cast<size_t>(most) ||
      call.children[0]->kind == ExprKind::kStar) {
    return Status::InvalidArgument(
        "Binder Error: ", spec->function, " takes ", least,
        least == most ? "" : StrCat(" or ", most), least == 1 && most == 1 ? " argument" :
        " arguments", ", in \"", call.ToString(), "\"");
  }
  // ORDER BY in the call, or FILTER on an aggregate that sees NULLs: an ordered aggregate
  // (aggregate_library.h), whose argument is the struct (argument, keys...).
  const bool ordered = !call.arg_orders.empty() ||
                       (call.has_filter && LibraryAggregateKeepsNulls(spec->function));
  if (call.distinct && !call.arg_orders.empty()) {
    std::vector<std::string> argument_columns;
    for (size_t i = 0; i < args; ++i) CollectColumnNames(*call.children[i], &argument_columns);
    for (size_t k = 0; k < call.arg_orders.size(); ++k) {
      std::vector<std::string> key_columns;
      CollectColumnNames(*call.children[args + k], &key_columns);
      for (const std::string& column : key_columns) {
        if (std::find(argument_columns.begin(), argument_columns.end(), column) ==
            argument_columns.end()) {
          return Status::InvalidArgument("Binder Error: In a DISTINCT aggregate, ORDER BY "
                                         "expressions must appear in the argument list");
        }
      }
    }
  }
  ExprPtr argument = call.children[0]->Clone();
  const size_t row_arguments = static_cast<size_t>(LibraryAggregateRowArguments(spec->function));
  for (size_t i = row_arguments; i < args; ++i) {
    TARN_ASSIGN_OR_RETURN(auto bound, BindScanned(*call.children[i], scan_schema,
                                                  source_schema));
    if (!bound->IsConstant()) {
      return Status::InvalidArgument("Binder Error: the argument ", i + 1, " of ",
                                     spec->function, " must be a constant, in \"",
                                     call.ToString(), "\"");
    }
    TARN_ASSIGN_OR_RETURN(Value value, bound->EvaluateConstant());
    spec->parameters.push_back(std::move(value));
  }
  if (row_arguments == 2) {  // arg_min(value, ordering), corr(y, x): one struct of both
    std::vector<ExprPtr> pair;
    pair.push_back(std::move(argument));
    pair.push_back(call.children[1]->Clone());
    argument = ast::MakeFunction("row", std::move(pair));
  }
  const std::string& name = spec->function;
  if (name == "string_agg" || name == "group_concat" || name == "listagg") {
    TARN_ASSIGN_OR_RETURN(auto bound, BindScanned(*argument, scan_schema, source_schema));
    if (bound->type().id != TypeId::kVarchar) {
      auto cast = std::make_unique<Expr>();
      cast->kind = ExprKind::kCast;
      cast->type_name = "VARCHAR";
      cast->children.push_back(std::move(argument));
      UpdateHeight(cast.get());
      argument = std::move(cast);
    }
  }
  if (ordered) {
    std::vector<ExprPtr> fields;
    fields.push_back(std::move(argument));
    std::vector<OrderKey> keys;
    for (size_t k = 0; k < call.arg_orders.size(); ++k) {
      fields.push_back(call.children[args + k]->Clone());
      const ast::WindowOrder& order = call.arg_orders[k];
      keys.push_back({order.descending, order.nulls_first > 0});
    }
    argument = ast::MakeFunction("row", std::move(fields));
    spec->function = OrderedAggregateName(spec->function, keys);
  }
  argument = filtered(std::move(argument));
  TARN_ASSIGN_OR_RETURN(spec->argument, BindScanned(*argument, scan_schema, source_schema));
  return Status::OK();
}

Result<std::unique_ptr<BoundExpr>> BindPredicate(const Expr& expr, const Schema& schema,
                                                 const char* clause, const Schema* all = nullptr) {
  TARN_ASSIGN_OR_RETURN(auto bound, BindScanned(expr, schema, all));
  if (bound->IsConstant() && bound->type().id != TypeId::kBoolean) {
    TARN_ASSIGN_OR_RETURN(Value value, bound->EvaluateConstant());
    if (value.is_null()) {
      // WHERE NULL: a NULL of any type keeps no row.
      auto node = std::make_unique<expr::BoundNode>();
      node->kind = expr::BoundKind::kConstant;
      node->type = DataType(TypeId::kBoolean);
      node->constant = Value::Null(node->type);
      return std::make_unique<BoundExpr>(std::move(node));
    }
  }
  if (bound->type().id != TypeId::kBoolean && bound->type().id != TypeId::kNull) {
    return Status::InvalidArgument("Binder Error: ", clause, " must be a BOOLEAN expression, but \"",
                                   expr.ToString(), "\" is ", bound->type().ToString());
  }
  return bound;
}

std::unique_ptr<BoundExpr> ColumnExpr(int index, const Field& field) {
  auto node = std::make_unique<expr::BoundNode>();
  node->kind = expr::BoundKind::kColumn;
  node->type = field.type;
  node->column_index = index;
  node->name = field.name;
  return std::make_unique<BoundExpr>(std::move(node));
}

// COLUMNS(*), COLUMNS('regex'), COLUMNS(['a', 'b']), COLUMNS(c -> predicate): an expression
// repeated once per column it selects.
bool IsColumnsCall(const Expr& e) {
  return e.kind == ExprKind::kFunction && e.names.size() == 1 && SameName(e.names[0], "columns") &&
         e.children.size() == 1;
}

const Expr* FindColumnsCall(const Expr& e) {
  if (IsColumnsCall(e)) return &e;
  for (const auto& child : e.children) {
    if (!child) continue;
    if (const Expr* found = FindColumnsCall(*child)) return found;
  }
  return nullptr;
}

void ReplaceColumnsCalls(ExprPtr* e, const std::string& column) {
  if (IsColumnsCall(**e)) {
    *e = ast::MakeColumnRef({column});
    return;
  }
  for (auto& child : (*e)->children) {
    if (child) ReplaceColumnsCalls(&child, column);
  }
}

// The columns (of the first `visible` of `schema`) a COLUMNS call selects, in schema order.
Result<std::vector<int>> ColumnsSelection(const Expr& call, const Schema& schema, int visible) {
  const Expr& arg = *call.children[0];
  std::vector<int> out;
  if (arg.kind == ExprKind::kStar) {
    for (int c = 0; c < visible; ++c) out.push_back(c);
    return out;
  }
  if (arg.kind == ExprKind::kLiteral && arg.literal_kind == ast::LiteralKind::kString) {
    re2::RE2 pattern(arg.text, re2::RE2::Quiet);
    if (!pattern.ok()) {
      return Status::InvalidArgument("Binder Error: invalid regular expression \"", arg.text,
                                     "\" in COLUMNS: ", pattern.error());
    }
    for (int c = 0; c < visible; ++c) {
      if (re2::RE2::PartialMatch(schema.field(c).name, pattern)) out.push_back(c);
    }
    if (out.empty()) {
      return Status::InvalidArgument("Binder Error: No matching columns found that match regex \"",
                                     arg.text, "\"");
    }
    return out;
  }
  if (arg.kind == ExprKind::kList) {
    for (const auto& element : arg.children) {
      if (element->kind != ExprKind::kLiteral || element->literal_kind != ast::LiteralKind::kString) {
        return Status::InvalidArgument("Binder Error: COLUMNS expects a list of column names");
      }
      const int index = schema.FindField(element->text);
      if (index < 0 || index >= visible) {
        return Status::NotFound("Binder Error: Column \"", element->text,
                                "\" referenced by COLUMNS not found");
      }
      out.push_back(index);
    }
    std::sort(out.begin(), out.end());  // DuckDB keeps the table's order
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  if (arg.kind == ExprKind::kLambda && arg.names.size() == 1) {
    // The predicate evaluated with the parameter bound to each column's name.
    for (int c = 0; c < visible; ++c) {
      std::function<void(ExprPtr*)> substitute = [&](ExprPtr* e) {
        if ((*e)->kind == ExprKind::kColumnRef && (*e)->names.size() == 1 &&
            SameName((*e)->names[0], arg.names[0])) {
          *e = ast::MakeLiteral(ast::LiteralKind::kString, schema.field(c).name);
          return;
        }
        for (auto& child : (*e)->children) {
          if (child) substitute(&child);
        }
      };
      ExprPtr body = arg.children[0]->Clone();
      substitute(&body);
      TARN_ASSIGN_OR_RETURN(auto bound, Bind(*body, Schema()));
      if (!bound->IsConstant() || bound->type().id != TypeId::kBoolean) {
        return Status::InvalidArgument(
            "Binder Error: the lambda of COLUMNS must be a BOOLEAN condition on the column name");
      }
      TARN_ASSIGN_OR_RETURN(Value selected, bound->EvaluateConstant());
      if (!selected.is_null() && selected.GetBool()) out.push_back(c);
    }
    return out;
  }
  return Status::InvalidArgument(
      "Binder Error: COLUMNS expects *, a regular expression, a list of names or a lambda");
}

// `visible`: how many leading schema columns `*` expands to (the rest are pseudo-columns).
Status ExpandSelectList(const SelectStmt& select, const Schema& schema, int visible,
                        const std::string& qualifier, std::vector<OutputItem>* items) {
  // Earlier items with an alias, which a later item may name where no column has that name
  // (DuckDB's lateral column aliases: SELECT 1 AS a, a + 1).
  std::vector<OutputItem> aliased;
  for (const SelectItem& item : select.items) {
    const Expr* columns = !item.star && item.expr ? FindColumnsCall(*item.expr) : nullptr;
    if (columns != nullptr) {
      // COLUMNS(...) inside an expression: the expression once per column, named after it.
      if (select.from.kind == TableRef::Kind::kNone) {
        return Status::InvalidArgument(
            "Binder Error: COLUMNS(*) with no tables specified is not valid");
      }
      TARN_ASSIGN_OR_RETURN(std::vector<int> selected, ColumnsSelection(*columns, schema, visible));
      for (int index : selected) {
        const Field& field = schema.field(index);
        ExprPtr e = item.expr->Clone();
        ReplaceColumnsCalls(&e, field.name);
        e = Prepared(*e, qualifier);
        items->push_back({std::move(e), item.alias.empty() ? field.name : item.alias});
      }
      continue;
    }
    if (!item.star) {
      ExprPtr e = Prepared(*item.expr, qualifier);
      std::string name = item.alias.empty() ? DefaultColumnName(*e) : item.alias;
      if (!aliased.empty()) SubstituteAliases(&e, aliased, schema);
      if (!item.alias.empty()) aliased.push_back({e->Clone(), item.alias});
      items->push_back({std::move(e), std::move(name)});
      continue;
    }
    if (select.from.kind == TableRef::Kind::kNone) {
      return Status::InvalidArgument("Binder Error: SELECT * with no tables specified is not valid");
    }
    if (!item.star_qualifier.empty() && !SameName(item.star_qualifier, qualifier)) {
      return Status::NotFound("Binder Error: table \"", item.star_qualifier,
                              "\" not found in the FROM clause");
    }
    for (const std::string& name : item.exclude) {
      if (schema.FindField(name) < 0) {
        return Status::NotFound("Binder Error: column \"", name,
                                "\" in the EXCLUDE list not found in the FROM clause");
      }
    }
    for (const auto& [name, expr] : item.replace) {
      if (schema.FindField(name) < 0) {
        return Status::NotFound("Binder Error: Column \"", name,
                                "\" in REPLACE list not found in FROM clause");
      }
    }
    for (int index = 0; index < visible; ++index) {
      const Field& field = schema.field(index);
      bool excluded = false;
      for (const std::string& name : item.exclude) excluded = excluded || SameName(name, field.name);
      if (excluded) continue;
      ExprPtr e = ast::MakeColumnRef({field.name});
      for (const auto& [name, expr] : item.replace) {
        if (SameName(name, field.name)) e = Prepared(*expr, qualifier);
      }
      items->push_back({std::move(e), field.name});
    }
  }
  return Status::OK();
}

// stats(x) over a source that keeps statistics for x: the text, as DuckDB's optimizer folds it.
void ReplaceStatisticsCalls(const Source& source, ExprPtr* expr) {
  Expr& e = **expr;
  if (e.kind == ExprKind::kFunction && e.children.size() == 1 && e.names.size() == 1 &&
      SameName(e.names[0], "stats")) {
    if (std::optional<std::string> text = source.StatisticsText(*e.children[0])) {
      *expr = ast::MakeLiteral(ast::LiteralKind::kString, std::move(*text));
      return;
    }
  }
  for (auto& child : e.children) ReplaceStatisticsCalls(source, &child);
}

// The aggregate calls of `expr` replaced by their values from the source's statistics
// (Source::AggregateFromStatistics); false, leaving `expr` partly replaced, when some
// aggregate cannot be, or a column is named outside an aggregate.
bool FoldAggregates(Source& source, ExprPtr* expr) {
  Expr& e = **expr;
  if (e.kind == ExprKind::kColumnRef || e.kind == ExprKind::kWindow) return false;
  if (e.kind == ExprKind::kFunction && ContainsAggregate(e)) {
    bool nested = false;
    for (const auto& child : e.children) nested = nested || ContainsAggregate(*child);
    if (!nested && IsAggregateName(LowerAscii(e.names[0]))) {
      std::optional<Value> value = source.AggregateFromStatistics(e);
      if (!value) return false;
      ExprPtr literal = value->is_null()
                            ? ast::MakeLiteral(ast::LiteralKind::kNull, "")
                            : ast::MakeLiteral(ast::LiteralKind::kString,
                                               expr::ValueToText(*value));
      auto cast = std::make_unique<Expr>();
      cast->kind = ExprKind::kCast;
      cast->type_name = value->type().ToString();
      cast->children.push_back(std::move(literal));
      UpdateHeight(cast.get());
      *expr = std::move(cast);
      return true;
    }
  }
  for (auto& child : e.children) {
    if (!FoldAggregates(source, &child)) return false;
  }
  return true;
}

// The last `lists` columns of `input` unnested (TableRef::unnest_lists): the element columns
// take their names and places.
Result<std::unique_ptr<Operator>> UnnestLastColumns(std::unique_ptr<Operator> input, int lists) {
  const Schema& schema = *input->schema();
  const int width = schema.num_fields();
  std::vector<int> kept;
  std::vector<int> unnested;
  std::vector<std::string> names;
  for (int c = 0; c < width - lists; ++c) kept.push_back(c);
  for (int c = width - lists; c < width; ++c) {
    const Field& field = schema.field(c);
    TARN_RETURN_NOT_OK(UnnestedType(field.type).status());
    unnested.push_back(c);
    // "#u_l<k>" lists become "#u_e<k>" elements; the table function's column keeps its name.
    names.push_back(field.name.rfind("#u_l", 0) == 0 ? "#u_e" + field.name.substr(4) : field.name);
  }
  return MakeUnnest(std::move(input), std::move(kept), std::move(unnested), std::move(names));
}

// `joined`: the Source of a FROM clause with joins, `select` rewritten over it (join_source.h).
Result<std::unique_ptr<Operator>> PlanSelectFrom(const SelectStmt& select,
                                                 std::unique_ptr<Source> joined,
                                                 std::string_view sql_text,
                                                 const ExecContext& context) {
  // The source and the schema names resolve against.
  std::unique_ptr<Source> source;
  std::unique_ptr<Operator> input;
  Schema source_schema;
  const TableRef& from = select.from;
  std::string qualifier = from.alias;
  const bool is_join = joined != nullptr;
  if (is_join) {
    source = std::move(joined);
    source_schema = source->schema();
  } else if (from.kind == TableRef::Kind::kNone) {
    input = MakeSingleRow();
  } else if (const CteScope* cte = FindCte(context, from)) {
    TARN_ASSIGN_OR_RETURN(input, PlanCte(*cte, sql_text, context));
    source_schema = *input->schema();
    if (qualifier.empty()) qualifier = from.names.back();
  } else if (from.kind == TableRef::Kind::kSubquery) {
    TARN_ASSIGN_OR_RETURN(input, PlanSelect(*from.subquery, sql_text, context));
    if (from.unnest_lists > 0) {
      TARN_ASSIGN_OR_RETURN(input, UnnestLastColumns(std::move(input), from.unnest_lists));
    }
    source_schema = *input->schema();
  } else {
    TARN_ASSIGN_OR_RETURN(source, BindTableRef(from, sql_text, context));
    source_schema = source->schema();
    if (qualifier.empty() && from.kind == TableRef::Kind::kTable) qualifier = from.names.back();
  }
  if (from.column_aliases.size() > source_schema.fields.size()) {
    return Status::InvalidArgument("Binder Error: table \"", from.alias, "\" has ",
                                   source_schema.num_fields(), " columns but ",
                                   from.column_aliases.size(), " column names were given");
  }
  for (size_t i = 0; i < from.column_aliases.size(); ++i) {
    source_schema.fields[i].name = from.column_aliases[i];
  }

  std::vector<OutputItem> items;
  const int visible = source ? source->visible_columns() : source_schema.num_fields();
  TARN_RETURN_NOT_OK(ExpandSelectList(select, source_schema, visible, qualifier, &items));
  if (source) {
    for (auto& item : items) ReplaceStatisticsCalls(*source, &item.expr);
  }
  ExprPtr where = select.where ? Prepared(*select.where, qualifier) : nullptr;
  ExprPtr having = select.having ? Prepared(*select.having, qualifier) : nullptr;
  ExprPtr qualify = select.qualify ? Prepared(*select.qualify, qualifier) : nullptr;
  std::vector<ExprPtr> order;
  for (const OrderItem& item : select.order_by) order.push_back(Prepared(*item.expr, qualifier));
  if (where) SubstituteAliases(&where, items, source_schema);
  if (where) where = FactorCommonConjuncts(std::move(where));
  if (having) SubstituteAliases(&having, items, source_schema);
  if (qualify) SubstituteAliases(&qualify, items, source_schema);
  if (where && ContainsAggregate(*where)) {
    return Status::InvalidArgument("Binder Error: WHERE clause cannot contain aggregates");
  }
  if (where && ContainsWindow(*where)) {
    return Status::InvalidArgument("Binder Error: WHERE clause cannot contain window functions!");
  }
  if (having && ContainsWindow(*having)) {
    return Status::InvalidArgument("Binder Error: HAVING clause cannot contain window functions!");
  }
  bool windowed = qualify != nullptr && ContainsWindow(*qualify);
  for (const auto& item : items) windowed = windowed || ContainsWindow(*item.expr);
  if (qualify && !windowed) {
    return Status::InvalidArgument(
        "Binder Error: at least one window function must appear in the SELECT column or "
        "QUALIFY clause");
  }

  // An ungrouped aggregate over a whole table whose statistics answer it (min, max, count(*)
  // of a lake table without deletions): one row of constants, no scan, as DuckDB folds them.
  if (source && !is_join && !where && !having && !qualify && !windowed &&
      select.group_by.empty() && !select.group_by_all && from.column_aliases.empty()) {
    bool any = false;
    for (const auto& item : items) any = any || ContainsAggregate(*item.expr);
    if (any) {
      std::vector<OutputItem> folded;
      bool ok = true;
      for (const auto& item : items) {
        OutputItem copy{item.expr->Clone(), item.name};
        ok = ok && FoldAggregates(*source, &copy.expr);
        folded.push_back(std::move(copy));
      }
      std::vector<ExprPtr> folded_order;
      for (const auto& e : order) {
        ExprPtr copy = e->Clone();
        ok = ok && FoldAggregates(*source, &copy);
        folded_order.push_back(std::move(copy));
      }
      if (ok) {
        items = std::move(folded);
        order = std::move(folded_order);
        source.reset();
        input = MakeSingleRow();
        source_schema = Schema();
      }
    }
  }

  bool aggregate = !select.group_by.empty() || select.group_by_all || having != nullptr;
  for (const auto& item : items) aggregate = aggregate || ContainsAggregate(*item.expr);
  for (const auto& e : order) aggregate = aggregate || ContainsAggregate(*e);
  if (qualify) aggregate = aggregate || ContainsAggregate(*qualify);

  // GROUP BY items: expressions, 1-based positions, or select-list aliases.
  std::vector<ExprPtr> groups;
  if (select.group_by_all) {
    for (const auto& item : items) {
      if (!ContainsAggregate(*item.expr)) groups.push_back(item.expr->Clone());
    }
  }
  for (const auto& written : select.group_by) {
    ExprPtr g = Prepared(*written, qualifier);
    if (IsIntegerLiteral(*g)) {
      size_t position = std::strtoull(g->text.c_str(), nullptr, 10);
      if (position < 1 || position > items.size()) {
        return Status::InvalidArgument("Binder Error: GROUP BY term out of range - should be between 1 and ",
                                       items.size());
      }
      g = items[position - 1].expr->Clone();
    } else if (g->kind == ExprKind::kColumnRef && g->names.size() == 1 &&
               source_schema.FindField(g->names[0]) < 0) {
      for (const auto& item : items) {
        if (SameName(item.name, g->names[0])) {
          g = item.expr->Clone();
          break;
        }
      }
    }
    if (ContainsAggregate(*g)) {
      return Status::InvalidArgument("Binder Error: GROUP BY clause cannot contain aggregates");
    }
    if (ContainsWindow(*g)) {
      return Status::InvalidArgument(
          "Binder Error: GROUP BY clause cannot contain window functions!");
    }
    groups.push_back(std::move(g));
  }

  // Projection pushdown: only the columns some expression names are read.
  Schema scan_schema;
  std::vector<int> columns;
  if (source) {
    std::vector<bool> needed(source_schema.fields.size(), false);
    for (const auto& item : items) CollectColumns(*item.expr, source_schema, &needed);
    for (const auto& e : groups) CollectColumns(*e, source_schema, &needed);
    for (const auto& e : order) CollectColumns(*e, source_schema, &needed);
    if (where) CollectColumns(*where, source_schema, &needed);
    if (having) CollectColumns(*having, source_schema, &needed);
    if (qualify) CollectColumns(*qualify, source_schema, &needed);
    for (size_t i = 0; i < needed.size(); ++i) {
      if (!needed[i]) continue;
      columns.push_back(static_cast<int>(i));
      scan_schema.fields.push_back(source_schema.fields[i]);
    }
  } else {
    scan_schema = source_schema;
  }

  std::unique_ptr<BoundExpr> where_bound;
  if (where) {
    TARN_ASSIGN_OR_RETURN(where_bound, BindPredicate(*where, scan_schema, "WHERE clause", &source_schema));
  }
  if (source) {
    std::shared_ptr<const StatisticsPredicate> pruning;
    if (where_bound) pruning = MakeStatisticsPredicate(*where_bound, scan_schema);
    // Renamed columns (FROM t AS x(a, b)) would not mean the same to the source.
    if (where && from.column_aliases.empty()) source->PushFilter(*where);
    if (where && from.column_aliases.empty() && source->ProvablyEmpty()) {
      input = MakeEmptyResult(std::make_shared<Schema>(scan_schema));
    } else {
      TARN_ASSIGN_OR_RETURN(input, source->Open(columns, std::move(pruning)));
      input = WatchSource(std::move(input), *source, context);
    }
  }
  // A join's probe runs on every thread, as a filter does.
  const bool where_bound_used = where_bound != nullptr || is_join;
  if (where_bound && (!source || !source->FiltersRows())) {
    input = MakeFilter(std::move(input), std::move(where_bound));
  }
  if (select.sample) input = MakeSample(std::move(input), *select.sample);

  // Select expressions over the aggregate's output, when aggregating.
  std::vector<const Expr*> group_pointers;
  for (const auto& g : groups) group_pointers.push_back(g.get());
  AggregateRewriter rewriter(group_pointers);
  std::vector<ExprPtr> outputs;
  for (const auto& item : items) {
    if (aggregate) {
      TARN_ASSIGN_OR_RETURN(auto e, rewriter.Rewrite(*item.expr));
      outputs.push_back(std::move(e));
    } else {
      outputs.push_back(item.expr->Clone());
    }
  }

  // ORDER BY: positions, output names, select expressions, else hidden extra columns.
  std::vector<SortKey> sort_keys;
  std::vector<ExprPtr> hidden;
  for (size_t o = 0; o < order.size(); ++o) {
    const Expr& e = *order[o];
    int column = -1;
    if (IsIntegerLiteral(e)) {
      size_t position = std::strtoull(e.text.c_str(), nullptr, 10);
      if (position < 1 || position > items.size()) {
        return Status::InvalidArgument("Binder Error: ORDER term out of range - should be between 1 and ",
                                       items.size());
      }
      column = static_cast<int>(position - 1);
    } else if (e.kind == ExprKind::kColumnRef && e.names.size() == 1) {
      for (size_t i = 0; i < items.size() && column < 0; ++i) {
        if (SameName(items[i].name, e.names[0])) column = static_cast<int>(i);
      }
    }
    for (size_t i = 0; i < items.size() && column < 0; ++i) {
      if (e.Equals(*items[i].expr)) column = static_cast<int>(i);
    }
    if (column < 0) {
      SubstituteAliases(&order[o], items, source_schema);
      for (size_t i = 0; i < items.size() && column < 0; ++i) {
        if (order[o]->Equals(*items[i].expr)) column = static_cast<int>(i);
      }
    }
    if (column < 0) {
      if (select.distinct) {
        return Status::InvalidArgument(
            "Binder Error: for SELECT DISTINCT, ORDER BY expressions must appear in the select list: \"",
            order[o]->ToString(), "\"");
      }
      if (aggregate) {
        TARN_ASSIGN_OR_RETURN(auto rewritten, rewriter.Rewrite(*order[o]));
        hidden.push_back(std::move(rewritten));
      } else {
        hidden.push_back(order[o]->Clone());
      }
      column = static_cast<int>(items.size() + hidden.size() - 1);
    }
    const OrderItem& written = select.order_by[o];
    sort_keys.push_back({column, written.descending, written.nulls_first.value_or(false)});
  }
  ExprPtr having_rewritten;
  if (having) {
    TARN_ASSIGN_OR_RETURN(having_rewritten, rewriter.Rewrite(*having));
  }
  ExprPtr qualify_rewritten;
  if (qualify && aggregate) {
    TARN_ASSIGN_OR_RETURN(qualify_rewritten, rewriter.Rewrite(*qualify));
  } else if (qualify) {
    qualify_rewritten = qualify->Clone();
  }

  Schema aggregate_schema;
  const Schema* bind_schema = &scan_schema;
  if (aggregate) {
    std::vector<std::unique_ptr<BoundExpr>> keys;
    std::vector<std::string> key_names;
    for (size_t g = 0; g < groups.size(); ++g) {
      TARN_ASSIGN_OR_RETURN(auto key, BindScanned(*groups[g], scan_schema, &source_schema));
      keys.push_back(std::move(key));
      key_names.push_back(AggregateRewriter::KeyColumn(g));
    }
    std::vector<AggregateSpec> specs;
    for (size_t a = 0; a < rewriter.aggregates().size(); ++a) {
      const Expr& call = *rewriter.aggregates()[a];
      AggregateSpec spec;
      spec.function = LowerAscii(call.names[0]);
      if (spec.function == "mean") spec.function = "avg";
      spec.distinct = call.distinct;
      spec.name = AggregateRewriter::AggregateColumn(a);
      spec.display = DefaultColumnName(call);
      // ORDER BY in the call matters to the order-sensitive aggregates of
      // aggregate_library.h only; count, sum, avg, min and max ignore it, as DuckDB does.
      const size_t args = call.num_args();
      bool star = args == 0 || (args == 1 && call.children[0]->kind == ExprKind::kStar);
      // FILTER (WHERE c): every aggregate here skips NULL inputs, so f(x) FILTER (WHERE c) is
      // f(CASE WHEN c THEN x END), and count(*) FILTER (WHERE c) counts CASE WHEN c THEN 1 END.
      auto filtered = [&](ExprPtr argument) -> ExprPtr {
        if (!call.has_filter) return argument;
        auto when = std::make_unique<Expr>();
        when->kind = ExprKind::kCase;
        when->children.push_back(call.children.back()->Clone());
        when->children.push_back(std::move(argument));
        UpdateHeight(when.get());
        return when;
      };
      if (spec.function == "count" && star) {
        spec.function = call.has_filter ? "count" : "count_star";
        if (call.has_filter) {
          ExprPtr one = filtered(ast::MakeLiteral(ast::LiteralKind::kInteger, "1"));
          TARN_ASSIGN_OR_RETURN(spec.argument, BindScanned(*one, scan_schema, &source_schema));
        }
      } else if ((spec.function == "min" || spec.function == "max") && args == 2) {
        spec.function = "#" + spec.function + "_n";  // max(x, n): the n largest values
        TARN_RETURN_NOT_OK(BindLibraryAggregate(call, args, filtered, scan_schema,
                                                &source_schema, &spec));
      } else if (IsLibraryAggregateName(spec.function)) {
        TARN_RETURN_NOT_OK(BindLibraryAggregate(call, args, filtered, scan_schema,
                                                &source_schema, &spec));
      } else if (args != 1 || call.children[0]->kind == ExprKind::kStar) {
        return Status::InvalidArgument("Binder Error: ", spec.function,
                                       " takes exactly one argument, in \"", call.ToString(), "\"");
      } else {
        ExprPtr argument = filtered(call.children[0]->Clone());
        TARN_ASSIGN_OR_RETURN(spec.argument,
                              BindScanned(*argument, scan_schema, &source_schema));
      }
      specs.push_back(std::move(spec));
    }
    Result<std::unique_ptr<Operator>> grouped =
        MakeHashAggregate(std::move(input), std::move(keys), std::move(key_names),
                          std::move(specs), context);
    if (!grouped.ok()) {
      return Status(grouped.status().code(), grouped.status().message());
    }
    input = std::move(grouped).value();
    aggregate_schema = *input->schema();
    bind_schema = &aggregate_schema;
    if (having_rewritten) {
      TARN_ASSIGN_OR_RETURN(auto predicate,
                            BindPredicate(*having_rewritten, aggregate_schema, "HAVING clause"));
      input = MakeFilter(std::move(input), std::move(predicate));
    }
  }

  // Window functions: computed over the rows so far (the aggregate's groups when
  // aggregating), appended as columns #w0, #w1, ...; QUALIFY filters on them.
  Schema window_schema;
  if (windowed || std::any_of(hidden.begin(), hidden.end(),
                              [](const ExprPtr& e) { return ContainsWindow(*e); })) {
    WindowExtractor extractor;
    for (auto& e : outputs) TARN_RETURN_NOT_OK(extractor.Extract(&e));
    for (auto& e : hidden) TARN_RETURN_NOT_OK(extractor.Extract(&e));
    if (qualify_rewritten) TARN_RETURN_NOT_OK(extractor.Extract(&qualify_rewritten));
    const Schema& over = *bind_schema;
    const Schema* all = aggregate ? nullptr : &source_schema;
    BindFn bind = [&over, all](const Expr& e) { return BindScanned(e, over, all); };
    std::vector<WindowFunction> functions;
    for (size_t w = 0; w < extractor.windows().size(); ++w) {
      TARN_ASSIGN_OR_RETURN(WindowFunction function,
                            BindWindow(*extractor.windows()[w], bind, WindowExtractor::Column(w)));
      functions.push_back(std::move(function));
    }
    if (!aggregate) input = MakeGather(std::move(input), context);
    TARN_ASSIGN_OR_RETURN(input, MakeWindow(std::move(input), std::move(functions), context));
    // The names the rows so far are bound by (a source's own schema may name its columns
    // otherwise: FROM range(3) t(x)), then the window columns.
    window_schema = over;
    const Schema& produced = *input->schema();
    for (int c = over.num_fields(); c < produced.num_fields(); ++c) {
      window_schema.fields.push_back(produced.field(c));
    }
    bind_schema = &window_schema;
    if (qualify_rewritten) {
      TARN_ASSIGN_OR_RETURN(auto predicate,
                            BindPredicate(*qualify_rewritten, window_schema, "QUALIFY clause"));
      input = MakeFilter(std::move(input), std::move(predicate));
    }
  }

  std::vector<std::unique_ptr<BoundExpr>> projections;
  std::vector<std::string> names;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TARN_ASSIGN_OR_RETURN(auto bound, BindScanned(*outputs[i], *bind_schema,
                                                  aggregate ? nullptr : &source_schema));
    projections.push_back(std::move(bound));
    names.push_back(items[i].name);
  }
  for (size_t h = 0; h < hidden.size(); ++h) {
    TARN_ASSIGN_OR_RETURN(auto bound, BindScanned(*hidden[h], *bind_schema,
                                                  aggregate ? nullptr : &source_schema));
    projections.push_back(std::move(bound));
    names.push_back("#order" + std::to_string(h));
  }
  // A top-N whose first key is a column of a Parquet scan right below (through filters, and
  // the unlabelled operators that only watch for progress and interrupts) hands the scan a
  // bound on that column (see TopNBound).
  std::shared_ptr<TopNBound> top_n_bound;
  if (!aggregate && !select.distinct && !sort_keys.empty() && select.limit) {
    const SortKey& first = sort_keys[0];
    const expr::BoundNode& key = projections[static_cast<size_t>(first.column)]->root();
    Operator* scan = input.get();
    while (scan->per_batch_input() != nullptr &&
           (scan->filter_predicate() != nullptr || scan->label().empty())) {
      scan = scan->per_batch_input();
    }
    if (key.kind == expr::BoundKind::kColumn && scan->per_batch_input() == nullptr &&
        key.column_index >= 0 && key.column_index < scan->schema()->num_fields() &&
        TopNBound::Supports(key.type, first)) {
      auto bound = std::make_shared<TopNBound>(key.column_index, key.type, first.descending);
      if (scan->AddRowFilter(bound)) top_n_bound = std::move(bound);
    }
  }
  input = MakeProjection(std::move(input), std::move(projections), std::move(names));

  if (select.distinct) {
    std::vector<std::unique_ptr<BoundExpr>> keys;
    std::vector<std::string> key_names;
    const Schema& projected = *input->schema();
    for (int c = 0; c < projected.num_fields(); ++c) {
      keys.push_back(ColumnExpr(c, projected.field(c)));
      key_names.push_back(projected.field(c).name);
    }
    TARN_ASSIGN_OR_RETURN(input, MakeHashAggregate(std::move(input), std::move(keys),
                                                   std::move(key_names), {}, context));
  }

  TARN_ASSIGN_OR_RETURN(const LimitOffset bounds, LimitOffsetOf(select));
  const int64_t limit = bounds.limit;
  const int64_t offset = bounds.offset;
  // Without an aggregate, the filter and projection (and a top-N's per-batch half) run on
  // every thread; a plain scan with a LIMIT keeps pulling lazily on one.
  const bool parallel_pipeline = !aggregate && !select.distinct;
  if (!sort_keys.empty()) {
    const int64_t top_n = bounds.TopN();
    if (parallel_pipeline) {
      if (top_n >= 0) {
        input = MakeTopNPerBatch(std::move(input), sort_keys, top_n, std::move(top_n_bound));
      }
      input = MakeGather(std::move(input), context);
    }
    input = MakeSort(std::move(input), std::move(sort_keys), static_cast<int>(items.size()), top_n,
                     context);
  }
  if (sort_keys.empty() && parallel_pipeline && where_bound_used) {
    input = MakeGather(std::move(input), context);
  }
  if (limit >= 0 || offset > 0) input = MakeLimit(std::move(input), limit, offset);
  return input;
}

// A SELECT with its CTEs in scope and no subqueries left in its expressions.
Result<std::unique_ptr<Operator>> PlanScoped(const SelectStmt& select, std::string_view sql_text,
                                             const ExecContext& context) {
  if (select.from.kind == TableRef::Kind::kJoin) {
    TARN_ASSIGN_OR_RETURN(BoundJoins joins, BindJoins(select, sql_text, context));
    return PlanSelectFrom(*joins.select, std::move(joins.source), sql_text, context);
  }
  return PlanSelectFrom(select, nullptr, sql_text, context);
}

// SELECT DISTINCT ON (keys) ... ORDER BY o as SELECT ... QUALIFY row_number() OVER
// (PARTITION BY keys ORDER BY o) = 1 ORDER BY o: of each distinct key the first row in the
// query's order (any one without ORDER BY), as DuckDB keeps it.
Result<std::unique_ptr<SelectStmt>> RewriteDistinctOn(const SelectStmt& select) {
  std::unique_ptr<SelectStmt> out = CloneSelect(select);
  TARN_ASSIGN_OR_RETURN(ExprPtr window, RowNumberOver(select.distinct_on, select.order_by,
                                                      select.items, "DISTINCT ON"));
  ExprPtr first = ast::MakeBinary(ast::Op::kEqual, std::move(window),
                                  ast::MakeLiteral(ast::LiteralKind::kInteger, "1"));
  out->qualify = out->qualify ? ast::MakeBinary(ast::Op::kAnd, std::move(out->qualify), std::move(first))
                              : std::move(first);
  out->distinct_on.clear();
  return out;
}

// The statement parser's marker for ORDER BY ALL (the only ORDER BY item when present).
constexpr const char* kOrderByAll = "#order_by_all";

bool IsOrderByAll(const SelectStmt& select) {
  return select.order_by.size() == 1 && select.order_by[0].expr->kind == ExprKind::kColumnRef &&
         select.order_by[0].expr->names.size() == 1 &&
         select.order_by[0].expr->names[0] == kOrderByAll;
}

// ORDER BY ALL: the query without ORDER BY / LIMIT / OFFSET sorted by its columns 1, ..., n
// (each with ALL's direction and NULLS), then the LIMIT / OFFSET.
Result<std::unique_ptr<Operator>> PlanOrderByAll(const SelectStmt& select,
                                                 std::string_view sql_text,
                                                 const ExecContext& context) {
  std::unique_ptr<SelectStmt> inner = CloneSelect(select);
  inner->order_by.clear();
  inner->limit = nullptr;
  inner->offset = nullptr;
  // Planned once: a source that acts when planned (a maintenance call in FROM) runs once.
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> input, PlanSelect(*inner, sql_text, context));
  const int width = input->schema()->num_fields();
  std::vector<SortKey> keys;
  for (int c = 0; c < width; ++c) {
    keys.push_back({c, select.order_by[0].descending,
                    select.order_by[0].nulls_first.value_or(false)});
  }
  TARN_ASSIGN_OR_RETURN(const LimitOffset bounds, LimitOffsetOf(select));
  input = MakeSort(std::move(input), std::move(keys), width, bounds.TopN(), context);
  if (bounds.limit >= 0 || bounds.offset > 0) {
    input = MakeLimit(std::move(input), bounds.limit, bounds.offset);
  }
  return input;
}

}  // namespace

namespace {

// The rewrites below plan in functions of their own (not inlined), so their locals do not
// weigh on PlanSelect's frame, which every level of a nested query spends.

// LIMIT p% [OFFSET n]: the query without them, all its rows held, then the share of them.
[[gnu::noinline]] Result<std::unique_ptr<Operator>> PlanLimitPercent(const SelectStmt& select,
                                                                     std::string_view sql_text,
                                                                     const ExecContext& context) {
  std::unique_ptr<SelectStmt> whole = CloneSelect(select);
  whole->limit = nullptr;
  whole->limit_percent = false;
  whole->offset = nullptr;
  TARN_ASSIGN_OR_RETURN(const double percent, ConstantPercent(*select.limit));
  int64_t offset = 0;
  if (select.offset) {
    TARN_ASSIGN_OR_RETURN(offset, ConstantCount(*select.offset, "OFFSET"));
  }
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> input, PlanSelect(*whole, sql_text, context));
  if (percent < 0) return offset > 0 ? MakeLimit(std::move(input), -1, offset) : std::move(input);
  return MakeLimitPercent(std::move(input), percent, std::max<int64_t>(offset, 0));
}

// unnest(struct) as a whole item is the struct's fields: the arguments' types decide. Null
// when no whole item unnests a struct.
[[gnu::noinline]] Result<std::unique_ptr<Operator>> PlanStructUnnests(const SelectStmt& select,
                                                                      std::string_view sql_text,
                                                                      const ExecContext& context) {
  const std::vector<size_t> bare = BareUnnestItems(select);
  if (bare.empty()) return std::unique_ptr<Operator>();
  std::unique_ptr<SelectStmt> probe = UnnestArgumentProbe(select, bare);
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> probed, PlanSelect(*probe, sql_text, context));
  std::vector<DataType> types;
  for (int c = 0; c < probed->schema()->num_fields(); ++c) {
    types.push_back(probed->schema()->field(c).type);
  }
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> expanded,
                        ExpandStructUnnests(select, bare, types));
  if (!expanded) return std::unique_ptr<Operator>();
  return PlanSelect(*expanded, sql_text, context);
}

// FROM …, LATERAL (SELECT …): decorrelated into joins (decorrelate.h), then planned; the CTEs
// of the query (`inner`) are in scope for the subqueries' tables.
[[gnu::noinline]] Result<std::unique_ptr<Operator>> PlanLateral(const SelectStmt& select,
                                                                std::string_view sql_text,
                                                                const ExecContext& context,
                                                                const ExecContext& inner) {
  std::unique_ptr<SelectStmt> rewritten = CloneSelect(select);
  TARN_RETURN_NOT_OK(RewriteLateralJoins(&rewritten->from, sql_text, inner));
  return PlanSelect(*rewritten, sql_text, context);
}

}  // namespace

Result<std::unique_ptr<Operator>> PlanSelect(const SelectStmt& select, std::string_view sql_text,
                                             const ExecContext& outer_context) {
  if (StackBytesLeft() < kPlanStackReserve) {
    return Status::InvalidArgument(
        "Parser Error: query nested too deeply (", outer_context.plan_depth,
        " levels of derived tables, CTEs, subqueries and set operations leave too little of "
        "the thread's stack to plan more)");
  }
  ExecContext context = outer_context;
  ++context.plan_depth;
  if (HasMacroDatabases(context) && MayCallMacros(select)) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> expanded, ExpandMacroCalls(select, context));
    if (expanded) return PlanSelect(*expanded, sql_text, context);
  }
  if (select.limit_percent) return PlanLimitPercent(select, sql_text, context);
  if (select.summarize) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> rewritten,
                          RewriteSummarize(select, sql_text, context));
    return PlanSelect(*rewritten, sql_text, context);
  }
  if (select.pivot) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> rewritten, RewritePivot(select, sql_text, context));
    return PlanSelect(*rewritten, sql_text, context);
  }
  if (!select.distinct_on.empty()) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> rewritten, RewriteDistinctOn(select));
    return PlanSelect(*rewritten, sql_text, context);
  }
  if (!select.windows.empty()) {
    std::unique_ptr<SelectStmt> resolved = CloneSelect(select);
    TARN_RETURN_NOT_OK(ResolveNamedWindows(resolved.get()));
    return PlanSelect(*resolved, sql_text, context);
  }
  if (!select.grouping_sets.empty()) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> expanded, ExpandGroupingSets(select));
    return PlanSelect(*expanded, sql_text, context);
  }
  if (IsOrderByAll(select)) return PlanOrderByAll(select, sql_text, context);
  if (!select.values.empty()) return PlanValues(select);
  if (select.set_op == SetOp::kNone && HasSelectUnnest(select)) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> fields, PlanStructUnnests(select, sql_text, context));
    if (fields) return fields;
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> rewritten, RewriteSelectUnnest(select));
    return PlanSelect(*rewritten, sql_text, context);
  }
  if (IsUnnestFunction(select.from)) {
    std::unique_ptr<SelectStmt> rewritten = CloneSelect(select);
    TARN_ASSIGN_OR_RETURN(rewritten->from, UnnestFunctionAsDerivedTable(select.from));
    return PlanSelect(*rewritten, sql_text, context);
  }
  // Each CTE sees the ones before it; the query sees them all.
  std::vector<CteScope> scopes(select.ctes.size());
  ExecContext inner = context;
  for (size_t i = 0; i < select.ctes.size(); ++i) {
    scopes[i].parent = inner.ctes;
    scopes[i].cte = &select.ctes[i];
    inner.ctes = &scopes[i];
  }
  // A CTE read more than once (by the query and the CTEs after it) is materialized: counted
  // from the last CTE back, so each query is walked once.
  TableNameCounts later;
  if (!select.ctes.empty()) CountTableNames(select, false, &later);
  for (size_t i = select.ctes.size(); i-- > 0;) {
    const CommonTableExpr& cte = select.ctes[i];
    auto found = later.find(LowerAscii(cte.name));
    const int references = found == later.end() ? 0 : found->second;
    if (!cte.recursive && cte.materialized != false &&
        (cte.materialized == true || references >= 2)) {
      scopes[i].shared = std::make_shared<SharedRows>();
    }
    if (cte.query) CountTableNames(*cte.query, true, &later);
  }
  if (select.set_op != SetOp::kNone) return PlanSetQuery(select, sql_text, inner);
  if (HasLateralSubquery(select.from)) return PlanLateral(select, sql_text, context, inner);
  if (HasSubqueries(select)) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> rewritten, RewriteSubqueries(select, inner));
    return PlanScoped(*rewritten, sql_text, inner);
  }
  return PlanScoped(select, sql_text, inner);
}

}  // namespace tarn::sql
