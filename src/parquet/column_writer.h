// ColumnChunkWriter: encodes one leaf column of one row group into a column chunk — an
// optional dictionary page followed by data pages (v1 or v2), compressed with the chosen codec,
// with optional page CRCs — and describes it (ColumnMetaData with offsets relative to the
// chunk's first byte, and statistics).
//
// The row group's data is added one top-level column slice at a time (Add); Finish decides
// between dictionary and PLAIN encoding for the whole chunk (PLAIN when the dictionary would
// pass dictionary_page_bytes_limit, or when it would hold nearly every value), cuts pages at
// record boundaries by data_page_rows and data_page_bytes, and encodes them.
//
// Byte-array values are referenced, not copied: the columns passed to Add must stay alive
// until Finish returns.
//
// Thread-safety: one writer per thread; distinct writers may run in parallel.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "parquet/metadata.h"
#include "parquet/page_index.h"
#include "parquet/writer_schema.h"
#include "parquet/writer_statistics.h"
#include "tarn/columnar.h"
#include "tarn/parquet.h"
#include "tarn/status.h"

namespace tarn::parquet {

struct EncodedChunk {
  std::string bytes;          // the pages, back to back
  ColumnMetaData meta;        // data_page_offset / dictionary_page_offset relative to bytes
  ChunkStatistics stats;      // always computed (min/max only when the sort order has one)
  int64_t num_rows = 0;
  // One entry per data page, with per-page statistics, unless the leaf's PageIndexMode is kOff.
  std::vector<PageIndexEntry> pages;
};

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const WriterLeaf& leaf, const WriterProperties& properties);
  ~ColumnChunkWriter();
  ColumnChunkWriter(const ColumnChunkWriter&) = delete;
  ColumnChunkWriter& operator=(const ColumnChunkWriter&) = delete;

  // Adds the rows of `top_level_column` (the leaf's top-level column of one batch slice).
  // REQUIRES: the column outlives Finish().
  Status Add(const Column& top_level_column);
  // Encodes everything added. Call once.
  Result<EncodedChunk> Finish();

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace tarn::parquet
