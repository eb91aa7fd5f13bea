#include "sql/plan/window_rewrite.h"

#include <cstdlib>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/eval/cast.h"
#include "sql/plan/names.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::FrameBound;
using ast::FrameUnit;
using ExprPtr = std::unique_ptr<Expr>;

bool SameName(const std::string& a, const std::string& b) { return LowerAscii(a) == LowerAscii(b); }

// A kWindow node's children by role.
struct WindowParts {
  std::vector<const Expr*> args, partitions, orders, offsets;
};

WindowParts Split(const Expr& e) {
  WindowParts parts;
  const ast::WindowSpec& w = *e.window;
  size_t index = 0;
  for (int32_t i = 0; i < w.num_args; ++i) parts.args.push_back(e.children[index++].get());
  for (int32_t i = 0; i < w.num_partitions; ++i) {
    parts.partitions.push_back(e.children[index++].get());
  }
  for (size_t i = 0; i < w.orders.size(); ++i) parts.orders.push_back(e.children[index++].get());
  while (index < e.children.size()) parts.offsets.push_back(e.children[index++].get());
  return parts;
}

Status Resolve(Expr* e, const std::vector<NamedWindow>& windows) {
  for (auto& child : e->children) TARN_RETURN_NOT_OK(Resolve(child.get(), windows));
  if (e->kind != ExprKind::kWindow || e->window->base.empty()) return Status::OK();
  const NamedWindow* definition = nullptr;
  for (const NamedWindow& window : windows) {
    if (SameName(window.name, e->window->base)) definition = &window;
  }
  if (definition == nullptr) {
    return Status::InvalidArgument("Parser Error: window \"", e->window->base, "\" does not exist");
  }
  const Expr& base = *definition->spec;
  if (!base.window->base.empty()) {
    return Status::NotSupported("not yet supported: window \"", definition->name,
                                "\" defined on another window");
  }
  const WindowParts mine = Split(*e);
  const WindowParts theirs = Split(base);
  if (!mine.partitions.empty() && !theirs.partitions.empty()) {
    return Status::InvalidArgument("Parser Error: Cannot override PARTITION BY clause of window \"",
                                   definition->name, "\"");
  }
  if (!mine.orders.empty() && !theirs.orders.empty()) {
    return Status::InvalidArgument("Parser Error: Cannot override ORDER BY clause of window \"",
                                   definition->name, "\"");
  }
  auto spec = std::make_unique<ast::WindowSpec>();
  spec->num_args = e->window->num_args;
  spec->ignore_nulls = e->window->ignore_nulls;
  const std::vector<const Expr*>& partitions =
      mine.partitions.empty() ? theirs.partitions : mine.partitions;
  spec->num_partitions = static_cast<int32_t>(partitions.size());
  spec->orders = mine.orders.empty() ? base.window->orders : e->window->orders;
  const ast::WindowSpec& frame = e->window->has_frame ? *e->window : *base.window;
  spec->has_frame = frame.has_frame;
  spec->unit = frame.unit;
  spec->start = frame.start;
  spec->end = frame.end;
  std::vector<ExprPtr> children;
  for (const Expr* arg : mine.args) children.push_back(arg->Clone());
  for (const Expr* partition : partitions) children.push_back(partition->Clone());
  for (const Expr* order : mine.orders.empty() ? theirs.orders : mine.orders) {
    children.push_back(order->Clone());
  }
  for (const Expr* offset : e->window->has_frame ? mine.offsets : theirs.offsets) {
    children.push_back(offset->Clone());
  }
  e->children = std::move(children);
  e->window = std::move(spec);
  ast::UpdateHeight(e);
  return Status::OK();
}

Result<std::unique_ptr<BoundExpr>> CastBound(std::unique_ptr<BoundExpr> bound,
                                             const DataType& type) {
  if (bound->type() == type) return bound;
  TARN_ASSIGN_OR_RETURN(auto node, expr::CastTo(expr::CloneBound(bound->root()), type));
  return std::make_unique<BoundExpr>(std::move(node));
}

}  // namespace

bool ContainsWindow(const Expr& expr) {
  if (expr.kind == ExprKind::kWindow) return true;
  for (const auto& child : expr.children) {
    if (ContainsWindow(*child)) return true;
  }
  return false;
}

Status ResolveNamedWindows(SelectStmt* select) {
  for (SelectItem& item : select->items) {
    if (item.expr) TARN_RETURN_NOT_OK(Resolve(item.expr.get(), select->windows));
  }
  if (select->qualify) TARN_RETURN_NOT_OK(Resolve(select->qualify.get(), select->windows));
  for (OrderItem& item : select->order_by) {
    TARN_RETURN_NOT_OK(Resolve(item.expr.get(), select->windows));
  }
  select->windows.clear();
  return Status::OK();
}

