// DuckDB's string formatting functions:
//   printf(format, args...) -> VARCHAR: C printf conversions %d %i %u %x %X %o %c %e %E %f %F
//       %g %G %s %% with the flags - + space # 0, a width and a precision (`*` is not
//       accepted); integers for the integer conversions (DECIMAL and floating values are
//       refused, as DuckDB refuses them), any number for the floating ones, any value for %s
//       (its VARCHAR text)
//   format(format, args...) -> VARCHAR: `{}` (the next argument), `{N}` (argument N, from 0)
//       and `{:spec}` / `{N:spec}` with spec [[fill]align][sign][#][0][width][,][.precision]
//       [type], align one of < > ^, type one of d x X o b c e E f F g G s; `{{` and `}}` are
//       braces
// A NULL argument makes the result NULL. Errors name the conversion and the value's type.
//
// Thread-safety: pure functions.
#pragma once

#include <span>

#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

Result<Value> Printf(std::span<const Value> args);
Result<Value> Format(std::span<const Value> args);

}  // namespace tarn::expr
