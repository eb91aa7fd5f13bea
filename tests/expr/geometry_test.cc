// GEOMETRY: WKT → WKB → WKT against DuckDB (text and error messages), exact WKB bytes, the
// geometry statistics JSON, corrupt WKB, and DuckDB reading a GEOMETRY column tarn wrote.
#include "columnar/geometry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expr/eval/cast.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

// The single value of DuckDB's one-column CSV answer, unquoted.
std::string CsvValue(const std::string& csv) {
  std::string value = csv.substr(csv.find('\n') + 1);
  while (!value.empty() && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    std::string unquoted;
    for (size_t i = 1; i + 1 < value.size(); ++i) {
      unquoted.push_back(value[i]);
      if (value[i] == '"') ++i;  // "" is one quote
    }
    value = unquoted;
  }
  return value;
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

const std::vector<std::string>& WktCases() {
  static const std::vector<std::string> cases = {
      "POINT (1 2)", "point(1.5 2e10)", "POINT Z (1 2 3)", "POINTZ(1 2 3)", "POINT M (1 2 3)",
      "POINT ZM (1 2 3 4)", "POINT EMPTY", "POINT Z EMPTY", "POINT (0.1 1e-7)",
      "POINT (123456789012345678 1e300)", "POINT (-0 3.0)", "POINT (1e15 1e16)",
      "POINT (0.30000000000000004 1e-5)", "POINT (0.0001 0.00001)", "POINT (nan inf)",
      "POINT (-inf 1e400)", "POINT (1.5e-320 5e-324)", "POINT (00012 1E2)", "POINT (1. 5e+2)",
      "  point  ( 1   2 )  ", "SRID=4326;POINT (1 2)", "POINT (1 2) trailing", "POINT EMPTYX",
      "LINESTRING (1 2)", "LINESTRING EMPTY", "LINESTRING Z (5 5 5, 10 10 10)",
      "LINESTRING M (0 0 1, 1 1 2)", "POLYGON ((0 0, 1 0, 1 1, 0 0), (0.1 0.1, 0.2 0.1, 0.2 0.2, 0.1 0.1))",
      "POLYGON Z EMPTY", "MULTIPOINT (1 2, 3 4)", "MULTIPOINT ((1 2), (3 4))",
      "MULTIPOINT (EMPTY, (1 2))", "MULTIPOINT EMPTY", "MULTIPOINT (EMPTY)",
      "MULTIPOINT Z ((1 2 3), EMPTY)", "MULTILINESTRING ((0 0, 1 1), EMPTY)",
      "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), EMPTY)", "MULTIPOLYGON Z (((0 0 0, 1 1 1, 0 0 0)))",
      "GEOMETRYCOLLECTION EMPTY", "GEOMETRYCOLLECTION Z (POINT Z (1 2 3))",
      "GEOMETRYCOLLECTION (POINT (1 2), GEOMETRYCOLLECTION (LINESTRING (0 0, 1 1)), POINT EMPTY)",
      "GEOMETRYCOLLECTION M (POINT M (1 2 3), LINESTRING M EMPTY)",
      // Malformed: DuckDB's message, offset included.
      "POINT", "POINT (1)", "POINT (1 2", "POINT (1 2 ", "FOO (1 2)", "", "POINT (a 2)",
      "POINT Z (1 2)", "POINT (1 2 3)", "POINT ZM (1 2 3)", "LINESTRING (1 2, 3 4 5)",
      "LINESTRING ()", "POLYGON (EMPTY)", "POINT (+1 .5)", "POINT (0x10 5)", "POINT (1e 1)",
      "POINT (1-2 1)", "POINT (--1 1)", "POINT (1,2)", "MULTIPOINT ((1 2) (3 4))",
      "GEOMETRYCOLLECTION (EMPTY)", "GEOMETRYCOLLECTION ()", "MULTIPOLYGON ((0 0, 1 1))",
      "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING M (0 0 1, 1 1 2))",
      "GEOMETRYCOLLECTION Z (POINT (1 2))", "SRID=abc;POINT (1 2)",
  };
  return cases;
}

TEST(GeometryTest, WktRoundTripMatchesDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& wkt : WktCases()) {
    queries.push_back("SELECT " + Quote(wkt) + "::GEOMETRY::VARCHAR AS v");
  }
  std::vector<Result<std::string>> answers = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), queries.size());
  for (size_t q = 0; q < queries.size(); ++q) {
    ASSERT_NE(answers[q].status().code(), StatusCode::kNotFound) << answers[q].status().ToString();
    const std::string& wkt = WktCases()[q];
    Result<std::string> wkb = geometry::WktToWkb(wkt);
    if (!answers[q].ok()) {
      ASSERT_FALSE(wkb.ok()) << wkt << " parsed, DuckDB says " << answers[q].status().message();
      // tarn's message is DuckDB's ("Invalid Input Error: Failed to parse geometry: ...").
      EXPECT_NE(answers[q].status().message().find(wkb.status().message()), std::string::npos)
          << wkt << "\n  tarn:   " << wkb.status().message()
          << "\n  DuckDB: " << answers[q].status().message();
      continue;
    }
    ASSERT_TRUE(wkb.ok()) << wkt << ": " << wkb.status().ToString();
    Result<std::string> text = geometry::WkbToWkt(*wkb);
    ASSERT_TRUE(text.ok()) << wkt << ": " << text.status().ToString();
    EXPECT_EQ(*text, CsvValue(*answers[q])) << wkt;
    // The text reads back to the same bytes.
    Result<std::string> again = geometry::WktToWkb(*text);
    ASSERT_TRUE(again.ok()) << *text;
    EXPECT_EQ(Hex(*again), Hex(*wkb)) << *text;
  }
}

