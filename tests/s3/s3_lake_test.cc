// Lakes whose data lives on the S3 test server (TARN_TEST_S3), with the catalog on SQLite and
// on PostgreSQL (TARN_TEST_PG): every statement a lake takes — writes of every kind,
// maintenance, row summaries — gives the same answers as on local disk, and what it leaves in
// the bucket is what it leaves on disk.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "support/postgres_test_util.h"
#include "support/run_tarn.h"
#include "support/s3_test_util.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/s3.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TarnCsv;
using testing::TempDir;

using tarn::testing::SqlString;

// A statement of the script and whether its rows are compared.
struct Step {
  const char* sql;
  bool query;
};

// Writes of every kind (inlined and to files, deletes, updates, schema changes), maintenance
// (flush, merge, rewrite, expiry, cleanup, orphans), row summaries and reads at old
// snapshots. Files are small so that maintenance has work.
const Step kScript[] = {
    {"CALL ducklake_set_option('l', 'target_file_size', '64KB')", false},
    {"CREATE TABLE l.t (id BIGINT, s VARCHAR, d DATE, f DOUBLE, dec DECIMAL(18,3), "
     "big HUGEINT, li INTEGER[], st STRUCT(a INTEGER, b VARCHAR))", false},
    // (HUGEINT within 2^53: DuckDB's Parquet writer stores it as DOUBLE, and so does tarn.)
    {"INSERT INTO l.t VALUES (1, 'one', DATE '2024-01-02', 1.5, 12.345, "
     "9007199254740992, [1, NULL], {'a': 1, 'b': 'x'}), "
     "(2, NULL, NULL, 'NaN', NULL, -9007199254740992, NULL, NULL)",
     false},
    {"INSERT INTO l.t SELECT i + 100, 'v' || i, DATE '2020-01-01' + (i % 1000)::INTEGER, "
     "i / 7, (i * 13) % 100000 / 1000, i * 1000000, [i, i + 1], {'a': i, 'b': 'b' || i} "
     "FROM range(20000) r(i)", false},
    {"SELECT count(*) AS n, sum(id) AS s, min(s) AS lo, max(d) AS hi, sum(dec) AS dsum, "
     "sum(big) AS bsum FROM l.t", true},
    {"DELETE FROM l.t WHERE id % 7 = 0", false},
    {"UPDATE l.t SET s = 'updated', f = -f WHERE id BETWEEN 500 AND 700", false},
    {"SELECT * FROM l.t WHERE id < 110 OR id BETWEEN 600 AND 605 ORDER BY id", true},
    {"ALTER TABLE l.t ADD COLUMN extra INTEGER DEFAULT 7", false},
    {"INSERT INTO l.t (id, s, extra) SELECT i + 50000, 'late', i FROM range(3000) r(i)", false},
    {"SELECT count(*) AS n, sum(extra) AS e, count(DISTINCT s) AS k FROM l.t", true},
    {"CALL ducklake_flush_inlined_data('l')", false},
    {"CALL ducklake_merge_adjacent_files('l')", false},
    {"CALL ducklake_rewrite_data_files('l', delete_threshold => 0)", false},
    {"SELECT count(*) AS n, sum(id) AS s, sum(f) AS f FROM l.t", true},
    {"SELECT id, s FROM l.t AT (VERSION => 3) WHERE id % 1000 = 1 ORDER BY id", true},
    {"CALL tarn_publish_row_summaries('l')", false},
    {"SELECT id, s FROM l.t WHERE rowid IN (0, 1, 5000, 19999, 21000) ORDER BY id", true},
    {"DELETE FROM l.t WHERE rowid = 5000", false},
    {"SELECT count(*) AS n FROM l.t", true},
    {"CALL ducklake_expire_snapshots('l', older_than => now() + INTERVAL 1 DAY)", false},
    {"CALL ducklake_cleanup_old_files('l', cleanup_all => true)", false},
    {"CALL tarn_sweep_row_summaries('l')", false},
    {"CALL ducklake_delete_orphaned_files('l', cleanup_all => true)", false},
    {"SELECT count(*) AS n, sum(id) AS s, min(s) AS lo, max(s) AS hi FROM l.t", true},
};

struct Outcome {
  std::vector<std::string> answers;
  std::vector<std::string> files;  // the data path's files, relative, sorted
};

