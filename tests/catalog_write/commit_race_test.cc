// Concurrent commits: logical conflicts between two transactions from one start snapshot,
// two processes committing 200 times each on one lake, and a crash (process exit) at every
// commit step leaving the lake at the old or the new snapshot.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "write_test_util.h"

namespace tarn {
namespace {

using testing::MakeColumn;
using testing::MustCommit;
using testing::QueryRows;
using testing::Rows;
using testing::RowsText;
using testing::TempDir;

NewDataFile DataFile(int64_t table_id, std::string path, int64_t rows) {
  NewDataFile f;
  f.table_id = table_id;
  f.path = std::move(path);
  f.record_count = rows;
  f.file_size_bytes = rows * 8;
  f.footer_size = 10;
  f.column_stats = {{1, rows * 8, rows, 0, Value::Int64(rows), Value::Int64(rows * 2),
                     std::nullopt, std::nullopt, {}}};
  return f;
}

// A lake with table main.t (id 1, one BIGINT column) and one data file (id 0).
std::unique_ptr<Lake> LakeWithTable(const TempDir& dir) {
  auto lake = testing::MakeLake(dir, 0);
  if (lake == nullptr) return nullptr;
  LakeChanges create;
  create.Add(CreateTableChange{create.NewProvisionalId(), 0, "t",
                               {MakeColumn(1, "a", DataType(TypeId::kInt64))}});
  MustCommit(*lake, create);
  LakeChanges insert;
  insert.Add(DataFile(1, "first.parquet", 10));
  MustCommit(*lake, insert);
  LakeChanges second;
  second.Add(DataFile(1, "second.parquet", 10));
  MustCommit(*lake, second);
  return lake;
}

LakeChanges Changes(LakeChange change) {
  LakeChanges changes;
  changes.Add(std::move(change));
  return changes;
}

TEST(CommitRaceTest, InsertAfterConcurrentDropConflicts) {
  TempDir dir;
  auto lake = LakeWithTable(dir);
  ASSERT_NE(lake, nullptr);
  const int64_t start = testing::LatestId(*lake);
  MustCommit(*lake, Changes(DropTableChange{1}), start);
  auto r = CommitLakeChanges(*lake, start, Changes(DataFile(1, "late.parquet", 5)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kConflict);
  EXPECT_EQ(r.status().message(),
            "Transaction conflict: insert into table main.t (inserted_into_table:1) conflicts "
            "with snapshot 4 (dropped_table:1), which dropped the table");
  EXPECT_EQ(testing::LatestId(*lake), 4);
  EXPECT_EQ(QueryRows(dir.Join("lake.sqlite"),
                      "SELECT count(*) FROM ducklake_data_file WHERE path = 'late.parquet'")[0][0],
            "0");
}

TEST(CommitRaceTest, DeletesOfTheSameFileConflictOtherFilesDoNot) {
  TempDir dir;
  auto lake = LakeWithTable(dir);
  ASSERT_NE(lake, nullptr);
  const int64_t start = testing::LatestId(*lake);
  auto del = [](int64_t file, std::string path) {
    return Changes(NewDeleteFile{1, file, std::move(path), 1, 50, 10, std::nullopt});
  };
  MustCommit(*lake, del(0, "d0.parquet"), start);
  // Another data file of the same table: fine.
  CommitResult other = MustCommit(*lake, del(1, "d1.parquet"), start);
  EXPECT_EQ(other.attempts, 1);
  EXPECT_EQ(other.snapshot.snapshot_id, 5);
  // The same data file: Conflict naming both.
  auto r = CommitLakeChanges(*lake, start, del(0, "d0-again.parquet"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kConflict);
  EXPECT_EQ(r.status().message(),
            "Transaction conflict: delete from table main.t (deleted_from_table:1) conflicts "
            "with snapshot 4 (deleted_from_table:1), which deleted from the same data file 0 "
            "(a delete file)");
  // Ending a whole file that another transaction deleted from also conflicts.
  auto end = CommitLakeChanges(*lake, start, Changes(EndDataFile{1, 1}));
  ASSERT_FALSE(end.ok());
  EXPECT_NE(end.status().message().find("snapshot 5"), std::string::npos)
      << end.status().message();
  // Inserting into a table another transaction deleted from conflicts (as in DuckLake).
  auto insert = CommitLakeChanges(*lake, start, Changes(DataFile(1, "x.parquet", 1)));
  EXPECT_EQ(insert.status().code(), StatusCode::kConflict);
  auto loaded = lake->LoadSnapshot();
  ASSERT_TRUE(loaded.ok());
  auto table = lake->LoadTable(**loaded, 1);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->FileRowCount(), 18);
}

TEST(CommitRaceTest, ConcurrentInsertsBothCommitWithDisjointRowIds) {
  TempDir dir;
  auto lake = LakeWithTable(dir);
  ASSERT_NE(lake, nullptr);
  const int64_t start = testing::LatestId(*lake);
  CommitResult a = MustCommit(*lake, Changes(DataFile(1, "a.parquet", 7)), start);
  LakeChanges both;
  NewDataFile b = DataFile(1, "b.parquet", 5);
  b.provisional_id = both.NewProvisionalId();
  both.Add(b);
  CommitResult r = MustCommit(*lake, both, start);
  EXPECT_EQ(r.snapshot.snapshot_id, a.snapshot.snapshot_id + 1);
  EXPECT_EQ(r.id_mapping.at(b.provisional_id), 3);
  EXPECT_EQ(RowsText(QueryRows(dir.Join("lake.sqlite"),
                               "SELECT data_file_id, row_id_start, record_count FROM "
                               "ducklake_data_file ORDER BY 1")),
            "0|0|10\n1|10|10\n2|20|7\n3|27|5\n");
  EXPECT_EQ(RowsText(QueryRows(dir.Join("lake.sqlite"), "SELECT * FROM ducklake_table_stats")),
            "1|32|32|256\n");
  EXPECT_EQ(RowsText(QueryRows(dir.Join("lake.sqlite"),
                               "SELECT min_value, max_value FROM ducklake_table_column_stats")),
            "'5'|'20'\n");
}

TEST(CommitRaceTest, ConcurrentAltersAndCreatesOfOneName) {
  TempDir dir;
  auto lake = LakeWithTable(dir);
  ASSERT_NE(lake, nullptr);
  const int64_t start = testing::LatestId(*lake);
  MustCommit(*lake, Changes(AddColumnChange{1, MakeColumn(2, "b", DataType(TypeId::kInt32))}),
             start);
  auto alter = CommitLakeChanges(
      *lake, start, Changes(AddColumnChange{1, MakeColumn(2, "c", DataType(TypeId::kInt32))}));
  EXPECT_EQ(alter.status().code(), StatusCode::kConflict);
  EXPECT_NE(alter.status().message().find("(altered_table:1)"), std::string::npos);

  const int64_t start2 = testing::LatestId(*lake);
  LakeChanges one, two;
  one.Add(CreateTableChange{one.NewProvisionalId(), 0, "U", {MakeColumn(1, "a", DataType(TypeId::kInt32))}});
  two.Add(CreateTableChange{two.NewProvisionalId(), 0, "u", {MakeColumn(1, "a", DataType(TypeId::kInt32))}});
  MustCommit(*lake, one, start2);
  auto same_name = CommitLakeChanges(*lake, start2, two);
  EXPECT_EQ(same_name.status().code(), StatusCode::kConflict);
  EXPECT_NE(same_name.status().message().find("created_table:\"main\".\"U\""),
            std::string::npos)
      << same_name.status().message();
}

// Two processes, 200 commits each, on one catalog: every commit lands exactly once, ids and
// row ranges stay dense and disjoint.
TEST(CommitRaceTest, TwoProcessesTwoHundredCommitsEach) {
  TempDir dir;
  {
    auto lake = LakeWithTable(dir);
    ASSERT_NE(lake, nullptr);
  }
  const int kCommits = 200;
  std::vector<pid_t> children;
  for (int p = 0; p < 2; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      LakeOpenOptions options;
      options.read_only = false;
      auto lake = Lake::Open(dir.Join("lake.sqlite"), options);
      if (!lake.ok()) ::_exit(2);
      CommitOptions commit;
      commit.retry_wait_ms = 2;
      commit.max_retries = 100;
      commit.author = StrCat("process ", p);
      for (int i = 0; i < kCommits; ++i) {
        auto start = (*lake)->FindSnapshot(SnapshotSelector::Latest());
        if (!start.ok()) ::_exit(3);
        LakeChanges changes;
        changes.Add(DataFile(1, StrCat("p", p, "-", i, ".parquet"), 1 + (i % 5)));
        auto r = CommitLakeChanges(**lake, start->snapshot_id, changes, commit);
        if (!r.ok()) {
          std::fprintf(stderr, "commit %d of process %d: %s\n", i, p,
                       r.status().ToString().c_str());
          ::_exit(4);
        }
      }
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  const std::string db = dir.Join("lake.sqlite");
  const int total = 3 + 2 * kCommits;  // snapshots 0..3 exist before the race
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT count(*), min(snapshot_id), max(snapshot_id), "
                                   "max(next_file_id) FROM ducklake_snapshot")),
            StrCat(total + 1, "|0|", total, "|", 2 + 2 * kCommits, "\n"));
  EXPECT_EQ(QueryRows(db, "SELECT count(*) FROM ducklake_snapshot_changes WHERE author = "
                          "'process 1'")[0][0],
            StrCat(kCommits));
  // Data file ids 0..N-1 once each; row ranges contiguous.
  Rows files = QueryRows(db, "SELECT data_file_id, row_id_start, record_count, begin_snapshot "
                             "FROM ducklake_data_file ORDER BY row_id_start");
  ASSERT_EQ(files.size(), static_cast<size_t>(2 + 2 * kCommits));
  int64_t next_row = 0, next_snapshot = 2;
  std::set<int64_t> ids;
  for (const auto& f : files) {
    EXPECT_EQ(std::stoll(f[1]), next_row);
    next_row += std::stoll(f[2]);
    EXPECT_EQ(std::stoll(f[3]), next_snapshot++);  // one file per snapshot, in order
    ids.insert(std::stoll(f[0]));
  }
  EXPECT_EQ(ids.size(), files.size());
  EXPECT_EQ(*ids.rbegin(), static_cast<int64_t>(files.size()) - 1);
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT record_count, next_row_id FROM ducklake_table_stats")),
            StrCat(next_row, "|", next_row, "\n"));
  auto lake = Lake::Open(db);
  ASSERT_TRUE(lake.ok());
  auto snapshot = (*lake)->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto table = (*lake)->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ((*table)->FileRowCount(), next_row);
}

