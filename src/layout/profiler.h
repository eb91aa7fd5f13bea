// The profiling pass of the picker: at most two scans of a table's rows.
//
// Scan 1 measures every column (HyperLogLog and, while the column has at most
// exact_skew_max_distinct values, an exact histogram: distinct count and skew; nulls; width)
// and keeps the sample: the sample_rows rows with the smallest content hashes (bottom-k), so
// the same rows in any order, split into any batches, give the same sample. When the table
// has more rows than the sample, scan 2 counts the distinct values of candidate pairs and
// triples over the whole table (HyperLogLog) and, for the measured picker, collects for each
// candidate column a group sample (group_sample.h): whole groups of a hash-chosen subset of its
// values, the candidates sharing sample_rows rows. Otherwise the sample is the table: counts of column sets are exact,
// computed on demand (SampleDistinct), and the picker takes whole groups from it directly.
//
// Thread-safety: ProfileAndSample may run on many threads at once; a SampleDistinct is used
// by one thread at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "layout/group_sample.h"
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
  // Per column, its group sample when the table is larger than the sample (rows == null for
  // a column that is not a candidate, and for every column when the table fits the sample).
  std::vector<GroupSample> group_samples;
  // The rows each group sample may hold (0 when none was collected).
  int64_t group_sample_rows = 0;
};

Result<ProfiledRows> ProfileAndSample(const RowSourceFactory& open_rows,
                                      const PickerOptions& options);

// Exact distinct counts of column sets over rows whose value hashes are `hashes` (per column,
// e.g. the sample's: the table itself when it fits), memoized. The first `rows` rows only.
// REQUIRES: hashes[c] holds at least `rows` hashes for every column c counted; `hashes`
// outlives this.
class SampleDistinct {
 public:
  SampleDistinct(const std::vector<std::vector<uint64_t>>& hashes, int64_t rows);
  // Distinct combinations of `columns` (order irrelevant; NULL is a value).
  int64_t Count(std::vector<int> columns);
  int64_t rows() const { return rows_; }
  // Every set counted so far, with its count.
  const std::map<std::vector<int>, int64_t>& counted() const { return memo_; }

 private:
  const std::vector<std::vector<uint64_t>>& hashes_;
  int64_t rows_;
  std::map<std::vector<int>, int64_t> memo_;
};

}  // namespace tarn::layout
