// Replays tests/fuzz/corpus (Parquet), tests/fuzz/corpus_sql (SQL text: seeds, depth and
// size cases, and every input the fuzzers once failed on) and tests/fuzz/corpus_rowsum (.rowsum
// sidecars and set and order bodies, with seeded byte flips and cuts of each) through the fuzz
// targets' entry points. Under the ASan/UBSan build a regression is a sanitizer report; in any build it is a
// crash or a hang. Each corpus is small enough to replay in well under a minute.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "fuzz/corpus_files.h"
#include "fuzz/parquet_fuzz_entry.h"
#include "fuzz/rowsum_fuzz_entry.h"
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

TEST(CorpusReplayTest, EveryRowsumInputAndItsMutationsDecodeWithoutCrashing) {
  const std::vector<std::string> files = fuzz::CorpusFiles("corpus_rowsum");
  ASSERT_GE(files.size(), 11u) << "tests/fuzz/corpus_rowsum is missing or nearly empty";
  std::mt19937_64 rng(31);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::string input;
    ASSERT_TRUE(fuzz::ReadCorpusFile(file, &input));
    EXPECT_LE(input.size(), 65536u) << "corpus files stay small";
    fuzz::FuzzRowsumBytes(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    // What a fuzzer tries first: single bit flips past the mode byte, and cuts.
    for (int round = 0; round < 300 && input.size() > 1; ++round) {
      std::string mutated = input;
      if (round % 10 == 9) {
        mutated.resize(1 + rng() % (input.size() - 1));
      } else {
        const size_t at = 1 + rng() % (input.size() - 1);
        mutated[at] = static_cast<char>(mutated[at] ^ (1 << (rng() % 8)));
      }
      fuzz::FuzzRowsumBytes(reinterpret_cast<const uint8_t*>(mutated.data()), mutated.size());
    }
  }
}

}  // namespace
}  // namespace tarn
