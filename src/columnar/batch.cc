// Batches: construction, validation, slicing and concatenation, and an in-memory reader.
#include "tarn/columnar.h"

namespace tarn {

std::shared_ptr<Batch> MakeBatch(std::shared_ptr<const Schema> schema,
                                 std::vector<std::shared_ptr<Column>> columns) {
  auto batch = std::make_shared<Batch>();
  batch->schema = std::move(schema);
  batch->num_rows = columns.empty() ? 0 : columns[0]->length;
  batch->columns = std::move(columns);
  return batch;
}

Status Batch::Validate() const {
  if (!schema) return Status::Corruption("batch has no schema");
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::Corruption("batch has ", columns.size(), " columns but its schema has ",
                              schema->num_fields(), " fields");
  }
  if (num_rows < 0) return Status::Corruption("batch has negative row count ", num_rows);
  for (int column_idx = 0; column_idx < num_columns(); ++column_idx) {
    const Field& field = schema->field(column_idx);
    const auto& column = columns[column_idx];
    auto context = [&] { return StrCat("batch column ", column_idx, " '", field.name, "'"); };
    if (!column) return Status::Corruption(context(), " is missing");
    if (column->type != field.type) {
      return Status::Corruption(context(), " has type ", column->type.ToString(),
                                ", the schema says ", field.type.ToString());
    }
    if (column->length != num_rows) {
      return Status::Corruption(context(), " has ", column->length, " rows, the batch has ",
                                num_rows);
    }
    TARN_RETURN_NOT_OK(column->Validate().WithContext(context()));
    if (!field.nullable && column->null_count > 0) {
      return Status::Corruption(context(), " is NOT NULL but has ", column->null_count, " NULLs");
    }
  }
  return Status::OK();
}

std::shared_ptr<Batch> SliceBatch(const Batch& batch, int64_t offset, int64_t length) {
  auto out = std::make_shared<Batch>();
  out->schema = batch.schema;
  out->num_rows = length;
  out->columns.reserve(batch.columns.size());
  for (const auto& column : batch.columns) out->columns.push_back(Slice(*column, offset, length));
  return out;
}

std::shared_ptr<Batch> ConcatenateBatches(std::span<const std::shared_ptr<Batch>> batches) {
  // REQUIRES: at least one batch, all with the first batch's schema. Empty input yields null.
  if (batches.empty()) return nullptr;
  auto out = std::make_shared<Batch>();
  out->schema = batches[0]->schema;
  for (const auto& batch : batches) out->num_rows += batch->num_rows;
  std::vector<std::shared_ptr<Column>> parts(batches.size());
  for (int column_idx = 0; column_idx < batches[0]->num_columns(); ++column_idx) {
    for (size_t batch_idx = 0; batch_idx < batches.size(); ++batch_idx) {
      parts[batch_idx] = batches[batch_idx]->columns[column_idx];
    }
    out->columns.push_back(Concatenate(parts));
  }
  return out;
}

namespace {

class VectorReader final : public BatchReader {
 public:
  VectorReader(std::shared_ptr<const Schema> schema, std::vector<std::shared_ptr<Batch>> batches)
      : schema_(std::move(schema)), batches_(std::move(batches)) {}

  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    if (next_ >= batches_.size()) return std::shared_ptr<Batch>();
    return batches_[next_++];
  }

 private:
  std::shared_ptr<const Schema> schema_;
  std::vector<std::shared_ptr<Batch>> batches_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<BatchReader> MakeVectorReader(std::shared_ptr<const Schema> schema,
                                              std::vector<std::shared_ptr<Batch>> batches) {
  return std::make_unique<VectorReader>(std::move(schema), std::move(batches));
}

}  // namespace tarn
