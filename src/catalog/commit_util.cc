// Small helpers of the commit: uuids, the catalog's timestamp text, quoting, the crash hook.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "catalog/commit_internal.h"
#include "tarn/format.h"

namespace tarn::catalog_internal {

namespace {

// 16 bytes of OS entropy (std::random_device reads the kernel's generator on Linux).
void RandomBytes(uint8_t out[16]) {
  std::random_device device;
  for (int i = 0; i < 16; i += 4) {
    uint32_t word = device();
    for (int j = 0; j < 4; ++j) out[i + j] = static_cast<uint8_t>(word >> (8 * j));
  }
}

std::string UuidText(const uint8_t bytes[16]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text.push_back('-');
    text.push_back(kHex[bytes[i] >> 4]);
    text.push_back(kHex[bytes[i] & 15]);
  }
  return text;
}

}  // namespace

std::string NewUuidV4() {
  uint8_t bytes[16];
  RandomBytes(bytes);
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x40);
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);
  return UuidText(bytes);
}

std::string NewUuidV7() {
  uint8_t bytes[16];
  RandomBytes(bytes);
  const uint64_t millis = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
  for (int i = 0; i < 6; ++i) bytes[i] = static_cast<uint8_t>(millis >> (8 * (5 - i)));
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x70);
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);
  return UuidText(bytes);
}

std::string NowTimestampText() {
  const int64_t micros = std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  return FormatValue(Value::Int(DataType(TypeId::kTimestampTz), micros));
}

std::string QuoteName(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

std::string ObjectPath(std::string_view name, std::string_view uuid) {
  bool simple = !name.empty();
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) simple = false;
  }
  return StrCat(simple ? name : uuid, "/");
}

Result<int64_t> Exec(CatalogStore* store, std::string_view sql,
                     std::vector<CatalogDatum> params) {
  return store->Execute(sql, params);
}

CatalogDatum OptInteger(std::optional<int64_t> v) {
  return v.has_value() ? CatalogDatum::Integer(*v) : CatalogDatum::Null();
}

CatalogDatum OptText(const std::optional<std::string>& v) {
  return v.has_value() ? CatalogDatum::Text(*v) : CatalogDatum::Null();
}

void CrashPoint(std::string_view step) {
  const char* target = std::getenv("TARN_COMMIT_CRASH_AT");
  if (target == nullptr || step != target) return;
  std::fflush(nullptr);
  ::_exit(86);
}

}  // namespace tarn::catalog_internal
