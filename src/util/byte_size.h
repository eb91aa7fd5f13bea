// DuckDB's spelling of a byte count, as SET memory_limit, the ducklake_target_file_size
// setting and the DuckLake options target_file_size / parquet_row_group_size_bytes take it
// (DuckDB's DBConfig::ParseMemoryLimit): a number (digits, '.', 'e', '-'), optional spaces,
// and a unit up to the next space: b, byte(s); kb, k, kilobyte(s) = 1000; mb, m, megabyte(s);
// gb, g, gigabyte(s); tb, t, terabyte(s); kib = 1024, mib, gib, tib; case-insensitive.
// Text after the unit is ignored, as DuckDB ignores it. A negative number, "none" or "null"
// means no limit (INT64_MAX).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "tarn/status.h"

namespace tarn {

// InvalidArgument with DuckDB's Parser Error text for a missing number ("Memory must have a
// number (e.g. 1GB)"), a malformed one ("Invalid memory limit: '1.2.3'") or an unknown or
// missing unit ("Unknown unit for memory: '' (expected: …)").
Result<int64_t> ParseByteSize(std::string_view text);

}  // namespace tarn
