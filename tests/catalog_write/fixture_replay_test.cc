// Replays the catalog effects of the fixture lakes `basic` and `evolution` (written by the
// official extension) as tarn change sets, with the fixtures' own file sizes and statistics,
// and compares every catalog row with the fixture's catalog.sqlite except timestamps and
// uuids. Then reads the result back through Lake::LoadSnapshot / LoadTable.
#include <gtest/gtest.h>

#include <algorithm>

#include "write_test_util.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::FixtureCatalog;
using testing::MustCommit;
using testing::QueryRows;
using testing::Rows;
using testing::RowsText;
using testing::TempDir;

std::string Unquote(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '\'') return cell.substr(1, cell.size() - 2);
  return cell;
}

// Column rows of a fixture table that begin at `snapshot`, as a tree (parents first).
std::vector<ColumnInfo> FixtureColumns(const std::string& db, int64_t table_id,
                                       std::string_view where) {
  Rows rows = QueryRows(db, StrCat("SELECT column_id, column_order, column_name, column_type, "
                                   "initial_default, default_value, nulls_allowed, "
                                   "parent_column FROM ducklake_column WHERE table_id = ",
                                   table_id, " AND ", where, " ORDER BY column_id"));
  std::map<int64_t, ColumnInfo> by_id;
  std::vector<int64_t> order;
  for (const auto& r : rows) {
    ColumnInfo c;
    c.column_id = std::stoll(r[0]);
    c.column_order = std::stoll(r[1]);
    c.name = Unquote(r[2]);
    c.type_name = Unquote(r[3]);
    auto type = ParseDuckLakeType(c.type_name);
    if (type.ok()) c.type = *type;
    else if (c.type_name == "struct") c.type = DataType(TypeId::kStruct);
    else if (c.type_name == "list") c.type = DataType(TypeId::kList);
    else if (c.type_name == "map") c.type = DataType(TypeId::kMap);
    if (r[4] != "NULL") c.initial_default = {ColumnDefault::Kind::kLiteral, Unquote(r[4]), ""};
    if (r[5] != "'NULL'") c.default_value = {ColumnDefault::Kind::kLiteral, Unquote(r[5]), ""};
    c.nulls_allowed = r[6] == "1";
    if (r[7] != "NULL") c.parent_column = std::stoll(r[7]);
    by_id[c.column_id] = c;
    order.push_back(c.column_id);
  }
  // Attach children (deepest first so that parents carry complete subtrees).
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    ColumnInfo& c = by_id[*it];
    if (c.parent_column && by_id.count(*c.parent_column)) {
      auto& siblings = by_id[*c.parent_column].children;
      siblings.insert(siblings.begin(), c);
    }
  }
  std::vector<ColumnInfo> roots;
  for (int64_t id : order) {
    const ColumnInfo& c = by_id[id];
    if (!c.parent_column || !by_id.count(*c.parent_column)) roots.push_back(c);
  }
  return roots;
}

const ColumnInfo* FindIn(const std::vector<ColumnInfo>& columns, int64_t id) {
  for (const ColumnInfo& c : columns) {
    if (c.column_id == id) return &c;
    if (const ColumnInfo* found = FindIn(c.children, id)) return found;
  }
  return nullptr;
}

// A fixture data file as a change, its statistics typed by our lake's current columns.
NewDataFile FixtureDataFile(Lake& lake, const std::string& db, int64_t data_file_id,
                            int64_t table_ref, int64_t our_table_id,
                            std::vector<ColumnInfo> pending_columns = {}) {
  Rows f = QueryRows(db, StrCat("SELECT path, record_count, file_size_bytes, footer_size FROM "
                                "ducklake_data_file WHERE data_file_id = ",
                                data_file_id));
  EXPECT_EQ(f.size(), 1u);
  NewDataFile file;
  file.table_id = table_ref;
  file.path = Unquote(f[0][0]);
  file.record_count = std::stoll(f[0][1]);
  file.file_size_bytes = std::stoll(f[0][2]);
  file.footer_size = std::stoll(f[0][3]);
  std::vector<ColumnInfo> columns = pending_columns;
  if (columns.empty()) {
    auto snapshot = lake.LoadSnapshot();
    EXPECT_TRUE(snapshot.ok());
    columns = (*snapshot)->FindTableById(our_table_id)->columns;
  }
  Rows stats = QueryRows(db, StrCat("SELECT column_id, column_size_bytes, value_count, "
                                    "null_count, min_value, max_value, contains_nan FROM "
                                    "ducklake_file_column_stats WHERE data_file_id = ",
                                    data_file_id, " ORDER BY column_id"));
  for (const auto& r : stats) {
    NewFileColumnStats s;
    s.column_id = std::stoll(r[0]);
    s.column_size_bytes = std::stoll(r[1]);
    s.value_count = std::stoll(r[2]);
    s.null_count = std::stoll(r[3]);
    const ColumnInfo* column = FindIn(columns, s.column_id);
    EXPECT_NE(column, nullptr) << s.column_id;
    if (column == nullptr) continue;
    for (int side = 0; side < 2; ++side) {
      if (r[4 + side] == "NULL") continue;
      auto v = DecodeStatsValue(Unquote(r[4 + side]), column->type);
      EXPECT_TRUE(v.ok()) << v.status().ToString();
      (side == 0 ? s.min : s.max) = *v;
    }
    if (r[6] != "NULL") s.contains_nan = r[6] == "1";
    file.column_stats.push_back(std::move(s));
  }
  return file;
}