TEST(GeometryTest, IsoWkbBytes) {
  EXPECT_EQ(Hex(*geometry::WktToWkb("POINT (1 2)")),
            "0101000000000000000000f03f0000000000000040");
  // Z, M and ZM add 1000, 2000 and 3000 to the type code.
  EXPECT_EQ(Hex(geometry::WktToWkb("POINT Z (1 2 3)")->substr(1, 4)), "e9030000");
  EXPECT_EQ(Hex(geometry::WktToWkb("POINT M (1 2 3)")->substr(1, 4)), "d1070000");
  EXPECT_EQ(Hex(geometry::WktToWkb("POINT ZM (1 2 3 4)")->substr(1, 4)), "b90b0000");
  // An empty point is NaN coordinates; an empty linestring a zero count.
  EXPECT_EQ(Hex(*geometry::WktToWkb("POINT EMPTY")),
            "0101000000000000000000f87f000000000000f87f");
  EXPECT_EQ(Hex(*geometry::WktToWkb("LINESTRING EMPTY")), "010200000000000000");
  // Big-endian WKB (as other writers produce) prints the same.
  const std::string big("\x00\x00\x00\x00\x01\x3f\xf0\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x00",
                        21);
  EXPECT_EQ(*geometry::WkbToWkt(big), "POINT (1 2)");
}

TEST(GeometryTest, OrderIsWkbBytes) {
  // DuckDB orders GEOMETRY by its WKB bytes.
  std::vector<std::string> sorted = {"POINT (0 0)", "POINT (1 2)", "POINT (-1 0)",
                                     "POINT ZM (-30 -30 -30 -30)", "POINT M (20 20 5)",
                                     "LINESTRING Z (5 5 5, 10 10 10)"};
  for (size_t i = 0; i + 1 < sorted.size(); ++i) {
    Value a = Value::Bytes(DataType(TypeId::kGeometry), *geometry::WktToWkb(sorted[i]));
    Value b = Value::Bytes(DataType(TypeId::kGeometry), *geometry::WktToWkb(sorted[i + 1]));
    EXPECT_LT(expr::CompareValues(a, b), 0) << sorted[i] << " < " << sorted[i + 1];
  }
}

TEST(GeometryTest, CastsAsDuckDB) {
  Result<Value> g = expr::CastValue(Value::Varchar("POINT(1 2)"), DataType(TypeId::kGeometry));
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  Result<Value> text = expr::CastValue(*g, DataType(TypeId::kVarchar));
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->GetBytes(), "POINT (1 2)");
  Result<Value> blob = expr::CastValue(*g, DataType(TypeId::kBlob));
  ASSERT_FALSE(blob.ok());
  EXPECT_EQ(blob.status().message(),
            "Conversion Error: Unimplemented type for cast (GEOMETRY -> BLOB)");
  Result<Value> from_blob =
      expr::CastValue(Value::Bytes(DataType(TypeId::kBlob), "x"), DataType(TypeId::kGeometry));
  ASSERT_FALSE(from_blob.ok());
  EXPECT_EQ(from_blob.status().message(),
            "Conversion Error: Unimplemented type for cast (BLOB -> GEOMETRY)");
  EXPECT_TRUE(expr::CastValue(Value::Varchar("POINT"), DataType(TypeId::kGeometry), true)
                  ->is_null());
}

