// The Session's lake API and the cases the fixtures do not hold: a real column named rowid
// shadowing the pseudo-column, lake views, attach errors, EXPLAIN ANALYZE metrics, and writes
// seen by other sessions only after COMMIT. Catalog copies are edited with SQL through the
// catalog store where a case needs it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/fixture_lake.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::CopyFixtureCatalog;
using testing::FixtureLakePath;

Status EditCatalog(const std::string& path, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(auto store, OpenSqliteCatalogStore(path, false));
  return store->Execute(sql, {}).status();
}

Result<std::string> Csv(Session* session, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session->Execute(sql));
  std::string out;
  StringSink sink(&out);
  TARN_RETURN_NOT_OK(WriteCsv(result.reader.get(), &sink));
  return out;
}

// Reads the fixture's own data files, read-only: a session that writes gets a copy
// (CopiedData), so the shared fixture stays as it is.
AttachOptions DataPath(const std::string& fixture) {
  AttachOptions options;
  options.data_path = FixtureLakePath(fixture) + "/data";
  options.override_data_path = true;  // the catalog names the writer's folder
  options.read_only = true;
  return options;
}

// A private copy of the fixture's data files in `dir`, for sessions that write.
AttachOptions CopiedData(const std::string& fixture, const testing::TempDir& dir) {
  AttachOptions options;
  options.data_path = testing::CopyFixtureData(fixture, dir);
  options.override_data_path = true;
  return options;
}

TEST(LakeSessionTest, AttachOnceAndErrors) {
  testing::TempDir dir;
  Session session;
  Status missing = session.Attach(dir.Join("missing.sqlite"));
  EXPECT_TRUE(missing.IsNotFound()) << missing.ToString();
  EXPECT_EQ(session.attached_lake(), nullptr);
  const std::string catalog = CopyFixtureCatalog("compacted", dir);
  ASSERT_TRUE(session.Attach(catalog, DataPath("compacted")).ok());
  EXPECT_NE(session.attached_lake(), nullptr);
  Status again = session.Attach(catalog, DataPath("compacted"));
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.message(),
            "Binder Error: Failed to attach database: database with name \"lake\" already exists");
  auto count = Csv(&session, "SELECT count(*) AS n FROM c");
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(*count, "n\n1041\n");
}

// A live table without ducklake_column rows is a catalog error naming it, never a crash.
TEST(LakeSessionTest, TableWithoutColumnsIsAnError) {
  testing::TempDir dir;
  const std::string catalog = CopyFixtureCatalog("basic", dir);
  ASSERT_TRUE(EditCatalog(catalog, "DELETE FROM ducklake_column WHERE table_id = 1").ok());
  Session session;
  ASSERT_TRUE(session.Attach(catalog, DataPath("basic")).ok());
  for (const char* sql : {"SELECT * FROM t", "SELECT count(*) FROM t", "DESCRIBE t"}) {
    auto result = session.Execute(sql);
    Status status = result.status();
    if (result.ok()) {
      while (status.ok()) {
        auto batch = result->reader->Next();
        status = batch.status();
        if (status.ok() && *batch == nullptr) break;
      }
    }
    ASSERT_FALSE(status.ok()) << sql;
    EXPECT_NE(status.message().find("ducklake_table row (table_id = 1): table main.t has no "
                                    "columns in ducklake_column at snapshot 10"),
              std::string::npos)
        << sql << ": " << status.ToString();
  }
}

// ducklake_snapshots() lists the ids of each change in numeric order; an id too large for
// BIGINT (a damaged catalog) is shown as written, never a crash.
TEST(LakeSessionTest, SnapshotChangesWithIdsPastBigintAreShown) {
  testing::TempDir dir;
  const std::string catalog = CopyFixtureCatalog("basic", dir);
  ASSERT_TRUE(EditCatalog(catalog,
                          "UPDATE ducklake_snapshot_changes SET changes_made = "
                          "'inserted_into_table:99999999999999999999999,inserted_into_table:1' "
                          "WHERE snapshot_id = 2")
                  .ok());
  Session session;
  ASSERT_TRUE(session.Attach(catalog, DataPath("basic")).ok());
  auto damaged = Csv(&session, "SELECT changes FROM ducklake_snapshots() WHERE snapshot_id = 2");
  ASSERT_TRUE(damaged.ok()) << damaged.status().ToString();
  EXPECT_NE(damaged->find("[1, 99999999999999999999999]"), std::string::npos) << *damaged;
  auto fine = Csv(&session, "SELECT changes FROM ducklake_snapshots() WHERE snapshot_id = 3");
  ASSERT_TRUE(fine.ok()) << fine.status().ToString();
  EXPECT_NE(fine->find("[1]"), std::string::npos) << *fine;
}

