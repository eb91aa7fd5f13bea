// Inserts stream into data files: a large input is never held whole. The bytes of rows the
// write holds at once (WriteResult::peak_held_bytes, the writer's open row group) stay far
// below the input's size, files roll at target_file_size, and every row reads back. Through
// SQL, CREATE TABLE AS and INSERT … SELECT of a large range() under a small memory_limit give
// the right answer while the process's heap grows by less than the limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#if !defined(TARN_SANITIZE)
#include <malloc.h>
#endif

#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "table_write/write_test_util.h"
#include "tarn/sql.h"

#if defined(TARN_SANITIZE)
// AddressSanitizer's allocator statistics (sanitizer/allocator_interface.h).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace tarn::write_testing {
namespace {

// Bytes of the heap in use now, by every thread.
int64_t AllocatedBytes() {
#if defined(TARN_SANITIZE)
  return static_cast<int64_t>(__sanitizer_get_current_allocated_bytes());
#else
  const struct mallinfo2 info = mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd);
#endif
}

// How far the heap grew above its size at the start while `work` ran, sampled every
// millisecond by another thread.
template <typename Work>
int64_t PeakHeapGrowth(Work work) {
  const int64_t start = AllocatedBytes();
  std::atomic<bool> done{false};
  std::atomic<int64_t> peak{start};
  std::thread sampler([&] {
    while (!done.load()) {
      const int64_t now = AllocatedBytes();
      if (now > peak.load()) peak.store(now);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  work();
  done.store(true);
  sampler.join();
  return std::max<int64_t>(0, peak.load() - start);
}

Status RunSql(Session* session, const std::string& sql) {
  return session->ExecuteScript(sql, [](QueryResult& result) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
      if (!batch) return Status::OK();
    }
  });
}

// `total` rows (id BIGINT, label VARCHAR) produced batch by batch, never all at once.
class GeneratedRows final : public BatchReader {
 public:
  explicit GeneratedRows(int64_t total) : total_(total) {
    schema_ = std::make_shared<Schema>(std::vector<Field>{
        Field("id", DataType(TypeId::kInt64)), Field("label", DataType(TypeId::kVarchar))});
  }
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    if (next_ >= total_) return std::shared_ptr<Batch>();
    const int64_t rows = std::min<int64_t>(kBatchRows, total_ - next_);
    ColumnBuilder ids(DataType(TypeId::kInt64));
    ColumnBuilder labels(DataType(TypeId::kVarchar));
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t id = next_ + row;
      ids.AppendNumber<int64_t>(id);
      labels.AppendBytes("label-" + std::to_string(id * 7919 % 1000003));
    }
    next_ += rows;
    auto batch = MakeBatch(schema_, {ids.Finish(), labels.Finish()});
    batch->num_rows = rows;
    produced_bytes_ += BatchBytesOf(*batch);
    return batch;
  }
  int64_t produced_bytes() const { return produced_bytes_; }

 private:
  static int64_t BatchBytesOf(const Batch& batch) {
    int64_t bytes = 0;
    for (const auto& column : batch.columns) {
      if (column->values) bytes += column->values->size();
      if (column->data) bytes += column->data->size();
    }
    return bytes;
  }
  static constexpr int64_t kBatchRows = 2048;
  std::shared_ptr<Schema> schema_;
  int64_t total_;
  int64_t next_ = 0;
  int64_t produced_bytes_ = 0;
};

