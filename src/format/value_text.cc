// AppendValueText: DuckDB's VARCHAR text of any value, nested ones included.
#include <cstring>

#include "columnar/geometry.h"
#include "format/scalar_text.h"
#include "format/value_text_internal.h"
#include "format/variant_text.h"
#include "tarn/format.h"

namespace tarn {
namespace format {
namespace {

bool IsNestedSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool EqualsNullIgnoringCase(std::string_view text) {
  return text.size() == 4 && (text[0] | 0x20) == 'n' && (text[1] | 0x20) == 'u' &&
         (text[2] | 0x20) == 'l' && (text[3] | 0x20) == 'l';
}

}  // namespace

// Inside a list, struct or map DuckDB quotes a value's text with '...' when it would
// otherwise be ambiguous.
bool NestedTextNeedsQuotes(std::string_view text) {
  if (text.empty() || EqualsNullIgnoringCase(text)) return true;
  if (IsNestedSpace(text.front()) || IsNestedSpace(text.back())) return true;
  for (char c : text) {
    switch (c) {
      case '"': case '\'': case '(': case ')': case ',': case ':': case '=':
      case '[': case ']': case '{': case '}':
        return true;
      default:
        break;
    }
  }
  return false;
}

void AppendQuotedNested(std::string_view text, std::string* out) {
  out->push_back('\'');
  for (char c : text) {
    if (c == '\'' || c == '\\') out->push_back('\\');
    out->push_back(c);
  }
  out->push_back('\'');
}

namespace {


template <typename T>
T LoadAt(const Column& column, int64_t row) {
  T v;
  std::memcpy(&v, column.values->data() + row * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

// A list prints its JSON elements as they are, so the list's text is itself a JSON array (as
// DuckDB prints it, and reads it back by parsing JSON); a struct's or a map's JSON value is
// quoted like text when it needs to be ('"x"'), as DuckDB does.
void AppendNestedChild(const Column& child, int64_t row, bool in_list, std::string* out) {
  if (child.IsNull(row)) {
    out->append("NULL");
  } else if (child.type.IsNested()) {
    AppendNonNullText(child, row, out);
  } else if (child.type.id == TypeId::kJson && in_list) {
    out->append(child.GetView(row));
  } else {
    std::string text;
    AppendNonNullText(child, row, &text);
    if (NestedTextNeedsQuotes(text)) {
      AppendQuotedNested(text, out);
    } else {
      out->append(text);
    }
  }
}

}  // namespace

void AppendNonNullText(const Column& column, int64_t row, std::string* out) {
  switch (column.type.id) {
    case TypeId::kNull: out->append("NULL"); return;
    case TypeId::kBoolean: out->append(column.GetBool(row) ? "true" : "false"); return;
    case TypeId::kInt8: AppendInt64(LoadAt<int8_t>(column, row), out); return;
    case TypeId::kInt16: AppendInt64(LoadAt<int16_t>(column, row), out); return;
    case TypeId::kInt32: AppendInt64(LoadAt<int32_t>(column, row), out); return;
    case TypeId::kInt64: AppendInt64(LoadAt<int64_t>(column, row), out); return;
    case TypeId::kUInt8: AppendUInt64(LoadAt<uint8_t>(column, row), out); return;
    case TypeId::kUInt16: AppendUInt64(LoadAt<uint16_t>(column, row), out); return;
    case TypeId::kUInt32: AppendUInt64(LoadAt<uint32_t>(column, row), out); return;
    case TypeId::kUInt64: AppendUInt64(LoadAt<uint64_t>(column, row), out); return;
    case TypeId::kInt128: AppendInt128(LoadAt<__int128>(column, row), out); return;
    case TypeId::kUInt128: AppendUInt128(LoadAt<unsigned __int128>(column, row), out); return;
    case TypeId::kFloat32: AppendFloat(LoadAt<float>(column, row), out); return;
    case TypeId::kFloat64: AppendDouble(LoadAt<double>(column, row), out); return;
    case TypeId::kDecimal:
      AppendDecimal(LoadAt<__int128>(column, row), column.type.precision, column.type.scale, out);
      return;
    case TypeId::kDate: AppendDate(LoadAt<int32_t>(column, row), out); return;
    case TypeId::kTime: AppendTimeOfDay(LoadAt<int64_t>(column, row), 1000000, out); return;
    case TypeId::kTimeNs: AppendTimeOfDay(LoadAt<int64_t>(column, row), 1000000000, out); return;
    case TypeId::kTimeTz:
      AppendTimeOfDay(LoadAt<int64_t>(column, row), 1000000, out);
      out->append("+00");
      return;
    case TypeId::kTimestamp:
      AppendTimestamp(LoadAt<int64_t>(column, row), 1000000, false, out);
      return;
    case TypeId::kTimestampS: AppendTimestamp(LoadAt<int64_t>(column, row), 1, false, out); return;
    case TypeId::kTimestampMs:
      AppendTimestamp(LoadAt<int64_t>(column, row), 1000, false, out);
      return;
    case TypeId::kTimestampNs:
      AppendTimestamp(LoadAt<int64_t>(column, row), 1000000000, false, out);
      return;
    case TypeId::kTimestampTz:
      AppendTimestamp(LoadAt<int64_t>(column, row), 1000000, true, out);
      return;
    case TypeId::kInterval: {
      Interval interval;
      const uint8_t* p = column.values->data() + row * 16;
      std::memcpy(&interval.months, p, 4);
      std::memcpy(&interval.days, p + 4, 4);
      std::memcpy(&interval.nanos, p + 8, 8);
      AppendInterval(interval, out);
      return;
    }
    case TypeId::kVarchar:
    case TypeId::kJson: out->append(column.GetView(row)); return;
    case TypeId::kBlob: AppendBlob(column.GetView(row), out); return;
    case TypeId::kVariant: {
      // Bytes that are no variant print as a blob.
      Result<std::string> text = VariantBytesText(column.GetView(row));
      if (text.ok()) {
        out->append(*text);
      } else {
        AppendBlob(column.GetView(row), out);
      }
      return;
    }
    case TypeId::kGeometry: {
      // WKT as DuckDB prints it; bytes that are no geometry print as a blob.
      Result<std::string> wkt = geometry::WkbToWkt(column.GetView(row));
      if (wkt.ok()) {
        out->append(*wkt);
      } else {
        AppendBlob(column.GetView(row), out);
      }
      return;
    }
    case TypeId::kUuid:
      AppendUuid(std::string_view(reinterpret_cast<const char*>(column.values->data()) + row * 16,
                                  16),
                 out);
      return;
    case TypeId::kStruct: {
      // An unnamed struct (row(...)) prints its values only: (1, a).
      const bool unnamed = column.type.IsUnnamedStruct();
      out->push_back(unnamed ? '(' : '{');
      for (size_t field_idx = 0; field_idx < column.children.size(); ++field_idx) {
        if (field_idx > 0) out->append(", ");
        if (!unnamed) {
          AppendQuotedNested(column.type.children[field_idx].name, out);
          out->append(": ");
        }
        AppendNestedChild(*column.children[field_idx], row, /*in_list=*/false, out);
      }
      out->push_back(unnamed ? ')' : '}');
      return;
    }
    case TypeId::kList: {
      const int32_t* offsets = column.values_as<int32_t>();
      out->push_back('[');
      for (int32_t element = offsets[row]; element < offsets[row + 1]; ++element) {
        if (element > offsets[row]) out->append(", ");
        AppendNestedChild(*column.children[0], element, /*in_list=*/true, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      const int32_t* offsets = column.values_as<int32_t>();
      const Column& entries = *column.children[0];
      out->push_back('{');
      for (int32_t entry = offsets[row]; entry < offsets[row + 1]; ++entry) {
        if (entry > offsets[row]) out->append(", ");
        AppendNestedChild(*entries.children[0], entry, /*in_list=*/false, out);
        out->push_back('=');
        AppendNestedChild(*entries.children[1], entry, /*in_list=*/false, out);
      }
      out->push_back('}');
      return;
    }
  }
  out->append("?");
}

}  // namespace format

void AppendValueText(const Column& column, int64_t row, std::string* out) {
  if (column.IsNull(row)) {
    out->append("NULL");
  } else {
    format::AppendNonNullText(column, row, out);
  }
}

std::string ValueText(const Column& column, int64_t row) {
  std::string out;
  AppendValueText(column, row, &out);
  return out;
}

std::string FormatValue(const Value& value) {
  if (value.is_null()) return "NULL";
  ColumnBuilder builder(value.type());
  if (!builder.Append(value).ok()) return value.ToString();
  std::shared_ptr<Column> column = builder.Finish();
  return ValueText(*column, 0);
}

std::string FormatDouble(double value) {
  std::string out;
  format::AppendDouble(value, &out);
  return out;
}

std::string FormatFloat(float value) {
  std::string out;
  format::AppendFloat(value, &out);
  return out;
}

}  // namespace tarn
