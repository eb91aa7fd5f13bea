// Column statistics as the writer gathers them: min/max in Parquet's binary (PLAIN) encoding,
// ordered by the leaf's logical sort order, with null and NaN counts. Chunk statistics are
// merged into file statistics and decoded to tarn Values for WrittenFileInfo.
//
// Floating point: NaN is never a min or max (it is counted in nan_count); a zero min is
// written as -0.0 and a zero max as +0.0, so either sign of zero in the data stays inside the
// bounds; all-NaN data has no min/max.
//
// Thread-safety: plain values and stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/geometry.h"
#include "parquet/metadata.h"
#include "parquet/writer_schema.h"
#include "tarn/columnar.h"

namespace tarn::parquet {

struct ChunkStatistics {
  bool has_min_max = false;
  std::string min;  // PLAIN-encoded physical value (raw bytes for byte arrays)
  std::string max;
  bool min_exact = true;
  bool max_exact = true;
  // A string or blob max could not be cut (UpdateByteArrayBounds): the values have no bounds,
  // and a file holding this chunk has none either.
  bool bounds_lost = false;
  int64_t null_count = 0;
  int64_t nan_count = 0;
  int64_t num_levels = 0;  // values including nulls
  // GEOMETRY leaves: the box and kinds of the values (Parquet's GeospatialStatistics).
  std::optional<geometry::GeometryStats> geometry;
};

// Folds GEOMETRY values (WKB) into stats->geometry; a value that is no WKB drops them (the
// column then states no geospatial statistics).
void UpdateGeometry(const std::string_view* values, int64_t count, ChunkStatistics* stats);

// The footer's GeospatialStatistics for geometry statistics.
GeospatialStatistics ToGeospatialStatistics(const geometry::GeometryStats& stats);

// Folds `count` values into stats->min/max (and nan_count). One overload per physical value
// representation; booleans are one byte 0/1.
void UpdateMinMax(const WriterLeaf& leaf, const uint8_t* values, int64_t count,
                  ChunkStatistics* stats);
void UpdateMinMax(const WriterLeaf& leaf, const int32_t* values, int64_t count,
                  ChunkStatistics* stats);
void UpdateMinMax(const WriterLeaf& leaf, const int64_t* values, int64_t count,
                  ChunkStatistics* stats);
void UpdateMinMax(const WriterLeaf& leaf, const float* values, int64_t count,
                  ChunkStatistics* stats);
void UpdateMinMax(const WriterLeaf& leaf, const double* values, int64_t count,
                  ChunkStatistics* stats);
void UpdateMinMax(const WriterLeaf& leaf, const std::string_view* values, int64_t count,
                  ChunkStatistics* stats);

// Folds string and blob values (BYTE_ARRAY, byte order) into stats as DuckDB's writer does,
// value by value in order, so the bounds equal DuckDB's for the same values: a value longer
// than `max_length` bytes gives a min cut to at most `max_length` bytes (a string at a UTF-8
// character boundary) and a max cut after the last byte within `max_length` that can be
// incremented (below 0x7F for strings, so the max stays UTF-8; below 0xFF for blobs), that
// byte incremented; when no byte can be, the chunk keeps no bounds at all (bounds_lost). Each
// value is compared with the bounds kept so far, cut or not, as DuckDB compares. Other leaves
// go to UpdateMinMax.
void UpdateByteArrayBounds(const WriterLeaf& leaf, const std::string_view* values, int64_t count,
                           int64_t max_length, ChunkStatistics* stats);

// Truncates BYTE_ARRAY min/max longer than `max_length` bytes: the min to a prefix (still a
// lower bound), the max to a prefix incremented at its last byte below 0xFF (still an upper
// bound). A max that cannot be incremented is dropped with the min (no bounds).
void TruncateMinMax(const WriterLeaf& leaf, int64_t max_length, ChunkStatistics* stats);

// Orders two encoded values of the leaf: <0, 0, >0.
int CompareEncoded(const WriterLeaf& leaf, std::string_view a, std::string_view b);

// Folds chunk statistics into file statistics (min of mins, max of maxes, sums of counts).
void MergeStatistics(const WriterLeaf& leaf, const ChunkStatistics& chunk, bool first,
                     ChunkStatistics* file);

// The footer's Statistics for a chunk.
Statistics ToThriftStatistics(const WriterLeaf& leaf, const ChunkStatistics& stats);

// Decodes an encoded min/max to a Value of the leaf's tarn type (timestamp_s back to
// seconds). nullopt for types whose bounds tarn does not report (int128, uint128, timetz,
// interval, variant, geometry).
std::optional<Value> DecodeStatisticsValue(const WriterLeaf& leaf, std::string_view encoded);

}  // namespace tarn::parquet
