// The one entry point shared by the libFuzzer target (rowsum_fuzzer.cc) and the corpus replay
// test (corpus_replay_test.cc): feeds arbitrary bytes through tarn's .rowsum decoding.
//
// The first byte selects what the rest is:
//   0      a whole sidecar, read as a lookup reads it (header, set, whole order) and then
//          through a membership summary's single order entries
//   1..4   a set body of kind 1 Range, 2 Roaring, 3 Sorted or 4 Elias-Fano, decoded without a
//          checksum to pass, then asked rank/contains around its members
//   5      a Runs order body without its checksum table: a u32 row count (at most 65,536),
//          then the body; decoded whole and one rank at a time
//   6      a set index over an Elias-Fano body, its checksums computed so its counts and the
//          set's bits are what is tested: a u8 sample exponent (mod 12), a u8 block exponent
//          (3 + mod 8), the set body (its length from its own count, min and max), then the
//          index's u32 counts; ids are asked through the index and, where the body decodes
//          whole and the counts are its true ones, must get the whole set's ranks
//   other  a whole sidecar, as 0 (also probed through its set index when it has one)
// Checksums guard the whole-sidecar path, so modes 1..5 are what reach the decoders' value
// checks. Every outcome but a crash, a sanitizer report, a leak, or an allocation past
// libFuzzer's limit is acceptable: decoding errors are the expected answer to most inputs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rowid/order_locator.h"
#include "rowid/rowsum_format.h"
#include "rowid/byte_cursor.h"
#include "rowid/elias_fano.h"
#include "rowid/run_order.h"
#include "rowid/set_index.h"
#include "rowid/sidecar.h"
#include "tarn/io.h"
#include "tarn/rowid.h"

