// The checks a sidecar's order and set must pass after their checksums do: an order whose
// blocks checksum correctly but hold a position past the file, or offsets out of order; a
// bitmap container whose bits disagree with its declared cardinality; an Elias-Fano set whose
// ids do not ascend or whose widths or slack bits are off; a Runs order whose tree, run table,
// bits or rank directory disagree — each is Corruption naming the fault, and single-rank reads
// of a damaged Runs body give Corruption or a position inside the file, never a wild read.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "rowid/bit_packing.h"
#include "rowid/byte_cursor.h"
#include "rowid/rowsum_format.h"
#include "rowid/run_order.h"
#include "rowid_test_files.h"
#include "tarn/rowid.h"

namespace tarn {
namespace {

using rowid_internal::RowsumHeader;

struct Encoded {
  RowsumHeader header;
  std::string bytes;
  std::string Order() const { return bytes.substr(header.order_offset(), header.order_len); }
};

Encoded Encode(const std::vector<int64_t>& ids_in_file_order) {
  auto rows = PositionedRowSet::FromFileOrder(ids_in_file_order);
  EXPECT_TRUE(rows.ok());
  Encoded out;
  auto bytes = EncodeRowSummary(SummaryIdentity{1, 2, "f.parquet", 100}, *rows);
  EXPECT_TRUE(bytes.ok());
  out.bytes = *bytes;
  size_t needed = 0;
  EXPECT_TRUE(rowid_internal::DecodeRowsumHeader(out.bytes, &out.header, &needed).ok());
  return out;
}

// Rewrites the order's body (offsets then positions, packed) and its checksum table, so only
// the value checks can catch what the caller changed.
std::string Reorder(const RowsumHeader& h, const std::vector<uint32_t>& offsets,
                    const std::vector<uint32_t>& positions) {
  std::string body;
  if (h.order_form == rowid_internal::OrderForm::kRepeated) {
    EXPECT_TRUE(rowid_internal::PackBits(offsets, h.offset_width, &body).ok());
  }
  EXPECT_TRUE(rowid_internal::PackBits(positions, h.position_width, &body).ok());
  EXPECT_EQ(body.size(), h.body_len());
  const size_t body_len = body.size();
  for (size_t start = 0; start < body_len; start += h.order_block) {
    const size_t len = std::min<size_t>(h.order_block, body_len - start);
    rowid_internal::PutU32(&body, rowid_internal::Crc32(std::string_view(body).substr(start, len)));
  }
  return body;
}

std::vector<uint32_t> ToVector(std::span<const uint32_t> values) { return {values.begin(), values.end()}; }

TEST(RowsumDecodeChecksTest, PositionPastTheFileAnywhereInALargeOrder) {
  // 100,000 rows in a shuffled order: positions span many checksum blocks; width 17 bits lets
  // a stored value reach 131071, past the file's 100,000 rows.
  std::vector<int64_t> ids(100000);
  std::iota(ids.begin(), ids.end(), int64_t{0});
  std::mt19937_64 rng(7);
  std::shuffle(ids.begin(), ids.end(), rng);
  const Encoded e = Encode(ids);
  ASSERT_EQ(e.header.order_form, rowid_internal::OrderForm::kPermuted);
  auto good = rowid_internal::DecodeRowsumOrder(e.header, e.Order());
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  const std::vector<uint32_t> positions = ToVector(good->positions());
  for (size_t at : {size_t{0}, size_t{4097}, positions.size() - 1}) {
    for (uint32_t bad : {uint32_t{100000}, uint32_t{131071}}) {
      std::vector<uint32_t> changed = positions;
      changed[at] = bad;
      auto order = rowid_internal::DecodeRowsumOrder(e.header, Reorder(e.header, {}, changed));
      ASSERT_EQ(order.status().code(), StatusCode::kCorruption) << at;
      EXPECT_EQ(order.status().message(),
                "rowsum order: position " + std::to_string(bad) + " of 100000 rows");
    }
  }
}

TEST(RowsumDecodeChecksTest, RepeatedOffsetsMustSpanTheRowsAndAscend) {
  // Ids 5, 3, 5, 9, 3 in file order: ranks 3 -> {1, 4}, 5 -> {0, 2}, 9 -> {3}.
  const Encoded e = Encode({5, 3, 5, 9, 3});
  ASSERT_EQ(e.header.order_form, rowid_internal::OrderForm::kRepeated);
  auto good = rowid_internal::DecodeRowsumOrder(e.header, e.Order());
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(ToVector(good->offsets()), (std::vector<uint32_t>{0, 2, 4, 5}));
  EXPECT_EQ(ToVector(good->positions()), (std::vector<uint32_t>{1, 4, 0, 2, 3}));
  const std::vector<uint32_t> positions = {1, 4, 0, 2, 3};
  auto unordered = rowid_internal::DecodeRowsumOrder(e.header, Reorder(e.header, {0, 3, 2, 5}, positions));
  EXPECT_EQ(unordered.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(unordered.status().message(), "rowsum order: offsets not ascending");
  auto short_span = rowid_internal::DecodeRowsumOrder(e.header, Reorder(e.header, {0, 2, 4, 4}, positions));
  EXPECT_EQ(short_span.status().message(), "rowsum order: offsets do not span 5 rows");
  auto late_start = rowid_internal::DecodeRowsumOrder(e.header, Reorder(e.header, {1, 2, 4, 5}, positions));
  EXPECT_EQ(late_start.status().message(), "rowsum order: offsets do not span 5 rows");
  auto past = rowid_internal::DecodeRowsumOrder(e.header, Reorder(e.header, {0, 2, 4, 5}, {1, 4, 0, 7, 3}));
  EXPECT_EQ(past.status().message(), "rowsum order: position 7 of 5 rows");
}

TEST(RowsumDecodeChecksTest, BitmapBitsMustMatchTheDeclaredCardinality) {
  // 10,000 ids among the first 65,536: one bitmap container.
  std::vector<uint64_t> ids;
  for (uint64_t v = 0; v < 60000; v += 6) ids.push_back(v);
  const RowIdSet set = RowIdSet::FromSorted(ids, RowIdSet::Kind::kRoaring);
  std::string bytes;
  set.EncodeTo(&bytes);
  auto back = RowIdSet::Decode(RowIdSet::Kind::kRoaring, bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ToVector(), ids);
  for (uint64_t v : {ids[0], ids[5000], ids.back(), uint64_t{1}, uint64_t{65535}}) {
    // Set or clear the bit of v: the one container's 8192 bitmap bytes end the encoding.
    std::string changed = bytes;
    const size_t at = changed.size() - 8192 + v / 8;
    changed[at] = static_cast<char>(changed[at] ^ (1 << (v % 8)));
    auto decoded = RowIdSet::Decode(RowIdSet::Kind::kRoaring, changed);
    ASSERT_EQ(decoded.status().code(), StatusCode::kCorruption) << v;
    EXPECT_NE(decoded.status().message().find("bitmap cardinality disagrees with the header"),
              std::string::npos)
        << decoded.status().message();
  }
}

// The body with a fresh checksum table, so only the value checks can catch a change.
std::string WithChecksums(const RowsumHeader& h, std::string body) {
  const size_t body_len = body.size();
  for (size_t start = 0; start < body_len; start += h.order_block) {
    const size_t len = std::min<size_t>(h.order_block, body_len - start);
    rowid_internal::PutU32(&body, rowid_internal::Crc32(std::string_view(body).substr(start, len)));
  }
  return body;
}

TEST(RowsumDecodeChecksTest, EliasFanoIdsMustAscendAndFillTheirBits) {
  std::vector<uint64_t> ids;
  for (uint64_t v = 0; v < 5001; ++v) ids.push_back(1000 + v * 9 + v % 4);
  const RowIdSet set = RowIdSet::FromSorted(ids, RowIdSet::Kind::kEliasFano);
  std::string bytes;
  set.EncodeTo(&bytes);
  ASSERT_TRUE(RowIdSet::Decode(RowIdSet::Kind::kEliasFano, bytes).ok());
  auto expect = [&](const std::string& changed, const std::string& message) {
    auto decoded = RowIdSet::Decode(RowIdSet::Kind::kEliasFano, changed);
    ASSERT_EQ(decoded.status().code(), StatusCode::kCorruption) << message;
    EXPECT_NE(decoded.status().message().find(message), std::string::npos) << decoded.status().message();
  };
  // Layout: count, min, max (u64 each), low width (u8), low bits (3 per id), high bits
  // (5001 + 45000 / 8 = 10626, so the last byte has 6 slack bits).
  const size_t low_start = 25, high_start = 25 + (5001 * 3 + 7) / 8;
  std::string changed = bytes;
  changed[24] = 4;
  expect(changed, "low width 4, expected 3");
  changed = bytes;
  changed.back() = static_cast<char>(changed.back() | 0x80);
  expect(changed, "stray bits past the last bucket");
  changed = bytes;
  changed[high_start + 1] = static_cast<char>(changed[high_start + 1] ^ 0x01);
  expect(changed, "in the high bits");
  // The first id's low bits raised: it no longer equals min.
  changed = bytes;
  changed[low_start] = static_cast<char>(changed[low_start] | 0x01);
  expect(changed, "the first id is not min");
  // Two ids in one bucket that stop ascending: ids 8k and 8k + 1 share bucket 4k (low width
  // 1, low bits 0 and 1); clearing id 1's low bit repeats id 0.
  std::vector<uint64_t> pairs;
  for (uint64_t k = 0; k < 1000; ++k) {
    pairs.push_back(8 * k);
    pairs.push_back(8 * k + 1);
  }
  std::string pair_bytes;
  RowIdSet::FromSorted(pairs, RowIdSet::Kind::kEliasFano).EncodeTo(&pair_bytes);
  ASSERT_EQ(pair_bytes[24], 1);
  ASSERT_TRUE(RowIdSet::Decode(RowIdSet::Kind::kEliasFano, pair_bytes).ok());
  pair_bytes[low_start] = static_cast<char>(pair_bytes[low_start] & ~0x02);
  auto repeated = RowIdSet::Decode(RowIdSet::Kind::kEliasFano, pair_bytes);
  ASSERT_EQ(repeated.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(repeated.status().message(), "elias-fano set: id 1 (0) does not ascend from 0");
  changed = bytes;
  changed.pop_back();
  expect(changed, "bytes of bits");
  changed = bytes;
  const uint64_t wrong_max = ids.back() + 1;
  std::memcpy(changed.data() + 16, &wrong_max, 8);
  expect(changed, "last id");
}

TEST(RowsumDecodeChecksTest, RunsTreeBitsAndDirectoryMustAgree) {
  std::mt19937_64 rng(8);
  std::vector<uint64_t> ids(50000);
  std::iota(ids.begin(), ids.end(), uint64_t{100});
  auto rows = PositionedRowSet::FromFileOrder(testing::RunsFileOrder(rng, ids, 10));
  ASSERT_TRUE(rows.ok());
  auto encoded = EncodeRowSummary(SummaryIdentity{1, 2, "f.parquet", 100}, *rows);
  ASSERT_TRUE(encoded.ok());
  RowsumHeader h;
  size_t needed = 0;
  ASSERT_TRUE(rowid_internal::DecodeRowsumHeader(*encoded, &h, &needed).ok());
  ASSERT_EQ(h.order_form, rowid_internal::OrderForm::kRuns);
  const std::string body = encoded->substr(h.order_offset(), h.body_len());
  ASSERT_TRUE(rowid_internal::DecodeRowsumOrder(h, WithChecksums(h, body)).ok());
  const uint64_t runs = rowid_internal::LoadLE<uint32_t>(body.data());
  const uint64_t table = 12 * runs - 4;
  const uint64_t words = (body.size() - table) * 32 / 33 / 8;  // 8-byte words, one entry per 32
  auto expect = [&](const std::string& changed, const std::string& message) {
    auto order = rowid_internal::DecodeRowsumOrder(h, WithChecksums(h, changed));
    ASSERT_EQ(order.status().code(), StatusCode::kCorruption) << message;
    EXPECT_NE(order.status().message().find(message), std::string::npos) << order.status().message();
    // One rank at a time over the same bytes: an error or a position inside the file.
    auto index = rowid_internal::RunOrderIndex::Parse(
        std::string_view(changed).substr(0, std::min<size_t>(table, changed.size())), h.physical_rows,
        changed.size());
    if (!index.ok()) return;
    for (uint64_t rank = 0; rank < h.physical_rows; rank += 7) {
      uint32_t position = 0;
      Status st = index->Position(
          rank,
          [&](uint64_t offset, uint64_t length, std::string_view* out) -> Status {
            if (offset > changed.size() || length > changed.size() - offset) return Status::Corruption("past");
            *out = std::string_view(changed).substr(offset, length);
            return Status::OK();
          },
          &position);
      if (st.ok()) {
        ASSERT_LT(position, h.physical_rows);
      }
    }
  };
  std::string changed = body;
  std::memcpy(changed.data() + 4 + 4, "\0\0\0\0", 4);  // run 1 starts where run 0 does
  expect(changed, "out of order");
  changed = body;
  std::memcpy(changed.data() + 4 + 4 * runs, "\0\0\0\0", 4);  // the root its own child
  expect(changed, "not a fresh later node or run");
  changed = body;
  changed[table + 8 * 3] = static_cast<char>(changed[table + 8 * 3] ^ 0x04);  // a bit
  expect(changed, "rank directory disagrees with the bits");
  changed = body;
  changed[table + 8 * words] = static_cast<char>(changed[table + 8 * words] ^ 0x01);  // the directory
  expect(changed, "rank directory disagrees with the bits");
  // A bit flipped with its directory rewritten: the tree's counts catch it.
  changed = body;
  changed[table + 8 * 3] = static_cast<char>(changed[table + 8 * 3] ^ 0x04);
  std::vector<uint64_t> bit_words(words);
  std::memcpy(bit_words.data(), changed.data() + table, 8 * words);
  uint64_t before = 0;
  for (uint64_t first = 0; first < words; first += 32) {
    uint64_t half = 0, whole = 0;
    for (uint64_t w = first; w < std::min<uint64_t>(first + 32, words); ++w) {
      whole += static_cast<uint64_t>(__builtin_popcountll(bit_words[w]));
      if (w - first < 16) half += static_cast<uint64_t>(__builtin_popcountll(bit_words[w]));
    }
    const uint64_t entry = before | half << 40;
    std::memcpy(changed.data() + table + 8 * words + 8 * (first / 32), &entry, 8);
    before += whole;
  }
  expect(changed, "more ids reach");
}

}  // namespace
}  // namespace tarn
