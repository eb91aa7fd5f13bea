// The variant byte codec (Parquet Variant binary encoding, with tarn's in-memory extensions),
// conversion from other values, and the names variant_typeof reports.
#include "columnar/variant.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace tarn::variant {
namespace {

// Basic types (low two bits of a value's header byte).
constexpr uint8_t kPrimitive = 0, kShortString = 1, kObject = 2, kArray = 3;

// Parquet primitive ids.
enum Prim : uint8_t {
  kNullId = 0, kTrue = 1, kFalse = 2, kI8 = 3, kI16 = 4, kI32 = 5, kI64 = 6, kDouble = 7,
  kDec4 = 8, kDec8 = 9, kDec16 = 10, kDate = 11, kTsTz = 12, kTsNtz = 13, kFloat = 14,
  kBinary = 15, kString = 16, kTimeNtz = 17, kTsNanosTz = 18, kTsNanosNtz = 19, kUuid = 20,
  // In memory only: DuckDB types Parquet's variant has no primitive for.
  kExtU8 = 40, kExtU16 = 41, kExtU32 = 42, kExtU64 = 43, kExtI128 = 44, kExtU128 = 45,
  kExtDecimal = 46,  // precision byte, scale byte, 16-byte unscaled
  kExtTsS = 47, kExtTsMs = 48, kExtTimeNs = 49,
  kExtInterval = 50,  // i32 months, i32 days, i64 nanos
  kExtTimeTz = 51,
};

constexpr int kMaxDepth = 128;  // nesting deeper than this is refused, not recursed into

void PutLE(uint64_t v, int width, std::string* out) {
  for (int i = 0; i < width; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

template <typename T>
void PutRaw(T v, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  out->append(bytes, sizeof(T));
}

int WidthFor(uint64_t max_value) {
  if (max_value <= 0xFF) return 1;
  if (max_value <= 0xFFFF) return 2;
  if (max_value <= 0xFFFFFF) return 3;
  return 4;
}

// Builds the value bytes of a node; names are looked up in `dictionary`.
class Encoder {
 public:
  Encoder(Flavor flavor, const std::map<std::string, uint32_t>* dictionary)
      : flavor_(flavor), dictionary_(dictionary) {}

  Status Write(const VariantNode& node, int depth, std::string* out) {
    if (depth > kMaxDepth) return Status::InvalidArgument("variant nested too deeply");
    switch (node.kind) {
      case VariantNode::Kind::kPrimitive: return WritePrimitive(node.scalar, out);
      case VariantNode::Kind::kArray: {
        std::vector<std::string> parts(node.children.size());
        uint64_t total = 0;
        for (size_t i = 0; i < node.children.size(); ++i) {
          TARN_RETURN_NOT_OK(Write(node.children[i], depth + 1, &parts[i]));
          total += parts[i].size();
        }
        const int offset_width = WidthFor(total);
        const bool large = parts.size() > 0xFF;
        out->push_back(static_cast<char>(
            kArray | (((offset_width - 1) | (large ? 4 : 0)) << 2)));
        PutLE(parts.size(), large ? 4 : 1, out);
        uint64_t offset = 0;
        PutLE(0, offset_width, out);
        for (const std::string& part : parts) {
          offset += part.size();
          PutLE(offset, offset_width, out);
        }
        for (const std::string& part : parts) out->append(part);
        return Status::OK();
      }
      case VariantNode::Kind::kObject: {
        if (node.names.size() != node.children.size()) {
          return Status::InvalidArgument("variant object with ", node.names.size(), " names and ",
                                         node.children.size(), " values");
        }
        std::vector<size_t> order(node.names.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        // Parquet lists the fields in name order; memory keeps them as given.
        if (flavor_ == Flavor::kParquet) {
          std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return node.names[a] < node.names[b];
          });
        }
        std::vector<std::string> parts(order.size());
        std::vector<uint32_t> ids(order.size());
        uint64_t total = 0;
        uint32_t max_id = 0;
        for (size_t i = 0; i < order.size(); ++i) {
          auto it = dictionary_->find(node.names[order[i]]);
          if (it == dictionary_->end()) return Status::Internal("variant field name not in dictionary");
          ids[i] = it->second;
          max_id = std::max(max_id, ids[i]);
          TARN_RETURN_NOT_OK(Write(node.children[order[i]], depth + 1, &parts[i]));
          total += parts[i].size();
        }
        const int offset_width = WidthFor(total);
        const int id_width = WidthFor(max_id);
        const bool large = parts.size() > 0xFF;
        out->push_back(static_cast<char>(
            kObject | (((offset_width - 1) | ((id_width - 1) << 2) | (large ? 16 : 0)) << 2)));
        PutLE(parts.size(), large ? 4 : 1, out);
        for (uint32_t id : ids) PutLE(id, id_width, out);
        uint64_t offset = 0;
        PutLE(0, offset_width, out);
        for (const std::string& part : parts) {
          offset += part.size();
          PutLE(offset, offset_width, out);
        }
        for (const std::string& part : parts) out->append(part);
        return Status::OK();
      }
    }
    return Status::Internal("unknown variant node kind");
  }

 private:
  static void Header(uint8_t id, std::string* out) {
    out->push_back(static_cast<char>(kPrimitive | (id << 2)));
  }

  Status Unsupported(const char* duckdb_name) const {
    return Status::InvalidArgument("Invalid Input Error: Can't convert VARIANT of type '",
                                   duckdb_name, "' to Parquet VARIANT");
  }

  // A wide integer as Parquet holds it: INT64 when it fits, else DECIMAL(38, 0).
  Status WriteWideInteger(__int128 v, bool beyond_int128, const char* name, std::string* out) {
    if (!beyond_int128 && v >= INT64_MIN && v <= INT64_MAX) {
      Header(kI64, out);
      PutRaw(static_cast<int64_t>(v), out);
      return Status::OK();
    }
    static const __int128 kLimit = [] {
      __int128 p = 1;
      for (int i = 0; i < 38; ++i) p *= 10;
      return p;
    }();
    if (beyond_int128 || v >= kLimit || v <= -kLimit) return Unsupported(name);
    Header(kDec16, out);
    out->push_back(0);
    PutRaw(v, out);
    return Status::OK();
  }

  Status WritePrimitive(const Value& v, std::string* out) {
    if (v.is_null()) {
      Header(kNullId, out);
      return Status::OK();
    }
    const bool parquet = flavor_ == Flavor::kParquet;
    const DataType& type = v.type();
    switch (type.id) {
      case TypeId::kBoolean: Header(v.GetBool() ? kTrue : kFalse, out); return Status::OK();
      case TypeId::kInt8: Header(kI8, out); PutRaw(static_cast<int8_t>(v.GetInt64()), out); return Status::OK();
      case TypeId::kInt16: Header(kI16, out); PutRaw(static_cast<int16_t>(v.GetInt64()), out); return Status::OK();
      case TypeId::kInt32: Header(kI32, out); PutRaw(static_cast<int32_t>(v.GetInt64()), out); return Status::OK();
      case TypeId::kInt64: Header(kI64, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kUInt8:
        if (parquet) { Header(kI16, out); PutRaw(static_cast<int16_t>(v.GetUInt64()), out); return Status::OK(); }
        Header(kExtU8, out); PutRaw(static_cast<uint8_t>(v.GetUInt64()), out); return Status::OK();
      case TypeId::kUInt16:
        if (parquet) { Header(kI32, out); PutRaw(static_cast<int32_t>(v.GetUInt64()), out); return Status::OK(); }
        Header(kExtU16, out); PutRaw(static_cast<uint16_t>(v.GetUInt64()), out); return Status::OK();
      case TypeId::kUInt32:
        if (parquet) { Header(kI64, out); PutRaw(static_cast<int64_t>(v.GetUInt64()), out); return Status::OK(); }
        Header(kExtU32, out); PutRaw(static_cast<uint32_t>(v.GetUInt64()), out); return Status::OK();
      case TypeId::kUInt64:
        if (parquet) return WriteWideInteger(static_cast<__int128>(v.GetUInt64()), false, "UINT64", out);
        Header(kExtU64, out); PutRaw(v.GetUInt64(), out); return Status::OK();
      case TypeId::kInt128:
        if (parquet) return WriteWideInteger(v.GetInt128(), false, "INT128", out);
        Header(kExtI128, out); PutRaw(v.GetInt128(), out); return Status::OK();
      case TypeId::kUInt128:
        if (parquet) return WriteWideInteger(v.GetInt128(), v.GetInt128() < 0, "UINT128", out);
        Header(kExtU128, out); PutRaw(v.GetInt128(), out); return Status::OK();
      case TypeId::kFloat32: Header(kFloat, out); PutRaw(static_cast<float>(v.GetDouble()), out); return Status::OK();
      case TypeId::kFloat64: Header(kDouble, out); PutRaw(v.GetDouble(), out); return Status::OK();
      case TypeId::kDecimal: {
        if (!parquet) {
          Header(kExtDecimal, out);
          out->push_back(static_cast<char>(type.precision));
          out->push_back(static_cast<char>(type.scale));
          PutRaw(v.GetInt128(), out);
          return Status::OK();
        }
        if (type.precision <= 9) {
          Header(kDec4, out);
          out->push_back(static_cast<char>(type.scale));
          PutRaw(static_cast<int32_t>(v.GetInt128()), out);
        } else if (type.precision <= 18) {
          Header(kDec8, out);
          out->push_back(static_cast<char>(type.scale));
          PutRaw(static_cast<int64_t>(v.GetInt128()), out);
        } else {
          Header(kDec16, out);
          out->push_back(static_cast<char>(type.scale));
          PutRaw(v.GetInt128(), out);
        }
        return Status::OK();
      }
      case TypeId::kDate: Header(kDate, out); PutRaw(static_cast<int32_t>(v.GetInt64()), out); return Status::OK();
      case TypeId::kTimestampTz: Header(kTsTz, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kTimestamp: Header(kTsNtz, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kTimestampNs: Header(kTsNanosNtz, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kTime: Header(kTimeNtz, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kTimestampS:
        if (parquet) return Unsupported("TIMESTAMP_SEC");
        Header(kExtTsS, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kTimestampMs:
        if (parquet) return Unsupported("TIMESTAMP_MILIS");
        Header(kExtTsMs, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kTimeNs:
        if (parquet) return Unsupported("TIME_NANOS");
        Header(kExtTimeNs, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kTimeTz:
        if (parquet) return Unsupported("TIME_MICROS_TZ");
        Header(kExtTimeTz, out); PutRaw(v.GetInt64(), out); return Status::OK();
      case TypeId::kInterval: {
        if (parquet) return Unsupported("INTERVAL");
        Header(kExtInterval, out);
        PutRaw(v.GetInterval().months, out);
        PutRaw(v.GetInterval().days, out);
        PutRaw(v.GetInterval().nanos, out);
        return Status::OK();
      }
      case TypeId::kUuid:
        if (v.GetBytes().size() != 16) return Status::InvalidArgument("UUID value of ", v.GetBytes().size(), " bytes");
        Header(kUuid, out);
        out->append(v.GetBytes());
        return Status::OK();
      case TypeId::kVarchar: {
        const std::string& s = v.GetBytes();
        if (s.size() < 64) {
          out->push_back(static_cast<char>(kShortString | (s.size() << 2)));
        } else {
          if (s.size() > UINT32_MAX) return Status::InvalidArgument("variant string too long");
          Header(kString, out);
          PutLE(s.size(), 4, out);
        }
        out->append(s);
        return Status::OK();
      }
      case TypeId::kBlob: {
        const std::string& s = v.GetBytes();
        if (s.size() > UINT32_MAX) return Status::InvalidArgument("variant blob too long");
        Header(kBinary, out);
        PutLE(s.size(), 4, out);
        out->append(s);
        return Status::OK();
      }
      default:
        return Status::InvalidArgument("Conversion Error: Unimplemented type for cast (",
                                       type.ToString(), " -> VARIANT)");
    }
  }

  Flavor flavor_;
  const std::map<std::string, uint32_t>* dictionary_;
};

void CollectNames(const VariantNode& node, int depth, std::vector<std::string>* names) {
  if (depth > kMaxDepth) return;
  if (node.kind == VariantNode::Kind::kObject) {
    for (const std::string& name : node.names) names->push_back(name);
  }
  for (const VariantNode& child : node.children) CollectNames(child, depth + 1, names);
}

Status EncodeParts(const VariantNode& node, Flavor flavor, std::string* metadata,
                   std::string* value) {
  std::vector<std::string> names;
  CollectNames(node, 0, &names);
  std::map<std::string, uint32_t> dictionary;
  std::vector<const std::string*> ordered;
  if (flavor == Flavor::kParquet) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
  }
  for (const std::string& name : names) {
    if (dictionary.emplace(name, static_cast<uint32_t>(ordered.size())).second) {
      ordered.push_back(&dictionary.find(name)->first);
    }
  }
  uint64_t total = 0;
  for (const std::string* name : ordered) total += name->size();
  const int offset_width = WidthFor(std::max<uint64_t>(total, ordered.size()));
  metadata->clear();
  const bool sorted = flavor == Flavor::kParquet;
  metadata->push_back(static_cast<char>(1 | (sorted ? 0x10 : 0) | ((offset_width - 1) << 6)));
  PutLE(ordered.size(), offset_width, metadata);
  uint64_t offset = 0;
  PutLE(0, offset_width, metadata);
  for (const std::string* name : ordered) {
    offset += name->size();
    PutLE(offset, offset_width, metadata);
  }
  for (const std::string* name : ordered) metadata->append(*name);
  value->clear();
  Encoder encoder(flavor, &dictionary);
  return encoder.Write(node, 0, value);
}

// Bounds-checked reads of one variant's metadata and value.
class Decoder {
 public:
  Decoder(Flavor flavor, std::string_view metadata, std::string_view value)
      : flavor_(flavor), metadata_(metadata), value_(value) {}

  Status ReadMetadata() {
    if (metadata_.empty()) return Corrupt("metadata", 0, "is empty");
    const uint8_t header = static_cast<uint8_t>(metadata_[0]);
    if ((header & 0x0F) != 1) {
      return Corrupt("metadata", 0, "has version " + std::to_string(header & 0x0F) + ", expected 1");
    }
    const int width = ((header >> 6) & 3) + 1;
    uint64_t count = 0;
    TARN_RETURN_NOT_OK(ReadLE(metadata_, 1, width, &count, "metadata"));
    // Each name needs at least one offset of `width` bytes.
    if (count > metadata_.size() / static_cast<uint64_t>(width)) {
      return Corrupt("metadata", 1, "claims " + std::to_string(count) + " names");
    }
    const size_t offsets_at = 1 + static_cast<size_t>(width);
    const size_t bytes_at = offsets_at + static_cast<size_t>(count + 1) * width;
    if (bytes_at > metadata_.size()) return Corrupt("metadata", offsets_at, "ends inside its offsets");
    names_.reserve(count);
    uint64_t previous = 0;
    for (uint64_t i = 0; i <= count; ++i) {
      uint64_t offset = 0;
      TARN_RETURN_NOT_OK(ReadLE(metadata_, offsets_at + i * width, width, &offset, "metadata"));
      if (offset < previous || bytes_at + offset > metadata_.size()) {
        return Corrupt("metadata", offsets_at + i * width, "has a name offset out of range");
      }
      if (i > 0) names_.emplace_back(metadata_.substr(bytes_at + previous, offset - previous));
      previous = offset;
    }
    return Status::OK();
  }

  // Reads the value at [begin, end) of the value bytes.
  Result<VariantNode> ReadValue(size_t begin, size_t end, int depth) {
    if (depth > kMaxDepth) return Corrupt("value", begin, "nests deeper than 128 levels");
    if (begin >= end || end > value_.size()) return Corrupt("value", begin, "is truncated");
    const uint8_t header = static_cast<uint8_t>(value_[begin]);
    const uint8_t basic = header & 3;
    const uint8_t info = header >> 2;
    size_t at = begin + 1;
    switch (basic) {
      case kShortString: {
        if (at + info > end) return Corrupt("value", begin, "short string is truncated");
        return VariantNode::Primitive(Value::Varchar(std::string(value_.substr(at, info))));
      }
      case kPrimitive: return ReadPrimitive(info, begin, at, end);
      case kArray: {
        const int offset_width = (info & 3) + 1;
        const int count_width = (info & 4) ? 4 : 1;
        uint64_t count = 0;
        TARN_RETURN_NOT_OK(ReadLE(value_, at, count_width, &count, "value"));
        at += count_width;
        if (count > (end - at) / static_cast<uint64_t>(offset_width)) {
          return Corrupt("value", begin, "array claims " + std::to_string(count) + " elements");
        }
        const size_t values_at = at + static_cast<size_t>(count + 1) * offset_width;
        if (values_at > end) return Corrupt("value", begin, "array ends inside its offsets");
        VariantNode node;
        node.kind = VariantNode::Kind::kArray;
        node.children.reserve(count);
        for (uint64_t i = 0; i < count; ++i) {
          uint64_t from = 0, to = 0;
          TARN_RETURN_NOT_OK(ReadLE(value_, at + i * offset_width, offset_width, &from, "value"));
          TARN_RETURN_NOT_OK(ReadLE(value_, at + (i + 1) * offset_width, offset_width, &to, "value"));
          if (from >= to || values_at + to > end) {
            return Corrupt("value", at + i * offset_width, "array element offset out of range");
          }
          TARN_ASSIGN_OR_RETURN(VariantNode child, ReadValue(values_at + from, values_at + to, depth + 1));
          node.children.push_back(std::move(child));
        }
        return node;
      }
      default: {  // kObject
        const int offset_width = (info & 3) + 1;
        const int id_width = ((info >> 2) & 3) + 1;
        const int count_width = (info & 16) ? 4 : 1;
        uint64_t count = 0;
        TARN_RETURN_NOT_OK(ReadLE(value_, at, count_width, &count, "value"));
        at += count_width;
        if (count > (end - at) / static_cast<uint64_t>(id_width + offset_width)) {
          return Corrupt("value", begin, "object claims " + std::to_string(count) + " fields");
        }
        const size_t offsets_at = at + static_cast<size_t>(count) * id_width;
        const size_t values_at = offsets_at + static_cast<size_t>(count + 1) * offset_width;
        if (values_at > end) return Corrupt("value", begin, "object ends inside its offsets");
        VariantNode node;
        node.kind = VariantNode::Kind::kObject;
        // Field values may lie in any order; each one's end is the next larger offset.
        std::vector<uint64_t> offsets(count + 1);
        for (uint64_t i = 0; i <= count; ++i) {
          TARN_RETURN_NOT_OK(ReadLE(value_, offsets_at + i * offset_width, offset_width, &offsets[i], "value"));
          if (values_at + offsets[i] > end) {
            return Corrupt("value", offsets_at + i * offset_width, "object field offset out of range");
          }
        }
        std::vector<uint64_t> sorted(offsets.begin(), offsets.end() - 1);
        std::sort(sorted.begin(), sorted.end());
        for (uint64_t i = 0; i < count; ++i) {
          uint64_t id = 0;
          TARN_RETURN_NOT_OK(ReadLE(value_, at + i * id_width, id_width, &id, "value"));
          if (id >= names_.size()) {
            return Corrupt("value", at + i * id_width,
                           "field id " + std::to_string(id) + " is not in the dictionary of " +
                               std::to_string(names_.size()) + " names");
          }
          auto next = std::upper_bound(sorted.begin(), sorted.end(), offsets[i]);
          const uint64_t stop = next == sorted.end() ? offsets[count] : *next;
          if (stop <= offsets[i]) return Corrupt("value", begin, "object field value is empty");
          TARN_ASSIGN_OR_RETURN(VariantNode child,
                                ReadValue(values_at + offsets[i], values_at + stop, depth + 1));
          node.names.push_back(names_[id]);
          node.children.push_back(std::move(child));
        }
        return node;
      }
    }
  }

 private:
  Status Corrupt(const char* part, size_t offset, const std::string& what) const {
    return Status::Corruption("corrupt variant: ", part, " at offset ", offset, " ", what);
  }

  Status ReadLE(std::string_view bytes, size_t at, int width, uint64_t* out, const char* part) const {
    if (at > bytes.size() || bytes.size() - at < static_cast<size_t>(width)) {
      return Corrupt(part, at, "is truncated");
    }
    uint64_t v = 0;
    for (int i = 0; i < width; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[at + i])) << (8 * i);
    *out = v;
    return Status::OK();
  }

  template <typename T>
  Status Load(size_t at, size_t end, T* out) const {
    if (at > end || end - at < sizeof(T)) return Corrupt("value", at, "primitive is truncated");
    std::memcpy(out, value_.data() + at, sizeof(T));
    return Status::OK();
  }

  Result<VariantNode> ReadPrimitive(uint8_t id, size_t begin, size_t at, size_t end) {
    const bool memory = flavor_ == Flavor::kMemory;
    auto prim = [](Value v) { return VariantNode::Primitive(std::move(v)); };
    auto int_of = [&](TypeId type_id, auto sample) -> Result<VariantNode> {
      decltype(sample) raw;
      TARN_RETURN_NOT_OK(Load(at, end, &raw));
      if constexpr (std::is_unsigned_v<decltype(sample)>) {
        return prim(Value::UInt(DataType(type_id), static_cast<uint64_t>(raw)));
      } else {
        return prim(Value::Int(DataType(type_id), static_cast<int64_t>(raw)));
      }
    };
    auto decimal = [&](auto sample) -> Result<VariantNode> {
      if (at >= end) return Corrupt("value", at, "decimal is truncated");
      const int scale = static_cast<uint8_t>(value_[at]);
      if (scale > 38) return Corrupt("value", at, "decimal scale " + std::to_string(scale) + " exceeds 38");
      decltype(sample) raw;
      TARN_RETURN_NOT_OK(Load(at + 1, end, &raw));
      // Parquet keeps no precision: DuckDB reads the value's own digit count (3.25 is
      // DECIMAL(3, 2)); tarn the same, at least the scale (DuckDB goes below it).
      const __int128 unscaled = static_cast<__int128>(raw);
      int digits = 0;
      for (__int128 rest = unscaled < 0 ? -unscaled : unscaled; rest > 0; rest /= 10) ++digits;
      return prim(Value::Int128(DataType::Decimal(std::max({digits, scale, 1}), scale), unscaled));
    };
    switch (id) {
      case kNullId: return VariantNode::Null();
      case kTrue: return prim(Value::Boolean(true));
      case kFalse: return prim(Value::Boolean(false));
      case kI8: return int_of(TypeId::kInt8, int8_t{});
      case kI16: return int_of(TypeId::kInt16, int16_t{});
      case kI32: return int_of(TypeId::kInt32, int32_t{});
      case kI64: return int_of(TypeId::kInt64, int64_t{});
      case kDouble: {
        double d;
        TARN_RETURN_NOT_OK(Load(at, end, &d));
        return prim(Value::Double(DataType(TypeId::kFloat64), d));
      }
      case kFloat: {
        float f;
        TARN_RETURN_NOT_OK(Load(at, end, &f));
        return prim(Value::Double(DataType(TypeId::kFloat32), f));
      }
      case kDec4: return decimal(int32_t{});
      case kDec8: return decimal(int64_t{});
      case kDec16: return decimal(__int128{});
      case kDate: return int_of(TypeId::kDate, int32_t{});
      case kTsTz: return int_of(TypeId::kTimestampTz, int64_t{});
      case kTsNtz: return int_of(TypeId::kTimestamp, int64_t{});
      case kTimeNtz: return int_of(TypeId::kTime, int64_t{});
      case kTsNanosNtz: return int_of(TypeId::kTimestampNs, int64_t{});
      case kTsNanosTz: {
        // DuckDB has no nanosecond TIMESTAMP WITH TIME ZONE: microseconds, as its reader.
        int64_t nanos;
        TARN_RETURN_NOT_OK(Load(at, end, &nanos));
        const int64_t micros = nanos / 1000 - (nanos % 1000 < 0 ? 1 : 0);
        return prim(Value::Int(DataType(TypeId::kTimestampTz), micros));
      }
      case kUuid: {
        if (end - at < 16) return Corrupt("value", at, "uuid is truncated");
        return prim(Value::Bytes(DataType(TypeId::kUuid), std::string(value_.substr(at, 16))));
      }
      case kBinary: case kString: {
        uint64_t size = 0;
        TARN_RETURN_NOT_OK(ReadLE(value_, at, 4, &size, "value"));
        if (size > end - at - 4) return Corrupt("value", begin, "string of " + std::to_string(size) + " bytes is truncated");
        std::string bytes(value_.substr(at + 4, size));
        if (id == kString) return prim(Value::Varchar(std::move(bytes)));
        return prim(Value::Bytes(DataType(TypeId::kBlob), std::move(bytes)));
      }
      default: break;
    }
    if (memory) {
      switch (id) {
        case kExtU8: return int_of(TypeId::kUInt8, uint8_t{});
        case kExtU16: return int_of(TypeId::kUInt16, uint16_t{});
        case kExtU32: return int_of(TypeId::kUInt32, uint32_t{});
        case kExtU64: return int_of(TypeId::kUInt64, uint64_t{});
        case kExtI128: case kExtU128: {
          __int128 raw;
          TARN_RETURN_NOT_OK(Load(at, end, &raw));
          return prim(Value::Int128(DataType(id == kExtI128 ? TypeId::kInt128 : TypeId::kUInt128), raw));
        }
        case kExtDecimal: {
          if (end - at < 18) return Corrupt("value", at, "decimal is truncated");
          const int precision = static_cast<uint8_t>(value_[at]);
          const int scale = static_cast<uint8_t>(value_[at + 1]);
          if (precision < 1 || precision > 38 || scale > precision) {
            return Corrupt("value", at, "has decimal(" + std::to_string(precision) + "," +
                                            std::to_string(scale) + ")");
          }
          __int128 raw;
          TARN_RETURN_NOT_OK(Load(at + 2, end, &raw));
          return prim(Value::Int128(DataType::Decimal(precision, scale), raw));
        }
        case kExtTsS: return int_of(TypeId::kTimestampS, int64_t{});
        case kExtTsMs: return int_of(TypeId::kTimestampMs, int64_t{});
        case kExtTimeNs: return int_of(TypeId::kTimeNs, int64_t{});
        case kExtTimeTz: return int_of(TypeId::kTimeTz, int64_t{});
        case kExtInterval: {
          Interval interval;
          TARN_RETURN_NOT_OK(Load(at, end, &interval.months));
          TARN_RETURN_NOT_OK(Load(at + 4, end, &interval.days));
          TARN_RETURN_NOT_OK(Load(at + 8, end, &interval.nanos));
          return prim(Value::MakeInterval(interval));
        }
        default: break;
      }
    }
    return Corrupt("value", begin, "has unknown primitive type " + std::to_string(id));
  }

  Flavor flavor_;
  std::string_view metadata_;
  std::string_view value_;
  std::vector<std::string> names_;
};

// JSON text to a variant, as DuckDB's JSON → VARIANT cast reads it: non-negative integers
// UINT64, negative ones INT64, other numbers DOUBLE.
class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  Result<VariantNode> ReadDocument() {
    TARN_ASSIGN_OR_RETURN(VariantNode node, Read(0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("trailing characters");
    return node;
  }

 private:
  Status Error(const char* what) const {
    return Status::InvalidArgument("Conversion Error: Malformed JSON at byte ", pos_, ": ", what);
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Result<uint32_t> Hex4() {
    if (text_.size() - pos_ < 4) return Error("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else return Error("bad \\u escape");
    }
    return v;
  }

  Result<std::string> String() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) return Error("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) return Error("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out.push_back(e); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          TARN_ASSIGN_OR_RETURN(uint32_t cp, Hex4());
          if (cp >= 0xD800 && cp < 0xDC00 && Literal("\\u")) {
            TARN_ASSIGN_OR_RETURN(uint32_t low, Hex4());
            if (low >= 0xDC00 && low < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, &out);
          break;
        }
        default: return Error("bad escape");
      }
    }
  }

  Result<VariantNode> Number() {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    bool integral = true;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c >= '0' && c <= '9') {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        ++pos_;
      } else {
        break;
      }
    }
    const std::string number(text_.substr(start, pos_ - start));
    if (number == "-" || number.empty()) return Error("bad number");
    if (integral) {
      errno = 0;
      char* stop = nullptr;
      if (number[0] == '-') {
        const long long v = std::strtoll(number.c_str(), &stop, 10);
        if (errno == 0 && *stop == '\0') return VariantNode::Primitive(Value::Int64(v));
      } else {
        const unsigned long long v = std::strtoull(number.c_str(), &stop, 10);
        if (errno == 0 && *stop == '\0') {
          return VariantNode::Primitive(Value::UInt(DataType(TypeId::kUInt64), v));
        }
      }
    }
    char* stop = nullptr;
    const double d = std::strtod(number.c_str(), &stop);
    if (stop == nullptr || *stop != '\0') return Error("bad number");
    return VariantNode::Primitive(Value::Float64(d));
  }

  Result<VariantNode> Read(int depth) {
    if (depth > kMaxDepth) return Error("nested too deeply");
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end");
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      VariantNode node;
      node.kind = VariantNode::Kind::kObject;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return node;
      }
      while (true) {
        SkipSpace();
        if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a key");
        TARN_ASSIGN_OR_RETURN(std::string key, String());
        SkipSpace();
        if (pos_ >= text_.size() || text_[pos_] != ':') return Error("expected ':'");
        ++pos_;
        TARN_ASSIGN_OR_RETURN(VariantNode child, Read(depth + 1));
        // A repeated key keeps its last value.
        auto it = std::find(node.names.begin(), node.names.end(), key);
        if (it != node.names.end()) {
          node.children[static_cast<size_t>(it - node.names.begin())] = std::move(child);
        } else {
          node.names.push_back(std::move(key));
          node.children.push_back(std::move(child));
        }
        SkipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < text_.size() && text_[pos_] == '}') { ++pos_; return node; }
        return Error("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++pos_;
      VariantNode node;
      node.kind = VariantNode::Kind::kArray;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return node;
      }
      while (true) {
        TARN_ASSIGN_OR_RETURN(VariantNode child, Read(depth + 1));
        node.children.push_back(std::move(child));
        SkipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < text_.size() && text_[pos_] == ']') { ++pos_; return node; }
        return Error("expected ',' or ']'");
      }
    }
    if (c == '"') {
      TARN_ASSIGN_OR_RETURN(std::string s, String());
      return VariantNode::Primitive(Value::Varchar(std::move(s)));
    }
    if (Literal("true")) return VariantNode::Primitive(Value::Boolean(true));
    if (Literal("false")) return VariantNode::Primitive(Value::Boolean(false));
    if (Literal("null")) return VariantNode::Null();
    if (c == '-' || (c >= '0' && c <= '9')) return Number();
    return Error("unexpected character");
  }

  std::string_view text_;
  size_t pos_ = 0;
};

Result<VariantNode> FromValueAt(const Value& value, int depth) {
  if (depth > kMaxDepth) return Status::InvalidArgument("value nested too deeply for VARIANT");
  if (value.is_null()) return VariantNode::Null();
  const DataType& type = value.type();
  switch (type.id) {
    case TypeId::kVariant: return Decode(value.GetBytes());
    case TypeId::kJson: return JsonReader(value.GetBytes()).ReadDocument();
    case TypeId::kStruct: {
      if (type.IsUnnamedStruct()) {
        return Status::InvalidArgument("Conversion Error: Can't cast unnamed struct to VARIANT");
      }
      VariantNode node;
      node.kind = VariantNode::Kind::kObject;
      for (size_t i = 0; i < type.children.size(); ++i) {
        node.names.push_back(type.children[i].name);
        TARN_ASSIGN_OR_RETURN(VariantNode child, FromValueAt(value.children()[i], depth + 1));
        node.children.push_back(std::move(child));
      }
      return node;
    }
    case TypeId::kList: case TypeId::kMap: {
      // A map is its list of {key, value} entries.
      VariantNode node;
      node.kind = VariantNode::Kind::kArray;
      for (const Value& element : value.children()) {
        TARN_ASSIGN_OR_RETURN(VariantNode child, FromValueAt(element, depth + 1));
        node.children.push_back(std::move(child));
      }
      return node;
    }
    case TypeId::kGeometry:
      return Status::InvalidArgument("Conversion Error: Unimplemented type for cast (GEOMETRY -> VARIANT)");
    default:
      return VariantNode::Primitive(value);
  }
}

}  // namespace

VariantNode VariantNode::Primitive(Value value) {
  VariantNode node;
  node.kind = Kind::kPrimitive;
  node.scalar = std::move(value);
  return node;
}

Result<std::string> Encode(const VariantNode& node) {
  std::string metadata, value;
  TARN_RETURN_NOT_OK(EncodeParts(node, Flavor::kMemory, &metadata, &value));
  if (metadata.size() > UINT32_MAX) return Status::InvalidArgument("variant metadata too large");
  std::string out;
  out.reserve(4 + metadata.size() + value.size());
  PutLE(metadata.size(), 4, &out);
  out += metadata;
  out += value;
  return out;
}

Result<VariantNode> Decode(std::string_view bytes) {
  if (bytes.size() < 4) {
    return Status::Corruption("corrupt variant: ", bytes.size(), " bytes, too short for its header");
  }
  uint64_t metadata_size = 0;
  for (int i = 0; i < 4; ++i) metadata_size |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i])) << (8 * i);
  if (metadata_size > bytes.size() - 4) {
    return Status::Corruption("corrupt variant: metadata of ", metadata_size, " bytes exceeds the ",
                              bytes.size() - 4, " bytes present");
  }
  Decoder decoder(Flavor::kMemory, bytes.substr(4, metadata_size), bytes.substr(4 + metadata_size));
  TARN_RETURN_NOT_OK(decoder.ReadMetadata());
  const size_t value_size = bytes.size() - 4 - metadata_size;
  TARN_ASSIGN_OR_RETURN(VariantNode node, decoder.ReadValue(0, value_size, 0));
  return node;
}

