// Helpers for the rowid tests: embedded-row-id Parquet files written with tarn's writer, their
// catalog description, and the model (id -> positions) every source must agree with.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/parquet.h"
#include "tarn/rowid.h"

namespace tarn::testing {

using RowModel = std::map<int64_t, std::vector<int64_t>>;

inline RowModel ModelOf(const std::vector<int64_t>& ids) {
  RowModel model;
  for (size_t p = 0; p < ids.size(); ++p) model[ids[p]].push_back(static_cast<int64_t>(p));
  return model;
}

// Writes `ids` (in file order) as _ducklake_internal_row_id next to `user_columns` BIGINT
// columns, and describes the file as the catalog would.
inline DataFileInfo WriteRowIdFile(const std::shared_ptr<FileSystem>& fs, const std::string& data_path,
                                   const std::string& relative, const std::vector<int64_t>& ids,
                                   int64_t data_file_id, int user_columns = 1,
                                   int64_t row_group_rows = 122880,
                                   std::optional<int64_t> row_id_start = std::nullopt) {
  std::vector<Field> fields;
  for (int c = 0; c < user_columns; ++c) {
    fields.emplace_back("c" + std::to_string(c), DataType(TypeId::kInt64), true, c + 1);
  }
  fields.emplace_back(kEmbeddedRowIdName, DataType(TypeId::kInt64), true, kEmbeddedRowIdFieldId);
  auto schema = std::make_shared<Schema>(fields);
  auto props = WriterProperties::Builder().max_row_group_rows(row_group_rows).Build();
  EXPECT_TRUE(props.ok());
  const std::string path = data_path + relative;
  auto writer = ParquetWriter::Open(fs, path, *schema, *props);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  const int64_t chunk = 65536;
  for (int64_t start = 0; start < static_cast<int64_t>(ids.size()) || start == 0; start += chunk) {
    const int64_t n = std::min<int64_t>(chunk, static_cast<int64_t>(ids.size()) - start);
    std::vector<std::shared_ptr<Column>> columns;
    for (int c = 0; c < user_columns; ++c) {
      ColumnBuilder b{DataType(TypeId::kInt64)};
      for (int64_t r = 0; r < n; ++r) b.AppendNumber<int64_t>((start + r) * (c + 3) % 1000003);
      columns.push_back(b.Finish());
    }
    ColumnBuilder b{DataType(TypeId::kInt64)};
    for (int64_t r = 0; r < n; ++r) b.AppendNumber<int64_t>(ids[start + r]);
    columns.push_back(b.Finish());
    EXPECT_TRUE((*writer)->Write(*MakeBatch(schema, columns)).ok());
    if (n <= 0) break;
  }
  auto info = (*writer)->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  DataFileInfo file;
  file.data_file_id = data_file_id;
  file.begin_snapshot = 1;
  file.path = path;
  file.relative_path = relative;
  file.record_count = static_cast<int64_t>(ids.size());
  file.file_size_bytes = info->file_size;
  file.footer_size = info->footer_size;
  file.row_id_start = row_id_start;
  return file;
}

// `sorted_ids` laid out in file order as an update rewrite or a merge leaves them: `runs`
// contiguous runs of positions (random lengths, at least one row each), each holding a random
// subset of the ids in ascending order. REQUIRES: 1 <= runs <= sorted_ids.size().
inline std::vector<int64_t> RunsFileOrder(std::mt19937_64& rng, const std::vector<uint64_t>& sorted_ids,
                                          size_t runs) {
  // A run label per id: each run gets one id, the rest are spread at random; runs of unequal
  // size come from the random spread plus a skew toward low run numbers.
  std::vector<size_t> label(sorted_ids.size());
  for (size_t i = 0; i < label.size(); ++i) {
    label[i] = i < runs ? i : std::min(rng() % runs, rng() % runs + rng() % 2);
  }
  std::shuffle(label.begin(), label.end(), rng);
  std::vector<std::vector<int64_t>> by_run(runs);
  for (size_t i = 0; i < label.size(); ++i) by_run[label[i]].push_back(static_cast<int64_t>(sorted_ids[i]));
  std::vector<int64_t> file_order;
  file_order.reserve(sorted_ids.size());
  for (const auto& run : by_run) file_order.insert(file_order.end(), run.begin(), run.end());
  return file_order;
}

// Asks `summary` about every id of the model and `extra` ids; checks membership and positions.
inline void ExpectAnswers(const RowSummaryContext& ctx, int64_t table_id, const DataFileInfo& file,
                          const FileSummary& summary, const RowModel& model,
                          const std::vector<int64_t>& extra, const std::string& label) {
  ASSERT_TRUE(summary.set) << label;
  EXPECT_EQ(summary.set->size(), model.size()) << label;
  std::vector<uint64_t> members;
  for (int64_t probe : extra) {
    EXPECT_EQ(summary.set->Contains(static_cast<uint64_t>(probe)), model.count(probe) > 0)
        << label << " id " << probe;
  }
  // Large files: every k-th member, so a test stays fast in Debug.
  const size_t step = std::max<size_t>(1, model.size() / 5000);
  std::vector<const std::vector<int64_t>*> expected;
  size_t k = 0;
  for (const auto& [id, positions] : model) {
    if (k++ % step != 0 && k != model.size()) continue;
    members.push_back(static_cast<uint64_t>(id));
    expected.push_back(&positions);
  }
  std::vector<std::vector<int64_t>> got;
  Status st = ResolvePositions(ctx, table_id, file, summary, members, &got);
  ASSERT_TRUE(st.ok()) << label << ": " << st.ToString();
  for (size_t i = 0; i < members.size(); ++i) {
    ASSERT_EQ(got[i], *expected[i]) << label << " id " << members[i];
  }
}

}  // namespace tarn::testing

