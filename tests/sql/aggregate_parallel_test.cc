// The parallel hash aggregate: results equal at every thread count (groups in the same order,
// floating sums to the last digit), equal to DuckDB's single-threaded answers (which add
// floating values one row at a time, in input order), equal to simple models; combining
// partial states equals updating row by row; the DISTINCT set against std::set; the parallel
// feed hands out every batch exactly once; errors and the memory limit end a parallel query
// cleanly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sql/exec/aggregate_distinct.h"
#include "sql/exec/aggregate_function.h"
#include "sql/exec/operator.h"
#include "sql/exec/scan_operators.h"
#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TempDir;

using testing::TarnCsv;

std::shared_ptr<Column> Slice(const std::shared_ptr<Column>& column, int64_t begin,
                              int64_t length) {
  auto schema = std::make_shared<Schema>();
  schema->fields.emplace_back("x", column->type);
  return SliceBatch(*MakeBatch(schema, {column}), begin, length)->columns[0];
}

std::string CsvAtThreads(int threads, const std::string& sql) {
  Session session;
  EXPECT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
  Result<std::string> csv = TarnCsv(&session, sql);
  EXPECT_TRUE(csv.ok()) << sql << "\n" << csv.status().ToString();
  return csv.ok() ? *csv : "";
}

// A 600,000-row Parquet file in 7 row groups of 90,000 rows (the last shorter): int, double
// (order-sensitive sums), string and NULL-bearing columns, written by DuckDB.
std::string WriteTestFile(const TempDir& dir) {
  std::string path = dir.Join("t.parquet");
  Status status = testing::DuckDBExecute(
      "COPY (SELECT range AS i, (range * 7919) % 101 AS g, "
      "((range * 104729) % 1000003)::DOUBLE / 7 AS d, "
      "CASE WHEN range % 11 = 0 THEN NULL ELSE (range * 31) % 977 END AS n, "
      "'k' || ((range * 13) % 37)::VARCHAR AS s, "
      "CASE WHEN range % 5 = 0 THEN NULL ELSE ((range * 17) % 23)::DOUBLE / 3 END AS nd "
      "FROM range(600000)) TO '" + path + "' (FORMAT parquet, ROW_GROUP_SIZE 90000)");
  EXPECT_TRUE(status.ok()) << status.ToString();
  return path;
}

// Queries whose answers must not depend on the thread count, including their row order
// where no ORDER BY fixes it (groups come out in first-seen order).
std::vector<std::string> SameAtAnyThreadCount(const std::string& file) {
  std::string t = "'" + file + "'";
  return {
      "SELECT count(*), sum(i), sum(d), avg(d), min(d), max(d), min(s), max(s), count(n) FROM " + t,
      "SELECT g, count(*), sum(d), avg(nd), sum(n), min(s), max(n) FROM " + t + " GROUP BY g",
      "SELECT s, sum(d), count(DISTINCT g), sum(DISTINCT nd) FROM " + t + " WHERE i % 3 <> 1 "
      "GROUP BY s",
      "SELECT DISTINCT n FROM " + t + " WHERE g < 50",
      "SELECT g, s, count(*) FROM " + t + " GROUP BY g, s HAVING count(*) > 150",
      "SELECT i % 1000 AS m, sum(d + 1) FROM " + t + " GROUP BY m",
      "SELECT count(DISTINCT i % 7919), count(DISTINCT s), sum(DISTINCT d) FROM " + t,
      "SELECT count(DISTINCT g), sum(DISTINCT n), avg(DISTINCT n), min(DISTINCT i), "
      "max(DISTINCT n), count(DISTINCT n) FROM " + t + " WHERE i % 5 <> 0",
      "SELECT count(*), sum(d) FROM (SELECT * FROM " + t + " LIMIT 100000 OFFSET 7)",
  };
}

TEST(AggregateParallelTest, SameResultsAtEveryThreadCount) {
  TempDir dir;
  std::string file = WriteTestFile(dir);
  for (const std::string& sql : SameAtAnyThreadCount(file)) {
    std::string one = CsvAtThreads(1, sql);
    EXPECT_GT(one.size(), 20u) << sql;
    for (int threads : {2, 3, 4}) {
      EXPECT_EQ(CsvAtThreads(threads, sql), one) << sql << " at " << threads << " threads";
    }
  }
}

