#include "support/test_util.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tarn::testing {

std::string SharedPath(std::string_view relative) {
  std::string path = SharedDir();
  path += "/";
  path += relative;
  return path;
}

std::string FlightsPath() {
  return OracleDir() + "/node_modules/vega-datasets/data/flights-3m.parquet";
}

::testing::AssertionResult FileExists(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return ::testing::AssertionFailure()
           << "missing file '" << path << "': " << std::strerror(errno)
           << " (shared fixtures live in " << SharedDir()
           << "; data sets are installed by scripts/setup.sh)";
  }
  if (!S_ISREG(st.st_mode)) {
    return ::testing::AssertionFailure() << "'" << path << "' is not a regular file";
  }
  return ::testing::AssertionSuccess();
}

TempDir::TempDir() {
  char name[] = "/tmp/tarn-test-XXXXXX";
  if (::mkdtemp(name) == nullptr) {
    // Without a directory every later path would point at "/": stop here.
    std::fprintf(stderr, "TempDir: mkdtemp under /tmp failed: %s\n", std::strerror(errno));
    std::abort();
  }
  path_ = name;
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code error;
  std::filesystem::remove_all(path_, error);
}

std::string TempDir::Join(std::string_view name) const {
  std::string joined = path_;
  joined += "/";
  joined += name;
  return joined;
}

}  // namespace tarn::testing