// Runs the script on a lake at `locator` with its data at `data_path`.
Outcome RunScript(const std::string& locator, const std::string& data_path) {
  Outcome out;
  Session session;
  auto secret = testing::TestS3SecretSql();
  EXPECT_TRUE(secret.ok()) << secret.status().ToString();
  if (!secret.ok()) return out;
  auto created = session.Execute(*secret);
  EXPECT_TRUE(created.ok()) << created.status().ToString();
  auto attached = session.Execute(StrCat("ATTACH ", SqlString(locator), " AS l (DATA_PATH ",
                                         SqlString(data_path), ")"));
  EXPECT_TRUE(attached.ok()) << attached.status().ToString();
  if (!attached.ok()) return out;
  for (const Step& step : kScript) {
    auto csv = TarnCsv(&session, step.sql);
    EXPECT_TRUE(csv.ok()) << step.sql << ": " << csv.status().ToString();
    if (step.query) out.answers.push_back(csv.ok() ? *csv : csv.status().ToString());
  }
  auto listed = DefaultFileSystem()->List(data_path, true);
  if (IsS3Path(data_path)) {
    auto options = testing::TestS3Options();
    EXPECT_TRUE(options.ok());
    if (options.ok()) listed = NewS3FileSystem(*options)->List(data_path, true);
  }
  EXPECT_TRUE(listed.ok()) << listed.status().ToString();
  if (listed.ok()) {
    for (const FileInfo& file : *listed) {
      if (!file.is_directory) out.files.push_back(file.path.substr(data_path.size()));
    }
  }
  return out;
}

