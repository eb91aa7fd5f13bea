#include "rowid/run_order.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <queue>
#include <utility>

namespace tarn::rowid_internal {

namespace {

constexpr uint64_t kWordsPerSuperblock = 32;  // 2048 bits
constexpr uint64_t kDirectoryCountBits = 40;

uint64_t TableBytesFor(uint64_t runs) { return 4 + 4 * runs + 8 * (runs - 1); }

uint64_t BodyBytesFor(uint64_t runs, uint64_t bits) {
  const uint64_t words = (bits + 63) / 64;
  return TableBytesFor(runs) + 8 * words + 8 * ((words + kWordsPerSuperblock - 1) / kWordsPerSuperblock);
}

// The directory entry of each superblock: ones before it (low 40 bits) and ones in its first
// half (the next 12).
void AppendDirectory(std::span<const uint64_t> words, std::string* out) {
  uint64_t before = 0;
  for (uint64_t first = 0; first < words.size(); first += kWordsPerSuperblock) {
    uint64_t half = 0, whole = 0;
    for (uint64_t w = first; w < std::min<uint64_t>(first + kWordsPerSuperblock, words.size()); ++w) {
      const uint64_t ones = static_cast<uint64_t>(std::popcount(words[w]));
      if (w - first < kWordsPerSuperblock / 2) half += ones;
      whole += ones;
    }
    PutU64(out, before | half << kDirectoryCountBits);
    before += whole;
  }
}

}  // namespace

uint64_t RunOrderPlan::BodyBytes() const { return BodyBytesFor(starts.size(), bit_count); }

std::optional<RunOrderPlan> PlanRunOrder(std::span<const uint32_t> positions, uint64_t max_body_bytes) {
  const size_t n = positions.size();
  if (n < 2) return std::nullopt;
  // Only a permutation of 0..n−1 has runs; anything else is left to the packed form, whose
  // writer refuses what its width cannot hold.
  constexpr uint32_t kUnset = ~uint32_t{0};
  std::vector<uint32_t> rank_at(n, kUnset);
  for (size_t rank = 0; rank < n; ++rank) {
    if (positions[rank] >= n || rank_at[positions[rank]] != kUnset) return std::nullopt;
    rank_at[positions[rank]] = static_cast<uint32_t>(rank);
  }
  RunOrderPlan plan;
  plan.starts.push_back(0);
  for (size_t p = 1; p < n; ++p) {
    if (rank_at[p] < rank_at[p - 1]) {
      plan.starts.push_back(static_cast<uint32_t>(p));
      if (TableBytesFor(plan.starts.size()) > max_body_bytes) return std::nullopt;
    }
  }
  const uint64_t runs = plan.starts.size();
  if (runs < 2) return std::nullopt;
  // Huffman over the run lengths. Tree ids: runs are 0..runs−1, merged nodes runs, runs+1, …;
  // ties break on the id, so every writer builds the same tree from the same order.
  using Item = std::pair<uint64_t, uint64_t>;  // (weight, id)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (uint64_t run = 0; run < runs; ++run) {
    const uint64_t end = run + 1 < runs ? plan.starts[run + 1] : n;
    queue.push({end - plan.starts[run], run});
  }
  std::vector<std::array<uint64_t, 2>> merged;  // children of merged node runs + i
  while (queue.size() > 1) {
    const Item zero = queue.top();
    queue.pop();
    const Item one = queue.top();
    queue.pop();
    merged.push_back({zero.second, one.second});
    queue.push({zero.first + one.first, runs + merged.size() - 1});
  }
  // Number the internal nodes breadth-first from the root (the last merge), so every child
  // comes after its parent; a run becomes child (runs − 1) + run. Depths sum to the bit count.
  std::vector<uint32_t> index_of(merged.size());
  std::vector<uint64_t> order = {runs + merged.size() - 1};
  std::vector<uint64_t> depth = {1};
  plan.children.resize(merged.size());
  const uint32_t internal = static_cast<uint32_t>(runs - 1);
  for (size_t next = 0; next < order.size(); ++next) {
    index_of[order[next] - runs] = static_cast<uint32_t>(next);
    const auto& kids = merged[order[next] - runs];
    for (int side = 0; side < 2; ++side) {
      const uint64_t kid = kids[side];
      if (kid < runs) {
        plan.children[next][side] = internal + static_cast<uint32_t>(kid);
        const uint64_t end = kid + 1 < runs ? plan.starts[kid + 1] : n;
        plan.bit_count += depth[next] * (end - plan.starts[kid]);
      } else {
        plan.children[next][side] = static_cast<uint32_t>(order.size());
        order.push_back(kid);
        depth.push_back(depth[next] + 1);
      }
    }
  }
  if (plan.BodyBytes() > max_body_bytes) return std::nullopt;
  return plan;
}

