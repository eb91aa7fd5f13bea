// DuckDB's hex, padding and repeat functions:
//   hex(x), to_hex(x) -> VARCHAR: the bytes of a VARCHAR or BLOB as upper-case hex digits, two
//       per byte; an integer (BIGINT, UBIGINT, HUGEINT or UHUGEINT, smaller ones widened) in
//       hex without leading zeros, a negative one as its two's complement ("FFFFFFFFFFFFFFFF"
//       for -1)
//   unhex(s), from_hex(s) -> BLOB: the bytes of hex digits (either case; an odd count reads
//       as if led by a 0); "Invalid input for hex digit: Z" otherwise
//   repeat(s, n) -> VARCHAR (BLOB for a BLOB): s n times; '' when n < 1
//   lpad(s, n, pad), rpad(s, n, pad) -> VARCHAR: s cut or padded with repetitions of pad to n
//       characters (code points), on the left or the right; n < 1 gives ''; padding with ''
//       fails with "Insufficient padding in LPAD." (RPAD)
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsStringFunction(FunctionId id);
Status ResolveStringFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                  std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeStringFunction(FunctionId id, std::span<const Value> args,
                                   const DataType& result_type);

}  // namespace tarn::expr
