// RowOrder, PositionedRowSet::FromFileOrder and the small value types of tarn/rowid.h.
#include <algorithm>
#include <iostream>

#include "rowid/order_locator.h"
#include "tarn/rowid.h"

namespace tarn {

RowOrder RowOrder::Permuted(std::vector<uint32_t> positions) {
  RowOrder order;
  order.kind_ = Kind::kPermuted;
  order.positions_ = std::move(positions);
  return order;
}

RowOrder RowOrder::Repeated(std::vector<uint32_t> offsets, std::vector<uint32_t> positions) {
  RowOrder order;
  order.kind_ = Kind::kRepeated;
  order.offsets_ = std::move(offsets);
  order.positions_ = std::move(positions);
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
  return static_cast<int64_t>(sizeof(RowOrder) + 4 * (offsets_.capacity() + positions_.capacity()));
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
  // Sort (id, position) pairs packed so that one integer compare orders both.
  std::vector<std::pair<uint64_t, uint32_t>> pairs(ids.size());
  for (size_t p = 0; p < ids.size(); ++p) {
    pairs[p] = {static_cast<uint64_t>(ids[p]), static_cast<uint32_t>(p)};
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<uint64_t> distinct;
  distinct.reserve(pairs.size());
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> positions(pairs.size());
  bool repeated = false;
  for (size_t k = 0; k < pairs.size(); ++k) {
    positions[k] = pairs[k].second;
    if (k > 0 && pairs[k].first == pairs[k - 1].first) {
      repeated = true;
      continue;
    }
    distinct.push_back(pairs[k].first);
    offsets.push_back(static_cast<uint32_t>(k));
  }
  offsets.push_back(static_cast<uint32_t>(pairs.size()));
  out.set = std::make_shared<const RowIdSet>(RowIdSet::FromSorted(distinct));
  out.order = std::make_shared<const RowOrder>(
      repeated ? RowOrder::Repeated(std::move(offsets), std::move(positions))
               : RowOrder::Permuted(std::move(positions)));
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
