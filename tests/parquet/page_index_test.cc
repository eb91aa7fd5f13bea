// The page index: tarn writes ColumnIndex/OffsetIndex for ordered columns (or as told), and the
// reader prunes pages with them under a predicate, together with row selections, keeping
// physical positions exact and never losing a row the predicate can match (NaN included). The
// model is the predicate evaluated on a full, unpruned read.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>

#include "parquet/metadata.h"
#include "parquet/page_index.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/expr.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

constexpr int64_t kRows = 50000;

void Add(ColumnBuilder& builder, const Value& value) { ASSERT_TRUE(builder.Append(value).ok()); }

Schema TestSchema() {
  return Schema({Field("k", DataType(TypeId::kInt64), false), Field("d", DataType(TypeId::kFloat64)),
                 Field("s", DataType(TypeId::kVarchar)), Field("n", DataType(TypeId::kInt32)),
                 Field("r", DataType(TypeId::kInt64))});
}

// k ascending; d ascending with NaN sprinkled in (and ±0.0, ±inf); s ascending long strings
// (their bounds are truncated); n clustered with whole NULL pages; r random (unordered).
std::shared_ptr<Batch> TestBatch() {
  std::mt19937_64 rng(7);
  ColumnBuilder k(DataType(TypeId::kInt64)), d(DataType(TypeId::kFloat64)),
      s(DataType(TypeId::kVarchar)), n(DataType(TypeId::kInt32)), r(DataType(TypeId::kInt64));
  for (int64_t row = 0; row < kRows; ++row) {
    Add(k, Value::Int64(row * 3 + static_cast<int64_t>(rng() % 3)));
    if (row % 2997 == 5 || (row >= 20000 && row < 20010)) {
      Add(d, Value::Double(DataType(TypeId::kFloat64), std::nan("")));
    } else if (row == 100) {
      Add(d, Value::Double(DataType(TypeId::kFloat64), -0.0));
    } else if (row == kRows - 1) {
      Add(d, Value::Double(DataType(TypeId::kFloat64), std::numeric_limits<double>::infinity()));
    } else {
      Add(d, Value::Double(DataType(TypeId::kFloat64), static_cast<double>(row - 100) / 10.0));
    }
    char text[96];
    std::snprintf(text, sizeof(text), "%08lld-%070d", static_cast<long long>(row), 0);
    Add(s, Value::Varchar(text));
    if ((row / 2500) % 3 == 1) {
      n.AppendNull();
    } else {
      Add(n, Value::Int(DataType(TypeId::kInt32), row / 100));
    }
    Add(r, Value::Int64(static_cast<int64_t>(rng() % 100000)));
  }
  auto schema = std::make_shared<const Schema>(TestSchema());
  return MakeBatch(schema, {k.Finish(), d.Finish(), s.Finish(), n.Finish(), r.Finish()});
}

std::string WriteFile(const testing::TempDir& dir, const std::string& name,
                      WriterProperties::Builder builder) {
  const std::string path = dir.Join(name);
  auto props = builder.max_row_group_rows(12000).data_page_rows(1000).Build();
  EXPECT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(LocalFileSystem(), path, TestSchema(), *props);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  auto batch = TestBatch();
  for (int64_t offset = 0; offset < kRows; offset += 7000) {
    EXPECT_TRUE((*writer)->Write(*SliceBatch(*batch, offset, std::min<int64_t>(7000, kRows - offset))).ok());
  }
  auto info = (*writer)->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  return path;
}

// Which leaves of the file have a column index / offset index, per row group.
std::vector<std::pair<bool, bool>> IndexPresence(const ParquetReader& reader, int row_group) {
  std::vector<std::pair<bool, bool>> out;
  for (const auto& chunk : reader.metadata().row_groups[row_group].columns) {
    out.emplace_back(chunk.column_index_offset.has_value(), chunk.offset_index_offset.has_value());
  }
  return out;
}

