#include "sql/aggregate.h"

#include <unordered_set>
#include <utility>

#include "sql/group_table.h"
#include "tarn/sql.h"

namespace tarn::sql {
namespace {

constexpr int64_t kOutputBatchRows = 122880;

class HashAggregateOperator : public Operator {
 public:
  HashAggregateOperator(std::unique_ptr<Operator> input,
                        std::vector<std::unique_ptr<BoundExpr>> keys,
                        std::vector<AggregateSpec> aggregates,
                        std::vector<std::unique_ptr<AggregateState>> states,
                        std::shared_ptr<const Schema> schema, const ExecContext& context)
      : input_(std::move(input)), keys_(std::move(keys)), aggregates_(std::move(aggregates)),
        states_(std::move(states)), schema_(std::move(schema)),
        memory_limit_(context.memory_limit), distinct_seen_(aggregates_.size()) {}

  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    if (!result_) TARN_RETURN_NOT_OK(Build());
    if (emitted_ >= result_->num_rows) return std::shared_ptr<Batch>();
    int64_t length = std::min(kOutputBatchRows, result_->num_rows - emitted_);
    std::shared_ptr<Batch> batch =
        (emitted_ == 0 && length == result_->num_rows)
            ? result_
            : (result_->num_columns() == 0 ? MakeEmptyColumnsBatch(schema_, length)
                                           : SliceBatch(*result_, emitted_, length));
    emitted_ += length;
    return batch;
  }

  std::string label() const override {
    return keys_.empty() ? "UNGROUPED_AGGREGATE" : "HASH_GROUP_BY";
  }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    for (const auto& key : keys_) lines.push_back("group: " + key->ToString());
    for (const auto& aggregate : aggregates_) {
      lines.push_back(aggregate.name + " = " +
                      (aggregate.display.empty() ? aggregate.function : aggregate.display));
    }
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  Status Build() {
    std::vector<DataType> key_types;
    for (const auto& key : keys_) key_types.push_back(key->type());
    GroupTable table(key_types);
    std::vector<uint32_t> ids;
    std::string pair;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
      if (!batch) break;
      if (batch->num_rows == 0) continue;
      std::vector<std::shared_ptr<Column>> key_columns;
      for (const auto& key : keys_) {
        TARN_ASSIGN_OR_RETURN(auto column, key->Evaluate(*batch));
        key_columns.push_back(std::move(column));
      }
      TARN_RETURN_NOT_OK(table.Assign(key_columns, batch->num_rows, &ids));
      for (auto& state : states_) state->Resize(table.num_groups());
      for (size_t a = 0; a < aggregates_.size(); ++a) {
        std::shared_ptr<Column> argument;
        if (aggregates_[a].argument) {
          TARN_ASSIGN_OR_RETURN(argument, aggregates_[a].argument->Evaluate(*batch));
        }
        std::vector<uint8_t> keep;
        if (aggregates_[a].distinct && argument) {
          // Keep only the first row of each (group, value) pair.
          keep.assign(static_cast<size_t>((batch->num_rows + 7) / 8), 0);
          for (int64_t row = 0; row < batch->num_rows; ++row) {
            pair.assign(reinterpret_cast<const char*>(&ids[row]), sizeof(uint32_t));
            GroupTable::AppendKeyBytes(*argument, row, &pair);
            auto inserted = distinct_seen_[a].insert(pair);
            if (inserted.second) {
              SetBit(keep.data(), row);
              distinct_bytes_ += static_cast<int64_t>(pair.size() + 48);
            }
          }
        }
        TARN_RETURN_NOT_OK(states_[a]->Update(argument.get(), ids.data(), batch->num_rows,
                                              keep.empty() ? nullptr : keep.data()));
      }
      TARN_RETURN_NOT_OK(CheckMemory(table));
    }
    if (keys_.empty() && table.num_groups() == 0) {
      TARN_RETURN_NOT_OK(table.Assign({}, 0, &ids));  // one group even over no rows
    }
    int64_t groups = table.num_groups();
    std::vector<std::shared_ptr<Column>> columns = table.FinishKeys();
    for (auto& state : states_) {
      state->Resize(groups);
      TARN_ASSIGN_OR_RETURN(auto column, state->Finish(groups));
      columns.push_back(std::move(column));
    }
    if (columns.empty()) {
      result_ = MakeEmptyColumnsBatch(schema_, groups);
    } else {
      result_ = MakeBatch(schema_, std::move(columns));
    }
    states_.clear();
    distinct_seen_.clear();
    return Status::OK();
  }

  Status CheckMemory(const GroupTable& table) const {
    int64_t bytes = table.MemoryBytes() + distinct_bytes_;
    for (const auto& state : states_) bytes += state->MemoryBytes(table.num_groups());
    if (bytes <= memory_limit_) return Status::OK();
    return Status::ResourceExhausted(
        "Out of Memory Error: ", label(), " needs ", FormatMemorySize(bytes),
        " for ", table.num_groups(), " groups, more than the memory_limit of ",
        FormatMemorySize(memory_limit_));
  }

  std::unique_ptr<Operator> input_;
  std::vector<std::unique_ptr<BoundExpr>> keys_;
  std::vector<AggregateSpec> aggregates_;
  std::vector<std::unique_ptr<AggregateState>> states_;
  std::shared_ptr<const Schema> schema_;
  int64_t memory_limit_;
  std::vector<std::unordered_set<std::string>> distinct_seen_;
  int64_t distinct_bytes_ = 0;
  std::shared_ptr<Batch> result_;
  int64_t emitted_ = 0;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeHashAggregate(
    std::unique_ptr<Operator> input, std::vector<std::unique_ptr<BoundExpr>> keys,
    std::vector<std::string> key_names, std::vector<AggregateSpec> aggregates,
    const ExecContext& context) {
  auto schema = std::make_shared<Schema>();
  for (size_t k = 0; k < keys.size(); ++k) schema->fields.emplace_back(key_names[k], keys[k]->type());
  std::vector<std::unique_ptr<AggregateState>> states;
  for (const AggregateSpec& spec : aggregates) {
    DataType input_type = spec.argument ? spec.argument->type() : DataType(TypeId::kInt64);
    TARN_ASSIGN_OR_RETURN(auto state, MakeAggregateState(spec.function, input_type));
    schema->fields.emplace_back(spec.name, state->result_type());
    states.push_back(std::move(state));
  }
  return std::unique_ptr<Operator>(std::make_unique<HashAggregateOperator>(
      std::move(input), std::move(keys), std::move(aggregates), std::move(states),
      std::move(schema), context));
}

}  // namespace tarn::sql
