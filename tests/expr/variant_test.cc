// VARIANT: casts, text, variant_typeof and extraction against DuckDB; the byte codec (in-memory
// and Parquet forms) against a randomized model; corrupt bytes; the shredding statistics; and
// DuckDB reading a VARIANT column tarn wrote.
#include "columnar/variant.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "columnar/variant_stats.h"
#include "expr/eval/cast.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/columnar.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/io.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

using variant::VariantNode;

// Evaluates `text` (no columns referenced) to its VARCHAR rendering, or the error message.
std::string Eval(const std::string& text) {
  Schema schema({Field("unused", DataType(TypeId::kInt32))});
  ColumnBuilder unused{DataType(TypeId::kInt32)};
  unused.AppendNumber<int32_t>(0);
  auto batch = MakeBatch(std::make_shared<const Schema>(schema), {unused.Finish()});
  batch->num_rows = 1;
  auto bound = ParseAndBind(text, schema);
  if (!bound.ok()) return "ERROR " + bound.status().message();
  auto column = (*bound)->Evaluate(*batch);
  if (!column.ok()) return "ERROR " + column.status().message();
  if ((*column)->IsNull(0)) return "NULL";
  return FormatValue((*column)->GetValue(0));
}

// The single value of DuckDB's one-column CSV answer, unquoted.
std::string CsvValue(const std::string& csv) {
  std::string value = csv.substr(csv.find('\n') + 1);
  while (!value.empty() && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    std::string unquoted;
    for (size_t i = 1; i + 1 < value.size(); ++i) {
      unquoted.push_back(value[i]);
      if (value[i] == '"') ++i;
    }
    value = unquoted;
  }
  return value;
}

TEST(VariantTest, TextAndTypeofAsDuckDB) {
  const std::vector<std::string> inputs = {
      "42", "'hello world'", "DATE '2000-01-01'", "{'a': 42, 'b': NULL, 'c': 84}",
      "[1, 2, 3, NULL, 5]", "1::TINYINT", "2::UTINYINT", "3::HUGEINT", "1.5::FLOAT",
      "1.5::DECIMAL(4,1)", "3.5::DECIMAL(20,2)", "1::BIGINT", "4::UINTEGER", "5::SMALLINT",
      "TIMESTAMP '2020-01-01 10:00:00'", "'2020-01-01'::TIMESTAMP_S",
      "true", "false", "'\\xAA'::BLOB", "TIME '10:00'", "{'b': 1, 'a': 2}", "[]::INT[]",
      "{'x': NULL}", "[NULL]", "'nan'::DOUBLE", "{'a': 's''q', 'n': {'x': [1]}}", "['it''s']",
      "MAP {'a': 1}", "'{\"a\":[1,2.5,\"x\",null,true]}'::JSON", "'{}'::JSON", "INTERVAL 1 DAY",
      "{'d': DATE '2000-01-01', 's': 'q\"x', 'e': ''}", "1e300"};
  std::vector<std::string> queries;
  std::vector<std::string> exprs;
  for (const std::string& input : inputs) {
    const std::string text = "(" + input + ")::VARIANT::VARCHAR";
    const std::string type = "variant_typeof((" + input + ")::VARIANT)";
    exprs.push_back(text);
    exprs.push_back(type);
    queries.push_back("SELECT " + text + " AS v");
    queries.push_back("SELECT " + type + " AS v");
  }
  std::vector<Result<std::string>> answers = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), exprs.size());
  for (size_t i = 0; i < exprs.size(); ++i) {
    ASSERT_TRUE(answers[i].ok()) << exprs[i] << ": " << answers[i].status().ToString();
    EXPECT_EQ(Eval(exprs[i]), CsvValue(*answers[i])) << exprs[i];
  }
}

