// `tarn parquet meta FILE [--format table|json]`: everything the footer says.
//
// The JSON form is one object per column chunk with the column names of DuckDB's
// parquet_metadata() table function, so the two can be compared field by field.
#include <cstdio>
#include <optional>
#include <string>

#include "commands.h"
#include "format/json_text.h"
#include "output.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "parquet/statistics.h"
#include "tarn/format.h"
#include "tarn/parquet.h"

namespace tarn::cli {
namespace {

using format::AppendJsonString;
using parquet::ColumnChunk;
using parquet::FileMetaData;
using parquet::LeafDescriptor;

std::optional<std::string> StatText(const LeafDescriptor& leaf,
                                    const std::optional<std::string>& bytes) {
  if (!bytes) return std::nullopt;
  std::optional<Value> value = parquet::DecodeStatisticsValue(leaf, *bytes);
  if (!value) return std::nullopt;
  return FormatValue(*value);
}

void AppendJsonField(std::string* out, const char* name, const std::optional<std::string>& text,
                     bool first = false) {
  if (!first) out->push_back(',');
  AppendJsonString(name, out);
  out->push_back(':');
  if (text) {
    AppendJsonString(*text, out);
  } else {
    out->append("null");
  }
}

void AppendJsonNumber(std::string* out, const char* name, std::optional<int64_t> number) {
  out->push_back(',');
  AppendJsonString(name, out);
  out->push_back(':');
  out->append(number ? std::to_string(*number) : "null");
}

std::optional<int64_t> Opt32(const std::optional<int32_t>& v) {
  if (!v) return std::nullopt;
  return *v;
}

std::string EncodingList(const parquet::ColumnMetaData& meta) {
  std::string out;
  for (size_t i = 0; i < meta.encodings.size(); ++i) {
    if (i > 0) out += ", ";
    out += parquet::EncodingName(meta.encodings[i]);
  }
  return out;
}

std::string PathString(const std::vector<std::string>& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += '.';
    out += path[i];
  }
  return out;
}

void AppendChunkJson(const std::string& file, const FileMetaData& md, int rg_index, int col_index,
                     const LeafDescriptor& leaf, std::string* out) {
  const parquet::RowGroup& rg = md.row_groups[rg_index];
  const ColumnChunk& chunk = rg.columns[col_index];
  const parquet::ColumnMetaData& meta = *chunk.meta_data;
  int64_t rg_compressed = 0;
  for (const ColumnChunk& c : rg.columns) {
    if (c.meta_data) rg_compressed += c.meta_data->total_compressed_size;
  }
  out->push_back('{');
  AppendJsonField(out, "file_name", file, /*first=*/true);
  AppendJsonNumber(out, "row_group_id", rg_index);
  AppendJsonNumber(out, "row_group_num_rows", rg.num_rows);
  AppendJsonNumber(out, "row_group_num_columns", static_cast<int64_t>(rg.columns.size()));
  AppendJsonNumber(out, "row_group_bytes", rg.total_byte_size);
  AppendJsonNumber(out, "column_id", col_index);
  AppendJsonNumber(out, "file_offset", chunk.file_offset);
  AppendJsonNumber(out, "num_values", meta.num_values);
  AppendJsonField(out, "path_in_schema", PathString(meta.path_in_schema));
  AppendJsonField(out, "type", std::string(parquet::PhysicalTypeName(meta.type)));
  const parquet::Statistics* stats = meta.statistics ? &*meta.statistics : nullptr;
  AppendJsonField(out, "stats_min", stats ? StatText(leaf, stats->min) : std::nullopt);
  AppendJsonField(out, "stats_max", stats ? StatText(leaf, stats->max) : std::nullopt);
  AppendJsonNumber(out, "stats_null_count", stats ? stats->null_count : std::nullopt);
  AppendJsonNumber(out, "stats_distinct_count", stats ? stats->distinct_count : std::nullopt);
  AppendJsonField(out, "stats_min_value", stats ? StatText(leaf, stats->min_value) : std::nullopt);
  AppendJsonField(out, "stats_max_value", stats ? StatText(leaf, stats->max_value) : std::nullopt);
  AppendJsonField(out, "compression", std::string(parquet::CodecName(meta.codec)));
  AppendJsonField(out, "encodings", EncodingList(meta));
  AppendJsonNumber(out, "index_page_offset", meta.index_page_offset);
  AppendJsonNumber(out, "dictionary_page_offset", meta.dictionary_page_offset);
  AppendJsonNumber(out, "data_page_offset", meta.data_page_offset);
  AppendJsonNumber(out, "total_compressed_size", meta.total_compressed_size);
  AppendJsonNumber(out, "total_uncompressed_size", meta.total_uncompressed_size);
  out->append(",\"key_value_metadata\":{");
  for (size_t i = 0; i < meta.key_value_metadata.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendJsonString(meta.key_value_metadata[i].key, out);
    out->push_back(':');
    if (meta.key_value_metadata[i].value) {
      AppendJsonString(*meta.key_value_metadata[i].value, out);
    } else {
      out->append("null");
    }
  }
  out->push_back('}');
  AppendJsonNumber(out, "bloom_filter_offset", meta.bloom_filter_offset);
  AppendJsonNumber(out, "bloom_filter_length", Opt32(meta.bloom_filter_length));
  auto exact = [](const std::optional<bool>& b) -> std::optional<std::string> {
    if (!b) return std::nullopt;
    return *b ? "true" : "false";
  };
  out->append(",\"min_is_exact\":");
  out->append(stats && stats->is_min_value_exact ? *exact(stats->is_min_value_exact) : "null");
  out->append(",\"max_is_exact\":");
  out->append(stats && stats->is_max_value_exact ? *exact(stats->is_max_value_exact) : "null");
  AppendJsonNumber(out, "row_group_compressed_bytes", rg_compressed);
  out->append("}\n");
}

std::string LogicalTypeText(const parquet::SchemaElement& element) {
  std::string text;
  if (element.logical_type && element.logical_type->kind != parquet::LogicalType::Kind::kNone) {
    const parquet::LogicalType& lt = *element.logical_type;
    using Kind = parquet::LogicalType::Kind;
    auto unit = [&] {
      return lt.unit == parquet::TimeUnit::kMillis   ? "MILLIS"
             : lt.unit == parquet::TimeUnit::kMicros ? "MICROS"
                                                     : "NANOS";
    };
    switch (lt.kind) {
      case Kind::kString: text = "STRING"; break;
      case Kind::kMap: text = "MAP"; break;
      case Kind::kList: text = "LIST"; break;
      case Kind::kEnum: text = "ENUM"; break;
      case Kind::kDecimal:
        text = StrCat("DECIMAL(", lt.decimal_precision, ",", lt.decimal_scale, ")");
        break;
      case Kind::kDate: text = "DATE"; break;
      case Kind::kTime:
        text = StrCat("TIME(", unit(), lt.is_adjusted_to_utc ? ", UTC)" : ")");
        break;
      case Kind::kTimestamp:
        text = StrCat("TIMESTAMP(", unit(), lt.is_adjusted_to_utc ? ", UTC)" : ")");
        break;
      case Kind::kInteger:
        text = StrCat(lt.is_signed ? "INT(" : "UINT(", static_cast<int>(lt.bit_width), ")");
        break;
      case Kind::kUnknown: text = "UNKNOWN"; break;
      case Kind::kJson: text = "JSON"; break;
      case Kind::kBson: text = "BSON"; break;
      case Kind::kUuid: text = "UUID"; break;
      case Kind::kFloat16: text = "FLOAT16"; break;
      case Kind::kVariant: text = "VARIANT"; break;
      case Kind::kGeometry: text = "GEOMETRY"; break;
      case Kind::kGeography: text = "GEOGRAPHY"; break;
      case Kind::kNone: break;
    }
  }
  if (element.converted_type) {
    if (!text.empty()) text += " ";
    text += StrCat("(", parquet::ConvertedTypeName(*element.converted_type), ")");
  }
  return text;
}

// Prints the flattened schema as an indented tree.
void PrintSchema(const FileMetaData& md, std::string* out) {
  struct Frame {
    int remaining;
  };
  std::vector<Frame> stack;
  for (size_t i = 0; i < md.schema.size(); ++i) {
    const parquet::SchemaElement& element = md.schema[i];
    std::string indent(2 * stack.size(), ' ');
    std::string line = indent;
    if (i > 0) {
      const char* repetition = "";
      if (element.repetition_type) {
        switch (*element.repetition_type) {
          case parquet::Repetition::kRequired: repetition = "required "; break;
          case parquet::Repetition::kOptional: repetition = "optional "; break;
          case parquet::Repetition::kRepeated: repetition = "repeated "; break;
        }
      }
      line += repetition;
    }
    if (element.type) {
      line += std::string(parquet::PhysicalTypeName(*element.type));
      if (element.type_length) line += StrCat("(", *element.type_length, ")");
      line += " ";
    } else {
      line += "group ";
    }
    line += element.name;
    std::string logical = LogicalTypeText(element);
    if (!logical.empty()) line += " " + logical;
    if (element.field_id) line += StrCat(" [field_id=", *element.field_id, "]");
    *out += line + "\n";
    if (!stack.empty()) stack.back().remaining--;
    if (element.num_children && *element.num_children > 0) {
      stack.push_back({*element.num_children});
    }
    while (!stack.empty() && stack.back().remaining <= 0) stack.pop_back();
  }
}

void AppendTable(const ParquetReader& reader, const parquet::FileSchema& file_schema,
                 std::string* out) {
  const FileMetaData& md = reader.metadata();
  *out += StrCat("file: ", reader.path(), "\n");
  *out += StrCat("created_by: ", md.created_by.value_or("(none)"), "\n");
  *out += StrCat("version: ", md.version, "  rows: ", md.num_rows,
                 "  row groups: ", md.row_groups.size(),
                 "  columns: ", file_schema.leaves().size(), "  file size: ", reader.file_size(),
                 " bytes  footer: ", reader.footer_size(), " bytes\n");
  for (const parquet::KeyValue& kv : md.key_value_metadata) {
    std::string value = kv.value.value_or("");
    if (value.size() > 200) value = value.substr(0, 200) + "…";
    *out += StrCat("metadata: ", kv.key, " = ", value, "\n");
  }
  *out += "schema:\n";
  PrintSchema(md, out);
  for (size_t rg = 0; rg < md.row_groups.size(); ++rg) {
    const parquet::RowGroup& group = md.row_groups[rg];
    int64_t compressed = 0;
    for (const ColumnChunk& c : group.columns) {
      if (c.meta_data) compressed += c.meta_data->total_compressed_size;
    }
    *out += StrCat("row group ", rg, ": ", group.num_rows, " rows, first row ",
                   reader.row_group_first_row(static_cast<int>(rg)), ", ", group.total_byte_size,
                   " bytes uncompressed, ", compressed, " bytes compressed\n");
    for (size_t c = 0; c < group.columns.size(); ++c) {
      const ColumnChunk& chunk = group.columns[c];
      if (!chunk.meta_data) {
        *out += StrCat("  column ", c, ": (no metadata)\n");
        continue;
      }
      const parquet::ColumnMetaData& meta = *chunk.meta_data;
      *out += StrCat("  ", PathString(meta.path_in_schema), ": ",
                     parquet::PhysicalTypeName(meta.type), " ", parquet::CodecName(meta.codec),
                     " [", EncodingList(meta), "] values=", meta.num_values,
                     " compressed=", meta.total_compressed_size,
                     " uncompressed=", meta.total_uncompressed_size,
                     " data_page_offset=", meta.data_page_offset);
      if (meta.dictionary_page_offset) {
        *out += StrCat(" dictionary_page_offset=", *meta.dictionary_page_offset);
      }
      if (meta.statistics && c < file_schema.leaves().size()) {
        const LeafDescriptor& leaf = file_schema.leaves()[c];
        const parquet::Statistics& s = *meta.statistics;
        if (s.null_count) *out += StrCat(" nulls=", *s.null_count);
        auto min = StatText(leaf, s.min_value ? s.min_value : s.min);
        auto max = StatText(leaf, s.max_value ? s.max_value : s.max);
        if (min) *out += " min=" + *min;
        if (max) *out += " max=" + *max;
      }
      *out += "\n";
    }
  }
}

}  // namespace

int RunParquetMeta(const ParquetMetaArgs& args) {
  auto reader = ParquetReader::Open(LocalFileSystem(), args.file);
  if (!reader.ok()) return ReportError(reader.status().message());
  const FileMetaData& md = (*reader)->metadata();
  auto file_schema = parquet::FileSchema::Make(md.schema);
  if (!file_schema.ok()) {
    return ReportError(StrCat(args.file, ": ", file_schema.status().message()));
  }
  std::string out;
  if (args.format == "json") {
    for (size_t rg = 0; rg < md.row_groups.size(); ++rg) {
      for (size_t c = 0; c < md.row_groups[rg].columns.size(); ++c) {
        if (!md.row_groups[rg].columns[c].meta_data || c >= file_schema->leaves().size()) continue;
        AppendChunkJson(args.file, md, static_cast<int>(rg), static_cast<int>(c),
                        file_schema->leaves()[c], &out);
      }
    }
  } else {
    AppendTable(**reader, *file_schema, &out);
  }
  StdoutSink sink;
  Status status = sink.Append(out);
  (void)status;  // a closed pipe simply ends the output
  return 0;
}

}  // namespace tarn::cli
