// The catalog loader over damaged catalogs (catalog_fuzz_entry.h): the inputs of
// tests/fuzz/corpus_catalog (seeds and every input that once failed), then inputs drawn from
// fixed seeds. A regression is a crash or a sanitizer report. TARN_LONG=1 runs many more
// random inputs, each written to catalog-fuzz-last.bin in the working directory before it
// runs, so that the one that crashed can be kept in the corpus.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "fuzz/catalog_fuzz_entry.h"
#include "fuzz/corpus_files.h"
#include "support/test_util.h"

namespace tarn {
namespace {

void RunInput(const std::string& input) {
  fuzz::FuzzCatalogBytes(reinterpret_cast<const uint8_t*>(input.data()), input.size(),
                         testing::SharedDir());
}

// Random inputs: a fixture, a snapshot and 1..kMaxCatalogMutations mutations.
std::string RandomInput(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string input;
  input += static_cast<char>(rng() % fuzz::kCatalogFuzzFixtureCount);
  input += static_cast<char>(rng());
  const size_t mutations = 1 + rng() % fuzz::kMaxCatalogMutations;
  for (size_t m = 0; m < mutations * 5; ++m) input += static_cast<char>(rng());
  return input;
}

TEST(CatalogFuzzTest, CorpusReplaysWithoutCrashing) {
  ASSERT_TRUE(testing::FileExists(testing::SharedPath("fixtures/ducklake/basic/catalog.sqlite")));
  const std::vector<std::string> files = fuzz::CorpusFiles("corpus_catalog");
  ASSERT_GE(files.size(), 10u) << "tests/fuzz/corpus_catalog is missing or nearly empty";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::string input;
    ASSERT_TRUE(fuzz::ReadCorpusFile(file, &input));
    EXPECT_LE(input.size(), 2 + 5 * fuzz::kMaxCatalogMutations + 5);
    RunInput(input);
  }
}

TEST(CatalogFuzzTest, RandomDamageGivesStatusNeverACrash) {
  ASSERT_TRUE(testing::FileExists(testing::SharedPath("fixtures/ducklake/basic/catalog.sqlite")));
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  const uint64_t count = long_run ? 5000 : 80;
  for (uint64_t seed = 1; seed <= count; ++seed) {
    const std::string input = RandomInput(seed);
    if (long_run) {
      std::ofstream("catalog-fuzz-last.bin", std::ios::binary | std::ios::trunc) << input;
    }
    SCOPED_TRACE(seed);
    RunInput(input);
  }
  RecordProperty("inputs", static_cast<int>(count));
}

}  // namespace
}  // namespace tarn
