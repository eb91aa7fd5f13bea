// EliasFanoSet: a sorted set of 64-bit ids in Elias-Fano form — each id's offset from the
// minimum split into `low_width` low bits, stored packed, and the high part, stored in unary
// as a bit vector with one 1 per id and one 0 per bucket of 2^low_width values. It costs
// about 2 + log2(universe / count) bits per id, near the entropy bound of a uniform sparse set,
// and answers rank with a select-0 on the high bits (sampled every kZeroSample zeros, in
// memory only: samples are rebuilt on decode, never stored) followed by a short scan of one
// bucket's low bits. Its encoding is docs/formats/rowsum.md's set kind 4. Immutable once built.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tarn/status.h"

namespace tarn::rowid_internal {

class EliasFanoSet {
 public:
  // The low width the encoding uses for `count` ids spanning `universe` = max − min:
  // floor(log2(universe / count)), 0 when the ids are denser than one per value.
  static int LowWidthFor(uint64_t count, uint64_t universe);
  // The encoded size of the set of ids [min, max] with `count` members, without building it.
  static int64_t EncodedSizeFor(uint64_t count, uint64_t min, uint64_t max);
  // REQUIRES: ids non-empty and ascending. A set's ids ascend strictly; an index over several
  // sets (where an id may repeat) builds from non-decreasing ids and asks EqualRange.
  static std::shared_ptr<const EliasFanoSet> Build(std::span<const uint64_t> ids);
  // Every byte must belong to the encoding, slack bits must be zero, and the ids must ascend
  // strictly; anything else is Corruption naming the fault.
  static Result<std::shared_ptr<const EliasFanoSet>> Decode(std::string_view bytes);

  uint64_t size() const { return count_; }
  uint64_t min() const { return min_; }
  uint64_t max() const { return max_; }
  std::optional<uint64_t> Rank(uint64_t id) const;
  // The indices [first, last) of the values equal to `id` (first == last when none).
  std::pair<uint64_t, uint64_t> EqualRange(uint64_t id) const;
  void AppendTo(std::vector<uint64_t>* out) const;
  int64_t memory_bytes() const;
  int64_t EncodedSize() const { return EncodedSizeFor(count_, min_, max_); }
  void EncodeTo(std::string* out) const;

 private:
  static constexpr uint64_t kZeroSample = 128;

  uint64_t Low(uint64_t index) const;
  bool HighBit(uint64_t bit) const { return (high_[bit / 64] >> (bit % 64)) & 1; }
  // The position in the high bits of zero number `zero` (from 0).
  uint64_t SelectZero(uint64_t zero) const;
  void BuildSamples();

  uint64_t count_ = 0;
  uint64_t min_ = 0;
  uint64_t max_ = 0;
  int low_width_ = 0;
  uint64_t high_bits_ = 0;  // count + ((max − min) >> low_width)
  // Both padded with a zero word so a two-word read at the last value stays inside.
  std::vector<uint64_t> low_;
  std::vector<uint64_t> high_;
  std::vector<uint64_t> zero_samples_;  // [j] = position of zero number j·kZeroSample
};

}  // namespace tarn::rowid_internal