namespace tarn::fuzz {

inline void ProbeSet(const RowIdSet& set) {
  if (set.empty()) return;
  // A bounded sample of members and their neighbours; every rank must be below the size.
  std::vector<uint64_t> probes = {set.min(), set.max(), set.min() - 1, set.max() + 1,
                                  set.min() + (set.max() - set.min()) / 2};
  if (set.size() <= (1u << 16)) {
    const std::vector<uint64_t> members = set.ToVector();
    for (size_t i = 0; i < members.size(); i += 1 + members.size() / 64) {
      probes.push_back(members[i]);
      probes.push_back(members[i] + 1);
    }
  }
  for (uint64_t id : probes) {
    const auto rank = set.Rank(id);
    if (rank && *rank >= set.size()) __builtin_trap();
  }
}

inline void FuzzWholeSidecar(std::string_view bytes) {
  auto fs = NewMemoryFileSystem();
  if (!fs->WriteFile("/f.parquet.rowsum", bytes).ok()) return;
  // The identity in the bytes, whatever it is, so decoding gets past the identity check.
  rowid_internal::RowsumHeader header;
  size_t needed = 0;
  if (!rowid_internal::DecodeRowsumHeader(bytes, &header, &needed).ok() || needed > bytes.size()) {
    return;
  }
  auto read = rowid_internal::ReadRowsum(*fs, "/f.parquet.rowsum", header.identity,
                                         /*want_order=*/true, /*prefix_bytes=*/256);
  if (read.ok()) ProbeSet(read->set);
  // Through the set index, when there is one: ranks agree with the whole set's where both read.
  std::vector<uint64_t> asks = {header.min_id, header.max_id, header.min_id + (header.max_id - header.min_id) / 3};
  std::sort(asks.begin(), asks.end());
  asks.erase(std::unique(asks.begin(), asks.end()), asks.end());
  auto probe = rowid_internal::ProbeRowsum(*fs, "/f.parquet.rowsum", header.identity, asks);
  if (probe.ok() && read.ok()) {
    for (size_t i = 0; i < asks.size(); ++i) {
      if (probe->ranks[i] != read->set.Rank(asks[i])) __builtin_trap();
    }
  }
  auto membership = rowid_internal::ReadRowsum(*fs, "/f.parquet.rowsum", header.identity,
                                               /*want_order=*/false, /*prefix_bytes=*/256);
  if (!membership.ok()) return;
  rowid_internal::OrderLocator locator;
  locator.fs = fs;
  locator.path = "/f.parquet.rowsum";
  locator.header_bytes = membership->header_bytes;
  locator.header = membership->header;
  std::vector<uint64_t> ranks;
  for (uint64_t rank = 0; rank < membership->set.size() && ranks.size() < 16; rank += 1 + rank * 3) {
    ranks.push_back(rank);
  }
  std::vector<std::vector<int64_t>> positions;
  int64_t bytes_read = 0;
  if (rowid_internal::ReadOrderEntries(locator, ranks, &positions, &bytes_read).ok()) {
    for (const auto& list : positions) {
      for (int64_t p : list) {
        if (p < 0 || static_cast<uint64_t>(p) >= header.physical_rows) __builtin_trap();
      }
    }
  }
}

inline void FuzzRunsBody(std::string_view bytes) {
  if (bytes.size() < 4) return;
  const uint64_t rows = std::min<uint64_t>(rowid_internal::LoadLE<uint32_t>(bytes.data()), 1 << 16);
  const std::string_view body = bytes.substr(4);
  auto table = rowid_internal::RunOrderIndex::TableBytes(body, rows, body.size());
  if (!table.ok()) return;
  auto index = rowid_internal::RunOrderIndex::Parse(body.substr(0, *table), rows, body.size());
  if (!index.ok()) return;
  std::vector<uint32_t> all(rows);
  const bool whole = index->DecodeAll(body, all.data()).ok();
  auto fetch = [body](uint64_t offset, uint64_t length, std::string_view* out) -> Status {
    if (offset > body.size() || length > body.size() - offset) return Status::Corruption("past the body");
    *out = body.substr(offset, length);
    return Status::OK();
  };
  for (uint64_t rank = 0; rank < rows; rank += 1 + rows / 97) {
    uint32_t position = 0;
    const bool one = index->Position(rank, fetch, &position).ok();
    if (one && position >= rows) __builtin_trap();
    // Where the whole body decodes, single ranks agree with it.
    if (whole && (!one || position != all[rank])) __builtin_trap();
  }
}

inline void FuzzSetIndex(std::string_view bytes) {
  using namespace rowid_internal;
  if (bytes.size() < 2 + 25) return;
  const uint32_t sample = 1u << (static_cast<uint8_t>(bytes[0]) % 12);
  const uint32_t block = 8u << (static_cast<uint8_t>(bytes[1]) % 8);
  const std::string_view rest = bytes.substr(2);
  const uint64_t count = LoadLE<uint64_t>(rest.data());
  const uint64_t min = LoadLE<uint64_t>(rest.data() + 8);
  const uint64_t max = LoadLE<uint64_t>(rest.data() + 16);
  if (count == 0 || max < min || count > rest.size() * 8 || max - min < count - 1) return;
  const EliasFanoShape shape = EliasFanoShape::Of(count, min, max);
  if (shape.set_len > rest.size() || shape.buckets > rest.size() * 8) return;
  const std::string_view set_bytes = rest.substr(0, shape.set_len);
  // The index: the counts given, then the checksums a writer would compute.
  const uint64_t samples = (shape.buckets + sample - 1) / sample;
  std::string index(rest.substr(shape.set_len, 4 * (samples + 1)));
  if (index.size() != 4 * (samples + 1)) return;
  for (uint64_t offset = 0; offset < set_bytes.size(); offset += block) {
    PutU32(&index, Crc32(set_bytes.substr(offset, block)));
  }
  PutU32(&index, Crc32(index));
  RowsumHeader header;
  header.version = 3;
  header.set_kind = RowIdSet::Kind::kEliasFano;
  header.distinct = count;
  header.min_id = min;
  header.max_id = max;
  header.set_len = shape.set_len;
  header.index_len = index.size();
  header.index_sample = sample;
  header.index_block = block;
  auto decoded = SetIndex::Decode(header, index, "fuzz");
  if (!decoded.ok()) return;
  auto whole = EliasFanoSet::Decode(set_bytes);
  auto fetch = [set_bytes](uint64_t offset, uint64_t length, std::string* out) -> Status {
    if (offset > set_bytes.size() || length > set_bytes.size() - offset) return Status::Corruption("past the set");
    out->assign(set_bytes.substr(offset, length));
    return Status::OK();
  };
  std::vector<uint64_t> asks = {min, max, min + (max - min) / 2, max + 1};
  if (whole.ok()) {
    std::vector<uint64_t> members;
    (*whole)->AppendTo(&members);
    for (size_t i = 0; i < members.size() && asks.size() < 64; i += 1 + members.size() / 32) {
      asks.push_back(members[i]);
      asks.push_back(members[i] + 1);
    }
  }
  std::sort(asks.begin(), asks.end());
  asks.erase(std::unique(asks.begin(), asks.end()), asks.end());
  std::vector<std::optional<uint64_t>> ranks;
  if (!decoded->Ranks(asks, fetch, &ranks).ok()) return;
  // The counts are trusted under the index's checksum, as a writer computed them: where they are
  // the true counts of a body that decodes whole, the ranks are the whole set's.
  bool true_counts = false;
  if (whole.ok()) {
    std::string truth;
    EncodeSetIndex(shape, set_bytes, sample, block, &truth);
    true_counts = truth.compare(0, 4 * (samples + 1), index, 0, 4 * (samples + 1)) == 0;
  }
  for (size_t i = 0; i < asks.size(); ++i) {
    if (ranks[i] && *ranks[i] >= count) __builtin_trap();
    if (true_counts && ranks[i] != (*whole)->Rank(asks[i])) __builtin_trap();
  }
}

inline int FuzzRowsumBytes(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0]) {
    case 1:
    case 2:
    case 3:
    case 4: {
      auto set = RowIdSet::Decode(static_cast<RowIdSet::Kind>(data[0]), rest);
      if (set.ok()) ProbeSet(*set);
      break;
    }
    case 5:
      FuzzRunsBody(rest);
      break;
    case 6:
      FuzzSetIndex(rest);
      break;
    case 0:
      FuzzWholeSidecar(rest);
      break;
    default:
      FuzzWholeSidecar(std::string_view(reinterpret_cast<const char*>(data), size));
      break;
  }
  return 0;
}

}  // namespace tarn::fuzz
