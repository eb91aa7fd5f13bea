// Inlined values stored as text: nested values in DuckDB's VARCHAR spelling (and the SQL
// literal spelling a SQLite catalog gets for top-level structs), intervals and TIMETZ.
//
// The differential test makes random values of random nested types as SQL literals (strings
// full of quotes, brackets, commas, backslashes, "NULL" and spaces; NaN, -0.0, infinities;
// NULLs at every level), lets DuckDB store them and print them with ::VARCHAR, and checks that
// decoding DuckDB's text gives exactly the value DuckDB wrote to Parquet.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "catalog/inlined_text.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

using catalog_internal::DecodeInlinedText;
using catalog_internal::ParseIntervalText;
using catalog_internal::ParseTimeTzText;

Value Decode(std::string_view text, const DataType& type) {
  Result<Value> value = DecodeInlinedText(text, type);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status().ToString();
  return value.ok() ? *value : Value();
}

Value Str(std::string s) { return Value::Varchar(std::move(s)); }
Value I32(int64_t v) { return Value::Int(DataType(TypeId::kInt32), v); }

TEST(InlinedTextTest, DecodesDuckDBNestedSpelling) {
  const DataType strings = DataType::List(DataType(TypeId::kVarchar));
  const std::vector<Value> expected = {
      Str("a"), Str("b c"), Value::Null(DataType(TypeId::kVarchar)), Str("it's"), Str(""),
      Str("x,y"), Str("[z]"), Str("NULL"), Str(" lead"), Str("q\"d"), Str("back\\slash"),
      Str("{a}")};
  EXPECT_EQ(Decode("[a, b c, NULL, 'it\\'s', '', 'x,y', '[z]', 'NULL', ' lead', 'q\"d', "
                   "back\\slash, '{a}']",
                   strings),
            Value::Nested(strings, expected));
  EXPECT_EQ(Decode(" [ ] ", strings), Value::Nested(strings, {}));
  EXPECT_EQ(Decode("[,]", strings), Value::Nested(strings, {Str(""), Str("")}));
  EXPECT_EQ(Decode("[null, nUlL]", strings),
            Value::Nested(strings, {Value::Null(DataType(TypeId::kVarchar)),
                                    Value::Null(DataType(TypeId::kVarchar))}));

  const DataType point = DataType::Struct({Field("x", DataType(TypeId::kInt32)),
                                           Field("y y", DataType(TypeId::kVarchar)),
                                           Field("l", DataType::List(DataType(TypeId::kInt32)))});
  const Value full = Value::Nested(
      point, {I32(1), Str("a, b"),
              Value::Nested(point.children[2].type, {I32(1), Value::Null(DataType(TypeId::kInt32))})});
  EXPECT_EQ(Decode("{'x': 1, 'y y': 'a, b', 'l': [1, NULL]}", point), full);
  // Positional form; missing fields are NULL.
  EXPECT_EQ(Decode("(1, 'a, b', [1, null])", point), full);
  EXPECT_EQ(Decode("{'y y': abc}", point),
            Value::Nested(point, {Value::Null(DataType(TypeId::kInt32)), Str("abc"),
                                  Value::Null(point.children[2].type)}));

  const DataType map = DataType::Map(DataType(TypeId::kVarchar), DataType(TypeId::kInt32));
  const DataType& entry = map.children[0].type;
  EXPECT_EQ(Decode("{k=1, 'a=b'=NULL, ''=3}", map),
            Value::Nested(map, {Value::Nested(entry, {Str("k"), I32(1)}),
                                Value::Nested(entry, {Str("a=b"), Value::Null(DataType(TypeId::kInt32))}),
                                Value::Nested(entry, {Str(""), I32(3)})}));
  EXPECT_EQ(Decode("{}", map), Value::Nested(map, {}));
}

