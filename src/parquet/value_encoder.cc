#include "parquet/value_encoder.h"

#include <algorithm>
#include <string_view>
#include <type_traits>

#include "parquet/byte_stream_split.h"
#include "parquet/delta_encoder.h"
#include "parquet/encoder.h"

namespace tarn::parquet {

std::optional<Encoding> RequestedEncoding(const WriterProperties& properties,
                                          const WriterLeaf& leaf) {
  const std::optional<int> requested = properties.column_encoding(leaf.path);
  if (!requested) return std::nullopt;
  return static_cast<Encoding>(*requested);
}

Status CheckValueEncoding(Encoding encoding, const WriterLeaf& leaf) {
  const PhysicalType physical = leaf.physical;
  bool fits = false;
  switch (encoding) {
    case Encoding::kPlain:
      fits = true;
      break;
    case Encoding::kDeltaBinaryPacked:
      fits = physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64;
      break;
    case Encoding::kDeltaLengthByteArray:
      fits = physical == PhysicalType::kByteArray;
      break;
    case Encoding::kDeltaByteArray:
      fits = physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray;
      break;
    case Encoding::kByteStreamSplit:
      fits = ByteStreamSplitWidth(physical, leaf.type_length) > 0;
      break;
    default:
      break;
  }
  if (fits) return Status::OK();
  std::string path;
  for (const std::string& part : leaf.path) path += (path.empty() ? "" : ".") + part;
  return Status::InvalidArgument("column '", path, "': encoding ", EncodingName(encoding),
                                 " cannot encode physical type ", PhysicalTypeName(physical));
}

template <typename T>
Encoding ChooseValueEncoding(const WriterProperties& properties, const WriterLeaf&,
                             const T* values, int64_t count) {
  if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
    if (!properties.delta_fallback() || count < 2) return Encoding::kPlain;
    const int64_t probe = std::min(count, kDeltaProbeValues);
    std::string encoded;
    EncodeDeltaBinaryPacked(values, probe, &encoded);
    const double plain_bytes = static_cast<double>(probe) * sizeof(T);
    return static_cast<double>(encoded.size()) <= kDeltaPaysRatio * plain_bytes
               ? Encoding::kDeltaBinaryPacked
               : Encoding::kPlain;
  } else {
    (void)properties;
    (void)values;
    (void)count;
    return Encoding::kPlain;
  }
}

template <typename T>
void EncodeValuesAs(Encoding encoding, const WriterLeaf& leaf, const T* values, int64_t count,
                    std::string* out) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    (void)encoding;
    (void)leaf;
    EncodePlainBooleans(values, count, out);
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    const bool fixed = leaf.physical == PhysicalType::kFixedLenByteArray;
    switch (encoding) {
      case Encoding::kDeltaLengthByteArray:
        EncodeDeltaLengthByteArray(values, count, out);
        return;
      case Encoding::kDeltaByteArray:
        EncodeDeltaByteArray(values, count, out);
        return;
      case Encoding::kByteStreamSplit: {
        std::string plain;
        EncodePlainFixedLenByteArrays(values, count, &plain);
        EncodeByteStreamSplit(reinterpret_cast<const uint8_t*>(plain.data()), count,
                              leaf.type_length, out);
        return;
      }
      default:
        if (fixed) {
          EncodePlainFixedLenByteArrays(values, count, out);
        } else {
          EncodePlainByteArrays(values, count, out);
        }
        return;
    }
  } else {
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      if (encoding == Encoding::kDeltaBinaryPacked) {
        EncodeDeltaBinaryPacked(values, count, out);
        return;
      }
    }
    if (encoding == Encoding::kByteStreamSplit) {
      EncodeByteStreamSplit(reinterpret_cast<const uint8_t*>(values), count,
                            static_cast<int>(sizeof(T)), out);
      return;
    }
    EncodePlain(values, count, out);
  }
}

#define TARN_INSTANTIATE(T)                                                                  \
  template Encoding ChooseValueEncoding<T>(const WriterProperties&, const WriterLeaf&,        \
                                           const T*, int64_t);                                \
  template void EncodeValuesAs<T>(Encoding, const WriterLeaf&, const T*, int64_t, std::string*);
TARN_INSTANTIATE(uint8_t)
TARN_INSTANTIATE(int32_t)
TARN_INSTANTIATE(int64_t)
TARN_INSTANTIATE(float)
TARN_INSTANTIATE(double)
TARN_INSTANTIATE(std::string_view)
#undef TARN_INSTANTIATE

}  // namespace tarn::parquet
