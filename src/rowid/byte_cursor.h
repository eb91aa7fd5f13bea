// Little-endian integer encoding and a bounds-checked cursor over untrusted bytes (.rowsum
// sidecars and disk-tier entries).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "tarn/status.h"

namespace tarn::rowid_internal {

inline void PutU16(std::string* out, uint16_t v) { out->append(reinterpret_cast<const char*>(&v), 2); }
inline void PutU32(std::string* out, uint32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); }
inline void PutU64(std::string* out, uint64_t v) { out->append(reinterpret_cast<const char*>(&v), 8); }
inline void PutU8(std::string* out, uint8_t v) { out->push_back(static_cast<char>(v)); }

template <typename T>
inline T LoadLE(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));  // tarn targets little-endian machines
  return v;
}

// Reads fixed-size fields from a byte range; every read checks the remaining length and fails
// with Corruption naming `what` and the offset.
class ByteCursor {
 public:
  ByteCursor(std::string_view bytes, std::string_view what) : bytes_(bytes), what_(what) {}

  size_t offset() const { return offset_; }
  size_t remaining() const { return bytes_.size() - offset_; }

  Status Need(size_t n) const {
    if (n > remaining()) {
      return Status::Corruption(what_, ": needs ", n, " bytes at offset ", offset_, ", only ",
                                remaining(), " remain");
    }
    return Status::OK();
  }
  template <typename T>
  Status Read(T* out) {
    TARN_RETURN_NOT_OK(Need(sizeof(T)));
    *out = LoadLE<T>(bytes_.data() + offset_);
    offset_ += sizeof(T);
    return Status::OK();
  }
  Status ReadBytes(size_t n, std::string_view* out) {
    TARN_RETURN_NOT_OK(Need(n));
    *out = bytes_.substr(offset_, n);
    offset_ += n;
    return Status::OK();
  }
  Status Error(std::string_view message) const {
    return Status::Corruption(what_, ": ", message, " at offset ", offset_);
  }

 private:
  std::string_view bytes_;
  std::string_view what_;
  size_t offset_ = 0;
};

}  // namespace tarn::rowid_internal