NewDeleteFile FixtureDeleteFile(const std::string& db, int64_t delete_file_id,
                                std::optional<int64_t> replaces) {
  Rows d = QueryRows(db, StrCat("SELECT table_id, data_file_id, path, delete_count, "
                                "file_size_bytes, footer_size FROM ducklake_delete_file WHERE "
                                "delete_file_id = ",
                                delete_file_id));
  EXPECT_EQ(d.size(), 1u);
  return NewDeleteFile{std::stoll(d[0][0]), std::stoll(d[0][1]), Unquote(d[0][2]),
                       std::stoll(d[0][3]),  std::stoll(d[0][4]), std::stoll(d[0][5]),
                       replaces};
}

// A delete file the extension later replaced (its row is gone from the fixture).
NewDeleteFile PlaceholderDeleteFile(int64_t table_id, int64_t data_file_id, int64_t n,
                                    std::optional<int64_t> replaces = std::nullopt) {
  return NewDeleteFile{table_id, data_file_id, StrCat("replaced-", n, "-delete.parquet"), 1, 100,
                       50, replaces};
}

// Compares the rows of `table` (the listed columns) between two catalogs.
void ExpectSameRows(const std::string& ours, const std::string& theirs, const std::string& table,
                    const std::string& columns, const std::string& where = "1 = 1") {
  std::string sql = StrCat("SELECT ", columns, " FROM ", table, " WHERE ", where);
  Rows a = QueryRows(ours, sql), b = QueryRows(theirs, sql);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(RowsText(a), RowsText(b)) << table;
}

void CompareCatalogs(const std::string& ours, const std::string& theirs) {
  ExpectSameRows(ours, theirs, "ducklake_snapshot",
                 "snapshot_id, schema_version, next_catalog_id, next_file_id");
  ExpectSameRows(ours, theirs, "ducklake_snapshot_changes", "*");
  ExpectSameRows(ours, theirs, "ducklake_metadata", "*",
                 "key NOT IN ('created_by', 'data_path')");
  ExpectSameRows(ours, theirs, "ducklake_schema",
                 "schema_id, begin_snapshot, end_snapshot, schema_name, path, path_is_relative");
  ExpectSameRows(ours, theirs, "ducklake_table",
                 "table_id, begin_snapshot, end_snapshot, schema_id, table_name, path, "
                 "path_is_relative");
  for (const char* table :
       {"ducklake_column", "ducklake_data_file", "ducklake_file_column_stats",
        "ducklake_table_stats", "ducklake_table_column_stats", "ducklake_schema_versions",
        "ducklake_inlined_data_tables", "ducklake_view", "ducklake_partition_info",
        "ducklake_file_partition_value", "ducklake_tag", "ducklake_column_tag"}) {
    ExpectSameRows(ours, theirs, table, "*");
  }
  // The extension replaces a delete file by a partial one and removes the old row; tarn ends
  // the old row instead (reference §7.5): the visible ones agree.
  ExpectSameRows(ours, theirs, "ducklake_delete_file",
                 "delete_file_id, table_id, data_file_id, path, path_is_relative, format, "
                 "delete_count, file_size_bytes, footer_size, encryption_key",
                 "end_snapshot IS NULL");
}

