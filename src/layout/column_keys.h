// Per-row keys of one column for the profiler and the picker: a 64-bit hash of each row's
// value (equal values, equal hashes; NULL has a hash of its own) and dense ranks (0..n-1 in
// DuckDB's value order, equal values equal ranks, NULL after every value).
//
// Floating-point values hash and rank as DuckDB groups and orders them: -0.0 equals 0.0,
// every NaN is one value above all numbers.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tarn/columnar.h"

namespace tarn::layout {

// The hash every NULL gets.
inline constexpr uint64_t kNullHash = 0x9ae16a3b2f90404fULL;

// out[row] = hash of column's value at row. REQUIRES: out.size() == column.length.
void HashColumn(const Column& column, std::span<uint64_t> out);

// Mixes `value` into `seed` (order-sensitive): keys of several columns.
inline uint64_t CombineHash(uint64_t seed, uint64_t value) {
  uint64_t x = seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// Dense ranks of the column's rows in ascending order, NULLs last (rank = number of distinct
// non-null values). Returns the number of distinct ranks.
int64_t RankColumn(const Column& column, std::vector<uint32_t>* ranks);

}  // namespace tarn::layout
