#include "layout/profiler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "layout/column_keys.h"
#include "layout/hyperloglog.h"

namespace tarn::layout {
namespace {

// What scan 1 keeps for one column.
struct ColumnState {
  HyperLogLog sketch;
  // value hash -> count while the column has few distinct values; dropped past the limit.
  std::unordered_map<uint64_t, int64_t> counts;
  bool counts_exact = true;
  int64_t null_count = 0;
  double width_sum = 0;
};

bool Orderable(const DataType& type) {
  return !type.IsNested() && type.id != TypeId::kVariant && type.id != TypeId::kGeometry;
}

double AverageWidth(const Column& column) {
  const int64_t present = column.length - column.null_count;
  if (present <= 0) return 0;
  if (column.type.IsVarLength()) {
    const int64_t* offsets = column.values_as<int64_t>();
    return static_cast<double>(offsets[column.length] - offsets[0]) / static_cast<double>(present);
  }
  if (column.type.id == TypeId::kBoolean) return 0.125;
  return column.type.FixedWidth();
}

// The bottom-k sample under construction.
class SampleBuilder {
 public:
  explicit SampleBuilder(int64_t capacity) : capacity_(capacity) {}

  // Offers every row of `batch` (row hashes `row_hashes`, scan positions from `first`).
  void Offer(const Batch& batch, const std::vector<uint64_t>& row_hashes, int64_t first) {
    std::vector<int64_t> kept;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      if (row_hashes[row] <= threshold_) kept.push_back(row);
    }
    if (kept.empty()) return;
    std::vector<std::shared_ptr<Column>> columns;
    for (const auto& column : batch.columns) columns.push_back(Take(*column, kept));
    auto piece = MakeBatch(batch.schema, std::move(columns));
    piece->num_rows = static_cast<int64_t>(kept.size());
    pending_.push_back(piece);
    for (int64_t row : kept) {
      keys_.push_back({row_hashes[row], first + row});
    }
    if (static_cast<int64_t>(keys_.size()) > 2 * capacity_ + 4096) Compact();
  }

  // The sample in canonical order, with positions.
  std::shared_ptr<Batch> Finish(std::shared_ptr<const Schema> schema,
                                std::vector<int64_t>* positions) {
    Compact();
    positions->clear();
    for (const Key& key : keys_) positions->push_back(key.position);
    if (pending_.empty()) return MakeEmptyBatch(schema);
    return pending_.front();
  }

 private:
  struct Key {
    uint64_t hash;
    int64_t position;
    bool operator<(const Key& other) const {
      return hash != other.hash ? hash < other.hash : position < other.position;
    }
  };

  static std::shared_ptr<Batch> MakeEmptyBatch(std::shared_ptr<const Schema> schema) {
    std::vector<std::shared_ptr<Column>> columns;
    for (const Field& field : schema->fields) columns.push_back(ColumnBuilder(field.type).Finish());
    return MakeBatch(std::move(schema), std::move(columns));
  }

  // Keeps the `capacity_` smallest keys, in ascending order, as one batch.
  void Compact() {
    if (pending_.empty()) return;
    auto all = pending_.size() == 1 ? pending_.front() : ConcatenateBatches(pending_);
    std::vector<int64_t> order(keys_.size());
    std::iota(order.begin(), order.end(), 0);
    auto less = [&](int64_t a, int64_t b) { return keys_[a] < keys_[b]; };
    if (static_cast<int64_t>(order.size()) > capacity_) {
      std::nth_element(order.begin(), order.begin() + capacity_, order.end(), less);
      order.resize(static_cast<size_t>(capacity_));
    }
    std::sort(order.begin(), order.end(), less);
    std::vector<Key> keys;
    keys.reserve(order.size());
    for (int64_t index : order) keys.push_back(keys_[index]);
    std::vector<std::shared_ptr<Column>> columns;
    for (const auto& column : all->columns) columns.push_back(Take(*column, order));
    auto kept = MakeBatch(all->schema, std::move(columns));
    kept->num_rows = static_cast<int64_t>(order.size());
    pending_ = {kept};
    keys_ = std::move(keys);
    if (static_cast<int64_t>(keys_.size()) >= capacity_ && !keys_.empty()) {
      threshold_ = keys_.back().hash;
    }
  }

