// SharedEvaluation: several expressions over one batch, what they compute alike computed
// once. Which computations count as shared (equal operations on equal inputs, never a volatile
// call, a column or a constant), and that the columns equal each expression evaluated alone.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tarn/expr.h"

namespace tarn {
namespace {

std::shared_ptr<Batch> Numbers(int64_t rows) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("a", DataType(TypeId::kInt64)), Field("b", DataType(TypeId::kInt64))});
  ColumnBuilder a(DataType(TypeId::kInt64));
  ColumnBuilder b(DataType(TypeId::kInt64));
  for (int64_t i = 0; i < rows; ++i) {
    a.AppendNumber<int64_t>(i);
    if (i % 5 == 0) {
      b.AppendNull();
    } else {
      b.AppendNumber<int64_t>(i % 7);
    }
  }
  return MakeBatch(schema, {a.Finish(), b.Finish()});
}

std::vector<std::unique_ptr<BoundExpr>> BindAll(const std::vector<std::string>& texts,
                                                const Schema& schema) {
  std::vector<std::unique_ptr<BoundExpr>> out;
  for (const std::string& text : texts) {
    auto bound = ParseAndBind(text, schema);
    EXPECT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
    out.push_back(bound.ok() ? std::move(bound).value() : nullptr);
  }
  return out;
}

bool Shares(const std::vector<std::string>& texts) {
  auto batch = Numbers(10);
  auto bound = BindAll(texts, *batch->schema);
  std::vector<const BoundExpr*> raw;
  for (const auto& e : bound) raw.push_back(e.get());
  return SharedEvaluation(raw).shares_any();
}

TEST(SharedEvaluationTest, WhatCountsAsShared) {
  EXPECT_TRUE(Shares({"a * (1 - b)", "a * (1 - b) * (1 + b)"}));
  EXPECT_TRUE(Shares({"(a + b) * (a + b)"}));  // twice in one expression
  EXPECT_FALSE(Shares({"a * b", "a * (b + 0)"}));
  EXPECT_FALSE(Shares({"a", "a"}));              // a column is read, not computed
  EXPECT_FALSE(Shares({"a + 1", "a - 1"}));
  EXPECT_FALSE(Shares({"random() * 2.0", "random() * 2.0"}));
  EXPECT_TRUE(Shares({"random() + a", "random() + a"}));  // only CAST(a AS DOUBLE) is shared
  EXPECT_FALSE(Shares({"a * b"}));
}

TEST(SharedEvaluationTest, ColumnsEqualEachExpressionAlone) {
  auto batch = Numbers(5000);
  const std::vector<std::string> texts = {
      "a * (1 - b)", "a * (1 - b) * (1 + b)", "CASE WHEN b > 3 THEN a * (1 - b) END",
      "coalesce(a * (1 - b), -1)", "a % 3 = 0 AND b IS NOT NULL", "NOT (a % 3 = 0 AND b IS NOT NULL)"};
  auto bound = BindAll(texts, *batch->schema);
  std::vector<const BoundExpr*> raw;
  for (const auto& e : bound) raw.push_back(e.get());
  raw.push_back(nullptr);
  SharedEvaluation shared(raw);
  ASSERT_TRUE(shared.shares_any());
  auto columns = shared.Evaluate(*batch);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  ASSERT_EQ(columns->size(), texts.size() + 1);
  EXPECT_EQ(columns->back(), nullptr);
  for (size_t i = 0; i < texts.size(); ++i) {
    auto alone = bound[i]->Evaluate(*batch);
    ASSERT_TRUE(alone.ok()) << alone.status().ToString();
    ASSERT_EQ((*columns)[i]->length, batch->num_rows);
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      ASSERT_EQ((*columns)[i]->GetValue(row), (*alone)->GetValue(row)) << texts[i] << " row " << row;
    }
  }
}

}  // namespace
}  // namespace tarn
