// VARIANT values as DuckDB prints them.
#include "format/variant_text.h"

#include "format/json_text.h"
#include "format/scalar_text.h"
#include "format/value_text_internal.h"

namespace tarn::format {
namespace {

void AppendNested(const variant::VariantNode& node, std::string* out) {
  using Kind = variant::VariantNode::Kind;
  if (node.kind == Kind::kPrimitive) {
    if (node.scalar.is_null()) {
      out->append("NULL");
      return;
    }
    std::string text;
    AppendScalarText(node.scalar, &text);
    if (NestedTextNeedsQuotes(text)) {
      AppendQuotedNested(text, out);
    } else {
      out->append(text);
    }
    return;
  }
  AppendVariantText(node, out);
}

}  // namespace

void AppendScalarText(const Value& v, std::string* out) {
  if (v.is_null()) {
    out->append("NULL");
    return;
  }
  const DataType& type = v.type();
  switch (type.id) {
    case TypeId::kBoolean: out->append(v.GetBool() ? "true" : "false"); return;
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
      AppendInt64(v.GetInt64(), out);
      return;
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      AppendUInt64(v.GetUInt64(), out);
      return;
    case TypeId::kInt128: AppendInt128(v.GetInt128(), out); return;
    case TypeId::kUInt128: AppendUInt128(static_cast<unsigned __int128>(v.GetInt128()), out); return;
    case TypeId::kFloat32: AppendFloat(static_cast<float>(v.GetDouble()), out); return;
    case TypeId::kFloat64: AppendDouble(v.GetDouble(), out); return;
    case TypeId::kDecimal: AppendDecimal(v.GetInt128(), type.precision, type.scale, out); return;
    case TypeId::kDate: AppendDate(static_cast<int32_t>(v.GetInt64()), out); return;
    case TypeId::kTime: AppendTimeOfDay(v.GetInt64(), 1000000, out); return;
    case TypeId::kTimeNs: AppendTimeOfDay(v.GetInt64(), 1000000000, out); return;
    case TypeId::kTimeTz:
      AppendTimeOfDay(v.GetInt64(), 1000000, out);
      out->append("+00");
      return;
    case TypeId::kTimestamp: AppendTimestamp(v.GetInt64(), 1000000, false, out); return;
    case TypeId::kTimestampS: AppendTimestamp(v.GetInt64(), 1, false, out); return;
    case TypeId::kTimestampMs: AppendTimestamp(v.GetInt64(), 1000, false, out); return;
    case TypeId::kTimestampNs: AppendTimestamp(v.GetInt64(), 1000000000, false, out); return;
    case TypeId::kTimestampTz: AppendTimestamp(v.GetInt64(), 1000000, true, out); return;
    case TypeId::kInterval: AppendInterval(v.GetInterval(), out); return;
    case TypeId::kVarchar: case TypeId::kJson: out->append(v.GetBytes()); return;
    case TypeId::kBlob: AppendBlob(v.GetBytes(), out); return;
    case TypeId::kUuid: AppendUuid(v.GetBytes(), out); return;
    default: out->append(v.ToString()); return;
  }
}

void AppendVariantText(const variant::VariantNode& node, std::string* out) {
  using Kind = variant::VariantNode::Kind;
  switch (node.kind) {
    case Kind::kPrimitive: AppendScalarText(node.scalar, out); return;
    case Kind::kObject:
      out->push_back('{');
      for (size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendQuotedNested(node.names[i], out);
        out->append(": ");
        AppendNested(node.children[i], out);
      }
      out->push_back('}');
      return;
    case Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendNested(node.children[i], out);
      }
      out->push_back(']');
      return;
  }
}

void AppendVariantJson(const variant::VariantNode& node, std::string* out) {
  using Kind = variant::VariantNode::Kind;
  switch (node.kind) {
    case Kind::kObject:
      out->push_back('{');
      for (size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendJsonString(node.names[i], out);
        out->push_back(':');
        AppendVariantJson(node.children[i], out);
      }
      out->push_back('}');
      return;
    case Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendVariantJson(node.children[i], out);
      }
      out->push_back(']');
      return;
    case Kind::kPrimitive: break;
  }
  const Value& v = node.scalar;
  if (v.is_null()) {
    out->append("null");
    return;
  }
  const DataType& type = v.type();
  if (type.IsFloating()) {
    AppendJsonDouble(v.GetDouble(), out);
  } else if (type.IsInteger() || type.id == TypeId::kDecimal || type.id == TypeId::kBoolean) {
    AppendScalarText(v, out);
  } else {
    std::string text;
    AppendScalarText(v, &text);
    AppendJsonString(text, out);
  }
}

Result<std::string> VariantBytesText(std::string_view bytes) {
  TARN_ASSIGN_OR_RETURN(variant::VariantNode node, variant::Decode(bytes));
  std::string out;
  AppendVariantText(node, &out);
  return out;
}

}  // namespace tarn::format
