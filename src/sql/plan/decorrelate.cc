#include "sql/plan/decorrelate.h"

#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "expr/eval/cast.h"
#include "expr/functions/functions.h"
#include "sql/parse/statement_clone.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/common_table.h"
#include "sql/plan/aggregate_rewrite.h"
#include "sql/plan/join_tree.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "sql/plan/window_rewrite.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

// The tables of the subquery's FROM clause: each one's qualifier and column names, lower-case.
struct InnerNames {
  std::set<std::string> qualifiers;
  std::set<std::string> columns;
};

std::string FileStem(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

// The name a table of a FROM clause is qualified by: its alias, else its table name, file
// stem or function name.
std::string QualifierOf(const TableRef& ref) {
  std::string qualifier = ref.alias;
  if (qualifier.empty() && ref.kind == TableRef::Kind::kTable) qualifier = ref.names.back();
  if (qualifier.empty() && ref.kind == TableRef::Kind::kFile) qualifier = FileStem(ref.file);
  if (qualifier.empty() && ref.kind == TableRef::Kind::kFunction) qualifier = ref.names[0];
  return LowerAscii(qualifier);
}

// The columns a table of a FROM clause has, as `SELECT * FROM ref` names them (planned, not
// run), lower-case.
Result<std::set<std::string>> ColumnsOf(const TableRef& ref, std::string_view sql_text,
                                        const ExecContext& context) {
  SelectStmt all;
  SelectItem star;
  star.star = true;
  all.items.push_back(std::move(star));
  all.from = CloneTableRef(ref);
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan, PlanSelect(all, sql_text, context));
  std::set<std::string> columns;
  for (const Field& field : plan->schema()->fields) columns.insert(LowerAscii(field.name));
  return columns;
}

Status CollectInnerNames(const TableRef& ref, std::string_view sql_text, const ExecContext& context,
                         InnerNames* names) {
  if (ref.kind == TableRef::Kind::kJoin) {
    TARN_RETURN_NOT_OK(CollectInnerNames(*ref.left, sql_text, context, names));
    return CollectInnerNames(*ref.right, sql_text, context, names);
  }
  TARN_ASSIGN_OR_RETURN(std::set<std::string> columns, ColumnsOf(ref, sql_text, context));
  names->columns.insert(columns.begin(), columns.end());
  std::string qualifier = QualifierOf(ref);
  if (!qualifier.empty()) names->qualifiers.insert(qualifier);
  return Status::OK();
}

// A table or file of the outer query's FROM clause, with its qualifier and columns.
struct OuterTable {
  const TableRef* ref;
  std::string qualifier;
  std::set<std::string> columns;
};

// The tables and files of `ref` whose columns the outer query sees (not the right side of a
// SEMI or ANTI join), CTEs left out; a table that cannot be planned alone is left out too.
void CollectOuterTables(const TableRef& ref, std::string_view sql_text, const ExecContext& context,
                        std::vector<OuterTable>* tables) {
  if (ref.kind == TableRef::Kind::kJoin) {
    CollectOuterTables(*ref.left, sql_text, context, tables);
    if (ref.join_type != JoinType::kSemi && ref.join_type != JoinType::kAnti) {
      CollectOuterTables(*ref.right, sql_text, context, tables);
    }
    return;
  }
  if (ref.kind != TableRef::Kind::kTable && ref.kind != TableRef::Kind::kFile) return;
  if (FindCte(context, ref) != nullptr) return;
  Result<std::set<std::string>> columns = ColumnsOf(ref, sql_text, context);
  if (!columns.ok()) return;
  tables->push_back(OuterTable{&ref, QualifierOf(ref), std::move(columns).value()});
}

// The table of `tables` a column reference names: qualified by its qualifier, or the one table
// holding an unqualified name. -1 when none or ambiguous.
int TableOfColumn(const ast::Expr& ref, const std::vector<OuterTable>& tables) {
  if (ref.kind != ExprKind::kColumnRef || ref.names.empty() || ref.names.size() > 2) return -1;
  const std::string column = LowerAscii(ref.names.back());
  int found = -1;
  for (size_t t = 0; t < tables.size(); ++t) {
    if (ref.names.size() == 2 && tables[t].qualifier != LowerAscii(ref.names[0])) continue;
    if (tables[t].columns.count(column) == 0) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(t);
  }
  return found;
}

