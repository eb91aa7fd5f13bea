#include "rowid/sidecar.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "rowid/bit_packing.h"
#include "rowid/byte_cursor.h"
#include "rowid/order_locator.h"
#include "rowid/run_order.h"
#include "rowid/set_index.h"
#include "tarn/columnar.h"

namespace tarn::rowid_internal {

namespace {

// What a probe's first read takes past the header, for the set index.
constexpr uint64_t kProbePrefixBytes = 8 << 10;

// Reads [offset, offset + length) or fails with Corruption when the object is shorter (a
// truncated sidecar is corrupt, not an I/O failure).
Status ReadRange(const RandomAccessFile& file, uint64_t offset, uint64_t length, std::string* out,
                 int64_t* bytes_read) {
  const uint64_t size = static_cast<uint64_t>(file.size());
  if (offset > size || length > size - offset) {
    return Status::Corruption("'", file.path(), "' is ", size, " bytes, needs ", offset + length);
  }
  const size_t start = out->size();
  out->resize(start + length);
  TARN_RETURN_NOT_OK(file.ReadAt(static_cast<int64_t>(offset), static_cast<int64_t>(length),
                                 reinterpret_cast<uint8_t*>(out->data() + start)));
  *bytes_read += static_cast<int64_t>(length);
  return Status::OK();
}

// Reads and verifies the header, leaving in *prefix at least `want` bytes (or the header).
Status ReadHeader(const RandomAccessFile& file, const SummaryIdentity& expected, uint64_t want,
                  RowsumHeader* header, std::string* prefix, int64_t* bytes_read) {
  const uint64_t size = static_cast<uint64_t>(file.size());
  TARN_RETURN_NOT_OK(ReadRange(file, 0, std::min<uint64_t>(std::max<uint64_t>(want, kFixedHeaderBytes), size),
                               prefix, bytes_read));
  size_t needed = 0;
  TARN_RETURN_NOT_OK(DecodeRowsumHeader(*prefix, header, &needed));
  if (needed > prefix->size()) {
    TARN_RETURN_NOT_OK(ReadRange(file, prefix->size(), needed - prefix->size(), prefix, bytes_read));
    TARN_RETURN_NOT_OK(DecodeRowsumHeader(*prefix, header, &needed));
    if (needed > prefix->size()) return Status::Corruption("rowsum header does not settle");
  }
  TARN_RETURN_NOT_OK(CheckIdentity(*header, expected));
  if (header->total_len() != size) {
    return Status::Corruption("'", file.path(), "' is ", size, " bytes, its header says ",
                              header->total_len());
  }
  return Status::OK();
}

}  // namespace

Result<RowsumRead> ReadRowsum(FileSystem& fs, const std::string& path,
                              const SummaryIdentity& expected, bool want_order,
                              int64_t prefix_bytes) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs.OpenForRead(path));
  RowsumRead out;
  std::string bytes;
  TARN_RETURN_NOT_OK(ReadHeader(*file, expected, static_cast<uint64_t>(std::max<int64_t>(prefix_bytes, 0)),
                                &out.header, &bytes, &out.bytes_read));
  const RowsumHeader& h = out.header;
  const uint64_t want = want_order ? h.total_len() : h.order_offset();
  out.header_bytes = bytes.substr(0, h.header_len);
  std::string_view view(bytes);
  std::shared_ptr<Buffer> whole;  // the first `want` bytes when the prefix read fell short
  if (bytes.size() < want) {
    // One uninitialized block (recycled by the buffer cache) instead of a zero-filled string.
    whole = Buffer::AllocateUninitialized(static_cast<int64_t>(want));
    std::memcpy(whole->mutable_data(), bytes.data(), bytes.size());
    const uint64_t have = bytes.size();
    if (want - have > static_cast<uint64_t>(file->size()) - have) {
      return Status::Corruption("'", file->path(), "' is ", file->size(), " bytes, needs ", want);
    }
    TARN_RETURN_NOT_OK(file->ReadAt(static_cast<int64_t>(have), static_cast<int64_t>(want - have),
                                    whole->mutable_data() + have));
    out.bytes_read += static_cast<int64_t>(want - have);
    view = std::string_view(reinterpret_cast<const char*>(whole->data()), want);
  }
  TARN_ASSIGN_OR_RETURN(out.set, DecodeRowsumSet(h, view.substr(h.set_offset(), h.set_len)));
  if (want_order) {
    TARN_ASSIGN_OR_RETURN(RowOrder order, DecodeRowsumOrder(h, view.substr(h.order_offset(), h.order_len)));
    out.order = std::move(order);
  }
  return out;
}

