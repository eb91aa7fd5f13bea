// DuckDB's own spelling of a parsed expression (ParsedExpression::ToString), for text the
// DuckLake extension stores and compares byte for byte: sort-key expressions.
#include <cctype>

#include "columnar/sql_keywords.h"
#include "expr/parse/ast.h"
#include "tarn/type.h"

namespace tarn::ast {
namespace {

std::string QuoteString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  out.push_back('\'');
  return out;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string TypeText(const std::string& written) {
  Result<DataType> type = ParseSqlType(written);
  if (type.ok()) return type->ToString();
  std::string out = written;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Join(const Expr& e, size_t from, const char* separator) {
  std::string out;
  for (size_t i = from; i < e.children.size(); ++i) {
    if (i > from) out += separator;
    out += ToDuckDBText(*e.children[i]);
  }
  return out;
}

}  // namespace

std::string DuckDBIdentifier(const std::string& name) {
  bool quote = name.empty();
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if ((i > 0 && std::isdigit(c)) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        c == '_') {
      continue;
    }
    quote = true;
  }
  if (!quote && !internal::IsSqlKeyword(name)) return name;
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  out.push_back('"');
  return out;
}

std::string ToDuckDBText(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      switch (e.literal_kind) {
        case LiteralKind::kNull: return "NULL";
        case LiteralKind::kTrue: return "CAST('t' AS BOOLEAN)";
        case LiteralKind::kFalse: return "CAST('f' AS BOOLEAN)";
        case LiteralKind::kInteger: case LiteralKind::kDecimal: case LiteralKind::kFloat:
          return e.text;
        case LiteralKind::kString: return QuoteString(e.text);
        case LiteralKind::kTyped:
          return "CAST(" + QuoteString(e.text) + " AS " + TypeText(e.type_name) + ")";
      }
      return e.text;
    case ExprKind::kColumnRef: {
      std::string out;
      for (size_t i = 0; i < e.names.size(); ++i) {
        if (i > 0) out += ".";
        out += DuckDBIdentifier(e.names[i]);
      }
      return out;
    }
    case ExprKind::kStar: return e.text == "DEFAULT" ? "DEFAULT" : "*";
    case ExprKind::kParameter: return e.text;
    case ExprKind::kUnary:
      if (e.op == Op::kNot) return "(NOT " + ToDuckDBText(*e.children[0]) + ")";
      // DuckDB's parser folds a negated number into the constant.
      if (e.op == Op::kNegate && e.children[0]->kind == ExprKind::kLiteral &&
          (e.children[0]->literal_kind == LiteralKind::kInteger ||
           e.children[0]->literal_kind == LiteralKind::kDecimal ||
           e.children[0]->literal_kind == LiteralKind::kFloat)) {
        return "-" + e.children[0]->text;
      }
      return std::string(OpName(e.op)) + "(" + ToDuckDBText(*e.children[0]) + ")";
    case ExprKind::kBinary: {
      if (e.op == Op::kAnd || e.op == Op::kOr) {
        return "(" + Join(e, 0, e.op == Op::kAnd ? " AND " : " OR ") + ")";
      }
      const char* op = e.op == Op::kNotEqual ? "!=" : OpName(e.op);
      return "(" + ToDuckDBText(*e.children[0]) + " " + op + " " +
             ToDuckDBText(*e.children[1]) + ")";
    }
    case ExprKind::kIsNull:
      return "(" + ToDuckDBText(*e.children[0]) + (e.negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::kIn:
      return "(" + ToDuckDBText(*e.children[0]) + (e.negated ? " NOT IN (" : " IN (") +
             Join(e, 1, ", ") + "))";
    case ExprKind::kBetween: {
      const std::string between = "(" + ToDuckDBText(*e.children[0]) + " BETWEEN " +
                                  ToDuckDBText(*e.children[1]) + " AND " +
                                  ToDuckDBText(*e.children[2]) + ")";
      return e.negated ? "(NOT " + between + ")" : between;
    }
    case ExprKind::kLike: {
      if (e.op == Op::kGlob) {
        return "(" + ToDuckDBText(*e.children[0]) + " ~~~ " + ToDuckDBText(*e.children[1]) + ")";
      }
      const bool ilike = e.op == Op::kILike;
      std::string op = e.negated ? (ilike ? "!~~*" : "!~~") : (ilike ? "~~*" : "~~");
      if (e.children.size() > 2) {
        return std::string(e.negated ? "not_" : "") + (ilike ? "ilike_escape(" : "like_escape(") +
               Join(e, 0, ", ") + ")";
      }
      return "(" + ToDuckDBText(*e.children[0]) + " " + op + " " + ToDuckDBText(*e.children[1]) +
             ")";
    }
    case ExprKind::kCase: {
      // DuckDB: "CASE  WHEN (c) THEN (v) ELSE v END" (a space before each WHEN).
      std::string out = "CASE ";
      size_t i = 0;
      std::string operand;
      if (e.has_operand) operand = ToDuckDBText(*e.children[i++]);
      const size_t end = e.children.size() - (e.has_else ? 1 : 0);
      for (; i + 2 <= end; i += 2) {
        std::string when = ToDuckDBText(*e.children[i]);
        if (e.has_operand) when = "(" + operand + " = " + when + ")";
        out += " WHEN (" + when + ") THEN (" + ToDuckDBText(*e.children[i + 1]) + ")";
      }
      out += " ELSE " + (e.has_else ? ToDuckDBText(*e.children.back()) : std::string("NULL"));
      return out + " END";
    }
    case ExprKind::kCast:
      return std::string(e.try_cast ? "TRY_CAST(" : "CAST(") + ToDuckDBText(*e.children[0]) +
             " AS " + TypeText(e.type_name) + ")";
    case ExprKind::kFunction: {
      if (Lower(e.names[0]) == "coalesce") return "COALESCE(" + Join(e, 0, ", ") + ")";
      // count(*) is DuckDB's count_star().
      if (Lower(e.names[0]) == "count" && e.children.size() == 1 + (e.has_filter ? 1 : 0) &&
          e.children[0]->kind == ExprKind::kStar && !e.distinct) {
        std::string out = "count_star()";
        if (e.has_filter) out += " FILTER (WHERE " + ToDuckDBText(*e.children.back()) + ")";
        return out;
      }
      std::string out = DuckDBIdentifier(Lower(e.names[0])) + "(" + (e.distinct ? "DISTINCT " : "");
      const size_t args = e.children.size() - (e.has_filter ? 1 : 0);
      for (size_t i = 0; i < args; ++i) {
        if (i > 0) out += ", ";
        if (i + 1 < e.names.size() && !e.names[i + 1].empty()) {
          out += DuckDBIdentifier(e.names[i + 1]) + " := ";
        }
        out += ToDuckDBText(*e.children[i]);
      }
      out += ")";
      if (e.has_filter) out += " FILTER (WHERE " + ToDuckDBText(*e.children.back()) + ")";
      return out;
    }
    case ExprKind::kSubscript:
      return ToDuckDBText(*e.children[0]) + "[" + ToDuckDBText(*e.children[1]) + "]";
    case ExprKind::kField:
      return ToDuckDBText(*e.children[0]) + "." + DuckDBIdentifier(e.names[0]);
    case ExprKind::kList:
      return "[" + Join(e, 0, ", ") + "]";
    case ExprKind::kStruct: {
      std::string out = "{";
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (i > 0) out += ", ";
        out += QuoteString(e.names[i]) + ": " + ToDuckDBText(*e.children[i]);
      }
      return out + "}";
    }
    case ExprKind::kLambda: {
      // DuckDB: "(x -> body)", "(main."row"(x, y) -> body)", "(lambda x, y: body)".
      std::string params;
      for (size_t i = 0; i < e.names.size(); ++i) {
        if (i > 0) params += ", ";
        params += DuckDBIdentifier(e.names[i]);
      }
      const std::string body = ToDuckDBText(*e.children[0]);
      if (e.lambda_syntax) return "(lambda " + params + ": " + body + ")";
      if (e.names.empty()) return "(" + ToDuckDBText(*e.children[1]) + " -> " + body + ")";
      if (e.names.size() > 1) params = "main.\"row\"(" + params + ")";
      return "(" + params + " -> " + body + ")";
    }
    case ExprKind::kWindow:
      // Not an expression a sort key may hold (the SQL layer refuses it before this).
      return "?";
  }
  return "?";
}

}  // namespace tarn::ast
