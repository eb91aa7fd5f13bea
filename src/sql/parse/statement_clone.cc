#include "sql/parse/statement_clone.h"

#include <utility>

namespace tarn::sql {
namespace {

using ExprPtr = std::unique_ptr<ast::Expr>;

ExprPtr CloneOrNull(const ExprPtr& expr) { return expr ? expr->Clone() : nullptr; }

}  // namespace

TableRef CloneTableRef(const TableRef& ref) {
  TableRef out;
  out.kind = ref.kind;
  out.names = ref.names;
  out.file = ref.file;
  for (const TableArg& arg : ref.args) {
    TableArg copy;
    copy.name = arg.name;
    copy.expr = CloneOrNull(arg.expr);
    copy.is_list = arg.is_list;
    for (const auto& element : arg.list) copy.list.push_back(element->Clone());
    out.args.push_back(std::move(copy));
  }
  if (ref.subquery) out.subquery = CloneSelect(*ref.subquery);
  out.alias = ref.alias;
  out.column_aliases = ref.column_aliases;
  out.unnest_lists = ref.unnest_lists;
  out.lateral = ref.lateral;
  out.hidden_columns = ref.hidden_columns;
  if (ref.at) {
    AtClause at;
    at.timestamp = ref.at->timestamp;
    at.value = CloneOrNull(ref.at->value);
    out.at = std::move(at);
  }
  out.offset = ref.offset;
  if (ref.left) out.left = std::make_unique<TableRef>(CloneTableRef(*ref.left));
  if (ref.right) out.right = std::make_unique<TableRef>(CloneTableRef(*ref.right));
  out.join_type = ref.join_type;
  out.on = CloneOrNull(ref.on);
  out.using_columns = ref.using_columns;
  out.natural = ref.natural;
  out.comma = ref.comma;
  return out;
}

std::unique_ptr<SelectStmt> CloneSelect(const SelectStmt& select) {
  auto out = std::make_unique<SelectStmt>();
  out->ctes = select.ctes;
  out->set_op = select.set_op;
  out->set_all = select.set_all;
  out->set_by_name = select.set_by_name;
  if (select.set_left) out->set_left = CloneSelect(*select.set_left);
  if (select.set_right) out->set_right = CloneSelect(*select.set_right);
  for (const auto& row : select.values) {
    std::vector<ExprPtr> copy;
    for (const auto& value : row) copy.push_back(value->Clone());
    out->values.push_back(std::move(copy));
  }
  out->pivot = select.pivot;  // immutable once parsed
  out->summarize = select.summarize;
  out->distinct = select.distinct;
  for (const auto& e : select.distinct_on) out->distinct_on.push_back(e->Clone());
  for (const SelectItem& item : select.items) {
    SelectItem copy;
    copy.expr = CloneOrNull(item.expr);
    copy.alias = item.alias;
    copy.star = item.star;
    copy.star_qualifier = item.star_qualifier;
    copy.exclude = item.exclude;
    for (const auto& [name, expr] : item.replace) copy.replace.emplace_back(name, expr->Clone());
    out->items.push_back(std::move(copy));
  }
  out->from = CloneTableRef(select.from);
  out->where = CloneOrNull(select.where);
  out->sample = select.sample;  // immutable once parsed
  for (const auto& group : select.group_by) out->group_by.push_back(group->Clone());
  out->group_by_all = select.group_by_all;
  out->grouping_sets = select.grouping_sets;
  out->having = CloneOrNull(select.having);
  for (const NamedWindow& window : select.windows) {
    out->windows.push_back(NamedWindow{window.name, window.spec->Clone()});
  }
  out->qualify = CloneOrNull(select.qualify);
  CopyOrderAndLimit(select, out.get());
  return out;
}

OrderItem CloneOrderItem(const OrderItem& item) {
  OrderItem copy;
  copy.expr = item.expr->Clone();
  copy.descending = item.descending;
  copy.nulls_first = item.nulls_first;
  return copy;
}

std::unique_ptr<SelectStmt> SelectAllFrom(std::unique_ptr<SelectStmt> query) {
  auto outer = std::make_unique<SelectStmt>();
  SelectItem all;
  all.star = true;
  outer->items.push_back(std::move(all));
  outer->from.kind = TableRef::Kind::kSubquery;
  outer->from.subquery = std::move(query);
  return outer;
}

void CopyOrderAndLimit(const SelectStmt& from, SelectStmt* to) {
  for (const OrderItem& item : from.order_by) to->order_by.push_back(CloneOrderItem(item));
  to->limit = CloneOrNull(from.limit);
  to->limit_percent = from.limit_percent;
  to->offset = CloneOrNull(from.offset);
}


}  // namespace tarn::sql
