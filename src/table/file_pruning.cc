#include "table/file_pruning.h"

#include <cmath>
#include <cstring>
#include <map>

#include "expr/bind/bound.h"
#include "expr/eval/cast.h"
#include "expr/functions/conversion_functions.h"
#include "expr/pruning.h"
#include "format/scalar_text.h"
#include "util/murmur3.h"

namespace tarn::table_internal {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// A Value of `type` converted from a statistics Value decoded by another type; nullopt when
// it does not convert.
std::optional<Value> ToType(const Value& value, const DataType& type) {
  if (value.is_null()) return std::nullopt;
  if (value.type() == type) return value;
  auto cast = expr::CastValue(value, type, /*try_cast=*/true);
  if (!cast.ok() || cast->is_null()) return std::nullopt;
  return *cast;
}

}  // namespace

ColumnStatistics CatalogColumnStatistics(const FileColumnStats& stats, const DataType& type,
                                         int64_t record_count) {
  ColumnStatistics out;
  out.value_count = record_count;
  out.null_count = stats.null_count;
  // A float bound is trusted only when the catalog records that the file has no NaN.
  const bool bounds_usable = !type.IsFloating() || stats.contains_nan == false;
  if (bounds_usable) {
    out.min = ToType(stats.min, type);
    out.max = ToType(stats.max, type);
    if (type.IsFloating()) out.nan_count = 0;
  }
  return out;
}

std::optional<std::pair<Value, Value>> CalendarRange(const DataType& type, int64_t year,
                                                     std::optional<int64_t> month,
                                                     std::optional<int64_t> day,
                                                     std::optional<int64_t> hour) {
  if (year < -290000 || year > 290000) return std::nullopt;
  if (month && (*month < 1 || *month > 12)) return std::nullopt;
  if (day && (*day < 1 || *day > 31)) return std::nullopt;
  if (hour && (*hour < 0 || *hour > 23)) return std::nullopt;
  // [first, next) as days and hours since the epoch.
  int64_t first_day = 0, next_day = 0, first_hour = 0, next_hour = 0;
  if (!month) {
    first_day = DaysFromCivil(year, 1, 1);
    next_day = DaysFromCivil(year + 1, 1, 1);
  } else if (!day) {
    first_day = DaysFromCivil(year, *month, 1);
    next_day = *month == 12 ? DaysFromCivil(year + 1, 1, 1) : DaysFromCivil(year, *month + 1, 1);
  } else {
    first_day = DaysFromCivil(year, *month, *day);
    next_day = first_day + 1;
  }
  first_hour = first_day * 24;
  next_hour = next_day * 24;
  if (hour) {
    first_hour += *hour;
    next_hour = first_hour + 1;
  }
  int64_t units_per_hour = 0;
  switch (type.id) {
    case TypeId::kDate:
      if (hour) return std::nullopt;
      return std::make_pair(Value::Int(type, first_day), Value::Int(type, next_day - 1));
    case TypeId::kTimestampS: units_per_hour = 3600; break;
    case TypeId::kTimestampMs: units_per_hour = 3600LL * 1000; break;
    case TypeId::kTimestamp: units_per_hour = 3600LL * 1000000; break;
    case TypeId::kTimestampNs: units_per_hour = 3600LL * 1000000000; break;
    default:
      // TIMESTAMPTZ parts depend on the writer's time zone: no bound.
      return std::nullopt;
  }
  __int128 lo = static_cast<__int128>(first_hour) * units_per_hour;
  __int128 hi = static_cast<__int128>(next_hour) * units_per_hour - 1;
  if (lo < INT64_MIN || hi > INT64_MAX) return std::nullopt;
  return std::make_pair(Value::Int(type, static_cast<int64_t>(lo)),
                        Value::Int(type, static_cast<int64_t>(hi)));
}

std::optional<std::pair<Value, Value>> CalendarRangeAnyZone(int64_t year,
                                                            std::optional<int64_t> month,
                                                            std::optional<int64_t> day,
                                                            std::optional<int64_t> hour) {
  auto local = CalendarRange(DataType(TypeId::kTimestamp), year, month, day, hour);
  if (!local.has_value()) return std::nullopt;
  constexpr int64_t kDayMicros = 86400LL * 1000000;
  const int64_t lo = local->first.GetInt64();
  const int64_t hi = local->second.GetInt64();
  if (lo < INT64_MIN + kDayMicros || hi > INT64_MAX - kDayMicros) return std::nullopt;
  const DataType tz(TypeId::kTimestampTz);
  return std::make_pair(Value::Int(tz, lo - kDayMicros), Value::Int(tz, hi + kDayMicros));
}

