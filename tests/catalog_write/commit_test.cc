// CommitLakeChanges: inlined data (replaying the fixture `inlined`), every inlinable type
// read back through Lake::ReadInlinedRows, DDL rows and token quoting, corrupt catalog rows,
// and argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "catalog/commit_internal.h"
#include "write_test_util.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::FixtureCatalog;
using testing::MakeColumn;
using testing::MustCommit;
using testing::QueryRows;
using testing::Rows;
using testing::RowsText;
using testing::TempDir;

std::shared_ptr<Batch> MakeRows(const std::vector<ColumnInfo>& columns,
                                const std::vector<std::vector<Value>>& rows) {
  std::vector<Field> fields;
  std::vector<std::shared_ptr<Column>> built;
  for (size_t c = 0; c < columns.size(); ++c) {
    ColumnBuilder builder(columns[c].type);
    for (const auto& row : rows) EXPECT_TRUE(builder.Append(row[c]).ok());
    built.push_back(builder.Finish());
    fields.push_back(Field(columns[c].name, columns[c].type));
  }
  return MakeBatch(std::make_shared<const Schema>(std::move(fields)), std::move(built));
}

Value I32(int32_t v) { return Value::Int(DataType(TypeId::kInt32), v); }

TEST(CommitTest, InlinedFixtureReplay) {
  const std::string db = FixtureCatalog("inlined");
  ASSERT_TRUE(FileExists(db));
  TempDir dir;
  auto lake = testing::MakeLake(dir, std::nullopt);  // default limit 10
  ASSERT_NE(lake, nullptr);
  const std::vector<ColumnInfo> columns = {MakeColumn(1, "id", DataType(TypeId::kInt32)),
                                           MakeColumn(2, "v", DataType(TypeId::kVarchar))};
  LakeChanges create;
  create.Add(CreateTableChange{create.NewProvisionalId(), 0, "il", columns});
  MustCommit(*lake, create);  // 1: creates ducklake_inlined_data_1_1
  auto insert = [&](std::vector<std::vector<Value>> rows,
                    std::optional<std::vector<int64_t>> ids = std::nullopt) {
    return InlinedInsert{1, MakeRows(columns, rows), std::move(ids)};
  };
  LakeChanges c2, c3, c4, c5, c6, c7;
  c2.Add(insert({{I32(1), Value::Varchar("a")}, {I32(2), Value::Varchar("b")}}));
  MustCommit(*lake, c2);
  c3.Add(insert({{I32(3), Value::Varchar("c")}}));
  MustCommit(*lake, c3);
  c4.Add(InlinedRowDeletes{1, {1}});
  MustCommit(*lake, c4);
  c5.Add(InlinedRowDeletes{1, {2}});  // UPDATE of an inlined row keeps its row id
  c5.Add(insert({{I32(3), Value::Varchar("cc")}}, std::vector<int64_t>{2}));
  EXPECT_EQ(*MustCommit(*lake, c5).snapshot.changes_made, "inlined_insert:1,inlined_delete:1");
  NewDataFile file;
  file.table_id = 1;
  file.path = "ducklake-01a22a6c-60b1-7a05-b3ca-797f2ac3c379.parquet";
  file.record_count = 100;
  file.file_size_bytes = 1120;
  file.footer_size = 231;
  file.column_stats = {{1, 432, 100, 0, I32(10), I32(109), std::nullopt, std::nullopt, {}},
                       {2, 445, 100, 0, Value::Varchar("x10"), Value::Varchar("x99"), std::nullopt, std::nullopt, {}}};
  c6.Add(file);
  MustCommit(*lake, c6);
  c7.Add(InlinedFileDeletes{1, 3, {5}});
  EXPECT_EQ(*MustCommit(*lake, c7).snapshot.changes_made, "inlined_delete:1");

  const std::string ours = dir.Join("lake.sqlite");
  for (const char* sql :
       {"SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM "
        "ducklake_snapshot WHERE snapshot_id <= 7 ORDER BY 1",
        "SELECT * FROM ducklake_snapshot_changes WHERE snapshot_id <= 7 ORDER BY 1",
        "SELECT * FROM ducklake_inlined_data_tables",
        "SELECT * FROM ducklake_schema_versions",
        "SELECT * FROM ducklake_data_file WHERE data_file_id = 3",
        "SELECT * FROM ducklake_column",
        "SELECT cid, name, type FROM pragma_table_info('ducklake_inlined_delete_1')",
        "SELECT * FROM ducklake_metadata WHERE key NOT IN ('created_by', 'data_path')"}) {
    EXPECT_EQ(RowsText(QueryRows(ours, sql)), RowsText(QueryRows(db, sql))) << sql;
  }
  // Declared as the extension's catalog on SQLite declares it (the fixture's was copied from a
  // DuckDB-file catalog and says INTEGER).
  EXPECT_EQ(RowsText(QueryRows(ours, "SELECT cid, name, type FROM "
                                     "pragma_table_info('ducklake_inlined_data_1_1')")),
            "0|'row_id'|'BIGINT'\n1|'begin_snapshot'|'BIGINT'\n2|'end_snapshot'|'BIGINT'\n"
            "3|'id'|'BIGINT'\n4|'v'|'VARCHAR'\n");
  EXPECT_EQ(RowsText(QueryRows(ours, "SELECT * FROM ducklake_inlined_delete_1")), "3|5|7\n");
  EXPECT_EQ(RowsText(QueryRows(ours, "SELECT * FROM ducklake_table_stats")), "1|104|103|1120\n");
  EXPECT_EQ(RowsText(QueryRows(ours, "SELECT * FROM ducklake_table_column_stats")),
            "1|1|0|NULL|'1'|'109'|NULL\n1|2|0|NULL|'a'|'x99'|NULL\n");

  // Read back: the visible inlined rows and every row with its end_snapshot.
  auto snapshot = lake->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto table = lake->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ((*table)->table->inlined_tables.size(), 1u);
  ASSERT_EQ((*table)->data_files.size(), 1u);
  ASSERT_EQ((*table)->data_files[0].inlined_deletes.size(), 1u);
  EXPECT_EQ((*table)->data_files[0].inlined_deletes[0].position, 5);
  EXPECT_EQ((*table)->FileRowCount(), 99);
  auto visible = lake->ReadInlinedRows(**table, (*table)->table->inlined_tables[0]);
  ASSERT_TRUE(visible.ok()) << visible.status().ToString();
  ASSERT_EQ((*visible)->num_rows, 2);
  EXPECT_EQ((*visible)->column(0).GetValue(0), Value::Int64(0));
  EXPECT_EQ((*visible)->column(4).GetValue(0), Value::Varchar("a"));
  EXPECT_EQ((*visible)->column(0).GetValue(1), Value::Int64(2));
  EXPECT_EQ((*visible)->column(4).GetValue(1), Value::Varchar("cc"));
  auto all = lake->ReadInlinedRows(**table, (*table)->table->inlined_tables[0],
                                   InlinedRowSelection::kAll);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ((*all)->num_rows, 4);
  EXPECT_EQ((*all)->column(2).GetValue(1), Value::Int64(4));  // row 1 deleted at 4
  EXPECT_EQ((*all)->column(2).GetValue(2), Value::Int64(5));  // old version of row 2
}