TEST(InlinedTextTest, DecodesSqlLiteralStructSpelling) {
  // How a SQLite catalog stores a top-level struct: each field as a SQL literal.
  const DataType type = DataType::Struct(
      {Field("s", DataType(TypeId::kVarchar)), Field("d", DataType(TypeId::kDate)),
       Field("f", DataType(TypeId::kFloat64)), Field("i", DataType(TypeId::kInterval)),
       Field("b", DataType(TypeId::kBoolean)), Field("n", DataType(TypeId::kInt64))});
  Value decoded = Decode(
      "{'s': 'it''s', 'd': CAST('2020-01-02' AS DATE), 'f': CAST('nan' AS VARCHAR), "
      "'i': CAST('1 months 2 days 3 microseconds' AS INTERVAL), 'b': true, 'n': NULL}",
      type);
  ASSERT_EQ(decoded.children().size(), 6u);
  // DuckDB reads adjacent quoted pieces as one string: 'it''s' is "its".
  EXPECT_EQ(decoded.children()[0], Str("its"));
  EXPECT_EQ(decoded.children()[1], Value::Int(DataType(TypeId::kDate), 18263));
  EXPECT_TRUE(std::isnan(decoded.children()[2].GetDouble()));
  EXPECT_EQ(decoded.children()[3], Value::MakeInterval({1, 2, 3000}));
  EXPECT_EQ(decoded.children()[4], Value::Boolean(true));
  EXPECT_TRUE(decoded.children()[5].is_null());
  // A VARCHAR field is never unwrapped: its text is the value.
  EXPECT_EQ(Decode("{'s': 'CAST(\\'x\\' AS DATE)'}", type).children()[0],
            Str("CAST('x' AS DATE)"));
}

TEST(InlinedTextTest, RejectsMalformedText) {
  const DataType ints = DataType::List(DataType(TypeId::kInt32));
  const DataType point = DataType::Struct({Field("x", DataType(TypeId::kInt32))});
  const DataType map = DataType::Map(DataType(TypeId::kVarchar), DataType(TypeId::kInt32));
  struct Case {
    const char* text;
    const DataType* type;
  } cases[] = {
      {"", &ints},           {"[1, 2", &ints},     {"[1, 2] x", &ints}, {"1, 2]", &ints},
      {"['1]", &ints},       {"[[1]", &ints},      {"[x]", &ints},      {"{'x': 1", &point},
      {"{'X': 1}", &point},  {"{x 1}", &point},    {"(1, 2)", &point},  {"{NULL: 1}", &point},
      {"{: 1}", &point},     {"{k=1, k=2}", &map}, {"{NULL=1}", &map},  {"{k=1", &map},
      {"{k}", &map},         {"[99999999999]", &ints},
  };
  for (const Case& c : cases) {
    Result<Value> value = DecodeInlinedText(c.text, *c.type);
    EXPECT_FALSE(value.ok()) << "'" << c.text << "' decoded as " << value->ToString();
    if (!value.ok()) {
      EXPECT_EQ(value.status().code(), StatusCode::kInvalidArgument) << value.status().ToString();
    }
  }
  EXPECT_TRUE(DecodeInlinedText("x", DataType(TypeId::kVariant)).status().IsNotSupported());
}

TEST(InlinedTextTest, IntervalsAndTimeTz) {
  struct Case {
    const char* text;
    Interval expected;
  } cases[] = {
      {"1 year 2 months 3 days 04:05:06.789", {14, 3, 14706789000000LL}},
      {"-1 month -2 days -00:00:01", {-1, -2, -1000000000LL}},
      {"00:00:00", {0, 0, 0}},
      {"30:00:00", {0, 0, 30LL * 3600 * 1000000000}},
      {"00:00:00.000001", {0, 0, 1000}},
      {"1 months 2 days 3 microseconds", {1, 2, 3000}},
      {"2 weeks 1 hour", {0, 14, 3600LL * 1000000000}},
      {"-2562047:47:16.854775", {0, 0, -9223372036854775000LL}},
  };
  for (const Case& c : cases) {
    Interval parsed;
    ASSERT_TRUE(ParseIntervalText(c.text, &parsed)) << c.text;
    EXPECT_EQ(parsed, c.expected) << c.text;
  }
  Interval ignored;
  for (const char* bad : {"", "1", "1 fortnight", "1:2", "00:60:00", "99999999999 months", "x",
                          "2562047:47:16.854776"}) {
    EXPECT_FALSE(ParseIntervalText(bad, &ignored)) << bad;
  }
  int64_t micros = 0;
  ASSERT_TRUE(ParseTimeTzText("12:34:56+05:30", &micros));
  EXPECT_EQ(micros, (7 * 3600 + 4 * 60 + 56) * 1000000LL);
  ASSERT_TRUE(ParseTimeTzText("01:00:00+05:30", &micros));  // wraps to the previous day
  EXPECT_EQ(micros, (19 * 3600 + 30 * 60) * 1000000LL);
  ASSERT_TRUE(ParseTimeTzText("23:00:00.5-05", &micros));
  EXPECT_EQ(micros, 4 * 3600 * 1000000LL + 500000);
  ASSERT_TRUE(ParseTimeTzText("00:00:00-15:59:59", &micros));
  EXPECT_EQ(micros, (15 * 3600 + 59 * 60 + 59) * 1000000LL);
  for (const char* bad : {"12:34:56", "+05", "12:34:56+5", "12:34:56+05:3", "25:00:00+00"}) {
    EXPECT_FALSE(ParseTimeTzText(bad, &micros)) << bad;
  }
}