// Whether every column `expr` reads is one of table `table`'s (`*reads_any` set when it
// reads one), it calls no volatile function (random()), and the only subqueries it holds are
// uncorrelated IN lists.
bool ReadsOnlyTable(const ast::Expr& expr, const std::vector<OuterTable>& tables, int table,
                    std::string_view sql_text, const ExecContext& context, bool* reads_any) {
  if (expr.kind == ExprKind::kColumnRef) {
    *reads_any = true;
    return TableOfColumn(expr, tables) == table;
  }
  if (expr.kind == ExprKind::kFunction && expr.names.size() == 1 && !expr.names[0].empty() &&
      expr.names[0][0] == '#') {
    return false;  // a subquery not under IN
  }
  if (expr.kind == ExprKind::kFunction && !expr.names.empty() &&
      expr::IsVolatile(expr::LookupFunction(LowerAscii(expr.names.back()), expr.children.size()))) {
    return false;
  }
  if (expr.kind == ExprKind::kIn && expr.children.size() == 2 &&
      expr.children[1]->kind == ExprKind::kFunction && expr.children[1]->names.size() == 1 &&
      expr.children[1]->names[0] == "#subquery") {
    Result<std::vector<std::unique_ptr<Statement>>> parsed = ParseStatements(expr.children[1]->text);
    if (!parsed.ok() || parsed->size() != 1 || (*parsed)[0]->kind != StatementKind::kSelect ||
        !(*parsed)[0]->select) {
      return false;
    }
    // Planned alone: a name it cannot resolve reads an outer query.
    if (!PlanSelect(*(*parsed)[0]->select, expr.children[1]->text, context).ok()) return false;
    return ReadsOnlyTable(*expr.children[0], tables, table, sql_text, context, reads_any);
  }
  for (const auto& child : expr.children) {
    if (!ReadsOnlyTable(*child, tables, table, sql_text, context, reads_any)) return false;
  }
  return true;
}

// The narrowing of `inner_key` by `outer_key` (see decorrelate.h): `from` semi-joined with
// (SELECT outer_key FROM T WHERE ...) on inner_key, or `from` itself when it does not apply.
TableRef Narrowed(TableRef from, const ast::Expr& inner_key, const ast::Expr& outer_key,
                  const OuterQuery& outer, const std::vector<OuterTable>& tables,
                  const std::string& name, std::string_view sql_text,
                  const ExecContext& context) {
  const int table = TableOfColumn(outer_key, tables);
  if (table < 0) return from;
  ExprPtr where;
  for (const ast::Expr* conjunct : outer.conjuncts) {
    bool reads_any = false;
    if (!ReadsOnlyTable(*conjunct, tables, table, sql_text, context, &reads_any) || !reads_any) {
      continue;
    }
    where = where ? ast::MakeBinary(ast::Op::kAnd, std::move(where), conjunct->Clone())
                  : conjunct->Clone();
  }
  if (!where) return from;
  auto values = std::make_unique<SelectStmt>();
  SelectItem item;
  item.expr = outer_key.Clone();
  values->items.push_back(std::move(item));
  values->from = CloneTableRef(*tables[static_cast<size_t>(table)].ref);
  values->where = std::move(where);
  TableRef right;
  right.kind = TableRef::Kind::kSubquery;
  right.subquery = std::move(values);
  right.alias = name;
  right.column_aliases = {name};
  right.offset = from.offset;
  TableRef join;
  join.kind = TableRef::Kind::kJoin;
  join.join_type = JoinType::kSemi;
  join.offset = from.offset;
  join.on = ast::MakeBinary(ast::Op::kEqual, inner_key.Clone(), ast::MakeColumnRef({name, name}));
  join.left = std::make_unique<TableRef>(std::move(from));
  join.right = std::make_unique<TableRef>(std::move(right));
  return join;
}

// Which scopes an expression's column references read.
struct Reads {
  bool inner = false;
  bool outer = false;
};

void CollectReads(const Expr& expr, const InnerNames& names, Reads* reads) {
  if (expr.kind == ExprKind::kColumnRef && !expr.names.empty()) {
    const bool qualified_inner =
        expr.names.size() >= 2 && names.qualifiers.count(LowerAscii(expr.names[0])) > 0;
    if (qualified_inner || names.columns.count(LowerAscii(expr.names[0])) > 0) {
      reads->inner = true;
    } else {
      reads->outer = true;
    }
    return;
  }
  for (const auto& child : expr.children) CollectReads(*child, names, reads);
}