Status ToParquet(const VariantNode& node, std::string* metadata, std::string* value) {
  return EncodeParts(node, Flavor::kParquet, metadata, value);
}

Result<VariantNode> FromParquet(std::string_view metadata, std::string_view value) {
  Decoder decoder(Flavor::kParquet, metadata, value);
  TARN_RETURN_NOT_OK(decoder.ReadMetadata());
  return decoder.ReadValue(0, value.size(), 0);
}

Result<VariantNode> FromValue(const Value& value) { return FromValueAt(value, 0); }

Result<VariantNode> ParseJson(std::string_view text) { return JsonReader(text).ReadDocument(); }

std::string KindName(const VariantNode& node) {
  if (node.kind == VariantNode::Kind::kObject) return "OBJECT";
  if (node.kind == VariantNode::Kind::kArray) return "ARRAY";
  return TypeName(node);
}

std::string TypeName(const VariantNode& node) {
  if (node.kind == VariantNode::Kind::kObject) {
    std::string out = "OBJECT(";
    for (size_t i = 0; i < node.names.size(); ++i) {
      if (i > 0) out += ", ";
      out += node.names[i];
    }
    return out + ")";
  }
  if (node.kind == VariantNode::Kind::kArray) {
    return "ARRAY(" + std::to_string(node.children.size()) + ")";
  }
  if (node.scalar.is_null()) return "VARIANT_NULL";
  const DataType& type = node.scalar.type();
  switch (type.id) {
    case TypeId::kBoolean: return node.scalar.GetBool() ? "BOOL_TRUE" : "BOOL_FALSE";
    case TypeId::kInt8: return "INT8";
    case TypeId::kInt16: return "INT16";
    case TypeId::kInt32: return "INT32";
    case TypeId::kInt64: return "INT64";
    case TypeId::kUInt8: return "UINT8";
    case TypeId::kUInt16: return "UINT16";
    case TypeId::kUInt32: return "UINT32";
    case TypeId::kUInt64: return "UINT64";
    case TypeId::kInt128: return "INT128";
    case TypeId::kUInt128: return "UINT128";
    case TypeId::kFloat32: return "FLOAT";
    case TypeId::kFloat64: return "DOUBLE";
    case TypeId::kDecimal:
      return "DECIMAL(" + std::to_string(type.precision) + ", " + std::to_string(type.scale) + ")";
    case TypeId::kVarchar: return "VARCHAR";
    case TypeId::kBlob: return "BLOB";
    case TypeId::kUuid: return "UUID";
    case TypeId::kDate: return "DATE";
    case TypeId::kTime: return "TIME_MICROS";
    case TypeId::kTimeNs: return "TIME_NANOS";
    case TypeId::kTimeTz: return "TIME_MICROS_TZ";
    case TypeId::kTimestamp: return "TIMESTAMP_MICROS";
    case TypeId::kTimestampTz: return "TIMESTAMP_MICROS_TZ";
    case TypeId::kTimestampNs: return "TIMESTAMP_NANOS";
    case TypeId::kTimestampS: return "TIMESTAMP_SEC";
    case TypeId::kTimestampMs: return "TIMESTAMP_MILIS";
    case TypeId::kInterval: return "INTERVAL";
    default: return type.ToString();
  }
}

VariantNode ExtractField(const VariantNode& node, std::string_view name) {
  if (node.kind != VariantNode::Kind::kObject) return VariantNode::Null();
  for (size_t i = 0; i < node.names.size(); ++i) {
    if (node.names[i] == name) return node.children[i];
  }
  return VariantNode::Null();
}

Result<VariantNode> ExtractIndex(const VariantNode& node, int64_t index) {
  if (index < 0) {
    return Status::InvalidArgument("Invalid Input Error: Failed to cast value: Type INT32 with value ",
                                   index, " can't be cast because the value is out of range for "
                                   "the destination type UINT32");
  }
  if (index == 0) {
    return Status::InvalidArgument("Binder Error: Extracting index 0 from VARIANT(", KindName(node),
                                   ") is invalid, indexes are 1-based");
  }
  if (node.kind != VariantNode::Kind::kArray || static_cast<uint64_t>(index) > node.children.size()) {
    return VariantNode::Null();
  }
  return node.children[static_cast<size_t>(index - 1)];
}

}  // namespace tarn::variant