// ---- The differential test against DuckDB ------------------------------------------------

struct GenType {
  enum Kind {
    kInt, kBigint, kUTiny, kBool, kDouble, kFloat, kDecimal, kVarchar, kBlob, kUuid, kDate,
    kTime, kTimestamp, kTimestampTz, kTimeTz, kInterval, kList, kStruct, kMap, kNumKinds
  };
  Kind kind = kInt;
  std::vector<std::pair<std::string, GenType>> children;  // list: one; map: key, value

  std::string Sql() const {
    static const char* kNames[] = {"INTEGER", "BIGINT", "UTINYINT", "BOOLEAN", "DOUBLE",
                                   "FLOAT", "DECIMAL(9,2)", "VARCHAR", "BLOB", "UUID", "DATE",
                                   "TIME", "TIMESTAMP", "TIMESTAMPTZ", "TIMETZ", "INTERVAL"};
    switch (kind) {
      case kList: return children[0].second.Sql() + "[]";
      case kMap: return "MAP(" + children[0].second.Sql() + ", " + children[1].second.Sql() + ")";
      case kStruct: {
        std::string out = "STRUCT(";
        for (size_t i = 0; i < children.size(); ++i) {
          if (i > 0) out += ", ";
          out += "\"" + children[i].first + "\" " + children[i].second.Sql();
        }
        return out + ")";
      }
      default: return kNames[kind];
    }
  }
};

GenType RandomGenType(std::mt19937_64& rng, int depth) {
  GenType type;
  const int scalar_kinds = GenType::kList;
  int pick = static_cast<int>(rng() % (depth > 0 ? GenType::kNumKinds + 3 : scalar_kinds));
  if (pick >= GenType::kNumKinds) pick = GenType::kList + (pick - GenType::kNumKinds);
  type.kind = static_cast<GenType::Kind>(pick);
  static const char* kFieldNames[] = {"a", "b c", "it's", "k:v", "[z]", "x_1", "Y", "{w}"};
  switch (type.kind) {
    case GenType::kList:
      type.children.emplace_back("", RandomGenType(rng, depth - 1));
      break;
    case GenType::kMap: {
      GenType key;
      key.kind = rng() % 2 ? GenType::kVarchar : GenType::kInt;
      type.children.emplace_back("key", key);
      type.children.emplace_back("value", RandomGenType(rng, depth - 1));
      break;
    }
    case GenType::kStruct: {
      std::set<int> used;
      const int fields = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < fields; ++f) {
        int name = static_cast<int>(rng() % 8);
        if (!used.insert(name).second) continue;
        type.children.emplace_back(kFieldNames[name], RandomGenType(rng, depth - 1));
      }
      break;
    }
    default:
      break;
  }
  return type;
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string RandomString(std::mt19937_64& rng) {
  static const char* kSpecial[] = {"NULL", "null", "", " x ", "a b", "é", "😀", "\\", "'"};
  if (rng() % 5 == 0) return kSpecial[rng() % 9];
  static const std::string kAlphabet = "ab ,'\"\\[]{}():=N\t";
  std::string s;
  const int length = static_cast<int>(rng() % 7);
  for (int i = 0; i < length; ++i) s += kAlphabet[rng() % kAlphabet.size()];
  return s;
}

std::string Format(const char* format, auto... args) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), format, args...);
  return buf;
}

