// Opens every DuckLake fixture lake written by the official extension, walks all snapshots and
// checks the metadata against facts verified independently (sqlite3 CLI, spec.sql, and the
// expected/*.parquet row counts read with DuckDB).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <thread>

#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/catalog.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::SharedPath;
using testing::TempDir;

const char* const kFixtures[] = {"basic", "compacted", "evolution", "inlined", "nan", "nested"};

std::string FixtureDir(std::string_view name) {
  return SharedPath(StrCat("fixtures/ducklake/", name));
}

// Copies the fixture's catalog into `dir` (the fixture stays untouched) and returns the copy.
std::string CopyCatalog(std::string_view name, const TempDir& dir) {
  std::string source = FixtureDir(name) + "/catalog.sqlite";
  EXPECT_TRUE(FileExists(source));
  std::string target = dir.Join(StrCat(name, ".sqlite"));
  std::filesystem::copy_file(source, target, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(target, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_write);
  return target;
}

std::unique_ptr<Lake> OpenFixture(std::string_view name, const TempDir& dir) {
  LakeOpenOptions options;
  options.data_path = FixtureDir(name) + "/data";
  auto lake = Lake::Open(StrCat("ducklake:sqlite:", CopyCatalog(name, dir)), options);
  EXPECT_TRUE(lake.ok()) << lake.status().ToString();
  return lake.ok() ? std::move(lake).value() : nullptr;
}

// Whether FileRowCount is exact at the snapshot: no partial file holds rows or deletions
// newer than it.
bool CountIsExact(const TableMetadata& table) {
  for (const DataFileInfo& file : table.data_files) {
    if (file.partial_max.has_value() && *file.partial_max > table.snapshot_id) return false;
    if (file.delete_file.has_value() && file.delete_file->partial_max.has_value() &&
        *file.delete_file->partial_max > table.snapshot_id) {
      return false;
    }
  }
  return true;
}

TEST(CatalogFixtureTest, EveryFixtureEverySnapshotMatchesExpectedRowCounts) {
  struct Check {
    std::string label;
    int64_t tarn_rows;
  };
  std::vector<Check> checks;
  std::vector<std::string> queries;
  for (const char* name : kFixtures) {
    TempDir dir;
    auto lake = OpenFixture(name, dir);
    ASSERT_NE(lake, nullptr);
    EXPECT_EQ(lake->version(), "1.0");
    EXPECT_EQ(lake->catalog_data_path(), StrCat("/lakes/", name, "/data/"));
    auto snapshots = lake->ListSnapshots();
    ASSERT_TRUE(snapshots.ok()) << snapshots.status().ToString();
    ASSERT_FALSE(snapshots->empty());
    for (size_t i = 0; i < snapshots->size(); ++i) {
      EXPECT_EQ((*snapshots)[i].snapshot_id, static_cast<int64_t>(i)) << name;
    }
    for (const SnapshotInfo& info : *snapshots) {
      auto snapshot = lake->LoadSnapshot(SnapshotSelector::Id(info.snapshot_id));
      ASSERT_TRUE(snapshot.ok()) << name << "@" << info.snapshot_id << ": "
                                 << snapshot.status().ToString();
      for (const auto& table_info : (*snapshot)->tables()) {
        auto table = lake->LoadTable(**snapshot, table_info->table_id);
        ASSERT_TRUE(table.ok()) << name << "@" << info.snapshot_id << ": "
                                << table.status().ToString();
        int64_t rows = (*table)->FileRowCount();
        for (const InlinedDataTable& inlined : table_info->inlined_tables) {
          auto batch = lake->ReadInlinedRows(**table, inlined);
          ASSERT_TRUE(batch.ok()) << batch.status().ToString();
          rows += (*batch)->num_rows;
        }
        // Every file the catalog names exists under the overridden data path.
        for (const DataFileInfo& file : (*table)->data_files) {
          EXPECT_TRUE(FileExists(file.path)) << name << "@" << info.snapshot_id;
          if (file.delete_file) {
            EXPECT_TRUE(FileExists(file.delete_file->path));
          }
        }
        std::string expected =
            StrCat(FixtureDir(name), "/expected/", table_info->schema_name, ".",
                   table_info->name, "@", info.snapshot_id, ".parquet");
        if (table_info->schema_name == "s2") continue;  // dropped later: no expected file
        EXPECT_TRUE(FileExists(expected));
        if (!CountIsExact(**table)) continue;
        checks.push_back({StrCat(name, " ", table_info->name, "@", info.snapshot_id), rows});
        queries.push_back(StrCat("SELECT count(*) AS n FROM read_parquet('", expected, "')"));
      }
    }
  }
  ASSERT_GT(checks.size(), 30u);  // most snapshots are exact
  auto answers = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), checks.size());
  for (size_t i = 0; i < checks.size(); ++i) {
    ASSERT_TRUE(answers[i].ok()) << answers[i].status().ToString();
    EXPECT_EQ(*answers[i], StrCat("n\n", checks[i].tarn_rows, "\n")) << checks[i].label;
  }
}