// A process killed at each step of a commit leaves the lake at the old or the new snapshot;
// the lake opens, loads, and takes the next commit.
TEST(CommitRaceTest, CrashAtEveryCommitStep) {
  const char* const kSteps[] = {"begin", "read",  "catalog_rows",  "data_rows",
                                "stats", "snapshot", "before_commit", "after_commit"};
  for (const char* step : kSteps) {
    SCOPED_TRACE(step);
    TempDir dir;
    {
      auto lake = LakeWithTable(dir);
      ASSERT_NE(lake, nullptr);
    }
    const std::string db = dir.Join("lake.sqlite");
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::setenv("TARN_COMMIT_CRASH_AT", step, 1);
      LakeOpenOptions options;
      options.read_only = false;
      auto lake = Lake::Open(db, options);
      if (!lake.ok()) ::_exit(2);
      LakeChanges changes;
      changes.Add(CreateSchemaChange{changes.NewProvisionalId(), "s"});
      changes.Add(DataFile(1, "crash.parquet", 4));
      changes.Add(NewDeleteFile{1, 0, "crash-delete.parquet", 2, 10, 5, std::nullopt});
      auto r = CommitLakeChanges(**lake, 3, changes);
      ::_exit(r.ok() ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 86);  // stopped at the step

    const bool committed = std::string(step) == "after_commit";
    {
      // A reader sees the old or the new snapshot even before a writer rolls the journal back.
      auto reader = Lake::Open(db);
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      auto seen = (*reader)->LoadSnapshot();
      ASSERT_TRUE(seen.ok()) << seen.status().ToString();
      EXPECT_EQ((*seen)->snapshot_id(), committed ? 4 : 3);
    }
    LakeOpenOptions options;
    options.read_only = false;
    auto lake = Lake::Open(db, options);
    ASSERT_TRUE(lake.ok()) << lake.status().ToString();
    auto snapshot = (*lake)->LoadSnapshot();
    ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
    EXPECT_EQ((*snapshot)->snapshot_id(), committed ? 4 : 3);
    EXPECT_EQ((*snapshot)->schemas().size(), committed ? 2u : 1u);
    auto table = (*lake)->LoadTable(**snapshot, 1);
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    EXPECT_EQ((*table)->FileRowCount(), committed ? 22 : 20);
    ASSERT_TRUE((*table)->stats.has_value());
    EXPECT_EQ((*table)->stats->record_count, committed ? 24 : 20);
    // Nothing of the commit survives unless it committed.
    EXPECT_EQ(QueryRows(db, "SELECT count(*) FROM ducklake_data_file")[0][0],
              committed ? "3" : "2");
    // And the lake takes the next commit.
    CommitResult next = MustCommit(**lake, Changes(DataFile(1, "next.parquet", 1)));
    EXPECT_EQ(next.snapshot.snapshot_id, committed ? 5 : 4);
  }
}

}  // namespace
}  // namespace tarn
