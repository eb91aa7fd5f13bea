// CsvReader: type sniffing against DuckDB's read_csv, round trips through CsvWriter, and the
// errors for malformed input.
#include <gtest/gtest.h>

#include <random>

#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/format.h"

namespace tarn {
namespace {

Result<std::string> ReadBack(const std::string& text, CsvReadOptions options = {}) {
  TARN_ASSIGN_OR_RETURN(auto reader, CsvReader::FromString(text, "t.csv", std::move(options)));
  std::string out;
  StringSink sink(&out);
  TARN_RETURN_NOT_OK(WriteCsv(reader.get(), &sink));
  return out;
}

std::string SchemaText(const std::string& text) {
  auto reader = CsvReader::FromString(text, "t.csv");
  if (!reader.ok()) return reader.status().ToString();
  return (*reader)->schema()->ToString();
}

TEST(CsvReaderTest, SniffsLikeDuckDB) {
  const std::string text =
      "a,b,c,d,e,f,g,h,i,j,k,,a\n"
      "1,1.5,true,2020-01-01,2020-01-01 01:02:03,x,,1,T,0,1e5,7,8\n"
      "-2,3,FALSE,2021-12-31,2020-01-01T01:02:03.123456,\"y,z\",,2.0,f,1,-.5,9,10\n";
  testing::TempDir dir;
  const std::string path = dir.Join("s.csv");
  ASSERT_TRUE(LocalFileSystem()->WriteFile(path, text).ok());
  // DuckDB's column names and types, and its CSV of what it read.
  auto duck_types = testing::DuckDBQueryCsv(
      "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_csv('" + path + "'))");
  ASSERT_TRUE(duck_types.ok()) << duck_types.status().ToString();
  auto reader = CsvReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::string ours = "column_name,column_type\n";
  for (const Field& field : (*reader)->schema()->fields) {
    ours += field.name + "," + field.type.ToString() + "\n";
  }
  EXPECT_EQ(*duck_types, ours);
  auto duck_csv = testing::DuckDBQueryCsv("SELECT * FROM read_csv('" + path + "')");
  ASSERT_TRUE(duck_csv.ok());
  auto our_csv = ReadBack(text);
  ASSERT_TRUE(our_csv.ok()) << our_csv.status().ToString();
  EXPECT_EQ(*duck_csv, *our_csv);
}

TEST(CsvReaderTest, RandomRoundTrip) {
  std::mt19937_64 rng(99);
  for (int iteration = 0; iteration < 50; ++iteration) {
    // Random strings of awkward characters and integers; write, read back, write again.
    std::string text = "s,n\n";
    const int rows = static_cast<int>(rng() % 20) + 1;
    ColumnBuilder strings(DataType(TypeId::kVarchar));
    ColumnBuilder numbers(DataType(TypeId::kInt64));
    const std::string alphabet = "ab ,\"\n\r#x'";
    for (int row = 0; row < rows; ++row) {
      std::string s;
      const int length = static_cast<int>(rng() % 6);
      for (int i = 0; i < length; ++i) s += alphabet[rng() % alphabet.size()];
      if (rng() % 5 == 0) {
        strings.AppendNull();
      } else {
        strings.AppendBytes(s);
      }
      numbers.AppendNumber(static_cast<int64_t>(rng()));
    }
    auto schema = std::make_shared<const Schema>(std::vector<Field>{
        Field("s", DataType(TypeId::kVarchar)), Field("n", DataType(TypeId::kInt64))});
    auto batch = MakeBatch(schema, {strings.Finish(), numbers.Finish()});
    std::string written;
    StringSink sink(&written);
    CsvWriter writer(&sink);
    ASSERT_TRUE(writer.Write(*batch).ok());
    CsvReadOptions options;
    options.schema = *schema;
    auto reader = CsvReader::FromString(written, "rt.csv", options);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString() << "\n" << written;
    auto read = (*reader)->Next();
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_NE(*read, nullptr);
    ASSERT_EQ((*read)->num_rows, rows);
    for (int c = 0; c < 2; ++c) {
      for (int64_t row = 0; row < rows; ++row) {
        EXPECT_EQ(batch->column(c).GetValue(row), (*read)->column(c).GetValue(row))
            << "row " << row << " of\n" << written;
      }
    }
  }
}

TEST(CsvReaderTest, HeaderNames) {
  EXPECT_EQ(SchemaText("a,,a\n1,2,3\n"), Schema({Field("a", DataType(TypeId::kInt64)),
                                                 Field("column1", DataType(TypeId::kInt64)),
                                                 Field("a_1", DataType(TypeId::kInt64))})
                                              .ToString());
}

TEST(CsvReaderTest, ErrorsNameFileLineAndColumn) {
  auto unclosed = CsvReader::FromString("a,b\n1,\"x\n2,3\n", "bad.csv");
  ASSERT_FALSE(unclosed.ok());
  EXPECT_EQ(unclosed.status().ToString(),
            "Corruption: bad.csv: line 2, column 2: quoted field is not closed before the end of "
            "the file");
  auto ragged = CsvReader::FromString("a,b\n1,2\n3\n", "bad.csv");
  ASSERT_FALSE(ragged.ok());
  EXPECT_EQ(ragged.status().ToString(), "Corruption: bad.csv: line 3: expected 2 fields, found 1");
  auto after_quote = CsvReader::FromString("a\n\"x\"y\n", "bad.csv");
  ASSERT_FALSE(after_quote.ok());
  EXPECT_EQ(after_quote.status().ToString(),
            "Corruption: bad.csv: line 2, column 1: unexpected character after a closing quote");
  CsvReadOptions options;
  options.schema = Schema({Field("d", DataType(TypeId::kDate))});
  auto reader = CsvReader::FromString("d\n2020-01-01\n2020-02-30\n", "dates.csv", options);
  ASSERT_TRUE(reader.ok());
  auto batch = (*reader)->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().ToString(),
            "Invalid argument: dates.csv: line 3, column 'd': cannot parse '2020-02-30' as DATE");
}

}  // namespace
}  // namespace tarn
