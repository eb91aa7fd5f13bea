#include "expr/bind/bound.h"

#include "expr/eval/cast.h"

namespace tarn::expr {

bool BoundNode::IsConstant() const {
  if (kind == BoundKind::kColumn) return false;
  if (kind == BoundKind::kFunction && IsVolatile(function)) return false;
  // A lambda parameter's values come from the list below the lambda call that binds it.
  for (const auto& child : children) {
    if (!child->IsConstant()) return false;
  }
  return true;
}

std::string BoundNode::ToString() const {
  auto join = [&](size_t from, const char* separator) {
    std::string out;
    for (size_t i = from; i < children.size(); ++i) {
      if (i > from) out += separator;
      out += children[i]->ToString();
    }
    return out;
  };
  switch (kind) {
    case BoundKind::kConstant: {
      if (constant.is_null()) return "NULL";
      std::string text = ValueToText(constant);
      switch (type.id) {
        case TypeId::kBoolean: return constant.GetBool() ? "true" : "false";
        case TypeId::kInt32: case TypeId::kInt64: return text;
        case TypeId::kVarchar: {
          std::string quoted = "'";
          for (char c : text) {
            quoted.push_back(c);
            if (c == '\'') quoted.push_back('\'');
          }
          return quoted + "'";
        }
        default: return "CAST('" + text + "' AS " + type.ToString() + ")";
      }
    }
    case BoundKind::kColumn: return ast::QuoteIdentifier(name);
    case BoundKind::kField: return children[0]->ToString() + "." + ast::QuoteIdentifier(name);
    case BoundKind::kListIndex:
      return children[0]->ToString() + "[" + children[1]->ToString() + "]";
    case BoundKind::kCast:
      return std::string(try_cast ? "TRY_CAST(" : "CAST(") + children[0]->ToString() + " AS " +
             type.ToString() + ")";
    case BoundKind::kNegate: return "(-" + children[0]->ToString() + ")";
    case BoundKind::kArith: case BoundKind::kCompare:
      return "(" + children[0]->ToString() + " " + ast::OpName(op) + " " +
             children[1]->ToString() + ")";
    case BoundKind::kAnd: return "(" + join(0, " AND ") + ")";
    case BoundKind::kOr: return "(" + join(0, " OR ") + ")";
    case BoundKind::kNot: return "(NOT " + children[0]->ToString() + ")";
    case BoundKind::kIsNull:
      return "(" + children[0]->ToString() + (negated ? " IS NOT NULL)" : " IS NULL)");
    case BoundKind::kIn:
      return "(" + children[0]->ToString() + (negated ? " NOT IN (" : " IN (") + join(1, ", ") +
             "))";
    case BoundKind::kLike: {
      std::string out = "(" + children[0]->ToString() + (negated ? " NOT " : " ") +
                        ast::OpName(op) + " " + children[1]->ToString();
      if (children.size() > 2) out += " ESCAPE " + children[2]->ToString();
      return out + ")";
    }
    case BoundKind::kCase: {
      std::string out = "CASE";
      for (size_t i = 0; i + 1 < children.size(); i += 2) {
        out += " WHEN " + children[i]->ToString() + " THEN " + children[i + 1]->ToString();
      }
      return out + " ELSE " + children.back()->ToString() + " END";
    }
    case BoundKind::kCoalesce: return "COALESCE(" + join(0, ", ") + ")";
    case BoundKind::kFunction:
      if (function == FunctionId::kConcatOperator || function == FunctionId::kBitAnd ||
          function == FunctionId::kBitOr || function == FunctionId::kShiftLeft ||
          function == FunctionId::kShiftRight) {
        return "(" + children[0]->ToString() + " " + FunctionName(function) + " " +
               children[1]->ToString() + ")";
      }
      if (function == FunctionId::kBitNot) return "~(" + children[0]->ToString() + ")";
      return name + "(" + join(0, ", ") + ")";
    case BoundKind::kLambdaParam: return ast::QuoteIdentifier(name);
    case BoundKind::kListLambda: {
      std::string out = name + "(" + children[0]->ToString() + ", lambda: " +
                        children[1]->ToString();
      if (children.size() > 2) out += ", " + children[2]->ToString();
      return out + ")";
    }
  }
  return "?";
}

std::unique_ptr<BoundNode> CloneBound(const BoundNode& node) {
  auto copy = std::make_unique<BoundNode>();
  copy->kind = node.kind;
  copy->type = node.type;
  copy->op = node.op;
  copy->negated = node.negated;
  copy->try_cast = node.try_cast;
  copy->integer_literal = node.integer_literal;
  copy->string_literal = node.string_literal;
  copy->constant = node.constant;
  copy->column_index = node.column_index;
  copy->field_index = node.field_index;
  copy->function = node.function;
  copy->name = node.name;
  for (const auto& child : node.children) copy->children.push_back(CloneBound(*child));
  return copy;
}

}  // namespace tarn::expr
