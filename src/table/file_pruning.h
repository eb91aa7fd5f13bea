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
//     calendar parts) bound date and timestamp columns once the year is known.
// A file whose partition spec is unknown, or a column without statistics, is never pruned on
// that account.
//
// Thread-safety: immutable after construction.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/parquet.h"

namespace tarn::table_internal {

class FilePruner {
 public:
  // `predicate` was made over `full_schema`, whose first fields are table->table->columns.
  FilePruner(std::shared_ptr<const StatisticsPredicate> predicate,
             std::shared_ptr<const Schema> full_schema,
             std::shared_ptr<const TableMetadata> table);

  enum class Decision { kRead, kPrunedByStats, kPrunedByPartition };
  Decision Check(const DataFileInfo& file) const;

 private:
  bool MayMatchStats(const DataFileInfo& file) const;
  bool MayMatchPartition(const DataFileInfo& file) const;

  std::shared_ptr<const StatisticsPredicate> predicate_;
  std::shared_ptr<const TableMetadata> table_;
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

}  // namespace tarn::table_internal
