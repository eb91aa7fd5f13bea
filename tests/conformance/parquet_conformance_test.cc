// Reads every corpus file with tarn, writes it as CSV and compares with DuckDB's CSV of the
// same file. DuckDB's CSVs are made once (one node process for all missing files) and cached
// under the build directory, keyed by path, size and modification time. The comparison
// streams: tarn's CSV is checked line by line against the cached file, so memory stays at one
// batch whatever the file's size.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "conformance/conformance.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/io.h"
#include "tarn/parquet.h"

namespace tarn::conformance {
namespace {

constexpr const char* kOracleSql =
    "SET TimeZone='UTC'; COPY (SELECT {select} FROM read_parquet('{path}')) TO '{out}' (HEADER); "
    "SELECT 1 AS done";

std::string CorpusRoot() { return tarn::testing::SharedPath("fixtures/parquet-testing"); }

std::string CacheDir() { return tarn::testing::BinaryDir() + "/conformance-cache"; }

uint64_t Fnv1a(std::string_view text) {
  uint64_t hash = 1469598103934665603ULL;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

// DuckDB's query for `path` with the select list `select` ("" = "*").
std::string OracleSql(const std::string& path, const std::string& select) {
  return ReplaceAll(ReplaceAll(kOracleSql, "{path}", path), "{select}",
                    select.empty() ? "*" : select);
}

// Cache files for `path`: "<dir>/<basename>-<hash>.csv" (DuckDB's CSV) or ".err" (its error).
std::string CacheStem(const std::string& path, const std::string& select = "") {
  struct stat st {};
  ::stat(path.c_str(), &st);
  std::string key = StrCat(path, "|", st.st_size, "|", st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec,
                           "|", OracleSql(path, select));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(Fnv1a(key)));
  return CacheDir() + "/" + std::filesystem::path(path).filename().string() + "-" + hex;
}


const Expectation* FindExpectation(const std::string& name) {
  for (const Expectation& expectation : ExpectationTable()) {
    if (expectation.file == name) return &expectation;
  }
  return nullptr;
}

// Makes DuckDB's CSV (or error) for every file not cached yet, in one node process.
void EnsureOracleOutputs(const std::vector<CorpusFile>& files) {
  static std::once_flag once;
  std::call_once(once, [&] {
    std::filesystem::create_directories(CacheDir());
    std::vector<std::string> queries;
    std::vector<std::string> stems;
    for (const CorpusFile& file : files) {
      const Expectation* expectation = FindExpectation(file.name);
      if (expectation == nullptr || expectation->expect != Expect::kEqualToDuckDB) continue;
      std::string stem = CacheStem(file.path, expectation->oracle_select);
      if (std::filesystem::exists(stem + ".csv") || std::filesystem::exists(stem + ".err")) continue;
      if (file.path.find('\'') != std::string::npos || !std::filesystem::exists(file.path)) continue;
      std::string tmp = StrCat(stem, ".tmp", ::getpid());
      queries.push_back(ReplaceAll(OracleSql(file.path, expectation->oracle_select), "{out}", tmp));
      stems.push_back(stem);
    }
    if (queries.empty()) return;
    std::vector<Result<std::string>> results = tarn::testing::DuckDBQueryCsvBatch(queries);
    for (size_t i = 0; i < results.size(); ++i) {
      std::string tmp = StrCat(stems[i], ".tmp", ::getpid());
      if (results[i].ok()) {
        std::filesystem::rename(tmp, stems[i] + ".csv");
      } else if (results[i].status().code() == StatusCode::kInvalidArgument) {
        // A DuckDB error about this file (an oracle failure is not cached).
        std::filesystem::remove(tmp);
        std::ofstream(stems[i] + ".err") << results[i].status().message();
      }
    }
  });
}

std::string Clip(std::string_view line) {
  std::string out(line.substr(0, 400));
  if (line.size() > 400) out += "…";
  return out;
}

// Compares the text it receives with a file, line by line, remembering the first difference.
class ComparingSink : public TextSink {
 public:
  explicit ComparingSink(std::istream* expected) : expected_(expected) {}

  Status Append(std::string_view text) override {
    pending_.append(text);
    size_t start = 0;
    for (size_t nl = pending_.find('\n'); nl != std::string::npos; nl = pending_.find('\n', start)) {
      CompareLine(std::string_view(pending_).substr(start, nl - start));
      start = nl + 1;
    }
    pending_.erase(0, start);
    return Status::OK();
  }

