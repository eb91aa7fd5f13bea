// Committed writes read back: insert, delete and update round trips at every snapshot,
// rowids preserved across updates (files and inlined rows), inlining thresholds, file
// splitting at a small target_file_size, NaN/-NaN/±inf values with predicates touching them
// on committed files, and the files of a failed commit removed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "write_test_util.h"

namespace tarn {
namespace {

using write_testing::BatchOf;
using write_testing::ChangesOf;
using write_testing::EmptyLake;
using write_testing::ParquetFilesUnder;
using write_testing::ReaderOf;
using write_testing::ScanAt;
using write_testing::ScanTxn;
using write_testing::TestLake;

using Rows = std::map<int64_t, std::vector<Value>>;

Value I64(int64_t v) { return Value::Int64(v); }
Value F64(double v) { return Value::Float64(v); }
Value Str(const std::string& v) { return Value::Varchar(v); }

std::vector<ColumnDefinition> Columns() {
  return {{"id", DataType(TypeId::kInt64), false, std::nullopt},
          {"s", DataType(TypeId::kVarchar), true, std::nullopt},
          {"f", DataType(TypeId::kFloat64), true, std::nullopt}};
}
std::vector<Field> Fields() {
  return {Field("id", DataType(TypeId::kInt64)), Field("s", DataType(TypeId::kVarchar)),
          Field("f", DataType(TypeId::kFloat64))};
}

std::vector<std::vector<Value>> MakeRows(int64_t first, int64_t count) {
  std::vector<std::vector<Value>> rows;
  for (int64_t i = first; i < first + count; ++i) {
    rows.push_back({I64(i), Str("s" + std::to_string(i)), F64(static_cast<double>(i) / 4)});
  }
  return rows;
}

Result<int64_t> CommitOk(std::unique_ptr<WriteTransaction> txn) {
  TARN_ASSIGN_OR_RETURN(CommitResult result, txn->Commit());
  return result.snapshot.snapshot_id;
}

Result<std::unique_ptr<WriteTransaction>> Begin(TestLake& lake) {
  return WriteTransaction::Begin(*lake.lake, LocalFileSystem());
}

// Runs insert → delete → update on a lake with the given inlining limit and checks every
// snapshot against a model keyed by rowid.
void RoundTrip(std::optional<int64_t> limit, int64_t rows_per_insert) {
  auto lake = EmptyLake(limit);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  std::map<int64_t, Rows> expected;  // snapshot -> rows

  auto txn = Begin(*lake);
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  ASSERT_TRUE((*txn)->CreateTable("main", "t", Columns()).ok());
  auto reader = ReaderOf(BatchOf(Fields(), MakeRows(0, rows_per_insert)));
  ASSERT_TRUE((*txn)->Insert("main", "t", *reader).ok());
  auto s1 = CommitOk(std::move(*txn));
  ASSERT_TRUE(s1.ok()) << s1.status().ToString();
  auto rows = ScanAt(*lake->lake, *s1, "main", "t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), static_cast<size_t>(rows_per_insert));
  std::map<int64_t, int64_t> rowid_of;  // id -> rowid
  for (const auto& [rowid, values] : *rows) rowid_of[values[0].GetInt64()] = rowid;
  expected[*s1] = *rows;

  txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  auto deleted = (*txn)->Delete("main", "t", std::string("id % 3 = 0"));
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  auto s2 = CommitOk(std::move(*txn));
  ASSERT_TRUE(s2.ok()) << s2.status().ToString();
  Rows after_delete = expected[*s1];
  std::erase_if(after_delete, [](const auto& e) { return e.second[0].GetInt64() % 3 == 0; });
  EXPECT_EQ(deleted->rows, static_cast<int64_t>(expected[*s1].size() - after_delete.size()));
  expected[*s2] = after_delete;

  txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  auto updated = (*txn)->Update("main", "t", {{"s", "'u' || id"}, {"f", "f * 2"}},
                                std::string("id % 5 = 1"));
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  auto s3 = CommitOk(std::move(*txn));
  ASSERT_TRUE(s3.ok()) << s3.status().ToString();
  Rows after_update = after_delete;
  for (auto& [rowid, values] : after_update) {
    const int64_t id = values[0].GetInt64();
    if (id % 5 != 1) continue;
    values[1] = Str("u" + std::to_string(id));
    values[2] = F64(values[2].GetDouble() * 2);
  }
  expected[*s3] = after_update;

  // A second transaction inserting more and deleting part of both old and new rows.
  txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  reader = ReaderOf(BatchOf(Fields(), MakeRows(100000, rows_per_insert)));
  ASSERT_TRUE((*txn)->Insert("main", "t", *reader).ok());
  auto mixed = (*txn)->Delete("main", "t", std::string("id % 7 = 2"));
  ASSERT_TRUE(mixed.ok()) << mixed.status().ToString();
  auto s4 = CommitOk(std::move(*txn));
  ASSERT_TRUE(s4.ok()) << s4.status().ToString();

  for (const auto& [snapshot, want] : expected) {
    auto got = ScanAt(*lake->lake, snapshot, "main", "t");
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, want) << "snapshot " << snapshot;
  }
  // Rowids survive the update.
  auto at3 = ScanAt(*lake->lake, *s3, "main", "t");
  ASSERT_TRUE(at3.ok());
  for (const auto& [rowid, values] : *at3) {
    EXPECT_EQ(rowid_of[values[0].GetInt64()], rowid);
  }
  auto at4 = ScanAt(*lake->lake, *s4, "main", "t");
  ASSERT_TRUE(at4.ok());
  size_t old_rows = 0;
  size_t new_rows = 0;
  for (const auto& [rowid, values] : *at4) {
    const int64_t id = values[0].GetInt64();
    EXPECT_NE(id % 7, 2);
    if (id >= 100000) {
      ++new_rows;
    } else {
      ++old_rows;
      EXPECT_EQ(after_update.at(rowid), values);
    }
  }
  size_t kept_old = 0;
  for (const auto& [rowid, values] : after_update) kept_old += values[0].GetInt64() % 7 != 2;
  EXPECT_EQ(old_rows, kept_old);
  int64_t kept_new = 0;
  for (int64_t i = 100000; i < 100000 + rows_per_insert; ++i) kept_new += i % 7 != 2;
  EXPECT_EQ(static_cast<int64_t>(new_rows), kept_new);
}

TEST(CommitRoundTripTest, FilesInsertDeleteUpdate) { RoundTrip(0, 1000); }

TEST(CommitRoundTripTest, InlinedInsertDeleteUpdate) { RoundTrip(std::nullopt, 8); }

TEST(CommitRoundTripTest, SmallTargetFileSizeSplitsFiles) {
  auto lake = EmptyLake(0);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  ASSERT_TRUE((*txn)->CreateTable("main", "t", Columns()).ok());
  ASSERT_TRUE(CommitOk(std::move(*txn)).ok());
  txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  ASSERT_TRUE((*txn)->SetOption("target_file_size", "16384", "main", "t").ok());
  ASSERT_TRUE(CommitOk(std::move(*txn)).ok());
  ASSERT_TRUE(lake->Reopen().ok());  // options are read when the lake opens
  txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  auto reader = ReaderOf(BatchOf(Fields(), MakeRows(0, 20000)));
  auto inserted = (*txn)->Insert("main", "t", *reader);
  ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  EXPECT_GT(inserted->files_written, 3);
  auto snapshot = CommitOk(std::move(*txn));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  auto loaded = lake->lake->LoadSnapshot(SnapshotSelector::Id(*snapshot));
  ASSERT_TRUE(loaded.ok());
  auto metadata = lake->lake->LoadTable(**loaded, (*loaded)->FindTable("main", "t")->table_id);
  ASSERT_TRUE(metadata.ok());
  EXPECT_EQ(static_cast<int64_t>((*metadata)->data_files.size()), inserted->files_written);
  int64_t expected_row_id = 0;
  for (const DataFileInfo& file : (*metadata)->data_files) {
    EXPECT_LE(file.file_size_bytes, 16384 + 16384) << file.path;  // one slice of overshoot
    EXPECT_EQ(file.row_id_start.value_or(-1), expected_row_id);
    expected_row_id += file.record_count;
  }
  auto rows = ScanAt(*lake->lake, *snapshot, "main", "t");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 20000u);
  for (const auto& [rowid, values] : *rows) EXPECT_EQ(values[0], I64(rowid));
}

TEST(CommitRoundTripTest, NaNAndInfinitiesUnderPredicatesOnCommittedFiles) {
  auto lake = EmptyLake(0);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  const double nan = std::nan("");
  const std::vector<double> values = {nan, -nan, INFINITY, -INFINITY, -0.0, 0.0, 1.5, -2.5};
  auto txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  ASSERT_TRUE((*txn)->CreateTable("main", "t", Columns()).ok());
  ASSERT_TRUE(CommitOk(std::move(*txn)).ok());
  // One file per value so that file statistics could prune (and must not, wrongly).
  for (size_t i = 0; i < values.size(); ++i) {
    txn = Begin(*lake);
    ASSERT_TRUE(txn.ok());
    auto reader = ReaderOf(BatchOf(Fields(), {{I64(static_cast<int64_t>(i)), Str("x"),
                                                F64(values[i])},
                                               {I64(100 + static_cast<int64_t>(i)), Str("y"),
                                                F64(1.0)}}));
    ASSERT_TRUE((*txn)->Insert("main", "t", *reader).ok());
    ASSERT_TRUE(CommitOk(std::move(*txn)).ok());
  }
  struct Case {
    std::string predicate;
    std::vector<int64_t> ids;  // of the first rows (id < 100) that match
  };
  // DuckDB order: NaN of either sign above +inf, -0.0 = 0.0.
  const std::vector<Case> cases = {{"f > 1e300", {0, 1, 2}},
                                   {"f < -1e300", {3}},
                                   {"f = 0", {4, 5}},
                                   {"f <> f", {}},
                                   {"isnan(f)", {0, 1}},
                                   {"f >= CAST('inf' AS DOUBLE)", {0, 1, 2}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.predicate);
    txn = Begin(*lake);
    ASSERT_TRUE(txn.ok());
    auto before = ScanTxn(**txn, "main", "t");
    ASSERT_TRUE(before.ok());
    auto deleted = (*txn)->Delete("main", "t", c.predicate + " AND id < 100");
    ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
    EXPECT_EQ(deleted->rows, static_cast<int64_t>(c.ids.size()));
    auto snapshot = CommitOk(std::move(*txn));
    ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
    if (*snapshot < 0) {  // nothing deleted: no snapshot
      EXPECT_TRUE(c.ids.empty());
      continue;
    }
    auto after = ScanAt(*lake->lake, *snapshot, "main", "t");
    ASSERT_TRUE(after.ok()) << after.status().ToString();
    std::vector<int64_t> gone;
    for (const auto& [rowid, row] : *before) {
      if (after->count(rowid) == 0) gone.push_back(row[0].GetInt64());
    }
    std::sort(gone.begin(), gone.end());
    EXPECT_EQ(gone, c.ids);
    // Put the rows back for the next case.
    txn = Begin(*lake);
    ASSERT_TRUE(txn.ok());
    std::vector<std::vector<Value>> again;
    for (int64_t id : c.ids) again.push_back({I64(id), Str("x"), F64(values[id])});
    if (!again.empty()) {
      auto reader = ReaderOf(BatchOf(Fields(), again));
      ASSERT_TRUE((*txn)->Insert("main", "t", *reader).ok());
      ASSERT_TRUE(CommitOk(std::move(*txn)).ok());
    }
  }
}

TEST(CommitRoundTripTest, FailedCommitRemovesItsFiles) {
  auto lake = EmptyLake(0);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = Begin(*lake);
  ASSERT_TRUE(txn.ok());
  ASSERT_TRUE((*txn)->CreateTable("main", "t", Columns()).ok());
  auto reader = ReaderOf(BatchOf(Fields(), MakeRows(0, 100)));
  ASSERT_TRUE((*txn)->Insert("main", "t", *reader).ok());
  ASSERT_TRUE(CommitOk(std::move(*txn)).ok());
  const size_t files_before = ParquetFilesUnder(lake->data_path).size();

  // Two transactions delete from the same data file; the second to commit conflicts.
  auto first = Begin(*lake);
  auto second = Begin(*lake);
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_TRUE((*first)->Delete("main", "t", std::string("id < 50")).ok());
  ASSERT_TRUE((*second)->Delete("main", "t", std::string("id >= 60")).ok());
  EXPECT_EQ(ParquetFilesUnder(lake->data_path).size(), files_before + 2);
  ASSERT_TRUE(CommitOk(std::move(*first)).ok());
  auto lost = (*second)->Commit();
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.status().code(), StatusCode::kConflict) << lost.status().ToString();
  EXPECT_EQ(ParquetFilesUnder(lake->data_path).size(), files_before + 1);

  // Destroying an uncommitted transaction rolls it back.
  {
    auto abandoned = Begin(*lake);
    ASSERT_TRUE(abandoned.ok());
    auto more = ReaderOf(BatchOf(Fields(), MakeRows(1000, 100)));
    ASSERT_TRUE((*abandoned)->Insert("main", "t", *more).ok());
    EXPECT_EQ(ParquetFilesUnder(lake->data_path).size(), files_before + 2);
  }
  EXPECT_EQ(ParquetFilesUnder(lake->data_path).size(), files_before + 1);
}

}  // namespace
}  // namespace tarn
