// A damaged sidecar never changes an answer: byte flips anywhere, truncation at every header
// field, a sidecar of another file under the same name, and sidecars deleted, replaced or
// stale between lookups. Each case checks the answers and the counter that explains them.
#include <gtest/gtest.h>

#include <random>

#include "rowid/order_locator.h"
#include "rowid/rowsum_format.h"
#include "rowid_test_files.h"
#include "support/test_util.h"

namespace tarn {
namespace {

using testing::ExpectAnswers;
using testing::ModelOf;
using testing::TempDir;
using testing::WriteRowIdFile;

struct Fixture {
  TempDir dir;
  std::shared_ptr<FileSystem> fs = LocalFileSystem();
  std::string data_path = dir.path() + "/";
  std::vector<int64_t> ids;
  DataFileInfo file;
  testing::RowModel model;
  std::string good;  // the valid sidecar bytes

  explicit Fixture(bool repeated) {
    std::mt19937_64 rng(repeated ? 3 : 4);
    for (int64_t i = 0; i < 3000; ++i) {
      ids.push_back(1000 + i * 7);
      if (repeated && i % 5 == 0) ids.push_back(1000 + i * 7);
    }
    std::shuffle(ids.begin(), ids.end(), rng);
    file = WriteRowIdFile(fs, data_path, "f.parquet", ids, 9);
    model = ModelOf(ids);
    RowSummaryContext ctx = Context();
    EXPECT_EQ(*PublishRowSummary(ctx, 1, file), PublishOutcome::kPublished);
    good = *fs->ReadFile(SidecarPath(file));
    // The intact sidecar answers everything by itself: failures below are the damage's.
    auto clean = Check("intact");
    EXPECT_EQ(clean->decode_failures.load(), 0);
    EXPECT_EQ(clean->derived.load(), 0);
    EXPECT_GT(clean->sidecar_hits.load(), 0);
  }
  RowSummaryContext Context() {
    RowSummaryContext ctx;
    ctx.fs = fs;
    ctx.data_path = data_path;
    ctx.stats = std::make_shared<RowSummaryStats>();
    ctx.stats->log = [](const std::string&) {};
    ctx.sidecar_prefix_bytes = 200;  // exercise the extension read
    return ctx;
  }
  void Put(const std::string& bytes) { ASSERT_TRUE(fs->WriteFile(SidecarPath(file), bytes).ok()); }
  // Loads with both needs and checks every answer; returns the stats.
  std::shared_ptr<RowSummaryStats> Check(const std::string& label) {
    RowSummaryContext ctx = Context();
    for (SummaryNeed need : {SummaryNeed::kMembership, SummaryNeed::kPositions}) {
      auto summary = LoadFileSummary(ctx, 1, file, need);
      EXPECT_TRUE(summary.ok()) << label << ": " << summary.status().ToString();
      if (!summary.ok()) return ctx.stats;
      ExpectAnswers(ctx, 1, file, *summary, model, {0, 999, 1001, 1007, 999999}, label);
    }
    return ctx.stats;
  }
};

TEST(SidecarCorruptionTest, EveryByteFlipFallsBackToTheSameAnswer) {
  for (bool repeated : {false, true}) {
    Fixture f(repeated);
    std::mt19937_64 rng(5);
    // Every header byte, and a sample of set and order bytes.
    rowid_internal::RowsumHeader header;
    size_t needed = 0;
    ASSERT_TRUE(rowid_internal::DecodeRowsumHeader(f.good, &header, &needed).ok());
    std::vector<size_t> offsets;
    for (size_t i = 0; i < header.header_len; ++i) offsets.push_back(i);
    for (int i = 0; i < 150; ++i) offsets.push_back(header.header_len + rng() % (f.good.size() - header.header_len));
    for (size_t offset : offsets) {
      std::string bad = f.good;
      bad[offset] = static_cast<char>(bad[offset] ^ (1 << (rng() % 8)));
      f.Put(bad);
      auto stats = f.Check("flip at " + std::to_string(offset));
      // Either refused (a flip in the identity that still checksums cannot happen) or failed
      // to decode; a flip inside the order is only seen when the order is read.
      EXPECT_GT(stats->decode_failures.load() + stats->refused_identity.load(), 0) << offset;
      EXPECT_EQ(stats->refused_identity.load(), 0) << offset;
    }
  }
}

TEST(SidecarCorruptionTest, TruncationAtEveryHeaderFieldAndBeyond) {
  Fixture f(false);
  // Field boundaries of the fixed header, the path, the header CRC, inside the set and order.
  std::vector<size_t> cuts = {0, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 89, 90, 91,
                              92, 96, 100, 104, 105, 110, 114, 200, f.good.size() / 2,
                              f.good.size() - 5, f.good.size() - 1};
  for (size_t cut : cuts) {
    f.Put(f.good.substr(0, cut));
    auto stats = f.Check("cut at " + std::to_string(cut));
    EXPECT_GT(stats->decode_failures.load(), 0) << cut;
    EXPECT_GT(stats->derived.load(), 0) << cut;
  }
  // Bytes appended after a valid sidecar are not a valid sidecar either.
  f.Put(f.good + "x");
  EXPECT_GT(f.Check("extended")->decode_failures.load(), 0);
}

TEST(SidecarCorruptionTest, ASidecarOfAnotherFileIsRefused) {
  Fixture f(false);
  // Another file's valid sidecar copied under this file's name.
  std::vector<int64_t> other_ids = {5, 4, 3, 2, 1};
  DataFileInfo other = WriteRowIdFile(f.fs, f.data_path, "g.parquet", other_ids, 10);
  RowSummaryContext ctx = f.Context();
  ASSERT_EQ(*PublishRowSummary(ctx, 1, other), PublishOutcome::kPublished);
  f.Put(*f.fs->ReadFile(SidecarPath(other)));
  auto stats = f.Check("another file's sidecar");
  EXPECT_GT(stats->refused_identity.load(), 0);
  EXPECT_EQ(stats->decode_failures.load(), 0);
  // Same file id and path, another size (a stale sidecar of a rewritten object).
  SummaryIdentity stale = IdentityOf(1, f.file, f.data_path);
  stale.file_size += 1;
  auto rows = *PositionedRowSet::FromFileOrder(f.ids);
  f.Put(*EncodeRowSummary(stale, rows));
  EXPECT_GT(f.Check("stale size")->refused_identity.load(), 0);
  // Another table.
  SummaryIdentity table2 = IdentityOf(2, f.file, f.data_path);
  f.Put(*EncodeRowSummary(table2, rows));
  EXPECT_GT(f.Check("another table")->refused_identity.load(), 0);
  // Publishing over a refused sidecar replaces it.
  EXPECT_EQ(*PublishRowSummary(ctx, 1, f.file), PublishOutcome::kPublished);
  EXPECT_EQ(*f.fs->ReadFile(SidecarPath(f.file)), f.good);
}

TEST(SidecarCorruptionTest, DeletedReplacedOrCorruptedBetweenSetAndPositions) {
  Fixture f(true);
  std::vector<uint64_t> members;
  for (const auto& [id, positions] : f.model) members.push_back(static_cast<uint64_t>(id));
  auto answer = [&](RowSummaryContext& ctx, const FileSummary& membership) {
    std::vector<std::vector<int64_t>> got;
    Status st = ResolvePositions(ctx, 1, f.file, membership, members, &got);
    EXPECT_TRUE(st.ok()) << st.ToString();
    size_t i = 0;
    for (const auto& [id, positions] : f.model) EXPECT_EQ(got[i++], positions) << id;
  };
  // Deleted after the set was read.
  {
    f.Put(f.good);
    RowSummaryContext ctx = f.Context();
    auto membership = *LoadFileSummary(ctx, 1, f.file, SummaryNeed::kMembership);
    ASSERT_TRUE(f.fs->Delete(SidecarPath(f.file)).ok());
    answer(ctx, membership);
    EXPECT_EQ(ctx.stats->derived.load(), 1);
  }
  // Replaced by another file's sidecar after the set was read.
  {
    f.Put(f.good);
    RowSummaryContext ctx = f.Context();
    auto membership = *LoadFileSummary(ctx, 1, f.file, SummaryNeed::kMembership);
    SummaryIdentity other = IdentityOf(1, f.file, f.data_path);
    other.data_file_id = 77;
    std::vector<int64_t> shuffled = f.ids;
    std::reverse(shuffled.begin(), shuffled.end());
    f.Put(*EncodeRowSummary(other, *PositionedRowSet::FromFileOrder(shuffled)));
    answer(ctx, membership);
    EXPECT_GT(ctx.stats->decode_failures.load() + ctx.stats->refused_identity.load(), 0);
  }
  // An order byte flipped after the set was read.
  {
    f.Put(f.good);
    RowSummaryContext ctx = f.Context();
    auto membership = *LoadFileSummary(ctx, 1, f.file, SummaryNeed::kMembership);
    std::string bad = f.good;
    bad[bad.size() - 20] ^= 0x10;
    bad[membership.order_locator->header.order_offset() + 3] ^= 0x01;
    f.Put(bad);
    answer(ctx, membership);
    EXPECT_GT(ctx.stats->decode_failures.load(), 0);
  }
  // Published after a lookup missed it: the next lookup uses it.
  {
    ASSERT_TRUE(f.fs->Delete(SidecarPath(f.file)).ok());
    RowSummaryContext ctx = f.Context();
    ASSERT_TRUE(LoadFileSummary(ctx, 1, f.file, SummaryNeed::kMembership).ok());
    EXPECT_EQ(ctx.stats->sidecar_misses.load(), 1);
    f.Put(f.good);
    EXPECT_EQ(LoadFileSummary(ctx, 1, f.file, SummaryNeed::kMembership)->source, SummarySource::kSidecar);
  }
}

}  // namespace
}  // namespace tarn
