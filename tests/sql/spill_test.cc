// Spilling (sql/exec/spill.h): the spill files' round trip of every type and their damage
// checks, the spill folder's life, and queries whose hash joins, aggregates, sorts and windows
// pass a small memory_limit answered as DuckDB answers them — each query is also run with
// spilling off, where it must fail, so the answer really came through the files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "sql/exec/spill.h"
#include "support/oracle.h"
#include "support/random_data.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using sql::SpillFolder;
using sql::SpillPartitions;
using sql::SpillReader;
using sql::SpillWriter;

std::shared_ptr<Batch> ReadAll(const std::string& path, std::shared_ptr<const Schema> schema,
                               Status* status) {
  Result<std::unique_ptr<SpillReader>> reader = SpillReader::Open(path, schema);
  if (!reader.ok()) {
    *status = reader.status();
    return nullptr;
  }
  std::vector<std::shared_ptr<Batch>> batches;
  while (true) {
    Result<std::shared_ptr<Batch>> batch = (*reader)->Next();
    if (!batch.ok()) {
      *status = batch.status();
      return nullptr;
    }
    if (!*batch) break;
    batches.push_back(*batch);
  }
  *status = Status::OK();
  if (batches.empty()) {
    auto empty = std::make_shared<Batch>();
    empty->schema = schema;
    for (const Field& field : schema->fields) {
      empty->columns.push_back(ColumnBuilder(field.type).Finish());
    }
    return empty;
  }
  return batches.size() == 1 ? batches[0] : ConcatenateBatches(batches);
}

TEST(SpillFileTest, RandomBatchesOfEveryTypeRoundTrip) {
  testing::TempDir dir;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    std::mt19937_64 rng(seed);
    auto schema = std::make_shared<Schema>(testing::RandomSchema(rng, 6, 2));
    std::vector<std::shared_ptr<Batch>> written;
    const std::string path = dir.Join("run-" + std::to_string(seed) + ".spill");
    auto writer = SpillWriter::Create(path);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (int b = 0; b < 3; ++b) {
      const int64_t rows = static_cast<int64_t>(rng() % 300);
      std::shared_ptr<Batch> batch = testing::RandomBatch(rng, *schema, rows, 0.2);
      if (b == 1 && rows > 10) batch = SliceBatch(*batch, 3, rows - 7);  // offsets not at 0
      ASSERT_TRUE((*writer)->Write(*batch).ok());
      written.push_back(batch);
    }
    ASSERT_TRUE((*writer)->Finish().ok());
    Status status;
    std::shared_ptr<Batch> read = ReadAll(path, schema, &status);
    ASSERT_TRUE(status.ok()) << "seed " << seed << ": " << status.ToString();
    std::shared_ptr<Batch> expected = ConcatenateBatches(written);
    EXPECT_EQ(testing::DescribeMismatch(*expected, *read), "") << "seed " << seed;
  }
}

TEST(SpillFileTest, DamagedFilesAreCorruptionNamingTheFile) {
  testing::TempDir dir;
  std::mt19937_64 rng(7);
  auto schema = std::make_shared<Schema>(testing::RandomSchema(rng, 4, 1));
  const std::string path = dir.Join("whole.spill");
  {
    auto writer = SpillWriter::Create(path);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(*testing::RandomBatch(rng, *schema, 40, 0.3)).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
  }
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 64u);
  const std::string damaged = dir.Join("damaged.spill");
  auto write = [&](const std::string& content) {
    std::ofstream out(damaged, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
  };
  // Every truncation.
  for (size_t keep = 1; keep < bytes.size(); keep += 1 + keep / 16) {
    write(bytes.substr(0, keep));
    Status status;
    ReadAll(damaged, schema, &status);
    ASSERT_FALSE(status.ok()) << "cut at " << keep;
    EXPECT_TRUE(status.IsCorruption()) << status.ToString();
    EXPECT_NE(status.message().find(damaged), std::string::npos) << status.ToString();
  }
  // The batch header, a column's type and its first buffer size.
  for (size_t at : {size_t{0}, size_t{5}, size_t{16}, size_t{20}, size_t{37}}) {
    std::string copy = bytes;
    copy[at] = static_cast<char>(copy[at] ^ 0x5A);
    write(copy);
    Status status;
    ReadAll(damaged, schema, &status);
    EXPECT_FALSE(status.ok()) << "byte " << at << " changed";
  }
  // Another schema than the writer's.
  Schema other = *schema;
  other.fields.pop_back();
  Status status;
  ReadAll(path, std::make_shared<Schema>(other), &status);
  EXPECT_TRUE(status.IsCorruption()) << status.ToString();
}

