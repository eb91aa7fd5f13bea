// Group samples: the rows of a hash-chosen subset of one column's values, every row of each
// chosen value, so that the groups a sort key led by the column makes keep their full size.
//
// A sample of a fraction f of the rows shrinks each group of a coarse column to f of its
// size, and with it what sorting within the group gains (runs of the next key column, the
// density of the values a later column sorts); a near-unique column's keys lose nothing. A
// key measured on whole groups of its leading column shows at sample size what it gains at
// full size, so keys led by different columns compare fairly by bytes per row.
//
// Which values: in ascending order of their value key (the value's hash mixed with the
// column), leaving out heavy values (more rows than budget / kMinGroups: a handful of them
// would be the whole sample), while the rows fit the budget. The choice depends only on the
// values and their counts, never on the order or batching of the rows. A sample is usable when
// the heavy values hold at most kMaxHeavyShare of the rows it stands for; a key led by a
// column without a usable sample is measured on the sample of its next column that has one
// (whose groups are whole within the coarse column's groups too).
//
// Thread-safety: values and pure functions; one thread at a time per builder.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tarn/columnar.h"

namespace tarn::layout {

// A chosen sample holds at least this many groups: heavier values are left out.
inline constexpr int64_t kMinGroups = 4;
// A sample is usable while the heavy values left out hold at most this share of the rows.
inline constexpr double kMaxHeavyShare = 0.25;

// The key that orders `column`'s values for choosing (`value_hash` from HashColumn).
uint64_t ValueKey(int column, uint64_t value_hash);

// Which values a group sample holds: every value whose key is at most `last_key`, but the
// heavy ones.
struct GroupChoice {
  bool any = false;  // no value at all when false
  uint64_t last_key = 0;
  std::unordered_set<uint64_t> heavy;  // keys left out, at most last_key
  int64_t rows = 0;                    // rows of the chosen values (estimated when the counts were)
  int64_t groups = 0;                  // chosen values
  double heavy_share = 0;              // share of all rows in heavy values

  bool Contains(uint64_t key) const {
    return any && key <= last_key && heavy.find(key) == heavy.end();
  }
  bool usable() const { return groups > 0 && heavy_share <= kMaxHeavyShare; }
};

// Chooses values from (value key, rows) pairs (any order; each key once) for a sample of at
// most `budget` rows.
GroupChoice ChooseGroups(std::vector<std::pair<uint64_t, int64_t>> counts, int64_t budget);

// A group sample: rows in canonical order, each row's scan position and value key.
struct GroupSample {
  std::shared_ptr<Batch> rows;  // null when none was collected
  std::vector<int64_t> positions;
  std::vector<uint64_t> keys;  // ValueKey of each row's value, ascending
  int64_t groups = 0;
  double heavy_share = 0;
  bool usable() const { return rows != nullptr && groups > 0 && heavy_share <= kMaxHeavyShare; }
};

// Collects a group sample while the table streams by (the profiler's second scan). The rows
// kept are those of `choice`, cut to the longest run of values (in key order) whose rows fit
// `capacity` when the counts `choice` was made from were estimates. Canonical order: by value
// key, then content hash: the same rows give the same sample whatever their order.
class GroupSampleBuilder {
 public:
  GroupSampleBuilder(int column, GroupChoice choice, int64_t capacity);

  // Offers every row of `batch`: the column's value hashes, the rows' content hashes, and the
  // scan position of the first row.
  void Offer(const Batch& batch, std::span<const uint64_t> value_hashes,
             std::span<const uint64_t> row_hashes, int64_t first);
  GroupSample Finish(const std::shared_ptr<const Schema>& schema);

 private:
  struct Row {
    uint64_t key;
    uint64_t hash;
    int64_t position;
  };
  // Drops the values with the largest keys until the rows fit the capacity.
  void Trim();
  // Drops the rows of values no longer chosen, as one batch.
  void Compact();

  int column_;
  GroupChoice choice_;
  int64_t capacity_;
  std::map<uint64_t, int64_t> kept_;  // value key -> rows kept so far
  int64_t kept_rows_ = 0;
  std::vector<std::shared_ptr<Batch>> pending_;
  std::vector<Row> rows_;  // one per row of pending_, in the same order
};

// Whole groups out of rows held in memory (a sample, or the table when it fits): the rows
// whose value key (`keys`, one per row) is chosen for `budget` rows, in their order. All rows
// when they fit the budget.
struct GroupSubset {
  std::vector<int64_t> rows;  // indices into the input, ascending
  int64_t groups = 0;
  double heavy_share = 0;
  bool whole = false;  // every row (then `rows` is empty)
  bool usable() const { return whole || (groups > 0 && heavy_share <= kMaxHeavyShare); }
};
GroupSubset ChooseGroupRows(std::span<const uint64_t> keys, int64_t budget);

}  // namespace tarn::layout
