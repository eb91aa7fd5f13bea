// Where a DELETE/UPDATE predicate is pushed down (seed PR 286): files pruned on catalog
// statistics and row groups on footer statistics for exact predicates; nothing pushed for a
// float predicate; no row-group pushdown into a file whose column has another physical name.
// The matched positions are the same either way.
#include <gtest/gtest.h>

#include "table/write_match.h"
#include "table/write_state.h"
#include "write_test_util.h"

namespace tarn {
namespace {

using table_internal::FindMatches;
using table_internal::MatchedRows;
using table_internal::WriteState;
using write_testing::FixtureLake;

// A WriteState over the lake's latest snapshot, as WriteTransaction::Begin builds it.
std::unique_ptr<WriteState> StateOf(Lake& lake) {
  auto state = std::make_unique<WriteState>();
  auto snapshot = lake.LoadSnapshot();
  EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  state->lake = &lake;
  state->fs = LocalFileSystem();
  state->start = *snapshot;
  state->start_snapshot_id = (*snapshot)->snapshot_id();
  state->schemas = (*snapshot)->schemas();
  state->tables = (*snapshot)->tables();
  state->views = (*snapshot)->views();
  return state;
}

TEST(PushdownTest, ExactPredicatesPruneFloatPredicatesDoNot) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto state = StateOf(*lake->lake);
  auto table = state->FindTable("main", "t");
  ASSERT_TRUE(table);

  auto exact = FindMatches(*state, table, std::string("id = 20050"), false);
  ASSERT_TRUE(exact.ok()) << exact.status().ToString();
  EXPECT_EQ(exact->count, 1);
  EXPECT_GT(exact->files_pruned, 0);
  EXPECT_EQ(exact->files_pushed_down, exact->files_read);
  ASSERT_EQ(exact->committed_files.size(), 1u);
  EXPECT_EQ(exact->committed_files.begin()->first, 14);
  EXPECT_EQ(exact->committed_files.begin()->second, std::vector<int64_t>{50});

  // A float predicate: nothing pruned on bounds, nothing pushed (NaN of either sign).
  auto floats = FindMatches(*state, table, std::string("f64 < -1e300"), false);
  ASSERT_TRUE(floats.ok()) << floats.status().ToString();
  EXPECT_EQ(floats->files_pruned, 0);
  EXPECT_EQ(floats->files_pushed_down, 0);
  auto reference = FindMatches(*state, table, std::string("f64 < -1e300 OR id < -1"), false);
  ASSERT_TRUE(reference.ok());
  EXPECT_EQ(floats->count, reference->count);
  EXPECT_EQ(floats->count, 2);  // -inf and the lowest double
}

TEST(PushdownTest, PhysicallyRenamedColumnIsNotPushedIntoTheFile) {
  auto lake = FixtureLake("basic");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(*lake->lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok());
  auto before = (*txn)->Delete("main", "t", std::string("i32 BETWEEN 700 AND 7000"));
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  ASSERT_TRUE((*txn)->Rollback().ok());

  auto state = StateOf(*lake->lake);
  ASSERT_TRUE(table_internal::NameEquals("i32", "I32"));
  // Rename in the view as the DDL does: the files keep the old physical name.
  auto table = state->FindTable("main", "t");
  auto renamed = std::make_shared<TableInfo>(*table);
  for (ColumnInfo& column : renamed->columns) {
    if (column.name == "i32") column.name = "renamed_i32";
  }
  std::vector<Field> fields;
  for (const ColumnInfo& column : renamed->columns) fields.push_back(column.ToField());
  renamed->schema = Schema(std::move(fields));
  state->ReplaceTable(renamed);
  auto matched = FindMatches(*state, renamed, std::string("renamed_i32 BETWEEN 700 AND 7000"),
                             false);
  ASSERT_TRUE(matched.ok()) << matched.status().ToString();
  EXPECT_EQ(matched->files_pushed_down, 0);
  EXPECT_EQ(matched->count, before->rows);
  EXPECT_GT(matched->count, 0);
}

}  // namespace
}  // namespace tarn