  int64_t capacity_;
  uint64_t threshold_ = ~uint64_t{0};
  std::vector<std::shared_ptr<Batch>> pending_;
  std::vector<Key> keys_;  // one per row of pending_, in the same order
};

// The sets whose table-wide distinct counts scan 2 measures: pairs of the 12 and triples of
// the 8 candidates with the fewest distinct values (ties: column order).
std::vector<std::vector<int>> SetsToCount(const TableProfile& profile) {
  std::vector<int> candidates;
  for (int i = 0; i < static_cast<int>(profile.columns.size()); ++i) {
    if (profile.columns[i].candidate) candidates.push_back(i);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](int a, int b) {
    return profile.columns[a].distinct < profile.columns[b].distinct;
  });
  std::vector<std::vector<int>> sets;
  const int pairs = std::min<int>(12, static_cast<int>(candidates.size()));
  const int triples = std::min<int>(8, static_cast<int>(candidates.size()));
  for (int a = 0; a < pairs; ++a) {
    for (int b = a + 1; b < pairs; ++b) {
      std::vector<int> set = {candidates[a], candidates[b]};
      std::sort(set.begin(), set.end());
      sets.push_back(set);
    }
  }
  for (int a = 0; a < triples; ++a) {
    for (int b = a + 1; b < triples; ++b) {
      for (int c = b + 1; c < triples; ++c) {
        std::vector<int> set = {candidates[a], candidates[b], candidates[c]};
        std::sort(set.begin(), set.end());
        sets.push_back(set);
      }
    }
  }
  return sets;
}

Status CheckSchema(const Schema& expected, const Schema& actual) {
  if (expected.num_fields() != actual.num_fields()) {
    return Status::Internal("the picker's second scan has ", actual.num_fields(),
                            " columns, the first had ", expected.num_fields());
  }
  return Status::OK();
}

// The value counts a group sample of column `c` is chosen from: the exact histogram of scan 1
// when the column has one, else estimated from the sample (each of its rows stands for
// rows / sample_rows rows of the table).
std::vector<std::pair<uint64_t, int64_t>> ValueCounts(const ProfiledRows& out,
                                                      const ColumnState& state, int c) {
  std::vector<std::pair<uint64_t, int64_t>> counts;
  if (state.counts_exact) {
    counts.reserve(state.counts.size() + 1);
    for (const auto& [hash, count] : state.counts) counts.emplace_back(ValueKey(c, hash), count);
    const int64_t nulls = out.profile.columns[c].null_count;
    if (nulls > 0) counts.emplace_back(ValueKey(c, kNullHash), nulls);
    return counts;
  }
  std::unordered_map<uint64_t, int64_t> in_sample;
  for (uint64_t hash : out.hashes[c]) ++in_sample[hash];
  const double scale = static_cast<double>(out.profile.rows) /
                       static_cast<double>(std::max<int64_t>(1, out.profile.sample_rows));
  counts.reserve(in_sample.size());
  for (const auto& [hash, count] : in_sample) {
    counts.emplace_back(ValueKey(c, hash),
                        std::max<int64_t>(1, std::llround(static_cast<double>(count) * scale)));
  }
  return counts;
}

// The smallest budget on which a group sample of a column with these value counts is usable:
// the values of more than budget / kMinGroups rows (left out) hold at most kMaxHeavyShare of
// the rows.
int64_t SmallestUsableBudget(const std::vector<std::pair<uint64_t, int64_t>>& counts) {
  std::vector<int64_t> sizes;
  sizes.reserve(counts.size());
  int64_t total = 0;
  for (const auto& [key, count] : counts) {
    sizes.push_back(count);
    total += count;
  }
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  int64_t heavy = 0;
  for (int64_t size : sizes) {
    heavy += size;
    if (static_cast<double>(heavy) > kMaxHeavyShare * static_cast<double>(total)) {
      return size * kMinGroups;
    }
  }
  return kMinGroups;
}

