// The Thrift compact protocol, as Parquet metadata uses it: a bounds-checked reader for
// untrusted bytes and a writer.
//
// CompactReader never reads past its input, never throws, and never allocates in proportion to
// a declared size before checking it against the bytes that remain and DecodeLimits: every
// collection element needs at least one byte on the wire, so a list header claiming 2^31
// elements in ten bytes fails at the header. Read* methods return false on failure; the first
// failure is recorded (what went wrong and the byte offset), and the struct decoders above it
// name the field with Annotate(). status() then renders
// "<context>: <Struct>.<field>: <problem> at offset <n>".
//
// Field ids are delta-coded relative to the previous field of the same struct, so a struct
// decoder keeps its own `last_id` (starting at 0) and passes it to ReadFieldHeader.
//
// CompactWriter appends to a std::string; it is only fed by tarn's own encoders.
//
// Thread-safety: a reader or writer is used by one thread at a time.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "parquet/metadata.h"
#include "tarn/status.h"

namespace tarn::parquet::thrift {

// Compact-protocol type ids (the low nibble of a field header or collection header).
enum class WireType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,
};

std::string_view WireTypeName(WireType type);

struct FieldHeader {
  WireType type = WireType::kStop;
  int16_t id = 0;

  bool IsBool() const { return type == WireType::kBoolTrue || type == WireType::kBoolFalse; }
  bool BoolValue() const { return type == WireType::kBoolTrue; }
  bool IsList() const { return type == WireType::kList || type == WireType::kSet; }
};

struct ListHeader {
  WireType element_type = WireType::kStop;
  int64_t size = 0;
};

struct MapHeader {
  WireType key_type = WireType::kStop;
  WireType value_type = WireType::kStop;
  int64_t size = 0;
};

class CompactReader {
 public:
  CompactReader(std::string_view bytes, const DecodeLimits& limits)
      : begin_(reinterpret_cast<const uint8_t*>(bytes.data())),
        pos_(begin_),
        end_(begin_ + bytes.size()),
        limits_(limits) {}

  CompactReader(const CompactReader&) = delete;
  CompactReader& operator=(const CompactReader&) = delete;

  // Bytes consumed so far / left.
  int64_t offset() const { return pos_ - begin_; }
  int64_t remaining() const { return end_ - pos_; }

  // Struct nesting: BeginStruct fails past DecodeLimits::max_struct_depth.
  bool BeginStruct() {
    if (++depth_ > limits_.max_struct_depth) return FailDepth();
    return true;
  }
  void EndStruct() { --depth_; }

  // Reads a field header; `header->type == kStop` ends the struct. `last_id` is the previous
  // field id of this struct and is updated.
  bool ReadFieldHeader(int16_t* last_id, FieldHeader* header);

  bool ReadI8(int8_t* value);
  bool ReadI16(int16_t* value);
  bool ReadI32(int32_t* value) {
    uint32_t raw;
    if (!ReadVarint32(&raw)) return false;
    *value = static_cast<int32_t>((raw >> 1) ^ (~(raw & 1) + 1));
    return true;
  }
  bool ReadI64(int64_t* value) {
    uint64_t raw;
    if (!ReadVarint64(&raw)) return false;
    *value = static_cast<int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
    return true;
  }
  bool ReadDouble(double* value);
  // A binary/string: the view points into the input and lives as long as it does.
  bool ReadBinary(std::string_view* value);
  bool ReadString(std::string* value) {
    std::string_view view;
    if (!ReadBinary(&view)) return false;
    value->assign(view.data(), view.size());
    return true;
  }
  // A bool inside a list/set/map: one byte, 1 = true, 0 or 2 = false.
  bool ReadBoolElement(bool* value);

  // Collection headers. The size is checked against max_list_elements and against the bytes
  // left (each element takes at least one byte), so callers may reserve(size).
  bool ReadListHeader(ListHeader* header);
  bool ReadMapHeader(MapHeader* header);

  // Skips a value of `type`: a field's value (bools carry no payload) or, with
  // `in_collection`, a collection element (bools take a byte). Recurses into structs and
  // collections up to max_struct_depth.
  bool Skip(WireType type, bool in_collection = false);
  bool SkipField(const FieldHeader& header) { return Skip(header.type, false); }

  // Records a failure at `offset` (the first one wins) and returns false.
  bool FailAt(int64_t offset, std::string problem);
  // Names the field being decoded when the failure happened (the innermost wins) and
  // returns false.
  bool Annotate(const char* struct_name, const char* field_name);
  // As Annotate, for a field tarn does not know: "<Struct>.field <id>".
  bool AnnotateUnknown(const char* struct_name, int16_t field_id);

