#include "parquet/writer_schema.h"

#include <string>
#include <utility>

#include "columnar/variant.h"

namespace tarn::parquet {

namespace {

LogicalType IntegerLogical(int bits, bool is_signed) {
  LogicalType logical;
  logical.kind = LogicalType::Kind::kInteger;
  logical.bit_width = static_cast<int8_t>(bits);
  logical.is_signed = is_signed;
  return logical;
}

LogicalType TimeLogical(LogicalType::Kind kind, TimeUnit unit, bool utc) {
  LogicalType logical;
  logical.kind = kind;
  logical.unit = unit;
  logical.is_adjusted_to_utc = utc;
  return logical;
}

LogicalType SimpleLogical(LogicalType::Kind kind) {
  LogicalType logical;
  logical.kind = kind;
  return logical;
}

// Sets the physical type and annotations of a leaf element, and the leaf's value traits.
Status AnnotateLeaf(const DataType& type, SchemaElement* element, WriterLeaf* leaf) {
  auto set = [&](PhysicalType physical, SortOrder order) {
    element->type = physical;
    leaf->physical = physical;
    leaf->sort_order = order;
  };
  auto integer = [&](PhysicalType physical, int bits, bool is_signed, ConvertedType converted) {
    set(physical, is_signed ? SortOrder::kSigned : SortOrder::kUnsigned);
    element->logical_type = IntegerLogical(bits, is_signed);
    element->converted_type = converted;
  };
  switch (type.id) {
    case TypeId::kBoolean:
      set(PhysicalType::kBoolean, SortOrder::kSigned);
      return Status::OK();
    case TypeId::kInt8:
      integer(PhysicalType::kInt32, 8, true, ConvertedType::kInt8);
      return Status::OK();
    case TypeId::kInt16:
      integer(PhysicalType::kInt32, 16, true, ConvertedType::kInt16);
      return Status::OK();
    case TypeId::kInt32:
      integer(PhysicalType::kInt32, 32, true, ConvertedType::kInt32);
      return Status::OK();
    case TypeId::kInt64:
      integer(PhysicalType::kInt64, 64, true, ConvertedType::kInt64);
      return Status::OK();
    case TypeId::kUInt8:
      integer(PhysicalType::kInt32, 8, false, ConvertedType::kUint8);
      return Status::OK();
    case TypeId::kUInt16:
      integer(PhysicalType::kInt32, 16, false, ConvertedType::kUint16);
      return Status::OK();
    case TypeId::kUInt32:
      integer(PhysicalType::kInt32, 32, false, ConvertedType::kUint32);
      return Status::OK();
    case TypeId::kUInt64:
      integer(PhysicalType::kInt64, 64, false, ConvertedType::kUint64);
      return Status::OK();
    case TypeId::kInt128:
    case TypeId::kUInt128:
      // DuckDB writes 128-bit integers as DOUBLE (lossy) and no min/max.
      set(PhysicalType::kDouble, SortOrder::kNone);
      return Status::OK();
    case TypeId::kFloat32:
      set(PhysicalType::kFloat, SortOrder::kSigned);
      return Status::OK();
    case TypeId::kFloat64:
      set(PhysicalType::kDouble, SortOrder::kSigned);
      return Status::OK();
    case TypeId::kDecimal: {
      if (type.precision < 1 || type.precision > 38 || type.scale > type.precision) {
        return Status::InvalidArgument("cannot write DECIMAL(", int(type.precision), ",",
                                       int(type.scale), "): precision must be 1..38 and scale "
                                       "at most the precision");
      }
      if (type.precision <= 9) {
        set(PhysicalType::kInt32, SortOrder::kSigned);
      } else if (type.precision <= 18) {
        set(PhysicalType::kInt64, SortOrder::kSigned);
      } else {
        set(PhysicalType::kFixedLenByteArray, SortOrder::kSignedDecimal);
        element->type_length = 16;
        leaf->type_length = 16;
      }
      LogicalType logical = SimpleLogical(LogicalType::Kind::kDecimal);
      logical.decimal_precision = type.precision;
      logical.decimal_scale = type.scale;
      element->logical_type = logical;
      element->converted_type = ConvertedType::kDecimal;
      element->precision = type.precision;
      element->scale = type.scale;
      return Status::OK();
    }
    case TypeId::kDate:
      set(PhysicalType::kInt32, SortOrder::kSigned);
      element->logical_type = SimpleLogical(LogicalType::Kind::kDate);
      element->converted_type = ConvertedType::kDate;
      return Status::OK();
    case TypeId::kTime:
    case TypeId::kTimeTz:
      set(PhysicalType::kInt64, SortOrder::kSigned);
      element->logical_type = TimeLogical(LogicalType::Kind::kTime, TimeUnit::kMicros,
                                          type.id == TypeId::kTimeTz);
      element->converted_type = ConvertedType::kTimeMicros;
      return Status::OK();
    case TypeId::kTimeNs:
      set(PhysicalType::kInt64, SortOrder::kSigned);
      element->logical_type = TimeLogical(LogicalType::Kind::kTime, TimeUnit::kNanos, false);
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampS:
    case TypeId::kTimestampTz:
      set(PhysicalType::kInt64, SortOrder::kSigned);
      element->logical_type = TimeLogical(LogicalType::Kind::kTimestamp, TimeUnit::kMicros,
                                          type.id == TypeId::kTimestampTz);
      element->converted_type = ConvertedType::kTimestampMicros;
      return Status::OK();
    case TypeId::kTimestampMs:
      set(PhysicalType::kInt64, SortOrder::kSigned);
      element->logical_type = TimeLogical(LogicalType::Kind::kTimestamp, TimeUnit::kMillis, false);
      element->converted_type = ConvertedType::kTimestampMillis;
      return Status::OK();
    case TypeId::kTimestampNs:
      set(PhysicalType::kInt64, SortOrder::kSigned);
      element->logical_type = TimeLogical(LogicalType::Kind::kTimestamp, TimeUnit::kNanos, false);
      return Status::OK();
    case TypeId::kInterval:
      set(PhysicalType::kFixedLenByteArray, SortOrder::kNone);
      element->type_length = 12;
      leaf->type_length = 12;
      element->converted_type = ConvertedType::kInterval;
      return Status::OK();
    case TypeId::kVarchar:
      set(PhysicalType::kByteArray, SortOrder::kBytes);
      element->logical_type = SimpleLogical(LogicalType::Kind::kString);
      element->converted_type = ConvertedType::kUtf8;
      return Status::OK();
    case TypeId::kJson:
      set(PhysicalType::kByteArray, SortOrder::kBytes);
      element->logical_type = SimpleLogical(LogicalType::Kind::kJson);
      element->converted_type = ConvertedType::kJson;
      return Status::OK();
    case TypeId::kBlob:
      set(PhysicalType::kByteArray, SortOrder::kBytes);
      return Status::OK();
    case TypeId::kGeometry:
      // Parquet's GEOMETRY logical type (no CRS: OGC:CRS84), as DuckDB writes it without
      // GeoParquet metadata; DuckDB and the DuckLake extension read the column as GEOMETRY.
      set(PhysicalType::kByteArray, SortOrder::kNone);
      element->logical_type = SimpleLogical(LogicalType::Kind::kGeometry);
      return Status::OK();
    case TypeId::kUuid:
      set(PhysicalType::kFixedLenByteArray, SortOrder::kBytes);
      element->type_length = 16;
      leaf->type_length = 16;
      element->logical_type = SimpleLogical(LogicalType::Kind::kUuid);
      return Status::OK();
    default:
      return Status::NotSupported("cannot write a column of type ", type.ToString(),
                                  " to Parquet");
  }
}

class SchemaLayout {
 public:
  explicit SchemaLayout(WriterSchema* out) : out_(out) {}

