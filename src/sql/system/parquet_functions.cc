#include "sql/system/parquet_functions.h"

#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "parquet/statistics.h"
#include "sql/lake/rows_source.h"
#include "tarn/format.h"
#include "tarn/parquet.h"

namespace tarn::sql {
namespace {

using parquet::FileMetaData;

const DataType kVarchar(TypeId::kVarchar);
const DataType kBigint(TypeId::kInt64);
const DataType kUBigint(TypeId::kUInt64);
const DataType kBoolean(TypeId::kBoolean);
const DataType kBlob(TypeId::kBlob);
const DataType kDouble(TypeId::kFloat64);

Value Text(std::string_view text) { return Value::Varchar(std::string(text)); }

template <typename T>
Value Number(const std::optional<T>& value) {
  return value ? Value::Int64(static_cast<int64_t>(*value)) : Value::Null(kBigint);
}

Value OptionalText(const std::optional<std::string>& text) {
  return text ? Value::Varchar(*text) : Value::Null(kVarchar);
}

// A statistics value as DuckDB's text of the leaf's value.
Value StatisticsText(const parquet::LeafDescriptor* leaf, const std::optional<std::string>& bytes) {
  if (leaf == nullptr || !bytes) return Value::Null(kVarchar);
  std::optional<Value> value = parquet::DecodeStatisticsValue(*leaf, *bytes);
  if (!value) return Value::Null(kVarchar);
  return Value::Varchar(FormatValue(*value));
}

std::string_view RepetitionName(parquet::Repetition repetition) {
  switch (repetition) {
    case parquet::Repetition::kRequired: return "REQUIRED";
    case parquet::Repetition::kOptional: return "OPTIONAL";
    case parquet::Repetition::kRepeated: return "REPEATED";
  }
  return "?";
}

std::string TimeUnitText(parquet::TimeUnit unit) {
  switch (unit) {
    case parquet::TimeUnit::kMillis:
      return "TimeUnit(MILLIS=MilliSeconds(), MICROS=<null>, NANOS=<null>)";
    case parquet::TimeUnit::kMicros:
      return "TimeUnit(MILLIS=<null>, MICROS=MicroSeconds(), NANOS=<null>)";
    case parquet::TimeUnit::kNanos:
      return "TimeUnit(MILLIS=<null>, MICROS=<null>, NANOS=NanoSeconds())";
  }
  return "TimeUnit()";
}

// The logical type as the Thrift library prints it (DuckDB's logical_type column).
Value LogicalTypeText(const std::optional<parquet::LogicalType>& type) {
  if (!type) return Value::Null(kVarchar);
  using Kind = parquet::LogicalType::Kind;
  const parquet::LogicalType& lt = *type;
  switch (lt.kind) {
    case Kind::kNone: return Value::Null(kVarchar);
    case Kind::kString: return Text("StringType()");
    case Kind::kMap: return Text("MapType()");
    case Kind::kList: return Text("ListType()");
    case Kind::kEnum: return Text("EnumType()");
    case Kind::kDecimal:
      return Text(StrCat("DecimalType(scale=", lt.decimal_scale,
                         ", precision=", lt.decimal_precision, ")"));
    case Kind::kDate: return Text("DateType()");
    case Kind::kTime:
      return Text(StrCat("TimeType(isAdjustedToUTC=", lt.is_adjusted_to_utc ? 1 : 0,
                         ", unit=", TimeUnitText(lt.unit), ")"));
    case Kind::kTimestamp:
      return Text(StrCat("TimestampType(isAdjustedToUTC=", lt.is_adjusted_to_utc ? 1 : 0,
                         ", unit=", TimeUnitText(lt.unit), ")"));
    case Kind::kInteger:
      // The Thrift printer writes the 8-bit width as a character ('@' for 64), as DuckDB shows.
      return Text(StrCat("IntType(bitWidth=", std::string(1, static_cast<char>(lt.bit_width)),
                         ", isSigned=", lt.is_signed ? 1 : 0, ")"));
    case Kind::kUnknown: return Text("NullType()");
    case Kind::kJson: return Text("JsonType()");
    case Kind::kBson: return Text("BsonType()");
    case Kind::kUuid: return Text("UUIDType()");
    case Kind::kFloat16: return Text("Float16Type()");
    case Kind::kVariant: return Text("VariantType()");
    case Kind::kGeometry: return Text("GeometryType()");
    case Kind::kGeography: return Text("GeographyType()");
  }
  return Value::Null(kVarchar);
}

struct OpenedFile {
  std::unique_ptr<ParquetReader> reader;
  parquet::FileSchema schema;
};

Result<OpenedFile> OpenFooter(const std::string& path, const std::shared_ptr<FileSystem>& fs) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(fs, path));
  TARN_ASSIGN_OR_RETURN(parquet::FileSchema schema,
                        parquet::FileSchema::Make(reader->metadata().schema));
  return OpenedFile{std::move(reader), std::move(schema)};
}

