// The writer's encodings beyond PLAIN and dictionaries: every leaf of every writable type
// (flat and nested, with the edge values) written with DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY or BYTE_STREAM_SPLIT wherever the encoding fits its
// physical type, under page v1/v2, three codecs and tiny pages. Each file is read back by tarn
// (value by value, bit-exact, equal to the same table written PLAIN) and by DuckDB (EXCEPT ALL
// both ways against its reading of the PLAIN file) — DuckDB for the combinations it reads.
// Also: the per-column option, the DELTA_BINARY_PACKED fallback, and refused combinations.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "parquet/metadata.h"
#include "parquet/writer_schema.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/io.h"
#include "tarn/parquet.h"
#include "writer_test_util.h"

namespace tarn {
namespace {

using parquet::CompressionCodec;
using parquet::Encoding;
using parquet::PhysicalType;
using testing::GeneratedTable;
using testing::TempDir;

Result<WrittenFileInfo> WriteTable(const GeneratedTable& table, const std::string& path,
                                   std::shared_ptr<const WriterProperties> props) {
  TARN_ASSIGN_OR_RETURN(auto writer,
                        ParquetWriter::Open(LocalFileSystem(), path, *table.schema, props));
  for (int64_t offset = 0; offset < table.num_rows; offset += 70) {
    const int64_t length = std::min<int64_t>(70, table.num_rows - offset);
    TARN_RETURN_NOT_OK(writer->Write(*testing::MakeBatchFrom(table, offset, length)));
  }
  return writer->Finish();
}

bool Fits(Encoding encoding, PhysicalType physical) {
  switch (encoding) {
    case Encoding::kDeltaBinaryPacked:
      return physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64;
    case Encoding::kDeltaLengthByteArray:
      return physical == PhysicalType::kByteArray;
    case Encoding::kDeltaByteArray:
      return physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray;
    case Encoding::kByteStreamSplit:
      return physical == PhysicalType::kFloat || physical == PhysicalType::kDouble ||
             physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64 ||
             physical == PhysicalType::kFixedLenByteArray;
    default:
      return false;
  }
}

// What DuckDB 1.5 reads: BYTE_STREAM_SPLIT only for FLOAT and DOUBLE.
bool DuckDBReads(Encoding encoding, PhysicalType physical) {
  if (encoding == Encoding::kByteStreamSplit) {
    return physical == PhysicalType::kFloat || physical == PhysicalType::kDouble;
  }
  return true;
}

std::string Dotted(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& part : path) out += (out.empty() ? "" : ".") + part;
  return out;
}

// Reads every row of `path` with tarn as Values, row-major.
std::vector<std::vector<Value>> ReadRows(const std::string& path) {
  std::vector<std::vector<Value>> rows;
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return rows;
  auto batch = (*reader)->ReadAll();
  EXPECT_TRUE(batch.ok()) << path << ": " << batch.status().ToString();
  if (!batch.ok()) return rows;
  for (int64_t row = 0; row < (*batch)->num_rows; ++row) {
    std::vector<Value> values;
    for (const auto& column : (*batch)->columns) values.push_back(column->GetValue(row));
    rows.push_back(std::move(values));
  }
  return rows;
}

// The encodings in the file's footer, per leaf path, as "path:ENC,ENC".
std::map<std::string, std::set<Encoding>> FooterEncodings(const std::string& path) {
  std::map<std::string, std::set<Encoding>> out;
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  if (!reader.ok()) return out;
  for (const auto& row_group : (*reader)->metadata().row_groups) {
    for (const auto& chunk : row_group.columns) {
      for (Encoding encoding : chunk.meta_data->encodings) {
        out[Dotted(chunk.meta_data->path_in_schema)].insert(encoding);
      }
    }
  }
  return out;
}

struct Case {
  std::string name;
  std::string path;
  bool duckdb = true;
};

void RunEncodings(const Schema& schema, uint64_t seed) {
  GeneratedTable table = testing::GenerateTable(schema, 260, seed);
  auto writer_schema = parquet::BuildWriterSchema(schema);
  ASSERT_TRUE(writer_schema.ok());
  TempDir dir;
  const std::string plain_path = dir.Join("plain.parquet");
  auto plain_props = WriterProperties::Builder()
                         .dictionary_enabled(false)
                         .delta_fallback(false)
                         .data_page_rows(37)
                         .max_row_group_rows(150)
                         .Build();
  ASSERT_TRUE(plain_props.ok());
  ASSERT_TRUE(WriteTable(table, plain_path, *plain_props).ok());
  for (const auto& [leaf, encodings] : FooterEncodings(plain_path)) {
    ASSERT_EQ(encodings.count(Encoding::kRleDictionary), 0u) << leaf;
  }
  const std::vector<std::vector<Value>> expected = ReadRows(plain_path);
  ASSERT_EQ(static_cast<int64_t>(expected.size()), table.num_rows);

  std::vector<Case> cases;
  // BYTE_STREAM_SPLIT twice: on every leaf it fits (tarn only), and on the FLOAT/DOUBLE leaves
  // alone (DuckDB too).
  const std::pair<Encoding, bool> encodings[] = {
      {Encoding::kDeltaBinaryPacked, false}, {Encoding::kDeltaLengthByteArray, false},
      {Encoding::kDeltaByteArray, false},    {Encoding::kByteStreamSplit, false},
      {Encoding::kByteStreamSplit, true}};
  for (auto [encoding, duckdb_leaves_only] : encodings) {
    for (auto [codec, version] : {std::pair{CompressionCodec::kUncompressed, 1},
                                  std::pair{CompressionCodec::kSnappy, 2},
                                  std::pair{CompressionCodec::kZstd, 1}}) {
      WriterProperties::Builder builder;
      builder.compression(static_cast<int>(codec)).data_page_version(version).data_page_rows(37)
          .max_row_group_rows(150);
      Case test_case;
      test_case.name = StrCat(parquet::EncodingName(encoding), duckdb_leaves_only ? "_floats" : "",
                              "_", parquet::CodecName(codec), "_v", version);
      test_case.path = dir.Join(test_case.name + ".parquet");
      std::vector<std::string> encoded_leaves;
      for (const auto& leaf : writer_schema->leaves) {
        if (!Fits(encoding, leaf.physical)) continue;
        if (duckdb_leaves_only && !DuckDBReads(encoding, leaf.physical)) continue;
        builder.column_encoding(Dotted(leaf.path), static_cast<int>(encoding));
        encoded_leaves.push_back(Dotted(leaf.path));
        test_case.duckdb = test_case.duckdb && DuckDBReads(encoding, leaf.physical);
      }
      if (encoded_leaves.empty()) continue;
      auto props = builder.Build();
      ASSERT_TRUE(props.ok()) << props.status().ToString();
      auto info = WriteTable(table, test_case.path, *props);
      ASSERT_TRUE(info.ok()) << test_case.name << ": " << info.status().ToString();
      // The footer says every chosen leaf is encoded so.
      auto footer = FooterEncodings(test_case.path);
      for (const std::string& leaf : encoded_leaves) {
        EXPECT_EQ(footer[leaf].count(encoding), 1u) << test_case.name << " " << leaf;
      }
      // tarn reads it back exactly as the PLAIN file.
      const std::vector<std::vector<Value>> actual = ReadRows(test_case.path);
      ASSERT_EQ(actual.size(), expected.size()) << test_case.name;
      for (size_t row = 0; row < actual.size(); ++row) {
        for (size_t column = 0; column < actual[row].size(); ++column) {
          ASSERT_EQ(actual[row][column], expected[row][column])
              << test_case.name << " row " << row << " column "
              << table.schema->fields[column].name << ": " << actual[row][column].ToString()
              << " vs " << expected[row][column].ToString();
        }
      }
      cases.push_back(test_case);
    }
  }
  // DuckDB reads each file as it reads the PLAIN one.
  std::vector<std::string> queries;
  std::vector<std::string> names;
  for (const Case& test_case : cases) {
    if (!test_case.duckdb) continue;
    queries.push_back(StrCat("SET TimeZone='UTC'; SELECT (SELECT count(*) FROM (FROM read_parquet('",
                             test_case.path, "') EXCEPT ALL FROM read_parquet('", plain_path,
                             "'))) AS only_file, (SELECT count(*) FROM (FROM read_parquet('",
                             plain_path, "') EXCEPT ALL FROM read_parquet('", test_case.path,
                             "'))) AS only_plain, (SELECT count(*) FROM read_parquet('",
                             test_case.path, "')) AS n"));
    names.push_back(test_case.name);
  }
  ASSERT_FALSE(queries.empty());
  std::vector<Result<std::string>> answers = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), queries.size());
  for (size_t i = 0; i < answers.size(); ++i) {
    ASSERT_TRUE(answers[i].ok()) << names[i] << ": " << answers[i].status().ToString();
    EXPECT_EQ(*answers[i], StrCat("only_file,only_plain,n\n0,0,", table.num_rows, "\n"))
        << names[i];
  }
}

