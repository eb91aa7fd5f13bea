// Struct field evolution through the WriteTransaction API: the promotions DuckDB's max logical
// type allows (the pairs measured with DuckDB), nested fields added, dropped and renamed with
// the rows of older files read under the new fields, and the changes a transaction hands to
// the commit (one per field row, nothing for a field added and dropped again).
#include <gtest/gtest.h>

#include "table/write_ddl.h"
#include "write_test_util.h"

namespace tarn {
namespace {

using write_testing::BatchOf;
using write_testing::ChangesOf;
using write_testing::EmptyLake;
using write_testing::ReaderOf;
using write_testing::ScanAt;
using write_testing::ScanTxn;
using write_testing::TestLake;

TEST(FieldEvolutionTest, PromotionsFollowDuckDbMaxType) {
  using table_internal::IsAllowedPromotion;
  const DataType i8(TypeId::kInt8), i16(TypeId::kInt16), i32(TypeId::kInt32),
      i64(TypeId::kInt64), i128(TypeId::kInt128), u8(TypeId::kUInt8), u64(TypeId::kUInt64),
      f32(TypeId::kFloat32), f64(TypeId::kFloat64), date(TypeId::kDate),
      ts(TypeId::kTimestamp), ts_s(TypeId::kTimestampS), ts_ns(TypeId::kTimestampNs),
      tstz(TypeId::kTimestampTz), text(TypeId::kVarchar), boolean(TypeId::kBoolean);
  // Allowed: DuckDB's max type of the pair is the target.
  EXPECT_TRUE(IsAllowedPromotion(i8, i16));
  EXPECT_TRUE(IsAllowedPromotion(i32, i128));
  EXPECT_TRUE(IsAllowedPromotion(u8, i16));
  EXPECT_TRUE(IsAllowedPromotion(i8, f32));
  EXPECT_TRUE(IsAllowedPromotion(i64, f64));
  EXPECT_TRUE(IsAllowedPromotion(f32, f64));
  EXPECT_TRUE(IsAllowedPromotion(i8, DataType::Decimal(4, 1)));
  EXPECT_TRUE(IsAllowedPromotion(i32, DataType::Decimal(18, 3)));
  EXPECT_TRUE(IsAllowedPromotion(DataType::Decimal(4, 1), DataType::Decimal(18, 3)));
  EXPECT_TRUE(IsAllowedPromotion(DataType::Decimal(18, 3), f64));
  EXPECT_TRUE(IsAllowedPromotion(date, ts));
  EXPECT_TRUE(IsAllowedPromotion(ts_s, ts));
  EXPECT_TRUE(IsAllowedPromotion(ts, ts_ns));
  EXPECT_TRUE(IsAllowedPromotion(ts, tstz));
  EXPECT_TRUE(IsAllowedPromotion(date, tstz));
  // Refused: narrowing, and pairs whose max type is neither.
  EXPECT_FALSE(IsAllowedPromotion(i32, i32));
  EXPECT_FALSE(IsAllowedPromotion(i64, i32));
  EXPECT_FALSE(IsAllowedPromotion(f64, f32));
  EXPECT_FALSE(IsAllowedPromotion(u64, i64));
  EXPECT_FALSE(IsAllowedPromotion(i16, DataType::Decimal(4, 1)));
  EXPECT_FALSE(IsAllowedPromotion(i64, DataType::Decimal(18, 3)));
  EXPECT_FALSE(IsAllowedPromotion(DataType::Decimal(18, 3), DataType::Decimal(18, 4)));
  EXPECT_FALSE(IsAllowedPromotion(tstz, ts));
  EXPECT_FALSE(IsAllowedPromotion(ts_ns, ts));
  EXPECT_FALSE(IsAllowedPromotion(ts_ns, tstz));
  EXPECT_FALSE(IsAllowedPromotion(i32, text));
  EXPECT_FALSE(IsAllowedPromotion(i32, boolean));
  EXPECT_FALSE(IsAllowedPromotion(f64, DataType::Decimal(38, 2)));
}

DataType StructOf(std::vector<Field> fields) { return DataType::Struct(std::move(fields)); }

Value StructValue(const DataType& type, std::vector<Value> fields) {
  return Value::Nested(type, std::move(fields));
}

class FieldEvolutionLakeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = EmptyLake(0);
    ASSERT_TRUE(made.ok()) << made.status().ToString();
    lake_ = std::move(made).value();
    const DataType s = StructOf({Field("a", DataType(TypeId::kInt32)),
                                 Field("b", DataType(TypeId::kVarchar))});
    auto txn = Begin();
    ASSERT_TRUE(txn->CreateTable("main", "t",
                                 {{"id", DataType(TypeId::kInt64), true, std::nullopt},
                                  {"s", s, true, std::nullopt}})
                    .ok());
    auto batch = BatchOf({Field("id", DataType(TypeId::kInt64)), Field("s", s)},
                         {{Value::Int64(1), StructValue(s, {Value::Int(DataType(TypeId::kInt32), 1), Value::Varchar("x")})}});
    auto reader = ReaderOf(batch);
    auto inserted = txn->Insert("main", "t", *reader);
    ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
    Commit(*txn);
  }

