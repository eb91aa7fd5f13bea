// Decoding of the footer's parquet.thrift structs (FileMetaData and everything under it) from
// the compact protocol; see metadata.h for the contract.

#include "parquet/metadata_decode_fields.h"

namespace tarn::parquet::decode {
namespace {

// ---- logical types --------------------------------------------------------------------------

// TimeUnit union; `known` is false for a member tarn does not know.
bool DecodeTimeUnit(CompactReader& r, TimeUnit* unit, bool* known) {
  *known = false;
  return DecodeStruct(r, "TimeUnit", [&](const FieldHeader& f) {
    if (f.id >= 1 && f.id <= 3 && f.type == WireType::kStruct) {
      *unit = static_cast<TimeUnit>(f.id - 1);
      *known = true;
    }
    return SkipUnknown(r, "TimeUnit", f);
  });
}

// TimeType and TimestampType share their fields.
bool DecodeTimeType(CompactReader& r, const char* name, LogicalType* out, bool* known) {
  *known = true;
  return DecodeStruct(r, name, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return Read(r, f, &out->is_adjusted_to_utc) || r.Annotate(name, "isAdjustedToUTC");
      case 2:
        if (f.type != WireType::kStruct) {
          *known = false;
          return SkipMismatched(r, f);
        }
        return DecodeTimeUnit(r, &out->unit, known) || r.Annotate(name, "unit");
      default:
        return SkipUnknown(r, name, f);
    }
  });
}

bool DecodeLogicalTypeMember(CompactReader& r, const FieldHeader& f, LogicalType* out) {
  using Kind = LogicalType::Kind;
  const char* name = "LogicalType";
  if (f.type != WireType::kStruct) return SkipUnknown(r, name, f);
  *out = LogicalType{};  // a union: the last member present wins
  bool known = true;
  bool ok = true;
  switch (f.id) {
    case 5:
      ok = DecodeStruct(r, "DecimalType", [&](const FieldHeader& g) {
        switch (g.id) {
          case 1:
            return Read(r, g, &out->decimal_scale) || r.Annotate("DecimalType", "scale");
          case 2:
            return Read(r, g, &out->decimal_precision) || r.Annotate("DecimalType", "precision");
          default:
            return SkipUnknown(r, "DecimalType", g);
        }
      });
      break;
    case 7:
      ok = DecodeTimeType(r, "TimeType", out, &known);
      break;
    case 8:
      ok = DecodeTimeType(r, "TimestampType", out, &known);
      break;
    case 10:
      ok = DecodeStruct(r, "IntType", [&](const FieldHeader& g) {
        switch (g.id) {
          case 1:
            return Read(r, g, &out->bit_width) || r.Annotate("IntType", "bitWidth");
          case 2:
            return Read(r, g, &out->is_signed) || r.Annotate("IntType", "isSigned");
          default:
            return SkipUnknown(r, "IntType", g);
        }
      });
      break;
    case 16:
      ok = DecodeStruct(r, "VariantType", [&](const FieldHeader& g) {
        int8_t version = 0;
        if (g.id != 1) return SkipUnknown(r, "VariantType", g);
        if (!Read(r, g, &version)) return r.Annotate("VariantType", "specification_version");
        out->variant_specification_version = version;
        return true;
      });
      break;
    case 17:
    case 18: {
      const char* type_name = f.id == 17 ? "GeometryType" : "GeographyType";
      ok = DecodeStruct(r, type_name, [&](const FieldHeader& g) {
        switch (g.id) {
          case 1:
            return Read(r, g, &out->crs) || r.Annotate(type_name, "crs");
          case 2:
            if (f.id != 18) return SkipUnknown(r, type_name, g);
            return Read(r, g, &out->geography_algorithm) || r.Annotate(type_name, "algorithm");
          default:
            return SkipUnknown(r, type_name, g);
        }
      });
      break;
    }
    default:
      known = (f.id >= 1 && f.id <= 18 && f.id != 9);
      ok = SkipUnknown(r, name, f);
      break;
  }
  if (!ok) return r.AnnotateUnknown(name, f.id);
  out->kind = known ? static_cast<Kind>(f.id) : Kind::kNone;
  return true;
}

