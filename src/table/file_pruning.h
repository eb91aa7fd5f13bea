// File pruning: whether a data file may hold a row matching the scan's predicate, decided
// from the catalog alone (no file is opened).
//
// Two sources, each a sound over-approximation of the file's values, so a file is pruned when
// either rules it out:
//   - ducklake_file_column_stats: min/max/null_count/contains_nan are fed to the same
//     StatisticsPredicate interface the Parquet reader uses, as ColumnStatistics. For float
//     columns neither bound is trusted unless contains_nan is recorded false (a NaN of either
//     sign may sit outside the recorded range);
//   - partition values: identity values pin the column; year/month/day/hour values (DuckDB's
//     calendar parts) bound date and timestamp columns once the year is known (TIMESTAMPTZ
//     parts are in the writer's time zone, so their range is widened by a day each way);
//     bucket(N) values rule out files when the predicate pins the column to values (`=`,
//     `IN`) that hash to other buckets. A NULL value of any transform means every row is NULL.
//     This needs the bound predicate (the tree), not only the StatisticsPredicate.
// A file whose partition spec is unknown, or a column without statistics, is never pruned on
// that account.
//
// Thread-safety: immutable after construction.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/expr.h"
#include "tarn/parquet.h"

namespace tarn::table_internal {

class FilePruner {
 public:
  // `predicate` was made over `full_schema`, whose first fields are table->table->columns.
  // Without `filter` (the same predicate, bound over `full_schema`) bucket(N) values do not
  // prune.
  FilePruner(std::shared_ptr<const StatisticsPredicate> predicate,
             std::shared_ptr<const Schema> full_schema,
             std::shared_ptr<const TableMetadata> table,
             std::shared_ptr<const BoundExpr> filter = nullptr);

  enum class Decision { kRead, kPrunedByStats, kPrunedByPartition };
  Decision Check(const DataFileInfo& file) const;

 private:
  bool MayMatchStats(const DataFileInfo& file) const;
  bool MayMatchPartition(const DataFileInfo& file) const;

  std::shared_ptr<const StatisticsPredicate> predicate_;
  std::shared_ptr<const Schema> full_schema_;
  std::shared_ptr<const TableMetadata> table_;
  std::shared_ptr<const BoundExpr> filter_;
  // For each predicate column: the table column, or null (rowid, snapshot_id).
  std::vector<const ColumnInfo*> columns_;
};

// ColumnStatistics from a catalog statistics row, for a column of `type` (the type at the
// snapshot): nullopt bounds when unknown or untrustworthy.
ColumnStatistics CatalogColumnStatistics(const FileColumnStats& stats, const DataType& type,
                                         int64_t record_count);

// The inclusive range [lo, hi] of a date or timestamp column of `type` whose calendar parts are
// `year` and optionally month (1-12), day (1-31), hour (0-23), each given only when the coarser
// ones are. nullopt for other types.
std::optional<std::pair<Value, Value>> CalendarRange(const DataType& type, int64_t year,
                                                     std::optional<int64_t> month,
                                                     std::optional<int64_t> day,
                                                     std::optional<int64_t> hour);

// The same for a TIMESTAMPTZ column whose parts were taken in an unknown time zone: the UTC
// range of those local times in any zone (offsets below 24 hours), as TIMESTAMPTZ values.
std::optional<std::pair<Value, Value>> CalendarRangeAnyZone(int64_t year,
                                                            std::optional<int64_t> month,
                                                            std::optional<int64_t> day,
                                                            std::optional<int64_t> hour);

// DuckLake's murmur3_32 of a value, as its bucket(N) transform hashes it: DuckDB's physical
// value (booleans, integers up to 64 bits, decimals up to 18 digits (unscaled), dates, times
// and timestamps in their own units, as 8-byte little-endian integers; floats as the bits of
// the double with -0.0 made 0.0; varchar, json and blob as their bytes; other types as DuckDB
// prints them: unsigned and 128-bit integers, wider decimals, uuids, structs, lists and maps).
// nullopt for NULL, NaN and the types whose hash this does not reproduce (timetz, interval,
// variant, geometry).
std::optional<int32_t> DuckLakeHash(const Value& value);

// (DuckLakeHash(value) & INT32_MAX) % bucket_count; nullopt as above or for a count < 1.
std::optional<int32_t> PartitionBucket(const Value& value, int64_t bucket_count);

}  // namespace tarn::table_internal
