// DuckDB reads tarn's Parquet files: every type (flat and nested, with the edge values) under
// every codec, both data page versions and dictionary on/off, compared inside DuckDB against
// the same rows built from SQL literals; plus the file's schema, codecs, row groups and
// statistics as DuckDB's parquet_schema()/parquet_metadata() see them.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "parquet/metadata.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/parquet.h"
#include "writer_test_util.h"

namespace tarn {
namespace {

using parquet::CompressionCodec;
using testing::DuckDBExecute;
using testing::DuckDBQueryCsv;
using testing::DuckDBQueryCsvBatch;
using testing::GeneratedTable;
using testing::QuoteIdent;
using testing::SqlLiteral;
using testing::TempDir;

Result<WrittenFileInfo> WriteTable(const GeneratedTable& table, const std::string& path,
                                   std::shared_ptr<const WriterProperties> props,
                                   int64_t batch_rows) {
  TARN_ASSIGN_OR_RETURN(auto writer,
                        ParquetWriter::Open(LocalFileSystem(), path, *table.schema, props,
                                            {{"writer", "tarn-test"}}));
  for (int64_t offset = 0; offset < table.num_rows; offset += batch_rows) {
    int64_t length = std::min(batch_rows, table.num_rows - offset);
    TARN_RETURN_NOT_OK(writer->Write(*testing::MakeBatchFrom(table, offset, length)));
  }
  return writer->Finish();
}

// Creates `db_path` holding table e with the expected rows, typed as DuckDB reads the file.
void CreateExpectedDatabase(const GeneratedTable& table, const std::string& db_path) {
  std::ostringstream sql;
  sql << "SET TimeZone='UTC'; ATTACH '" << db_path << "' AS x; CREATE TABLE x.e AS SELECT * "
      << "FROM (VALUES ";
  for (int64_t row = 0; row < table.num_rows; ++row) {
    sql << (row > 0 ? ",\n(" : "(");
    for (size_t column_idx = 0; column_idx < table.columns.size(); ++column_idx) {
      if (column_idx > 0) sql << ", ";
      sql << SqlLiteral(table.columns[column_idx][row],
                        table.schema->fields[column_idx].type);
    }
    sql << ")";
  }
  sql << ") v(";
  for (size_t column_idx = 0; column_idx < table.columns.size(); ++column_idx) {
    if (column_idx > 0) sql << ", ";
    sql << QuoteIdent(table.schema->fields[column_idx].name);
  }
  sql << ")";
  Status created = DuckDBExecute(sql.str());
  ASSERT_TRUE(created.ok()) << created.ToString().substr(0, 2000);
}

// A query returning one CSV row "0,0,<rows>,<signs...>" when DuckDB reads `path` exactly as
// the expected table: EXCEPT ALL both ways, and the sign bit of every non-NaN float.
std::string CompareQuery(const GeneratedTable& table, const std::string& db_path,
                         const std::string& path, std::string* expected_csv) {
  std::ostringstream sql;
  sql << "SET TimeZone='UTC'; ATTACH '" << db_path << "' AS x (READ_ONLY); "
      << "CREATE TEMP TABLE t AS FROM read_parquet('" << path << "'); "
      << "SELECT (SELECT count(*) FROM (FROM t EXCEPT ALL FROM x.e)) AS only_file, "
      << "(SELECT count(*) FROM (FROM x.e EXCEPT ALL FROM t)) AS only_expected, "
      << "(SELECT count(*) FROM t) AS n";
  std::ostringstream header;
  std::ostringstream row;
  header << "only_file,only_expected,n";
  row << "0,0," << table.num_rows;
  for (size_t column_idx = 0; column_idx < table.columns.size(); ++column_idx) {
    const Field& field = table.schema->fields[column_idx];
    if (!field.type.IsFloating()) continue;
    std::string name = QuoteIdent(field.name);
    sql << ", (SELECT coalesce(string_agg(CAST(id AS VARCHAR), ' ' ORDER BY id), '-') FROM t "
        << "WHERE NOT isnan(" << name << ") AND signbit(" << name << ")) AS sign_" << field.name;
    header << ",sign_" << field.name;
    std::string ids;
    for (int64_t r = 0; r < table.num_rows; ++r) {
      const Value& value = table.columns[column_idx][r];
      if (value.is_null() || std::isnan(value.GetDouble())) continue;
      double stored = field.type.id == TypeId::kFloat32
                          ? static_cast<double>(static_cast<float>(value.GetDouble()))
                          : value.GetDouble();
      if (!std::signbit(stored)) continue;
      ids += (ids.empty() ? "" : " ") + std::to_string(r);
    }
    row << "," << (ids.empty() ? "-" : ids);
  }
  *expected_csv = header.str() + "\n" + row.str() + "\n";
  return sql.str();
}

struct Variant {
  CompressionCodec codec;
  int level;
  int page_version;
  bool dictionary;
  std::string Name() const {
    return std::string(parquet::CodecName(codec)) + "_l" + std::to_string(level) + "_v" +
           std::to_string(page_version) + (dictionary ? "_dict" : "_plain");
  }
};

std::vector<Variant> AllVariants() {
  std::vector<Variant> variants;
  std::pair<CompressionCodec, int> codecs[] = {
      {CompressionCodec::kUncompressed, 0}, {CompressionCodec::kSnappy, 0},
      {CompressionCodec::kGzip, 0},         {CompressionCodec::kZstd, 7},
      {CompressionCodec::kBrotli, 0},       {CompressionCodec::kLz4Raw, 0}};
  for (auto [codec, level] : codecs) {
    for (int page_version : {1, 2}) {
      for (bool dictionary : {true, false}) {
        variants.push_back({codec, level, page_version, dictionary});
      }
    }
  }
  return variants;
}

void RunMatrix(const Schema& schema, int64_t num_rows, uint64_t seed) {
  GeneratedTable table = testing::GenerateTable(schema, num_rows, seed);
  TempDir dir;
  std::string db_path = dir.Join("expected.duckdb");
  CreateExpectedDatabase(table, db_path);
  if (::testing::Test::HasFatalFailure()) return;
  std::vector<std::string> queries;
  std::vector<std::string> expected;
  std::vector<std::string> names;
  for (const Variant& variant : AllVariants()) {
    auto props = WriterProperties::Builder()
                     .compression(static_cast<int>(variant.codec), variant.level)
                     .data_page_version(variant.page_version)
                     .dictionary_enabled(variant.dictionary)
                     .data_page_rows(37)
                     .max_row_group_rows(150)
                     .write_page_crc(variant.page_version == 2)
                     .Build();
    ASSERT_TRUE(props.ok()) << props.status().ToString();
    std::string path = dir.Join(variant.Name() + ".parquet");
    auto info = WriteTable(table, path, *props, 97);
    ASSERT_TRUE(info.ok()) << variant.Name() << ": " << info.status().ToString();
    EXPECT_EQ(info->num_rows, num_rows);
    EXPECT_EQ(info->num_row_groups, (num_rows + 149) / 150);
    std::string expected_csv;
    queries.push_back(CompareQuery(table, db_path, path, &expected_csv));
    expected.push_back(expected_csv);
    names.push_back(variant.Name());
  }
  std::vector<Result<std::string>> answers = DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), queries.size());
  for (size_t i = 0; i < answers.size(); ++i) {
    ASSERT_TRUE(answers[i].ok()) << names[i] << ": " << answers[i].status().ToString();
    EXPECT_EQ(*answers[i], expected[i]) << names[i];
  }
  if (::testing::Test::HasFailure()) {
    // Show a few differing rows of the first variant to help debugging.
    std::string path = dir.Join(names[0] + ".parquet");
    auto diff = DuckDBQueryCsv("SET TimeZone='UTC'; ATTACH '" + db_path +
                               "' AS x (READ_ONLY); SELECT 'file' AS side, * FROM (FROM "
                               "read_parquet('" + path + "') EXCEPT ALL FROM x.e) UNION ALL "
                               "SELECT 'expected', * FROM (FROM x.e EXCEPT ALL FROM "
                               "read_parquet('" + path + "')) ORDER BY id, side LIMIT 6");
    ADD_FAILURE() << (diff.ok() ? *diff : diff.status().ToString());
  }
}

