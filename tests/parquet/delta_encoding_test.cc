// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT:
// randomized round trips through tarn's encoders and decoders against the input as model
// (with skips interleaved), a check of the encoder's bytes by an independent bit-by-bit
// reading of the format, and hostile streams that must fail with the exact Corruption.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parquet/byte_stream_split.h"
#include "parquet/delta_encoder.h"
#include "parquet/delta_encoding.h"
#include "support/test_util.h"
#include "tarn/io.h"
#include "tarn/parquet.h"

namespace tarn::parquet {
namespace {

template <typename T>
std::vector<T> RandomIntegers(std::mt19937_64& rng, int64_t count, int shape) {
  std::vector<T> values(static_cast<size_t>(count));
  T previous = static_cast<T>(rng());
  for (auto& value : values) {
    switch (shape) {
      case 0: value = static_cast<T>(rng()); break;                       // full range
      case 1: value = static_cast<T>(previous + 1); break;                // sequential
      case 2: value = static_cast<T>(previous + static_cast<T>(rng() % 7) - 3); break;
      case 3: value = (rng() & 1) ? std::numeric_limits<T>::max()        // wrapping deltas
                                  : std::numeric_limits<T>::min();
        break;
      default: value = static_cast<T>(rng() % 1000); break;
    }
    previous = value;
  }
  return values;
}

// Reads the encoder's bytes by the format's definition, one bit at a time.
template <typename T>
std::vector<T> NaiveDeltaDecode(const std::string& bytes, size_t* end) {
  using U = std::make_unsigned_t<T>;
  size_t pos = 0;
  auto uleb = [&]() {
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<uint8_t>(bytes.at(pos++));
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) return value;
    }
  };
  auto zigzag = [&]() {
    const uint64_t raw = uleb();
    return static_cast<int64_t>(raw >> 1) ^ -static_cast<int64_t>(raw & 1);
  };
  const uint64_t block = uleb();
  const uint64_t miniblocks = uleb();
  const uint64_t total = uleb();
  std::vector<T> out;
  if (total == 0) {
    zigzag();
    *end = pos;
    return out;
  }
  U value = static_cast<U>(zigzag());
  out.push_back(static_cast<T>(value));
  const uint64_t per_miniblock = block / miniblocks;
  while (out.size() < total) {
    const U min_delta = static_cast<U>(zigzag());
    std::vector<int> widths;
    for (uint64_t m = 0; m < miniblocks; ++m) widths.push_back(static_cast<uint8_t>(bytes.at(pos++)));
    for (uint64_t m = 0; m < miniblocks && out.size() < total; ++m) {
      const size_t start = pos;
      for (uint64_t i = 0; i < per_miniblock; ++i) {
        uint64_t delta = 0;
        for (int b = 0; b < widths[m]; ++b) {
          const size_t bit = (i * widths[m] + b);
          const auto byte = static_cast<uint8_t>(bytes.at(start + bit / 8));
          delta |= static_cast<uint64_t>((byte >> (bit % 8)) & 1) << b;
        }
        if (out.size() < total) {
          value = static_cast<U>(value + min_delta + static_cast<U>(delta));
          out.push_back(static_cast<T>(value));
        }
      }
      pos = start + per_miniblock * widths[m] / 8;
    }
  }
  *end = pos;
  return out;
}

template <typename T>
void RoundTripIntegers(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 60; ++round) {
    const int64_t count = (round % 5 == 0) ? static_cast<int64_t>(rng() % 3)
                                           : static_cast<int64_t>(rng() % 3000);
    const std::vector<T> values = RandomIntegers<T>(rng, count, round % 5);
    std::string bytes;
    EncodeDeltaBinaryPacked(values.data(), count, &bytes);
    size_t naive_end = 0;
    EXPECT_EQ(NaiveDeltaDecode<T>(bytes, &naive_end), values) << "round " << round;
    EXPECT_EQ(naive_end, bytes.size());
    bytes.append("tail");  // what follows the stream must not be consumed

    DeltaBitPackedDecoder decoder;
    ASSERT_TRUE(decoder.Init(reinterpret_cast<const uint8_t*>(bytes.data()),
                             static_cast<int64_t>(bytes.size()), sizeof(T) * 8, count)
                    .ok());
    ASSERT_EQ(decoder.total_values(), count);
    int64_t pos = 0;
    while (pos < count) {
      const int64_t n = std::min<int64_t>(count - pos, 1 + static_cast<int64_t>(rng() % 100));
      if (rng() % 4 == 0) {
        ASSERT_TRUE(decoder.Skip(n).ok());
      } else {
        std::vector<T> out(static_cast<size_t>(n));
        ASSERT_TRUE(decoder.Get(out.data(), n).ok());
        for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], values[pos + i]) << "value " << pos + i;
      }
      pos += n;
    }
    Result<int64_t> end = decoder.Finish();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, static_cast<int64_t>(bytes.size()) - 4);
  }
}

