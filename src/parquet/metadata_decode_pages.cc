// Decoding of page headers, the page index (ColumnIndex, OffsetIndex) and the encrypted-footer
// prefix (FileCryptoMetaData) from the compact protocol; see metadata.h for the contract.

#include "parquet/metadata_decode_fields.h"

namespace tarn::parquet::decode {
namespace {

bool DecodeDataPageHeader(CompactReader& r, DataPageHeader* out) {
  const char* name = "DataPageHeader";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadNonNegative(r, f, &out->num_values) || r.Annotate(name, "num_values");
          case 2:
            return Read(r, f, &out->encoding) || r.Annotate(name, "encoding");
          case 3:
            return Read(r, f, &out->definition_level_encoding) ||
                   r.Annotate(name, "definition_level_encoding");
          case 4:
            return Read(r, f, &out->repetition_level_encoding) ||
                   r.Annotate(name, "repetition_level_encoding");
          case 5:
            return ReadStatisticsField(r, f, &out->statistics) || r.Annotate(name, "statistics");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen,
                       {{1, "num_values"},
                        {2, "encoding"},
                        {3, "definition_level_encoding"},
                        {4, "repetition_level_encoding"}});
}

bool DecodeDictionaryPageHeader(CompactReader& r, DictionaryPageHeader* out) {
  const char* name = "DictionaryPageHeader";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadNonNegative(r, f, &out->num_values) || r.Annotate(name, "num_values");
          case 2:
            return Read(r, f, &out->encoding) || r.Annotate(name, "encoding");
          case 3:
            return Read(r, f, &out->is_sorted) || r.Annotate(name, "is_sorted");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{1, "num_values"}, {2, "encoding"}});
}

bool DecodeDataPageHeaderV2(CompactReader& r, DataPageHeaderV2* out) {
  const char* name = "DataPageHeaderV2";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadNonNegative(r, f, &out->num_values) || r.Annotate(name, "num_values");
          case 2:
            return ReadNonNegative(r, f, &out->num_nulls) || r.Annotate(name, "num_nulls");
          case 3:
            return ReadNonNegative(r, f, &out->num_rows) || r.Annotate(name, "num_rows");
          case 4:
            return Read(r, f, &out->encoding) || r.Annotate(name, "encoding");
          case 5:
            return ReadNonNegative(r, f, &out->definition_levels_byte_length) ||
                   r.Annotate(name, "definition_levels_byte_length");
          case 6:
            return ReadNonNegative(r, f, &out->repetition_levels_byte_length) ||
                   r.Annotate(name, "repetition_levels_byte_length");
          case 7:
            return Read(r, f, &out->is_compressed) || r.Annotate(name, "is_compressed");
          case 8:
            return ReadStatisticsField(r, f, &out->statistics) || r.Annotate(name, "statistics");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen,
                       {{1, "num_values"},
                        {2, "num_nulls"},
                        {3, "num_rows"},
                        {4, "encoding"},
                        {5, "definition_levels_byte_length"},
                        {6, "repetition_levels_byte_length"}});
}

bool DecodePageHeaderStruct(CompactReader& r, PageHeader* out) {
  const char* name = "PageHeader";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return Read(r, f, &out->type) || r.Annotate(name, "type");
          case 2:
            return ReadNonNegative(r, f, &out->uncompressed_page_size) ||
                   r.Annotate(name, "uncompressed_page_size");
          case 3:
            return ReadNonNegative(r, f, &out->compressed_page_size) ||
                   r.Annotate(name, "compressed_page_size");
          case 4:
            return Read(r, f, &out->crc) || r.Annotate(name, "crc");
          case 5:
            return ReadStruct(r, f, &out->data_page_header, DecodeDataPageHeader) ||
                   r.Annotate(name, "data_page_header");
          case 7:
            return ReadStruct(r, f, &out->dictionary_page_header, DecodeDictionaryPageHeader) ||
                   r.Annotate(name, "dictionary_page_header");
          case 8:
            return ReadStruct(r, f, &out->data_page_header_v2, DecodeDataPageHeaderV2) ||
                   r.Annotate(name, "data_page_header_v2");
          default:
            return SkipUnknown(r, name, f);  // 6: index_page_header, an empty struct
        }
      }))
    return false;
  return RequireFields(r, name, seen,
                       {{1, "type"}, {2, "uncompressed_page_size"}, {3, "compressed_page_size"}});
}

// std::vector<bool> has no element pointers, so it gets its own loop.
bool ReadBoolList(CompactReader& r, const FieldHeader& f, std::vector<bool>* out) {
  if (!f.IsList()) return SkipMismatched(r, f);
  ListHeader header;
  if (!ReadListHeaderOf(r, WireType::kBoolTrue, &header)) return false;
  out->assign(header.size, false);
  for (int64_t element_idx = 0; element_idx < header.size; ++element_idx) {
    bool value;
    if (!r.ReadBoolElement(&value)) return false;
    (*out)[element_idx] = value;
  }
  return true;
}