TEST(CommitTest, EveryInlinableTypeRoundTrips) {
  TempDir dir;
  auto lake = testing::MakeLake(dir, 100);
  ASSERT_NE(lake, nullptr);
  const double inf = std::numeric_limits<double>::infinity();
  std::string uuid(16, '\x5a');
  uuid[0] = '\xff';
  struct Col {
    DataType type;
    std::vector<Value> values;
  };
  std::vector<Col> cols = {
      {DataType(TypeId::kBoolean), {Value::Boolean(true), Value::Boolean(false)}},
      {DataType(TypeId::kInt8), {Value::Int(DataType(TypeId::kInt8), -128), Value::Int(DataType(TypeId::kInt8), 127)}},
      {DataType(TypeId::kInt64), {Value::Int64(std::numeric_limits<int64_t>::min()), Value::Int64(7)}},
      {DataType(TypeId::kUInt64), {Value::UInt(DataType(TypeId::kUInt64), ~uint64_t{0}), Value::UInt(DataType(TypeId::kUInt64), 3)}},
      {DataType(TypeId::kInt128), {Value::Int128(DataType(TypeId::kInt128), -(static_cast<__int128>(1) << 100)), Value::Int128(DataType(TypeId::kInt128), 1)}},
      {DataType(TypeId::kFloat64), {Value::Float64(std::nan("")), Value::Float64(-0.0)}},
      {DataType(TypeId::kFloat32), {Value::Double(DataType(TypeId::kFloat32), -inf), Value::Double(DataType(TypeId::kFloat32), 0.1f)}},
      {DataType::Decimal(30, 5), {Value::Int128(DataType::Decimal(30, 5), -12345678901234567), Value::Int128(DataType::Decimal(30, 5), 5)}},
      {DataType(TypeId::kDate), {Value::Int(DataType(TypeId::kDate), std::numeric_limits<int32_t>::max()), Value::Int(DataType(TypeId::kDate), -800000)}},
      {DataType(TypeId::kTime), {Value::Int(DataType(TypeId::kTime), 86399999999), Value::Int(DataType(TypeId::kTime), 0)}},
      {DataType(TypeId::kTimestamp), {Value::Int(DataType(TypeId::kTimestamp), -std::numeric_limits<int64_t>::max()), Value::Int(DataType(TypeId::kTimestamp), 1)}},
      {DataType(TypeId::kTimestampTz), {Value::Int(DataType(TypeId::kTimestampTz), 1640995200123456), Value::Int(DataType(TypeId::kTimestampTz), std::numeric_limits<int64_t>::max())}},
      {DataType(TypeId::kTimestampNs), {Value::Int(DataType(TypeId::kTimestampNs), 123456789), Value::Int(DataType(TypeId::kTimestampNs), -1)}},
      {DataType(TypeId::kUuid), {Value::Bytes(DataType(TypeId::kUuid), uuid), Value::Null(DataType(TypeId::kUuid))}},
      {DataType(TypeId::kBlob), {Value::Bytes(DataType(TypeId::kBlob), std::string("\0\x01\\x", 4)), Value::Bytes(DataType(TypeId::kBlob), "")}},
      {DataType(TypeId::kVarchar), {Value::Varchar("it's \"q\""), Value::Varchar("")}},
  };
  std::vector<ColumnInfo> columns;
  for (size_t i = 0; i < cols.size(); ++i) {
    columns.push_back(MakeColumn(static_cast<int64_t>(i + 1), StrCat("c", i), cols[i].type));
  }
  std::vector<std::vector<Value>> rows(2);
  for (const Col& c : cols) {
    rows[0].push_back(c.values[0]);
    rows[1].push_back(c.values[1]);
  }
  LakeChanges changes;
  const int64_t t = changes.NewProvisionalId();
  changes.Add(CreateTableChange{t, 0, "all_types", columns});
  changes.Add(InlinedInsert{t, MakeRows(columns, rows), std::nullopt});
  CommitResult r = MustCommit(*lake, changes);
  EXPECT_EQ(*r.snapshot.changes_made, "created_table:\"main\".\"all_types\",inlined_insert:1");
  // The inlined table declares its columns as the SQLite scanner does for the extension:
  // integers BIGINT, BLOB, everything else VARCHAR.
  Rows types = QueryRows(dir.Join("lake.sqlite"),
                         "SELECT type FROM pragma_table_info('ducklake_inlined_data_1_1')");
  ASSERT_EQ(types.size(), cols.size() + 3);
  EXPECT_EQ(types[3][0], "'BIGINT'");   // BOOLEAN: 0 or 1
  EXPECT_EQ(types[4][0], "'BIGINT'");   // TINYINT
  EXPECT_EQ(types[8][0], "'VARCHAR'");   // DOUBLE: text, as the extension (NaN, -0.0)
  EXPECT_EQ(types[10][0], "'VARCHAR'");  // DECIMAL(30,5): text, exact past 15 digits
  EXPECT_EQ(types[11][0], "'VARCHAR'");  // DATE
  EXPECT_EQ(types[14][0], "'VARCHAR'");  // TIMESTAMP WITH TIME ZONE

  auto snapshot = lake->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto table = lake->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok());
  ASSERT_EQ((*table)->table->inlined_tables.size(), 1u);
  auto read = lake->ReadInlinedRows(**table, (*table)->table->inlined_tables[0]);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ((*read)->num_rows, 2);
  for (size_t c = 0; c < cols.size(); ++c) {
    for (int64_t row = 0; row < 2; ++row) {
      EXPECT_EQ((*read)->column(static_cast<int>(c) + 3).GetValue(row),
                cols[c].values[static_cast<size_t>(row)])
          << cols[c].type.ToString() << " row " << row;
    }
  }
  // Statistics from inlined rows: NaN flagged, not a bound; no bounds for int128.
  Rows stats = QueryRows(dir.Join("lake.sqlite"),
                         "SELECT column_id, contains_null, contains_nan, min_value, max_value "
                         "FROM ducklake_table_column_stats WHERE column_id IN (5, 6, 14) "
                         "ORDER BY column_id");
  EXPECT_EQ(RowsText(stats),
            "5|0|NULL|NULL|NULL\n6|0|1|'-0.0'|'-0.0'\n14|1|NULL|"
            "'ff5a5a5a-5a5a-5a5a-5a5a-5a5a5a5a5a5a'|'ff5a5a5a-5a5a-5a5a-5a5a-5a5a5a5a5a5a'\n");
}

