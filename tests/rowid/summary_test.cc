// The summary's pieces against simple models: bit packing, RowIdSet (every kind), orders,
// the .rowsum encoding round trip, and the writer's refusal of positions its width cannot hold.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "rowid/bit_packing.h"
#include "rowid/rowsum_format.h"
#include "tarn/rowid.h"

namespace tarn {
namespace {

std::vector<uint32_t> ToVector(std::span<const uint32_t> values) { return {values.begin(), values.end()}; }

using rowid_internal::PackBits;
using rowid_internal::UnpackAll;
using rowid_internal::UnpackAt;

TEST(BitPackingTest, RoundTripsEveryWidth) {
  std::mt19937_64 rng(7);
  for (int width = 0; width <= 32; ++width) {
    std::vector<uint32_t> values(1 + rng() % 300);
    for (auto& v : values) v = width == 0 ? 0 : static_cast<uint32_t>(rng() & ((1ULL << width) - 1));
    std::string packed;
    ASSERT_TRUE(PackBits(values, width, &packed).ok());
    ASSERT_EQ(packed.size(), rowid_internal::PackedBytes(values.size(), width));
    std::vector<uint32_t> back(values.size());
    UnpackAll(packed, values.size(), width, back.data());
    EXPECT_EQ(back, values) << width;
    for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(UnpackAt(packed, i, width), values[i]);
  }
}

TEST(BitPackingTest, RefusesAValueTooWide) {
  std::string packed = "x";
  std::vector<uint32_t> values = {1, 2, 8};
  Status st = PackBits(values, 3, &packed);
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_NE(st.message().find("value 8 at index 2 does not fit in 3 bits"), std::string::npos);
  EXPECT_EQ(packed, "x");  // nothing half-written
  EXPECT_EQ(BitsFor(0), 0);
  EXPECT_EQ(BitsFor(1), 1);
  EXPECT_EQ(BitsFor(999999), 20);
}

std::vector<uint64_t> RandomIds(std::mt19937_64& rng, int shape, size_t n) {
  std::set<uint64_t> ids;
  const uint64_t base = shape == 3 ? (uint64_t{1} << 63) - 5000000 : rng() % 1000000;
  while (ids.size() < n) {
    switch (shape) {
      case 0: ids.insert(base + rng() % (n * 10 + 1)); break;          // sparse
      case 1: ids.insert(base + rng() % (n + n / 8 + 1)); break;         // dense with holes
      case 2: ids.insert(base + (rng() % 40) * 65536 + rng() % 5000); break;  // many containers
      default: ids.insert(base + rng() % 5000000); break;                // near 2^63
    }
  }
  return {ids.begin(), ids.end()};
}

TEST(RowIdSetTest, AnswersLikeAStdSetInEveryKind) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 40; ++round) {
    const int shape = round % 4;
    const size_t n = 1 + rng() % (round % 5 == 0 ? 70000 : 3000);
    std::vector<uint64_t> ids = RandomIds(rng, shape, n);
    for (RowIdSet::Kind kind : {RowIdSet::Kind::kRoaring, RowIdSet::Kind::kSorted}) {
      RowIdSet set = RowIdSet::FromSorted(ids, kind);
      std::string bytes;
      set.EncodeTo(&bytes);
      ASSERT_EQ(static_cast<int64_t>(bytes.size()), set.EncodedSize());
      auto decoded = RowIdSet::Decode(kind, bytes);
      ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
      EXPECT_EQ(decoded->ToVector(), ids);
      for (const RowIdSet* s : {&set, &*decoded}) {
        EXPECT_EQ(s->size(), ids.size());
        EXPECT_EQ(s->min(), ids.front());
        EXPECT_EQ(s->max(), ids.back());
        for (int q = 0; q < 2000; ++q) {
          const size_t i = rng() % ids.size();
          ASSERT_EQ(s->Rank(ids[i]), std::optional<uint64_t>(i));
          const uint64_t probe = ids[i] + 1;
          const bool member = std::binary_search(ids.begin(), ids.end(), probe);
          ASSERT_EQ(s->Contains(probe), member);
        }
      }
    }
    RowIdSet best = RowIdSet::FromSorted(ids);
    EXPECT_LE(best.EncodedSize(), RowIdSet::FromSorted(ids, RowIdSet::Kind::kSorted).EncodedSize());
  }
}

TEST(RowIdSetTest, ContiguousIdsAreARange) {
  std::vector<uint64_t> ids;
  for (uint64_t i = 0; i < 1000; ++i) ids.push_back((uint64_t{1} << 63) - 1000 + i);
  RowIdSet set = RowIdSet::FromSorted(ids);
  EXPECT_EQ(set.kind(), RowIdSet::Kind::kRange);
  EXPECT_EQ(set.Rank(ids[17]), 17u);
  EXPECT_FALSE(set.Contains(ids.back() + 1));
  EXPECT_FALSE(set.Contains(ids.front() - 1));
}

