#include "table/partition_keys.h"

#include <cstring>
#include <limits>
#include <unordered_map>

#include "expr/functions/datetime.h"
#include "table/file_pruning.h"
#include "tarn/format.h"
#include "util/integer_math.h"

namespace tarn::table_internal {

namespace {

// Days since the epoch and the hour of day of a date or timestamp value; false for infinities
// and types without a calendar.
bool CalendarOf(const Value& value, int64_t* days, int64_t* hour) {
  int64_t units_per_second = 0;
  switch (value.type().id) {
    case TypeId::kDate: {
      const int64_t raw = value.GetInt64();
      if (raw >= std::numeric_limits<int32_t>::max() ||
          raw <= -std::numeric_limits<int32_t>::max()) {
        return false;
      }
      *days = raw;
      *hour = 0;
      return true;
    }
    case TypeId::kTimestampS: units_per_second = 1; break;
    case TypeId::kTimestampMs: units_per_second = 1000; break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: units_per_second = 1000000; break;
    case TypeId::kTimestampNs: units_per_second = 1000000000; break;
    default: return false;
  }
  const int64_t raw = value.GetInt64();
  if (raw == std::numeric_limits<int64_t>::max() || raw == -std::numeric_limits<int64_t>::max()) {
    return false;
  }
  const int64_t units_per_day = units_per_second * 86400;
  *days = FloorDiv(raw, units_per_day);
  *hour = (raw - *days * units_per_day) / (units_per_second * 3600);
  return true;
}

}  // namespace

std::optional<std::string> PartitionKeyText(const PartitionField& field, const Value& value) {
  if (value.is_null()) return std::nullopt;
  switch (field.transform) {
    case PartitionTransform::kIdentity:
      return FormatValue(value);
    case PartitionTransform::kBucket: {
      std::optional<int32_t> bucket = PartitionBucket(value, field.bucket_count);
      if (!bucket.has_value()) return std::nullopt;
      return std::to_string(*bucket);
    }
    default: break;
  }
  int64_t days = 0;
  int64_t hour = 0;
  if (!CalendarOf(value, &days, &hour)) return std::nullopt;
  int64_t year = 0, month = 0, day = 0;
  expr::CivilFromDays(days, &year, &month, &day);
  switch (field.transform) {
    case PartitionTransform::kYear: return std::to_string(year);
    case PartitionTransform::kMonth: return std::to_string(month);
    case PartitionTransform::kDay: return std::to_string(day);
    case PartitionTransform::kHour: return std::to_string(hour);
    default: return std::nullopt;
  }
}

std::string PartitionKeyName(const PartitionField& field, const TableInfo& table) {
  switch (field.transform) {
    case PartitionTransform::kIdentity: {
      const ColumnInfo* column = table.FindColumn(field.column_id);
      return column != nullptr ? column->name : std::to_string(field.column_id);
    }
    case PartitionTransform::kYear: return "year";
    case PartitionTransform::kMonth: return "month";
    case PartitionTransform::kDay: return "day";
    case PartitionTransform::kHour: return "hour";
    case PartitionTransform::kBucket: return "bucket";
  }
  return "partition";
}

std::string HiveEscape(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const unsigned char byte = static_cast<unsigned char>(c);
    const bool kept = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
                      (byte >= '0' && byte <= '9') || byte == '-' || byte == '_' ||
                      byte == '.' || byte == '~';
    if (kept) {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xf]);
    }
  }
  return out;
}

std::string HiveDirectory(const std::vector<std::string>& names,
                          const std::vector<std::optional<std::string>>& values) {
  std::string out;
  for (size_t key = 0; key < names.size() && key < values.size(); ++key) {
    out += names[key];
    out.push_back('=');
    out += values[key].has_value() ? HiveEscape(*values[key]) : "__HIVE_DEFAULT_PARTITION__";
    out.push_back('/');
  }
  return out;
}

namespace {

// Each row's partition value of one key, as an id into `texts` (equal texts, equal ids). The
// text is computed once per distinct stored value (its bytes: the var-length bytes or the
// fixed-width word), not once per row.
void KeyIds(const Column& column, const PartitionField& field,
            std::vector<std::optional<std::string>>* texts, std::vector<uint32_t>* ids) {
  const int64_t rows = column.length;
  ids->resize(static_cast<size_t>(rows));
  std::unordered_map<std::optional<std::string>, uint32_t> id_of_text;
  auto id_for = [&](std::optional<std::string> text) -> uint32_t {
    auto [it, inserted] = id_of_text.emplace(std::move(text), static_cast<uint32_t>(texts->size()));
    if (inserted) texts->push_back(it->first);
    return it->second;
  };
  const int width = column.type.FixedWidth();
  const bool var_length = column.type.IsVarLength();
  if (!var_length && (width <= 0 || width > 8)) {
    for (int64_t row = 0; row < rows; ++row) {
      (*ids)[static_cast<size_t>(row)] = id_for(PartitionKeyText(field, column.GetValue(row)));
    }
    return;
  }
  std::unordered_map<std::string, uint32_t> id_of_bytes;
  std::optional<uint32_t> null_id;
  std::string bytes;
  for (int64_t row = 0; row < rows; ++row) {
    if (column.IsNull(row)) {
      if (!null_id) null_id = id_for(PartitionKeyText(field, column.GetValue(row)));
      (*ids)[static_cast<size_t>(row)] = *null_id;
      continue;
    }
    if (var_length) {
      const std::string_view view = column.GetView(row);
      bytes.assign(view.data(), view.size());
    } else {
      bytes.assign(reinterpret_cast<const char*>(column.values->data()) + row * width,
                   static_cast<size_t>(width));
    }
    auto found = id_of_bytes.find(bytes);
    if (found == id_of_bytes.end()) {
      const uint32_t id = id_for(PartitionKeyText(field, column.GetValue(row)));
      found = id_of_bytes.emplace(bytes, id).first;
    }
    (*ids)[static_cast<size_t>(row)] = found->second;
  }
}

}  // namespace

std::vector<PartitionGroup> GroupByPartition(const Batch& batch,
                                             const std::vector<PartitionField>& fields,
                                             const std::vector<int>& source_columns) {
  std::vector<std::vector<std::optional<std::string>>> texts(fields.size());
  std::vector<std::vector<uint32_t>> ids(fields.size());
  for (size_t key = 0; key < fields.size(); ++key) {
    KeyIds(batch.column(source_columns[key]), fields[key], &texts[key], &ids[key]);
  }
  std::vector<PartitionGroup> groups;
  std::unordered_map<std::string, size_t> group_of;  // the keys' ids -> index in groups
  std::string encoded(fields.size() * sizeof(uint32_t), '\0');
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    for (size_t key = 0; key < fields.size(); ++key) {
      const uint32_t id = ids[key][static_cast<size_t>(row)];
      std::memcpy(encoded.data() + key * sizeof(uint32_t), &id, sizeof(id));
    }
    auto [it, inserted] = group_of.emplace(encoded, groups.size());
    if (inserted) {
      PartitionGroup group;
      for (size_t key = 0; key < fields.size(); ++key) {
        group.values.push_back(texts[key][ids[key][static_cast<size_t>(row)]]);
      }
      groups.push_back(std::move(group));
    }
    groups[it->second].rows.push_back(row);
  }
  return groups;
}

}  // namespace tarn::table_internal
