// scripts/shared_manifest.sh, which scripts/test.sh runs around the test suite to fail the run
// when a test changed the shared fixtures: on a scratch folder, every kind of change is caught
// and an unchanged folder passes; an empty or missing folder never passes.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/test_util.h"

namespace tarn {
namespace {

namespace fs = std::filesystem;

std::string Quote(const std::string& text) { return "'" + text + "'"; }

// The script's exit status for `mode` over `dir` with `manifest`.
int Manifest(const std::string& mode, const std::string& dir, const std::string& manifest) {
  const std::string command = Quote(testing::SourceDir() + "/scripts/shared_manifest.sh") +
                              " " + mode + " " + Quote(dir) + " " + Quote(manifest) +
                              " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

class SharedManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(root_ + "/lake/data");
    Write(root_ + "/lake/catalog.sqlite", "catalog bytes");
    Write(root_ + "/lake/data/f.parquet", "parquet bytes");
    ASSERT_EQ(Manifest("record", root_, manifest_), 0);
    ASSERT_EQ(Manifest("check", root_, manifest_), 0);
  }

  testing::TempDir dir_;
  std::string root_ = dir_.Join("shared");
  std::string manifest_ = dir_.Join("manifest");
};

TEST_F(SharedManifestTest, UnchangedFolderPasses) {
  EXPECT_EQ(Manifest("check", root_, manifest_), 0);
}

TEST_F(SharedManifestTest, TouchedFileFails) {
  const auto later = fs::last_write_time(root_ + "/lake/data/f.parquet") + std::chrono::seconds(5);
  fs::last_write_time(root_ + "/lake/data/f.parquet", later);
  EXPECT_EQ(Manifest("check", root_, manifest_), 1);
}

TEST_F(SharedManifestTest, RewrittenBytesWithTheOldTimeFail) {
  const std::string file = root_ + "/lake/catalog.sqlite";
  const auto time = fs::last_write_time(file);
  Write(file, "catalog BYTES");  // same size
  fs::last_write_time(file, time);
  EXPECT_EQ(Manifest("check", root_, manifest_), 1);
}

TEST_F(SharedManifestTest, AddedOrRemovedEntriesFail) {
  Write(root_ + "/lake/data/new-delete.parquet", "x");
  EXPECT_EQ(Manifest("check", root_, manifest_), 1);
  fs::remove(root_ + "/lake/data/new-delete.parquet");
  fs::remove(root_ + "/lake/data/f.parquet");
  EXPECT_EQ(Manifest("check", root_, manifest_), 1);
}

TEST_F(SharedManifestTest, NothingToCompareNeverPasses) {
  const std::string empty = dir_.Join("empty");
  fs::create_directories(empty);
  EXPECT_EQ(Manifest("record", empty, dir_.Join("empty-manifest")), 2);
  EXPECT_EQ(Manifest("record", dir_.Join("missing"), dir_.Join("missing-manifest")), 2);
  EXPECT_EQ(Manifest("check", root_, dir_.Join("no-such-manifest")), 2);
  EXPECT_EQ(Manifest("check", dir_.Join("missing"), manifest_), 2);
}

}  // namespace
}  // namespace tarn
