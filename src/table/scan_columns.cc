#include "table/scan_columns.h"

#include <algorithm>

#include "table/column_conform.h"
#include "table/file_reader.h"

namespace tarn::table_internal {

Result<ScanColumns> ScanColumns::Make(const TableInfo& table, const TableScanOptions& options) {
  ScanColumns plan;
  const int num_columns = static_cast<int>(table.columns.size());
  std::vector<Field> full_fields;
  for (const ColumnInfo& column : table.columns) {
    Field field = column.ToField();
    field.nullable = true;
    full_fields.push_back(std::move(field));
  }
  full_fields.emplace_back(kRowIdColumnName, DataType(TypeId::kInt64));
  full_fields.emplace_back(kSnapshotIdColumnName, DataType(TypeId::kInt64));
  plan.full_schema = std::make_shared<Schema>(std::move(full_fields));

  // The projection, as indices into the table's columns.
  std::vector<int> projection;
  if (options.columns.empty()) {
    for (int i = 0; i < num_columns; ++i) projection.push_back(i);
  } else {
    for (const std::string& name : options.columns) {
      int index = plan.full_schema->FindField(name);
      if (index < 0 || index >= num_columns) {
        return Status::NotFound("column \"", name, "\" not found in table ", table.schema_name,
                                ".", table.name);
      }
      projection.push_back(index);
    }
  }
  std::vector<bool> is_needed(static_cast<size_t>(num_columns), false);
  for (int index : projection) is_needed[index] = true;
  std::unique_ptr<BoundExpr> bound_full;
  if (options.filter.has_value()) {
    TARN_ASSIGN_OR_RETURN(bound_full, ParseAndBind(*options.filter, *plan.full_schema));
    if (bound_full->type().id != TypeId::kBoolean && bound_full->type().id != TypeId::kNull) {
      return Status::InvalidArgument("filter ", bound_full->ToString(), " is of type ",
                                     bound_full->type().ToString(), ", not BOOLEAN");
    }
    for (int index : bound_full->ReferencedColumns()) {
      if (index < num_columns) is_needed[index] = true;
    }
  }
  std::vector<int> internal_of_table(static_cast<size_t>(num_columns), -1);
  for (int i = 0; i < num_columns; ++i) {
    if (!is_needed[i]) continue;
    internal_of_table[i] = static_cast<int>(plan.needed.size());
    plan.needed.push_back(&table.columns[i]);
  }
  plan.internal_schema = MakeInternalSchema(plan.needed);
  const int rowid_index = static_cast<int>(plan.needed.size());
  if (bound_full) {
    plan.pruning_predicate = MakeStatisticsPredicate(*bound_full, *plan.full_schema);
    plan.full_filter = std::move(bound_full);
    TARN_ASSIGN_OR_RETURN(auto bound, ParseAndBind(*options.filter, *plan.internal_schema));
    plan.filter = std::move(bound);
  }

  std::vector<Field> output_fields;
  if (options.with_snapshot_id) {
    output_fields.emplace_back(kSnapshotIdColumnName, DataType(TypeId::kInt64));
    plan.output_columns.push_back(rowid_index + 1);
  }
  if (options.with_rowid) {
    output_fields.emplace_back(kRowIdColumnName, DataType(TypeId::kInt64));
    plan.output_columns.push_back(rowid_index);
  }
  for (int index : projection) {
    output_fields.push_back(plan.internal_schema->field(internal_of_table[index]));
    plan.output_columns.push_back(internal_of_table[index]);
  }
  if (options.with_file_row_number) {
    output_fields.emplace_back(kFileRowNumberColumnName, DataType(TypeId::kInt64));
    plan.output_columns.push_back(rowid_index + 2);
  }
  if (options.with_filename) {
    output_fields.emplace_back(kFilenameColumnName, DataType(TypeId::kVarchar));
    plan.output_columns.push_back(kFilenameColumn);
  }
  plan.output_schema = std::make_shared<Schema>(std::move(output_fields));
  return plan;
}

Result<std::shared_ptr<Batch>> ScanColumns::Finish(const Batch& internal, int64_t* filtered,
                                                   std::string_view filename) const {
  const Batch* source = &internal;
  std::shared_ptr<Batch> kept;
  if (filter) {
    TARN_ASSIGN_OR_RETURN(kept, FilterBatch(internal, *filter));
    *filtered += internal.num_rows - kept->num_rows;
    source = kept.get();
  }
  std::vector<std::shared_ptr<Column>> columns;
  columns.reserve(output_columns.size());
  for (int index : output_columns) {
    if (index == kFilenameColumn) {
      TARN_ASSIGN_OR_RETURN(auto names, ConstantColumn(Value::Varchar(std::string(filename)),
                                                       DataType(TypeId::kVarchar),
                                                       source->num_rows));
      columns.push_back(std::move(names));
      continue;
    }
    columns.push_back(source->columns[index]);
  }
  auto out = MakeBatch(output_schema, std::move(columns));
  out->num_rows = source->num_rows;
  return out;
}

std::shared_ptr<Batch> ConcatenateOrEmpty(std::shared_ptr<const Schema> schema,
                                          std::span<const std::shared_ptr<Batch>> batches) {
  if (!batches.empty()) {
    auto out = ConcatenateBatches(batches);
    out->schema = schema;
    return out;
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (const Field& field : schema->fields) columns.push_back(ColumnBuilder(field.type).Finish());
  auto out = MakeBatch(std::move(schema), std::move(columns));
  out->num_rows = 0;
  return out;
}

}  // namespace tarn::table_internal
