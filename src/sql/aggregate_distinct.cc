#include "sql/aggregate_distinct.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "expr/kernels.h"
#include "sql/group_table.h"

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

uint64_t PairHash(uint64_t value, uint32_t group) {
  return HashInteger(value ^ HashInteger(static_cast<uint64_t>(group) + 0x9e3779b97f4a7c15ULL));
}

}  // namespace

DistinctSet::DistinctSet(const DataType& value_type)
    : fixed_mode_(IsFixedPhys(expr::PhysOf(value_type))) {
  if (fixed_mode_) {
    slot_values_.assign(1024, 0);
    slot_groups_.assign(1024, kEmptySlot);
  }
}

void DistinctSet::Grow() {
  std::vector<uint64_t> old_values = std::move(slot_values_);
  std::vector<uint32_t> old_groups = std::move(slot_groups_);
  size_t capacity = old_groups.size() * 2;
  slot_values_.assign(capacity, 0);
  slot_groups_.assign(capacity, kEmptySlot);
  for (size_t i = 0; i < old_groups.size(); ++i) {
    if (old_groups[i] == kEmptySlot) continue;
    size_t slot = PairHash(old_values[i], old_groups[i]) & (capacity - 1);
    while (slot_groups_[slot] != kEmptySlot) slot = (slot + 1) & (capacity - 1);
    slot_values_[slot] = old_values[i];
    slot_groups_[slot] = old_groups[i];
  }
}

bool DistinctSet::InsertFixed(uint64_t value, uint32_t group) {
  size_t mask = slot_groups_.size() - 1;
  size_t slot = PairHash(value, group) & mask;
  while (slot_groups_[slot] != kEmptySlot) {
    if (slot_groups_[slot] == group && slot_values_[slot] == value) return false;
    slot = (slot + 1) & mask;
  }
  slot_values_[slot] = value;
  slot_groups_[slot] = group;
  ++size_;
  if (static_cast<size_t>(size_) * 2 > slot_groups_.size()) Grow();
  return true;
}

void DistinctSet::InsertNew(const Column& values, const uint32_t* group_ids, int64_t rows,
                            const uint8_t* candidates, uint8_t* keep) {
  Phys phys = expr::PhysOf(values.type);
  std::string pair;
  for (int64_t row = 0; row < rows; ++row) {
    if ((candidates != nullptr && !GetBit(candidates, row)) || values.IsNull(row)) continue;
    bool inserted;
    if (fixed_mode_) {
      inserted = InsertFixed(FixedBits(values, phys, row), group_ids[row]);
    } else {
      pair.assign(reinterpret_cast<const char*>(&group_ids[row]), sizeof(uint32_t));
      GroupTable::AppendKeyBytes(values, row, &pair);
      inserted = pairs_.insert(pair).second;
      if (inserted) {
        ++size_;
        pair_bytes_ += static_cast<int64_t>(pair.size());
      }
    }
    if (inserted) SetBit(keep, row);
  }
}

int64_t DistinctSet::MemoryBytes() const {
  if (fixed_mode_) return static_cast<int64_t>(slot_groups_.size()) * 12;
  return pair_bytes_ + size_ * static_cast<int64_t>(sizeof(std::string) + 16);
}

}  // namespace tarn::sql
