#include "sql/plan/names.h"

#include "columnar/sql_keywords.h"
#include "tarn/type.h"

namespace tarn::sql {
namespace {

std::string Name(const ast::Expr& expr);

// Inside an expression a column keeps the qualifiers it was written with: count(a.k),
// (a.k + 1); alone it is named by its last part.
std::string Operand(const ast::Expr& expr) {
  if (expr.kind != ast::ExprKind::kColumnRef) return Name(expr);
  std::string out;
  for (const std::string& part : expr.names) {
    // A keyword is quoted, as DuckDB writes it: sum("range").
    const bool keyword = internal::IsSqlKeyword(LowerAscii(part));
    out += (out.empty() ? "" : ".") + (keyword ? "\"" + part + "\"" : part);
  }
  return out;
}

std::string TypeSpelling(const std::string& type_name) {
  Result<DataType> type = ParseSqlType(type_name);
  return type.ok() ? type->ToString() : type_name;
}

std::string Name(const ast::Expr& expr) {
  using ast::ExprKind;
  switch (expr.kind) {
    case ExprKind::kColumnRef: return expr.names.back();
    case ExprKind::kLiteral:
      switch (expr.literal_kind) {
        case ast::LiteralKind::kNull: return "NULL";
        case ast::LiteralKind::kTrue: return "true";
        case ast::LiteralKind::kFalse: return "false";
        case ast::LiteralKind::kString: {
          std::string out = "'";
          for (char c : expr.text) {
            out += c;
            if (c == '\'') out += '\'';
          }
          return out + "'";
        }
        case ast::LiteralKind::kTyped:
          return "CAST('" + expr.text + "' AS " + TypeSpelling(expr.type_name) + ")";
        default: return expr.text;
      }
    case ExprKind::kUnary:
      if (expr.op == ast::Op::kNot) return "(NOT " + Operand(*expr.children[0]) + ")";
      return std::string(ast::OpName(expr.op)) + "(" + Operand(*expr.children[0]) + ")";
    case ExprKind::kBinary:
      return "(" + Operand(*expr.children[0]) + " " + ast::OpName(expr.op) + " " +
             Operand(*expr.children[1]) + ")";
    case ExprKind::kIsNull:
      return "(" + Operand(*expr.children[0]) + (expr.negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::kBetween:
      return "(" + Operand(*expr.children[0]) + (expr.negated ? " NOT BETWEEN " : " BETWEEN ") +
             Operand(*expr.children[1]) + " AND " + Operand(*expr.children[2]) + ")";
    case ExprKind::kLike: {
      // DuckDB names LIKE, ILIKE and GLOB by their operators, with ESCAPE by the function.
      const bool ilike = expr.op == ast::Op::kILike;
      if (expr.children.size() > 2) {
        return std::string("main.") + (expr.negated ? "not_" : "") +
               (ilike ? "ilike_escape(" : "like_escape(") + Operand(*expr.children[0]) + ", " +
               Operand(*expr.children[1]) + ", " + Operand(*expr.children[2]) + ")";
      }
      const char* op = expr.op == ast::Op::kGlob ? "~~~"
                       : ilike ? (expr.negated ? "!~~*" : "~~*")
                               : (expr.negated ? "!~~" : "~~");
      return "(" + Operand(*expr.children[0]) + " " + op + " " + Operand(*expr.children[1]) + ")";
    }
    case ExprKind::kCast:
      return std::string(expr.try_cast ? "TRY_CAST(" : "CAST(") + Operand(*expr.children[0]) +
             " AS " + TypeSpelling(expr.type_name) + ")";
    case ExprKind::kFunction: {
      std::string name = LowerAscii(expr.names[0]);
      const size_t args = expr.num_args();
      // FILTER (WHERE c), as DuckDB names the column.
      const std::string filter =
          expr.has_filter ? " FILTER (WHERE " + Operand(*expr.children.back()) + ")" : "";
      if (name == "count" && (args == 0 || expr.children[0]->kind == ExprKind::kStar)) {
        return "count_star()" + filter;
      }
      // A function named by a keyword is quoted, as DuckDB writes it: "first"(x).
      std::string out = (internal::IsSqlKeyword(name) ? "\"" + name + "\"" : name) + "(";
      if (expr.distinct) out += "DISTINCT ";
      for (size_t i = 0; i < args; ++i) {
        if (i > 0) out += ", ";
        if (i + 1 < expr.names.size() && !expr.names[i + 1].empty()) {
          out += expr.names[i + 1] + " := ";  // a named argument (macros)
        }
        out += Operand(*expr.children[i]);
      }
      const auto& orders = expr.arg_orders;
      if (name == "list" && orders.size() == 1 && args == 1 &&
          expr.children[1]->Equals(*expr.children[0])) {
        // DuckDB binds list(x ORDER BY x) as list_sort(list(x), ...) and names it so.
        const ast::WindowOrder& order = orders[0];
        const char* direction = order.descending          ? "'DESCENDING'"
                                : order.ascending_written ? "'ASCENDING'"
                                                          : "'ORDER_DEFAULT'";
        const char* nulls = order.nulls_first < 0   ? "'ORDER_DEFAULT'"
                            : order.nulls_first > 0 ? "'NULLS FIRST'"
                                                    : "'NULLS LAST'";
        return "list_sort(" + out + ")" + filter + ", " + direction + ", " + nulls + ")";
      }
      for (size_t k = 0; k < orders.size(); ++k) {
        out += k == 0 ? " ORDER BY " : ", ";
        out += Operand(*expr.children[args + k]);
        if (orders[k].descending) out += " DESC";
        if (orders[k].ascending_written) out += " ASC";
        if (orders[k].nulls_first >= 0) out += orders[k].nulls_first ? " NULLS FIRST" : " NULLS LAST";
      }
      return out + ")" + filter;
    }
    case ExprKind::kWindow: {
      // DuckDB's spelling: the call, then the window without its default frame.
      const ast::WindowSpec& w = *expr.window;
      std::string name = LowerAscii(expr.names[0]);
      std::string out = name + "(";
      if (expr.distinct) out += "DISTINCT ";
      const bool star = w.num_args == 1 && expr.children[0]->kind == ExprKind::kStar;
      for (int32_t i = 0; i < w.num_args && !star; ++i) {
        if (i > 0) out += ", ";
        out += Operand(*expr.children[static_cast<size_t>(i)]);
      }
      out += ") OVER (";
      const bool default_frame = w.unit == ast::FrameUnit::kRange &&
                                 w.start == ast::FrameBound::kUnboundedPreceding &&
                                 w.end == ast::FrameBound::kCurrentRow;
      if (!default_frame || !w.has_frame) {
        return out + ast::WindowText(expr, [](const ast::Expr& e) { return Operand(e); }) + ")";
      }
      ast::Expr copy;
      copy.kind = ExprKind::kWindow;
      copy.window = std::make_unique<ast::WindowSpec>(w);
      copy.window->has_frame = false;
      for (const auto& child : expr.children) copy.children.push_back(child->Clone());
      return out + ast::WindowText(copy, [](const ast::Expr& e) { return Operand(e); }) + ")";
    }
    case ExprKind::kLambda: {
      // DuckDB's spelling: (x -> body), (main."row"(x, y) -> body), (lambda x, y: body).
      std::string params;
      for (size_t i = 0; i < expr.names.size(); ++i) params += (i > 0 ? ", " : "") + expr.names[i];
      const std::string body = Operand(*expr.children[0]);
      if (expr.lambda_syntax) return "(lambda " + params + ": " + body + ")";
      if (expr.names.empty()) params = Operand(*expr.children[1]);
      if (expr.names.size() > 1) params = "main.\"row\"(" + params + ")";
      return "(" + params + " -> " + body + ")";
    }
    case ExprKind::kList: {
      // DuckDB names a list literal by the call it is: main.list_value(1, 2).
      std::string out = "main.list_value(";
      for (size_t i = 0; i < expr.children.size(); ++i) {
        out += (i > 0 ? ", " : "") + Operand(*expr.children[i]);
      }
      return out + ")";
    }
    case ExprKind::kStruct: {
      // ... and a struct literal: main.struct_pack(a := 1).
      std::string out = "main.struct_pack(";
      for (size_t i = 0; i < expr.children.size(); ++i) {
        out += (i > 0 ? ", " : "") + ast::DuckDBIdentifier(expr.names[i]) + " := " +
               Operand(*expr.children[i]);
      }
      return out + ")";
    }
    default: return expr.ToString();
  }
}

}  // namespace

std::string LowerAscii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string DefaultColumnName(const ast::Expr& expr) { return Name(expr); }

}  // namespace tarn::sql