bool DecodeLogicalType(CompactReader& r, LogicalType* out) {
  return DecodeStruct(r, "LogicalType",
                      [&](const FieldHeader& f) { return DecodeLogicalTypeMember(r, f, out); });
}

// ---- schema and statistics ------------------------------------------------------------------

bool DecodeSchemaElement(CompactReader& r, SchemaElement* out) {
  const char* name = "SchemaElement";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadCheckedEnum(r, f, 7, &out->type) || r.Annotate(name, "type");
          case 2:
            return Read(r, f, &out->type_length) || r.Annotate(name, "type_length");
          case 3:
            return ReadCheckedEnum(r, f, 2, &out->repetition_type) ||
                   r.Annotate(name, "repetition_type");
          case 4:
            return Read(r, f, &out->name) || r.Annotate(name, "name");
          case 5:
            return ReadNonNegative(r, f, &out->num_children) || r.Annotate(name, "num_children");
          case 6:
            return Read(r, f, &out->converted_type) || r.Annotate(name, "converted_type");
          case 7:
            return Read(r, f, &out->scale) || r.Annotate(name, "scale");
          case 8:
            return Read(r, f, &out->precision) || r.Annotate(name, "precision");
          case 9:
            return Read(r, f, &out->field_id) || r.Annotate(name, "field_id");
          case 10:
            return ReadStruct(r, f, &out->logical_type, DecodeLogicalType) ||
                   r.Annotate(name, "logicalType");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{4, "name"}});
}

bool DecodeStatistics(CompactReader& r, Statistics* out) {
  const char* name = "Statistics";
  return DecodeStruct(r, name, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return Read(r, f, &out->max) || r.Annotate(name, "max");
      case 2:
        return Read(r, f, &out->min) || r.Annotate(name, "min");
      case 3:
        return Read(r, f, &out->null_count) || r.Annotate(name, "null_count");
      case 4:
        return Read(r, f, &out->distinct_count) || r.Annotate(name, "distinct_count");
      case 5:
        return Read(r, f, &out->max_value) || r.Annotate(name, "max_value");
      case 6:
        return Read(r, f, &out->min_value) || r.Annotate(name, "min_value");
      case 7:
        return Read(r, f, &out->is_max_value_exact) || r.Annotate(name, "is_max_value_exact");
      case 8:
        return Read(r, f, &out->is_min_value_exact) || r.Annotate(name, "is_min_value_exact");
      case 9:
        return Read(r, f, &out->nan_count) || r.Annotate(name, "nan_count");
      default:
        return SkipUnknown(r, name, f);
    }
  });
}

}  // namespace

bool ReadStatisticsField(CompactReader& r, const FieldHeader& f, std::optional<Statistics>* out) {
  return ReadStruct(r, f, out, DecodeStatistics);
}

namespace {

bool DecodeKeyValue(CompactReader& r, KeyValue* out) {
  uint64_t seen = 0;
  if (!DecodeStruct(r, "KeyValue", &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return Read(r, f, &out->key) || r.Annotate("KeyValue", "key");
          case 2:
            return Read(r, f, &out->value) || r.Annotate("KeyValue", "value");
          default:
            return SkipUnknown(r, "KeyValue", f);
        }
      }))
    return false;
  return RequireFields(r, "KeyValue", seen, {{1, "key"}});
}

bool ReadKeyValues(CompactReader& r, const FieldHeader& f, std::vector<KeyValue>* out) {
  return ReadList(r, f, WireType::kStruct, out,
                  [&](KeyValue* kv) { return DecodeKeyValue(r, kv); });
}

// ---- column chunks and row groups -----------------------------------------------------------

