// ColumnChunkReader: decodes one leaf column of one row group, page by page, into definition
// and repetition levels plus values in their in-memory layout, with row-accurate skipping.
//
// Two output shapes (LeafOutput):
//   - flat leaves (max_rep_level == 0) are decoded *spaced*: one slot per row, NULL slots
//     zeroed and cleared in a validity bitmap, so the output is the final column;
//   - nested leaves keep their levels and *dense* values (only the defined ones); the
//     RecordAssembler turns them into validity and offsets.
//
// Skipping: Skip(n) drops n rows. Whole pages are passed over without decompression when the
// header alone proves they hold only skipped rows (flat columns: num_values is the row count;
// data page v2: num_rows); inside a page, levels are decoded and values skipped without
// materialization (dictionary indices skipped in the hybrid stream, fixed-width PLAIN by
// arithmetic, byte arrays by walking their lengths).
//
// Thread-safety: one thread at a time; distinct readers may run concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parquet/encoding.h"
#include "parquet/page_reader.h"
#include "parquet/schema.h"
#include "tarn/columnar.h"
#include "tarn/thread_pool.h"

namespace tarn::parquet {

// Decoded values of one leaf for a run of rows.
struct LeafOutput {
  // values: fixed-width values, a bitmap (booleans) or int64 offsets (var-length) into data.
  std::shared_ptr<Buffer> values;
  std::shared_ptr<Buffer> data;
  int64_t length = 0;      // values held (flat: rows; nested: defined values)
  // Flat only: validity (bit set = valid) and its NULL count.
  std::shared_ptr<Buffer> validity;
  int64_t null_count = 0;
  // Flat var-length leaves whose rows all came from dictionary pages of one dictionary: each
  // row's dictionary index (uint32, 0 when NULL), and that dictionary; null otherwise.
  std::shared_ptr<Buffer> codes;
  std::shared_ptr<Buffer> code_offsets;  // the dictionary's int64 offsets and bytes
  std::shared_ptr<Buffer> code_bytes;
  int64_t code_entries = 0;
  // Nested leaves, and flat leaves with keep_levels set (struct members): the entries' levels
  // in order (empty when the max level is 0).
  bool keep_levels = false;
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  int64_t num_entries = 0;
  int64_t capacity = 0;  // flat leaves: the rows Init made room for

  // Empty buffers for a leaf; `capacity_rows` is the exact row count for flat leaves.
  void Init(const LeafDescriptor& leaf, int64_t capacity_rows);
  // Makes sure value slots [0, n) exist (nested leaves grow as they go).
  void EnsureValues(const ValueLayout& layout, int64_t n);
};

struct PageMetrics {
  int64_t pages_read = 0;
  int64_t pages_skipped = 0;
};

class ColumnChunkReader {
 public:
  // `chunk` holds the column chunk's bytes starting at file offset `chunk_offset` and must
  // outlive the reader. `num_rows` is the row group's row count.
  ColumnChunkReader(const LeafDescriptor& leaf, const ColumnMetaData& meta,
                    std::string_view chunk, int64_t chunk_offset, int64_t num_rows,
                    std::string context, const CancellationToken* cancel);

  // Reads from `pieces` (see PageReader::SetPieces) instead of the whole chunk: gaps are
  // whole rows that Skip() passes over without their pages; a page the OffsetIndex located must
  // hold the rows the index gives it. REQUIRES: called before the first Read/Skip; the caller
  // reads only rows outside the gaps and skips each gap whole.
  void SetPieces(std::vector<ChunkPiece> pieces) { pages_.SetPieces(std::move(pieces)); }

  // Appends the next `rows` rows to `out`.
  Status Read(int64_t rows, LeafOutput* out);
  // Drops the next `rows` rows.
  Status Skip(int64_t rows);

  const PageMetrics& metrics() const { return metrics_; }

  // Whether page CRCs, where the file has them, are checked before a page is decoded.
  // Default: on (a mismatch is Corruption naming the page's offset).
  void set_verify_checksums(bool enabled) { pages_.set_verify_checksums(enabled); }

 private:
  bool nested() const { return leaf_.max_rep_level > 0; }
  // Makes a data page current (reading a dictionary page first when one comes). When
  // `skip_rows` > 0 and the next page provably holds no more than that many whole rows, the
  // page is passed over; *skipped receives the rows skipped that way.
  Status NextPage(int64_t skip_rows, int64_t* skipped);
  // Checks a loaded nested page against the rows the OffsetIndex gives it: its levels must
  // start a row and start that many rows (a v1 header does not say how many).
  Status CheckIndexedRows(const Page& page) const;
  Status LoadDataPage(const Page& page);
  Status LoadDictionary(const Page& page);
  Status DecodeLevels(const Page& page, std::string_view body, int64_t* values_offset);
  // Number of entries from the current position that make up `rows` rows within the current
  // page (nested); sets *rows_done to the row starts consumed.
  int64_t EntriesForRows(int64_t rows, int64_t* rows_done) const;
  int64_t CountDefined(int64_t begin, int64_t count) const;
  // Flat var-length leaves: where the current page's dictionary codes for `out`'s rows up to
  // `end` go, or null (and `out` keeps none) when its rows do not all come from one
  // dictionary.
  uint32_t* KeepCodes(LeafOutput* out, int64_t end) const;
  Status Fail(const std::string& what) const;

  const LeafDescriptor& leaf_;
  ValueLayout layout_;
  PageReader pages_;
  const CancellationToken* cancel_;
  int64_t num_rows_;
  int64_t chunk_values_ = 0;    // num_values declared for the chunk
  int64_t values_seen_ = 0;     // level entries of the pages loaded or skipped so far
  Dictionary dictionary_;
  bool has_dictionary_ = false;
  ValueDecoder values_;
  // The levels of the current data page's entries, in buffers that only grow and are never
  // cleared: a page whose entries are all defined writes (and touches) none of them.
  class Levels {
   public:
    void Resize(size_t n) {
      if (n > capacity_) {
        data_ = std::make_unique_for_overwrite<int16_t[]>(n);
        capacity_ = n;
      }
    }
    int16_t* data() { return data_.get(); }
    const int16_t* data() const { return data_.get(); }
    int16_t operator[](int64_t i) const { return data_[static_cast<size_t>(i)]; }

   private:
    std::unique_ptr<int16_t[]> data_;
    size_t capacity_ = 0;
  };
  Levels def_levels_;         // unwritten when all_defined_
  bool all_defined_ = false;  // flat leaf: every entry of the page is defined
  Levels rep_levels_;
  int64_t page_entries_ = 0;    // level entries in the page
  int64_t entry_pos_ = 0;       // next entry
  bool first_entry_ = true;     // the chunk's first entry must start a row
  int64_t page_offset_ = 0;     // file offset of the current page, for errors
  PageMetrics metrics_;
};

}  // namespace tarn::parquet
