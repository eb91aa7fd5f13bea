// Where a membership summary's order lives: a sidecar or disk-tier file whose header was
// verified when its set was loaded. ReadOrderEntries re-checks that header (byte for byte) and
// reads only the blocks holding the entries asked for.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rowid/rowsum_format.h"
#include "tarn/io.h"

namespace tarn::rowid_internal {

struct OrderLocator {
  std::shared_ptr<FileSystem> fs;
  std::string path;
  std::string header_bytes;  // the verified header, [0, header_len)
  RowsumHeader header;

  int64_t memory_bytes() const {
    return static_cast<int64_t>(sizeof(OrderLocator) + path.size() + header_bytes.size());
  }
};

// For each rank, the physical positions (ascending). Any mismatch, short read or checksum
// failure is an error; *bytes_read counts what was fetched.
Status ReadOrderEntries(const OrderLocator& locator, std::span<const uint64_t> ranks,
                        std::vector<std::vector<int64_t>>* positions, int64_t* bytes_read);

}  // namespace tarn::rowid_internal
