// The compact-protocol reader and writer: value round trips against the encoding rules, and
// exact errors for every malformed construct.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "parquet/thrift_compact.h"

namespace tarn::parquet::thrift {
namespace {

std::string ErrorOf(CompactReader& reader) { return reader.status("ctx").ToString(); }

TEST(ThriftCompactTest, IntegersRoundTripAtEveryLength) {
  std::vector<int64_t> values = {0,
                                 1,
                                 -1,
                                 63,
                                 -64,
                                 64,
                                 -65,
                                 8191,
                                 -8192,
                                 8192,
                                 std::numeric_limits<int32_t>::max(),
                                 std::numeric_limits<int32_t>::min(),
                                 std::numeric_limits<int64_t>::max(),
                                 std::numeric_limits<int64_t>::min()};
  std::mt19937_64 rng(11);
  for (int shift = 0; shift < 64; ++shift) values.push_back(static_cast<int64_t>(rng()) >> shift);
  std::string bytes;
  CompactWriter writer(&bytes);
  for (int64_t value : values) {
    writer.WriteI64(value);
    writer.WriteI32(static_cast<int32_t>(value));
    writer.WriteI16(static_cast<int16_t>(value));
    writer.WriteI8(static_cast<int8_t>(value));
    writer.WriteDouble(static_cast<double>(value) / 3);
  }
  DecodeLimits limits;
  CompactReader reader(bytes, limits);
  for (int64_t value : values) {
    int64_t i64 = 0;
    int32_t i32 = 0;
    int16_t i16 = 0;
    int8_t i8 = 0;
    double d = 0;
    ASSERT_TRUE(reader.ReadI64(&i64) && reader.ReadI32(&i32) && reader.ReadI16(&i16) &&
                reader.ReadI8(&i8) && reader.ReadDouble(&d))
        << ErrorOf(reader);
    EXPECT_EQ(i64, value);
    EXPECT_EQ(i32, static_cast<int32_t>(value));
    EXPECT_EQ(i16, static_cast<int16_t>(value));
    EXPECT_EQ(i8, static_cast<int8_t>(value));
    EXPECT_EQ(d, static_cast<double>(value) / 3);
  }
  EXPECT_EQ(reader.remaining(), 0);
}

TEST(ThriftCompactTest, ZigzagVarintBytesFollowTheSpec) {
  std::string bytes;
  CompactWriter writer(&bytes);
  writer.WriteI32(-1);   // zigzag 1
  writer.WriteI32(1);    // zigzag 2
  writer.WriteI32(-64);  // zigzag 127
  writer.WriteI32(64);   // zigzag 128 = 0x80 0x01
  EXPECT_EQ(bytes, std::string("\x01\x02\x7f\x80\x01", 5));
}

TEST(ThriftCompactTest, FieldHeadersUseDeltasAndLongForm) {
  std::string bytes;
  CompactWriter writer(&bytes);
  writer.BeginStruct();
  const int16_t ids[] = {1, 2, 17, 3, 300, -5, 32767};
  for (int16_t id : ids) writer.FieldI32(id, id);
  writer.FieldBool(18, true);
  writer.FieldBool(19, false);
  writer.EndStruct();
  // Field 1: delta 1, type i32 (5) -> 0x15.
  EXPECT_EQ(static_cast<uint8_t>(bytes[0]), 0x15);

  DecodeLimits limits;
  CompactReader reader(bytes, limits);
  ASSERT_TRUE(reader.BeginStruct());
  int16_t last_id = 0;
  for (int16_t id : ids) {
    FieldHeader header;
    ASSERT_TRUE(reader.ReadFieldHeader(&last_id, &header)) << ErrorOf(reader);
    EXPECT_EQ(header.id, id);
    EXPECT_EQ(header.type, WireType::kI32);
    int32_t value = 0;
    ASSERT_TRUE(reader.ReadI32(&value));
    EXPECT_EQ(value, id);
  }
  FieldHeader header;
  ASSERT_TRUE(reader.ReadFieldHeader(&last_id, &header));
  EXPECT_TRUE(header.IsBool() && header.BoolValue());
  ASSERT_TRUE(reader.ReadFieldHeader(&last_id, &header));
  EXPECT_TRUE(header.IsBool() && !header.BoolValue());
  ASSERT_TRUE(reader.ReadFieldHeader(&last_id, &header));
  EXPECT_EQ(header.type, WireType::kStop);
  EXPECT_EQ(reader.remaining(), 0);
}

TEST(ThriftCompactTest, VarintErrors) {
  DecodeLimits limits;
  {
    const std::string bytes("\x80\x80", 2);
    CompactReader reader(bytes, limits);
    int32_t value;
    EXPECT_FALSE(reader.ReadI32(&value));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: varint runs past end at offset 0");
  }
  {
    const std::string bytes("\x01\xff\xff\xff\xff\x1f", 6);  // 5th byte carries bit 32
    CompactReader reader(bytes, limits);
    int8_t skip;
    int32_t value;
    ASSERT_TRUE(reader.ReadI8(&skip));
    EXPECT_FALSE(reader.ReadI32(&value));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: varint overflows 32 bits at offset 1");
  }
  {
    const std::string bytes = std::string(10, '\xff') + "\x01";
    CompactReader reader(bytes, limits);
    int64_t value;
    EXPECT_FALSE(reader.ReadI64(&value));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: varint overflows 64 bits at offset 0");
  }
  {
    std::string bytes;
    CompactWriter(&bytes).WriteI32(40000);
    CompactReader reader(bytes, limits);
    int16_t value;
    EXPECT_FALSE(reader.ReadI16(&value));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: i16 value 40000 out of range at offset 0");
  }
  {
    CompactReader reader(std::string_view("\x01\x02\x03", 3), limits);
    double value;
    EXPECT_FALSE(reader.ReadDouble(&value));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: double runs past end at offset 0");
  }
}

TEST(ThriftCompactTest, FieldHeaderErrors) {
  DecodeLimits limits;
  int16_t last_id = 0;
  FieldHeader header;
  {
    CompactReader reader(std::string_view("\x1e", 1), limits);  // type 14 does not exist
    EXPECT_FALSE(reader.ReadFieldHeader(&last_id, &header));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: invalid field type 14 at offset 0");
  }
  {
    CompactReader reader(std::string_view(""), limits);
    EXPECT_FALSE(reader.ReadFieldHeader(&last_id, &header));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: field header runs past end at offset 0");
  }
  {
    last_id = 32767;
    CompactReader reader(std::string_view("\x15", 1), limits);
    EXPECT_FALSE(reader.ReadFieldHeader(&last_id, &header));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: field id 32768 overflows i16 at offset 0");
  }
}

TEST(ThriftCompactTest, BinaryLimits) {
  std::string bytes;
  CompactWriter writer(&bytes);
  writer.WriteBinary("hello");
  DecodeLimits limits;
  {
    CompactReader reader(bytes, limits);
    std::string value;
    ASSERT_TRUE(reader.ReadString(&value));
    EXPECT_EQ(value, "hello");
  }
  {
    CompactReader reader(std::string_view(bytes).substr(0, 4), limits);
    std::string_view value;
    EXPECT_FALSE(reader.ReadBinary(&value));
    EXPECT_EQ(ErrorOf(reader),
              "Corruption: ctx: binary of 5 bytes runs past end (3 bytes left) at offset 0");
  }
  {
    DecodeLimits small;
    small.max_string_bytes = 4;
    CompactReader reader(bytes, small);
    std::string_view value;
    EXPECT_FALSE(reader.ReadBinary(&value));
    EXPECT_EQ(ErrorOf(reader),
              "Corruption: ctx: binary of 5 bytes exceeds the limit of 4 at offset 0");
  }
}

TEST(ThriftCompactTest, CollectionHeadersRoundTripAndAreBounded) {
  std::string bytes;
  CompactWriter writer(&bytes);
  writer.WriteListHeader(WireType::kI64, 3);
  writer.WriteListHeader(WireType::kBinary, 300);
  writer.WriteMapHeader(WireType::kBinary, WireType::kStruct, 2);
  writer.WriteMapHeader(WireType::kI32, WireType::kI32, 0);
  bytes += std::string(2 * 300, '\0');
  DecodeLimits limits;
  CompactReader reader(bytes, limits);
  ListHeader list;
  ASSERT_TRUE(reader.ReadListHeader(&list));
  EXPECT_EQ(list.size, 3);
  EXPECT_EQ(list.element_type, WireType::kI64);
  ASSERT_TRUE(reader.ReadListHeader(&list));
  EXPECT_EQ(list.size, 300);
  EXPECT_EQ(list.element_type, WireType::kBinary);
  MapHeader map;
  ASSERT_TRUE(reader.ReadMapHeader(&map)) << ErrorOf(reader);
  EXPECT_EQ(map.size, 2);
  EXPECT_EQ(map.key_type, WireType::kBinary);
  EXPECT_EQ(map.value_type, WireType::kStruct);
  ASSERT_TRUE(reader.ReadMapHeader(&map));
  EXPECT_EQ(map.size, 0);

  // 2^31 - 1 doubles (8 bytes each at least) in a handful of bytes fail at the header.
  std::string hostile;
  CompactWriter(&hostile).WriteListHeader(WireType::kDouble, std::numeric_limits<int32_t>::max());
  hostile += std::string(7, '\0');
  DecodeLimits generous;
  generous.max_list_elements = std::numeric_limits<int32_t>::max();
  CompactReader hostile_reader(hostile, generous);
  EXPECT_FALSE(hostile_reader.ReadListHeader(&list));
  EXPECT_EQ(ErrorOf(hostile_reader),
            "Corruption: ctx: list of 2147483647 double elements cannot fit in the 7 bytes left "
            "at offset 0");

  std::string hostile_map;
  CompactWriter(&hostile_map).WriteMapHeader(WireType::kI32, WireType::kI32, 1000);
  hostile_map += std::string(1000, '\0');
  CompactReader map_reader(hostile_map, limits);
  EXPECT_FALSE(map_reader.ReadMapHeader(&map));
  EXPECT_EQ(ErrorOf(map_reader),
            "Corruption: ctx: map of 1000 entries cannot fit in the 1000 bytes left at offset 0");

  CompactReader bad_type(std::string_view("\x1e", 1), limits);  // element type 14
  EXPECT_FALSE(bad_type.ReadListHeader(&list));
  EXPECT_EQ(ErrorOf(bad_type), "Corruption: ctx: invalid collection element type 14 at offset 0");
}

TEST(ThriftCompactTest, BoolElements) {
  DecodeLimits limits;
  CompactReader reader(std::string_view("\x01\x02\x00\x03", 4), limits);
  bool value = false;
  ASSERT_TRUE(reader.ReadBoolElement(&value));
  EXPECT_TRUE(value);
  ASSERT_TRUE(reader.ReadBoolElement(&value));
  EXPECT_FALSE(value);
  ASSERT_TRUE(reader.ReadBoolElement(&value));
  EXPECT_FALSE(value);
  EXPECT_FALSE(reader.ReadBoolElement(&value));
  EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: invalid bool byte 3 at offset 3");
}

// `depth` nested structs, each a field 1 of the previous one.
std::string NestedStructs(int depth) {
  std::string bytes;
  CompactWriter writer(&bytes);
  writer.BeginStruct();
  for (int level = 1; level < depth; ++level) writer.FieldStructBegin(1);
  for (int level = 0; level < depth; ++level) writer.EndStruct();
  return bytes;
}

TEST(ThriftCompactTest, SkipHonoursDepthLimit) {
  DecodeLimits limits;
  limits.max_struct_depth = 10;
  {
    const std::string bytes = NestedStructs(10);
    CompactReader reader(bytes, limits);
    ASSERT_TRUE(reader.Skip(WireType::kStruct)) << ErrorOf(reader);
    EXPECT_EQ(reader.remaining(), 0);
  }
  {
    const std::string bytes = NestedStructs(11);
    CompactReader reader(bytes, limits);
    EXPECT_FALSE(reader.Skip(WireType::kStruct));
    EXPECT_EQ(ErrorOf(reader), "Corruption: ctx: nesting deeper than 10 at offset 10");
  }
  {
    // Lists nest too: list<list<list<...>>> one element each.
    std::string bytes;
    CompactWriter writer(&bytes);
    for (int level = 0; level < 100000; ++level) writer.WriteListHeader(WireType::kList, 1);
    CompactReader reader(bytes, limits);
    EXPECT_FALSE(reader.Skip(WireType::kList));
    EXPECT_NE(ErrorOf(reader).find("nesting deeper than 10"), std::string::npos);
  }
}

TEST(ThriftCompactTest, SkipEveryType) {
  std::string bytes;
  CompactWriter writer(&bytes);
  writer.BeginStruct();
  writer.FieldBool(1, true);
  writer.FieldI8(2, 1);
  writer.FieldI16(3, -2);
  writer.FieldI32(4, 3);
  writer.FieldI64(5, -4);
  writer.WriteFieldHeader(WireType::kDouble, 6);
  writer.WriteDouble(std::nan(""));
  writer.FieldBinary(7, std::string(200, 'x'));
  writer.WriteFieldHeader(WireType::kList, 8);
  writer.WriteListHeader(WireType::kBoolTrue, 2);
  writer.WriteBoolElement(true);
  writer.WriteBoolElement(false);
  writer.WriteFieldHeader(WireType::kSet, 9);
  writer.WriteListHeader(WireType::kDouble, 1);
  writer.WriteDouble(1.5);
  writer.WriteFieldHeader(WireType::kMap, 10);
  writer.WriteMapHeader(WireType::kI16, WireType::kBinary, 1);
  writer.WriteI16(5);
  writer.WriteBinary("v");
  writer.WriteFieldHeader(WireType::kUuid, 11);
  for (int byte_idx = 0; byte_idx < 16; ++byte_idx) writer.WriteI8(1);
  writer.EndStruct();
  bytes += "tail";
  DecodeLimits limits;
  CompactReader reader(bytes, limits);
  ASSERT_TRUE(reader.Skip(WireType::kStruct)) << ErrorOf(reader);
  EXPECT_EQ(reader.remaining(), 4);

  // Every strict prefix fails cleanly.
  for (size_t length = 0; length + 4 < bytes.size(); ++length) {
    CompactReader prefix(std::string_view(bytes).substr(0, length), limits);
    EXPECT_FALSE(prefix.Skip(WireType::kStruct)) << length;
    EXPECT_TRUE(prefix.status("ctx").IsCorruption());
  }
}

TEST(ThriftCompactTest, AnnotationNamesInnermostField) {
  DecodeLimits limits;
  CompactReader reader(std::string_view("\x80", 1), limits);
  int32_t value;
  EXPECT_FALSE(reader.ReadI32(&value));
  reader.Annotate("Inner", "field");
  reader.Annotate("Outer", "inner");
  EXPECT_EQ(reader.status("parquet footer").ToString(),
            "Corruption: parquet footer: Inner.field: varint runs past end at offset 0");
}

// Random bytes, read as a struct: a clean result either way.
TEST(ThriftCompactTest, RandomBytesSkipCleanly) {
  std::mt19937_64 rng(5);
  DecodeLimits limits;
  int ok = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string bytes(rng() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    CompactReader reader(bytes, limits);
    if (reader.Skip(WireType::kStruct)) {
      ++ok;
      EXPECT_LE(reader.offset(), static_cast<int64_t>(bytes.size()));
    } else {
      EXPECT_TRUE(reader.status("ctx").IsCorruption());
    }
  }
  EXPECT_GT(ok, 0);
}

}  // namespace
}  // namespace tarn::parquet::thrift
