// The metadata model on the fixture lakes: nested column trees, schema evolution and
// defaults, inlined data, and column statistics (NaN, ±inf) decoded by column type. Every
// expectation here was read off the fixture catalogs with the sqlite3 CLI and spec.sql.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "support/test_util.h"
#include "tarn/catalog.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::SharedPath;
using testing::TempDir;

std::string FixtureDir(std::string_view name) {
  return SharedPath(StrCat("fixtures/ducklake/", name));
}

std::unique_ptr<Lake> OpenFixture(std::string_view name, const TempDir& dir) {
  std::string source = FixtureDir(name) + "/catalog.sqlite";
  EXPECT_TRUE(FileExists(source));
  std::string target = dir.Join(StrCat(name, ".sqlite"));
  std::filesystem::copy_file(source, target, std::filesystem::copy_options::overwrite_existing);
  LakeOpenOptions options;
  options.data_path = FixtureDir(name) + "/data/";
  auto lake = Lake::Open(StrCat("ducklake:sqlite:", target), options);
  EXPECT_TRUE(lake.ok()) << lake.status().ToString();
  return lake.ok() ? std::move(lake).value() : nullptr;
}

std::shared_ptr<const TableMetadata> Load(Lake* lake, int64_t snapshot_id, int64_t table_id) {
  auto snapshot = lake->LoadSnapshot(SnapshotSelector::Id(snapshot_id));
  EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  if (!snapshot.ok()) return nullptr;
  auto table = lake->LoadTable(**snapshot, table_id);
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  return table.ok() ? *table : nullptr;
}

TEST(CatalogModelTest, NestedColumnTrees) {
  TempDir dir;
  auto lake = OpenFixture("nested", dir);
  ASSERT_NE(lake, nullptr);
  auto snapshot = lake->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto n = (*snapshot)->FindTable("main", "n");
  ASSERT_NE(n, nullptr);
  ASSERT_EQ(n->columns.size(), 7u);
  const char* const kSql[] = {
      "INTEGER",
      "STRUCT(x INTEGER, y VARCHAR, z STRUCT(p DOUBLE, q BOOLEAN))",
      "INTEGER[]",
      "VARCHAR[]",
      "MAP(VARCHAR, INTEGER)",
      "INTEGER[][]",
      "STRUCT(a INTEGER, b INTEGER[])[]"};
  const int64_t kIds[] = {1, 2, 8, 10, 12, 15, 18};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(n->columns[i].type.ToString(), kSql[i]) << n->columns[i].name;
    EXPECT_EQ(n->columns[i].column_id, kIds[i]);
    EXPECT_EQ(n->schema.fields[i].field_id, kIds[i]);
    Result<DataType> parsed = ParseSqlType(kSql[i]);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->ToString(), n->columns[i].type.ToString());
  }
  // st: x(3), y(4), z(5){p(6), q(7)}
  const ColumnInfo& st = n->columns[1];
  ASSERT_EQ(st.children.size(), 3u);
  EXPECT_EQ(st.children[2].name, "z");
  EXPECT_EQ(st.children[2].column_id, 5);
  EXPECT_EQ(st.children[2].parent_column, 2);
  ASSERT_EQ(st.children[2].children.size(), 2u);
  EXPECT_EQ(st.children[2].children[1].column_id, 7);
  EXPECT_EQ(st.type.children[2].type.children[1].field_id, 7);  // field ids go down the tree
  // m: key(13), value(14) with their field ids inside the map type.
  const ColumnInfo& m = n->columns[4];
  ASSERT_EQ(m.children.size(), 2u);
  EXPECT_EQ(m.children[0].name, "key");
  EXPECT_EQ(m.type.children[0].type.children[0].field_id, 13);
  EXPECT_EQ(m.type.children[0].type.children[1].field_id, 14);
  // sl: element(19){a(20), b(21){element(22)}}
  const ColumnInfo& sl = n->columns[6];
  ASSERT_EQ(sl.children.size(), 1u);
  EXPECT_EQ(sl.children[0].column_id, 19);
  EXPECT_EQ(sl.children[0].children[1].children[0].column_id, 22);
  EXPECT_EQ(n->FindColumn(22)->name, "element");
  EXPECT_EQ(n->FindColumn(21)->type.ToString(), "INTEGER[]");
  EXPECT_EQ(n->FindColumn(99), nullptr);

  auto table = Load(lake.get(), 4, 1);
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->data_files.size(), 2u);
  // Leaf stats only; nested parents have none.
  const DataFileInfo& f0 = table->data_files[0];
  EXPECT_EQ(f0.FindStats(2), nullptr);
  ASSERT_NE(f0.FindStats(6), nullptr);
  EXPECT_EQ(f0.FindStats(6)->min, Value::Float64(0.5));
  EXPECT_EQ(f0.FindStats(6)->max, Value::Float64(999.5));
  EXPECT_EQ(f0.FindStats(6)->contains_nan, false);
  EXPECT_EQ(f0.FindStats(9)->null_count, 1100);
  EXPECT_EQ(f0.FindStats(9)->value_count, 1800);
  EXPECT_EQ(f0.FindStats(11)->min, Value::Varchar(""));  // '' is a value, not NULL
  EXPECT_EQ(f0.FindStats(11)->max, Value::Varchar("a999"));
  EXPECT_FALSE(f0.FindStats(11)->contains_nan.has_value());
  EXPECT_EQ(f0.FindStats(7)->max, Value::Boolean(true));
  EXPECT_EQ(table->data_files[1].row_id_start, 2000);
  EXPECT_EQ(table->FileRowCount(), 2000 - 801 + 134);  // expected/main.n@4.csv: 1333 rows
}

