// A write transaction reads its own writes before any commit: inserts (files and inlined
// rows), deletes (inlined, delete files, whole files, rows of its own inserts), updates
// keeping rowids, NOT NULL and defaults, the change set it builds, and rollback removing every
// file it wrote. Runs on private copies of the fixture lakes.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "support/oracle.h"
#include "write_test_util.h"

namespace tarn {
namespace {

using write_testing::BatchOf;
using write_testing::ChangesOf;
using write_testing::FixtureLake;
using write_testing::ParquetFilesUnder;
using write_testing::ReaderOf;
using write_testing::ScanTxn;

Value I64(int64_t v) { return Value::Int64(v); }
Value F64(double v) { return Value::Float64(v); }
Value Str(const std::string& v) { return Value::Varchar(v); }

std::vector<ColumnDefinition> SmallColumns() {
  ColumnDefinition id{"id", DataType(TypeId::kInt64), false, std::nullopt};
  ColumnDefinition v{"v", DataType(TypeId::kVarchar), true, Str("dflt")};
  ColumnDefinition f{"f", DataType(TypeId::kFloat64), true, std::nullopt};
  return {id, v, f};
}

std::vector<Field> IdF() {
  return {Field("id", DataType(TypeId::kInt64)), Field("f", DataType(TypeId::kFloat64))};
}

TEST(ReadYourWritesTest, InsertDeleteUpdateInANewTable) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  WriteTransaction& t = **txn;
  ASSERT_TRUE(t.CreateTable("main", "w", SmallColumns()).ok());

  std::vector<std::vector<Value>> rows;
  for (int64_t i = 1; i <= 5; ++i) rows.push_back({I64(i), F64(1.5 * static_cast<double>(i))});
  auto reader = ReaderOf(BatchOf(IdF(), rows));
  auto inserted = t.Insert("main", "w", *reader);
  ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  EXPECT_EQ(inserted->rows, 5);
  EXPECT_EQ(inserted->files_written, 1);  // the fixture's inlining limit is 0
  ASSERT_EQ(ChangesOf<NewDataFile>(t.changes()).size(), 1u);
  const std::string table_dir = lake->data_path + "main/w/";
  ASSERT_EQ(ParquetFilesUnder(table_dir).size(), 1u);

  auto scanned = ScanTxn(t, "main", "w");
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  ASSERT_EQ(scanned->size(), 5u);
  int64_t expected_id = 1;
  for (const auto& [rowid, values] : *scanned) {
    EXPECT_EQ(values[0], I64(expected_id));
    EXPECT_EQ(values[1], Str("dflt"));
    EXPECT_EQ(values[2], F64(1.5 * static_cast<double>(expected_id)));
    ++expected_id;
  }

  auto deleted = t.Delete("main", "w", std::string("id = 2"));
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  EXPECT_EQ(deleted->rows, 1);
  // The pending file was rewritten without the row; the old one is gone.
  ASSERT_EQ(ChangesOf<NewDataFile>(t.changes()).size(), 1u);
  EXPECT_EQ(ChangesOf<NewDataFile>(t.changes())[0]->record_count, 4);
  EXPECT_EQ(ParquetFilesUnder(table_dir).size(), 1u);
  EXPECT_TRUE(ChangesOf<NewDeleteFile>(t.changes()).empty());

  auto updated = t.Update("main", "w", {{"f", "f * 10"}, {"v", "'u' || id"}},
                          std::string("id >= 4"));
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ(updated->rows, 2);
  scanned = ScanTxn(t, "main", "w");
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  std::map<int64_t, std::vector<Value>> by_id;
  for (const auto& [rowid, values] : *scanned) by_id[values[0].GetInt64()] = values;
  ASSERT_EQ(by_id.size(), 4u);
  EXPECT_EQ(by_id[1][2], F64(1.5));
  EXPECT_EQ(by_id[3][1], Str("dflt"));
  EXPECT_EQ(by_id[4][2], F64(60.0));
  EXPECT_EQ(by_id[4][1], Str("u4"));
  EXPECT_EQ(by_id[5][2], F64(75.0));
  EXPECT_EQ(by_id.count(2), 0u);

  // NOT NULL names the column; nothing changes.
  auto bad = ReaderOf(BatchOf(IdF(), {{Value::Null(DataType(TypeId::kInt64)), F64(1)}}));
  auto refused = t.Insert("main", "w", *bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "Constraint Error: NOT NULL constraint failed: w.id");
  // A column the table lacks.
  auto unknown = ReaderOf(BatchOf({Field("nope", DataType(TypeId::kInt32))},
                                  {{Value::Int(DataType(TypeId::kInt32), 1)}}));
  EXPECT_EQ(t.Insert("main", "w", *unknown).status().code(), StatusCode::kInvalidArgument);

