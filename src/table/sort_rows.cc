#include "table/sort_rows.h"

#include <algorithm>
#include <numeric>

#include "table/write_files.h"
#include "tarn/expr.h"

namespace tarn::table_internal {

Result<KeyValues> EvaluateKey(const TableInfo& table, const std::vector<SortField>& key,
                              const Batch& batch) {
  KeyValues out;
  std::vector<expr::OrderColumn> order_columns;
  for (const SortField& field : key) {
    Result<std::unique_ptr<BoundExpr>> bound = ParseAndBind(field.expression, *batch.schema);
    if (!bound.ok()) {
      return Status::InvalidArgument("sort key expression '", field.expression, "' of table \"",
                                     table.schema_name, ".", table.name,
                                     "\": ", bound.status().message());
    }
    Result<std::shared_ptr<Column>> column = (*bound)->Evaluate(batch);
    if (!column.ok()) {
      return Status::InvalidArgument("sort key expression '", field.expression, "' of table \"",
                                     table.schema_name, ".", table.name,
                                     "\": ", column.status().message());
    }
    out.columns.push_back(std::move(column).value());
    order_columns.push_back({out.columns.back().get(), field.descending, field.nulls_first});
  }
  out.comparator = std::make_unique<expr::RowComparator>(order_columns);
  return out;
}

Status StableSortByKey(const TableInfo& table, const std::vector<SortField>& key,
                       const Batch& batch, std::vector<int64_t>* order) {
  if (key.empty()) return Status::OK();
  TARN_ASSIGN_OR_RETURN(KeyValues values, EvaluateKey(table, key, batch));
  const expr::RowComparator& comparator = *values.comparator;
  std::stable_sort(order->begin(), order->end(),
                   [&](int64_t a, int64_t b) { return comparator.Compare(a, b) < 0; });
  return Status::OK();
}

Result<std::vector<int64_t>> SortKeyOrder(const TableInfo& table,
                                          const std::vector<SortField>& key, const Batch& batch) {
  std::vector<int64_t> order(static_cast<size_t>(batch.num_rows));
  std::iota(order.begin(), order.end(), int64_t{0});
  TARN_RETURN_NOT_OK(StableSortByKey(table, key, batch, &order));
  return order;
}

const std::vector<SortField>& TableSortKey(const TableInfo& table) {
  static const std::vector<SortField> kNone;
  return table.sorting.has_value() ? table.sorting->fields : kNone;
}

namespace {

// A column of `rows` copies of `value` (of `type`).
Result<std::shared_ptr<Column>> Repeat(const DataType& type, const Value& value, int64_t rows) {
  ColumnBuilder builder(type);
  builder.Reserve(rows);
  for (int64_t i = 0; i < rows; ++i) TARN_RETURN_NOT_OK(builder.Append(value));
  return builder.Finish();
}

}  // namespace

Status StableSortByTableKey(const TableInfo& table, const std::vector<ColumnInfo>& version_columns,
                            const std::vector<std::shared_ptr<Column>>& columns,
                            std::vector<int64_t>* order) {
  const std::vector<SortField>& key = TableSortKey(table);
  if (key.empty() || columns.empty() || order->size() <= 1) return Status::OK();
  const int64_t rows = columns[0]->length;
  // The rows as the table's current columns: a version's column under its current name, a
  // column added since as its initial default (what a read of the version's files gives).
  TableInfo current = table;
  std::vector<std::shared_ptr<Column>> values;
  for (const ColumnInfo& column : table.columns) {
    size_t found = version_columns.size();
    for (size_t v = 0; v < version_columns.size(); ++v) {
      if (version_columns[v].column_id == column.column_id) found = v;
    }
    if (found < version_columns.size()) {
      values.push_back(columns[found]);
      continue;
    }
    if (!column.initial_value.has_value()) return Status::OK();  // no value to sort by
    TARN_ASSIGN_OR_RETURN(auto filled, Repeat(column.type, *column.initial_value, rows));
    values.push_back(std::move(filled));
  }
  // A version column keeps its own type (a promotion since orders its values alike).
  for (size_t c = 0; c < current.columns.size(); ++c) {
    for (const ColumnInfo& v : version_columns) {
      if (v.column_id != current.columns[c].column_id) continue;
      const std::string name = current.columns[c].name;
      current.columns[c] = v;
      current.columns[c].name = name;
    }
  }
  auto batch = MakeBatch(DataFileSchema(current, false), std::move(values));
  batch->num_rows = rows;
  return StableSortByKey(table, key, *batch, order);
}

Status SortColumnsByTableKey(const TableInfo& table, const std::vector<ColumnInfo>& version_columns,
                             std::vector<std::shared_ptr<Column>>* columns,
                             std::vector<int64_t>* row_ids, std::vector<int64_t>* snapshots) {
  if (TableSortKey(table).empty() || columns->empty() || (*columns)[0]->length <= 1) {
    return Status::OK();
  }
  std::vector<int64_t> order(static_cast<size_t>((*columns)[0]->length));
  std::iota(order.begin(), order.end(), int64_t{0});
  TARN_RETURN_NOT_OK(StableSortByTableKey(table, version_columns, *columns, &order));
  for (auto& column : *columns) column = Take(*column, order);
  for (std::vector<int64_t>* ids : {row_ids, snapshots}) {
    if (ids == nullptr || ids->empty()) continue;
    std::vector<int64_t> permuted;
    permuted.reserve(ids->size());
    for (int64_t i : order) permuted.push_back((*ids)[static_cast<size_t>(i)]);
    *ids = std::move(permuted);
  }
  return Status::OK();
}

Result<std::shared_ptr<Batch>> SortRowsByKey(const TableInfo& table,
                                             const std::vector<SortField>& key,
                                             std::span<const std::shared_ptr<Batch>> batches) {
  if (batches.empty()) return Status::InvalidArgument("SortRowsByKey: no batches");
  std::shared_ptr<Batch> all =
      batches.size() == 1 ? batches[0] : ConcatenateBatches(batches);
  all->schema = batches[0]->schema;
  if (key.empty() || all->num_rows <= 1) return all;
  TARN_ASSIGN_OR_RETURN(std::vector<int64_t> order, SortKeyOrder(table, key, *all));
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : all->columns) columns.push_back(Take(*column, order));
  auto sorted = MakeBatch(all->schema, std::move(columns));
  sorted->num_rows = all->num_rows;
  return sorted;
}

}  // namespace tarn::table_internal