void EncodeRunOrder(const RunOrderPlan& plan, std::span<const uint32_t> positions, std::string* out) {
  const uint64_t n = positions.size();
  const uint64_t runs = plan.starts.size();
  const uint64_t internal = runs - 1;
  PutU32(out, static_cast<uint32_t>(runs));
  for (uint32_t start : plan.starts) PutU32(out, start);
  for (const auto& kids : plan.children) {
    PutU32(out, kids[0]);
    PutU32(out, kids[1]);
  }
  // Each node's length (ids through it) bottom-up — children follow parents — then offsets.
  auto run_length = [&](uint64_t run) {
    return (run + 1 < runs ? plan.starts[run + 1] : n) - plan.starts[run];
  };
  std::vector<uint64_t> length(internal), offset(internal), cursor(internal, 0);
  for (uint64_t node = internal; node-- > 0;) {
    for (uint32_t kid : plan.children[node]) {
      length[node] += kid >= internal ? run_length(kid - internal) : length[kid];
    }
  }
  for (uint64_t node = 1; node < internal; ++node) offset[node] = offset[node - 1] + length[node - 1];
  // Each run's path from the root: (node, side) per level, found by walking up from parents.
  std::vector<uint64_t> parent(internal + runs, 0);
  std::vector<uint8_t> side_of(internal + runs, 0);
  for (uint64_t node = 0; node < internal; ++node) {
    for (int side = 0; side < 2; ++side) {
      parent[plan.children[node][side]] = node;
      side_of[plan.children[node][side]] = static_cast<uint8_t>(side);
    }
  }
  std::vector<std::vector<std::pair<uint64_t, uint8_t>>> path(runs);
  for (uint64_t run = 0; run < runs; ++run) {
    for (uint64_t at = internal + run; at != 0;) {
      path[run].push_back({parent[at], side_of[at]});
      at = parent[at];
    }
    std::reverse(path[run].begin(), path[run].end());
  }
  std::vector<uint32_t> run_at(n);
  for (uint64_t run = 0; run < runs; ++run) {
    for (uint64_t p = plan.starts[run]; p < plan.starts[run] + run_length(run); ++p) {
      run_at[p] = static_cast<uint32_t>(run);
    }
  }
  std::vector<uint64_t> words((plan.bit_count + 63) / 64, 0);
  for (uint64_t rank = 0; rank < n; ++rank) {
    for (const auto& [node, side] : path[run_at[positions[rank]]]) {
      const uint64_t bit = offset[node] + cursor[node]++;
      words[bit / 64] |= uint64_t{side} << (bit % 64);
    }
  }
  out->append(reinterpret_cast<const char*>(words.data()), 8 * words.size());
  AppendDirectory(words, out);
}

Result<uint64_t> RunOrderIndex::TableBytes(std::string_view first_bytes, uint64_t rows,
                                           uint64_t body_len) {
  ByteCursor in(first_bytes, "rowsum run order");
  uint32_t runs = 0;
  TARN_RETURN_NOT_OK(in.Read(&runs));
  if (runs < 2 || runs > rows || TableBytesFor(runs) > body_len) {
    return Status::Corruption("rowsum run order: ", runs, " runs in ", rows, " rows and ",
                              body_len, " bytes");
  }
  return TableBytesFor(runs);
}

