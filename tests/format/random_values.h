// Random values of every type with matching DuckDB SQL literals, for the differential tests
// of tarn's text formats against DuckDB.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/type.h"

namespace tarn::testing {

// One column of random values: tarn Values and the SQL expression DuckDB evaluates to each.
struct RandomColumn {
  std::string name;
  DataType type;
  std::string sql_type;  // DuckDB's name of the type, for CASTs
  std::vector<Value> values;
  std::vector<std::string> literals;
};

// Columns of every scalar and nested type tarn formats, `rows` values each (NULLs and the
// edge values of each type included).
std::vector<RandomColumn> MakeRandomColumns(std::mt19937_64& rng, int rows);

// SELECT <columns> FROM (VALUES ...) ORDER BY the row index, preceded by SET TimeZone='UTC'.
std::string ValuesQuery(const std::vector<const RandomColumn*>& columns, int rows);

// A batch holding the columns' values.
std::shared_ptr<Batch> MakeBatchOf(const std::vector<const RandomColumn*>& columns);

}  // namespace tarn::testing
