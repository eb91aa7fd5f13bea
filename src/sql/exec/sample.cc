#include "sql/exec/sample.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

namespace tarn::sql {
namespace {

std::string Describe(const SampleSpec& spec) {
  const char* method = spec.method == SampleSpec::Method::kSystem      ? "system"
                       : spec.method == SampleSpec::Method::kBernoulli ? "bernoulli"
                                                                        : "reservoir";
  std::string size = std::to_string(spec.size);
  size.erase(size.find_last_not_of('0') + 1);
  if (!size.empty() && size.back() == '.') size.pop_back();
  std::string out = std::string(method) + " " + size;
  out += spec.percent ? "%" : " rows";
  if (spec.seed) out += " seed " + std::to_string(*spec.seed);
  return out;
}

constexpr int64_t kSystemRun = 2048;

class SampleOperator : public Operator {
 public:
  SampleOperator(std::unique_ptr<Operator> input, SampleSpec spec)
      : input_(std::move(input)), spec_(spec),
        random_(spec.seed ? static_cast<uint64_t>(*spec.seed) : std::random_device{}()) {}

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }

  Result<std::shared_ptr<Batch>> Next() override {
    if (spec_.method == SampleSpec::Method::kReservoir) return NextReservoir();
    const double p = spec_.size / 100.0;
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
      if (!batch) return batch;
      std::vector<uint8_t> keep(static_cast<size_t>((batch->num_rows + 7) / 8), 0);
      int64_t kept = 0;
      if (spec_.method == SampleSpec::Method::kSystem) {
        // Runs of kSystemRun rows (DuckDB's vector size) kept or dropped whole.
        for (int64_t begin = 0; begin < batch->num_rows; begin += kSystemRun) {
          if (uniform(random_) >= p) continue;
          const int64_t end = std::min(batch->num_rows, begin + kSystemRun);
          for (int64_t row = begin; row < end; ++row) {
            keep[static_cast<size_t>(row >> 3)] |= static_cast<uint8_t>(1u << (row & 7));
          }
          kept += end - begin;
        }
        if (kept == batch->num_rows) return batch;
      } else {
        for (int64_t row = 0; row < batch->num_rows; ++row) {
          if (uniform(random_) < p) {
            keep[static_cast<size_t>(row >> 3)] |= static_cast<uint8_t>(1u << (row & 7));
            ++kept;
          }
        }
      }
      if (kept > 0) return KeepRows(std::move(batch), keep, kept);
    }
  }

  std::string label() const override { return "SAMPLE"; }
  std::vector<std::string> details() const override { return {Describe(spec_)}; }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  // Reads the whole input, then returns the sample as one batch.
  Result<std::shared_ptr<Batch>> NextReservoir() {
    if (done_) return std::shared_ptr<Batch>();
    done_ = true;
    std::vector<std::shared_ptr<Batch>> batches;
    // Slot k holds (batch, row); with a percentage every row is held, then sampled.
    std::vector<std::pair<int32_t, int64_t>> slots;
    const int64_t capacity =
        spec_.percent ? INT64_MAX : static_cast<int64_t>(spec_.size);
    int64_t seen = 0;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
      if (!batch) break;
      const int32_t index = static_cast<int32_t>(batches.size());
      bool used = false;
      for (int64_t row = 0; row < batch->num_rows; ++row, ++seen) {
        if (static_cast<int64_t>(slots.size()) < capacity) {
          slots.emplace_back(index, row);
          used = true;
          continue;
        }
        std::uniform_int_distribution<int64_t> pick(0, seen);
        const int64_t slot = pick(random_);
        if (slot < capacity) {
          slots[static_cast<size_t>(slot)] = {index, row};
          used = true;
        }
      }
      batches.push_back(used ? std::move(batch) : nullptr);
    }
    if (spec_.percent) {
      // That share of every row: a reservoir of the wanted size over the rows held.
      const int64_t wanted = static_cast<int64_t>(std::llround(spec_.size / 100.0 * static_cast<double>(seen)));
      for (int64_t k = wanted; k < static_cast<int64_t>(slots.size()); ++k) {
        std::uniform_int_distribution<int64_t> pick(0, k);
        const int64_t slot = pick(random_);
        if (slot < wanted) slots[static_cast<size_t>(slot)] = slots[static_cast<size_t>(k)];
      }
      slots.resize(static_cast<size_t>(std::min<int64_t>(wanted, static_cast<int64_t>(slots.size()))));
    }
    // The sample in input order: each batch's chosen rows taken at once.
    std::sort(slots.begin(), slots.end());
    const Schema& schema = *input_->schema();
    std::vector<std::vector<std::shared_ptr<Column>>> parts(static_cast<size_t>(schema.num_fields()));
    for (size_t begin = 0; begin < slots.size();) {
      const int32_t index = slots[begin].first;
      std::vector<int64_t> rows;
      size_t end = begin;
      for (; end < slots.size() && slots[end].first == index; ++end) rows.push_back(slots[end].second);
      for (int c = 0; c < schema.num_fields(); ++c) {
        parts[static_cast<size_t>(c)].push_back(Take(batches[static_cast<size_t>(index)]->column(c), rows));
      }
      begin = end;
    }
    std::vector<std::shared_ptr<Column>> columns;
    for (int c = 0; c < schema.num_fields(); ++c) {
      const auto& column_parts = parts[static_cast<size_t>(c)];
      columns.push_back(column_parts.empty() ? ColumnBuilder(schema.field(c).type).Finish()
                                             : Concatenate(column_parts));
    }
    if (columns.empty()) return MakeEmptyColumnsBatch(input_->schema(), static_cast<int64_t>(slots.size()));
    return MakeBatch(input_->schema(), std::move(columns));
  }

  std::unique_ptr<Operator> input_;
  SampleSpec spec_;
  std::mt19937_64 random_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<Operator> MakeSample(std::unique_ptr<Operator> input, const SampleSpec& spec) {
  return std::make_unique<SampleOperator>(std::move(input), spec);
}

}  // namespace tarn::sql