std::string RandomLiteral(std::mt19937_64& rng, const GenType& type, bool allow_null) {
  if (allow_null && rng() % 7 == 0) return "NULL";
  auto between = [&](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  switch (type.kind) {
    case GenType::kInt: return std::to_string(static_cast<int32_t>(rng()));
    case GenType::kBigint: return std::to_string(static_cast<int64_t>(rng())) + "::BIGINT";
    case GenType::kUTiny: return std::to_string(rng() % 256) + "::UTINYINT";
    case GenType::kBool: return rng() % 2 ? "true" : "false";
    case GenType::kDouble:
    case GenType::kFloat: {
      static const char* kSpecial[] = {"nan", "-nan", "inf", "-inf", "-0.0", "0.0", "1e300"};
      std::string text = rng() % 3 == 0 ? kSpecial[rng() % 7]
                                        : Format("%.17g", static_cast<double>(
                                                              static_cast<int64_t>(rng() % 2000001) - 1000000) /
                                                              static_cast<double>(1 + rng() % 1000));
      return "CAST(" + Quote(text) + (type.kind == GenType::kFloat ? " AS FLOAT)" : " AS DOUBLE)");
    }
    case GenType::kDecimal:
      return Format("CAST('%" PRId64 ".%02" PRId64 "' AS DECIMAL(9,2))", between(-9999999, 9999999),
                    between(0, 99));
    case GenType::kVarchar: return Quote(RandomString(rng));
    case GenType::kBlob: {
      std::string text;
      const int length = static_cast<int>(rng() % 5);
      for (int i = 0; i < length; ++i) {
        text += rng() % 2 ? Format("\\x%02X", static_cast<unsigned>(rng() % 256))
                          : std::string(1, static_cast<char>('a' + rng() % 26));
      }
      return Quote(text) + "::BLOB";
    }
    case GenType::kUuid:
      return Format("'%08x-%04x-%04x-%04x-%012" PRIx64 "'::UUID", static_cast<unsigned>(rng()),
                    static_cast<unsigned>(rng() % 65536), static_cast<unsigned>(rng() % 65536),
                    static_cast<unsigned>(rng() % 65536), rng() % 0x1000000000000ULL);
    case GenType::kDate:
      return Format("DATE '%04" PRId64 "-%02" PRId64 "-%02" PRId64 "'", between(1, 9999),
                    between(1, 12), between(1, 28));
    case GenType::kTime:
      return Format("TIME '%02" PRId64 ":%02" PRId64 ":%02" PRId64 ".%06" PRId64 "'",
                    between(0, 23), between(0, 59), between(0, 59), between(0, 999999));
    case GenType::kTimestamp:
    case GenType::kTimestampTz:
      return Format("%s '%04" PRId64 "-%02" PRId64 "-%02" PRId64 " %02" PRId64 ":%02" PRId64
                    ":%02" PRId64 ".%06" PRId64 "%s'",
                    type.kind == GenType::kTimestamp ? "TIMESTAMP" : "TIMESTAMPTZ",
                    between(1, 9999), between(1, 12), between(1, 28), between(0, 23),
                    between(0, 59), between(0, 59), between(0, 999999),
                    type.kind == GenType::kTimestamp ? "" : (rng() % 2 ? "+05:30" : "-03"));
    case GenType::kTimeTz:
      return Format("TIMETZ '%02" PRId64 ":%02" PRId64 ":%02" PRId64 ".%03" PRId64
                    "%c%02" PRId64 ":%02" PRId64 "'",
                    between(0, 23), between(0, 59), between(0, 59), between(0, 999),
                    rng() % 2 ? '+' : '-', between(0, 15), between(0, 59));
    case GenType::kInterval:
      // Parquet keeps non-negative parts and milliseconds only (negative intervals are tested
      // on their own above).
      return Format("(to_months(%" PRId64 ") + to_days(%" PRId64 ") + to_microseconds(%" PRId64
                    "::BIGINT))",
                    between(0, 30), between(0, 400), between(0, 100000000) * 1000);
    case GenType::kList: {
      std::string out = "[";
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        if (i > 0) out += ", ";
        out += RandomLiteral(rng, type.children[0].second, true);
      }
      return out + "]";
    }
    case GenType::kStruct: {
      std::string out = "{";
      for (size_t i = 0; i < type.children.size(); ++i) {
        if (i > 0) out += ", ";
        out += Quote(type.children[i].first) + ": " +
               RandomLiteral(rng, type.children[i].second, true);
      }
      return out + "}";
    }
    case GenType::kMap: {
      std::set<std::string> keys;
      std::string out = "MAP {";
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        std::string key = RandomLiteral(rng, type.children[0].second, false);
        if (!keys.insert(key).second) continue;
        if (keys.size() > 1) out += ", ";
        out += key + ": " + RandomLiteral(rng, type.children[1].second, true);
      }
      return out + "}";
    }
    default:
      return "NULL";
  }
}

