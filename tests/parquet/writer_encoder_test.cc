// Encoders: the RLE/bit-packed hybrid checked against a naive decoder written from the spec and
// against tarn's decoder; PLAIN layouts; dictionary builders and their byte limit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parquet/encoder.h"
#include "parquet/encoding.h"

namespace tarn::parquet {
namespace {

// Decodes the hybrid encoding the slow, obvious way: run by run, bit by bit.
std::vector<uint32_t> NaiveDecode(const std::string& bytes, int bit_width, size_t count) {
  std::vector<uint32_t> out;
  size_t pos = 0;
  auto byte_at = [&](size_t i) -> uint8_t {
    EXPECT_LT(i, bytes.size());
    return i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0;
  };
  while (out.size() < count) {
    uint64_t header = 0;
    int shift = 0;
    for (;;) {
      uint8_t b = byte_at(pos++);
      header |= static_cast<uint64_t>(b & 0x7F) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    if (header & 1) {
      uint64_t values = (header >> 1) * 8;
      size_t bit = pos * 8;
      for (uint64_t v = 0; v < values; ++v) {
        uint32_t value = 0;
        for (int b = 0; b < bit_width; ++b, ++bit) {
          if ((byte_at(bit / 8) >> (bit % 8)) & 1) value |= 1u << b;
        }
        if (out.size() < count) out.push_back(value);
      }
      pos += static_cast<size_t>((header >> 1) * bit_width);
    } else {
      uint64_t run = header >> 1;
      EXPECT_GT(run, 0u) << "empty RLE run";
      uint32_t value = 0;
      for (int b = 0; b < (bit_width + 7) / 8; ++b) value |= uint32_t(byte_at(pos++)) << (8 * b);
      for (uint64_t v = 0; v < run; ++v) out.push_back(value);
    }
  }
  EXPECT_EQ(pos, bytes.size()) << "trailing bytes after " << count << " values";
  return out;
}

std::vector<uint32_t> RandomRuns(std::mt19937_64& rng, int bit_width, size_t count) {
  std::vector<uint32_t> values;
  uint32_t max = bit_width == 32 ? 0xFFFFFFFFu : ((1u << bit_width) - 1);
  while (values.size() < count) {
    uint32_t value = static_cast<uint32_t>(rng()) & max;
    size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
    for (size_t i = 0; i < run && values.size() < count; ++i) values.push_back(value);
  }
  return values;
}

TEST(RleEncoderTest, MatchesNaiveAndRealDecoderAcrossWidths) {
  std::mt19937_64 rng(42);
  for (int bit_width = 0; bit_width <= 32; ++bit_width) {
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{64},
                         size_t{1000}}) {
      std::vector<uint32_t> values = RandomRuns(rng, bit_width, count);
      std::string encoded;
      EncodeRleBitPacked(values.data(), static_cast<int64_t>(values.size()), bit_width, &encoded);
      EXPECT_EQ(NaiveDecode(encoded, bit_width, count), values)
          << "bit_width " << bit_width << " count " << count;
      std::vector<uint32_t> decoded(count);
      RleBitPackedDecoder decoder(reinterpret_cast<const uint8_t*>(encoded.data()),
                                  static_cast<int64_t>(encoded.size()), bit_width);
      ASSERT_TRUE(decoder.GetBatch(decoded.data(), static_cast<int64_t>(count)).ok());
      EXPECT_EQ(decoded, values) << "bit_width " << bit_width << " count " << count;
    }
  }
}

TEST(RleEncoderTest, LongRunsBecomeRleRuns) {
  std::vector<uint32_t> values(10000, 5);
  std::string encoded;
  EncodeRleBitPacked(values.data(), 10000, 3, &encoded);
  // One RLE run: varint(10000 << 1) is 3 bytes, then the value in one byte.
  EXPECT_EQ(encoded.size(), 4u);
  EXPECT_EQ(NaiveDecode(encoded, 3, 10000), values);
}

TEST(RleEncoderTest, LiteralsBeforeARunArePaddedFromTheRun) {
  // 3 literals, then a run of 20: the run lends 5 values to fill the literal group.
  std::vector<uint32_t> values = {1, 2, 3};
  values.insert(values.end(), 20, 7);
  std::string encoded;
  EncodeRleBitPacked(values.data(), static_cast<int64_t>(values.size()), 3, &encoded);
  EXPECT_EQ(NaiveDecode(encoded, 3, values.size()), values);
  // bit-packed header + 3 bytes, RLE header + 1 byte
  EXPECT_EQ(encoded.size(), 1u + 3u + 1u + 1u);
}

TEST(RleEncoderTest, LevelsWithLengthPrefix) {
  std::vector<int16_t> levels = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 2};
  std::string encoded;
  EncodeLengthPrefixedLevels(levels.data(), static_cast<int64_t>(levels.size()), 2, &encoded);
  uint32_t length;
  std::memcpy(&length, encoded.data(), 4);
  ASSERT_EQ(length, encoded.size() - 4);
  std::vector<uint32_t> decoded = NaiveDecode(encoded.substr(4), 2, levels.size());
  for (size_t i = 0; i < levels.size(); ++i) EXPECT_EQ(decoded[i], uint32_t(levels[i]));
  std::vector<int16_t> real(levels.size());
  RleBitPackedDecoder decoder(reinterpret_cast<const uint8_t*>(encoded.data()) + 4, length, 2);
  ASSERT_TRUE(decoder.GetLevels(real.data(), static_cast<int64_t>(real.size())).ok());
  EXPECT_EQ(real, levels);
}