TEST(AggregateParallelTest, FloatingSumsEqualDuckDBSingleThreaded) {
  TempDir dir;
  std::string file = WriteTestFile(dir);
  std::string t = "'" + file + "'";
  std::vector<std::string> queries = {
      "SELECT sum(d), avg(d), sum(nd), avg(nd), count(*) FROM " + t,
      "SELECT g, sum(d), avg(nd), sum(n), avg(n) FROM " + t + " GROUP BY g ORDER BY g",
      "SELECT s, sum(d * 3), sum(DISTINCT nd) FROM " + t + " WHERE i % 4 = 1 GROUP BY s ORDER BY s",
      "SELECT g, sum(x) FROM (SELECT range % 13 AS g, (range * 7919 % 10007)::DOUBLE / 7 AS x "
      "FROM range(1500000)) GROUP BY g ORDER BY g",
      // Mostly distinct within each batch (the batch's own DISTINCT set is skipped), and
      // repeating across batches.
      "SELECT count(DISTINCT i), count(DISTINCT i % 400000), sum(DISTINCT i // 3), "
      "count(DISTINCT n) FROM " + t,
      "SELECT g, count(DISTINCT i // 2), sum(DISTINCT i % 250000) FROM " + t +
      " GROUP BY g ORDER BY g",
  };
  std::vector<std::string> duck_queries;
  for (const std::string& q : queries) duck_queries.push_back("SET threads = 1; " + q);
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(duck_queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_TRUE(expected[i].ok()) << queries[i] << "\n" << expected[i].status().ToString();
    for (int threads : {1, 2}) {
      EXPECT_EQ(CsvAtThreads(threads, queries[i]), *expected[i])
          << queries[i] << " at " << threads << " threads";
    }
  }
}

// Group counts and integer sums against a std::map model of the same rows.
TEST(AggregateParallelTest, GroupedRangeMatchesModel) {
  std::map<int64_t, std::pair<int64_t, int64_t>> model;  // g -> (count, sum of v)
  const int64_t rows = 1000000;
  for (int64_t r = 0; r < rows; ++r) {
    if (r % 3 == 0) continue;
    auto& entry = model[(r * 37) % 1013];
    entry.first += 1;
    entry.second += (r * 7) % 1001;
  }
  std::string expected = "g,count_star(),sum(v)\n";
  for (const auto& [g, entry] : model) {
    expected += std::to_string(g) + "," + std::to_string(entry.first) + "," +
                std::to_string(entry.second) + "\n";
  }
  std::string sql =
      "SELECT g, count(*), sum(v) FROM (SELECT (range * 37) % 1013 AS g, (range * 7) % 1001 AS v "
      "FROM range(" + std::to_string(rows) + ") WHERE range % 3 <> 0) GROUP BY g ORDER BY g";
  for (int threads : {1, 2, 4}) EXPECT_EQ(CsvAtThreads(threads, sql), expected) << threads;
}

// Past the limit the aggregate spills (spill_test.cc); with spilling off it fails.
TEST(AggregateParallelTest, MemoryLimitFailsTheSameAtEveryThreadCount) {
  std::string sql = "SELECT range % 100000 AS k, count(*) FROM range(1000000) GROUP BY k";
  std::string first_message;
  for (int threads : {1, 2, 3}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    ASSERT_TRUE(session.Execute("SET memory_limit = '1MB'").ok());
    ASSERT_TRUE(session.Execute("SET temp_directory = ''").ok());
    Result<std::string> csv = TarnCsv(&session, sql);
    ASSERT_FALSE(csv.ok()) << threads;
    std::string message = csv.status().ToString();
    EXPECT_NE(message.find("Out of Memory Error: HASH_GROUP_BY needs"), std::string::npos)
        << message;
    EXPECT_NE(message.find("more than the memory_limit of 976.6 KiB"), std::string::npos)
        << message;
    if (threads == 1) first_message = message;
    EXPECT_EQ(message, first_message);
    // The session still works after the failed query.
    Result<std::string> after = TarnCsv(&session, "SELECT count(*) FROM range(10)");
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(*after, "count_star()\n10\n");
  }
}