std::optional<int32_t> DuckLakeHash(const Value& value) {
  if (!value.is_null() && value.type().IsFloating() && std::isnan(value.GetDouble())) {
    return std::nullopt;
  }
  return expr::Murmur3Of(value);
}

std::optional<int32_t> PartitionBucket(const Value& value, int64_t bucket_count) {
  if (bucket_count < 1 || bucket_count > INT32_MAX) return std::nullopt;
  std::optional<int32_t> hash = DuckLakeHash(value);
  if (!hash.has_value()) return std::nullopt;
  return static_cast<int32_t>((*hash & INT32_MAX) % bucket_count);
}

FilePruner::FilePruner(std::shared_ptr<const StatisticsPredicate> predicate,
                       std::shared_ptr<const Schema> full_schema,
                       std::shared_ptr<const TableMetadata> table,
                       std::shared_ptr<const BoundExpr> filter)
    : predicate_(std::move(predicate)), full_schema_(std::move(full_schema)),
      table_(std::move(table)), filter_(std::move(filter)) {
  if (!predicate_) return;
  const auto& columns = table_->table->columns;
  for (const std::string& name : predicate_->referenced_columns()) {
    int index = full_schema_->FindField(name);
    columns_.push_back(index >= 0 && index < static_cast<int>(columns.size()) ? &columns[index]
                                                                             : nullptr);
  }
}

FilePruner::Decision FilePruner::Check(const DataFileInfo& file) const {
  if (!predicate_) return Decision::kRead;
  if (!MayMatchStats(file)) return Decision::kPrunedByStats;
  if (!MayMatchPartition(file)) return Decision::kPrunedByPartition;
  return Decision::kRead;
}

bool FilePruner::MayMatchStats(const DataFileInfo& file) const {
  std::vector<ColumnStatistics> storage(columns_.size());
  std::vector<const ColumnStatistics*> stats(columns_.size(), nullptr);
  for (size_t i = 0; i < columns_.size(); ++i) {
    const ColumnInfo* column = columns_[i];
    if (column == nullptr || column->type.IsNested()) continue;
    const FileColumnStats* row = file.FindStats(column->column_id);
    if (row == nullptr) continue;
    storage[i] = CatalogColumnStatistics(*row, column->type, file.record_count);
    stats[i] = &storage[i];
  }
  return predicate_->MayMatch(stats, file.record_count);
}

