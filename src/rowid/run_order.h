// The Runs form of a permuted order (docs/formats/rowsum.md, order form 3).
//
// An update rewrite or a merge copies rows from a few sources, each in its own id order, so
// its file is k contiguous *runs* of positions within which ids ascend. Then
//   position[rank] = start[run of rank] + (ids of that run with a smaller rank),
// and the order is the sequence run[rank] alone: a string over k symbols. It is stored as a
// wavelet tree shaped by a Huffman code over the runs' lengths — every internal node holds one
// bit per id passing through it (0 = left, 1 = right), all nodes' bits concatenated into one
// bit vector with a rank directory — so the sequence costs about n·H0 ≤ n·log2(k) bits, and one
// rank's position is found by descending the tree, one directory entry and at most 16 words
// per level, without decoding any other entry. A random permutation has about n/2 runs and
// stays bit-packed: the writer picks whichever body is smaller.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rowid/byte_cursor.h"
#include "tarn/status.h"

namespace tarn::rowid_internal {

// A Runs body about to be written: the runs of a permutation and the tree over them.
struct RunOrderPlan {
  std::vector<uint32_t> starts;                 // run s covers [starts[s], starts[s + 1])
  std::vector<std::array<uint32_t, 2>> children;  // per internal node, breadth-first from the root
  uint64_t bit_count = 0;                       // bits over all internal nodes

  uint64_t BodyBytes() const;
};

// The Runs form of `positions` (positions[rank]), or nullopt when they are not a permutation
// of 0..n−1, have a single run, or need more than `max_body_bytes`.
std::optional<RunOrderPlan> PlanRunOrder(std::span<const uint32_t> positions,
                                         uint64_t max_body_bytes);
// Appends the body of `plan` for `positions` (the ones it was planned for).
void EncodeRunOrder(const RunOrderPlan& plan, std::span<const uint32_t> positions, std::string* out);

// The front of a Runs body — run table and tree — parsed and checked, with every node's range
// of bits; answers single positions over the rest of the body through a fetch callback, so a
// sidecar reader fetches only the blocks it touches.
class RunOrderIndex {
 public:
  // Bytes of the run table and tree, from the body's first 4 bytes (the run count). Corruption
  // when the count is impossible for `rows` rows or `body_len` bytes.
  static Result<uint64_t> TableBytes(std::string_view first_bytes, uint64_t rows, uint64_t body_len);
  // `table` is the body's first TableBytes() bytes.
  static Result<RunOrderIndex> Parse(std::string_view table, uint64_t rows, uint64_t body_len);

  uint64_t run_count() const { return starts_.size(); }

  // The position of rank `rank`. `fetch(offset, length, &view)` yields body bytes
  // [offset, offset + length) (a view valid until the next call) or an error. Every value read
  // is bounds-checked against the tree, so corrupt bits give Corruption, never a wild read.
  template <typename Fetch>
  Status Position(uint64_t rank, const Fetch& fetch, uint32_t* position) const;

  // Every position, position[rank], checking that the bits agree with the tree (each node gets
  // exactly as many bits as ids pass through it), the directory with the bits, and slack bits
  // are zero. REQUIRES: body.size() == the body length given to Parse.
  Status DecodeAll(std::string_view body, uint32_t* positions) const;

 private:
  static constexpr uint64_t kSuperblockBits = 2048;
  struct Node {
    uint64_t bit_offset = 0;   // where its bits start in the bit vector
    uint64_t length = 0;       // ids passing through it
    uint64_t ones_before = 0;  // ones in the bit vector before bit_offset
    std::array<uint32_t, 2> child{};  // < internal count: a node; else a run (minus that count)
  };
  uint64_t RunLength(uint64_t run) const {
    return (run + 1 < starts_.size() ? starts_[run + 1] : rows_) - starts_[run];
  }
  template <typename Fetch>
  Status Rank1(uint64_t bit, const Fetch& fetch, uint64_t* ones, bool* value) const;

  uint64_t rows_ = 0;
  uint64_t bit_count_ = 0;
  uint64_t words_offset_ = 0;      // body offset of the bit vector's words
  uint64_t directory_offset_ = 0;  // body offset of the rank directory
  std::vector<uint32_t> starts_;
  std::vector<Node> nodes_;
};

// ---- implementation of the templates ----------------------------------------------------

template <typename Fetch>
Status RunOrderIndex::Rank1(uint64_t bit, const Fetch& fetch, uint64_t* ones, bool* value) const {
  std::string_view bytes;
  const uint64_t superblock = bit / kSuperblockBits;
  TARN_RETURN_NOT_OK(fetch(directory_offset_ + 8 * superblock, 8, &bytes));
  const uint64_t entry = LoadLE<uint64_t>(bytes.data());
  uint64_t count = entry & ((uint64_t{1} << 40) - 1);
  uint64_t first = superblock * (kSuperblockBits / 64);
  if (bit % kSuperblockBits >= kSuperblockBits / 2) {
    count += (entry >> 40) & 0xFFF;
    first += kSuperblockBits / 128;
  }
  const uint64_t last = bit / 64;
  TARN_RETURN_NOT_OK(fetch(words_offset_ + 8 * first, 8 * (last - first + 1), &bytes));
  for (uint64_t w = first; w < last; ++w) {
    count += static_cast<uint64_t>(__builtin_popcountll(LoadLE<uint64_t>(bytes.data() + 8 * (w - first))));
  }
  const uint64_t word = LoadLE<uint64_t>(bytes.data() + 8 * (last - first));
  const uint64_t below = (uint64_t{1} << (bit % 64)) - 1;
  count += static_cast<uint64_t>(__builtin_popcountll(word & below));
  *ones = count;
  *value = (word >> (bit % 64)) & 1;
  return Status::OK();
}

template <typename Fetch>
Status RunOrderIndex::Position(uint64_t rank, const Fetch& fetch, uint32_t* position) const {
  if (rank >= rows_) return Status::Corruption("rowsum run order: rank ", rank, " past ", rows_, " rows");
  const uint64_t internal = nodes_.size();
  uint64_t node = 0;
  uint64_t index = rank;  // among the ids passing through `node`
  // Children come after their parents, so the descent ends within `internal` steps.
  for (uint64_t step = 0; step < internal; ++step) {
    const Node& here = nodes_[node];
    uint64_t ones = 0;
    bool right = false;
    TARN_RETURN_NOT_OK(Rank1(here.bit_offset + index, fetch, &ones, &right));
    if (ones < here.ones_before || ones - here.ones_before > index) {
      return Status::Corruption("rowsum run order: rank directory disagrees with node ", node);
    }
    ones -= here.ones_before;
    index = right ? ones : index - ones;
    const uint64_t child = here.child[right ? 1 : 0];
    if (child >= internal) {
      const uint64_t run = child - internal;
      if (index >= RunLength(run)) {
        return Status::Corruption("rowsum run order: rank ", rank, " lands past run ", run);
      }
      *position = static_cast<uint32_t>(starts_[run] + index);
      return Status::OK();
    }
    if (index >= nodes_[child].length) {
      return Status::Corruption("rowsum run order: rank ", rank, " lands past node ", child);
    }
    node = child;
  }
  return Status::Corruption("rowsum run order: rank ", rank, " reaches no run");
}

}  // namespace tarn::rowid_internal