Status WindowExtractor::Extract(ExprPtr* expr) {
  Expr& e = **expr;
  if (e.kind != ExprKind::kWindow) {
    for (auto& child : e.children) TARN_RETURN_NOT_OK(Extract(&child));
    return Status::OK();
  }
  for (const auto& child : e.children) {
    if (ContainsWindow(*child)) {
      return Status::InvalidArgument("Binder Error: window function calls cannot be nested");
    }
  }
  size_t index = 0;
  while (index < windows_.size() && !windows_[index]->Equals(e)) ++index;
  if (index == windows_.size()) windows_.push_back(e.Clone());
  ExprPtr reference = ast::MakeColumnRef({Column(index)});
  reference->range = e.range;
  *expr = std::move(reference);
  return Status::OK();
}

Result<WindowFunction> BindWindow(const Expr& call, const BindFn& bind, std::string name) {
  const ast::WindowSpec& spec = *call.window;
  const WindowParts parts = Split(call);
  if (!spec.base.empty()) {
    return Status::InvalidArgument("Parser Error: window \"", spec.base, "\" does not exist");
  }
  WindowFunction function;
  function.name = std::move(name);
  function.display = DefaultColumnName(call);
  function.function = LowerAscii(call.names[0]);
  if (function.function == "mean") function.function = "avg";
  const bool star = parts.args.size() == 1 && parts.args[0]->kind == ExprKind::kStar;
  if (function.function == "count" && (parts.args.empty() || star)) {
    function.function = "count_star";
  } else if (star) {
    return Status::InvalidArgument("Binder Error: * is only allowed as count(*), not in \"",
                                   call.ToString(), "\"");
  }
  if (!IsWindowFunctionName(function.function)) {
    return Status::InvalidArgument("Binder Error: ", call.names[0],
                                   " is not an aggregate or window function");
  }
  if (call.distinct) {
    return Status::NotSupported("not yet supported: DISTINCT in the window function \"",
                                call.ToString(), "\"");
  }
  if (spec.ignore_nulls) {
    return Status::NotSupported("not yet supported: IGNORE NULLS in \"", call.ToString(), "\"");
  }
  if (function.function != "count_star") {
    for (const Expr* arg : parts.args) {
      TARN_ASSIGN_OR_RETURN(auto bound, bind(*arg));
      function.arguments.push_back(std::move(bound));
    }
  }
  std::vector<DataType> types;
  for (const auto& argument : function.arguments) types.push_back(argument->type());
  TARN_RETURN_NOT_OK(WindowResultType(function.function, types).status());
  // Counts are BIGINT; a default takes the value's type.
  const DataType bigint(TypeId::kInt64);
  auto cast_argument = [&](size_t index, const DataType& type) -> Status {
    TARN_ASSIGN_OR_RETURN(function.arguments[index],
                          CastBound(std::move(function.arguments[index]), type));
    return Status::OK();
  };
  if (function.function == "ntile") TARN_RETURN_NOT_OK(cast_argument(0, bigint));
  if (function.function == "nth_value") TARN_RETURN_NOT_OK(cast_argument(1, bigint));
  if (function.function == "lag" || function.function == "lead") {
    if (function.arguments.size() > 1) TARN_RETURN_NOT_OK(cast_argument(1, bigint));
    if (function.arguments.size() > 2) TARN_RETURN_NOT_OK(cast_argument(2, types[0]));
  }

  for (const Expr* partition : parts.partitions) {
    TARN_ASSIGN_OR_RETURN(auto bound, bind(*partition));
    function.partitions.push_back(std::move(bound));
  }
  for (size_t o = 0; o < parts.orders.size(); ++o) {
    TARN_ASSIGN_OR_RETURN(auto bound, bind(*parts.orders[o]));
    function.orders.push_back(std::move(bound));
    function.order_keys.push_back(
        SortKey{0, spec.orders[o].descending, spec.orders[o].nulls_first == 1});
  }

  WindowFrame& frame = function.frame;
  if (spec.has_frame) {
    frame.unit = spec.unit;
    frame.start = spec.start;
    frame.end = spec.end;
  }
  size_t offset_index = 0;
  const bool range_offsets =
      frame.unit == FrameUnit::kRange && (ast::HasOffset(frame.start) || ast::HasOffset(frame.end));
  if (range_offsets && parts.orders.size() != 1) {
    return Status::InvalidArgument(
        "Binder Error: RANGE frames must have only one ORDER BY expression");
  }
  if (frame.unit == FrameUnit::kGroups && parts.orders.empty()) {
    return Status::InvalidArgument("Binder Error: GROUPS frames need an ORDER BY clause");
  }
  const bool descending = !spec.orders.empty() && spec.orders[0].descending;
  auto bind_offset = [&](FrameBound bound, std::unique_ptr<BoundExpr>* out) -> Status {
    if (!ast::HasOffset(bound)) return Status::OK();
    if (offset_index >= parts.offsets.size()) {
      return Status::Internal("a window frame bound without its offset");
    }
    const Expr& offset = *parts.offsets[offset_index++];
    if (frame.unit != FrameUnit::kRange) {
      TARN_ASSIGN_OR_RETURN(auto bound_offset, bind(offset));
      TARN_ASSIGN_OR_RETURN(*out, CastBound(std::move(bound_offset), bigint));
      return Status::OK();
    }
    // The bound's key: the order key moved by the offset toward the frame's side.
    const bool subtract = (bound == FrameBound::kPreceding) != descending;
    ExprPtr moved = ast::MakeBinary(subtract ? ast::Op::kSubtract : ast::Op::kAdd,
                                    parts.orders[0]->Clone(), offset.Clone());
    TARN_ASSIGN_OR_RETURN(*out, bind(*moved));
    return Status::OK();
  };
  TARN_RETURN_NOT_OK(bind_offset(frame.start, &frame.start_offset));
  TARN_RETURN_NOT_OK(bind_offset(frame.end, &frame.end_offset));
  if (range_offsets) {
    // Keys and bounds compare in the type both convert to.
    DataType common = function.orders[0]->type();
    for (const auto* bound : {&frame.start_offset, &frame.end_offset}) {
      if (!*bound) continue;
      std::optional<DataType> both = expr::MaxType(common, (*bound)->type());
      if (!both) {
        return Status::InvalidArgument("Binder Error: a RANGE frame offset of type ",
                                       (*bound)->type().ToString(),
                                       " cannot move an ORDER BY key of type ",
                                       function.orders[0]->type().ToString());
      }
      common = *both;
    }
    TARN_ASSIGN_OR_RETURN(auto key, bind(*parts.orders[0]));
    TARN_ASSIGN_OR_RETURN(frame.range_key, CastBound(std::move(key), common));
    if (frame.start_offset) {
      TARN_ASSIGN_OR_RETURN(frame.start_offset, CastBound(std::move(frame.start_offset), common));
    }
    if (frame.end_offset) {
      TARN_ASSIGN_OR_RETURN(frame.end_offset, CastBound(std::move(frame.end_offset), common));
    }
  }
  return function;
}

