// Materialized results: rows built one Value at a time (catalog listings, table functions) and
// a Source over them.
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/plan/source.h"
#include "tarn/columnar.h"

namespace tarn::sql {

// Builds a batch row by row. Add fails when a value does not fit its column's type.
class RowsBuilder {
 public:
  explicit RowsBuilder(std::vector<Field> fields);
  Status Add(const std::vector<Value>& row);
  std::shared_ptr<Batch> Finish();

 private:
  std::shared_ptr<const Schema> schema_;
  std::vector<std::unique_ptr<ColumnBuilder>> builders_;
  int64_t rows_ = 0;
};

// A materialized result as a source; `label` names it in EXPLAIN. Its last `hidden_columns`
// columns are virtual: named explicitly, left out of `*`.
class RowsSource : public Source {
 public:
  RowsSource(std::string label, std::shared_ptr<Batch> batch, int hidden_columns = 0)
      : label_(std::move(label)), batch_(std::move(batch)), hidden_columns_(hidden_columns) {}
  const Schema& schema() const override { return *batch_->schema; }
  int visible_columns() const override { return schema().num_fields() - hidden_columns_; }
  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override;

 private:
  std::string label_;
  std::shared_ptr<Batch> batch_;
  int hidden_columns_;
};

}  // namespace tarn::sql
