// The Parquet conformance suite: every file of the shared parquet-testing corpus (and a few
// large data sets) read by tarn's ParquetReader, written with tarn's CsvWriter, and compared
// byte for byte with DuckDB's `COPY (SELECT * FROM read_parquet(f)) TO 'x.csv' (HEADER)`.
//
// Each file has an explicit expectation in the table (parquet_expectations_test.cc); a file
// that is on disk but not in the table fails the suite, so a new fixture forces a decision.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tarn/status.h"

namespace tarn::conformance {

enum class Expect {
  kEqualToDuckDB,  // tarn's CSV equals DuckDB's byte for byte (of `same_as` when set)
  kRefuse,         // tarn fails (open or scan) with `code`, message containing `text` + file name
  kHandWritten,    // DuckDB fails or is wrong here; tarn's CSV must equal `csv`
  kNotParquet,     // not a Parquet file (docs, keys, bloom filters): tarn refuses with Corruption
  kOwnTest,        // too large for a CSV comparison: the test named in `text` checks it
};

struct Expectation {
  std::string file;  // relative to the corpus root: "data/x.parquet", "bad_data/y.parquet",
                     // or "flights-3m.parquet", "tpch-sf0.1/lineitem.parquet"
  Expect expect = Expect::kEqualToDuckDB;
  StatusCode code = StatusCode::kOk;  // kRefuse
  std::string text;                   // kRefuse: a substring of the message; kOwnTest: the test
  std::string csv;                    // kHandWritten: the whole expected CSV
  std::string why;                    // the reason, for anything but kEqualToDuckDB
  // kEqualToDuckDB only: compare with DuckDB's CSV of this other corpus file instead (for
  // files DuckDB cannot read that hold the same rows as one it can).
  std::string same_as;
  // kEqualToDuckDB only: DuckDB's select list instead of `*` (for files DuckDB reads only in
  // part, e.g. the PLAIN twins of columns in an encoding it lacks).
  std::string oracle_select;
};

// The table, in one place.
const std::vector<Expectation>& ExpectationTable();

// A file of the corpus: its table name and absolute path.
struct CorpusFile {
  std::string name;
  std::string path;
};

// Every file the suite covers, enumerated from disk now (sorted).
std::vector<CorpusFile> EnumerateCorpus();

}  // namespace tarn::conformance
