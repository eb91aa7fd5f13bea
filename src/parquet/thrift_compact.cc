#include "parquet/thrift_compact.h"

#include <bit>
#include <limits>
#include <utility>

namespace tarn::parquet::thrift {

static_assert(std::endian::native == std::endian::little,
              "the compact protocol's doubles are little-endian; add a byte swap");

namespace {

constexpr uint8_t kMaxWireType = static_cast<uint8_t>(WireType::kUuid);

// The fewest bytes one value of `type` takes inside a collection: what lets a declared
// element count be checked against the bytes that remain.
int64_t MinWireSize(WireType type) {
  switch (type) {
    case WireType::kDouble:
      return 8;
    case WireType::kUuid:
      return 16;
    default:
      return 1;
  }
}

}  // namespace

std::string_view WireTypeName(WireType type) {
  switch (type) {
    case WireType::kStop:
      return "stop";
    case WireType::kBoolTrue:
      return "bool(true)";
    case WireType::kBoolFalse:
      return "bool(false)";
    case WireType::kByte:
      return "i8";
    case WireType::kI16:
      return "i16";
    case WireType::kI32:
      return "i32";
    case WireType::kI64:
      return "i64";
    case WireType::kDouble:
      return "double";
    case WireType::kBinary:
      return "binary";
    case WireType::kList:
      return "list";
    case WireType::kSet:
      return "set";
    case WireType::kMap:
      return "map";
    case WireType::kStruct:
      return "struct";
    case WireType::kUuid:
      return "uuid";
  }
  return "invalid";
}

bool CompactReader::FailAt(int64_t offset, std::string problem) {
  if (!failed_) {
    failed_ = true;
    fail_offset_ = offset;
    problem_ = std::move(problem);
  }
  return false;
}

bool CompactReader::Annotate(const char* struct_name, const char* field_name) {
  if (!annotated_) {
    annotated_ = true;
    field_path_ = StrCat(struct_name, ".", field_name);
  }
  return false;
}

bool CompactReader::AnnotateUnknown(const char* struct_name, int16_t field_id) {
  if (!annotated_) {
    annotated_ = true;
    field_path_ = StrCat(struct_name, ".field ", field_id);
  }
  return false;
}

Status CompactReader::status(std::string_view context) const {
  if (!failed_) return Status::OK();
  if (annotated_) {
    return Status::Corruption(context, ": ", field_path_, ": ", problem_, " at offset ",
                              fail_offset_);
  }
  return Status::Corruption(context, ": ", problem_, " at offset ", fail_offset_);
}

bool CompactReader::FailDepth() {
  return FailAt(offset(), StrCat("nesting deeper than ", limits_.max_struct_depth));
}

bool CompactReader::ReadVarint32Slow(uint32_t* value) {
  const int64_t start = offset();
  uint32_t result = 0;
  for (int byte_idx = 0;; ++byte_idx) {
    if (pos_ >= end_) return FailAt(start, "varint runs past end");
    const uint8_t byte = *pos_++;
    // The fifth byte may only carry the top four bits.
    if (byte_idx == 4 && byte > 0x0f) return FailAt(start, "varint overflows 32 bits");
    result |= static_cast<uint32_t>(byte & 0x7f) << (7 * byte_idx);
    if ((byte & 0x80) == 0) break;
  }
  *value = result;
  return true;
}

bool CompactReader::ReadVarint64Slow(uint64_t* value) {
  const int64_t start = offset();
  uint64_t result = 0;
  for (int byte_idx = 0;; ++byte_idx) {
    if (pos_ >= end_) return FailAt(start, "varint runs past end");
    const uint8_t byte = *pos_++;
    // The tenth byte may only carry the top bit.
    if (byte_idx == 9 && byte > 0x01) return FailAt(start, "varint overflows 64 bits");
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * byte_idx);
    if ((byte & 0x80) == 0) break;
  }
  *value = result;
  return true;
}