// An ungrouped DISTINCT over integers keeps one set per worker: their memory counts together.
TEST(AggregateParallelTest, MemoryLimitCountsEveryWorkersDistinctSet) {
  std::string sql = "SELECT count(DISTINCT range * 3) FROM range(1000000)";
  for (int threads : {1, 2, 3}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    ASSERT_TRUE(session.Execute("SET memory_limit = '4MB'").ok());
    Result<std::string> csv = TarnCsv(&session, sql);
    ASSERT_FALSE(csv.ok()) << threads;
    EXPECT_NE(csv.status().ToString().find(
                  "Out of Memory Error: UNGROUPED_AGGREGATE needs"), std::string::npos)
        << csv.status().ToString();
    ASSERT_TRUE(session.Execute("SET memory_limit = '1GB'").ok());
    Result<std::string> fits = TarnCsv(&session, sql);
    ASSERT_TRUE(fits.ok()) << fits.status().ToString();
    EXPECT_EQ(*fits, "\"count(DISTINCT (\"\"range\"\" * 3))\"\n1000000\n");
  }
}

TEST(AggregateParallelTest, ErrorsInWorkersEndTheQuery) {
  // The cast fails on one row near the end; every thread count reports it and none hangs.
  std::string sql =
      "SELECT range % 7 AS g, sum(CAST(CASE WHEN range = 987654 THEN 'x' ELSE '1' END AS "
      "INTEGER)) FROM range(1000000) GROUP BY g";
  for (int threads : {1, 2, 4}) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      Session session;
      ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
      Result<std::string> csv = TarnCsv(&session, sql);
      ASSERT_FALSE(csv.ok()) << threads;
      EXPECT_NE(csv.status().ToString().find("'x'"), std::string::npos)
          << csv.status().ToString();
    }
  }
}

TEST(AggregateParallelTest, LimitBelowAnAggregateStillStopsEarly) {
  // range(10^12) would take hours to drain: the LIMIT must stop the scan.
  std::string sql =
      "SELECT count(*), sum(range), min(range), max(range) FROM "
      "(SELECT range FROM range(1000000000000) LIMIT 300000)";
  for (int threads : {1, 2}) {
    EXPECT_EQ(CsvAtThreads(threads, sql),
              "count_star(),\"sum(\"\"range\"\")\",\"min(\"\"range\"\")\",\"max(\"\"range\"\")\"\n"
              "300000,44999850000,0,299999\n");
  }
}

// Every state: folding random partials in order equals one pass over all rows.
TEST(AggregateParallelTest, CombineEqualsSequentialUpdate) {
  std::mt19937 rng(7);
  struct Case {
    std::string function;
    DataType type;
  };
  std::vector<Case> cases = {
      {"count_star", DataType(TypeId::kInt64)}, {"count", DataType(TypeId::kInt32)},
      {"sum", DataType(TypeId::kInt32)},        {"avg", DataType(TypeId::kInt64)},
      {"min", DataType(TypeId::kInt64)},        {"max", DataType(TypeId::kInt16)},
      {"min", DataType(TypeId::kFloat64)},      {"max", DataType(TypeId::kFloat64)},
      {"min", DataType(TypeId::kVarchar)},       {"max", DataType(TypeId::kVarchar)},
      {"sum", DataType::Decimal(15, 2)},        {"max", DataType(TypeId::kDate)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.function + "(" + c.type.ToString() + ")");
    const int64_t rows = 5000;
    const uint32_t groups = 40;
    ColumnBuilder builder(c.type);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t v = static_cast<int64_t>(rng() % 200) - 100;
      if (rng() % 9 == 0) {
        builder.AppendNull();
      } else if (c.type.id == TypeId::kVarchar) {
        builder.AppendBytes("v" + std::to_string(v));
      } else if (c.type.id == TypeId::kFloat64) {
        builder.AppendNumber<double>(rng() % 50 == 0 ? (rng() % 2 ? -0.0 : 0.0) : v / 4.0);
      } else {
        Value value = c.type.id == TypeId::kDecimal ? Value::Int128(c.type, v)
                                                    : Value::Int(c.type, v);
        ASSERT_TRUE(builder.Append(value).ok());
      }
    }
    std::shared_ptr<Column> input = builder.Finish();
    std::vector<uint32_t> ids(rows);
    for (auto& id : ids) id = rng() % groups;

    auto whole = sql::MakeAggregateState(c.function, c.type).value();
    whole->Resize(groups);
    ASSERT_TRUE(whole->Update(input.get(), ids.data(), rows, nullptr).ok());

    auto combined = sql::MakeAggregateState(c.function, c.type).value();
    combined->Resize(groups);
    for (int64_t begin = 0; begin < rows;) {
      int64_t length = std::min<int64_t>(rows - begin, 1 + rng() % 900);
      std::shared_ptr<Column> piece = Slice(input, begin, length);
      // Local ids numbered in first-seen order, as a partial group table numbers them.
      std::vector<uint32_t> local(length), mapping;
      std::map<uint32_t, uint32_t> seen;
      for (int64_t r = 0; r < length; ++r) {
        auto [it, inserted] = seen.emplace(ids[begin + r], static_cast<uint32_t>(seen.size()));
        if (inserted) mapping.push_back(ids[begin + r]);
        local[r] = it->second;
      }
      auto partial = sql::MakeAggregateState(c.function, c.type).value();
      partial->Resize(static_cast<int64_t>(mapping.size()));
      ASSERT_TRUE(partial->Update(piece.get(), local.data(), length, nullptr).ok());
      combined->Combine(*partial, mapping.data(), static_cast<int64_t>(mapping.size()));
      begin += length;
    }
    auto expected = whole->Finish(groups).value();
    auto actual = combined->Finish(groups).value();
    for (uint32_t g = 0; g < groups; ++g) {
      ASSERT_EQ(ValueText(*actual, g), ValueText(*expected, g)) << "group " << g;
      // -0.0 and 0.0 print alike; the first one seen must win in both.
      if (c.type.id == TypeId::kFloat64 && actual->IsValid(g)) {
        bool actual_negative = std::signbit(actual->template values_as<double>()[g]);
        bool expected_negative = std::signbit(expected->template values_as<double>()[g]);
        EXPECT_EQ(actual_negative, expected_negative) << "group " << g;
      }
    }
  }
}

