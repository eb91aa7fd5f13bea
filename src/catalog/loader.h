// Internal pieces of the catalog loaders shared by lake.cc, snapshot_loader.cc,
// table_loader.cc and inlined_reader.cc.
//
// Every function here expects the caller to hold the Lake's mutex (the store is used by one
// thread at a time).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "tarn/catalog.h"

namespace tarn::catalog_internal {

Result<SnapshotInfo> FindSnapshotLocked(CatalogStore* store, const SnapshotSelector& selector);

// Opens a read transaction when none is open, so that a load sees one committed state; ends
// it on destruction. A failure to begin is reported by status().
class ReadTransaction {
 public:
  explicit ReadTransaction(CatalogStore* store);
  ~ReadTransaction();
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;
  const Status& status() const { return status_; }

 private:
  CatalogStore* store_;
  bool owns_ = false;
  Status status_;
};

// The columns of one table (or of every table, when table_id is nullopt) visible at
// `snapshot`, as trees: top-level columns in column_order, children nested, types built.
Result<std::map<int64_t, std::vector<ColumnInfo>>> LoadColumns(CatalogStore* store,
                                                               int64_t snapshot,
                                                               std::optional<int64_t> table_id);

// Parses a partition transform ("identity", "year", "bucket(16)") and sets the field's
// transform, bucket_count and result_type (from the source column's type). InvalidArgument
// when it is not a known transform.
Status ParsePartitionTransform(std::string_view text, const DataType& source_type,
                               PartitionField* field);

}  // namespace tarn::catalog_internal
