#include "table/write_rows.h"

#include <algorithm>

#include "catalog/inlined_text.h"
#include "catalog/value_text.h"
#include "table/column_conform.h"
#include "table/write_files.h"
#include "table/write_state.h"
#include "tarn/expr.h"

namespace tarn::table_internal {

namespace {

// The column's expression default over `rows` rows: evaluated once when it is a constant
// (now() is the statement's time for every row), else once per row (random()).
Result<std::shared_ptr<Column>> ExpressionDefault(const ColumnInfo& column, int64_t rows) {
  const ColumnDefault& def = column.default_value;
  Schema empty;
  auto bound = ParseAndBind(def.text, empty);
  if (!bound.ok()) {
    return Status::InvalidArgument("default expression of column \"", column.name, "\" (",
                                   def.text, "): ", bound.status().message());
  }
  std::shared_ptr<Column> values;
  if ((*bound)->IsConstant()) {
    TARN_ASSIGN_OR_RETURN(Value value, (*bound)->EvaluateConstant());
    TARN_ASSIGN_OR_RETURN(values, ConstantColumn(value, value.type(), rows));
  } else {
    Batch no_columns;
    no_columns.schema = std::make_shared<Schema>();
    no_columns.num_rows = rows;
    TARN_ASSIGN_OR_RETURN(values, (*bound)->Evaluate(no_columns));
  }
  if (values->type == column.type) return values;
  auto cast = CastColumn(values, column.type);
  if (!cast.ok()) {
    return Status::InvalidArgument("default expression of column \"", column.name, "\" (",
                                   def.text, "): ", cast.status().message());
  }
  return cast;
}

}  // namespace

Result<Value> InsertDefault(const ColumnInfo& column) {
  const ColumnDefault& def = column.default_value;
  switch (def.kind) {
    case ColumnDefault::Kind::kNone:
      return Value::Null(column.type);
    case ColumnDefault::Kind::kLiteral: {
      // DuckDB's text of the value (nested values, intervals and TIMETZ included).
      auto decoded = catalog_internal::DecodeInlinedText(def.text, column.type);
      if (!decoded.ok()) {
        return Status::InvalidArgument("default of column \"", column.name, "\" ('", def.text,
                                       "'): ", decoded.status().message());
      }
      return decoded;
    }
    case ColumnDefault::Kind::kExpression: {
      TARN_ASSIGN_OR_RETURN(auto values, ExpressionDefault(column, 1));
      return values->GetValue(0);
    }
  }
  return Value::Null(column.type);
}

Status CheckNotNull(const TableInfo& table, const Batch& rows) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (!table.columns[i].nulls_allowed && rows.column(static_cast<int>(i)).null_count > 0) {
      return Status::InvalidArgument("Constraint Error: NOT NULL constraint failed: ", table.name, ".",
                                     table.columns[i].name);
    }
  }
  return Status::OK();
}

Result<std::shared_ptr<Batch>> ArrangeRows(const TableInfo& table, const Batch& input) {
  const Schema& schema = *input.schema;
  std::vector<int> source(table.columns.size(), -1);
  for (int i = 0; i < schema.num_fields(); ++i) {
    int found = -1;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      if (NameEquals(table.columns[c].name, schema.field(i).name)) found = static_cast<int>(c);
    }
    if (found < 0) {
      return Status::InvalidArgument("table \"", table.name, "\" has no column named \"",
                                     schema.field(i).name, "\"");
    }
    if (source[found] >= 0) {
      return Status::InvalidArgument("column \"", table.columns[found].name,
                                     "\" is given twice in the insert into \"", table.name,
                                     "\"");
    }
    source[found] = i;
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const ColumnInfo& column = table.columns[c];
    std::shared_ptr<Column> out;
    if (source[c] >= 0) {
      const auto& given = input.columns[source[c]];
      auto cast = CastColumn(given, column.type);
      if (!cast.ok()) {
        return cast.status().WithContext("insert into " + table.name + "." + column.name);
      }
      out = std::move(cast).value();
    } else if (column.default_value.kind == ColumnDefault::Kind::kExpression) {
      TARN_ASSIGN_OR_RETURN(out, ExpressionDefault(column, input.num_rows));
    } else {
      TARN_ASSIGN_OR_RETURN(Value value, InsertDefault(column));
      TARN_ASSIGN_OR_RETURN(out, ConstantColumn(value, column.type, input.num_rows));
    }
    columns.push_back(std::move(out));
  }
  auto batch = MakeBatch(DataFileSchema(table, false), std::move(columns));
  batch->num_rows = input.num_rows;
  TARN_RETURN_NOT_OK(CheckNotNull(table, *batch));
  return batch;
}

std::shared_ptr<Batch> ToInlinedLayout(const TableInfo& table, const Batch& rows,
                                       std::span<const int64_t> row_ids, int64_t begin_snapshot) {
  std::vector<Field> fields;
  fields.emplace_back("row_id", DataType(TypeId::kInt64));
  fields.emplace_back("begin_snapshot", DataType(TypeId::kInt64));
  fields.emplace_back("end_snapshot", DataType(TypeId::kInt64));
  for (const ColumnInfo& column : table.columns) fields.push_back(column.ToField());
  ColumnBuilder ids(DataType(TypeId::kInt64));
  ColumnBuilder begins(DataType(TypeId::kInt64));
  ColumnBuilder ends(DataType(TypeId::kInt64));
  for (int64_t row = 0; row < rows.num_rows; ++row) {
    ids.AppendNumber<int64_t>(row_ids[static_cast<size_t>(row)]);
    begins.AppendNumber<int64_t>(begin_snapshot);
    ends.AppendNull();
  }
  std::vector<std::shared_ptr<Column>> columns{ids.Finish(), begins.Finish(), ends.Finish()};
  for (const auto& column : rows.columns) columns.push_back(column);
  auto batch = MakeBatch(std::make_shared<Schema>(std::move(fields)), std::move(columns));
  batch->num_rows = rows.num_rows;
  return batch;
}

void AppendRows(std::shared_ptr<Batch>* rows, const std::shared_ptr<Batch>& more) {
  if (!more || more->num_rows == 0) return;
  if (!*rows || (*rows)->num_rows == 0) {
    *rows = more;
    return;
  }
  std::vector<std::shared_ptr<Batch>> both{*rows, more};
  auto joined = ConcatenateBatches(both);
  joined->schema = (*rows)->schema;
  *rows = std::move(joined);
}

std::shared_ptr<Batch> DropRows(const Batch& rows, std::span<const int64_t> drop) {
  std::vector<uint8_t> keep(static_cast<size_t>((rows.num_rows + 7) / 8), 0);
  int64_t kept = 0;
  size_t next = 0;
  for (int64_t row = 0; row < rows.num_rows; ++row) {
    while (next < drop.size() && drop[next] < row) ++next;
    if (next < drop.size() && drop[next] == row) continue;
    SetBit(keep.data(), row);
    ++kept;
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : rows.columns) columns.push_back(Filter(*column, keep.data(), kept));
  auto out = MakeBatch(rows.schema, std::move(columns));
  out->num_rows = kept;
  return out;
}

}  // namespace tarn::table_internal

namespace tarn {

Result<Value> ColumnInsertDefault(const ColumnInfo& column) {
  return table_internal::InsertDefault(column);
}

}  // namespace tarn
