// The set index of a version 3 .rowsum (docs/formats/rowsum.md, "Set index"), between the
// header and the set: for an Elias-Fano set, how many ids come before every S-th bucket, and a
// CRC-32C of every B-byte block of the set's bytes. With it a reader asks about a few ids
// without loading the set: per id, the high bits of the one stretch of S buckets that can hold
// it and the low bits of its bucket — a block or two of the set, each verified against its
// checksum — instead of the whole set. Immutable once decoded; safe to share between threads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::rowid_internal {

struct RowsumHeader;

// What a writer uses: one count per 1,024 buckets, one checksum per 1 KiB of set, and an index
// only for Elias-Fano sets of at least 4 KiB (a smaller set is read whole for about the index's
// price).
inline constexpr uint32_t kSetIndexBucketSample = 1024;
inline constexpr uint32_t kSetIndexBlock = 1024;
inline constexpr uint64_t kSetIndexMinSetBytes = 4096;
inline constexpr uint32_t kMaxSetIndexSample = 1 << 20;
inline constexpr uint32_t kMaxSetIndexBlock = 1 << 20;

// The layout of an Elias-Fano set of `count` ids in [min, max], as its encoding fixes it.
struct EliasFanoShape {
  uint64_t count = 0;
  uint64_t min = 0;
  uint64_t max = 0;
  int low_width = 0;
  uint64_t buckets = 0;     // ((max − min) >> low_width) + 1
  uint64_t high_bits = 0;   // count + buckets − 1
  uint64_t low_offset = 0;  // 25: where the low bits start in the set's bytes
  uint64_t high_offset = 0; // 25 + the low bits' bytes
  uint64_t set_len = 0;     // the encoded set's length

  // REQUIRES: count >= 1, min <= max.
  static EliasFanoShape Of(uint64_t count, uint64_t min, uint64_t max);
};

// The index's length for a set of this shape: (ceil(buckets / sample) + 1) counts, one checksum
// per block of the set, and the index's own checksum, all u32.
uint64_t SetIndexBytes(const EliasFanoShape& shape, uint32_t sample, uint32_t block);

// Appends the index of `set_bytes`, an encoded Elias-Fano set of `shape`. REQUIRES: the bytes
// are a valid encoding of that shape.
void EncodeSetIndex(const EliasFanoShape& shape, std::string_view set_bytes, uint32_t sample,
                    uint32_t block, std::string* out);

class SetIndex {
 public:
  // Reads `length` bytes of the set at `offset` (within the set's bytes) into *out. The index
  // asks only for whole blocks and checks each against its checksum.
  using Fetch = std::function<Status(uint64_t offset, uint64_t length, std::string* out)>;

  // Checks the length against the header, the checksum, and the counts: 0 first, `count`
  // last, never decreasing, and no stretch of S buckets holding more ids than the high bits
  // could. Corruption names `where` (the sidecar's path) and the offset within the index.
  static Result<SetIndex> Decode(const RowsumHeader& header, std::string_view bytes,
                                 std::string_view where);

  // For each id of `ids` (ascending), its rank in the set, or nullopt when it is not a member.
  // A block that fails its checksum, or bits that contradict the counts, is Corruption naming
  // the set offset; nothing is answered from bytes that were not verified.
  Status Ranks(std::span<const uint64_t> ids, const Fetch& fetch,
               std::vector<std::optional<uint64_t>>* ranks) const;

  const EliasFanoShape& shape() const { return shape_; }

 private:
  // Set bytes [begin, end), fetched and verified block by block (kept in *blocks).
  Status SetBytes(uint64_t begin, uint64_t end, const Fetch& fetch,
                  std::map<uint64_t, std::string>* blocks, std::string* out) const;
  Status RankOf(uint64_t id, const Fetch& fetch, std::map<uint64_t, std::string>* blocks,
                std::optional<uint64_t>* rank) const;

  EliasFanoShape shape_;
  uint32_t sample_ = 0;
  uint32_t block_ = 0;
  std::vector<uint32_t> before_;      // ids before bucket j·sample; the last is count
  std::vector<uint32_t> block_crcs_;  // one per block of the set
  std::string where_;
};

}  // namespace tarn::rowid_internal
