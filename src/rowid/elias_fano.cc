#include "rowid/elias_fano.h"

#include <array>
#include <bit>
#include <cstring>

#include "rowid/bit_packing.h"
#include "rowid/byte_cursor.h"

namespace tarn::rowid_internal {

namespace {

constexpr size_t kFixedBytes = 8 + 8 + 8 + 1;  // count, min, max, low width

uint64_t LowMask(int width) { return width == 0 ? 0 : (~uint64_t{0} >> (64 - width)); }

// kSelectInByte[b][r]: the position of set bit number r of byte b.
constexpr auto kSelectInByte = [] {
  std::array<std::array<uint8_t, 8>, 256> table{};
  for (int b = 0; b < 256; ++b) {
    int r = 0;
    for (int bit = 0; bit < 8; ++bit) {
      if ((b >> bit) & 1) table[b][r++] = static_cast<uint8_t>(bit);
    }
  }
  return table;
}();

// The position of set bit number `r` (from 0) of `word`. REQUIRES: r < popcount(word).
// Branch-free: per-byte popcounts summed into prefixes by one multiplication, the byte holding
// the bit found by comparing every prefix with r at once, then a table inside the byte.
int SelectInWord(uint64_t word, int r) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  uint64_t counts = word - ((word >> 1) & 0x5555555555555555ULL);
  counts = (counts & 0x3333333333333333ULL) + ((counts >> 2) & 0x3333333333333333ULL);
  counts = (counts + (counts >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  const uint64_t prefix = counts * kOnes;  // byte i: the 1s in bytes 0..i (at most 64)
  // Byte i of the difference is 128 + r − prefix_i (never borrowing): its top bit says
  // prefix_i <= r, true exactly for the bytes before the one holding bit number r.
  const uint64_t at_most = ((kHighs | (kOnes * static_cast<uint64_t>(r))) - prefix) & kHighs;
  const int byte = std::popcount(at_most);
  const int before = byte == 0 ? 0 : static_cast<int>((prefix >> (8 * byte - 8)) & 0xFF);
  return 8 * byte + kSelectInByte[(word >> (8 * byte)) & 0xFF][r - before];
}

// Whole 64-bit words holding `bits` bits, plus the padding word.
size_t PaddedWords(uint64_t bits) { return static_cast<size_t>((bits + 63) / 64 + 1); }

// Low bits `l` of value `index`. REQUIRES: `lows` holds a word past the last value's.
inline uint64_t LowAt(const uint64_t* lows, uint64_t index, int l, uint64_t mask) {
  const uint64_t bit = index * static_cast<uint64_t>(l);
  const uint64_t shift = bit % 64;
  // The next word's share, shifted in two steps so that a shift of 0 stays defined.
  return ((lows[bit / 64] >> shift) | ((lows[bit / 64 + 1] << 1) << (63 - shift))) & mask;
}

// How many ids do not ascend strictly from their predecessor. Ids in different buckets always
// ascend (a later bucket's values are all larger), so only neighbours within one bucket — two
// adjacent 1s in the high bits — are compared: a pass over the words plus one comparison per
// such pair, rather than a decode of every id (most of a load's cost otherwise).
uint64_t Descents(const uint64_t* high, uint64_t high_bits, const uint64_t* lows, int l) {
  const uint64_t mask = LowMask(l);
  const uint64_t words = (high_bits + 63) / 64;
  uint64_t descents = 0, before = 0;  // ids before word w
  bool previous_top = false;          // bit 63 of the previous word
  for (uint64_t w = 0; w < words; ++w) {
    const uint64_t word = high[w];
    if (previous_top && (word & 1)) {
      descents += l == 0 || LowAt(lows, before - 1, l, mask) >= LowAt(lows, before, l, mask);
    }
    // Bit p of `pairs`: bits p and p + 1 are both ids (p <= 62). Both ids' low bits are
    // adjacent, so up to 31 bits wide they come out of one two-word read.
    if (l > 0 && l <= 31) {
      const uint64_t pair_mask = LowMask(2 * l);
      for (uint64_t pairs = word & (word >> 1); pairs != 0; pairs &= pairs - 1) {
        const int p = std::countr_zero(pairs);
        const uint64_t index = before + static_cast<uint64_t>(std::popcount(word & ((uint64_t{2} << p) - 1))) - 1;
        const uint64_t both = LowAt(lows, index, l, pair_mask);
        descents += (both & mask) >= (both >> l);
      }
    } else {
      for (uint64_t pairs = word & (word >> 1); pairs != 0; pairs &= pairs - 1) {
        const int p = std::countr_zero(pairs);
        const uint64_t index = before + static_cast<uint64_t>(std::popcount(word & ((uint64_t{2} << p) - 1))) - 1;
        descents += l == 0 || LowAt(lows, index, l, mask) >= LowAt(lows, index + 1, l, mask);
      }
    }
    before += static_cast<uint64_t>(std::popcount(word));
    previous_top = word >> 63;
  }
  return descents;
}

}  // namespace

int EliasFanoSet::LowWidthFor(uint64_t count, uint64_t universe) {
  if (count == 0 || universe < count) return 0;
  return std::bit_width(universe / count) - 1;
}

int64_t EliasFanoSet::EncodedSizeFor(uint64_t count, uint64_t min, uint64_t max) {
  const int low_width = LowWidthFor(count, max - min);
  const uint64_t high_bits = count + ((max - min) >> low_width);
  return static_cast<int64_t>(kFixedBytes + PackedBytes(count, low_width) + (high_bits + 7) / 8);
}

std::shared_ptr<const EliasFanoSet> EliasFanoSet::Build(std::span<const uint64_t> ids) {
  auto set = std::make_shared<EliasFanoSet>();
  set->count_ = ids.size();
  set->min_ = ids.front();
  set->max_ = ids.back();
  const int l = LowWidthFor(set->count_, set->max_ - set->min_);
  set->low_width_ = l;
  set->high_bits_ = set->count_ + ((set->max_ - set->min_) >> l);
  set->low_.assign(PaddedWords(set->count_ * static_cast<uint64_t>(l)), 0);
  set->high_.assign(PaddedWords(set->high_bits_), 0);
  const uint64_t mask = LowMask(l);
  for (uint64_t i = 0; i < set->count_; ++i) {
    const uint64_t value = ids[i] - set->min_;
    if (l > 0) {
      const uint64_t bit = i * static_cast<uint64_t>(l);
      const uint64_t low = value & mask;
      set->low_[bit / 64] |= low << (bit % 64);
      if (bit % 64 + l > 64) set->low_[bit / 64 + 1] |= low >> (64 - bit % 64);
    }
    const uint64_t high_bit = (value >> l) + i;
    set->high_[high_bit / 64] |= uint64_t{1} << (high_bit % 64);
  }
  set->BuildSamples();
  return set;
}

void EliasFanoSet::BuildSamples() {
  zero_samples_.clear();
  const uint64_t zeros = high_bits_ - count_;
  zero_samples_.reserve(static_cast<size_t>(zeros / kZeroSample + 1));
  uint64_t seen = 0;  // zeros before the current word
  for (uint64_t w = 0; w * 64 < high_bits_ && seen < zeros; ++w) {
    uint64_t inverted = ~high_[w];
    if (high_bits_ - w * 64 < 64) inverted &= LowMask(static_cast<int>(high_bits_ - w * 64));
    const uint64_t here = static_cast<uint64_t>(std::popcount(inverted));
    // The next sampled zero number, if it falls in this word.
    for (uint64_t next = (seen + kZeroSample - 1) / kZeroSample * kZeroSample; next < seen + here;
         next += kZeroSample) {
      zero_samples_.push_back(w * 64 + SelectInWord(inverted, static_cast<int>(next - seen)));
    }
    seen += here;
  }
}

uint64_t EliasFanoSet::Low(uint64_t index) const {
  if (low_width_ == 0) return 0;
  const uint64_t bit = index * static_cast<uint64_t>(low_width_);
  const uint64_t shift = bit % 64;
  uint64_t value = low_[bit / 64] >> shift;
  if (shift + low_width_ > 64) value |= low_[bit / 64 + 1] << (64 - shift);
  return value & LowMask(low_width_);
}

uint64_t EliasFanoSet::SelectZero(uint64_t zero) const {
  const uint64_t sample = zero / kZeroSample;
  const uint64_t from = zero_samples_[sample];
  uint64_t remaining = zero - sample * kZeroSample;
  uint64_t w = from / 64;
  uint64_t inverted = ~high_[w] & (~uint64_t{0} << (from % 64));
  for (;;) {
    const uint64_t here = static_cast<uint64_t>(std::popcount(inverted));
    if (remaining < here) return w * 64 + SelectInWord(inverted, static_cast<int>(remaining));
    remaining -= here;
    inverted = ~high_[++w];
  }
}

std::optional<uint64_t> EliasFanoSet::Rank(uint64_t id) const {
  if (id < min_ || id > max_) return std::nullopt;
  const uint64_t value = id - min_;
  const uint64_t bucket = value >> low_width_;
  const uint64_t low = value & LowMask(low_width_);
  // Bucket b's ids are the ones between zero b − 1 and zero b; the ids before it are the ones
  // before its first bit.
  uint64_t bit = bucket == 0 ? 0 : SelectZero(bucket - 1) + 1;
  for (uint64_t index = bit - bucket; bit < high_bits_ && HighBit(bit); ++bit, ++index) {
    const uint64_t here = Low(index);
    if (here == low) return index;
    if (here > low) break;  // lows ascend within a bucket
  }
  return std::nullopt;
}

std::pair<uint64_t, uint64_t> EliasFanoSet::EqualRange(uint64_t id) const {
  if (id < min_ || id > max_) return {0, 0};
  const uint64_t value = id - min_;
  const uint64_t bucket = value >> low_width_;
  const uint64_t low = value & LowMask(low_width_);
  uint64_t bit = bucket == 0 ? 0 : SelectZero(bucket - 1) + 1;
  uint64_t index = bit - bucket;
  // Lows ascend (non-strictly) within the bucket: skip the smaller, then take the equal.
  for (; bit < high_bits_ && HighBit(bit) && Low(index) < low; ++bit) ++index;
  const uint64_t first = index;
  for (; bit < high_bits_ && HighBit(bit) && Low(index) == low; ++bit) ++index;
  return {first, index};
}

void EliasFanoSet::AppendTo(std::vector<uint64_t>* out) const {
  out->reserve(out->size() + count_);
  uint64_t index = 0;
  for (uint64_t w = 0; w * 64 < high_bits_; ++w) {
    for (uint64_t word = high_[w]; word != 0; word &= word - 1) {
      const uint64_t bucket = w * 64 + std::countr_zero(word) - index;
      out->push_back(min_ + ((bucket << low_width_) | Low(index)));
      ++index;
    }
  }
}

int64_t EliasFanoSet::memory_bytes() const {
  return static_cast<int64_t>(sizeof(EliasFanoSet) +
                              8 * (low_.capacity() + high_.capacity() + zero_samples_.capacity()));
}

void EliasFanoSet::EncodeTo(std::string* out) const {
  PutU64(out, count_);
  PutU64(out, min_);
  PutU64(out, max_);
  PutU8(out, static_cast<uint8_t>(low_width_));
  out->append(reinterpret_cast<const char*>(low_.data()), PackedBytes(count_, low_width_));
  out->append(reinterpret_cast<const char*>(high_.data()), (high_bits_ + 7) / 8);
}

Result<std::shared_ptr<const EliasFanoSet>> EliasFanoSet::Decode(std::string_view bytes) {
  ByteCursor in(bytes, "elias-fano set");
  auto set = std::make_shared<EliasFanoSet>();
  uint8_t low_width = 0;
  TARN_RETURN_NOT_OK(in.Read(&set->count_));
  TARN_RETURN_NOT_OK(in.Read(&set->min_));
  TARN_RETURN_NOT_OK(in.Read(&set->max_));
  TARN_RETURN_NOT_OK(in.Read(&low_width));
  const uint64_t count = set->count_;
  const uint64_t universe = set->max_ - set->min_;
  if (count == 0 || set->max_ < set->min_) return in.Error("empty set or bounds out of order");
  if (universe < count - 1) return in.Error("more ids than values between the bounds");
  if (low_width != LowWidthFor(count, universe)) {
    return Status::Corruption("elias-fano set: low width ", int{low_width}, ", expected ",
                              LowWidthFor(count, universe), " for ", count, " ids over ", universe);
  }
  const int l = low_width;
  // Sizes checked against the bytes before anything is allocated for them: every id costs at
  // least one high bit, and so does every bucket.
  const uint64_t available_bits = 8 * static_cast<uint64_t>(in.remaining());
  if (count > available_bits || (universe >> l) > available_bits) {
    return in.Error("more ids or buckets than the bytes can hold");
  }
  set->low_width_ = l;
  set->high_bits_ = count + (universe >> l);
  const uint64_t low_bytes = PackedBytes(count, l);
  const uint64_t high_bytes = (set->high_bits_ + 7) / 8;
  if (in.remaining() != low_bytes + high_bytes) {
    return Status::Corruption("elias-fano set: ", in.remaining(), " bytes of bits, expected ",
                              low_bytes + high_bytes);
  }
  std::string_view low, high;
  TARN_RETURN_NOT_OK(in.ReadBytes(low_bytes, &low));
  TARN_RETURN_NOT_OK(in.ReadBytes(high_bytes, &high));
  set->low_.assign(PaddedWords(count * static_cast<uint64_t>(l)), 0);
  set->high_.assign(PaddedWords(set->high_bits_), 0);
  std::memcpy(set->low_.data(), low.data(), low.size());
  std::memcpy(set->high_.data(), high.data(), high.size());
  // Slack bits past the last value are zero, so one set has one encoding.
  const uint64_t low_bits = count * static_cast<uint64_t>(l);
  if (low_bits % 64 != 0 && (set->low_[low_bits / 64] >> (low_bits % 64)) != 0) {
    return in.Error("low bits have stray bits past the last id");
  }
  if (set->high_bits_ % 64 != 0 && (set->high_[set->high_bits_ / 64] >> (set->high_bits_ % 64)) != 0) {
    return in.Error("high bits have stray bits past the last bucket");
  }
  uint64_t ones = 0;
  for (uint64_t word : set->high_) ones += static_cast<uint64_t>(std::popcount(word));
  if (ones != count) {
    return Status::Corruption("elias-fano set: ", ones, " ids in the high bits, ", count, " declared");
  }
  // The ids must start at min, ascend strictly and end at max: a rank is only an index when
  // no id repeats. The offender is looked for only when there is one.
  if ((set->high_[0] & 1) == 0 || set->Low(0) != 0) {
    return Status::Corruption("elias-fano set: the first id is not min ", set->min_);
  }
  const uint64_t descents = Descents(set->high_.data(), set->high_bits_, set->low_.data(), l);
  if (descents != 0) {
    std::vector<uint64_t> ids;
    set->AppendTo(&ids);
    for (size_t i = 1; i < ids.size(); ++i) {
      if (ids[i] <= ids[i - 1]) {
        return Status::Corruption("elias-fano set: id ", i, " (", ids[i], ") does not ascend from ",
                                  ids[i - 1]);
      }
    }
  }
  // The last id is the last 1 of the high bits (its bucket) with its low bits.
  uint64_t last_word = (set->high_bits_ - 1) / 64;
  while (set->high_[last_word] == 0) --last_word;  // the popcount check proved a 1 exists
  const uint64_t last_bit = last_word * 64 + 63 - std::countl_zero(set->high_[last_word]);
  const uint64_t last = ((last_bit - (count - 1)) << l) | set->Low(count - 1);
  if (last != universe) {
    return Status::Corruption("elias-fano set: last id ", set->min_ + last, ", max says ", set->max_);
  }
  set->BuildSamples();
  return std::shared_ptr<const EliasFanoSet>(std::move(set));
}

}  // namespace tarn::rowid_internal