TEST(WriterDuckDBTest, FlatTypesEveryCodecPageVersionAndDictionary) {
  RunMatrix(testing::AllFlatTypesSchema(), 400, 1);
}

TEST(WriterDuckDBTest, NestedTypesEveryCodecPageVersionAndDictionary) {
  RunMatrix(testing::NestedTypesSchema(), 400, 2);
}

// The schema elements DuckDB should see: (name, field_id, repetition) in depth-first order.
void ExpectedElements(const Field& field, const std::string& name, bool nullable,
                      std::string* out) {
  *out += name + "," + (field.field_id ? std::to_string(*field.field_id) : "") + "," +
          (nullable ? "OPTIONAL" : "REQUIRED") + "\n";
  const DataType& type = field.type;
  if (type.id == TypeId::kStruct) {
    for (const Field& child : type.children) ExpectedElements(child, child.name, child.nullable, out);
  } else if (type.id == TypeId::kList) {
    *out += "list,,REPEATED\n";
    ExpectedElements(type.children[0], "element", type.children[0].nullable, out);
  } else if (type.id == TypeId::kMap) {
    *out += "key_value,,REPEATED\n";
    const DataType& entry = type.children[0].type;
    ExpectedElements(entry.children[0], "key", false, out);
    ExpectedElements(entry.children[1], "value", entry.children[1].nullable, out);
  }
}