// The partitioned set of integer values against std::set: every integer width, the extreme
// values (INT64_MIN is the set's empty-slot marker), NULLs, candidate rows, many batches (its
// partitions grow), and merging two sets.
TEST(AggregateParallelTest, IntegerValueSetMatchesStdSet) {
  std::mt19937_64 rng(17);
  for (DataType type : {DataType(TypeId::kInt64), DataType(TypeId::kUInt64),
                        DataType(TypeId::kInt8), DataType(TypeId::kInt32),
                        DataType(TypeId::kUInt16), DataType(TypeId::kDate)}) {
    SCOPED_TRACE(type.ToString());
    const int width = type.FixedWidth();
    sql::IntegerValueSet sets[2] = {sql::IntegerValueSet(type), sql::IntegerValueSet(type)};
    std::set<uint64_t> models[2];
    auto bits_of = [&](uint64_t raw) {  // the value as `width` bytes, zero-extended
      return width == 8 ? raw : raw & ((uint64_t{1} << (8 * width)) - 1);
    };
    for (int round = 0; round < 30; ++round) {
      const int which = round % 2;
      const int64_t rows = static_cast<int64_t>(rng() % 5000);
      const uint64_t spread = round < 10 ? 50 : 200000;  // later rounds grow the partitions
      ColumnBuilder builder(type);
      std::vector<uint8_t> candidates(static_cast<size_t>(rows / 8 + 1), 0);
      std::vector<uint64_t> raws;
      for (int64_t r = 0; r < rows; ++r) {
        uint64_t raw = rng() % spread;
        if (rng() % 97 == 0) raw = 0x8000000000000000ULL;  // INT64_MIN, or 2^63 unsigned
        if (rng() % 89 == 0) raw = ~uint64_t{0};
        const bool candidate = round % 3 != 0 || rng() % 2 == 0;
        if (candidate) SetBit(candidates.data(), r);
        if (rng() % 10 == 0) {
          builder.AppendNull();
          continue;
        }
        builder.AppendFixed(&raw);  // the low `width` bytes
        if (candidate) models[which].insert(bits_of(raw));
      }
      auto column = builder.Finish();
      sets[which].Insert(*column, round % 3 == 0 ? candidates.data() : nullptr);
      if (round % 3 != 0) {  // every row counted: add the non-candidates to the model too
        for (int64_t r = 0; r < rows; ++r) {
          if (column->IsValid(r) && !GetBit(candidates.data(), r)) {
            uint64_t raw = 0;
            std::memcpy(&raw, column->values->data() + r * width, static_cast<size_t>(width));
            models[which].insert(raw);
          }
        }
      }
      ASSERT_EQ(sets[which].size(), static_cast<int64_t>(models[which].size())) << round;
    }
    sets[0].Merge(sets[1]);
    models[0].insert(models[1].begin(), models[1].end());
    auto values = sets[0].Values();
    ASSERT_TRUE(values->Validate().ok());
    std::set<uint64_t> got;
    for (int64_t r = 0; r < values->length; ++r) {
      uint64_t raw = 0;
      std::memcpy(&raw, values->values->data() + r * width, static_cast<size_t>(width));
      got.insert(raw);
    }
    EXPECT_EQ(values->length, static_cast<int64_t>(models[0].size()));
    EXPECT_EQ(got, models[0]);
  }
}

