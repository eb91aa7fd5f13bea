// Parquet value and level encoders: the RLE/bit-packed hybrid (levels, booleans, dictionary
// indices), PLAIN for every physical type, and dictionary builders that stop growing at a
// byte-size limit (after which the writer falls back to PLAIN for the column chunk).
// The matching decoders are in encoding.h.
//
// Encoders append to a caller-owned std::string and work on whole arrays in typed loops; they
// never see Value objects.
//
// Thread-safety: functions are stateless; a dictionary builder is used by one thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/encoding.h"  // BitWidth

namespace tarn::parquet {

// ---- RLE / bit-packed hybrid ---------------------------------------------------------------

// Appends the hybrid encoding (no length prefix) of `count` values, each < 2^bit_width
// (bit_width 0..32). Runs of 8 or more equal values become RLE runs; the rest are bit-packed in
// groups of 8, the last group zero-padded.
void EncodeRleBitPacked(const uint32_t* values, int64_t count, int bit_width, std::string* out);
// The same for levels.
void EncodeRleBitPackedLevels(const int16_t* levels, int64_t count, int bit_width,
                              std::string* out);
// Appends a 4-byte little-endian length, then the hybrid encoding (data page v1 levels).
void EncodeLengthPrefixedLevels(const int16_t* levels, int64_t count, int bit_width,
                                std::string* out);

// ---- PLAIN ---------------------------------------------------------------------------------

// Fixed-width little-endian values (int32, int64, float, double): a plain copy.
template <typename T>
void EncodePlain(const T* values, int64_t count, std::string* out) {
  out->append(reinterpret_cast<const char*>(values), static_cast<size_t>(count) * sizeof(T));
}
// Booleans (one byte each, 0 or 1), bit-packed LSB-first.
void EncodePlainBooleans(const uint8_t* values, int64_t count, std::string* out);
// BYTE_ARRAY: 4-byte little-endian length, then the bytes.
void EncodePlainByteArrays(const std::string_view* values, int64_t count, std::string* out);
// FIXED_LEN_BYTE_ARRAY: the bytes only. REQUIRES: every value is `width` bytes.
void EncodePlainFixedLenByteArrays(const std::string_view* values, int64_t count,
                                   std::string* out);

// ---- Dictionary builders --------------------------------------------------------------------

// Open-addressing hash table from a value to its dictionary index, in insertion order.
// `Traits` supplies Hash(value), Equal(a, b) and PlainSize(value) (the value's PLAIN size in
// the dictionary page). Insert refuses a new value that would take the dictionary's PLAIN size
// over `byte_limit`; from then on the builder is `overflowed()` and the caller falls back.
template <typename T, typename Traits>
class DictionaryBuilder {
 public:
  explicit DictionaryBuilder(int64_t byte_limit) : byte_limit_(byte_limit) { Rehash(1024); }

  // Sets *index to the value's dictionary index and returns true, or returns false (and sets
  // overflowed()) when the value is new and does not fit under the byte limit.
  bool Insert(const T& value, uint32_t* index) {
    uint64_t hash = Traits::Hash(value);
    size_t slot = static_cast<size_t>(hash) & mask_;
    for (;;) {
      uint32_t entry = slots_[slot];
      if (entry == kEmpty) break;
      if (hashes_[entry] == hash && Traits::Equal(values_[entry], value)) {
        *index = entry;
        return true;
      }
      slot = (slot + 1) & mask_;
    }
    int64_t size = Traits::PlainSize(value);
    if (byte_size_ + size > byte_limit_) {
      overflowed_ = true;
      return false;
    }
    uint32_t entry = static_cast<uint32_t>(values_.size());
    slots_[slot] = entry;
    values_.push_back(value);
    hashes_.push_back(hash);
    byte_size_ += size;
    *index = entry;
    if (values_.size() * 2 > slots_.size()) Rehash(slots_.size() * 2);
    return true;
  }

  const std::vector<T>& values() const { return values_; }
  int64_t size() const { return static_cast<int64_t>(values_.size()); }
  int64_t byte_size() const { return byte_size_; }  // PLAIN size of the dictionary page
  bool overflowed() const { return overflowed_; }

 private:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;

  void Rehash(size_t capacity) {
    slots_.assign(capacity, kEmpty);
    mask_ = capacity - 1;
    for (uint32_t entry = 0; entry < values_.size(); ++entry) {
      size_t slot = static_cast<size_t>(hashes_[entry]) & mask_;
      while (slots_[slot] != kEmpty) slot = (slot + 1) & mask_;
      slots_[slot] = entry;
    }
  }

  int64_t byte_limit_;
  int64_t byte_size_ = 0;
  bool overflowed_ = false;
  size_t mask_ = 0;
  std::vector<uint32_t> slots_;   // entry index or kEmpty
  std::vector<T> values_;         // by entry index
  std::vector<uint64_t> hashes_;  // by entry index
};

inline uint64_t MixHash64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t HashBytes(std::string_view bytes);

// Fixed-width values hash and compare by bit pattern, so -0.0 and 0.0 are distinct entries and
// every NaN payload keeps its own entry (the round trip is bit-exact).
template <typename T>
struct FixedWidthTraits {
  static uint64_t Bits(const T& v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return bits;
  }
  static uint64_t Hash(const T& v) { return MixHash64(Bits(v)); }
  static bool Equal(const T& a, const T& b) { return Bits(a) == Bits(b); }
  static int64_t PlainSize(const T&) { return sizeof(T); }
};

struct ByteArrayTraits {
  static uint64_t Hash(std::string_view v) { return HashBytes(v); }
  static bool Equal(std::string_view a, std::string_view b) { return a == b; }
  static int64_t PlainSize(std::string_view v) { return 4 + static_cast<int64_t>(v.size()); }
};

struct FixedLenByteArrayTraits {
  static uint64_t Hash(std::string_view v) { return HashBytes(v); }
  static bool Equal(std::string_view a, std::string_view b) { return a == b; }
  static int64_t PlainSize(std::string_view v) { return static_cast<int64_t>(v.size()); }
};

}  // namespace tarn::parquet
