// The .rowsum byte format (docs/formats/rowsum.md): a checksummed header naming the file it
// describes, the set, then the order — bit-packed at a fixed width, or as runs — with one CRC
// per block.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tarn/rowid.h"

namespace tarn::rowid_internal {

inline constexpr char kRowsumMagic[8] = {'T', 'A', 'R', 'N', 'R', 'S', 'U', 'M'};
// Version 2 adds the Elias-Fano set and the Runs order; version 3 adds the set index (three
// header fields before the header's checksum, a section between the header and the set). A writer stamps the
// lowest version whose forms it uses, so older sidecars keep their exact bytes and stay
// readable by older readers.
inline constexpr uint32_t kRowsumVersion = 3;
inline constexpr size_t kFixedHeaderBytes = 104;
inline constexpr uint32_t kDefaultOrderBlock = 1024;
inline constexpr uint32_t kMaxOrderBlock = 1 << 20;

// How the order half is stored. The first three are the resident RowOrder kinds; Runs is a
// permuted order stored as runs (run_order.h) and decoded to Permuted.
enum class OrderForm : uint8_t { kAscending = 0, kPermuted = 1, kRepeated = 2, kRuns = 3 };

struct RowsumHeader {
  uint32_t version = kRowsumVersion;
  SummaryIdentity identity;
  uint64_t physical_rows = 0;
  uint64_t distinct = 0;
  uint64_t min_id = 0;
  uint64_t max_id = 0;
  uint64_t set_len = 0;
  uint64_t order_len = 0;
  RowIdSet::Kind set_kind = RowIdSet::Kind::kRange;
  OrderForm order_form = OrderForm::kAscending;
  int position_width = 0;
  int offset_width = 0;
  uint32_t order_block = kDefaultOrderBlock;
  uint32_t set_crc = 0;
  uint32_t header_len = 0;
  // Version 3: the set index (set_index.h) between the header and the set, so one read takes
  // both; index_len 0 in older versions.
  uint64_t index_len = 0;
  uint32_t index_sample = 0;
  uint32_t index_block = 0;

  uint64_t index_offset() const { return header_len; }
  uint64_t set_offset() const { return header_len + index_len; }
  uint64_t order_offset() const { return set_offset() + set_len; }
  uint64_t total_len() const { return order_offset() + order_len; }
  // Within the order's body: where the packed offsets (Repeated) and positions begin, and the
  // body's length (the checksum table follows it). A Runs body's length is not a function of
  // the counts: it is the one length whose checksum table makes order_len.
  uint64_t offsets_bytes() const;
  uint64_t positions_start() const { return offsets_bytes(); }
  uint64_t body_len() const;
  uint64_t block_count() const { return (body_len() + order_block - 1) / order_block; }
};

// CRC-32C of `bytes` (hardware-accelerated when the CPU allows).
uint32_t Crc32(std::string_view bytes);
// The same with the implementation chosen, for tests that compare the two.
uint32_t Crc32cForTesting(std::string_view bytes, bool hardware);

// Decodes the header from the first bytes of a sidecar. When `prefix` is too short for the
// whole header, sets *needed to the header length and returns OK with *needed > prefix.size()
// (the caller reads more). Bad magic, version or checksum, and inconsistent fields are
// Corruption.
Status DecodeRowsumHeader(std::string_view prefix, RowsumHeader* header, size_t* needed);

// NotFound-free identity check: Corruption-free "refused" is reported as InvalidArgument naming
// the first mismatching field.
Status CheckIdentity(const RowsumHeader& header, const SummaryIdentity& expected);

// Decodes and checks the set half (its CRC and its agreement with the header).
Result<RowIdSet> DecodeRowsumSet(const RowsumHeader& header, std::string_view set_bytes);

// Decodes the whole order half, verifying every block's CRC.
Result<RowOrder> DecodeRowsumOrder(const RowsumHeader& header, std::string_view order_bytes);

// Verifies one block of the order's body against the checksum table entry.
Status CheckOrderBlock(const RowsumHeader& header, uint64_t block, std::string_view block_bytes,
                       uint32_t stored_crc);

}  // namespace tarn::rowid_internal
