#include "sql/plan/unnest_rewrite.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sql/exec/aggregate_function.h"
#include "sql/parse/statement_clone.h"
#include "sql/plan/names.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

bool IsUnnestCall(const Expr& e) {
  return e.kind == ExprKind::kFunction && !e.names.empty() && LowerAscii(e.names[0]) == "unnest";
}

// UNNEST calls of `e`, not looking into lambdas (whose bodies the binder refuses them in).
bool ContainsUnnest(const Expr& e) {
  if (IsUnnestCall(e)) return true;
  if (e.kind == ExprKind::kLambda) return false;
  for (const auto& child : e.children) {
    if (ContainsUnnest(*child)) return true;
  }
  return false;
}

constexpr const char* kNotHere = "Binder Error: UNNEST not supported here";

class SelectUnnestRewriter {
 public:
  explicit SelectUnnestRewriter(const SelectStmt& select) : select_(select) {}

  Result<std::unique_ptr<SelectStmt>> Rewrite() {
    inner_ = CloneSelect(select_);
    inner_->items.clear();
    inner_->order_by.clear();
    inner_->limit = nullptr;
    inner_->offset = nullptr;
    inner_->distinct = false;
    auto outer = std::make_unique<SelectStmt>();
    outer->distinct = select_.distinct;
    if (select_.limit) outer->limit = select_.limit->Clone();
    if (select_.offset) outer->offset = select_.offset->Clone();

    // Names a whole item keeps inside when no other item has it (HAVING and WHERE may name
    // select-list aliases, which must still resolve in the inner query).
    std::map<std::string, int> name_counts;
    for (const SelectItem& item : select_.items) {
      if (!item.star) ++name_counts[LowerAscii(OutputName(item))];
    }
    int stars = 0;
    for (const SelectItem& item : select_.items) {
      if (item.star) {
        if (++stars > 1) {
          return Status::NotSupported("not yet supported: UNNEST beside more than one *");
        }
        inner_->items.push_back(CloneItem(item));
        SelectItem star;
        star.star = true;
        outer->items.push_back(std::move(star));
        star_index_ = static_cast<int>(outer->items.size()) - 1;
        continue;
      }
      const std::string name = OutputName(item);
      SelectItem out;
      out.alias = name;
      if (!ContainsUnnest(*item.expr)) {
        std::string inner_name = name_counts[LowerAscii(name)] == 1 && name[0] != '#' ? name : Hidden("p");
        SelectItem in;
        in.expr = item.expr->Clone();
        in.alias = inner_name;
        inner_->items.push_back(std::move(in));
        out.expr = ast::MakeColumnRef({inner_name});
      } else {
        TARN_ASSIGN_OR_RETURN(out.expr, Split(*item.expr));
      }
      outer->items.push_back(std::move(out));
    }
    // ORDER BY an output name or position orders the unnested rows as they are; any other
    // expression is computed by the inner query, per input row.
    std::set<std::string> output_names;
    for (const SelectItem& item : outer->items) {
      if (!item.star) output_names.insert(LowerAscii(item.alias));
    }
    for (const OrderItem& item : select_.order_by) {
      OrderItem order;
      order.descending = item.descending;
      order.nulls_first = item.nulls_first;
      const Expr& e = *item.expr;
      const bool by_position = e.kind == ExprKind::kLiteral && e.literal_kind == ast::LiteralKind::kInteger;
      const bool by_name = e.kind == ExprKind::kColumnRef && e.names.size() == 1 &&
                           output_names.count(LowerAscii(e.names[0])) > 0;
      if (by_position || by_name) {
        order.expr = e.Clone();
      } else if (ContainsUnnest(e)) {
        return Status::InvalidArgument(kNotHere);
      } else {
        const std::string hidden = Hidden("o");
        SelectItem in;
        in.expr = e.Clone();
        in.alias = hidden;
        inner_->items.push_back(std::move(in));
        order.expr = ast::MakeColumnRef({hidden});
      }
      outer->order_by.push_back(std::move(order));
    }
    // The lists last: the derived table unnests its last columns.
    for (size_t k = 0; k < lists_.size(); ++k) {
      SelectItem list;
      list.expr = std::move(lists_[k]);
      list.alias = "#u_l" + std::to_string(k);
      inner_->items.push_back(std::move(list));
    }
    if (star_index_ >= 0) {
      SelectItem& star = outer->items[static_cast<size_t>(star_index_)];
      star.exclude = hidden_;
      for (size_t k = 0; k < element_names_.size(); ++k) star.exclude.push_back(element_names_[k]);
    }
    outer->from.kind = TableRef::Kind::kSubquery;
    outer->from.subquery = std::move(inner_);
    outer->from.unnest_lists = static_cast<int>(element_names_.size());
    return outer;
  }