namespace tarn::testing {

// Copies every file below `from` to the same relative path below `to`.
inline void CopyTree(FileSystem& fs, const std::string& from, const std::string& to) {
  auto files = fs.List(from, true);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_TRUE(fs.CreateDirectories(to).ok());
  for (const FileInfo& f : *files) {
    if (f.is_directory) continue;
    const std::string rel = f.path.substr(from.size());
    const std::string target = to + rel;
    const size_t slash = target.rfind('/');
    ASSERT_TRUE(fs.CreateDirectories(target.substr(0, slash)).ok());
    ASSERT_TRUE(fs.WriteFile(target, *fs.ReadFile(f.path)).ok());
  }
}

// Where each row id physically sits in the visible files of `table`, read directly.
inline std::map<int64_t, std::vector<std::pair<int64_t, std::vector<int64_t>>>> TruthOf(
    const std::shared_ptr<FileSystem>& fs, const TableMetadata& table) {
  std::map<int64_t, std::vector<std::pair<int64_t, std::vector<int64_t>>>> truth;
  for (const DataFileInfo& file : table.data_files) {
    auto reader = ParquetReader::Open(fs, file.path);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return truth;
    int column = -1;
    for (int i = 0; i < (*reader)->schema().num_fields(); ++i) {
      if ((*reader)->schema().field(i).field_id == kEmbeddedRowIdFieldId) column = i;
    }
    std::map<int64_t, std::vector<int64_t>> in_file;
    if (column < 0) {
      for (int64_t p = 0; p < (*reader)->num_rows(); ++p) in_file[*file.row_id_start + p].push_back(p);
    } else {
      ScanOptions scan;
      scan.columns = {(*reader)->schema().field(column).name};
      auto batch = (*reader)->ReadAll(scan);
      EXPECT_TRUE(batch.ok());
      const Column& ids = (*batch)->column(0);
      for (int64_t p = 0; p < (*batch)->num_rows; ++p) {
        const int64_t id = ids.IsNull(p) ? *file.row_id_start + p : ids.values_as<int64_t>()[p];
        in_file[id].push_back(p);
      }
    }
    for (auto& [id, positions] : in_file) truth[id].emplace_back(file.data_file_id, positions);
  }
  return truth;
}

}  // namespace tarn::testing
