// The shape of a window function's input once sorted: the sort order of the rows by partition
// and order keys, where each partition and each peer group (rows equal on every order key)
// begins and ends, and which rows have a NULL first order key. Positions p = 0..rows()-1 are
// places in the sort order; row(p) is the input row there.
//
// Thread-safety: immutable once built.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sql/exec/sort.h"
#include "tarn/columnar.h"

namespace tarn::sql {

class WindowLayout {
 public:
  // `partitions` and `orders`: the key columns, `rows` rows each; `order_keys` the direction
  // and NULL placement of each order column (their `column` fields are ignored). Ties keep
  // input order.
  WindowLayout(int64_t rows, const std::vector<std::shared_ptr<Column>>& partitions,
               const std::vector<std::shared_ptr<Column>>& orders,
               const std::vector<SortKey>& order_keys);

  int64_t rows() const { return static_cast<int64_t>(order_.size()); }
  int64_t row(int64_t p) const { return order_[static_cast<size_t>(p)]; }

  int64_t partition_begin(int64_t p) const { return partition_starts_[Partition(p)]; }
  int64_t partition_end(int64_t p) const { return partition_starts_[Partition(p) + 1]; }
  // The peer group of p: [peer_begin, peer_end).
  int64_t peer_begin(int64_t p) const { return group_starts_[Group(p)]; }
  int64_t peer_end(int64_t p) const { return group_starts_[Group(p) + 1]; }
  // Peer groups: numbered 0, 1, ... over all partitions; those of p's partition are
  // first_group(p) .. first_group(p) + groups_in_partition(p) - 1.
  int64_t first_group(int64_t p) const { return partition_first_group_[Partition(p)]; }
  int64_t groups_in_partition(int64_t p) const {
    return partition_first_group_[Partition(p) + 1] - first_group(p);
  }
  int64_t group_in_partition(int64_t p) const {
    return static_cast<int64_t>(Group(p)) - first_group(p);
  }
  int64_t group_begin(int64_t group) const { return group_starts_[static_cast<size_t>(group)]; }
  int64_t group_end(int64_t group) const { return group_starts_[static_cast<size_t>(group) + 1]; }
  // The positions of p's partition whose first order key is not NULL (all without ORDER BY).
  int64_t valid_begin(int64_t p) const { return valid_[Partition(p)].first; }
  int64_t valid_end(int64_t p) const { return valid_[Partition(p)].second; }

 private:
  size_t Partition(int64_t p) const { return partition_of_[static_cast<size_t>(p)]; }
  size_t Group(int64_t p) const { return group_of_[static_cast<size_t>(p)]; }

  std::vector<int64_t> order_;
  std::vector<uint32_t> partition_of_;      // per position
  std::vector<uint32_t> group_of_;          // per position
  std::vector<int64_t> partition_starts_;   // per partition, and rows() at the end
  std::vector<int64_t> group_starts_;       // per peer group, and rows() at the end
  std::vector<int64_t> partition_first_group_;  // per partition, and the group count at the end
  std::vector<std::pair<int64_t, int64_t>> valid_;  // per partition
};

}  // namespace tarn::sql
