// Page checksums: the CRC-32 (zlib's polynomial, as the Parquet format specifies for
// PageHeader.crc) of a page's bytes as they are stored in the file, after compression. For a
// data page v2 that is the uncompressed levels followed by the (possibly compressed) values.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tarn::parquet {

// Extends `crc` (0 to start) over `bytes`.
uint32_t ExtendCrc32(uint32_t crc, std::string_view bytes);
inline uint32_t PageCrc32(std::string_view bytes) { return ExtendCrc32(0, bytes); }

// "0x1234abcd", for error messages.
std::string Hex32(uint32_t value);

}  // namespace tarn::parquet