bool DecodePageEncodingStats(CompactReader& r, PageEncodingStats* out) {
  const char* name = "PageEncodingStats";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return Read(r, f, &out->page_type) || r.Annotate(name, "page_type");
          case 2:
            return Read(r, f, &out->encoding) || r.Annotate(name, "encoding");
          case 3:
            return ReadNonNegative(r, f, &out->count) || r.Annotate(name, "count");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{1, "page_type"}, {2, "encoding"}, {3, "count"}});
}

bool DecodeSizeStatistics(CompactReader& r, SizeStatistics* out) {
  const char* name = "SizeStatistics";
  return DecodeStruct(r, name, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return Read(r, f, &out->unencoded_byte_array_data_bytes) ||
               r.Annotate(name, "unencoded_byte_array_data_bytes");
      case 2:
        return ReadI64List(r, f, &out->repetition_level_histogram) ||
               r.Annotate(name, "repetition_level_histogram");
      case 3:
        return ReadI64List(r, f, &out->definition_level_histogram) ||
               r.Annotate(name, "definition_level_histogram");
      default:
        return SkipUnknown(r, name, f);
    }
  });
}

bool ReadDoubleField(CompactReader& r, const FieldHeader& f, double* value) {
  return f.type != WireType::kDouble ? SkipMismatched(r, f) : r.ReadDouble(value);
}

bool ReadDoubleField(CompactReader& r, const FieldHeader& f, std::optional<double>* value) {
  double read = 0;
  if (!ReadDoubleField(r, f, &read)) return false;
  if (!r.field_skipped()) *value = read;
  return true;
}

bool DecodeBoundingBox(CompactReader& r, BoundingBox* out) {
  const char* name = "BoundingBox";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1: return ReadDoubleField(r, f, &out->xmin) || r.Annotate(name, "xmin");
          case 2: return ReadDoubleField(r, f, &out->xmax) || r.Annotate(name, "xmax");
          case 3: return ReadDoubleField(r, f, &out->ymin) || r.Annotate(name, "ymin");
          case 4: return ReadDoubleField(r, f, &out->ymax) || r.Annotate(name, "ymax");
          case 5: return ReadDoubleField(r, f, &out->zmin) || r.Annotate(name, "zmin");
          case 6: return ReadDoubleField(r, f, &out->zmax) || r.Annotate(name, "zmax");
          case 7: return ReadDoubleField(r, f, &out->mmin) || r.Annotate(name, "mmin");
          case 8: return ReadDoubleField(r, f, &out->mmax) || r.Annotate(name, "mmax");
          default: return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{1, "xmin"}, {2, "xmax"}, {3, "ymin"}, {4, "ymax"}});
}

bool DecodeGeospatialStatistics(CompactReader& r, GeospatialStatistics* out) {
  const char* name = "GeospatialStatistics";
  return DecodeStruct(r, name, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return ReadStruct(r, f, &out->bbox, DecodeBoundingBox) || r.Annotate(name, "bbox");
      case 2:
        return ReadList(r, f, WireType::kI32, &out->geospatial_types,
                        [&](int32_t* v) { return r.ReadI32(v); }) ||
               r.Annotate(name, "geospatial_types");
      default:
        return SkipUnknown(r, name, f);
    }
  });
}

