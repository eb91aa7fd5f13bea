// The checks a sidecar's order and set must pass after their checksums do: an order whose
// blocks checksum correctly but hold a position past the file, or offsets out of order, and a
// bitmap container whose bits disagree with its declared cardinality, are Corruption naming
// the fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "rowid/bit_packing.h"
#include "rowid/byte_cursor.h"
#include "rowid/rowsum_format.h"
#include "tarn/rowid.h"

namespace tarn {
namespace {

using rowid_internal::RowsumHeader;

struct Encoded {
  RowsumHeader header;
  std::string bytes;
  std::string Order() const { return bytes.substr(header.order_offset()); }
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

}  // namespace
}  // namespace tarn
