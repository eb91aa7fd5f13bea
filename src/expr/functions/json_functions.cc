#include "expr/functions/json_functions.h"

#include <algorithm>
#include <optional>
#include <string>

#include "expr/eval/cast.h"
#include "expr/functions/json_document.h"
#include "format/json_text.h"
#include "tarn/format.h"

namespace tarn::expr {
namespace {

const DataType kVarchar(TypeId::kVarchar);
const DataType kJson(TypeId::kJson);
const DataType kBigint(TypeId::kInt64);
const DataType kBool(TypeId::kBoolean);
const DataType kUBigint(TypeId::kUInt64);

struct JsonName {
  const char* name;
  FunctionId id;
};

constexpr JsonName kJsonNames[] = {
    {"json_extract", FunctionId::kJsonExtract},
    {"json_extract_path", FunctionId::kJsonExtract},
    {"json_extract_string", FunctionId::kJsonExtractString},
    {"json_extract_path_text", FunctionId::kJsonExtractString},
    {"json_value", FunctionId::kJsonValue},
    {"json_exists", FunctionId::kJsonExists},
    {"json_type", FunctionId::kJsonType},
    {"json_array_length", FunctionId::kJsonArrayLength},
    {"json_keys", FunctionId::kJsonKeys},
    {"json_valid", FunctionId::kJsonValid},
    {"json", FunctionId::kJsonMinify},
    {"json_contains", FunctionId::kJsonContains},
    {"json_merge_patch", FunctionId::kJsonMergePatch},
    {"json_structure", FunctionId::kJsonStructure},
    {"json_pretty", FunctionId::kJsonPretty},
    {"to_json", FunctionId::kToJson},
    {"json_quote", FunctionId::kToJson},
    {"json_array", FunctionId::kJsonArray},
    {"json_object", FunctionId::kJsonObject},
};

bool IsText(const DataType& t) {
  return t.id == TypeId::kVarchar || t.id == TypeId::kJson || t.id == TypeId::kNull;
}

// The functions whose second argument is a path (or a list of paths).
bool TakesPath(FunctionId id) {
  switch (id) {
    case FunctionId::kJsonExtract: case FunctionId::kJsonExtractString:
    case FunctionId::kJsonValue: case FunctionId::kJsonExists: case FunctionId::kJsonType:
    case FunctionId::kJsonArrayLength: case FunctionId::kJsonKeys:
      return true;
    default:
      return false;
  }
}

// The result of one path.
DataType PathResultType(FunctionId id) {
  switch (id) {
    case FunctionId::kJsonExtract: return kJson;
    case FunctionId::kJsonExists: return kBool;
    case FunctionId::kJsonArrayLength: return kUBigint;
    case FunctionId::kJsonKeys: return DataType::List(kVarchar);
    default: return kVarchar;
  }
}

constexpr const char* kWildcardInList =
    "Cannot have wildcards in JSON path when supplying multiple paths";

// Checks a constant path; *wildcard tells whether a single path has one (the call then
// answers a list of every match).
Status CheckConstantPath(const Value& path, bool in_list, bool* wildcard) {
  if (path.is_null()) return Status::OK();
  if (path.type().id == TypeId::kList) {
    for (const Value& element : path.children()) {
      if (element.is_null()) return Status::InvalidArgument("Binder Error: JSON path cannot be NULL");
      TARN_RETURN_NOT_OK(CheckConstantPath(element, true, wildcard));
    }
    return Status::OK();
  }
  if (path.type().IsInteger()) return Status::OK();
  Result<JsonPath> parsed = ParseJsonPath(path.GetBytes());
  if (!parsed.ok()) return Status::InvalidArgument("Binder Error: ", parsed.status().message());
  if (parsed->HasWildcard()) {
    if (in_list) return Status::InvalidArgument("Binder Error: ", kWildcardInList);
    *wildcard = true;
  }
  return Status::OK();
}

JsonDocument& ThreadDocument(int slot) {
  thread_local JsonDocument documents[2];
  return documents[slot];
}

Status ParseInto(JsonDocument* doc, std::string_view text) {
  Status status = doc->Parse(text);
  if (!status.ok()) return Status::InvalidArgument("Invalid Input Error: ", status.message());
  return status;
}

Result<JsonPath> PathOf(const Value& path) {
  if (path.type().IsInteger()) return JsonIndexPath(static_cast<int64_t>(AsInt128(path)));
  Result<JsonPath> parsed = ParseJsonPath(path.GetBytes());
  if (!parsed.ok()) return Status::InvalidArgument("Invalid Input Error: ", parsed.status().message());
  return parsed;
}

Value KeysOf(const JsonDocument& doc, uint32_t index) {
  std::vector<Value> keys;
  const JsonNode& node = doc.node(index);
  if (node.kind == JsonKind::kObject) {
    for (uint32_t key = JsonDocument::FirstChild(index); key < node.end; key = doc.Next(key + 1)) {
      keys.push_back(Value::Varchar(std::string(doc.Text(doc.node(key)))));
    }
  }
  return Value::Nested(DataType::List(kVarchar), std::move(keys));
}

// One path's answer for function `id`.
Value AnswerAt(FunctionId id, const JsonDocument& doc, std::optional<uint32_t> found,
               const DataType& type) {
  if (id == FunctionId::kJsonExists) return Value::Boolean(found.has_value());
  if (!found) return Value::Null(type);
  const JsonNode& node = doc.node(*found);
  std::string out;
  switch (id) {
    case FunctionId::kJsonExtract:
      doc.Serialize(*found, &out);
      return Value::Bytes(kJson, std::move(out));
    case FunctionId::kJsonExtractString:
      if (node.kind == JsonKind::kNull) return Value::Null(type);
      if (node.kind == JsonKind::kString) return Value::Varchar(std::string(doc.Text(node)));
      doc.Serialize(*found, &out);
      return Value::Varchar(std::move(out));
    case FunctionId::kJsonValue:
      if (node.kind == JsonKind::kNull || node.kind == JsonKind::kArray ||
          node.kind == JsonKind::kObject) {
        return Value::Null(type);
      }
      doc.Serialize(*found, &out);
      return Value::Varchar(std::move(out));
    case FunctionId::kJsonType: return Value::Varchar(doc.TypeName(*found));
    case FunctionId::kJsonArrayLength:
      return Value::UInt(kUBigint, node.kind == JsonKind::kArray ? node.count : 0);
    case FunctionId::kJsonKeys: return KeysOf(doc, *found);
    default: return Value::Null(type);
  }
}

void AppendValueJson(const Value& value, std::string* out) {
  if (value.is_null()) {
    out->append("null");
    return;
  }
  ColumnBuilder builder(value.type());
  Status status = builder.Append(value);
  if (!status.ok()) {
    out->append("null");
    return;
  }
  std::shared_ptr<Column> column = builder.Finish();
  AppendJsonValue(*column, 0, out);
}

bool JsonEquals(const JsonDocument& a, uint32_t x, const JsonDocument& b, uint32_t y) {
  std::string left, right;
  a.Serialize(x, &left);
  b.Serialize(y, &right);
  return left == right;
}

bool FuzzyEquals(const JsonDocument& a, uint32_t x, const JsonDocument& b, uint32_t y);

// Every member of needle object y has an equal (fuzzily) member in haystack object x.
bool ObjectFuzzyEquals(const JsonDocument& a, uint32_t x, const JsonDocument& b, uint32_t y) {
  const JsonNode& needle = b.node(y);
  const JsonNode& haystack = a.node(x);
  for (uint32_t key = JsonDocument::FirstChild(y); key < needle.end; key = b.Next(key + 1)) {
    bool matched = false;
    for (uint32_t other = JsonDocument::FirstChild(x); other < haystack.end;
         other = a.Next(other + 1)) {
      if (a.Text(a.node(other)) == b.Text(b.node(key)) &&
          FuzzyEquals(a, other + 1, b, key + 1)) {
        matched = true;
        break;
      }
    }
    if (!matched) return false;
  }
  return true;
}

// Every element of needle array y equals (fuzzily) some element of haystack array x.
bool ArrayFuzzyEquals(const JsonDocument& a, uint32_t x, const JsonDocument& b, uint32_t y) {
  const JsonNode& needle = b.node(y);
  const JsonNode& haystack = a.node(x);
  for (uint32_t element = JsonDocument::FirstChild(y); element < needle.end;
       element = b.Next(element)) {
    bool matched = false;
    for (uint32_t other = JsonDocument::FirstChild(x); other < haystack.end; other = a.Next(other)) {
      if (FuzzyEquals(a, other, b, element)) {
        matched = true;
        break;
      }
    }
    if (!matched) return false;
  }
  return true;
}

bool FuzzyEquals(const JsonDocument& a, uint32_t x, const JsonDocument& b, uint32_t y) {
  if (JsonEquals(a, x, b, y)) return true;
  const JsonKind kind = a.node(x).kind;
  if (kind != b.node(y).kind) return false;
  if (kind == JsonKind::kObject) return ObjectFuzzyEquals(a, x, b, y);
  if (kind == JsonKind::kArray) return ArrayFuzzyEquals(a, x, b, y);
  return false;
}

bool Contains(const JsonDocument& a, uint32_t x, const JsonDocument& b, uint32_t y) {
  if (FuzzyEquals(a, x, b, y)) return true;
  const JsonNode& node = a.node(x);
  if (node.kind == JsonKind::kArray) {
    for (uint32_t child = JsonDocument::FirstChild(x); child < node.end; child = a.Next(child)) {
      if (Contains(a, child, b, y)) return true;
    }
  } else if (node.kind == JsonKind::kObject) {
    for (uint32_t key = JsonDocument::FirstChild(x); key < node.end; key = a.Next(key + 1)) {
      if (Contains(a, key + 1, b, y)) return true;
    }
  }
  return false;
}

// RFC 7386 as yyjson merges (DuckDB's json_merge_patch): `patch` applied to `target`
// (nullopt: none), appended to `out`. The target's members the patch leaves alone come first,
// then the patch's non-null members in its order (repeated keys kept).
void MergePatch(const JsonDocument& t, std::optional<uint32_t> target, const JsonDocument& p,
                uint32_t patch, std::string* out) {
  const JsonNode& patch_node = p.node(patch);
  if (patch_node.kind != JsonKind::kObject) {
    p.Serialize(patch, out);
    return;
  }
  auto find = [](const JsonDocument& doc, uint32_t object, std::string_view name)
      -> std::optional<uint32_t> {
    const JsonNode& node = doc.node(object);
    for (uint32_t key = JsonDocument::FirstChild(object); key < node.end; key = doc.Next(key + 1)) {
      if (doc.Text(doc.node(key)) == name) return key + 1;
    }
    return std::nullopt;
  };
  if (target && t.node(*target).kind != JsonKind::kObject) target.reset();
  out->push_back('{');
  bool first = true;
  auto member = [&](std::string_view name) {
    if (!first) out->push_back(',');
    first = false;
    format::AppendJsonString(name, out);
    out->push_back(':');
  };
  if (target) {
    const JsonNode& node = t.node(*target);
    for (uint32_t key = JsonDocument::FirstChild(*target); key < node.end; key = t.Next(key + 1)) {
      const std::string_view name = t.Text(t.node(key));
      if (find(p, patch, name)) continue;
      member(name);
      t.Serialize(key + 1, out);
    }
  }
  for (uint32_t key = JsonDocument::FirstChild(patch); key < patch_node.end; key = p.Next(key + 1)) {
    if (p.node(key + 1).kind == JsonKind::kNull) continue;
    const std::string_view name = p.Text(p.node(key));
    member(name);
    MergePatch(t, target ? find(t, *target, name) : std::nullopt, p, key + 1, out);
  }
  out->push_back('}');
}

// json_structure: the type of a value, elements and members merged as DuckDB merges them.
struct Shape {
  enum class Kind : uint8_t { kNothing, kTruth, kUnsigned, kSigned, kHuge, kReal, kText,
                              kList, kDict, kAny };
  Kind kind = Kind::kNothing;
  std::vector<Shape> element;  // kList: one shape
  std::vector<std::pair<std::string, Shape>> members;  // kDict, first-seen order
};

bool IsNumber(Shape::Kind kind) {
  return kind == Shape::Kind::kUnsigned || kind == Shape::Kind::kSigned ||
         kind == Shape::Kind::kHuge || kind == Shape::Kind::kReal;
}

void Merge(Shape* into, Shape&& other) {
  using Kind = Shape::Kind;
  if (other.kind == Kind::kNothing) return;
  if (into->kind == Kind::kNothing) {
    *into = std::move(other);
    return;
  }
  if (IsNumber(into->kind) && IsNumber(other.kind)) {
    if (into->kind == other.kind) return;
    into->kind = into->kind == Kind::kReal || other.kind == Kind::kReal ? Kind::kReal
                                                                              : Kind::kHuge;
    return;
  }
  if (into->kind != other.kind) {
    *into = Shape{Kind::kAny, {}, {}};
    return;
  }
  if (into->kind == Kind::kList) {
    Merge(&into->element[0], std::move(other.element[0]));
  } else if (into->kind == Kind::kDict) {
    for (auto& [name, shape] : other.members) {
      auto it = std::find_if(into->members.begin(), into->members.end(),
                             [&](const auto& member) { return member.first == name; });
      if (it == into->members.end()) {
        into->members.emplace_back(std::move(name), std::move(shape));
      } else {
        Merge(&it->second, std::move(shape));
      }
    }
  }
}

Shape ShapeOf(const JsonDocument& doc, uint32_t index) {
  using Kind = Shape::Kind;
  const JsonNode& node = doc.node(index);
  Shape shape;
  switch (node.kind) {
    case JsonKind::kNull: break;
    case JsonKind::kTrue: case JsonKind::kFalse: shape.kind = Kind::kTruth; break;
    case JsonKind::kString: shape.kind = Kind::kText; break;
    case JsonKind::kNumber: {
      const std::string_view name = doc.TypeName(index);
      shape.kind = name == "UBIGINT" ? Kind::kUnsigned
                   : name == "BIGINT" ? Kind::kSigned
                                      : Kind::kReal;
      break;
    }
    case JsonKind::kArray:
      shape.kind = Kind::kList;
      shape.element.emplace_back();
      for (uint32_t child = JsonDocument::FirstChild(index); child < node.end; child = doc.Next(child)) {
        Merge(&shape.element[0], ShapeOf(doc, child));
      }
      break;
    case JsonKind::kObject: {
      shape.kind = Kind::kDict;
      Shape members;
      members.kind = Kind::kDict;
      for (uint32_t key = JsonDocument::FirstChild(index); key < node.end; key = doc.Next(key + 1)) {
        Shape one;
        one.kind = Kind::kDict;
        one.members.emplace_back(std::string(doc.Text(doc.node(key))), ShapeOf(doc, key + 1));
        Merge(&members, std::move(one));
      }
      shape = std::move(members);
      break;
    }
  }
  return shape;
}

void AppendShape(const Shape& shape, std::string* out) {
  using Kind = Shape::Kind;
  switch (shape.kind) {
    case Kind::kNothing: out->append("\"NULL\""); return;
    case Kind::kTruth: out->append("\"BOOLEAN\""); return;
    case Kind::kUnsigned: out->append("\"UBIGINT\""); return;
    case Kind::kSigned: out->append("\"BIGINT\""); return;
    case Kind::kHuge: out->append("\"HUGEINT\""); return;
    case Kind::kReal: out->append("\"DOUBLE\""); return;
    case Kind::kText: out->append("\"VARCHAR\""); return;
    case Kind::kAny: out->append("\"JSON\""); return;
    case Kind::kList:
      out->push_back('[');
      AppendShape(shape.element[0], out);
      out->push_back(']');
      return;
    case Kind::kDict:
      if (shape.members.empty()) {  // DuckDB has no type for an empty object
        out->append("\"JSON\"");
        return;
      }
      out->push_back('{');
      for (size_t i = 0; i < shape.members.size(); ++i) {
        if (i > 0) out->push_back(',');
        format::AppendJsonString(shape.members[i].first, out);
        out->push_back(':');
        AppendShape(shape.members[i].second, out);
      }
      out->push_back('}');
      return;
  }
}

}  // namespace

bool IsJsonFunction(FunctionId id) {
  return id >= FunctionId::kJsonExtract && id <= FunctionId::kJsonObject;
}

FunctionId LookupJsonFunction(std::string_view lower_name) {
  for (const JsonName& entry : kJsonNames) {
    if (lower_name == entry.name) return entry.id;
  }
  return FunctionId::kNone;
}

const char* JsonFunctionName(FunctionId id) {
  for (const JsonName& entry : kJsonNames) {
    if (entry.id == id) return entry.name;
  }
  return "?";
}

bool JsonFunctionPropagatesNull(FunctionId id) {
  return id != FunctionId::kJsonArray && id != FunctionId::kJsonObject &&
         id != FunctionId::kJsonMergePatch;
}

Status ResolveJsonFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                const std::vector<const Value*>& constant_args,
                                std::vector<DataType>* cast_to, DataType* result) {
  const size_t n = arg_types.size();
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  auto text_type = [](const DataType& t) { return t.id == TypeId::kJson ? t : kVarchar; };
  if (TakesPath(id)) {
    const bool optional_path = id == FunctionId::kJsonType ||
                               id == FunctionId::kJsonArrayLength || id == FunctionId::kJsonKeys;
    if (n < 1 || n > 2 || (n == 1 && !optional_path) || !IsText(arg_types[0])) return mismatch();
    cast_to->assign({text_type(arg_types[0])});
    const DataType one = PathResultType(id);
    if (n == 1) {
      *result = one;
      return Status::OK();
    }
    const DataType& path = arg_types[1];
    const bool integer_path = id == FunctionId::kJsonExtract || id == FunctionId::kJsonExtractString;
    if (path.id == TypeId::kList) {
      if (!IsText(path.children[0].type)) return mismatch();
      cast_to->push_back(DataType::List(kVarchar));
      *result = DataType::List(one);
    } else if (path.IsInteger() && integer_path) {
      cast_to->push_back(kBigint);
      *result = one;
    } else if (IsText(path)) {
      cast_to->push_back(kVarchar);
      *result = one;
    } else {
      return mismatch();
    }
    if (constant_args[1] != nullptr) {
      bool wildcard = false;
      TARN_RETURN_NOT_OK(CheckConstantPath(*constant_args[1], false, &wildcard));
      if (wildcard) *result = DataType::List(one);
    }
    return Status::OK();
  }
  switch (id) {
    case FunctionId::kJsonValid: case FunctionId::kJsonMinify: case FunctionId::kJsonStructure:
    case FunctionId::kJsonPretty:
      if (n != 1 || !IsText(arg_types[0])) return mismatch();
      cast_to->assign({text_type(arg_types[0])});
      *result = id == FunctionId::kJsonValid    ? kBool
                : id == FunctionId::kJsonPretty ? kVarchar
                                                : kJson;
      return Status::OK();
    case FunctionId::kJsonContains:
      if (n != 2 || !IsText(arg_types[0]) || !IsText(arg_types[1])) return mismatch();
      cast_to->assign({text_type(arg_types[0]), text_type(arg_types[1])});
      *result = kBool;
      return Status::OK();
    case FunctionId::kJsonMergePatch:
      if (n < 2) return mismatch();
      cast_to->clear();
      for (const DataType& t : arg_types) {
        if (!IsText(t)) return mismatch();
        cast_to->push_back(text_type(t));
      }
      *result = kJson;
      return Status::OK();
    case FunctionId::kToJson:
      if (n != 1) return Status::InvalidArgument("Binder Error: to_json() takes exactly one argument");
      *cast_to = arg_types;
      *result = kJson;
      return Status::OK();
    case FunctionId::kJsonArray:
      *cast_to = arg_types;
      *result = kJson;
      return Status::OK();
    case FunctionId::kJsonObject:
      if (n % 2 != 0) {
        return Status::InvalidArgument(
            "Binder Error: json_object() requires an even number of arguments");
      }
      for (size_t i = 0; i < n; i += 2) {
        if (arg_types[i].id != TypeId::kVarchar) {
          std::string shown = constant_args[i] == nullptr ? arg_types[i].ToString()
                              : constant_args[i]->is_null() ? "NULL"
                                                            : constant_args[i]->ToString();
          return Status::InvalidArgument(
              "Binder Error: json_object() keys must be VARCHAR, add an explicit cast to "
              "argument \"", shown, "\"");
        }
      }
      *cast_to = arg_types;
      *result = kJson;
      return Status::OK();
    default:
      return mismatch();
  }
}