Status AddMetadataRows(const std::string& file, const OpenedFile& opened, RowsBuilder* rows) {
  const FileMetaData& md = opened.reader->metadata();
  const auto& leaves = opened.schema.leaves();
  const DataType map_type = DataType::Map(kBlob, kBlob);
  const DataType entry_type = DataType::Struct({Field("key", kBlob), Field("value", kBlob)});
  const DataType bbox_type = DataType::Struct(
      {Field("xmin", kDouble), Field("xmax", kDouble), Field("ymin", kDouble),
       Field("ymax", kDouble), Field("zmin", kDouble), Field("zmax", kDouble),
       Field("mmin", kDouble), Field("mmax", kDouble)});
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const parquet::RowGroup& group = md.row_groups[g];
    for (size_t c = 0; c < group.columns.size(); ++c) {
      const parquet::ColumnChunk& chunk = group.columns[c];
      if (!chunk.meta_data) continue;
      const parquet::ColumnMetaData& meta = *chunk.meta_data;
      const parquet::LeafDescriptor* leaf = c < leaves.size() ? &leaves[c] : nullptr;
      const parquet::Statistics* stats = meta.statistics ? &*meta.statistics : nullptr;
      std::string path, encodings;
      for (size_t i = 0; i < meta.path_in_schema.size(); ++i) {
        path += (i ? ", " : "") + meta.path_in_schema[i];
      }
      for (size_t i = 0; i < meta.encodings.size(); ++i) {
        encodings += (i ? ", " : "") + std::string(parquet::EncodingName(meta.encodings[i]));
      }
      std::vector<Value> pairs;
      for (const parquet::KeyValue& kv : meta.key_value_metadata) {
        pairs.push_back(Value::Nested(entry_type, {Value::Bytes(kBlob, kv.key),
                                                   kv.value ? Value::Bytes(kBlob, *kv.value)
                                                            : Value::Null(kBlob)}));
      }
      auto exact = [](const std::optional<bool>& b) {
        return b ? Value::Boolean(*b) : Value::Null(kBoolean);
      };
      std::optional<std::string> none;
      TARN_RETURN_NOT_OK(rows->Add({
          Text(file),
          Value::Int64(static_cast<int64_t>(g)),
          Value::Int64(group.num_rows),
          Value::Int64(static_cast<int64_t>(group.columns.size())),
          Value::Int64(group.total_byte_size),
          Value::Int64(static_cast<int64_t>(c)),
          Value::Int64(chunk.file_offset),
          Value::Int64(meta.num_values),
          Text(path),
          Text(parquet::PhysicalTypeName(meta.type)),
          StatisticsText(leaf, stats ? stats->min : none),
          StatisticsText(leaf, stats ? stats->max : none),
          stats ? Number(stats->null_count) : Value::Null(kBigint),
          stats ? Number(stats->distinct_count) : Value::Null(kBigint),
          StatisticsText(leaf, stats ? stats->min_value : none),
          StatisticsText(leaf, stats ? stats->max_value : none),
          Text(parquet::CodecName(meta.codec)),
          Text(encodings),
          Number(meta.index_page_offset),
          Number(meta.dictionary_page_offset),
          Value::Int64(meta.data_page_offset),
          Value::Int64(meta.total_compressed_size),
          Value::Int64(meta.total_uncompressed_size),
          Value::Nested(map_type, std::move(pairs)),
          Number(meta.bloom_filter_offset),
          Number(meta.bloom_filter_length),
          stats ? exact(stats->is_min_value_exact) : Value::Null(kBoolean),
          stats ? exact(stats->is_max_value_exact) : Value::Null(kBoolean),
          Number(group.total_compressed_size),
          Value::Null(bbox_type),
          Value::Null(DataType::List(kVarchar)),
      }));
    }
  }
  return Status::OK();
}

