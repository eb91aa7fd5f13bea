// Snapshots of the table renderer's modes, and its row and column elision.
#include <gtest/gtest.h>

#include <sstream>

#include "tarn/format.h"

namespace tarn {
namespace {

std::shared_ptr<Batch> SmallBatch() {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("id", DataType(TypeId::kInt32)), Field("name", DataType(TypeId::kVarchar)),
      Field("price", DataType::Decimal(9, 2))});
  ColumnBuilder ids(DataType(TypeId::kInt32));
  ColumnBuilder names(DataType(TypeId::kVarchar));
  ColumnBuilder prices(DataType::Decimal(9, 2));
  const char* texts[] = {"apple", "kiwi", "a|b"};
  for (int row = 0; row < 3; ++row) {
    EXPECT_TRUE(ids.Append(Value::Int(DataType(TypeId::kInt32), row + 1)).ok());
    EXPECT_TRUE(names.Append(Value::Varchar(texts[row])).ok());
    if (row == 1) {
      prices.AppendNull();
    } else {
      EXPECT_TRUE(prices.Append(Value::Int128(DataType::Decimal(9, 2), 1250 * (row + 1))).ok());
    }
  }
  return MakeBatch(schema, {ids.Finish(), names.Finish(), prices.Finish()});
}

std::shared_ptr<Batch> RangeBatch(int64_t begin, int64_t end) {
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{Field("range", DataType(TypeId::kInt64))});
  ColumnBuilder values(DataType(TypeId::kInt64));
  for (int64_t v = begin; v < end; ++v) values.AppendNumber(v);
  return MakeBatch(schema, {values.Finish()});
}

TEST(TableRendererTest, BoxSnapshot) {
  auto batch = SmallBatch();
  EXPECT_EQ(RenderTable(*batch->schema, {batch}),
            "┌───────┬─────────┬──────────────┐\n"
            "│  id   │  name   │    price     │\n"
            "│ int32 │ varchar │ decimal(9,2) │\n"
            "├───────┼─────────┼──────────────┤\n"
            "│     1 │ apple   │        12.50 │\n"
            "│     2 │ kiwi    │         NULL │\n"
            "│     3 │ a|b     │        37.50 │\n"
            "├───────┴─────────┴──────────────┤\n"
            "│             3 rows             │\n"
            "└────────────────────────────────┘\n");
}

// DuckDB's `.mode box`: names only, no footer; every row (past max_rows) and every column
// (past max_width), values uncut.
TEST(TableRendererTest, PlainBoxSnapshot) {
  auto batch = SmallBatch();
  TableRenderOptions options;
  options.mode = TableMode::kPlainBox;
  options.max_rows = 2;
  options.max_width = 10;
  options.max_cell_width = 3;
  EXPECT_EQ(RenderTable(*batch->schema, {batch}, options),
            "┌────┬───────┬───────┐\n"
            "│ id │ name  │ price │\n"
            "├────┼───────┼───────┤\n"
            "│  1 │ apple │ 12.50 │\n"
            "│  2 │ kiwi  │  NULL │\n"
            "│  3 │ a|b   │ 37.50 │\n"
            "└────┴───────┴───────┘\n");
}

TEST(TableRendererTest, MarkdownSnapshot) {
  auto batch = SmallBatch();
  TableRenderOptions options;
  options.mode = TableMode::kMarkdown;
  EXPECT_EQ(RenderTable(*batch->schema, {batch}, options),
            "| id  | name  | price |\n"
            "|----:|-------|------:|\n"
            "|   1 | apple | 12.50 |\n"
            "|   2 | kiwi  |  NULL |\n"
            "|   3 | a\\|b  | 37.50 |\n");
}

TEST(TableRendererTest, LineSnapshot) {
  auto batch = SmallBatch();
  TableRenderOptions options;
  options.mode = TableMode::kLine;
  EXPECT_EQ(RenderTable(*batch->schema, {batch}, options),
            "   id = 1\n name = apple\nprice = 12.50\n\n"
            "   id = 2\n name = kiwi\nprice = NULL\n\n"
            "   id = 3\n name = a|b\nprice = 37.50\n");
}

TEST(TableRendererTest, ElidesMiddleRowsAcrossBatches) {
  TableRenderOptions options;
  options.max_rows = 4;
  TableRenderer renderer(RangeBatch(0, 1)->schema, options);
  // Rows arrive in uneven batches; the first two and the last two are shown.
  renderer.Add(*RangeBatch(0, 1));
  renderer.Add(*RangeBatch(1, 7000));
  renderer.Add(*RangeBatch(7000, 9999));
  renderer.Add(*RangeBatch(9999, 10000));
  EXPECT_EQ(renderer.Finish(),
            "┌──────────────────────┐\n"
            "│        range         │\n"
            "│        int64         │\n"
            "├──────────────────────┤\n"
            "│                    0 │\n"
            "│                    1 │\n"
            "│          ·           │\n"
            "│          ·           │\n"
            "│          ·           │\n"
            "│                 9998 │\n"
            "│                 9999 │\n"
            "├──────────────────────┤\n"
            "│ 10000 rows (4 shown) │\n"
            "└──────────────────────┘\n");
}

TEST(TableRendererTest, ElidesMiddleColumnsToFitWidth) {
  std::vector<Field> fields;
  std::vector<std::shared_ptr<Column>> columns;
  for (int c = 0; c < 12; ++c) {
    fields.emplace_back(StrCat("column_", c), DataType(TypeId::kInt64));
    ColumnBuilder builder(DataType(TypeId::kInt64));
    builder.AppendNumber(int64_t{c});
    columns.push_back(builder.Finish());
  }
  auto batch = MakeBatch(std::make_shared<const Schema>(fields), columns);
  TableRenderOptions options;
  options.max_width = 60;
  std::string text = RenderTable(*batch->schema, {batch}, options);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    int width = 0;
    for (char c : line) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    EXPECT_LE(width, 60) << line;
  }
  EXPECT_NE(text.find("column_0"), std::string::npos);
  EXPECT_NE(text.find("column_11"), std::string::npos);
  EXPECT_EQ(text.find("column_6"), std::string::npos);
  EXPECT_NE(text.find(" … "), std::string::npos);
  EXPECT_NE(text.find("1 row  12 columns ("), std::string::npos) << text;
}

}  // namespace
}  // namespace tarn