bool CompactReader::ReadFieldHeader(int16_t* last_id, FieldHeader* header) {
  const int64_t start = offset();
  if (pos_ >= end_) return FailAt(start, "field header runs past end");
  const uint8_t byte = *pos_++;
  if (byte == 0) {
    header->type = WireType::kStop;
    header->id = 0;
    return true;
  }
  const uint8_t type = byte & 0x0f;
  if (type == 0 || type > kMaxWireType) {
    return FailAt(start, StrCat("invalid field type ", int{type}));
  }
  header->type = static_cast<WireType>(type);
  const int delta = byte >> 4;
  if (delta != 0) {
    const int id = *last_id + delta;
    if (id > std::numeric_limits<int16_t>::max()) {
      return FailAt(start, StrCat("field id ", id, " overflows i16"));
    }
    header->id = static_cast<int16_t>(id);
  } else if (!ReadI16(&header->id)) {
    return false;
  }
  *last_id = header->id;
  return true;
}

bool CompactReader::ReadI8(int8_t* value) {
  if (pos_ >= end_) return FailAt(offset(), "i8 runs past end");
  *value = static_cast<int8_t>(*pos_++);
  return true;
}

bool CompactReader::ReadI16(int16_t* value) {
  const int64_t start = offset();
  int32_t wide;
  if (!ReadI32(&wide)) return false;
  if (wide < std::numeric_limits<int16_t>::min() || wide > std::numeric_limits<int16_t>::max()) {
    return FailAt(start, StrCat("i16 value ", wide, " out of range"));
  }
  *value = static_cast<int16_t>(wide);
  return true;
}

bool CompactReader::ReadDouble(double* value) {
  if (remaining() < 8) return FailAt(offset(), "double runs past end");
  uint64_t bits;
  std::memcpy(&bits, pos_, 8);
  pos_ += 8;
  *value = std::bit_cast<double>(bits);
  return true;
}

bool CompactReader::ReadBinary(std::string_view* value) {
  const int64_t start = offset();
  uint32_t length;
  if (!ReadVarint32(&length)) return false;
  if (length > limits_.max_string_bytes) {
    return FailAt(start, StrCat("binary of ", length, " bytes exceeds the limit of ",
                                limits_.max_string_bytes));
  }
  if (length > remaining()) {
    return FailAt(
        start, StrCat("binary of ", length, " bytes runs past end (", remaining(), " bytes left)"));
  }
  *value = std::string_view(reinterpret_cast<const char*>(pos_), length);
  pos_ += length;
  return true;
}

bool CompactReader::ReadBoolElement(bool* value) {
  const int64_t start = offset();
  if (pos_ >= end_) return FailAt(start, "bool runs past end");
  const uint8_t byte = *pos_++;
  if (byte == 1) {
    *value = true;
  } else if (byte == 0 || byte == 2) {
    *value = false;
  } else {
    return FailAt(start, StrCat("invalid bool byte ", int{byte}));
  }
  return true;
}

bool CompactReader::CheckElementType(uint8_t nibble, int64_t start, WireType* type) {
  if (nibble == 0 || nibble > kMaxWireType) {
    return FailAt(start, StrCat("invalid collection element type ", int{nibble}));
  }
  *type = static_cast<WireType>(nibble);
  return true;
}

bool CompactReader::ReadListHeader(ListHeader* header) {
  const int64_t start = offset();
  if (pos_ >= end_) return FailAt(start, "list header runs past end");
  const uint8_t byte = *pos_++;
  int64_t size = byte >> 4;
  if (size == 15) {
    uint32_t long_size;
    if (!ReadVarint32(&long_size)) return false;
    size = long_size;
  }
  header->size = size;
  header->element_type = WireType::kStop;
  if (size == 0) return true;  // some writers leave the type of an empty list unset
  if (!CheckElementType(byte & 0x0f, start, &header->element_type)) return false;
  if (size > limits_.max_list_elements) {
    return FailAt(start, StrCat("list of ", size, " elements exceeds the limit of ",
                                limits_.max_list_elements));
  }
  if (size * MinWireSize(header->element_type) > remaining()) {
    return FailAt(start, StrCat("list of ", size, " ", WireTypeName(header->element_type),
                                " elements cannot fit in the ", remaining(), " bytes left"));
  }
  return true;
}

bool CompactReader::ReadMapHeader(MapHeader* header) {
  const int64_t start = offset();
  uint32_t size;
  if (!ReadVarint32(&size)) return false;
  header->size = size;
  header->key_type = header->value_type = WireType::kStop;
  if (size == 0) return true;
  if (pos_ >= end_) return FailAt(start, "map header runs past end");
  const uint8_t types = *pos_++;
  if (!CheckElementType(types >> 4, start, &header->key_type) ||
      !CheckElementType(types & 0x0f, start, &header->value_type)) {
    return false;
  }
  if (header->size > limits_.max_list_elements) {
    return FailAt(start, StrCat("map of ", size, " entries exceeds the limit of ",
                                limits_.max_list_elements));
  }
  const int64_t entry_bytes = MinWireSize(header->key_type) + MinWireSize(header->value_type);
  if (header->size * entry_bytes > remaining()) {
    return FailAt(
        start, StrCat("map of ", size, " entries cannot fit in the ", remaining(), " bytes left"));
  }
  return true;
}