TEST(VariantTest, ExtractionCastsAndArithmetic) {
  const std::string v = "{'a': 42, 'b': NULL, 'c': 84}::VARIANT";
  EXPECT_EQ(Eval("(" + v + ").c"), "84");
  EXPECT_EQ(Eval("variant_typeof((" + v + ").c)"), "INT32");
  EXPECT_EQ(Eval("(" + v + ")['c']"), "84");
  EXPECT_EQ(Eval("(" + v + ").d"), "NULL");
  EXPECT_EQ(Eval("variant_typeof((" + v + ").d)"), "VARIANT_NULL");
  EXPECT_EQ(Eval("(" + v + ").b IS NULL"), "true");
  EXPECT_EQ(Eval("(" + v + ").c = 84"), "true");
  EXPECT_EQ(Eval("typeof((" + v + ").c + 100)"), "INTEGER");
  EXPECT_EQ(Eval("(" + v + ").c + 100"), "184");
  EXPECT_EQ(Eval("(42::VARIANT).x"), "NULL");
  EXPECT_EQ(Eval("([1, 2]::VARIANT)[1]"), "1");
  EXPECT_EQ(Eval("([1, 2]::VARIANT)[3]"), "NULL");
  EXPECT_EQ(Eval("({'a': {'b': 5}}::VARIANT).a.b"), "5");
  EXPECT_EQ(Eval("'42'::VARIANT::INTEGER"), "42");
  EXPECT_EQ(Eval("42::VARIANT::DOUBLE"), "42.0");
  EXPECT_EQ(Eval("[1, 2]::VARIANT::INT[]"), "[1, 2]");
  EXPECT_EQ(Eval("{'a': 1, 'b': 'x'}::VARIANT::STRUCT(a INT, c VARCHAR)"), "{'a': 1, 'c': NULL}");
  EXPECT_EQ(Eval("{'a': 1, 'b': 'x'}::VARIANT::JSON"), "{\"a\":1,\"b\":\"x\"}");
  EXPECT_EQ(Eval("TRY_CAST(420::VARIANT AS TINYINT)"), "NULL");
  EXPECT_EQ(Eval("variant_typeof(NULL::VARIANT)"), "VARIANT_NULL");
  // DuckDB's messages.
  auto message = [](const std::string& text) {
    std::string result = Eval(text);
    return result.substr(0, 6) == "ERROR " ? result.substr(6) : "no error: " + result;
  };
  EXPECT_NE(message("'hello'::VARIANT + 100")
                .find("Conversion Error: Can't convert VARIANT(VARCHAR) value 'hello' to 'INTEGER'"),
            std::string::npos);
  EXPECT_NE(message("[1, 2]::VARIANT::STRUCT(a INT)")
                .find("Expected to find VARIANT(OBJECT), found VARIANT(ARRAY) instead, can't "
                      "convert to 'STRUCT(a INTEGER)'"),
            std::string::npos);
  EXPECT_NE(message("([1, 2]::VARIANT)[0]")
                .find("Extracting index 0 from VARIANT(ARRAY) is invalid, indexes are 1-based"),
            std::string::npos);
  EXPECT_NE(message("(1, 2)::VARIANT").find("Can't cast unnamed struct to VARIANT"),
            std::string::npos);
}

// A random variant of the types both forms keep (the Parquet form has no unsigned or
// second-precision types, and sorts object fields).
VariantNode RandomNode(std::mt19937_64& rng, int depth, bool parquet_types) {
  std::uniform_int_distribution<int> pick(0, depth > 3 ? 9 : 12);
  auto str = [&](size_t max_len) {
    std::string s(rng() % (max_len + 1), 'x');
    for (char& c : s) c = static_cast<char>('a' + rng() % 26);
    return s;
  };
  switch (pick(rng)) {
    case 0: return VariantNode::Null();
    case 1: return VariantNode::Primitive(Value::Boolean(rng() % 2 == 0));
    case 2: return VariantNode::Primitive(Value::Int(DataType(TypeId::kInt32), static_cast<int32_t>(rng())));
    case 3: return VariantNode::Primitive(Value::Int64(static_cast<int64_t>(rng())));
    case 4: return VariantNode::Primitive(Value::Float64(static_cast<double>(rng() % 100000) / 7.0));
    case 5: return VariantNode::Primitive(Value::Varchar(str(rng() % 2 ? 10 : 100)));
    case 6: return VariantNode::Primitive(Value::Int(DataType(TypeId::kDate), static_cast<int32_t>(rng() % 40000)));
    case 7: return VariantNode::Primitive(Value::Bytes(DataType(TypeId::kBlob), str(20)));
    case 8:
      return VariantNode::Primitive(Value::Int128(DataType::Decimal(18, 3), static_cast<int64_t>(rng() % 1000000)));
    case 9:
      if (parquet_types) return VariantNode::Primitive(Value::Int(DataType(TypeId::kInt8), static_cast<int8_t>(rng())));
      return VariantNode::Primitive(Value::UInt(DataType(TypeId::kUInt16), rng() % 65536));
    case 10: case 11: {
      VariantNode node;
      node.kind = VariantNode::Kind::kObject;
      const size_t n = rng() % 5;
      for (size_t i = 0; i < n; ++i) {
        std::string name = "f" + std::to_string(rng() % 8);
        bool seen = false;
        for (const std::string& existing : node.names) seen |= existing == name;
        if (seen) continue;
        node.names.push_back(name);
        node.children.push_back(RandomNode(rng, depth + 1, parquet_types));
      }
      return node;
    }
    default: {
      VariantNode node;
      node.kind = VariantNode::Kind::kArray;
      const size_t n = rng() % (rng() % 8 == 0 ? 300 : 5);
      for (size_t i = 0; i < n; ++i) node.children.push_back(RandomNode(rng, depth + 1, parquet_types));
      return node;
    }
  }
}