  ASSERT_TRUE(t.Rollback().ok());
  EXPECT_TRUE(ParquetFilesUnder(table_dir).empty());
}

TEST(ReadYourWritesTest, DeletesOnCommittedFilesAreCumulative) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  WriteTransaction& t = **txn;
  auto before = ScanTxn(t, "main", "t");
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  auto start_table = t.LoadTable("main", "t");
  ASSERT_TRUE(start_table.ok());
  std::map<int64_t, std::string> old_delete_files;  // data file id -> path
  for (const DataFileInfo& file : (*start_table)->data_files) {
    if (file.delete_file) old_delete_files[file.data_file_id] = file.delete_file->path;
  }

  auto count_where = [&](int64_t modulus, int64_t rest) {
    int64_t n = 0;
    for (const auto& [rowid, values] : *before) {
      if (!values[0].is_null() && values[0].GetInt64() % modulus == rest) ++n;
    }
    return n;
  };
  auto first = t.Delete("main", "t", std::string("id % 5 = 1"));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->rows, count_where(5, 1));
  auto second = t.Delete("main", "t", std::string("id % 5 = 2"));
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->rows, count_where(5, 2));
  // Rows deleted earlier in the transaction stay deleted and are not counted again.
  auto again = t.Delete("main", "t", std::string("id % 5 = 1"));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->rows, 0);

  auto after = ScanTxn(t, "main", "t");
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  for (const auto& [rowid, values] : *before) {
    const bool gone = !values[0].is_null() && (values[0].GetInt64() % 5 == 1 ||
                                               values[0].GetInt64() % 5 == 2);
    EXPECT_EQ(after->count(rowid), gone ? 0u : 1u) << "rowid " << rowid;
  }

  // One delete file per touched data file, cumulative and sorted, replacing the old one.
  auto delete_files = ChangesOf<NewDeleteFile>(t.changes());
  ASSERT_FALSE(delete_files.empty());
  auto view = t.LoadTable("main", "t");
  ASSERT_TRUE(view.ok());
  for (const NewDeleteFile* change : delete_files) {
    std::string path;
    for (const DataFileInfo& file : (*view)->data_files) {
      if (file.data_file_id == change->data_file_id) path = file.delete_file->path;
    }
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(path, (*view)->table->path + change->path);
    const bool had_old = old_delete_files.count(change->data_file_id) > 0;
    EXPECT_EQ(change->replaces_delete_file_id.has_value(), had_old);
    std::string sql = "SELECT count(*) AS n, count(DISTINCT pos) AS d, "
                      "bool_and(pos > coalesce(prev, -1)) AS sorted FROM (SELECT pos, "
                      "lag(pos) OVER (ORDER BY file_row_number) AS prev FROM read_parquet('" +
                      path + "', file_row_number = true))";
    auto stats = testing::DuckDBQueryCsv(sql);
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    EXPECT_EQ(*stats, "n,d,sorted\n" + std::to_string(change->delete_count) + "," +
                          std::to_string(change->delete_count) + ",true\n");
    auto ids = testing::DuckDBQueryCsv(
        "SELECT string_agg(field_id::VARCHAR, ' ' ORDER BY name) AS ids FROM parquet_schema('" +
        path + "') WHERE name IN ('file_path', 'pos')");
    ASSERT_TRUE(ids.ok()) << ids.status().ToString();
    EXPECT_EQ(*ids, "ids\n2147483646 2147483645\n");
    if (had_old) {
      auto missing = testing::DuckDBQueryCsv(
          "SELECT count(*) AS missing FROM (SELECT pos FROM read_parquet('" +
          old_delete_files[change->data_file_id] + "') EXCEPT SELECT pos FROM read_parquet('" +
          path + "'))");
      ASSERT_TRUE(missing.ok()) << missing.status().ToString();
      EXPECT_EQ(*missing, "missing\n0\n");
    }
  }
  // Only the current delete files remain on disk: the fixture's plus one per change.
  auto count_delete_files = [](const std::string& dir) {
    size_t n = 0;
    for (const std::string& file : ParquetFilesUnder(dir)) {
      n += file.find("-delete.parquet") != std::string::npos ? 1 : 0;
    }
    return n;
  };
  const size_t delete_files_on_disk =
      count_delete_files(lake->data_path) -
      count_delete_files(testing::SharedPath("fixtures/ducklake/basic/data"));
  EXPECT_EQ(delete_files_on_disk, delete_files.size());
  ASSERT_TRUE(t.Rollback().ok());
}