Reads ReadsOf(const Expr& expr, const InnerNames& names) {
  Reads reads;
  CollectReads(expr, names, &reads);
  return reads;
}

// `value` as a constant expression of its type.
ExprPtr ValueLiteral(const Value& value) {
  auto cast = std::make_unique<Expr>();
  cast->kind = ExprKind::kCast;
  cast->type_name = value.type().ToString();
  cast->children.push_back(value.is_null()
                               ? ast::MakeLiteral(ast::LiteralKind::kNull, "")
                               : ast::MakeLiteral(ast::LiteralKind::kString,
                                                  expr::ValueToText(value)));
  return cast;
}

// The subquery's value when no row matches: its select item over no rows.
Result<Value> ValueOverNoRows(const SelectStmt& subquery, std::string_view sql_text,
                              const ExecContext& context) {
  SelectStmt none;
  none.ctes = subquery.ctes;
  SelectItem item;
  item.expr = subquery.items[0].expr->Clone();
  none.items.push_back(std::move(item));
  none.from = CloneTableRef(subquery.from);
  none.where = ast::MakeLiteral(ast::LiteralKind::kFalse, "");
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan, PlanSelect(none, sql_text, context));
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, ReadAllBatches(plan.get()));
  if (batch->num_rows != 1 || batch->schema->num_fields() != 1) {
    return Status::Internal("an aggregate over no rows gave ", batch->num_rows, " rows");
  }
  return batch->column(0).GetValue(0);
}

// The conjuncts of a subquery's WHERE clause split into its own (reading only its tables,
// ANDed into *own) and correlation keys (inner_i = outer_i, each side reading one scope);
// the text of a conjunct of any other shape when there is one.
std::optional<std::string> SplitCorrelation(const ast::Expr* where, const InnerNames& names,
                                            ExprPtr* own, std::vector<ExprPtr>* inner_keys,
                                            std::vector<ExprPtr>* outer_keys) {
  std::vector<ExprPtr> conjuncts;
  if (where) SplitConjuncts(where->Clone(), &conjuncts);
  for (ExprPtr& conjunct : conjuncts) {
    const Reads reads = ReadsOf(*conjunct, names);
    if (!reads.outer) {
      *own = *own ? ast::MakeBinary(ast::Op::kAnd, std::move(*own), std::move(conjunct))
                  : std::move(conjunct);
      continue;
    }
    if (conjunct->kind == ExprKind::kBinary && conjunct->op == ast::Op::kEqual) {
      const Reads left = ReadsOf(*conjunct->children[0], names);
      const Reads right = ReadsOf(*conjunct->children[1], names);
      if (left.inner && !left.outer && right.outer && !right.inner) {
        inner_keys->push_back(std::move(conjunct->children[0]));
        outer_keys->push_back(std::move(conjunct->children[1]));
        continue;
      }
      if (right.inner && !right.outer && left.outer && !left.inner) {
        inner_keys->push_back(std::move(conjunct->children[1]));
        outer_keys->push_back(std::move(conjunct->children[0]));
        continue;
      }
    }
    return conjunct->ToString();
  }
  return std::nullopt;
}

Status Unsupported(const std::string& what) {
  return Status::NotSupported("not yet supported: correlated subqueries ", what);
}

}  // namespace

