// Every source of a summary — derived, memory cache, disk tier, sidecar membership (positions
// read entry by entry) and sidecar with positions — gives the model's answers, on files of
// every shape.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "rowid_test_files.h"
#include "support/test_util.h"

namespace tarn {
namespace {

std::vector<uint32_t> ToVector(std::span<const uint32_t> values) { return {values.begin(), values.end()}; }

using testing::ExpectAnswers;
using testing::ModelOf;
using testing::TempDir;
using testing::WriteRowIdFile;

constexpr int64_t kTable = 7;

std::vector<int64_t> Shape(const std::string& name, std::mt19937_64& rng) {
  std::vector<int64_t> ids;
  if (name == "ascending") {
    for (int64_t i = 0; i < 5000; ++i) ids.push_back(i * 3 + (i % 3));
  } else if (name == "permuted") {
    for (int64_t i = 0; i < 20000; ++i) ids.push_back(100 + i * 5);
    std::shuffle(ids.begin(), ids.end(), rng);
  } else if (name == "repeated") {
    for (int64_t i = 0; i < 3000; ++i) {
      const int64_t versions = 1 + static_cast<int64_t>(rng() % 3);
      for (int64_t v = 0; v < versions; ++v) ids.push_back(i);
    }
    // A flushed file lists versions by row id, then snapshot: ascending with repeats.
  } else if (name == "repeated_shuffled") {
    for (int64_t i = 0; i < 3000; ++i) {
      for (int64_t v = 0; v < 1 + static_cast<int64_t>(i % 3); ++v) ids.push_back(i * 11);
    }
    std::shuffle(ids.begin(), ids.end(), rng);
  } else if (name == "one_row") {
    ids.push_back(424242);
  } else if (name == "near_2_63") {
    const int64_t top = INT64_MAX;
    for (int64_t i = 0; i < 4000; ++i) ids.push_back(top - static_cast<int64_t>(rng() % 10000000));
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::shuffle(ids.begin(), ids.end(), rng);
  } else if (name == "contiguous") {
    ids.resize(7000);
    std::iota(ids.begin(), ids.end(), int64_t{900});
  } else if (name == "million") {
    std::vector<int64_t> all(10000000);
    std::iota(all.begin(), all.end(), int64_t{0});
    for (int64_t i = 0; i < 1000000; ++i) {
      std::swap(all[i], all[i + static_cast<int64_t>(rng() % (all.size() - i))]);
    }
    ids.assign(all.begin(), all.begin() + 1000000);  // a million sparse ids, file order random
  }
  return ids;
}

std::vector<int64_t> Probes(const std::vector<int64_t>& ids, std::mt19937_64& rng) {
  std::vector<int64_t> probes = {0, 1, INT64_MAX, INT64_MAX - 1};
  for (int i = 0; i < 300 && !ids.empty(); ++i) {
    const int64_t id = ids[rng() % ids.size()];
    probes.push_back(id);
    if (id > 0) probes.push_back(id - 1);
    if (id < INT64_MAX) probes.push_back(id + 1);
  }
  return probes;
}

void CheckAllSources(const std::string& shape, int user_columns) {
  SCOPED_TRACE(shape);
  std::mt19937_64 rng(std::hash<std::string>{}(shape));
  TempDir dir;
  auto fs = LocalFileSystem();
  const std::string data_path = dir.path() + "/data/";
  ASSERT_TRUE(fs->CreateDirectories(data_path + "main/t").ok());
  std::vector<int64_t> ids = Shape(shape, rng);
  DataFileInfo file = WriteRowIdFile(fs, data_path, "main/t/f-" + shape + ".parquet", ids, 5,
                                     user_columns, 30000);
  const testing::RowModel model = ModelOf(ids);
  const std::vector<int64_t> probes = Probes(ids, rng);

  RowSummaryContext base;
  base.fs = fs;
  base.data_path = data_path;
  base.stats = std::make_shared<RowSummaryStats>();

  // 1. Derived: no cache, no sidecar.
  RowSummaryContext derive_only = base;
  derive_only.use_sidecars = false;
  auto derived = LoadFileSummary(derive_only, kTable, file, SummaryNeed::kMembership);
  ASSERT_TRUE(derived.ok()) << derived.status().ToString();
  EXPECT_EQ(derived->source, SummarySource::kDerived);
  ExpectAnswers(derive_only, kTable, file, *derived, model, probes, "derived");

  // A read never publishes.
  EXPECT_FALSE(*fs->Exists(SidecarPath(file)));

  // 2. Memory cache and 3. disk tier.
  SummaryCacheOptions cache_options;
  cache_options.disk_fs = fs;
  cache_options.disk_dir = dir.path() + "/cache";
  auto cache = SummaryCache::Open(cache_options);
  ASSERT_TRUE(cache.ok());
  RowSummaryContext cached = derive_only;
  cached.cache = *cache;
  ASSERT_TRUE(LoadFileSummary(cached, kTable, file, SummaryNeed::kPositions).ok());
  auto from_memory = LoadFileSummary(cached, kTable, file, SummaryNeed::kPositions);
  ASSERT_TRUE(from_memory.ok());
  EXPECT_EQ(from_memory->source, SummarySource::kMemoryCache);
  ExpectAnswers(cached, kTable, file, *from_memory, model, probes, "memory cache");
  auto cache2 = SummaryCache::Open(cache_options);  // a new process, same disk tier
  ASSERT_TRUE(cache2.ok());
  EXPECT_GT((*cache2)->disk_bytes_used(), 0);
  RowSummaryContext disk_ctx = derive_only;
  disk_ctx.cache = *cache2;
  auto from_disk = LoadFileSummary(disk_ctx, kTable, file, SummaryNeed::kMembership);
  ASSERT_TRUE(from_disk.ok());
  EXPECT_EQ(from_disk->source, SummarySource::kDiskCache);
  EXPECT_FALSE(from_disk->has_order());
  ExpectAnswers(disk_ctx, kTable, file, *from_disk, model, probes, "disk tier membership");
  (*cache2)->Clear();
  auto from_disk_whole = LoadFileSummary(disk_ctx, kTable, file, SummaryNeed::kPositions);
  ASSERT_TRUE(from_disk_whole.ok());
  EXPECT_EQ(from_disk_whole->source, SummarySource::kDiskCache);
  ExpectAnswers(disk_ctx, kTable, file, *from_disk_whole, model, probes, "disk tier whole");

  // 4. Sidecar, membership then positions.
  auto outcome = PublishRowSummary(base, kTable, file);
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  EXPECT_EQ(*outcome, PublishOutcome::kPublished);
  EXPECT_EQ(*PublishRowSummary(base, kTable, file), PublishOutcome::kAlreadyPublished);
  const int64_t derived_before = base.stats->derived.load();
  auto membership = LoadFileSummary(base, kTable, file, SummaryNeed::kMembership);
  ASSERT_TRUE(membership.ok());
  EXPECT_EQ(membership->source, SummarySource::kSidecar);
  EXPECT_FALSE(membership->has_order());
  ExpectAnswers(base, kTable, file, *membership, model, probes, "sidecar membership");
  auto whole = LoadFileSummary(base, kTable, file, SummaryNeed::kPositions);
  ASSERT_TRUE(whole.ok());
  if (shape == "ascending" || shape == "contiguous" || shape == "one_row") {
    EXPECT_EQ(whole->order->kind(), RowOrder::Kind::kAscending);
  } else if (shape.starts_with("repeated")) {
    EXPECT_EQ(whole->order->kind(), RowOrder::Kind::kRepeated);
  } else {
    EXPECT_EQ(whole->order->kind(), RowOrder::Kind::kPermuted);
  }
  EXPECT_EQ(whole->source, SummarySource::kSidecar);
  ASSERT_TRUE(whole->has_order());
  ExpectAnswers(base, kTable, file, *whole, model, probes, "sidecar whole");
  EXPECT_EQ(base.stats->derived.load(), derived_before);  // no source fell back to the file
  EXPECT_EQ(base.stats->decode_failures.load(), 0);
  EXPECT_EQ(base.stats->refused_identity.load(), 0);

  // The sidecar is the same set as derivation, in the same encoding.
  EXPECT_EQ(whole->set->ToVector(), derived->set->ToVector());
  EXPECT_EQ(whole->set->kind(), derived->set->kind());
  EXPECT_EQ(ToVector(whole->order->positions()), ToVector(derived->order->positions()));
  EXPECT_EQ(ToVector(whole->order->offsets()), ToVector(derived->order->offsets()));
}

TEST(SummarySourcesTest, Ascending) { CheckAllSources("ascending", 1); }
TEST(SummarySourcesTest, Permuted) { CheckAllSources("permuted", 2); }
TEST(SummarySourcesTest, Repeated) { CheckAllSources("repeated", 1); }
TEST(SummarySourcesTest, RepeatedShuffled) { CheckAllSources("repeated_shuffled", 1); }
TEST(SummarySourcesTest, OneRow) { CheckAllSources("one_row", 1); }
TEST(SummarySourcesTest, NearTwoToThe63) { CheckAllSources("near_2_63", 1); }
TEST(SummarySourcesTest, Contiguous) { CheckAllSources("contiguous", 1); }
TEST(SummarySourcesTest, AMillionRows) { CheckAllSources("million", 1); }

TEST(SummarySourcesTest, MembershipSummaryNeverAnswersPositionsFromTheCache) {
  TempDir dir;
  auto fs = LocalFileSystem();
  const std::string data_path = dir.path() + "/";
  std::vector<int64_t> ids = {50, 10, 30};
  DataFileInfo file = WriteRowIdFile(fs, data_path, "f.parquet", ids, 1);
  RowSummaryContext ctx;
  ctx.fs = fs;
  ctx.data_path = data_path;
  ctx.cache = *SummaryCache::Open({});
  ctx.stats = std::make_shared<RowSummaryStats>();
  ASSERT_EQ(*PublishRowSummary(ctx, 1, file), PublishOutcome::kPublished);
  auto membership = LoadFileSummary(ctx, 1, file, SummaryNeed::kMembership);
  ASSERT_TRUE(membership.ok());
  EXPECT_EQ(membership->source, SummarySource::kSidecar);
  // The cache holds a membership entry; asking for positions must not get it.
  auto whole = LoadFileSummary(ctx, 1, file, SummaryNeed::kPositions);
  ASSERT_TRUE(whole.ok());
  EXPECT_TRUE(whole->has_order());
  EXPECT_EQ(whole->source, SummarySource::kSidecar);
  // Both now cached apart: a membership lookup is a hit, a positions lookup is a hit.
  EXPECT_EQ(LoadFileSummary(ctx, 1, file, SummaryNeed::kPositions)->source, SummarySource::kMemoryCache);
  EXPECT_GT(ctx.cache->membership_bytes_used(), 0);
  EXPECT_GT(ctx.cache->whole_bytes_used(), 0);
  FileSummary bare = *membership;
  bare.order_locator.reset();
  std::vector<std::vector<int64_t>> positions;
  std::vector<uint64_t> want = {30};
  EXPECT_EQ(ResolvePositions(ctx, 1, file, bare, want, &positions).code(), StatusCode::kInvalidArgument);
}

TEST(SummaryCacheTest, MemoryTiersAreBoundedApart) {
  SummaryCacheOptions options;
  options.membership_bytes = 4096;
  options.whole_bytes = 1 << 20;
  auto cache = *SummaryCache::Open(options);
  auto rows = *PositionedRowSet::FromFileOrder(std::vector<int64_t>{5, 3, 1});
  for (int i = 0; i < 100; ++i) {
    FileSummary whole;
    whole.identity = {1, i, "w" + std::to_string(i), 10};
    whole.set = rows.set;
    whole.order = rows.order;
    whole.physical_rows = 3;
    cache->Insert("ns", whole, false);
    FileSummary member = whole;
    member.identity.relative_path = "m" + std::to_string(i);
    member.order.reset();
    cache->Insert("ns", member, false);
  }
  EXPECT_LE(cache->membership_bytes_used(), 4096);
  // Membership churn evicted none of the whole summaries.
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(cache->Lookup("ns", {1, i, "w" + std::to_string(i), 10}, SummaryNeed::kPositions, nullptr));
  }
  EXPECT_FALSE(cache->Lookup("ns", {1, 0, "m0", 10}, SummaryNeed::kMembership, nullptr));
  EXPECT_FALSE(cache->Lookup("other", {1, 0, "w0", 10}, SummaryNeed::kMembership, nullptr));
}

}  // namespace
}  // namespace tarn