TEST(PlainEncoderTest, Layouts) {
  std::string out;
  int32_t ints[] = {1, -1};
  EncodePlain(ints, 2, &out);
  EXPECT_EQ(out, std::string("\x01\x00\x00\x00\xff\xff\xff\xff", 8));
  out.clear();
  uint8_t bools[] = {1, 0, 1, 1, 0, 0, 0, 0, 1};
  EncodePlainBooleans(bools, 9, &out);
  EXPECT_EQ(out, std::string("\x0d\x01", 2));
  out.clear();
  std::string_view strings[] = {"ab", ""};
  EncodePlainByteArrays(strings, 2, &out);
  EXPECT_EQ(out, std::string("\x02\x00\x00\x00" "ab" "\x00\x00\x00\x00", 10));
  int64_t pos = 0;
  std::vector<int64_t> offsets(2);
  std::string bytes;
  ASSERT_TRUE(DecodePlainByteArrays(reinterpret_cast<const uint8_t*>(out.data()),
                                    static_cast<int64_t>(out.size()), &pos, 2, offsets.data(),
                                    &bytes)
                  .ok());
  EXPECT_EQ(bytes, "ab");
  out.clear();
  std::string_view fixed[] = {"abcd", "efgh"};
  EncodePlainFixedLenByteArrays(fixed, 2, &out);
  EXPECT_EQ(out, "abcdefgh");
}

TEST(DictionaryBuilderTest, IndicesInInsertionOrderAndBitExactFloats) {
  DictionaryBuilder<double, FixedWidthTraits<double>> dict(1 << 20);
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inputs[] = {1.5, -0.0, 0.0, 1.5, nan, -nan, nan, 0.0};
  uint32_t expected[] = {0, 1, 2, 0, 3, 4, 3, 2};
  for (size_t i = 0; i < 8; ++i) {
    uint32_t index = 99;
    ASSERT_TRUE(dict.Insert(inputs[i], &index));
    EXPECT_EQ(index, expected[i]) << i;
  }
  EXPECT_EQ(dict.size(), 5);
  EXPECT_EQ(dict.byte_size(), 40);
  EXPECT_TRUE(std::signbit(dict.values()[1]));
}

TEST(DictionaryBuilderTest, StopsAtTheByteLimit) {
  // Each value costs 4 + 3 bytes; a limit of 70 holds exactly 10 values.
  DictionaryBuilder<std::string_view, ByteArrayTraits> dict(70);
  std::vector<std::string> values;
  for (int i = 0; i < 20; ++i) values.push_back("v" + std::to_string(10 + i));
  uint32_t index;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(dict.Insert(values[i], &index)) << i;
  EXPECT_EQ(dict.byte_size(), 70);
  EXPECT_FALSE(dict.overflowed());
  // Known values still resolve; a new one does not fit.
  ASSERT_TRUE(dict.Insert(values[3], &index));
  EXPECT_EQ(index, 3u);
  EXPECT_FALSE(dict.Insert(values[10], &index));
  EXPECT_TRUE(dict.overflowed());
  EXPECT_EQ(dict.size(), 10);
}

TEST(DictionaryBuilderTest, ManyValuesGrowTheTable) {
  DictionaryBuilder<int64_t, FixedWidthTraits<int64_t>> dict(1 << 30);
  std::mt19937_64 rng(7);
  std::vector<int64_t> values(100000);
  for (auto& v : values) v = static_cast<int64_t>(rng() % 30000) - 15000;
  std::vector<int64_t> seen;
  for (int64_t v : values) {
    uint32_t index;
    ASSERT_TRUE(dict.Insert(v, &index));
    if (index == seen.size()) seen.push_back(v);
    ASSERT_LT(index, seen.size());
    ASSERT_EQ(seen[index], v);
  }
  EXPECT_EQ(static_cast<size_t>(dict.size()), seen.size());
}

TEST(HashBytesTest, DistinguishesLengthsAndContent) {
  EXPECT_NE(HashBytes(std::string_view("\0", 1)), HashBytes(std::string_view("\0\0", 2)));
  EXPECT_NE(HashBytes("abcdefgh1"), HashBytes("abcdefgh2"));
  EXPECT_EQ(HashBytes("same text"), HashBytes(std::string("same text")));
}

}  // namespace
}  // namespace tarn::parquet