TEST(CatalogFixtureTest, BasicSnapshotsAndFiles) {
  TempDir dir;
  auto lake = OpenFixture("basic", dir);
  ASSERT_NE(lake, nullptr);
  auto snapshots = lake->ListSnapshots();
  ASSERT_TRUE(snapshots.ok());
  ASSERT_EQ(snapshots->size(), 11u);
  const SnapshotInfo& s6 = (*snapshots)[6];
  EXPECT_EQ(s6.changes_made, "inserted_into_table:1,deleted_from_table:1");
  EXPECT_EQ(s6.schema_version, 1);
  EXPECT_EQ(s6.next_catalog_id, 2);
  EXPECT_EQ(s6.next_file_id, 10);
  EXPECT_FALSE(s6.author.has_value());
  EXPECT_FALSE(s6.commit_message.has_value());
  EXPECT_EQ((*snapshots)[0].schema_version, 0);
  EXPECT_EQ((*snapshots)[5].snapshot_time_text, "2026-11-30 03:07:50.755033+00");
  EXPECT_EQ((*snapshots)[5].snapshot_time_micros, 1796008070755033);

  auto snapshot = lake->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  EXPECT_EQ((*snapshot)->snapshot_id(), 10);
  ASSERT_EQ((*snapshot)->schemas().size(), 1u);
  EXPECT_EQ((*snapshot)->schemas()[0].name, "main");
  std::string data = FixtureDir("basic") + "/data/";
  EXPECT_EQ((*snapshot)->schemas()[0].path, data + "main/");
  auto t = (*snapshot)->FindTable("MAIN", "T");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->table_id, 1);
  EXPECT_EQ(t->path, data + "main/t/");
  EXPECT_EQ(t->table_uuid, "01a22a6c-4d8b-794f-8d03-0936326de8af");
  ASSERT_EQ(t->columns.size(), 19u);
  const char* const kTypes[] = {"int64",   "int32",   "int16",         "int8",
                                "uint8",   "uint32",  "uint64",        "float64",
                                "float32", "varchar", "date",          "timestamp",
                                "timestamptz", "time", "decimal(12,3)", "decimal(30,5)",
                                "boolean", "blob",    "uuid"};
  for (size_t i = 0; i < 19; ++i) {
    EXPECT_EQ(t->columns[i].column_id, static_cast<int64_t>(i + 1));
    EXPECT_EQ(t->columns[i].type_name, kTypes[i]);
    EXPECT_EQ(t->columns[i].type.ToDuckLakeName(), kTypes[i]);
    EXPECT_EQ(t->columns[i].default_value.kind, ColumnDefault::Kind::kNone);  // 'NULL'
    EXPECT_EQ(t->columns[i].initial_default.kind, ColumnDefault::Kind::kNone);
    EXPECT_TRUE(t->columns[i].nulls_allowed);
    ASSERT_TRUE(t->columns[i].initial_value.has_value());
    EXPECT_TRUE(t->columns[i].initial_value->is_null());
  }
  EXPECT_EQ(t->schema.fields[14].type, DataType::Decimal(12, 3));
  EXPECT_EQ(t->schema.fields[0].field_id, 1);
  EXPECT_FALSE(t->partitioning.has_value());
  EXPECT_TRUE(t->inlined_tables.empty());

  auto table = lake->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  const TableMetadata& m = **table;
  ASSERT_TRUE(m.stats.has_value());
  EXPECT_EQ(m.stats->record_count, 13043);
  EXPECT_EQ(m.stats->next_row_id, 13043);
  EXPECT_EQ(m.stats->file_size_bytes, 1137264);
  // Visible at 10: files 0, 2, 6, 14 (file 1 ended at 8).
  std::vector<int64_t> ids;
  for (const DataFileInfo& file : m.data_files) ids.push_back(file.data_file_id);
  EXPECT_EQ(ids, (std::vector<int64_t>{0, 2, 6, 14}));
  const DataFileInfo& f0 = m.data_files[0];
  EXPECT_EQ(f0.path, data + "main/t/ducklake-01a22a6c-4dc4-7333-b320-371ee5eb1af9.parquet");
  EXPECT_EQ(f0.record_count, 5000);
  EXPECT_EQ(f0.file_size_bytes, 433817);
  EXPECT_EQ(f0.footer_size, 1858);
  EXPECT_EQ(f0.row_id_start, 0);
  EXPECT_FALSE(f0.partition_id.has_value());
  EXPECT_FALSE(f0.mapping_id.has_value());
  EXPECT_FALSE(f0.partial_max.has_value());
  ASSERT_TRUE(f0.delete_file.has_value());
  EXPECT_EQ(f0.delete_file->delete_file_id, 11);
  EXPECT_EQ(f0.delete_file->begin_snapshot, 5);
  EXPECT_EQ(f0.delete_file->partial_max, 7);
  EXPECT_TRUE(f0.delete_file->is_partial());
  EXPECT_EQ(f0.delete_file->delete_count, 1184);
  EXPECT_EQ(f0.delete_file->format, DeleteFileFormat::kParquet);
  EXPECT_EQ(f0.delete_file->path,
            data + "main/t/ducklake-01a22a6c-4edb-710a-88a6-72ac1038d15f-delete.parquet");
  EXPECT_EQ(m.data_files[3].row_id_start, 12943);
  EXPECT_FALSE(m.data_files[3].delete_file.has_value());
  EXPECT_FALSE(m.has_inlined_delete_table);
  EXPECT_EQ(m.FileRowCount(), 4302);  // expected/main.t@10.csv has 4302 rows

  // At snapshot 7 file 1 is still there, with delete file 7 (begin 5, partial up to 6).
  auto s7 = lake->LoadSnapshot(SnapshotSelector::Id(7));
  ASSERT_TRUE(s7.ok());
  auto t7 = lake->LoadTable(**s7, 1);
  ASSERT_TRUE(t7.ok());
  ASSERT_EQ((*t7)->data_files.size(), 4u);
  EXPECT_EQ((*t7)->data_files[1].data_file_id, 1);
  EXPECT_EQ((*t7)->data_files[1].end_snapshot, 8);
  ASSERT_TRUE((*t7)->data_files[1].delete_file.has_value());
  EXPECT_EQ((*t7)->data_files[1].delete_file->delete_file_id, 7);
  // Before any delete (snapshot 4) no delete file is visible.
  auto s4 = lake->LoadSnapshot(SnapshotSelector::Id(4));
  ASSERT_TRUE(s4.ok());
  auto t4 = lake->LoadTable(**s4, 1);
  ASSERT_TRUE(t4.ok());
  ASSERT_EQ((*t4)->data_files.size(), 3u);
  for (const DataFileInfo& file : (*t4)->data_files) EXPECT_FALSE(file.delete_file.has_value());
  EXPECT_EQ((*t4)->FileRowCount(), 12007);
  // Snapshot 0 has the schema but no table.
  auto s0 = lake->LoadSnapshot(SnapshotSelector::Id(0));
  ASSERT_TRUE(s0.ok());
  EXPECT_TRUE((*s0)->tables().empty());
  EXPECT_EQ((*s0)->schemas().size(), 1u);
  EXPECT_TRUE(lake->LoadTable(**s0, 1).status().IsNotFound());
}