TEST(PageIndexWriterTest, AutoWritesColumnIndexForOrderedColumnsOnly) {
  testing::TempDir dir;
  auto reader = ParquetReader::Open(LocalFileSystem(),
                                    WriteFile(dir, "auto.parquet", WriterProperties::Builder()));
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ((*reader)->num_row_groups(), 5);
  for (int rg = 0; rg < 5; ++rg) {
    auto presence = IndexPresence(**reader, rg);
    EXPECT_TRUE(presence[0].first && presence[0].second) << "k is sorted";
    EXPECT_TRUE(presence[2].first && presence[2].second) << "s is sorted";
    EXPECT_FALSE(presence[4].first) << "r is random: no column index";
    EXPECT_TRUE(presence[4].second) << "the offset index is always written";
  }
  const auto& chunk = (*reader)->metadata().row_groups[0].columns[0];
  auto bytes = LocalFileSystem()->ReadFile((*reader)->path());
  ASSERT_TRUE(bytes.ok());
  auto index = parquet::DecodeColumnIndex(
      std::string_view(*bytes).substr(*chunk.column_index_offset, *chunk.column_index_length));
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  EXPECT_EQ(index->boundary_order, parquet::BoundaryOrder::kAscending);
  EXPECT_EQ(index->null_pages.size(), 12u);
  EXPECT_TRUE(index->nan_counts.empty()) << "nan_counts only for floating point";
}

TEST(PageIndexWriterTest, ModesAndPerColumnOverride) {
  testing::TempDir dir;
  auto off = ParquetReader::Open(
      LocalFileSystem(),
      WriteFile(dir, "off.parquet", WriterProperties::Builder().page_index(PageIndexMode::kOff)));
  ASSERT_TRUE(off.ok());
  for (auto [column_index, offset_index] : IndexPresence(**off, 0)) {
    EXPECT_FALSE(column_index || offset_index);
  }
  auto on = ParquetReader::Open(
      LocalFileSystem(), WriteFile(dir, "on.parquet",
                                   WriterProperties::Builder()
                                       .page_index(PageIndexMode::kOn)
                                       .page_index("k", PageIndexMode::kOff)));
  ASSERT_TRUE(on.ok());
  auto presence = IndexPresence(**on, 1);
  EXPECT_FALSE(presence[0].first || presence[0].second) << "k turned off";
  EXPECT_TRUE(presence[4].first && presence[4].second) << "r on although random";
  EXPECT_TRUE(presence[3].first) << "n: NULL pages are null_pages";
  // Row group 1 of d holds rows 12000..23999.
  const auto& chunk = (*on)->metadata().row_groups[1].columns[1];
  auto bytes = LocalFileSystem()->ReadFile((*on)->path());
  ASSERT_TRUE(bytes.ok());
  auto index = parquet::DecodeColumnIndex(
      std::string_view(*bytes).substr(*chunk.column_index_offset, *chunk.column_index_length));
  ASSERT_TRUE(index.ok());
  ASSERT_EQ(index->nan_counts.size(), 12u);
  int64_t nans = 0;
  for (int64_t count : index->nan_counts) nans += count;
  EXPECT_EQ(nans, 14) << "rows 12000..23999: 4 sprinkled NaN and rows 20000..20009";
  auto n_chunk = (*on)->metadata().row_groups[0].columns[3];
  auto n_index = parquet::DecodeColumnIndex(std::string_view(*bytes).substr(
      *n_chunk.column_index_offset, *n_chunk.column_index_length));
  ASSERT_TRUE(n_index.ok());
  EXPECT_EQ(std::count(n_index->null_pages.begin(), n_index->null_pages.end(), true), 4)
      << "pages 3, 4, 10 and 11 (rows 2500..4999 and 10000..11999 are NULL)";
}

struct Scanned {
  std::vector<int64_t> positions;
  ScanMetrics metrics;
};

