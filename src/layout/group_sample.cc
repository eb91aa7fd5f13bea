#include "layout/group_sample.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "layout/column_keys.h"

namespace tarn::layout {

uint64_t ValueKey(int column, uint64_t value_hash) {
  // Mixed with the column so that columns over one domain (origin, destination) choose
  // different values.
  return CombineHash(0x6b43a9b5e1f3c2d7ULL + static_cast<uint64_t>(column), value_hash);
}

GroupChoice ChooseGroups(std::vector<std::pair<uint64_t, int64_t>> counts, int64_t budget) {
  std::sort(counts.begin(), counts.end());
  GroupChoice choice;
  const int64_t heavy_limit = std::max<int64_t>(1, budget / kMinGroups);
  int64_t total = 0;
  int64_t heavy_rows = 0;
  bool full = false;
  for (const auto& [key, rows] : counts) {
    total += rows;
    if (rows > heavy_limit) {
      heavy_rows += rows;
      if (!full) choice.heavy.insert(key);
      continue;
    }
    if (full) continue;
    if (choice.rows + rows > budget) {
      full = true;
      continue;
    }
    choice.rows += rows;
    ++choice.groups;
    choice.last_key = key;
    choice.any = true;
  }
  std::erase_if(choice.heavy, [&](uint64_t key) { return !choice.any || key > choice.last_key; });
  choice.heavy_share =
      total > 0 ? static_cast<double>(heavy_rows) / static_cast<double>(total) : 0.0;
  return choice;
}

GroupSampleBuilder::GroupSampleBuilder(int column, GroupChoice choice, int64_t capacity)
    : column_(column), choice_(std::move(choice)), capacity_(std::max<int64_t>(1, capacity)) {}

void GroupSampleBuilder::Offer(const Batch& batch, std::span<const uint64_t> value_hashes,
                               std::span<const uint64_t> row_hashes, int64_t first) {
  std::vector<int64_t> kept;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    const uint64_t key = ValueKey(column_, value_hashes[static_cast<size_t>(row)]);
    if (!choice_.Contains(key)) continue;
    kept.push_back(row);
    rows_.push_back(Row{key, row_hashes[static_cast<size_t>(row)], first + row});
    ++kept_[key];
    ++kept_rows_;
  }
  if (kept.empty()) return;
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : batch.columns) columns.push_back(Take(*column, kept));
  auto piece = MakeBatch(batch.schema, std::move(columns));
  piece->num_rows = static_cast<int64_t>(kept.size());
  pending_.push_back(std::move(piece));
  if (kept_rows_ > capacity_) Trim();
  if (static_cast<int64_t>(rows_.size()) > 2 * capacity_ + 4096) Compact();
}

void GroupSampleBuilder::Trim() {
  // Counts only grow as rows arrive, so a value dropped here would be dropped from the final
  // counts too: the rows kept are the longest run of chosen values (in key order) that fits,
  // whatever the order the rows came in.
  while (kept_rows_ > capacity_ && !kept_.empty()) {
    auto last = std::prev(kept_.end());
    kept_rows_ -= last->second;
    if (last->first == 0) {
      choice_.any = false;
    } else {
      choice_.last_key = last->first - 1;
    }
    kept_.erase(last);
  }
  std::erase_if(choice_.heavy, [&](uint64_t key) { return key > choice_.last_key; });
}

void GroupSampleBuilder::Compact() {
  if (pending_.empty()) return;
  auto all = pending_.size() == 1 ? pending_.front() : ConcatenateBatches(pending_);
  std::vector<int64_t> kept;
  std::vector<Row> rows;
  for (size_t i = 0; i < rows_.size(); ++i) {
    if (!choice_.Contains(rows_[i].key)) continue;
    kept.push_back(static_cast<int64_t>(i));
    rows.push_back(rows_[i]);
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : all->columns) columns.push_back(Take(*column, kept));
  auto batch = MakeBatch(all->schema, std::move(columns));
  batch->num_rows = static_cast<int64_t>(kept.size());
  pending_ = {std::move(batch)};
  rows_ = std::move(rows);
}

GroupSample GroupSampleBuilder::Finish(const std::shared_ptr<const Schema>& schema) {
  Compact();
  GroupSample sample;
  sample.groups = static_cast<int64_t>(kept_.size());
  sample.heavy_share = choice_.heavy_share;
  std::vector<int64_t> order(rows_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const Row& x = rows_[static_cast<size_t>(a)];
    const Row& y = rows_[static_cast<size_t>(b)];
    if (x.key != y.key) return x.key < y.key;
    if (x.hash != y.hash) return x.hash < y.hash;
    return x.position < y.position;
  });
  std::vector<std::shared_ptr<Column>> columns;
  if (pending_.empty()) {
    for (const Field& field : schema->fields) columns.push_back(ColumnBuilder(field.type).Finish());
  } else {
    for (const auto& column : pending_.front()->columns) columns.push_back(Take(*column, order));
  }
  sample.rows = MakeBatch(schema, std::move(columns));
  sample.rows->num_rows = static_cast<int64_t>(order.size());
  for (int64_t index : order) {
    sample.positions.push_back(rows_[static_cast<size_t>(index)].position);
    sample.keys.push_back(rows_[static_cast<size_t>(index)].key);
  }
  pending_.clear();
  rows_.clear();
  return sample;
}

GroupSubset ChooseGroupRows(std::span<const uint64_t> keys, int64_t budget) {
  GroupSubset subset;
  if (static_cast<int64_t>(keys.size()) <= budget) {
    subset.whole = true;
    return subset;
  }
  std::unordered_map<uint64_t, int64_t> counts;
  for (uint64_t key : keys) ++counts[key];
  GroupChoice choice = ChooseGroups({counts.begin(), counts.end()}, budget);
  for (size_t row = 0; row < keys.size(); ++row) {
    if (choice.Contains(keys[row])) subset.rows.push_back(static_cast<int64_t>(row));
  }
  subset.groups = choice.groups;
  subset.heavy_share = choice.heavy_share;
  return subset;
}

}  // namespace tarn::layout