 private:
  static std::string OutputName(const SelectItem& item) {
    return item.alias.empty() ? DefaultColumnName(*item.expr) : item.alias;
  }

  static SelectItem CloneItem(const SelectItem& item) {
    SelectItem out;
    if (item.expr) out.expr = item.expr->Clone();
    out.alias = item.alias;
    out.star = item.star;
    out.star_qualifier = item.star_qualifier;
    out.exclude = item.exclude;
    for (const auto& [name, expr] : item.replace) out.replace.emplace_back(name, expr->Clone());
    return out;
  }

  std::string Hidden(const char* kind) {
    std::string name = "#u_" + std::string(kind) + std::to_string(hidden_.size());
    hidden_.push_back(name);
    return name;
  }

  // `e` (which calls UNNEST) over the unnested row: each UNNEST call its elements' column,
  // each part that calls none a column the inner query computes.
  Result<ExprPtr> Split(const Expr& e) {
    if (IsUnnestCall(e)) {
      if (e.children.size() != 1 || e.distinct || e.has_filter || e.names.size() > 1) {
        return Status::InvalidArgument("Binder Error: UNNEST requires a single list as input");
      }
      if (ContainsUnnest(*e.children[0])) {
        return Status::NotSupported("not yet supported: UNNEST of an UNNEST");
      }
      const std::string element = "#u_e" + std::to_string(lists_.size());
      const Expr& list = *e.children[0];
      if (list.kind == ExprKind::kLiteral && list.literal_kind == ast::LiteralKind::kNull) {
        // unnest(NULL): no rows. A NULL list of the type DuckDB gives the column.
        auto cast = std::make_unique<Expr>();
        cast->kind = ExprKind::kCast;
        cast->type_name = "INTEGER[]";
        cast->children.push_back(list.Clone());
        ast::UpdateHeight(cast.get());
        lists_.push_back(std::move(cast));
      } else {
        lists_.push_back(list.Clone());
      }
      element_names_.push_back(element);
      return ast::MakeColumnRef({element});
    }
    // A literal stays in place (struct_extract(unnest(l), 'a') needs its key constant).
    if (e.kind == ExprKind::kLiteral) return e.Clone();
    if (!ContainsUnnest(e)) {
      const std::string hidden = Hidden("p");
      SelectItem in;
      in.expr = e.Clone();
      in.alias = hidden;
      inner_->items.push_back(std::move(in));
      return ast::MakeColumnRef({hidden});
    }
    // An aggregate or window function of an UNNEST is refused, as DuckDB refuses it; other
    // functions of one are fine.
    if (e.kind == ExprKind::kWindow ||
        (e.kind == ExprKind::kFunction && IsAggregateName(LowerAscii(e.names[0])))) {
      return Status::InvalidArgument(kNotHere);
    }
    ExprPtr out = e.Clone();
    for (size_t i = 0; i < e.children.size(); ++i) {
      TARN_ASSIGN_OR_RETURN(out->children[i], Split(*e.children[i]));
    }
    ast::UpdateHeight(out.get());
    return out;
  }

  const SelectStmt& select_;
  std::unique_ptr<SelectStmt> inner_;
  std::vector<ExprPtr> lists_;              // each UNNEST's argument, in call order
  std::vector<std::string> element_names_;  // "#u_e<k>"
  std::vector<std::string> hidden_;         // the inner query's columns the outer * leaves out
  int star_index_ = -1;
};

}  // namespace

bool HasSelectUnnest(const SelectStmt& select) {
  for (const SelectItem& item : select.items) {
    if (item.expr && ContainsUnnest(*item.expr)) return true;
  }
  return false;
}

