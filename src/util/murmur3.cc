#include "util/murmur3.h"

namespace tarn {

namespace {

uint32_t RotateLeft(uint32_t x, int bits) { return (x << bits) | (x >> (32 - bits)); }

uint32_t MixBlock(uint32_t k) {
  k *= 0xcc9e2d51u;
  k = RotateLeft(k, 15);
  return k * 0x1b873593u;
}

uint32_t LoadLittleEndian32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

}  // namespace

int32_t Murmur3Hash32(std::string_view bytes, uint32_t seed) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t length = bytes.size();
  const size_t blocks = length / 4;
  uint32_t h = seed;
  for (size_t block = 0; block < blocks; ++block) {
    h ^= MixBlock(LoadLittleEndian32(data + block * 4));
    h = RotateLeft(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  const unsigned char* tail = data + blocks * 4;
  uint32_t k = 0;
  switch (length & 3) {
    case 3: k ^= static_cast<uint32_t>(tail[2]) << 16; [[fallthrough]];
    case 2: k ^= static_cast<uint32_t>(tail[1]) << 8; [[fallthrough]];
    case 1:
      k ^= static_cast<uint32_t>(tail[0]);
      h ^= MixBlock(k);
      break;
    default: break;
  }
  h ^= static_cast<uint32_t>(length);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return static_cast<int32_t>(h);
}

int32_t Murmur3HashInt64(int64_t value) {
  const auto bits = static_cast<uint64_t>(value);
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  return Murmur3Hash32(std::string_view(bytes, 8));
}

}  // namespace tarn