TEST(GeometryTest, StatisticsJson) {
  geometry::GeometryStats stats;
  EXPECT_EQ(stats.ToJson(),
            "{\"bbox\": {\"xmin\": null, \"xmax\": null, \"ymin\": null, \"ymax\": null, "
            "\"zmin\": null, \"zmax\": null, \"mmin\": null, \"mmax\": null}, \"types\": []}");
  ASSERT_TRUE(stats.Add(*geometry::WktToWkb("POINT (1 2)")).ok());
  ASSERT_TRUE(stats.Add(*geometry::WktToWkb("POINT EMPTY")).ok());
  EXPECT_EQ(stats.ToJson(),
            "{\"bbox\": {\"xmin\": 1.000000, \"xmax\": 1.000000, \"ymin\": 2.000000, \"ymax\": "
            "2.000000, \"zmin\": null, \"zmax\": null, \"mmin\": null, \"mmax\": null}, "
            "\"types\": [\"point\"]}");
  geometry::GeometryStats other;
  ASSERT_TRUE(other.Add(*geometry::WktToWkb("LINESTRING Z (5 5 5, 10 10 10)")).ok());
  ASSERT_TRUE(other.Add(*geometry::WktToWkb("POINT ZM (-30 -30 -30 -30)")).ok());
  stats.Merge(other);
  const std::string json = stats.ToJson();
  EXPECT_EQ(json,
            "{\"bbox\": {\"xmin\": -30.000000, \"xmax\": 10.000000, \"ymin\": -30.000000, "
            "\"ymax\": 10.000000, \"zmin\": -30.000000, \"zmax\": 10.000000, \"mmin\": "
            "-30.000000, \"mmax\": -30.000000}, \"types\": [\"linestring_z\", \"point\", "
            "\"point_zm\"]}");
  std::optional<geometry::GeometryStats> parsed = geometry::GeometryStats::FromJson(json);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->ToJson(), json);
  EXPECT_EQ(parsed->TypeCodes(), (std::vector<int32_t>{1, 1002, 3001}));
  EXPECT_FALSE(geometry::GeometryStats::FromJson("[1, 2]").has_value());
}

TEST(GeometryTest, CorruptWkbIsAnErrorNotACrash) {
  const std::string wkb = *geometry::WktToWkb(
      "GEOMETRYCOLLECTION (POLYGON ((0 0, 1 0, 1 1, 0 0)), MULTIPOINT (1 2, EMPTY))");
  for (size_t length = 0; length < wkb.size(); ++length) {
    EXPECT_FALSE(geometry::WkbToWkt(wkb.substr(0, length)).ok()) << length;
    geometry::GeometryStats stats;
    EXPECT_FALSE(stats.Add(wkb.substr(0, length)).ok()) << length;
  }
  for (size_t at = 0; at < wkb.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = wkb;
      flipped[at] = static_cast<char>(flipped[at] ^ (1 << bit));
      (void)geometry::WkbToWkt(flipped);  // any answer but a crash
    }
  }
  // A huge count is refused before any loop runs.
  EXPECT_FALSE(geometry::WkbToWkt(std::string("\x01\x02\x00\x00\x00\xff\xff\xff\xff", 9)).ok());
}

TEST(GeometryTest, DuckDBReadsTarnGeometryFile) {
  testing::TempDir dir;
  const std::string path = dir.Join("geo.parquet");
  auto schema = std::make_shared<Schema>(
      std::vector<Field>{Field("g", DataType(TypeId::kGeometry), true)});
  ColumnBuilder builder{DataType(TypeId::kGeometry)};
  ASSERT_TRUE(builder.Append(Value::Bytes(DataType(TypeId::kGeometry),
                                          *geometry::WktToWkb("POINT (5 5)"))).ok());
  ASSERT_TRUE(builder.Append(Value::Null(DataType(TypeId::kGeometry))).ok());
  ASSERT_TRUE(builder.Append(Value::Bytes(DataType(TypeId::kGeometry),
                                          *geometry::WktToWkb("LINESTRING Z (1 2 3, 4 5 6)")))
                  .ok());
  auto batch = MakeBatch(schema, {builder.Finish()});
  batch->num_rows = 3;
  auto props = WriterProperties::Builder().Build();
  ASSERT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(LocalFileSystem(), path, *schema, *props);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  Result<WrittenFileInfo> info = (*writer)->Finish();
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ(info->columns.size(), 1u);
  EXPECT_EQ(info->columns[0].geometry_stats,
            "{\"bbox\": {\"xmin\": 1.000000, \"xmax\": 5.000000, \"ymin\": 2.000000, \"ymax\": "
            "5.000000, \"zmin\": 3.000000, \"zmax\": 6.000000, \"mmin\": null, \"mmax\": null}, "
            "\"types\": [\"linestring_z\", \"point\"]}");

  Result<std::string> rows = testing::DuckDBQueryCsv(
      "SELECT typeof(g) AS t, g::VARCHAR AS v FROM '" + path + "' ORDER BY v NULLS LAST");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows,
            "t,v\nGEOMETRY,\"LINESTRING Z (1 2 3, 4 5 6)\"\nGEOMETRY,POINT (5 5)\nGEOMETRY,\n");
  Result<std::string> meta = testing::DuckDBQueryCsv(
      "SELECT geo_bbox.xmin AS a, geo_bbox.xmax AS b, geo_bbox.zmax AS c, "
      "list_sort(geo_types)::VARCHAR AS d FROM parquet_metadata('" + path + "')");
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  EXPECT_EQ(*meta, "a,b,c,d\n1.0,5.0,6.0,\"[linestring_z, point]\"\n");
}

}  // namespace
}  // namespace tarn
