// Which column types have statistics text, the rule EncodeStatsValue (tarn/lake_write.h)
// enforces, shared with the commit code that gathers bounds (commit_data.cc).
//
// Thread-safety: pure functions.
#pragma once

#include "tarn/columnar.h"

namespace tarn::catalog_internal {

// Whether a DuckLake catalog stores min/max text for a column of `type` (reference §4: none
// for int128, uint128, interval, timetz, nested types, variant, geometry).
bool HasStatsText(const DataType& type);

}  // namespace tarn::catalog_internal