namespace {

using expr::BoundKind;
using expr::BoundNode;
using expr::Possible;

// What a file's partition values say about it, by table column id.
struct PartitionFacts {
  std::map<int64_t, ColumnStatistics> stats;  // identity values, calendar ranges, all-NULL
  std::map<int64_t, std::vector<std::pair<int64_t, int32_t>>> buckets;  // (N, bucket)
};

PartitionFacts CollectFacts(const TableMetadata& table, const PartitionSpec& spec,
                            const DataFileInfo& file) {
  struct Calendar {
    std::optional<int64_t> year, month, day, hour;
  };
  PartitionFacts facts;
  std::map<int64_t, Calendar> calendar;
  for (const PartitionField& field : spec.fields) {
    const FilePartitionValue* value = nullptr;
    for (const FilePartitionValue& candidate : file.partition_values) {
      if (candidate.partition_key_index == field.partition_key_index) value = &candidate;
    }
    if (value == nullptr || !value->value_known) continue;
    const ColumnInfo* column = table.table->FindColumn(field.column_id);
    if (column == nullptr || column->type.IsNested()) continue;
    ColumnStatistics stats;
    stats.value_count = file.record_count;
    if (value->value.is_null()) {
      // A NULL transform result means a NULL source value, for every row.
      stats.null_count = file.record_count;
      facts.stats[field.column_id] = std::move(stats);
      continue;
    }
    switch (field.transform) {
      case PartitionTransform::kIdentity: {
        auto typed = ToType(value->value, column->type);
        if (!typed.has_value()) break;
        if (column->type.IsFloating() && std::isnan(typed->GetDouble())) break;
        stats.null_count = 0;
        stats.min = typed;
        stats.max = typed;
        if (column->type.IsFloating()) stats.nan_count = 0;
        facts.stats[field.column_id] = std::move(stats);
        break;
      }
      case PartitionTransform::kBucket: {
        if (value->value.type().id != TypeId::kInt32 && value->value.type().id != TypeId::kInt64) {
          break;
        }
        facts.buckets[field.column_id].emplace_back(field.bucket_count, value->value.GetInt64());
        break;
      }
      default: {
        if (value->value.type().id != TypeId::kInt64) break;
        Calendar& parts = calendar[field.column_id];
        const int64_t part = value->value.GetInt64();
        if (field.transform == PartitionTransform::kYear) parts.year = part;
        if (field.transform == PartitionTransform::kMonth) parts.month = part;
        if (field.transform == PartitionTransform::kDay) parts.day = part;
        if (field.transform == PartitionTransform::kHour) parts.hour = part;
        break;
      }
    }
  }
  // Every row of a file shares its partition values, so a non-NULL value of any transform
  // means the column has no NULL in the file.
  for (const auto& [column_id, ignored] : facts.buckets) {
    if (facts.stats.count(column_id) != 0) continue;
    ColumnStatistics stats;
    stats.value_count = file.record_count;
    stats.null_count = 0;
    facts.stats[column_id] = std::move(stats);
  }
  for (const auto& [column_id, parts] : calendar) {
    if (facts.stats.count(column_id) != 0) continue;
    ColumnStatistics stats;
    stats.value_count = file.record_count;
    stats.null_count = 0;
    if (!parts.year) {
      facts.stats[column_id] = std::move(stats);
      continue;
    }
    const ColumnInfo* column = table.table->FindColumn(column_id);
    std::optional<int64_t> month = parts.month;
    std::optional<int64_t> day = month ? parts.day : std::nullopt;
    std::optional<int64_t> hour = day ? parts.hour : std::nullopt;
    if (column->type.id == TypeId::kDate) hour.reset();  // a date has no hour to bound
    auto range = column->type.id == TypeId::kTimestampTz
                     ? CalendarRangeAnyZone(*parts.year, month, day, hour)
                     : CalendarRange(column->type, *parts.year, month, day, hour);
    if (range.has_value()) {
      stats.min = range->first;
      stats.max = range->second;
    }
    facts.stats[column_id] = std::move(stats);
  }
  return facts;
}

// The table column a comparison operand reads through plain casts, or -1; `casts` gets the
// cast types from the column outwards.
int CastChainColumn(const BoundNode& node, std::vector<const DataType*>* casts) {
  const BoundNode* cursor = &node;
  std::vector<const DataType*> outward;
  while (cursor->kind == BoundKind::kCast) {
    if (cursor->try_cast) return -1;
    outward.push_back(&cursor->type);
    cursor = cursor->children[0].get();
  }
  if (cursor->kind != BoundKind::kColumn) return -1;
  casts->assign(outward.rbegin(), outward.rend());
  return cursor->column_index;
}

// The column value that the comparison constant stands for, when exactly one column value
// compares equal to it through the casts; nullopt otherwise.
std::optional<Value> ColumnValueFor(const Value& constant, const DataType& column_type,
                                    const std::vector<const DataType*>& casts) {
  if (constant.is_null()) return std::nullopt;
  auto back = expr::CastValue(constant, column_type);
  if (!back.ok() || back->is_null()) return std::nullopt;
  Value round_trip = *back;
  for (const DataType* type : casts) {
    auto cast = expr::CastValue(round_trip, *type);
    if (!cast.ok()) return std::nullopt;
    round_trip = std::move(cast).value();
  }
  if (round_trip.type() != constant.type() || expr::CompareValues(round_trip, constant) != 0) {
    return std::nullopt;
  }
  return *back;
}

class PartitionAnalyzer {
 public:
  PartitionAnalyzer(const TableMetadata& table, const PartitionFacts& facts, int64_t num_rows)
      : table_(table), facts_(facts), num_rows_(num_rows) {
    const auto& columns = table.table->columns;
    for (size_t i = 0; i < columns.size(); ++i) {
      auto it = facts.stats.find(columns[i].column_id);
      if (it == facts.stats.end()) continue;
      stat_columns_.push_back(static_cast<int>(i));
      stats_.push_back(&it->second);
    }
  }

