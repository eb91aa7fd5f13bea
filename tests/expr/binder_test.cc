#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "expr/bind/binder.h"
#include "tarn/expr.h"

namespace tarn {
namespace {

Schema TestSchema() {
  return Schema({Field("id", DataType(TypeId::kInt64)), Field("name", DataType(TypeId::kVarchar)),
                 Field("Price", DataType(TypeId::kFloat64)), Field("flag", DataType(TypeId::kBoolean)),
                 Field("s", DataType::Struct({Field("x", DataType(TypeId::kInt32))})),
                 Field("l", DataType::List(DataType(TypeId::kInt32)))});
}

std::string BindError(std::string_view text) {
  auto bound = ParseAndBind(text, TestSchema());
  EXPECT_FALSE(bound.ok()) << text;
  return bound.ok() ? "" : bound.status().message();
}

std::string BoundText(std::string_view text) {
  auto bound = ParseAndBind(text, TestSchema());
  EXPECT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
  return bound.ok() ? (*bound)->type().ToString() + " " + (*bound)->ToString() : "";
}

TEST(BinderTest, UnknownNamesSuggestClosest) {
  EXPECT_EQ(BindError("nme = 'x'"), "Binder Error: Referenced column \"nme\" not found in FROM "
                                    "clause!\nCandidate bindings: \"name\"");
  EXPECT_EQ(BindError("prise > 1"), "Binder Error: Referenced column \"prise\" not found in FROM "
                                    "clause!\nCandidate bindings: \"Price\"");
  EXPECT_EQ(BindError("s.y = 1"), "Binder Error: field \"y\" not found; did you mean \"x\"?");
  EXPECT_EQ(BindError("lenght(name)"),
            "Catalog Error: Scalar Function with name lenght does not exist!\n"
            "Did you mean \"length\"?");
  EXPECT_EQ(ParseAndBind("nme = 'x'", TestSchema()).status().code(), StatusCode::kNotFound);
}

TEST(BinderTest, TypeErrorsNameTheExpression) {
  EXPECT_EQ(BindError("flag + 1"),
            "Binder Error: No function matches the given name and argument types "
            "'+(BOOLEAN, INTEGER_LITERAL)'. You might need to add explicit type casts. in "
            "expression \"flag + 1\"");
  EXPECT_EQ(BindError("id AND flag"),
            "Binder Error: argument of AND must be BOOLEAN, not BIGINT in expression \"id AND flag\"");
  EXPECT_EQ(BindError("flag = s"),
            "Binder Error: Cannot compare values of type BOOLEAN and type STRUCT(x INTEGER) - an "
            "explicit cast is required in expression \"flag = s\"");
  EXPECT_EQ(BindError("abs(name)"),
            "Binder Error: Binder Error: No function matches the given name and argument types "
            "'abs(VARCHAR)' in expression \"abs(name)\"");
  EXPECT_EQ(BindError("id = 'abc'"),
            "Binder Error: Conversion Error: Could not convert string 'abc' to INT64 in expression "
            "\"id = 'abc'\"");
}

TEST(BinderTest, TypesFollowDuckDB) {
  EXPECT_EQ(BoundText("id > 5"), "BOOLEAN (id > 5)");
  EXPECT_EQ(BoundText("1 / 2"), "DOUBLE (CAST('1.0' AS DOUBLE) / CAST('2.0' AS DOUBLE))");
  EXPECT_EQ(BoundText("7 // 2"), "INTEGER (7 // 2)");
  EXPECT_EQ(BoundText("1.5 + 1"),
            "DECIMAL(12,1) (CAST('1.5' AS DECIMAL(11,1)) + CAST('1.0' AS DECIMAL(11,1)))");
  EXPECT_EQ(BoundText("2147483648").substr(0, 6), "BIGINT");
  EXPECT_EQ(BoundText("170141183460469231731687303715884105727").substr(0, 7), "HUGEINT");
  EXPECT_EQ(BoundText("1e3").substr(0, 6), "DOUBLE");
  EXPECT_EQ(BoundText("s.x + l[1]"), "INTEGER (s.x + l[1])");
  EXPECT_EQ(BoundText("Price::INTEGER"), "INTEGER CAST(\"Price\" AS INTEGER)");
}

std::shared_ptr<Batch> DoubleBatch(std::vector<double> values) {
  ColumnBuilder builder{DataType(TypeId::kFloat64)};
  for (double v : values) builder.AppendNumber<double>(v);
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("x", DataType(TypeId::kFloat64))});
  return MakeBatch(schema, {builder.Finish()});
}

