// Decoder unit tests: the RLE/bit-packed hybrid against a naive model on random runs, legacy
// BIT_PACKED levels, PLAIN decoders, value conversions, and malformed streams.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "parquet/encoding.h"

namespace tarn::parquet {
namespace {

void PutVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// A naive hybrid encoder writing the runs it is told to, bit by bit.
struct HybridModel {
  int bit_width;
  std::string bytes;
  std::vector<uint32_t> values;

  void AddRle(uint32_t value, int64_t count) {
    PutVarint(static_cast<uint64_t>(count) << 1, &bytes);
    for (int i = 0; i < (bit_width + 7) / 8; ++i) bytes.push_back(static_cast<char>(value >> (8 * i)));
    values.insert(values.end(), count, value);
  }
  void AddPacked(const std::vector<uint32_t>& run) {  // run.size() % 8 == 0
    PutVarint((run.size() / 8) << 1 | 1, &bytes);
    std::string packed(run.size() * bit_width / 8, '\0');
    int64_t bit = 0;
    for (uint32_t value : run) {
      for (int b = 0; b < bit_width; ++b, ++bit) {
        if ((value >> b) & 1) packed[bit / 8] |= static_cast<char>(1 << (bit % 8));
      }
    }
    bytes += packed;
    values.insert(values.end(), run.begin(), run.end());
  }
};

TEST(ReaderEncodingTest, HybridRandomRunsMatchModel) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 400; ++trial) {
    const int bit_width = static_cast<int>(rng() % 33);
    const uint64_t mask = bit_width == 32 ? 0xFFFFFFFFull : ((1ull << bit_width) - 1);
    HybridModel model{bit_width, {}, {}};
    const int runs = 1 + static_cast<int>(rng() % 12);
    for (int run = 0; run < runs; ++run) {
      if (rng() % 2) {
        model.AddRle(static_cast<uint32_t>(rng() & mask), 1 + static_cast<int64_t>(rng() % 300));
      } else {
        std::vector<uint32_t> packed(8 * (1 + rng() % 20));
        for (auto& v : packed) v = static_cast<uint32_t>(rng() & mask);
        model.AddPacked(packed);
      }
    }
    SCOPED_TRACE(::testing::Message() << "trial " << trial << " width " << bit_width);
    // Decode in random-sized pieces, mixing Skip and GetBatch, from a buffer of exactly the
    // stream's size (the sanitizer build catches a read past it).
    const std::vector<uint8_t> exact(model.bytes.begin(), model.bytes.end());
    RleBitPackedDecoder decoder(exact.data(), static_cast<int64_t>(exact.size()), bit_width);
    size_t pos = 0;
    while (pos < model.values.size()) {
      const size_t piece = rng() % 3 == 0 ? 1 + rng() % 400 : 1 + rng() % 37;
      const size_t n = std::min<size_t>(piece, model.values.size() - pos);
      if (rng() % 4 == 0) {
        ASSERT_TRUE(decoder.Skip(static_cast<int64_t>(n)).ok());
      } else {
        std::vector<uint32_t> got(n);
        ASSERT_TRUE(decoder.GetBatch(got.data(), static_cast<int64_t>(n)).ok());
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], model.values[pos + i]) << "at " << pos + i;
      }
      pos += n;
    }
    uint32_t extra;
    EXPECT_TRUE(decoder.GetBatch(&extra, 1).IsCorruption());  // past the end
  }
}

TEST(ReaderEncodingTest, LevelsFromHybrid) {
  HybridModel model{3, {}, {}};
  model.AddRle(5, 10);
  model.AddPacked({0, 1, 2, 3, 4, 5, 6, 7});
  RleBitPackedDecoder decoder(reinterpret_cast<const uint8_t*>(model.bytes.data()),
                              static_cast<int64_t>(model.bytes.size()), 3);
  std::vector<int16_t> levels(18);
  ASSERT_TRUE(decoder.GetLevels(levels.data(), 18).ok());
  for (size_t i = 0; i < 18; ++i) EXPECT_EQ(levels[i], static_cast<int16_t>(model.values[i]));
}