Result<RunOrderIndex> RunOrderIndex::Parse(std::string_view table, uint64_t rows, uint64_t body_len) {
  TARN_ASSIGN_OR_RETURN(uint64_t table_bytes, TableBytes(table, rows, body_len));
  if (table.size() != table_bytes) {
    return Status::Corruption("rowsum run order: table of ", table.size(), " bytes, expected ",
                              table_bytes);
  }
  ByteCursor in(table, "rowsum run order");
  uint32_t runs = 0;
  TARN_RETURN_NOT_OK(in.Read(&runs));
  RunOrderIndex index;
  index.rows_ = rows;
  index.starts_.resize(runs);
  for (uint32_t run = 0; run < runs; ++run) {
    TARN_RETURN_NOT_OK(in.Read(&index.starts_[run]));
    if ((run == 0 && index.starts_[run] != 0) || (run > 0 && index.starts_[run] <= index.starts_[run - 1]) ||
        index.starts_[run] >= rows) {
      return Status::Corruption("rowsum run order: run ", run, " starts at ", index.starts_[run],
                                ", out of order in ", rows, " rows");
    }
  }
  // The tree: every node but the root and every run the child of exactly one node, each child
  // numbered after its parent (so the tree has no cycle and a descent ends).
  const uint32_t internal = runs - 1;
  index.nodes_.resize(internal);
  std::vector<uint8_t> referenced(static_cast<size_t>(internal) + runs, 0);
  for (uint32_t node = 0; node < internal; ++node) {
    for (int side = 0; side < 2; ++side) {
      uint32_t child = 0;
      TARN_RETURN_NOT_OK(in.Read(&child));
      if (child >= internal + runs || child <= node || referenced[child]) {
        return Status::Corruption("rowsum run order: node ", node, " has child ", child,
                                  ", not a fresh later node or run");
      }
      referenced[child] = 1;
      index.nodes_[node].child[side] = child;
    }
  }
  for (uint32_t node = internal; node-- > 0;) {
    Node& here = index.nodes_[node];
    for (uint32_t child : here.child) {
      here.length += child >= internal ? index.RunLength(child - internal) : index.nodes_[child].length;
    }
  }
  uint64_t bits = 0, ones = 0;
  for (Node& here : index.nodes_) {
    here.bit_offset = bits;
    here.ones_before = ones;
    bits += here.length;
    const uint32_t right = here.child[1];
    ones += right >= internal ? index.RunLength(right - internal) : index.nodes_[right].length;
  }
  if (bits >= (uint64_t{1} << kDirectoryCountBits)) {
    return Status::Corruption("rowsum run order: ", bits, " bits, past the directory's reach");
  }
  if (BodyBytesFor(runs, bits) != body_len) {
    return Status::Corruption("rowsum run order: body of ", body_len, " bytes, its tree needs ",
                              BodyBytesFor(runs, bits));
  }
  index.bit_count_ = bits;
  index.words_offset_ = table_bytes;
  index.directory_offset_ = table_bytes + 8 * ((bits + 63) / 64);
  return index;
}

Status RunOrderIndex::DecodeAll(std::string_view body, uint32_t* positions) const {
  const uint64_t word_count = (bit_count_ + 63) / 64;
  std::vector<uint64_t> words(word_count);
  std::memcpy(words.data(), body.data() + words_offset_, 8 * word_count);
  if (bit_count_ % 64 != 0 && (words.back() >> (bit_count_ % 64)) != 0) {
    return Status::Corruption("rowsum run order: stray bits past the last node");
  }
  std::string directory;
  AppendDirectory(words, &directory);
  if (body.substr(directory_offset_) != directory) {
    return Status::Corruption("rowsum run order: rank directory disagrees with the bits");
  }
  const uint64_t internal = nodes_.size();
  std::vector<uint64_t> cursor(internal, 0);
  std::vector<uint64_t> filled(starts_.size(), 0);
  for (uint64_t rank = 0; rank < rows_; ++rank) {
    uint64_t node = 0;
    for (;;) {
      const Node& here = nodes_[node];
      if (cursor[node] >= here.length) {
        return Status::Corruption("rowsum run order: more ids reach node ", node, " than its ",
                                  here.length, " bits");
      }
      const uint64_t bit = here.bit_offset + cursor[node]++;
      const uint64_t child = here.child[(words[bit / 64] >> (bit % 64)) & 1];
      if (child < internal) {
        node = child;
        continue;
      }
      const uint64_t run = child - internal;
      if (filled[run] >= RunLength(run)) {
        return Status::Corruption("rowsum run order: more ids reach run ", run, " than its ",
                                  RunLength(run), " rows");
      }
      positions[rank] = static_cast<uint32_t>(starts_[run] + filled[run]++);
      break;
    }
  }
  return Status::OK();
}

}  // namespace tarn::rowid_internal