// Nodes compared as values (object fields by name when `unordered`).
bool SameNode(const VariantNode& a, const VariantNode& b, bool unordered) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case VariantNode::Kind::kPrimitive: {
      if (a.scalar.is_null() || b.scalar.is_null()) return a.scalar.is_null() && b.scalar.is_null();
      if (a.scalar.type().id == TypeId::kDecimal) {
        return b.scalar.type().id == TypeId::kDecimal && a.scalar.type().scale == b.scalar.type().scale &&
               a.scalar.GetInt128() == b.scalar.GetInt128();
      }
      return a.scalar == b.scalar;
    }
    case VariantNode::Kind::kArray:
      if (a.children.size() != b.children.size()) return false;
      for (size_t i = 0; i < a.children.size(); ++i) {
        if (!SameNode(a.children[i], b.children[i], unordered)) return false;
      }
      return true;
    case VariantNode::Kind::kObject:
      if (a.names.size() != b.names.size()) return false;
      for (size_t i = 0; i < a.names.size(); ++i) {
        size_t j = i;
        if (unordered) {
          for (j = 0; j < b.names.size() && b.names[j] != a.names[i]; ++j) {
          }
          if (j == b.names.size()) return false;
        } else if (a.names[i] != b.names[i]) {
          return false;
        }
        if (!SameNode(a.children[i], b.children[j], unordered)) return false;
      }
      return true;
  }
  return false;
}

TEST(VariantTest, RandomRoundTripsAgainstModel) {
  std::mt19937_64 rng(20261206);
  for (int iteration = 0; iteration < 400; ++iteration) {
    const VariantNode model = RandomNode(rng, 0, /*parquet_types=*/false);
    Result<std::string> bytes = variant::Encode(model);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    Result<VariantNode> back = variant::Decode(*bytes);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_TRUE(SameNode(model, *back, /*unordered=*/false)) << "iteration " << iteration;

    const VariantNode parquet_model = RandomNode(rng, 0, /*parquet_types=*/true);
    std::string metadata, value;
    ASSERT_TRUE(variant::ToParquet(parquet_model, &metadata, &value).ok());
    Result<VariantNode> from_parquet = variant::FromParquet(metadata, value);
    ASSERT_TRUE(from_parquet.ok()) << from_parquet.status().ToString();
    EXPECT_TRUE(SameNode(parquet_model, *from_parquet, /*unordered=*/true)) << "iteration " << iteration;
  }
}

TEST(VariantTest, ParquetFormMapsDuckDBOnlyTypes) {
  VariantNode node = VariantNode::Primitive(Value::UInt(DataType(TypeId::kUInt8), 2));
  std::string metadata, value;
  ASSERT_TRUE(variant::ToParquet(node, &metadata, &value).ok());
  Result<VariantNode> back = variant::FromParquet(metadata, value);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(variant::TypeName(*back), "INT16");
  Status refused = variant::ToParquet(
      VariantNode::Primitive(Value::Int(DataType(TypeId::kTimestampS), 5)), &metadata, &value);
  EXPECT_EQ(refused.message(),
            "Invalid Input Error: Can't convert VARIANT of type 'TIMESTAMP_SEC' to Parquet VARIANT");
}