TEST(CatalogFixtureTest, DataPathIsTheCatalogsUnlessOverridden) {
  TempDir dir;
  std::string copy = CopyCatalog("basic", dir);
  auto lake = Lake::Open(copy);  // a bare .sqlite path
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  EXPECT_EQ((*lake)->data_path(), "/lakes/basic/data/");
  auto snapshot = (*lake)->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto table = (*lake)->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ((*table)->data_files[0].path,
            "/lakes/basic/data/main/t/ducklake-01a22a6c-4dc4-7333-b320-371ee5eb1af9.parquet");

  LakeOpenOptions options;
  options.data_path = "/moved/lake";  // no trailing slash: one is added
  auto moved = Lake::Open(StrCat("sqlite:", copy), options);
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ((*moved)->data_path(), "/moved/lake/");
  EXPECT_EQ((*moved)->catalog_data_path(), "/lakes/basic/data/");
  auto moved_snapshot = (*moved)->LoadSnapshot();
  ASSERT_TRUE(moved_snapshot.ok());
  auto moved_table = (*moved)->LoadTable(**moved_snapshot, 1);
  ASSERT_TRUE(moved_table.ok());
  EXPECT_EQ((*moved_table)->data_files[0].path,
            "/moved/lake/main/t/ducklake-01a22a6c-4dc4-7333-b320-371ee5eb1af9.parquet");
  EXPECT_EQ((*moved)->GetOption("data_inlining_row_limit", 0, 1), "0");
  EXPECT_FALSE((*moved)->GetOption("no_such_option", std::nullopt, std::nullopt).has_value());
}