TEST(LakeSessionTest, OtherCatalogName) {
  testing::TempDir dir;
  Session session;
  AttachOptions options = DataPath("compacted");
  options.name = "warehouse";
  ASSERT_TRUE(session.Attach(CopyFixtureCatalog("compacted", dir), options).ok());
  auto count = Csv(&session, "SELECT count(*) AS n FROM warehouse.main.c WHERE id < 10");
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  auto same = Csv(&session, "SELECT count(*) AS n FROM warehouse.c WHERE id < 10");
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_EQ(*count, *same);
  auto snapshots = Csv(&session, "SELECT count(*) AS n FROM ducklake_snapshots('warehouse')");
  ASSERT_TRUE(snapshots.ok()) << snapshots.status().ToString();
  EXPECT_EQ(*snapshots, "n\n12\n");
  auto wrong = session.Execute("SELECT * FROM ducklake_snapshots('lake')");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find(
                "catalog \"lake\" does not exist; the attached lake is \"warehouse\""),
            std::string::npos)
      << wrong.status().message();
}

TEST(LakeSessionTest, RealColumnNamedRowidShadowsThePseudoColumn) {
  testing::TempDir dir;
  const std::string catalog = CopyFixtureCatalog("compacted", dir);
  // Column x (DOUBLE) becomes "rowid": the real column wins in SELECT and WHERE.
  ASSERT_TRUE(EditCatalog(catalog,
                          "UPDATE ducklake_column SET column_name = 'rowid' "
                          "WHERE column_name = 'x'")
                  .ok());
  Session session;
  ASSERT_TRUE(session.Attach(catalog, DataPath("compacted")).ok());
  auto rows = Csv(&session, "SELECT id, rowid FROM c WHERE rowid > 1620 ORDER BY id");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, "id,rowid\n1297,1621.25\n1298,1622.5\n1299,1623.75\n");
  // `*` includes the real column once.
  auto star = session.Execute("SELECT * FROM c");
  ASSERT_TRUE(star.ok()) << star.status().ToString();
  EXPECT_EQ(star->schema->ToString(), "(id BIGINT, v VARCHAR, rowid DOUBLE)");
}

TEST(LakeSessionTest, LakeViewsArePlannedFromTheirSql) {
  testing::TempDir dir;
  const std::string catalog = CopyFixtureCatalog("compacted", dir);
  ASSERT_TRUE(EditCatalog(catalog,
                          "INSERT INTO ducklake_view VALUES (100, "
                          "'01a22a6c-0000-7000-8000-000000000001', 11, NULL, 0, 'small', "
                          "'duckdb', 'SELECT id, v FROM c WHERE id < 5', '\"k\",\"w\"')")
                  .ok());
  Session session;
  ASSERT_TRUE(session.Attach(catalog, DataPath("compacted")).ok());
  auto rows = Csv(&session, "SELECT k, w FROM small ORDER BY k");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  // id 1 went at snapshot 5 (id % 5 = 1), id 0 at snapshot 10 (id % 13 = 0).
  EXPECT_EQ(*rows, "k,w\n2,v2\n3,v3\n4,v4\n");
  auto tables = Csv(&session, "SHOW TABLES");
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  EXPECT_EQ(*tables, "name\nc\nsmall\n");
}

TEST(LakeSessionTest, ExplainAnalyzeShowsTheScanMetrics) {
  testing::TempDir dir;
  Session session;
  ASSERT_TRUE(session.Attach(CopyFixtureCatalog("basic", dir), DataPath("basic")).ok());
  auto plan = Csv(&session, "EXPLAIN ANALYZE SELECT count(*) FROM t WHERE id >= 20000");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  // Only the file of ids 0..4999 lies wholly below 20000.
  EXPECT_NE(plan->find("files: 4 considered, 1 pruned by statistics, 0 pruned by partition, "
                       "3 read"),
            std::string::npos)
      << *plan;
  EXPECT_NE(plan->find("row groups: 3 considered, 0 pruned by statistics"), std::string::npos)
      << *plan;
  EXPECT_NE(plan->find("result: 1 rows"), std::string::npos) << *plan;
}