Result<Value> InvokeJsonFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type) {
  if (TakesPath(id)) {
    JsonDocument& doc = ThreadDocument(0);
    TARN_RETURN_NOT_OK(ParseInto(&doc, args[0].GetBytes()));
    if (args.size() == 1) {
      return AnswerAt(id, doc, JsonDocument::kRoot, result_type);
    }
    const Value& path = args[1];
    if (path.type().id == TypeId::kList) {
      const DataType& element_type = result_type.children[0].type;
      std::vector<Value> answers;
      for (const Value& one : path.children()) {
        if (one.is_null()) return Status::InvalidArgument("Binder Error: JSON path cannot be NULL");
        TARN_ASSIGN_OR_RETURN(JsonPath parsed, PathOf(one));
        if (parsed.HasWildcard()) return Status::InvalidArgument("Binder Error: ", kWildcardInList);
        answers.push_back(AnswerAt(id, doc, LookupJsonPath(doc, parsed), element_type));
      }
      return Value::Nested(result_type, std::move(answers));
    }
    TARN_ASSIGN_OR_RETURN(JsonPath parsed, PathOf(path));
    if (parsed.HasWildcard()) {
      if (result_type.id != TypeId::kList) {
        return Status::InvalidArgument(
            "Invalid Input Error: a JSON path with wildcards must be a constant");
      }
      std::vector<uint32_t> matches;
      CollectJsonPath(doc, parsed, &matches);
      std::vector<Value> answers;
      for (uint32_t match : matches) {
        answers.push_back(AnswerAt(id, doc, match, result_type.children[0].type));
      }
      return Value::Nested(result_type, std::move(answers));
    }
    return AnswerAt(id, doc, LookupJsonPath(doc, parsed), result_type);
  }
  std::string out;
  switch (id) {
    case FunctionId::kJsonValid:
      return Value::Boolean(ThreadDocument(0).Parse(args[0].GetBytes()).ok());
    case FunctionId::kJsonMinify: {
      JsonDocument& doc = ThreadDocument(0);
      TARN_RETURN_NOT_OK(ParseInto(&doc, args[0].GetBytes()));
      doc.Serialize(JsonDocument::kRoot, &out);
      return Value::Bytes(kJson, std::move(out));
    }
    case FunctionId::kJsonPretty: {
      JsonDocument& doc = ThreadDocument(0);
      TARN_RETURN_NOT_OK(ParseInto(&doc, args[0].GetBytes()));
      doc.SerializePretty(JsonDocument::kRoot, 0, &out);
      return Value::Varchar(std::move(out));
    }
    case FunctionId::kJsonStructure: {
      JsonDocument& doc = ThreadDocument(0);
      TARN_RETURN_NOT_OK(ParseInto(&doc, args[0].GetBytes()));
      AppendShape(ShapeOf(doc, JsonDocument::kRoot), &out);
      return Value::Bytes(kJson, std::move(out));
    }
    case FunctionId::kJsonContains: {
      JsonDocument& haystack = ThreadDocument(0);
      JsonDocument& needle = ThreadDocument(1);
      TARN_RETURN_NOT_OK(ParseInto(&haystack, args[0].GetBytes()));
      TARN_RETURN_NOT_OK(ParseInto(&needle, args[1].GetBytes()));
      return Value::Boolean(Contains(haystack, JsonDocument::kRoot, needle, JsonDocument::kRoot));
    }
    case FunctionId::kJsonMergePatch: {
      std::optional<std::string> merged;
      if (!args[0].is_null()) merged = args[0].GetBytes();
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i].is_null()) return Value::Null(result_type);
        JsonDocument& target = ThreadDocument(0);
        JsonDocument& patch = ThreadDocument(1);
        TARN_RETURN_NOT_OK(ParseInto(&patch, args[i].GetBytes()));
        bool target_object = false;
        if (merged) {
          TARN_RETURN_NOT_OK(ParseInto(&target, *merged));
          target_object = target.node(JsonDocument::kRoot).kind == JsonKind::kObject;
        }
        std::string next;
        // DuckDB answers the patch itself, as written, unless both are objects.
        if (!target_object || patch.node(JsonDocument::kRoot).kind != JsonKind::kObject) {
          patch.Serialize(JsonDocument::kRoot, &next);
        } else {
          MergePatch(target, JsonDocument::kRoot, patch, JsonDocument::kRoot, &next);
        }
        merged = std::move(next);
      }
      return Value::Bytes(kJson, std::move(*merged));
    }
    case FunctionId::kToJson:
      AppendValueJson(args[0], &out);
      return Value::Bytes(kJson, std::move(out));
    case FunctionId::kJsonArray:
      out.push_back('[');
      for (size_t i = 0; i < args.size(); ++i) {
        if (i > 0) out.push_back(',');
        AppendValueJson(args[i], &out);
      }
      out.push_back(']');
      return Value::Bytes(kJson, std::move(out));
    case FunctionId::kJsonObject:
      out.push_back('{');
      for (size_t i = 0; i + 1 < args.size(); i += 2) {
        if (i > 0) out.push_back(',');
        if (args[i].is_null()) {
          return Status::InvalidArgument("Invalid Input Error: JSON key cannot be NULL");
        }
        format::AppendJsonString(args[i].GetBytes(), &out);
        out.push_back(':');
        AppendValueJson(args[i + 1], &out);
      }
      out.push_back('}');
      return Value::Bytes(kJson, std::move(out));
    default:
      return Status::Internal("not a JSON function");
  }
}

