// Rows on their way into a table: input columns matched to the table's columns by name,
// cast to the column types, missing columns filled with their INSERT default, NOT NULL
// enforced; and the conversions between the table's row layout and the inlined-row layout
// the scan reads.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"

namespace tarn::table_internal {

// The value INSERT gives a column the statement does not name: its default, else NULL.
Result<Value> InsertDefault(const ColumnInfo& column);

// `input` arranged as the table's top-level columns (DataFileSchema(table, false)).
// InvalidArgument for an input column the table does not have, or given twice; the cast's
// error for values that do not convert; CheckNotNull's error.
Result<std::shared_ptr<Batch>> ArrangeRows(const TableInfo& table, const Batch& input);

// InvalidArgument "Constraint Error: NOT NULL constraint failed: <table>.<column>" when a
// NOT NULL column of `rows` (in the table's column layout) holds a NULL.
Status CheckNotNull(const TableInfo& table, const Batch& rows);

// Rows in the table's layout -> the layout of Lake::ReadInlinedRows (row_id, begin_snapshot,
// end_snapshot = NULL, then the columns with field_id = column_id).
std::shared_ptr<Batch> ToInlinedLayout(const TableInfo& table, const Batch& rows,
                                       std::span<const int64_t> row_ids, int64_t begin_snapshot);

// Appends `more` to `*rows` (either may be null or empty).
void AppendRows(std::shared_ptr<Batch>* rows, const std::shared_ptr<Batch>& more);

// Keeps the rows whose index is not in `drop` (sorted, unique).
std::shared_ptr<Batch> DropRows(const Batch& rows, std::span<const int64_t> drop);

}  // namespace tarn::table_internal
