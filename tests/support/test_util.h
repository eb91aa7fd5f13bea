// Small helpers shared by tarn's tests: paths to the shared fixtures and data sets, and a
// temporary directory that cleans up after itself.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace tarn::testing {

// The folders the build was configured with. Only tests/support/test_paths.cc sees them as
// compile definitions, so every other test object is the same whatever folder the checkout is in.
const std::string& SharedDir();  // ../shared beside the checkout: read-only fixtures, data sets
const std::string& OracleDir();  // tools/oracle: the DuckDB oracle's npm packages
const std::string& SourceDir();  // the checkout
const std::string& BinaryDir();  // the build folder: the tarn program, caches

// SharedDir() + "/" + relative: a read-only fixture or data set shared by all tests.
std::string SharedPath(std::string_view relative);

// The flights-3m.parquet data set installed with the DuckDB oracle by scripts/setup.sh.
std::string FlightsPath();

// Success when `path` names an existing regular file; the failure message says what is
// missing and how to get it. Use as ASSERT_TRUE(FileExists(path)): a missing fixture fails.
::testing::AssertionResult FileExists(const std::string& path);

// A fresh directory under /tmp (mkdtemp), removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name
  std::string Join(std::string_view name) const;

 private:
  std::string path_;
};

}  // namespace tarn::testing