bool CompactReader::SkipCollection(int64_t size, WireType first, WireType second) {
  if (!BeginStruct()) return false;
  for (int64_t element_idx = 0; element_idx < size; ++element_idx) {
    if (!Skip(first, true)) return false;
    if (second != WireType::kStop && !Skip(second, true)) return false;
  }
  EndStruct();
  return true;
}

bool CompactReader::Skip(WireType type, bool in_collection) {
  const int64_t start = offset();
  switch (type) {
    case WireType::kBoolTrue:
    case WireType::kBoolFalse: {
      if (!in_collection) return true;  // a bool field's value is in its header
      bool ignored;
      return ReadBoolElement(&ignored);
    }
    case WireType::kByte: {
      int8_t ignored;
      return ReadI8(&ignored);
    }
    case WireType::kI16:
    case WireType::kI32: {
      uint32_t ignored;
      return ReadVarint32(&ignored);
    }
    case WireType::kI64: {
      uint64_t ignored;
      return ReadVarint64(&ignored);
    }
    case WireType::kDouble:
    case WireType::kUuid: {
      const int64_t size = MinWireSize(type);
      if (remaining() < size) return FailAt(start, StrCat(WireTypeName(type), " runs past end"));
      pos_ += size;
      return true;
    }
    case WireType::kBinary: {
      std::string_view ignored;
      return ReadBinary(&ignored);
    }
    case WireType::kList:
    case WireType::kSet: {
      ListHeader header;
      if (!ReadListHeader(&header)) return false;
      return SkipCollection(header.size, header.element_type, WireType::kStop);
    }
    case WireType::kMap: {
      MapHeader header;
      if (!ReadMapHeader(&header)) return false;
      if (header.size == 0) return true;
      return SkipCollection(header.size, header.key_type, header.value_type);
    }
    case WireType::kStruct: {
      if (!BeginStruct()) return false;
      int16_t last_id = 0;
      FieldHeader field;
      while (true) {
        if (!ReadFieldHeader(&last_id, &field)) return false;
        if (field.type == WireType::kStop) break;
        if (!Skip(field.type, false)) return false;
      }
      EndStruct();
      return true;
    }
    case WireType::kStop:
      break;
  }
  return FailAt(start, StrCat("cannot skip a value of type ", static_cast<int>(type)));
}

// ---- writer ---------------------------------------------------------------------------------

void CompactWriter::WriteFieldHeader(WireType type, int16_t id) {
  int16_t& last_id = last_ids_[depth_];
  const auto type_bits = static_cast<uint8_t>(type);
  if (id > last_id && id - last_id <= 15) {
    out_->push_back(static_cast<char>(((id - last_id) << 4) | type_bits));
  } else {
    out_->push_back(static_cast<char>(type_bits));
    WriteI16(id);
  }
  last_id = id;
}

void CompactWriter::WriteDouble(double value) {
  const auto bits = std::bit_cast<uint64_t>(value);
  char buffer[8];
  std::memcpy(buffer, &bits, 8);
  out_->append(buffer, 8);
}

void CompactWriter::WriteBinary(std::string_view value) {
  WriteVarint(value.size());
  out_->append(value.data(), value.size());
}

void CompactWriter::WriteListHeader(WireType element_type, int64_t size) {
  const auto type_bits = static_cast<uint8_t>(element_type);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | type_bits));
  } else {
    out_->push_back(static_cast<char>(0xf0 | type_bits));
    WriteVarint(static_cast<uint64_t>(size));
  }
}

void CompactWriter::WriteMapHeader(WireType key_type, WireType value_type, int64_t size) {
  WriteVarint(static_cast<uint64_t>(size));
  if (size == 0) return;
  out_->push_back(
      static_cast<char>((static_cast<uint8_t>(key_type) << 4) | static_cast<uint8_t>(value_type)));
}

}  // namespace tarn::parquet::thrift
