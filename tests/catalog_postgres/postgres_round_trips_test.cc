// Catalog reads on PostgreSQL cost a bounded number of statements (each one round trip):
// loading a snapshot does not issue more statements for more tables, nor loading a table for
// more files. Counted by a store that forwards every call to a real PostgreSQL store.
#include <gtest/gtest.h>

#include "support/postgres_test_util.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/catalog_locator.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

// Forwards to `inner`, counting the statements sent to the server.
class CountingStore final : public CatalogStore {
 public:
  CountingStore(std::unique_ptr<CatalogStore> inner, int64_t* statements)
      : inner_(std::move(inner)), statements_(statements) {}
  std::string_view backend() const override { return inner_->backend(); }
  const std::string& location() const override { return inner_->location(); }
  bool read_only() const override { return inner_->read_only(); }
  Result<CatalogResult> Query(const CatalogQuery& query) override {
    ++*statements_;
    return inner_->Query(query);
  }
  Result<int64_t> Execute(std::string_view sql, std::span<const CatalogDatum> params) override {
    ++*statements_;
    return inner_->Execute(sql, params);
  }
  Result<bool> TableExists(std::string_view name) override {
    ++*statements_;
    return inner_->TableExists(name);
  }
  Result<std::vector<std::string>> TableColumns(std::string_view name) override {
    ++*statements_;
    return inner_->TableColumns(name);
  }
  Result<std::vector<std::pair<std::string, std::string>>> TableColumnTypes(
      std::string_view name) override {
    ++*statements_;
    return inner_->TableColumnTypes(name);
  }
  Result<std::vector<std::string>> TableNames() override {
    ++*statements_;
    return inner_->TableNames();
  }
  Status Begin(CatalogTransactionMode mode) override {
    ++*statements_;
    return inner_->Begin(mode);
  }
  Status Commit() override {
    ++*statements_;
    return inner_->Commit();
  }
  Status Rollback() override {
    ++*statements_;
    return inner_->Rollback();
  }
  bool in_transaction() const override { return inner_->in_transaction(); }

 private:
  std::unique_ptr<CatalogStore> inner_;
  int64_t* statements_;
};

void MustRun(Session* session, const std::string& sql) {
  auto result = session->Execute(sql);
  ASSERT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
}

struct Cost {
  int64_t snapshot = 0;  // statements of LoadSnapshot
  int64_t table = 0;     // statements of LoadTable of table t0
  size_t tables = 0;
  size_t files = 0;      // data files of t0
};

Cost MeasureReads(const std::string& conninfo) {
  Cost cost;
  auto inner = OpenPostgresCatalogStore(conninfo, /*read_only=*/true);
  EXPECT_TRUE(inner.ok()) << inner.status().ToString();
  if (!inner.ok()) return cost;
  int64_t statements = 0;
  auto lake = Lake::Open(std::make_unique<CountingStore>(std::move(inner).value(), &statements));
  EXPECT_TRUE(lake.ok()) << lake.status().ToString();
  if (!lake.ok()) return cost;
  statements = 0;
  auto snapshot = (*lake)->LoadSnapshot();
  EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  if (!snapshot.ok()) return cost;
  cost.snapshot = statements;
  cost.tables = (*snapshot)->tables().size();
  auto info = (*snapshot)->FindTable("main", "t0");
  EXPECT_TRUE(info != nullptr);
  if (info == nullptr) return cost;
  statements = 0;
  auto table = (*lake)->LoadTable(**snapshot, info->table_id);
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  if (!table.ok()) return cost;
  cost.table = statements;
  cost.files = (*table)->data_files.size();
  return cost;
}

TEST(PostgresRoundTripsTest, ReadsDoNotGrowWithTablesOrFiles) {
  auto conninfo = testing::NewPostgresSchema();
  ASSERT_TRUE(conninfo.ok()) << conninfo.status().ToString();
  testing::TempDir dir;
  Session session;
  std::string locator = "'ducklake:postgres:";
  for (char c : *conninfo) locator += c == '\'' ? std::string("''") : std::string(1, c);
  MustRun(&session, StrCat("ATTACH ", locator, "' AS l (DATA_PATH '", dir.Join("data"),
                           "', DATA_INLINING_ROW_LIMIT 0)"));
  MustRun(&session, "USE l");
  auto grow = [&](int first_table, int tables, int inserts) {
    for (int t = first_table; t < first_table + tables; ++t) {
      MustRun(&session, StrCat("CREATE TABLE t", t, " (a INTEGER, b VARCHAR)"));
      MustRun(&session, StrCat("ALTER TABLE t", t, " SET PARTITIONED BY (a)"));
    }
    for (int i = 0; i < inserts; ++i) {
      for (int t = 0; t < first_table + tables; ++t) {
        MustRun(&session, StrCat("INSERT INTO t", t, " VALUES (", i, ", 'x'), (", i + 1,
                                 ", NULL)"));
      }
      MustRun(&session, StrCat("DELETE FROM t1 WHERE a = ", i, " AND b IS NULL"));
    }
  };
  grow(0, 2, 2);
  const Cost small = MeasureReads(*conninfo);
  grow(2, 10, 6);
  const Cost large = MeasureReads(*conninfo);
  EXPECT_EQ(small.tables, 2u);
  EXPECT_EQ(large.tables, 12u);
  EXPECT_GT(large.files, small.files * 3);
  EXPECT_GT(small.snapshot, 0);
  EXPECT_EQ(large.snapshot, small.snapshot) << "LoadSnapshot statements grew with the tables";
  EXPECT_EQ(large.table, small.table) << "LoadTable statements grew with the files";
  EXPECT_LE(large.snapshot, 30);
  EXPECT_LE(large.table, 30);
}

}  // namespace
}  // namespace tarn