TEST(SpillFolderTest, MadeOnFirstUseAndRemovedWithItsFiles) {
  testing::TempDir dir;
  const std::string parent = dir.Join("temp/nested");
  std::string folder;
  {
    SpillFolder spill(parent);
    EXPECT_EQ(spill.path(), "");
    EXPECT_FALSE(std::filesystem::exists(parent));
    auto schema = std::make_shared<Schema>();
    schema->fields.emplace_back("x", DataType(TypeId::kInt64));
    SpillPartitions parts(&spill, "test", schema, 4);
    ColumnBuilder builder{DataType(TypeId::kInt64)};
    for (int64_t i = 0; i < 10; ++i) builder.AppendNumber<int64_t>(i);
    auto batch = MakeBatch(schema, {builder.Finish()});
    std::vector<uint16_t> partition_of = {0, 1, 2, 3, 0, 1, 2, 3, 3, 3};
    ASSERT_TRUE(parts.Append(*batch, partition_of).ok());
    ASSERT_TRUE(parts.Finish().ok());
    folder = spill.path();
    EXPECT_TRUE(std::filesystem::is_directory(folder));
    EXPECT_EQ(parts.rows(3), 4);
    Result<std::unique_ptr<BatchReader>> reader = parts.Open(3);
    ASSERT_TRUE(reader.ok());
    Result<std::shared_ptr<Batch>> read = (*reader)->Next();
    ASSERT_TRUE(read.ok() && *read);
    ASSERT_EQ((*read)->num_rows, 4);
    EXPECT_EQ((*read)->columns[0]->values_as<int64_t>()[0], 3);
    EXPECT_EQ((*read)->columns[0]->values_as<int64_t>()[3], 9);
  }
  EXPECT_FALSE(std::filesystem::exists(folder));
  EXPECT_TRUE(std::filesystem::is_empty(parent));
}

TEST(SpillFolderTest, AnUnusableTempDirectoryIsAnErrorNamingIt) {
  testing::TempDir dir;
  const std::string file = dir.Join("plain-file");
  std::ofstream(file) << "x";
  SpillFolder spill(file + "/below");
  Result<std::string> path = spill.NewPath("x");
  ASSERT_FALSE(path.ok());
  EXPECT_NE(path.status().message().find(file), std::string::npos) << path.status().ToString();
  // And through SQL: the query fails with it, the session goes on.
  Session session;
  ASSERT_TRUE(session.Execute("SET memory_limit = '256KB'").ok());
  ASSERT_TRUE(session.Execute("SET temp_directory = '" + file + "/below'").ok());
  Result<std::string> answer = testing::TarnCsv(
      &session, "SELECT count(*) FROM range(100000) a(x) JOIN range(100000) b(y) ON x = y");
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("temp_directory"), std::string::npos)
      << answer.status().ToString();
  EXPECT_TRUE(testing::TarnCsv(&session, "SELECT 42").ok());
}

TEST(SpillSettingsTest, TempDirectoryIsASetting) {
  Session session;
  Result<std::string> shown = testing::TarnCsv(&session, "SELECT current_setting('temp_directory')");
  ASSERT_TRUE(shown.ok()) << shown.status().ToString();
  EXPECT_NE(*shown, "current_setting('temp_directory')\n\n");
  ASSERT_TRUE(session.Execute("SET temp_directory = ''").ok());
  shown = testing::TarnCsv(&session, "SELECT current_setting('temp_directory') = ''");
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(*shown, "(current_setting('temp_directory') = '')\ntrue\n");
  // With spilling off, an operator past the limit names itself, the limit and the setting.
  ASSERT_TRUE(session.Execute("SET memory_limit = '1MB'").ok());
  for (const char* sql :
       {"SELECT count(*) FROM range(300000) a(x) JOIN range(300000) b(y) ON x = y",
        "SELECT count(*) FROM (SELECT x % 200000, count(*) FROM range(1000000) t(x) GROUP BY 1)",
        "SELECT x FROM range(300000) t(x) ORDER BY x DESC",
        "SELECT row_number() OVER (PARTITION BY x % 10 ORDER BY x) FROM range(300000) t(x)"}) {
    Result<std::string> answer = testing::TarnCsv(&session, sql);
    ASSERT_FALSE(answer.ok()) << sql;
    EXPECT_NE(answer.status().message().find("Out of Memory Error"), std::string::npos);
    EXPECT_NE(answer.status().message().find("SET temp_directory"), std::string::npos)
        << answer.status().ToString();
  }
}