TEST(AggregateParallelTest, DistinctSetMatchesStdSet) {
  std::mt19937 rng(11);
  for (DataType type : {DataType(TypeId::kInt64), DataType(TypeId::kFloat64),
                        DataType(TypeId::kVarchar), DataType(TypeId::kInt8),
                        DataType(TypeId::kInt32)}) {
    SCOPED_TRACE(type.ToString());
    sql::DistinctSet set(type);
    std::set<std::pair<uint32_t, std::string>> model;
    for (int round = 0; round < 20; ++round) {
      const int64_t rows = 1 + rng() % 3000;
      ColumnBuilder builder(type);
      std::vector<std::string> texts;
      int64_t v = 0;
      for (int64_t r = 0; r < rows; ++r) {
        // Half the rows repeat the previous value: runs as sorted inputs have.
        if (r == 0 || rng() % 2 == 0) v = static_cast<int64_t>(rng() % 120) - 60;
        if (rng() % 10 == 0) {
          builder.AppendNull();
          texts.push_back("");
        } else if (type.id == TypeId::kVarchar) {
          builder.AppendBytes(std::to_string(v));
          texts.push_back(std::to_string(v));
        } else if (type.id == TypeId::kFloat64) {
          double d = v == 0 && rng() % 2 ? -0.0 : (v == 1 ? std::nan("") : v / 2.0);
          builder.AppendNumber<double>(d);
          texts.push_back(d == 0 ? "0" : (std::isnan(d) ? "nan" : std::to_string(d)));
        } else if (type.id == TypeId::kInt8) {
          builder.AppendNumber<int8_t>(static_cast<int8_t>(v));
          texts.push_back(std::to_string(v));
        } else if (type.id == TypeId::kInt32) {
          builder.AppendNumber<int32_t>(static_cast<int32_t>(v * 10000019));
          texts.push_back(std::to_string(v));
        } else {
          builder.AppendNumber<int64_t>(v * 1000000007LL);
          texts.push_back(std::to_string(v));
        }
      }
      std::shared_ptr<Column> column = builder.Finish();
      std::vector<uint32_t> groups(rows);
      for (int64_t r = 0; r < rows; ++r) {
        groups[r] = r > 0 && rng() % 3 != 0 ? groups[r - 1] : static_cast<uint32_t>(rng() % 5);
      }
      std::vector<uint8_t> candidates((rows + 7) / 8, 0);
      for (int64_t r = 0; r < rows; ++r) {
        if (rng() % 4 != 0) SetBit(candidates.data(), r);
      }
      std::vector<uint8_t> keep((rows + 7) / 8, 0);
      set.InsertNew(*column, groups.data(), rows, candidates.data(), keep.data());
      for (int64_t r = 0; r < rows; ++r) {
        bool expect_new = GetBit(candidates.data(), r) && column->IsValid(r) &&
                          model.emplace(groups[r], texts[r]).second;
        ASSERT_EQ(GetBit(keep.data(), r), expect_new) << "round " << round << " row " << r;
      }
    }
    EXPECT_EQ(set.size(), static_cast<int64_t>(model.size()));
    // A cleared set has seen nothing: every distinct non-NULL value of a column is new again.
    set.Clear();
    EXPECT_EQ(set.size(), 0);
    ColumnBuilder builder(type);
    for (int v = 0; v < 3; ++v) {
      for (int repeat = 0; repeat < 2; ++repeat) {
        if (type.id == TypeId::kVarchar) builder.AppendBytes(std::to_string(v));
        if (type.id == TypeId::kFloat64) builder.AppendNumber<double>(v);
        if (type.id == TypeId::kInt8) builder.AppendNumber<int8_t>(static_cast<int8_t>(v));
        if (type.id == TypeId::kInt32) builder.AppendNumber<int32_t>(v);
        if (type.id == TypeId::kInt64) builder.AppendNumber<int64_t>(v);
      }
    }
    std::shared_ptr<Column> column = builder.Finish();
    std::vector<uint32_t> groups(6, 0);
    std::vector<uint8_t> keep(1, 0);
    set.InsertNew(*column, groups.data(), 6, nullptr, keep.data());
    EXPECT_EQ(keep[0], 0b010101);
    EXPECT_EQ(set.size(), 3);
  }
}