TEST(VariantTest, CorruptBytesGiveErrorsNeverCrash) {
  std::mt19937_64 rng(7);
  int errors = 0;
  for (int iteration = 0; iteration < 300; ++iteration) {
    Result<std::string> bytes = variant::Encode(RandomNode(rng, 0, false));
    ASSERT_TRUE(bytes.ok());
    std::string damaged = *bytes;
    if (rng() % 3 == 0) {
      damaged.resize(rng() % (damaged.size() + 1));  // truncation
    } else {
      for (int flips = 0; flips < 3; ++flips) {
        damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
      }
    }
    Result<VariantNode> decoded = variant::Decode(damaged);
    if (!decoded.ok()) {
      ++errors;
      EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption) << decoded.status().ToString();
      continue;
    }
    // Whatever decodes must print and re-encode.
    EXPECT_TRUE(variant::Encode(*decoded).ok());
    (void)variant::TypeName(*decoded);
  }
  EXPECT_GT(errors, 100);
  // Hand-made cases name what is wrong.
  EXPECT_EQ(variant::Decode("").status().message(),
            "corrupt variant: 0 bytes, too short for its header");
  EXPECT_EQ(variant::Decode(std::string("\x09\x00\x00\x00", 4)).status().message(),
            "corrupt variant: metadata of 9 bytes exceeds the 0 bytes present");
  EXPECT_EQ(variant::Decode(std::string("\x03\x00\x00\x00\x01\x00\x00\x02\x01\x05\x00\x00", 12))
                .status()
                .message(),
            "corrupt variant: value at offset 2 field id 5 is not in the dictionary of 0 names");
  EXPECT_EQ(variant::FromParquet(std::string("\x01\x00\x00", 3), std::string("\xA0", 1))
                .status()
                .message(),
            "corrupt variant: value at offset 0 has unknown primitive type 40");
  // A cast of corrupt bytes is an error, not a crash.
  EXPECT_FALSE(expr::CastValue(Value::Bytes(DataType(TypeId::kVariant), "\x01"),
                               DataType(TypeId::kInt32))
                   .ok());
}

TEST(VariantTest, ShreddingStatistics) {
  auto stats_of = [](const std::vector<std::string>& sql_values) {
    variant::VariantStatsCollector collector;
    for (const std::string& sql : sql_values) {
      if (sql == "NULL") {
        collector.AddRow(nullptr);
        continue;
      }
      Schema schema({Field("unused", DataType(TypeId::kInt32))});
      auto bound = ParseAndBind("(" + sql + ")::VARIANT", schema);
      EXPECT_TRUE(bound.ok()) << sql;
      ColumnBuilder unused{DataType(TypeId::kInt32)};
      unused.AppendNumber<int32_t>(0);
      auto batch = MakeBatch(std::make_shared<const Schema>(schema), {unused.Finish()});
      batch->num_rows = 1;
      auto column = (*bound)->Evaluate(*batch);
      EXPECT_TRUE(column.ok());
      collector.Add(**column);
    }
    std::string out;
    for (const variant::VariantFieldStats& field : collector.Finish()) {
      out += field.path + " " + field.type.ToDuckLakeName() + " " +
             std::to_string(field.num_values) + " " + std::to_string(field.null_count) + " " +
             (field.min ? FormatValue(*field.min) : "-") + " " +
             (field.max ? FormatValue(*field.max) : "-") + ";";
    }
    return out;
  };
  EXPECT_EQ(stats_of({"100", "NULL", "200", "NULL"}), "root int32 4 2 100 200;");
  EXPECT_EQ(stats_of({"['a', 'b', 'c']", "['x', 'y', 'z']"}), "element varchar 6 0 a z;");
  EXPECT_EQ(stats_of({"{'a': 1, 'b': 'hello'}", "{'a': 5, 'b': NULL}", "NULL"}),
            "\"a\" int32 3 1 1 5;\"b\" varchar 3 2 hello hello;");
  EXPECT_EQ(stats_of({"42", "'hello'"}), "");  // mixed kinds: nothing fully shredded
  EXPECT_EQ(stats_of({"{'x': [1, 2]}", "{'x': []}"}), "\"x\".element int32 3 1 1 2;");
}