bool DecodeColumnMetaData(CompactReader& r, ColumnMetaData* out) {
  const char* name = "ColumnMetaData";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadCheckedEnum(r, f, 7, &out->type) || r.Annotate(name, "type");
          case 2:
            return ReadList(r, f, WireType::kI32, &out->encodings,
                            [&](Encoding* e) {
                              int32_t raw;
                              if (!r.ReadI32(&raw)) return false;
                              *e = static_cast<Encoding>(raw);
                              return true;
                            }) ||
                   r.Annotate(name, "encodings");
          case 3:
            return ReadStringList(r, f, &out->path_in_schema) || r.Annotate(name, "path_in_schema");
          case 4:
            return Read(r, f, &out->codec) || r.Annotate(name, "codec");
          case 5:
            return ReadNonNegative(r, f, &out->num_values) || r.Annotate(name, "num_values");
          case 6:
            return ReadNonNegative(r, f, &out->total_uncompressed_size) ||
                   r.Annotate(name, "total_uncompressed_size");
          case 7:
            return ReadNonNegative(r, f, &out->total_compressed_size) ||
                   r.Annotate(name, "total_compressed_size");
          case 8:
            return ReadKeyValues(r, f, &out->key_value_metadata) ||
                   r.Annotate(name, "key_value_metadata");
          case 9:
            return ReadNonNegative(r, f, &out->data_page_offset) ||
                   r.Annotate(name, "data_page_offset");
          case 10:
            return ReadNonNegative(r, f, &out->index_page_offset) ||
                   r.Annotate(name, "index_page_offset");
          case 11:
            return ReadNonNegative(r, f, &out->dictionary_page_offset) ||
                   r.Annotate(name, "dictionary_page_offset");
          case 12:
            return ReadStatisticsField(r, f, &out->statistics) || r.Annotate(name, "statistics");
          case 13:
            return ReadList(r, f, WireType::kStruct, &out->encoding_stats,
                            [&](PageEncodingStats* s) { return DecodePageEncodingStats(r, s); }) ||
                   r.Annotate(name, "encoding_stats");
          case 14:
            return ReadNonNegative(r, f, &out->bloom_filter_offset) ||
                   r.Annotate(name, "bloom_filter_offset");
          case 15:
            return ReadNonNegative(r, f, &out->bloom_filter_length) ||
                   r.Annotate(name, "bloom_filter_length");
          case 16:
            return ReadStruct(r, f, &out->size_statistics, DecodeSizeStatistics) ||
                   r.Annotate(name, "size_statistics");
          case 17:
            return ReadStruct(r, f, &out->geospatial_statistics, DecodeGeospatialStatistics) ||
                   r.Annotate(name, "geospatial_statistics");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen,
                       {{1, "type"},
                        {2, "encodings"},
                        {3, "path_in_schema"},
                        {4, "codec"},
                        {5, "num_values"},
                        {6, "total_uncompressed_size"},
                        {7, "total_compressed_size"},
                        {9, "data_page_offset"}});
}

bool DecodeColumnChunk(CompactReader& r, ColumnChunk* out) {
  const char* name = "ColumnChunk";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return Read(r, f, &out->file_path) || r.Annotate(name, "file_path");
          case 2:
            return ReadNonNegative(r, f, &out->file_offset) || r.Annotate(name, "file_offset");
          case 3:
            return ReadStruct(r, f, &out->meta_data, DecodeColumnMetaData) ||
                   r.Annotate(name, "meta_data");
          case 4:
            return ReadNonNegative(r, f, &out->offset_index_offset) ||
                   r.Annotate(name, "offset_index_offset");
          case 5:
            return ReadNonNegative(r, f, &out->offset_index_length) ||
                   r.Annotate(name, "offset_index_length");
          case 6:
            return ReadNonNegative(r, f, &out->column_index_offset) ||
                   r.Annotate(name, "column_index_offset");
          case 7:
            return ReadNonNegative(r, f, &out->column_index_length) ||
                   r.Annotate(name, "column_index_length");
          case 8:
            if (f.type != WireType::kStruct) return SkipMismatched(r, f);
            out->has_crypto_metadata = true;
            return r.SkipField(f) || r.Annotate(name, "crypto_metadata");
          case 9:
            return Read(r, f, &out->encrypted_column_metadata) ||
                   r.Annotate(name, "encrypted_column_metadata");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{2, "file_offset"}});
}

bool DecodeSortingColumn(CompactReader& r, SortingColumn* out) {
  const char* name = "SortingColumn";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadNonNegative(r, f, &out->column_idx) || r.Annotate(name, "column_idx");
          case 2:
            return Read(r, f, &out->descending) || r.Annotate(name, "descending");
          case 3:
            return Read(r, f, &out->nulls_first) || r.Annotate(name, "nulls_first");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{1, "column_idx"}, {2, "descending"}, {3, "nulls_first"}});
}