TEST(StreamingInsertTest, LargeInsertHoldsOneRowGroupAndRollsFiles) {
  auto lake = EmptyLake(10);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  std::vector<ColumnDefinition> columns(2);
  columns[0].name = "id";
  columns[0].type = DataType(TypeId::kInt64);
  columns[1].name = "label";
  columns[1].type = DataType(TypeId::kVarchar);
  ASSERT_TRUE((*txn)->CreateTable("main", "t", columns).ok());
  ASSERT_TRUE((*txn)->SetOption("target_file_size", std::to_string(8 << 20)).ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  ASSERT_TRUE(lake->Reopen().ok());  // options are read when the lake opens

  constexpr int64_t kRows = 3'000'000;
  txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  GeneratedRows rows(kRows);
  auto inserted = (*txn)->Insert("main", "t", rows);
  ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  EXPECT_EQ(inserted->rows, kRows);
  EXPECT_GT(rows.produced_bytes(), int64_t{50} << 20);
  // One row group of 122,880 rows is about 3 MB of these rows; the input is over 50 MB.
  EXPECT_GT(inserted->peak_held_bytes, 0);
  EXPECT_LT(inserted->peak_held_bytes, rows.produced_bytes() / 8);
  EXPECT_GE(inserted->files_written, 2);  // ~30 MB of Parquet at 8 MB per file
  auto committed = (*txn)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();

  Session session;
  ASSERT_TRUE(session.Attach("ducklake:sqlite:" + lake->catalog_path).ok());
  auto csv = testing::TarnCsv(&session,
                              "SELECT count(*) AS n, sum(id) AS ids, count(DISTINCT id) AS d, "
                              "sum(length(label)) AS l FROM t");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  auto expected = testing::TarnCsv(
      &session,
      "SELECT count(*) AS n, sum(i) AS ids, count(DISTINCT i) AS d, "
      "sum(length('label-' || (i * 7919 % 1000003)::VARCHAR)) AS l FROM range(3000000) r(i)");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(*csv, *expected);
}

// Into a sorted table, an insert past SetSortMemoryLimit is sorted externally: it holds about
// the limit (the held rows and their sorted copy, then the merge's row groups), not the input.
TEST(StreamingInsertTest, SortedInsertPastTheLimitHoldsAboutTheLimit) {
  auto lake = EmptyLake(10);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  std::vector<ColumnDefinition> columns(2);
  columns[0].name = "id";
  columns[0].type = DataType(TypeId::kInt64);
  columns[1].name = "label";
  columns[1].type = DataType(TypeId::kVarchar);
  ASSERT_TRUE((*txn)->CreateTable("main", "t", columns).ok());
  SortField key;
  key.expression = "label";
  key.descending = true;
  ASSERT_TRUE((*txn)->SetSortKey("main", "t", {key}).ok());
  // Small row groups: the files' open row group (held by any insert) stays far below the limit.
  ASSERT_TRUE((*txn)->SetOption("parquet_row_group_size", "10000").ok());
  ASSERT_TRUE((*txn)->Commit().ok());
  ASSERT_TRUE(lake->Reopen().ok());  // options are read when the lake opens

  constexpr int64_t kRows = 300'000;
  constexpr int64_t kLimit = 512 << 10;
  txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  (*txn)->SetSortMemoryLimit(kLimit);
  GeneratedRows rows(kRows);
  auto inserted = (*txn)->Insert("main", "t", rows);
  ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  EXPECT_EQ(inserted->rows, kRows);
  EXPECT_GT(rows.produced_bytes(), 8 * kLimit);
  EXPECT_GT(inserted->peak_held_bytes, kLimit / 2);
  EXPECT_LT(inserted->peak_held_bytes, 4 * kLimit);
  auto committed = (*txn)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();

  Session session;
  ASSERT_TRUE(session.Attach("ducklake:sqlite:" + lake->catalog_path).ok());
  auto csv = testing::TarnCsv(&session,
                              "SELECT count(*) AS n, sum(id) AS ids, count(DISTINCT id) AS d, "
                              "max(label) AS m FROM t");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  auto expected = testing::TarnCsv(
      &session,
      "SELECT count(*) AS n, sum(i) AS ids, count(DISTINCT i) AS d, "
      "max('label-' || (i * 7919 % 1000003)::VARCHAR) AS m FROM range(300000) r(i)");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(*csv, *expected);
}

TEST(StreamingInsertTest, CreateTableAsAndInsertSelectUnderASmallMemoryLimit) {
  testing::TempDir dir;
  Session session;
  ASSERT_TRUE(RunSql(&session, "ATTACH 'ducklake:sqlite:" + dir.Join("lake.db") +
                                   "' AS lake (DATA_PATH '" + dir.Join("files") + "')")
                  .ok());
  ASSERT_TRUE(RunSql(&session, "USE lake").ok());
  constexpr int64_t kLimit = 32 << 20;
  ASSERT_TRUE(RunSql(&session, "SET memory_limit = '32MB'").ok());
  // 2,000,000 rows of about 36 bytes (72 MB as batches) and 1,000,000 more: held whole, as
  // they once were, the heap would grow by more than twice the limit.
  Status created;
  const int64_t create_growth = PeakHeapGrowth([&] {
    created = RunSql(&session,
                     "CREATE TABLE t AS SELECT i AS id, i % 1000 AS k, "
                     "'row ' || i::VARCHAR AS s FROM range(2000000) r(i)");
  });
  ASSERT_TRUE(created.ok()) << created.ToString();
  EXPECT_LT(create_growth, kLimit);
  Status inserted;
  const int64_t insert_growth = PeakHeapGrowth([&] {
    inserted = RunSql(&session,
                      "INSERT INTO t SELECT i + 2000000, i % 7, 'more ' || i::VARCHAR "
                      "FROM range(1000000) r(i)");
  });
  ASSERT_TRUE(inserted.ok()) << inserted.ToString();
  EXPECT_LT(insert_growth, kLimit);
  std::cout << "heap growth: CREATE TABLE AS " << create_growth << " bytes, INSERT ... SELECT "
            << insert_growth << " bytes\n";
  auto csv = testing::TarnCsv(&session,
                              "SELECT count(*), sum(id), sum(k), sum(length(s)) FROM t");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  auto expected = testing::TarnCsv(
      &session,
      "SELECT count(*), sum(id), sum(k), sum(length(s)) FROM ("
      "SELECT i AS id, i % 1000 AS k, 'row ' || i::VARCHAR AS s FROM range(2000000) r(i) "
      "UNION ALL SELECT i + 2000000, i % 7, 'more ' || i::VARCHAR FROM range(1000000) r(i))");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(*csv, *expected);
}

}  // namespace
}  // namespace tarn::write_testing