Status AddSchemaRows(const std::string& file, const OpenedFile& opened, RowsBuilder* rows) {
  const FileMetaData& md = opened.reader->metadata();
  const auto& leaves = opened.schema.leaves();
  size_t leaf = 0;
  for (size_t i = 0; i < md.schema.size(); ++i) {
    const parquet::SchemaElement& element = md.schema[i];
    Value duckdb_type = Value::Null(kVarchar);
    if (element.type && i > 0) {
      if (leaf < leaves.size()) duckdb_type = Text(leaves[leaf].type.ToString());
      ++leaf;
    }
    TARN_RETURN_NOT_OK(rows->Add({
        Text(file),
        Text(element.name),
        element.type ? Text(parquet::PhysicalTypeName(*element.type)) : Value::Null(kVarchar),
        element.type_length ? Text(std::to_string(*element.type_length))
                            : Value::Null(kVarchar),
        element.repetition_type ? Text(RepetitionName(*element.repetition_type))
                                : Value::Null(kVarchar),
        Number(element.num_children),
        element.converted_type ? Text(parquet::ConvertedTypeName(*element.converted_type))
                               : Value::Null(kVarchar),
        Number(element.scale),
        Number(element.precision),
        Number(element.field_id),
        LogicalTypeText(element.logical_type),
        duckdb_type,
        Value::Int64(static_cast<int64_t>(i)),
    }));
  }
  return Status::OK();
}

Status AddFileRows(const std::string& file, const OpenedFile& opened, RowsBuilder* rows) {
  const FileMetaData& md = opened.reader->metadata();
  std::vector<Value> orders;
  for (const parquet::ColumnOrder& order : md.column_orders) {
    orders.push_back(Text(order.ieee754_total_order ? "IEEE_754_TOTAL_ORDER"
                          : order.type_defined_order ? "TYPE_DEFINED_ORDER"
                                                     : "UNKNOWN"));
  }
  TARN_RETURN_NOT_OK(rows->Add({
      Text(file),
      OptionalText(md.created_by),
      Value::Int64(md.num_rows),
      Value::Int64(static_cast<int64_t>(md.row_groups.size())),
      Value::Int64(md.version),
      Value::Null(kVarchar),
      OptionalText(md.footer_signing_key_metadata),
      Value::UInt(kUBigint, static_cast<uint64_t>(opened.reader->file_size())),
      Value::UInt(kUBigint, static_cast<uint64_t>(opened.reader->footer_size())),
      md.column_orders.empty() ? Value::Null(DataType::List(kVarchar))
                               : Value::Nested(DataType::List(kVarchar), std::move(orders)),
  }));
  return Status::OK();
}

Status AddKeyValueRows(const std::string& file, const OpenedFile& opened, RowsBuilder* rows) {
  for (const parquet::KeyValue& kv : opened.reader->metadata().key_value_metadata) {
    TARN_RETURN_NOT_OK(rows->Add({Text(file), Value::Bytes(kBlob, kv.key),
                                  kv.value ? Value::Bytes(kBlob, *kv.value)
                                           : Value::Null(kBlob)}));
  }
  return Status::OK();
}