// A lake scan under a parallel consumer splits into parts (files; a large file into runs of
// its row groups; inlined rows): each query answers on 2 threads exactly as on one, with
// deletes, an update's file, inlined rows, a filter, the virtual columns and EXPLAIN ANALYZE's
// counters all the same.
TEST(LakeSessionTest, SplitScanAnswersAsTheSerialOne) {
  testing::TempDir dir;
  auto run = [&](Session* session, const std::string& sql) {
    auto result = session->ExecuteScript(sql, [](QueryResult& r) -> Status {
      while (true) {
        TARN_ASSIGN_OR_RETURN(auto batch, r.reader->Next());
        if (!batch) return Status::OK();
      }
    });
    ASSERT_TRUE(result.ok()) << sql << ": " << result.ToString();
  };
  Session writer;
  run(&writer, "ATTACH 'ducklake:" + dir.Join("catalog.sqlite") + "' AS l (DATA_PATH '" +
                   dir.Join("data") + "/', DATA_INLINING_ROW_LIMIT 10); USE l");
  // One file of three row groups (122,880 rows each at most), a second smaller file.
  run(&writer, "CREATE TABLE t AS SELECT i AS id, i % 97 AS k, 'v' || (i % 1000) AS s "
               "FROM range(300000) r(i)");
  run(&writer, "INSERT INTO t SELECT i, i % 97, 'w' FROM range(300000, 320000) r(i)");
  run(&writer, "DELETE FROM t WHERE id % 50 = 0 OR id BETWEEN 130000 AND 140000");
  run(&writer, "UPDATE t SET k = -k WHERE id % 50 = 7");
  run(&writer, "INSERT INTO t VALUES (-1, 1, 'inlined'), (-2, 2, 'inlined')");
  // What the table holds, generated without the lake; rowids as the writes assigned them (the
  // update's 6,200 rows keep theirs but advance the next rowid, as DuckLake's do).
  const std::string model =
      "WITH t AS (SELECT i AS id, CASE WHEN i % 50 = 7 THEN -(i % 97) ELSE i % 97 END AS k, "
      "CASE WHEN i < 300000 THEN 'v' || (i % 1000) ELSE 'w' END AS s, i AS rowid "
      "FROM range(320000) r(i) WHERE NOT (i % 50 = 0 OR i BETWEEN 130000 AND 140000) "
      "UNION ALL VALUES (-1, 1, 'inlined', 326200), (-2, 2, 'inlined', 326201)) ";
  const std::vector<std::string> modelled = {
      "SELECT count(*), sum(id), sum(k), count(DISTINCT s), min(s), max(s) FROM t",
      "SELECT k, count(*) AS n, sum(id) AS ids FROM t GROUP BY k ORDER BY k",
      "SELECT count(*), sum(rowid) FROM t WHERE k < 0 OR s = 'inlined'",
      "SELECT id, rowid FROM t WHERE id % 9973 = 1 ORDER BY id",
  };
  // Positions and file names: the same on one thread and two.
  const std::vector<std::string> compared = {
      "SELECT count(*), sum(file_row_number), count(DISTINCT filename) FROM t WHERE k < 0",
      "SELECT filename IS NULL AS f, count(*) FROM t GROUP BY ALL ORDER BY ALL",
  };
  Session generator;
  std::vector<std::string> one_thread;
  for (int threads : {1, 2}) {
    Session session;
    run(&session, "ATTACH 'ducklake:" + dir.Join("catalog.sqlite") + "' AS l; USE l; SET threads = " +
                      std::to_string(threads));
    for (const std::string& query : modelled) {
      auto answer = Csv(&session, query);
      ASSERT_TRUE(answer.ok()) << query << ": " << answer.status().ToString();
      auto expected = Csv(&generator, model + query);
      ASSERT_TRUE(expected.ok()) << query << ": " << expected.status().ToString();
      EXPECT_EQ(*answer, *expected) << query << " on " << threads << " threads";
    }
    for (size_t i = 0; i < compared.size(); ++i) {
      auto answer = Csv(&session, compared[i]);
      ASSERT_TRUE(answer.ok()) << compared[i] << ": " << answer.status().ToString();
      if (threads == 1) {
        one_thread.push_back(*answer);
      } else {
        EXPECT_EQ(*answer, one_thread[i]) << compared[i];
      }
    }
    auto plan = Csv(&session, "EXPLAIN ANALYZE SELECT count(*), sum(k) FROM t WHERE id >= 310000");
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    EXPECT_NE(plan->find("files: 3 considered, 1 pruned by statistics, 0 pruned by partition, 2 read"),
              std::string::npos) << "threads " << threads << "\n" << *plan;
    EXPECT_NE(plan->find("row groups: 2 considered"), std::string::npos)
        << "threads " << threads << "\n" << *plan;
    EXPECT_NE(plan->find("2 inlined"), std::string::npos) << "threads " << threads << "\n" << *plan;
  }
}

