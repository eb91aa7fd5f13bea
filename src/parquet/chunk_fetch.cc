#include "parquet/chunk_fetch.h"

#include <algorithm>

#include "parquet/metadata.h"

namespace tarn::parquet {

namespace {

// One page (or the dictionary prefix) of a fetch plan.
struct PlannedPage {
  int64_t offset = 0;
  int64_t size = 0;
  int64_t rows = 0;      // data pages: rows it holds
  bool data = false;     // a data page (else a dictionary prefix or another non-data page)
  bool needed = false;
};

int64_t CountRows(const RowRanges& ranges) {
  int64_t total = 0;
  for (const auto& range : ranges) total += range.second - range.first;
  return total;
}

// Whether any selected row lies in [begin, end).
bool Intersects(const RowRanges& ranges, int64_t begin, int64_t end) {
  auto it = std::partition_point(ranges.begin(), ranges.end(),
                                 [&](const auto& range) { return range.second <= begin; });
  return it != ranges.end() && it->first < end;
}

// Reads the needed pages of `pages` (adjacent ones in one read) and describes the rest as
// gaps. `indexed`: the pages come from the OffsetIndex (exact pieces, a checked prefix).
Result<FetchedChunk> FetchPlanned(const ChunkFetchRequest& request,
                                  const std::vector<PlannedPage>& pages, bool indexed,
                                  int64_t bytes_read) {
  FetchedChunk out;
  out.bytes_read = bytes_read;
  int64_t total = 0;
  for (const PlannedPage& page : pages) total += page.needed ? page.size : 0;
  out.bytes = Buffer::Allocate(total);
  uint8_t* base = out.bytes->mutable_data();
  int64_t run_offset = 0;  // file offset of the pending read
  int64_t run_begin = 0;   // its position in `bytes`
  int64_t filled = 0;      // bytes of `bytes` planned so far
  auto flush = [&]() -> Status {
    const int64_t length = filled - run_begin;
    if (length > 0) {
      TARN_RETURN_NOT_OK(request.file->ReadAt(run_offset, length, base + run_begin));
      out.bytes_read += length;
    }
    return Status::OK();
  };
  for (const PlannedPage& page : pages) {
    if (!page.needed) {
      if (out.pieces.empty() || !out.pieces.back().gap) {
        ChunkPiece gap;
        gap.file_offset = page.offset;
        gap.gap = true;
        gap.rows = 0;
        out.pieces.push_back(gap);
      }
      out.pieces.back().rows += page.rows;
      out.pieces.back().pages += page.data ? 1 : 0;
      continue;
    }
    if (filled == run_begin || run_offset + (filled - run_begin) != page.offset) {
      TARN_RETURN_NOT_OK(flush());
      run_offset = page.offset;
      run_begin = filled;
    }
    ChunkPiece piece;
    piece.file_offset = page.offset;
    piece.bytes = std::string_view(reinterpret_cast<const char*>(base + filled),
                                   static_cast<size_t>(page.size));
    if (indexed) {
      piece.exact = page.data;
      piece.prefix = !page.data;
      piece.rows = page.data ? page.rows : 0;
    }
    out.pieces.push_back(piece);
    filled += page.size;
  }
  TARN_RETURN_NOT_OK(flush());
  return out;
}

Result<FetchedChunk> FetchWhole(const ChunkFetchRequest& request, int64_t bytes_read) {
  FetchedChunk out;
  out.bytes = Buffer::Allocate(request.chunk_length);
  TARN_RETURN_NOT_OK(
      request.file->ReadAt(request.chunk_begin, request.chunk_length, out.bytes->mutable_data()));
  out.bytes_read = bytes_read + request.chunk_length;
  return out;
}

Result<FetchedChunk> FetchIndexed(const ChunkFetchRequest& request) {
  const ChunkPageIndex& index = *request.index;
  const auto& locations = index.offset_index.page_locations;
  const RowRanges& ranges = *request.ranges;
  std::vector<PlannedPage> pages;
  if (!locations.empty() && locations[0].offset > request.chunk_begin) {
    PlannedPage prefix;  // the dictionary page, when there is one
    prefix.offset = request.chunk_begin;
    prefix.size = locations[0].offset - request.chunk_begin;
    prefix.needed = true;
    pages.push_back(prefix);
  }
  for (size_t i = 0; i < locations.size(); ++i) {
    PlannedPage page;
    page.offset = locations[i].offset;
    page.size = locations[i].compressed_page_size;
    page.rows = index.page_rows[i].second - index.page_rows[i].first;
    page.data = true;
    page.needed = Intersects(ranges, index.page_rows[i].first, index.page_rows[i].second);
    pages.push_back(page);
  }
  while (!pages.empty() && !pages.back().needed) pages.pop_back();  // never reached
  return FetchPlanned(request, pages, /*indexed=*/true, 0);
}

// Walks the page headers with small reads. Falls back to the whole chunk when a page's row
// count is not in its header.
Result<FetchedChunk> FetchWalked(const ChunkFetchRequest& request) {
  const RowRanges& ranges = *request.ranges;
  const int64_t end = request.chunk_begin + request.chunk_length;
  const int64_t last_row = ranges.back().second;
  std::string probe;
  int64_t probe_offset = 0;
  int64_t bytes_read = 0;
  std::vector<PlannedPage> pages;
  int64_t pos = request.chunk_begin;
  int64_t row = 0;
  while (pos < end && row < last_row) {
    int64_t want = kHeaderProbeBytes;
    int64_t consumed = 0;
    PageHeader header;
    while (true) {
      const bool covered = pos >= probe_offset &&
                           pos - probe_offset < static_cast<int64_t>(probe.size()) &&
                           probe_offset + static_cast<int64_t>(probe.size()) - pos >=
                               std::min(want, end - pos);
      if (!covered) {
        const int64_t length = std::min(want, end - pos);
        probe.resize(static_cast<size_t>(length));
        TARN_RETURN_NOT_OK(
            request.file->ReadAt(pos, length, reinterpret_cast<uint8_t*>(probe.data())));
        probe_offset = pos;
        bytes_read += length;
      }
      const std::string_view view = std::string_view(probe).substr(
          static_cast<size_t>(pos - probe_offset));
      Result<PageHeader> decoded = DecodePageHeader(view, &consumed);
      if (decoded.ok()) {
        header = std::move(decoded).value();
        break;
      }
      if (pos + static_cast<int64_t>(view.size()) >= end) {
        return decoded.status().WithContext(
            StrCat(request.context, ", page header at offset ", pos));
      }
      want *= 4;
    }
    const int64_t body = header.compressed_page_size;
    if (consumed <= 0 || body < 0 || body > end - pos - consumed) {
      return Status::Corruption(request.context, ", page at offset ", pos,
                                ": compressed_page_size ", body, " exceeds the ",
                                std::max<int64_t>(end - pos - consumed, 0),
                                " bytes left in the column chunk");
    }
    PlannedPage page;
    page.offset = pos;
    page.size = consumed + body;
    if (header.type == PageType::kDictionaryPage) {
      page.needed = true;
    } else if (header.type == PageType::kDataPage || header.type == PageType::kDataPageV2) {
      int64_t rows = -1;  // a flat page's entries are its rows
      if (header.data_page_header) rows = header.data_page_header->num_values;
      if (header.data_page_header_v2) rows = header.data_page_header_v2->num_values;
      if (rows < 0) return FetchWhole(request, bytes_read);  // the page reader will say why
      page.data = true;
      page.rows = rows;
      page.needed = Intersects(ranges, row, row + rows);
      row += rows;
    }
    pages.push_back(page);
    pos += page.size;
  }
  return FetchPlanned(request, pages, /*indexed=*/false, bytes_read);
}

}  // namespace

bool SelectsPartOfRowGroup(const ChunkFetchRequest& request) {
  return request.ranges != nullptr && !request.ranges->empty() &&
         CountRows(*request.ranges) < request.row_group_rows;
}

bool WantsPartialFetch(const ChunkFetchRequest& request) {
  if (!SelectsPartOfRowGroup(request)) return false;
  if (request.index != nullptr) return true;
  const int64_t selected = CountRows(*request.ranges);
  return request.flat && selected * kSparseRowsDivisor < request.row_group_rows;
}

Result<FetchedChunk> FetchChunk(const ChunkFetchRequest& request) {
  if (!WantsPartialFetch(request)) return FetchWhole(request, 0);
  if (request.index != nullptr) return FetchIndexed(request);
  return FetchWalked(request);
}

}  // namespace tarn::parquet
