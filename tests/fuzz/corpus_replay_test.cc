// Replays tests/fuzz/corpus (Parquet) and tests/fuzz/corpus_sql (SQL text: seeds, depth and
// size cases, and every input the fuzzers once failed on) through the fuzz targets' entry
// points. Under the ASan/UBSan build a regression is a sanitizer report; in any build it is a
// crash or a hang. Each corpus is small enough to replay in well under a minute.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/parquet_fuzz_entry.h"
#include "fuzz/sql_fuzz_entry.h"
#include "support/test_util.h"

namespace tarn {
namespace {

std::vector<std::string> CorpusFiles(const std::string& folder = "corpus") {
  const std::string dir = tarn::testing::SourceDir() + "/tests/fuzz/" + folder;
  std::vector<std::string> files;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return files;
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name == "." || name == ".." || name == "README.md") continue;
    files.push_back(dir + "/" + name);
  }
  closedir(handle);
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CorpusReplayTest, EveryInputDecodesWithoutCrashing) {
  const std::vector<std::string> files = CorpusFiles();
  ASSERT_GE(files.size(), 10u) << "tests/fuzz/corpus is missing or nearly empty";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in.good());
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string input = bytes.str();
    EXPECT_LE(input.size(), 65536u) << "corpus files stay small";
    fuzz::FuzzParquetBytes(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
}

TEST(CorpusReplayTest, EverySqlInputParsesWithoutCrashing) {
  const std::vector<std::string> files = CorpusFiles("corpus_sql");
  ASSERT_GE(files.size(), 40u) << "tests/fuzz/corpus_sql is missing or nearly empty";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in.good());
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string input = bytes.str();
    EXPECT_LE(input.size(), 65536u) << "corpus files stay small";
    fuzz::FuzzSqlText(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
}

}  // namespace
}  // namespace tarn
