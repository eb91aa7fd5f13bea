#include "sql/exec/window_layout.h"

#include <numeric>
#include <utility>

namespace tarn::sql {

WindowLayout::WindowLayout(int64_t rows, const std::vector<std::shared_ptr<Column>>& partitions,
                           const std::vector<std::shared_ptr<Column>>& orders,
                           const std::vector<SortKey>& order_keys) {
  Batch keys_batch;
  keys_batch.num_rows = rows;
  std::vector<SortKey> keys;
  for (const auto& column : partitions) {
    keys.push_back(SortKey{keys_batch.num_columns(), false, false});
    keys_batch.columns.push_back(column);
  }
  for (size_t o = 0; o < orders.size(); ++o) {
    keys.push_back(
        SortKey{keys_batch.num_columns(), order_keys[o].descending, order_keys[o].nulls_first});
    keys_batch.columns.push_back(orders[o]);
  }
  if (keys.empty()) {
    order_.resize(static_cast<size_t>(rows));
    std::iota(order_.begin(), order_.end(), int64_t{0});
  } else {
    order_ = OrderRows(keys_batch, keys, -1);
  }

  std::vector<SortKey> partition_keys(keys.begin(), keys.begin() + partitions.size());
  std::vector<SortKey> peer_keys(keys.begin() + partitions.size(), keys.end());
  RowComparator same_partition(keys_batch, partition_keys);
  RowComparator same_peers(keys_batch, peer_keys);
  partition_of_.resize(static_cast<size_t>(rows));
  group_of_.resize(static_cast<size_t>(rows));
  for (int64_t p = 0; p < rows; ++p) {
    const bool new_partition =
        p == 0 || (!partition_keys.empty() && same_partition.Compare(row(p - 1), row(p)) != 0);
    const bool new_group =
        new_partition || (!peer_keys.empty() && same_peers.Compare(row(p - 1), row(p)) != 0);
    if (new_partition) {
      partition_starts_.push_back(p);
      partition_first_group_.push_back(static_cast<int64_t>(group_starts_.size()));
    }
    if (new_group) group_starts_.push_back(p);
    partition_of_[static_cast<size_t>(p)] = static_cast<uint32_t>(partition_starts_.size() - 1);
    group_of_[static_cast<size_t>(p)] = static_cast<uint32_t>(group_starts_.size() - 1);
  }
  partition_starts_.push_back(rows);
  group_starts_.push_back(rows);
  partition_first_group_.push_back(static_cast<int64_t>(group_starts_.size() - 1));

  const Column* first_key = orders.empty() ? nullptr : orders[0].get();
  const bool nulls_first = !order_keys.empty() && order_keys[0].nulls_first;
  for (size_t partition = 0; partition + 1 < partition_starts_.size(); ++partition) {
    const int64_t begin = partition_starts_[partition];
    const int64_t end = partition_starts_[partition + 1];
    int64_t nulls = 0;
    if (first_key != nullptr && first_key->null_count > 0) {
      for (int64_t p = begin; p < end; ++p) nulls += first_key->IsNull(row(p)) ? 1 : 0;
    }
    valid_.emplace_back(nulls_first ? begin + nulls : begin, nulls_first ? end : end - nulls);
  }
}

}  // namespace tarn::sql