std::unique_ptr<Lake> StartReplay(const TempDir& dir) {
  auto lake = testing::MakeLake(dir, std::nullopt);
  if (lake == nullptr) return nullptr;
  LakeChanges option;
  option.Add(SetOptionChange{{"data_inlining_row_limit", "0"}});
  CommitResult r = MustCommit(*lake, option);
  EXPECT_EQ(r.snapshot.snapshot_id, -1);  // options are not a snapshot
  EXPECT_EQ(lake->GetOption("data_inlining_row_limit", std::nullopt, std::nullopt), "0");
  return lake;
}

TEST(FixtureReplayTest, BasicCreateInsertsDeletesUpdate) {
  const std::string db = FixtureCatalog("basic");
  ASSERT_TRUE(FileExists(db));
  TempDir dir;
  auto lake = StartReplay(dir);
  ASSERT_NE(lake, nullptr);

  LakeChanges create;  // snapshot 1
  const int64_t t = create.NewProvisionalId();
  create.Add(CreateTableChange{t, 0, "t", FixtureColumns(db, 1, "begin_snapshot = 1")});
  CommitResult created = MustCommit(*lake, create);
  EXPECT_EQ(created.snapshot.snapshot_id, 1);
  EXPECT_EQ(created.id_mapping.at(t), 1);
  for (int64_t file : {0, 1, 2}) {  // snapshots 2..4
    LakeChanges insert;
    insert.Add(FixtureDataFile(*lake, db, file, 1, 1));
    MustCommit(*lake, insert);
  }
  {  // 5: first deletes on files 0, 1, 2 (ids 3, 4, 5)
    LakeChanges del;
    for (int64_t file : {0, 1, 2}) del.Add(PlaceholderDeleteFile(1, file, file + 3));
    MustCommit(*lake, del);
  }
  {  // 6: UPDATE = cumulative delete files (7, 8, 9) + a file with row ids (6)
    LakeChanges update;
    update.Add(FixtureDeleteFile(db, 7, 4));
    update.Add(PlaceholderDeleteFile(1, 2, 8, 5));
    update.Add(PlaceholderDeleteFile(1, 0, 9, 3));
    NewDataFile rewritten = FixtureDataFile(*lake, db, 6, 1, 1);
    rewritten.embeds_row_ids = true;
    update.Add(rewritten);
    CommitResult r = MustCommit(*lake, update);
    EXPECT_EQ(*r.snapshot.changes_made, "inserted_into_table:1,deleted_from_table:1");
  }
  {  // 7
    LakeChanges del;
    del.Add(PlaceholderDeleteFile(1, 6, 10));
    del.Add(FixtureDeleteFile(db, 11, 9));
    MustCommit(*lake, del);
  }
  {  // 8: every row of file 1
    LakeChanges del;
    del.Add(EndDataFile{1, 1});
    del.Add(FixtureDeleteFile(db, 12, 10));
    MustCommit(*lake, del);
  }
  {  // 9
    LakeChanges del;
    del.Add(FixtureDeleteFile(db, 13, 8));
    MustCommit(*lake, del);
  }
  {  // 10
    LakeChanges insert;
    insert.Add(FixtureDataFile(*lake, db, 14, 1, 1));
    CommitResult r = MustCommit(*lake, insert);
    EXPECT_EQ(r.snapshot.snapshot_id, 10);
  }
  CompareCatalogs(dir.Join("lake.sqlite"), db);

  // Read back through the loaders, and against the fixture lake's own metadata.
  LakeOpenOptions fixture_options;
  fixture_options.data_path = "/unused/";
  auto fixture = Lake::Open(StrCat("sqlite:", db), fixture_options);
  ASSERT_TRUE(fixture.ok());
  // (Between 5 and 9 the fixture's partial delete files count deletions of later snapshots.)
  for (int64_t snapshot : {4, 10}) {
    auto ours = lake->LoadSnapshot(SnapshotSelector::Id(snapshot));
    auto theirs = (*fixture)->LoadSnapshot(SnapshotSelector::Id(snapshot));
    ASSERT_TRUE(ours.ok() && theirs.ok()) << ours.status().ToString();
    auto our_table = lake->LoadTable(**ours, 1);
    auto their_table = (*fixture)->LoadTable(**theirs, 1);
    ASSERT_TRUE(our_table.ok()) << our_table.status().ToString();
    ASSERT_TRUE(their_table.ok());
    EXPECT_EQ((*our_table)->table->schema, (*their_table)->table->schema);
    EXPECT_EQ((*our_table)->FileRowCount(), (*their_table)->FileRowCount()) << snapshot;
    ASSERT_EQ((*our_table)->data_files.size(), (*their_table)->data_files.size());
    for (size_t i = 0; i < (*our_table)->data_files.size(); ++i) {
      const DataFileInfo& a = (*our_table)->data_files[i];
      const DataFileInfo& b = (*their_table)->data_files[i];
      EXPECT_EQ(a.data_file_id, b.data_file_id);
      EXPECT_EQ(a.row_id_start, b.row_id_start);
      EXPECT_EQ(a.relative_path, b.relative_path);
      ASSERT_EQ(a.column_stats.size(), b.column_stats.size());
      for (size_t c = 0; c < a.column_stats.size(); ++c) {
        EXPECT_EQ(a.column_stats[c].min, b.column_stats[c].min);
        EXPECT_EQ(a.column_stats[c].max, b.column_stats[c].max);
      }
    }
  }
  auto latest = lake->LoadSnapshot();
  ASSERT_TRUE(latest.ok());
  auto table = (*latest)->FindTable("main", "t");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->path, dir.Join("data") + "/main/t/");
  EXPECT_EQ(table->columns[0].default_value.kind, ColumnDefault::Kind::kNone);
  auto meta = lake->LoadTable(**latest, 1);
  ASSERT_TRUE(meta.ok());
  ASSERT_TRUE((*meta)->stats.has_value());
  EXPECT_EQ((*meta)->stats->next_row_id, 13043);
}

