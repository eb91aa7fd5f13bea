// DuckDB's hash and digest functions:
//   hash(x, ...) -> UBIGINT: DuckDB's own hash of the values, equal to DuckDB's for every type
//       it shares with tarn. A value of at most 32 bits (BOOLEAN, TINYINT .. INTEGER, DATE, the
//       narrow DECIMALs, FLOAT's bits) is widened to 32 bits and mixed with MurmurHash64's
//       finalizer; a 64-bit one (BIGINT, UBIGINT, TIME, TIMESTAMP, DOUBLE's bits, with -0.0 as
//       0.0 and every NaN as one) the same; a 128-bit one (HUGEINT, UHUGEINT, wide DECIMALs,
//       UUID as DuckDB stores it) as the XOR of its halves' hashes; an INTERVAL, normalized to
//       months, days (< 30) and micros (< a day), as the XOR of its parts' hashes; a string or
//       BLOB as 8-byte blocks multiplied in from a seed of its length, then mixed; a LIST or
//       STRUCT as its elements' hashes combined in order (an empty or NULL one as NULL); NULL
//       as 0xbf58476d1ce4e5b9. Several arguments combine as DuckDB's CombineHash does.
//   sha256(x), sha1(x) -> VARCHAR: the lower-case hex digest of a VARCHAR or BLOB's bytes.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsHashFunction(FunctionId id);
Status ResolveHashFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeHashFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type);

// DuckDB's hash of one value (of `type`; NULL or not), and of several combined.
uint64_t DuckDBHash(const Value& value, const DataType& type);
uint64_t DuckDBCombineHash(uint64_t left, uint64_t right);

}  // namespace tarn::expr