TEST(CatalogFixtureTest, TimestampLookupFindsLatestAtOrBefore) {
  TempDir dir;
  auto lake = OpenFixture("basic", dir);
  ASSERT_NE(lake, nullptr);
  // Snapshot 5: 2026-11-30 03:07:50.755033+00; snapshot 4: ...50.701552+00.
  const int64_t t5 = 1796008070755033;
  const int64_t t4 = 1796008070701552;
  auto exact = lake->FindSnapshot(SnapshotSelector::AtTime(t5));
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->snapshot_id, 5);
  auto after = lake->FindSnapshot(SnapshotSelector::AtTime(t5 + 1));
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->snapshot_id, 5);
  auto before = lake->FindSnapshot(SnapshotSelector::AtTime(t5 - 1));
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->snapshot_id, 4);
  EXPECT_EQ(lake->FindSnapshot(SnapshotSelector::AtTime(t4))->snapshot_id, 4);
  auto far = lake->FindSnapshot(SnapshotSelector::AtTime(t5 + 3600LL * 1000000 * 24 * 365));
  ASSERT_TRUE(far.ok());
  EXPECT_EQ(far->snapshot_id, 10);
  auto too_early = lake->FindSnapshot(SnapshotSelector::AtTime(t4 - 10LL * 1000000));
  EXPECT_TRUE(too_early.status().IsNotFound()) << too_early.status().ToString();
  auto loaded = lake->LoadSnapshot(SnapshotSelector::AtTime(t5 - 1));
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ((*loaded)->snapshot_id(), 4);
  EXPECT_TRUE(lake->FindSnapshot(SnapshotSelector::Id(11)).status().IsNotFound());
  // An offset in the stored text is honored: +01:00 is an hour earlier in UTC.
  EXPECT_EQ(*ParseCatalogTimestamp("2026-11-30 04:07:50.755033+01:00"), t5);
  EXPECT_EQ(*ParseCatalogTimestamp("2026-11-30 03:07:50.755033"), t5);
}

TEST(CatalogFixtureTest, ConcurrentLoadsShareOneLake) {
  TempDir dir;
  auto lake = OpenFixture("basic", dir);
  ASSERT_NE(lake, nullptr);
  std::vector<std::thread> threads;
  std::vector<int64_t> counts(4, -1);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        auto snapshot = lake->LoadSnapshot(SnapshotSelector::Id(4 + (t + round) % 7));
        if (!snapshot.ok()) return;
        auto table = lake->LoadTable(**snapshot, 1);
        if (!table.ok()) return;
        if ((*snapshot)->snapshot_id() == 10) counts[t] = (*table)->FileRowCount();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  int seen = 0;
  for (int64_t count : counts) {
    if (count != -1) {
      EXPECT_EQ(count, 4302);
      ++seen;
    }
  }
  EXPECT_GT(seen, 0);
}

}  // namespace
}  // namespace tarn
