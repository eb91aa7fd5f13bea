#include "sql/exec/nested_loop_join.h"

#include <algorithm>
#include <mutex>
#include <utility>

namespace tarn::sql {
namespace {

constexpr int64_t kPairsPerSlice = 1 << 16;

class NestedLoopJoinOperator : public Operator {
 public:
  NestedLoopJoinOperator(std::unique_ptr<Operator> probe, std::unique_ptr<Operator> build,
                         JoinKind kind, std::unique_ptr<BoundExpr> condition,
                         int64_t memory_limit)
      : probe_(std::move(probe)), build_input_(std::move(build)), kind_(kind),
        condition_(std::move(condition)), memory_limit_(memory_limit),
        state_(std::make_unique<State>()) {
    pair_schema_ = PairSchema(*probe_->schema(), *build_input_->schema());
    output_schema_ = !OutputsProbeColumns(kind_) ? build_input_->schema()
                     : OutputsBuildColumns(kind_) ? pair_schema_
                                                  : probe_->schema();
  }

  std::shared_ptr<const Schema> schema() const override { return output_schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    return NextTransformed(*this, probe_.get());
  }
  Operator* per_batch_input() override { return probe_.get(); }

  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    TARN_ASSIGN_OR_RETURN(JoinBuild * build, EnsureBuilt());
    const int64_t build_rows = build->rows();
    const int64_t slice_rows =
        std::max<int64_t>(1, build_rows == 0 ? batch->num_rows : kPairsPerSlice / build_rows);
    std::vector<std::shared_ptr<Batch>> outputs;
    for (int64_t begin = 0; begin < batch->num_rows; begin += slice_rows) {
      const int64_t length = std::min(slice_rows, batch->num_rows - begin);
      std::shared_ptr<Batch> slice = begin == 0 && length == batch->num_rows
                                         ? batch
                                         : SliceBatch(*batch, begin, length);
      slice->num_rows = length;
      std::vector<int64_t> probe_rows;
      std::vector<int64_t> pair_build_rows;
      probe_rows.reserve(static_cast<size_t>(length * build_rows));
      pair_build_rows.reserve(static_cast<size_t>(length * build_rows));
      for (int64_t row = 0; row < length; ++row) {
        for (int64_t b = 0; b < build_rows; ++b) {
          probe_rows.push_back(row);
          pair_build_rows.push_back(b);
        }
      }
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> out,
                            FinishProbe(kind_, condition_.get(), output_schema_, pair_schema_,
                                        slice, build, &probe_rows, &pair_build_rows));
      if (out->num_rows > 0) outputs.push_back(std::move(out));
    }
    if (outputs.empty()) return MakeEmptyColumnsBatch(output_schema_, 0);
    if (outputs.size() == 1) return outputs[0];
    if (output_schema_->num_fields() == 0) {
      int64_t rows = 0;
      for (const auto& out : outputs) rows += out->num_rows;
      return MakeEmptyColumnsBatch(output_schema_, rows);
    }
    return ConcatenateBatches(outputs);
  }

  // Reads the build side on the first call; later calls return the same build or error.
  Result<JoinBuild*> EnsureBuilt() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!state_->done) {
      state_->done = true;
      Result<std::unique_ptr<JoinBuild>> read =
          JoinBuild::Read(build_input_.get(), label(), NeedsNullBuildRow(kind_),
                          OutputsBuildRowsAtEnd(kind_), 0, memory_limit_);
      if (read.ok()) {
        state_->build = std::move(read).value();
      } else {
        state_->status = read.status();
      }
    }
    if (!state_->status.ok()) return state_->status;
    return state_->build.get();
  }

  std::string label() const override {
    return kind_ == JoinKind::kInner && !condition_ ? "CROSS_PRODUCT" : "NESTED_LOOP_JOIN";
  }
  std::vector<std::string> details() const override {
    if (label() == "CROSS_PRODUCT") return {};
    std::vector<std::string> lines{JoinKindName(kind_)};
    if (condition_) lines.push_back("condition: " + condition_->ToString());
    return lines;
  }
  std::vector<const Operator*> inputs() const override {
    return {probe_.get(), build_input_.get()};
  }

 private:
  struct State {
    std::mutex mu;  // guards the build until it is done
    bool done = false;
    Status status;
    std::unique_ptr<JoinBuild> build;
  };

  std::unique_ptr<Operator> probe_;
  std::unique_ptr<Operator> build_input_;
  JoinKind kind_;
  std::unique_ptr<BoundExpr> condition_;
  int64_t memory_limit_;
  std::shared_ptr<const Schema> pair_schema_;
  std::shared_ptr<const Schema> output_schema_;
  std::unique_ptr<State> state_;
};

}  // namespace

Result<std::unique_ptr<Operator>> MakeNestedLoopJoin(std::unique_ptr<Operator> probe,
                                                     std::unique_ptr<Operator> build,
                                                     JoinKind kind,
                                                     std::unique_ptr<BoundExpr> condition,
                                                     const ExecContext& context) {
  const int probe_columns = probe->schema()->num_fields();
  auto join = std::make_unique<NestedLoopJoinOperator>(std::move(probe), std::move(build), kind,
                                                       std::move(condition),
                                                       context.memory_limit);
  const NestedLoopJoinOperator* raw = join.get();
  return WithBuildRowsAtEnd(
      std::move(join), kind, probe_columns,
      [raw]() -> Result<const JoinBuild*> {
        TARN_ASSIGN_OR_RETURN(JoinBuild * built, raw->EnsureBuilt());
        return built;
      },
      context);
}

}  // namespace tarn::sql