TEST(CatalogModelTest, EvolutionColumnsDefaultsAndRenames) {
  TempDir dir;
  auto lake = OpenFixture("evolution", dir);
  ASSERT_NE(lake, nullptr);
  auto at = [&](int64_t id) {
    auto snapshot = lake->LoadSnapshot(SnapshotSelector::Id(id));
    EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
    return *snapshot;
  };
  auto names_types = [](const TableInfo& table) {
    std::string out;
    for (const ColumnInfo& c : table.columns) out += StrCat(c.column_id, ":", c.name, ":", c.type.ToString(), " ");
    return out;
  };
  auto s2 = at(2);
  EXPECT_EQ(names_types(*s2->FindTable("main", "e")), "1:a:INTEGER 2:b:VARCHAR 3:c:FLOAT ");
  auto s3 = at(3);
  auto e3 = s3->FindTable("main", "e");
  EXPECT_EQ(names_types(*e3), "1:a:INTEGER 2:b:VARCHAR 3:c:FLOAT 4:d:BIGINT ");
  const ColumnInfo* d = e3->FindColumn(4);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->initial_default.kind, ColumnDefault::Kind::kLiteral);
  EXPECT_EQ(d->initial_default.text, "42");
  ASSERT_TRUE(d->initial_value.has_value());
  EXPECT_EQ(*d->initial_value, Value::Int64(42));
  EXPECT_EQ(d->default_value.kind, ColumnDefault::Kind::kLiteral);
  EXPECT_EQ(d->default_value.text, "42");
  EXPECT_EQ(d->default_value.dialect, "duckdb");
  // Column a's default_value is the string 'NULL': no default.
  EXPECT_EQ(e3->FindColumn(1)->default_value.kind, ColumnDefault::Kind::kNone);
  EXPECT_EQ(e3->FindColumn(1)->initial_default.kind, ColumnDefault::Kind::kNone);
  EXPECT_EQ(names_types(*at(5)->FindTable("main", "e")),
            "1:a:INTEGER 2:b2:VARCHAR 3:c:FLOAT 4:d:BIGINT ");
  EXPECT_EQ(names_types(*at(7)->FindTable("main", "e")),
            "1:a:BIGINT 2:b2:VARCHAR 3:c:DOUBLE 4:d:BIGINT ");
  EXPECT_EQ(names_types(*at(10)->FindTable("main", "e")), "1:a:BIGINT 2:b2:VARCHAR 3:c:DOUBLE ");
  auto s13 = at(13);
  EXPECT_EQ(names_types(*s13->FindTable("main", "e")),
            "1:a:BIGINT 2:b2:VARCHAR 3:c:DOUBLE 5:st:STRUCT(x INTEGER, y VARCHAR) ");
  EXPECT_EQ(s13->FindTable("main", "e_renamed"), nullptr);
  auto s14 = at(14);
  EXPECT_EQ(s14->FindTable("main", "e"), nullptr);
  auto renamed = s14->FindTable("main", "e_renamed");
  ASSERT_NE(renamed, nullptr);
  EXPECT_EQ(renamed->table_id, 1);
  EXPECT_EQ(renamed->begin_snapshot, 14);
  EXPECT_EQ(renamed->path, FixtureDir("evolution") + "/data/main/e/");  // path kept on rename
  EXPECT_EQ(s14->schemas().size(), 1u);
  auto s16 = at(16);
  ASSERT_EQ(s16->schemas().size(), 2u);
  auto other = s16->FindTable("s2", "other");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->table_id, 3);
  EXPECT_EQ(other->path, FixtureDir("evolution") + "/data/s2/other/");
  auto other_files = lake->LoadTable(*s16, 3);
  ASSERT_TRUE(other_files.ok());
  ASSERT_EQ((*other_files)->data_files.size(), 1u);
  EXPECT_EQ((*other_files)->data_files[0].record_count, 50);
  EXPECT_TRUE(FileExists((*other_files)->data_files[0].path));
  auto s17 = at(17);
  EXPECT_EQ(s17->FindTable("s2", "other"), nullptr);
  EXPECT_NE(s17->FindSchema("S2"), nullptr);

  // Stats written when column a was int32 decode under its current type (int64).
  auto table = Load(lake.get(), 17, 1);
  ASSERT_NE(table, nullptr);
  ASSERT_FALSE(table->data_files.empty());
  const FileColumnStats* a = table->data_files[0].FindStats(1);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->min, Value::Int64(0));
  EXPECT_EQ(a->max, Value::Int64(99));
  // Delete file 9 on file 0: cumulative partial file (begin 9, partial_max 13).
  ASSERT_TRUE(table->data_files[0].delete_file.has_value());
  EXPECT_EQ(table->data_files[0].delete_file->partial_max, 13);
  EXPECT_EQ(table->FileRowCount(), 290);  // expected/main.e_renamed@17.csv
}

