// Schema mapping and nested assembly: every reference file's column types against DuckDB's
// DESCRIBE of the same file, and hand-checked values of the nested reference files (the
// expected renderings were read off DuckDB's output for the same rows).
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <map>
#include <set>

#include "parquet/schema.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

std::string DataPath(const std::string& name) {
  return testing::SharedPath("fixtures/parquet-testing/data/" + name);
}

std::vector<std::string> ReferenceFiles() {
  std::vector<std::string> names;
  const std::string dir = testing::SharedPath("fixtures/parquet-testing/data");
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return names;
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name.size() > 8 && name.substr(name.size() - 8) == ".parquet") names.push_back(name);
  }
  closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::shared_ptr<Batch>> ReadFile(const std::string& path, const ScanOptions& options = {}) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(LocalFileSystem(), path));
  return reader->ReadAll(options);
}

// Files whose schema DuckDB reads but whose data tarn refuses on purpose (for now).
const std::map<std::string, StatusCode> kExpectedReadErrors = {
    {"datapage_v1-corrupt-checksum.parquet", StatusCode::kCorruption},  // a wrong page CRC
    {"nation.dict-malformed.parquet", StatusCode::kCorruption},
    {"rle-dict-uncompressed-corrupt-checksum.parquet", StatusCode::kCorruption},
};

// Schema only here: 2 GiB of map keys, read by tests/conformance/large_string_map_test.cc.
const std::set<std::string> kDataReadElsewhere = {"large_string_map.brotli.parquet"};

// DuckDB refuses these; tarn reads them (a map without values as the list of its keys).
const std::set<std::string> kReadWhereDuckDBRefuses = {"map_no_value.parquet"};

TEST(ReaderSchemaTest, TypesMatchDuckDBForEveryReferenceFile) {
  const std::vector<std::string> names = ReferenceFiles();
  ASSERT_GT(names.size(), 50u) << "reference files missing";
  std::vector<std::string> queries;
  for (const std::string& name : names) {
    queries.push_back("SELECT string_agg(column_name || ' ' || column_type, '|') AS t FROM "
                      "(DESCRIBE SELECT * FROM '" + DataPath(name) + "')");
  }
  const auto answers = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), names.size());
  int compared = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE(names[i]);
    auto reader = ParquetReader::Open(LocalFileSystem(), DataPath(names[i]));
    if (!answers[i].ok()) {
      // DuckDB refuses the file (encrypted, map without values): tarn must refuse it too.
      if (reader.ok()) {
        auto batch = (*reader)->ReadAll();
        EXPECT_EQ(batch.ok(), kReadWhereDuckDBRefuses.count(names[i]) == 1)
            << "DuckDB refuses it: " << answers[i].status().ToString();
      }
      continue;
    }
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    std::string types;
    for (const Field& field : (*reader)->schema().fields) {
      if (!types.empty()) types += '|';
      types += field.name + ' ' + field.type.ToString();
    }
    std::string expected = *answers[i];
    expected = expected.substr(expected.find('\n') + 1);
    while (!expected.empty() && expected.back() == '\n') expected.pop_back();
    if (expected.size() >= 2 && expected.front() == '"') {
      expected = expected.substr(1, expected.size() - 2);
      std::string unescaped;
      for (size_t pos = 0; pos < expected.size(); ++pos) {
        if (expected[pos] == '"' && pos + 1 < expected.size() && expected[pos + 1] == '"') ++pos;
        unescaped += expected[pos];
      }
      expected = unescaped;
    }
    EXPECT_EQ(types, expected);
    ++compared;
    if (kDataReadElsewhere.count(names[i])) continue;
    auto batch = (*reader)->ReadAll();
    auto expected_error = kExpectedReadErrors.find(names[i]);
    if (expected_error != kExpectedReadErrors.end()) {
      ASSERT_FALSE(batch.ok());
      EXPECT_EQ(batch.status().code(), expected_error->second) << batch.status().ToString();
      EXPECT_NE(batch.status().message().find(DataPath(names[i])), std::string::npos);
      continue;
    }
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_TRUE((*batch)->Validate().ok()) << (*batch)->Validate().ToString();
    EXPECT_EQ((*batch)->num_rows, (*reader)->num_rows());
  }
  EXPECT_GT(compared, 45);
}

std::string Row(const Batch& batch, int64_t row) {
  std::string out;
  for (int column = 0; column < batch.num_columns(); ++column) {
    if (column > 0) out += " | ";
    out += batch.column(column).GetValue(row).ToString();
  }
  return out;
}

struct NestedCase {
  std::string file;
  std::string schema;
  std::vector<std::pair<int64_t, std::string>> rows;
};

