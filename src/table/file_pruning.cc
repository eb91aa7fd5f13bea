#include "table/file_pruning.h"

#include <cmath>
#include <map>

#include "expr/cast.h"

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

FilePruner::FilePruner(std::shared_ptr<const StatisticsPredicate> predicate,
                       std::shared_ptr<const Schema> full_schema,
                       std::shared_ptr<const TableMetadata> table)
    : predicate_(std::move(predicate)), table_(std::move(table)) {
  if (!predicate_) return;
  const auto& columns = table_->table->columns;
  for (const std::string& name : predicate_->referenced_columns()) {
    int index = full_schema->FindField(name);
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

bool FilePruner::MayMatchPartition(const DataFileInfo& file) const {
  if (!file.partition_id.has_value() || file.partition_values.empty()) return true;
  auto spec = table_->partition_specs.find(*file.partition_id);
  if (spec == table_->partition_specs.end()) return true;
  struct Calendar {
    std::optional<int64_t> year, month, day, hour;
    bool null = false;
  };
  std::map<int64_t, ColumnStatistics> identity;
  std::map<int64_t, Calendar> calendar;
  for (const PartitionField& field : spec->second.fields) {
    const FilePartitionValue* value = nullptr;
    for (const FilePartitionValue& candidate : file.partition_values) {
      if (candidate.partition_key_index == field.partition_key_index) value = &candidate;
    }
    if (value == nullptr || !value->value_known) continue;
    const ColumnInfo* column = table_->table->FindColumn(field.column_id);
    if (column == nullptr || column->type.IsNested()) continue;
    if (field.transform == PartitionTransform::kIdentity) {
      ColumnStatistics stats;
      stats.value_count = file.record_count;
      if (value->value.is_null()) {
        stats.null_count = file.record_count;
      } else {
        auto typed = ToType(value->value, column->type);
        if (!typed.has_value()) continue;
        if (column->type.IsFloating() && std::isnan(typed->GetDouble())) continue;
        stats.null_count = 0;
        stats.min = typed;
        stats.max = typed;
        if (column->type.IsFloating()) stats.nan_count = 0;
      }
      identity[field.column_id] = std::move(stats);
      continue;
    }
    Calendar& parts = calendar[field.column_id];
    if (value->value.is_null()) {
      parts.null = true;
      continue;
    }
    if (value->value.type().id != TypeId::kInt64) continue;
    const int64_t part = value->value.GetInt64();
    switch (field.transform) {
      case PartitionTransform::kYear: parts.year = part; break;
      case PartitionTransform::kMonth: parts.month = part; break;
      case PartitionTransform::kDay: parts.day = part; break;
      case PartitionTransform::kHour: parts.hour = part; break;
      default: break;
    }
  }
  std::map<int64_t, ColumnStatistics> derived = identity;
  for (const auto& [column_id, parts] : calendar) {
    if (derived.count(column_id) != 0) continue;
    const ColumnInfo* column = table_->table->FindColumn(column_id);
    ColumnStatistics stats;
    stats.value_count = file.record_count;
    if (parts.null) {
      // A NULL part means a NULL source value for every row.
      stats.null_count = file.record_count;
      derived[column_id] = std::move(stats);
      continue;
    }
    if (!parts.year) continue;
    std::optional<int64_t> month = parts.month;
    std::optional<int64_t> day = month ? parts.day : std::nullopt;
    std::optional<int64_t> hour = day ? parts.hour : std::nullopt;
    auto range = CalendarRange(column->type, *parts.year, month, day, hour);
    if (!range.has_value()) continue;
    stats.min = range->first;
    stats.max = range->second;
    derived[column_id] = std::move(stats);
  }
  if (derived.empty()) return true;
  std::vector<const ColumnStatistics*> stats(columns_.size(), nullptr);
  bool any = false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == nullptr) continue;
    auto it = derived.find(columns_[i]->column_id);
    if (it == derived.end()) continue;
    stats[i] = &it->second;
    any = true;
  }
  return !any || predicate_->MayMatch(stats, file.record_count);
}

}  // namespace tarn::table_internal
