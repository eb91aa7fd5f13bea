// USING SAMPLE / TABLESAMPLE (sql/parse/statement.h SampleSpec): a random part of the input.
//
// system: each input batch kept whole with the percentage's probability (cheap, coarse: DuckDB
// keeps or drops whole vectors too); bernoulli: each row; reservoir: exactly min(n, rows) rows,
// each equally likely (Algorithm R over the whole input, holding n rows), or that percentage of
// the input's rows. A seed makes the sample repeatable for the same input order.
//
// Thread-safety: one thread at a time (a stateful operator: its random stream is one sequence).
#pragma once

#include <memory>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

std::unique_ptr<Operator> MakeSample(std::unique_ptr<Operator> input, const SampleSpec& spec);

}  // namespace tarn::sql
