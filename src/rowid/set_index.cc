#include "rowid/set_index.h"

#include <algorithm>

#include "rowid/bit_packing.h"
#include "rowid/byte_cursor.h"
#include "rowid/elias_fano.h"
#include "rowid/rowsum_format.h"

namespace tarn::rowid_internal {

namespace {

constexpr uint64_t kEliasFanoFixedBytes = 25;  // count, min, max, low width

inline bool BitAt(std::string_view bytes, uint64_t bit) {
  return (static_cast<uint8_t>(bytes[bit / 8]) >> (bit % 8)) & 1;
}

uint64_t Samples(const EliasFanoShape& shape, uint32_t sample) {
  return (shape.buckets + sample - 1) / sample;
}

}  // namespace

EliasFanoShape EliasFanoShape::Of(uint64_t count, uint64_t min, uint64_t max) {
  EliasFanoShape shape;
  shape.count = count;
  shape.min = min;
  shape.max = max;
  shape.low_width = EliasFanoSet::LowWidthFor(count, max - min);
  shape.buckets = ((max - min) >> shape.low_width) + 1;
  shape.high_bits = count + shape.buckets - 1;
  shape.low_offset = kEliasFanoFixedBytes;
  shape.high_offset = kEliasFanoFixedBytes + PackedBytes(count, shape.low_width);
  shape.set_len = shape.high_offset + (shape.high_bits + 7) / 8;
  return shape;
}

uint64_t SetIndexBytes(const EliasFanoShape& shape, uint32_t sample, uint32_t block) {
  const uint64_t blocks = (shape.set_len + block - 1) / block;
  return 4 * (Samples(shape, sample) + 1) + 4 * blocks + 4;
}

void EncodeSetIndex(const EliasFanoShape& shape, std::string_view set_bytes, uint32_t sample,
                    uint32_t block, std::string* out) {
  const size_t start = out->size();
  // The ids before bucket j·sample: the 1s before the zero that closes bucket j·sample − 1.
  PutU32(out, 0);
  const std::string_view high = set_bytes.substr(shape.high_offset);
  uint64_t ones = 0, zeros = 0;
  for (uint64_t bit = 0; bit < shape.high_bits; ++bit) {
    if (BitAt(high, bit)) {
      ++ones;
    } else if (++zeros % sample == 0) {
      PutU32(out, static_cast<uint32_t>(ones));
    }
  }
  PutU32(out, static_cast<uint32_t>(shape.count));
  for (uint64_t offset = 0; offset < set_bytes.size(); offset += block) {
    PutU32(out, Crc32(set_bytes.substr(offset, block)));
  }
  PutU32(out, Crc32(std::string_view(*out).substr(start)));
}

Result<SetIndex> SetIndex::Decode(const RowsumHeader& header, std::string_view bytes,
                                  std::string_view where) {
  const std::string what = StrCat("rowsum set index of '", where, "'");
  if (header.set_kind != RowIdSet::Kind::kEliasFano || header.distinct == 0) {
    return Status::Corruption(what, ": an index for a set of kind ", static_cast<int>(header.set_kind));
  }
  if (header.index_sample == 0 || header.index_sample > kMaxSetIndexSample ||
      header.index_block == 0 || header.index_block > kMaxSetIndexBlock) {
    return Status::Corruption(what, ": sample ", header.index_sample, ", block ", header.index_block);
  }
  SetIndex index;
  index.shape_ = EliasFanoShape::Of(header.distinct, header.min_id, header.max_id);
  index.sample_ = header.index_sample;
  index.block_ = header.index_block;
  index.where_.assign(where);
  if (index.shape_.set_len != header.set_len) {
    return Status::Corruption(what, ": the header's ", header.distinct, " ids over [", header.min_id,
                              ", ", header.max_id, "] make a set of ", index.shape_.set_len,
                              " bytes, not ", header.set_len);
  }
  const uint64_t expected = SetIndexBytes(index.shape_, index.sample_, index.block_);
  if (bytes.size() != expected || header.index_len != expected) {
    return Status::Corruption(what, ": ", bytes.size(), " bytes, expected ", expected);
  }
  const uint32_t stored = LoadLE<uint32_t>(bytes.data() + bytes.size() - 4);
  const uint32_t computed = Crc32(bytes.substr(0, bytes.size() - 4));
  if (stored != computed) {
    return Status::Corruption(what, ": checksum mismatch: stored ", stored, ", computed ", computed,
                              " at offset ", bytes.size() - 4);
  }
  const uint64_t samples = Samples(index.shape_, index.sample_);
  index.before_.resize(samples + 1);
  for (uint64_t j = 0; j <= samples; ++j) {
    index.before_[j] = LoadLE<uint32_t>(bytes.data() + 4 * j);
    const bool ordered = j == 0 ? index.before_[0] == 0 : index.before_[j] >= index.before_[j - 1];
    if (!ordered || (j == samples && index.before_[j] != index.shape_.count)) {
      return Status::Corruption(what, ": count ", index.before_[j], " at offset ", 4 * j,
                                " does not fit ", index.shape_.count, " ids");
    }
  }
  const uint64_t blocks = (index.shape_.set_len + index.block_ - 1) / index.block_;
  index.block_crcs_.resize(blocks);
  for (uint64_t b = 0; b < blocks; ++b) {
    index.block_crcs_[b] = LoadLE<uint32_t>(bytes.data() + 4 * (samples + 1 + b));
  }
  return index;
}

Status SetIndex::SetBytes(uint64_t begin, uint64_t end, const Fetch& fetch,
                          std::map<uint64_t, std::string>* blocks, std::string* out) const {
  out->clear();
  if (begin >= end) return Status::OK();
  if (end > shape_.set_len) {
    return Status::Corruption("rowsum set of '", where_, "': bytes [", begin, ", ", end,
                              ") past its ", shape_.set_len);
  }
  const uint64_t first = begin / block_, last = (end - 1) / block_;
  // The blocks not yet held, fetched in one read from the first missing to the last missing.
  uint64_t missing_first = last + 1, missing_last = first;
  for (uint64_t b = first; b <= last; ++b) {
    if (blocks->count(b) == 0) {
      missing_first = std::min(missing_first, b);
      missing_last = b;
    }
  }
  if (missing_first <= missing_last) {
    const uint64_t offset = missing_first * block_;
    const uint64_t length = std::min<uint64_t>((missing_last + 1) * block_, shape_.set_len) - offset;
    std::string bytes;
    TARN_RETURN_NOT_OK(fetch(offset, length, &bytes));
    if (bytes.size() != length) {
      return Status::Corruption("rowsum set of '", where_, "': read ", bytes.size(), " bytes at set offset ",
                                offset, ", expected ", length);
    }
    for (uint64_t b = missing_first; b <= missing_last; ++b) {
      std::string block = bytes.substr((b - missing_first) * block_, block_);
      const uint32_t computed = Crc32(block);
      if (computed != block_crcs_[b]) {
        return Status::Corruption("rowsum set block ", b, " of '", where_, "' (set offset ", b * block_,
                                  "): checksum mismatch: stored ", block_crcs_[b], ", computed ",
                                  computed);
      }
      blocks->emplace(b, std::move(block));
    }
  }
  for (uint64_t b = first; b <= last; ++b) out->append(blocks->at(b));
  *out = out->substr(begin - first * block_, end - begin);
  return Status::OK();
}

Status SetIndex::RankOf(uint64_t id, const Fetch& fetch, std::map<uint64_t, std::string>* blocks,
                        std::optional<uint64_t>* rank) const {
  rank->reset();
  if (id < shape_.min || id > shape_.max) return Status::OK();
  const int l = shape_.low_width;
  const uint64_t value = id - shape_.min;
  const uint64_t bucket = value >> l;
  const uint64_t stretch = bucket / sample_;
  const uint64_t samples = before_.size() - 1;
  // The stretch's high bits: from the start of bucket stretch·sample to the start of the next
  // stretch (the last one runs to the end).
  const uint64_t begin = stretch * sample_ + before_[stretch];
  const uint64_t end = stretch + 1 < samples ? (stretch + 1) * sample_ + before_[stretch + 1]
                                             : shape_.high_bits;
  const uint64_t stretch_buckets = std::min<uint64_t>(sample_, shape_.buckets - stretch * sample_);
  const uint64_t closing_zeros = stretch + 1 < samples ? stretch_buckets : stretch_buckets - 1;
  if (end < begin || end - begin != closing_zeros + (before_[stretch + 1] - before_[stretch]) ||
      end > shape_.high_bits) {
    return Status::Corruption("rowsum set index of '", where_, "': stretch ", stretch,
                              " spans high bits [", begin, ", ", end, ")");
  }
  std::string high;
  const uint64_t first_byte = begin / 8;
  TARN_RETURN_NOT_OK(SetBytes(shape_.high_offset + first_byte, shape_.high_offset + (end + 7) / 8,
                              fetch, blocks, &high));
  // Walk the stretch: the ids of earlier buckets in it, then the bucket's own.
  const uint64_t wanted_zeros = bucket - stretch * sample_;
  uint64_t zeros = 0, ones_before = 0, in_bucket = 0, ones = 0;
  for (uint64_t bit = begin; bit < end; ++bit) {
    if (BitAt(high, bit - 8 * first_byte)) {
      ++ones;
      if (zeros < wanted_zeros) {
        ++ones_before;
      } else if (zeros == wanted_zeros) {
        ++in_bucket;
      }
    } else {
      ++zeros;
    }
  }
  if (zeros != closing_zeros || ones != before_[stretch + 1] - before_[stretch]) {
    return Status::Corruption("rowsum set of '", where_, "': high bits [", begin, ", ", end, ") hold ",
                              ones, " ids and ", zeros, " bucket ends; the index says ",
                              before_[stretch + 1] - before_[stretch], " and ", closing_zeros,
                              " (set offset ", shape_.high_offset + first_byte, ")");
  }
  if (in_bucket == 0) return Status::OK();
  const uint64_t first = before_[stretch] + ones_before;
  if (l == 0) {
    if (in_bucket > 1) {
      return Status::Corruption("rowsum set of '", where_, "': id ", id, " repeats ", in_bucket,
                                " times");
    }
    *rank = first;
    return Status::OK();
  }
  // The bucket's low bits, ascending strictly.
  const uint64_t low_begin = first * static_cast<uint64_t>(l);
  const uint64_t low_end = (first + in_bucket) * static_cast<uint64_t>(l);
  std::string lows;
  TARN_RETURN_NOT_OK(SetBytes(shape_.low_offset + low_begin / 8, shape_.low_offset + (low_end + 7) / 8,
                              fetch, blocks, &lows));
  const uint64_t wanted_low = value & ((uint64_t{1} << l) - 1);
  uint64_t previous = 0;
  for (uint64_t k = 0; k < in_bucket; ++k) {
    uint64_t low = 0;
    for (int b = 0; b < l; ++b) {
      const uint64_t bit = (first + k) * static_cast<uint64_t>(l) + b - 8 * (low_begin / 8);
      low |= static_cast<uint64_t>(BitAt(lows, bit)) << b;
    }
    if (k > 0 && low <= previous) {
      return Status::Corruption("rowsum set of '", where_, "': id ", first + k,
                                " does not ascend within its bucket (set offset ",
                                shape_.low_offset + low_begin / 8, ")");
    }
    previous = low;
    if (low == wanted_low) *rank = first + k;
  }
  return Status::OK();
}

Status SetIndex::Ranks(std::span<const uint64_t> ids, const Fetch& fetch,
                       std::vector<std::optional<uint64_t>>* ranks) const {
  ranks->assign(ids.size(), std::nullopt);
  std::map<uint64_t, std::string> blocks;  // verified blocks, shared by the ids
  for (size_t i = 0; i < ids.size(); ++i) TARN_RETURN_NOT_OK(RankOf(ids[i], fetch, &blocks, &(*ranks)[i]));
  return Status::OK();
}

}  // namespace tarn::rowid_internal