TEST(EvaluatorTest, NaNOrderAndSignedZero) {
  auto batch = DoubleBatch({NAN, -NAN, INFINITY, 1e308, -0.0, 0.0});
  auto count = [&](std::string_view predicate) {
    auto bound = ParseAndBind(predicate, *batch->schema);
    EXPECT_TRUE(bound.ok()) << bound.status().ToString();
    auto filtered = FilterBatch(*batch, **bound);
    EXPECT_TRUE(filtered.ok()) << filtered.status().ToString();
    return (*filtered)->num_rows;
  };
  EXPECT_EQ(count("x > 1e308"), 3);      // NaN, -NaN, inf
  EXPECT_EQ(count("x > 'inf'::DOUBLE"), 2);
  EXPECT_EQ(count("x = 'NaN'::DOUBLE"), 2);
  EXPECT_EQ(count("x = 0"), 2);          // -0.0 = 0.0
  EXPECT_EQ(count("x IN (0.0, 'nan'::DOUBLE)"), 4);
  EXPECT_EQ(count("x BETWEEN 0 AND 'inf'::DOUBLE"), 4);
}

TEST(EvaluatorTest, ErrorsAndGuards) {
  Schema schema({Field("a", DataType(TypeId::kInt32)), Field("b", DataType(TypeId::kInt32))});
  ColumnBuilder a{DataType(TypeId::kInt32)}, b{DataType(TypeId::kInt32)};
  a.AppendNumber<int32_t>(2147483647);
  b.AppendNumber<int32_t>(0);
  a.AppendNumber<int32_t>(1);
  b.AppendNumber<int32_t>(1);
  auto batch = MakeBatch(std::make_shared<const Schema>(schema), {a.Finish(), b.Finish()});
  auto eval = [&](std::string_view text) {
    auto bound = ParseAndBind(text, schema);
    EXPECT_TRUE(bound.ok()) << bound.status().ToString();
    return (*bound)->Evaluate(*batch);
  };
  EXPECT_EQ(eval("a + 1").status().message(),
            "Out of Range Error: Overflow in addition of INT32 (2147483647 + 1)!");
  // The branch never sees the row that would overflow.
  auto guarded = eval("CASE WHEN b = 1 THEN a + 1 ELSE 0 END");
  ASSERT_TRUE(guarded.ok()) << guarded.status().ToString();
  EXPECT_EQ((*guarded)->GetValue(1).GetInt64(), 2);
  auto div = eval("a // b");
  ASSERT_TRUE(div.ok());
  EXPECT_TRUE((*div)->IsNull(0));
  auto like = eval("'a%b' LIKE 'a!%b' ESCAPE '!'");
  ASSERT_TRUE(like.ok());
  EXPECT_TRUE((*like)->GetBool(0));
}

}  // namespace
}  // namespace tarn

namespace tarn {
namespace {

// now() and current_date are the statement's start time: one value for every call while a
// StatementTimeScope is open, the clock otherwise.
TEST(BinderTest, NowIsTheStatementTime) {
  auto value = [](std::string_view text) {
    auto bound = ParseAndBind(text, TestSchema());
    EXPECT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
    EXPECT_TRUE(bound.ok() && (*bound)->IsConstant()) << text;
    Result<Value> v = (*bound)->EvaluateConstant();
    EXPECT_TRUE(v.ok());
    return *v;
  };
  const int64_t clock = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  expr::StatementTimeScope scope;
  Value now = value("now()");
  EXPECT_EQ(now.type().id, TypeId::kTimestampTz);
  EXPECT_GE(now.GetInt64(), clock);
  EXPECT_LT(now.GetInt64(), clock + 60'000'000);
  EXPECT_EQ(value("current_timestamp"), now);
  EXPECT_EQ(value("get_current_timestamp()"), now);
  Value today = value("current_date");
  EXPECT_EQ(today.type().id, TypeId::kDate);
  EXPECT_EQ(today.GetInt64(), now.GetInt64() / 86'400'000'000);
  EXPECT_EQ(BindError("now(1)"),
            "Binder Error: now() takes no arguments in expression \"now(1)\"");
}

}  // namespace
}  // namespace tarn
