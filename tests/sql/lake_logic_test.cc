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

#include <sstream>
#include <string>

#include "support/fixture_lake.h"
#include "support/logic_test.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

std::string LakeTestDir() { return tarn::testing::SourceDir() + "/tests/sql/lake"; }

// The `attach` directive: see the top of this file.
void Attach(testing::LogicTestRunner& runner, const std::string& arguments,
            const std::string& where) {
  std::istringstream words(arguments);
  std::string fixture, mode;
  words >> fixture >> mode;
  ASSERT_TRUE(mode.empty() || mode == "read_only" || mode == "copy_data")
      << "attach mode \"" << mode << "\" (expected read_only or copy_data)";
  ASSERT_TRUE(testing::FileExists(testing::FixtureLakePath(fixture) + "/catalog.sqlite")) << where;
  const std::string copy = testing::CopyFixtureCatalog(fixture, runner.temp());
  // A writable attach gets a private copy of the data: the shared fixture stays as it is.
  const std::string data_dir = mode == "read_only"
                                   ? testing::FixtureLakePath(fixture) + "/data"
                                   : testing::CopyFixtureData(fixture, runner.temp());
  runner.SetVariable("DATA", data_dir);
  AttachOptions options;
  options.data_path = data_dir;
  options.override_data_path = true;  // the fixture's files (or a copy of them)
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