TEST(DeltaEncodingTest, Int32RoundTripMatchesModelAndNaiveReading) {
  RoundTripIntegers<int32_t>(1);
}

TEST(DeltaEncodingTest, Int64RoundTripMatchesModelAndNaiveReading) {
  RoundTripIntegers<int64_t>(2);
}

std::vector<std::string> RandomStrings(std::mt19937_64& rng, int64_t count) {
  std::vector<std::string> values;
  std::string previous;
  for (int64_t i = 0; i < count; ++i) {
    std::string value;
    if (!previous.empty() && rng() % 2 == 0) value = previous.substr(0, rng() % previous.size());
    const int extra = static_cast<int>(rng() % 20);
    for (int c = 0; c < extra; ++c) value.push_back(static_cast<char>('a' + rng() % 3));
    values.push_back(value);
    previous = value;
  }
  return values;
}

TEST(DeltaEncodingTest, ByteArrayEncodingsRoundTrip) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 40; ++round) {
    const int64_t count = static_cast<int64_t>(rng() % 500);
    std::vector<std::string> values = RandomStrings(rng, count);
    std::vector<std::string_view> views(values.begin(), values.end());
    std::string length_bytes, prefix_bytes;
    EncodeDeltaLengthByteArray(views.data(), count, &length_bytes);
    EncodeDeltaByteArray(views.data(), count, &prefix_bytes);

    DeltaLengthByteArrayDecoder lengths;
    ASSERT_TRUE(lengths.Init(reinterpret_cast<const uint8_t*>(length_bytes.data()),
                             static_cast<int64_t>(length_bytes.size()), count)
                    .ok());
    ASSERT_EQ(lengths.total_values(), count);
    for (int64_t i = 0; i < count; ++i) ASSERT_EQ(lengths.Next(), values[i]);
    EXPECT_EQ(lengths.end(), static_cast<int64_t>(length_bytes.size()));

    DeltaByteArrayDecoder prefixed;
    ASSERT_TRUE(prefixed.Init(reinterpret_cast<const uint8_t*>(prefix_bytes.data()),
                              static_cast<int64_t>(prefix_bytes.size()), count)
                    .ok());
    for (int64_t i = 0; i < count; ++i) {
      Result<std::string_view> value = prefixed.Next();
      ASSERT_TRUE(value.ok());
      ASSERT_EQ(*value, values[i]);
    }
    EXPECT_EQ(prefixed.values_left(), 0);
  }
}

// The layout of VARCHAR values, for the value readers.
ValueLayout StringLayout() { return ValueLayout{ValueKind::kBytes, 0, 0, 1, true}; }

TEST(DeltaEncodingTest, ValueReaderConvertsAndChecksTheType) {
  std::vector<std::string> strings = {"ab", "abc", "b", "", "bcd"};
  std::vector<std::string_view> views(strings.begin(), strings.end());
  std::string bytes;
  EncodeDeltaByteArray(views.data(), 5, &bytes);
  DeltaValueReader reader(StringLayout());
  ASSERT_TRUE(reader.Reset(Encoding::kDeltaByteArray, PhysicalType::kByteArray, 0,
                           reinterpret_cast<const uint8_t*>(bytes.data()),
                           static_cast<int64_t>(bytes.size()), 5)
                  .ok());
  auto values = Buffer::Allocate(6 * 8);
  std::memset(values->mutable_data(), 0, 48);
  auto data = Buffer::Allocate(0);
  ValueSink sink{values.get(), data.get()};
  ASSERT_TRUE(reader.Skip(1).ok());
  ASSERT_TRUE(reader.Decode(4, &sink, 0).ok());
  const int64_t* offsets = values->data_as<int64_t>();
  std::string joined(reinterpret_cast<const char*>(data->data()), static_cast<size_t>(offsets[4]));
  EXPECT_EQ(joined, "abcbbcd");
  EXPECT_EQ(offsets[1], 3);
  Status more = reader.Decode(1, &sink, 4);
  EXPECT_EQ(more.code(), StatusCode::kCorruption);
  EXPECT_NE(more.message().find("1 values needed, the page's stream holds 0 more"),
            std::string::npos)
      << more.ToString();

  Status wrong = reader.Reset(Encoding::kDeltaBinaryPacked, PhysicalType::kDouble, 0,
                              reinterpret_cast<const uint8_t*>(bytes.data()), 4, 5);
  EXPECT_EQ(wrong.code(), StatusCode::kCorruption);
  EXPECT_NE(wrong.message().find("does not apply to physical type DOUBLE"), std::string::npos)
      << wrong.ToString();
}