  // Set by struct decoders when they skip a known field whose wire type is not the expected
  // one (Thrift's rule: such a field counts as absent). Decoders clear it per field.
  bool field_skipped() const { return field_skipped_; }
  void set_field_skipped(bool skipped) { field_skipped_ = skipped; }

  bool failed() const { return failed_; }
  // Corruption "<context>: <Struct>.<field>: <problem> at offset <n>".
  Status status(std::string_view context) const;

 private:
  bool ReadVarint32(uint32_t* value) {
    if (pos_ < end_ && *pos_ < 0x80) {
      *value = *pos_++;
      return true;
    }
    return ReadVarint32Slow(value);
  }
  bool ReadVarint64(uint64_t* value) {
    if (pos_ < end_ && *pos_ < 0x80) {
      *value = *pos_++;
      return true;
    }
    return ReadVarint64Slow(value);
  }
  bool ReadVarint32Slow(uint32_t* value);
  bool ReadVarint64Slow(uint64_t* value);
  bool FailDepth();
  bool CheckElementType(uint8_t nibble, int64_t start, WireType* type);
  bool SkipCollection(int64_t size, WireType first, WireType second);

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  const DecodeLimits limits_;  // a copy: callers often pass a temporary
  int32_t depth_ = 0;
  bool field_skipped_ = false;

  bool failed_ = false;
  int64_t fail_offset_ = 0;
  std::string problem_;
  bool annotated_ = false;
  std::string field_path_;  // "<Struct>.<field>", set by the innermost Annotate
};

class CompactWriter {
 public:
  explicit CompactWriter(std::string* out) : out_(out) {}

  CompactWriter(const CompactWriter&) = delete;
  CompactWriter& operator=(const CompactWriter&) = delete;

  // Struct framing. REQUIRES: nesting below kMaxDepth (tarn's metadata nests ~6 deep).
  void BeginStruct() { last_ids_[++depth_] = 0; }
  void EndStruct() {
    out_->push_back(0);  // stop
    --depth_;
  }

  void WriteFieldHeader(WireType type, int16_t id);
  void WriteI8(int8_t value) { out_->push_back(static_cast<char>(value)); }
  void WriteI16(int16_t value) { WriteI32(value); }
  void WriteI32(int32_t value) {
    WriteVarint((static_cast<uint32_t>(value) << 1) ^ static_cast<uint32_t>(value >> 31));
  }
  void WriteI64(int64_t value) {
    WriteVarint((static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63));
  }
  void WriteDouble(double value);
  void WriteBinary(std::string_view value);
  void WriteBoolElement(bool value) { out_->push_back(value ? 1 : 2); }
  void WriteListHeader(WireType element_type, int64_t size);
  void WriteMapHeader(WireType key_type, WireType value_type, int64_t size);

  // Field shorthands: header + value.
  void FieldBool(int16_t id, bool value) {
    WriteFieldHeader(value ? WireType::kBoolTrue : WireType::kBoolFalse, id);
  }
  void FieldI8(int16_t id, int8_t value) {
    WriteFieldHeader(WireType::kByte, id);
    WriteI8(value);
  }
  void FieldI16(int16_t id, int16_t value) {
    WriteFieldHeader(WireType::kI16, id);
    WriteI16(value);
  }
  void FieldI32(int16_t id, int32_t value) {
    WriteFieldHeader(WireType::kI32, id);
    WriteI32(value);
  }
  void FieldI64(int16_t id, int64_t value) {
    WriteFieldHeader(WireType::kI64, id);
    WriteI64(value);
  }
  void FieldBinary(int16_t id, std::string_view value) {
    WriteFieldHeader(WireType::kBinary, id);
    WriteBinary(value);
  }
  // Header of a struct-valued field followed by BeginStruct().
  void FieldStructBegin(int16_t id) {
    WriteFieldHeader(WireType::kStruct, id);
    BeginStruct();
  }
  // A union member that is an empty struct: {id: {}}.
  void FieldEmptyStruct(int16_t id) {
    FieldStructBegin(id);
    EndStruct();
  }

  void WriteVarint(uint64_t value) {
    char buffer[10];
    int length = 0;
    while (value >= 0x80) {
      buffer[length++] = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    buffer[length++] = static_cast<char>(value);
    out_->append(buffer, length);
  }

 private:
  static constexpr int kMaxDepth = 32;
  std::string* out_;
  std::array<int16_t, kMaxDepth + 1> last_ids_{};
  int depth_ = 0;
};

}  // namespace tarn::parquet::thrift
