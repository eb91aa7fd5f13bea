// Runs every tests/sql/*.test file: SQL logic tests in the sqllogictest style (the format and
// the runner are in tests/support/logic_test.h). ${SHARED}, ${FLIGHTS} and ${TEMP} (a fresh
// directory per file) are substituted in SQL. Each file runs in its own Session.
#include <gtest/gtest.h>

#include <string>

#include "support/logic_test.h"
#include "support/test_util.h"

namespace tarn {
namespace {

std::string SqlTestDir() { return tarn::testing::SourceDir() + "/tests/sql"; }

class SqlLogicTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SqlLogicTest, File) {
  testing::LogicTestRunner runner(SqlTestDir(), GetParam());
  runner.SetVariable("FLIGHTS", testing::FlightsPath());
  runner.Run();
}

INSTANTIATE_TEST_SUITE_P(Files, SqlLogicTest,
                         ::testing::ValuesIn(testing::LogicTestFiles(SqlTestDir())),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return testing::LogicTestName(param_info.param);
                         });

}  // namespace
}  // namespace tarn
