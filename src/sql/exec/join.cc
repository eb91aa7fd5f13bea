#include "sql/exec/join.h"

#include <utility>

#include "tarn/sql.h"

namespace tarn::sql {
namespace {

int64_t ColumnMemoryBytes(const Column& column) {
  int64_t bytes = 0;
  if (column.values) bytes += column.values->size();
  if (column.data) bytes += column.data->size();
  if (column.validity) bytes += column.validity->size();
  for (const auto& child : column.children) bytes += ColumnMemoryBytes(*child);
  return bytes;
}

std::shared_ptr<Column> NullColumn(const DataType& type, int64_t rows) {
  ColumnBuilder builder(type);
  builder.AppendNull();
  std::shared_ptr<Column> one = builder.Finish();
  if (rows == 1) return one;
  std::vector<int64_t> zeros(static_cast<size_t>(rows), 0);
  return Take(*one, zeros);
}

// Passes its input on, then the build rows whose matched flag is `matched` (see
// WithBuildRowsAtEnd), behind `probe_columns` NULL columns, a batch at a time.
class BuildRowsAtEndOperator : public Operator {
 public:
  BuildRowsAtEndOperator(std::unique_ptr<Operator> input,
                         std::function<Result<const JoinBuild*>()> build, int probe_columns,
                         bool matched)
      : input_(std::move(input)), build_(std::move(build)), probe_columns_(probe_columns),
        matched_(matched) {}

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }
  Result<std::shared_ptr<Batch>> Next() override {
    if (!input_done_) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
      if (batch) return batch;
      input_done_ = true;
      TARN_ASSIGN_OR_RETURN(built_, build_());
    }
    const int64_t rows = built_->rows();
    std::vector<int64_t> taken;
    while (next_row_ < rows && static_cast<int64_t>(taken.size()) < kRowsPerBatch) {
      if (built_->matched(next_row_) == matched_) taken.push_back(next_row_);
      ++next_row_;
    }
    if (taken.empty()) return std::shared_ptr<Batch>();
    const int64_t count = static_cast<int64_t>(taken.size());
    std::shared_ptr<const Schema> out_schema = input_->schema();
    if (out_schema->num_fields() == 0) return MakeEmptyColumnsBatch(out_schema, count);
    std::vector<std::shared_ptr<Column>> columns;
    for (int c = 0; c < probe_columns_; ++c) {
      columns.push_back(NullColumn(out_schema->field(c).type, count));
    }
    for (const auto& column : built_->batch().columns) columns.push_back(Take(*column, taken));
    return MakeBatch(out_schema, std::move(columns));
  }
  std::string label() const override { return ""; }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  static constexpr int64_t kRowsPerBatch = 122880;

  std::unique_ptr<Operator> input_;
  std::function<Result<const JoinBuild*>()> build_;
  int probe_columns_;
  bool matched_;
  bool input_done_ = false;
  const JoinBuild* built_ = nullptr;
  int64_t next_row_ = 0;
};

}  // namespace

const char* JoinKindName(JoinKind kind) {
  switch (kind) {
    case JoinKind::kInner: return "INNER";
    case JoinKind::kLeftOuter: return "LEFT";
    case JoinKind::kRightOuter: return "RIGHT";
    case JoinKind::kFullOuter: return "FULL";
    case JoinKind::kSemi: return "SEMI";
    case JoinKind::kAnti: return "ANTI";
    case JoinKind::kRightSemi: return "RIGHT_SEMI";
    case JoinKind::kRightAnti: return "RIGHT_ANTI";
  }
  return "?";
}

int64_t BatchMemoryBytes(const Batch& batch) {
  int64_t bytes = 0;
  for (const auto& column : batch.columns) bytes += ColumnMemoryBytes(*column);
  return bytes;
}