// ---- hostile streams --------------------------------------------------------------------

std::string Uleb(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}

Status InitDelta(const std::string& bytes, int bits, int64_t max_values, int64_t get = 0) {
  DeltaBitPackedDecoder decoder;
  TARN_RETURN_NOT_OK(decoder.Init(reinterpret_cast<const uint8_t*>(bytes.data()),
                                  static_cast<int64_t>(bytes.size()), bits, max_values));
  std::vector<int64_t> out(static_cast<size_t>(get));
  return decoder.Get(out.data(), get);
}

void ExpectCorruption(const Status& status, const std::string& text) {
  EXPECT_EQ(status.code(), StatusCode::kCorruption) << status.ToString();
  EXPECT_NE(status.message().find(text), std::string::npos)
      << "message: " << status.message() << "\nexpected to contain: " << text;
}

TEST(DeltaEncodingTest, HostileHeadersAndMiniblocksAreCorruption) {
  const std::string header = Uleb(128) + Uleb(4);
  // A bit width over 64 (INT64) and over 32 (INT32).
  std::string wide = header + Uleb(3) + Uleb(0) + Uleb(0) + std::string("\x41\0\0\0", 4) +
                     std::string(600, '\0');
  ExpectCorruption(InitDelta(wide, 64, 3, 3), "miniblock 0 has bit width 65, over 64");
  std::string wide32 = header + Uleb(3) + Uleb(0) + Uleb(0) + std::string("\x21\0\0\0", 4) +
                       std::string(600, '\0');
  ExpectCorruption(InitDelta(wide32, 32, 3, 3), "miniblock 0 has bit width 33, over 32");
  // Miniblock counts that do not divide the block into multiples of 32.
  ExpectCorruption(InitDelta(Uleb(128) + Uleb(0) + Uleb(1) + Uleb(0), 64, 1),
                   "0 miniblocks do not divide a block of 128 values");
  ExpectCorruption(InitDelta(Uleb(128) + Uleb(8) + Uleb(1) + Uleb(0), 64, 1),
                   "8 miniblocks do not divide a block of 128 values");
  ExpectCorruption(InitDelta(Uleb(100) + Uleb(4) + Uleb(1) + Uleb(0), 64, 1),
                   "block size 100 is not a positive multiple of 128");
  // More values than the page holds.
  ExpectCorruption(InitDelta(header + Uleb(1000) + Uleb(0), 64, 999),
                   "the header declares 1000 values, more than the page's 999");
  // An overlong varint and a header cut short.
  ExpectCorruption(InitDelta(header + std::string(11, '\xff'), 64, 5),
                   "header runs past the end or holds an overlong varint");
  ExpectCorruption(InitDelta(header, 64, 5), "header runs past the end");
  // A miniblock whose bits are not there.
  std::string short_block = header + Uleb(40) + Uleb(0) + Uleb(0) + std::string("\x08\x08\0\0", 4) +
                            std::string(10, '\0');
  ExpectCorruption(InitDelta(short_block, 64, 40, 40), "miniblock runs past the end");
  // Bit widths missing.
  ExpectCorruption(InitDelta(header + Uleb(5) + Uleb(0) + Uleb(0) + "\x01", 64, 5, 5),
                   "miniblock bit widths run past the end");
}

