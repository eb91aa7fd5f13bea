#include "layout/column_keys.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "expr/eval/cast.h"
#include "expr/eval/kernels.h"

namespace tarn::layout {
namespace {

using expr::Phys;

uint64_t HashBytes(const void* data, size_t size) { return XXH3_64bits(data, size); }

template <typename T>
uint64_t HashFloat(T value) {
  double canonical = static_cast<double>(value);
  if (std::isnan(canonical)) return 0x7ff8dead7ff8deadULL;
  if (canonical == 0) canonical = 0;  // -0.0 groups with 0.0
  return HashBytes(&canonical, sizeof(canonical));
}

template <typename T>
int Three(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareFloat(double a, double b) {
  if (expr::FloatEqual(a, b)) return 0;
  return expr::FloatLess(a, b) ? -1 : 1;
}

// Compares two non-null rows of one column in DuckDB's order.
int CompareRows(const Column& c, Phys phys, int64_t a, int64_t b) {
  switch (phys) {
    case Phys::kBool: return Three(c.GetBool(a), c.GetBool(b));
    case Phys::kI8: return Three(c.values_as<int8_t>()[a], c.values_as<int8_t>()[b]);
    case Phys::kI16: return Three(c.values_as<int16_t>()[a], c.values_as<int16_t>()[b]);
    case Phys::kI32: return Three(c.values_as<int32_t>()[a], c.values_as<int32_t>()[b]);
    case Phys::kI64: return Three(c.values_as<int64_t>()[a], c.values_as<int64_t>()[b]);
    case Phys::kU8: return Three(c.values_as<uint8_t>()[a], c.values_as<uint8_t>()[b]);
    case Phys::kU16: return Three(c.values_as<uint16_t>()[a], c.values_as<uint16_t>()[b]);
    case Phys::kU32: return Three(c.values_as<uint32_t>()[a], c.values_as<uint32_t>()[b]);
    case Phys::kU64: return Three(c.values_as<uint64_t>()[a], c.values_as<uint64_t>()[b]);
    case Phys::kI128: {
      __int128 x, y;
      std::memcpy(&x, c.values->data() + a * 16, 16);
      std::memcpy(&y, c.values->data() + b * 16, 16);
      return Three(x, y);
    }
    case Phys::kF32: return CompareFloat(c.values_as<float>()[a], c.values_as<float>()[b]);
    case Phys::kF64: return CompareFloat(c.values_as<double>()[a], c.values_as<double>()[b]);
    case Phys::kBytes: {
      const int r = c.GetView(a).compare(c.GetView(b));
      return r < 0 ? -1 : (r > 0 ? 1 : 0);
    }
    default: return expr::CompareValues(c.GetValue(a), c.GetValue(b));
  }
}

}  // namespace

void HashColumn(const Column& column, std::span<uint64_t> out) {
  const Phys phys = expr::PhysOf(column.type);
  const int64_t rows = column.length;
  const int width = column.type.FixedWidth();
  for (int64_t row = 0; row < rows; ++row) {
    if (column.IsNull(row)) {
      out[row] = kNullHash;
      continue;
    }
    switch (phys) {
      case Phys::kBool: out[row] = column.GetBool(row) ? 0x1234567ULL : 0x7654321ULL; break;
      case Phys::kF32: out[row] = HashFloat(column.values_as<float>()[row]); break;
      case Phys::kF64: out[row] = HashFloat(column.values_as<double>()[row]); break;
      case Phys::kBytes: {
        const std::string_view view = column.GetView(row);
        out[row] = HashBytes(view.data(), view.size());
        break;
      }
      default:
        if (width > 0 && !column.type.IsNested() && !column.type.IsVarLength()) {
          out[row] = HashBytes(column.values->data() + row * width, static_cast<size_t>(width));
        } else if (column.type.IsVarLength()) {
          const std::string_view view = column.GetView(row);
          out[row] = HashBytes(view.data(), view.size());
        } else {
          const std::string text = column.GetValue(row).ToString();  // nested: rare, slow
          out[row] = HashBytes(text.data(), text.size());
        }
    }
  }
}

int64_t RankColumn(const Column& column, std::vector<uint32_t>* ranks) {
  const Phys phys = expr::PhysOf(column.type);
  const int64_t rows = column.length;
  std::vector<int64_t> order;
  order.reserve(static_cast<size_t>(rows - column.null_count));
  for (int64_t row = 0; row < rows; ++row) {
    if (!column.IsNull(row)) order.push_back(row);
  }
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return CompareRows(column, phys, a, b) < 0;
  });
  ranks->assign(static_cast<size_t>(rows), 0);
  uint32_t rank = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && CompareRows(column, phys, order[i - 1], order[i]) != 0) ++rank;
    (*ranks)[static_cast<size_t>(order[i])] = rank;
  }
  const uint32_t distinct = order.empty() ? 0 : rank + 1;
  for (int64_t row = 0; row < rows; ++row) {
    if (column.IsNull(row)) (*ranks)[static_cast<size_t>(row)] = distinct;
  }
  return distinct;
}

}  // namespace tarn::layout