TEST(CommitTest, SchemaObjectsTokensAndQuoting) {
  TempDir dir;
  auto lake = testing::MakeLake(dir, 0);
  ASSERT_NE(lake, nullptr);
  LakeChanges changes;
  const int64_t s = changes.NewProvisionalId();
  const int64_t t = changes.NewProvisionalId();
  const int64_t v = changes.NewProvisionalId();
  changes.Add(CreateSchemaChange{s, "we\"ird s"});
  ColumnInfo with_default = MakeColumn(1, "a", DataType(TypeId::kInt32));
  with_default.default_value = {ColumnDefault::Kind::kLiteral, "7", ""};
  with_default.nulls_allowed = false;
  ColumnInfo expr = MakeColumn(2, "b", DataType(TypeId::kTimestamp));
  expr.default_value = {ColumnDefault::Kind::kExpression, "now()", "duckdb"};
  changes.Add(CreateTableChange{t, s, "t, x", {with_default, expr}});
  changes.Add(CreateViewChange{v, s, "v", "SELECT 1", {"x", "y\"z"}});
  CommitResult r = MustCommit(*lake, changes);
  EXPECT_EQ(*r.snapshot.changes_made,
            "created_schema:\"we\"\"ird s\",created_table:\"we\"\"ird s\".\"t, x\","
            "created_view:\"we\"\"ird s\".\"v\"");
  EXPECT_EQ(r.snapshot.schema_version, 1);
  EXPECT_EQ(r.snapshot.next_catalog_id, 4);
  EXPECT_EQ(r.id_mapping.at(s), 1);
  EXPECT_EQ(r.id_mapping.at(t), 2);
  EXPECT_EQ(r.id_mapping.at(v), 3);
  const std::string db = dir.Join("lake.sqlite");
  Rows schema = QueryRows(db, "SELECT schema_uuid, path FROM ducklake_schema WHERE schema_id = 1");
  EXPECT_EQ(schema[0][1], StrCat("'", schema[0][0].substr(1, 36), "/'"));  // not a plain name
  Rows table = QueryRows(db, "SELECT table_uuid, path FROM ducklake_table");
  EXPECT_EQ(table[0][1], StrCat("'", table[0][0].substr(1, 36), "/'"));
  EXPECT_EQ(table[0][0].substr(15, 1), "7");  // uuid v7
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT * FROM ducklake_column ORDER BY column_id")),
            "1|1|NULL|2|1|'a'|'int32'|NULL|'7'|0|NULL|'literal'|'duckdb'\n"
            "2|1|NULL|2|2|'b'|'timestamp'|NULL|'now()'|1|NULL|'expression'|'duckdb'\n");
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT view_id, begin_snapshot, end_snapshot, schema_id, "
                                   "view_name, dialect, sql, column_aliases FROM ducklake_view")),
            "3|1|NULL|1|'v'|'duckdb'|'SELECT 1'|'\"x\",\"y\"\"z\"'\n");
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT * FROM ducklake_schema_versions")), "1|1|2\n");

  auto loaded = lake->LoadSnapshot();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto loaded_table = (*loaded)->FindTable("we\"ird s", "t, x");
  ASSERT_NE(loaded_table, nullptr);
  EXPECT_EQ(loaded_table->columns[0].default_value.text, "7");
  EXPECT_FALSE(loaded_table->columns[0].nulls_allowed);
  EXPECT_EQ(loaded_table->columns[1].default_value.kind, ColumnDefault::Kind::kExpression);
  const ViewInfo* view = (*loaded)->FindView("we\"ird s", "v");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->column_aliases, (std::vector<std::string>{"x", "y\"z"}));

  // Drops: tokens carry ids, rows get end_snapshot.
  LakeChanges drops;
  drops.Add(DropViewChange{3});
  drops.Add(DropTableChange{2});
  drops.Add(DropSchemaChange{1});
  CommitResult d = MustCommit(*lake, drops);
  EXPECT_EQ(*d.snapshot.changes_made, "dropped_schema:1,dropped_table:2,dropped_view:3");
  EXPECT_EQ(d.snapshot.schema_version, 2);
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT count(*) FROM ducklake_column WHERE end_snapshot = 2")),
            "2\n");
  auto after = lake->LoadSnapshot();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ((*after)->schemas().size(), 1u);
  EXPECT_TRUE((*after)->tables().empty());
  EXPECT_TRUE((*after)->views().empty());

  // The token text parses back to the same changes.
  auto parsed = catalog_internal::ParseChangesMade(*r.snapshot.changes_made);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(catalog_internal::FormatChangesMade(*parsed), *r.snapshot.changes_made);
  EXPECT_FALSE(catalog_internal::ParseChangesMade("made_up:1").ok());
  EXPECT_FALSE(catalog_internal::ParseChangesMade("created_table:\"a\"").ok());
  EXPECT_FALSE(catalog_internal::ParseChangesMade("dropped_table:x").ok());
}

