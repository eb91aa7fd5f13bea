// Replays tests/fuzz/corpus (Parquet) and tests/fuzz/corpus_sql (SQL text: seeds, depth and
// size cases, and every input the fuzzers once failed on) through the fuzz targets' entry
// points. Under the ASan/UBSan build a regression is a sanitizer report; in any build it is a
// crash or a hang. Each corpus is small enough to replay in well under a minute.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fuzz/corpus_files.h"
#include "fuzz/parquet_fuzz_entry.h"
#include "fuzz/sql_fuzz_entry.h"

namespace tarn {
namespace {

TEST(CorpusReplayTest, EveryInputDecodesWithoutCrashing) {
  const std::vector<std::string> files = fuzz::CorpusFiles("corpus");
  ASSERT_GE(files.size(), 10u) << "tests/fuzz/corpus is missing or nearly empty";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::string input;
    ASSERT_TRUE(fuzz::ReadCorpusFile(file, &input));
    EXPECT_LE(input.size(), 65536u) << "corpus files stay small";
    fuzz::FuzzParquetBytes(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
}

TEST(CorpusReplayTest, EverySqlInputParsesWithoutCrashing) {
  const std::vector<std::string> files = fuzz::CorpusFiles("corpus_sql");
  ASSERT_GE(files.size(), 40u) << "tests/fuzz/corpus_sql is missing or nearly empty";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::string input;
    ASSERT_TRUE(fuzz::ReadCorpusFile(file, &input));
    EXPECT_LE(input.size(), 65536u) << "corpus files stay small";
    fuzz::FuzzSqlText(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
}

}  // namespace
}  // namespace tarn