Result<std::unique_ptr<JoinBuild>> JoinBuild::Read(Operator* input, const std::string& label,
                                                   bool with_null_row, bool track_matches,
                                                   int64_t extra_bytes_per_row,
                                                   int64_t memory_limit) {
  std::vector<std::shared_ptr<Batch>> batches;
  int64_t rows = 0;
  int64_t bytes = 0;
  auto check = [&]() -> Status {
    const int64_t needed = bytes + rows * extra_bytes_per_row;
    if (needed <= memory_limit) return Status::OK();
    return Status::ResourceExhausted("Out of Memory Error: ", label, " needs ",
                                     FormatMemorySize(needed), " for the ", rows,
                                     " rows of its build side, more than the memory_limit of ",
                                     FormatMemorySize(memory_limit));
  };
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input->Next());
    if (!batch) break;
    if (batch->num_rows == 0) continue;
    rows += batch->num_rows;
    bytes += BatchMemoryBytes(*batch);
    TARN_RETURN_NOT_OK(check());
    batches.push_back(std::move(batch));
  }
  return FromBatches(std::move(batches), input->schema(), label, with_null_row, track_matches);
}

Result<std::unique_ptr<JoinBuild>> JoinBuild::FromBatches(
    std::vector<std::shared_ptr<Batch>> batches, const std::shared_ptr<const Schema>& schema,
    const std::string& label, bool with_null_row, bool track_matches) {
  int64_t rows = 0;
  for (const auto& batch : batches) rows += batch->num_rows;
  if (rows >= int64_t{UINT32_MAX} - 1) {
    return Status::ResourceExhausted(label, ": more than 4 billion build rows");
  }
  if (with_null_row && schema->num_fields() > 0) {
    std::vector<std::shared_ptr<Column>> nulls;
    for (const Field& field : schema->fields) nulls.push_back(NullColumn(field.type, 1));
    batches.push_back(MakeBatch(schema, std::move(nulls)));
  }
  auto build = std::unique_ptr<JoinBuild>(new JoinBuild());
  build->rows_ = rows;
  const int64_t total = rows + (with_null_row ? 1 : 0);
  if (schema->num_fields() == 0) {
    build->batch_ = MakeEmptyColumnsBatch(schema, total);
  } else if (batches.empty()) {
    std::vector<std::shared_ptr<Column>> empty;
    for (const Field& field : schema->fields) empty.push_back(ColumnBuilder(field.type).Finish());
    build->batch_ = MakeBatch(schema, std::move(empty));
  } else if (batches.size() == 1) {
    build->batch_ = batches[0];
  } else {
    build->batch_ = ConcatenateBatches(batches);
  }
  build->batch_->num_rows = total;
  build->memory_bytes_ = BatchMemoryBytes(*build->batch_);
  if (track_matches) {
    build->matched_ = std::make_unique<std::atomic<uint8_t>[]>(static_cast<size_t>(rows + 1));
    for (int64_t row = 0; row <= rows; ++row) build->matched_[row].store(0);
  }
  return build;
}

std::shared_ptr<const Schema> PairSchema(const Schema& probe, const Schema& build) {
  auto schema = std::make_shared<Schema>();
  schema->fields = probe.fields;
  schema->fields.insert(schema->fields.end(), build.fields.begin(), build.fields.end());
  return schema;
}

std::shared_ptr<Batch> AssemblePairs(std::shared_ptr<const Schema> schema, const Batch& probe,
                                     std::span<const int64_t> probe_rows, const Batch& build,
                                     std::span<const int64_t> build_rows, bool with_build) {
  const int64_t rows = static_cast<int64_t>(probe_rows.size());
  if (schema->num_fields() == 0) return MakeEmptyColumnsBatch(std::move(schema), rows);
  std::vector<std::shared_ptr<Column>> columns;
  columns.reserve(static_cast<size_t>(schema->num_fields()));
  for (const auto& column : probe.columns) columns.push_back(Take(*column, probe_rows));
  if (with_build) {
    for (const auto& column : build.columns) columns.push_back(Take(*column, build_rows));
  }
  auto batch = MakeBatch(std::move(schema), std::move(columns));
  batch->num_rows = rows;
  return batch;
}

