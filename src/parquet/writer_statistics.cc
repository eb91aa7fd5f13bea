#include "parquet/writer_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tarn::parquet {

namespace {

template <typename T>
std::string EncodeFixed(T value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <typename T>
T DecodeFixed(std::string_view bytes) {
  T value{};
  std::memcpy(&value, bytes.data(), std::min(bytes.size(), sizeof(T)));
  return value;
}

int CompareBytes(std::string_view a, std::string_view b) {
  size_t common = std::min(a.size(), b.size());
  int cmp = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
  if (cmp != 0) return cmp;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Big-endian two's complement of equal width: the sign byte compares signed, the rest
// unsigned.
int CompareSignedBigEndian(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty() || a.size() != b.size()) return CompareBytes(a, b);
  int8_t sign_a = static_cast<int8_t>(a[0]);
  int8_t sign_b = static_cast<int8_t>(b[0]);
  if (sign_a != sign_b) return sign_a < sign_b ? -1 : 1;
  return CompareBytes(a.substr(1), b.substr(1));
}

template <typename T>
int CompareNumbers(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Folds an encoded candidate range [lo, hi] into stats.
void FoldEncoded(const WriterLeaf& leaf, std::string lo, std::string hi, ChunkStatistics* stats) {
  if (!stats->has_min_max) {
    stats->min = std::move(lo);
    stats->max = std::move(hi);
    stats->has_min_max = true;
    return;
  }
  if (CompareEncoded(leaf, lo, stats->min) < 0) stats->min = std::move(lo);
  if (CompareEncoded(leaf, hi, stats->max) > 0) stats->max = std::move(hi);
}

template <typename T, typename U>
void IntegerMinMax(const WriterLeaf& leaf, const T* values, int64_t count,
                   ChunkStatistics* stats) {
  if (count == 0 || leaf.sort_order == SortOrder::kNone) return;
  U lo = static_cast<U>(values[0]);
  U hi = lo;
  for (int64_t value_idx = 1; value_idx < count; ++value_idx) {
    U value = static_cast<U>(values[value_idx]);
    lo = value < lo ? value : lo;
    hi = value > hi ? value : hi;
  }
  FoldEncoded(leaf, EncodeFixed(static_cast<T>(lo)), EncodeFixed(static_cast<T>(hi)), stats);
}

template <typename T>
void FloatMinMax(const WriterLeaf& leaf, const T* values, int64_t count, ChunkStatistics* stats) {
  bool found = false;
  T lo = 0;
  T hi = 0;
  int64_t nans = 0;
  for (int64_t value_idx = 0; value_idx < count; ++value_idx) {
    T value = values[value_idx];
    if (std::isnan(value)) {
      ++nans;
      continue;
    }
    if (!found) {
      lo = hi = value;
      found = true;
      continue;
    }
    lo = value < lo ? value : lo;
    hi = value > hi ? value : hi;
  }
  stats->nan_count += nans;
  if (!found || leaf.sort_order == SortOrder::kNone) return;
  if (lo == 0) lo = -static_cast<T>(0);
  if (hi == 0) hi = static_cast<T>(0);
  FoldEncoded(leaf, EncodeFixed(lo), EncodeFixed(hi), stats);
}

}  // namespace

void UpdateMinMax(const WriterLeaf& leaf, const uint8_t* values, int64_t count,
                  ChunkStatistics* stats) {
  IntegerMinMax<uint8_t, uint8_t>(leaf, values, count, stats);
}

void UpdateMinMax(const WriterLeaf& leaf, const int32_t* values, int64_t count,
                  ChunkStatistics* stats) {
  if (leaf.sort_order == SortOrder::kUnsigned) {
    IntegerMinMax<int32_t, uint32_t>(leaf, values, count, stats);
  } else {
    IntegerMinMax<int32_t, int32_t>(leaf, values, count, stats);
  }
}

void UpdateMinMax(const WriterLeaf& leaf, const int64_t* values, int64_t count,
                  ChunkStatistics* stats) {
  if (leaf.sort_order == SortOrder::kUnsigned) {
    IntegerMinMax<int64_t, uint64_t>(leaf, values, count, stats);
  } else {
    IntegerMinMax<int64_t, int64_t>(leaf, values, count, stats);
  }
}

void UpdateMinMax(const WriterLeaf& leaf, const float* values, int64_t count,
                  ChunkStatistics* stats) {
  FloatMinMax(leaf, values, count, stats);
}

void UpdateMinMax(const WriterLeaf& leaf, const double* values, int64_t count,
                  ChunkStatistics* stats) {
  FloatMinMax(leaf, values, count, stats);
}

void UpdateMinMax(const WriterLeaf& leaf, const std::string_view* values, int64_t count,
                  ChunkStatistics* stats) {
  if (count == 0 || leaf.sort_order == SortOrder::kNone) return;
  std::string_view lo = values[0];
  std::string_view hi = values[0];
  if (leaf.sort_order == SortOrder::kSignedDecimal) {
    for (int64_t value_idx = 1; value_idx < count; ++value_idx) {
      if (CompareSignedBigEndian(values[value_idx], lo) < 0) lo = values[value_idx];
      if (CompareSignedBigEndian(values[value_idx], hi) > 0) hi = values[value_idx];
    }
  } else {
    for (int64_t value_idx = 1; value_idx < count; ++value_idx) {
      if (CompareBytes(values[value_idx], lo) < 0) lo = values[value_idx];
      if (CompareBytes(values[value_idx], hi) > 0) hi = values[value_idx];
    }
  }
  FoldEncoded(leaf, std::string(lo), std::string(hi), stats);
}

void UpdateByteArrayBounds(const WriterLeaf& leaf, const std::string_view* values, int64_t count,
                           int64_t max_length, ChunkStatistics* stats) {
  const bool is_string = leaf.type.id == TypeId::kVarchar || leaf.type.id == TypeId::kJson;
  if (leaf.physical != PhysicalType::kByteArray || leaf.sort_order != SortOrder::kBytes ||
      (!is_string && leaf.type.id != TypeId::kBlob)) {
    UpdateMinMax(leaf, values, count, stats);
    return;
  }
  const size_t limit = static_cast<size_t>(max_length);
  const uint8_t increment_below = is_string ? 0x7F : 0xFF;
  for (int64_t value_idx = 0; value_idx < count && !stats->bounds_lost; ++value_idx) {
    const std::string_view value = values[value_idx];
    if (!stats->has_min_max || CompareBytes(value, stats->min) < 0) {
      size_t cut = std::min(limit, value.size());
      if (is_string && cut < value.size()) {
        while (cut > 0 && (static_cast<uint8_t>(value[cut]) & 0xC0) == 0x80) --cut;
      }
      stats->min.assign(value.substr(0, cut));
      stats->min_exact = cut == value.size();
    }
    if (!stats->has_min_max || CompareBytes(value, stats->max) > 0) {
      if (value.size() <= limit) {
        stats->max.assign(value);
        stats->max_exact = true;
      } else {
        size_t end = limit;
        while (end > 0 && static_cast<uint8_t>(value[end - 1]) >= increment_below) --end;
        if (end == 0) {
          stats->bounds_lost = true;
          stats->has_min_max = false;
          stats->min.clear();
          stats->max.clear();
          return;
        }
        stats->max.assign(value.substr(0, end));
        stats->max.back() = static_cast<char>(static_cast<uint8_t>(stats->max.back()) + 1);
        stats->max_exact = false;
      }
    }
    stats->has_min_max = true;
  }
}

void TruncateMinMax(const WriterLeaf& leaf, int64_t max_length, ChunkStatistics* stats) {
  if (!stats->has_min_max || leaf.physical != PhysicalType::kByteArray) return;
  size_t limit = static_cast<size_t>(max_length);
  bool is_string = leaf.type.id == TypeId::kVarchar || leaf.type.id == TypeId::kJson;
  // Strings are cut at a UTF-8 character boundary so the bound stays readable text.
  auto cut_point = [&](const std::string& value) {
    size_t cut = limit;
    if (is_string) {
      while (cut > 0 && (static_cast<uint8_t>(value[cut]) & 0xC0) == 0x80) --cut;
    }
    return cut;
  };
  if (stats->min.size() > limit) {
    stats->min.resize(cut_point(stats->min));
    stats->min_exact = false;
  }
  if (stats->max.size() > limit) {
    std::string max = stats->max.substr(0, cut_point(stats->max));
    while (!max.empty() && static_cast<uint8_t>(max.back()) == 0xFF) max.pop_back();
    if (max.empty()) {
      stats->has_min_max = false;
      stats->min.clear();
      stats->max.clear();
      return;
    }
    max.back() = static_cast<char>(static_cast<uint8_t>(max.back()) + 1);
    stats->max = std::move(max);
    stats->max_exact = false;
  }
}

int CompareEncoded(const WriterLeaf& leaf, std::string_view a, std::string_view b) {
  switch (leaf.physical) {
    case PhysicalType::kBoolean:
      return CompareNumbers(DecodeFixed<uint8_t>(a), DecodeFixed<uint8_t>(b));
    case PhysicalType::kInt32:
      if (leaf.sort_order == SortOrder::kUnsigned) {
        return CompareNumbers(DecodeFixed<uint32_t>(a), DecodeFixed<uint32_t>(b));
      }
      return CompareNumbers(DecodeFixed<int32_t>(a), DecodeFixed<int32_t>(b));
    case PhysicalType::kInt64:
      if (leaf.sort_order == SortOrder::kUnsigned) {
        return CompareNumbers(DecodeFixed<uint64_t>(a), DecodeFixed<uint64_t>(b));
      }
      return CompareNumbers(DecodeFixed<int64_t>(a), DecodeFixed<int64_t>(b));
    case PhysicalType::kFloat: {
      float x = DecodeFixed<float>(a);
      float y = DecodeFixed<float>(b);
      if (x == y) return std::signbit(x) == std::signbit(y) ? 0 : (std::signbit(x) ? -1 : 1);
      return CompareNumbers(x, y);
    }
    case PhysicalType::kDouble: {
      double x = DecodeFixed<double>(a);
      double y = DecodeFixed<double>(b);
      if (x == y) return std::signbit(x) == std::signbit(y) ? 0 : (std::signbit(x) ? -1 : 1);
      return CompareNumbers(x, y);
    }
    default:
      if (leaf.sort_order == SortOrder::kSignedDecimal) return CompareSignedBigEndian(a, b);
      return CompareBytes(a, b);
  }
}

void UpdateGeometry(const std::string_view* values, int64_t count, ChunkStatistics* stats) {
  geometry::GeometryStats folded;
  for (int64_t i = 0; i < count; ++i) {
    if (!folded.Add(values[i]).ok()) return;
  }
  stats->geometry = std::move(folded);
}

GeospatialStatistics ToGeospatialStatistics(const geometry::GeometryStats& stats) {
  using G = geometry::GeometryStats;
  GeospatialStatistics out;
  out.geospatial_types = stats.TypeCodes();
  if (stats.min[G::kX] <= stats.max[G::kX] && stats.min[G::kY] <= stats.max[G::kY]) {
    BoundingBox box;
    box.xmin = stats.min[G::kX];
    box.xmax = stats.max[G::kX];
    box.ymin = stats.min[G::kY];
    box.ymax = stats.max[G::kY];
    if (stats.min[G::kZ] <= stats.max[G::kZ]) {
      box.zmin = stats.min[G::kZ];
      box.zmax = stats.max[G::kZ];
    }
    if (stats.min[G::kM] <= stats.max[G::kM]) {
      box.mmin = stats.min[G::kM];
      box.mmax = stats.max[G::kM];
    }
    out.bbox = box;
  }
  return out;
}

void MergeStatistics(const WriterLeaf& leaf, const ChunkStatistics& chunk, bool first,
                     ChunkStatistics* file) {
  if (first) {
    *file = chunk;
    return;
  }
  if (file->geometry && chunk.geometry) {
    file->geometry->Merge(*chunk.geometry);
  } else {
    file->geometry.reset();
  }
  file->null_count += chunk.null_count;
  file->nan_count += chunk.nan_count;
  file->num_levels += chunk.num_levels;
  if (chunk.bounds_lost || file->bounds_lost) {
    file->bounds_lost = true;
    file->has_min_max = false;
    file->min.clear();
    file->max.clear();
    return;
  }
  if (!chunk.has_min_max) return;
  if (!file->has_min_max) {
    file->has_min_max = true;
    file->min = chunk.min;
    file->max = chunk.max;
    file->min_exact = chunk.min_exact;
    file->max_exact = chunk.max_exact;
    return;
  }
  int min_cmp = CompareEncoded(leaf, chunk.min, file->min);
  if (min_cmp < 0 || (min_cmp == 0 && !chunk.min_exact)) {
    file->min = chunk.min;
    file->min_exact = chunk.min_exact;
  }
  int max_cmp = CompareEncoded(leaf, chunk.max, file->max);
  if (max_cmp > 0 || (max_cmp == 0 && !chunk.max_exact)) {
    file->max = chunk.max;
    file->max_exact = chunk.max_exact;
  }
}

Statistics ToThriftStatistics(const WriterLeaf& leaf, const ChunkStatistics& stats) {
  Statistics out;
  out.null_count = stats.null_count;
  if (stats.has_min_max) {
    out.min_value = stats.min;
    out.max_value = stats.max;
    out.is_min_value_exact = stats.min_exact;
    out.is_max_value_exact = stats.max_exact;
    // The deprecated fields are signed-order only; older readers still look at them.
    if (leaf.sort_order == SortOrder::kSigned || leaf.sort_order == SortOrder::kSignedDecimal) {
      out.min = stats.min;
      out.max = stats.max;
    }
  }
  return out;
}

std::optional<Value> DecodeStatisticsValue(const WriterLeaf& leaf, std::string_view encoded) {
  const DataType& type = leaf.type;
  switch (type.id) {
    case TypeId::kBoolean:
      return Value::Boolean(DecodeFixed<uint8_t>(encoded) != 0);
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kDate:
      return Value::Int(type, DecodeFixed<int32_t>(encoded));
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
      return Value::UInt(type, DecodeFixed<uint32_t>(encoded));
    case TypeId::kUInt64:
      return Value::UInt(type, DecodeFixed<uint64_t>(encoded));
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimeNs:
    case TypeId::kTimestamp:
    case TypeId::kTimestampMs:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTz:
      return Value::Int(type, DecodeFixed<int64_t>(encoded));
    case TypeId::kTimestampS:
      return Value::Int(type, DecodeFixed<int64_t>(encoded) / 1000000);
    case TypeId::kFloat32:
      return Value::Double(type, DecodeFixed<float>(encoded));
    case TypeId::kFloat64:
      return Value::Double(type, DecodeFixed<double>(encoded));
    case TypeId::kDecimal: {
      if (leaf.physical == PhysicalType::kInt32) {
        return Value::Int128(type, DecodeFixed<int32_t>(encoded));
      }
      if (leaf.physical == PhysicalType::kInt64) {
        return Value::Int128(type, DecodeFixed<int64_t>(encoded));
      }
      if (encoded.size() != 16) return std::nullopt;
      unsigned __int128 bits = 0;
      for (char byte : encoded) bits = (bits << 8) | static_cast<uint8_t>(byte);
      return Value::Int128(type, static_cast<__int128>(bits));
    }
    case TypeId::kVarchar:
    case TypeId::kJson:
    case TypeId::kBlob:
    case TypeId::kUuid:
      return Value::Bytes(type, std::string(encoded));
    default:
      return std::nullopt;
  }
}

}  // namespace tarn::parquet