TEST(ReaderSchemaTest, NestedReferenceFiles) {
  const std::vector<NestedCase> cases = {
      {"nested_lists.snappy.parquet",
       "(a VARCHAR[][][], b INTEGER NOT NULL)",
       {{0, "[[['a', 'b'], ['c']], [NULL, ['d']]] | 1"},
        {2, "[[['a', 'b'], ['c', 'd'], ['e']], [NULL, ['f']]] | 1"}}},
      {"nested_maps.snappy.parquet",
       "(a MAP(VARCHAR, MAP(INTEGER, BOOLEAN)), b INTEGER NOT NULL, c DOUBLE NOT NULL)",
       {{0, "{'a'={1=true, 2=false}} | 1 | 1.0"}, {2, "{'c'=NULL} | 1 | 1.0"}, {3, "{'d'={}} | 1 | 1.0"}}},
      {"nullable.impala.parquet", "",
       {{1, "2 | [NULL, 1, 2, NULL, 3, NULL] | [[NULL, 1, 2, NULL], [3, NULL, 4], [], NULL] | "
            "{'k1'=2, 'k2'=NULL} | [{'k3'=NULL, 'k1'=1}, NULL, {}] | {'A': NULL, 'b': [NULL], "
            "'C': {'d': [[{'E': NULL, 'F': NULL}, {'E': 10, 'F': 'aaa'}, {'E': NULL, 'F': NULL}, "
            "{'E': -10, 'F': 'bbb'}, {'E': NULL, 'F': NULL}], [{'E': 11, 'F': 'c'}, NULL], [], "
            "NULL]}, 'g': {'g1'={'H': {'i': [2.2, NULL]}}, 'g2'={'H': {'i': []}}, 'g3'=NULL, "
            "'g4'={'H': {'i': NULL}}, 'g5'={'H': NULL}}}"},
        {3, "4 | NULL | [] | {} | [] | {'A': NULL, 'b': NULL, 'C': {'d': NULL}, 'g': NULL}"}}},
      {"nonnullable.impala.parquet", "",
       {{0, "8 | [-1] | [[-1, -2], []] | {'k1'=-1} | [{}, {'k1'=1}, {}, {}] | {'a': -1, 'B': [-1], "
            "'c': {'D': [[{'e': -1, 'f': 'nonnullable'}]]}, 'G': {}}"}}},
      {"nested_structs.rust.parquet", "", {}},
      {"list_columns.parquet", "(int64_list BIGINT[], utf8_list VARCHAR[])",
       {{0, "[1, 2, 3] | ['abc', 'efg', 'hij']"}, {1, "[NULL, 1] | NULL"}, {2, "[4] | ['efg', NULL, 'hij', 'xyz']"}}},
      {"null_list.parquet", "(emptylist INTEGER[])", {{0, "[]"}}},
      {"old_list_structure.parquet", "(a INTEGER[][] NOT NULL)", {{0, "[[1, 2], [3, 4]]"}}},
      {"repeated_no_annotation.parquet",
       "(id INTEGER NOT NULL, phoneNumbers STRUCT(phone STRUCT(number BIGINT, kind VARCHAR)[]))",
       {{0, "1 | NULL"}, {2, "3 | {'phone': []}"}, {3, "4 | {'phone': [{'number': 5555555555, 'kind': NULL}]}"},
        {5, "6 | {'phone': [{'number': 1111111111, 'kind': 'home'}, {'number': 2222222222, 'kind': NULL}, "
            "{'number': 3333333333, 'kind': 'mobile'}]}"}}},
      {"repeated_primitive_no_list.parquet", "", {}},
      {"nulls.snappy.parquet", "(b_struct STRUCT(b_c_int INTEGER))", {{0, "{'b_c_int': NULL}"}}},
  };
  for (const NestedCase& test : cases) {
    SCOPED_TRACE(test.file);
    auto reader = ParquetReader::Open(LocalFileSystem(), DataPath(test.file));
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    if (!test.schema.empty()) {
      EXPECT_EQ((*reader)->schema().ToString(), test.schema);
    }
    auto batch = (*reader)->ReadAll();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_TRUE((*batch)->Validate().ok()) << (*batch)->Validate().ToString();
    for (const auto& [row, expected] : test.rows) {
      ASSERT_LT(row, (*batch)->num_rows);
      EXPECT_EQ(Row(**batch, row), expected) << "row " << row;
    }
  }
}

