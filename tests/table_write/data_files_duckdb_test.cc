// DuckDB reads the data files a write transaction writes exactly as the rows inserted, for
// every DuckLake type (flat and nested, with the edge values), under the default options and
// under table options (zstd, page v2, small row groups, a small target_file_size that splits
// the insert into several files); the files carry field ids = column ids, and their catalog
// statistics match the data (counts from DuckDB, bounds from the inserted values).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "expr/eval/cast.h"
#include "parquet/writer_test_util.h"
#include "support/oracle.h"
#include "write_test_util.h"

namespace tarn {
namespace {

using testing::GeneratedTable;
using testing::QuoteIdent;
using testing::SqlLiteral;
using write_testing::ChangesOf;
using write_testing::FixtureLake;

std::vector<ColumnDefinition> DefinitionsOf(const Schema& schema) {
  std::vector<ColumnDefinition> out;
  for (const Field& field : schema.fields) {
    out.push_back({field.name, field.type, field.nullable, std::nullopt});
  }
  return out;
}

void CollectIds(const ColumnInfo& column, std::vector<int64_t>* ids) {
  ids->push_back(column.column_id);
  for (const ColumnInfo& child : column.children) CollectIds(child, ids);
}

std::string ValuesSql(const GeneratedTable& table) {
  std::ostringstream sql;
  sql << "SELECT * FROM (VALUES ";
  for (int64_t row = 0; row < table.num_rows; ++row) {
    sql << (row > 0 ? ",\n(" : "(");
    for (size_t c = 0; c < table.columns.size(); ++c) {
      if (c > 0) sql << ", ";
      sql << SqlLiteral(table.columns[c][row], table.schema->fields[c].type);
    }
    sql << ")";
  }
  sql << ") v(";
  for (size_t c = 0; c < table.columns.size(); ++c) {
    sql << (c > 0 ? ", " : "") << QuoteIdent(table.schema->fields[c].name);
  }
  return sql.str() + ")";
}

struct Variant {
  std::string name;
  std::vector<std::pair<std::string, std::string>> options;
  bool expect_split = false;
};

void RunVariant(const Schema& schema, const Variant& variant, uint64_t seed) {
  SCOPED_TRACE(variant.name);
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  WriteTransaction& t = **txn;
  ASSERT_TRUE(t.CreateTable("main", "every", DefinitionsOf(schema)).ok());
  for (const auto& [key, value] : variant.options) {
    // Table options need a committed table; the global scope resolves the same way.
    Status set = t.SetOption(key, value);
    ASSERT_TRUE(set.ok()) << set.ToString();
  }
  const int64_t rows = 400;
  GeneratedTable table = testing::GenerateTable(schema, rows, seed);
  std::vector<std::shared_ptr<Batch>> batches{testing::MakeBatchFrom(table, 0, 150),
                                              testing::MakeBatchFrom(table, 150, rows - 150)};
  auto reader = MakeVectorReader(table.schema, batches);
  auto inserted = t.Insert("main", "every", *reader);
  ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  ASSERT_EQ(inserted->rows, rows);
  auto files = ChangesOf<NewDataFile>(t.changes());
  ASSERT_FALSE(files.empty());
  if (variant.expect_split) {
    EXPECT_GT(files.size(), 1u);
  } else {
    EXPECT_EQ(files.size(), 1u);
  }
  auto view = t.LoadTable("main", "every");
  ASSERT_TRUE(view.ok());
  const TableInfo& info = *(*view)->table;
  std::vector<int64_t> ids;
  for (const ColumnInfo& column : info.columns) CollectIds(column, &ids);
  std::sort(ids.begin(), ids.end());
  std::string expected_ids = "ids\n";
  for (int64_t id : ids) expected_ids += std::to_string(id) + " ";
  expected_ids.back() = '\n';

  std::string list = "[";
  int64_t total = 0;
  std::vector<std::string> queries;
  for (const NewDataFile* file : files) {
    const std::string path = info.path + file->path;
    EXPECT_EQ(file->path.rfind("ducklake-", 0), 0u);
    list += (list.size() > 1 ? ", '" : "'") + path + "'";
    total += file->record_count;
    queries.push_back("SELECT string_agg(field_id::VARCHAR, ' ' ORDER BY field_id) AS ids FROM "
                      "parquet_schema('" + path + "') WHERE field_id IS NOT NULL");
    // Non-NULL and NULL counts of every flat column, as the catalog records them.
    std::string counts = "SELECT ";
    std::string expected = "";
    bool any = false;
    for (const ColumnInfo& column : info.columns) {
      if (column.type.IsNested()) continue;
      const NewFileColumnStats* stats = nullptr;
      for (const auto& entry : file->column_stats) {
        if (entry.column_id == column.column_id) stats = &entry;
      }
      ASSERT_NE(stats, nullptr) << column.name;
      counts += std::string(any ? " || ';' || " : "") + "count(" + QuoteIdent(column.name) +
                ") || '/' || (count(*) - count(" + QuoteIdent(column.name) + "))";
      expected += std::string(any ? ";" : "") + std::to_string(stats->value_count) + "/" +
                  std::to_string(stats->null_count);
      any = true;
      EXPECT_EQ(stats->contains_nan.has_value(), column.type.IsFloating()) << column.name;
    }
    if (any) {
      queries.push_back(counts + " AS c FROM read_parquet('" + path + "')");
      queries.push_back("SELECT '" + expected + "' AS c");
    }
  }
  list += "]";
  EXPECT_EQ(total, rows);
  const std::string compare =
      "SET TimeZone='UTC'; CREATE TEMP TABLE e AS " + ValuesSql(table) +
      "; CREATE TEMP TABLE f AS FROM read_parquet(" + list + ");" +
      " SELECT (SELECT count(*) FROM (FROM f EXCEPT ALL FROM e)) AS only_file, "
      "(SELECT count(*) FROM (FROM e EXCEPT ALL FROM f)) AS only_expected, "
      "(SELECT count(*) FROM f) AS n";
  queries.insert(queries.begin(), compare);
  auto results = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_TRUE(results[0].ok()) << results[0].status().ToString().substr(0, 3000);
  EXPECT_EQ(*results[0], "only_file,only_expected,n\n0,0," + std::to_string(rows) + "\n");
  for (size_t i = 1; i < results.size();) {
    ASSERT_TRUE(results[i].ok()) << results[i].status().ToString();
    if (results[i]->rfind("ids\n", 0) == 0) {
      EXPECT_EQ(*results[i], expected_ids);
      ++i;
    } else {
      ASSERT_TRUE(results[i + 1].ok());
      EXPECT_EQ(*results[i], *results[i + 1]);
      i += 2;
    }
  }

  // Bounds are exact: the min and max of the non-NULL, non-NaN values written to each file.
  int64_t offset = 0;
  for (const NewDataFile* file : files) {
    for (size_t c = 0; c < info.columns.size(); ++c) {
      const ColumnInfo& column = info.columns[c];
      const NewFileColumnStats* stats = nullptr;
      for (const auto& entry : file->column_stats) {
        if (entry.column_id == column.column_id) stats = &entry;
      }
      if (stats == nullptr || !stats->min.has_value()) continue;
      std::optional<Value> min;
      std::optional<Value> max;
      for (int64_t row = offset; row < offset + file->record_count; ++row) {
        const Value& value = table.columns[c][row];
        if (value.is_null() || (column.type.IsFloating() && std::isnan(value.GetDouble()))) {
          continue;
        }
        if (!min || expr::CompareValues(value, *min) < 0) min = value;
        if (!max || expr::CompareValues(value, *max) > 0) max = value;
      }
      ASSERT_TRUE(min.has_value()) << column.name;
      EXPECT_EQ(expr::CompareValues(*stats->min, *min), 0)
          << column.name << ": " << stats->min->ToString() << " vs " << min->ToString();
      ASSERT_TRUE(stats->max.has_value()) << column.name;
      EXPECT_EQ(expr::CompareValues(*stats->max, *max), 0)
          << column.name << ": " << stats->max->ToString() << " vs " << max->ToString();
    }
    offset += file->record_count;
  }
  ASSERT_TRUE(t.Rollback().ok());
}

std::vector<Variant> Variants() {
  return {{"defaults", {}, false},
          {"zstd_v2_small",
           {{"parquet_compression", "zstd"},
            {"parquet_compression_level", "5"},
            {"parquet_version", "V2"},
            {"parquet_row_group_size", "64"},
            {"target_file_size", "5000"}},
           true}};
}

TEST(DataFilesDuckDBTest, EveryFlatType) {
  for (const Variant& variant : Variants()) RunVariant(testing::AllFlatTypesSchema(), variant, 11);
}

TEST(DataFilesDuckDBTest, NestedTypes) {
  for (const Variant& variant : Variants()) RunVariant(testing::NestedTypesSchema(), variant, 12);
}

TEST(DataFilesDuckDBTest, OptionsAreValidated) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok());
  Status bad = (*txn)->SetOption("parquet_compression", "lzma");
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument) << bad.ToString();
  bad = (*txn)->SetOption("target_file_size", "big");
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument) << bad.ToString();
  EXPECT_TRUE((*txn)->changes().empty());
}

}  // namespace
}  // namespace tarn