TEST(WriterEncodingTest, FlatTypesEveryEncodingReadByTarnAndDuckDB) {
  RunEncodings(testing::AllFlatTypesSchema(), 11);
}

TEST(WriterEncodingTest, NestedTypesEveryEncodingReadByTarnAndDuckDB) {
  RunEncodings(testing::NestedTypesSchema(), 12);
}

Schema IntSchema() {
  return Schema({Field("seq", DataType(TypeId::kInt64), false),
                 Field("rand", DataType(TypeId::kInt64), false),
                 Field("small", DataType(TypeId::kInt32), true)});
}

GeneratedTable IntTable(int64_t rows, uint64_t small_modulus = 100000) {
  GeneratedTable table;
  table.schema = std::make_shared<Schema>(IntSchema());
  table.num_rows = rows;
  table.columns.resize(3);
  std::mt19937_64 rng(7);
  for (int64_t row = 0; row < rows; ++row) {
    table.columns[0].push_back(Value::Int64(1000000 + row * 3));
    table.columns[1].push_back(Value::Int64(static_cast<int64_t>(rng())));
    table.columns[2].push_back(row % 10 == 0 ? Value::Null(DataType(TypeId::kInt32))
                                             : Value::Int(DataType(TypeId::kInt32),
                                                          static_cast<int64_t>(rng() % small_modulus)));
  }
  return table;
}

