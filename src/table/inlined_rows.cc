#include "table/inlined_rows.h"

#include "table/column_conform.h"

namespace tarn::table_internal {

Result<std::shared_ptr<Batch>> InlinedToInternal(const Batch& inlined,
                                                 const std::vector<const ColumnInfo*>& columns,
                                                 std::shared_ptr<const Schema> internal_schema) {
  const Schema& schema = *inlined.schema;
  if (schema.num_fields() < 3) {
    return Status::Internal("inlined rows without row_id, begin_snapshot, end_snapshot");
  }
  const int64_t rows = inlined.num_rows;
  std::vector<std::shared_ptr<Column>> out;
  for (const ColumnInfo* column : columns) {
    int index = -1;
    for (int i = 3; i < schema.num_fields(); ++i) {
      if (schema.field(i).field_id.has_value() && *schema.field(i).field_id == column->column_id) {
        index = i;
      }
    }
    std::shared_ptr<Column> result;
    if (index >= 0) {
      TARN_ASSIGN_OR_RETURN(result,
                            ConformColumn(inlined.columns[index], schema.field(index), *column));
    } else {
      TARN_ASSIGN_OR_RETURN(result, ConstantColumn(InitialValue(*column), column->type, rows));
    }
    out.push_back(std::move(result));
  }
  for (int i = 0; i < 2; ++i) {
    if (inlined.column(i).type.id != TypeId::kInt64 || inlined.column(i).null_count != 0) {
      return Status::Corruption("inlined table column ", schema.field(i).name,
                                " is not a non-NULL BIGINT");
    }
  }
  out.push_back(inlined.columns[0]);
  out.push_back(inlined.columns[1]);
  TARN_ASSIGN_OR_RETURN(auto position,
                        ConstantColumn(Value::Int64(-1), DataType(TypeId::kInt64), rows));
  out.push_back(std::move(position));
  return MakeBatch(std::move(internal_schema), std::move(out));
}

}  // namespace tarn::table_internal
