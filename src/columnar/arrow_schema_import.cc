// Arrow schema import: format strings, metadata (extension names, field ids) and nesting.
#include <cstring>

#include "columnar/arrow_import_layout.h"
#include "columnar/arrow_internal.h"

namespace tarn::internal {
namespace {

struct FieldMetadata {
  std::string extension;
  std::optional<int32_t> field_id;
};

// Arrow's metadata encoding: int32 count, then per pair int32 length + key bytes, int32
// length + value bytes. The total size is not part of the interface, so lengths are only
// checked for sanity.
Result<FieldMetadata> ParseMetadata(const char* metadata, const std::string& path) {
  FieldMetadata out;
  if (metadata == nullptr) return out;
  auto fail = [&](const char* what) {
    return Status::InvalidArgument("Arrow field ", path, ": malformed metadata (", what, ")");
  };
  const char* cursor = metadata;
  auto read_int32 = [&cursor] {
    int32_t v;
    std::memcpy(&v, cursor, 4);
    cursor += 4;
    return v;
  };
  const int32_t pairs = read_int32();
  if (pairs < 0 || pairs > 4096) return fail("pair count");
  for (int32_t pair = 0; pair < pairs; ++pair) {
    const int32_t key_size = read_int32();
    if (key_size < 0 || key_size > (1 << 20)) return fail("key length");
    std::string key(cursor, static_cast<size_t>(key_size));
    cursor += key_size;
    const int32_t value_size = read_int32();
    if (value_size < 0 || value_size > (1 << 24)) return fail("value length");
    std::string value(cursor, static_cast<size_t>(value_size));
    cursor += value_size;
    if (key == kExtensionNameKey) {
      out.extension = std::move(value);
    } else if (key == kFieldIdKey) {
      // A field id that is not a plain int32 is ignored, as a missing one would be.
      int64_t id = 0;
      bool numeric = !value.empty() && value.size() <= 10;
      for (char c : value) {
        numeric = numeric && c >= '0' && c <= '9';
        if (numeric) id = id * 10 + (c - '0');
      }
      if (numeric && id <= INT32_MAX) out.field_id = static_cast<int32_t>(id);
    }
  }
  return out;
}

Result<Field> ImportField(const ArrowSchema* schema, const std::string& parent_path, int depth,
                          ImportLayout* layout) {
  if (schema == nullptr || schema->format == nullptr) {
    return Status::InvalidArgument("Arrow field under ", parent_path, " is null or has no format");
  }
  const std::string name = schema->name == nullptr ? std::string() : std::string(schema->name);
  const std::string path = parent_path.empty() ? "'" + name + "'" : parent_path + "." + name;
  if (depth > kMaxArrowDepth) return Status::InvalidArgument("Arrow field ", path, " is nested too deeply");
  if (schema->dictionary != nullptr) {
    return Status::NotSupported("Arrow field ", path, ": dictionary-encoded fields are not supported");
  }
  TARN_ASSIGN_OR_RETURN(FieldMetadata metadata, ParseMetadata(schema->metadata, path));
  const std::string_view format(schema->format);
  const bool nullable = (schema->flags & ARROW_FLAG_NULLABLE) != 0;
  auto children = [&](int64_t expected) -> Status {
    if (schema->n_children < 0 || (expected >= 0 && schema->n_children != expected)) {
      return Status::InvalidArgument("Arrow field ", path, " (format '", format, "') has ",
                                     schema->n_children, " children, expected ", expected);
    }
    if (schema->n_children > 0 && schema->children == nullptr) {
      return Status::InvalidArgument("Arrow field ", path, " has a null children array");
    }
    layout->children.resize(static_cast<size_t>(schema->n_children));
    return Status::OK();
  };

  DataType type;
  if (format == "+s") {
    TARN_RETURN_NOT_OK(children(-1));
    std::vector<Field> fields;
    for (int64_t child_idx = 0; child_idx < schema->n_children; ++child_idx) {
      TARN_ASSIGN_OR_RETURN(Field child, ImportField(schema->children[child_idx], path, depth + 1,
                                                     &layout->children[child_idx]));
      fields.push_back(std::move(child));
    }
    type = DataType::Struct(std::move(fields));
  } else if (format == "+l" || format == "+L") {
    TARN_RETURN_NOT_OK(children(1));
    layout->offset_width = format == "+l" ? 4 : 8;
    TARN_ASSIGN_OR_RETURN(Field element, ImportField(schema->children[0], path, depth + 1,
                                                     &layout->children[0]));
    type = DataType::List(std::move(element));  // renames the element to "element"
  } else if (format == "+m") {
    TARN_RETURN_NOT_OK(children(1));
    layout->offset_width = 4;
    TARN_ASSIGN_OR_RETURN(Field entries, ImportField(schema->children[0], path, depth + 1,
                                                     &layout->children[0]));
    if (entries.type.id != TypeId::kStruct || entries.type.children.size() != 2) {
      return Status::InvalidArgument("Arrow map ", path, ": entries must be a struct of key and value");
    }
    // tarn's names: "key_value" {"key" NOT NULL, "value"}.
    entries.name = "key_value";
    entries.nullable = false;
    entries.type.children[0].name = "key";
    entries.type.children[0].nullable = false;
    entries.type.children[1].name = "value";
    type = DataType(TypeId::kMap);
    type.children.push_back(std::move(entries));
  } else {
    TARN_RETURN_NOT_OK(children(0));
    Result<DataType> simple = TypeOfArrowFormat(format, metadata.extension);
    if (!simple.ok()) return simple.status().WithContext("Arrow field " + path);
    type = std::move(*simple);
    if (format == "u" || format == "z") {
      layout->offset_width = 4;
    } else if (type.IsVarLength()) {
      layout->offset_width = 8;
    }
  }
  return Field(name, std::move(type), nullable, metadata.field_id);
}

}  // namespace

ImportLayout DefaultImportLayout(const DataType& type) {
  ImportLayout layout;
  if (type.IsVarLength()) layout.offset_width = 8;
  if (type.id == TypeId::kList || type.id == TypeId::kMap) layout.offset_width = 4;
  for (const Field& child : type.children) layout.children.push_back(DefaultImportLayout(child.type));
  return layout;
}

Result<Schema> ImportSchemaWithLayout(const ArrowSchema* schema, std::vector<ImportLayout>* layouts) {
  if (schema == nullptr || schema->release == nullptr) {
    return Status::InvalidArgument("cannot import a null or released ArrowSchema");
  }
  if (schema->format == nullptr || std::string_view(schema->format) != "+s") {
    return Status::InvalidArgument("a top-level Arrow schema must be a struct ('+s'), got '",
                                   schema->format == nullptr ? "" : schema->format, "'");
  }
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == nullptr)) {
    return Status::InvalidArgument("Arrow schema has a malformed children array");
  }
  if (schema->dictionary != nullptr) {
    return Status::NotSupported("a dictionary-encoded top-level Arrow schema is not supported");
  }
  std::vector<Field> fields;
  layouts->assign(static_cast<size_t>(schema->n_children), ImportLayout());
  for (int64_t field_idx = 0; field_idx < schema->n_children; ++field_idx) {
    TARN_ASSIGN_OR_RETURN(Field field, ImportField(schema->children[field_idx], "", 1,
                                                   &(*layouts)[field_idx]));
    fields.push_back(std::move(field));
  }
  return Schema(std::move(fields));
}

}  // namespace tarn::internal