TEST(WriterEncodingTest, DeltaBinaryPackedWhereItPays) {
  GeneratedTable table = IntTable(50000);
  TempDir dir;
  // Unique integers: the dictionary falls back; sequential ones pay for DELTA_BINARY_PACKED,
  // random 64-bit ones do not.
  const std::string path = dir.Join("fallback.parquet");
  auto props = WriterProperties::Builder().Build();
  ASSERT_TRUE(WriteTable(table, path, *props).ok());
  auto footer = FooterEncodings(path);
  EXPECT_EQ(footer["seq"], (std::set<Encoding>{Encoding::kDeltaBinaryPacked}));
  EXPECT_EQ(footer["rand"], (std::set<Encoding>{Encoding::kPlain}));
  EXPECT_EQ(footer["small"].count(Encoding::kDeltaBinaryPacked), 1u);
  // Without the fallback: PLAIN.
  const std::string off_path = dir.Join("off.parquet");
  ASSERT_TRUE(
      WriteTable(table, off_path, *WriterProperties::Builder().delta_fallback(false).Build()).ok());
  footer = FooterEncodings(off_path);
  EXPECT_EQ(footer["seq"], (std::set<Encoding>{Encoding::kPlain}));
  EXPECT_EQ(footer["small"].count(Encoding::kDeltaBinaryPacked), 0u);
  // Both read back equal in tarn and in DuckDB.
  EXPECT_EQ(ReadRows(path), ReadRows(off_path));
  auto answer = testing::DuckDBQueryCsv(
      StrCat("SELECT (SELECT count(*) FROM (FROM read_parquet('", path,
             "') EXCEPT ALL FROM read_parquet('", off_path, "'))) AS a, (SELECT count(*) FROM ",
             "(FROM read_parquet('", off_path, "') EXCEPT ALL FROM read_parquet('", path,
             "'))) AS b, (SELECT sum(seq) FROM read_parquet('", path, "')) AS s"));
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  EXPECT_EQ(*answer, StrCat("a,b,s\n0,0,", 50000LL * 1000000 + 3LL * 50000 * 49999 / 2, "\n"));
}

TEST(WriterEncodingTest, PerColumnChoiceAndRefusals) {
  GeneratedTable table = IntTable(500, 10);
  TempDir dir;
  // A top-level name applies to its leaves; a dotted path wins over it; later calls replace.
  auto props = WriterProperties::Builder()
                   .column_encoding("rand", static_cast<int>(Encoding::kByteStreamSplit))
                   .column_encoding("seq", static_cast<int>(Encoding::kPlain))
                   .column_encoding("small", static_cast<int>(Encoding::kPlain))
                   .column_encoding("small", static_cast<int>(Encoding::kRleDictionary))
                   .Build();
  ASSERT_TRUE(props.ok());
  const std::string path = dir.Join("chosen.parquet");
  ASSERT_TRUE(WriteTable(table, path, *props).ok());
  auto footer = FooterEncodings(path);
  EXPECT_EQ(footer["rand"], (std::set<Encoding>{Encoding::kByteStreamSplit}));
  EXPECT_EQ(footer["seq"], (std::set<Encoding>{Encoding::kPlain}));
  EXPECT_EQ(footer["small"].count(Encoding::kRleDictionary), 1u);

  // An encoding that does not fit the column fails the write, naming it.
  auto strings = testing::GenerateTable(Schema({Field("s", DataType(TypeId::kVarchar))}), 10, 1);
  auto bad = WriteTable(
      strings, dir.Join("bad.parquet"),
      *WriterProperties::Builder().column_encoding("s", static_cast<int>(Encoding::kDeltaBinaryPacked)).Build());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find(
                "column 's': encoding DELTA_BINARY_PACKED cannot encode physical type BYTE_ARRAY"),
            std::string::npos)
      << bad.status().ToString();
  // Encodings that cannot encode data pages at all are refused when the properties are built.
  for (int encoding : {3, 4, 42}) {
    auto refused = WriterProperties::Builder().column_encoding("x", encoding).Build();
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find("writer property column_encoding: encoding " +
                                              std::to_string(encoding) + " for column 'x'"),
              std::string::npos)
        << refused.status().ToString();
  }
  EXPECT_FALSE(WriterProperties::Builder().column_encoding("", 0).Build().ok());
}

}  // namespace
}  // namespace tarn