Result<RowsumHeader> ReadRowsumHeader(FileSystem& fs, const std::string& path,
                                      const SummaryIdentity& expected) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs.OpenForRead(path));
  RowsumHeader header;
  std::string bytes;
  int64_t bytes_read = 0;
  TARN_RETURN_NOT_OK(ReadHeader(*file, expected, kFixedHeaderBytes + expected.relative_path.size() + 4,
                                &header, &bytes, &bytes_read));
  return header;
}

Result<RowsumProbe> ProbeRowsum(FileSystem& fs, const std::string& path,
                                const SummaryIdentity& expected, std::span<const uint64_t> ids) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs.OpenForRead(path));
  RowsumProbe out;
  std::string bytes;
  // The header as a version 3 writer lays it out for this path and, in the same read, an index
  // of up to kProbePrefixBytes (the seed's million ids: 7,456 bytes); a longer one is one more.
  TARN_RETURN_NOT_OK(ReadHeader(*file, expected,
                                kFixedHeaderBytes + expected.relative_path.size() + 20 + kProbePrefixBytes,
                                &out.header, &bytes, &out.bytes_read));
  const RowsumHeader& h = out.header;
  out.header_bytes = bytes.substr(0, h.header_len);
  if (h.index_len == 0) {
    return Status::NotSupported("'", path, "' has no set index (version ", h.version, ")");
  }
  if (bytes.size() < h.set_offset()) {
    TARN_RETURN_NOT_OK(ReadRange(*file, bytes.size(), h.set_offset() - bytes.size(), &bytes, &out.bytes_read));
  }
  TARN_ASSIGN_OR_RETURN(SetIndex index,
                        SetIndex::Decode(h, std::string_view(bytes).substr(h.index_offset(), h.index_len), path));
  // Set bytes the first read already holds are not read again.
  auto fetch = [&](uint64_t offset, uint64_t length, std::string* block) -> Status {
    block->clear();
    const uint64_t at = h.set_offset() + offset;
    if (at + length <= bytes.size()) {
      block->assign(bytes, at, length);
      return Status::OK();
    }
    return ReadRange(*file, at, length, block, &out.bytes_read);
  };
  TARN_RETURN_NOT_OK(index.Ranks(ids, fetch, &out.ranks));
  return out;
}