// Rows with a NULL key never match: a spilled join drops them where its kind does not output
// them and spreads them over the partitions where it does (all in one partition, they could
// never be split below the limit).
TEST(SpillJoinTest, ManyNullKeysOnEitherSide) {
  const std::string a = "(SELECT CASE WHEN x % 3 > 0 THEN NULL ELSE x % 5000 END AS k, x AS v "
                        "FROM range(200000) t(x))";
  const std::string b = "(SELECT CASE WHEN y % 4 > 0 THEN NULL ELSE y % 7000 END AS k, y AS w "
                        "FROM range(150000) t(y))";
  for (const char* join : {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "SEMI JOIN",
                           "ANTI JOIN"}) {
    const std::string kind = join;
    const bool one_side = kind == "SEMI JOIN" || kind == "ANTI JOIN";
    const std::string sql = "SELECT count(*), count(a.k), sum(a.v)" +
                            std::string(one_side ? "" : ", count(b.k), sum(b.w)") + " FROM " + a +
                            " a " + join + " " + b + " b ON a.k = b.k";
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = 2").ok());
    Result<std::string> in_memory = testing::TarnCsv(&session, sql);
    ASSERT_TRUE(in_memory.ok()) << sql << ": " << in_memory.status().ToString();
    ASSERT_TRUE(session.Execute("SET memory_limit = '256KB'").ok());
    Result<std::string> spilled = testing::TarnCsv(&session, sql);
    ASSERT_TRUE(spilled.ok()) << sql << ": " << spilled.status().ToString();
    EXPECT_EQ(*spilled, *in_memory) << sql;
  }
}

// Two tables DuckDB writes: keys with NULLs and duplicates, strings, doubles that are exact
// eighths (so sums do not depend on the order of additions).
std::string WriteTables(const testing::TempDir& dir) {
  std::string sql;
  const int rows[] = {30000, 20000};
  for (int t = 0; t < 2; ++t) {
    const std::string m = std::to_string(7 + 6 * t);
    sql += "COPY (SELECT CASE WHEN i % 11 = " + std::to_string(t) + " THEN NULL ELSE (i * " + m +
           ") % 4000 END::INTEGER AS k, ((i * 13 + " + m + ") % 97)::INTEGER AS n, "
           "CASE WHEN i % 13 = 0 THEN NULL ELSE 's' || ((i * 31 + " + m +
           ") % 2500) END AS s, ((i * 17) % 1000) / 8.0 AS d FROM range(" +
           std::to_string(rows[t]) + ") t(i)) TO '" + dir.Join("big" + std::to_string(t)) +
           ".parquet';\n";
  }
  Status written = testing::DuckDBExecute(sql);
  EXPECT_TRUE(written.ok()) << written.ToString();
  return dir.path();
}

