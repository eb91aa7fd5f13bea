// DuckLake's extra_stats of a VARIANT column: a JSON array with one object per fully shredded
// field, {"field_name", "shredded_type", "null_count", "min", "max", "num_values",
// "contains_nan" (floating types), "column_size_bytes", "any_valid"}, as the extension writes
// it per file and table-wide (reference §4). Merging two keeps only the fields both have with
// the same shredded type (sums and bounds merged); nothing left means no extra_stats.
//
// Thread-safety: pure functions; VariantFieldEntry is a plain value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::catalog_internal {

struct VariantFieldEntry {
  std::string field_name;     // root, element, "a", "a".element
  std::string shredded_type;  // DuckLake type name: int32, varchar, ...
  int64_t null_count = 0;
  std::optional<std::string> min, max;  // statistics text of the shredded type
  int64_t num_values = 0;               // NULLs included
  std::optional<bool> contains_nan;
  int64_t column_size_bytes = 0;
  bool any_valid = true;
};

// The JSON array, entries in the order given; nullopt for no entries.
std::optional<std::string> VariantEntriesToJson(const std::vector<VariantFieldEntry>& entries);
// Parses such an array; nullopt for text of another shape.
std::optional<std::vector<VariantFieldEntry>> VariantEntriesFromJson(std::string_view json);
// Merges `more` into `*into` as the extension merges a column's variant statistics. `*into`
// absent means no shredded fields (it stays absent).
void MergeVariantExtraStats(std::optional<std::string>* into,
                            const std::optional<std::string>& more);

}  // namespace tarn::catalog_internal