Result<DecorrelatedSubquery> DecorrelateScalarSubquery(const SelectStmt& subquery,
                                                       const std::string& name,
                                                       std::string_view sql_text,
                                                       const ExecContext& context,
                                                       const OuterQuery* outer) {
  if (subquery.from.kind == TableRef::Kind::kNone || !subquery.values.empty() ||
      !subquery.group_by.empty() || subquery.group_by_all || subquery.having ||
      subquery.limit || subquery.offset || subquery.items.size() != 1 ||
      subquery.items[0].star || !subquery.items[0].expr ||
      !ContainsAggregate(*subquery.items[0].expr)) {
    return Unsupported("other than one aggregate without GROUP BY, HAVING or LIMIT");
  }
  const Expr& item = *subquery.items[0].expr;
  InnerNames names;
  TARN_RETURN_NOT_OK(CollectInnerNames(subquery.from, sql_text, context, &names));
  if (ReadsOf(item, names).outer) return Unsupported("reading outer columns in their SELECT list");

  // Split the WHERE clause into the subquery's own conjuncts and the correlation keys.
  ExprPtr own;
  std::vector<ExprPtr> inner_keys;
  std::vector<ExprPtr> outer_keys;
  if (std::optional<std::string> other = SplitCorrelation(subquery.where.get(), names, &own,
                                                          &inner_keys, &outer_keys)) {
    return Unsupported("whose condition " + *other +
                       " is not an equality of their own columns with the outer query's");
  }
  if (inner_keys.empty()) return Unsupported("correlated outside their WHERE equalities");

  // d = SELECT inner_1 AS "#k1", ..., item AS "#v" FROM f WHERE own GROUP BY inner_1, ...
  auto derived = std::make_unique<SelectStmt>();
  derived->ctes = subquery.ctes;
  derived->from = CloneTableRef(subquery.from);
  derived->where = std::move(own);
  DecorrelatedSubquery out;
  out.derived.kind = TableRef::Kind::kSubquery;
  out.derived.alias = name;
  out.derived.offset = subquery.from.offset;
  if (outer != nullptr && outer->from != nullptr && subquery.ctes.empty()) {
    std::vector<OuterTable> tables;
    CollectOuterTables(*outer->from, sql_text, context, &tables);
    for (size_t i = 0; i < inner_keys.size(); ++i) {
      derived->from = Narrowed(std::move(derived->from), *inner_keys[i], *outer_keys[i], *outer,
                               tables, name + "#n" + std::to_string(i + 1), sql_text, context);
    }
  }
  for (size_t i = 0; i < inner_keys.size(); ++i) {
    const std::string key = "#k" + std::to_string(i + 1);
    SelectItem key_item;
    key_item.expr = inner_keys[i]->Clone();
    key_item.alias = key;
    derived->items.push_back(std::move(key_item));
    derived->group_by.push_back(std::move(inner_keys[i]));
    out.derived.column_aliases.push_back(key);
    ExprPtr equal = ast::MakeBinary(ast::Op::kEqual, std::move(outer_keys[i]),
                                    ast::MakeColumnRef({name, key}));
    out.on = out.on ? ast::MakeBinary(ast::Op::kAnd, std::move(out.on), std::move(equal))
                    : std::move(equal);
  }
  SelectItem value_item;
  value_item.expr = item.Clone();
  value_item.alias = "#v";
  derived->items.push_back(std::move(value_item));
  out.derived.column_aliases.push_back("#v");
  out.derived.subquery = std::move(derived);
  out.value = ast::MakeColumnRef({name, "#v"});
  // An outer row without a group (its key NULL: keys match by equality) takes the value over
  // no rows.
  TARN_ASSIGN_OR_RETURN(Value empty, ValueOverNoRows(subquery, sql_text, context));
  if (!empty.is_null()) {
    auto unmatched = std::make_unique<Expr>();
    unmatched->kind = ExprKind::kIsNull;
    unmatched->children.push_back(ast::MakeColumnRef({name, "#k1"}));
    auto choice = std::make_unique<Expr>();
    choice->kind = ExprKind::kCase;
    choice->has_else = true;
    choice->children.push_back(std::move(unmatched));
    choice->children.push_back(ValueLiteral(empty));
    choice->children.push_back(std::move(out.value));
    out.value = std::move(choice);
    out.needs_left_join = true;
  }
  return out;
}

namespace {

Status LateralUnsupported(const std::string& what) {
  return Status::NotSupported("not yet supported: LATERAL subqueries ", what);
}

bool IsIntegerLiteral(const Expr& e) {
  return e.kind == ExprKind::kLiteral && e.literal_kind == ast::LiteralKind::kInteger;
}

ExprPtr AndOf(ExprPtr left, ExprPtr right) {
  if (!left) return right;
  if (!right) return left;
  return ast::MakeBinary(ast::Op::kAnd, std::move(left), std::move(right));
}

bool IsTrueLiteral(const Expr* e) {
  return e == nullptr || (e->kind == ExprKind::kLiteral && e->literal_kind == ast::LiteralKind::kTrue);
}

}  // namespace