std::string RandomSpillQuery(std::mt19937* rng, const std::string& folder) {
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<unsigned>(n)); };
  const std::string a = "'" + folder + "/big0.parquet'";
  const std::string b = "'" + folder + "/big1.parquet'";
  switch (pick(4)) {
    case 0: {  // a hash join whose build side passes the limit
      static const char* kJoins[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN",
                                     "SEMI JOIN", "ANTI JOIN"};
      static const char* kConditions[] = {"a.k = b.k", "a.k = b.k AND a.n < b.n", "a.s = b.s",
                                          "a.k = b.k AND a.s = b.s", "a.n = b.n AND a.k = b.k"};
      const std::string join = kJoins[pick(6)];
      const std::string on = kConditions[pick(5)];
      // Either table on either side: a semi or anti join builds on its smaller side.
      const bool swapped = pick(2) == 0;
      const std::string& left = swapped ? b : a;
      const std::string& right = swapped ? a : b;
      const bool one_side = join == "SEMI JOIN" || join == "ANTI JOIN";
      const std::string select =
          one_side ? "count(*), count(a.k), sum(a.n), min(a.s), max(a.s), sum(a.d)"
                   : "count(*), count(a.k), count(b.k), sum(a.n), sum(b.n), min(a.s), max(b.s), "
                     "sum(a.d + b.d)";
      if (pick(3) == 0) {
        return "SELECT a.n % 7 AS g, " + select + " FROM " + left + " a " + join + " " + right +
               " b ON " + on + " GROUP BY ALL ORDER BY g";
      }
      return "SELECT " + select + " FROM " + left + " a " + join + " " + right + " b ON " + on;
    }
    case 1: {  // a hash aggregate with many groups
      static const char* kKeys[] = {"k", "s", "k, s", "k, n % 3"};
      const std::string keys = kKeys[pick(4)];
      const std::string where = pick(2) == 0 ? " WHERE n < 60" : "";
      const std::string having = pick(3) == 0 ? " HAVING count(*) > 1" : "";
      return "SELECT " + keys + ", count(*), sum(n), min(d), max(s), count(DISTINCT n), sum(d), "
             "avg(n) FROM " + a + where + " GROUP BY " + keys + having + " ORDER BY ALL";
    }
    case 2: {  // a full sort
      std::vector<std::string> columns = {"k", "n", "s", "d"};
      std::shuffle(columns.begin(), columns.end(), *rng);
      std::string order;
      for (const std::string& column : columns) {
        if (!order.empty()) order += ", ";
        order += column + (pick(2) == 0 ? " DESC" : "") + (pick(2) == 0 ? " NULLS FIRST" : "");
      }
      return "SELECT * FROM " + a + " ORDER BY " + order;
    }
    default: {  // windows partitioned alike
      const std::string partition = pick(2) == 0 ? "k" : "s";
      const std::string w = "PARTITION BY " + partition + " ORDER BY n";
      return "SELECT k, n, s, d, rank() OVER (" + w + ") AS r, dense_rank() OVER (" + w +
             ") AS dr, count(*) OVER (PARTITION BY " + partition + ") AS c, sum(d) OVER (" + w +
             " RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running, lag(n) OVER (" + w +
             ", s, d) AS before FROM " + a + " ORDER BY ALL";
    }
  }
}

TEST(SpillDifferentialTest, QueriesPastTheLimitMatchDuckDB) {
  testing::TempDir dir;
  const std::string folder = WriteTables(dir);
  const std::string temp = dir.Join("spill");
  const int count = std::getenv("TARN_LONG") != nullptr ? 400 : 16;
  std::vector<std::string> queries;
  for (int i = 0; i < count; ++i) {
    std::mt19937 rng(static_cast<unsigned>(700 + i));
    queries.push_back(RandomSpillQuery(&rng, folder));
  }
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (int threads : {2, 1}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    ASSERT_TRUE(session.Execute("SET memory_limit = '512KB'").ok());
    for (size_t i = 0; i < queries.size(); ++i) {
      if (threads == 1 && i % 4 != 0) continue;  // one thread: a quarter of them
      const unsigned seed = 700 + static_cast<unsigned>(i);
      ASSERT_TRUE(expected[i].ok()) << "seed " << seed << ": " << queries[i] << "\n"
                                    << expected[i].status().ToString();
      ASSERT_TRUE(session.Execute("SET temp_directory = ''").ok());
      Result<std::string> refused = testing::TarnCsv(&session, queries[i]);
      ASSERT_FALSE(refused.ok()) << "seed " << seed << " fits in memory: " << queries[i];
      EXPECT_NE(refused.status().message().find("Out of Memory Error"), std::string::npos)
          << refused.status().ToString();
      ASSERT_TRUE(session.Execute("SET temp_directory = '" + temp + "'").ok());
      Result<std::string> actual = testing::TarnCsv(&session, queries[i]);
      ASSERT_TRUE(actual.ok()) << "seed " << seed << ": " << queries[i] << "\n"
                               << actual.status().ToString();
      EXPECT_EQ(*actual, *expected[i]) << "seed " << seed << " at " << threads
                                       << " threads: " << queries[i];
      EXPECT_TRUE(std::filesystem::is_empty(temp)) << "seed " << seed << " left files";
    }
  }
}

}  // namespace
}  // namespace tarn