Status ReadOrderEntries(const OrderLocator& locator, std::span<const uint64_t> ranks,
                        std::vector<std::vector<int64_t>>* positions, int64_t* bytes_read) {
  const RowsumHeader& h = locator.header;
  positions->assign(ranks.size(), {});
  if (h.order_form == OrderForm::kAscending) {
    for (size_t i = 0; i < ranks.size(); ++i) (*positions)[i].push_back(static_cast<int64_t>(ranks[i]));
    return Status::OK();
  }
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, locator.fs->OpenForRead(locator.path));
  if (static_cast<uint64_t>(file->size()) != h.total_len()) {
    return Status::Corruption("'", locator.path, "' changed size since its set was read");
  }
  std::string header_now;
  TARN_RETURN_NOT_OK(ReadRange(*file, 0, h.header_len, &header_now, bytes_read));
  if (header_now != locator.header_bytes) {
    return Status::Corruption("'", locator.path, "' changed since its set was read");
  }
  const uint64_t body = h.body_len();
  std::map<uint64_t, std::string> blocks;  // verified blocks of the order's body
  auto body_bytes = [&](uint64_t begin, uint64_t end, std::string* out) -> Status {
    out->clear();
    for (uint64_t b = begin / h.order_block; b * h.order_block < end; ++b) {
      auto it = blocks.find(b);
      if (it == blocks.end()) {
        const uint64_t start = b * h.order_block;
        const uint64_t len = std::min<uint64_t>(h.order_block, body - start);
        std::string block, crc;
        TARN_RETURN_NOT_OK(ReadRange(*file, h.order_offset() + start, len, &block, bytes_read));
        TARN_RETURN_NOT_OK(ReadRange(*file, h.order_offset() + body + 4 * b, 4, &crc, bytes_read));
        TARN_RETURN_NOT_OK(CheckOrderBlock(h, b, block, LoadLE<uint32_t>(crc.data())));
        it = blocks.emplace(b, std::move(block)).first;
      }
      out->append(it->second);
    }
    // Trim to [begin, end) relative to the first block's start.
    const uint64_t first = (begin / h.order_block) * h.order_block;
    *out = out->substr(begin - first, end - begin);
    return Status::OK();
  };
  // Entry `index` of a packed array starting at body offset `base`.
  auto entry = [&](uint64_t base, uint64_t index, int width, uint32_t* value) -> Status {
    if (width == 0) {
      *value = 0;
      return Status::OK();
    }
    const uint64_t bit = index * static_cast<uint64_t>(width);
    const uint64_t begin = base + bit / 8;
    const uint64_t end = base + (bit + width + 7) / 8;
    if (end > body) return Status::Corruption("rowsum order entry past the body");
    std::string bytes;
    TARN_RETURN_NOT_OK(body_bytes(begin, end, &bytes));
    uint64_t acc = 0;
    for (size_t k = 0; k < bytes.size(); ++k) {
      acc |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[k])) << (8 * k);
    }
    *value = static_cast<uint32_t>((acc >> (bit % 8)) & ((1ULL << width) - 1));
    return Status::OK();
  };
  if (h.order_form == OrderForm::kRuns) {
    // The run table and tree first (one block for a few hundred runs), then per rank the
    // directory entries and words its descent touches.
    std::string table;
    TARN_RETURN_NOT_OK(body_bytes(0, std::min<uint64_t>(4, body), &table));
    TARN_ASSIGN_OR_RETURN(uint64_t table_bytes, RunOrderIndex::TableBytes(table, h.physical_rows, body));
    TARN_RETURN_NOT_OK(body_bytes(0, table_bytes, &table));
    TARN_ASSIGN_OR_RETURN(RunOrderIndex index, RunOrderIndex::Parse(table, h.physical_rows, body));
    std::string scratch;
    auto fetch = [&](uint64_t offset, uint64_t length, std::string_view* out) -> Status {
      if (offset > body || length > body - offset) {
        return Status::Corruption("rowsum run order: read past the body of '", locator.path, "'");
      }
      TARN_RETURN_NOT_OK(body_bytes(offset, offset + length, &scratch));
      *out = scratch;
      return Status::OK();
    };
    for (size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i] >= h.distinct) return Status::Corruption("rank ", ranks[i], " past ", h.distinct, " ids");
      uint32_t position = 0;
      TARN_RETURN_NOT_OK(index.Position(ranks[i], fetch, &position));
      (*positions)[i].push_back(position);
    }
    return Status::OK();
  }
  for (size_t i = 0; i < ranks.size(); ++i) {
    const uint64_t rank = ranks[i];
    if (rank >= h.distinct) return Status::Corruption("rank ", rank, " past ", h.distinct, " ids");
    uint32_t from = static_cast<uint32_t>(rank), to = from + 1;
    if (h.order_form == OrderForm::kRepeated) {
      TARN_RETURN_NOT_OK(entry(0, rank, h.offset_width, &from));
      TARN_RETURN_NOT_OK(entry(0, rank + 1, h.offset_width, &to));
      if (from >= to || to > h.physical_rows) return Status::Corruption("rowsum offsets out of order");
    }
    for (uint32_t k = from; k < to; ++k) {
      uint32_t position = 0;
      TARN_RETURN_NOT_OK(entry(h.positions_start(), k, h.position_width, &position));
      if (position >= h.physical_rows) return Status::Corruption("rowsum position past the file");
      (*positions)[i].push_back(position);
    }
    std::sort((*positions)[i].begin(), (*positions)[i].end());
  }
  return Status::OK();
}

}  // namespace tarn::rowid_internal
