#include "rowid/roaring_set.h"

#include <algorithm>
#include <bit>

#include "rowid/byte_cursor.h"

namespace tarn::rowid_internal {

namespace {
constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
constexpr uint32_t kNoOffsetThreshold = 4;
constexpr uint32_t kArrayMax = 4096;
constexpr size_t kBitmapWords = 1024;

// Set bits in words[0, n): the CPU's popcnt instruction when it has one (the build targets
// plain x86-64, where std::popcount is a library call per word), else std::popcount.
uint64_t CountBitsPortable(const uint64_t* words, size_t n) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; ++i) total += static_cast<uint64_t>(std::popcount(words[i]));
  return total;
}

#if defined(__x86_64__)
__attribute__((target("popcnt"))) uint64_t CountBitsHardware(const uint64_t* words, size_t n) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; ++i) total += static_cast<uint64_t>(__builtin_popcountll(words[i]));
  return total;
}
#endif

uint64_t CountBits(const uint64_t* words, size_t n) {
#if defined(__x86_64__)
  static const bool hardware = __builtin_cpu_supports("popcnt");
  if (hardware) return CountBitsHardware(words, n);
#endif
  return CountBitsPortable(words, n);
}
}  // namespace

std::shared_ptr<const RoaringSet> RoaringSet::Build(std::span<const uint64_t> ids) {
  auto set = std::make_shared<RoaringSet>();
  size_t i = 0;
  while (i < ids.size()) {
    const uint64_t key = ids[i] >> 16;
    size_t end = i;
    uint32_t runs = 0;
    while (end < ids.size() && (ids[end] >> 16) == key) {
      if (end == i || ids[end] != ids[end - 1] + 1) ++runs;
      ++end;
    }
    Container c;
    c.key = key;
    c.cardinality = static_cast<uint32_t>(end - i);
    const int64_t plain = c.cardinality <= kArrayMax ? 2 * int64_t{c.cardinality} : 8192;
    if (2 + 4 * int64_t{runs} < plain) {
      c.type = Type::kRun;
      for (size_t k = i; k < end;) {
        size_t run_end = k + 1;
        while (run_end < end && ids[run_end] == ids[run_end - 1] + 1) ++run_end;
        c.values.push_back(static_cast<uint16_t>(ids[k] & 0xFFFF));
        c.values.push_back(static_cast<uint16_t>(run_end - k - 1));
        k = run_end;
      }
    } else if (c.cardinality <= kArrayMax) {
      c.type = Type::kArray;
      c.values.reserve(c.cardinality);
      for (size_t k = i; k < end; ++k) c.values.push_back(static_cast<uint16_t>(ids[k] & 0xFFFF));
    } else {
      c.type = Type::kBitmap;
      c.words.assign(kBitmapWords, 0);
      for (size_t k = i; k < end; ++k) {
        const uint32_t low = ids[k] & 0xFFFF;
        c.words[low >> 6] |= 1ULL << (low & 63);
      }
    }
    set->containers_.push_back(std::move(c));
    i = end;
  }
  set->Finish();
  return set;
}

void RoaringSet::Finish() {
  size_ = 0;
  for (Container& c : containers_) {
    c.rank_base = size_;
    size_ += c.cardinality;
  }
}