  // Checks the end: a trailing partial line and lines DuckDB has beyond tarn's.
  void Finish() {
    if (!pending_.empty()) CompareLine(pending_, /*has_newline=*/false);
    std::string line;
    int64_t extra = 0;
    while (std::getline(*expected_, line)) {
      if (extra++ == 0 && first_diff_.empty()) {
        first_diff_ = StrCat("tarn ends after line ", line_no_, "; DuckDB goes on with line ",
                             line_no_ + 1, ": ", Clip(line));
      }
    }
    if (extra > 0) diff_lines_ += extra;
  }

  bool equal() const { return first_diff_.empty(); }
  const std::string& first_diff() const { return first_diff_; }
  int64_t diff_lines() const { return diff_lines_; }
  int64_t lines() const { return line_no_; }

 private:
  void CompareLine(std::string_view actual, bool has_newline = true) {
    ++line_no_;
    std::string expected;
    bool have = static_cast<bool>(std::getline(*expected_, expected));
    bool expected_has_newline = have && !expected_->eof();
    if (have && expected == actual && expected_has_newline == has_newline) return;
    ++diff_lines_;
    if (!first_diff_.empty()) return;
    if (!have) {
      first_diff_ = StrCat("DuckDB ends after line ", line_no_ - 1, "; tarn goes on with line ",
                           line_no_, ": ", Clip(actual));
    } else {
      first_diff_ = StrCat("line ", line_no_, " differs\n    duckdb: ", Clip(expected),
                           "\n    tarn:   ", Clip(actual));
    }
  }

  std::istream* expected_;
  std::string pending_;
  int64_t line_no_ = 0;
  int64_t diff_lines_ = 0;
  std::string first_diff_;
};

// What happened to one file, for the summary.
struct Outcome {
  std::string file;
  bool passed = false;
  std::string detail;
  double seconds = 0;
};

std::mutex& OutcomesMutex() {
  static std::mutex mu;
  return mu;
}
std::vector<Outcome>& Outcomes() {
  static std::vector<Outcome> outcomes;  // guarded by OutcomesMutex()
  return outcomes;
}

// Reads `path` with tarn and streams its CSV into `sink`.
Status TarnToCsv(const std::string& path, TextSink* sink) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<ParquetReader> reader,
                        ParquetReader::Open(LocalFileSystem(), path));
  ScanOptions options;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<ScanReader> scan, reader->Scan(options));
  return WriteCsv(scan.get(), sink);
}

// Runs one file against its expectation; returns "" on success, else what went wrong.
std::string CheckFile(const CorpusFile& file, const Expectation& expectation) {
  const std::string base = std::filesystem::path(file.path).filename().string();
  switch (expectation.expect) {
    case Expect::kEqualToDuckDB: {
      std::string stem = CacheStem(file.path, expectation.oracle_select);
      if (!expectation.same_as.empty()) {
        std::vector<CorpusFile> corpus = EnumerateCorpus();
        auto other = std::find_if(corpus.begin(), corpus.end(), [&](const CorpusFile& f) {
          return f.name == expectation.same_as;
        });
        if (other == corpus.end()) return StrCat("same_as names no corpus file: ", expectation.same_as);
        stem = CacheStem(other->path);
      }
      if (!std::filesystem::exists(stem + ".csv")) {
        std::ifstream err(stem + ".err");
        std::stringstream message;
        message << err.rdbuf();
        return StrCat("DuckDB has no CSV for this file: ",
                      err ? message.str() : "the oracle did not run (see earlier errors)");
      }
      std::ifstream expected(stem + ".csv", std::ios::binary);
      ComparingSink sink(&expected);
      Status status = TarnToCsv(file.path, &sink);
      if (!status.ok()) return StrCat("tarn fails: ", status.ToString());
      sink.Finish();
      if (sink.equal()) return "";
      return StrCat(sink.diff_lines(), " of ", sink.lines(), " lines differ; first: ",
                    sink.first_diff());
    }
    case Expect::kRefuse:
    case Expect::kNotParquet: {
      std::string csv;
      StringSink sink(&csv);
      Status status = TarnToCsv(file.path, &sink);
      StatusCode code =
          expectation.expect == Expect::kNotParquet ? StatusCode::kCorruption : expectation.code;
      if (status.ok()) {
        return StrCat("tarn reads the file (", std::count(csv.begin(), csv.end(), '\n'),
                      " lines) but should refuse with ", StatusCodeName(code));
      }
      if (status.code() != code || status.message().find(expectation.text) == std::string::npos ||
          status.message().find(base) == std::string::npos) {
        return StrCat("tarn fails with '", status.ToString(), "' but should fail with ",
                      StatusCodeName(code), " naming '", base, "' and containing '",
                      expectation.text, "'");
      }
      return "";
    }
    case Expect::kHandWritten: {
      std::istringstream expected(expectation.csv);
      ComparingSink sink(&expected);
      Status status = TarnToCsv(file.path, &sink);
      if (!status.ok()) return StrCat("tarn fails: ", status.ToString());
      sink.Finish();
      if (sink.equal()) return "";
      return StrCat("differs from the hand-written CSV: ", sink.first_diff());
    }
    case Expect::kOwnTest:
      return "";  // expectation.text names the test that reads the file
  }
  return "unknown expectation";
}