bool DecodeRowGroup(CompactReader& r, RowGroup* out) {
  const char* name = "RowGroup";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadList(r, f, WireType::kStruct, &out->columns,
                            [&](ColumnChunk* c) { return DecodeColumnChunk(r, c); }) ||
                   r.Annotate(name, "columns");
          case 2:
            return ReadNonNegative(r, f, &out->total_byte_size) ||
                   r.Annotate(name, "total_byte_size");
          case 3:
            return ReadNonNegative(r, f, &out->num_rows) || r.Annotate(name, "num_rows");
          case 4:
            return ReadList(r, f, WireType::kStruct, &out->sorting_columns,
                            [&](SortingColumn* s) { return DecodeSortingColumn(r, s); }) ||
                   r.Annotate(name, "sorting_columns");
          case 5:
            return ReadNonNegative(r, f, &out->file_offset) || r.Annotate(name, "file_offset");
          case 6:
            return ReadNonNegative(r, f, &out->total_compressed_size) ||
                   r.Annotate(name, "total_compressed_size");
          case 7:
            return Read(r, f, &out->ordinal) || r.Annotate(name, "ordinal");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{1, "columns"}, {2, "total_byte_size"}, {3, "num_rows"}});
}

bool DecodeColumnOrder(CompactReader& r, ColumnOrder* out) {
  out->type_defined_order = false;
  out->ieee754_total_order = false;
  return DecodeStruct(r, "ColumnOrder", [&](const FieldHeader& f) {
    if (f.type == WireType::kStruct) {  // a union: the last member present wins
      out->type_defined_order = f.id == 1;
      out->ieee754_total_order = f.id == 2;
    }
    return SkipUnknown(r, "ColumnOrder", f);
  });
}

bool DecodeFileMetaDataStruct(CompactReader& r, FileMetaData* out) {
  const char* name = "FileMetaData";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return Read(r, f, &out->version) || r.Annotate(name, "version");
          case 2:
            return ReadList(r, f, WireType::kStruct, &out->schema,
                            [&](SchemaElement* e) { return DecodeSchemaElement(r, e); }) ||
                   r.Annotate(name, "schema");
          case 3:
            return ReadNonNegative(r, f, &out->num_rows) || r.Annotate(name, "num_rows");
          case 4:
            return ReadList(r, f, WireType::kStruct, &out->row_groups,
                            [&](RowGroup* g) { return DecodeRowGroup(r, g); }) ||
                   r.Annotate(name, "row_groups");
          case 5:
            return ReadKeyValues(r, f, &out->key_value_metadata) ||
                   r.Annotate(name, "key_value_metadata");
          case 6:
            return Read(r, f, &out->created_by) || r.Annotate(name, "created_by");
          case 7:
            return ReadList(r, f, WireType::kStruct, &out->column_orders,
                            [&](ColumnOrder* o) { return DecodeColumnOrder(r, o); }) ||
                   r.Annotate(name, "column_orders");
          case 8:
            if (f.type != WireType::kStruct) return SkipMismatched(r, f);
            out->has_encryption_algorithm = true;
            return r.SkipField(f) || r.Annotate(name, "encryption_algorithm");
          case 9:
            return Read(r, f, &out->footer_signing_key_metadata) ||
                   r.Annotate(name, "footer_signing_key_metadata");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen,
                       {{1, "version"}, {2, "schema"}, {3, "num_rows"}, {4, "row_groups"}});
}
}  // namespace
}  // namespace tarn::parquet::decode

namespace tarn::parquet {

Result<FileMetaData> DecodeFileMetaData(std::string_view bytes, const DecodeLimits& limits) {
  thrift::CompactReader reader(bytes, limits);
  FileMetaData metadata;
  if (!decode::DecodeFileMetaDataStruct(reader, &metadata)) return reader.status("parquet footer");
  if (metadata.schema.empty()) {
    return Status::Corruption("parquet footer: FileMetaData.schema: empty schema");
  }
  return metadata;
}

}  // namespace tarn::parquet
