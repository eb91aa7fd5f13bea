// Helpers for tests that run SQL through a tarn::Session.
#pragma once

#include <string>
#include <string_view>

#include "tarn/sql.h"

namespace tarn::testing {

// Runs `sql` and returns its rows as CSV with a header, as tarn's CsvWriter writes them (the
// text DuckDB's COPY ... TO (HEADER) writes).
Result<std::string> TarnCsv(Session* session, const std::string& sql);

// `text` as a SQL string literal: in single quotes, each quote doubled.
std::string SqlString(std::string_view text);

// `text` with every occurrence of `key` replaced by `value`.
std::string ReplaceAll(std::string text, const std::string& key, const std::string& value);

}  // namespace tarn::testing