TEST(DeltaEncodingTest, HostileLengthsAndPrefixesAreCorruption) {
  // DELTA_LENGTH_BYTE_ARRAY: a negative length, and lengths past the end.
  std::vector<int32_t> lengths = {3, -1};
  std::string bytes;
  EncodeDeltaBinaryPacked(lengths.data(), 2, &bytes);
  bytes += "abc";
  DeltaLengthByteArrayDecoder decoder;
  ExpectCorruption(decoder.Init(reinterpret_cast<const uint8_t*>(bytes.data()),
                                static_cast<int64_t>(bytes.size()), 2),
                   "value 1 has negative length -1");
  lengths = {3, 5};
  bytes.clear();
  EncodeDeltaBinaryPacked(lengths.data(), 2, &bytes);
  bytes += "abcde";
  ExpectCorruption(decoder.Init(reinterpret_cast<const uint8_t*>(bytes.data()),
                                static_cast<int64_t>(bytes.size()), 2),
                   "2 values of 8 bytes starting at byte");

  // DELTA_BYTE_ARRAY: a prefix longer than the previous value, a negative one, an overflowing
  // one, and counts that disagree.
  for (int32_t bad_prefix : {3, -2, std::numeric_limits<int32_t>::max()}) {
    std::vector<int32_t> prefixes = {0, bad_prefix};
    std::vector<std::string_view> suffixes = {"ab", "c"};
    std::string encoded;
    EncodeDeltaBinaryPacked(prefixes.data(), 2, &encoded);
    EncodeDeltaLengthByteArray(suffixes.data(), 2, &encoded);
    DeltaByteArrayDecoder prefixed;
    ASSERT_TRUE(prefixed.Init(reinterpret_cast<const uint8_t*>(encoded.data()),
                              static_cast<int64_t>(encoded.size()), 2)
                    .ok());
    ASSERT_TRUE(prefixed.Next().ok());
    ExpectCorruption(prefixed.Next().status(),
                     "value 1 has prefix length " + std::to_string(bad_prefix) +
                         ", but the previous value has 2 bytes");
  }
  std::vector<int32_t> prefixes = {0, 0, 0};
  std::vector<std::string_view> suffixes = {"a", "b"};
  std::string encoded;
  EncodeDeltaBinaryPacked(prefixes.data(), 3, &encoded);
  EncodeDeltaLengthByteArray(suffixes.data(), 2, &encoded);
  DeltaByteArrayDecoder prefixed;
  ExpectCorruption(prefixed.Init(reinterpret_cast<const uint8_t*>(encoded.data()),
                                 static_cast<int64_t>(encoded.size()), 3),
                   "3 prefix lengths but 2 suffixes");
}

// Random bytes never crash the decoders (ASan/UBSan builds check the memory side).
TEST(DeltaEncodingTest, RandomBytesNeverCrash) {
  std::mt19937_64 rng(4);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes(static_cast<size_t>(rng() % 64), '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    if (round % 2 == 0 && bytes.size() > 4) {
      bytes[0] = static_cast<char>(0x80);  // a plausible header start: 128 per block
      bytes[1] = 1;
      bytes[2] = 4;
    }
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    const auto size = static_cast<int64_t>(bytes.size());
    DeltaBitPackedDecoder integers;
    if (integers.Init(data, size, round % 3 == 0 ? 32 : 64, 200).ok()) {
      std::vector<int64_t> out(static_cast<size_t>(integers.total_values()));
      (void)integers.Get(out.data(), integers.total_values());
    }
    DeltaLengthByteArrayDecoder lengths;
    if (lengths.Init(data, size, 200).ok()) {
      while (lengths.values_left() > 0) lengths.Next();
    }
    DeltaByteArrayDecoder prefixed;
    if (prefixed.Init(data, size, 200).ok()) {
      while (prefixed.values_left() > 0 && prefixed.Next().ok()) {
      }
    }
  }
}

// ---- the delta files of parquet-testing against their *_expect.csv -------------------------

// Splits one line of the fixtures' CSVs: fields optionally in double quotes; an empty unquoted
// field is NULL (returned as nullopt).
std::vector<std::optional<std::string>> SplitCsvLine(const std::string& line) {
  std::vector<std::optional<std::string>> fields;
  size_t pos = 0;
  while (true) {
    if (pos < line.size() && line[pos] == '"') {
      std::string field;
      ++pos;
      while (pos < line.size()) {
        if (line[pos] == '"' && pos + 1 < line.size() && line[pos + 1] == '"') {
          field += '"';
          pos += 2;
        } else if (line[pos] == '"') {
          ++pos;
          break;
        } else {
          field += line[pos++];
        }
      }
      fields.emplace_back(field);
    } else {
      const size_t comma = line.find(',', pos);
      std::string field = line.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (field.empty()) {
        fields.emplace_back(std::nullopt);
      } else {
        fields.emplace_back(field);
      }
    }
    pos = line.find(',', pos);
    if (pos == std::string::npos) break;
    ++pos;
  }
  return fields;
}