TEST(CommitTest, CorruptRowsFailCleanlyAndWriteNothing) {
  TempDir dir;
  auto lake = testing::MakeLake(dir, 0);
  ASSERT_NE(lake, nullptr);
  LakeChanges create;
  create.Add(CreateTableChange{create.NewProvisionalId(), 0, "t",
                               {MakeColumn(1, "a", DataType(TypeId::kInt32))}});
  MustCommit(*lake, create);
  auto insert = [](int64_t min, int64_t max) {
    LakeChanges c;
    NewDataFile f;
    f.table_id = 1;
    f.path = StrCat("f", min, ".parquet");
    f.record_count = 10;
    f.file_size_bytes = 100;
    f.column_stats = {{1, 40, 10, 0, I32(static_cast<int32_t>(min)),
                       I32(static_cast<int32_t>(max)), std::nullopt, std::nullopt, {}}};
    c.Add(f);
    return c;
  };
  MustCommit(*lake, insert(1, 5));
  const std::string db = dir.Join("lake.sqlite");
  auto count = [&] {
    return RowsText(QueryRows(db, "SELECT (SELECT count(*) FROM ducklake_snapshot), "
                                  "(SELECT count(*) FROM ducklake_data_file), "
                                  "(SELECT count(*) FROM ducklake_file_column_stats)"));
  };
  auto corrupt = [&](const std::string& sql) {
    auto store = OpenSqliteCatalogStore(db, false);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->Execute(sql, {}).ok());
  };
  const std::string before = count();

  corrupt("UPDATE ducklake_table_stats SET next_row_id = 'abc'");
  auto r = CommitLakeChanges(*lake, 2, insert(2, 3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r.status().message().find("ducklake_table_stats"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("next_row_id"), std::string::npos);
  EXPECT_NE(r.status().message().find("'abc'"), std::string::npos);
  EXPECT_EQ(count(), before);
  corrupt("UPDATE ducklake_table_stats SET next_row_id = 10");

  corrupt("UPDATE ducklake_table_column_stats SET min_value = 'one'");
  r = CommitLakeChanges(*lake, 2, insert(0, 3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r.status().message().find("min_value"), std::string::npos) << r.status().message();
  EXPECT_EQ(count(), before);
  corrupt("UPDATE ducklake_table_column_stats SET min_value = '1'");

  corrupt("UPDATE ducklake_snapshot_changes SET changes_made = 'exploded_table:1' "
          "WHERE snapshot_id = 2");
  r = CommitLakeChanges(*lake, 1, insert(0, 3));  // from 1: snapshot 2's tokens are read
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r.status().message().find("exploded_table"), std::string::npos);
  EXPECT_EQ(count(), before);

  // The store works after the failures.
  CommitResult ok = MustCommit(*lake, insert(0, 9));
  EXPECT_EQ(ok.snapshot.snapshot_id, 3);
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT min_value, max_value FROM ducklake_table_column_stats")),
            "'0'|'9'\n");
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT row_id_start FROM ducklake_data_file ORDER BY 1")),
            "0\n10\n");
}

