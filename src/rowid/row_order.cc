// RowOrder, PositionedRowSet::FromFileOrder and the small value types of tarn/rowid.h.
#include <algorithm>
#include <iostream>

#include "rowid/bit_packing.h"
#include "rowid/order_locator.h"
#include "tarn/columnar.h"
#include "tarn/rowid.h"

namespace tarn {

namespace {

std::shared_ptr<const Buffer> CopyToBuffer(std::span<const uint32_t> values) {
  return Buffer::CopyOf(values.data(), static_cast<int64_t>(values.size_bytes()));
}

std::span<const uint32_t> View(const std::shared_ptr<const Buffer>& buffer) {
  if (!buffer) return {};
  return {buffer->data_as<uint32_t>(), static_cast<size_t>(buffer->size()) / 4};
}

// Orders the rows by (id, position): *sorted_ids gets the ids ascending, positions[k] the file
// position of the k-th. When the largest id leaves room for the position's bits, each row is
// one integer id << bits | position and a least-significant-digit radix sort orders them;
// otherwise (id, position) pairs are compared.
void SortByIdThenPosition(std::span<const int64_t> ids, std::vector<uint64_t>* sorted_ids,
                          uint32_t* positions) {
  const size_t n = ids.size();
  uint64_t max_id = 0;
  for (int64_t id : ids) max_id = std::max(max_id, static_cast<uint64_t>(id));
  const int position_bits = BitsFor(n == 0 ? 0 : n - 1);
  sorted_ids->resize(n);
  if (BitsFor(max_id) + position_bits > 64) {
    std::vector<std::pair<uint64_t, uint32_t>> pairs(n);
    for (size_t p = 0; p < n; ++p) pairs[p] = {static_cast<uint64_t>(ids[p]), static_cast<uint32_t>(p)};
    std::sort(pairs.begin(), pairs.end());
    for (size_t k = 0; k < n; ++k) {
      (*sorted_ids)[k] = pairs[k].first;
      positions[k] = pairs[k].second;
    }
    return;
  }
  std::vector<uint64_t> keys(n);
  for (size_t p = 0; p < n; ++p) keys[p] = static_cast<uint64_t>(ids[p]) << position_bits | p;
  uint64_t* from = keys.data();
  uint64_t* to = sorted_ids->data();  // scratch during the sort, the ids afterwards
  constexpr int kDigitBits = 11;
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  const int key_bits = BitsFor(max_id) + position_bits;
  std::vector<size_t> counts(kBuckets);
  for (int shift = 0; shift < key_bits; shift += kDigitBits) {
    std::fill(counts.begin(), counts.end(), 0);
    for (size_t k = 0; k < n; ++k) counts[(from[k] >> shift) & (kBuckets - 1)]++;
    if (counts[(from[0] >> shift) & (kBuckets - 1)] == n) continue;  // one digit: already ordered
    size_t sum = 0;
    for (size_t& c : counts) {
      const size_t here = c;
      c = sum;
      sum += here;
    }
    for (size_t k = 0; k < n; ++k) to[counts[(from[k] >> shift) & (kBuckets - 1)]++] = from[k];
    std::swap(from, to);
  }
  const uint64_t mask = (uint64_t{1} << position_bits) - 1;
  uint64_t* out = sorted_ids->data();
  for (size_t k = 0; k < n; ++k) {
    const uint64_t key = from[k];
    positions[k] = static_cast<uint32_t>(key & mask);
    out[k] = key >> position_bits;  // in place when from == out: each key is read before written
  }
}

}  // namespace

RowOrder RowOrder::Permuted(const std::vector<uint32_t>& positions) {
  return Permuted(CopyToBuffer(positions));
}

RowOrder RowOrder::Repeated(const std::vector<uint32_t>& offsets,
                            const std::vector<uint32_t>& positions) {
  return Repeated(CopyToBuffer(offsets), CopyToBuffer(positions));
}

RowOrder RowOrder::Permuted(std::shared_ptr<const Buffer> positions) {
  RowOrder order;
  order.kind_ = Kind::kPermuted;
  order.positions_buffer_ = std::move(positions);
  order.positions_ = View(order.positions_buffer_);
  return order;
}

RowOrder RowOrder::Repeated(std::shared_ptr<const Buffer> offsets,
                            std::shared_ptr<const Buffer> positions) {
  RowOrder order;
  order.kind_ = Kind::kRepeated;
  order.offsets_buffer_ = std::move(offsets);
  order.positions_buffer_ = std::move(positions);
  order.offsets_ = View(order.offsets_buffer_);
  order.positions_ = View(order.positions_buffer_);
  return order;
}

void RowOrder::AppendPositions(uint64_t rank, std::vector<int64_t>* out) const {
  switch (kind_) {
    case Kind::kAscending:
      out->push_back(static_cast<int64_t>(rank));
      break;
    case Kind::kPermuted:
      out->push_back(positions_[rank]);
      break;
    case Kind::kRepeated:
      for (uint32_t k = offsets_[rank]; k < offsets_[rank + 1]; ++k) out->push_back(positions_[k]);
      break;
  }
}

int64_t RowOrder::memory_bytes() const {
  int64_t bytes = sizeof(RowOrder);
  if (offsets_buffer_) bytes += offsets_buffer_->capacity();
  if (positions_buffer_) bytes += positions_buffer_->capacity();
  return bytes;
}

Result<PositionedRowSet> PositionedRowSet::FromFileOrder(std::span<const int64_t> ids) {
  if (ids.size() > 0xFFFFFFFFULL) {
    return Status::NotSupported("row summary of ", ids.size(), " rows: at most 2^32 - 1");
  }
  bool ascending = true;
  for (size_t p = 0; p < ids.size(); ++p) {
    if (ids[p] < 0) return Status::InvalidArgument("negative row id ", ids[p], " at position ", p);
    if (p > 0 && ids[p] <= ids[p - 1]) ascending = false;
  }
  PositionedRowSet out;
  out.physical_rows = static_cast<int64_t>(ids.size());
  if (ascending) {
    std::vector<uint64_t> sorted(ids.begin(), ids.end());
    out.set = std::make_shared<const RowIdSet>(RowIdSet::FromSorted(sorted));
    out.order = std::make_shared<const RowOrder>(RowOrder::Ascending());
    return out;
  }
  const size_t n = ids.size();
  std::shared_ptr<Buffer> positions_buffer = Buffer::AllocateUninitialized(4 * static_cast<int64_t>(n));
  uint32_t* positions = positions_buffer->mutable_data_as<uint32_t>();
  std::vector<uint64_t> sorted_ids;
  SortByIdThenPosition(ids, &sorted_ids, positions);
  std::vector<uint64_t> distinct;
  distinct.reserve(n);
  std::vector<uint32_t> offsets;
  bool repeated = false;
  for (size_t k = 0; k < n; ++k) {
    if (k > 0 && sorted_ids[k] == sorted_ids[k - 1]) {
      repeated = true;
      continue;
    }
    distinct.push_back(sorted_ids[k]);
    offsets.push_back(static_cast<uint32_t>(k));
  }
  offsets.push_back(static_cast<uint32_t>(n));
  out.set = std::make_shared<const RowIdSet>(RowIdSet::FromSorted(distinct));
  out.order = std::make_shared<const RowOrder>(
      repeated ? RowOrder::Repeated(CopyToBuffer(offsets), std::move(positions_buffer))
               : RowOrder::Permuted(std::move(positions_buffer)));
  return out;
}

std::string SummaryIdentity::ToString() const {
  return StrCat("table ", table_id, " file ", data_file_id, " '", relative_path, "' (", file_size,
                " bytes)");
}

std::string_view SummarySourceName(SummarySource source) {
  switch (source) {
    case SummarySource::kDense: return "dense";
    case SummarySource::kMemoryCache: return "memory cache";
    case SummarySource::kDiskCache: return "disk cache";
    case SummarySource::kSidecar: return "sidecar";
    case SummarySource::kDerived: return "derived";
  }
  return "?";
}

FileSummary::FileSummary() = default;
FileSummary::~FileSummary() = default;
FileSummary::FileSummary(const FileSummary&) = default;
FileSummary& FileSummary::operator=(const FileSummary&) = default;

int64_t FileSummary::memory_bytes() const {
  int64_t bytes = sizeof(FileSummary) + static_cast<int64_t>(identity.relative_path.size());
  if (set) bytes += set->memory_bytes();
  if (order) bytes += order->memory_bytes();
  if (order_locator) bytes += order_locator->memory_bytes();
  return bytes;
}

void RowSummaryStats::LogOnce(const std::string& key, const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (std::find(logged_.begin(), logged_.end(), key) != logged_.end()) return;
    logged_.push_back(key);
  }
  if (log) {
    log(message);
  } else {
    std::cerr << "tarn: " << message << "\n";
  }
}

}  // namespace tarn
