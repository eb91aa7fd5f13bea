#include "sql/parse/select_text.h"

#include <optional>
#include <string>

#include "expr/parse/ast.h"

namespace tarn::sql {
namespace {

// Whether ast::ToDuckDBText prints the expression as DuckDB does: not window functions nor
// subqueries (function nodes named "#..."), which it does not spell.
bool Printable(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::kWindow) return false;
  if (e.kind == ast::ExprKind::kFunction && !e.names.empty() && !e.names[0].empty() &&
      e.names[0][0] == '#') {
    return false;
  }
  for (const auto& child : e.children) {
    if (!Printable(*child)) return false;
  }
  return true;
}

// The expression's DuckDB text, or nullopt when it is not Printable.
std::optional<std::string> ExprText(const ast::Expr& e) {
  if (!Printable(e)) return std::nullopt;
  return ast::ToDuckDBText(e);
}

std::optional<std::string> FromText(const TableRef& from) {
  std::string out;
  switch (from.kind) {
    case TableRef::Kind::kTable:
      if (from.at.has_value()) return std::nullopt;
      for (size_t i = 0; i < from.names.size(); ++i) {
        out += (i ? "." : "") + ast::DuckDBIdentifier(from.names[i]);
      }
      break;
    case TableRef::Kind::kSubquery: {
      std::optional<std::string> inner = SelectText(*from.subquery);
      if (!inner) return std::nullopt;
      out = "(" + *inner + ")";
      break;
    }
    default:
      return std::nullopt;
  }
  if (!from.column_aliases.empty()) return std::nullopt;
  if (!from.alias.empty()) out += " AS " + ast::DuckDBIdentifier(from.alias);
  return out;
}

}  // namespace

std::optional<std::string> SelectText(const SelectStmt& select) {
  bool printable = true;
  auto text = [&](const ast::Expr& e) {
    std::optional<std::string> printed = ExprText(e);
    if (!printed) printable = false;
    return printed.value_or("");
  };
  if (!select.ctes.empty() || select.set_op != SetOp::kNone || !select.values.empty() ||
      !select.grouping_sets.empty() || select.group_by_all || !select.windows.empty() ||
      select.qualify || !select.distinct_on.empty() || select.sample || select.pivot) {
    return std::nullopt;
  }
  std::string out = select.distinct ? "SELECT DISTINCT " : "SELECT ";
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (i) out += ", ";
    if (item.star) {
      if (!item.exclude.empty() || !item.replace.empty()) return std::nullopt;
      out += item.star_qualifier.empty() ? "*" : ast::DuckDBIdentifier(item.star_qualifier) + ".*";
      continue;
    }
    out += text(*item.expr);
    if (!item.alias.empty()) out += " AS " + ast::DuckDBIdentifier(item.alias);
  }
  if (select.from.kind != TableRef::Kind::kNone) {
    std::optional<std::string> from = FromText(select.from);
    if (!from) return std::nullopt;
    out += " FROM " + *from;
  }
  if (select.where) out += " WHERE " + text(*select.where);
  for (size_t i = 0; i < select.group_by.size(); ++i) {
    out += (i ? ", " : " GROUP BY ") + text(*select.group_by[i]);
  }
  if (select.having) out += " HAVING " + text(*select.having);
  for (size_t i = 0; i < select.order_by.size(); ++i) {
    const OrderItem& item = select.order_by[i];
    out += (i ? ", " : " ORDER BY ") + text(*item.expr);
    if (item.descending) out += " DESC";
    if (item.nulls_first.has_value()) out += *item.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  }
  if (select.limit) out += " LIMIT " + text(*select.limit) + (select.limit_percent ? "%" : "");
  if (select.offset) out += " OFFSET " + text(*select.offset);
  if (!printable) return std::nullopt;
  return out;
}

}  // namespace tarn::sql