TEST(CommitTest, ArgumentErrors) {
  TempDir dir;
  auto lake = testing::MakeLake(dir, 0);
  ASSERT_NE(lake, nullptr);
  LakeChanges empty;
  auto nothing = CommitLakeChanges(*lake, 0, empty);
  ASSERT_TRUE(nothing.ok());
  EXPECT_EQ(nothing->snapshot.snapshot_id, -1);

  LakeChanges dangling;
  dangling.Add(InlinedRowDeletes{-5, {1}});
  auto r = CommitLakeChanges(*lake, 0, dangling);
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();

  LakeChanges unknown;
  unknown.Add(DropTableChange{42});
  EXPECT_EQ(CommitLakeChanges(*lake, 0, unknown).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(CommitLakeChanges(*lake, 5, unknown).status().code(), StatusCode::kInvalidArgument);

  auto read_only = Lake::Open(dir.Join("lake.sqlite"));
  ASSERT_TRUE(read_only.ok());
  LakeChanges schema;
  schema.Add(CreateSchemaChange{schema.NewProvisionalId(), "s"});
  EXPECT_EQ(CommitLakeChanges(**read_only, 0, schema).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(QueryRows(dir.Join("lake.sqlite"), "SELECT count(*) FROM ducklake_snapshot")[0][0],
            "1");
}

}  // namespace
}  // namespace tarn
