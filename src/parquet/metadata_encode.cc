// Encoding of parquet.thrift structs in the compact protocol; field ids as in parquet.thrift.
// Optional lists are written only when non-empty; required lists always.

#include "parquet/metadata.h"
#include "parquet/thrift_compact.h"

namespace tarn::parquet {
namespace {

using thrift::CompactWriter;
using thrift::WireType;

template <typename E>
int32_t Raw(E value) {
  return static_cast<int32_t>(value);
}

void OptI32(CompactWriter& w, int16_t id, const std::optional<int32_t>& value) {
  if (value) w.FieldI32(id, *value);
}
void OptI64(CompactWriter& w, int16_t id, const std::optional<int64_t>& value) {
  if (value) w.FieldI64(id, *value);
}
void OptBinary(CompactWriter& w, int16_t id, const std::optional<std::string>& value) {
  if (value) w.FieldBinary(id, *value);
}
void OptBool(CompactWriter& w, int16_t id, const std::optional<bool>& value) {
  if (value) w.FieldBool(id, *value);
}

// A list field: header, then `write_element(element)` for each element.
template <typename T, typename WriteElement>
void ListField(CompactWriter& w, int16_t id, WireType element_type, const std::vector<T>& values,
               WriteElement&& write_element) {
  w.WriteFieldHeader(WireType::kList, id);
  w.WriteListHeader(element_type, static_cast<int64_t>(values.size()));
  for (const auto& value : values) write_element(value);
}

void I64ListField(CompactWriter& w, int16_t id, const std::vector<int64_t>& values) {
  ListField(w, id, WireType::kI64, values, [&](int64_t v) { w.WriteI64(v); });
}
void BinaryListField(CompactWriter& w, int16_t id, const std::vector<std::string>& values) {
  ListField(w, id, WireType::kBinary, values, [&](const std::string& v) { w.WriteBinary(v); });
}

void EncodeStatistics(CompactWriter& w, int16_t id, const Statistics& stats) {
  w.FieldStructBegin(id);
  OptBinary(w, 1, stats.max);
  OptBinary(w, 2, stats.min);
  OptI64(w, 3, stats.null_count);
  OptI64(w, 4, stats.distinct_count);
  OptBinary(w, 5, stats.max_value);
  OptBinary(w, 6, stats.min_value);
  OptBool(w, 7, stats.is_max_value_exact);
  OptBool(w, 8, stats.is_min_value_exact);
  OptI64(w, 9, stats.nan_count);
  w.EndStruct();
}

void EncodeKeyValues(CompactWriter& w, int16_t id, const std::vector<KeyValue>& values) {
  if (values.empty()) return;
  ListField(w, id, WireType::kStruct, values, [&](const KeyValue& kv) {
    w.BeginStruct();
    w.FieldBinary(1, kv.key);
    OptBinary(w, 2, kv.value);
    w.EndStruct();
  });
}

void EncodeTimeFields(CompactWriter& w, const LogicalType& type) {
  w.FieldBool(1, type.is_adjusted_to_utc);
  w.FieldStructBegin(2);                   // TimeUnit union
  w.FieldEmptyStruct(Raw(type.unit) + 1);  // MILLIS = 1, MICROS = 2, NANOS = 3
  w.EndStruct();
}

void EncodeLogicalType(CompactWriter& w, int16_t id, const LogicalType& type) {
  using Kind = LogicalType::Kind;
  w.FieldStructBegin(id);
  const auto member = static_cast<int16_t>(type.kind);  // Kind values are the union's ids
  w.FieldStructBegin(member);
  switch (type.kind) {
    case Kind::kDecimal:
      w.FieldI32(1, type.decimal_scale);
      w.FieldI32(2, type.decimal_precision);
      break;
    case Kind::kTime:
    case Kind::kTimestamp:
      EncodeTimeFields(w, type);
      break;
    case Kind::kInteger:
      w.FieldI8(1, type.bit_width);
      w.FieldBool(2, type.is_signed);
      break;
    case Kind::kVariant:
      if (type.variant_specification_version != 0) {
        w.FieldI8(1, static_cast<int8_t>(type.variant_specification_version));
      }
      break;
    case Kind::kGeometry:
      OptBinary(w, 1, type.crs);
      break;
    case Kind::kGeography:
      OptBinary(w, 1, type.crs);
      OptI32(w, 2, type.geography_algorithm);
      break;
    default:
      break;  // the other members are empty structs
  }
  w.EndStruct();
  w.EndStruct();
}

void EncodeSchemaElement(CompactWriter& w, const SchemaElement& element) {
  w.BeginStruct();
  if (element.type) w.FieldI32(1, Raw(*element.type));
  OptI32(w, 2, element.type_length);
  if (element.repetition_type) w.FieldI32(3, Raw(*element.repetition_type));
  w.FieldBinary(4, element.name);
  OptI32(w, 5, element.num_children);
  if (element.converted_type) w.FieldI32(6, Raw(*element.converted_type));
  OptI32(w, 7, element.scale);
  OptI32(w, 8, element.precision);
  OptI32(w, 9, element.field_id);
  if (element.logical_type && element.logical_type->kind != LogicalType::Kind::kNone) {
    EncodeLogicalType(w, 10, *element.logical_type);
  }
  w.EndStruct();
}

void EncodeColumnMetaData(CompactWriter& w, int16_t id, const ColumnMetaData& meta) {
  w.FieldStructBegin(id);
  w.FieldI32(1, Raw(meta.type));
  ListField(w, 2, WireType::kI32, meta.encodings, [&](Encoding e) { w.WriteI32(Raw(e)); });
  BinaryListField(w, 3, meta.path_in_schema);
  w.FieldI32(4, Raw(meta.codec));
  w.FieldI64(5, meta.num_values);
  w.FieldI64(6, meta.total_uncompressed_size);
  w.FieldI64(7, meta.total_compressed_size);
  EncodeKeyValues(w, 8, meta.key_value_metadata);
  w.FieldI64(9, meta.data_page_offset);
  OptI64(w, 10, meta.index_page_offset);
  OptI64(w, 11, meta.dictionary_page_offset);
  if (meta.statistics) EncodeStatistics(w, 12, *meta.statistics);
  if (!meta.encoding_stats.empty()) {
    ListField(w, 13, WireType::kStruct, meta.encoding_stats, [&](const PageEncodingStats& s) {
      w.BeginStruct();
      w.FieldI32(1, Raw(s.page_type));
      w.FieldI32(2, Raw(s.encoding));
      w.FieldI32(3, s.count);
      w.EndStruct();
    });
  }
  OptI64(w, 14, meta.bloom_filter_offset);
  OptI32(w, 15, meta.bloom_filter_length);
  if (meta.size_statistics) {
    const SizeStatistics& size = *meta.size_statistics;
    w.FieldStructBegin(16);
    OptI64(w, 1, size.unencoded_byte_array_data_bytes);
    if (!size.repetition_level_histogram.empty()) {
      I64ListField(w, 2, size.repetition_level_histogram);
    }
    if (!size.definition_level_histogram.empty()) {
      I64ListField(w, 3, size.definition_level_histogram);
    }
    w.EndStruct();
  }
  if (meta.geospatial_statistics) {
    const GeospatialStatistics& geo = *meta.geospatial_statistics;
    w.FieldStructBegin(17);
    if (geo.bbox) {
      const BoundingBox& box = *geo.bbox;
      w.FieldStructBegin(1);
      auto field = [&](int16_t field_id, double v) {
        w.WriteFieldHeader(WireType::kDouble, field_id);
        w.WriteDouble(v);
      };
      field(1, box.xmin);
      field(2, box.xmax);
      field(3, box.ymin);
      field(4, box.ymax);
      if (box.zmin) field(5, *box.zmin);
      if (box.zmax) field(6, *box.zmax);
      if (box.mmin) field(7, *box.mmin);
      if (box.mmax) field(8, *box.mmax);
      w.EndStruct();
    }
    ListField(w, 2, WireType::kI32, geo.geospatial_types, [&](int32_t v) { w.WriteI32(v); });
    w.EndStruct();
  }
  w.EndStruct();
}

void EncodeColumnChunk(CompactWriter& w, const ColumnChunk& chunk) {
  w.BeginStruct();
  OptBinary(w, 1, chunk.file_path);
  w.FieldI64(2, chunk.file_offset);
  if (chunk.meta_data) EncodeColumnMetaData(w, 3, *chunk.meta_data);
  OptI64(w, 4, chunk.offset_index_offset);
  OptI32(w, 5, chunk.offset_index_length);
  OptI64(w, 6, chunk.column_index_offset);
  OptI32(w, 7, chunk.column_index_length);
  if (chunk.has_crypto_metadata) {
    // tarn keeps no key material: the union says ENCRYPTION_WITH_FOOTER_KEY.
    w.FieldStructBegin(8);
    w.FieldEmptyStruct(1);
    w.EndStruct();
  }
  OptBinary(w, 9, chunk.encrypted_column_metadata);
  w.EndStruct();
}

void EncodeRowGroup(CompactWriter& w, const RowGroup& group) {
  w.BeginStruct();
  ListField(w, 1, WireType::kStruct, group.columns,
            [&](const ColumnChunk& c) { EncodeColumnChunk(w, c); });
  w.FieldI64(2, group.total_byte_size);
  w.FieldI64(3, group.num_rows);
  if (!group.sorting_columns.empty()) {
    ListField(w, 4, WireType::kStruct, group.sorting_columns, [&](const SortingColumn& s) {
      w.BeginStruct();
      w.FieldI32(1, s.column_idx);
      w.FieldBool(2, s.descending);
      w.FieldBool(3, s.nulls_first);
      w.EndStruct();
    });
  }
  OptI64(w, 5, group.file_offset);
  OptI64(w, 6, group.total_compressed_size);
  if (group.ordinal) w.FieldI16(7, *group.ordinal);
  w.EndStruct();
}

void EncodeDataPageHeaderV2(CompactWriter& w, const DataPageHeaderV2& v2) {
  w.FieldStructBegin(8);
  w.FieldI32(1, v2.num_values);
  w.FieldI32(2, v2.num_nulls);
  w.FieldI32(3, v2.num_rows);
  w.FieldI32(4, Raw(v2.encoding));
  w.FieldI32(5, v2.definition_levels_byte_length);
  w.FieldI32(6, v2.repetition_levels_byte_length);
  w.FieldBool(7, v2.is_compressed);
  if (v2.statistics) EncodeStatistics(w, 8, *v2.statistics);
  w.EndStruct();
}

}  // namespace

void EncodeFileMetaData(const FileMetaData& metadata, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, metadata.version);
  ListField(w, 2, WireType::kStruct, metadata.schema,
            [&](const SchemaElement& e) { EncodeSchemaElement(w, e); });
  w.FieldI64(3, metadata.num_rows);
  ListField(w, 4, WireType::kStruct, metadata.row_groups,
            [&](const RowGroup& g) { EncodeRowGroup(w, g); });
  EncodeKeyValues(w, 5, metadata.key_value_metadata);
  OptBinary(w, 6, metadata.created_by);
  if (!metadata.column_orders.empty()) {
    ListField(w, 7, WireType::kStruct, metadata.column_orders, [&](const ColumnOrder& order) {
      w.BeginStruct();
      if (order.type_defined_order) {
        w.FieldEmptyStruct(1);
      } else if (order.ieee754_total_order) {
        w.FieldEmptyStruct(2);
      }
      w.EndStruct();
    });
  }
  if (metadata.has_encryption_algorithm) {
    w.FieldStructBegin(8);  // EncryptionAlgorithm union: AES_GCM_V1 without parameters
    w.FieldEmptyStruct(1);
    w.EndStruct();
  }
  OptBinary(w, 9, metadata.footer_signing_key_metadata);
  w.EndStruct();
}