class ParquetConformance : public ::testing::TestWithParam<CorpusFile> {};

}  // namespace

// gtest prints a parameter by its table name.
void PrintTo(const CorpusFile& file, std::ostream* out) { *out << file.name; }

namespace {

TEST_P(ParquetConformance, MatchesExpectation) {
  const CorpusFile& file = GetParam();
  ASSERT_TRUE(tarn::testing::FileExists(file.path));
  const Expectation* expectation = FindExpectation(file.name);
  auto start = std::chrono::steady_clock::now();
  std::string problem;
  if (expectation == nullptr) {
    problem = "not in the expectation table (parquet_expectations_test.cc): decide what tarn "
              "must do with it";
  } else {
    if (expectation->expect == Expect::kEqualToDuckDB) EnsureOracleOutputs(EnumerateCorpus());
    problem = CheckFile(file, *expectation);
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    std::lock_guard<std::mutex> lock(OutcomesMutex());
    Outcomes().push_back({file.name, problem.empty(), problem, seconds});
  }
  EXPECT_TRUE(problem.empty()) << file.name << ": " << problem;
}

std::string TestName(const ::testing::TestParamInfo<CorpusFile>& info) {
  std::string name = info.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ParquetConformance, ::testing::ValuesIn(EnumerateCorpus()),
                         TestName);

// Prints which files passed and which did not, once all tests of the process ran.
class SummaryPrinter : public ::testing::Environment {
 public:
  void TearDown() override {
    std::lock_guard<std::mutex> lock(OutcomesMutex());
    std::vector<Outcome>& outcomes = Outcomes();
    if (outcomes.empty()) return;
    std::sort(outcomes.begin(), outcomes.end(),
              [](const Outcome& a, const Outcome& b) { return a.file < b.file; });
    int passed = 0;
    std::printf("\n==== Parquet conformance summary ====\n");
    for (const Outcome& outcome : outcomes) {
      passed += outcome.passed ? 1 : 0;
      std::printf("%-4s %-70s %7.2fs%s%s\n", outcome.passed ? "ok" : "FAIL", outcome.file.c_str(),
                  outcome.seconds, outcome.passed ? "" : "\n     ", outcome.detail.c_str());
    }
    std::printf("==== %d of %zu files as expected ====\n", passed, outcomes.size());
  }
};

[[maybe_unused]] ::testing::Environment* const kSummary =
    ::testing::AddGlobalTestEnvironment(new SummaryPrinter);

}  // namespace

std::vector<CorpusFile> EnumerateCorpus() {
  std::vector<CorpusFile> files;
  for (const char* dir : {"data", "bad_data"}) {
    std::error_code error;
    for (const auto& entry :
         std::filesystem::directory_iterator(CorpusRoot() + "/" + dir, error)) {
      if (!entry.is_regular_file()) continue;
      files.push_back({std::string(dir) + "/" + entry.path().filename().string(),
                       entry.path().string()});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  files.push_back({"flights-3m.parquet", tarn::testing::FlightsPath()});
  for (const char* table : {"lineitem", "orders"}) {
    files.push_back({StrCat("tpch-sf0.1/", table, ".parquet"),
                     tarn::testing::SharedPath(StrCat("data/tpch-sf0.1/", table, ".parquet"))});
  }
  return files;
}

TEST(ParquetConformanceTable, EveryEntryNamesAFileOnDisk) {
  std::vector<CorpusFile> corpus = EnumerateCorpus();
  ASSERT_GT(corpus.size(), 3u) << "the corpus under " << CorpusRoot() << " is missing";
  for (const Expectation& expectation : ExpectationTable()) {
    bool found = std::any_of(corpus.begin(), corpus.end(),
                             [&](const CorpusFile& f) { return f.name == expectation.file; });
    EXPECT_TRUE(found) << "stale table entry: " << expectation.file;
    if (expectation.expect != Expect::kEqualToDuckDB || !expectation.same_as.empty()) {
      EXPECT_FALSE(expectation.why.empty()) << expectation.file << " needs a reason";
    }
  }
}

}  // namespace tarn::conformance
