// Reading .rowsum files (published sidecars and disk-tier entries): header + set in one
// speculatively sized ranged read, extended when the header says more; the order only when
// asked for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "rowid/rowsum_format.h"
#include "tarn/io.h"

namespace tarn::rowid_internal {

struct RowsumRead {
  RowsumHeader header;
  std::string header_bytes;
  RowIdSet set;
  std::optional<RowOrder> order;
  int64_t bytes_read = 0;
};

// Errors: NotFound when there is no such object; InvalidArgument when it describes another
// file (refused on identity); Corruption for a short object or anything that does not decode;
// IOError when the storage fails.
Result<RowsumRead> ReadRowsum(FileSystem& fs, const std::string& path,
                              const SummaryIdentity& expected, bool want_order,
                              int64_t prefix_bytes);

// The header alone (publishing checks whether a valid sidecar is already there).
Result<RowsumHeader> ReadRowsumHeader(FileSystem& fs, const std::string& path,
                                      const SummaryIdentity& expected);

}  // namespace tarn::rowid_internal