TEST(VariantTest, DuckDBReadsTarnVariantFile) {
  testing::TempDir dir;
  const std::string path = dir.Join("variant.parquet");
  auto schema = std::make_shared<Schema>(
      std::vector<Field>{Field("v", DataType(TypeId::kVariant), true)});
  ColumnBuilder builder{DataType(TypeId::kVariant)};
  const std::vector<std::string> inputs = {
      "42", "'hello world'", "DATE '2000-01-01'", "{'a': 42, 'b': NULL, 'c': 84}", "NULL",
      "[1, 2, 3, NULL, 5]", "{'a': {'z': true}, 'b': [1.5, 2]}", "2::UTINYINT",
      "3.25::DECIMAL(10,2)", "'a somewhat longer string that needs more than sixty-four bytes!'"};
  for (const std::string& input : inputs) {
    Result<Value> value = [&]() -> Result<Value> {
      Schema none({Field("unused", DataType(TypeId::kInt32))});
      TARN_ASSIGN_OR_RETURN(auto bound, ParseAndBind("(" + input + ")::VARIANT", none));
      ColumnBuilder unused{DataType(TypeId::kInt32)};
      unused.AppendNumber<int32_t>(0);
      auto batch = MakeBatch(std::make_shared<const Schema>(none), {unused.Finish()});
      batch->num_rows = 1;
      TARN_ASSIGN_OR_RETURN(auto column, bound->Evaluate(*batch));
      return column->GetValue(0);
    }();
    ASSERT_TRUE(value.ok()) << input << ": " << value.status().ToString();
    ASSERT_TRUE(builder.Append(*value).ok());
  }
  auto batch = MakeBatch(schema, {builder.Finish()});
  batch->num_rows = static_cast<int64_t>(inputs.size());
  auto props = WriterProperties::Builder().Build();
  ASSERT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(LocalFileSystem(), path, *schema, *props);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  Result<WrittenFileInfo> info = (*writer)->Finish();
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ(info->variants.size(), 1u);
  EXPECT_EQ(info->variants[0].rows, static_cast<int64_t>(inputs.size()));

  // DuckDB's reading of tarn's file equals DuckDB's own values.
  std::string expected_sql = "SELECT * FROM (VALUES ";
  for (size_t i = 0; i < inputs.size(); ++i) {
    expected_sql += (i > 0 ? ", (" : "(") + std::to_string(i) + ", (" + inputs[i] + ")::VARIANT)";
  }
  expected_sql += ") t(i, v)";
  const std::string columns =
      "SELECT i, v::VARCHAR AS text, variant_typeof(v) AS type FROM ";
  Result<std::string> ours = testing::DuckDBQueryCsv(
      columns + "(SELECT row_number() OVER () - 1 AS i, v FROM '" + path + "') ORDER BY i");
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  Result<std::string> theirs =
      testing::DuckDBQueryCsv(columns + "(" + expected_sql + ") ORDER BY i");
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  // Parquet stores UTINYINT as INT16 and a decimal without its precision (DuckDB reads the
  // value's digit count): the types as DuckDB reads them back from its own file.
  std::string expected = *theirs;
  for (auto [from, to] : {std::pair<std::string, std::string>{"UINT8", "INT16"},
                          {"DECIMAL(10, 2)", "DECIMAL(3, 2)"}}) {
    expected.replace(expected.find(from), from.size(), to);
  }
  EXPECT_EQ(*ours, expected);

  // And tarn reads it back.
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->schema().field(0).type.id, TypeId::kVariant);
}

TEST(VariantTest, TarnReadsDuckDBShreddedFile) {
  testing::TempDir dir;
  const std::string path = dir.Join("duck.parquet");
  ASSERT_TRUE(testing::DuckDBExecute(
                  "COPY (SELECT * FROM (VALUES ({'a': 1, 'b': 'hello'}::VARIANT), "
                  "({'a': 5, 'b': NULL, 'c': [1, 2]}::VARIANT), (NULL), (42::VARIANT)) t(v)) TO '" +
                  path + "'")
                  .ok());
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->schema().field(0).type.id, TypeId::kVariant);
  auto batch = (*reader)->ReadAll();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  std::vector<std::string> texts;
  for (int64_t row = 0; row < (*batch)->num_rows; ++row) {
    texts.push_back(ValueText((*batch)->column(0), row));
  }
  Result<std::string> duck = testing::DuckDBQueryCsv("SELECT string_agg(coalesce(v::VARCHAR, 'NULL'), '|') AS s FROM '" + path + "'");
  ASSERT_TRUE(duck.ok()) << duck.status().ToString();
  std::string joined;
  for (size_t i = 0; i < texts.size(); ++i) joined += (i > 0 ? "|" : "") + texts[i];
  EXPECT_EQ(joined, CsvValue(*duck));
}

}  // namespace
}  // namespace tarn
