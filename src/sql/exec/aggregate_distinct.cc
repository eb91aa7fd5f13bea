#include "sql/exec/aggregate_distinct.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "columnar/bit_util.h"
#include "expr/eval/kernels.h"
#include "sql/exec/group_table.h"

namespace tarn::sql {
namespace {

using expr::Phys;

constexpr uint32_t kEmptySlot = UINT32_MAX;

bool IsFixedPhys(Phys phys) {
  switch (phys) {
    case Phys::kI8: case Phys::kI16: case Phys::kI32: case Phys::kI64:
    case Phys::kU8: case Phys::kU16: case Phys::kU32: case Phys::kU64:
    case Phys::kF32: case Phys::kF64:
      return true;
    default:
      return false;
  }
}

uint64_t DoubleBits(double v) {
  if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
  if (v == 0) v = 0.0;  // -0.0 equals 0.0
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
}

// Row `row` as 64 bits; distinct values give distinct bits within one type.
uint64_t FixedBits(const Column& column, Phys phys, int64_t row) {
  switch (phys) {
    case Phys::kI8: return static_cast<uint64_t>(column.values_as<int8_t>()[row]);
    case Phys::kI16: return static_cast<uint64_t>(column.values_as<int16_t>()[row]);
    case Phys::kI32: return static_cast<uint64_t>(column.values_as<int32_t>()[row]);
    case Phys::kI64: return static_cast<uint64_t>(column.values_as<int64_t>()[row]);
    case Phys::kU8: return column.values_as<uint8_t>()[row];
    case Phys::kU16: return column.values_as<uint16_t>()[row];
    case Phys::kU32: return column.values_as<uint32_t>()[row];
    case Phys::kU64: return column.values_as<uint64_t>()[row];
    case Phys::kF32: return DoubleBits(column.values_as<float>()[row]);
    case Phys::kF64: return DoubleBits(column.values_as<double>()[row]);
    default: return 0;
  }
}

// Inline (it runs once per probed row): the value and the group mixed by one 64-bit
// finalizer, whose low bits pick the slot.
inline uint64_t PairHash(uint64_t value, uint32_t group) {
  uint64_t x = value ^ ((static_cast<uint64_t>(group) + 1) * 0x9e3779b97f4a7c15ULL);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

DistinctSet::DistinctSet(const DataType& value_type)
    : fixed_mode_(IsFixedPhys(expr::PhysOf(value_type))) {
  if (fixed_mode_) slots_.assign(1024, Slot{0, kEmptySlot});
}

void DistinctSet::Clear() {
  size_ = 0;
  std::fill(slots_.begin(), slots_.end(), Slot{0, kEmptySlot});
  pairs_.clear();
  pair_bytes_ = 0;
}

void DistinctSet::Grow() { Rehash(slots_.size() * 2); }

void DistinctSet::Rehash(size_t capacity) {
  std::vector<Slot> old_slots = std::move(slots_);
  slots_.assign(capacity, Slot{0, kEmptySlot});
  for (const Slot& old : old_slots) {
    if (old.group == kEmptySlot) continue;
    size_t slot = PairHash(old.value, old.group) & (capacity - 1);
    while (slots_[slot].group != kEmptySlot) slot = (slot + 1) & (capacity - 1);
    slots_[slot] = old;
  }
}

inline bool DistinctSet::InsertFixed(uint64_t value, uint32_t group) {
  const size_t mask = slots_.size() - 1;
  size_t slot = PairHash(value, group) & mask;
  while (slots_[slot].group != kEmptySlot) {
    if (slots_[slot].group == group && slots_[slot].value == value) return false;
    slot = (slot + 1) & mask;
  }
  slots_[slot] = Slot{value, group};
  ++size_;
  if (static_cast<size_t>(size_) * 2 > slots_.size()) Grow();
  return true;
}

template <typename Bits>
void DistinctSet::InsertFixedRows(const Column& values, const uint32_t* group_ids, int64_t rows,
                                  const uint8_t* candidates, uint8_t* keep, Bits bits) {
  const uint8_t* valid = values.validity ? values.validity->data() : nullptr;
  // A row repeating the previous candidate's (group, value) is not new: sorted or clustered
  // inputs skip most probes.
  bool have_last = false;
  uint64_t last_value = 0;
  uint32_t last_group = 0;
  for (int64_t row = 0; row < rows; ++row) {
    if ((candidates != nullptr && !GetBit(candidates, row)) ||
        (valid != nullptr && !GetBit(valid, row))) {
      continue;
    }
    const uint64_t value = bits(row);
    const uint32_t group = group_ids[row];
    if (have_last && value == last_value && group == last_group) continue;
    have_last = true;
    last_value = value;
    last_group = group;
    if (InsertFixed(value, group) && keep != nullptr) SetBit(keep, row);
  }
}

void DistinctSet::InsertNew(const Column& values, const uint32_t* group_ids, int64_t rows,
                            const uint8_t* candidates, uint8_t* keep) {
  Phys phys = expr::PhysOf(values.type);
  if (fixed_mode_) {
    if (candidates != nullptr) {
      // Grow once to what the candidates may need instead of doubling repeatedly on the way.
      const int64_t most = size_ + internal::CountSetBits(candidates, 0, rows);
      size_t capacity = slots_.size();
      while (static_cast<size_t>(most) * 2 > capacity) capacity *= 2;
      if (capacity > slots_.size()) Rehash(capacity);
    }
    auto run = [&](auto bits) { InsertFixedRows(values, group_ids, rows, candidates, keep, bits); };
    switch (phys) {
      case Phys::kI32: {
        const int32_t* v = values.values_as<int32_t>();
        return run([v](int64_t row) { return static_cast<uint64_t>(v[row]); });
      }
      case Phys::kI64: {
        const int64_t* v = values.values_as<int64_t>();
        return run([v](int64_t row) { return static_cast<uint64_t>(v[row]); });
      }
      default:
        return run([&values, phys](int64_t row) { return FixedBits(values, phys, row); });
    }
  }
  std::string pair;
  for (int64_t row = 0; row < rows; ++row) {
    if ((candidates != nullptr && !GetBit(candidates, row)) || values.IsNull(row)) continue;
    pair.assign(reinterpret_cast<const char*>(&group_ids[row]), sizeof(uint32_t));
    GroupTable::AppendKeyBytes(values, row, &pair);
    if (pairs_.insert(pair).second) {
      ++size_;
      pair_bytes_ += static_cast<int64_t>(pair.size());
      if (keep != nullptr) SetBit(keep, row);
    }
  }
}

int64_t DistinctSet::MemoryBytes() const {
  if (fixed_mode_) return static_cast<int64_t>(slots_.size() * sizeof(Slot));
  return pair_bytes_ + size_ * static_cast<int64_t>(sizeof(std::string) + 16);
}

namespace {

// Integer values as 64 bits: sign- or zero-extended, so equal values give equal bits.
template <typename Fn>
void ForEachIntegerBits(const Column& column, const uint8_t* candidates, Fn&& fn) {
  const uint8_t* valid = column.validity ? column.validity->data() : nullptr;
  auto run = [&](const auto* values) {
    if (candidates == nullptr && valid == nullptr) {
      for (int64_t row = 0; row < column.length; ++row) fn(static_cast<uint64_t>(values[row]));
      return;
    }
    for (int64_t row = 0; row < column.length; ++row) {
      if ((candidates == nullptr || GetBit(candidates, row)) &&
          (valid == nullptr || GetBit(valid, row))) {
        fn(static_cast<uint64_t>(values[row]));
      }
    }
  };
  if (IntegerValueSet::Holds(column.type)) {
    expr::WithTypedValues(column, expr::PhysOf(column.type), run);
  }
}

inline uint64_t ValueHash(uint64_t value) { return PairHash(value, 0); }

}  // namespace

bool IntegerValueSet::Holds(const DataType& value_type) {
  switch (expr::PhysOf(value_type)) {
    case Phys::kI8: case Phys::kI16: case Phys::kI32: case Phys::kI64:
    case Phys::kU8: case Phys::kU16: case Phys::kU32: case Phys::kU64:
      return true;
    default:
      return false;
  }
}

IntegerValueSet::IntegerValueSet(const DataType& value_type)
    : value_type_(value_type), partitions_(kPartitions) {}

void IntegerValueSet::Insert(const Column& values, const uint8_t* candidates) {
  // While the tables together fit in the cache, values go straight into them; past that,
  // through the partitions' lists.
  const bool direct = size() < kDirectValues;
  // A value repeating the previous one is not new: sorted or clustered inputs skip most.
  bool have_last = false;
  uint64_t last = 0;
  ForEachIntegerBits(values, candidates, [&](uint64_t value) {
    if (have_last && value == last) return;
    have_last = true;
    last = value;
    if (value == kMarker) {
      has_marker_ = true;
      return;
    }
    const uint64_t hash = ValueHash(value);
    Partition& partition = partitions_[hash >> (64 - kPartitionBits)];
    if (direct) {
      Reserve(partition, 1);
      InsertValue(partition, value, hash);
    } else {
      partition.pending.push_back(value);
    }
  });
  if (!direct) {
    for (Partition& partition : partitions_) InsertPending(partition);
  }
}

void IntegerValueSet::Reserve(Partition& partition, size_t more) {
  size_t capacity = std::max<size_t>(partition.slots.size(), 16);
  while ((static_cast<size_t>(partition.size) + more) * 2 > capacity) capacity *= 2;
  if (capacity == partition.slots.size()) return;
  std::vector<uint64_t> old = std::move(partition.slots);
  partition.slots.assign(capacity, kMarker);
  partition.size = 0;
  for (uint64_t value : old) {
    if (value != kMarker) InsertValue(partition, value, ValueHash(value));
  }
}

void IntegerValueSet::InsertPending(Partition& partition) {
  if (partition.pending.empty()) return;
  Reserve(partition, partition.pending.size());  // at most one resize per batch
  for (uint64_t value : partition.pending) InsertValue(partition, value, ValueHash(value));
  partition.pending.clear();
}

inline void IntegerValueSet::InsertValue(Partition& partition, uint64_t value, uint64_t hash) {
  const size_t mask = partition.slots.size() - 1;
  size_t slot = hash & mask;
  while (partition.slots[slot] != kMarker) {
    if (partition.slots[slot] == value) return;
    slot = (slot + 1) & mask;
  }
  partition.slots[slot] = value;
  ++partition.size;
}

void IntegerValueSet::Merge(const IntegerValueSet& other) {
  for (size_t p = 0; p < kPartitions; ++p) MergePartition(other, p);
}

void IntegerValueSet::MergePartition(const IntegerValueSet& other, size_t p) {
  if (p == 0) has_marker_ = has_marker_ || other.has_marker_;
  Partition& partition = partitions_[p];
  const Partition& from = other.partitions_[p];
  Reserve(partition, static_cast<size_t>(from.size));
  for (uint64_t value : from.slots) {
    if (value != kMarker) InsertValue(partition, value, ValueHash(value));
  }
}

int64_t IntegerValueSet::size() const {
  int64_t total = has_marker_ ? 1 : 0;
  for (const Partition& partition : partitions_) total += partition.size;
  return total;
}

int64_t IntegerValueSet::MemoryBytes() const {
  int64_t bytes = 0;
  for (const Partition& partition : partitions_) {
    bytes += static_cast<int64_t>((partition.slots.size() + partition.pending.capacity()) *
                                  sizeof(uint64_t));
  }
  return bytes;
}

std::shared_ptr<Column> IntegerValueSet::Values() const {
  const int64_t width = value_type_.FixedWidth();
  const int64_t count = size();
  auto column = std::make_shared<Column>();
  column->type = value_type_;
  column->length = count;
  column->values = Buffer::AllocateUninitialized(count * width);
  uint8_t* out = column->values->mutable_data();
  // The low bytes of the sign- or zero-extended value are the value (little-endian).
  auto copy = [&](auto tag) {
    using T = decltype(tag);
    T* typed = reinterpret_cast<T*>(out);
    if (has_marker_) *typed++ = static_cast<T>(kMarker);
    for (const Partition& partition : partitions_) {
      for (uint64_t value : partition.slots) {
        if (value != kMarker) *typed++ = static_cast<T>(value);
      }
    }
  };
  switch (width) {
    case 1: copy(uint8_t{}); break;
    case 2: copy(uint16_t{}); break;
    case 4: copy(uint32_t{}); break;
    default: copy(uint64_t{}); break;
  }
  return column;
}

}  // namespace tarn::sql
