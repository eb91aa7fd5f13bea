// Helpers for the catalog write tests: reading catalog rows as text, building columns, and
// creating lakes in a temporary directory.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/lake_write.h"

namespace tarn::testing {

using Rows = std::vector<std::vector<std::string>>;

// Runs `sql` on the SQLite file at `db` (a separate read-only connection) and returns every
// cell as CatalogDatum::ToString ("NULL", "42", "'text'").
inline Rows QueryRows(const std::string& db, const std::string& sql) {
  auto store = OpenSqliteCatalogStore(db, /*read_only=*/true);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  if (!store.ok()) return {};
  CatalogQuery query;
  query.sql = sql;
  query.what = "test query";
  auto result = (*store)->Query(query);
  EXPECT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
  if (!result.ok()) return {};
  Rows rows;
  for (const auto& row : result->rows) {
    std::vector<std::string> cells;
    for (const CatalogDatum& cell : row) cells.push_back(cell.ToString());
    rows.push_back(std::move(cells));
  }
  return rows;
}

inline std::string RowsText(const Rows& rows) {
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? "|" : "") + row[i];
    out += "\n";
  }
  return out;
}

inline std::string FixtureCatalog(std::string_view name) {
  return SharedPath(StrCat("fixtures/ducklake/", name, "/catalog.sqlite"));
}

// A primitive column, id = order.
inline ColumnInfo MakeColumn(int64_t id, std::string name, DataType type) {
  ColumnInfo column;
  column.column_id = id;
  column.column_order = id;
  column.name = std::move(name);
  column.type_name = type.ToDuckLakeName();
  column.type = std::move(type);
  return column;
}

// Creates a lake at dir/lake.sqlite with data under dir/data/.
inline std::unique_ptr<Lake> MakeLake(const TempDir& dir, std::optional<int64_t> inline_limit,
                                      std::string name = "lake.sqlite") {
  CreateLakeOptions options;
  options.data_path = dir.Join("data");
  options.data_inlining_row_limit = inline_limit;
  auto lake = CreateLake(StrCat("ducklake:sqlite:", dir.Join(name)), options);
  EXPECT_TRUE(lake.ok()) << lake.status().ToString();
  return lake.ok() ? std::move(lake).value() : nullptr;
}

inline int64_t LatestId(Lake& lake) {
  auto s = lake.FindSnapshot(SnapshotSelector::Latest());
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? s->snapshot_id : -1;
}

// Commits and expects success.
inline CommitResult MustCommit(Lake& lake, const LakeChanges& changes,
                               std::optional<int64_t> start = std::nullopt) {
  auto result = CommitLakeChanges(lake, start.value_or(LatestId(lake)), changes);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? std::move(result).value() : CommitResult{};
}

}  // namespace tarn::testing