  std::unique_ptr<WriteTransaction> Begin() {
    auto txn = WriteTransaction::Begin(*lake_.lake, LocalFileSystem());
    EXPECT_TRUE(txn.ok()) << txn.status().ToString();
    return std::move(txn).value();
  }

  int64_t Commit(WriteTransaction& txn) {
    auto committed = txn.Commit();
    EXPECT_TRUE(committed.ok()) << committed.status().ToString();
    return committed.ok() ? committed->snapshot.snapshot_id : -1;
  }

  // The `s` column of the row with rowid 0 as text, at the transaction's view.
  std::string FirstS(WriteTransaction& txn) {
    auto rows = ScanTxn(txn, "main", "t");
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    if (!rows.ok() || rows->empty()) return "";
    return rows->begin()->second[1].ToString();
  }

  TestLake lake_;
};

TEST_F(FieldEvolutionLakeTest, AddDropRenameReadOldFiles) {
  auto txn = Begin();
  ColumnDefinition c{"c", DataType(TypeId::kInt32), true, Value::Int(DataType(TypeId::kInt32), 7)};
  ASSERT_TRUE(txn->AddField("main", "t", {"s"}, c).ok());
  EXPECT_EQ(FirstS(*txn), "{'a': 1, 'b': 'x', 'c': 7}");
  const int64_t added = Commit(*txn);

  txn = Begin();
  ASSERT_TRUE(txn->RenameField("main", "t", {"s", "A"}, "a2").ok());
  ASSERT_TRUE(txn->DropField("main", "t", {"s", "b"}).ok());
  EXPECT_EQ(FirstS(*txn), "{'a2': 1, 'c': 7}");
  Commit(*txn);

  ASSERT_TRUE(lake_.Reopen().ok());
  txn = Begin();
  EXPECT_EQ(FirstS(*txn), "{'a2': 1, 'c': 7}");
  auto before = ScanAt(*lake_.lake, added, "main", "t");
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_EQ(before->begin()->second[1].ToString(), "{'a': 1, 'b': 'x', 'c': 7}");

  // Errors in the extension's words.
  EXPECT_EQ(txn->AddField("main", "t", {"s"}, c).code(), StatusCode::kAlreadyExists);
  EXPECT_TRUE(txn->AddField("main", "t", {"s"}, c, /*if_not_exists=*/true).ok());
  Status not_struct = txn->AddField("main", "t", {"id"}, c);
  EXPECT_NE(not_struct.message().find("Fields can only be added to structs - id is a BIGINT"),
            std::string::npos)
      << not_struct.ToString();
  Status missing = txn->DropField("main", "t", {"s", "zz"});
  EXPECT_NE(missing.message().find("Column \"s.zz\" does not exist"), std::string::npos)
      << missing.ToString();
  EXPECT_TRUE(txn->DropField("main", "t", {"s", "zz"}, /*if_exists=*/true).ok());
  EXPECT_EQ(txn->RenameField("main", "t", {"s", "c"}, "A2").code(),
            StatusCode::kAlreadyExists);
}

TEST_F(FieldEvolutionLakeTest, OneChangePerFieldRowInATransaction) {
  auto txn = Begin();
  ColumnDefinition e{"e", DataType(TypeId::kInt16), true, std::nullopt};
  ASSERT_TRUE(txn->AddField("main", "t", {"s"}, e).ok());
  ASSERT_TRUE(txn->RenameField("main", "t", {"s", "e"}, "e2").ok());
  ASSERT_TRUE(txn->DropField("main", "t", {"s", "e2"}).ok());
  // a promoted, f added, b dropped: by SET DATA TYPE of the struct.
  const DataType evolved = StructOf({Field("a", DataType(TypeId::kInt64)),
                                     Field("f", DataType(TypeId::kVarchar))});
  ASSERT_TRUE(txn->AlterColumnType("main", "t", "s", evolved).ok());
  EXPECT_EQ(FirstS(*txn), "{'a': 1, 'f': NULL}");
  auto committed = txn->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  const LakeChanges& changes = txn->changes();
  auto adds = ChangesOf<AddColumnChange>(changes);
  auto drops = ChangesOf<DropColumnChange>(changes);
  auto alters = ChangesOf<AlterColumnChange>(changes);
  ASSERT_EQ(adds.size(), 1u);
  EXPECT_EQ(adds[0]->column.name, "f");
  EXPECT_EQ(adds[0]->column.parent_column, std::optional<int64_t>(2));
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(drops[0]->column_id, 4);  // b
  ASSERT_EQ(alters.size(), 1u);
  EXPECT_EQ(alters[0]->column.column_id, 3);  // a, now int64
  EXPECT_EQ(alters[0]->column.type_name, "int64");

  auto refused = Begin()->AlterColumnType(
      "main", "t", "s", StructOf({Field("a", DataType(TypeId::kInt32))}));
  EXPECT_NE(refused.message().find("Cannot change type of column a from BIGINT to INTEGER - "
                                   "only widening type promotions are allowed"),
            std::string::npos)
      << refused.ToString();
}

}  // namespace
}  // namespace tarn
