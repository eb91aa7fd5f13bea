// The version 3 set index and id-directed probes: ranks through the index against a std::set
// model for random shapes and index parameters; a sidecar probed reads a small part of its set;
// byte flips and truncations anywhere in an indexed sidecar give an error or the right ranks,
// never a wrong one; older sidecars answer NotSupported; a FileDirectory places through probes
// with the answers of a loaded set, falls back on damage, and loads the set past its probe limit.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

#include "rowid/byte_cursor.h"
#include "rowid/elias_fano.h"
#include "rowid/rowsum_format.h"
#include "rowid/set_index.h"
#include "rowid/sidecar.h"
#include "rowid_test_files.h"
#include "support/test_util.h"

namespace tarn {
namespace {

using rowid_internal::EliasFanoSet;
using rowid_internal::EliasFanoShape;
using rowid_internal::RowsumHeader;
using rowid_internal::SetIndex;

// `count` ids drawn from [base, base + span), ascending; clustered ones come in runs.
std::vector<uint64_t> RandomIds(std::mt19937_64& rng, size_t count, uint64_t base, uint64_t span,
                                bool clustered) {
  std::set<uint64_t> ids;
  while (ids.size() < count) {
    const uint64_t start = base + rng() % span;
    const uint64_t run = clustered ? 1 + rng() % 40 : 1;
    for (uint64_t k = 0; k < run && ids.size() < count && start + k < base + span; ++k) ids.insert(start + k);
  }
  return std::vector<uint64_t>(ids.begin(), ids.end());
}

// A header as a version 3 writer fills it for an index of these parameters over `set_bytes`.
RowsumHeader HeaderFor(const std::vector<uint64_t>& ids, std::string_view set_bytes,
                       uint32_t sample, uint32_t block) {
  RowsumHeader h;
  h.version = 3;
  h.set_kind = RowIdSet::Kind::kEliasFano;
  h.distinct = ids.size();
  h.min_id = ids.front();
  h.max_id = ids.back();
  h.set_len = set_bytes.size();
  h.index_sample = sample;
  h.index_block = block;
  h.index_len = rowid_internal::SetIndexBytes(EliasFanoShape::Of(ids.size(), ids.front(), ids.back()),
                                              sample, block);
  return h;
}

// Ids to ask: members, their neighbours, the bounds and past them.
std::vector<uint64_t> Asks(std::mt19937_64& rng, const std::vector<uint64_t>& ids) {
  std::set<uint64_t> asks = {ids.front(), ids.back(), ids.back() + 1, ids.back() + 1000};
  if (ids.front() > 0) asks.insert(ids.front() - 1);
  for (int k = 0; k < 200; ++k) {
    const uint64_t id = ids[rng() % ids.size()];
    asks.insert(id);
    asks.insert(id + 1);
    asks.insert(ids.front() + rng() % (ids.back() - ids.front() + 1));
  }
  return std::vector<uint64_t>(asks.begin(), asks.end());
}

TEST(SetIndexTest, RanksMatchAModelForRandomShapesAndParameters) {
  std::mt19937_64 rng(91);
  for (int round = 0; round < 80; ++round) {
    const size_t count = 1 + rng() % 20000;
    const uint64_t span = count + rng() % (count * (round % 3 == 0 ? 2 : 200) + 1);
    const std::vector<uint64_t> ids = RandomIds(rng, count, rng() % 1000000, span, round % 4 == 1);
    const auto set = EliasFanoSet::Build(ids);
    std::string set_bytes;
    set->EncodeTo(&set_bytes);
    const uint32_t sample = 1u << (rng() % 12);
    const uint32_t block = 8u << (rng() % 8);
    const EliasFanoShape shape = EliasFanoShape::Of(ids.size(), ids.front(), ids.back());
    ASSERT_EQ(shape.set_len, set_bytes.size()) << round;
    std::string index_bytes;
    rowid_internal::EncodeSetIndex(shape, set_bytes, sample, block, &index_bytes);
    const RowsumHeader h = HeaderFor(ids, set_bytes, sample, block);
    ASSERT_EQ(index_bytes.size(), h.index_len) << round;
    auto index = SetIndex::Decode(h, index_bytes, "model.rowsum");
    ASSERT_TRUE(index.ok()) << round << ": " << index.status().ToString();
    int64_t fetched = 0;
    auto fetch = [&](uint64_t offset, uint64_t length, std::string* out) -> Status {
      fetched += static_cast<int64_t>(length);
      *out = set_bytes.substr(offset, length);
      return Status::OK();
    };
    const std::vector<uint64_t> asks = Asks(rng, ids);
    std::vector<std::optional<uint64_t>> ranks;
    Status st = index->Ranks(asks, fetch, &ranks);
    ASSERT_TRUE(st.ok()) << round << ": " << st.ToString();
    for (size_t i = 0; i < asks.size(); ++i) {
      const auto it = std::lower_bound(ids.begin(), ids.end(), asks[i]);
      const std::optional<uint64_t> expected =
          it != ids.end() && *it == asks[i] ? std::optional<uint64_t>(it - ids.begin()) : std::nullopt;
      ASSERT_EQ(ranks[i], expected) << "round " << round << " id " << asks[i] << " sample " << sample
                                    << " block " << block;
    }
    EXPECT_GT(fetched, 0);
  }
}

// An indexed sidecar of `count` ids uniform over 10·count (the seed's density), ascending in
// file order unless `shuffled`.
struct IndexedSidecar {
  std::vector<uint64_t> ids;
  std::vector<int64_t> file_order;
  SummaryIdentity identity{7, 8, "main/t/f.parquet", 12345};
  std::string bytes;
  RowsumHeader header;