  // Appends `field` (named `name`, with repetition decided by `nullable`) and its subtree.
  // `steps` leads from the top-level column to this field's parent; def/rep are the parent's
  // maximum levels.
  Status AddField(const Field& field, const std::string& name, bool nullable,
                  std::optional<int32_t> field_id, std::vector<ShredStep> steps,
                  std::vector<std::string> path, int16_t def, int16_t rep, int top_level) {
    SchemaElement element;
    element.name = name;
    element.repetition_type = nullable ? Repetition::kOptional : Repetition::kRequired;
    element.field_id = field_id;
    path.push_back(name);
    if (nullable) ++def;
    const DataType& type = field.type;
    if (type.id == TypeId::kVariant) {
      // Parquet's VARIANT: a group of the metadata and value binaries (unshredded), written
      // from the struct column VariantColumnToParquet makes of the values.
      LogicalType logical = SimpleLogical(LogicalType::Kind::kVariant);
      logical.variant_specification_version = 1;
      element.logical_type = logical;
      Field as_struct(field.name, VariantParquetStructType(), field.nullable, field.field_id);
      element.num_children = 2;
      out_->elements.push_back(std::move(element));
      for (int child_idx = 0; child_idx < 2; ++child_idx) {
        const Field& child = as_struct.type.children[static_cast<size_t>(child_idx)];
        std::vector<ShredStep> child_steps = steps;
        ShredStep step;
        step.kind = ShredStep::Kind::kStruct;
        step.nullable = nullable;
        step.child_index = child_idx;
        child_steps.push_back(step);
        TARN_RETURN_NOT_OK(AddField(child, child.name, false, std::nullopt, std::move(child_steps),
                                    path, def, rep, top_level));
      }
      return Status::OK();
    }
    if (type.id == TypeId::kStruct) {
      if (type.children.empty()) {
        return Status::NotSupported("cannot write STRUCT column '", name,
                                    "' without fields to Parquet");
      }
      element.num_children = static_cast<int32_t>(type.children.size());
      out_->elements.push_back(std::move(element));
      for (size_t child_idx = 0; child_idx < type.children.size(); ++child_idx) {
        const Field& child = type.children[child_idx];
        std::vector<ShredStep> child_steps = steps;
        ShredStep step;
        step.kind = ShredStep::Kind::kStruct;
        step.nullable = nullable;
        step.child_index = static_cast<int>(child_idx);
        child_steps.push_back(step);
        TARN_RETURN_NOT_OK(AddField(child, child.name, child.nullable, child.field_id,
                                    std::move(child_steps), path, def, rep, top_level));
      }
      return Status::OK();
    }
    if (type.id == TypeId::kList || type.id == TypeId::kMap) {
      if (type.children.size() != 1) {
        return Status::InvalidArgument("column '", name, "': ", type.ToString(),
                                       " must have exactly one child field");
      }
      bool is_map = type.id == TypeId::kMap;
      element.num_children = 1;
      element.converted_type = is_map ? ConvertedType::kMap : ConvertedType::kList;
      element.logical_type =
          SimpleLogical(is_map ? LogicalType::Kind::kMap : LogicalType::Kind::kList);
      out_->elements.push_back(std::move(element));
      ShredStep step;
      step.kind = ShredStep::Kind::kRepeated;
      step.nullable = nullable;
      step.rep_level = static_cast<int16_t>(rep + 1);
      steps.push_back(step);
      const Field& child = type.children[0];
      SchemaElement repeated;
      repeated.name = is_map ? "key_value" : "list";
      repeated.repetition_type = Repetition::kRepeated;
      path.push_back(repeated.name);
      if (!is_map) {
        repeated.num_children = 1;
        out_->elements.push_back(std::move(repeated));
        return AddField(child, "element", child.nullable, child.field_id, std::move(steps),
                        std::move(path), static_cast<int16_t>(def + 1),
                        static_cast<int16_t>(rep + 1), top_level);
      }
      const DataType& entry = child.type;
      if (entry.id != TypeId::kStruct || entry.children.size() != 2) {
        return Status::InvalidArgument("map column '", name,
                                       "': entries must be a struct of key and value");
      }
      repeated.num_children = 2;
      out_->elements.push_back(std::move(repeated));
      static const char* kEntryNames[2] = {"key", "value"};
      for (int child_idx = 0; child_idx < 2; ++child_idx) {
        const Field& entry_field = entry.children[child_idx];
        std::vector<ShredStep> child_steps = steps;
        ShredStep entry_step;
        entry_step.kind = ShredStep::Kind::kStruct;
        entry_step.nullable = false;  // map entries are never NULL
        entry_step.child_index = child_idx;
        child_steps.push_back(entry_step);
        bool entry_nullable = child_idx == 0 ? false : entry_field.nullable;
        TARN_RETURN_NOT_OK(AddField(entry_field, kEntryNames[child_idx], entry_nullable,
                                    entry_field.field_id, std::move(child_steps), path,
                                    static_cast<int16_t>(def + 1), static_cast<int16_t>(rep + 1),
                                    top_level));
      }
      return Status::OK();
    }
    WriterLeaf leaf;
    leaf.path = std::move(path);
    leaf.top_level_column = top_level;
    leaf.field_id = field_id.value_or(-1);
    leaf.type = type;
    leaf.max_def = def;
    leaf.max_rep = rep;
    TARN_RETURN_NOT_OK(AnnotateLeaf(type, &element, &leaf).WithContext(name));
    ShredStep step;
    step.kind = ShredStep::Kind::kLeaf;
    step.nullable = nullable;
    steps.push_back(step);
    leaf.steps = std::move(steps);
    out_->elements.push_back(std::move(element));
    out_->leaves.push_back(std::move(leaf));
    return Status::OK();
  }

