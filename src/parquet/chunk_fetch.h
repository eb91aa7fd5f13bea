// Chunk fetching for row-selective scans: which bytes of one column chunk a scan reads when it
// wants only some rows of the row group.
//
// With an OffsetIndex the pages are known without touching the chunk: the reader fetches the
// bytes before the first data page (the dictionary page) and the data pages whose rows meet
// the selection, adjacent pages in one ranged read, and hands the pages in between over as gaps
// of whole rows. Every fetched page is checked against the index when it is read (PageReader:
// the header and body fill the located bytes; ColumnChunkReader: the page holds the rows the
// index gives it), so a corrupt index is an error naming the file, column and offset. What
// cannot be checked without reading them are the headers of pages not fetched: an index
// rewritten consistently for another page layout (each page's offset, size and row count
// matching the headers actually fetched) would go unnoticed; any single wrong field is caught.
//
// Without an OffsetIndex, a chunk of a flat column (whose pages' num_values are their rows) is
// walked header by header with small ranged reads, skipping each page's body, when the
// selection is sparse (fewer than 1 in kSparseRowsDivisor rows of the row group); only the
// dictionary page and the pages holding selected rows are fetched whole. Nested columns
// without an index (their page rows are known only from levels, or from a v2 header that
// nothing would check) and denser selections read the whole chunk in one read.
//
// Thread-safety: plain functions; the file must allow concurrent ReadAt.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parquet/page_index.h"
#include "parquet/page_reader.h"
#include "tarn/columnar.h"
#include "tarn/io.h"

namespace tarn::parquet {

// Without an OffsetIndex, header walking is tried when selected rows * this < row group rows.
constexpr int64_t kSparseRowsDivisor = 4;
// Bytes read to decode one page header during a walk (more when the header is longer).
constexpr int64_t kHeaderProbeBytes = 512;

struct ChunkFetchRequest {
  const RandomAccessFile* file = nullptr;
  int64_t chunk_begin = 0;       // file offset of the chunk's first byte
  int64_t chunk_length = 0;      // checked against the file by the caller
  int64_t row_group_rows = 0;
  const RowRanges* ranges = nullptr;           // selected rows of the row group, sorted
  const ChunkPageIndex* index = nullptr;       // null: the chunk has no OffsetIndex
  bool flat = true;                            // the leaf has no repetition levels
  std::string context;                         // "<path>: row group R, column c"
};

struct FetchedChunk {
  std::shared_ptr<Buffer> bytes;   // everything fetched
  std::vector<ChunkPiece> pieces;  // empty: `bytes` is the whole chunk
  int64_t bytes_read = 0;          // including header probes
};

// Whether the selected rows are a part of the row group (then an OffsetIndex is worth reading).
bool SelectsPartOfRowGroup(const ChunkFetchRequest& request);

// Whether FetchChunk would read less than the whole chunk for these rows.
bool WantsPartialFetch(const ChunkFetchRequest& request);

// Reads the chunk's bytes the selected rows need (see the file comment).
Result<FetchedChunk> FetchChunk(const ChunkFetchRequest& request);

}  // namespace tarn::parquet