TEST(FixtureReplayTest, EvolutionDdlRenamesSchemasDrops) {
  const std::string db = FixtureCatalog("evolution");
  ASSERT_TRUE(FileExists(db));
  TempDir dir;
  auto lake = StartReplay(dir);
  ASSERT_NE(lake, nullptr);
  auto column_at = [&](int64_t id, int64_t begin) {
    return FixtureColumns(db, 1, StrCat("column_id = ", id, " AND begin_snapshot = ", begin))[0];
  };
  auto commit = [&](LakeChange change) {
    LakeChanges changes;
    changes.Add(std::move(change));
    return MustCommit(*lake, changes);
  };
  LakeChanges create;
  const int64_t e = create.NewProvisionalId();
  create.Add(CreateTableChange{e, 0, "e", FixtureColumns(db, 1, "begin_snapshot = 1")});
  MustCommit(*lake, create);                                          // 1
  commit(FixtureDataFile(*lake, db, 0, 1, 1));                        // 2
  commit(AddColumnChange{1, column_at(4, 3)});                        // 3
  commit(FixtureDataFile(*lake, db, 1, 1, 1));                        // 4
  commit(AlterColumnChange{1, column_at(2, 5)});                      // 5: rename
  commit(AlterColumnChange{1, column_at(1, 6)});                      // 6: int32 -> int64
  commit(AlterColumnChange{1, column_at(3, 7)});                      // 7: float -> double
  commit(FixtureDataFile(*lake, db, 2, 1, 1));                        // 8
  {                                                                   // 9
    LakeChanges del;
    for (int64_t file : {0, 1, 2}) del.Add(PlaceholderDeleteFile(1, file, file + 3));
    MustCommit(*lake, del);
  }
  commit(DropColumnChange{1, 4});                                     // 10
  commit(AddColumnChange{1, FixtureColumns(db, 1, "begin_snapshot = 11")[0]});  // 11: struct
  commit(FixtureDataFile(*lake, db, 6, 1, 1));                        // 12
  {                                                                   // 13: UPDATE
    LakeChanges update;
    NewDataFile rewritten = FixtureDataFile(*lake, db, 7, 1, 1);
    rewritten.embeds_row_ids = true;
    update.Add(rewritten);
    update.Add(FixtureDeleteFile(db, 8, std::nullopt));
    update.Add(FixtureDeleteFile(db, 9, 3));
    update.Add(FixtureDeleteFile(db, 10, 4));
    update.Add(FixtureDeleteFile(db, 11, 5));
    MustCommit(*lake, update);
  }
  commit(RenameTableChange{1, "e_renamed"});                          // 14
  {                                                                   // 15, 16: CTAS
    LakeChanges schema;
    const int64_t s2 = schema.NewProvisionalId();
    schema.Add(CreateSchemaChange{s2, "s2"});
    CommitResult r = MustCommit(*lake, schema);
    EXPECT_EQ(r.id_mapping.at(s2), 2);
    LakeChanges ctas;
    const int64_t other = ctas.NewProvisionalId();
    std::vector<ColumnInfo> columns = FixtureColumns(db, 3, "begin_snapshot = 16");
    ctas.Add(CreateTableChange{other, 2, "other", columns});
    NewDataFile file = FixtureDataFile(*lake, db, 12, other, 0, columns);
    file.provisional_id = ctas.NewProvisionalId();
    ctas.Add(file);
    CommitResult c = MustCommit(*lake, ctas);
    EXPECT_EQ(c.id_mapping.at(other), 3);
    EXPECT_EQ(c.id_mapping.at(file.provisional_id), 12);
    EXPECT_EQ(*c.snapshot.changes_made, "created_table:\"s2\".\"other\",inserted_into_table:3");
  }
  commit(DropTableChange{3});                                         // 17
  CompareCatalogs(dir.Join("lake.sqlite"), db);

  // Time travel through the loaders: the column trees agree with the fixture's at every
  // snapshot.
  LakeOpenOptions fixture_options;
  fixture_options.data_path = "/unused/";
  auto fixture = Lake::Open(StrCat("sqlite:", db), fixture_options);
  ASSERT_TRUE(fixture.ok());
  for (int64_t snapshot = 1; snapshot <= 17; ++snapshot) {
    auto ours = lake->LoadSnapshot(SnapshotSelector::Id(snapshot));
    auto theirs = (*fixture)->LoadSnapshot(SnapshotSelector::Id(snapshot));
    ASSERT_TRUE(ours.ok()) << ours.status().ToString();
    ASSERT_TRUE(theirs.ok());
    ASSERT_EQ((*ours)->tables().size(), (*theirs)->tables().size()) << snapshot;
    for (size_t i = 0; i < (*ours)->tables().size(); ++i) {
      EXPECT_EQ((*ours)->tables()[i]->name, (*theirs)->tables()[i]->name);
      EXPECT_EQ((*ours)->tables()[i]->schema, (*theirs)->tables()[i]->schema) << snapshot;
    }
    EXPECT_EQ((*ours)->schemas().size(), (*theirs)->schemas().size());
  }
}