  Possible Analyze(const BoundNode& node) const {
    switch (node.kind) {
      case BoundKind::kAnd: case BoundKind::kOr:
        return expr::AnalyzeJunction(node,
                                     [this](const BoundNode& child) { return Analyze(child); });
      case BoundKind::kNot:
        return expr::Negate(Analyze(*node.children[0]));
      case BoundKind::kColumn: {
        // A BOOLEAN column used as a predicate: pinned by an identity value.
        const ColumnStatistics* stats = StatsOfColumn(node.column_index);
        if (stats == nullptr || node.type.id != TypeId::kBoolean) return Possible{};
        if (stats->null_count && *stats->null_count >= num_rows_) return Possible{false, false, true};
        const bool may_null = !stats->null_count || *stats->null_count > 0;
        if (!stats->min || !stats->max || stats->min->is_null() || stats->max->is_null()) {
          return Possible{true, true, may_null};
        }
        const bool lo = stats->min->GetBool(), hi = stats->max->GetBool();
        return Possible{lo || hi, !lo || !hi, may_null};
      }
      default: {
        Possible p = expr::Analyze(node, stat_columns_, stats_, num_rows_);
        if (p.may_true && !facts_.buckets.empty() && !BucketsMayMatch(node)) p.may_true = false;
        return p;
      }
    }
  }

 private:
  const ColumnStatistics* StatsOfColumn(int column_index) const {
    for (size_t i = 0; i < stat_columns_.size(); ++i) {
      if (stat_columns_[i] == column_index) return stats_[i];
    }
    return nullptr;
  }

  // False when `node` is `column = constant` or `column IN (constants)` and no constant falls
  // in the file's bucket(s) of that column.
  bool BucketsMayMatch(const BoundNode& node) const {
    const BoundNode* operand = nullptr;
    std::vector<const BoundNode*> constants;
    if (node.kind == BoundKind::kCompare && node.op == ast::Op::kEqual) {
      const BoundNode* left = node.children[0].get();
      const BoundNode* right = node.children[1].get();
      if (left->kind == BoundKind::kConstant) std::swap(left, right);
      if (right->kind != BoundKind::kConstant) return true;
      operand = left;
      constants.push_back(right);
    } else if (node.kind == BoundKind::kIn && !node.negated) {
      operand = node.children[0].get();
      for (size_t i = 1; i < node.children.size(); ++i) {
        if (node.children[i]->kind != BoundKind::kConstant) return true;
        constants.push_back(node.children[i].get());
      }
    } else {
      return true;
    }
    std::vector<const DataType*> casts;
    const int column_index = CastChainColumn(*operand, &casts);
    const auto& columns = table_.table->columns;
    if (column_index < 0 || column_index >= static_cast<int>(columns.size())) return true;
    const ColumnInfo& column = columns[column_index];
    auto buckets = facts_.buckets.find(column.column_id);
    if (buckets == facts_.buckets.end()) return true;
    for (const BoundNode* constant : constants) {
      if (constant->constant.is_null()) continue;  // never TRUE
      std::optional<Value> value = ColumnValueFor(constant->constant, column.type, casts);
      if (!value.has_value()) return true;
      bool in_file_buckets = true;
      for (const auto& [count, bucket] : buckets->second) {
        std::optional<int32_t> computed = PartitionBucket(*value, count);
        if (!computed.has_value()) return true;
        if (*computed != bucket) in_file_buckets = false;
      }
      if (in_file_buckets) return true;
    }
    return false;
  }

  const TableMetadata& table_;
  const PartitionFacts& facts_;
  int64_t num_rows_;
  std::vector<int> stat_columns_;
  std::vector<const ColumnStatistics*> stats_;
};

}  // namespace

bool FilePruner::MayMatchPartition(const DataFileInfo& file) const {
  if (!file.partition_id.has_value() || file.partition_values.empty()) return true;
  auto spec = table_->partition_specs.find(*file.partition_id);
  if (spec == table_->partition_specs.end()) return true;
  const PartitionFacts facts = CollectFacts(*table_, spec->second, file);
  if (facts.stats.empty() && facts.buckets.empty()) return true;
  if (filter_) {
    if (file.record_count == 0) return false;
    return PartitionAnalyzer(*table_, facts, file.record_count).Analyze(filter_->root()).may_true;
  }
  std::vector<const ColumnStatistics*> stats(columns_.size(), nullptr);
  bool any = false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == nullptr) continue;
    auto it = facts.stats.find(columns_[i]->column_id);
    if (it == facts.stats.end()) continue;
    stats[i] = &it->second;
    any = true;
  }
  return !any || predicate_->MayMatch(stats, file.record_count);
}

}  // namespace tarn::table_internal
