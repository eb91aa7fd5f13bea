// Helpers for tests that run SQL through a tarn::Session.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tarn/sql.h"

namespace tarn::testing {

// Runs `sql` and returns its rows as CSV with a header, as tarn's CsvWriter writes them (the
// text DuckDB's COPY ... TO (HEADER) writes).
Result<std::string> TarnCsv(Session* session, const std::string& sql);

// `text` as a SQL string literal: in single quotes, each quote doubled.
std::string SqlString(std::string_view text);

// Runs each query in DuckDB (the oracle, one node process for all) and in a fresh tarn
// Session at each of `threads`, and EXPECTs the CSV texts (headers included) equal, naming the
// query and thread count of every difference.
void ExpectQueriesMatchDuckDB(const std::vector<std::string>& queries,
                              const std::vector<int>& threads = {1, 2});

// EXPECTs DuckDB to refuse each query and tarn to refuse it with DuckDB's class of error (the
// text before the first ':' of DuckDB's message, such as "Binder Error").
void ExpectRefusedLikeDuckDB(const std::vector<std::string>& queries);

// `text` with every occurrence of `key` replaced by `value`.
std::string ReplaceAll(std::string text, const std::string& key, const std::string& value);

}  // namespace tarn::testing