namespace {

// unnest(x, recursive := flag): the flag's expression; null for unnest(x).
const Expr* RecursiveArgument(const Expr& call) {
  if (call.children.size() != 2 || call.names.size() != 3 || !call.names[1].empty() ||
      LowerAscii(call.names[2]) != "recursive") {
    return nullptr;
  }
  return call.children[1].get();
}

bool IsBareUnnest(const Expr& e) {
  if (!IsUnnestCall(e) || e.distinct || e.has_filter || e.children.empty() ||
      ContainsUnnest(*e.children[0])) {
    return false;
  }
  return (e.children.size() == 1 && e.names.size() == 1) || RecursiveArgument(e) != nullptr;
}

// Whether unnest(x, recursive := flag) asks for recursion: a constant true (or non-zero).
bool IsRecursive(const Expr& call) {
  const Expr* flag = RecursiveArgument(call);
  if (flag == nullptr || flag->kind != ExprKind::kLiteral) return false;
  if (flag->literal_kind == ast::LiteralKind::kTrue) return true;
  return flag->literal_kind == ast::LiteralKind::kInteger && flag->text != "0";
}

// `value`'s fields as select items, struct fields expanded in turn when `recursive`.
void AppendFields(const Expr& value, const DataType& type, bool recursive,
                  std::vector<SelectItem>* out) {
  for (const Field& field : type.children) {
    std::vector<ExprPtr> args;
    args.push_back(value.Clone());
    args.push_back(ast::MakeLiteral(ast::LiteralKind::kString, field.name));
    ExprPtr extract = ast::MakeFunction("struct_extract", std::move(args));
    if (recursive && field.type.id == TypeId::kStruct) {
      AppendFields(*extract, field.type, true, out);
      continue;
    }
    SelectItem item;
    item.expr = std::move(extract);
    item.alias = field.name;
    out->push_back(std::move(item));
  }
}

}  // namespace

std::vector<size_t> BareUnnestItems(const SelectStmt& select) {
  std::vector<size_t> items;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (item.expr && IsBareUnnest(*item.expr)) items.push_back(i);
  }
  return items;
}

std::unique_ptr<SelectStmt> UnnestArgumentProbe(const SelectStmt& select,
                                                const std::vector<size_t>& items) {
  std::unique_ptr<SelectStmt> probe = CloneSelect(select);
  probe->items.clear();
  for (size_t k = 0; k < items.size(); ++k) {
    SelectItem item;
    item.expr = select.items[items[k]].expr->children[0]->Clone();
    item.alias = "#probe" + std::to_string(k);
    probe->items.push_back(std::move(item));
  }
  probe->order_by.clear();
  probe->limit = nullptr;
  probe->limit_percent = false;
  probe->offset = nullptr;
  probe->distinct = false;
  return probe;
}

Result<std::unique_ptr<SelectStmt>> ExpandStructUnnests(const SelectStmt& select,
                                                        const std::vector<size_t>& items,
                                                        const std::vector<DataType>& types) {
  // The items to rewrite: a STRUCT's unnest, and every unnest with a `recursive` argument.
  std::map<size_t, const DataType*> structs;
  for (size_t k = 0; k < items.size() && k < types.size(); ++k) {
    if (types[k].id == TypeId::kStruct ||
        RecursiveArgument(*select.items[items[k]].expr) != nullptr) {
      structs[items[k]] = &types[k];
    }
  }
  if (structs.empty()) return std::unique_ptr<SelectStmt>();
  int unnest_items = 0;
  for (const SelectItem& item : select.items) {
    if (item.expr && ContainsUnnest(*item.expr)) ++unnest_items;
  }
  std::unique_ptr<SelectStmt> expanded = CloneSelect(select);
  std::vector<SelectItem> items_before = std::move(expanded->items);
  expanded->items.clear();
  for (size_t i = 0; i < select.items.size(); ++i) {
    auto found = structs.find(i);
    if (found == structs.end()) {
      expanded->items.push_back(std::move(items_before[i]));
      continue;
    }
    const Expr& call = *select.items[i].expr;
    const Expr& argument = *call.children[0];
    const DataType& type = *found->second;
    const bool recursive = IsRecursive(call);
    if (type.id == TypeId::kStruct) {
      AppendFields(argument, type, recursive, &expanded->items);
      continue;
    }
    // A list: with recursion, flattened to its innermost elements, whose structs are
    // expanded as well (each field one unnest of the same list, so they line up).
    ExprPtr list = argument.Clone();
    const DataType* element = type.id == TypeId::kList ? &type.children[0].type : nullptr;
    if (recursive && element != nullptr && element->id == TypeId::kList && unnest_items > 1) {
      // DuckDB unnests such a list a level at a time beside the other calls; flattening it
      // would pair its elements with theirs differently.
      return Status::NotSupported("not yet supported: a recursive UNNEST of nested lists beside "
                                  "another UNNEST");
    }
    while (recursive && element != nullptr && element->id == TypeId::kList) {
      std::vector<ExprPtr> args;
      args.push_back(std::move(list));
      list = ast::MakeFunction("flatten", std::move(args));
      element = &element->children[0].type;
    }
    std::vector<ExprPtr> args;
    args.push_back(std::move(list));
    ExprPtr unnested = ast::MakeFunction("unnest", std::move(args));
    if (recursive && element != nullptr && element->id == TypeId::kStruct) {
      AppendFields(*unnested, *element, true, &expanded->items);
      continue;
    }
    SelectItem item;
    item.alias = select.items[i].alias.empty() ? DefaultColumnName(call) : select.items[i].alias;
    item.expr = std::move(unnested);
    expanded->items.push_back(std::move(item));
  }
  return expanded;
}