TEST(InlinedTextTest, DecodesRandomNestedValuesAsDuckDBPrintsThem) {
  std::mt19937_64 rng(20261130);
  testing::TempDir dir;
  constexpr int kTypes = 24;
  constexpr int kRows = 120;
  std::vector<std::string> type_sql;
  std::string script;
  for (int t = 0; t < kTypes; ++t) {
    GenType type;
    type.kind = t % 3 == 0 ? GenType::kList : t % 3 == 1 ? GenType::kStruct : GenType::kMap;
    // A nested outer type, with random nested or scalar children.
    GenType inner = RandomGenType(rng, 2);
    if (type.kind == GenType::kList) {
      type.children.emplace_back("", inner);
    } else if (type.kind == GenType::kStruct) {
      type.children.emplace_back("a", inner);
      type.children.emplace_back("b c", RandomGenType(rng, 1));
    } else {
      GenType key;
      key.kind = GenType::kVarchar;
      type.children.emplace_back("key", key);
      type.children.emplace_back("value", inner);
    }
    type_sql.push_back(type.Sql());
    const std::string table = "t" + std::to_string(t);
    script += "CREATE TABLE " + table + "(id INTEGER, v " + type.Sql() + ");\n";
    script += "INSERT INTO " + table + " VALUES ";
    for (int row = 0; row < kRows; ++row) {
      if (row > 0) script += ", ";
      script += "(" + std::to_string(row) + ", " + RandomLiteral(rng, type, row % 10 == 9) + ")";
    }
    script += ";\nCOPY (SELECT id, v, v::VARCHAR AS txt FROM " + table + " ORDER BY id) TO '" +
              dir.Join(table + ".parquet") + "' (FORMAT PARQUET);\n";
  }
  Status executed = testing::DuckDBExecute(script);
  ASSERT_TRUE(executed.ok()) << executed.ToString();

  int64_t compared = 0;
  for (int t = 0; t < kTypes; ++t) {
    SCOPED_TRACE(type_sql[t]);
    auto reader = ParquetReader::Open(LocalFileSystem(), dir.Join("t" + std::to_string(t) + ".parquet"));
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto batch = (*reader)->ReadAll();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_EQ((*batch)->num_rows, kRows);
    const Column& values = (*batch)->column(1);
    const Column& texts = (*batch)->column(2);
    int failures = 0;
    for (int64_t row = 0; row < kRows; ++row) {
      if (values.IsNull(row)) {
        EXPECT_TRUE(texts.IsNull(row));
        continue;
      }
      const std::string text(texts.GetView(row));
      Result<Value> decoded = DecodeInlinedText(text, values.type);
      const Value expected = values.GetValue(row);
      if (!decoded.ok() || *decoded != expected) {
        ADD_FAILURE() << "row " << row << ": " << text << "\n  expected " << expected.ToString()
                      << "\n  got " << (decoded.ok() ? decoded->ToString() : decoded.status().ToString());
        if (++failures >= 3) break;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, kTypes * kRows * 8 / 10);
}

// A list of JSON is read as DuckDB reads it back: as a JSON array, each element its JSON text
// (a string keeps its quotes) without the spaces between tokens; a bare NULL is a NULL
// element. A struct's JSON value is unquoted like text.
TEST(InlinedTextTest, JsonListsAreJsonArrays) {
  const DataType json(TypeId::kJson);
  auto j = [&](const char* text) { return Value::Bytes(json, text); };
  const DataType list = DataType::List(json);
  EXPECT_EQ(Decode("[\"é\", {\"k\":  1}, [1, 2], null, NULL, \"a, b\", \"q\\\"]\"]", list),
            Value::Nested(list, {j("\"é\""), j("{\"k\":1}"), j("[1,2]"), j("null"),
                                 Value::Null(json), j("\"a, b\""), j("\"q\\\"]\"")}));
  EXPECT_EQ(Decode(" [ ] ", list), Value::Nested(list, {}));
  for (const char* bad : {"[1, ]", "[\"x]", "[1 2", "[,1]", "x"}) {
    EXPECT_FALSE(DecodeInlinedText(bad, list).ok()) << bad;
  }
  const DataType st = DataType::Struct({Field("a", json), Field("b", json)});
  EXPECT_EQ(Decode("{'a': '\"x\"', 'b': 1}", st), Value::Nested(st, {j("\"x\""), j("1")}));
}

}  // namespace
}  // namespace tarn