TEST(ReaderEncodingTest, MalformedHybridStreams) {
  uint32_t out[64];
  // Bit width over 32.
  const uint8_t rle[] = {0x02, 0x01};
  RleBitPackedDecoder wide(rle, sizeof(rle), 33);
  EXPECT_TRUE(wide.GetBatch(out, 1).IsCorruption());
  // Run header that never ends.
  const uint8_t endless[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  RleBitPackedDecoder header(endless, sizeof(endless), 4);
  EXPECT_TRUE(header.GetBatch(out, 1).IsCorruption());
  // RLE run whose value byte is missing.
  const uint8_t no_value[] = {0x04};
  RleBitPackedDecoder missing(no_value, sizeof(no_value), 8);
  EXPECT_TRUE(missing.GetBatch(out, 1).IsCorruption());
  // RLE value wider than the bit width.
  const uint8_t too_big[] = {0x04, 0x09};
  RleBitPackedDecoder big(too_big, sizeof(too_big), 3);
  EXPECT_TRUE(big.GetBatch(out, 1).IsCorruption());
  // Asking for more values than the stream holds.
  const uint8_t short_run[] = {0x04, 0x01};
  RleBitPackedDecoder short_decoder(short_run, sizeof(short_run), 1);
  EXPECT_TRUE(short_decoder.GetBatch(out, 3).IsCorruption());
  // A zero-length run.
  const uint8_t empty_run[] = {0x00, 0x01};
  RleBitPackedDecoder empty(empty_run, sizeof(empty_run), 1);
  EXPECT_TRUE(empty.GetBatch(out, 1).IsCorruption());
  // A bit-packed run cut short keeps only the values whose bits exist.
  const uint8_t cut[] = {0x03, 0xFF};  // one group of 8 at width 4 needs 4 bytes; 1 present
  RleBitPackedDecoder truncated(cut, sizeof(cut), 4);
  ASSERT_TRUE(truncated.GetBatch(out, 2).ok());
  EXPECT_EQ(out[0], 15u);
  EXPECT_TRUE(truncated.GetBatch(out, 1).IsCorruption());
}

// A last bit-packed run cut short, at every width: the whole groups before the cut and the
// values of the cut group whose bits exist, read from a buffer of exactly the stream's size.
TEST(ReaderEncodingTest, BitPackedRunCutShortAtEveryWidth) {
  std::mt19937 rng(11);
  for (int width = 1; width <= 32; ++width) {
    HybridModel model{width, {}, {}};
    std::vector<uint32_t> values(8 * 40);
    const uint64_t mask = width == 32 ? 0xFFFFFFFFull : ((1ull << width) - 1);
    for (auto& v : values) v = static_cast<uint32_t>(rng() & mask);
    model.AddPacked(values);
    const size_t cut = model.bytes.size() - 1 - static_cast<size_t>(rng() % width);
    const std::vector<uint8_t> exact(model.bytes.begin(), model.bytes.begin() + cut);
    const int64_t present = static_cast<int64_t>(cut - 1) * 8 / width;  // after the header
    RleBitPackedDecoder decoder(exact.data(), static_cast<int64_t>(exact.size()), width);
    std::vector<uint32_t> out(static_cast<size_t>(present));
    ASSERT_TRUE(decoder.GetBatch(out.data(), present).ok()) << "width " << width;
    for (int64_t i = 0; i < present; ++i) ASSERT_EQ(out[i], values[i]) << "width " << width;
    uint32_t extra;
    EXPECT_TRUE(decoder.GetBatch(&extra, 1).IsCorruption()) << "width " << width;
  }
}

TEST(ReaderEncodingTest, UnpackBitsAllWidths) {
  std::mt19937 rng(7);
  for (int width = 0; width <= 32; ++width) {
    HybridModel model{width, {}, {}};
    std::vector<uint32_t> values(64);
    const uint64_t mask = width == 32 ? 0xFFFFFFFFull : ((1ull << width) - 1);
    for (auto& v : values) v = static_cast<uint32_t>(rng() & mask);
    model.AddPacked(values);
    std::vector<uint32_t> out(64);
    const std::vector<uint8_t> exact(model.bytes.begin() + 1, model.bytes.end());  // no header
    UnpackBits(exact.data(), width, 64, out.data());
    EXPECT_EQ(out, values) << "width " << width;
  }
}

TEST(ReaderEncodingTest, BitPackedLevelsAreMsbFirst) {
  // Values 1,2,3,4 at width 3, MSB first: 001 010 011 100 -> 00101001 11000000
  const uint8_t bytes[] = {0x29, 0xC0};
  int16_t levels[4];
  ASSERT_TRUE(DecodeBitPackedLevels(bytes, 2, 3, 4, levels).ok());
  EXPECT_EQ(levels[0], 1);
  EXPECT_EQ(levels[1], 2);
  EXPECT_EQ(levels[2], 3);
  EXPECT_EQ(levels[3], 4);
  EXPECT_TRUE(DecodeBitPackedLevels(bytes, 2, 3, 6, levels).IsCorruption());
}

TEST(ReaderEncodingTest, PlainDecoders) {
  std::string page;
  for (const std::string& s : {std::string("ab"), std::string(""), std::string("xyz")}) {
    uint32_t length = static_cast<uint32_t>(s.size());
    page.append(reinterpret_cast<const char*>(&length), 4);
    page += s;
  }
  int64_t pos = 0;
  int64_t offsets[3];
  std::string bytes;
  ASSERT_TRUE(DecodePlainByteArrays(reinterpret_cast<const uint8_t*>(page.data()),
                                    static_cast<int64_t>(page.size()), &pos, 3, offsets, &bytes)
                  .ok());
  EXPECT_EQ(bytes, "abxyz");
  EXPECT_EQ(offsets[2], 5);
  pos = 0;
  ASSERT_TRUE(SkipPlainByteArrays(reinterpret_cast<const uint8_t*>(page.data()),
                                  static_cast<int64_t>(page.size()), &pos, 2).ok());
  EXPECT_EQ(pos, 10);
  // A length running past the page.
  std::string bad = page;
  bad[0] = 100;
  pos = 0;
  EXPECT_TRUE(DecodePlainByteArrays(reinterpret_cast<const uint8_t*>(bad.data()),
                                    static_cast<int64_t>(bad.size()), &pos, 3, offsets, &bytes)
                  .IsCorruption());
  // Fixed width past the end.
  uint8_t out[16];
  pos = 0;
  EXPECT_TRUE(DecodePlainFixed(reinterpret_cast<const uint8_t*>(page.data()), 6, &pos, 4, 2, out)
                  .IsCorruption());
  // Booleans, LSB first.
  const uint8_t bools[] = {0x05};
  uint8_t bitmap[1] = {0};
  int64_t bit_pos = 0;
  ASSERT_TRUE(DecodePlainBooleans(bools, 1, &bit_pos, 3, bitmap, 0).ok());
  EXPECT_EQ(bitmap[0], 0x05);
  EXPECT_TRUE(DecodePlainBooleans(bools, 1, &bit_pos, 6, bitmap, 0).IsCorruption());
}

TEST(ReaderEncodingTest, DictionaryIndexOutOfRangeIsCorruption) {
  ValueLayout layout{ValueKind::kCopy, 4, 4, 1, false};
  const int32_t entries[] = {10, 20};
  Dictionary dictionary;
  ASSERT_TRUE(dictionary.Decode(layout, reinterpret_cast<const uint8_t*>(entries), 8, 2).ok());
  // bit width 2, RLE run of 3 x value 1, then RLE run of 1 x value 3 (out of range).
  const uint8_t page[] = {2, 0x06, 0x01, 0x02, 0x03};
  ValueDecoder decoder(layout);
  ASSERT_TRUE(decoder.ResetDictionary(page, sizeof(page), &dictionary).ok());
  auto values = Buffer::Allocate(64);
  ValueSink sink{values.get(), nullptr};
  ASSERT_TRUE(decoder.Decode(3, &sink, 0).ok());
  EXPECT_EQ(values->data_as<int32_t>()[2], 20);
  EXPECT_TRUE(decoder.Decode(1, &sink, 3).IsCorruption());
  // A dictionary claiming more entries than its bytes can hold.
  Dictionary lying;
  EXPECT_TRUE(lying.Decode(layout, reinterpret_cast<const uint8_t*>(entries), 8, 1000).IsCorruption());
  EXPECT_TRUE(lying.Decode(layout, reinterpret_cast<const uint8_t*>(entries), 8, -1).IsCorruption());
}

TEST(ReaderEncodingTest, StringsMustBeUtf8) {
  EXPECT_TRUE(IsValidUtf8(reinterpret_cast<const uint8_t*>("plain ascii text"), 16));
  EXPECT_TRUE(IsValidUtf8(reinterpret_cast<const uint8_t*>("\xc3\xa9t\xc3\xa9"), 6));
  EXPECT_FALSE(IsValidUtf8(reinterpret_cast<const uint8_t*>("\xc3"), 1));          // truncated
  EXPECT_FALSE(IsValidUtf8(reinterpret_cast<const uint8_t*>("\xc0\xaf"), 2));      // overlong
  EXPECT_FALSE(IsValidUtf8(reinterpret_cast<const uint8_t*>("\xed\xa0\x80"), 3));  // surrogate
  // A PLAIN page of one invalid VARCHAR value is Corruption; as BLOB it reads.
  const std::string page = std::string("\x02\x00\x00\x00", 4) + "\xff\xfe";
  for (bool utf8 : {true, false}) {
    ValueLayout layout{ValueKind::kBytes, 0, 0, 1, utf8};
    auto offsets = Buffer::Allocate(16);
    auto data = Buffer::Allocate(0);
    ValueSink sink{offsets.get(), data.get()};
    int64_t pos = 0;
    Status status = DecodePlainValues(layout, reinterpret_cast<const uint8_t*>(page.data()),
                                      static_cast<int64_t>(page.size()), &pos, 1, &sink, 0);
    EXPECT_EQ(status.ok(), !utf8) << status.ToString();
  }
  // Checked string by string when the page is not all ASCII: two halves of one character are
  // two invalid strings, though their bytes side by side are valid; the message names the
  // first bad one's offset.
  const std::string halves = std::string("\x05\x00\x00\x00", 4) + "plain" +
                             std::string("\x01\x00\x00\x00", 4) + "\xc3" +
                             std::string("\x01\x00\x00\x00", 4) + "\xa9";
  ValueLayout layout{ValueKind::kBytes, 0, 0, 1, true};
  auto offsets = Buffer::Allocate(32);
  auto data = Buffer::Allocate(0);
  ValueSink sink{offsets.get(), data.get()};
  int64_t pos = 0;
  Status status = DecodePlainValues(layout, reinterpret_cast<const uint8_t*>(halves.data()),
                                    static_cast<int64_t>(halves.size()), &pos, 3, &sink, 0);
  EXPECT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_NE(status.message().find("PLAIN string at offset 9 is not valid UTF-8"), std::string::npos)
      << status.ToString();
  EXPECT_TRUE(IsAscii(reinterpret_cast<const uint8_t*>("plain ascii text, longer than 32 bytes"), 38));
  for (int at = 0; at < 40; ++at) {
    std::string text(40, 'a');
    text[static_cast<size_t>(at)] = '\x80';
    EXPECT_FALSE(IsAscii(reinterpret_cast<const uint8_t*>(text.data()), 40)) << at;
  }
}

// FIXED_LEN_BYTE_ARRAY decimals of every width 1..16 (and past it, where the low 16 bytes
// count) decode to the value a byte-at-a-time shift gives, positive and negative.
TEST(ReaderEncodingTest, FixedLengthDecimalsOfEveryWidth) {
  std::mt19937_64 random(23);
  for (int width = 1; width <= 18; ++width) {
    const int count = 37;
    std::vector<uint8_t> page(static_cast<size_t>(width * count));
    for (uint8_t& byte : page) byte = static_cast<uint8_t>(random());
    page[0] |= 0x80;  // the first value negative, the second positive
    page[static_cast<size_t>(width)] &= 0x7F;
    std::vector<__int128> expected;
    for (int i = 0; i < count; ++i) {
      const uint8_t* bytes = page.data() + width * i;
      unsigned __int128 value = (bytes[0] & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
      for (int b = 0; b < width; ++b) value = (value << 8) | bytes[b];
      expected.push_back(static_cast<__int128>(value));
      EXPECT_TRUE(BigEndianToInt128(bytes, width) == expected.back()) << "width " << width;
    }
    if (width > 16) continue;
    ValueLayout layout{ValueKind::kFlbaToInt128, width, 16, 1, false};
    auto values = Buffer::Allocate(16 * count);
    ValueSink sink{values.get(), nullptr};
    int64_t pos = 0;
    ASSERT_TRUE(DecodePlainValues(layout, page.data(), static_cast<int64_t>(page.size()), &pos,
                                  count, &sink, 0).ok());
    for (int i = 0; i < count; ++i) {
      __int128 got;
      std::memcpy(&got, values->data() + 16 * i, 16);
      EXPECT_TRUE(got == expected[static_cast<size_t>(i)]) << "width " << width << " value " << i;
    }
  }
}

TEST(ReaderEncodingTest, Conversions) {
  EXPECT_EQ(HalfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xC000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7E00)));
  EXPECT_TRUE(std::signbit(HalfToFloat(0x8000)));
  const uint8_t minus_two[] = {0xFF, 0xFE};
  EXPECT_EQ(BigEndianToInt128(minus_two, 2), -2);
  const uint8_t big[] = {0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(BigEndianToInt128(big, 9), static_cast<__int128>(1) << 64);
  // 2000-01-01 00:00:00.000001 as INT96: Julian day 2451545, 1000 nanos.
  uint8_t int96[12];
  const uint64_t nanos = 1000;
  const uint32_t day = 2451545;
  std::memcpy(int96, &nanos, 8);
  std::memcpy(int96 + 8, &day, 4);
  EXPECT_EQ(Int96ToMicros(int96), 946684800000000LL + 1);
}

}  // namespace
}  // namespace tarn::parquet