TEST(ReadYourWritesTest, UpdateKeepsRowIdsAndWholeFileDeleteEndsIt) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  WriteTransaction& t = **txn;
  auto before = ScanTxn(t, "main", "t", std::string("id IN (3, 4, 20050)"));
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  ASSERT_EQ(before->size(), 3u);

  auto updated = t.Update("main", "t", {{"s", "'changed ' || id"}}, std::string("id IN (3, 4)"));
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ(updated->rows, 2);
  auto rewritten = ChangesOf<NewDataFile>(t.changes());
  ASSERT_EQ(rewritten.size(), 1u);
  EXPECT_TRUE(rewritten[0]->embeds_row_ids);
  auto after = ScanTxn(t, "main", "t", std::string("id IN (3, 4, 20050)"));
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  ASSERT_EQ(after->size(), 3u);
  for (const auto& [rowid, values] : *before) {
    ASSERT_EQ(after->count(rowid), 1u) << "rowid " << rowid << " lost by the update";
    const auto& now = after->at(rowid);
    const int64_t id = values[0].GetInt64();
    for (size_t c = 0; c < values.size(); ++c) {
      if (c == 9 && id != 20050) {
        EXPECT_EQ(now[c], Str("changed " + std::to_string(id)));
      } else {
        EXPECT_EQ(now[c], values[c]) << "column " << c << " of id " << id;
      }
    }
  }
  // The rewrite carries the rowids DuckDB sees as _ducklake_internal_row_id.
  auto view = t.LoadTable("main", "t");
  ASSERT_TRUE(view.ok());
  const std::string file = (*view)->table->path + rewritten[0]->path;
  auto ids = testing::DuckDBQueryCsv(
      "SELECT string_agg(_ducklake_internal_row_id::VARCHAR, ' ' ORDER BY id) AS r FROM "
      "read_parquet('" + file + "')");
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  std::string expected = "r\n";
  for (const auto& [rowid, values] : *before) {
    if (values[0].GetInt64() != 20050) expected += std::to_string(rowid) + " ";
  }
  expected.back() = '\n';
  EXPECT_EQ(*ids, expected);

  // The late file holds exactly ids 20000..20099: deleting them ends the file.
  auto deleted = t.Delete("main", "t", std::string("id >= 20000 AND id < 20100"));
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  EXPECT_EQ(deleted->rows, 100);
  EXPECT_EQ(deleted->files_written, 0);
  auto ended = ChangesOf<EndDataFile>(t.changes());
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0]->data_file_id, 14);
  ASSERT_TRUE(t.Rollback().ok());
}