  IndexedSidecar(size_t count, bool shuffled, uint64_t seed) {
    std::mt19937_64 rng(seed);
    ids = RandomIds(rng, count, 1000, 10 * count, false);
    file_order.assign(ids.begin(), ids.end());
    if (shuffled) std::shuffle(file_order.begin(), file_order.end(), rng);
    auto rows = PositionedRowSet::FromFileOrder(file_order);
    EXPECT_TRUE(rows.ok());
    auto encoded = EncodeRowSummary(identity, *rows);
    EXPECT_TRUE(encoded.ok()) << encoded.status().ToString();
    bytes = *encoded;
    size_t needed = 0;
    EXPECT_TRUE(rowid_internal::DecodeRowsumHeader(bytes, &header, &needed).ok());
  }
};

TEST(SetIndexTest, AProbeReadsAFewBlocksOfALargeSet) {
  IndexedSidecar sidecar(200000, /*shuffled=*/true, 5);
  ASSERT_EQ(sidecar.header.version, 3u);
  ASSERT_EQ(sidecar.header.set_kind, RowIdSet::Kind::kEliasFano);
  ASSERT_GT(sidecar.header.index_len, 0u);
  auto fs = NewMemoryFileSystem();
  ASSERT_TRUE(fs->WriteFile("/s.rowsum", sidecar.bytes).ok());
  std::mt19937_64 rng(6);
  for (int k = 0; k < 20; ++k) {
    const uint64_t member = sidecar.ids[rng() % sidecar.ids.size()];
    const std::vector<uint64_t> asks = {member - 1, member};
    auto probe = rowid_internal::ProbeRowsum(*fs, "/s.rowsum", sidecar.identity, asks);
    ASSERT_TRUE(probe.ok()) << probe.status().ToString();
    const auto rank = std::lower_bound(sidecar.ids.begin(), sidecar.ids.end(), member) - sidecar.ids.begin();
    EXPECT_EQ(probe->ranks[1], std::optional<uint64_t>(rank));
    EXPECT_EQ(probe->ranks[0].has_value(),
              std::binary_search(sidecar.ids.begin(), sidecar.ids.end(), member - 1));
    // The header with the index (or the first 8 KiB past the header, when the index is
    // shorter), then at most a few blocks: a small part of the set.
    EXPECT_LT(probe->bytes_read,
              static_cast<int64_t>(sidecar.header.header_len +
                                   std::max<uint64_t>(sidecar.header.index_len, 8 << 10) + 4 * 1024));
    EXPECT_LT(probe->bytes_read * 10, static_cast<int64_t>(sidecar.header.set_len));
  }
  // A whole load of a version 3 sidecar reads the same set.
  auto whole = rowid_internal::ReadRowsum(*fs, "/s.rowsum", sidecar.identity, true, 1 << 16);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(whole->set.ToVector(), sidecar.ids);
  // Another file's identity is refused as on a whole read.
  SummaryIdentity other = sidecar.identity;
  other.file_size += 1;
  EXPECT_EQ(rowid_internal::ProbeRowsum(*fs, "/s.rowsum", other, sidecar.ids).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(SetIndexTest, OlderAndSmallSidecarsHaveNoIndex) {
  auto fs = NewMemoryFileSystem();
  // Small Elias-Fano (version 2), Roaring and Range sets are read whole.
  const std::vector<std::vector<int64_t>> files = {
      {5, 90, 700, 1000, 4000}, [] {
        std::vector<int64_t> dense;
        for (int64_t i = 0; i < 50000; ++i) {
          if (i % 16 != 3) dense.push_back(i);
        }
        return dense;
      }(),
      {10, 11, 12, 13}};
  for (const auto& file_order : files) {
    auto rows = PositionedRowSet::FromFileOrder(file_order);
    ASSERT_TRUE(rows.ok());
    const SummaryIdentity identity{1, 2, "f.parquet", 3};
    auto bytes = EncodeRowSummary(identity, *rows);
    ASSERT_TRUE(bytes.ok());
    RowsumHeader h;
    size_t needed = 0;
    ASSERT_TRUE(rowid_internal::DecodeRowsumHeader(*bytes, &h, &needed).ok());
    EXPECT_LT(h.version, 3u);
    ASSERT_TRUE(fs->WriteFile("/o.rowsum", *bytes).ok());
    const std::vector<uint64_t> asks = {11};
    EXPECT_EQ(rowid_internal::ProbeRowsum(*fs, "/o.rowsum", identity, asks).status().code(),
              StatusCode::kNotSupported);
  }
}

// Whatever byte is flipped and wherever the sidecar is cut, a probe fails or answers exactly.
TEST(SetIndexTest, FlipsAndCutsNeverChangeAnAnswer) {
  IndexedSidecar sidecar(10000, /*shuffled=*/false, 9);
  ASSERT_EQ(sidecar.header.version, 3u);
  auto fs = NewMemoryFileSystem();
  std::mt19937_64 rng(10);
  std::vector<uint64_t> asks = Asks(rng, sidecar.ids);
  std::vector<std::optional<uint64_t>> expected;
  for (uint64_t id : asks) {
    const auto it = std::lower_bound(sidecar.ids.begin(), sidecar.ids.end(), id);
    expected.push_back(it != sidecar.ids.end() && *it == id ? std::optional<uint64_t>(it - sidecar.ids.begin())
                                                            : std::nullopt);
  }
  int failures = 0, flips = 0;
  const size_t size = sidecar.bytes.size();
  for (size_t at = 0; at < size; at += (at < sidecar.header.header_len ? 1 : 1 + rng() % 7)) {
    std::string bad = sidecar.bytes;
    bad[at] = static_cast<char>(bad[at] ^ (1 << (rng() % 8)));
    ASSERT_TRUE(fs->WriteFile("/f.rowsum", bad).ok());
    auto probe = rowid_internal::ProbeRowsum(*fs, "/f.rowsum", sidecar.identity, asks);
    ++flips;
    if (!probe.ok()) {
      ++failures;
      continue;
    }
    // The flip fell where no asked id looks (another block of the set, the order): the same ranks.
    ASSERT_EQ(probe->ranks, expected) << "flip at " << at;
  }
  EXPECT_GT(failures, flips / 4);  // the header, the index and the blocks read are all checked
  for (size_t cut = 0; cut < size; cut += 1 + cut / 8) {
    ASSERT_TRUE(fs->WriteFile("/f.rowsum", sidecar.bytes.substr(0, cut)).ok());
    auto probe = rowid_internal::ProbeRowsum(*fs, "/f.rowsum", sidecar.identity, asks);
    EXPECT_EQ(probe.status().code(), StatusCode::kCorruption) << "cut at " << cut;
  }
}

TEST(SetIndexTest, ErrorsNameTheSidecarAndTheOffset) {
  IndexedSidecar sidecar(10000, /*shuffled=*/false, 12);
  auto fs = NewMemoryFileSystem();
  // A flip in the set's first block: its checksum, named with the set offset.
  std::string bad = sidecar.bytes;
  bad[sidecar.header.set_offset() + 30] ^= 0x10;
  ASSERT_TRUE(fs->WriteFile("/lake/f.parquet.rowsum", bad).ok());
  const std::vector<uint64_t> asks = {sidecar.ids.front()};
  auto probe = rowid_internal::ProbeRowsum(*fs, "/lake/f.parquet.rowsum", sidecar.identity, asks);
  ASSERT_EQ(probe.status().code(), StatusCode::kCorruption);
  EXPECT_NE(probe.status().message().find("'/lake/f.parquet.rowsum'"), std::string::npos)
      << probe.status().ToString();
  EXPECT_NE(probe.status().message().find("set offset 0"), std::string::npos) << probe.status().ToString();
  // A flip in the index: its checksum, named with the offset.
  bad = sidecar.bytes;
  bad[sidecar.header.index_offset() + 2] ^= 0x01;
  ASSERT_TRUE(fs->WriteFile("/lake/f.parquet.rowsum", bad).ok());
  probe = rowid_internal::ProbeRowsum(*fs, "/lake/f.parquet.rowsum", sidecar.identity, asks);
  ASSERT_EQ(probe.status().code(), StatusCode::kCorruption);
  EXPECT_NE(probe.status().message().find("set index of '/lake/f.parquet.rowsum'"), std::string::npos)
      << probe.status().ToString();
  EXPECT_NE(probe.status().message().find("at offset"), std::string::npos) << probe.status().ToString();
}

// Counts that disagree with the set's bits (a writer's bug, checksums recomputed) are caught.
TEST(SetIndexTest, CountsThatContradictTheBitsAreCorruption) {
  std::mt19937_64 rng(13);
  const std::vector<uint64_t> ids = RandomIds(rng, 5000, 0, 50000, false);
  const auto set = EliasFanoSet::Build(ids);
  std::string set_bytes;
  set->EncodeTo(&set_bytes);
  const EliasFanoShape shape = EliasFanoShape::Of(ids.size(), ids.front(), ids.back());
  std::string index_bytes;
  rowid_internal::EncodeSetIndex(shape, set_bytes, 64, 256, &index_bytes);
  ASSERT_GT(index_bytes.size(), 16u);
  // Count 1 (ids before bucket 64) one too many, and the index's checksum recomputed.
  uint32_t count = rowid_internal::LoadLE<uint32_t>(index_bytes.data() + 4);
  ++count;
  std::memcpy(index_bytes.data() + 4, &count, 4);
  const uint32_t crc = rowid_internal::Crc32(std::string_view(index_bytes).substr(0, index_bytes.size() - 4));
  std::memcpy(index_bytes.data() + index_bytes.size() - 4, &crc, 4);
  auto index = SetIndex::Decode(HeaderFor(ids, set_bytes, 64, 256), index_bytes, "bug.rowsum");
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  auto fetch = [&](uint64_t offset, uint64_t length, std::string* out) -> Status {
    *out = set_bytes.substr(offset, length);
    return Status::OK();
  };
  std::vector<std::optional<uint64_t>> ranks;
  const std::vector<uint64_t> asks = {ids[0], ids.back()};
  Status st = index->Ranks(asks, fetch, &ranks);
  EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
  // A header claiming another index length is refused before any index byte is trusted.
  RowsumHeader h = HeaderFor(ids, set_bytes, 64, 256);
  h.index_len += 4;
  EXPECT_EQ(SetIndex::Decode(h, index_bytes, "bug.rowsum").status().code(), StatusCode::kCorruption);
}

// A directory over files with indexed sidecars and nothing resident places through probes, with
// the same answers as the model; a damaged sidecar falls back; past the probe limit the set loads.
TEST(SetIndexTest, ADirectoryPlacesThroughProbes) {
  testing::TempDir dir;
  std::shared_ptr<FileSystem> fs = LocalFileSystem();
  const std::string data_path = dir.path() + "/";
  std::mt19937_64 rng(14);
  auto info = std::make_shared<TableInfo>();
  info->table_id = 3;
  auto table = std::make_shared<TableMetadata>();
  table->snapshot_id = 1;
  table->table = info;
  std::vector<testing::RowModel> models;
  for (int f = 0; f < 3; ++f) {
    // Interleaved files over one range, so every file's bounds admit every id.
    std::vector<uint64_t> ids;
    for (uint64_t id = 100 + f; id < 400000; id += 3 * (1 + rng() % 10)) ids.push_back(id);
    std::vector<int64_t> file_order(ids.begin(), ids.end());
    std::shuffle(file_order.begin(), file_order.end(), rng);
    DataFileInfo file = testing::WriteRowIdFile(fs, data_path, "f" + std::to_string(f) + ".parquet",
                                                file_order, f + 1);
    RowSummaryContext publish_ctx;
    publish_ctx.fs = fs;
    publish_ctx.data_path = data_path;
    auto published = PublishRowSummary(publish_ctx, 3, file);
    ASSERT_TRUE(published.ok()) << published.status().ToString();
    table->data_files.push_back(file);
    models.push_back(testing::ModelOf(file_order));
  }
  std::vector<int64_t> asks;
  for (int k = 0; k < 6; ++k) {
    auto it = models[k % 3].begin();
    std::advance(it, rng() % models[k % 3].size());
    asks.push_back(it->first);
  }
  asks.push_back(99);
  auto expect_answers = [&](const PlaceResult& placed) {
    size_t found = 0;
    for (const RowPlacement& p : placed.placements) {
      const testing::RowModel& model = models[p.data_file_id - 1];
      auto it = model.find(p.row_id);
      ASSERT_NE(it, model.end()) << p.row_id;
      EXPECT_EQ(p.positions, it->second) << p.row_id;
      ++found;
    }
    size_t expected = 0;
    for (int64_t id : asks) {
      for (const auto& model : models) expected += model.count(id);
    }
    EXPECT_EQ(found, expected);
  };
  auto context = [&] {
    RowSummaryContext ctx;
    ctx.fs = fs;
    ctx.data_path = data_path;
    ctx.stats = std::make_shared<RowSummaryStats>();
    return ctx;
  };
  {
    RowSummaryContext ctx = context();
    auto directory = FileDirectory::Build(table, ctx);
    ASSERT_TRUE(directory.ok());
    auto placed = (*directory)->Place(asks);
    ASSERT_TRUE(placed.ok()) << placed.status().ToString();
    expect_answers(*placed);
    EXPECT_EQ(ctx.stats->sidecar_probes.load(), 3);
    EXPECT_EQ(ctx.stats->derived.load(), 0);
    EXPECT_EQ((*directory)->counts().summarized, 0);
    // Past the probe limit the sets load, with the same answers.
    for (int k = 0; k < 8; ++k) ASSERT_TRUE((*directory)->Place(asks).ok());
    EXPECT_EQ(ctx.stats->sidecar_probes.load(), 3 * 8);
    EXPECT_EQ((*directory)->counts().summarized, 3);
    placed = (*directory)->Place(asks);
    ASSERT_TRUE(placed.ok());
    expect_answers(*placed);
  }
  {
    // probe_lookups = 0: sets are loaded whole from the start.
    RowSummaryContext ctx = context();
    FileDirectoryOptions options;
    options.probe_lookups = 0;
    auto directory = FileDirectory::Build(table, ctx, options);
    ASSERT_TRUE(directory.ok());
    auto placed = (*directory)->Place(asks);
    ASSERT_TRUE(placed.ok());
    expect_answers(*placed);
    EXPECT_EQ(ctx.stats->sidecar_probes.load(), 0);
    EXPECT_EQ((*directory)->counts().summarized, 3);
  }
  {
    // A damaged set block of file 1: that file is derived, every answer the same.
    const std::string path = SidecarPath(table->data_files[0]);
    auto bytes = fs->ReadFile(path);
    ASSERT_TRUE(bytes.ok());
    RowsumHeader h;
    size_t needed = 0;
    ASSERT_TRUE(rowid_internal::DecodeRowsumHeader(*bytes, &h, &needed).ok());
    for (uint64_t at = h.set_offset() + 25; at < h.set_offset() + h.set_len; at += 97) (*bytes)[at] ^= 0x04;
    ASSERT_TRUE(fs->WriteFile(path, *bytes).ok());
    RowSummaryContext ctx = context();
    auto directory = FileDirectory::Build(table, ctx);
    ASSERT_TRUE(directory.ok());
    auto placed = (*directory)->Place(asks);
    ASSERT_TRUE(placed.ok()) << placed.status().ToString();
    expect_answers(*placed);
    EXPECT_EQ(ctx.stats->sidecar_probes.load(), 2);
    EXPECT_EQ(ctx.stats->derived.load(), 1);
    EXPECT_GE(ctx.stats->decode_failures.load(), 1);
  }
}

}  // namespace
}  // namespace tarn