TEST(AggregateParallelTest, FeedHandsOutEveryBatchOnce) {
  sql::ExecContext context;
  auto source = sql::MakeRangeSource(0, 2000000, 1);
  auto scan = source->Open({0}, nullptr).value();
  Schema schema = *scan->schema();
  auto predicate = ParseAndBind("range % 3 = 0", schema).value();
  auto filter = sql::MakeFilter(std::move(scan), std::move(predicate));
  std::vector<std::unique_ptr<BoundExpr>> projections;
  projections.push_back(ParseAndBind("range * 2", schema).value());
  auto root = sql::MakeProjection(std::move(filter), std::move(projections), {"x"});
  sql::ParallelFeed feed(root.get());

  std::mutex mu;
  std::map<int64_t, std::pair<int64_t, int64_t>> seen;  // sequence -> (rows, first value)
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      while (true) {
        auto item = feed.Next();
        ASSERT_TRUE(item.ok());
        if (item->sequence < 0) return;
        ASSERT_EQ(item->batches.size(), 1u);  // a range is not split into parts
        const Batch& batch = *item->batches[0];
        int64_t first = batch.num_rows > 0 ? batch.columns[0]->values_as<int64_t>()[0] : -1;
        std::lock_guard<std::mutex> lock(mu);
        EXPECT_TRUE(seen.emplace(item->sequence, std::make_pair(batch.num_rows, first)).second);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  // range batches hold 122,880 rows; a third of them pass the filter, doubled.
  const int64_t batches = (2000000 + 122879) / 122880;
  ASSERT_EQ(static_cast<int64_t>(seen.size()), batches);
  int64_t total = 0;
  for (int64_t s = 0; s < batches; ++s) {
    ASSERT_EQ(seen.count(s), 1u);
    int64_t begin = s * 122880;
    int64_t first_multiple = (begin + 2) / 3 * 3;
    EXPECT_EQ(seen[s].second, first_multiple * 2) << s;
    total += seen[s].first;
  }
  EXPECT_EQ(total, (2000000 + 2) / 3);
}

TEST(AggregateParallelTest, FeedReadsParquetRowGroupsAsParts) {
  TempDir dir;
  std::string file = WriteTestFile(dir);
  sql::ExecContext context;
  ThreadPool pool(2);
  context.fs = LocalFileSystem();
  context.pool = &pool;
  context.threads = 2;
  sql::ParquetSourceOptions options;
  options.files = {file};
  auto source = sql::OpenParquetSource(std::move(options), context).value();
  auto scan = source->Open({0}, nullptr).value();
  ASSERT_EQ(scan->num_parts(), 7);  // one per row group
  Schema schema = *scan->schema();
  auto filter = sql::MakeFilter(std::move(scan), ParseAndBind("i % 3 = 0", schema).value());
  sql::ParallelFeed feed(filter.get());

  std::mutex mu;
  std::map<int64_t, std::vector<int64_t>> seen;  // part -> its values, in order
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      while (true) {
        auto item = feed.Next();
        ASSERT_TRUE(item.ok()) << item.status().ToString();
        if (item->sequence < 0) return;
        std::vector<int64_t> values;
        for (const auto& batch : item->batches) {
          const int64_t* v = batch->columns[0]->values_as<int64_t>();
          values.insert(values.end(), v, v + batch->num_rows);
        }
        std::lock_guard<std::mutex> lock(mu);
        EXPECT_TRUE(seen.emplace(item->sequence, std::move(values)).second);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  // In part order, the values are every multiple of 3 below 600,000, in file order.
  std::vector<int64_t> all;
  for (const auto& [part, values] : seen) all.insert(all.end(), values.begin(), values.end());
  ASSERT_EQ(seen.size(), 7u);
  ASSERT_EQ(all.size(), 200000u);
  for (size_t k = 0; k < all.size(); ++k) ASSERT_EQ(all[k], static_cast<int64_t>(k) * 3) << k;
}

TEST(AggregateParallelTest, ErrorInAParquetPartEndsTheQuery) {
  TempDir dir;
  std::string file = WriteTestFile(dir);
  std::string sql = "SELECT g, sum(CAST(CASE WHEN i = 543210 THEN 'x' ELSE '1' END AS INTEGER)) "
                    "FROM '" + file + "' GROUP BY g";
  for (int threads : {1, 2, 4}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    Result<std::string> csv = TarnCsv(&session, sql);
    ASSERT_FALSE(csv.ok()) << threads;
    EXPECT_NE(csv.status().ToString().find("'x'"), std::string::npos) << csv.status().ToString();
  }
}

TEST(AggregateParallelTest, StringMinMaxMatchesDuckDB) {
  // Strings that share their first eight bytes, are prefixes of each other, are empty, or
  // hold bytes above 0x7f: the cases the 8-byte prefix comparison must get right.
  TempDir dir;
  std::string path = dir.Join("s.parquet");
  Status status = testing::DuckDBExecute(
      "COPY (SELECT CASE range % 6 WHEN 0 THEN 'abcdefgh' || (range % 97)::VARCHAR "
      "WHEN 1 THEN substr('abcdefghij', 1, (range % 11)::INTEGER) "
      "WHEN 2 THEN chr(200 + (range % 50)::INTEGER) || 'x' "
      "WHEN 3 THEN 'abcdefgh' WHEN 4 THEN repeat('z', (range % 9)::INTEGER) "
      "ELSE NULL END AS s, range % 5 AS g FROM range(300000)) TO '" + path +
      "' (FORMAT parquet, ROW_GROUP_SIZE 40000)");
  ASSERT_TRUE(status.ok()) << status.ToString();
  std::string t = "'" + path + "'";
  std::vector<std::string> queries = {
      "SELECT min(s), max(s), count(s) FROM " + t,
      "SELECT min(s), max(s) FROM " + t + " WHERE s < 'abcdefgh5'",
      "SELECT min(s), max(s) FROM " + t + " WHERE s LIKE 'abc%'",
      "SELECT g, min(s), max(s) FROM " + t + " GROUP BY g ORDER BY g",
  };
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_TRUE(expected[i].ok()) << queries[i] << "\n" << expected[i].status().ToString();
    for (int threads : {1, 2}) {
      EXPECT_EQ(CsvAtThreads(threads, queries[i]), *expected[i])
          << queries[i] << " at " << threads << " threads";
    }
  }
}

TEST(AggregateParallelTest, SpilledGroupsAreTheSameAtEveryThreadCount) {
  std::string sql = "SELECT range % 100000 AS k, count(*), sum(range) FROM range(1000000) "
                    "GROUP BY k ORDER BY k";
  std::string expected = "k,count_star(),\"sum(\"\"range\"\")\"\n";
  for (int64_t k = 0; k < 100000; ++k) {
    // range = k + 100000 j for j in 0..9: the sum is 10 k + 100000 * 45.
    expected += std::to_string(k) + ",10," + std::to_string(10 * k + 4500000) + "\n";
  }
  for (int threads : {1, 2, 3}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    ASSERT_TRUE(session.Execute("SET memory_limit = '1MB'").ok());
    Result<std::string> csv = TarnCsv(&session, sql);
    ASSERT_TRUE(csv.ok()) << threads << ": " << csv.status().ToString();
    // Not EXPECT_EQ: a diff of two 100,000-line texts would take gigabytes.
    const size_t differs = std::mismatch(csv->begin(), csv->end(), expected.begin(),
                                         expected.end()).first - csv->begin();
    EXPECT_TRUE(*csv == expected) << threads << " threads, first difference at byte " << differs
                                  << ": " << csv->substr(differs > 40 ? differs - 40 : 0, 80);
  }
}

}  // namespace
}  // namespace tarn
