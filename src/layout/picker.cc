#include <algorithm>
#include <cctype>
#include <chrono>

#include "layout/picker_internal.h"
#include "layout/profiler.h"
#include "tarn/layout.h"

namespace tarn {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Status CheckOptions(const PickerOptions& options) {
  if (options.sample_rows < 1) {
    return Status::InvalidArgument("picker sample_rows must be at least 1, not ",
                                   options.sample_rows);
  }
  if (options.max_key_columns < 1 || options.max_key_columns > 8) {
    return Status::InvalidArgument("picker max_key_columns must be between 1 and 8, not ",
                                   options.max_key_columns);
  }
  if (options.beam_width < 1) {
    return Status::InvalidArgument("picker beam_width must be at least 1, not ",
                                   options.beam_width);
  }
  return Status::OK();
}

}  // namespace

Result<PickerMode> ParsePickerMode(std::string_view text) {
  const std::string lower = Lower(text);
  if (lower == "measured" || lower == "tarn" || lower == "auto") return PickerMode::kMeasured;
  if (lower == "rules") return PickerMode::kRules;
  return Status::InvalidArgument("unknown layout_picker '", text,
                                 "': expected 'measured' (the default) or 'rules'");
}

std::string_view PickerModeName(PickerMode mode) {
  return mode == PickerMode::kRules ? "rules" : "measured";
}

std::string FormatSortKey(std::span<const SortKeyColumn> key) {
  std::string out;
  for (const SortKeyColumn& column : key) {
    if (!out.empty()) out += ", ";
    out += column.name;
    if (column.descending) out += " DESC";
    if (column.nulls_first) out += " NULLS FIRST";
  }
  return out;
}

std::optional<int64_t> TableProfile::Distinct(std::vector<int> set) const {
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  if (set.size() == 1 && set[0] >= 0 && set[0] < static_cast<int>(columns.size())) {
    return columns[set[0]].distinct;
  }
  for (const ColumnSetDistinct& entry : column_sets) {
    if (entry.columns == set) return entry.distinct;
  }
  return std::nullopt;
}

int TableProfile::FindColumn(std::string_view name) const {
  const std::string lower = Lower(name);
  for (int i = 0; i < static_cast<int>(columns.size()); ++i) {
    if (Lower(columns[i].name) == lower) return i;
  }
  return -1;
}

Result<TableProfile> ProfileRows(const RowSourceFactory& open_rows, const PickerOptions& options) {
  TARN_RETURN_NOT_OK(CheckOptions(options));
  TARN_ASSIGN_OR_RETURN(layout::ProfiledRows rows, layout::ProfileAndSample(open_rows, options));
  return std::move(rows.profile);
}

Result<SortKeyChoice> PickSortKey(const RowSourceFactory& open_rows,
                                  const PickerOptions& options) {
  TARN_RETURN_NOT_OK(CheckOptions(options));
  const auto start = std::chrono::steady_clock::now();
  TARN_ASSIGN_OR_RETURN(layout::ProfiledRows rows, layout::ProfileAndSample(open_rows, options));
  Result<SortKeyChoice> choice = Status::Internal("no picker ran");
  if (options.mode == PickerMode::kRules) {
    choice = layout::PickByRules(rows, options);
  } else {
    std::shared_ptr<const WriterProperties> properties = options.properties;
    if (properties == nullptr) {
      TARN_ASSIGN_OR_RETURN(properties, WriterPropertiesFor(WriterProfile::kReadOptimized,
                                                            rows.profile.rows));
    }
    choice = layout::PickMeasured(rows, options, properties);
  }
  if (!choice.ok()) return choice;
  choice->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return choice;
}

Result<SortKeyChoice> PickSortKey(std::shared_ptr<const Schema> schema,
                                  std::vector<std::shared_ptr<Batch>> batches,
                                  const PickerOptions& options) {
  auto open = [&]() -> Result<std::unique_ptr<BatchReader>> {
    return MakeVectorReader(schema, batches);
  };
  return PickSortKey(open, options);
}

namespace layout {

std::string KeyText(const TableProfile& profile, const std::vector<int>& columns) {
  if (columns.empty()) return "(as it is)";
  std::string out;
  for (int c : columns) {
    if (!out.empty()) out += ", ";
    out += profile.columns[c].name;
  }
  return out;
}

std::vector<SortKeyColumn> KeyColumns(const TableProfile& profile,
                                      const std::vector<int>& columns) {
  std::vector<SortKeyColumn> key;
  for (int c : columns) key.push_back(SortKeyColumn{profile.columns[c].name, false, false});
  return key;
}

}  // namespace layout
}  // namespace tarn