Result<std::shared_ptr<Batch>> FinishProbe(JoinKind kind, const BoundExpr* residual,
                                           std::shared_ptr<const Schema> output_schema,
                                           std::shared_ptr<const Schema> pair_schema,
                                           const std::shared_ptr<Batch>& probe, JoinBuild* build,
                                           std::vector<int64_t>* probe_rows,
                                           std::vector<int64_t>* build_rows) {
  if (IsRightSemiOrAnti(kind)) {
    // Pairs whose build row another pair has marked already change nothing.
    size_t kept = 0;
    for (size_t i = 0; i < build_rows->size(); ++i) {
      if (build->matched((*build_rows)[i])) continue;
      (*probe_rows)[kept] = (*probe_rows)[i];
      (*build_rows)[kept] = (*build_rows)[i];
      ++kept;
    }
    probe_rows->resize(kept);
    build_rows->resize(kept);
  }
  if (residual != nullptr && !probe_rows->empty()) {
    std::shared_ptr<Batch> pairs =
        AssemblePairs(pair_schema, *probe, *probe_rows, build->batch(), *build_rows, true);
    int64_t selected = 0;
    TARN_ASSIGN_OR_RETURN(std::vector<uint8_t> keep, SelectRows(*pairs, *residual, &selected));
    if (kind == JoinKind::kInner) return KeepRows(std::move(pairs), keep, selected);
    size_t kept = 0;
    for (size_t i = 0; i < probe_rows->size(); ++i) {
      if (!GetBit(keep.data(), static_cast<int64_t>(i))) continue;
      (*probe_rows)[kept] = (*probe_rows)[i];
      (*build_rows)[kept] = (*build_rows)[i];
      ++kept;
    }
    probe_rows->resize(kept);
    build_rows->resize(kept);
  }
  if (kind == JoinKind::kInner) {
    return AssemblePairs(output_schema, *probe, *probe_rows, build->batch(), *build_rows, true);
  }
  if (kind == JoinKind::kRightOuter) {
    for (int64_t row : *build_rows) build->MarkMatched(row);
    return AssemblePairs(output_schema, *probe, *probe_rows, build->batch(), *build_rows, true);
  }
  if (IsRightSemiOrAnti(kind)) {
    for (int64_t row : *build_rows) build->MarkMatched(row);
    return MakeEmptyColumnsBatch(std::move(output_schema), 0);
  }
  std::vector<uint8_t> matched(static_cast<size_t>(probe->num_rows), 0);
  for (int64_t row : *probe_rows) matched[static_cast<size_t>(row)] = 1;
  if (kind == JoinKind::kFullOuter) {
    for (int64_t row : *build_rows) build->MarkMatched(row);
  }
  if (kind == JoinKind::kSemi || kind == JoinKind::kAnti) {
    const uint8_t want = kind == JoinKind::kSemi ? 1 : 0;
    std::vector<uint8_t> keep(static_cast<size_t>((probe->num_rows + 7) / 8), 0);
    int64_t selected = 0;
    for (int64_t row = 0; row < probe->num_rows; ++row) {
      if (matched[static_cast<size_t>(row)] == want) {
        SetBit(keep.data(), row);
        ++selected;
      }
    }
    return KeepRows(probe, keep, selected);
  }
  for (int64_t row = 0; row < probe->num_rows; ++row) {
    if (matched[static_cast<size_t>(row)] != 0) continue;
    probe_rows->push_back(row);
    build_rows->push_back(build->null_row());
  }
  return AssemblePairs(output_schema, *probe, *probe_rows, build->batch(), *build_rows, true);
}

std::unique_ptr<Operator> WithBuildRowsAtEnd(std::unique_ptr<Operator> join, JoinKind kind,
                                             int probe_columns,
                                             std::function<Result<const JoinBuild*>()> build,
                                             const ExecContext& context) {
  if (!OutputsBuildRowsAtEnd(kind)) return join;
  const bool full = kind == JoinKind::kFullOuter || kind == JoinKind::kRightOuter;
  return std::make_unique<BuildRowsAtEndOperator>(MakeGather(std::move(join), context),
                                                  std::move(build), full ? probe_columns : 0,
                                                  kind == JoinKind::kRightSemi);
}

}  // namespace tarn::sql
