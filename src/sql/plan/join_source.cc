#include "sql/plan/join_source.h"

#include <charconv>
#include <set>
#include <utility>

#include "sql/exec/unnest.h"
#include "sql/plan/aggregate_rewrite.h"
#include "sql/plan/common_table.h"
#include "sql/plan/join_tree.h"
#include "sql/plan/names.h"
#include "sql/plan/selectivity.h"
#include "sql/plan/planner.h"
#include "sql/plan/unnest_rewrite.h"
#include "tarn/expr.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && LowerAscii(std::string(a)) == LowerAscii(std::string(b));
}

// A column an unqualified name can mean: a leaf's column, or a merged USING column.
struct Visible {
  std::string name;
  std::string qualifier;  // for messages; empty for merged columns
  ExprPtr expr;           // the internal column reference (or COALESCE of two)
  bool in_star = true;    // pseudo-columns are not
};

Visible CloneVisible(const Visible& v) { return {v.name, v.qualifier, v.expr->Clone(), v.in_star}; }

std::string FileStem(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

class JoinBinder {
 public:
  JoinBinder(std::string_view sql_text, const ExecContext& context)
      : sql_text_(sql_text), context_(context), query_(std::make_unique<JoinQuery>()) {}

  // Binds the leaves of `ref` (collecting them into the query), then names their columns.
  Status BindLeaves(const TableRef& ref) {
    TARN_RETURN_NOT_OK(CollectLeaves(ref));
    std::map<std::string, int> counts;
    for (const JoinLeaf& leaf : query_->leaves) {
      for (const Field& field : leaf.schema.fields) ++counts[LowerAscii(field.name)];
    }
    std::set<std::string> taken;
    for (int l = 0; l < static_cast<int>(query_->leaves.size()); ++l) {
      JoinLeaf& leaf = query_->leaves[static_cast<size_t>(l)];
      for (int c = 0; c < leaf.schema.num_fields(); ++c) {
        const std::string& name = leaf.schema.field(c).name;
        std::string internal = counts[LowerAscii(name)] == 1 ? name : leaf.qualifier + "." + name;
        for (int n = 2; taken.count(LowerAscii(internal)) > 0; ++n) {
          internal = leaf.qualifier + "." + name + "#" + std::to_string(n);
        }
        taken.insert(LowerAscii(internal));
        leaf.internal.push_back(internal);
        query_->columns[LowerAscii(internal)] = {l, c};
      }
    }
    return Status::OK();
  }

  // Builds the join tree of `ref`, resolving ON conditions and USING columns; returns the
  // columns an unqualified name can mean above it, in `*` order.
  Result<std::unique_ptr<JoinTreeNode>> BindTree(const TableRef& ref, std::vector<Visible>* visible) {
    auto node = std::make_unique<JoinTreeNode>();
    if (ref.kind != TableRef::Kind::kJoin) {
      node->leaf = next_leaf_++;
      const JoinLeaf& leaf = query_->leaves[static_cast<size_t>(node->leaf)];
      for (int c = 0; c < leaf.schema.num_fields(); ++c) {
        visible->push_back({leaf.schema.field(c).name, leaf.qualifier,
                            ast::MakeColumnRef({leaf.internal[static_cast<size_t>(c)]}),
                            c < leaf.visible});
      }
      return node;
    }
    node->type = ref.join_type;
    std::vector<Visible> left;
    std::vector<Visible> right;
    TARN_ASSIGN_OR_RETURN(node->left, BindTree(*ref.left, &left));
    const int right_begin = next_leaf_;
    TARN_ASSIGN_OR_RETURN(node->right, BindTree(*ref.right, &right));
    const int right_end = next_leaf_;
    if (node->right->leaf >= 0 && query_->leaves[static_cast<size_t>(node->right->leaf)].lateral_list) {
      TARN_RETURN_NOT_OK(BindLateral(ref, node.get(), left));
    }

    // USING / NATURAL columns.
    std::vector<std::string> using_columns = ref.using_columns;
    if (ref.natural) {
      for (const Visible& l : left) {
        if (!l.in_star) continue;
        for (const Visible& r : right) {
          if (r.in_star && SameName(l.name, r.name)) {
            bool seen = false;
            for (const auto& u : using_columns) seen = seen || SameName(u, l.name);
            if (!seen) using_columns.push_back(l.name);
          }
        }
      }
      if (using_columns.empty()) node->type = JoinType::kCross;
    }
    std::vector<Visible> merged;
    std::vector<bool> left_used(left.size(), false);
    std::vector<bool> right_used(right.size(), false);
    std::vector<size_t> merged_for_left(left.size(), 0);
    for (const std::string& column : using_columns) {
      TARN_ASSIGN_OR_RETURN(size_t l, FindUsing(left, column, "left"));
      TARN_ASSIGN_OR_RETURN(size_t r, FindUsing(right, column, "right"));
      if (left_used[l]) {
        return Status::InvalidArgument("Binder Error: column \"", column,
                                       "\" appears twice in the USING list");
      }
      left_used[l] = true;
      right_used[r] = true;
      node->conditions.push_back(
          ast::MakeBinary(ast::Op::kEqual, left[l].expr->Clone(), right[r].expr->Clone()));
      ExprPtr expr;
      if (node->type == JoinType::kRight) {
        expr = right[r].expr->Clone();
      } else if (node->type == JoinType::kFull) {
        std::vector<ExprPtr> args;
        args.push_back(left[l].expr->Clone());
        args.push_back(right[r].expr->Clone());
        expr = ast::MakeFunction("coalesce", std::move(args));
      } else {
        expr = left[l].expr->Clone();
      }
      merged_for_left[l] = merged.size();
      merged.push_back({left[l].name, "", std::move(expr), true});
    }

    // The ON condition sees both sides' columns. A SEMI / ANTI join marked `comma` is a
    // flattened EXISTS subquery (subquery_rewrite.h): its names mean the subquery's columns
    // (the right side) first, then the outer query's.
    if (ref.on) {
      ExprPtr on = ref.on->Clone();
      const bool inner_scope =
          ref.comma && (ref.join_type == JoinType::kSemi || ref.join_type == JoinType::kAnti);
      if (inner_scope) {
        TARN_RETURN_NOT_OK(Rewrite(&on, right));
        TARN_RETURN_NOT_OK(Rewrite(&on, left));
      } else {
        std::vector<Visible> both;
        for (const Visible& v : left) both.push_back(CloneVisible(v));
        for (const Visible& v : right) both.push_back(CloneVisible(v));
        TARN_RETURN_NOT_OK(Rewrite(&on, both));
      }
      SplitConjuncts(FactorCommonConjuncts(std::move(on)), &node->conditions);
    }
    const bool keeps_right = ref.join_type != JoinType::kSemi && ref.join_type != JoinType::kAnti;
    if (!keeps_right) {
      for (int l = right_begin; l < right_end; ++l) {
        query_->leaves[static_cast<size_t>(l)].accessible = false;
      }
    }
    // A merged column takes the left one's place (DuckDB's order for `*`).
    for (size_t i = 0; i < left.size(); ++i) {
      visible->push_back(left_used[i] ? std::move(merged[merged_for_left[i]])
                                      : std::move(left[i]));
    }
    if (keeps_right) {
      for (size_t i = 0; i < right.size(); ++i) {
        if (!right_used[i]) visible->push_back(std::move(right[i]));
      }
    }
    return node;
  }

  // Resolves the column references of `*expr` (see the header): qualified names against the
  // leaves, unqualified ones against `visible`.
  Status Rewrite(ExprPtr* expr, const std::vector<Visible>& visible) const {
    Expr& e = **expr;
    if (e.kind != ExprKind::kColumnRef) {
      for (auto& child : e.children) TARN_RETURN_NOT_OK(Rewrite(&child, visible));
      return Status::OK();
    }
    if (e.names.size() >= 2) {
      for (const JoinLeaf& leaf : query_->leaves) {
        if (!leaf.accessible || !SameName(leaf.qualifier, e.names[0])) continue;
        int column = leaf.schema.FindField(e.names[1]);
        if (column < 0) {
          return Status::NotFound("Binder Error: Table \"", leaf.qualifier,
                                  "\" does not have a column named \"", e.names[1], "\"");
        }
        std::vector<std::string> names{leaf.internal[static_cast<size_t>(column)]};
        names.insert(names.end(), e.names.begin() + 2, e.names.end());
        e.names = std::move(names);
        return Status::OK();
      }
    }
    const Visible* match = nullptr;
    std::vector<const Visible*> all;
    for (const Visible& v : visible) {
      if (SameName(v.name, e.names[0])) all.push_back(&v);
    }
    if (all.empty()) return Status::OK();  // an alias, or the binder's error
    match = all[0];
    if (all.size() > 1) {
      std::string options;
      for (size_t i = 0; i < all.size(); ++i) {
        if (i > 0) options += i + 1 == all.size() ? " or " : ", ";
        options += "\"" + all[i]->qualifier + "." + all[i]->name + "\"";
      }
      return Status::InvalidArgument("Binder Error: Ambiguous reference to column name \"",
                                     e.names[0], "\" (use: ", options, ")");
    }
    std::vector<std::string> fields(e.names.begin() + 1, e.names.end());
    ExprPtr replacement = match->expr->Clone();
    if (replacement->kind == ExprKind::kColumnRef) {
      replacement->names.insert(replacement->names.end(), fields.begin(), fields.end());
    } else {
      for (const std::string& field : fields) {
        auto access = std::make_unique<Expr>();
        access->kind = ExprKind::kField;
        access->names.push_back(field);
        access->children.push_back(std::move(replacement));
        replacement = std::move(access);
      }
    }
    replacement->range = e.range;
    *expr = std::move(replacement);
    return Status::OK();
  }

  Result<BoundJoins> Bind(const SelectStmt& select) {
    TARN_RETURN_NOT_OK(BindLeaves(select.from));
    std::vector<Visible> visible;
    TARN_ASSIGN_OR_RETURN(query_->root, BindTree(select.from, &visible));

    auto out = std::make_unique<SelectStmt>();
    out->distinct = select.distinct;
    out->from.kind = TableRef::Kind::kJoin;
    for (const SelectItem& item : select.items) {
      if (item.star) {
        TARN_RETURN_NOT_OK(ExpandStar(item, visible, out.get()));
        continue;
      }
      SelectItem rewritten;
      rewritten.alias = item.alias.empty() ? DefaultColumnName(*item.expr) : item.alias;
      rewritten.expr = item.expr->Clone();
      TARN_RETURN_NOT_OK(Rewrite(&rewritten.expr, visible));
      out->items.push_back(std::move(rewritten));
    }
    auto rewrite = [&](const ExprPtr& in, ExprPtr* result) -> Status {
      if (!in) return Status::OK();
      *result = in->Clone();
      return Rewrite(result, visible);
    };
    TARN_RETURN_NOT_OK(rewrite(select.where, &out->where));
    for (const auto& group : select.group_by) {
      ExprPtr g;
      TARN_RETURN_NOT_OK(rewrite(group, &g));
      out->group_by.push_back(std::move(g));
    }
    out->group_by_all = select.group_by_all;
    TARN_RETURN_NOT_OK(rewrite(select.having, &out->having));
    TARN_RETURN_NOT_OK(rewrite(select.qualify, &out->qualify));
    for (const OrderItem& item : select.order_by) {
      OrderItem rewritten;
      TARN_RETURN_NOT_OK(rewrite(item.expr, &rewritten.expr));
      rewritten.descending = item.descending;
      rewritten.nulls_first = item.nulls_first;
      out->order_by.push_back(std::move(rewritten));
    }
    if (select.limit) out->limit = select.limit->Clone();
    out->limit_percent = select.limit_percent;
    if (select.offset) out->offset = select.offset->Clone();
    BoundJoins bound;
    bound.select = std::move(out);
    bound.source = MakeSource();
    return bound;
  }

 private:
  class JoinSource;

  std::unique_ptr<Source> MakeSource();

  // About how many rows `select` returns, from its shape (for ordering joins): one row for an
  // aggregate without GROUP BY; else a single table's or file's rows times fixed selectivities
  // of its WHERE condition (sql/plan/selectivity.h), a tenth of them when grouped,
  // at most the LIMIT; -1 when the shape says nothing (joins, set operations, VALUES).
  double EstimateSelectRows(const SelectStmt& select) const {
    if (select.set_op != SetOp::kNone || !select.values.empty() || !select.ctes.empty()) {
      return -1;
    }
    bool aggregates = false;
    for (const SelectItem& item : select.items) {
      aggregates = aggregates || (item.expr && ContainsAggregate(*item.expr));
    }
    const bool grouped = !select.group_by.empty() || select.group_by_all;
    if (aggregates && !grouped && !select.having) return 1;
    if (select.from.kind != TableRef::Kind::kTable && select.from.kind != TableRef::Kind::kFile) {
      return -1;
    }
    if (FindCte(context_, select.from) != nullptr) return -1;
    Result<std::unique_ptr<Source>> source = BindTableRef(select.from, sql_text_, context_);
    if (!source.ok()) return -1;
    const int64_t base = (*source)->EstimatedRows();
    if (base < 0) return -1;
    double rows = static_cast<double>(base);
    if (select.where) {
      std::vector<std::unique_ptr<ast::Expr>> conjuncts;
      SplitConjuncts(select.where->Clone(), &conjuncts);
      rows *= ConjunctsSelectivity(conjuncts);
    }
    if (grouped || select.distinct) rows *= 0.1;
    if (select.limit && !select.limit_percent && select.limit->kind == ast::ExprKind::kLiteral &&
        select.limit->literal_kind == ast::LiteralKind::kInteger) {
      int64_t limit = 0;
      const std::string& text = select.limit->text;
      if (std::from_chars(text.data(), text.data() + text.size(), limit).ec == std::errc()) {
        rows = std::min(rows, static_cast<double>(std::max<int64_t>(0, limit)));
      }
    }
    return std::max(1.0, rows);
  }

  // `left JOIN unnest(list)`: the list resolved against the left side's columns, and the
  // leaf's column typed by its elements. A lateral unnest joins as a cross join, or as a LEFT
  // JOIN ... ON true that keeps rows whose list is empty.
  Status BindLateral(const TableRef& ref, JoinTreeNode* node, const std::vector<Visible>& left) {
    JoinLeaf& leaf = query_->leaves[static_cast<size_t>(node->right->leaf)];
    const bool on_true = !ref.on || (ref.on->kind == ExprKind::kLiteral &&
                                     ref.on->literal_kind == ast::LiteralKind::kTrue);
    const bool joins = ref.join_type == JoinType::kInner || ref.join_type == JoinType::kCross ||
                       ref.join_type == JoinType::kLeft;
    if (!joins || !on_true || !ref.using_columns.empty() || ref.natural) {
      return Status::NotSupported(
          "not yet supported: a lateral UNNEST joined other than by a comma, CROSS JOIN or "
          "[LEFT] JOIN ... ON true");
    }
    TARN_RETURN_NOT_OK(Rewrite(&leaf.lateral_list, left));
    Schema before;
    for (const auto& [name, place] : query_->columns) {
      if (place.first >= node->right->leaf) continue;
      const JoinLeaf& other = query_->leaves[static_cast<size_t>(place.first)];
      before.fields.emplace_back(other.internal[static_cast<size_t>(place.second)],
                                 other.schema.field(place.second).type);
    }
    TARN_ASSIGN_OR_RETURN(auto bound, tarn::Bind(*leaf.lateral_list, before));
    TARN_ASSIGN_OR_RETURN(DataType element, UnnestedType(bound->type()));
    leaf.schema.fields[0].type = element;
    node->lateral = true;
    node->type = ref.join_type == JoinType::kLeft ? JoinType::kLeft : JoinType::kCross;
    return Status::OK();
  }

  Status CollectLeaves(const TableRef& ref) {
    if (ref.kind == TableRef::Kind::kJoin) {
      TARN_RETURN_NOT_OK(CollectLeaves(*ref.left));
      return CollectLeaves(*ref.right);
    }
    if (IsSeriesOverColumns(ref) && !query_->leaves.empty()) return CollectLeaves(SeriesAsUnnest(ref));
    JoinLeaf leaf;
    Schema schema;
    if (IsUnnestFunction(ref) && !query_->leaves.empty()) {
      // Joined laterally: its list is bound once the leaves before it are (BindTree).
      TARN_ASSIGN_OR_RETURN(TableRef derived, UnnestFunctionAsDerivedTable(ref));
      leaf.lateral_list = std::move(derived.subquery->items[0].expr);
      schema.fields.emplace_back("unnest", DataType(TypeId::kNull));
      leaf.visible = 1;
    } else if (IsUnnestFunction(ref)) {
      TARN_ASSIGN_OR_RETURN(TableRef derived, UnnestFunctionAsDerivedTable(ref));
      derived.alias.clear();
      derived.column_aliases.clear();
      SelectStmt all;
      SelectItem star;
      star.star = true;
      all.items.push_back(std::move(star));
      all.from = std::move(derived);
      TARN_ASSIGN_OR_RETURN(leaf.subquery, PlanSelect(all, sql_text_, context_));
      schema = *leaf.subquery->schema();
      leaf.visible = schema.num_fields();
    } else if (ref.kind == TableRef::Kind::kSubquery) {
      TARN_ASSIGN_OR_RETURN(leaf.subquery, PlanSelect(*ref.subquery, sql_text_, context_));
      leaf.subquery_rows = EstimateSelectRows(*ref.subquery);
      schema = *leaf.subquery->schema();
      // A derived table that rewriting a subquery added ('#' alias, subquery_rewrite.h)
      // gives `*` no columns.
      leaf.visible = !ref.alias.empty() && ref.alias[0] == '#'
                         ? 0
                         : schema.num_fields() - std::min(ref.hidden_columns, schema.num_fields());
    } else if (const CteScope* cte = FindCte(context_, ref)) {
      TARN_ASSIGN_OR_RETURN(leaf.subquery, PlanCte(*cte, sql_text_, context_));
      schema = *leaf.subquery->schema();
      leaf.visible = schema.num_fields();
    } else {
      TARN_ASSIGN_OR_RETURN(leaf.source, BindTableRef(ref, sql_text_, context_));
      schema = leaf.source->schema();
      leaf.visible = leaf.source->visible_columns();
    }
    if (ref.column_aliases.size() > schema.fields.size()) {
      return Status::InvalidArgument("Binder Error: table \"", ref.alias, "\" has ",
                                     schema.num_fields(), " columns but ",
                                     ref.column_aliases.size(), " column names were given");
    }
    for (size_t i = 0; i < ref.column_aliases.size(); ++i) {
      schema.fields[i].name = ref.column_aliases[i];
    }
    leaf.renamed = !ref.column_aliases.empty();
    leaf.schema = std::move(schema);
    if (!ref.alias.empty()) {
      leaf.qualifier = ref.alias;
    } else if (ref.kind == TableRef::Kind::kTable) {
      leaf.qualifier = ref.names.back();
    } else if (ref.kind == TableRef::Kind::kFile) {
      leaf.qualifier = FileStem(ref.file);
    } else if (ref.kind == TableRef::Kind::kFunction) {
      leaf.qualifier = ref.names[0];
    } else {
      leaf.qualifier = "unnamed_subquery";
    }
    const bool generated = ref.alias.empty() && ref.kind == TableRef::Kind::kSubquery;
    for (int n = 2;; ++n) {
      bool clash = false;
      for (const JoinLeaf& other : query_->leaves) clash = clash || SameName(other.qualifier, leaf.qualifier);
      if (!clash) break;
      if (!generated) {
        return Status::InvalidArgument(
            "Binder Error: Ambiguous reference to table \"", leaf.qualifier, "\" (duplicate alias \"",
            leaf.qualifier, "\", explicitly alias one of the tables using \"AS my_alias\")");
      }
      leaf.qualifier = "unnamed_subquery" + std::to_string(n);
    }
    query_->leaves.push_back(std::move(leaf));
    return Status::OK();
  }

  Result<size_t> FindUsing(const std::vector<Visible>& side, const std::string& column,
                           const char* which) const {
    size_t found = side.size();
    for (size_t i = 0; i < side.size(); ++i) {
      if (!SameName(side[i].name, column)) continue;
      if (found != side.size()) {
        return Status::InvalidArgument("Binder Error: Ambiguous reference to column name \"",
                                       column, "\" on the ", which, " side of the join");
      }
      found = i;
    }
    if (found == side.size()) {
      return Status::NotFound("Binder Error: Column \"", column, "\" does not exist on ", which,
                              " side of join!");
    }
    return found;
  }

  Status ExpandStar(const SelectItem& item, const std::vector<Visible>& visible,
                    SelectStmt* out) const {
    std::vector<const Visible*> chosen;
    std::vector<Visible> qualified;
    if (!item.star_qualifier.empty()) {
      const JoinLeaf* found = nullptr;
      for (const JoinLeaf& leaf : query_->leaves) {
        if (leaf.accessible && SameName(leaf.qualifier, item.star_qualifier)) found = &leaf;
      }
      if (found == nullptr) {
        return Status::NotFound("Binder Error: table \"", item.star_qualifier,
                                "\" not found in the FROM clause");
      }
      for (int c = 0; c < found->visible; ++c) {
        qualified.push_back({found->schema.field(c).name, found->qualifier,
                             ast::MakeColumnRef({found->internal[static_cast<size_t>(c)]}), true});
      }
      for (const Visible& v : qualified) chosen.push_back(&v);
    } else {
      for (const Visible& v : visible) {
        if (v.in_star) chosen.push_back(&v);
      }
    }
    for (const std::string& name : item.exclude) {
      bool found = false;
      for (const Visible* v : chosen) found = found || SameName(v->name, name);
      if (!found) {
        return Status::NotFound("Binder Error: column \"", name,
                                "\" in the EXCLUDE list not found in the FROM clause");
      }
    }
    for (const auto& [name, expr] : item.replace) {
      bool found = false;
      for (const Visible* v : chosen) found = found || SameName(v->name, name);
      if (!found) {
        return Status::NotFound("Binder Error: Column \"", name,
                                "\" in REPLACE list not found in FROM clause");
      }
    }
    for (const Visible* v : chosen) {
      bool excluded = false;
      for (const std::string& name : item.exclude) excluded = excluded || SameName(name, v->name);
      if (excluded) continue;
      SelectItem expanded;
      expanded.expr = v->expr->Clone();
      for (const auto& [name, expr] : item.replace) {
        if (!SameName(name, v->name)) continue;
        expanded.expr = expr->Clone();
        TARN_RETURN_NOT_OK(Rewrite(&expanded.expr, visible));
      }
      expanded.alias = v->name;
      out->items.push_back(std::move(expanded));
    }
    return Status::OK();
  }

  std::string_view sql_text_;
  const ExecContext& context_;
  std::unique_ptr<JoinQuery> query_;
  int next_leaf_ = 0;
};

// The joined rows as one Source: the schema lists the accessible leaves' columns under their
// internal names; Open plans the joins with the filter PushFilter gave.
class JoinBinder::JoinSource : public Source {
 public:
  JoinSource(std::unique_ptr<JoinQuery> query, ExecContext context)
      : query_(std::move(query)), context_(std::move(context)) {
    for (const JoinLeaf& leaf : query_->leaves) {
      if (!leaf.accessible) continue;
      for (int c = 0; c < leaf.schema.num_fields(); ++c) {
        schema_.fields.emplace_back(leaf.internal[static_cast<size_t>(c)], leaf.schema.field(c).type);
      }
    }
  }

  const Schema& schema() const override { return schema_; }
  void PushFilter(const ast::Expr& where) override {
    where_.clear();
    SplitConjuncts(where.Clone(), &where_);
  }
  bool FiltersRows() const override { return true; }

  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    if (opened_) return Status::Internal("a join source is opened once");
    opened_ = true;
    std::vector<std::string> outputs;
    for (int column : columns) outputs.push_back(schema_.field(column).name);
    return PlanJoinQuery(query_.get(), std::move(where_), outputs, context_);
  }

 private:
  std::unique_ptr<JoinQuery> query_;
  ExecContext context_;
  Schema schema_;
  std::vector<ExprPtr> where_;
  bool opened_ = false;
};

std::unique_ptr<Source> JoinBinder::MakeSource() {
  return std::make_unique<JoinSource>(std::move(query_), context_);
}

}  // namespace

Result<BoundJoins> BindJoins(const SelectStmt& select, std::string_view sql_text,
                             const ExecContext& context) {
  JoinBinder binder(sql_text, context);
  return binder.Bind(select);
}

}  // namespace tarn::sql
