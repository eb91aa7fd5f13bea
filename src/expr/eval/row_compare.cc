#include "expr/eval/row_compare.h"

#include <cstring>

#include "expr/eval/cast.h"

namespace tarn::expr {
namespace {

template <typename T>
int Three(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareFloat(double a, double b) {
  if (FloatEqual(a, b)) return 0;
  return FloatLess(a, b) ? -1 : 1;
}

}  // namespace

int RowComparator::Key::CompareValues(int64_t a, const Column& d, int64_t b) const {
  const Column& c = *column;
  switch (phys) {
    case Phys::kBool: return Three(c.GetBool(a), d.GetBool(b));
    case Phys::kI8: return Three(c.values_as<int8_t>()[a], d.values_as<int8_t>()[b]);
    case Phys::kI16: return Three(c.values_as<int16_t>()[a], d.values_as<int16_t>()[b]);
    case Phys::kI32: return Three(c.values_as<int32_t>()[a], d.values_as<int32_t>()[b]);
    case Phys::kI64: return Three(c.values_as<int64_t>()[a], d.values_as<int64_t>()[b]);
    case Phys::kU8: return Three(c.values_as<uint8_t>()[a], d.values_as<uint8_t>()[b]);
    case Phys::kU16: return Three(c.values_as<uint16_t>()[a], d.values_as<uint16_t>()[b]);
    case Phys::kU32: return Three(c.values_as<uint32_t>()[a], d.values_as<uint32_t>()[b]);
    case Phys::kU64: return Three(c.values_as<uint64_t>()[a], d.values_as<uint64_t>()[b]);
    case Phys::kI128: {
      __int128 x, y;
      std::memcpy(&x, c.values->data() + a * 16, 16);
      std::memcpy(&y, d.values->data() + b * 16, 16);
      return Three(x, y);
    }
    case Phys::kF32: return CompareFloat(c.values_as<float>()[a], d.values_as<float>()[b]);
    case Phys::kF64: return CompareFloat(c.values_as<double>()[a], d.values_as<double>()[b]);
    case Phys::kBytes: {
      const int r = c.GetView(a).compare(d.GetView(b));
      return r < 0 ? -1 : (r > 0 ? 1 : 0);
    }
    default: return expr::CompareValues(c.GetValue(a), d.GetValue(b));
  }
}

RowComparator::RowComparator(const std::vector<OrderColumn>& keys) {
  for (const OrderColumn& key : keys) {
    keys_.push_back(Key{key.column, PhysOf(key.column->type), key.descending, key.nulls_first});
  }
}

int RowComparator::CompareKey(const Key& key, int64_t a, const Key& other, int64_t b) {
  const bool a_null = key.column->IsNull(a);
  const bool b_null = other.column->IsNull(b);
  if (a_null || b_null) {
    if (a_null && b_null) return 0;
    return (a_null == key.nulls_first) ? -1 : 1;
  }
  const int c = key.CompareValues(a, *other.column, b);
  return key.descending ? -c : c;
}

int RowComparator::Compare(int64_t a, int64_t b) const {
  for (const Key& key : keys_) {
    const int c = CompareKey(key, a, key, b);
    if (c != 0) return c;
  }
  return 0;
}

int RowComparator::Compare(int64_t a, const RowComparator& other, int64_t b) const {
  for (size_t k = 0; k < keys_.size(); ++k) {
    const int c = CompareKey(keys_[k], a, other.keys_[k], b);
    if (c != 0) return c;
  }
  return 0;
}

}  // namespace tarn::expr
