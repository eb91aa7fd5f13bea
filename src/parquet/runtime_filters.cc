// Row filters moved between column layouts, and the statistics predicates of a KeptRange
// (see filtered_scan.h): what lets a join's key filter reach a lake table's files.
#include <algorithm>

#include "parquet/filtered_scan.h"

namespace tarn::parquet {

namespace {

class Remapped final : public RowFilter {
 public:
  Remapped(std::shared_ptr<const RowFilter> inner, std::vector<int> to_new)
      : inner_(std::move(inner)), to_new_(std::move(to_new)) {}

  std::vector<int> columns() const override {
    std::vector<int> out;
    for (int column : inner_->columns()) out.push_back(to_new_[static_cast<size_t>(column)]);
    return out;
  }

  Result<std::vector<uint8_t>> Select(const Batch& probe, int64_t* selected) const override {
    // The inner filter's batch: its columns where it reads them, the others unset.
    Batch inner;
    inner.num_rows = probe.num_rows;
    inner.columns.resize(to_new_.size());
    for (int column : inner_->columns()) {
      const int at = to_new_[static_cast<size_t>(column)];
      if (at >= probe.num_columns()) {
        return Status::Internal("a row filter reads column ", at, " of a batch of ",
                                probe.num_columns());
      }
      inner.columns[static_cast<size_t>(column)] = probe.columns[static_cast<size_t>(at)];
    }
    return inner_->Select(inner, selected);
  }

  std::string label() const override { return inner_->label(); }

  Result<std::optional<KeptRange>> Range() const override {
    TARN_ASSIGN_OR_RETURN(std::optional<KeptRange> range, inner_->Range());
    if (range) range->column = to_new_[static_cast<size_t>(range->column)];
    return range;
  }

 private:
  std::shared_ptr<const RowFilter> inner_;
  std::vector<int> to_new_;
};

class IntegerRange final : public StatisticsPredicate {
 public:
  IntegerRange(std::string name, int64_t low, int64_t high)
      : name_(std::move(name)), low_(low), high_(high) {}

  std::vector<std::string> referenced_columns() const override { return {name_}; }

  bool MayMatch(std::span<const ColumnStatistics* const> stats,
                int64_t num_rows) const override {
    if (low_ > high_) return false;  // no value is kept
    if (stats.empty() || stats[0] == nullptr) return true;
    const ColumnStatistics& column = *stats[0];
    if (num_rows > 0 && column.null_count && *column.null_count >= num_rows) return false;
    const std::optional<Value> lower = column.LowerBound();
    const std::optional<Value> upper = column.UpperBound();
    if (lower && !lower->is_null() && std::holds_alternative<int64_t>(lower->storage()) &&
        lower->GetInt64() > high_) {
      return false;
    }
    if (upper && !upper->is_null() && std::holds_alternative<int64_t>(upper->storage()) &&
        upper->GetInt64() < low_) {
      return false;
    }
    return true;
  }

 private:
  std::string name_;
  int64_t low_;
  int64_t high_;
};

class Both final : public StatisticsPredicate {
 public:
  Both(std::shared_ptr<const StatisticsPredicate> a, std::shared_ptr<const StatisticsPredicate> b)
      : a_(std::move(a)), b_(std::move(b)), a_columns_(a_->referenced_columns().size()) {}

  std::vector<std::string> referenced_columns() const override {
    std::vector<std::string> names = a_->referenced_columns();
    for (std::string& name : b_->referenced_columns()) names.push_back(std::move(name));
    return names;
  }

  bool MayMatch(std::span<const ColumnStatistics* const> stats,
                int64_t num_rows) const override {
    const size_t split = std::min(a_columns_, stats.size());
    return a_->MayMatch(stats.subspan(0, split), num_rows) &&
           b_->MayMatch(stats.subspan(split), num_rows);
  }

 private:
  std::shared_ptr<const StatisticsPredicate> a_;
  std::shared_ptr<const StatisticsPredicate> b_;
  size_t a_columns_;
};

}  // namespace

std::shared_ptr<const RowFilter> RemappedRowFilter(std::shared_ptr<const RowFilter> filter,
                                                   std::vector<int> to_new) {
  if (!filter) return nullptr;
  for (int column : filter->columns()) {
    if (column < 0 || static_cast<size_t>(column) >= to_new.size() ||
        to_new[static_cast<size_t>(column)] < 0) {
      return nullptr;
    }
  }
  return std::make_shared<Remapped>(std::move(filter), std::move(to_new));
}

std::shared_ptr<const StatisticsPredicate> IntegerRangePredicate(std::string name, int64_t low,
                                                                 int64_t high) {
  return std::make_shared<IntegerRange>(std::move(name), low, high);
}

bool KeptRangeApplies(const DataType& type) {
  switch (type.id) {
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kDate:
      return true;
    default:
      return false;
  }
}

std::shared_ptr<const StatisticsPredicate> BothPredicates(
    std::shared_ptr<const StatisticsPredicate> a, std::shared_ptr<const StatisticsPredicate> b) {
  if (!a) return b;
  if (!b) return a;
  return std::make_shared<Both>(std::move(a), std::move(b));
}

}  // namespace tarn::parquet
