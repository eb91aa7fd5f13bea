// RoaringSet: a compressed set of 64-bit ids in containers of 2^16 ids (array, bitmap or run),
// answering contains and rank from per-container cardinalities. Its encoding is the portable
// 64-bit Roaring serialization (a u64 bitmap count, then per high 32 bits a u32 key and a
// portable 32-bit Roaring bitmap), run-optimized per container, as docs/formats/rowsum.md
// describes. Immutable once built.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::rowid_internal {

class RoaringSet {
 public:
  // REQUIRES: ids strictly ascending.
  static std::shared_ptr<const RoaringSet> Build(std::span<const uint64_t> ids);
  // Every byte of `bytes` must belong to the encoding; anything inconsistent is Corruption.
  static Result<std::shared_ptr<const RoaringSet>> Decode(std::string_view bytes);

  uint64_t size() const { return size_; }
  bool Contains(uint64_t id) const { return Rank(id).has_value(); }
  std::optional<uint64_t> Rank(uint64_t id) const;
  std::optional<uint64_t> Min() const;
  std::optional<uint64_t> Max() const;
  void AppendTo(std::vector<uint64_t>* out) const;
  int64_t memory_bytes() const;
  int64_t container_count() const { return static_cast<int64_t>(containers_.size()); }
  int64_t EncodedSize() const;
  void EncodeTo(std::string* out) const;

 private:
  enum class Type : uint8_t { kArray, kBitmap, kRun };
  struct Container {
    uint64_t key = 0;  // id >> 16
    Type type = Type::kArray;
    uint32_t cardinality = 0;
    uint64_t rank_base = 0;        // members in earlier containers
    std::vector<uint16_t> values;  // kArray: members; kRun: (start, length - 1) pairs
    std::vector<uint64_t> words;   // kBitmap: 1024 words
  };
  static int64_t ContainerBytes(const Container& c);
  static Status DecodeGroup(std::string_view bytes, uint64_t high, size_t* consumed,
                            std::vector<Container>* out);
  void Finish();

  std::vector<Container> containers_;
  uint64_t size_ = 0;
};

}  // namespace tarn::rowid_internal