Result<std::unique_ptr<ast::Expr>> RowNumberOver(
    const std::vector<std::unique_ptr<ast::Expr>>& partitions, const std::vector<OrderItem>& order,
    const std::vector<SelectItem>& items, const std::string& what) {
  auto window = std::make_unique<ast::Expr>();
  window->kind = ast::ExprKind::kWindow;
  window->names.push_back("row_number");
  window->window = std::make_unique<ast::WindowSpec>();
  window->window->num_partitions = static_cast<int32_t>(partitions.size());
  for (const auto& key : partitions) window->children.push_back(key->Clone());
  for (const OrderItem& item : order) {
    const ast::Expr& e = *item.expr;
    std::unique_ptr<ast::Expr> key = e.Clone();
    if (e.kind == ast::ExprKind::kLiteral && e.literal_kind == ast::LiteralKind::kInteger) {
      const int64_t position = std::strtoll(e.text.c_str(), nullptr, 10);
      if (position < 1 || position > static_cast<int64_t>(items.size()) ||
          items[static_cast<size_t>(position - 1)].star) {
        return Status::NotSupported("not yet supported: ", what, " with ORDER BY ", position,
                                    " naming no expression of the select list");
      }
      key = items[static_cast<size_t>(position - 1)].expr->Clone();
    } else if (e.kind == ast::ExprKind::kColumnRef && e.names.size() == 1) {
      for (const SelectItem& select_item : items) {
        if (select_item.expr && !select_item.alias.empty() &&
            LowerAscii(select_item.alias) == LowerAscii(e.names[0])) {
          key = select_item.expr->Clone();
          break;
        }
      }
    }
    window->children.push_back(std::move(key));
    ast::WindowOrder direction;
    direction.descending = item.descending;
    direction.nulls_first = item.nulls_first ? (*item.nulls_first ? 1 : 0) : -1;
    window->window->orders.push_back(direction);
  }
  ast::UpdateHeight(window.get());
  return window;
}

}  // namespace tarn::sql