void CheckSchemaAndStatistics(const Schema& schema, uint64_t seed) {
  GeneratedTable table = testing::GenerateTable(schema, 300, seed);
  TempDir dir;
  std::string db_path = dir.Join("expected.duckdb");
  CreateExpectedDatabase(table, db_path);
  if (::testing::Test::HasFatalFailure()) return;
  std::string duck_path = dir.Join("duck.parquet");
  ASSERT_TRUE(DuckDBExecute("ATTACH '" + db_path + "' AS x (READ_ONLY); COPY x.e TO '" +
                            duck_path + "' (FORMAT parquet)")
                  .ok());
  auto props = WriterProperties::Builder()
                   .compression(static_cast<int>(CompressionCodec::kZstd), 3)
                   .max_row_group_rows(120)
                   .statistics_truncate_length(16)
                   .Build();
  ASSERT_TRUE(props.ok());
  std::string path = dir.Join("tarn.parquet");
  auto info = WriteTable(table, path, *props, 1000);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ(info->num_row_groups, 3);

  std::vector<std::string> queries;
  // 1. Types and annotations as DuckDB's own writer lays out the same table (DuckDB writes no
  //    logical type for integers and strings, tarn adds them; TIME_NS is compared elsewhere).
  std::string columns = "name, type, type_length, converted_type, scale, precision, num_children";
  queries.push_back(
      "WITH a AS (SELECT row_number() OVER () AS pos, " + columns + ", logical_type FROM "
      "parquet_schema('" + path + "')), b AS (SELECT row_number() OVER () AS pos, " + columns +
      ", logical_type FROM parquet_schema('" + duck_path + "')) SELECT * FROM a FULL JOIN b "
      "USING (pos) WHERE a.name <> 'tmns' AND (a.name IS DISTINCT FROM b.name OR a.type IS "
      "DISTINCT FROM b.type OR a.type_length IS DISTINCT FROM b.type_length OR "
      "a.converted_type IS DISTINCT FROM b.converted_type OR a.scale IS DISTINCT FROM b.scale "
      "OR a.precision IS DISTINCT FROM b.precision OR a.num_children IS DISTINCT FROM "
      "b.num_children OR (b.logical_type IS NOT NULL AND a.logical_type IS DISTINCT FROM "
      "b.logical_type))");
  // 2. Field ids and repetition.
  queries.push_back("SELECT name, field_id, repetition_type FROM parquet_schema('" + path + "')");
  std::string expected_elements = "name,field_id,repetition_type\nduckdb_schema,,REQUIRED\n";
  for (const Field& field : schema.fields) {
    ExpectedElements(field, field.name, field.nullable, &expected_elements);
  }
  // 3. Row groups and codec.
  queries.push_back("SELECT row_group_id, row_group_num_rows, compression, count(*) AS columns "
                    "FROM parquet_metadata('" + path + "') GROUP BY ALL ORDER BY ALL");
  std::string expected_groups = "row_group_id,row_group_num_rows,compression,columns\n";
  for (int group = 0; group < 3; ++group) {
    expected_groups += std::to_string(group) + "," + (group < 2 ? "120" : "60") + ",ZSTD," +
                       std::to_string(info->columns.size()) + "\n";
  }
  // 4. File-level statistics from WrittenFileInfo against the row groups' statistics as DuckDB
  //    decodes them: the min of the mins and max of the maxes (in the column's own type), and
  //    the sums of null counts and value counts.
  std::ostringstream stats;
  stats << "SET TimeZone='UTC'; CREATE TEMP TABLE m AS SELECT column_id, "
        << "sum(stats_null_count) AS nc, sum(num_values) AS nv, list(stats_min_value) AS mins, "
        << "list(stats_max_value) AS maxs FROM parquet_metadata('" << path << "') GROUP BY ALL; "
        << "CREATE TEMP TABLE e AS SELECT * FROM (VALUES ";
  for (size_t leaf = 0; leaf < info->columns.size(); ++leaf) {
    const WrittenColumnStatistics& column = info->columns[leaf];
    std::string min = "CAST(NULL AS VARCHAR)";
    std::string max = "CAST(NULL AS VARCHAR)";
    std::string type = "VARCHAR";
    // tarn reports no bounds for TIMETZ (DuckLake keeps none); DuckDB shows no float bounds
    // for a row group holding an infinity, so those are checked against a model elsewhere.
    bool skip = false;
    if (column.stats.min && column.stats.min->type().IsFloating()) {
      skip = std::isinf(column.stats.min->GetDouble()) || std::isinf(column.stats.max->GetDouble());
    }
    if (column.stats.min) {
      min = "CAST(" + SqlLiteral(*column.stats.min, column.stats.min->type()) + " AS VARCHAR)";
      max = "CAST(" + SqlLiteral(*column.stats.max, column.stats.max->type()) + " AS VARCHAR)";
      type = testing::ReadBackType(column.stats.min->type()).ToString();
    }
    stats << (leaf ? ", " : "") << "(" << leaf << ", " << min << ", " << max << ", "
          << *column.stats.null_count << ", " << column.stats.value_count << ", '" << type
          << "', " << (skip ? "true" : "false") << ")";
  }
  for (size_t leaf = 0; leaf < info->columns.size(); ++leaf) {
    if (info->columns[leaf].path.back() == "tmtz") {
      stats << ", (" << leaf << ", NULL, NULL, 0, 0, '', true)";
    }
  }
  stats << ") v(column_id, mn, mx, nc, nv, ty, skip); DELETE FROM e WHERE column_id IN (SELECT "
        << "column_id FROM e WHERE skip); DELETE FROM m WHERE column_id NOT IN (SELECT column_id "
        << "FROM e); SELECT column_id, m.nc, e.nc, m.nv, e.nv, mn, "
        << "mx, mins, maxs, ty FROM m FULL JOIN e USING (column_id) WHERE m.nc IS DISTINCT FROM "
        << "e.nc OR m.nv IS DISTINCT FROM e.nv OR (mn IS NULL) <> (list_filter(mins, x -> x IS "
        << "NULL) <> []) OR (mn IS NOT NULL AND NOT EXISTS (SELECT 1 WHERE mn IN (SELECT unnest"
        << "(mins)) AND mx IN (SELECT unnest(maxs))))";
  queries.push_back(stats.str());
  std::vector<Result<std::string>> answers = DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), 4u);
  for (const auto& answer : answers) ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  EXPECT_EQ(answers[0]->substr(answers[0]->find('\n') + 1), "") << *answers[0];
  EXPECT_EQ(*answers[1], expected_elements);
  EXPECT_EQ(*answers[2], expected_groups);
  EXPECT_EQ(answers[3]->substr(answers[3]->find('\n') + 1), "") << *answers[3];
}