bool DecodeColumnIndexStruct(CompactReader& r, ColumnIndex* out) {
  const char* name = "ColumnIndex";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadBoolList(r, f, &out->null_pages) || r.Annotate(name, "null_pages");
          case 2:
            return ReadStringList(r, f, &out->min_values) || r.Annotate(name, "min_values");
          case 3:
            return ReadStringList(r, f, &out->max_values) || r.Annotate(name, "max_values");
          case 4:
            return ReadCheckedEnum(r, f, 2, &out->boundary_order) ||
                   r.Annotate(name, "boundary_order");
          case 5:
            return ReadI64List(r, f, &out->null_counts) || r.Annotate(name, "null_counts");
          case 6:
            return ReadI64List(r, f, &out->repetition_level_histograms) ||
                   r.Annotate(name, "repetition_level_histograms");
          case 7:
            return ReadI64List(r, f, &out->definition_level_histograms) ||
                   r.Annotate(name, "definition_level_histograms");
          case 8:
            return ReadI64List(r, f, &out->nan_counts) || r.Annotate(name, "nan_counts");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(
      r, name, seen,
      {{1, "null_pages"}, {2, "min_values"}, {3, "max_values"}, {4, "boundary_order"}});
}

bool DecodePageLocation(CompactReader& r, PageLocation* out) {
  const char* name = "PageLocation";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadNonNegative(r, f, &out->offset) || r.Annotate(name, "offset");
          case 2:
            return ReadNonNegative(r, f, &out->compressed_page_size) ||
                   r.Annotate(name, "compressed_page_size");
          case 3:
            return ReadNonNegative(r, f, &out->first_row_index) ||
                   r.Annotate(name, "first_row_index");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen,
                       {{1, "offset"}, {2, "compressed_page_size"}, {3, "first_row_index"}});
}

bool DecodeOffsetIndexStruct(CompactReader& r, OffsetIndex* out) {
  const char* name = "OffsetIndex";
  uint64_t seen = 0;
  if (!DecodeStruct(r, name, &seen, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            return ReadList(r, f, WireType::kStruct, &out->page_locations,
                            [&](PageLocation* l) { return DecodePageLocation(r, l); }) ||
                   r.Annotate(name, "page_locations");
          case 2:
            return ReadI64List(r, f, &out->unencoded_byte_array_data_bytes) ||
                   r.Annotate(name, "unencoded_byte_array_data_bytes");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, seen, {{1, "page_locations"}});
}

bool DecodeFileCryptoMetaDataStruct(CompactReader& r, FileCryptoMetaData* out) {
  const char* name = "FileCryptoMetaData";
  if (!DecodeStruct(r, name, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            if (f.type != WireType::kStruct) return SkipMismatched(r, f);
            return DecodeStruct(r, "EncryptionAlgorithm",
                                [&](const FieldHeader& g) {
                                  if (g.type == WireType::kStruct) out->encryption_algorithm = g.id;
                                  return SkipUnknown(r, "EncryptionAlgorithm", g);
                                }) ||
                   r.Annotate(name, "encryption_algorithm");
          case 2:
            return Read(r, f, &out->key_metadata) || r.Annotate(name, "key_metadata");
          default:
            return SkipUnknown(r, name, f);
        }
      }))
    return false;
  return RequireFields(r, name, out->encryption_algorithm != 0 ? uint64_t{2} : 0,
                       {{1, "encryption_algorithm"}});
}

}  // namespace
}  // namespace tarn::parquet::decode

namespace tarn::parquet {

Result<PageHeader> DecodePageHeader(std::string_view bytes, int64_t* consumed,
                                    const DecodeLimits& limits) {
  thrift::CompactReader reader(bytes, limits);
  PageHeader header;
  if (!decode::DecodePageHeaderStruct(reader, &header)) return reader.status("page header");
  if (consumed != nullptr) *consumed = reader.offset();
  return header;
}

Result<ColumnIndex> DecodeColumnIndex(std::string_view bytes, const DecodeLimits& limits) {
  thrift::CompactReader reader(bytes, limits);
  ColumnIndex index;
  if (!decode::DecodeColumnIndexStruct(reader, &index)) return reader.status("column index");
  const size_t pages = index.null_pages.size();
  if (index.min_values.size() != pages || index.max_values.size() != pages ||
      (!index.null_counts.empty() && index.null_counts.size() != pages) ||
      (!index.nan_counts.empty() && index.nan_counts.size() != pages)) {
    return Status::Corruption("column index: ColumnIndex: list lengths disagree: null_pages ",
                              pages, ", min_values ", index.min_values.size(), ", max_values ",
                              index.max_values.size(), ", null_counts ", index.null_counts.size(),
                              ", nan_counts ", index.nan_counts.size());
  }
  return index;
}

Result<OffsetIndex> DecodeOffsetIndex(std::string_view bytes, const DecodeLimits& limits) {
  thrift::CompactReader reader(bytes, limits);
  OffsetIndex index;
  if (!decode::DecodeOffsetIndexStruct(reader, &index)) return reader.status("offset index");
  return index;
}

Result<FileCryptoMetaData> DecodeFileCryptoMetaData(std::string_view bytes, int64_t* consumed,
                                                    const DecodeLimits& limits) {
  thrift::CompactReader reader(bytes, limits);
  FileCryptoMetaData crypto;
  if (!decode::DecodeFileCryptoMetaDataStruct(reader, &crypto)) {
    return reader.status("encrypted parquet footer");
  }
  if (consumed != nullptr) *consumed = reader.offset();
  return crypto;
}

}  // namespace tarn::parquet
