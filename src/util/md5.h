// MD5 (RFC 1321), for SQL's md5() function. Not for security: MD5 is broken as a
// cryptographic hash; it is here because DuckDB's dialect has md5().
//
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tarn {

// The 16-byte digest of `bytes`.
std::array<uint8_t, 16> Md5Digest(std::string_view bytes);
// The digest as 32 lower-case hex digits ("d41d8cd98f00b204e9800998ecf8427e" for "").
std::string Md5Hex(std::string_view bytes);

}  // namespace tarn
