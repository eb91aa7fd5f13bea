#include "parquet/schema.h"

#include <algorithm>
#include <cctype>

namespace tarn::parquet {

std::string LeafDescriptor::PathString() const {
  std::string out;
  for (const std::string& part : path) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

namespace {

struct ElementTree {
  int element = 0;
  std::vector<ElementTree> children;
};

// Rebuilds the tree from the depth-first flattened list, bounded in depth and element count.
Status ParseTree(const std::vector<SchemaElement>& elements, size_t* next, int depth,
                 ElementTree* out) {
  if (depth > FileSchema::kMaxDepth) {
    return Status::NotSupported("schema nesting deeper than ", FileSchema::kMaxDepth);
  }
  if (*next >= elements.size()) {
    return Status::Corruption("schema: element list ends inside a group");
  }
  out->element = static_cast<int>((*next)++);
  const SchemaElement& element = elements[out->element];
  const int32_t num_children = element.num_children.value_or(0);
  if (num_children < 0 || static_cast<size_t>(num_children) > elements.size() - *next) {
    return Status::Corruption("schema: element '", element.name, "' declares ", num_children,
                              " children but ", elements.size() - *next, " elements follow");
  }
  if (element.num_children.has_value() && num_children > 0 && element.type.has_value() &&
      depth > 0) {
    return Status::Corruption("schema: element '", element.name,
                              "' has both a physical type and children");
  }
  out->children.resize(num_children);
  for (int32_t child = 0; child < num_children; ++child) {
    TARN_RETURN_NOT_OK(ParseTree(elements, next, depth + 1, &out->children[child]));
  }
  return Status::OK();
}

bool IsGroup(const SchemaElement& element, const ElementTree& tree) {
  return !tree.children.empty() || !element.type.has_value();
}

bool HasLogical(const SchemaElement& element, LogicalType::Kind kind) {
  return element.logical_type.has_value() && element.logical_type->kind == kind;
}

bool HasConverted(const SchemaElement& element, ConvertedType type) {
  return element.converted_type.has_value() && *element.converted_type == type;
}

void SetFixed(LeafDescriptor* leaf, TypeId id, ValueKind kind, int64_t factor = 1) {
  leaf->type = DataType(id);
  leaf->kind = kind;
  leaf->factor = factor;
}

bool DecimalParams(const SchemaElement& element, int* precision, int* scale) {
  if (HasLogical(element, LogicalType::Kind::kDecimal)) {
    *precision = element.logical_type->decimal_precision;
    *scale = element.logical_type->decimal_scale;
  } else if (HasConverted(element, ConvertedType::kDecimal)) {
    *precision = element.precision.value_or(0);
    *scale = element.scale.value_or(0);
  } else {
    return false;
  }
  return *precision >= 1 && *precision <= 38 && *scale >= 0 && *scale <= *precision;
}

void ResolveInt32(const SchemaElement& element, LeafDescriptor* leaf) {
  const LogicalType* logical = element.logical_type ? &*element.logical_type : nullptr;
  int precision = 0, scale = 0;
  if (DecimalParams(element, &precision, &scale)) {
    leaf->type = DataType::Decimal(precision, scale);
    leaf->kind = ValueKind::kInt32ToInt128;
    return;
  }
  int bits = 0;
  bool is_signed = true;
  if (logical && logical->kind == LogicalType::Kind::kInteger) {
    bits = logical->bit_width;
    is_signed = logical->is_signed;
  } else if (logical && logical->kind == LogicalType::Kind::kDate) {
    return SetFixed(leaf, TypeId::kDate, ValueKind::kCopy);
  } else if (logical && logical->kind == LogicalType::Kind::kTime &&
             logical->unit == TimeUnit::kMillis) {
    return SetFixed(leaf, logical->is_adjusted_to_utc ? TypeId::kTimeTz : TypeId::kTime,
                    ValueKind::kInt32ToInt64, 1000);
  } else if (element.converted_type && !(logical && logical->kind != LogicalType::Kind::kNone)) {
    switch (*element.converted_type) {
      case ConvertedType::kInt8: bits = 8; break;
      case ConvertedType::kInt16: bits = 16; break;
      case ConvertedType::kInt32: bits = 32; break;
      case ConvertedType::kUint8: bits = 8; is_signed = false; break;
      case ConvertedType::kUint16: bits = 16; is_signed = false; break;
      case ConvertedType::kUint32: bits = 32; is_signed = false; break;
      case ConvertedType::kDate: return SetFixed(leaf, TypeId::kDate, ValueKind::kCopy);
      case ConvertedType::kTimeMillis:
        return SetFixed(leaf, TypeId::kTime, ValueKind::kInt32ToInt64, 1000);
      default: break;
    }
  }
  switch (bits) {
    case 8:
      return SetFixed(leaf, is_signed ? TypeId::kInt8 : TypeId::kUInt8, ValueKind::kInt32ToInt8);
    case 16:
      return SetFixed(leaf, is_signed ? TypeId::kInt16 : TypeId::kUInt16,
                      ValueKind::kInt32ToInt16);
    case 32:
      return SetFixed(leaf, is_signed ? TypeId::kInt32 : TypeId::kUInt32, ValueKind::kCopy);
    default:
      return SetFixed(leaf, TypeId::kInt32, ValueKind::kCopy);
  }
}

void ResolveInt64(const SchemaElement& element, LeafDescriptor* leaf) {
  const LogicalType* logical = element.logical_type ? &*element.logical_type : nullptr;
  int precision = 0, scale = 0;
  if (DecimalParams(element, &precision, &scale)) {
    leaf->type = DataType::Decimal(precision, scale);
    leaf->kind = ValueKind::kInt64ToInt128;
    return;
  }
  if (logical && logical->kind == LogicalType::Kind::kInteger) {
    return SetFixed(leaf, logical->is_signed ? TypeId::kInt64 : TypeId::kUInt64,
                    ValueKind::kCopy);
  }
  if (logical && logical->kind == LogicalType::Kind::kTime) {
    const bool utc = logical->is_adjusted_to_utc;
    switch (logical->unit) {
      case TimeUnit::kMillis:
        return SetFixed(leaf, utc ? TypeId::kTimeTz : TypeId::kTime, ValueKind::kInt64Multiply,
                        1000);
      case TimeUnit::kMicros:
        return SetFixed(leaf, utc ? TypeId::kTimeTz : TypeId::kTime, ValueKind::kCopy);
      case TimeUnit::kNanos:
        if (utc) return SetFixed(leaf, TypeId::kTimeTz, ValueKind::kInt64Divide, 1000);
        return SetFixed(leaf, TypeId::kTimeNs, ValueKind::kCopy);
    }
  }
  if (logical && logical->kind == LogicalType::Kind::kTimestamp) {
    const bool utc = logical->is_adjusted_to_utc;
    const TypeId micros_type = utc ? TypeId::kTimestampTz : TypeId::kTimestamp;
    switch (logical->unit) {
      case TimeUnit::kMillis: return SetFixed(leaf, micros_type, ValueKind::kInt64Multiply, 1000);
      case TimeUnit::kMicros: return SetFixed(leaf, micros_type, ValueKind::kCopy);
      case TimeUnit::kNanos:
        if (utc) return SetFixed(leaf, TypeId::kTimestampTz, ValueKind::kInt64Divide, 1000);
        return SetFixed(leaf, TypeId::kTimestampNs, ValueKind::kCopy);
    }
  }
  if (element.converted_type && !(logical && logical->kind != LogicalType::Kind::kNone)) {
    switch (*element.converted_type) {
      case ConvertedType::kUint64: return SetFixed(leaf, TypeId::kUInt64, ValueKind::kCopy);
      case ConvertedType::kTimeMicros: return SetFixed(leaf, TypeId::kTime, ValueKind::kCopy);
      case ConvertedType::kTimestampMillis:
        return SetFixed(leaf, TypeId::kTimestamp, ValueKind::kInt64Multiply, 1000);
      case ConvertedType::kTimestampMicros:
        return SetFixed(leaf, TypeId::kTimestamp, ValueKind::kCopy);
      default: break;
    }
  }
  SetFixed(leaf, TypeId::kInt64, ValueKind::kCopy);
}

void ResolveByteArray(const SchemaElement& element, LeafDescriptor* leaf) {
  int precision = 0, scale = 0;
  if (DecimalParams(element, &precision, &scale)) {
    leaf->type = DataType::Decimal(precision, scale);
    leaf->kind = ValueKind::kBytesToInt128;
    return;
  }
  leaf->kind = ValueKind::kBytes;
  TypeId id = TypeId::kBlob;
  const LogicalType::Kind kind =
      element.logical_type ? element.logical_type->kind : LogicalType::Kind::kNone;
  switch (kind) {
    case LogicalType::Kind::kString:
    case LogicalType::Kind::kEnum: id = TypeId::kVarchar; break;
    case LogicalType::Kind::kJson: id = TypeId::kJson; break;
    case LogicalType::Kind::kGeometry:
    case LogicalType::Kind::kGeography: id = TypeId::kGeometry; break;
    case LogicalType::Kind::kVariant: id = TypeId::kVariant; break;
    case LogicalType::Kind::kNone:
      if (HasConverted(element, ConvertedType::kUtf8) ||
          HasConverted(element, ConvertedType::kEnum)) {
        id = TypeId::kVarchar;
      } else if (HasConverted(element, ConvertedType::kJson)) {
        id = TypeId::kJson;
      }
      break;
    default: break;  // BSON and unknown annotations read as BLOB
  }
  leaf->type = DataType(id);
}

void ResolveFixedLenByteArray(const SchemaElement& element, LeafDescriptor* leaf) {
  const int32_t length = leaf->type_length;
  int precision = 0, scale = 0;
  if (DecimalParams(element, &precision, &scale) && length <= 16) {
    leaf->type = DataType::Decimal(precision, scale);
    leaf->kind = ValueKind::kFlbaToInt128;
    return;
  }
  if (HasLogical(element, LogicalType::Kind::kUuid) && length == 16) {
    return SetFixed(leaf, TypeId::kUuid, ValueKind::kCopy);
  }
  if (HasLogical(element, LogicalType::Kind::kFloat16) && length == 2) {
    return SetFixed(leaf, TypeId::kFloat32, ValueKind::kFloat16ToFloat);
  }
  if (HasConverted(element, ConvertedType::kInterval) && length == 12) {
    return SetFixed(leaf, TypeId::kInterval, ValueKind::kIntervalToInterval);
  }
  leaf->type = DataType(TypeId::kBlob);
  leaf->kind = ValueKind::kFlbaToBytes;
}

}  // namespace

Status ResolveLeafType(const SchemaElement& element, LeafDescriptor* leaf) {
  if (!element.type.has_value()) {
    return Status::Corruption("schema: leaf '", element.name, "' has no physical type");
  }
  leaf->physical_type = *element.type;
  leaf->logical_type = element.logical_type.value_or(LogicalType{});
  switch (*element.type) {
    case PhysicalType::kBoolean:
      SetFixed(leaf, TypeId::kBoolean, ValueKind::kBoolean);
      leaf->physical_width = 0;
      break;
    case PhysicalType::kInt32:
      leaf->physical_width = 4;
      ResolveInt32(element, leaf);
      break;
    case PhysicalType::kInt64:
      leaf->physical_width = 8;
      ResolveInt64(element, leaf);
      break;
    case PhysicalType::kInt96:
      leaf->physical_width = 12;
      SetFixed(leaf, TypeId::kTimestamp, ValueKind::kInt96ToMicros);
      break;
    case PhysicalType::kFloat:
      leaf->physical_width = 4;
      SetFixed(leaf, TypeId::kFloat32, ValueKind::kCopy);
      break;
    case PhysicalType::kDouble:
      leaf->physical_width = 8;
      SetFixed(leaf, TypeId::kFloat64, ValueKind::kCopy);
      break;
    case PhysicalType::kByteArray:
      leaf->physical_width = 0;
      ResolveByteArray(element, leaf);
      break;
    case PhysicalType::kFixedLenByteArray: {
      const int32_t length = element.type_length.value_or(-1);
      if (length <= 0 || length > (1 << 24)) {
        return Status::Corruption("schema: FIXED_LEN_BYTE_ARRAY '", element.name,
                                  "' has type_length ", length);
      }
      leaf->type_length = length;
      leaf->physical_width = length;
      ResolveFixedLenByteArray(element, leaf);
      break;
    }
    default:
      return Status::Corruption("schema: leaf '", element.name, "' has unknown physical type ",
                                static_cast<int>(*element.type));
  }
  leaf->output_width = leaf->type.FixedWidth();
  return Status::OK();
}

namespace {

// Builds the output tree. `def`/`rep` are the levels reached at the parent; `slot_def` and
// `slot_rep` are the slot thresholds the parent's children share.
class TreeBuilder {
 public:
  TreeBuilder(const std::vector<SchemaElement>& elements, std::vector<LeafDescriptor>* leaves)
      : elements_(elements), leaves_(leaves) {}

  Status Convert(const ElementTree& tree, int16_t def, int16_t rep, int16_t slot_def,
                 int16_t slot_rep, std::vector<std::string>* path, SchemaNode* out) {
    const SchemaElement& element = elements_[tree.element];
    const Repetition repetition = element.repetition_type.value_or(Repetition::kOptional);
    if (repetition == Repetition::kRepeated) {
      // An unannotated repeated field: a non-NULL list of its (required) values.
      SchemaNode element_node;
      TARN_RETURN_NOT_OK(ConvertBody(tree, def + 1, rep + 1, def + 1, rep + 1,
                                     /*nullable=*/false, path, &element_node));
      element_node.field.name = "element";
      return MakeList(element, def, slot_def, slot_rep, def + 1, rep + 1, /*nullable=*/false,
                      std::move(element_node), out);
    }
    const bool nullable = repetition == Repetition::kOptional;
    return ConvertBody(tree, def + (nullable ? 1 : 0), rep, slot_def, slot_rep, nullable, path,
                       out);
  }

 private:
  Status MakeList(const SchemaElement& element, int16_t def, int16_t slot_def, int16_t slot_rep,
                  int16_t element_def, int16_t element_rep, bool nullable, SchemaNode element_node,
                  SchemaNode* out) {
    out->kind = SchemaNode::Kind::kList;
    out->def_level = def;
    out->slot_def_level = slot_def;
    out->slot_rep_level = slot_rep;
    out->element_def_level = element_def;
    out->element_rep_level = element_rep;
    out->first_leaf = element_node.first_leaf;
    out->num_leaves = element_node.num_leaves;
    out->field = Field(element.name, DataType::List(element_node.field), nullable,
                       element.field_id);
    out->children.push_back(std::move(element_node));
    return Status::OK();
  }

  // Converts `tree` whose own repetition has been accounted for: `def` is its def level.
  Status ConvertBody(const ElementTree& tree, int16_t def, int16_t rep, int16_t slot_def,
                     int16_t slot_rep, bool nullable, std::vector<std::string>* path,
                     SchemaNode* out) {
    const SchemaElement& element = elements_[tree.element];
    if (path->size() > static_cast<size_t>(FileSchema::kMaxDepth)) {
      return Status::NotSupported("schema nesting deeper than ", FileSchema::kMaxDepth);
    }
    path->push_back(element.name);
    Status status = ConvertBodyInner(tree, element, def, rep, slot_def, slot_rep, nullable, path,
                                     out);
    path->pop_back();
    return status;
  }

  Status ConvertBodyInner(const ElementTree& tree, const SchemaElement& element, int16_t def,
                          int16_t rep, int16_t slot_def, int16_t slot_rep, bool nullable,
                          std::vector<std::string>* path, SchemaNode* out) {
    out->def_level = def;
    out->slot_def_level = slot_def;
    out->slot_rep_level = slot_rep;
    if (!IsGroup(element, tree)) {
      LeafDescriptor leaf;
      leaf.path = *path;
      leaf.column_index = static_cast<int>(leaves_->size());
      leaf.max_def_level = def;
      leaf.max_rep_level = rep;
      leaf.nullable = nullable;
      TARN_RETURN_NOT_OK(ResolveLeafType(element, &leaf));
      out->kind = SchemaNode::Kind::kLeaf;
      out->leaf = leaf.column_index;
      out->first_leaf = leaf.column_index;
      out->num_leaves = 1;
      out->field = Field(element.name, leaf.type, nullable, element.field_id);
      leaves_->push_back(std::move(leaf));
      return Status::OK();
    }
    if (tree.children.empty()) {
      return Status::Corruption("schema: group '", element.name, "' has no children");
    }
    const bool is_list = HasLogical(element, LogicalType::Kind::kList) ||
                         HasConverted(element, ConvertedType::kList);
    const bool is_map = HasLogical(element, LogicalType::Kind::kMap) ||
                        HasConverted(element, ConvertedType::kMap) ||
                        HasConverted(element, ConvertedType::kMapKeyValue);
    if ((is_list || is_map) && tree.children.size() == 1 &&
        elements_[tree.children[0].element].repetition_type == Repetition::kRepeated) {
      return is_list ? ConvertList(tree, element, def, rep, slot_def, slot_rep, nullable, path, out)
                     : ConvertMap(tree, element, def, rep, slot_def, slot_rep, nullable, path,
                                  out);
    }
    // A struct (also a LIST/MAP annotation that does not fit the pattern: read as written).
    return ConvertStruct(tree, element, def, rep, slot_def, slot_rep, nullable, path, out);
  }

  Status ConvertStruct(const ElementTree& tree, const SchemaElement& element, int16_t def,
                       int16_t rep, int16_t slot_def, int16_t slot_rep, bool nullable,
                       std::vector<std::string>* path, SchemaNode* out) {
    out->kind = SchemaNode::Kind::kStruct;
    out->first_leaf = static_cast<int>(leaves_->size());
    std::vector<Field> fields;
    for (const ElementTree& child_tree : tree.children) {
      SchemaNode child;
      TARN_RETURN_NOT_OK(Convert(child_tree, def, rep, slot_def, slot_rep, path, &child));
      fields.push_back(child.field);
      out->children.push_back(std::move(child));
    }
    out->num_leaves = static_cast<int>(leaves_->size()) - out->first_leaf;
    out->field = Field(element.name, DataType::Struct(std::move(fields)), nullable,
                       element.field_id);
    // Parquet's VARIANT group (metadata, value, optional typed_value) reads as one VARIANT.
    if (HasLogical(element, LogicalType::Kind::kVariant)) {
      bool has_metadata = false;
      for (const Field& field : out->field.type.children) has_metadata |= field.name == "metadata";
      if (!has_metadata) {
        return Status::Corruption("schema: VARIANT group '", element.name,
                                  "' has no metadata field");
      }
      out->variant = true;
      out->field.type = DataType(TypeId::kVariant);
    }
    return Status::OK();
  }

  Status ConvertList(const ElementTree& tree, const SchemaElement& element, int16_t def,
                     int16_t rep, int16_t slot_def, int16_t slot_rep, bool nullable,
                     std::vector<std::string>* path, SchemaNode* out) {
    const ElementTree& repeated_tree = tree.children[0];
    const SchemaElement& repeated = elements_[repeated_tree.element];
    const int16_t element_def = def + 1;
    const int16_t element_rep = rep + 1;
    SchemaNode element_node;
    const bool legacy_group =
        IsGroup(repeated, repeated_tree) &&
        (repeated_tree.children.size() != 1 || repeated.name == "array" ||
         repeated.name == element.name + "_tuple");
    if (!IsGroup(repeated, repeated_tree) || legacy_group) {
      // 2-level list: the repeated field itself is the (required) element.
      TARN_RETURN_NOT_OK(ConvertBody(repeated_tree, element_def, element_rep, element_def,
                                     element_rep, /*nullable=*/false, path, &element_node));
    } else {
      // 3-level list: repeated group { element }.
      path->push_back(repeated.name);
      Status status = Convert(repeated_tree.children[0], element_def, element_rep, element_def,
                              element_rep, path, &element_node);
      path->pop_back();
      TARN_RETURN_NOT_OK(status);
    }
    element_node.field.name = "element";
    return MakeList(element, def, slot_def, slot_rep, element_def, element_rep, nullable,
                    std::move(element_node), out);
  }

  Status ConvertMap(const ElementTree& tree, const SchemaElement& element, int16_t def,
                    int16_t rep, int16_t slot_def, int16_t slot_rep, bool nullable,
                    std::vector<std::string>* path, SchemaNode* out) {
    const ElementTree& kv_tree = tree.children[0];
    const SchemaElement& kv = elements_[kv_tree.element];
    if (IsGroup(kv, kv_tree) && kv_tree.children.size() == 1) {
      // A key_value group with a key and no value: read as the list of the keys (as the
      // format's reference readers do).
      SchemaNode element_node;
      path->push_back(kv.name);
      Status status = Convert(kv_tree.children[0], def + 1, rep + 1, def + 1, rep + 1, path,
                              &element_node);
      path->pop_back();
      TARN_RETURN_NOT_OK(status);
      element_node.field.name = "element";
      return MakeList(element, def, slot_def, slot_rep, def + 1, rep + 1, nullable,
                      std::move(element_node), out);
    }
    if (!IsGroup(kv, kv_tree) || kv_tree.children.size() != 2) {
      return Status::NotSupported("schema: MAP '", element.name, "' has a key_value group with ",
                                  kv_tree.children.size(),
                                  " children; a map needs a key and a value");
    }
    const int16_t element_def = def + 1;
    const int16_t element_rep = rep + 1;
    SchemaNode entry;
    entry.def_level = element_def;
    entry.slot_def_level = element_def;
    entry.slot_rep_level = element_rep;
    path->push_back(kv.name);
    Status status = ConvertStruct(kv_tree, kv, element_def, element_rep, element_def,
                                  element_rep, /*nullable=*/false, path, &entry);
    path->pop_back();
    TARN_RETURN_NOT_OK(status);
    if (entry.children[0].kind == SchemaNode::Kind::kList) {
      return Status::NotSupported("schema: MAP '", element.name, "' has a repeated key");
    }
    entry.children[0].field.name = "key";
    entry.children[0].field.nullable = false;
    entry.children[1].field.name = "value";
    DataType map_type = DataType::Map(entry.children[0].field.type, entry.children[1].field.type);
    entry.field = map_type.children[0];
    // Keep the field ids of the key and value.
    entry.field.type.children[0].field_id = entry.children[0].field.field_id;
    entry.field.type.children[1].field_id = entry.children[1].field.field_id;
    entry.field.type.children[1].nullable = entry.children[1].field.nullable;
    entry.field.field_id = kv.field_id;
    map_type.children[0] = entry.field;
    TARN_RETURN_NOT_OK(MakeList(element, def, slot_def, slot_rep, element_def, element_rep,
                                nullable, std::move(entry), out));
    out->field.type = std::move(map_type);
    return Status::OK();
  }

  const std::vector<SchemaElement>& elements_;
  std::vector<LeafDescriptor>* leaves_;
};

}  // namespace

Result<FileSchema> FileSchema::Make(const std::vector<SchemaElement>& elements) {
  if (elements.empty()) return Status::Corruption("schema: no elements");
  ElementTree root;
  size_t next = 0;
  TARN_RETURN_NOT_OK(ParseTree(elements, &next, 0, &root));
  if (next != elements.size()) {
    return Status::Corruption("schema: ", elements.size() - next,
                              " elements after the root's children");
  }
  FileSchema result;
  TreeBuilder builder(elements, &result.leaves_);
  for (const ElementTree& child : root.children) {
    SchemaNode node;
    std::vector<std::string> path;
    TARN_RETURN_NOT_OK(builder.Convert(child, 0, 0, 0, 0, &path, &node));
    result.schema_.fields.push_back(node.field);
    result.columns_.push_back(std::move(node));
  }
  return result;
}

}  // namespace tarn::parquet
