// Record assembly: turns the decoded leaves of one top-level column (levels plus values, see
// LeafOutput) into a nested Column in the Arrow layout: struct validity, list/map offsets and
// validity, and leaf values spread over their slots.
//
// Each node reads the levels of the first leaf beneath it (see the level model in schema.h);
// its children are built from their own leaves, and a child whose length disagrees with what
// its parent expects is Corruption (columns of one row group that do not line up).
//
// Thread-safety: pure function of its inputs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parquet/column_reader.h"
#include "parquet/schema.h"
#include "tarn/columnar.h"

namespace tarn::parquet {

// Builds the column of `node` holding `num_rows` rows from `leaves` (indexed by leaf index;
// only the node's own leaves are read). `context` prefixes errors.
Result<std::shared_ptr<Column>> AssembleColumn(const SchemaNode& node,
                                               const std::vector<LeafDescriptor>& descriptors,
                                               std::vector<LeafOutput>& leaves, int64_t num_rows,
                                               const std::string& context);

}  // namespace tarn::parquet
