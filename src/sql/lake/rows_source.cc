#include "sql/lake/rows_source.h"

#include <utility>

#include "sql/exec/operator.h"

namespace tarn::sql {

RowsBuilder::RowsBuilder(std::vector<Field> fields)
    : schema_(std::make_shared<Schema>(std::move(fields))) {
  for (const Field& field : schema_->fields) {
    builders_.push_back(std::make_unique<ColumnBuilder>(field.type));
  }
}

Status RowsBuilder::Add(const std::vector<Value>& row) {
  for (size_t c = 0; c < builders_.size(); ++c) TARN_RETURN_NOT_OK(builders_[c]->Append(row[c]));
  ++rows_;
  return Status::OK();
}

std::shared_ptr<Batch> RowsBuilder::Finish() {
  std::vector<std::shared_ptr<Column>> columns;
  for (auto& builder : builders_) columns.push_back(builder->Finish());
  auto batch = MakeBatch(schema_, std::move(columns));
  batch->num_rows = rows_;
  return batch;
}

Result<std::unique_ptr<Operator>> RowsSource::Open(const std::vector<int>& columns,
                                                   std::shared_ptr<const StatisticsPredicate>) {
  auto schema = std::make_shared<Schema>();
  std::vector<std::shared_ptr<Column>> selected;
  for (int index : columns) {
    schema->fields.push_back(batch_->schema->field(index));
    selected.push_back(batch_->columns[index]);
  }
  std::shared_ptr<Batch> batch = columns.empty()
                                     ? MakeEmptyColumnsBatch(schema, batch_->num_rows)
                                     : MakeBatch(schema, std::move(selected));
  batch->num_rows = batch_->num_rows;
  return MakeValues(label_, std::move(batch));
}

}  // namespace tarn::sql
