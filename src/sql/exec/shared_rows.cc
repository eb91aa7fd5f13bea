#include "sql/exec/shared_rows.h"

#include "sql/exec/batch_bytes.h"

#include <utility>

#include "tarn/sql.h"

namespace tarn::sql {

namespace {

Status RunOnce(SharedRows& rows) {
  if (rows.done) return rows.status;
  rows.done = true;
  int64_t bytes = 0;
  while (true) {
    Result<std::shared_ptr<Batch>> next = rows.plan->Next();
    if (!next.ok()) {
      rows.status = next.status();
      break;
    }
    std::shared_ptr<Batch> batch = std::move(next).value();
    if (!batch) break;
    if (batch->num_rows == 0) continue;
    bytes += BatchBytes(*batch);
    if (bytes > rows.memory_limit) {
      rows.status = Status::ResourceExhausted(
          "Out of Memory Error: CTE_SCAN needs more than the memory_limit of ",
          FormatMemorySize(rows.memory_limit), " to hold the rows of \"", rows.name, "\"");
      break;
    }
    rows.batches.push_back(std::move(batch));
  }
  if (!rows.status.ok()) rows.batches.clear();
  return rows.status;
}

class SharedScanOperator : public Operator {
 public:
  SharedScanOperator(std::shared_ptr<SharedRows> rows, bool shows_plan)
      : rows_(std::move(rows)), shows_plan_(shows_plan) {}
  std::shared_ptr<const Schema> schema() const override { return rows_->plan->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_RETURN_NOT_OK(RunOnce(*rows_));
    if (next_ >= rows_->batches.size()) return std::shared_ptr<Batch>();
    return rows_->batches[next_++];
  }
  std::string label() const override { return "CTE_SCAN"; }
  std::vector<std::string> details() const override { return {"cte: " + rows_->name}; }
  std::vector<const Operator*> inputs() const override {
    if (!shows_plan_) return {};
    return {rows_->plan.get()};
  }

 private:
  std::shared_ptr<SharedRows> rows_;
  bool shows_plan_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<Operator> MakeSharedScan(std::shared_ptr<SharedRows> rows) {
  const bool first = rows->scans++ == 0;
  return std::make_unique<SharedScanOperator>(std::move(rows), first);
}

}  // namespace tarn::sql
