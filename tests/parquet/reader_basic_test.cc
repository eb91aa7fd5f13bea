// End-to-end reads of real files: values checked against DuckDB (aggregates computed by the
// oracle over the same file) and against hand-checked rows.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::SharedPath;

std::string LineitemPath() { return SharedPath("data/tpch-sf0.1/lineitem.parquet"); }

std::unique_ptr<ParquetReader> OpenOrDie(const std::string& path) {
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(reader).value() : nullptr;
}

// Sums a column of any integer or decimal (unscaled) type over all rows.
__int128 SumColumn(const Column& column) {
  __int128 total = 0;
  const int width = column.type.FixedWidth();
  for (int64_t row = 0; row < column.length; ++row) {
    if (column.IsNull(row)) continue;
    const uint8_t* p = column.values->data() + row * width;
    switch (width) {
      case 4: { int32_t v; std::memcpy(&v, p, 4); total += v; break; }
      case 8: { int64_t v; std::memcpy(&v, p, 8); total += v; break; }
      case 16: { __int128 v; std::memcpy(&v, p, 16); total += v; break; }
      default: ADD_FAILURE() << "unexpected width " << width;
    }
  }
  return total;
}

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string out;
  while (u > 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + out : out;
}

TEST(ReaderBasicTest, LineitemMatchesDuckDB) {
  ASSERT_TRUE(FileExists(LineitemPath()));
  auto reader = OpenOrDie(LineitemPath());
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->schema().num_fields(), 16);
  EXPECT_EQ(reader->schema().field(0).type.ToString(), "BIGINT");
  EXPECT_EQ(reader->schema().field(4).type.ToString(), "DECIMAL(15,2)");
  EXPECT_EQ(reader->schema().field(10).type.ToString(), "DATE");
  EXPECT_EQ(reader->schema().field(15).type.ToString(), "VARCHAR");

  const auto start = std::chrono::steady_clock::now();
  auto batch = reader->ReadAll();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  std::printf("[ perf ] full scan of lineitem (%lld rows, 16 columns): %.3f s\n",
              static_cast<long long>((*batch)->num_rows), seconds);
  ASSERT_TRUE((*batch)->Validate().ok()) << (*batch)->Validate().ToString();
  ASSERT_EQ((*batch)->num_rows, 600572);

  const Batch& b = **batch;
  int64_t comment_bytes = 0;
  const Column& comment = b.column(15);
  for (int64_t row = 0; row < comment.length; ++row) comment_bytes += comment.GetView(row).size();
  auto duckdb = testing::DuckDBQueryCsv(
      "SELECT sum(l_orderkey)::VARCHAR AS a, (sum(l_quantity) * 100)::BIGINT::VARCHAR AS b, "
      "(sum(l_extendedprice) * 100)::BIGINT::VARCHAR AS c, sum(strlen(l_comment))::VARCHAR AS d, "
      "sum(l_shipdate - DATE '1970-01-01')::VARCHAR AS e FROM '" + LineitemPath() + "'");
  ASSERT_TRUE(duckdb.ok()) << duckdb.status().ToString();
  const std::string expected = *duckdb;
  const std::string actual =
      "a,b,c,d,e\n" + Int128ToString(SumColumn(b.column(0))) + "," +
      Int128ToString(SumColumn(b.column(4))) + "," + Int128ToString(SumColumn(b.column(5))) + "," +
      std::to_string(comment_bytes) + "," + Int128ToString(SumColumn(b.column(10))) + "\n";
  EXPECT_EQ(actual, expected);
}

TEST(ReaderBasicTest, FlightsMatchesDuckDB) {
  const std::string path = testing::FlightsPath();
  ASSERT_TRUE(FileExists(path));
  auto reader = OpenOrDie(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->schema().ToString(),
            "(date TIMESTAMP, delay BIGINT, distance BIGINT, origin VARCHAR, destination VARCHAR)");
  auto batch = reader->ReadAll();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_TRUE((*batch)->Validate().ok()) << (*batch)->Validate().ToString();
  const Batch& b = **batch;
  int64_t origin_bytes = 0, nulls = 0;
  for (int column = 0; column < b.num_columns(); ++column) nulls += b.column(column).null_count;
  for (int64_t row = 0; row < b.num_rows; ++row) {
    if (b.column(3).IsValid(row)) origin_bytes += b.column(3).GetView(row).size() * (row % 7);
  }
  auto duckdb = testing::DuckDBQueryCsv(
      "WITH t AS (SELECT *, row_number() OVER () - 1 AS r FROM '" + path + "') "
      "SELECT count(*)::VARCHAR AS n, sum(delay)::VARCHAR AS a, sum(distance)::VARCHAR AS b, "
      "sum(epoch_us(date))::VARCHAR AS c, sum(strlen(origin) * (r % 7))::VARCHAR AS d, "
      "(count(*) * 5 - count(date) - count(delay) - count(distance) - count(origin) - "
      "count(destination))::VARCHAR AS e FROM t");
  ASSERT_TRUE(duckdb.ok()) << duckdb.status().ToString();
  const std::string actual = "n,a,b,c,d,e\n" + std::to_string(b.num_rows) + "," +
                             Int128ToString(SumColumn(b.column(1))) + "," +
                             Int128ToString(SumColumn(b.column(2))) + "," +
                             Int128ToString(SumColumn(b.column(0))) + "," +
                             std::to_string(origin_bytes) + "," + std::to_string(nulls) + "\n";
  EXPECT_EQ(actual, *duckdb);
}

}  // namespace
}  // namespace tarn
