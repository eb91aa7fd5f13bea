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

// The distinct values of an integer-like column (DistinctSet::KeepsIntegers), for an
// ungrouped DISTINCT aggregate that needs the values only at the end. Values are hashed into
// kPartitions tables by their hash's top bits, a batch at a time: first each value goes to its
// partition's list, then each list into its table, so the inserts of one partition stay within
// a table small enough for the cache however many values there are.
//
// Thread-safety: one thread at a time.
class IntegerValueSet {
 public:
  // Integer-like types of at most 8 bytes.
  static bool Holds(const DataType& value_type);
  // REQUIRES: Holds(value_type).
  explicit IntegerValueSet(const DataType& value_type);
  IntegerValueSet(const IntegerValueSet&) = delete;
  IntegerValueSet& operator=(const IntegerValueSet&) = delete;

  // Adds the non-NULL values of the rows whose bit is set in `candidates` (null: every row).
  void Insert(const Column& values, const uint8_t* candidates);
  // Adds every value of `other` (a set of the same type).
  void Merge(const IntegerValueSet& other);
  // The same for partition `p` of kPartitions only: different partitions may be merged on
  // different threads at once.
  void MergePartition(const IntegerValueSet& other, size_t p);
  static constexpr size_t num_partitions() { return kPartitions; }
  int64_t size() const;
  int64_t MemoryBytes() const;
  // The values, in no particular order.
  std::shared_ptr<Column> Values() const;

 private:
  static constexpr int kPartitionBits = 6;
  static constexpr size_t kPartitions = size_t{1} << kPartitionBits;
  // The empty slot's marker; the value itself is kept by has_marker_.
  static constexpr uint64_t kMarker = 0x8000000000000000ULL;
  struct Partition {
    std::vector<uint64_t> slots;  // power-of-two size, at most half full
    int64_t size = 0;
    std::vector<uint64_t> pending;  // this batch's values, before they go into slots
  };
  static constexpr int64_t kDirectValues = 16384;
  // Grows the partition's table to hold `more` values beyond its own.
  static void Reserve(Partition& partition, size_t more);
  void InsertPending(Partition& partition);
  static void InsertValue(Partition& partition, uint64_t value, uint64_t hash);

  DataType value_type_;
  std::vector<Partition> partitions_;
  bool has_marker_ = false;
};

}  // namespace tarn::sql
