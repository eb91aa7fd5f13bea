// Runs every tests/sql/lake/*.test file: SQL logic tests over DuckLake fixture lakes.
//
// The format is tests/sql/*.test's (statement ok / statement error <substring> / query
// <types> [rowsort], see tests/support/logic_test.h) plus one directive:
//
//   attach <fixture> [read_only|copy_data]
//
// which copies /work/shared/fixtures/ducklake/<fixture>/catalog.sqlite into the file's temp
// directory and attaches the copy as catalog "lake" with the fixture's data/ as data path (a
// writable attach, the default or copy_data, gets a copy of data/ too, so writes never touch
// the shared fixture; a missing fixture fails the file). ${SHARED}, ${TEMP} and ${DATA} (the
// attached fixture's data folder) are substituted in SQL, expected rows and error substrings.
// Each file runs in its own Session.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "support/logic_test.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

std::string LakeTestDir() { return std::string(TARN_SOURCE_DIR) + "/tests/sql/lake"; }

std::string FixtureDir(const std::string& name) {
  return testing::SharedPath("fixtures/ducklake/" + name);
}

// The `attach` directive: see the top of this file.
void Attach(testing::LogicTestRunner& runner, const std::string& arguments,
            const std::string& where) {
  std::istringstream words(arguments);
  std::string fixture, mode;
  words >> fixture >> mode;
  ASSERT_TRUE(mode.empty() || mode == "read_only" || mode == "copy_data")
      << "attach mode \"" << mode << "\" (expected read_only or copy_data)";
  const std::string catalog = FixtureDir(fixture) + "/catalog.sqlite";
  ASSERT_TRUE(testing::FileExists(catalog)) << where;
  const testing::TempDir& temp = runner.temp();
  const std::string copy = temp.Join(fixture + ".sqlite");
  std::filesystem::copy_file(catalog, copy, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(copy, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_write);
  std::string data_dir = FixtureDir(fixture) + "/data";
  if (mode != "read_only") {
    // Writes go to a private copy: the shared fixture stays as it is.
    const std::string data_copy = temp.Join(fixture + "-data");
    std::filesystem::remove_all(data_copy);
    std::filesystem::copy(data_dir, data_copy, std::filesystem::copy_options::recursive);
    for (const auto& entry : std::filesystem::recursive_directory_iterator(data_copy)) {
      std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::add);
    }
    data_dir = data_copy;
  }
  runner.SetVariable("DATA", data_dir);
  AttachOptions options;
  options.data_path = data_dir;
  options.read_only = mode == "read_only";
  Status attached = runner.session().Attach("ducklake:sqlite:" + copy, options);
  ASSERT_TRUE(attached.ok()) << where << ": " << attached.ToString();
}

class LakeLogicTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LakeLogicTest, File) {
  testing::LogicTestRunner runner(LakeTestDir(), GetParam());
  runner.SetVariable("DATA", "");
  runner.AddDirective("attach", [&](const std::string& arguments, const std::string& where) {
    Attach(runner, arguments, where);
  });
  runner.Run();
}

INSTANTIATE_TEST_SUITE_P(Files, LakeLogicTest,
                         ::testing::ValuesIn(testing::LogicTestFiles(LakeTestDir())),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return testing::LogicTestName(param_info.param);
                         });

}  // namespace
}  // namespace tarn
