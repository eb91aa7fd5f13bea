// RowIdSet: Range, Roaring, Elias-Fano or Sorted, whichever is smallest encoded.
#include <algorithm>

#include "rowid/byte_cursor.h"
#include "rowid/elias_fano.h"
#include "rowid/roaring_set.h"
#include "tarn/rowid.h"

namespace tarn {

using rowid_internal::ByteCursor;
using rowid_internal::EliasFanoSet;
using rowid_internal::RoaringSet;

RowIdSet::RowIdSet() = default;

RowIdSet RowIdSet::Range(uint64_t begin, uint64_t end) {
  RowIdSet set;
  set.kind_ = Kind::kRange;
  set.size_ = end - begin;
  set.min_ = begin;
  set.max_ = end == begin ? begin : end - 1;
  return set;
}

RowIdSet RowIdSet::FromSorted(std::span<const uint64_t> ids) {
  if (ids.empty() || ids.back() - ids.front() + 1 == ids.size()) {
    return FromSorted(ids, Kind::kRange);
  }
  // The picking rule of docs/formats/rowsum.md: the smallest encoding, ties to the earlier of
  // Roaring, Elias-Fano, Sorted. Elias-Fano's size is arithmetic on (count, min, max), so only
  // the chosen one is built (Roaring, built to be measured, is kept when it wins).
  auto roaring = RoaringSet::Build(ids);
  const int64_t roaring_bytes = roaring->EncodedSize();
  const int64_t elias_fano_bytes = EliasFanoSet::EncodedSizeFor(ids.size(), ids.front(), ids.back());
  const int64_t sorted_bytes = 8 + 8 * static_cast<int64_t>(ids.size());
  if (roaring_bytes <= elias_fano_bytes && roaring_bytes <= sorted_bytes) {
    RowIdSet set;
    set.kind_ = Kind::kRoaring;
    set.size_ = ids.size();
    set.min_ = ids.front();
    set.max_ = ids.back();
    set.roaring_ = std::move(roaring);
    return set;
  }
  return FromSorted(ids, elias_fano_bytes <= sorted_bytes ? Kind::kEliasFano : Kind::kSorted);
}

RowIdSet RowIdSet::FromSorted(std::span<const uint64_t> ids, Kind kind) {
  if (ids.empty()) return RowIdSet();
  RowIdSet set;
  switch (kind) {
    case Kind::kRange:
      return Range(ids.front(), ids.back() + 1);
    case Kind::kRoaring:
      set.roaring_ = RoaringSet::Build(ids);
      break;
    case Kind::kEliasFano:
      set.elias_fano_ = EliasFanoSet::Build(ids);
      break;
    case Kind::kSorted:
      set.sorted_ = std::make_shared<const std::vector<uint64_t>>(ids.begin(), ids.end());
      break;
  }
  set.kind_ = kind;
  set.size_ = ids.size();
  set.min_ = ids.front();
  set.max_ = ids.back();
  return set;
}

bool RowIdSet::Contains(uint64_t id) const { return Rank(id).has_value(); }

std::optional<uint64_t> RowIdSet::Rank(uint64_t id) const {
  if (size_ == 0 || id < min_ || id > max_) return std::nullopt;
  switch (kind_) {
    case Kind::kRange:
      return id - min_;
    case Kind::kRoaring:
      return roaring_->Rank(id);
    case Kind::kEliasFano:
      return elias_fano_->Rank(id);
    case Kind::kSorted: {
      auto it = std::lower_bound(sorted_->begin(), sorted_->end(), id);
      if (it == sorted_->end() || *it != id) return std::nullopt;
      return static_cast<uint64_t>(it - sorted_->begin());
    }
  }
  return std::nullopt;
}

std::vector<uint64_t> RowIdSet::ToVector() const {
  std::vector<uint64_t> out;
  if (size_ == 0) return out;
  switch (kind_) {
    case Kind::kRange:
      out.reserve(size_);
      for (uint64_t id = min_; id <= max_; ++id) out.push_back(id);
      break;
    case Kind::kRoaring:
      roaring_->AppendTo(&out);
      break;
    case Kind::kEliasFano:
      elias_fano_->AppendTo(&out);
      break;
    case Kind::kSorted:
      out = *sorted_;
      break;
  }
  return out;
}

int64_t RowIdSet::memory_bytes() const {
  int64_t bytes = sizeof(RowIdSet);
  if (roaring_) bytes += roaring_->memory_bytes();
  if (elias_fano_) bytes += elias_fano_->memory_bytes();
  if (sorted_) bytes += static_cast<int64_t>(sorted_->capacity() * 8);
  return bytes;
}

int64_t RowIdSet::container_count() const { return roaring_ ? roaring_->container_count() : 0; }

int64_t RowIdSet::EncodedSize() const {
  switch (kind_) {
    case Kind::kRange: return 16;
    case Kind::kRoaring: return roaring_->EncodedSize();
    case Kind::kEliasFano: return elias_fano_->EncodedSize();
    case Kind::kSorted: return 8 + 8 * static_cast<int64_t>(size_);
  }
  return 0;
}

void RowIdSet::EncodeTo(std::string* out) const {
  using rowid_internal::PutU64;
  switch (kind_) {
    case Kind::kRange:
      PutU64(out, min_);
      PutU64(out, size_ == 0 ? min_ : max_ + 1);
      break;
    case Kind::kRoaring:
      roaring_->EncodeTo(out);
      break;
    case Kind::kEliasFano:
      elias_fano_->EncodeTo(out);
      break;
    case Kind::kSorted:
      PutU64(out, size_);
      out->append(reinterpret_cast<const char*>(sorted_->data()), sorted_->size() * 8);
      break;
  }
}

Result<RowIdSet> RowIdSet::Decode(Kind kind, std::string_view bytes) {
  ByteCursor in(bytes, "row id set");
  RowIdSet set;
  switch (kind) {
    case Kind::kRange: {
      uint64_t begin = 0, end = 0;
      TARN_RETURN_NOT_OK(in.Read(&begin));
      TARN_RETURN_NOT_OK(in.Read(&end));
      if (end < begin) return in.Error("range ends before it begins");
      set = Range(begin, end);
      break;
    }
    case Kind::kRoaring: {
      TARN_ASSIGN_OR_RETURN(auto roaring, RoaringSet::Decode(bytes));
      set.kind_ = Kind::kRoaring;
      set.size_ = roaring->size();
      set.min_ = roaring->Min().value_or(0);
      set.max_ = roaring->Max().value_or(0);
      set.roaring_ = std::move(roaring);
      return set;
    }
    case Kind::kEliasFano: {
      TARN_ASSIGN_OR_RETURN(auto elias_fano, EliasFanoSet::Decode(bytes));
      set.kind_ = Kind::kEliasFano;
      set.size_ = elias_fano->size();
      set.min_ = elias_fano->min();
      set.max_ = elias_fano->max();
      set.elias_fano_ = std::move(elias_fano);
      return set;
    }
    case Kind::kSorted: {
      uint64_t count = 0;
      TARN_RETURN_NOT_OK(in.Read(&count));
      if (count != in.remaining() / 8 || in.remaining() % 8 != 0) {
        return in.Error("sorted id count disagrees with the bytes");
      }
      std::string_view body;
      TARN_RETURN_NOT_OK(in.ReadBytes(count * 8, &body));
      auto ids = std::make_shared<std::vector<uint64_t>>(count);
      std::memcpy(ids->data(), body.data(), body.size());
      for (size_t i = 1; i < ids->size(); ++i) {
        if ((*ids)[i] <= (*ids)[i - 1]) return in.Error("sorted ids not ascending");
      }
      set.kind_ = Kind::kSorted;
      set.size_ = count;
      if (count > 0) {
        set.min_ = ids->front();
        set.max_ = ids->back();
      }
      set.sorted_ = std::move(ids);
      return set;
    }
    default:
      return Status::Corruption("row id set: unknown kind ", static_cast<int>(kind));
  }
  if (in.remaining() != 0) return in.Error("trailing bytes after the set");
  return set;
}

}  // namespace tarn