std::vector<Field> FieldsOf(std::string_view name) {
  if (name == "parquet_metadata") {
    std::vector<Field> fields = {
        {"file_name", kVarchar}, {"row_group_id", kBigint}, {"row_group_num_rows", kBigint},
        {"row_group_num_columns", kBigint}, {"row_group_bytes", kBigint},
        {"column_id", kBigint}, {"file_offset", kBigint}, {"num_values", kBigint},
        {"path_in_schema", kVarchar}, {"type", kVarchar}, {"stats_min", kVarchar},
        {"stats_max", kVarchar}, {"stats_null_count", kBigint},
        {"stats_distinct_count", kBigint}, {"stats_min_value", kVarchar},
        {"stats_max_value", kVarchar}, {"compression", kVarchar}, {"encodings", kVarchar},
        {"index_page_offset", kBigint}, {"dictionary_page_offset", kBigint},
        {"data_page_offset", kBigint}, {"total_compressed_size", kBigint},
        {"total_uncompressed_size", kBigint},
        {"key_value_metadata", DataType::Map(kBlob, kBlob)}, {"bloom_filter_offset", kBigint},
        {"bloom_filter_length", kBigint}, {"min_is_exact", kBoolean},
        {"max_is_exact", kBoolean}, {"row_group_compressed_bytes", kBigint},
        {"geo_bbox", DataType::Struct({Field("xmin", kDouble), Field("xmax", kDouble),
                                       Field("ymin", kDouble), Field("ymax", kDouble),
                                       Field("zmin", kDouble), Field("zmax", kDouble),
                                       Field("mmin", kDouble), Field("mmax", kDouble)})},
        {"geo_types", DataType::List(kVarchar)},
    };
    return fields;
  }
  if (name == "parquet_schema") {
    return {{"file_name", kVarchar},     {"name", kVarchar},         {"type", kVarchar},
            {"type_length", kVarchar},   {"repetition_type", kVarchar},
            {"num_children", kBigint},   {"converted_type", kVarchar}, {"scale", kBigint},
            {"precision", kBigint},      {"field_id", kBigint},      {"logical_type", kVarchar},
            {"duckdb_type", kVarchar},   {"column_id", kBigint}};
  }
  if (name == "parquet_file_metadata") {
    return {{"file_name", kVarchar},
            {"created_by", kVarchar},
            {"num_rows", kBigint},
            {"num_row_groups", kBigint},
            {"format_version", kBigint},
            {"encryption_algorithm", kVarchar},
            {"footer_signing_key_metadata", kVarchar},
            {"file_size_bytes", kUBigint},
            {"footer_size", kUBigint},
            {"column_orders", DataType::List(kVarchar)}};
  }
  return {{"file_name", kVarchar}, {"key", kBlob}, {"value", kBlob}};
}

}  // namespace

bool IsParquetMetadataFunction(std::string_view lower_name) {
  return lower_name == "parquet_metadata" || lower_name == "parquet_schema" ||
         lower_name == "parquet_file_metadata" || lower_name == "parquet_kv_metadata";
}

Result<std::shared_ptr<Batch>> ParquetMetadataFunction(std::string_view lower_name,
                                                       const std::vector<std::string>& files,
                                                       std::shared_ptr<FileSystem> fs) {
  RowsBuilder rows(FieldsOf(lower_name));
  for (const std::string& file : files) {
    TARN_ASSIGN_OR_RETURN(OpenedFile opened, OpenFooter(file, fs));
    if (lower_name == "parquet_metadata") {
      TARN_RETURN_NOT_OK(AddMetadataRows(file, opened, &rows));
    } else if (lower_name == "parquet_schema") {
      TARN_RETURN_NOT_OK(AddSchemaRows(file, opened, &rows));
    } else if (lower_name == "parquet_file_metadata") {
      TARN_RETURN_NOT_OK(AddFileRows(file, opened, &rows));
    } else {
      TARN_RETURN_NOT_OK(AddKeyValueRows(file, opened, &rows));
    }
  }
  return rows.Finish();
}

}  // namespace tarn::sql
