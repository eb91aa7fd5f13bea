// The write type matrix's types and values: every DuckLake type with NULLs aside, each
// type's extremes (min, max, infinities, NaN, -NaN, ±0.0, empty, non-ASCII and 64 KiB
// strings) as SQL literals DuckDB and tarn both cast with CAST(x AS T). Shared by the type
// matrix test (every write path against DuckDB) and the randomized model test (random
// schemas of these types through inserts, updates and maintenance).
#pragma once

#include <string>
#include <vector>

namespace tarn::testing {

// How DuckLake keeps min/max for a type (`/work/shared/reference/ducklake-1.0.md` §4).
enum class Bounds { kText, kBoolean, kFloat, kBlob, kNone };

struct MatrixType {
  std::string name;      // the tables' suffix
  std::string sql_type;  // DuckDB's spelling
  Bounds bounds;
  std::vector<std::string> values;  // SQL expressions; each is written as CAST(x AS T)
};

inline const std::string kLong(65536, 'x');  // a 64 KiB string

// HUGEINT and UHUGEINT are stored as DOUBLE (as DuckDB's writer stores them), so their extremes
// round to ±2^127 or 2^128, which DuckDB's cast back to the column type refuses (-2^127 too,
// in DuckDB 1.5): the matrix uses the largest powers of two a DOUBLE carries back exactly.
inline const std::vector<MatrixType> kTypes = {
    {"boolean", "BOOLEAN", Bounds::kBoolean, {"true", "false"}},
    {"int8", "TINYINT", Bounds::kText, {"-128", "127", "0", "-1"}},
    {"int16", "SMALLINT", Bounds::kText, {"-32768", "32767", "0"}},
    {"int32", "INTEGER", Bounds::kText, {"-2147483648", "2147483647", "0"}},
    {"int64", "BIGINT", Bounds::kText,
     {"-9223372036854775808", "9223372036854775807", "0"}},
    {"int128", "HUGEINT", Bounds::kNone,
     {"-85070591730234615865843651857942052864", "85070591730234615865843651857942052864",
      "0", "-1", "9007199254740993"}},
    {"uint8", "UTINYINT", Bounds::kText, {"0", "255", "128"}},
    {"uint16", "USMALLINT", Bounds::kText, {"0", "65535", "32768"}},
    {"uint32", "UINTEGER", Bounds::kText, {"0", "4294967295", "2147483648"}},
    {"uint64", "UBIGINT", Bounds::kText,
     {"0", "18446744073709551615", "9223372036854775808"}},
    {"uint128", "UHUGEINT", Bounds::kNone,
     {"0", "170141183460469231731687303715884105728", "1"}},
    {"float32", "FLOAT", Bounds::kFloat,
     {"'NaN'", "'-NaN'", "'inf'", "'-inf'", "'0.0'", "'-0.0'", "'3.4028235e38'",
      "'-3.4028235e38'", "'1.4e-45'", "'1.5'"}},
    {"float64", "DOUBLE", Bounds::kFloat,
     {"'NaN'", "'-NaN'", "'inf'", "'-inf'", "'0.0'", "'-0.0'", "'1.7976931348623157e308'",
      "'-1.7976931348623157e308'", "'5e-324'", "'0.1'"}},
    {"decimal4", "DECIMAL(4,2)", Bounds::kText, {"'-99.99'", "'99.99'", "'0'", "'-0.01'"}},
    {"decimal9", "DECIMAL(9,4)", Bounds::kText, {"'-99999.9999'", "'99999.9999'", "'0.0001'"}},
    {"decimal18", "DECIMAL(18,6)", Bounds::kText,
     {"'-999999999999.999999'", "'999999999999.999999'", "'0'"}},
    {"decimal38", "DECIMAL(38,10)", Bounds::kText,
     {"'-9999999999999999999999999999.9999999999'",
      "'9999999999999999999999999999.9999999999'", "'0'", "'1.5'"}},
    {"date", "DATE", Bounds::kText,
     {"'-infinity'", "'infinity'", "'0001-01-01'", "'9999-12-31'", "'1969-12-31'",
      "'5877642-06-25 (BC)'", "'5881580-07-10'"}},
    {"time", "TIME", Bounds::kText,
     {"'00:00:00'", "'23:59:59.999999'", "'24:00:00'", "'12:34:56.5'"}},
    {"timetz", "TIMETZ", Bounds::kNone,
     {"'00:00:00+15:59'", "'24:00:00-15:59'", "'12:00:00+02'", "'12:00:00'"}},
    {"timestamp_s", "TIMESTAMP_S", Bounds::kText,
     {"'2000-01-01 00:00:01'", "'0001-01-01 00:00:00'", "'9999-12-31 23:59:59'",
      "'1969-12-31 23:59:59'"}},
    {"timestamp_ms", "TIMESTAMP_MS", Bounds::kText,
     {"'2000-01-01 00:00:01.123'", "'-infinity'", "'infinity'", "'0001-01-01 00:00:00'",
      "'9999-12-31 23:59:59.999'", "'1969-12-31 23:59:59.999'"}},
    {"timestamp", "TIMESTAMP", Bounds::kText,
     {"'2000-01-01 00:00:01.123456'", "'-infinity'", "'infinity'",
      "'290309-12-22 (BC) 00:00:00'", "'294247-01-10 04:00:54.775806'",
      "'1969-12-31 23:59:59.999999'"}},
    {"timestamp_ns", "TIMESTAMP_NS", Bounds::kText,
     {"'2000-01-01 00:00:01.123456789'", "'1677-09-22 00:00:00'",
      "'2262-04-11 23:47:16.854775806'", "'1969-12-31 23:59:59.999999999'"}},
    {"timestamptz", "TIMESTAMPTZ", Bounds::kText,
     {"'2000-01-01 00:00:01.5+05'", "'-infinity'", "'infinity'", "'0001-01-01 00:00:00+00'",
      "'9999-12-31 23:59:59+00'"}},
    // Parquet's INTERVAL holds unsigned months, days and milliseconds (2^32 - 1 ms is
    // 1193:02:47.295); negative intervals are in kRefused.
    {"interval", "INTERVAL", Bounds::kNone,
     {"'1 year 2 months 3 days 04:05:06.789'", "'0 seconds'", "'30 days 23:59:59.999'",
      "'178956970 years 7 months 2147483647 days 1193:02:47.295'", "'00:00:00.001'"}},
    {"varchar", "VARCHAR", Bounds::kText,
     {"''", "'ü€𝄞'", "'a''b'", "'NULL'", "' '", "'z'"}},
    {"varchar_long", "VARCHAR", Bounds::kText, {"'" + kLong + "'", "'a'", "''"}},
    {"blob", "BLOB", Bounds::kBlob, {"'\\x00\\xFF'", "''", "'abc'", "'\\xFF\\xFF'"}},
    {"uuid", "UUID", Bounds::kText,
     {"'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'",
      "'7fffffff-0000-4000-8000-000000000001'", "'80000000-0000-0000-0000-000000000000'"}},
    {"json", "JSON", Bounds::kText,
     {"'{\"a\": 1}'", "'[]'", "'\"é\"'", "'null'", "'{\"k\": [1, 2.5, \"x\"]}'"}},
};

}  // namespace tarn::testing