TEST(CatalogModelTest, InlinedDataAndInlinedDeletes) {
  TempDir dir;
  auto lake = OpenFixture("inlined", dir);
  ASSERT_NE(lake, nullptr);
  auto snapshot = lake->LoadSnapshot(SnapshotSelector::Id(9));
  ASSERT_TRUE(snapshot.ok());
  auto il = (*snapshot)->FindTable("main", "il");
  ASSERT_NE(il, nullptr);
  ASSERT_EQ(il->inlined_tables.size(), 1u);
  const InlinedDataTable& inlined = il->inlined_tables[0];
  EXPECT_EQ(inlined.table_name, "ducklake_inlined_data_1_1");
  EXPECT_EQ(inlined.schema_version, 1);
  EXPECT_EQ(inlined.schema_snapshot, 1);
  ASSERT_EQ(inlined.columns.size(), 2u);
  EXPECT_EQ(inlined.columns[1].name, "v");

  auto t9 = lake->LoadTable(**snapshot, 1);
  ASSERT_TRUE(t9.ok());
  EXPECT_TRUE((*t9)->has_inlined_delete_table);
  for (const DataFileInfo& file : (*t9)->data_files) EXPECT_TRUE(file.inlined_deletes.empty());
  auto rows9 = lake->ReadInlinedRows(**t9, inlined);
  ASSERT_TRUE(rows9.ok()) << rows9.status().ToString();
  const Batch& b = **rows9;
  ASSERT_EQ(b.num_rows, 1);
  ASSERT_EQ(b.num_columns(), 5);
  EXPECT_EQ(b.schema->fields[3].name, "id");
  EXPECT_EQ(b.schema->fields[3].field_id, 1);
  EXPECT_EQ(b.column(0).GetValue(0), Value::Int64(103));
  EXPECT_EQ(b.column(1).GetValue(0), Value::Int64(9));
  // end_snapshot is the stored value: the deletion at 10 is already recorded.
  EXPECT_EQ(b.column(2).GetValue(0), Value::Int64(10));
  EXPECT_EQ(b.column(3).GetValue(0), Value::Int(DataType(TypeId::kInt32), 500));
  EXPECT_EQ(b.column(4).GetValue(0), Value::Varchar("after flush"));
  EXPECT_TRUE(b.Validate().ok());

  // At 10 the row is deleted (end_snapshot 10); kAll still returns it.
  auto s10 = lake->LoadSnapshot(SnapshotSelector::Id(10));
  ASSERT_TRUE(s10.ok());
  auto t10 = lake->LoadTable(**s10, 1);
  ASSERT_TRUE(t10.ok());
  const InlinedDataTable& inlined10 = (*s10)->FindTableById(1)->inlined_tables[0];
  auto visible = lake->ReadInlinedRows(**t10, inlined10);
  ASSERT_TRUE(visible.ok());
  EXPECT_EQ((*visible)->num_rows, 0);
  auto all = lake->ReadInlinedRows(**t10, inlined10, InlinedRowSelection::kAll);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ((*all)->num_rows, 1);
  EXPECT_EQ((*all)->column(2).GetValue(0), Value::Int64(10));
  // Inlined deletes at 10: data file 3 position 10 (id 20), data file 4 position 0 (id 1).
  ASSERT_EQ((*t10)->data_files.size(), 2u);
  const DataFileInfo& f3 = (*t10)->data_files[0];
  const DataFileInfo& f4 = (*t10)->data_files[1];
  EXPECT_EQ(f3.data_file_id, 3);
  ASSERT_EQ(f3.inlined_deletes.size(), 1u);
  EXPECT_EQ(f3.inlined_deletes[0].position, 10);
  EXPECT_EQ(f3.inlined_deletes[0].begin_snapshot, 10);
  ASSERT_EQ(f4.inlined_deletes.size(), 1u);
  EXPECT_EQ(f4.inlined_deletes[0].position, 0);
  // The flushed file mixes snapshots 2..5 and carries embedded row ids from 0.
  EXPECT_EQ(f4.begin_snapshot, 2);
  EXPECT_EQ(f4.partial_max, 5);
  EXPECT_EQ(f4.row_id_start, 0);
  ASSERT_TRUE(f4.delete_file.has_value());
  EXPECT_FALSE(f4.delete_file->is_partial());
  EXPECT_EQ((*t10)->FileRowCount(), 99);  // expected/main.il@10.csv: 99 rows
}