TEST(RowIdSetTest, RoaringRunsAndBitmapsChosenBySize) {
  std::vector<uint64_t> ids;
  for (uint64_t i = 0; i < 60000; ++i) ids.push_back(i * 2);  // bitmap containers
  for (uint64_t i = 0; i < 50000; ++i) ids.push_back(1000000 + i + (i / 1000) * 5);  // runs
  RowIdSet set = RowIdSet::FromSorted(ids, RowIdSet::Kind::kRoaring);
  std::string bytes;
  set.EncodeTo(&bytes);
  auto back = RowIdSet::Decode(RowIdSet::Kind::kRoaring, bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ToVector(), ids);
  // Two bitmap containers (8 KiB each) and ~50 runs; arrays would cost 100 KB for the runs.
  EXPECT_LT(bytes.size(), 2 * 8192 + 1000);
}

TEST(PositionedRowSetTest, ShapesFromFileOrder) {
  auto asc = PositionedRowSet::FromFileOrder(std::vector<int64_t>{3, 5, 9});
  ASSERT_TRUE(asc.ok());
  EXPECT_EQ(asc->order->kind(), RowOrder::Kind::kAscending);
  auto perm = PositionedRowSet::FromFileOrder(std::vector<int64_t>{9, 3, 5});
  ASSERT_TRUE(perm.ok());
  EXPECT_EQ(perm->order->kind(), RowOrder::Kind::kPermuted);
  EXPECT_EQ(ToVector(perm->order->positions()), (std::vector<uint32_t>{1, 2, 0}));
  auto rep = PositionedRowSet::FromFileOrder(std::vector<int64_t>{5, 3, 5, 5});
  ASSERT_TRUE(rep.ok());
  EXPECT_EQ(rep->order->kind(), RowOrder::Kind::kRepeated);
  std::vector<int64_t> positions;
  rep->order->AppendPositions(*rep->set->Rank(5), &positions);
  EXPECT_EQ(positions, (std::vector<int64_t>{0, 2, 3}));
  auto negative = PositionedRowSet::FromFileOrder(std::vector<int64_t>{1, -2});
  EXPECT_EQ(negative.status().code(), StatusCode::kInvalidArgument);
}

TEST(RowsumEncodingTest, WriterRefusesAPositionItsWidthCannotHold) {
  // A permutation claiming 4 rows holds position 4: width bits(3) = 2 cannot hold it.
  PositionedRowSet rows;
  std::vector<uint64_t> ids = {10, 20, 30, 40};
  rows.set = std::make_shared<const RowIdSet>(RowIdSet::FromSorted(ids));
  rows.order = std::make_shared<const RowOrder>(RowOrder::Permuted({3, 1, 4, 0}));
  rows.physical_rows = 4;
  SummaryIdentity id{1, 2, "a.parquet", 100};
  auto bytes = EncodeRowSummary(id, rows);
  EXPECT_EQ(bytes.status().code(), StatusCode::kInternal);
  EXPECT_NE(bytes.status().message().find("does not fit in 2 bits"), std::string::npos);
}

TEST(RowsumEncodingTest, HeaderRoundTripsAndChecksIdentity) {
  auto rows = PositionedRowSet::FromFileOrder(std::vector<int64_t>{7, 1, 7, 4, 100});
  ASSERT_TRUE(rows.ok());
  SummaryIdentity id{3, 42, "main/t/f.parquet", 12345};
  auto bytes = EncodeRowSummary(id, *rows);
  ASSERT_TRUE(bytes.ok());
  rowid_internal::RowsumHeader header;
  size_t needed = 0;
  ASSERT_TRUE(rowid_internal::DecodeRowsumHeader(*bytes, &header, &needed).ok());
  EXPECT_EQ(header.identity, id);
  EXPECT_EQ(header.physical_rows, 5u);
  EXPECT_EQ(header.distinct, 4u);
  EXPECT_EQ(header.position_width, 3);
  EXPECT_EQ(header.offset_width, 3);
  EXPECT_EQ(header.total_len(), bytes->size());
  EXPECT_TRUE(rowid_internal::CheckIdentity(header, id).ok());
  SummaryIdentity other = id;
  other.file_size++;
  EXPECT_EQ(rowid_internal::CheckIdentity(header, other).code(), StatusCode::kInvalidArgument);
  auto order = rowid_internal::DecodeRowsumOrder(header, std::string_view(*bytes).substr(header.order_offset(), header.order_len));
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(ToVector(order->offsets()), ToVector(rows->order->offsets()));
  EXPECT_EQ(ToVector(order->positions()), ToVector(rows->order->positions()));
}

}  // namespace
}  // namespace tarn

namespace tarn {
namespace {

TEST(RowsumEncodingTest, Crc32cKnownValueAndHardwareMatchesSoftware) {
  EXPECT_EQ(rowid_internal::Crc32("123456789"), 0xE3069283u);
  EXPECT_EQ(rowid_internal::Crc32cForTesting("123456789", false), 0xE3069283u);
  std::mt19937_64 rng(9);
  for (int round = 0; round < 50; ++round) {
    std::string bytes(rng() % 5000, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    EXPECT_EQ(rowid_internal::Crc32cForTesting(bytes, true), rowid_internal::Crc32cForTesting(bytes, false));
  }
}

}  // namespace
}  // namespace tarn
