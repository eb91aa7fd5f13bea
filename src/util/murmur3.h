// MurmurHash3 x86 32-bit, the hash Apache Iceberg (and DuckLake's bucket(N) partition
// transform) defines: seed 0, little-endian 4-byte blocks.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

namespace tarn {

// murmur3_x86_32 of `bytes` with `seed`, as a signed 32-bit value (Iceberg's int result).
int32_t Murmur3Hash32(std::string_view bytes, uint32_t seed = 0);

// Iceberg's hashLong: the hash of the 8 little-endian bytes of `value`.
int32_t Murmur3HashInt64(int64_t value);

}  // namespace tarn