TEST(LakeSessionTest, TransactionIsInvisibleToOthersUntilCommit) {
  testing::TempDir dir;
  const std::string catalog = CopyFixtureCatalog("basic", dir);
  Session writer, reader;
  const AttachOptions data = CopiedData("basic", dir);
  ASSERT_TRUE(writer.Attach(catalog, data).ok());
  ASSERT_TRUE(reader.Attach(catalog, data).ok());
  for (const char* sql :
       {"BEGIN", "DELETE FROM t WHERE id < 1000", "INSERT INTO t (id, s) VALUES (-1, 'new')"}) {
    auto result = writer.Execute(sql);
    ASSERT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
    while (true) {
      auto batch = result->reader->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (!*batch) break;
    }
  }
  const std::string count = "SELECT count(*) AS n, min(id) AS lo FROM t";
  auto inside = Csv(&writer, count);
  ASSERT_TRUE(inside.ok()) << inside.status().ToString();
  auto outside = Csv(&reader, count);
  ASSERT_TRUE(outside.ok()) << outside.status().ToString();
  EXPECT_EQ(*outside, "n,lo\n4302,1\n");
  // 857 of ids 1..999 survive in the lake (4302 rows in all).
  auto survivors = Csv(&reader, "SELECT count(*) AS n FROM t WHERE id < 1000");
  ASSERT_TRUE(survivors.ok()) << survivors.status().ToString();
  const int64_t below = std::stoll(survivors->substr(2));
  EXPECT_EQ(*inside, "n,lo\n" + std::to_string(4302 - below + 1) + ",-1\n");
  ASSERT_TRUE(writer.Execute("COMMIT").ok());
  auto after = Csv(&reader, count);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(*after, *inside);
  auto snapshots = Csv(&reader, "SELECT count(*) AS n FROM ducklake_snapshots()");
  ASSERT_TRUE(snapshots.ok()) << snapshots.status().ToString();
  EXPECT_EQ(*snapshots, "n\n12\n");  // 0..10, then one for the whole transaction
}

// A DATA_PATH that is not the catalog's is refused, naming both, unless OVERRIDE_DATA_PATH
// says the lake moved: files written under the other path would be recorded relative to the
// catalog's data path, and the new snapshots could not be read.
TEST(LakeSessionTest, DataPathMustMatchTheCatalogsUnlessOverridden) {
  testing::TempDir dir;
  const std::string catalog = dir.Join("lake.sqlite");
  const std::string data = dir.Join("data") + "/";
  {
    Session session;
    ASSERT_TRUE(
        session.Execute("ATTACH 'ducklake:" + catalog + "' AS l (DATA_PATH '" + data + "')").ok());
    ASSERT_TRUE(session.Execute("CREATE TABLE l.t AS SELECT range AS i FROM range(100)").ok());
  }
  const std::string other = dir.Join("elsewhere") + "/";
  Session session;
  auto refused =
      session.Execute("ATTACH 'ducklake:" + catalog + "' AS l (DATA_PATH '" + other + "')");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument) << refused.status().ToString();
  EXPECT_EQ(refused.status().message(),
            "Invalid Input Error: DATA_PATH parameter \"" + other +
                "\" does not match existing data path in the catalog \"" + data +
                "\" (SQLite catalog '" + catalog +
                "'). If the lake was moved there, use OVERRIDE_DATA_PATH");
  // The same folder spelled otherwise: without its trailing '/', or with "." and "..".
  for (const std::string& same : {dir.Join("data"), dir.Join("x/../data/."), dir.Join("./data/")}) {
    Session again;
    ASSERT_TRUE(
        again.Execute("ATTACH 'ducklake:" + catalog + "' AS l (DATA_PATH '" + same + "')").ok())
        << same;
    auto rows = Csv(&again, "SELECT count(*) AS n FROM l.t");
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(*rows, "n\n100\n");
  }
  // OVERRIDE_DATA_PATH: the files are read there (none are, so the scan names the file).
  ASSERT_TRUE(session
                  .Execute("ATTACH 'ducklake:" + catalog + "' AS l (DATA_PATH '" + other +
                           "', OVERRIDE_DATA_PATH TRUE)")
                  .ok());
  auto moved = Csv(&session, "SELECT * FROM l.t");
  ASSERT_FALSE(moved.ok());
  EXPECT_NE(moved.status().message().find(other), std::string::npos) << moved.status().ToString();
  // Through the API as well; without a DATA_PATH the catalog's is used.
  Session api;
  AttachOptions options;
  options.data_path = other;
  EXPECT_EQ(api.Attach(catalog, options).code(), StatusCode::kInvalidArgument);
  options.data_path.reset();
  ASSERT_TRUE(api.Attach(catalog, options).ok());
  auto rows = Csv(&api, "SELECT sum(i) AS s FROM t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, "s\n4950\n");
}

}  // namespace
}  // namespace tarn