TEST(DeltaEncodingTest, FixturesMatchTheirExpectCsv) {
  for (const char* stem : {"delta_binary_packed", "delta_byte_array",
                           "delta_encoding_optional_column", "delta_encoding_required_column"}) {
    SCOPED_TRACE(stem);
    const std::string dir = testing::SharedPath("fixtures/parquet-testing/data/");
    auto csv = LocalFileSystem()->ReadFile(dir + stem + "_expect.csv");
    ASSERT_TRUE(csv.ok()) << csv.status().ToString();
    auto reader = ParquetReader::Open(LocalFileSystem(), dir + stem + ".parquet");
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto batch = (*reader)->ReadAll();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl = csv->find('\n'); nl != std::string::npos; nl = csv->find('\n', start)) {
      lines.push_back(csv->substr(start, nl - start));
      start = nl + 1;
    }
    if (start < csv->size()) lines.push_back(csv->substr(start));
    ASSERT_EQ(static_cast<int64_t>(lines.size()) - 1, (*batch)->num_rows);
    int64_t compared = 0;
    for (int64_t row = 0; row < (*batch)->num_rows; ++row) {
      const auto fields = SplitCsvLine(lines[static_cast<size_t>(row + 1)]);
      ASSERT_EQ(static_cast<int>(fields.size()), (*batch)->num_columns()) << "row " << row;
      for (int column = 0; column < (*batch)->num_columns(); ++column) {
        const Value value = (*batch)->column(column).GetValue(row);
        std::optional<std::string> actual;
        if (!value.is_null()) {
          actual = value.type().id == TypeId::kVarchar ? value.GetBytes()
                                                       : std::to_string(value.GetInt64());
        }
        ASSERT_EQ(actual, fields[static_cast<size_t>(column)])
            << "row " << row << " column " << (*batch)->schema->fields[column].name;
        ++compared;
      }
    }
    EXPECT_GT(compared, 1000);
  }
}

// ---- BYTE_STREAM_SPLIT ------------------------------------------------------------------

TEST(ByteStreamSplitTest, RoundTripEveryWidthWithSkips) {
  std::mt19937_64 rng(5);
  for (int width : {2, 4, 5, 8, 12, 16}) {
    const int64_t count = 1 + static_cast<int64_t>(rng() % 300);
    std::string plain(static_cast<size_t>(count * width), '\0');
    for (char& c : plain) c = static_cast<char>(rng());
    std::string split;
    EncodeByteStreamSplit(reinterpret_cast<const uint8_t*>(plain.data()), count, width, &split);
    ASSERT_EQ(split.size(), plain.size());
    // Byte k of value i sits at k * count + i.
    for (int64_t i = 0; i < count; i += 17) {
      for (int k = 0; k < width; ++k) ASSERT_EQ(split[k * count + i], plain[i * width + k]);
    }
    // Decoded as FIXED_LEN_BYTE_ARRAY(width) into var-length output.
    ByteStreamSplitReader reader(ValueLayout{ValueKind::kFlbaToBytes, width, 0, 1, false});
    ASSERT_TRUE(reader.Reset(PhysicalType::kFixedLenByteArray, width,
                             reinterpret_cast<const uint8_t*>(split.data()),
                             static_cast<int64_t>(split.size()))
                    .ok());
    const int64_t skipped = count / 3;
    ASSERT_TRUE(reader.Skip(skipped).ok());
    const int64_t n = count - skipped;
    auto values = Buffer::Allocate((n + 1) * 8);
    std::memset(values->mutable_data(), 0, static_cast<size_t>((n + 1) * 8));
    auto data = Buffer::Allocate(0);
    ValueSink sink{values.get(), data.get()};
    ASSERT_TRUE(reader.Decode(n, &sink, 0).ok());
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(data->data()), static_cast<size_t>(n * width)),
              plain.substr(static_cast<size_t>(skipped * width)));
    ExpectCorruption(reader.Decode(1, &sink, n), "1 values needed, the page holds 0 more");
  }
  ByteStreamSplitReader doubles(ValueLayout{ValueKind::kCopy, 8, 8, 1, false});
  const std::string seven(7, 'x');
  ExpectCorruption(doubles.Reset(PhysicalType::kDouble, 0,
                                 reinterpret_cast<const uint8_t*>(seven.data()), 7),
                   "a section of 7 bytes is not a whole number of 8-byte values");
  ExpectCorruption(doubles.Reset(PhysicalType::kByteArray, 0,
                                 reinterpret_cast<const uint8_t*>(seven.data()), 7),
                   "does not apply to physical type BYTE_ARRAY");
}

}  // namespace
}  // namespace tarn::parquet