TEST(CatalogModelTest, CompactedFilesWithoutRowIdStart) {
  TempDir dir;
  auto lake = OpenFixture("compacted", dir);
  ASSERT_NE(lake, nullptr);
  auto table = Load(lake.get(), 11, 1);
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->data_files.size(), 1u);
  const DataFileInfo& merged = table->data_files[0];
  EXPECT_EQ(merged.data_file_id, 19);
  EXPECT_FALSE(merged.row_id_start.has_value());
  EXPECT_EQ(merged.begin_snapshot, 9);
  EXPECT_EQ(merged.partial_max, 10);
  EXPECT_FALSE(merged.delete_file.has_value());
  EXPECT_EQ(merged.record_count, 1041);
  // At 8 the five original files are visible, each with its delete file.
  auto t8 = Load(lake.get(), 8, 1);
  ASSERT_NE(t8, nullptr);
  std::vector<int64_t> ids;
  for (const DataFileInfo& file : t8->data_files) {
    ids.push_back(file.data_file_id);
    EXPECT_TRUE(file.delete_file.has_value());
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{0, 1, 2, 6, 7}));
}

TEST(CatalogModelTest, BasicStatisticsDecodeByType) {
  TempDir dir;
  auto lake = OpenFixture("basic", dir);
  ASSERT_NE(lake, nullptr);
  auto table = Load(lake.get(), 10, 1);
  ASSERT_NE(table, nullptr);
  const DataFileInfo& f0 = table->data_files[0];
  ASSERT_EQ(f0.data_file_id, 0);
  ASSERT_EQ(f0.column_stats.size(), 19u);
  auto min = [&](int64_t column) { return f0.FindStats(column)->min; };
  auto max = [&](int64_t column) { return f0.FindStats(column)->max; };
  EXPECT_EQ(max(1), Value::Int64(4999));
  EXPECT_EQ(max(2), Value::Int(DataType(TypeId::kInt32), 34993));
  EXPECT_EQ(max(4), Value::Int(DataType(TypeId::kInt8), 99));
  EXPECT_EQ(max(5), Value::UInt(DataType(TypeId::kUInt8), 199));
  EXPECT_EQ(max(7), Value::UInt(DataType(TypeId::kUInt64), 4999014997ULL));
  EXPECT_EQ(max(8), Value::Float64(1666.3333333333333));
  EXPECT_EQ(max(9), Value::Double(DataType(TypeId::kFloat32), static_cast<float>(714.1429)));
  EXPECT_EQ(min(10), Value::Varchar("str_0"));
  EXPECT_EQ(min(11), Value::Int(DataType(TypeId::kDate), 18262));   // 2020-01-01
  EXPECT_EQ(max(11), Value::Int(DataType(TypeId::kDate), 19261));   // 2022-09-26
  EXPECT_EQ(min(12), Value::Int(DataType(TypeId::kTimestamp), 1622505600LL * 1000000));
  EXPECT_EQ(min(13), Value::Int(DataType(TypeId::kTimestampTz), 1640995200LL * 1000000));
  EXPECT_EQ(max(14), Value::Int(DataType(TypeId::kTime), (1 * 3600 + 23 * 60 + 19) * 1000000LL));
  EXPECT_EQ(max(15), Value::Int128(DataType::Decimal(12, 3), 7498500));
  EXPECT_EQ(max(16), Value::Int128(DataType::Decimal(30, 5), static_cast<__int128>(6171604882110LL)));
  EXPECT_EQ(min(17), Value::Boolean(false));
  EXPECT_EQ(max(17), Value::Boolean(true));
  EXPECT_EQ(min(18), Value::Bytes(DataType(TypeId::kBlob), "blob0"));  // hex 626C6F6230
  std::string uuid("\x00\x04\xd0\xb5\x9e\x19\x46\x1f\xf1\x26\xe3\xa0\x8a\x81\x4c\x33", 16);
  EXPECT_EQ(min(19), Value::Bytes(DataType(TypeId::kUuid), uuid));
  EXPECT_EQ(f0.FindStats(19)->min_text, "0004d0b5-9e19-461f-f126-e3a08a814c33");

  // File 2 holds NaN, ±inf, -0.0 and NULLs.
  const DataFileInfo& f2 = table->data_files[1];
  ASSERT_EQ(f2.data_file_id, 2);
  const FileColumnStats* f64 = f2.FindStats(8);
  ASSERT_NE(f64, nullptr);
  EXPECT_EQ(f64->min, Value::Float64(-INFINITY));
  EXPECT_EQ(f64->max, Value::Float64(INFINITY));
  EXPECT_EQ(f64->contains_nan, true);
  EXPECT_EQ(f64->null_count, 1);
  EXPECT_EQ(f64->value_count, 6);
  EXPECT_EQ(f2.FindStats(9)->min, Value::Double(DataType(TypeId::kFloat32), -INFINITY));
  EXPECT_EQ(f2.FindStats(10)->min, Value::Varchar(""));
  const FileColumnStats* all_null = f2.FindStats(2);
  EXPECT_TRUE(all_null->min.is_null());
  EXPECT_FALSE(all_null->min_text.has_value());
  EXPECT_EQ(all_null->null_count, 7);

  // Table-wide stats.
  ASSERT_EQ(table->column_stats.size(), 19u);
  EXPECT_EQ(table->column_stats[7].column_id, 8);
  EXPECT_EQ(table->column_stats[7].contains_nan, true);
  EXPECT_EQ(table->column_stats[7].min, Value::Float64(-INFINITY));
  EXPECT_EQ(table->column_stats[0].contains_null, false);
  EXPECT_EQ(table->column_stats[9].max, Value::Varchar("str_9_u"));
}

