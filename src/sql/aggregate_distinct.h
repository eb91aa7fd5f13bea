// DistinctSet: the (group, value) pairs a DISTINCT aggregate has seen, so each pair feeds the
// aggregate once.
//
// Values of integer-like and floating types (at most 8 bytes) live in an open-addressing table
// of (group, 64-bit value) pairs; other values are serialized as GroupTable keys are. Floats
// are normalized as GROUP BY normalizes them: NaN equals NaN and -0.0 equals 0.0.
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "tarn/columnar.h"

namespace tarn::sql {

class DistinctSet {
 public:
  explicit DistinctSet(const DataType& value_type);

  // For each row whose bit is set in `candidates` (null: every row) and whose value is not
  // NULL, inserts (group_ids[row], value) and sets the row's bit in `keep` when the pair is
  // new. `keep` (null: not wanted) holds at least `rows` bits, cleared by the caller.
  void InsertNew(const Column& values, const uint32_t* group_ids, int64_t rows,
                 const uint8_t* candidates, uint8_t* keep);
  // Whether a set of `value_type` keeps its values so that Values() can give them back:
  // integer-like types of at most 8 bytes.
  static bool KeepsIntegers(const DataType& value_type);
  // REQUIRES: KeepsIntegers(type of both sets). Inserts every pair of `other`.
  void Merge(const DistinctSet& other);
  // REQUIRES: KeepsIntegers(value_type), the type the set was made for. The values of the
  // pairs of group 0, in no particular order.
  std::shared_ptr<Column> Values(const DataType& value_type) const;
  // Forgets every pair, keeping the table's capacity.
  void Clear();
  int64_t size() const { return size_; }
  int64_t MemoryBytes() const;

 private:
  bool InsertFixed(uint64_t value, uint32_t group);
  // InsertNew in fixed mode; bits(row) is the row's value as FixedBits gives it.
  template <typename Bits>
  void InsertFixedRows(const Column& values, const uint32_t* group_ids, int64_t rows,
                       const uint8_t* candidates, uint8_t* keep, Bits bits);
  void Grow();
  // Moves the pairs to a table of `capacity` slots (a power of two, more than twice size_).
  void Rehash(size_t capacity);

  bool fixed_mode_;
  int64_t size_ = 0;
  // Fixed mode: a slot's value and group side by side (one cache line per probe); group
  // UINT32_MAX marks an empty slot.
  struct Slot {
    uint64_t value;
    uint32_t group;
  };
  std::vector<Slot> slots_;
  // Other types: the group's 4 bytes, then GroupTable::AppendKeyBytes of the value.
  std::unordered_set<std::string> pairs_;
  int64_t pair_bytes_ = 0;
};

}  // namespace tarn::sql