Result<DecorrelatedLateral> DecorrelateLateral(const TableRef& lateral, std::string_view sql_text,
                                               const ExecContext& context) {
  const SelectStmt& s = *lateral.subquery;
  if (s.from.kind == TableRef::Kind::kNone) return LateralUnsupported("without a FROM clause");
  if (!s.values.empty() || s.set_op != SetOp::kNone || s.pivot || !s.distinct_on.empty() ||
      !s.windows.empty() || !s.grouping_sets.empty() || s.qualify || s.group_by_all || s.sample ||
      !s.ctes.empty()) {
    return LateralUnsupported("with WITH, set operations, PIVOT, DISTINCT ON, QUALIFY, USING "
                              "SAMPLE or grouping sets");
  }
  InnerNames names;
  TARN_RETURN_NOT_OK(CollectInnerNames(s.from, sql_text, context, &names));
  bool aggregates = s.having != nullptr;
  for (const SelectItem& item : s.items) {
    if (!item.expr) continue;
    if (ReadsOf(*item.expr, names).outer) return LateralUnsupported("reading outer columns in their SELECT list");
    if (ContainsWindow(*item.expr)) return LateralUnsupported("with window functions");
    aggregates = aggregates || ContainsAggregate(*item.expr);
  }
  const bool grouped = !s.group_by.empty();
  const bool ranked = s.limit != nullptr || s.offset != nullptr;
  if (ranked && (aggregates || grouped || s.distinct)) {
    return LateralUnsupported("with LIMIT or OFFSET over aggregates or DISTINCT");
  }
  if (s.limit && !IsIntegerLiteral(*s.limit)) return LateralUnsupported("with a LIMIT other than a number");
  if (s.offset && !IsIntegerLiteral(*s.offset)) return LateralUnsupported("with an OFFSET other than a number");

  // Split the WHERE clause into the subquery's own conjuncts and the correlation keys.
  ExprPtr own;
  std::vector<ExprPtr> inner_keys;
  std::vector<ExprPtr> outer_keys;
  if (std::optional<std::string> other =
          SplitCorrelation(s.where.get(), names, &own, &inner_keys, &outer_keys)) {
    return LateralUnsupported("whose condition " + *other +
                              " is not an equality of their own columns with the outer query's");
  }
  if (inner_keys.empty()) return LateralUnsupported("correlated outside their WHERE equalities");
  if (s.having && ReadsOf(*s.having, names).outer) return LateralUnsupported("reading outer columns in HAVING");
  for (const auto& g : s.group_by) {
    if (ReadsOf(*g, names).outer) return LateralUnsupported("reading outer columns in GROUP BY");
  }
  if (aggregates && !grouped) {
    if (s.having) return LateralUnsupported("with HAVING but no GROUP BY");
    // Left rows without a group take NULLs: right only when every item is NULL over no rows.
    for (const SelectItem& item : s.items) {
      if (!item.expr) return LateralUnsupported("with * beside aggregates");
      SelectStmt one;
      SelectItem copy;
      copy.expr = item.expr->Clone();
      one.items.push_back(std::move(copy));
      one.from = CloneTableRef(s.from);
      TARN_ASSIGN_OR_RETURN(Value empty, ValueOverNoRows(one, sql_text, context));
      if (!empty.is_null()) {
        return LateralUnsupported("whose aggregates are not NULL over no rows (such as count): " +
                                  item.expr->ToString());
      }
    }
  }

  auto derived = CloneSelect(s);
  derived->where = std::move(own);
  derived->order_by.clear();
  derived->limit.reset();
  derived->offset.reset();
  DecorrelatedLateral out;
  out.derived.kind = TableRef::Kind::kSubquery;
  out.derived.alias = lateral.alias;
  out.derived.column_aliases = lateral.column_aliases;
  out.derived.offset = lateral.offset;
  const std::string& name = lateral.alias;
  int hidden = 0;
  for (size_t i = 0; i < inner_keys.size(); ++i) {
    const std::string key = "#k" + std::to_string(i + 1);
    SelectItem key_item;
    key_item.expr = inner_keys[i]->Clone();
    key_item.alias = key;
    derived->items.push_back(std::move(key_item));
    ++hidden;
    if (aggregates || grouped) derived->group_by.push_back(inner_keys[i]->Clone());
    out.on = AndOf(std::move(out.on), ast::MakeBinary(ast::Op::kEqual, std::move(outer_keys[i]),
                                                      ast::MakeColumnRef({name, key})));
  }
  if (ranked) {
    // Each key's rows numbered in the subquery's order (positions and aliases resolved).
    TARN_ASSIGN_OR_RETURN(ExprPtr window,
                          RowNumberOver(inner_keys, s.order_by, s.items, "LATERAL subqueries"));
    if (ReadsOf(*window, names).outer) return LateralUnsupported("ordered by outer columns");
    SelectItem rank;
    rank.expr = std::move(window);
    rank.alias = "#rn";
    derived->items.push_back(std::move(rank));
    ++hidden;
    const int64_t skip = s.offset ? std::strtoll(s.offset->text.c_str(), nullptr, 10) : 0;
    ExprPtr bounds = ast::MakeBinary(ast::Op::kGreater, ast::MakeColumnRef({name, "#rn"}),
                                     ast::MakeLiteral(ast::LiteralKind::kInteger, std::to_string(skip)));
    if (s.limit) {
      const int64_t take = std::strtoll(s.limit->text.c_str(), nullptr, 10);
      bounds = AndOf(std::move(bounds),
                     ast::MakeBinary(ast::Op::kLessEqual, ast::MakeColumnRef({name, "#rn"}),
                                     ast::MakeLiteral(ast::LiteralKind::kInteger,
                                                      std::to_string(skip + take))));
    }
    out.on = AndOf(std::move(out.on), std::move(bounds));
  }
  out.derived.hidden_columns = hidden;
  out.derived.subquery = std::move(derived);
  out.left_join = aggregates && !grouped;
  return out;
}