// The group samples scan 2 collects: the candidates share sample_rows rows evenly, and the
// most of them whose samples are usable on their share get one (a column whose few values
// hold most rows needs a larger share than one with many small groups).
void PlanGroupSamples(ProfiledRows& out, const std::vector<ColumnState>& states,
                      std::vector<GroupSampleBuilder>* builders, std::vector<int>* columns) {
  const TableProfile& profile = out.profile;
  out.group_samples.resize(profile.columns.size());
  std::vector<std::pair<int64_t, int>> needs;  // (smallest usable budget, column)
  for (int c = 0; c < static_cast<int>(profile.columns.size()); ++c) {
    if (!profile.columns[c].candidate) continue;
    needs.emplace_back(SmallestUsableBudget(ValueCounts(out, states[c], c)), c);
  }
  std::sort(needs.begin(), needs.end());
  size_t kept = 0;
  while (kept < needs.size() &&
         needs[kept].first <= profile.sample_rows / static_cast<int64_t>(kept + 1)) {
    ++kept;
  }
  if (kept == 0) return;
  const int64_t budget = profile.sample_rows / static_cast<int64_t>(kept);
  out.group_sample_rows = budget;
  std::vector<int> chosen;
  for (size_t i = 0; i < kept; ++i) chosen.push_back(needs[i].second);
  std::sort(chosen.begin(), chosen.end());
  for (int c : chosen) {
    GroupChoice choice = ChooseGroups(ValueCounts(out, states[c], c), budget);
    if (!choice.usable()) continue;
    builders->emplace_back(c, std::move(choice), budget);
    columns->push_back(c);
  }
}

}  // namespace

