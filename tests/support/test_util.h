// Small helpers shared by tarn's tests: paths to the shared fixtures and data sets, and a
// temporary directory that cleans up after itself.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace tarn::testing {

// TARN_SHARED_DIR + "/" + relative: a read-only fixture or data set shared by all tests.
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