bool HasLateralSubquery(const TableRef& from) {
  if (from.kind == TableRef::Kind::kJoin) {
    return HasLateralSubquery(*from.left) || HasLateralSubquery(*from.right);
  }
  return from.kind == TableRef::Kind::kSubquery && from.lateral;
}

Status RewriteLateralJoins(TableRef* from, std::string_view sql_text, const ExecContext& context) {
  // A LATERAL subquery that reads no table before it (it plans alone) is a plain one.
  auto plain = [&](TableRef* ref) {
    if (ref->kind == TableRef::Kind::kSubquery && ref->lateral &&
        PlanSelect(*ref->subquery, sql_text, context).ok()) {
      ref->lateral = false;
    }
  };
  if (from->kind != TableRef::Kind::kJoin) {
    plain(from);
    if (from->kind == TableRef::Kind::kSubquery && from->lateral) {
      // Nothing before it to read: planned as it is, its error names the column.
      from->lateral = false;
    }
    return Status::OK();
  }
  TARN_RETURN_NOT_OK(RewriteLateralJoins(from->left.get(), sql_text, context));
  TableRef& right = *from->right;
  plain(&right);
  if (!(right.kind == TableRef::Kind::kSubquery && right.lateral)) {
    return RewriteLateralJoins(from->right.get(), sql_text, context);
  }
  const JoinType type = from->join_type;
  if (type != JoinType::kInner && type != JoinType::kCross && type != JoinType::kLeft) {
    return Status::InvalidArgument(
        "Binder Error: The combining JOIN type must be INNER or LEFT for a LATERAL reference");
  }
  if (!from->using_columns.empty() || from->natural) {
    return LateralUnsupported("joined by USING or NATURAL");
  }
  TARN_ASSIGN_OR_RETURN(DecorrelatedLateral decorrelated, DecorrelateLateral(right, sql_text, context));
  if (decorrelated.left_join && type != JoinType::kLeft && !IsTrueLiteral(from->on.get())) {
    return LateralUnsupported("of aggregates joined with a condition other than ON true");
  }
  ExprPtr written = IsTrueLiteral(from->on.get()) ? nullptr : std::move(from->on);
  from->on = AndOf(std::move(written), std::move(decorrelated.on));
  from->join_type = type == JoinType::kLeft || decorrelated.left_join ? JoinType::kLeft : JoinType::kInner;
  from->comma = false;
  *from->right = std::move(decorrelated.derived);
  return Status::OK();
}

}  // namespace tarn::sql
