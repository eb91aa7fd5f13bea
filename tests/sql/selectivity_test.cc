// The filter estimates join ordering reads: the shape of a condition says how many rows it
// keeps, and an OR branch restating conditions already applied is not counted twice (TPC-H
// Q19, whose lineitem filter repeats its shared conjuncts in every branch).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sql/plan/selectivity.h"
#include "tarn/expr.h"

namespace tarn::sql {
namespace {

double Of(const std::vector<std::string>& conjuncts) {
  std::vector<std::unique_ptr<ast::Expr>> parsed;
  for (const std::string& text : conjuncts) {
    auto e = ParseExpression(text);
    EXPECT_TRUE(e.ok()) << text;
    if (e.ok()) parsed.push_back(std::move(e).value());
  }
  return ConjunctsSelectivity(parsed);
}

TEST(SelectivityTest, ShapesOfConditions) {
  EXPECT_DOUBLE_EQ(Of({}), 1.0);
  EXPECT_DOUBLE_EQ(Of({"a = 1"}), 0.1);
  EXPECT_DOUBLE_EQ(Of({"a < 1"}), 0.3);
  EXPECT_DOUBLE_EQ(Of({"a <> 1"}), 0.9);
  EXPECT_NEAR(Of({"a IN (1, 2, 3)"}), 0.3, 1e-12);
  EXPECT_DOUBLE_EQ(Of({"a IN (1, 2, 3, 4, 5, 6, 7)"}), 0.5);
  EXPECT_DOUBLE_EQ(Of({"a NOT IN (1, 2)"}), 0.8);
  EXPECT_NEAR(Of({"a = 1", "b < 2"}), 0.03, 1e-12);
  EXPECT_NEAR(Of({"a = 1 AND b < 2"}), 0.03, 1e-12);
  EXPECT_NEAR(Of({"a = 1 OR b = 2"}), 0.1 + 0.9 * 0.1, 1e-12);
  EXPECT_NEAR(Of({"NOT (a < 1)"}), 0.7, 1e-12);
  EXPECT_NEAR(Of({"a BETWEEN 1 AND 2"}), 0.09, 1e-12);
  EXPECT_NEAR(Of({"a IS NULL"}), 0.1, 1e-12);
}

TEST(SelectivityTest, RepeatedConjunctsCountOnce) {
  EXPECT_NEAR(Of({"a = 1", "a = 1"}), 0.1, 1e-12);
  // Q19's lineitem side: the shared conjuncts, then branches that restate them.
  const double q19 = Of({"m IN ('AIR', 'AIR REG')", "i = 'DELIVER IN PERSON'",
                         "(q >= 1 AND q <= 11 AND m IN ('AIR', 'AIR REG') AND i = 'DELIVER IN PERSON') "
                         "OR (q >= 10 AND q <= 20 AND m IN ('AIR', 'AIR REG') AND i = 'DELIVER IN PERSON')"});
  EXPECT_NEAR(q19, 0.2 * 0.1 * (0.09 + 0.91 * 0.09), 1e-12);
}

}  // namespace
}  // namespace tarn::sql
