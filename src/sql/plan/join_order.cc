// PlanJoinQuery (join_tree.h): the operators of a join query.
//
// Inner and comma joins form regions: every relation joined by them, and every conjunct of
// their ON conditions and of the WHERE clause, is one pool. A conjunct that reads one
// relation filters it (a leaf's scan takes it for pruning and filtering while decoding);
// the others join relations. The region joins, one pair at a time, the two relations connected
// by an equality whose join is estimated smallest (|a| * |b| / the key's distinct values, from
// the sources' row counts and statistics and fixed filter selectivities), so plans are bushy
// where that helps; each join builds its hash table on the smaller side. Outer, semi and anti joins are
// relations of their region, planned as written: the preserved side probes, the other is
// built; conjuncts of their ON condition that read only the build side filter it first.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "expr/bind/bound.h"
#include "sql/exec/hash_join.h"
#include "sql/exec/nested_loop_join.h"
#include "sql/exec/unnest.h"
#include "sql/plan/join_tree.h"
#include "sql/plan/names.h"
#include "sql/plan/selectivity.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

constexpr double kUnknownRows = 1e6;

struct Relation {
  std::unique_ptr<Operator> op;  // its columns under their internal names
  std::set<int> leaves;
  double estimate = 1;
};

bool Subset(const std::set<int>& a, const std::set<int>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

void ShiftColumns(expr::BoundNode* node, int offset) {
  if (node->kind == expr::BoundKind::kColumn) node->column_index -= offset;
  for (auto& child : node->children) ShiftColumns(child.get(), offset);
}

bool ReadsBelow(const expr::BoundNode& node, int limit, bool below) {
  if (node.kind == expr::BoundKind::kColumn && (node.column_index < limit) != below) return false;
  for (const auto& child : node.children) {
    if (!ReadsBelow(*child, limit, below)) return false;
  }
  return true;
}

Result<std::unique_ptr<BoundExpr>> BindCondition(const Expr& expr, const Schema& schema,
                                                 const char* clause) {
  TARN_ASSIGN_OR_RETURN(auto bound, Bind(expr, schema));
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

class JoinPlanner {
 public:
  JoinPlanner(JoinQuery* query, const ExecContext& context)
      : query_(query), context_(context), needed_(query->leaves.size()),
        leaf_rows_(query->leaves.size(), kUnknownRows) {}

  Result<std::unique_ptr<Operator>> Plan(std::vector<ExprPtr> where,
                                         const std::vector<std::string>& outputs) {
    for (const std::string& name : outputs) {
      auto it = query_->columns.find(LowerAscii(name));
      if (it != query_->columns.end()) needed_[static_cast<size_t>(it->second.first)].insert(it->second.second);
    }
    for (const auto& conjunct : where) NoteColumns(*conjunct);
    NoteTree(*query_->root);
    for (const JoinLeaf& leaf : query_->leaves) {
      if (leaf.lateral_list) NoteColumns(*leaf.lateral_list);
    }
    TARN_ASSIGN_OR_RETURN(Relation root, PlanNode(query_->root.get(), std::move(where)));
    const Schema& schema = *root.op->schema();
    std::vector<std::unique_ptr<BoundExpr>> columns;
    for (const std::string& name : outputs) {
      int index = schema.FindField(name);
      if (index < 0) return Status::Internal("join output column ", name, " missing");
      columns.push_back(ColumnExpr(index, schema.field(index)));
    }
    return MakeProjection(std::move(root.op), std::move(columns), outputs);
  }

 private:
  void NoteColumns(const Expr& expr) {
    if (expr.kind == ExprKind::kColumnRef) {
      auto it = query_->columns.find(LowerAscii(expr.names[0]));
      if (it != query_->columns.end()) needed_[static_cast<size_t>(it->second.first)].insert(it->second.second);
    }
    for (const auto& child : expr.children) NoteColumns(*child);
  }

  void NoteTree(const JoinTreeNode& node) {
    for (const auto& condition : node.conditions) NoteColumns(*condition);
    if (node.left) NoteTree(*node.left);
    if (node.right) NoteTree(*node.right);
  }

  void Leaves(const Expr& expr, std::set<int>* out) const {
    if (expr.kind == ExprKind::kColumnRef) {
      auto it = query_->columns.find(LowerAscii(expr.names[0]));
      if (it != query_->columns.end()) out->insert(it->second.first);
    }
    for (const auto& child : expr.children) Leaves(*child, out);
  }

  std::set<int> Leaves(const Expr& expr) const {
    std::set<int> out;
    Leaves(expr, &out);
    return out;
  }

  static void TreeLeaves(const JoinTreeNode& node, std::set<int>* out) {
    if (node.leaf >= 0) {
      out->insert(node.leaf);
      return;
    }
    TreeLeaves(*node.left, out);
    TreeLeaves(*node.right, out);
  }

  // About how many distinct values one side of a join key holds within `relation`: for a column
  // of a leaf, what its source knows (Source::DistinctValues, else the leaf's rows), at most
  // the relation's estimated rows; for any other expression, the relation's estimated rows.
  double KeyDistinct(const Expr& side, const Relation& relation) const {
    double distinct = relation.estimate;
    if (side.kind == ExprKind::kColumnRef && !side.names.empty()) {
      auto it = query_->columns.find(LowerAscii(side.names[0]));
      if (it != query_->columns.end() && relation.leaves.count(it->second.first) > 0) {
        auto [cached, fresh] = leaf_distinct_.try_emplace(it->second, 0.0);
        if (fresh) {  // the source's statistics walked once per column
          const size_t leaf = static_cast<size_t>(it->second.first);
          double known = leaf_rows_[leaf];
          const JoinLeaf& info = query_->leaves[leaf];
          if (info.source) {
            if (std::optional<double> values = info.source->DistinctValues(it->second.second)) {
              known = std::min(known, std::max(1.0, *values));
            }
          }
          cached->second = known;
        }
        distinct = std::min(distinct, cached->second);
      }
    }
    return std::max(1.0, distinct);
  }

  // The key domain of equality `conjunct` between relations `a` and `b`: the join of the two
  // is estimated at |a| * |b| / domain, the larger side's distinct keys (each key of the side
  // with fewer is assumed among the other's).
  double KeyDomain(const Expr& conjunct, const Relation& a, const Relation& b) const {
    const Expr& left = *conjunct.children[0];
    const Expr& right = *conjunct.children[1];
    const bool left_in_a = Subset(Leaves(left), a.leaves);
    const Relation& left_relation = left_in_a ? a : b;
    const Relation& right_relation = left_in_a ? b : a;
    return std::max(KeyDistinct(left, left_relation), KeyDistinct(right, right_relation));
  }

  // True when `conjunct` is an equality whose sides read `a` and `b` (one each, both some).
  bool IsEquiJoin(const Expr& conjunct, const std::set<int>& a, const std::set<int>& b) const {
    if (conjunct.kind != ExprKind::kBinary || conjunct.op != ast::Op::kEqual) return false;
    std::set<int> left = Leaves(*conjunct.children[0]);
    std::set<int> right = Leaves(*conjunct.children[1]);
    if (left.empty() || right.empty()) return false;
    return (Subset(left, a) && Subset(right, b)) || (Subset(left, b) && Subset(right, a));
  }

  // About how many rows a subtree of the join tree holds before any filter: its largest
  // leaf's rows (a subquery's from its shape).
  double RoughRows(const JoinTreeNode& node) const {
    if (node.leaf < 0) return std::max(RoughRows(*node.left), RoughRows(*node.right));
    const JoinLeaf& leaf = query_->leaves[static_cast<size_t>(node.leaf)];
    if (leaf.source) {
      const int64_t rows = leaf.source->EstimatedRows();
      return rows >= 0 ? static_cast<double>(rows) : kUnknownRows;
    }
    return leaf.subquery_rows >= 0 ? leaf.subquery_rows : kUnknownRows / 10;
  }

  // A semi or anti join filters the rows of its left side by the left columns its conditions
  // read; when those are all of one part of an inner join on its left, it filters that part
  // before the inner join just as well. Moves `node` (SEMI / ANTI) onto the smallest such part
  // when its right side is smaller than that part (a selective IN list, TPC-H Q18; an EXISTS
  // over a table as large as the part is better left to the rows the inner join keeps, Q21),
  // `node` becoming its former left side; false when it stays.
  bool PushSemiJoinDown(JoinTreeNode* node) const {
    std::set<int> right_leaves;
    TreeLeaves(*node->right, &right_leaves);
    std::set<int> wanted;
    for (const auto& condition : node->conditions) {
      for (int leaf : Leaves(*condition)) {
        if (right_leaves.count(leaf) == 0) wanted.insert(leaf);
      }
    }
    if (wanted.empty()) return false;
    std::unique_ptr<JoinTreeNode>* slot = &node->left;
    while ((*slot)->leaf < 0 &&
           ((*slot)->type == JoinType::kInner || (*slot)->type == JoinType::kCross)) {
      std::set<int> left;
      TreeLeaves(*(*slot)->left, &left);
      if (Subset(wanted, left)) {
        slot = &(*slot)->left;
        continue;
      }
      std::set<int> right;
      TreeLeaves(*(*slot)->right, &right);
      if (!Subset(wanted, right)) break;
      slot = &(*slot)->right;
    }
    if (slot == &node->left || RoughRows(*node->right) >= RoughRows(**slot)) return false;
    auto moved = std::make_unique<JoinTreeNode>();
    moved->type = node->type;
    moved->conditions = std::move(node->conditions);
    moved->right = std::move(node->right);
    moved->left = std::move(*slot);
    *slot = std::move(moved);
    std::unique_ptr<JoinTreeNode> left = std::move(node->left);
    *node = std::move(*left);
    return true;
  }

  Result<Relation> PlanNode(JoinTreeNode* node, std::vector<ExprPtr> pushed) {
    if (node->leaf >= 0) return PlanLeaf(node->leaf, std::move(pushed));
    if (node->lateral) return PlanLateral(node, std::move(pushed));
    if ((node->type == JoinType::kSemi || node->type == JoinType::kAnti) &&
        PushSemiJoinDown(node)) {
      return PlanNode(node, std::move(pushed));
    }
    if (node->type == JoinType::kInner || node->type == JoinType::kCross) {
      return PlanRegion(node, std::move(pushed));
    }
    return PlanOuter(node, std::move(pushed));
  }

  Result<Relation> Filtered(Relation relation, std::vector<ExprPtr> conjuncts) {
    if (conjuncts.empty()) return relation;
    const double selectivity = ConjunctsSelectivity(conjuncts);
    ExprPtr all = AndAll(std::move(conjuncts));
    TARN_ASSIGN_OR_RETURN(auto predicate, BindCondition(*all, *relation.op->schema(), "WHERE clause"));
    relation.op = MakeFilter(std::move(relation.op), std::move(predicate));
    relation.estimate = std::max(1.0, relation.estimate * selectivity);
    return relation;
  }

  Result<Relation> PlanLeaf(int index, std::vector<ExprPtr> filters) {
    JoinLeaf& leaf = query_->leaves[static_cast<size_t>(index)];
    const std::set<int>& needed = needed_[static_cast<size_t>(index)];
    std::vector<int> columns(needed.begin(), needed.end());
    Relation relation;
    relation.leaves.insert(index);
    std::vector<std::unique_ptr<BoundExpr>> renames;
    std::vector<std::string> names;
    std::unique_ptr<Operator> op;
    const double selectivity = ConjunctsSelectivity(filters);
    ExprPtr filter = AndAll(std::move(filters));
    if (leaf.source) {
      Schema scan_schema;
      for (int column : columns) scan_schema.fields.push_back(leaf.schema.field(column));
      std::unique_ptr<BoundExpr> bound;
      std::shared_ptr<const StatisticsPredicate> pruning;
      if (filter) {
        ExprPtr own = filter->Clone();
        ToLeafNames(own.get(), leaf);
        TARN_ASSIGN_OR_RETURN(bound, BindCondition(*own, scan_schema, "WHERE clause"));
        pruning = MakeStatisticsPredicate(*bound, scan_schema);
        if (!leaf.renamed) leaf.source->PushFilter(*own);
      }
      const int64_t rows = leaf.source->EstimatedRows();
      relation.estimate = rows >= 0 ? static_cast<double>(rows) : kUnknownRows;
      leaf_rows_[static_cast<size_t>(index)] = std::max(1.0, relation.estimate);
      TARN_ASSIGN_OR_RETURN(op, leaf.source->Open(columns, std::move(pruning)));
      op = WatchSource(std::move(op), *leaf.source, context_);
      if (bound) op = MakeFilter(std::move(op), std::move(bound));
      for (size_t i = 0; i < columns.size(); ++i) {
        renames.push_back(ColumnExpr(static_cast<int>(i), scan_schema.field(static_cast<int>(i))));
        names.push_back(leaf.internal[static_cast<size_t>(columns[i])]);
      }
    } else {
      op = std::move(leaf.subquery);
      relation.estimate = leaf.subquery_rows >= 0 ? leaf.subquery_rows : kUnknownRows / 10;
      leaf_rows_[static_cast<size_t>(index)] = relation.estimate;
      Schema internal;
      for (int c = 0; c < leaf.schema.num_fields(); ++c) {
        internal.fields.emplace_back(leaf.internal[static_cast<size_t>(c)], leaf.schema.field(c).type);
      }
      if (filter) {
        TARN_ASSIGN_OR_RETURN(auto bound, BindCondition(*filter, internal, "WHERE clause"));
        op = MakeFilter(std::move(op), std::move(bound));
      }
      for (int column : columns) {
        renames.push_back(ColumnExpr(column, internal.field(column)));
        names.push_back(leaf.internal[static_cast<size_t>(column)]);
      }
    }
    relation.estimate = std::max(1.0, relation.estimate * selectivity);
    relation.op = MakeProjection(std::move(op), std::move(renames), std::move(names));
    return relation;
  }

  // Internal names back to the leaf's own column names.
  void ToLeafNames(Expr* expr, const JoinLeaf& leaf) const {
    if (expr->kind == ExprKind::kColumnRef) {
      auto it = query_->columns.find(LowerAscii(expr->names[0]));
      if (it != query_->columns.end()) {
        expr->names[0] = leaf.schema.field(it->second.second).name;
      }
    }
    for (auto& child : expr->children) ToLeafNames(child.get(), leaf);
  }

  // A lateral UNNEST (join_tree.h): its left side planned with the conjuncts that read only
  // it, each of its rows repeated per element of its list, the other conjuncts above.
  Result<Relation> PlanLateral(JoinTreeNode* node, std::vector<ExprPtr> pushed) {
    std::set<int> left_leaves;
    TreeLeaves(*node->left, &left_leaves);
    const int index = node->right->leaf;
    const JoinLeaf& leaf = query_->leaves[static_cast<size_t>(index)];
    std::vector<ExprPtr> to_left;
    std::vector<ExprPtr> above;
    for (auto& conjunct : pushed) {
      const std::set<int> leaves = Leaves(*conjunct);
      (!leaves.empty() && Subset(leaves, left_leaves) ? to_left : above).push_back(std::move(conjunct));
    }
    for (auto& condition : node->conditions) above.push_back(std::move(condition));
    node->conditions.clear();
    TARN_ASSIGN_OR_RETURN(Relation left, PlanNode(node->left.get(), std::move(to_left)));
    const Schema& schema = *left.op->schema();
    const int width = schema.num_fields();
    std::vector<std::unique_ptr<BoundExpr>> columns;
    std::vector<std::string> names;
    std::vector<int> kept;
    for (int c = 0; c < width; ++c) {
      columns.push_back(ColumnExpr(c, schema.field(c)));
      names.push_back(schema.field(c).name);
      kept.push_back(c);
    }
    TARN_ASSIGN_OR_RETURN(auto list, Bind(*leaf.lateral_list, schema));
    columns.push_back(std::move(list));
    names.push_back("#lateral_list");
    Relation out;
    out.leaves = left.leaves;
    out.leaves.insert(index);
    out.estimate = left.estimate * 4;  // elements per list: unknown
    leaf_rows_[static_cast<size_t>(index)] = 4;
    out.op = MakeUnnest(MakeProjection(std::move(left.op), std::move(columns), std::move(names)),
                        std::move(kept), {width}, {leaf.internal[0]},
                        /*keep_empty=*/node->type == JoinType::kLeft);
    return Filtered(std::move(out), std::move(above));
  }

  void Flatten(JoinTreeNode* node, std::vector<JoinTreeNode*>* items, std::vector<ExprPtr>* pool) {
    if (node->leaf < 0 && !node->lateral &&
        (node->type == JoinType::kInner || node->type == JoinType::kCross)) {
      for (auto& condition : node->conditions) pool->push_back(std::move(condition));
      node->conditions.clear();
      Flatten(node->left.get(), items, pool);
      Flatten(node->right.get(), items, pool);
      return;
    }
    items->push_back(node);
  }

  // What an OR of conjunct lists implies, added to `out`: the conjuncts every branch has (TPC-H
  // Q19's join key), and per leaf the OR of each branch's conjuncts over that leaf alone, when
  // every branch has some (a filter its scan can take).
  void ImpliedByOr(const Expr& expr, std::vector<ExprPtr>* out) const {
    if (expr.kind != ExprKind::kBinary || expr.op != ast::Op::kOr) return;
    std::vector<const Expr*> branches;
    std::vector<const Expr*> stack{&expr};
    while (!stack.empty()) {
      const Expr* e = stack.back();
      stack.pop_back();
      if (e->kind == ExprKind::kBinary && e->op == ast::Op::kOr) {
        stack.push_back(e->children[1].get());
        stack.push_back(e->children[0].get());
      } else {
        branches.push_back(e);
      }
    }
    std::vector<std::vector<ExprPtr>> conjuncts(branches.size());
    for (size_t b = 0; b < branches.size(); ++b) SplitConjuncts(branches[b]->Clone(), &conjuncts[b]);
    for (const ExprPtr& candidate : conjuncts[0]) {
      bool everywhere = true;
      for (size_t b = 1; b < branches.size() && everywhere; ++b) {
        bool found = false;
        for (const ExprPtr& other : conjuncts[b]) found = found || other->Equals(*candidate);
        everywhere = found;
      }
      if (everywhere) out->push_back(candidate->Clone());
    }
    std::set<int> leaves = Leaves(expr);
    if (leaves.size() < 2) return;
    for (int leaf : leaves) {
      ExprPtr implied;
      bool every_branch = true;
      for (size_t b = 0; b < branches.size() && every_branch; ++b) {
        std::vector<ExprPtr> own;
        for (const ExprPtr& conjunct : conjuncts[b]) {
          std::set<int> reads = Leaves(*conjunct);
          if (reads.size() == 1 && *reads.begin() == leaf) own.push_back(conjunct->Clone());
        }
        if (own.empty()) {
          every_branch = false;
          break;
        }
        ExprPtr branch = AndAll(std::move(own));
        implied = implied ? ast::MakeBinary(ast::Op::kOr, std::move(implied), std::move(branch))
                          : std::move(branch);
      }
      if (every_branch && implied) out->push_back(std::move(implied));
    }
  }

  Result<Relation> PlanRegion(JoinTreeNode* node, std::vector<ExprPtr> pushed) {
    std::vector<JoinTreeNode*> items;
    std::vector<ExprPtr> pool = std::move(pushed);
    Flatten(node, &items, &pool);
    std::vector<ExprPtr> implied;
    for (const ExprPtr& conjunct : pool) ImpliedByOr(*conjunct, &implied);
    for (ExprPtr& conjunct : implied) pool.push_back(std::move(conjunct));
    std::vector<std::set<int>> item_leaves(items.size());
    for (size_t i = 0; i < items.size(); ++i) TreeLeaves(*items[i], &item_leaves[i]);
    std::vector<std::vector<ExprPtr>> item_filters(items.size());
    std::vector<ExprPtr> multi;
    std::vector<std::set<int>> multi_leaves;
    for (auto& conjunct : pool) {
      std::set<int> leaves = Leaves(*conjunct);
      int owner = -1;
      for (size_t i = 0; i < items.size() && owner < 0; ++i) {
        if (Subset(leaves, item_leaves[i])) owner = static_cast<int>(i);
      }
      if (owner >= 0) {
        item_filters[static_cast<size_t>(owner)].push_back(std::move(conjunct));
      } else {
        multi_leaves.push_back(std::move(leaves));
        multi.push_back(std::move(conjunct));
      }
    }
    std::vector<Relation> relations;
    for (size_t i = 0; i < items.size(); ++i) {
      TARN_ASSIGN_OR_RETURN(Relation relation, PlanNode(items[i], std::move(item_filters[i])));
      relations.push_back(std::move(relation));
    }
    // Greedy operator ordering: join the two relations, connected by an equality, whose join
    // is estimated smallest, until one is left (bushy: a dimension and its own dimensions join
    // before the fact table probes them); relations no equality connects join last, smallest
    // first.
    std::vector<bool> used(multi.size(), false);
    std::vector<Relation> pending = std::move(relations);
    while (pending.size() > 1) {
      size_t best_a = 0;
      size_t best_b = 0;
      double best_rows = -1;
      double best_inputs = 0;
      for (size_t a = 0; a < pending.size(); ++a) {
        for (size_t b = a + 1; b < pending.size(); ++b) {
          double divisor = 0;
          for (size_t c = 0; c < multi.size(); ++c) {
            if (used[c] || !IsEquiJoin(*multi[c], pending[a].leaves, pending[b].leaves)) continue;
            divisor = std::max(divisor, KeyDomain(*multi[c], pending[a], pending[b]));
          }
          if (divisor <= 0) continue;
          const double rows = std::max(1.0, pending[a].estimate * pending[b].estimate / divisor);
          const double inputs = pending[a].estimate + pending[b].estimate;
          if (best_rows < 0 || rows < best_rows || (rows == best_rows && inputs < best_inputs)) {
            best_a = a;
            best_b = b;
            best_rows = rows;
            best_inputs = inputs;
          }
        }
      }
      if (best_rows < 0) {  // nothing connected: the two smallest, as a cross product
        std::vector<size_t> order(pending.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
          return pending[x].estimate < pending[y].estimate;
        });
        best_a = std::min(order[0], order[1]);
        best_b = std::max(order[0], order[1]);
        best_rows = pending[best_a].estimate * pending[best_b].estimate;
      }
      Relation second = std::move(pending[best_b]);
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(best_b));
      Relation first = std::move(pending[best_a]);
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(best_a));
      std::set<int> together = first.leaves;
      together.insert(second.leaves.begin(), second.leaves.end());
      std::vector<ExprPtr> conditions;
      for (size_t c = 0; c < multi.size(); ++c) {
        if (used[c] || !Subset(multi_leaves[c], together)) continue;
        used[c] = true;
        conditions.push_back(std::move(multi[c]));
      }
      TARN_ASSIGN_OR_RETURN(Relation joined, Join(std::move(first), std::move(second),
                                                  JoinKind::kInner, std::move(conditions), true));
      joined.estimate = std::min(joined.estimate, std::max(1.0, best_rows));
      pending.push_back(std::move(joined));
    }
    Relation current = std::move(pending[0]);
    std::vector<ExprPtr> rest;
    for (size_t c = 0; c < multi.size(); ++c) {
      if (!used[c]) rest.push_back(std::move(multi[c]));
    }
    return Filtered(std::move(current), std::move(rest));
  }

  // `pushed`: conjuncts over the join's output; those reading only the preserved side filter
  // it before the join (the same rows survive), the rest filter the join's output.
  Result<Relation> PlanOuter(JoinTreeNode* node, std::vector<ExprPtr> pushed) {
    std::set<int> left_leaves;
    std::set<int> right_leaves;
    TreeLeaves(*node->left, &left_leaves);
    TreeLeaves(*node->right, &right_leaves);
    const JoinType type = node->type;
    // The side whose rows all survive probes; conjuncts reading only the other side filter it.
    const bool right_preserved = type == JoinType::kRight;
    std::vector<ExprPtr> to_left;
    std::vector<ExprPtr> to_right;
    std::vector<ExprPtr> conditions;
    for (auto& condition : node->conditions) {
      std::set<int> leaves = Leaves(*condition);
      const bool only_left = !leaves.empty() && Subset(leaves, left_leaves);
      const bool only_right = !leaves.empty() && Subset(leaves, right_leaves);
      if (type != JoinType::kFull && !right_preserved && only_right) {
        to_right.push_back(std::move(condition));
      } else if (right_preserved && only_left) {
        to_left.push_back(std::move(condition));
      } else {
        conditions.push_back(std::move(condition));
      }
    }
    node->conditions.clear();
    std::vector<ExprPtr> above;
    for (auto& conjunct : pushed) {
      std::set<int> leaves = Leaves(*conjunct);
      if (type != JoinType::kFull && !leaves.empty() &&
          Subset(leaves, right_preserved ? right_leaves : left_leaves)) {
        (right_preserved ? to_right : to_left).push_back(std::move(conjunct));
      } else {
        above.push_back(std::move(conjunct));
      }
    }
    TARN_ASSIGN_OR_RETURN(Relation left, PlanNode(node->left.get(), std::move(to_left)));
    TARN_ASSIGN_OR_RETURN(Relation right, PlanNode(node->right.get(), std::move(to_right)));
    JoinKind kind = JoinKind::kLeftOuter;
    if (type == JoinType::kFull) kind = JoinKind::kFullOuter;
    if (type == JoinType::kSemi) kind = JoinKind::kSemi;
    if (type == JoinType::kAnti) kind = JoinKind::kAnti;
    Relation joined;
    Relation& preserved = right_preserved ? right : left;
    Relation& other = right_preserved ? left : right;
    if (kind == JoinKind::kLeftOuter && preserved.estimate < other.estimate) {
      // The smaller preserved side is built on; its rows no probe row matched come at the end.
      TARN_ASSIGN_OR_RETURN(joined, Join(std::move(other), std::move(preserved),
                                         JoinKind::kRightOuter, std::move(conditions), false));
    } else {
      TARN_ASSIGN_OR_RETURN(joined, Join(std::move(preserved), std::move(other), kind,
                                         std::move(conditions), false));
    }
    return Filtered(std::move(joined), std::move(above));
  }

  // Joins `probe` with `build` (`swappable`: an inner join, which builds on the smaller side).
  // A semi or anti join whose outer side (`probe`) is estimated no larger than its inner side
  // builds on the outer side instead, as a right semi or right anti join.
  Result<Relation> Join(Relation probe, Relation build, JoinKind kind,
                        std::vector<ExprPtr> conditions, bool swappable) {
    if (swappable && build.estimate > probe.estimate) std::swap(probe, build);
    if ((kind == JoinKind::kSemi || kind == JoinKind::kAnti) &&
        probe.estimate <= build.estimate) {
      std::swap(probe, build);
      kind = kind == JoinKind::kSemi ? JoinKind::kRightSemi : JoinKind::kRightAnti;
    }
    const std::shared_ptr<const Schema> probe_schema = probe.op->schema();
    const std::shared_ptr<const Schema> build_schema = build.op->schema();
    std::shared_ptr<const Schema> pairs = PairSchema(*probe_schema, *build_schema);
    const int probe_width = probe_schema->num_fields();
    HashJoinSpec spec;
    spec.kind = kind;
    std::vector<ExprPtr> residual;
    for (auto& condition : conditions) {
      if (!IsEquiJoin(*condition, probe.leaves, build.leaves)) {
        residual.push_back(std::move(condition));
        continue;
      }
      TARN_ASSIGN_OR_RETURN(auto bound, Bind(*condition, *pairs));
      const expr::BoundNode& root = bound->root();
      if (root.kind != expr::BoundKind::kCompare || root.op != ast::Op::kEqual ||
          root.children.size() != 2) {
        residual.push_back(std::move(condition));
        continue;
      }
      int probe_child = ReadsBelow(*root.children[0], probe_width, true) ? 0 : 1;
      std::unique_ptr<expr::BoundNode> probe_key = expr::CloneBound(*root.children[static_cast<size_t>(probe_child)]);
      std::unique_ptr<expr::BoundNode> build_key = expr::CloneBound(*root.children[static_cast<size_t>(1 - probe_child)]);
      if (!ReadsBelow(*probe_key, probe_width, true) || !ReadsBelow(*build_key, probe_width, false)) {
        residual.push_back(std::move(condition));
        continue;
      }
      ShiftColumns(build_key.get(), probe_width);
      spec.condition_text.push_back(condition->ToString());
      spec.probe_keys.push_back(std::make_unique<BoundExpr>(std::move(probe_key)));
      spec.build_keys.push_back(std::make_unique<BoundExpr>(std::move(build_key)));
    }
    std::unique_ptr<BoundExpr> residual_bound;
    if (!residual.empty()) {
      ExprPtr all = AndAll(std::move(residual));
      TARN_ASSIGN_OR_RETURN(residual_bound, BindCondition(*all, *pairs, "JOIN condition"));
    }
    Relation out;
    out.leaves = probe.leaves;
    out.leaves.insert(build.leaves.begin(), build.leaves.end());
    const std::set<int> probe_leaves = probe.leaves;
    const double probe_estimate = probe.estimate;
    const std::set<int> build_leaves = build.leaves;
    const double build_estimate = build.estimate;
    std::unique_ptr<Operator> build_op = MakeGather(std::move(build.op), context_);
    if (!spec.probe_keys.empty()) {
      out.estimate = std::max(probe.estimate, build.estimate);
      spec.residual = std::move(residual_bound);
      TARN_ASSIGN_OR_RETURN(out.op, MakeHashJoin(std::move(probe.op), std::move(build_op),
                                                 std::move(spec), context_));
    } else {
      out.estimate = probe.estimate * std::max(1.0, build.estimate);
      TARN_ASSIGN_OR_RETURN(out.op, MakeNestedLoopJoin(std::move(probe.op), std::move(build_op),
                                                       kind, std::move(residual_bound), context_));
    }
    // A semi join keeps at most its outer rows, and about as many as the inner side has keys.
    if (kind == JoinKind::kSemi || kind == JoinKind::kAnti) {
      out.estimate = kind == JoinKind::kSemi ? std::min(probe_estimate, build_estimate)
                                             : probe_estimate;
      out.leaves = probe_leaves;
    }
    if (IsRightSemiOrAnti(kind)) {
      out.estimate = kind == JoinKind::kRightSemi ? std::min(probe_estimate, build_estimate)
                                                  : build_estimate;
      out.leaves = build_leaves;
    }
    return out;
  }

  JoinQuery* query_;
  const ExecContext& context_;
  std::vector<std::set<int>> needed_;  // per leaf: the columns some expression reads
  std::vector<double> leaf_rows_;      // per leaf: its estimated rows before its filters
  // (leaf, column) → KeyDistinct's bound from the leaf alone.
  mutable std::map<std::pair<int, int>, double> leaf_distinct_;
};

}  // namespace

Result<std::unique_ptr<Operator>> PlanJoinQuery(JoinQuery* query, std::vector<ExprPtr> where,
                                                const std::vector<std::string>& outputs,
                                                const ExecContext& context) {
  JoinPlanner planner(query, context);
  return planner.Plan(std::move(where), outputs);
}

}  // namespace tarn::sql