TEST(WriterDuckDBTest, FlatSchemaFieldIdsRowGroupsAndStatistics) {
  CheckSchemaAndStatistics(testing::AllFlatTypesSchema(), 3);
}

TEST(WriterDuckDBTest, NestedSchemaFieldIdsRowGroupsAndStatistics) {
  CheckSchemaAndStatistics(testing::NestedTypesSchema(), 4);
}

std::string Repeat(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// String and blob bounds equal DuckDB's own writer's for the same values in the same order:
// long values cut at 256 bytes (strings at a UTF-8 boundary), a cut max incremented at its
// last byte below 0x7F (strings) or 0xFF (blobs), no bounds at all when no byte can be, and
// each value compared with the bounds kept so far.
TEST(WriterDuckDBTest, LongStringAndBlobBoundsEqualDuckDBWriter) {
  const std::string x = "x";
  const std::vector<std::vector<std::string>> kStrings = {
      {std::string(65536, 'x'), "a", ""},
      {Repeat("é", 300)},
      {std::string(255, 'x') + "ÿzz"},
      {std::string(300, 'x'), std::string(256, 'x') + "a"},
      {std::string(256, 'x') + "a", std::string(300, 'x')},
      {std::string(254, 'x') + "é" + std::string(10, 'x'), "b"},
      {std::string(300, 'a'), std::string(256, 'a')},
      {std::string(254, 'a') + Repeat("é", 20), std::string(254, 'a') + "b"},
      {"z", Repeat("é", 300), "a"},
      {std::string(300, 'b'), "c", Repeat("é", 300)},
      {std::string(256, 'y'), std::string(257, 'y')},
  };
  const std::vector<std::vector<std::string>> kBlobs = {
      {std::string(300, '\xff')},
      {std::string(255, '\xff') + "a" + std::string(10, '\xff')},
      {std::string(10, 'a') + std::string(300, '\xff'), "b"},
      {std::string(256, '\x7f') + "a"},
  };
  TempDir dir;
  std::vector<std::string> queries;
  auto add = [&](const std::vector<std::string>& values, const DataType& type, size_t set) {
    const std::string name = StrCat(type.ToString(), "-", set);
    auto schema = std::make_shared<Schema>(std::vector<Field>{Field("v", type)});
    ColumnBuilder builder(type);
    std::string rows;
    for (const std::string& value : values) {
      builder.AppendBytes(value);
      rows += StrCat(rows.empty() ? "" : ", ", "(", SqlLiteral(Value::Bytes(type, value), type),
                     ")");
    }
    const std::string tarn_path = dir.Join(name + "-tarn.parquet");
    auto writer = ParquetWriter::Open(LocalFileSystem(), tarn_path, *schema,
                                      WriterProperties::Builder().Build().value());
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    ASSERT_TRUE((*writer)->Write(*MakeBatch(schema, {builder.Finish()})).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
    const std::string duck_path = dir.Join(name + "-duckdb.parquet");
    const std::string bounds = "SELECT hex(stats_min_value) AS min, hex(stats_max_value) AS max, "
                               "stats_null_count FROM parquet_metadata(";
    queries.push_back(StrCat("COPY (SELECT * FROM (VALUES ", rows, ") t(v)) TO '", duck_path,
                             "'; ", bounds, "'", duck_path, "')"));
    queries.push_back(StrCat(bounds, "'", tarn_path, "')"));
  };
  for (size_t set = 0; set < kStrings.size(); ++set) add(kStrings[set], DataType(TypeId::kVarchar), set);
  for (size_t set = 0; set < kBlobs.size(); ++set) add(kBlobs[set], DataType(TypeId::kBlob), set);
  if (::testing::Test::HasFatalFailure()) return;
  auto answers = DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), queries.size());
  for (size_t q = 0; q < queries.size(); q += 2) {
    ASSERT_TRUE(answers[q].ok()) << answers[q].status().ToString();
    ASSERT_TRUE(answers[q + 1].ok()) << answers[q + 1].status().ToString();
    EXPECT_EQ(*answers[q + 1], *answers[q]) << "value set " << q / 2 << "\n" << queries[q].substr(0, 300);
  }
}

}  // namespace
}  // namespace tarn
