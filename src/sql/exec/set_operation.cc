#include "sql/exec/set_operation.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sql/exec/group_table.h"

namespace tarn::sql {
namespace {

// Bytes a row key costs in the table beyond its own bytes (node, bucket, count).
constexpr int64_t kEntryOverhead = 64;

const char* KindName(SetOperationKind kind) {
  switch (kind) {
    case SetOperationKind::kUnion: return "UNION";
    case SetOperationKind::kIntersect: return "INTERSECT";
    case SetOperationKind::kExcept: return "EXCEPT";
  }
  return "?";
}

class SetOperation : public Operator {
 public:
  SetOperation(SetOperationKind kind, bool all, std::unique_ptr<Operator> left,
               std::unique_ptr<Operator> right, int64_t memory_limit)
      : kind_(kind), all_(all), left_(std::move(left)), right_(std::move(right)),
        memory_limit_(memory_limit), schema_(left_->schema()) {}

  std::string label() const override { return KindName(kind_); }
  std::vector<std::string> details() const override {
    return {all_ ? "ALL" : "DISTINCT"};
  }
  std::vector<const Operator*> inputs() const override { return {left_.get(), right_.get()}; }
  std::shared_ptr<const Schema> schema() const override { return schema_; }

  Result<std::shared_ptr<Batch>> Next() override {
    if (kind_ != SetOperationKind::kUnion && !right_read_) TARN_RETURN_NOT_OK(ReadRight());
    while (true) {
      Operator* input = reading_left_ ? left_.get() : right_.get();
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input->Next());
      if (!batch) {
        if (reading_left_ && kind_ == SetOperationKind::kUnion) {
          reading_left_ = false;
          continue;
        }
        return batch;
      }
      if (batch->num_rows == 0) continue;
      TARN_ASSIGN_OR_RETURN(batch, Keep(*batch));
      if (batch->num_rows > 0) return batch;
    }
  }

 private:
  std::string RowKey(const Batch& batch, int64_t row) const {
    std::string key;
    for (const auto& column : batch.columns) GroupTable::AppendKeyBytes(*column, row, &key);
    return key;
  }

  // Adds `key` to the table (count 0), counting its memory. Returns the entry.
  Result<int64_t*> Insert(std::string key) {
    auto [it, inserted] = counts_.try_emplace(std::move(key), 0);
    if (inserted) {
      memory_bytes_ += static_cast<int64_t>(it->first.size()) + kEntryOverhead;
      if (memory_bytes_ > memory_limit_) {
        return Status::ResourceExhausted(
            "Out of Memory Error: ", label(), " needs more than the memory_limit of ",
            FormatMemorySize(memory_limit_), " for the ", counts_.size(), " distinct rows it holds");
      }
    }
    return &it->second;
  }

  // INTERSECT / EXCEPT: every row of right, counted.
  Status ReadRight() {
    right_read_ = true;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, right_->Next());
      if (!batch) return Status::OK();
      for (int64_t row = 0; row < batch->num_rows; ++row) {
        TARN_ASSIGN_OR_RETURN(int64_t * count, Insert(RowKey(*batch, row)));
        ++*count;
      }
    }
  }

  // Whether to output one input row with key `key`, updating the table.
  Result<bool> KeepRow(std::string key) {
    switch (kind_) {
      case SetOperationKind::kUnion: {
        // The count marks a row already output.
        TARN_ASSIGN_OR_RETURN(int64_t * seen, Insert(std::move(key)));
        return (*seen)++ == 0;
      }
      case SetOperationKind::kIntersect: {
        auto it = counts_.find(key);
        if (it == counts_.end() || it->second <= 0) return false;
        // Distinct: the row's first occurrence uses up every match.
        it->second = all_ ? it->second - 1 : 0;
        return true;
      }
      case SetOperationKind::kExcept: {
        auto it = counts_.find(key);
        if (all_) {
          if (it == counts_.end() || it->second <= 0) return true;
          --it->second;
          return false;
        }
        if (it != counts_.end()) return false;  // in right, or output already
        TARN_RETURN_NOT_OK(Insert(std::move(key)).status());
        return true;
      }
    }
    return Status::Internal("unknown set operation");
  }

  Result<std::shared_ptr<Batch>> Keep(const Batch& batch) {
    if (kind_ == SetOperationKind::kUnion && all_) {
      return MakeBatchWithRows(batch.columns, batch.num_rows);
    }
    std::vector<int64_t> rows;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      TARN_ASSIGN_OR_RETURN(bool keep, KeepRow(RowKey(batch, row)));
      if (keep) rows.push_back(row);
    }
    if (static_cast<int64_t>(rows.size()) == batch.num_rows) {
      return MakeBatchWithRows(batch.columns, batch.num_rows);
    }
    std::vector<std::shared_ptr<Column>> columns;
    for (const auto& column : batch.columns) columns.push_back(Take(*column, rows));
    return MakeBatchWithRows(std::move(columns), static_cast<int64_t>(rows.size()));
  }

  std::shared_ptr<Batch> MakeBatchWithRows(std::vector<std::shared_ptr<Column>> columns,
                                           int64_t rows) const {
    auto out = MakeBatch(schema_, std::move(columns));
    out->num_rows = rows;
    return out;
  }

  const SetOperationKind kind_;
  const bool all_;
  std::unique_ptr<Operator> left_;
  std::unique_ptr<Operator> right_;
  const int64_t memory_limit_;
  std::shared_ptr<const Schema> schema_;
  bool reading_left_ = true;
  bool right_read_ = false;
  // Row key → its count in right (INTERSECT, EXCEPT ALL), or whether it was output (UNION,
  // EXCEPT: EXCEPT marks output rows with count 0, right's rows have a count above 0).
  std::unordered_map<std::string, int64_t> counts_;
  int64_t memory_bytes_ = 0;
};

}  // namespace

std::unique_ptr<Operator> MakeSetOperation(SetOperationKind kind, bool all,
                                           std::unique_ptr<Operator> left,
                                           std::unique_ptr<Operator> right,
                                           int64_t memory_limit) {
  return std::make_unique<SetOperation>(kind, all, std::move(left), std::move(right),
                                        memory_limit);
}

}  // namespace tarn::sql
