#include "table/reserved_columns.h"

#include <charconv>
#include <limits>

#include "table/write_state.h"

namespace tarn::table_internal {

namespace {

constexpr const char* kReserved[] = {"row_id", "begin_snapshot", "end_snapshot",
                                     "_ducklake_internal_snapshot_id",
                                     "_ducklake_internal_row_id"};

// No table or schema has this id (provisional ids are negative, catalog ids are not).
constexpr int64_t kNoId = std::numeric_limits<int64_t>::min();

Result<int64_t> ParseLimit(const std::string& text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) {
    return Status::InvalidArgument("option data_inlining_row_limit = '", text,
                                   "' is not a non-negative integer");
  }
  return value;
}

// The option set exactly at (scope, id), the latest one winning.
std::optional<std::string> ScopedOption(const WriteState& state, MetadataEntry::Scope scope,
                                        int64_t id) {
  std::optional<std::string> out;
  auto consider = [&](const MetadataEntry& entry) {
    if (entry.key == "data_inlining_row_limit" && entry.scope == scope && entry.scope_id == id) {
      out = entry.value;
    }
  };
  for (const MetadataEntry& entry : state.lake->metadata()) consider(entry);
  for (const MetadataEntry& entry : state.pending_options) consider(entry);
  return out;
}

bool IsZero(const std::optional<std::string>& value) {
  return value.has_value() && ParseLimit(*value).ValueOr(-1) == 0;
}

}  // namespace

bool IsInlinedSystemColumn(const std::string& name) {
  for (const char* reserved : kReserved) {
    if (NameEquals(name, reserved)) return true;
  }
  return false;
}

Result<int64_t> EffectiveInliningRowLimit(const WriteState& state, int64_t schema_id,
                                          std::optional<int64_t> table_id) {
  std::optional<std::string> text =
      state.GetOption("data_inlining_row_limit", schema_id, table_id.value_or(kNoId));
  if (!text.has_value()) return state.session.default_inlining_row_limit;
  return ParseLimit(*text);
}

Status CheckColumnNameAllowed(const WriteState& state, int64_t schema_id,
                              std::optional<int64_t> table_id, const std::string& column,
                              const char* error_kind) {
  if (!IsInlinedSystemColumn(column)) return Status::OK();
  TARN_ASSIGN_OR_RETURN(int64_t limit, EffectiveInliningRowLimit(state, schema_id, table_id));
  if (limit == 0) return Status::OK();
  return Status::InvalidArgument(
      error_kind, ": Column name \"", column,
      "\" is reserved by DuckLake for internal use when data inlining is enabled. If you must "
      "use this column name, disable inlining by calling "
      "ducklake_set_option('data_inlining_row_limit', 0).");
}

Status CheckCanEnableInlining(const WriteState& state, std::optional<int64_t> schema_id,
                              std::optional<int64_t> table_id) {
  for (const auto& table : state.tables) {
    if (table_id.has_value()) {
      if (table->table_id != *table_id) continue;
    } else {
      if (schema_id.has_value() && table->schema_id != *schema_id) continue;
      // A narrower option keeps the table at 0.
      if (IsZero(ScopedOption(state, MetadataEntry::Scope::kTable, table->table_id))) continue;
      if (!schema_id.has_value() &&
          IsZero(ScopedOption(state, MetadataEntry::Scope::kSchema, table->schema_id))) {
        continue;
      }
    }
    for (const ColumnInfo& column : table->columns) {
      if (!IsInlinedSystemColumn(column.name)) continue;
      return Status::InvalidArgument(
          "Binder Error: Cannot enable data inlining for table \"", table->name, "\". Column \"",
          column.name,
          "\" conflicts with a reserved DuckLake internal column name used for inlining. To "
          "enable inlining for this table, rename or drop column \"",
          column.name, "\".");
    }
  }
  return Status::OK();
}

}  // namespace tarn::table_internal