void EncodePageHeader(const PageHeader& header, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, Raw(header.type));
  w.FieldI32(2, header.uncompressed_page_size);
  w.FieldI32(3, header.compressed_page_size);
  OptI32(w, 4, header.crc);
  if (header.data_page_header) {
    const DataPageHeader& v1 = *header.data_page_header;
    w.FieldStructBegin(5);
    w.FieldI32(1, v1.num_values);
    w.FieldI32(2, Raw(v1.encoding));
    w.FieldI32(3, Raw(v1.definition_level_encoding));
    w.FieldI32(4, Raw(v1.repetition_level_encoding));
    if (v1.statistics) EncodeStatistics(w, 5, *v1.statistics);
    w.EndStruct();
  }
  if (header.dictionary_page_header) {
    const DictionaryPageHeader& dict = *header.dictionary_page_header;
    w.FieldStructBegin(7);
    w.FieldI32(1, dict.num_values);
    w.FieldI32(2, Raw(dict.encoding));
    OptBool(w, 3, dict.is_sorted);
    w.EndStruct();
  }
  if (header.data_page_header_v2) EncodeDataPageHeaderV2(w, *header.data_page_header_v2);
  w.EndStruct();
}

void EncodeColumnIndex(const ColumnIndex& index, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.WriteFieldHeader(WireType::kList, 1);
  w.WriteListHeader(WireType::kBoolTrue, static_cast<int64_t>(index.null_pages.size()));
  for (const bool null_page : index.null_pages) w.WriteBoolElement(null_page);
  BinaryListField(w, 2, index.min_values);
  BinaryListField(w, 3, index.max_values);
  w.FieldI32(4, Raw(index.boundary_order));
  if (!index.null_counts.empty()) I64ListField(w, 5, index.null_counts);
  if (!index.repetition_level_histograms.empty()) {
    I64ListField(w, 6, index.repetition_level_histograms);
  }
  if (!index.definition_level_histograms.empty()) {
    I64ListField(w, 7, index.definition_level_histograms);
  }
  if (!index.nan_counts.empty()) I64ListField(w, 8, index.nan_counts);
  w.EndStruct();
}

void EncodeOffsetIndex(const OffsetIndex& index, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  ListField(w, 1, WireType::kStruct, index.page_locations, [&](const PageLocation& location) {
    w.BeginStruct();
    w.FieldI64(1, location.offset);
    w.FieldI32(2, location.compressed_page_size);
    w.FieldI64(3, location.first_row_index);
    w.EndStruct();
  });
  if (!index.unencoded_byte_array_data_bytes.empty()) {
    I64ListField(w, 2, index.unencoded_byte_array_data_bytes);
  }
  w.EndStruct();
}

void EncodeFileCryptoMetaData(const FileCryptoMetaData& crypto, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.FieldStructBegin(1);
  w.FieldEmptyStruct(static_cast<int16_t>(crypto.encryption_algorithm));
  w.EndStruct();
  OptBinary(w, 2, crypto.key_metadata);
  w.EndStruct();
}

}  // namespace tarn::parquet
