// Reading a data file for its row ids: the footer probe (does it embed ids; their bounds from
// row-group statistics) and the full derivation of a summary from the row-id column.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "tarn/rowid.h"

namespace tarn::rowid_internal {

struct FooterFacts {
  bool embeds_row_ids = false;
  std::optional<std::pair<uint64_t, uint64_t>> bounds;  // [min, max] over every row group
};

// One footer read.
Result<FooterFacts> ProbeFooter(std::shared_ptr<FileSystem> fs, const DataFileInfo& file);

}  // namespace tarn::rowid_internal