// Scans `path` with `predicate` (SQL over the test schema), checking every row's values
// against the reference at its position.
Scanned ScanChecked(const ParquetReader& reader, const Batch& reference, const std::string& where,
                    const std::optional<RowSelection>& selection, bool use_page_index) {
  Scanned out;
  auto bound = ParseAndBind(where, reader.schema());
  EXPECT_TRUE(bound.ok()) << where << ": " << bound.status().ToString();
  if (!bound.ok()) return out;
  ScanOptions options;
  options.with_position = true;
  options.predicate = MakeStatisticsPredicate(**bound, reader.schema());
  options.selection = selection;
  options.use_page_index = use_page_index;
  options.batch_rows = 777;
  auto scan = reader.Scan(options);
  EXPECT_TRUE(scan.ok()) << scan.status().ToString();
  if (!scan.ok()) return out;
  while (true) {
    auto next = (*scan)->Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !*next) break;
    const Batch& batch = **next;
    const int64_t* positions = batch.column(5).values_as<int64_t>();
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      const int64_t pos = positions[row];
      EXPECT_TRUE(out.positions.empty() || pos > out.positions.back());
      for (int column = 0; column < 5; ++column) {
        if (!(batch.column(column).GetValue(row) == reference.column(column).GetValue(pos))) {
          ADD_FAILURE() << where << ": column " << column << " at position " << pos;
          return out;
        }
      }
      out.positions.push_back(pos);
    }
  }
  out.metrics = (*scan)->metrics();
  return out;
}

// Positions of the reference where `where` is TRUE.
std::vector<int64_t> Matching(const Batch& reference, const std::string& where) {
  auto bound = ParseAndBind(where, *reference.schema);
  EXPECT_TRUE(bound.ok());
  int64_t count = 0;
  auto bits = SelectRows(reference, **bound, &count);
  EXPECT_TRUE(bits.ok());
  std::vector<int64_t> out;
  for (int64_t row = 0; row < reference.num_rows; ++row) {
    if ((*bits)[row / 8] & (1 << (row % 8))) out.push_back(row);
  }
  return out;
}

class PageIndexScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = WriteFile(dir_, "on.parquet", WriterProperties::Builder().page_index(PageIndexMode::kOn));
    auto reader = ParquetReader::Open(LocalFileSystem(), path_);
    ASSERT_TRUE(reader.ok());
    reader_ = std::move(reader).value();
    auto all = reader_->ReadAll();
    ASSERT_TRUE(all.ok());
    reference_ = std::move(all).value();
  }
  testing::TempDir dir_;
  std::string path_;
  std::unique_ptr<ParquetReader> reader_;
  std::shared_ptr<Batch> reference_;
};

TEST_F(PageIndexScanTest, PrunesPagesWithoutLosingRows) {
  struct Case {
    std::string where;
    bool must_prune;  // sorted column, selective predicate
  };
  const std::vector<Case> cases = {
      {"k BETWEEN 30000 AND 33000", true},
      {"k = 77777", true},
      {"k < 10", true},
      {"s >= '00049000'", true},
      {"s < '00000100-'", true},
      {"d < 5", true},
      {"d > 1e9", false},          // NaN > 1e9: every page holding NaN must stay
      {"d >= 4000 AND d < 4001", false},
      {"n IS NULL", true},
      {"n IS NOT NULL AND k > 140000", true},
      {"n > 480 OR k < 100", true},
      {"r > 99990 AND k < 6000", true},
      {"r = 5", false},
      {"d = 0", false},
      {"NOT (k > 100)", true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.where);
    const std::vector<int64_t> expected = Matching(*reference_, c.where);
    Scanned with = ScanChecked(*reader_, *reference_, c.where, std::nullopt, true);
    Scanned without = ScanChecked(*reader_, *reference_, c.where, std::nullopt, false);
    EXPECT_TRUE(std::includes(with.positions.begin(), with.positions.end(), expected.begin(),
                              expected.end()))
        << "a matching row was pruned";
    EXPECT_TRUE(std::includes(without.positions.begin(), without.positions.end(),
                              with.positions.begin(), with.positions.end()));
    EXPECT_EQ(without.metrics.pages_pruned, 0);
    if (c.must_prune) {
      EXPECT_GT(with.metrics.pages_pruned, 0);
      EXPECT_GT(with.metrics.rows_pruned, 0);
      EXPECT_LT(with.positions.size(), without.positions.size());
    }
  }
}

TEST_F(PageIndexScanTest, NaNPagesAreNeverPrunedForPredicatesNaNSatisfies) {
  // Rows 20000..20009 are NaN; their page's max is finite but its nan_count is not 0.
  const std::vector<int64_t> expected = Matching(*reference_, "d > 100000");
  ASSERT_GE(expected.size(), 10u);
  Scanned with = ScanChecked(*reader_, *reference_, "d > 100000", std::nullopt, true);
  for (int64_t pos = 20000; pos < 20010; ++pos) {
    EXPECT_TRUE(std::binary_search(with.positions.begin(), with.positions.end(), pos)) << pos;
  }
  EXPECT_GT(with.metrics.pages_pruned, 0) << "pages without NaN are pruned";
}