TEST(CatalogModelTest, NanStatistics) {
  TempDir dir;
  auto lake = OpenFixture("nan", dir);
  ASSERT_NE(lake, nullptr);
  auto table = Load(lake.get(), 8, 1);
  ASSERT_NE(table, nullptr);
  std::vector<int64_t> ids;
  for (const DataFileInfo& file : table->data_files) ids.push_back(file.data_file_id);
  ASSERT_EQ(ids, (std::vector<int64_t>{0, 1, 2, 5, 7}));
  const DataFileInfo& f0 = table->data_files[0];
  EXPECT_EQ(f0.FindStats(2)->min, Value::Float64(-INFINITY));
  EXPECT_EQ(f0.FindStats(2)->max, Value::Float64(INFINITY));
  EXPECT_EQ(f0.FindStats(2)->contains_nan, true);
  EXPECT_EQ(f0.FindStats(3)->contains_nan, true);
  EXPECT_EQ(table->data_files[1].FindStats(3)->max,
            Value::Double(DataType(TypeId::kFloat32), 19.0));
  EXPECT_EQ(table->data_files[1].FindStats(2)->contains_nan, false);
  // File 5: x is NaN in both rows -> no min/max, contains_nan; y has -1.0 .. 1.0.
  const DataFileInfo& f5 = table->data_files[3];
  EXPECT_TRUE(f5.FindStats(2)->min.is_null());
  EXPECT_TRUE(f5.FindStats(2)->max.is_null());
  EXPECT_EQ(f5.FindStats(2)->contains_nan, true);
  EXPECT_EQ(f5.FindStats(3)->min, Value::Double(DataType(TypeId::kFloat32), -1.0));
  // File 7: x holds 0.0 twice; the stats say 0.0 .. 0.0.
  const DataFileInfo& f7 = table->data_files[4];
  EXPECT_EQ(f7.FindStats(2)->min, Value::Float64(0.0));
  EXPECT_TRUE(f7.FindStats(3)->max.is_null());
  EXPECT_EQ(f7.FindStats(3)->contains_nan, true);
  EXPECT_EQ(table->FileRowCount(), 17);  // expected/main.fl@8.csv
}

}  // namespace
}  // namespace tarn
