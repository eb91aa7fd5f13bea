// The row order a lake table's sort key lays down (SET SORTED BY, ducklake_sort_expression):
// each key expression is bound against the rows being written and evaluated, and the rows are
// stably sorted by the results (DuckDB's order: NULLs last unless NULLS FIRST, DESC reversing
// values only). Ties keep the input order, so a flush's row-id order breaks them as the
// extension's ORDER BY <keys>, row_id does.
//
// Inserts, flushes of inlined data, merges and rewrites call SortRowsByKey before writing; the
// whole input is held in memory (the writes already hold it).
//
// Thread-safety: pure functions over their arguments.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "expr/eval/row_compare.h"
#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::table_internal {

// The rows of `batches` (one schema, holding the columns the key names) as one batch in the
// order of `key`; `batches` unchanged (as one batch) when the key is empty. An expression that
// does not bind or evaluate is InvalidArgument naming it and the table.
Result<std::shared_ptr<Batch>> SortRowsByKey(const TableInfo& table,
                                             const std::vector<SortField>& key,
                                             std::span<const std::shared_ptr<Batch>> batches);

// The key's values over the rows of `batch` (one column per field) and a comparator of its
// rows by them. The comparator borrows the columns: keep the KeyValues alive while using it.
struct KeyValues {
  std::vector<std::shared_ptr<Column>> columns;
  std::unique_ptr<expr::RowComparator> comparator;
};
Result<KeyValues> EvaluateKey(const TableInfo& table, const std::vector<SortField>& key,
                              const Batch& batch);

// The positions 0..rows-1 of `batch` in the order of `key` (stable).
Result<std::vector<int64_t>> SortKeyOrder(const TableInfo& table,
                                          const std::vector<SortField>& key, const Batch& batch);

// Reorders `order` (positions of `batch`) stably by the key's values at those positions, so
// rows equal on the key keep their order in `order`.
Status StableSortByKey(const TableInfo& table, const std::vector<SortField>& key,
                       const Batch& batch, std::vector<int64_t>* order);

// The table's sort key (empty when it has none).
const std::vector<SortField>& TableSortKey(const TableInfo& table);

// The sort step of maintenance: reorders `order` (positions of `columns`) stably by the
// table's sort key. `columns` are the top-level columns of `version_columns`: the table's
// current columns or those of an older schema version (a flush, merge or rewrite writes a group
// with the columns of its schema version). Key expressions name current columns; a version's
// column is known by its current name (same column id), so a column renamed since still sorts,
// and a column added since has its initial default in every row (as a read of the rows gives
// it); a column added since whose default tarn cannot decode leaves `order` as it is.
Status StableSortByTableKey(const TableInfo& table, const std::vector<ColumnInfo>& version_columns,
                            const std::vector<std::shared_ptr<Column>>& columns,
                            std::vector<int64_t>* order);

// Compaction's sort step: `columns` (the top-level columns of `version_columns`, one row per
// output row, as for StableSortByTableKey) and the per-row `row_ids` and `snapshots` (either
// may be empty) put in the order of the table's sort key. Nothing changes for a table without
// one.
Status SortColumnsByTableKey(const TableInfo& table, const std::vector<ColumnInfo>& version_columns,
                             std::vector<std::shared_ptr<Column>>* columns,
                             std::vector<int64_t>* row_ids, std::vector<int64_t>* snapshots);

}  // namespace tarn::table_internal
