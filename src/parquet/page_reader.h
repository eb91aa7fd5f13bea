// PageReader: walks the pages of one column chunk held in memory, decoding each page header
// and checking every declared size before anything is allocated, and decompresses page bodies
// on request into a buffer it reuses.
//
// Checks: a header must fit in the chunk; compressed_page_size must lie within the chunk;
// uncompressed_page_size (at most 2 GiB, the format's i32) is at most the chunk's declared
// uncompressed size and at most what the codec can produce from the page's bytes (brotli,
// without such a bound, decompresses a large page into a buffer grown with its output); v2
// level byte lengths fit in the page. Violations are Corruption naming the context (file, row
// group, column) and the page's file offset.
//
// Checksums: a data or dictionary page whose header carries a crc has it checked (zlib's
// CRC-32 of the page bytes as stored, i.e. after compression) before it is decompressed,
// unless verification is turned off. Pages passed over by Next() without Decompress() are not
// checked. Page headers themselves are not covered by the format's checksum.
//
// Pieces: a reader that fetched only some pages of the chunk (see chunk_fetch.h) hands over
// its pieces instead of the whole chunk. A piece is either bytes holding whole pages, or a gap:
// whole rows whose pages were not fetched, which the caller must skip (NextGap/SkipGap). A
// piece located by the OffsetIndex is `exact`: it must hold exactly one data page, whose header
// and body fill it; otherwise the index disagrees with the file and Next() fails. So must a
// `prefix` piece (the bytes before the first indexed page) hold no data page.
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"

#include "parquet/metadata.h"
#include "tarn/status.h"

namespace tarn::parquet {

struct Page {
  PageHeader header;
  int64_t file_offset = 0;         // of the page header
  std::string_view body;           // the page bytes as stored (possibly compressed)
  int64_t expected_rows = -1;      // the rows the OffsetIndex gives the page; -1 = unknown
  PageType type() const { return header.type; }
  // Values (level entries) in the page, or the dictionary size.
  int64_t num_values() const;
};

// A part of a column chunk fetched in pieces.
struct ChunkPiece {
  int64_t file_offset = 0;  // of the piece's first byte (or of the first page a gap stands for)
  std::string_view bytes;   // whole pages; empty for a gap
  bool gap = false;
  bool exact = false;       // exactly one data page, located by the OffsetIndex
  bool prefix = false;      // the bytes before the first indexed page: no data page allowed
  int64_t rows = -1;        // gap: whole rows not fetched; exact: rows the index gives the page
  int64_t pages = 0;        // gap: pages not fetched
};

class PageReader {
 public:
  // Pages of a codec without a ratio bound (brotli) declaring more than this are decompressed
  // into a buffer that grows with the output.
  static constexpr int64_t kEagerPageBytes = int64_t{16} << 20;

  // `chunk` holds the chunk's bytes, which start at `file_offset` in the file; `context`
  // ("<path>: row group R, column a.b") prefixes every error.
  PageReader(std::string_view chunk, int64_t file_offset, CompressionCodec codec,
             int64_t uncompressed_limit, std::string context);

  // Replaces the chunk by `pieces` (in file order), whose bytes must outlive the reader.
  void SetPieces(std::vector<ChunkPiece> pieces);
  // The gap that comes next, or null when the next thing is a page (or the end).
  const ChunkPiece* NextGap();
  // Passes over the gap NextGap() returned.
  void SkipGap();

  // Reads the next page header. Sets *page and returns true, or returns false at the end of
  // the chunk. REQUIRES: NextGap() is null.
  Result<bool> Next(Page* page);

  // Decompresses (or passes through) the page's body. For data page v2 the level bytes stay
  // as stored and only the values section is decompressed. The returned view stays valid until
  // the next call.
  Result<std::string_view> Decompress(const Page& page);

  const std::string& context() const { return context_; }
  // Context plus the page's offset: "<context>, page at offset N".
  std::string PageContext(const Page& page) const;

  // Default: on.
  void set_verify_checksums(bool enabled) { verify_checksums_ = enabled; }

 private:
  std::string_view chunk_;
  int64_t file_offset_ = 0;
  CompressionCodec codec_;
  int64_t uncompressed_limit_ = 0;
  std::string context_;
  int64_t pos_ = 0;
  bool verify_checksums_ = true;
  std::vector<ChunkPiece> pieces_;  // empty: chunk_ is the whole chunk
  size_t piece_ = 0;                // the piece chunk_ holds, when pieces_ is set
  std::shared_ptr<Buffer> scratch_;  // decompressed page; grown, reused for later pages
};

}  // namespace tarn::parquet