Status ValidateJsonText(std::string_view text) {
  Status status = ThreadDocument(0).Parse(text);
  if (!status.ok()) return Status::InvalidArgument("Conversion Error: ", status.message());
  return status;
}

namespace {

Result<Value> JsonNodeAs(const JsonDocument& doc, uint32_t index, const DataType& to) {
  const JsonNode& node = doc.node(index);
  if (node.kind == JsonKind::kNull) return Value::Null(to);
  auto text = [&] {
    std::string out;
    doc.Serialize(index, &out);
    return out;
  };
  auto expected = [&](const char* what) {
    return Status::InvalidArgument("Conversion Error: Expected ", what, ", but got ",
                                   doc.TypeName(index), ": ", text());
  };
  switch (to.id) {
    case TypeId::kList: {
      if (node.kind != JsonKind::kArray) return expected("ARRAY");
      std::vector<Value> elements;
      for (uint32_t child = JsonDocument::FirstChild(index); child < node.end; child = doc.Next(child)) {
        TARN_ASSIGN_OR_RETURN(Value element, JsonNodeAs(doc, child, to.children[0].type));
        elements.push_back(std::move(element));
      }
      return Value::Nested(to, std::move(elements));
    }
    case TypeId::kStruct: {
      if (node.kind != JsonKind::kObject) return expected("OBJECT");
      std::vector<std::optional<Value>> fields(to.children.size());
      for (uint32_t key = JsonDocument::FirstChild(index); key < node.end; key = doc.Next(key + 1)) {
        const std::string_view name = doc.Text(doc.node(key));
        size_t field = 0;
        while (field < to.children.size() && to.children[field].name != name) ++field;
        if (field == to.children.size()) {
          return Status::InvalidArgument("Conversion Error: Object ", text(), " has unknown key \"",
                                         name, "\"");
        }
        TARN_ASSIGN_OR_RETURN(Value value, JsonNodeAs(doc, key + 1, to.children[field].type));
        fields[field] = std::move(value);
      }
      std::vector<Value> values;
      for (size_t field = 0; field < fields.size(); ++field) {
        if (!fields[field]) {
          return Status::InvalidArgument("Conversion Error: Object ", text(),
                                         " does not have key \"", to.children[field].name, "\"");
        }
        values.push_back(std::move(*fields[field]));
      }
      return Value::Nested(to, std::move(values));
    }
    case TypeId::kMap: {
      if (node.kind != JsonKind::kObject) return expected("OBJECT");
      const DataType& entry_type = to.children[0].type;
      std::vector<Value> entries;
      for (uint32_t key = JsonDocument::FirstChild(index); key < node.end; key = doc.Next(key + 1)) {
        TARN_ASSIGN_OR_RETURN(Value k, CastValue(Value::Varchar(std::string(doc.Text(doc.node(key)))),
                                                 entry_type.children[0].type));
        TARN_ASSIGN_OR_RETURN(Value v, JsonNodeAs(doc, key + 1, entry_type.children[1].type));
        entries.push_back(Value::Nested(entry_type, {std::move(k), std::move(v)}));
      }
      return Value::Nested(to, std::move(entries));
    }
    default:
      break;
  }
  if (to.id == TypeId::kJson) return Value::Bytes(to, text());
  if (node.kind == JsonKind::kString) {
    Result<Value> cast = CastValue(Value::Varchar(std::string(doc.Text(node))), to);
    if (!cast.ok() && to.IsNumeric()) {
      return Status::InvalidArgument("Conversion Error: Failed to cast value to numerical: ", text());
    }
    return cast;
  }
  if (node.kind == JsonKind::kTrue || node.kind == JsonKind::kFalse) {
    return CastValue(Value::Boolean(node.kind == JsonKind::kTrue), to);
  }
  if ((node.kind == JsonKind::kArray || node.kind == JsonKind::kObject) && to.id != TypeId::kVarchar) {
    if (to.IsNumeric()) {
      return Status::InvalidArgument("Conversion Error: Failed to cast value to numerical: ", text());
    }
    return Status::InvalidArgument("Conversion Error: Failed to cast value to ", to.ToString(),
                                   ": ", text());
  }
  return CastValue(Value::Varchar(text()), to);
}

}  // namespace

Result<Value> CastJsonToValue(std::string_view json, const DataType& to) {
  JsonDocument doc;
  Status status = doc.Parse(json);
  if (!status.ok()) return Status::InvalidArgument("Conversion Error: ", status.message());
  return JsonNodeAs(doc, JsonDocument::kRoot, to);
}

}  // namespace tarn::expr
