#include "support/fixture_lake.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <system_error>

namespace tarn::testing {

std::string FixtureLakePath(const std::string& name) {
  return SharedPath("fixtures/ducklake/" + name);
}

std::string CopyFixtureCatalog(const std::string& fixture, const TempDir& dir) {
  const std::string source = FixtureLakePath(fixture) + "/catalog.sqlite";
  const std::string target = dir.Join(fixture + ".sqlite");
  std::filesystem::copy_file(source, target, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(target, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_write);
  return target;
}

std::string CopyFixtureData(const std::string& fixture, const TempDir& dir) {
  const std::string target = dir.Join(fixture + "-data");
  std::filesystem::remove_all(target);
  std::filesystem::copy(FixtureLakePath(fixture) + "/data", target,
                        std::filesystem::copy_options::recursive);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(target)) {
    std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add);
  }
  return target;
}

std::vector<ExpectedFile> ListExpectedFiles(const std::string& fixture) {
  std::vector<ExpectedFile> files;
  static const std::regex kPattern(R"(^([^.]+)\.(.+?)(@([0-9]+)|\.changes)\.parquet$)");
  std::error_code error;
  for (const auto& entry :
       std::filesystem::directory_iterator(FixtureLakePath(fixture) + "/expected", error)) {
    std::smatch match;
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, match, kPattern)) continue;
    ExpectedFile file{match[1], match[2], std::nullopt, entry.path().string()};
    if (match[4].matched) file.snapshot = std::stoll(match[4]);
    files.push_back(std::move(file));
  }
  std::sort(files.begin(), files.end(),
            [](const ExpectedFile& a, const ExpectedFile& b) { return a.path < b.path; });
  return files;
}

int CorrectKnownFixtureDefects(const std::string& fixture, Batch* expected) {
  if (fixture != "compacted") return 0;
  const int rowid_column = expected->schema->FindField("rowid");
  const int id_column = expected->schema->FindField("id");
  if (rowid_column < 0 || id_column < 0) return 0;
  const Column& rowids = expected->column(rowid_column);
  const Column& ids = expected->column(id_column);
  ColumnBuilder builder(ids.type);
  int corrected = 0;
  for (int64_t row = 0; row < expected->num_rows; ++row) {
    Value id = ids.GetValue(row);
    Value rowid = rowids.GetValue(row);
    if (!id.is_null() && !rowid.is_null() && rowid.GetInt64() < 2 &&
        id.GetInt64() == 65536 + rowid.GetInt64()) {
      id = Value::Int(ids.type, rowid.GetInt64());
      ++corrected;
    }
    EXPECT_TRUE(builder.Append(id).ok());
  }
  expected->columns[id_column] = builder.Finish();
  return corrected;
}

}  // namespace tarn::testing