namespace tarn::write_testing {
namespace {

// UPDATE streams the new versions of the rows it changes into files as its scan finds them,
// and CREATE TABLE … SORTED BY AUTO AS of more rows than fit writes them first and then sorts
// them externally: neither holds the table. Rows keep their rowids through the UPDATE.
TEST(StreamingInsertTest, UpdateAndSortedByAutoUnderASmallMemoryLimit) {
  testing::TempDir dir;
  Session session;
  ASSERT_TRUE(RunSql(&session, "ATTACH 'ducklake:sqlite:" + dir.Join("lake.db") +
                                   "' AS lake (DATA_PATH '" + dir.Join("files") + "')")
                  .ok());
  ASSERT_TRUE(RunSql(&session, "USE lake").ok());
  constexpr int64_t kLimit = 32 << 20;
  ASSERT_TRUE(RunSql(&session, "SET memory_limit = '32MB'").ok());
  ASSERT_TRUE(RunSql(&session,
                     "CREATE TABLE t AS SELECT i AS id, i % 1000 AS k, "
                     "'row ' || i::VARCHAR AS s FROM range(2000000) r(i)")
                  .ok());
  // Every row, 2,000,000 of them (about 72 MB as batches), changed in two columns. Held whole,
  // the rows and their new versions would take several times the limit; what the UPDATE holds
  // besides its row groups is the positions of the rows it changes, and not even those when
  // it changes every row of a file.
  Status updated;
  const int64_t update_growth = PeakHeapGrowth([&] {
    updated = RunSql(&session, "UPDATE t SET k = k + 1, s = s || '!' WHERE id >= 0");
  });
  ASSERT_TRUE(updated.ok()) << updated.ToString();
  // The scan's and the writer's row groups.
  EXPECT_LT(update_growth, 2 * kLimit);
  auto csv = testing::TarnCsv(&session,
                              "SELECT count(*) AS n, sum(k) AS k, sum(length(s)) AS len, "
                              "sum(CASE WHEN rowid <> id THEN 1 ELSE 0 END) AS moved FROM t");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  auto expected = testing::TarnCsv(
      &session,
      "SELECT count(*) AS n, sum(i % 1000 + 1) AS k, sum(length('row ' || i::VARCHAR) + 1) AS len, "
      "sum(0) AS moved FROM range(2000000) r(i)");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(*csv, *expected);

  // 2,000,000 rows (about 73 MB as batches) sorted by a key the picker chooses over a sample of
  // 100,000 of them (the picker holds its sample, whatever the memory limit).
  ASSERT_TRUE(RunSql(&session, "SET layout_sample_rows = 100000").ok());
  Status created;
  const int64_t sort_growth = PeakHeapGrowth([&] {
    created = RunSql(&session,
                     "CREATE TABLE a SORTED BY AUTO AS SELECT (i * 7919) % 2000000 AS id, "
                     "i % 10 AS g, 'v' || (i % 5000)::VARCHAR AS s FROM range(2000000) r(i)");
  });
  ASSERT_TRUE(created.ok()) << created.ToString();
  // The external sort holds about the limit (its rows and their sorted copy), the picker its
  // sample, the scans their row groups.
  EXPECT_LT(sort_growth, 3 * kLimit);
  std::cout << "heap growth: UPDATE " << update_growth << " bytes, SORTED BY AUTO "
            << sort_growth << " bytes\n";
  csv = testing::TarnCsv(&session, "SELECT count(*) AS n, sum(id) AS d, sum(g) AS g, "
                                   "sum(length(s)) AS len FROM a");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  expected = testing::TarnCsv(&session,
                              "SELECT count(*) AS n, sum((i * 7919) % 2000000) AS d, "
                              "sum(i % 10) AS g, sum(length('v' || (i % 5000)::VARCHAR)) AS len "
                              "FROM range(2000000) r(i)");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(*csv, *expected);
  // The key picked is stored, and the rows are in its order.
  auto key = testing::TarnCsv(&session,
                              "SELECT count(*) > 0 FROM __ducklake_metadata_lake.ducklake_sort_expression");
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(*key, "(count_star() > 0)\ntrue\n");
}

}  // namespace
}  // namespace tarn::write_testing
