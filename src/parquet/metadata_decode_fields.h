// Field-level helpers shared by the parquet.thrift struct decoders (metadata_decode*.cc).
//
// A struct decoder is DecodeX(reader, out) -> bool. On failure the reader already holds the
// problem and its offset; each level then annotates the innermost field name, so the final
// status reads "parquet footer: ColumnMetaData.num_values: varint runs past end at offset N".
// Internal to the parquet module.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "parquet/metadata.h"
#include "parquet/thrift_compact.h"

namespace tarn::parquet::decode {

using thrift::CompactReader;
using thrift::FieldHeader;
using thrift::ListHeader;
using thrift::WireType;
using thrift::WireTypeName;

// Runs `on_field(header)` for each field of a struct until its stop byte. When `seen` is not
// null it receives a bit per field id (1..63) that was present with its expected wire type.
template <typename OnField>
inline bool DecodeStruct(CompactReader& r, const char* name, uint64_t* seen, OnField&& on_field) {
  if (!r.BeginStruct()) return r.Annotate(name, "struct");
  int16_t last_id = 0;
  FieldHeader field;
  while (true) {
    if (!r.ReadFieldHeader(&last_id, &field)) return r.Annotate(name, "field header");
    if (field.type == WireType::kStop) break;
    r.set_field_skipped(false);
    if (!on_field(field)) return false;
    if (seen != nullptr && !r.field_skipped() && field.id > 0 && field.id < 64) {
      *seen |= uint64_t{1} << field.id;
    }
  }
  r.set_field_skipped(false);  // the enclosing struct's field was read
  r.EndStruct();
  return true;
}

template <typename OnField>
inline bool DecodeStruct(CompactReader& r, const char* name, OnField&& on_field) {
  return DecodeStruct(r, name, nullptr, std::forward<OnField>(on_field));
}

inline bool SkipUnknown(CompactReader& r, const char* name, const FieldHeader& field) {
  return r.SkipField(field) || r.AnnotateUnknown(name, field.id);
}

// A known field with an unexpected wire type is skipped and counts as absent, as generated
// Thrift code does (a required one is then reported missing).
inline bool SkipMismatched(CompactReader& r, const FieldHeader& field) {
  r.set_field_skipped(true);
  return r.SkipField(field);
}

struct RequiredField {
  int id;
  const char* name;
};

inline bool RequireFields(CompactReader& r, const char* struct_name, uint64_t seen,
                          std::initializer_list<RequiredField> fields) {
  for (const RequiredField& field : fields) {
    if ((seen & (uint64_t{1} << field.id)) == 0) {
      r.FailAt(r.offset(), "required field missing");
      return r.Annotate(struct_name, field.name);
    }
  }
  return true;
}

// ---- scalar field values --------------------------------------------------------------------
// Read(r, field, &value) reads the value, or skips it (leaving `value` untouched) when the wire
// type does not match.

inline bool Read(CompactReader& r, const FieldHeader& f, int8_t* value) {
  return f.type != WireType::kByte ? SkipMismatched(r, f) : r.ReadI8(value);
}
inline bool Read(CompactReader& r, const FieldHeader& f, int16_t* value) {
  return f.type != WireType::kI16 ? SkipMismatched(r, f) : r.ReadI16(value);
}
inline bool Read(CompactReader& r, const FieldHeader& f, int32_t* value) {
  return f.type != WireType::kI32 ? SkipMismatched(r, f) : r.ReadI32(value);
}
inline bool Read(CompactReader& r, const FieldHeader& f, int64_t* value) {
  return f.type != WireType::kI64 ? SkipMismatched(r, f) : r.ReadI64(value);
}
inline bool Read(CompactReader& r, const FieldHeader& f, bool* value) {
  if (!f.IsBool()) return SkipMismatched(r, f);
  *value = f.BoolValue();
  return true;
}
inline bool Read(CompactReader& r, const FieldHeader& f, std::string* value) {
  return f.type != WireType::kBinary ? SkipMismatched(r, f) : r.ReadString(value);
}
template <typename E>
requires std::is_enum_v<E>
inline bool Read(CompactReader& r, const FieldHeader& f, E* value) {
  int32_t raw;
  if (!Read(r, f, &raw)) return false;
  if (!r.field_skipped()) *value = static_cast<E>(raw);
  return true;
}
template <typename T>
inline bool Read(CompactReader& r, const FieldHeader& f, std::optional<T>* value) {
  T read{};
  if (!Read(r, f, &read)) return false;
  if (!r.field_skipped()) *value = std::move(read);
  return true;
}

// An enum whose valid values are [0, max]: anything else is Corruption.
template <typename E>
inline bool ReadCheckedEnum(CompactReader& r, const FieldHeader& f, int32_t max, E* value) {
  const int64_t start = r.offset();
  int32_t raw = 0;
  if (!Read(r, f, &raw)) return false;
  if (r.field_skipped()) return true;
  if (raw < 0 || raw > max) return r.FailAt(start, StrCat("unknown value ", raw));
  *value = static_cast<E>(raw);
  return true;
}
template <typename E>
inline bool ReadCheckedEnum(CompactReader& r, const FieldHeader& f, int32_t max,
                            std::optional<E>* value) {
  E read{};
  if (!ReadCheckedEnum(r, f, max, &read)) return false;
  if (!r.field_skipped()) *value = read;
  return true;
}

template <typename T>
inline bool ReadNonNegative(CompactReader& r, const FieldHeader& f, T* value) {
  const int64_t start = r.offset();
  T read{};
  if (!Read(r, f, &read)) return false;
  if (r.field_skipped()) return true;
  if (read < 0) return r.FailAt(start, StrCat("negative value ", int64_t{read}));
  *value = read;
  return true;
}
template <typename T>
inline bool ReadNonNegative(CompactReader& r, const FieldHeader& f, std::optional<T>* value) {
  T read{};
  if (!ReadNonNegative(r, f, &read)) return false;
  if (!r.field_skipped()) *value = read;
  return true;
}

// A struct-valued field decoded by `decode(CompactReader&, T*)` into an optional.
template <typename T, typename Decode>
inline bool ReadStruct(CompactReader& r, const FieldHeader& f, std::optional<T>* value,
                       Decode&& decode) {
  if (f.type != WireType::kStruct) return SkipMismatched(r, f);
  return decode(r, &value->emplace());
}

// ---- lists ----------------------------------------------------------------------------------

inline bool ElementTypeMatches(WireType found, WireType expected) {
  if (expected == WireType::kBoolTrue) {
    return found == WireType::kBoolTrue || found == WireType::kBoolFalse;
  }
  return found == expected;
}

// Reads a list header whose elements must have wire type `element_type`.
inline bool ReadListHeaderOf(CompactReader& r, WireType element_type, ListHeader* header) {
  const int64_t start = r.offset();
  if (!r.ReadListHeader(header)) return false;
  if (header->size > 0 && !ElementTypeMatches(header->element_type, element_type)) {
    return r.FailAt(start, StrCat("expected list<", WireTypeName(element_type), ">, found list<",
                                  WireTypeName(header->element_type), ">"));
  }
  return true;
}

// Reads a list field whose elements have wire type `element_type`, calling
// `read_element(T*)` for each. Lists of primitives reserve up front (the header's size is
// already checked against the bytes left); lists of structs grow as elements decode, so a
// hostile count cannot make the decoder allocate much more than the input's size.
template <typename T, typename ReadElement>
inline bool ReadList(CompactReader& r, const FieldHeader& f, WireType element_type,
                     std::vector<T>* out, ReadElement&& read_element) {
  if (!f.IsList()) return SkipMismatched(r, f);
  ListHeader header;
  if (!ReadListHeaderOf(r, element_type, &header)) return false;
  out->clear();
  if (element_type != WireType::kStruct) out->reserve(header.size);
  for (int64_t element_idx = 0; element_idx < header.size; ++element_idx) {
    if (!read_element(&out->emplace_back())) return false;
  }
  return true;
}

inline bool ReadI64List(CompactReader& r, const FieldHeader& f, std::vector<int64_t>* out) {
  return ReadList(r, f, WireType::kI64, out, [&](int64_t* v) { return r.ReadI64(v); });
}
inline bool ReadStringList(CompactReader& r, const FieldHeader& f, std::vector<std::string>* out) {
  return ReadList(r, f, WireType::kBinary, out, [&](std::string* v) { return r.ReadString(v); });
}

// Defined in metadata_decode.cc; page headers carry Statistics too.
bool ReadStatisticsField(CompactReader& r, const FieldHeader& f, std::optional<Statistics>* out);

}  // namespace tarn::parquet::decode