std::optional<uint64_t> RoaringSet::Rank(uint64_t id) const {
  const uint64_t key = id >> 16;
  auto it = std::lower_bound(containers_.begin(), containers_.end(), key,
                             [](const Container& c, uint64_t k) { return c.key < k; });
  if (it == containers_.end() || it->key != key) return std::nullopt;
  const uint16_t low = static_cast<uint16_t>(id & 0xFFFF);
  switch (it->type) {
    case Type::kArray: {
      auto v = std::lower_bound(it->values.begin(), it->values.end(), low);
      if (v == it->values.end() || *v != low) return std::nullopt;
      return it->rank_base + static_cast<uint64_t>(v - it->values.begin());
    }
    case Type::kBitmap: {
      const size_t word = low >> 6;
      const uint64_t bit = 1ULL << (low & 63);
      if ((it->words[word] & bit) == 0) return std::nullopt;
      const uint64_t last = it->words[word] & (bit - 1);
      const uint64_t below = CountBits(it->words.data(), word) + CountBits(&last, 1);
      return it->rank_base + below;
    }
    case Type::kRun: {
      uint64_t below = 0;
      for (size_t r = 0; r + 1 < it->values.size(); r += 2) {
        const uint32_t start = it->values[r];
        const uint32_t last = start + it->values[r + 1];
        if (low < start) return std::nullopt;
        if (low <= last) return it->rank_base + below + (low - start);
        below += last - start + 1;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> RoaringSet::Min() const {
  if (containers_.empty()) return std::nullopt;
  const Container& c = containers_.front();
  uint64_t low = 0;
  if (c.type == Type::kBitmap) {
    for (size_t w = 0; w < kBitmapWords; ++w) {
      if (c.words[w] != 0) {
        low = w * 64 + std::countr_zero(c.words[w]);
        break;
      }
    }
  } else {
    low = c.values[0];
  }
  return (c.key << 16) | low;
}

std::optional<uint64_t> RoaringSet::Max() const {
  if (containers_.empty()) return std::nullopt;
  const Container& c = containers_.back();
  uint64_t low = 0;
  if (c.type == Type::kBitmap) {
    for (size_t w = kBitmapWords; w-- > 0;) {
      if (c.words[w] != 0) {
        low = w * 64 + 63 - std::countl_zero(c.words[w]);
        break;
      }
    }
  } else if (c.type == Type::kArray) {
    low = c.values.back();
  } else {
    low = uint64_t{c.values[c.values.size() - 2]} + c.values.back();
  }
  return (c.key << 16) | low;
}

void RoaringSet::AppendTo(std::vector<uint64_t>* out) const {
  out->reserve(out->size() + size_);
  for (const Container& c : containers_) {
    const uint64_t base = c.key << 16;
    if (c.type == Type::kArray) {
      for (uint16_t v : c.values) out->push_back(base | v);
    } else if (c.type == Type::kBitmap) {
      for (size_t w = 0; w < kBitmapWords; ++w) {
        uint64_t word = c.words[w];
        while (word != 0) {
          out->push_back(base | (w * 64 + std::countr_zero(word)));
          word &= word - 1;
        }
      }
    } else {
      for (size_t r = 0; r + 1 < c.values.size(); r += 2) {
        for (uint32_t v = c.values[r]; v <= uint32_t{c.values[r]} + c.values[r + 1]; ++v) {
          out->push_back(base | v);
        }
      }
    }
  }
}

int64_t RoaringSet::memory_bytes() const {
  int64_t bytes = sizeof(RoaringSet) + static_cast<int64_t>(containers_.capacity() * sizeof(Container));
  for (const Container& c : containers_) {
    bytes += static_cast<int64_t>(c.values.capacity() * 2 + c.words.capacity() * 8);
  }
  return bytes;
}

int64_t RoaringSet::ContainerBytes(const Container& c) {
  switch (c.type) {
    case Type::kArray: return 2 * int64_t{c.cardinality};
    case Type::kBitmap: return 8192;
    case Type::kRun: return 2 + 2 * static_cast<int64_t>(c.values.size());
  }
  return 0;
}

// Containers sharing the high 32 bits form one portable 32-bit bitmap.
int64_t RoaringSet::EncodedSize() const {
  int64_t bytes = 8;
  size_t i = 0;
  while (i < containers_.size()) {
    const uint64_t high = containers_[i].key >> 16;
    size_t end = i;
    bool runs = false;
    int64_t body = 0;
    while (end < containers_.size() && (containers_[end].key >> 16) == high) {
      runs |= containers_[end].type == Type::kRun;
      body += ContainerBytes(containers_[end]);
      ++end;
    }
    const int64_t n = static_cast<int64_t>(end - i);
    bytes += 4;  // high key
    bytes += runs ? 4 + (n + 7) / 8 : 8;
    bytes += 4 * n;
    if (!runs || n >= kNoOffsetThreshold) bytes += 4 * n;
    bytes += body;
    i = end;
  }
  return bytes;
}

void RoaringSet::EncodeTo(std::string* out) const {
  uint64_t groups = 0;
  for (size_t i = 0; i < containers_.size(); ++i) {
    if (i == 0 || (containers_[i].key >> 16) != (containers_[i - 1].key >> 16)) ++groups;
  }
  PutU64(out, groups);
  size_t i = 0;
  while (i < containers_.size()) {
    const uint64_t high = containers_[i].key >> 16;
    size_t end = i;
    bool runs = false;
    while (end < containers_.size() && (containers_[end].key >> 16) == high) {
      runs |= containers_[end].type == Type::kRun;
      ++end;
    }
    const uint32_t n = static_cast<uint32_t>(end - i);
    PutU32(out, static_cast<uint32_t>(high));
    const size_t group_start = out->size();
    if (runs) {
      PutU32(out, kCookieRuns | ((n - 1) << 16));
      std::string flags((n + 7) / 8, '\0');
      for (uint32_t k = 0; k < n; ++k) {
        if (containers_[i + k].type == Type::kRun) flags[k / 8] |= static_cast<char>(1 << (k % 8));
      }
      out->append(flags);
    } else {
      PutU32(out, kCookieNoRuns);
      PutU32(out, n);
    }
    for (uint32_t k = 0; k < n; ++k) {
      PutU16(out, static_cast<uint16_t>(containers_[i + k].key & 0xFFFF));
      PutU16(out, static_cast<uint16_t>(containers_[i + k].cardinality - 1));
    }
    if (!runs || n >= kNoOffsetThreshold) {
      uint32_t offset = static_cast<uint32_t>(out->size() - group_start + 4 * n);
      for (uint32_t k = 0; k < n; ++k) {
        PutU32(out, offset);
        offset += static_cast<uint32_t>(ContainerBytes(containers_[i + k]));
      }
    }
    for (uint32_t k = 0; k < n; ++k) {
      const Container& c = containers_[i + k];
      if (c.type == Type::kRun) {
        PutU16(out, static_cast<uint16_t>(c.values.size() / 2));
        out->append(reinterpret_cast<const char*>(c.values.data()), c.values.size() * 2);
      } else if (c.type == Type::kArray) {
        out->append(reinterpret_cast<const char*>(c.values.data()), c.values.size() * 2);
      } else {
        out->append(reinterpret_cast<const char*>(c.words.data()), kBitmapWords * 8);
      }
    }
    i = end;
  }
}

Status RoaringSet::DecodeGroup(std::string_view bytes, uint64_t high, size_t* consumed,
                               std::vector<Container>* out) {
  ByteCursor in(bytes, "roaring bitmap");
  uint32_t cookie = 0;
  TARN_RETURN_NOT_OK(in.Read(&cookie));
  uint32_t n = 0;
  bool runs = false;
  std::string_view run_flags;
  if ((cookie & 0xFFFF) == kCookieRuns) {
    runs = true;
    n = (cookie >> 16) + 1;
    TARN_RETURN_NOT_OK(in.ReadBytes((n + 7) / 8, &run_flags));
  } else if (cookie == kCookieNoRuns) {
    TARN_RETURN_NOT_OK(in.Read(&n));
    if (n > 65536) return in.Error("more than 65536 containers");
  } else {
    return in.Error("unknown cookie");
  }
  std::string_view header;
  TARN_RETURN_NOT_OK(in.ReadBytes(size_t{n} * 4, &header));
  const bool has_offsets = !runs || n >= kNoOffsetThreshold;
  std::string_view offsets;
  if (has_offsets) TARN_RETURN_NOT_OK(in.ReadBytes(size_t{n} * 4, &offsets));
  const size_t first_new = out->size();
  for (uint32_t k = 0; k < n; ++k) {
    Container c;
    const uint16_t low_key = LoadLE<uint16_t>(header.data() + 4 * k);
    c.key = (high << 16) | low_key;
    c.cardinality = uint32_t{LoadLE<uint16_t>(header.data() + 4 * k + 2)} + 1;
    if (!out->empty() && out->size() > first_new && c.key <= out->back().key) {
      return in.Error("container keys not ascending");
    }
    if (has_offsets && LoadLE<uint32_t>(offsets.data() + 4 * k) != in.offset()) {
      return in.Error("container offset disagrees with the layout");
    }
    const bool is_run = runs && (static_cast<uint8_t>(run_flags[k / 8]) >> (k % 8)) & 1;
    std::string_view body;
    if (is_run) {
      c.type = Type::kRun;
      uint16_t nruns = 0;
      TARN_RETURN_NOT_OK(in.Read(&nruns));
      if (nruns == 0) return in.Error("empty run container");
      TARN_RETURN_NOT_OK(in.ReadBytes(size_t{nruns} * 4, &body));
      c.values.resize(size_t{nruns} * 2);
      std::memcpy(c.values.data(), body.data(), body.size());
      uint64_t total = 0;
      int64_t prev_last = -1;
      for (size_t r = 0; r < c.values.size(); r += 2) {
        const int64_t start = c.values[r];
        const int64_t last = start + c.values[r + 1];
        if (start <= prev_last || last > 0xFFFF) return in.Error("runs overlap or overflow");
        total += static_cast<uint64_t>(last - start + 1);
        prev_last = last;
      }
      if (total != c.cardinality) return in.Error("run cardinality disagrees with the header");
    } else if (c.cardinality <= kArrayMax) {
      c.type = Type::kArray;
      TARN_RETURN_NOT_OK(in.ReadBytes(size_t{c.cardinality} * 2, &body));
      c.values.resize(c.cardinality);
      std::memcpy(c.values.data(), body.data(), body.size());
      for (size_t v = 1; v < c.values.size(); ++v) {
        if (c.values[v] <= c.values[v - 1]) return in.Error("array values not ascending");
      }
    } else {
      c.type = Type::kBitmap;
      TARN_RETURN_NOT_OK(in.ReadBytes(kBitmapWords * 8, &body));
      c.words.resize(kBitmapWords);
      std::memcpy(c.words.data(), body.data(), body.size());
      const uint64_t total = CountBits(c.words.data(), c.words.size());
      if (total != c.cardinality) return in.Error("bitmap cardinality disagrees with the header");
    }
    out->push_back(std::move(c));
  }
  *consumed = in.offset();
  return Status::OK();
}

Result<std::shared_ptr<const RoaringSet>> RoaringSet::Decode(std::string_view bytes) {
  ByteCursor in(bytes, "roaring set");
  uint64_t groups = 0;
  TARN_RETURN_NOT_OK(in.Read(&groups));
  if (groups > in.remaining() / 12) return in.Error("bitmap count exceeds the bytes");
  auto set = std::make_shared<RoaringSet>();
  int64_t prev_high = -1;
  for (uint64_t g = 0; g < groups; ++g) {
    uint32_t high = 0;
    TARN_RETURN_NOT_OK(in.Read(&high));
    if (static_cast<int64_t>(high) <= prev_high) return in.Error("bitmap keys not ascending");
    prev_high = high;
    size_t consumed = 0;
    std::string_view rest = bytes.substr(in.offset());
    Status st = DecodeGroup(rest, high, &consumed, &set->containers_);
    if (!st.ok()) return st.WithContext(StrCat("roaring set at offset ", in.offset()));
    std::string_view skipped;
    TARN_RETURN_NOT_OK(in.ReadBytes(consumed, &skipped));
  }
  if (in.remaining() != 0) return in.Error("trailing bytes after the roaring set");
  set->Finish();
  return std::shared_ptr<const RoaringSet>(std::move(set));
}

}  // namespace tarn::rowid_internal
