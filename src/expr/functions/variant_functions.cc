// Casts and functions of VARIANT values (see variant_functions.h).
#include "expr/functions/variant_functions.h"

#include "columnar/variant.h"
#include "expr/eval/cast.h"
#include "format/scalar_text.h"
#include "format/variant_text.h"

namespace tarn::expr {
namespace {

using variant::VariantNode;

Result<Value> NodeToValue(const VariantNode& node) {
  if (node.IsNull()) return Value::Null(DataType(TypeId::kVariant));
  TARN_ASSIGN_OR_RETURN(std::string bytes, variant::Encode(node));
  return Value::Bytes(DataType(TypeId::kVariant), std::move(bytes));
}

std::string NodeText(const VariantNode& node) {
  std::string out;
  format::AppendVariantText(node, &out);
  return out;
}

Status Expected(const char* wanted, const VariantNode& node, const DataType& to) {
  return Status::InvalidArgument("Conversion Error: Expected to find VARIANT(", wanted,
                                 "), found VARIANT(", variant::KindName(node),
                                 ") instead, can't convert to '", to.ToString(), "'");
}

Result<Value> CastNode(const VariantNode& node, const DataType& to, bool try_cast, int depth) {
  if (node.IsNull()) return Value::Null(to);
  if (depth > 128) return Status::InvalidArgument("variant nested too deeply");
  switch (to.id) {
    case TypeId::kVariant: return NodeToValue(node);
    case TypeId::kVarchar: return Value::Varchar(NodeText(node));
    case TypeId::kJson: {
      std::string out;
      format::AppendVariantJson(node, &out);
      return Value::Bytes(to, std::move(out));
    }
    case TypeId::kStruct: {
      if (node.kind != VariantNode::Kind::kObject) return Expected("OBJECT", node, to);
      std::vector<Value> fields;
      for (const Field& field : to.children) {
        VariantNode child = variant::ExtractField(node, field.name);
        TARN_ASSIGN_OR_RETURN(Value value, CastNode(child, field.type, try_cast, depth + 1));
        fields.push_back(std::move(value));
      }
      return Value::Nested(to, std::move(fields));
    }
    case TypeId::kList: case TypeId::kMap: {
      if (node.kind != VariantNode::Kind::kArray) return Expected("ARRAY", node, to);
      const DataType& element = to.children[0].type;
      std::vector<Value> elements;
      for (const VariantNode& child : node.children) {
        TARN_ASSIGN_OR_RETURN(Value value, CastNode(child, element, try_cast, depth + 1));
        if (to.id == TypeId::kMap && (value.is_null() || value.children()[0].is_null())) {
          return Status::InvalidArgument("Conversion Error: Map keys can not be NULL");
        }
        elements.push_back(std::move(value));
      }
      return Value::Nested(to, std::move(elements));
    }
    default: break;
  }
  if (node.kind == VariantNode::Kind::kPrimitive) {
    Result<Value> cast = CastValue(node.scalar, to, /*try_cast=*/false);
    if (cast.ok()) return cast;
  }
  return Status::InvalidArgument("Conversion Error: Can't convert VARIANT(", variant::KindName(node),
                                 ") value '", NodeText(node), "' to '", to.ToString(), "'");
}

}  // namespace

Result<Value> CastToVariant(const Value& v) {
  if (v.is_null()) return Value::Null(DataType(TypeId::kVariant));
  TARN_ASSIGN_OR_RETURN(VariantNode node, variant::FromValue(v));
  return NodeToValue(node);
}

Result<Value> CastFromVariant(const Value& v, const DataType& to, bool try_cast) {
  TARN_ASSIGN_OR_RETURN(VariantNode node, variant::Decode(v.GetBytes()));
  return CastNode(node, to, try_cast, 0);
}

std::string VariantText(const Value& v) {
  Result<std::string> text = format::VariantBytesText(v.GetBytes());
  if (text.ok()) return std::move(text).value();
  std::string out;
  format::AppendBlob(v.GetBytes(), &out);
  return out;
}

bool IsVariantFunction(FunctionId id) {
  return id == FunctionId::kVariantTypeof || id == FunctionId::kVariantExtract;
}

Status ResolveVariantFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                   std::vector<DataType>* cast_to, DataType* result) {
  const DataType kVariantType(TypeId::kVariant);
  auto is_variant = [](const DataType& t) {
    return t.id == TypeId::kVariant || t.id == TypeId::kNull;
  };
  switch (id) {
    case FunctionId::kVariantTypeof:
      // Any value is converted to a VARIANT first.
      if (arg_types.size() != 1) break;
      *cast_to = {kVariantType};
      *result = DataType(TypeId::kVarchar);
      return Status::OK();
    case FunctionId::kVariantExtract: {
      if (arg_types.size() != 2 || !is_variant(arg_types[0])) break;
      const DataType& key = arg_types[1];
      if (key.IsInteger()) {
        *cast_to = {kVariantType, DataType(TypeId::kInt64)};
      } else if (key.id == TypeId::kVarchar || key.id == TypeId::kNull) {
        *cast_to = {kVariantType, DataType(TypeId::kVarchar)};
      } else {
        break;
      }
      *result = kVariantType;
      return Status::OK();
    }
    default: break;
  }
  return Status::InvalidArgument("mismatch");
}

Result<Value> InvokeVariantFunction(FunctionId id, std::span<const Value> args,
                                    const DataType& result_type) {
  switch (id) {
    case FunctionId::kVariantTypeof: {
      if (args[0].is_null()) return Value::Varchar("VARIANT_NULL");
      TARN_ASSIGN_OR_RETURN(VariantNode node, variant::Decode(args[0].GetBytes()));
      return Value::Varchar(variant::TypeName(node));
    }
    case FunctionId::kVariantExtract: {
      if (args[0].is_null() || args[1].is_null()) return Value::Null(result_type);
      TARN_ASSIGN_OR_RETURN(VariantNode node, variant::Decode(args[0].GetBytes()));
      if (args[1].type().id == TypeId::kVarchar) {
        return NodeToValue(variant::ExtractField(node, args[1].GetBytes()));
      }
      TARN_ASSIGN_OR_RETURN(VariantNode element, variant::ExtractIndex(node, args[1].GetInt64()));
      return NodeToValue(element);
    }
    default: break;
  }
  return Status::Internal("not a variant function");
}

}  // namespace tarn::expr
