#include "expr/eval/json_kernels.h"

#include <optional>
#include <string>

#include "expr/eval/cast.h"
#include "expr/eval/kernels.h"
#include "expr/functions/json_document.h"
#include "format/json_text.h"
#include "tarn/format.h"

namespace tarn::expr {
namespace {

// Collects a result's validity: every row starts valid, Null(i) clears it.
class Validity {
 public:
  explicit Validity(int64_t rows) : bits_(Buffer::Allocate((rows + 7) / 8)) {
    uint8_t* bits = bits_->mutable_data();
    for (int64_t i = 0; i < rows; ++i) SetBit(bits, i);
  }
  void Null(int64_t i) {
    uint8_t* bits = bits_->mutable_data();
    bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
    ++null_count_;
  }
  std::shared_ptr<Buffer> Finish() { return null_count_ == 0 ? nullptr : bits_; }
  int64_t null_count() const { return null_count_; }

 private:
  std::shared_ptr<Buffer> bits_;
  int64_t null_count_ = 0;
};

// to_json, json_array, json_object: each row's arguments through AppendJsonValue.
Result<Vec> BuildKernel(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  const FunctionId id = node.function;
  if (id == FunctionId::kJsonObject) {
    for (size_t k = 0; k < inputs.size(); k += 2) {
      if (inputs[k].column->type.id != TypeId::kVarchar) return Vec{};
    }
  }
  Validity validity(rows);
  StringColumnWriter writer(rows, static_cast<size_t>(rows) * 16);
  std::string* out = writer.text();
  for (int64_t i = 0; i < rows; ++i) {
    auto row = [&](size_t k) { return inputs[k].constant ? 0 : i; };
    switch (id) {
      case FunctionId::kToJson:
        if (inputs[0].column->IsValid(row(0))) {
          AppendJsonValue(*inputs[0].column, row(0), out);
        } else {
          validity.Null(i);
        }
        break;
      case FunctionId::kJsonArray:
        out->push_back('[');
        for (size_t k = 0; k < inputs.size(); ++k) {
          if (k > 0) out->push_back(',');
          AppendJsonValue(*inputs[k].column, row(k), out);
        }
        out->push_back(']');
        break;
      default:  // kJsonObject
        out->push_back('{');
        for (size_t k = 0; k + 1 < inputs.size(); k += 2) {
          if (k > 0) out->push_back(',');
          if (!inputs[k].column->IsValid(row(k))) {
            return Status::InvalidArgument("Invalid Input Error: JSON key cannot be NULL");
          }
          format::AppendJsonString(inputs[k].column->GetView(row(k)), out);
          out->push_back(':');
          AppendJsonValue(*inputs[k + 1].column, row(k + 1), out);
        }
        out->push_back('}');
        break;
    }
    writer.EndRow();
  }
  const int64_t null_count = validity.null_count();
  return Vec{writer.Finish(node.type, validity.Finish(), null_count), false};
}

bool Covered(FunctionId id) {
  switch (id) {
    case FunctionId::kJsonExtract: case FunctionId::kJsonExtractString:
    case FunctionId::kJsonValue: case FunctionId::kJsonExists: case FunctionId::kJsonType:
    case FunctionId::kJsonArrayLength: case FunctionId::kJsonValid:
      return true;
    default:
      return false;
  }
}

}  // namespace

Result<Vec> JsonKernel(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  const FunctionId id = node.function;
  if (id == FunctionId::kToJson || id == FunctionId::kJsonArray || id == FunctionId::kJsonObject) {
    return BuildKernel(node, inputs, rows);
  }
  if (!Covered(id) || inputs.empty() || inputs.size() > 2 || inputs[0].constant) return Vec{};
  const Column& docs = *inputs[0].column;
  if (docs.type.id != TypeId::kVarchar && docs.type.id != TypeId::kJson) return Vec{};
  JsonPath path;
  if (inputs.size() == 2) {
    const Vec& path_arg = inputs[1];
    if (!path_arg.constant || path_arg.column->type.id == TypeId::kList ||
        !path_arg.column->IsValid(0)) {
      return Vec{};
    }
    if (path_arg.column->type.IsInteger()) {
      path = JsonIndexPath(static_cast<int64_t>(AsInt128(path_arg.column->GetValue(0))));
    } else {
      Result<JsonPath> parsed = ParseJsonPath(path_arg.column->GetView(0));
      if (!parsed.ok() || parsed->HasWildcard()) return Vec{};  // the row path reports it
      path = std::move(parsed).value();
    }
  }

  JsonDocument doc;
  Validity validity(rows);
  // Parses row i; false (and a NULL row) for a NULL document.
  auto parse = [&](int64_t i) -> Result<bool> {
    if (!docs.IsValid(i)) {
      validity.Null(i);
      return false;
    }
    Status status = doc.Parse(docs.GetView(i));
    if (!status.ok()) return Status::InvalidArgument("Invalid Input Error: ", status.message());
    return true;
  };

  if (id == FunctionId::kJsonValid || id == FunctionId::kJsonExists) {
    auto bits = Buffer::Allocate((rows + 7) / 8);
    uint8_t* out = bits->mutable_data();
    for (int64_t i = 0; i < rows; ++i) {
      if (id == FunctionId::kJsonValid) {
        if (!docs.IsValid(i)) {
          validity.Null(i);
        } else if (doc.Parse(docs.GetView(i)).ok()) {
          SetBit(out, i);
        }
        continue;
      }
      TARN_ASSIGN_OR_RETURN(bool parsed, parse(i));
      if (parsed && LookupJsonPath(doc, path)) SetBit(out, i);
    }
    const int64_t null_count = validity.null_count();
    return Vec{MakeColumn(node.type, rows, std::move(bits), validity.Finish(), null_count), false};
  }

  if (id == FunctionId::kJsonArrayLength) {
    auto values = Buffer::Allocate(rows * static_cast<int64_t>(sizeof(uint64_t)));
    uint64_t* out = values->mutable_data_as<uint64_t>();
    for (int64_t i = 0; i < rows; ++i) {
      TARN_ASSIGN_OR_RETURN(bool parsed, parse(i));
      if (!parsed) continue;
      std::optional<uint32_t> found = LookupJsonPath(doc, path);
      if (!found) {
        validity.Null(i);
        continue;
      }
      const JsonNode& at = doc.node(*found);
      out[i] = at.kind == JsonKind::kArray ? at.count : 0;
    }
    const int64_t null_count = validity.null_count();
    return Vec{MakeColumn(node.type, rows, std::move(values), validity.Finish(), null_count),
               false};
  }

  StringColumnWriter writer(rows, static_cast<size_t>(rows) * 8);
  std::string* out = writer.text();
  for (int64_t i = 0; i < rows; ++i) {
    TARN_ASSIGN_OR_RETURN(bool parsed, parse(i));
    std::optional<uint32_t> found;
    if (parsed) found = LookupJsonPath(doc, path);
    if (parsed && !found) validity.Null(i);
    if (found) {
      const JsonNode& at = doc.node(*found);
      switch (id) {
        case FunctionId::kJsonExtract: doc.Serialize(*found, out); break;
        case FunctionId::kJsonExtractString:
          if (at.kind == JsonKind::kNull) {
            validity.Null(i);
          } else if (at.kind == JsonKind::kString) {
            out->append(doc.Text(at));
          } else {
            doc.Serialize(*found, out);
          }
          break;
        case FunctionId::kJsonValue:
          if (at.kind == JsonKind::kNull || at.kind == JsonKind::kArray ||
              at.kind == JsonKind::kObject) {
            validity.Null(i);
          } else {
            doc.Serialize(*found, out);
          }
          break;
        default: out->append(doc.TypeName(*found)); break;
      }
    }
    writer.EndRow();
  }
  const int64_t null_count = validity.null_count();
  return Vec{writer.Finish(node.type, validity.Finish(), null_count), false};
}

}  // namespace tarn::expr
