#include "parquet/page_reader.h"

#include <algorithm>
#include <cstring>

#include "parquet/checksum.h"
#include "parquet/compression.h"

namespace tarn::parquet {

int64_t Page::num_values() const {
  switch (header.type) {
    case PageType::kDataPage:
      return header.data_page_header ? header.data_page_header->num_values : 0;
    case PageType::kDataPageV2:
      return header.data_page_header_v2 ? header.data_page_header_v2->num_values : 0;
    case PageType::kDictionaryPage:
      return header.dictionary_page_header ? header.dictionary_page_header->num_values : 0;
    default:
      return 0;
  }
}

PageReader::PageReader(std::string_view chunk, int64_t file_offset, CompressionCodec codec,
                       int64_t uncompressed_limit, std::string context)
    : chunk_(chunk),
      file_offset_(file_offset),
      codec_(codec),
      uncompressed_limit_(uncompressed_limit),
      context_(std::move(context)) {}

std::string PageReader::PageContext(const Page& page) const {
  return StrCat(context_, ", page at offset ", page.file_offset);
}

void PageReader::SetPieces(std::vector<ChunkPiece> pieces) {
  pieces_ = std::move(pieces);
  piece_ = 0;
  pos_ = 0;
  chunk_ = {};
  if (!pieces_.empty()) {
    chunk_ = pieces_[0].bytes;
    file_offset_ = pieces_[0].file_offset;
  }
}

const ChunkPiece* PageReader::NextGap() {
  if (pieces_.empty()) return nullptr;
  // Moves past pieces whose pages have all been read.
  while (piece_ < pieces_.size() && !pieces_[piece_].gap &&
         pos_ >= static_cast<int64_t>(chunk_.size())) {
    if (++piece_ == pieces_.size()) break;
    chunk_ = pieces_[piece_].bytes;
    file_offset_ = pieces_[piece_].file_offset;
    pos_ = 0;
  }
  if (piece_ < pieces_.size() && pieces_[piece_].gap) return &pieces_[piece_];
  return nullptr;
}

void PageReader::SkipGap() {
  if (piece_ >= pieces_.size() || !pieces_[piece_].gap) return;
  if (++piece_ < pieces_.size()) {
    chunk_ = pieces_[piece_].bytes;
    file_offset_ = pieces_[piece_].file_offset;
  } else {
    chunk_ = {};
  }
  pos_ = 0;
}

Result<bool> PageReader::Next(Page* page) {
  if (NextGap() != nullptr) {
    return Status::Internal(context_, ": pages were read across rows that were not fetched");
  }
  if (pos_ >= static_cast<int64_t>(chunk_.size())) return false;
  const bool exact = !pieces_.empty() && pieces_[piece_].exact;
  const int64_t header_offset = file_offset_ + pos_;
  int64_t consumed = 0;
  Result<PageHeader> header = DecodePageHeader(chunk_.substr(pos_), &consumed);
  if (!header.ok()) {
    return header.status().WithContext(
        StrCat(context_, ", page header at offset ", header_offset,
               exact ? " (where the offset index places a page)" : ""));
  }
  page->header = std::move(header).value();
  page->file_offset = header_offset;
  page->expected_rows = -1;
  const PageHeader& h = page->header;
  if (exact) {
    const int64_t stored = consumed + static_cast<int64_t>(h.compressed_page_size);
    if (h.compressed_page_size < 0 || stored != static_cast<int64_t>(chunk_.size()) ||
        (h.type != PageType::kDataPage && h.type != PageType::kDataPageV2)) {
      return Status::Corruption(PageContext(*page), ": the offset index places a data page of ",
                                chunk_.size(), " bytes here; the page header found declares a ",
                                PageTypeName(h.type), " page of ", consumed, " + ",
                                h.compressed_page_size, " bytes");
    }
    page->expected_rows = pieces_[piece_].rows;
  } else if (!pieces_.empty() && pieces_[piece_].prefix &&
             (h.type == PageType::kDataPage || h.type == PageType::kDataPageV2)) {
    return Status::Corruption(PageContext(*page), ": a data page lies before the first page "
                              "the offset index lists, at offset ",
                              pieces_[piece_].file_offset + chunk_.size());
  }
  const int64_t remaining = static_cast<int64_t>(chunk_.size()) - pos_ - consumed;
  if (consumed <= 0 || remaining < 0 || h.compressed_page_size < 0 ||
      h.compressed_page_size > remaining) {
    return Status::Corruption(PageContext(*page), ": compressed_page_size ",
                              h.compressed_page_size, " exceeds the ", std::max<int64_t>(remaining, 0),
                              " bytes left in the column chunk");
  }
  if (h.uncompressed_page_size < 0 || h.uncompressed_page_size > uncompressed_limit_) {
    return Status::Corruption(PageContext(*page), ": uncompressed_page_size ",
                              h.uncompressed_page_size,
                              " is negative or over the column chunk's uncompressed size of ",
                              uncompressed_limit_, " bytes");
  }
  switch (h.type) {
    case PageType::kDataPage:
      if (!h.data_page_header) {
        return Status::Corruption(PageContext(*page), ": data page without data_page_header");
      }
      break;
    case PageType::kDataPageV2: {
      if (!h.data_page_header_v2) {
        return Status::Corruption(PageContext(*page), ": data page v2 without its header");
      }
      const DataPageHeaderV2& v2 = *h.data_page_header_v2;
      const int64_t level_bytes = static_cast<int64_t>(v2.definition_levels_byte_length) +
                                  v2.repetition_levels_byte_length;
      if (v2.definition_levels_byte_length < 0 || v2.repetition_levels_byte_length < 0 ||
          level_bytes > h.compressed_page_size || level_bytes > h.uncompressed_page_size) {
        return Status::Corruption(PageContext(*page), ": level byte lengths ",
                                  v2.repetition_levels_byte_length, " + ",
                                  v2.definition_levels_byte_length, " exceed the page size");
      }
      if (v2.num_values < 0 || v2.num_rows < 0 || v2.num_nulls < 0 ||
          v2.num_nulls > v2.num_values) {
        return Status::Corruption(PageContext(*page), ": data page v2 declares ", v2.num_values,
                                  " values, ", v2.num_rows, " rows, ", v2.num_nulls, " nulls");
      }
      break;
    }
    case PageType::kDictionaryPage:
      if (!h.dictionary_page_header) {
        return Status::Corruption(PageContext(*page), ": dictionary page without its header");
      }
      break;
    default:
      break;  // index pages and unknown types are skipped by the caller
  }
  if (page->num_values() < 0) {
    return Status::Corruption(PageContext(*page), ": negative num_values ", page->num_values());
  }
  page->body = chunk_.substr(static_cast<size_t>(pos_ + consumed),
                             static_cast<size_t>(h.compressed_page_size));
  pos_ += consumed + h.compressed_page_size;
  return true;
}

Result<std::string_view> PageReader::Decompress(const Page& page) {
  const PageHeader& h = page.header;
  if (verify_checksums_ && h.crc.has_value() &&
      (h.type == PageType::kDataPage || h.type == PageType::kDataPageV2 ||
       h.type == PageType::kDictionaryPage)) {
    const uint32_t stored = static_cast<uint32_t>(*h.crc);
    const uint32_t computed = PageCrc32(page.body);
    if (stored != computed) {
      return Status::Corruption(PageContext(page), ": page checksum mismatch: the header stores ",
                                Hex32(stored), ", the ", page.body.size(),
                                " page bytes hash to ", Hex32(computed));
    }
  }
  int64_t prefix = 0;  // bytes stored uncompressed at the start (v2 levels)
  bool compressed = codec_ != CompressionCodec::kUncompressed;
  if (h.type == PageType::kDataPageV2) {
    const DataPageHeaderV2& v2 = *h.data_page_header_v2;
    prefix = static_cast<int64_t>(v2.definition_levels_byte_length) +
             v2.repetition_levels_byte_length;
    compressed = compressed && v2.is_compressed;
  }
  if (!compressed) {
    if (static_cast<int64_t>(page.body.size()) != h.uncompressed_page_size &&
        h.type != PageType::kDataPageV2) {
      // Some writers pad; only the declared uncompressed bytes are page data.
      if (static_cast<int64_t>(page.body.size()) < h.uncompressed_page_size) {
        return Status::Corruption(PageContext(page), ": uncompressed page holds ",
                                  page.body.size(), " bytes, header says ",
                                  h.uncompressed_page_size);
      }
      return page.body.substr(0, static_cast<size_t>(h.uncompressed_page_size));
    }
    return page.body;
  }
  const int64_t out_size = h.uncompressed_page_size;
  const std::string_view input = page.body.substr(static_cast<size_t>(prefix));
  const int64_t values_size = out_size - prefix;
  Status possible = CheckDecompressedSize(codec_, input, values_size);
  if (!possible.ok()) return possible.WithContext(PageContext(page));
  if (HasNoRatioBound(codec_) && values_size > kEagerPageBytes) {
    // No bound on what these bytes hold: a buffer grown with the output, so memory follows the
    // page's contents rather than its claim.
    auto grown = Buffer::AllocateUninitialized(prefix);
    if (prefix > 0) std::memcpy(grown->mutable_data(), page.body.data(), static_cast<size_t>(prefix));
    Status status = DecompressGrowing(codec_, input, values_size, kEagerPageBytes, &grown);
    if (!status.ok()) return status.WithContext(PageContext(page));
    scratch_ = std::move(grown);
    return std::string_view(reinterpret_cast<const char*>(scratch_->data()),
                            static_cast<size_t>(out_size));
  }
  if (scratch_ == nullptr || scratch_->size() < out_size) {
    // Decompression writes all out_size bytes or fails (every codec checks the size).
    scratch_ = Buffer::AllocateUninitialized(out_size);
  }
  uint8_t* scratch = scratch_->mutable_data();
  if (prefix > 0) std::memcpy(scratch, page.body.data(), static_cast<size_t>(prefix));
  if (values_size > 0 || !input.empty()) {
    Status status = parquet::Decompress(codec_, input, scratch + prefix, values_size);
    if (!status.ok()) return status.WithContext(PageContext(page));
  }
  return std::string_view(reinterpret_cast<const char*>(scratch),
                          static_cast<size_t>(out_size));
}

}  // namespace tarn::parquet