// Projection of a nested column and reading with tiny batches must give the same values as
// one whole read: batches cut rows at list boundaries correctly.
TEST(ReaderSchemaTest, NestedBatchesAndSelectionAgree) {
  for (const char* name : {"nullable.impala.parquet", "nested_maps.snappy.parquet",
                           "repeated_no_annotation.parquet", "nested_lists.snappy.parquet"}) {
    SCOPED_TRACE(name);
    auto whole = ReadFile(DataPath(name));
    ASSERT_TRUE(whole.ok()) << whole.status().ToString();
    ScanOptions options;
    options.batch_rows = 1;
    options.with_position = true;
    std::vector<int64_t> positions;
    for (int64_t position : {1, 2, 4, 5}) {
      if (position < (*whole)->num_rows) positions.push_back(position);
    }
    options.selection = RowSelection::FromPositions(positions);
    auto picked = ReadFile(DataPath(name), options);
    ASSERT_TRUE(picked.ok()) << picked.status().ToString();
    ASSERT_EQ((*picked)->num_rows, static_cast<int64_t>(positions.size()));
    const Batch& p = **picked;
    for (int64_t row = 0; row < p.num_rows; ++row) {
      const int64_t position = p.column(p.num_columns() - 1).GetValue(row).GetInt64();
      for (int column = 0; column + 1 < p.num_columns(); ++column) {
        EXPECT_EQ(p.column(column).GetValue(row), (*whole)->column(column).GetValue(position))
            << "column " << column << " position " << position;
      }
    }
  }
}

TEST(ReaderSchemaTest, FieldIdsAndLegacyTypes) {
  using parquet::SchemaElement;
  std::vector<SchemaElement> elements(6);
  elements[0].name = "schema";
  elements[0].num_children = 5;
  elements[1].name = "ts";
  elements[1].type = parquet::PhysicalType::kInt64;
  elements[1].converted_type = parquet::ConvertedType::kTimestampMillis;
  elements[1].field_id = 7;
  elements[2].name = "u8";
  elements[2].type = parquet::PhysicalType::kInt32;
  elements[2].converted_type = parquet::ConvertedType::kUint8;
  elements[3].name = "amount";
  elements[3].type = parquet::PhysicalType::kFixedLenByteArray;
  elements[3].type_length = 9;
  elements[3].converted_type = parquet::ConvertedType::kDecimal;
  elements[3].precision = 20;
  elements[3].scale = 3;
  elements[4].name = "tstz_ns";
  elements[4].type = parquet::PhysicalType::kInt64;
  elements[4].logical_type = parquet::LogicalType{};
  elements[4].logical_type->kind = parquet::LogicalType::Kind::kTimestamp;
  elements[4].logical_type->unit = parquet::TimeUnit::kNanos;
  elements[4].logical_type->is_adjusted_to_utc = true;
  elements[5].name = "iv";
  elements[5].type = parquet::PhysicalType::kFixedLenByteArray;
  elements[5].type_length = 12;
  elements[5].converted_type = parquet::ConvertedType::kInterval;
  auto schema = parquet::FileSchema::Make(elements);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(schema->schema().ToString(),
            "(ts TIMESTAMP, u8 UTINYINT, amount DECIMAL(20,3), tstz_ns TIMESTAMP WITH TIME ZONE, "
            "iv INTERVAL)");
  EXPECT_EQ(schema->schema().field(0).field_id, 7);
  EXPECT_EQ(schema->leaves()[0].factor, 1000);
  EXPECT_EQ(schema->leaves()[3].kind, parquet::ValueKind::kInt64Divide);
}

TEST(ReaderSchemaTest, HostileSchemas) {
  using parquet::SchemaElement;
  // Nesting deeper than the limit.
  std::vector<SchemaElement> deep(200);
  for (size_t i = 0; i < deep.size(); ++i) {
    deep[i].name = "g" + std::to_string(i);
    deep[i].num_children = 1;
  }
  deep.back().num_children.reset();
  deep.back().type = parquet::PhysicalType::kInt32;
  EXPECT_EQ(parquet::FileSchema::Make(deep).status().code(), StatusCode::kNotSupported);
  // A group claiming more children than there are elements.
  std::vector<SchemaElement> lying(2);
  lying[0].name = "schema";
  lying[0].num_children = 1000000;
  lying[1].name = "x";
  lying[1].type = parquet::PhysicalType::kInt32;
  EXPECT_EQ(parquet::FileSchema::Make(lying).status().code(), StatusCode::kCorruption);
  // FIXED_LEN_BYTE_ARRAY without a length.
  std::vector<SchemaElement> flba(2);
  flba[0].name = "schema";
  flba[0].num_children = 1;
  flba[1].name = "f";
  flba[1].type = parquet::PhysicalType::kFixedLenByteArray;
  EXPECT_EQ(parquet::FileSchema::Make(flba).status().code(), StatusCode::kCorruption);
}

TEST(ReaderSchemaTest, MapWithoutValueReadsAsTheListOfItsKeys) {
  auto reader = ParquetReader::Open(LocalFileSystem(), DataPath("map_no_value.parquet"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const Schema& schema = (*reader)->schema();
  ASSERT_EQ(schema.fields.size(), 3u);
  EXPECT_EQ(schema.fields[1].name, "my_map_no_v");
  EXPECT_EQ(schema.fields[1].type, schema.fields[2].type);  // the same as my_list
  EXPECT_EQ(schema.fields[1].type.id, TypeId::kList);
  EXPECT_EQ(schema.fields[0].type.id, TypeId::kMap);
}

}  // namespace
}  // namespace tarn
