// A damaged sidecar never changes an answer: byte flips anywhere, truncation at every header
// field, a sidecar of another file under the same name, and sidecars deleted, replaced or
// stale between lookups. Each case checks the answers and the counter that explains them, for
// every set kind and order form a writer picks.
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

// The file shapes, one per form the writer picks: (set, order).
enum class Shape {
  kShuffled,  // Elias-Fano, Permuted
  kRepeated,  // Elias-Fano, Repeated
  kRuns,      // Elias-Fano, Runs (an update rewrite's four runs)
  kClusters,  // Roaring (run containers), Permuted
  kSparse,    // Sorted, Permuted (two ids far apart)
};
constexpr Shape kShapes[] = {Shape::kShuffled, Shape::kRepeated, Shape::kRuns, Shape::kClusters,
                             Shape::kSparse};

struct Fixture {
  TempDir dir;
  std::shared_ptr<FileSystem> fs = LocalFileSystem();
  std::string data_path = dir.path() + "/";
  std::vector<int64_t> ids;
  DataFileInfo file;
  testing::RowModel model;
  std::string good;  // the valid sidecar bytes
  rowid_internal::RowsumHeader header;  // its header

  static std::pair<RowIdSet::Kind, rowid_internal::OrderForm> FormsOf(Shape shape) {
    using rowid_internal::OrderForm;
    switch (shape) {
      case Shape::kShuffled: return {RowIdSet::Kind::kEliasFano, OrderForm::kPermuted};
      case Shape::kRepeated: return {RowIdSet::Kind::kEliasFano, OrderForm::kRepeated};
      case Shape::kRuns: return {RowIdSet::Kind::kEliasFano, OrderForm::kRuns};
      case Shape::kClusters: return {RowIdSet::Kind::kRoaring, OrderForm::kPermuted};
      case Shape::kSparse: return {RowIdSet::Kind::kSorted, OrderForm::kPermuted};
    }
    return {};
  }

  explicit Fixture(Shape shape) {
    std::mt19937_64 rng(3 + static_cast<int>(shape));
    std::vector<uint64_t> sorted;
    for (uint64_t i = 0; i < (shape == Shape::kSparse ? 2 : 3000); ++i) {
      switch (shape) {
        case Shape::kClusters: sorted.push_back(1000 + i + (i / 100) * 5000); break;
        case Shape::kSparse: sorted.push_back(1000 + i * (uint64_t{1} << 50)); break;
        default: sorted.push_back(1000 + i * 7); break;
      }
    }
    if (shape == Shape::kRuns) {
      ids = testing::RunsFileOrder(rng, sorted, 4);
    } else {
      for (uint64_t id : sorted) {
        ids.push_back(static_cast<int64_t>(id));
        if (shape == Shape::kRepeated && id % 5 == 0) ids.push_back(static_cast<int64_t>(id));
      }
      std::shuffle(ids.begin(), ids.end(), rng);
      if (shape == Shape::kSparse) std::sort(ids.rbegin(), ids.rend());
    }
    file = WriteRowIdFile(fs, data_path, "f.parquet", ids, 9);
    model = ModelOf(ids);
    RowSummaryContext ctx = Context();
    EXPECT_EQ(*PublishRowSummary(ctx, 1, file), PublishOutcome::kPublished);
    good = *fs->ReadFile(SidecarPath(file));
    size_t needed = 0;
    EXPECT_TRUE(rowid_internal::DecodeRowsumHeader(good, &header, &needed).ok());
    const auto [set_kind, order_form] = FormsOf(shape);
    EXPECT_EQ(header.set_kind, set_kind);
    EXPECT_EQ(header.order_form, order_form);
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
  for (Shape shape : kShapes) {
    Fixture f(shape);
    std::mt19937_64 rng(5);
    // Every header byte, and a sample of set and order bytes.
    const rowid_internal::RowsumHeader& header = f.header;
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

void TruncationAtEveryHeaderFieldAndBeyond(Shape shape) {
  SCOPED_TRACE(static_cast<int>(shape));
  Fixture f(shape);
  // Field boundaries of the fixed header, the path, the header CRC, inside the set and order.
  std::vector<size_t> cuts = {0, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 89, 90, 91,
                              92, 96, 100, 104, 105, 110, 114, 200, f.good.size() / 2,
                              f.good.size() - 5, f.good.size() - 1};
  for (size_t cut : cuts) {
    if (cut >= f.good.size()) continue;  // a small sidecar ends before some fields' offsets
    f.Put(f.good.substr(0, cut));
    auto stats = f.Check("cut at " + std::to_string(cut));
    EXPECT_GT(stats->decode_failures.load(), 0) << cut;
    EXPECT_GT(stats->derived.load(), 0) << cut;
  }
  // Inside the set and the order, at a sample of places.
  for (uint64_t cut = f.header.header_len + 1; cut < f.good.size(); cut += f.good.size() / 7) {
    f.Put(f.good.substr(0, cut));
    EXPECT_GT(f.Check("cut at " + std::to_string(cut))->decode_failures.load(), 0) << cut;
  }
  // Bytes appended after a valid sidecar are not a valid sidecar either.
  f.Put(f.good + "x");
  EXPECT_GT(f.Check("extended")->decode_failures.load(), 0);
}

TEST(SidecarCorruptionTest, TruncationAtEveryHeaderFieldAndBeyond) {
  for (Shape shape : kShapes) TruncationAtEveryHeaderFieldAndBeyond(shape);
}

void ASidecarOfAnotherFileIsRefused(Shape shape) {
  SCOPED_TRACE(static_cast<int>(shape));
  Fixture f(shape);
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

TEST(SidecarCorruptionTest, ASidecarOfAnotherFileIsRefused) {
  for (Shape shape : kShapes) ASidecarOfAnotherFileIsRefused(shape);
}

void DeletedReplacedOrCorruptedBetweenSetAndPositions(Shape shape) {
  SCOPED_TRACE(static_cast<int>(shape));
  Fixture f(shape);
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

TEST(SidecarCorruptionTest, DeletedReplacedOrCorruptedBetweenSetAndPositions) {
  for (Shape shape : kShapes) DeletedReplacedOrCorruptedBetweenSetAndPositions(shape);
}

}  // namespace
}  // namespace tarn