TEST(ReadYourWritesTest, InliningThresholdsOverTheTransaction) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  WriteTransaction& t = **txn;
  ASSERT_TRUE(t.SetOption("data_inlining_row_limit", "10").ok());
  ASSERT_TRUE(t.CreateTable("main", "w", SmallColumns()).ok());
  auto insert = [&](int64_t first, int64_t count) {
    std::vector<std::vector<Value>> rows;
    for (int64_t i = first; i < first + count; ++i) {
      rows.push_back({I64(i), F64(static_cast<double>(i))});
    }
    auto reader = ReaderOf(BatchOf(IdF(), rows));
    auto result = t.Insert("main", "w", *reader);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? result->files_written : -1;
  };
  EXPECT_EQ(insert(0, 4), 0);
  EXPECT_EQ(insert(4, 6), 0);
  auto inlined = ChangesOf<InlinedInsert>(t.changes());
  ASSERT_EQ(inlined.size(), 1u);
  EXPECT_EQ(inlined[0]->rows->num_rows, 10);
  EXPECT_FALSE(inlined[0]->row_ids.has_value());
  auto scanned = ScanTxn(t, "main", "w", std::string("id >= 2"));
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  EXPECT_EQ(scanned->size(), 8u);
  // Each statement decides for its own rows, as the extension's does: one more row is
  // inlined though the transaction then holds 11; a statement of more rows than the limit
  // goes to a file and leaves the earlier inlined rows where they are.
  EXPECT_EQ(insert(10, 1), 0);
  inlined = ChangesOf<InlinedInsert>(t.changes());
  ASSERT_EQ(inlined.size(), 1u);
  EXPECT_EQ(inlined[0]->rows->num_rows, 11);
  EXPECT_EQ(insert(11, 11), 1);
  inlined = ChangesOf<InlinedInsert>(t.changes());
  ASSERT_EQ(inlined.size(), 1u);
  EXPECT_EQ(inlined[0]->rows->num_rows, 11);
  ASSERT_EQ(ChangesOf<NewDataFile>(t.changes()).size(), 1u);
  EXPECT_EQ(ChangesOf<NewDataFile>(t.changes())[0]->record_count, 11);
  scanned = ScanTxn(t, "main", "w");
  ASSERT_TRUE(scanned.ok());
  EXPECT_EQ(scanned->size(), 22u);

  // Few deletions from a committed file are inlined; more become a delete file.
  auto few = t.Delete("main", "t", std::string("id IN (20001, 20002, 20003)"));
  ASSERT_TRUE(few.ok()) << few.status().ToString();
  EXPECT_EQ(few->rows, 3);
  auto inlined_deletes = ChangesOf<InlinedFileDeletes>(t.changes());
  ASSERT_EQ(inlined_deletes.size(), 1u);
  EXPECT_EQ(inlined_deletes[0]->data_file_id, 14);
  EXPECT_EQ(inlined_deletes[0]->positions, (std::vector<int64_t>{1, 2, 3}));
  auto more = t.Delete("main", "t", std::string("id BETWEEN 20010 AND 20019"));
  ASSERT_TRUE(more.ok());
  EXPECT_TRUE(ChangesOf<InlinedFileDeletes>(t.changes()).empty());
  auto files = ChangesOf<NewDeleteFile>(t.changes());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0]->delete_count, 13);
  scanned = ScanTxn(t, "main", "t", std::string("id >= 20000 AND id < 20100"));
  ASSERT_TRUE(scanned.ok());
  EXPECT_EQ(scanned->size(), 87u);

  // A column named like an inlined-table column is refused while inlining is on; with the
  // schema's limit at 0 the table is created and never inlines.
  ColumnDefinition row_id{"row_id", DataType(TypeId::kInt64), true, std::nullopt};
  EXPECT_EQ(t.CreateTable("main", "r", {row_id}).message(),
            "Binder Error: Column name \"row_id\" is reserved by DuckLake for internal use when "
            "data inlining is enabled. If you must use this column name, disable inlining by "
            "calling ducklake_set_option('data_inlining_row_limit', 0).");
  ASSERT_TRUE(t.SetOption("data_inlining_row_limit", "0", std::string("main"), std::nullopt).ok());
  ASSERT_TRUE(t.CreateTable("main", "r", {row_id}).ok());
  auto reader = ReaderOf(BatchOf({Field("row_id", DataType(TypeId::kInt64))}, {{I64(7)}}));
  auto result = t.Insert("main", "r", *reader);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->files_written, 1);
  ASSERT_TRUE(t.Rollback().ok());
}

TEST(ReadYourWritesTest, FloatPredicatesSeeNaNAndInfinities) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok());
  WriteTransaction& t = **txn;
  ASSERT_TRUE(t.CreateTable("main", "w", SmallColumns()).ok());
  const double nan = std::nan("");
  std::vector<std::vector<Value>> rows = {
      {I64(1), F64(nan)}, {I64(2), F64(-nan)}, {I64(3), F64(INFINITY)}, {I64(4), F64(-INFINITY)},
      {I64(5), F64(1.0)}, {I64(6), F64(-0.0)}, {I64(7), Value::Null(DataType(TypeId::kFloat64))}};
  auto reader = ReaderOf(BatchOf(IdF(), rows));
  ASSERT_TRUE(t.Insert("main", "w", *reader).ok());
  // NaN of either sign is above every number, as in DuckDB.
  auto above = t.Delete("main", "w", std::string("f > 1e300"));
  ASSERT_TRUE(above.ok()) << above.status().ToString();
  EXPECT_EQ(above->rows, 3);
  auto zero = t.Delete("main", "w", std::string("f = 0"));
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->rows, 1);
  auto left = ScanTxn(t, "main", "w");
  ASSERT_TRUE(left.ok());
  std::vector<int64_t> ids;
  for (const auto& [rowid, values] : *left) ids.push_back(values[0].GetInt64());
  EXPECT_EQ(ids, (std::vector<int64_t>{4, 5, 7}));
}

}  // namespace
}  // namespace tarn