 private:
  WriterSchema* out_;
};

}  // namespace

DataType VariantParquetStructType() {
  return DataType::Struct({Field("metadata", DataType(TypeId::kBlob), false),
                           Field("value", DataType(TypeId::kBlob), false)});
}

Result<std::shared_ptr<Column>> VariantColumnToParquet(const Column& column) {
  if (column.type.id == TypeId::kVariant) {
    ColumnBuilder metadata_builder{DataType(TypeId::kBlob)};
    ColumnBuilder value_builder{DataType(TypeId::kBlob)};
    ColumnBuilder validity{DataType(TypeId::kBoolean)};
    std::string metadata, value;
    for (int64_t row = 0; row < column.length; ++row) {
      if (column.IsNull(row)) {
        metadata_builder.AppendBytes("");  // under a NULL group: never written
        value_builder.AppendBytes("");
        continue;
      }
      Result<variant::VariantNode> node = variant::Decode(column.GetView(row));
      if (!node.ok()) return node.status().WithContext("row " + std::to_string(row));
      TARN_RETURN_NOT_OK(variant::ToParquet(*node, &metadata, &value));
      metadata_builder.AppendBytes(metadata);
      value_builder.AppendBytes(value);
    }
    auto out = std::make_shared<Column>();
    out->type = VariantParquetStructType();
    out->length = column.length;
    out->null_count = column.null_count;
    out->validity = column.validity;
    out->children = {metadata_builder.Finish(), value_builder.Finish()};
    return out;
  }
  if (!column.type.IsNested()) return std::make_shared<Column>(column);
  auto out = std::make_shared<Column>(column);
  for (auto& child : out->children) {
    TARN_ASSIGN_OR_RETURN(child, VariantColumnToParquet(*child));
  }
  return out;
}

bool HoldsVariant(const DataType& type) {
  if (type.id == TypeId::kVariant) return true;
  for (const Field& child : type.children) {
    if (HoldsVariant(child.type)) return true;
  }
  return false;
}

Result<WriterSchema> BuildWriterSchema(const Schema& schema) {
  WriterSchema out;
  SchemaElement root;
  root.name = "duckdb_schema";
  root.repetition_type = Repetition::kRequired;
  root.num_children = schema.num_fields();
  out.elements.push_back(std::move(root));
  SchemaLayout layout(&out);
  for (int field_idx = 0; field_idx < schema.num_fields(); ++field_idx) {
    const Field& field = schema.field(field_idx);
    TARN_RETURN_NOT_OK(layout.AddField(field, field.name, field.nullable, field.field_id, {}, {},
                                       0, 0, field_idx));
  }
  if (out.leaves.empty()) {
    return Status::InvalidArgument("cannot write a Parquet file without columns");
  }
  return out;
}

}  // namespace tarn::parquet