TEST(FixtureReplayTest, NestedColumnTreeAndLeafStatistics) {
  const std::string db = FixtureCatalog("nested");
  ASSERT_TRUE(FileExists(db));
  TempDir dir;
  auto lake = StartReplay(dir);
  ASSERT_NE(lake, nullptr);
  LakeChanges create;
  create.Add(CreateTableChange{create.NewProvisionalId(), 0, "n",
                               FixtureColumns(db, 1, "begin_snapshot = 1")});
  MustCommit(*lake, create);
  LakeChanges insert;
  insert.Add(FixtureDataFile(*lake, db, 0, 1, 1));
  MustCommit(*lake, insert);
  const std::string ours = dir.Join("lake.sqlite");
  ExpectSameRows(ours, db, "ducklake_column", "*");
  ExpectSameRows(ours, db, "ducklake_data_file", "*", "data_file_id = 0");
  ExpectSameRows(ours, db, "ducklake_file_column_stats", "*", "data_file_id = 0");
  ExpectSameRows(ours, db, "ducklake_snapshot",
                 "snapshot_id, schema_version, next_catalog_id, next_file_id",
                 "snapshot_id <= 2");
  ExpectSameRows(ours, db, "ducklake_snapshot_changes", "*", "snapshot_id <= 2");
  // Table-wide rows exist for the leaves only.
  EXPECT_EQ(RowsText(QueryRows(ours, "SELECT group_concat(column_id) FROM "
                                     "ducklake_table_column_stats")),
            "'1,3,4,6,7,9,11,13,14,17,20,22'\n");
  auto snapshot = lake->LoadSnapshot();
  LakeOpenOptions fixture_options;
  fixture_options.data_path = "/unused/";
  auto fixture = Lake::Open(StrCat("sqlite:", db), fixture_options);
  ASSERT_TRUE(snapshot.ok() && fixture.ok());
  auto theirs = (*fixture)->LoadSnapshot(SnapshotSelector::Id(2));
  ASSERT_TRUE(theirs.ok());
  EXPECT_EQ((*snapshot)->tables()[0]->schema, (*theirs)->tables()[0]->schema);
}

}  // namespace
}  // namespace tarn
