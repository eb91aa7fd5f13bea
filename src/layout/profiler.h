// The profiling pass of the picker: at most two scans of a table's rows.
//
// Scan 1 measures every column (HyperLogLog and, while the column has at most
// exact_skew_max_distinct values, an exact histogram: distinct count and skew; nulls; width)
// and keeps the sample: the sample_rows rows with the smallest content hashes (bottom-k), so
// the same rows in any order, split into any batches, give the same sample. When the table
// has more rows than the sample, scan 2 counts the distinct values of candidate pairs and
// triples over the whole table (HyperLogLog); otherwise the sample is the table and such
// counts are exact, computed on demand (SampleDistinct).
//
// Thread-safety: ProfileAndSample may run on many threads at once; a SampleDistinct is used
// by one thread at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "tarn/layout.h"

namespace tarn::layout {

struct ProfiledRows {
  TableProfile profile;
  // The sample in canonical order (ascending content hash): the profile's columns.
  std::shared_ptr<Batch> sample;
  // Each sample row's position in the scan (its arrival order).
  std::vector<int64_t> positions;
  // Per column, each sample row's value hash.
  std::vector<std::vector<uint64_t>> hashes;
};

Result<ProfiledRows> ProfileAndSample(const RowSourceFactory& open_rows,
                                      const PickerOptions& options);

// Exact distinct counts of column sets over the sample (the table itself when it fits),
// memoized. Rows of the first `prefix_rows` sample rows only when prefix_rows > 0.
class SampleDistinct {
 public:
  SampleDistinct(const ProfiledRows& rows, int64_t prefix_rows);
  // Distinct combinations of `columns` (order irrelevant; NULL is a value).
  int64_t Count(std::vector<int> columns);
  int64_t rows() const { return rows_; }
  // Every set counted so far, with its count.
  const std::map<std::vector<int>, int64_t>& counted() const { return memo_; }

 private:
  const ProfiledRows& data_;
  int64_t rows_;
  std::map<std::vector<int>, int64_t> memo_;
};

}  // namespace tarn::layout
