// JSON text of values and the JSON-lines writer, following DuckDB's JSON writer.
#include <cstring>

#include "format/json_text.h"
#include "format/scalar_text.h"
#include "format/value_text_internal.h"
#include "tarn/format.h"

namespace tarn {
namespace {

constexpr size_t kFlushBytes = 1 << 20;
// DuckDB writes decimals of at most this precision as JSON numbers (through a double), wider
// ones as their exact decimal text.
constexpr int kMaxDoubleDecimalPrecision = 15;

template <typename T>
T LoadAt(const Column& column, int64_t row) {
  T v;
  std::memcpy(&v, column.values->data() + row * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

double Pow10(int exponent) {
  double result = 1;
  for (int i = 0; i < exponent; ++i) result *= 10;
  return result;
}

void AppendJsonNonNull(const Column& column, int64_t row, std::string* out);

void AppendJsonOrNull(const Column& column, int64_t row, std::string* out) {
  if (column.IsNull(row)) {
    out->append("null");
  } else {
    AppendJsonNonNull(column, row, out);
  }
}

void AppendJsonNonNull(const Column& column, int64_t row, std::string* out) {
  switch (column.type.id) {
    case TypeId::kNull: out->append("null"); return;
    case TypeId::kBoolean:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kInt128:
    case TypeId::kUInt128:
      format::AppendNonNullText(column, row, out);
      return;
    case TypeId::kFloat32:
      format::AppendJsonDouble(static_cast<double>(LoadAt<float>(column, row)), out);
      return;
    case TypeId::kFloat64: format::AppendJsonDouble(LoadAt<double>(column, row), out); return;
    case TypeId::kDecimal:
      if (column.type.precision <= kMaxDoubleDecimalPrecision) {
        const double unscaled = static_cast<double>(LoadAt<__int128>(column, row));
        format::AppendJsonDouble(unscaled / Pow10(column.type.scale), out);
      } else {
        format::AppendNonNullText(column, row, out);
      }
      return;
    case TypeId::kJson: format::AppendMinifiedJson(column.GetView(row), out); return;
    case TypeId::kVarchar: format::AppendJsonString(column.GetView(row), out); return;
    case TypeId::kStruct: {
      out->push_back('{');
      for (size_t field_idx = 0; field_idx < column.children.size(); ++field_idx) {
        if (field_idx > 0) out->push_back(',');
        format::AppendJsonString(column.type.children[field_idx].name, out);
        out->push_back(':');
        AppendJsonOrNull(*column.children[field_idx], row, out);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kList: {
      const int32_t* offsets = column.values_as<int32_t>();
      out->push_back('[');
      for (int32_t element = offsets[row]; element < offsets[row + 1]; ++element) {
        if (element > offsets[row]) out->push_back(',');
        AppendJsonOrNull(*column.children[0], element, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      const int32_t* offsets = column.values_as<int32_t>();
      const Column& keys = *column.children[0]->children[0];
      const Column& values = *column.children[0]->children[1];
      out->push_back('{');
      std::string key;
      for (int32_t entry = offsets[row]; entry < offsets[row + 1]; ++entry) {
        if (entry > offsets[row]) out->push_back(',');
        key.clear();
        AppendValueText(keys, entry, &key);
        format::AppendJsonString(key, out);
        out->push_back(':');
        AppendJsonOrNull(values, entry, out);
      }
      out->push_back('}');
      return;
    }
    default: {
      // Temporal types, UUID, INTERVAL, BLOB: a string of the VARCHAR text.
      std::string text;
      format::AppendNonNullText(column, row, &text);
      format::AppendJsonString(text, out);
      return;
    }
  }
}

}  // namespace

void AppendJsonValue(const Column& column, int64_t row, std::string* out) {
  AppendJsonOrNull(column, row, out);
}

Status JsonLinesWriter::Write(const Batch& batch) {
  if (batch.schema == nullptr) return Status::InvalidArgument("JsonLinesWriter: batch without schema");
  std::vector<std::string> keys;
  for (const Field& field : batch.schema->fields) {
    std::string key;
    format::AppendJsonString(field.name, &key);
    key.push_back(':');
    keys.push_back(std::move(key));
  }
  buffer_.clear();
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    buffer_.push_back('{');
    for (int column_idx = 0; column_idx < batch.num_columns(); ++column_idx) {
      if (column_idx > 0) buffer_.push_back(',');
      buffer_.append(keys[static_cast<size_t>(column_idx)]);
      AppendJsonOrNull(batch.column(column_idx), row, &buffer_);
    }
    buffer_.append("}\n");
    if (buffer_.size() >= kFlushBytes) {
      TARN_RETURN_NOT_OK(sink_->Append(buffer_));
      buffer_.clear();
    }
  }
  rows_written_ += batch.num_rows;
  if (!buffer_.empty()) TARN_RETURN_NOT_OK(sink_->Append(buffer_));
  buffer_.clear();
  return Status::OK();
}

Status WriteJsonLines(BatchReader* reader, TextSink* sink) {
  JsonLinesWriter writer(sink);
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader->Next());
    if (batch == nullptr) return Status::OK();
    TARN_RETURN_NOT_OK(writer.Write(*batch));
  }
}

}  // namespace tarn
