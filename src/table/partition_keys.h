// Partition keys of rows on their way into a partitioned table (reference §2.6, §3.6): each
// row's value per key of the table's spec — identity: the value's text as DuckDB casts it to
// VARCHAR; year, month, day, hour: that calendar part (UTC); bucket(N): the Iceberg bucket —
// the hive folder the values name (`cat=a/month=11/`), and a batch's rows grouped by key.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"

namespace tarn::table_internal {

// One key's value for a row whose source column holds `value`; nullopt for NULL (and for a
// temporal part of an infinite date or timestamp).
std::optional<std::string> PartitionKeyText(const PartitionField& field, const Value& value);

// The folder name of a key: the column's name for identity, else the transform's name
// (year, month, day, hour, bucket).
std::string PartitionKeyName(const PartitionField& field, const TableInfo& table);

// `text` escaped for a hive folder as DuckDB escapes it: ASCII letters, digits and "-_.~" kept,
// every other byte as %XX (upper-case hex).
std::string HiveEscape(std::string_view text);

// "name=value/…/" for the keys; NULL values are __HIVE_DEFAULT_PARTITION__.
std::string HiveDirectory(const std::vector<std::string>& names,
                          const std::vector<std::optional<std::string>>& values);

// The rows of a batch that share one partition.
struct PartitionGroup {
  std::vector<std::optional<std::string>> values;  // by key index
  std::vector<int64_t> rows;                       // ascending
};

// Groups the rows of `batch` by their keys; `source_columns[k]` is the batch column of key k's
// source column. Groups come in the order of their first row.
std::vector<PartitionGroup> GroupByPartition(const Batch& batch,
                                             const std::vector<PartitionField>& fields,
                                             const std::vector<int>& source_columns);

}  // namespace tarn::table_internal
