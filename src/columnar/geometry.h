// GEOMETRY values as DuckDB 1.5 holds them: ISO WKB bytes (little endian, dimension codes
// +1000 for Z, +2000 for M, +3000 for ZM). This file converts WKT text to that WKB with
// DuckDB's grammar and messages, prints WKB as DuckDB's WKT, and folds values into the bounding
// box and type set that DuckLake keeps as a column's extra_stats.
//
// Thread-safety: pure functions; a GeometryStats is a plain value.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::geometry {

// WKT text (POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON,
// GEOMETRYCOLLECTION; Z, M, ZM; EMPTY; an optional "SRID=n;" prefix, ignored) to ISO WKB.
// Malformed text is InvalidArgument with DuckDB's message ("Invalid Input Error: Failed to
// parse geometry: Expected number at offset 8"). As DuckDB, text after a complete geometry
// is ignored.
Result<std::string> WktToWkb(std::string_view wkt);

// WKB (either byte order, ISO or EWKB-free dimension codes) as DuckDB prints it:
// "POINT (1 2)", "LINESTRING Z (5 5 5, 10 10 10)", "POINT EMPTY". Corruption for bytes that
// are not a complete geometry.
Result<std::string> WkbToWkt(std::string_view wkb);

// A coordinate as DuckDB's WKT writer prints it: the shortest text that reads back the same
// double, fixed for decimal exponents -5 < e < 16, else d.ddde±XX; "nan", "inf", "-0".
void AppendCoordinate(double value, std::string* out);

// Bounding box per dimension and the set of geometry kinds ("point", "linestring_z", ...)
// of a column's values: DuckLake's geometry extra_stats. Z and M bounds cover only the
// geometries that have those dimensions; an EMPTY point adds its kind but no coordinates.
struct GeometryStats {
  static constexpr int kX = 0, kY = 1, kZ = 2, kM = 3;
  std::array<double, 4> min;  // +inf when no coordinate of that dimension was seen
  std::array<double, 4> max;  // -inf likewise
  std::set<std::string> types;  // sorted, as the extension's std::set

  GeometryStats();

  // Folds one WKB value in; Corruption when it does not parse (the stats are then unchanged
  // only up to the failing coordinate: callers drop them).
  Status Add(std::string_view wkb);
  void Merge(const GeometryStats& other);
  bool empty() const { return types.empty(); }

  // {"bbox": {"xmin": 1.000000, ..., "mmax": null}, "types": ["point"]}: the extension's JSON
  // (doubles with six decimals, an unseen bound null).
  std::string ToJson() const;
  // The kinds as Parquet's geospatial_types lists them: ISO WKB codes (1, 1002, ...), and
  // back (unknown codes are left out).
  std::vector<int32_t> TypeCodes() const;
  void AddTypeCode(int32_t code);

  // Parses what ToJson writes (and any JSON of that shape); nullopt for other text.
  static std::optional<GeometryStats> FromJson(std::string_view json);
};

// DuckDB's stats() text of geometry statistics as DuckLake hands them over (no flags known, so
// all four set): "[Extent: [X: [0.000000, 1.000000], ..., M: [inf, -inf]], Types: [point],
// Flags: [...]]".
std::string StatisticsText(const GeometryStats& stats);

}  // namespace tarn::geometry
