#include "parquet/column_reader.h"

#include <algorithm>
#include <cstring>

namespace tarn::parquet {

namespace {

// Nested pages are decoded whole into level arrays; refuse pages claiming more entries.
constexpr int64_t kMaxNestedPageEntries = int64_t{64} << 20;

template <int W>
void ExpandFixed(uint8_t* values, int64_t dense, int64_t n, const int16_t* defs, int16_t max_def) {
  int64_t j = dense;
  for (int64_t i = n - 1; i >= 0; --i) {
    if (defs[i] == max_def) {
      --j;
      if (j != i) std::memcpy(values + i * W, values + j * W, W);
    } else {
      std::memset(values + i * W, 0, W);
    }
  }
}

}  // namespace

void LeafOutput::Init(const LeafDescriptor& leaf, int64_t capacity_rows) {
  const ValueLayout layout = leaf.layout();
  length = 0;
  null_count = 0;
  num_entries = 0;
  def_levels.clear();
  rep_levels.clear();
  const int64_t cap = leaf.max_rep_level > 0 ? 0 : capacity_rows;
  capacity = cap;
  codes.reset();
  code_offsets.reset();
  code_bytes.reset();
  code_entries = 0;
  // A flat leaf's batch is complete only when all `cap` rows were read (the assembler checks
  // the length), and reading writes every value slot and offset, NULL slots included; so only
  // the first offset and the bit-packed booleans (set bit by bit) need zeroed memory.
  if (layout.var_length()) {
    values = Buffer::AllocateUninitialized((cap + 1) * 8);
    values->mutable_data_as<int64_t>()[0] = 0;
    data = Buffer::Allocate(0);
  } else if (layout.boolean()) {
    values = Buffer::Allocate((cap + 7) / 8);
  } else {
    values = Buffer::AllocateUninitialized(cap * layout.output_width);
  }
  if (leaf.max_rep_level == 0 && leaf.max_def_level > 0 && leaf.nullable) {
    validity = Buffer::AllocateUninitialized((cap + 7) / 8);
    std::memset(validity->mutable_data(), 0xFF, static_cast<size_t>((cap + 7) / 8));
  } else {
    validity.reset();
  }
}

void LeafOutput::EnsureValues(const ValueLayout& layout, int64_t n) {
  int64_t bytes;
  if (layout.var_length()) {
    bytes = (n + 1) * 8;
  } else if (layout.boolean()) {
    bytes = (n + 7) / 8;
  } else {
    bytes = n * layout.output_width;
  }
  if (values->size() < bytes) values->Resize(bytes);
}

ColumnChunkReader::ColumnChunkReader(const LeafDescriptor& leaf, const ColumnMetaData& meta,
                                     std::string_view chunk, int64_t chunk_offset,
                                     int64_t num_rows, std::string context,
                                     const CancellationToken* cancel)
    : leaf_(leaf),
      layout_(leaf.layout()),
      pages_(chunk, chunk_offset, meta.codec,
             std::max<int64_t>(meta.total_uncompressed_size, 0), std::move(context)),
      cancel_(cancel),
      num_rows_(num_rows),
      chunk_values_(meta.num_values),
      values_(leaf.layout()) {}

Status ColumnChunkReader::Fail(const std::string& what) const {
  return Status::Corruption(pages_.context(), ", page at offset ", page_offset_, ": ", what);
}

Status ColumnChunkReader::LoadDictionary(const Page& page) {
  const DictionaryPageHeader& header = *page.header.dictionary_page_header;
  page_offset_ = page.file_offset;
  if (header.encoding != Encoding::kPlain && header.encoding != Encoding::kPlainDictionary) {
    return Status::NotSupported(pages_.PageContext(page), ": dictionary page encoding ",
                                EncodingName(header.encoding));
  }
  TARN_ASSIGN_OR_RETURN(std::string_view body, pages_.Decompress(page));
  ++metrics_.pages_read;
  Status status = dictionary_.Decode(layout_, reinterpret_cast<const uint8_t*>(body.data()),
                                     static_cast<int64_t>(body.size()), header.num_values);
  if (!status.ok()) return status.WithContext(pages_.PageContext(page));
  has_dictionary_ = true;
  return Status::OK();
}

namespace {

// When `all_max` is given and the levels are one RLE run of max_level, sets *all_max and
// leaves `out` unwritten; otherwise decodes into `out` and clears *all_max.
Status DecodeLevelRun(Encoding encoding, const uint8_t* data, int64_t size, int max_level,
                      int64_t count, bool length_prefixed, int16_t* out, int64_t* consumed,
                      bool* all_max = nullptr) {
  if (all_max != nullptr) *all_max = false;
  const int bit_width = BitWidth(static_cast<uint64_t>(max_level));
  if (encoding == Encoding::kRle) {
    int64_t length = size;
    int64_t start = 0;
    if (length_prefixed) {
      if (size < 4) return Status::Corruption("levels: missing the 4-byte length prefix");
      uint32_t declared;
      std::memcpy(&declared, data, 4);
      if (static_cast<int64_t>(declared) > size - 4) {
        return Status::Corruption("levels: length ", declared, " exceeds the ", size - 4,
                                  " bytes left in the page");
      }
      length = declared;
      start = 4;
    }
    RleBitPackedDecoder decoder(data + start, length, bit_width);
    uint32_t run_value = 0;
    if (all_max != nullptr && count > 0 && decoder.PeekRun(count, &run_value) &&
        run_value == static_cast<uint32_t>(max_level)) {
      *all_max = true;
      *consumed = start + length;
      return Status::OK();
    }
    TARN_RETURN_NOT_OK(decoder.GetLevels(out, count));
    *consumed = start + length;
  } else if (encoding == Encoding::kBitPacked) {
    TARN_RETURN_NOT_OK(DecodeBitPackedLevels(data, size, bit_width, count, out));
    *consumed = (count * bit_width + 7) / 8;
  } else {
    return Status::NotSupported("level encoding ", EncodingName(encoding));
  }
  int16_t highest = 0;
  for (int64_t i = 0; i < count; ++i) highest = std::max(highest, out[i]);
  if (highest > max_level) {
    return Status::Corruption("level ", highest, " exceeds the maximum level ", max_level);
  }
  return Status::OK();
}

}  // namespace

Status ColumnChunkReader::DecodeLevels(const Page& page, std::string_view body,
                                       int64_t* values_offset) {
  const auto* data = reinterpret_cast<const uint8_t*>(body.data());
  const int64_t size = static_cast<int64_t>(body.size());
  const int64_t n = page_entries_;
  const int16_t max_rep = leaf_.max_rep_level;
  const int16_t max_def = leaf_.max_def_level;
  if (max_rep > 0) rep_levels_.Resize(static_cast<size_t>(n));
  if (max_def > 0) def_levels_.Resize(static_cast<size_t>(n));
  all_defined_ = false;
  // Flat leaves whose page defines every value skip materializing the levels.
  bool* all_defined = max_rep == 0 ? &all_defined_ : nullptr;
  Status status;
  if (page.type() == PageType::kDataPage) {
    const DataPageHeader& header = *page.header.data_page_header;
    int64_t pos = 0;
    int64_t consumed = 0;
    if (max_rep > 0) {
      status = DecodeLevelRun(header.repetition_level_encoding, data, size, max_rep, n, true,
                              rep_levels_.data(), &consumed);
      if (!status.ok()) return Fail(StrCat("repetition ", status.message()));
      pos += consumed;
    }
    if (max_def > 0) {
      status = DecodeLevelRun(header.definition_level_encoding, data + pos, size - pos, max_def,
                              n, true, def_levels_.data(), &consumed, all_defined);
      if (!status.ok()) return Fail(StrCat("definition ", status.message()));
      pos += consumed;
    }
    *values_offset = pos;
  } else {
    const DataPageHeaderV2& header = *page.header.data_page_header_v2;
    const int64_t rep_bytes = header.repetition_levels_byte_length;
    const int64_t def_bytes = header.definition_levels_byte_length;
    if (rep_bytes + def_bytes > size) return Fail("level bytes exceed the page");
    int64_t consumed = 0;
    if (max_rep > 0) {
      status = DecodeLevelRun(Encoding::kRle, data, rep_bytes, max_rep, n, false,
                              rep_levels_.data(), &consumed);
      if (!status.ok()) return Fail(StrCat("repetition ", status.message()));
    }
    if (max_def > 0) {
      status = DecodeLevelRun(Encoding::kRle, data + rep_bytes, def_bytes, max_def, n, false,
                              def_levels_.data(), &consumed, all_defined);
      if (!status.ok()) return Fail(StrCat("definition ", status.message()));
    }
    *values_offset = rep_bytes + def_bytes;
  }
  if (max_rep > 0 && n > 0 && first_entry_ && rep_levels_[0] != 0) {
    return Fail("the column chunk's first repetition level is not 0");
  }
  if (n > 0) first_entry_ = false;
  return Status::OK();
}

Status ColumnChunkReader::LoadDataPage(const Page& page) {
  page_offset_ = page.file_offset;
  TARN_ASSIGN_OR_RETURN(std::string_view body, pages_.Decompress(page));
  ++metrics_.pages_read;
  page_entries_ = page.num_values();
  entry_pos_ = 0;
  int64_t values_offset = 0;
  TARN_RETURN_NOT_OK(DecodeLevels(page, body, &values_offset));
  const Encoding encoding = page.type() == PageType::kDataPage
                                ? page.header.data_page_header->encoding
                                : page.header.data_page_header_v2->encoding;
  const auto* data = reinterpret_cast<const uint8_t*>(body.data()) + values_offset;
  const int64_t size = static_cast<int64_t>(body.size()) - values_offset;
  Status status;
  switch (encoding) {
    case Encoding::kPlain:
      values_.ResetPlain(data, size);
      break;
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      status = values_.ResetDictionary(data, size, has_dictionary_ ? &dictionary_ : nullptr);
      break;
    case Encoding::kDeltaBinaryPacked:
    case Encoding::kDeltaLengthByteArray:
    case Encoding::kDeltaByteArray:
      status = values_.ResetDelta(encoding, leaf_.physical_type, leaf_.type_length, data, size,
                                  page_entries_);
      break;
    case Encoding::kByteStreamSplit:
      status = values_.ResetByteStreamSplit(leaf_.physical_type, leaf_.type_length, data, size);
      break;
    case Encoding::kRle:
      if (layout_.boolean()) {
        status = values_.ResetRleBooleans(data, size);
        break;
      }
      [[fallthrough]];
    default:
      return Status::NotSupported(pages_.PageContext(page), ": encoding ",
                                  EncodingName(encoding), " of column ", leaf_.PathString(),
                                  " is not supported yet");
  }
  if (!status.ok()) return Fail(status.message());
  return Status::OK();
}

Status ColumnChunkReader::NextPage(int64_t skip_rows, int64_t* skipped) {
  page_entries_ = 0;
  entry_pos_ = 0;
  while (true) {
    if (cancel_ != nullptr) TARN_RETURN_NOT_OK(cancel_->Check("Parquet scan"));
    if (const ChunkPiece* gap = pages_.NextGap()) {
      // Rows whose pages were not fetched: only ever skipped whole. A read stops here (the
      // previous row ended with its page, as indexed pages start at rows).
      if (skip_rows == 0 && gap->rows > 0) return Status::OK();
      if (gap->rows > skip_rows) {
        return Status::Internal(pages_.context(), ": skipping ", skip_rows,
                                " rows into a gap of ", gap->rows, " rows not fetched");
      }
      if (!nested() && gap->rows > num_rows_ - values_seen_) {
        return Fail(StrCat("pages not fetched declare ", gap->rows, " rows, more than the ",
                           num_rows_ - values_seen_, " rows left in the row group"));
      }
      skip_rows -= gap->rows;
      *skipped += gap->rows;
      if (!nested()) values_seen_ += gap->rows;
      metrics_.pages_skipped += gap->pages;
      pages_.SkipGap();
      continue;
    }
    Page page;
    TARN_ASSIGN_OR_RETURN(bool more, pages_.Next(&page));
    if (!more) return Status::OK();  // page_entries_ == 0 tells the caller
    page_offset_ = page.file_offset;
    if (page.type() == PageType::kDictionaryPage) {
      TARN_RETURN_NOT_OK(LoadDictionary(page));
      continue;
    }
    if (page.type() != PageType::kDataPage && page.type() != PageType::kDataPageV2) continue;
    const int64_t n = page.num_values();
    const int64_t limit = nested() ? chunk_values_ : num_rows_;
    if (n > limit - values_seen_) {
      return Fail(StrCat("the page's ", n, " values exceed the ", limit - values_seen_,
                         nested() ? " values left in the column chunk"
                                  : " rows left in the row group"));
    }
    if (nested() && n > kMaxNestedPageEntries) {
      return Fail(StrCat("the page declares ", n, " values, over the limit of ",
                         kMaxNestedPageEntries));
    }
    int64_t page_rows = -1;  // unknown without decoding levels
    if (!nested()) {
      page_rows = n;
    } else if (page.type() == PageType::kDataPageV2) {
      page_rows = page.header.data_page_header_v2->num_rows;  // v2 pages start at row bounds
    }
    if (page.expected_rows >= 0 && page_rows >= 0 && page_rows != page.expected_rows) {
      return Fail(StrCat("the offset index gives the page ", page.expected_rows,
                         " rows; its header declares ", page_rows));
    }
    if (skip_rows > 0 && page_rows >= 0 && page_rows <= skip_rows) {
      skip_rows -= page_rows;
      *skipped += page_rows;
      values_seen_ += n;
      ++metrics_.pages_skipped;
      if (n > 0) first_entry_ = false;
      continue;
    }
    values_seen_ += n;
    TARN_RETURN_NOT_OK(LoadDataPage(page));
    if (page.expected_rows >= 0 && nested()) TARN_RETURN_NOT_OK(CheckIndexedRows(page));
    if (page_entries_ > 0) return Status::OK();
  }
}

Status ColumnChunkReader::CheckIndexedRows(const Page& page) const {
  int64_t rows = 0;
  for (int64_t i = 0; i < page_entries_; ++i) rows += rep_levels_[i] == 0;
  if (rows != page.expected_rows || (page_entries_ > 0 && rep_levels_[0] != 0)) {
    return Fail(StrCat("the offset index gives the page ", page.expected_rows,
                       " rows; its levels start ", rows, " rows",
                       page_entries_ > 0 && rep_levels_[0] != 0 ? ", the first mid-row" : ""));
  }
  return Status::OK();
}

int64_t ColumnChunkReader::CountDefined(int64_t begin, int64_t count) const {
  const int16_t max_def = leaf_.max_def_level;
  if (max_def == 0 || all_defined_) return count;
  const int16_t* defs = def_levels_.data() + begin;
  int64_t defined = 0;
  for (int64_t i = 0; i < count; ++i) defined += defs[i] == max_def;
  return defined;
}

int64_t ColumnChunkReader::EntriesForRows(int64_t rows, int64_t* rows_done) const {
  const int16_t* reps = rep_levels_.data();
  int64_t i = entry_pos_;
  int64_t started = 0;
  for (; i < page_entries_; ++i) {
    if (reps[i] == 0) {
      if (started == rows) break;
      ++started;
    }
  }
  *rows_done = started;
  return i - entry_pos_;
}

uint32_t* ColumnChunkReader::KeepCodes(LeafOutput* out, int64_t end) const {
  const Dictionary* dictionary = values_.page_dictionary();
  const bool first = out->length == 0;
  if (dictionary == nullptr || end > out->capacity ||
      (!first && (out->codes == nullptr || out->code_offsets != dictionary->values_buffer()))) {
    out->codes.reset();
    out->code_offsets.reset();
    out->code_bytes.reset();
    return nullptr;
  }
  if (first) {
    out->codes = Buffer::AllocateUninitialized(out->capacity * 4);
    out->code_offsets = dictionary->values_buffer();
    out->code_bytes = dictionary->data_buffer();
    out->code_entries = dictionary->size();
  }
  return out->codes->mutable_data_as<uint32_t>();
}

Status ColumnChunkReader::Read(int64_t rows, LeafOutput* out) {
  ValueSink sink{out->values.get(), out->data.get()};
  const int16_t max_def = leaf_.max_def_level;
  if (!nested()) {
    while (rows > 0) {
      if (entry_pos_ == page_entries_) {
        int64_t unused = 0;
        TARN_RETURN_NOT_OK(NextPage(0, &unused));
        if (page_entries_ == 0) {
          return Fail(StrCat("the column chunk ends ", rows, " rows short of the row group's ",
                             num_rows_));
        }
      }
      const int64_t n = std::min(rows, page_entries_ - entry_pos_);
      const int64_t p = out->length;
      const int64_t defined = CountDefined(entry_pos_, n);
      sink.codes = layout_.var_length() ? KeepCodes(out, p + n) : nullptr;
      Status status = values_.Decode(defined, &sink, p);
      if (!status.ok()) return Fail(status.message());
      if (out->keep_levels && max_def > 0) {
        if (all_defined_) {
          out->def_levels.insert(out->def_levels.end(), static_cast<size_t>(n), max_def);
        } else {
          out->def_levels.insert(out->def_levels.end(), def_levels_.data() + entry_pos_,
                                 def_levels_.data() + entry_pos_ + n);
        }
      }
      if (defined < n) {
        const int16_t* defs = def_levels_.data() + entry_pos_;
        if (out->validity) {
          // A non-nullable leaf under a NULL struct keeps a zeroed, valid slot.
          uint8_t* validity = out->validity->mutable_data();
          for (int64_t i = 0; i < n; ++i) {
            if (defs[i] != max_def) ClearBit(validity, p + i);
          }
          out->null_count += n - defined;
        }
        if (layout_.var_length()) {
          int64_t* offsets = out->values->mutable_data_as<int64_t>() + p;
          int64_t j = defined;
          for (int64_t i = n - 1; i >= 0; --i) {
            offsets[i + 1] = offsets[j];
            if (defs[i] == max_def) --j;
          }
          if (sink.codes != nullptr) {
            uint32_t* codes = sink.codes + p;
            j = defined;
            for (int64_t i = n - 1; i >= 0; --i) codes[i] = defs[i] == max_def ? codes[--j] : 0;
          }
        } else if (layout_.boolean()) {
          uint8_t* bits = out->values->mutable_data();
          int64_t j = defined;
          for (int64_t i = n - 1; i >= 0; --i) {
            const int64_t dst = p + i;
            bool bit = false;
            if (defs[i] == max_def) {
              --j;
              bit = GetBit(bits, p + j);
            }
            if (bit) {
              SetBit(bits, dst);
            } else {
              ClearBit(bits, dst);
            }
          }
        } else {
          uint8_t* values = out->values->mutable_data() + p * layout_.output_width;
          switch (layout_.output_width) {
            case 1: ExpandFixed<1>(values, defined, n, defs, max_def); break;
            case 2: ExpandFixed<2>(values, defined, n, defs, max_def); break;
            case 4: ExpandFixed<4>(values, defined, n, defs, max_def); break;
            case 8: ExpandFixed<8>(values, defined, n, defs, max_def); break;
            case 16: ExpandFixed<16>(values, defined, n, defs, max_def); break;
            default: return Status::Internal("unexpected value width ", layout_.output_width);
          }
        }
      }
      entry_pos_ += n;
      out->length += n;
      out->num_entries += n;
      rows -= n;
    }
    return Status::OK();
  }
  // Nested: copy levels and dense values until `rows` rows are complete.
  int64_t rows_left = rows;
  while (true) {
    if (entry_pos_ == page_entries_) {
      int64_t unused = 0;
      TARN_RETURN_NOT_OK(NextPage(0, &unused));
      if (page_entries_ == 0) {
        if (rows_left == 0) return Status::OK();
        return Fail(StrCat("the column chunk ends ", rows_left, " rows short"));
      }
      if (rows_left == 0 && rep_levels_[0] == 0) return Status::OK();
    }
    int64_t rows_done = 0;
    const int64_t k = EntriesForRows(rows_left, &rows_done);
    const int64_t defined = CountDefined(entry_pos_, k);
    if (out->num_entries + k > (int64_t{1} << 31) - 1) {
      return Fail("more than 2^31 list entries in one batch");
    }
    if (max_def > 0) {
      out->def_levels.insert(out->def_levels.end(), def_levels_.data() + entry_pos_,
                             def_levels_.data() + entry_pos_ + k);
    }
    out->rep_levels.insert(out->rep_levels.end(), rep_levels_.data() + entry_pos_,
                           rep_levels_.data() + entry_pos_ + k);
    out->num_entries += k;
    out->EnsureValues(layout_, out->length + defined);
    sink.values = out->values.get();
    Status status = values_.Decode(defined, &sink, out->length);
    if (!status.ok()) return Fail(status.message());
    out->length += defined;
    rows_left -= rows_done;
    entry_pos_ += k;
    if (entry_pos_ < page_entries_) return Status::OK();  // stopped at the next row's start
  }
}

Status ColumnChunkReader::Skip(int64_t rows) {
  if (!nested()) {
    while (rows > 0) {
      if (entry_pos_ == page_entries_) {
        int64_t skipped = 0;
        TARN_RETURN_NOT_OK(NextPage(rows, &skipped));
        rows -= skipped;
        if (rows == 0) return Status::OK();
        if (page_entries_ == 0) {
          return Fail(StrCat("the column chunk ends ", rows, " rows short of the row group's ",
                             num_rows_));
        }
      }
      const int64_t n = std::min(rows, page_entries_ - entry_pos_);
      Status status = values_.Skip(CountDefined(entry_pos_, n));
      if (!status.ok()) return Fail(status.message());
      entry_pos_ += n;
      rows -= n;
    }
    return Status::OK();
  }
  int64_t rows_left = rows;
  while (true) {
    if (entry_pos_ == page_entries_) {
      int64_t skipped = 0;
      TARN_RETURN_NOT_OK(NextPage(rows_left, &skipped));
      rows_left -= skipped;
      if (page_entries_ == 0) {
        if (rows_left == 0) return Status::OK();
        return Fail(StrCat("the column chunk ends ", rows_left, " rows short"));
      }
      if (rows_left == 0 && rep_levels_[0] == 0) return Status::OK();
    }
    int64_t rows_done = 0;
    const int64_t k = EntriesForRows(rows_left, &rows_done);
    Status status = values_.Skip(CountDefined(entry_pos_, k));
    if (!status.ok()) return Fail(status.message());
    rows_left -= rows_done;
    entry_pos_ += k;
    if (entry_pos_ < page_entries_) return Status::OK();
  }
}

}  // namespace tarn::parquet
