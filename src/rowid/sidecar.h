// Reading .rowsum files (published sidecars and disk-tier entries): header + set in one
// speculatively sized ranged read, extended when the header says more; the order only when
// asked for.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

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

struct RowsumProbe {
  RowsumHeader header;
  std::string header_bytes;
  std::vector<std::optional<uint64_t>> ranks;  // per id asked: its rank, or nullopt
  int64_t bytes_read = 0;
};

// Asks a version 3 sidecar about `ids` (ascending) without loading its set: one read of the
// header and the set index that follows it (a second when the index is longer than 8 KiB), then
// per id the set blocks that can hold it (set_index.h).
// Errors as ReadRowsum, and NotSupported for a sidecar without a set index (older versions,
// sets that are not Elias-Fano or small): its set is to be read whole.
Result<RowsumProbe> ProbeRowsum(FileSystem& fs, const std::string& path,
                                const SummaryIdentity& expected, std::span<const uint64_t> ids);

// The header alone (publishing checks whether a valid sidecar is already there).
Result<RowsumHeader> ReadRowsumHeader(FileSystem& fs, const std::string& path,
                                      const SummaryIdentity& expected);

}  // namespace tarn::rowid_internal