TEST_F(PageIndexScanTest, CombinesWithRandomSelections) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    for (int i = 0; i < 1 + static_cast<int>(rng() % 20); ++i) {
      const int64_t begin = static_cast<int64_t>(rng() % kRows);
      ranges.emplace_back(begin, begin + 1 + static_cast<int64_t>(rng() % 5000));
    }
    const RowSelection selection = RowSelection::FromRanges(ranges);
    const int64_t lo = static_cast<int64_t>(rng() % 150000);
    const std::string where =
        "k >= " + std::to_string(lo) + " AND k < " + std::to_string(lo + 20000);
    SCOPED_TRACE(where);
    std::vector<int64_t> expected;
    for (int64_t pos : Matching(*reference_, where)) {
      if (selection.Contains(pos)) expected.push_back(pos);
    }
    Scanned with = ScanChecked(*reader_, *reference_, where, selection, true);
    for (int64_t pos : with.positions) EXPECT_TRUE(selection.Contains(pos)) << pos;
    EXPECT_TRUE(std::includes(with.positions.begin(), with.positions.end(), expected.begin(),
                              expected.end()));
  }
}

TEST(PageIndexDuckDBTest, DuckDBReadsTarnFilesWithPageIndexes) {
  testing::TempDir dir;
  const std::string path =
      WriteFile(dir, "on.parquet", WriterProperties::Builder().page_index(PageIndexMode::kOn));
  auto csv = testing::DuckDBQueryCsv(
      "SELECT count(*), sum(k), count(n), sum(n), count(s), min(s) = '00000000-" +
      std::string(70, '0') + "', sum(r) FROM read_parquet('" + path + "')");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  auto batch = TestBatch();
  int64_t sum_k = 0, count_n = 0, sum_n = 0, sum_r = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    sum_k += batch->column(0).values_as<int64_t>()[row];
    if (!batch->column(3).IsNull(row)) {
      ++count_n;
      sum_n += batch->column(3).values_as<int32_t>()[row];
    }
    sum_r += batch->column(4).values_as<int64_t>()[row];
  }
  const std::string row = std::to_string(kRows) + "," + std::to_string(sum_k) + "," +
                          std::to_string(count_n) + "," + std::to_string(sum_n) + "," +
                          std::to_string(kRows) + ",true," + std::to_string(sum_r);
  EXPECT_NE(csv->find("\n" + row + "\n"), std::string::npos) << *csv << " expected " << row;
}

// Files other writers made with column indexes (parquet-mr's tiny pages): pruning with the
// page index returns the same matching rows as a scan without it, and fewer rows in total.
TEST(PageIndexFixtureTest, ParquetTestingTinyPages) {
  for (const std::string name :
       {"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet"}) {
    SCOPED_TRACE(name);
    const std::string path = testing::SharedPath("fixtures/parquet-testing/data/" + name);
    ASSERT_TRUE(testing::FileExists(path));
    auto reader = ParquetReader::Open(LocalFileSystem(), path);
    ASSERT_TRUE(reader.ok());
    ASSERT_TRUE((*reader)->metadata().row_groups[0].columns[0].column_index_offset.has_value());
    auto all = (*reader)->ReadAll();
    ASSERT_TRUE(all.ok());
    for (const std::string where :
         {"id < 300", "id BETWEEN 4000 AND 4100", "int_col = 3", "bigint_col > 80",
          "float_col < 1.5", "double_col >= 90", "date_string_col = '01/01/09'",
          "timestamp_col < TIMESTAMP '2009-02-01'", "bool_col", "month = 7 AND id > 100"}) {
      SCOPED_TRACE(where);
      auto bound = ParseAndBind(where, (*reader)->schema());
      ASSERT_TRUE(bound.ok()) << bound.status().ToString();
      int64_t expected = 0;
      ASSERT_TRUE(SelectRows(**all, **bound, &expected).ok());
      for (bool use_index : {true, false}) {
        ScanOptions options;
        options.predicate = MakeStatisticsPredicate(**bound, (*reader)->schema());
        options.use_page_index = use_index;
        options.with_position = true;
        auto scan = (*reader)->Scan(options);
        ASSERT_TRUE(scan.ok());
        std::vector<std::shared_ptr<Batch>> batches;
        while (true) {
          auto next = (*scan)->Next();
          ASSERT_TRUE(next.ok()) << next.status().ToString();
          if (!*next) break;
          batches.push_back(*next);
        }
        int64_t matched = 0;
        for (const auto& batch : batches) {
          auto positions = batch->column(batch->num_columns() - 1).values_as<int64_t>();
          std::vector<std::shared_ptr<Column>> columns(batch->columns.begin(),
                                                       batch->columns.end() - 1);
          auto data = MakeBatch(all.value()->schema, columns);
          data->num_rows = batch->num_rows;
          for (int64_t row = 0; row < batch->num_rows; ++row) {
            ASSERT_TRUE(batch->column(0).GetValue(row) == (*all)->column(0).GetValue(positions[row]));
          }
          int64_t count = 0;
          ASSERT_TRUE(SelectRows(*data, **bound, &count).ok());
          matched += count;
        }
        EXPECT_EQ(matched, expected) << "use_page_index " << use_index;
        if (use_index && std::string(where) == "id < 300") {
          EXPECT_GT((*scan)->metrics().pages_pruned, 0);
        }
      }
    }
  }
}