// File names hold UUIDs: compare the folders and the kinds of file and their number.
std::vector<std::string> Shapes(const std::vector<std::string>& files) {
  std::vector<std::string> out;
  for (const std::string& file : files) {
    const size_t slash = file.rfind('/');
    const std::string folder = slash == std::string::npos ? "" : file.substr(0, slash + 1);
    const size_t dot = file.find('.', slash == std::string::npos ? 0 : slash);
    out.push_back(folder + (dot == std::string::npos ? "" : file.substr(dot)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void ExpectSameAsLocal(const Outcome& s3, const Outcome& local) {
  ASSERT_EQ(s3.answers.size(), local.answers.size());
  for (size_t i = 0; i < local.answers.size(); ++i) {
    EXPECT_EQ(s3.answers[i], local.answers[i]) << "query " << i;
  }
  EXPECT_EQ(Shapes(s3.files), Shapes(local.files));
  EXPECT_FALSE(s3.files.empty());
}

TEST(S3LakeTest, EveryStatementAnswersAsOnLocalDiskWithTheCatalogOnSqlite) {
  TempDir local_dir;
  const Outcome local = RunScript("ducklake:sqlite:" + local_dir.Join("lake.sqlite"),
                                  local_dir.Join("data") + "/");
  TempDir dir;
  const Outcome s3 = RunScript("ducklake:sqlite:" + dir.Join("lake.sqlite"),
                               testing::UniqueS3Prefix("lake-sqlite"));
  ExpectSameAsLocal(s3, local);
}

TEST(S3LakeTest, EveryStatementAnswersAsOnLocalDiskWithTheCatalogOnPostgres) {
  TempDir local_dir;
  const Outcome local = RunScript("ducklake:sqlite:" + local_dir.Join("lake.sqlite"),
                                  local_dir.Join("data") + "/");
  auto conninfo = testing::NewPostgresSchema();
  ASSERT_TRUE(conninfo.ok()) << conninfo.status().ToString();
  const Outcome s3 = RunScript("ducklake:postgres:" + *conninfo,
                               testing::UniqueS3Prefix("lake-postgres"));
  ExpectSameAsLocal(s3, local);
}

TEST(S3LakeTest, SecretsScopesAndSettingsChooseTheCredentials) {
  auto endpoint = testing::TestS3Endpoint();
  ASSERT_TRUE(endpoint.ok()) << endpoint.status().ToString();
  const std::string prefix = testing::UniqueS3Prefix("secrets");
  const std::string file = prefix + "x.parquet";
  Session session;
  auto must = [&](const std::string& sql) {
    auto result = TarnCsv(&session, sql);
    EXPECT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
    return result.ok() ? *result : std::string();
  };
  // The settings alone, as DuckDB's s3_* settings.
  must(StrCat("SET s3_endpoint = '", *endpoint, "'"));
  must("SET s3_url_style = 'path'");
  must("SET s3_use_ssl = false");
  must("SET s3_access_key_id = 'S3RVER'");
  must("SET s3_secret_access_key = 'S3RVER'");
  must(StrCat("COPY (SELECT 42 AS answer) TO ", SqlString(file), " (FORMAT parquet)"));
  EXPECT_EQ(must(StrCat("SELECT * FROM read_parquet(", SqlString(file), ")")), "answer\n42\n");
  EXPECT_EQ(must("SELECT current_setting('s3_url_style') AS s"), "s\npath\n");
  // A secret scoped to the folder with a wrong key wins over the settings …
  must(StrCat("CREATE SECRET bad (TYPE s3, KEY_ID 'S3RVER', SECRET 'wrong', ENDPOINT '",
              *endpoint, "', URL_STYLE 'path', USE_SSL false, SCOPE ", SqlString(prefix), ")"));
  auto refused = session.Execute(StrCat("SELECT * FROM read_parquet(", SqlString(file), ")"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("HTTP 403"), std::string::npos)
      << refused.status().message();
  EXPECT_EQ(must("SELECT name, type, provider, scope FROM duckdb_secrets()"),
            StrCat("name,type,provider,scope\nbad,s3,config,['", prefix, "']\n"));
  EXPECT_EQ(must("SELECT secret_string LIKE '%secret=redacted%' AS hidden FROM duckdb_secrets()"),
            "hidden\ntrue\n");
  // … and dropping it gives the path back to the settings.
  auto duplicate = session.Execute("CREATE SECRET bad (TYPE s3)");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.status().message().find("already exists"), std::string::npos);
  must("DROP SECRET bad");
  EXPECT_EQ(must(StrCat("SELECT * FROM read_parquet(", SqlString(file), ")")), "answer\n42\n");
  EXPECT_FALSE(session.Execute("DROP SECRET bad").ok());
  must("DROP SECRET IF EXISTS bad");
  EXPECT_FALSE(session.Execute("CREATE SECRET x (TYPE gcs)").ok());
  EXPECT_FALSE(session.Execute("CREATE PERSISTENT SECRET x (TYPE s3)").ok());
  EXPECT_FALSE(session.Execute("CREATE SECRET x (TYPE s3, COLOUR 'red')").ok());
  EXPECT_FALSE(session.Execute("SET s3_url_style = 'sideways'").ok());
}

// Every fixture lake (written by the official extension) with its data files copied to the S3
// server reads the same as from local disk, at every snapshot.
TEST(S3LakeTest, EveryFixtureReadsTheSameFromS3AtEverySnapshot) {
  auto options = testing::TestS3Options();
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  auto s3 = NewS3FileSystem(*options);
  auto secret = testing::TestS3SecretSql();
  ASSERT_TRUE(secret.ok());
  const std::string fixtures = testing::SharedPath("fixtures/ducklake");
  ASSERT_TRUE(std::filesystem::is_directory(fixtures)) << fixtures;
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
    const std::string name = entry.path().filename().string();
    const std::string sqlite = entry.path().string() + "/catalog.sqlite";
    if (!std::filesystem::exists(sqlite)) continue;
    SCOPED_TRACE(name);
    const std::string data = entry.path().string() + "/data/";
    const std::string remote = testing::UniqueS3Prefix("fixture-" + name);
    for (const auto& file : std::filesystem::recursive_directory_iterator(data)) {
      if (!file.is_regular_file()) continue;
      const std::string relative = file.path().string().substr(data.size());
      auto bytes = LocalFileSystem()->ReadFile(file.path().string());
      ASSERT_TRUE(bytes.ok());
      ASSERT_TRUE(s3->WriteFile(remote + relative, *bytes).ok()) << relative;
    }
    Session session;
    auto run = [&](const std::string& sql) {
      auto csv = TarnCsv(&session, sql);
      EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
      return csv.ok() ? *csv : csv.status().ToString();
    };
    run(*secret);
    for (const auto& [alias, path] : {std::pair<std::string, std::string>{"loc", data},
                                      std::pair<std::string, std::string>{"rem", remote}}) {
      run(StrCat("ATTACH ", SqlString("ducklake:sqlite:" + sqlite), " AS ", alias,
                 " (READ_ONLY, DATA_PATH ", SqlString(path), ", OVERRIDE_DATA_PATH true)"));
    }
    const std::string snapshots = run("SELECT snapshot_id FROM ducklake_snapshots('loc')");
    std::istringstream ids(snapshots);
    std::string id;
    std::getline(ids, id);  // header
    while (std::getline(ids, id)) {
      const std::string tables = run(
          "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = 'loc'");
      std::istringstream names(tables);
      std::string table;
      std::getline(names, table);
      while (std::getline(names, table)) {
        const size_t comma = table.find(',');
        const std::string target = StrCat("\"", table.substr(0, comma), "\".\"",
                                          table.substr(comma + 1), "\" AT (VERSION => ", id, ")");
        auto local = TarnCsv(&session, "SELECT rowid, * FROM loc." + target);
        auto from_s3 = TarnCsv(&session, "SELECT rowid, * FROM rem." + target);
        // A table not yet created at that snapshot fails on both sides.
        ASSERT_EQ(from_s3.ok(), local.ok()) << target << ": " << from_s3.status().ToString();
        if (!local.ok()) continue;
        EXPECT_EQ(*from_s3, *local) << target;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 30);
}

TEST(S3LakeTest, TheProgramTakesAnS3DataPathAsWritten) {
  auto secret = testing::TestS3SecretSql();
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  TempDir dir;
  const std::string data_path = testing::UniqueS3Prefix("cli");
  const testing::RunResult run = testing::RunTarnIn(
      dir.path(), {"ducklake:sqlite:lake.sqlite", "--data-path", data_path, "--format", "csv",
                   "-c", *secret, "-c", "CREATE TABLE t AS SELECT range AS k FROM range(1000)",
                   "-c", "SELECT count(*) AS n, sum(k) AS s FROM t"},
      dir);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "n,s\n1000,499500\n");
  // The files went to the bucket, not to a local folder named "s3:".
  EXPECT_FALSE(std::filesystem::exists(dir.Join("s3:")));
  auto options = testing::TestS3Options();
  ASSERT_TRUE(options.ok());
  auto listed = NewS3FileSystem(*options)->List(data_path, true);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(listed->size(), 1u);
}

}  // namespace
}  // namespace tarn
