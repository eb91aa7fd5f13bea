// Inlined values kept as text: how a SQLite (or PostgreSQL) catalog stores the inlined rows of
// types it has no native column type for.
//
// The official extension writes such values through DuckDB and reads them back with DuckDB's
// VARCHAR cast, so the text is whatever DuckDB's cast accepts:
//   - nested values in DuckDB's VARCHAR spelling: lists `[1, NULL, 'a, b']`, structs
//     `{'x': 1, 'y': abc}` (or positional `(1, abc)`), maps `{k=v, 'k 2'=NULL}`. A top-level
//     struct on SQLite is written in SQL literal form, so its fields may also be spelled
//     `'it''s'` (DuckDB reads adjacent quoted pieces as one string: "its") or
//     `CAST('2020-01-01' AS DATE)`;
//   - intervals: `1 year 2 months 3 days 04:05:06.789`, `1 months 2 days 3 microseconds`;
//   - TIME WITH TIME ZONE: `12:34:56.5+05:30`, held by tarn as UTC micros in [0, 24h);
//   - every other primitive in its literal spelling (DecodeLiteralValue).
//
// The nested grammar is that of DuckDB's printer: elements split at top-level commas; quoted
// strings ('...' or "...", with backslash escapes inside) and brackets ({}, [], (), quotes
// inside honored) are skipped as units; surrounding spaces are dropped; an unquoted `NULL`
// (any case) is NULL; quotes are removed, adjacent pieces joining as DuckDB joins them; struct
// keys match field names exactly; missing fields are NULL; map keys may not be NULL or
// repeated. Where DuckDB's own VARCHAR cast misreads its printed text (a bracket inside a
// quoted string below the top level, an unquoted key ending in a backslash) tarn decodes the
// value that was printed. One leniency: a primitive element spelled `CAST('text' AS TYPE)`
// (the SQL-literal form above) decodes as `text`, which DuckDB itself refuses.
//
// Every function takes untrusted text, never reads outside it, and returns InvalidArgument for
// text that is not one value of the type. Recursion follows the type, not the text.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "tarn/columnar.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn::catalog_internal {

// Decodes an inlined value stored as text into a Value of `type`. Variant and geometry are
// NotSupported.
Result<Value> DecodeInlinedText(std::string_view text, const DataType& type);

// DuckDB's interval text (also with unit words such as "microseconds", "mons", "weeks").
bool ParseIntervalText(std::string_view text, Interval* out);
// "HH:MM:SS[.fraction]±HH[:MM[:SS]]" as UTC microseconds of the day, in [0, 86400e6).
bool ParseTimeTzText(std::string_view text, int64_t* utc_micros);
// "+05", "-03:30", "+0530", "+05:30:15": the offset in seconds east of UTC.
bool ParseUtcOffset(std::string_view offset, int64_t* seconds);
// The UTC time of day of a local time of day at an offset, in [0, 24h).
int64_t TimeTzToUtc(int64_t local_micros, int64_t offset_seconds);

}  // namespace tarn::catalog_internal
