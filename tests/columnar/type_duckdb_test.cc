// Differential test of the type spellings against DuckDB (the npm oracle in tools/oracle):
// DuckDB's typeof(NULL::<our spelling>) must print exactly our spelling, and ParseSqlType must
// read DuckDB's spelling back.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "support/test_util.h"
#include "support/random_data.h"
#include "tarn/type.h"

namespace tarn {
namespace {

// Runs `SELECT typeof(NULL::<type>)` for each line of `types` in one DuckDB process; returns
// one output line per input ("ERR ..." on failure).
std::vector<std::string> DuckDbTypeOf(const std::vector<std::string>& types) {
  const std::string dir = tarn::testing::BinaryDir();
  const std::string script = dir + "/columnar_typeof.js";
  const std::string input = dir + "/columnar_typeof_input.json";
  {
    std::ofstream out(script);
    out << "const duckdb = require('@duckdb/node-api');\n"
           "const types = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));\n"
           "(async () => {\n"
           "  const db = await duckdb.DuckDBInstance.create(':memory:');\n"
           "  const c = await db.connect();\n"
           "  for (const t of types) {\n"
           "    try {\n"
           "      const r = await c.runAndReadAll(`SELECT typeof(NULL::${t}) AS t`);\n"
           "      console.log(JSON.stringify(r.getRowObjectsJson()[0].t));\n"
           "    } catch (e) { console.log(JSON.stringify('ERR ' + e.message.split('\\n')[0])); }\n"
           "  }\n"
           "})();\n";
  }
  {
    // Each type as a JSON string.
    std::ofstream out(input);
    out << "[";
    for (size_t i = 0; i < types.size(); ++i) {
      out << (i > 0 ? "," : "") << '"';
      for (unsigned char c : types[i]) {
        if (c == '"' || c == '\\') out << '\\';
        out << c;
      }
      out << '"';
    }
    out << "]";
  }
  const std::string command = "cd '" + tarn::testing::OracleDir() + "' && NODE_PATH='" +
                              tarn::testing::OracleDir() + "/node_modules' node '" + script + "' '" +
                              input + "'";
  std::vector<std::string> lines;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return lines;
  std::string current;
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) {
    current += buffer;
    if (!current.empty() && current.back() == '\n') {
      current.pop_back();
      // Undo JSON string escaping of \" and \\ (the only escapes these outputs need).
      std::string text;
      for (size_t i = 1; i + 1 < current.size(); ++i) {
        if (current[i] == '\\' && i + 2 < current.size()) ++i;
        text += current[i];
      }
      lines.push_back(text);
      current.clear();
    }
  }
  pclose(pipe);
  return lines;
}

void StripToSql(DataType* type, bool is_map_entry = false) {
  for (size_t child_idx = 0; child_idx < type->children.size(); ++child_idx) {
    Field& field = type->children[child_idx];
    field.field_id.reset();
    StripToSql(&field.type, type->id == TypeId::kMap);
    if (!(type->id == TypeId::kMap || (is_map_entry && child_idx == 0))) field.nullable = true;
  }
}

TEST(TypeDuckDbTest, SpellingMatchesDuckDb) {
  std::mt19937_64 rng(2025);
  std::vector<DataType> types;
  for (int iteration = 0; iteration < 300; ++iteration) types.push_back(testing::RandomType(rng, 2));
  // Field names DuckDB must quote (keywords of every category, non-ASCII, punctuation) or not.
  std::vector<Field> names;
  for (const char* name : {"select", "key", "value", "type", "name", "year", "left", "int", "X", "_x",
                           "a1", "1a", "a b", "Ünï", "q\"uote", "MixedCase", "order"}) {
    names.emplace_back(name, DataType(TypeId::kInt32));
  }
  types.push_back(DataType::Struct(names));
  std::vector<std::string> spellings;
  for (const DataType& type : types) spellings.push_back(type.ToString());
  std::vector<std::string> duckdb = DuckDbTypeOf(spellings);
  ASSERT_EQ(duckdb.size(), spellings.size()) << "the DuckDB oracle did not answer";
  for (size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(duckdb[i], spellings[i]);
    DataType expected = types[i];
    StripToSql(&expected);
    Result<DataType> parsed = ParseSqlType(duckdb[i]);
    ASSERT_TRUE(parsed.ok()) << duckdb[i] << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, expected) << duckdb[i];
  }
}

}  // namespace
}  // namespace tarn