Result<ProfiledRows> ProfileAndSample(const RowSourceFactory& open_rows,
                                      const PickerOptions& options) {
  if (options.sample_rows < 1) {
    return Status::InvalidArgument("picker sample_rows must be at least 1, not ",
                                   options.sample_rows);
  }
  const auto start = std::chrono::steady_clock::now();
  ProfiledRows out;
  TableProfile& profile = out.profile;
  ThreadPool* pool = options.pool != nullptr ? options.pool : ThreadPool::Default();

  TARN_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, open_rows());
  std::shared_ptr<const Schema> schema = reader->schema();
  const int num_columns = schema->num_fields();
  std::vector<ColumnState> states(static_cast<size_t>(num_columns));
  SampleBuilder sample(options.sample_rows);
  int64_t rows = 0;
  std::vector<std::vector<uint64_t>> hashes(static_cast<size_t>(num_columns));
  std::vector<uint64_t> row_hashes;
  profile.scans = 1;
  while (true) {
    if (options.cancel != nullptr) TARN_RETURN_NOT_OK(options.cancel->Check("SORTED BY AUTO"));
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader->Next());
    if (batch == nullptr) break;
    if (batch->num_rows == 0) continue;
    if (batch->num_columns() != num_columns) {
      return Status::Internal("a batch of ", batch->num_columns(), " columns in a scan of ",
                              num_columns);
    }
    const int64_t batch_rows = batch->num_rows;
    TARN_RETURN_NOT_OK(pool->ParallelFor(static_cast<size_t>(num_columns), [&](size_t c) {
      const Column& column = batch->column(static_cast<int>(c));
      std::vector<uint64_t>& h = hashes[c];
      h.resize(static_cast<size_t>(batch_rows));
      HashColumn(column, h);
      ColumnState& state = states[c];
      state.null_count += column.null_count;
      state.width_sum += AverageWidth(column) * static_cast<double>(batch_rows - column.null_count);
      for (int64_t row = 0; row < batch_rows; ++row) {
        if (column.IsNull(row)) continue;
        state.sketch.Add(h[row]);
        if (state.counts_exact) ++state.counts[h[row]];
      }
      if (state.counts_exact &&
          static_cast<int64_t>(state.counts.size()) > options.exact_skew_max_distinct) {
        state.counts_exact = false;
        state.counts = {};
      }
      return Status::OK();
    }));
    row_hashes.assign(static_cast<size_t>(batch_rows), 0x2545f4914f6cdd1dULL);
    for (int c = 0; c < num_columns; ++c) {
      const std::vector<uint64_t>& h = hashes[static_cast<size_t>(c)];
      for (int64_t row = 0; row < batch_rows; ++row) {
        row_hashes[row] = CombineHash(row_hashes[row], h[row]);
      }
    }
    sample.Offer(*batch, row_hashes, rows);
    rows += batch_rows;
  }
  out.sample = sample.Finish(schema, &out.positions);
  profile.rows = rows;
  profile.sample_rows = out.sample->num_rows;
  const bool table_is_sample = profile.sample_rows == rows;

  // Per-column hashes of the sample, and the profile of each column.
  out.hashes.resize(static_cast<size_t>(num_columns));
  for (int c = 0; c < num_columns; ++c) {
    const Column& column = out.sample->column(c);
    out.hashes[c].resize(static_cast<size_t>(column.length));
    HashColumn(column, out.hashes[c]);
    const ColumnState& state = states[c];
    ColumnProfile cp;
    cp.name = schema->field(c).name;
    cp.type = schema->field(c).type;
    cp.rows = rows;
    cp.null_count = state.null_count;
    const int64_t present = rows - state.null_count;
    cp.average_width = present > 0 ? state.width_sum / static_cast<double>(present) : 0;
    if (state.counts_exact) {
      cp.distinct = static_cast<int64_t>(state.counts.size());
      cp.distinct_exact = true;
      double sum = 0;
      for (const auto& [hash, count] : state.counts) {
        const double p = static_cast<double>(count) / static_cast<double>(present);
        sum += p * p;
      }
      cp.skew = sum;
      cp.skew_exact = true;
    } else {
      cp.distinct = std::min(state.sketch.Estimate(), present);
      cp.distinct_exact = false;
      // Unbiased estimate of Σp² from the sample: Σ c(c-1) / (m(m-1)).
      std::unordered_map<uint64_t, int64_t> counts;
      int64_t m = 0;
      for (int64_t row = 0; row < column.length; ++row) {
        if (column.IsNull(row)) continue;
        ++counts[out.hashes[c][row]];
        ++m;
      }
      double pairs = 0;
      for (const auto& [hash, count] : counts) pairs += static_cast<double>(count) * (count - 1);
      cp.skew = m > 1 ? pairs / (static_cast<double>(m) * static_cast<double>(m - 1)) : 1.0;
      cp.skew = std::max(cp.skew, cp.distinct > 0 ? 1.0 / static_cast<double>(cp.distinct) : 1.0);
    }
    if (!Orderable(cp.type)) {
      cp.excluded_because = "not orderable (nested type)";
    } else if (cp.distinct <= 1) {
      cp.excluded_because = "constant";
    } else if (cp.null_share() > 0.5) {
      cp.excluded_because = "mostly NULL";
    } else {
      bool excluded = false;
      for (const std::string& name : options.excluded_columns) {
        if (name.size() == cp.name.size() &&
            std::equal(name.begin(), name.end(), cp.name.begin(), [](char a, char b) {
              return std::tolower(static_cast<unsigned char>(a)) ==
                     std::tolower(static_cast<unsigned char>(b));
            })) {
          excluded = true;
        }
      }
      if (excluded) {
        cp.excluded_because = "excluded";
      } else {
        cp.candidate = true;
      }
    }
    profile.columns.push_back(std::move(cp));
  }

  // Scan 2: distinct counts of candidate sets and the group samples, over the whole table.
  if (!table_is_sample) {
    const std::vector<std::vector<int>> sets = SetsToCount(profile);
    std::vector<GroupSampleBuilder> builders;
    std::vector<int> builder_columns;
    // Only the measured picker measures on group samples.
    if (options.mode == PickerMode::kMeasured) {
      PlanGroupSamples(out, states, &builders, &builder_columns);
    }
    if (!sets.empty() || !builders.empty()) {
      profile.scans = 2;
      TARN_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> second, open_rows());
      TARN_RETURN_NOT_OK(CheckSchema(*schema, *second->schema()));
      std::vector<HyperLogLog> sketches(sets.size());
      // The group samples order their rows by content hash: every column is hashed then.
      std::vector<bool> needed(static_cast<size_t>(num_columns), !builders.empty());
      for (const auto& set : sets) {
        for (int c : set) needed[c] = true;
      }
      int64_t position = 0;
      while (true) {
        if (options.cancel != nullptr) {
          TARN_RETURN_NOT_OK(options.cancel->Check("SORTED BY AUTO"));
        }
        TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, second->Next());
        if (batch == nullptr) break;
        if (batch->num_rows == 0) continue;
        if (batch->num_columns() != num_columns) {
          return Status::Internal("a batch of ", batch->num_columns(),
                                  " columns in the picker's second scan of ", num_columns);
        }
        const int64_t batch_rows = batch->num_rows;
        TARN_RETURN_NOT_OK(pool->ParallelFor(static_cast<size_t>(num_columns), [&](size_t c) {
          if (!needed[c]) return Status::OK();
          hashes[c].resize(static_cast<size_t>(batch_rows));
          HashColumn(batch->column(static_cast<int>(c)), hashes[c]);
          return Status::OK();
        }));
        if (!builders.empty()) {
          row_hashes.assign(static_cast<size_t>(batch_rows), 0x2545f4914f6cdd1dULL);
          for (int c = 0; c < num_columns; ++c) {
            const std::vector<uint64_t>& h = hashes[static_cast<size_t>(c)];
            for (int64_t row = 0; row < batch_rows; ++row) {
              row_hashes[row] = CombineHash(row_hashes[row], h[row]);
            }
          }
        }
        TARN_RETURN_NOT_OK(pool->ParallelFor(sets.size() + builders.size(), [&](size_t s) {
          if (s >= sets.size()) {
            const size_t b = s - sets.size();
            builders[b].Offer(*batch, hashes[static_cast<size_t>(builder_columns[b])], row_hashes,
                              position);
            return Status::OK();
          }
          const std::vector<int>& set = sets[s];
          for (int64_t row = 0; row < batch_rows; ++row) {
            uint64_t h = 0x51ed270b27ad9a1fULL;
            for (int c : set) h = CombineHash(h, hashes[c][row]);
            sketches[s].Add(h);
          }
          return Status::OK();
        }));
        position += batch_rows;
      }
      for (size_t s = 0; s < sets.size(); ++s) {
        ColumnSetDistinct entry;
        entry.columns = sets[s];
        entry.distinct = std::min(sketches[s].Estimate(), rows);
        // A set has at least as many combinations as its largest member.
        for (int c : sets[s]) {
          entry.distinct = std::max(entry.distinct, profile.columns[c].distinct);
        }
        profile.column_sets.push_back(std::move(entry));
      }
      for (size_t b = 0; b < builders.size(); ++b) {
        out.group_samples[static_cast<size_t>(builder_columns[b])] = builders[b].Finish(schema);
      }
    }
  }
  profile.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

SampleDistinct::SampleDistinct(const std::vector<std::vector<uint64_t>>& hashes, int64_t rows)
    : hashes_(hashes), rows_(rows) {}

int64_t SampleDistinct::Count(std::vector<int> columns) {
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  auto found = memo_.find(columns);
  if (found != memo_.end()) return found->second;
  std::unordered_set<uint64_t> seen;
  seen.reserve(static_cast<size_t>(rows_));
  for (int64_t row = 0; row < rows_; ++row) {
    uint64_t h = 0x51ed270b27ad9a1fULL;
    for (int c : columns) h = CombineHash(h, hashes_[c][row]);
    seen.insert(h);
  }
  const int64_t count = static_cast<int64_t>(seen.size());
  memo_.emplace(std::move(columns), count);
  return count;
}

}  // namespace tarn::layout
