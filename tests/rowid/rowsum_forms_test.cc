// Every set and order form of the .rowsum format against simple models: sets of random shapes
// (uniform, clustered, dense, tiny, empty, near 2^63) in every kind against a std::set —
// membership, rank and select of every member, and non-members — and orders of random shapes
// (k-run permutations, random permutations, repeated ids) against a position vector, through
// the whole encoding and through single-rank access to the Runs form. Also: version 1 sidecars
// written before version 2 existed decode and re-encode to the same bytes, and the sizes the
// picker promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "rowid/bit_packing.h"
#include "rowid/byte_cursor.h"
#include "rowid/elias_fano.h"
#include "rowid/rowsum_format.h"
#include "rowid/run_order.h"
#include "rowid_test_files.h"
#include "tarn/rowid.h"

namespace tarn {
namespace {

using rowid_internal::OrderForm;
using rowid_internal::RowsumHeader;
using rowid_internal::RunOrderIndex;

enum class Shape { kUniform, kClustered, kDense, kTiny, kEmpty, kHigh };

std::vector<uint64_t> IdsOf(std::mt19937_64& rng, Shape shape, size_t n) {
  std::set<uint64_t> ids;
  const uint64_t base = rng() % 1000000;
  switch (shape) {
    case Shape::kUniform:
      while (ids.size() < n) ids.insert(base + rng() % (10 * n + 1));
      break;
    case Shape::kClustered:
      // Clusters of up to 200 nearly consecutive ids, far apart.
      while (ids.size() < n) {
        const uint64_t start = base + (rng() % (n / 50 + 1)) * 100000;
        for (uint64_t i = 0, len = 1 + rng() % 200; i < len && ids.size() < n; ++i) {
          ids.insert(start + i + (rng() % 8 == 0 ? 1 : 0));
        }
      }
      break;
    case Shape::kDense:
      while (ids.size() < n) ids.insert(base + rng() % (n + n / 16 + 1));
      break;
    case Shape::kTiny:
      while (ids.size() < std::min<size_t>(n, 1 + rng() % 5)) ids.insert(rng() % 100000000);
      break;
    case Shape::kEmpty:
      break;
    case Shape::kHigh:
      while (ids.size() < n) ids.insert((uint64_t{1} << 63) - 1 - rng() % (20 * n + 1));
      break;
  }
  return {ids.begin(), ids.end()};
}

void ExpectSetAnswers(const RowIdSet& set, const std::vector<uint64_t>& ids, std::mt19937_64& rng,
                      const std::string& label) {
  const std::set<uint64_t> model(ids.begin(), ids.end());
  ASSERT_EQ(set.size(), ids.size()) << label;
  ASSERT_EQ(set.ToVector(), ids) << label;  // select: the rank-th member, for every rank
  for (size_t rank = 0; rank < ids.size(); ++rank) {
    ASSERT_EQ(set.Rank(ids[rank]), std::optional<uint64_t>(rank)) << label << " id " << ids[rank];
  }
  std::vector<uint64_t> probes = {0, 1, ~uint64_t{0}, uint64_t{1} << 63};
  for (uint64_t id : {ids.empty() ? 0 : ids.front(), ids.empty() ? 0 : ids.back()}) {
    probes.push_back(id - 1);
    probes.push_back(id + 1);
  }
  for (int i = 0; i < 500 && !ids.empty(); ++i) {
    const uint64_t near = ids[rng() % ids.size()];
    probes.push_back(near + 1 + rng() % 16);
    probes.push_back(near - 1 - rng() % 16);
  }
  for (uint64_t probe : probes) {
    const bool member = model.count(probe) > 0;
    ASSERT_EQ(set.Contains(probe), member) << label << " probe " << probe;
    if (!member) {
      ASSERT_EQ(set.Rank(probe), std::nullopt) << label << " probe " << probe;
    }
  }
}

TEST(RowsumFormsTest, EverySetKindAnswersLikeAStdSet) {
  std::mt19937_64 rng(21);
  const Shape shapes[] = {Shape::kUniform, Shape::kClustered, Shape::kDense,
                          Shape::kTiny,    Shape::kEmpty,     Shape::kHigh};
  for (int round = 0; round < 48; ++round) {
    const Shape shape = shapes[round % 6];
    const size_t n = 1 + rng() % (round % 4 == 0 ? 80000 : 4000);
    const std::vector<uint64_t> ids = IdsOf(rng, shape, n);
    const std::string label = "round " + std::to_string(round);
    const RowIdSet picked = RowIdSet::FromSorted(ids);
    for (RowIdSet::Kind kind : {RowIdSet::Kind::kRoaring, RowIdSet::Kind::kEliasFano,
                                RowIdSet::Kind::kSorted, picked.kind()}) {
      const std::string kind_label = label + " kind " + std::to_string(static_cast<int>(kind));
      const RowIdSet set = RowIdSet::FromSorted(ids, kind);
      std::string bytes;
      set.EncodeTo(&bytes);
      ASSERT_EQ(static_cast<int64_t>(bytes.size()), set.EncodedSize()) << kind_label;
      auto decoded = RowIdSet::Decode(set.kind(), bytes);
      ASSERT_TRUE(decoded.ok()) << kind_label << ": " << decoded.status().ToString();
      ExpectSetAnswers(set, ids, rng, kind_label);
      ExpectSetAnswers(*decoded, ids, rng, kind_label + " decoded");
    }
    // The picking rule: never larger than any of the three.
    for (RowIdSet::Kind kind : {RowIdSet::Kind::kRoaring, RowIdSet::Kind::kEliasFano, RowIdSet::Kind::kSorted}) {
      EXPECT_LE(picked.EncodedSize(), RowIdSet::FromSorted(ids, kind).EncodedSize()) << label;
    }
  }
}

TEST(RowsumFormsTest, EliasFanoMeetsTheSeedShapeBudget) {
  // One million ids uniform over ten million: at most 700,000 bytes, and Roaring is not picked.
  std::mt19937_64 rng(23);
  std::vector<uint64_t> ids(10000000);
  std::iota(ids.begin(), ids.end(), uint64_t{0});
  std::shuffle(ids.begin(), ids.end(), rng);
  ids.resize(1000000);
  std::sort(ids.begin(), ids.end());
  const RowIdSet set = RowIdSet::FromSorted(ids);
  EXPECT_EQ(set.kind(), RowIdSet::Kind::kEliasFano);
  EXPECT_LE(set.EncodedSize(), 700000);
  EXPECT_GT(RowIdSet::FromSorted(ids, RowIdSet::Kind::kRoaring).EncodedSize(), 1200000);
}

// A body-relative fetch over bytes in memory, bounds-checked like the sidecar reader's.
auto MemoryFetch(std::string_view body) {
  return [body](uint64_t offset, uint64_t length, std::string_view* out) -> Status {
    if (offset > body.size() || length > body.size() - offset) return Status::Corruption("past the body");
    *out = body.substr(offset, length);
    return Status::OK();
  };
}

struct Decoded {
  RowsumHeader header;
  RowIdSet set;
  RowOrder order;
  std::string bytes;
  std::string_view Body() const {
    return std::string_view(bytes).substr(header.order_offset(), header.body_len());
  }
};

Decoded EncodeAndDecode(const std::vector<int64_t>& file_order) {
  Decoded out;
  auto rows = PositionedRowSet::FromFileOrder(file_order);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  auto bytes = EncodeRowSummary(SummaryIdentity{1, 2, "f.parquet", 100}, *rows);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  out.bytes = *bytes;
  size_t needed = 0;
  Status st = rowid_internal::DecodeRowsumHeader(out.bytes, &out.header, &needed);
  EXPECT_TRUE(st.ok()) << st.ToString();
  auto set = rowid_internal::DecodeRowsumSet(
      out.header, std::string_view(out.bytes).substr(out.header.set_offset(), out.header.set_len));
  EXPECT_TRUE(set.ok()) << set.status().ToString();
  if (set.ok()) out.set = *set;
  auto order = rowid_internal::DecodeRowsumOrder(
      out.header, std::string_view(out.bytes).substr(out.header.order_offset(), out.header.order_len));
  EXPECT_TRUE(order.ok()) << order.status().ToString();
  if (order.ok()) out.order = *order;
  return out;
}

TEST(RowsumFormsTest, EveryOrderFormAnswersLikeAPositionVector) {
  std::mt19937_64 rng(22);
  for (int round = 0; round < 60; ++round) {
    const size_t sizes[] = {2, 3, 17, 1000, 30000};
    const size_t n = sizes[round % 5];
    const size_t kinds[] = {1, 2, 3, 10, 100, 0 /* random */};
    const size_t runs = std::min(kinds[(round / 5) % 6], n);
    const bool repeated = round % 13 == 12;
    const std::vector<uint64_t> ids = IdsOf(rng, round % 2 ? Shape::kUniform : Shape::kDense, n);
    std::vector<int64_t> file_order;
    if (runs == 0) {
      file_order.assign(ids.begin(), ids.end());
      std::shuffle(file_order.begin(), file_order.end(), rng);
    } else {
      file_order = testing::RunsFileOrder(rng, ids, runs);
    }
    if (repeated) file_order.push_back(file_order[rng() % file_order.size()]);
    const std::string label = "round " + std::to_string(round) + " n " + std::to_string(n) +
                              " runs " + std::to_string(runs);
    // The model: each id's positions, by the id's rank.
    const testing::RowModel model = testing::ModelOf(file_order);
    const Decoded d = EncodeAndDecode(file_order);
    ASSERT_EQ(d.set.size(), model.size()) << label;
    size_t rank = 0;
    for (const auto& [id, positions] : model) {
      ASSERT_EQ(d.set.Rank(static_cast<uint64_t>(id)), std::optional<uint64_t>(rank)) << label;
      std::vector<int64_t> got;
      d.order.AppendPositions(rank, &got);
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, positions) << label << " rank " << rank;
      ++rank;
    }
    if (d.header.order_form != OrderForm::kRuns) continue;
    // One rank at a time, over the encoded body only.
    const std::string_view body = d.Body();
    auto table_bytes = RunOrderIndex::TableBytes(body, d.header.physical_rows, body.size());
    ASSERT_TRUE(table_bytes.ok()) << table_bytes.status().ToString();
    auto index = RunOrderIndex::Parse(body.substr(0, *table_bytes), d.header.physical_rows, body.size());
    ASSERT_TRUE(index.ok()) << index.status().ToString();
    rank = 0;
    for (const auto& [id, positions] : model) {
      uint32_t position = 0;
      Status st = index->Position(rank, MemoryFetch(body), &position);
      ASSERT_TRUE(st.ok()) << label << ": " << st.ToString();
      ASSERT_EQ(position, positions[0]) << label << " rank " << rank;
      ++rank;
    }
    uint32_t ignored = 0;
    EXPECT_EQ(index->Position(rank, MemoryFetch(body), &ignored).code(), StatusCode::kCorruption);
  }
}

TEST(RowsumFormsTest, TheWriterPicksRunsOnlyWhenSmaller) {
  std::mt19937_64 rng(24);
  const size_t n = 100000;
  const std::vector<uint64_t> ids = IdsOf(rng, Shape::kUniform, n);
  const uint64_t packed = rowid_internal::PackedBytes(n, BitsFor(n - 1));
  for (size_t runs : {2, 10, 100}) {
    const Decoded d = EncodeAndDecode(testing::RunsFileOrder(rng, ids, runs));
    ASSERT_EQ(d.header.order_form, OrderForm::kRuns) << runs;
    EXPECT_LT(d.header.body_len(), packed);
    // Within 10% of n·log2(k) bits, past the run table (4 + 12k − 8 bytes).
    const double bound_bytes = n * std::log2(static_cast<double>(runs)) / 8;
    EXPECT_LE(static_cast<double>(d.header.body_len() - (12 * runs - 4)), 1.10 * bound_bytes) << runs;
    EXPECT_EQ(d.header.version, 3u);  // Runs, and an Elias-Fano set large enough for an index
  }
  std::vector<int64_t> shuffled(ids.begin(), ids.end());
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  const Decoded random = EncodeAndDecode(shuffled);
  EXPECT_EQ(random.header.order_form, OrderForm::kPermuted);
  EXPECT_EQ(random.header.body_len(), packed);
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

TEST(RowsumFormsTest, VersionOneSidecarsDecodeAndKeepTheirBytes) {
  // Written by the version 1 writer, for identity {3, 4, "main/t/f.parquet", 1234}.
  struct Golden {
    std::vector<int64_t> file_order;
    const char* hex;
    bool same_forms_today;  // the version 2 picker still picks its forms
  };
  const Golden goldens[] = {
      {{10, 11, 12, 13},
       "5441524e5253554d010000007c00000003000000000000000400000000000000d20400000000000004000000"
       "0000000004000000000000000a000000000000000d000000000000001000000000000000000000000000000001"
       "0002000004000039a43fdb100000006d61696e2f742f662e706172717565748f899b4f0a000000000000000e00"
       "000000000000",
       true},
      {{int64_t{1} << 40, 3, int64_t{1} << 40, 9, 3},
       "5441524e5253554d010000007c00000003000000000000000400000000000000d20400000000000005000000"
       "00000000030000000000000003000000000000000000000000010000200000000000000008000000000000000302"
       "03030004000033c6eed9100000006d61696e2f742f662e70617271756574363455ab030000000000000003000000"
       "0000000009000000000000000000000000010000d00ae120bcc97b67",
       true},
      {{}, "", true},  // filled below: ids 50 down to 10 but 30, a Roaring run and 40 runs
      {{70000, 5, 65536, 7, 200000, 6},
       "5441524e5253554d010000007c00000003000000000000000400000000000000d20400000000000006000000"
       "0000000006000000000000000500000000000000400d0300000000003800000000000000070000000000000002"
       "0103000004000092a0d39b100000006d61696e2f742f662e706172717565741b2aff9e01000000000000000000"
       "00003a3000000300000000000200010001000300000020000000260000002a00000005000600070000007011400d"
       "e904026412c3ff",
       false},
  };
  std::vector<int64_t> reversed;
  for (int64_t id = 50; id >= 10; --id) {
    if (id != 30) reversed.push_back(id);
  }
  const char* reversed_hex =
      "5441524e5253554d010000007c00000003000000000000000400000000000000d2040000000000002800000000"
      "00000028000000000000000a0000000000000032000000000000001f0000000000000022000000000000000201"
      "0600000400008be3ffc6100000006d61696e2f742f662e7061727175657470bb6d3c0100000000000000000000"
      "003b300000010000270002000a0013001f001300a75992a318829fd7719b96619755519314418fd3308b922087"
      "51108310006de25667";
  const SummaryIdentity identity{3, 4, "main/t/f.parquet", 1234};
  for (size_t g = 0; g < std::size(goldens); ++g) {
    const std::vector<int64_t>& file_order = g == 2 ? reversed : goldens[g].file_order;
    const std::string golden = FromHex(g == 2 ? reversed_hex : goldens[g].hex);
    RowsumHeader header;
    size_t needed = 0;
    ASSERT_TRUE(rowid_internal::DecodeRowsumHeader(golden, &header, &needed).ok()) << g;
    EXPECT_EQ(header.version, 1u);
    auto set = rowid_internal::DecodeRowsumSet(header, std::string_view(golden).substr(header.set_offset(), header.set_len));
    ASSERT_TRUE(set.ok()) << g << ": " << set.status().ToString();
    auto order = rowid_internal::DecodeRowsumOrder(header, std::string_view(golden).substr(header.order_offset()));
    ASSERT_TRUE(order.ok()) << g << ": " << order.status().ToString();
    size_t rank = 0;
    for (const auto& [id, positions] : testing::ModelOf(file_order)) {
      ASSERT_EQ(set->Rank(static_cast<uint64_t>(id)), std::optional<uint64_t>(rank)) << g;
      std::vector<int64_t> got;
      order->AppendPositions(rank++, &got);
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, positions) << g;
    }
    auto today = EncodeRowSummary(identity, *PositionedRowSet::FromFileOrder(file_order));
    ASSERT_TRUE(today.ok());
    if (goldens[g].same_forms_today) {
      EXPECT_EQ(*today, golden) << g;
    } else {
      EXPECT_NE(*today, golden) << g;  // a smaller set kind now, under version 2
      EXPECT_LT(today->size(), golden.size()) << g;
    }
  }
}

}  // namespace
}  // namespace tarn