// Counts the rows of a scan where `bound` (bound to the scanned columns) is TRUE.
Result<int64_t> CountMatching(const ParquetReader& reader, const ScanOptions& options,
                              const BoundExpr& bound) {
  TARN_ASSIGN_OR_RETURN(auto scan, reader.Scan(options));
  int64_t matched = 0;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, scan->Next());
    if (!batch) break;
    int64_t count = 0;
    TARN_ASSIGN_OR_RETURN(auto bits, SelectRows(*batch, bound, &count));
    matched += count;
  }
  return matched;
}

// Every parquet-testing file with a page index: predicate scans through its index read, and
// match the same rows as scans without it (writers' quirks such as -1 null counts included).
TEST(PageIndexFixtureTest, EveryParquetTestingFileWithAPageIndex) {
  const std::string dir = testing::SharedPath("fixtures/parquet-testing/data");
  DIR* handle = opendir(dir.c_str());
  ASSERT_NE(handle, nullptr);
  std::vector<std::string> names;
  while (dirent* entry = readdir(handle)) names.push_back(entry->d_name);
  closedir(handle);
  std::sort(names.begin(), names.end());
  int files = 0;
  for (const std::string& name : names) {
    if (name.size() < 8 || name.substr(name.size() - 8) != ".parquet") continue;
    auto reader = ParquetReader::Open(LocalFileSystem(), dir + "/" + name);
    if (!reader.ok()) continue;
    bool has_index = false;
    for (const auto& row_group : (*reader)->metadata().row_groups) {
      for (const auto& chunk : row_group.columns) has_index |= chunk.offset_index_offset.has_value();
    }
    if (!has_index) continue;
    SCOPED_TRACE(name);
    ++files;
    for (int column = 0; column < (*reader)->schema().num_fields(); ++column) {
      const Field& field = (*reader)->schema().field(column);
      for (const std::string op : {" IS NULL", " IS NOT NULL"}) {
        const std::string where = "\"" + field.name + "\"" + op;
        auto bound = ParseAndBind(where, Schema({field}));
        ASSERT_TRUE(bound.ok()) << where;
        ScanOptions options;
        options.columns = {field.name};
        Result<int64_t> plain = CountMatching(**reader, options, **bound);
        if (!plain.ok()) continue;  // a file tarn cannot read without the index either
        options.predicate = MakeStatisticsPredicate(**bound, Schema({field}));
        for (bool use_index : {false, true}) {
          options.use_page_index = use_index;
          Result<int64_t> pruned = CountMatching(**reader, options, **bound);
          ASSERT_TRUE(pruned.ok()) << where << ": " << pruned.status().ToString();
          EXPECT_EQ(*pruned, *plain) << where << " use_page_index " << use_index;
        }
      }
    }
  }
  EXPECT_GE(files, 15);
}

}  // namespace
}  // namespace tarn