Result<std::unique_ptr<SelectStmt>> RewriteSelectUnnest(const SelectStmt& select) {
  SelectUnnestRewriter rewriter(select);
  return rewriter.Rewrite();
}

bool IsUnnestFunction(const TableRef& ref) {
  return ref.kind == TableRef::Kind::kFunction && !ref.names.empty() &&
         LowerAscii(ref.names[0]) == "unnest";
}

Result<TableRef> UnnestFunctionAsDerivedTable(const TableRef& ref) {
  if (ref.args.size() != 1 || !ref.args[0].name.empty() ||
      (!ref.args[0].is_list && !ref.args[0].expr)) {
    return Status::InvalidArgument("Binder Error: UNNEST requires a single list as input");
  }
  ExprPtr written;
  if (ref.args[0].is_list) {  // FROM unnest([1, 2]): the argument parsed as a list of values
    written = std::make_unique<Expr>();
    written->kind = ExprKind::kList;
    for (const auto& element : ref.args[0].list) written->children.push_back(element->Clone());
    ast::UpdateHeight(written.get());
  }
  const Expr& list = written ? *written : *ref.args[0].expr;
  if (list.kind == ExprKind::kLiteral && list.literal_kind == ast::LiteralKind::kNull) {
    return Status::InvalidArgument("Binder Error: UNNEST requires a single list as input");
  }
  auto inner = std::make_unique<SelectStmt>();
  SelectItem item;
  item.expr = list.Clone();
  item.alias = "unnest";
  inner->items.push_back(std::move(item));
  TableRef out;
  out.kind = TableRef::Kind::kSubquery;
  out.subquery = std::move(inner);
  out.unnest_lists = 1;
  out.alias = ref.alias;
  out.column_aliases = ref.column_aliases;
  out.offset = ref.offset;
  return out;
}

namespace {

bool ReadsColumn(const Expr& e) {
  if (e.kind == ExprKind::kColumnRef) return true;
  for (const auto& child : e.children) {
    if (ReadsColumn(*child)) return true;
  }
  return false;
}

}  // namespace

bool IsSeriesOverColumns(const TableRef& ref) {
  if (ref.kind != TableRef::Kind::kFunction || ref.names.size() != 1) return false;
  const std::string name = LowerAscii(ref.names[0]);
  if (name != "range" && name != "generate_series") return false;
  for (const TableArg& arg : ref.args) {
    if (!arg.name.empty() || arg.is_list || !arg.expr) return false;
  }
  for (const TableArg& arg : ref.args) {
    if (ReadsColumn(*arg.expr)) return true;
  }
  return false;
}

TableRef SeriesAsUnnest(const TableRef& ref) {
  const std::string name = LowerAscii(ref.names[0]);
  std::vector<ExprPtr> args;
  for (const TableArg& arg : ref.args) args.push_back(arg.expr->Clone());
  TableRef out;
  out.kind = TableRef::Kind::kFunction;
  out.names = {"unnest"};
  TableArg list;
  list.expr = ast::MakeFunction(name, std::move(args));
  out.args.push_back(std::move(list));
  out.alias = ref.alias.empty() ? name : ref.alias;
  out.column_aliases = ref.column_aliases.empty() ? std::vector<std::string>{name} : ref.column_aliases;
  out.offset = ref.offset;
  return out;
}

}  // namespace tarn::sql
