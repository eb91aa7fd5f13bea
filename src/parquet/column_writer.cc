#include "parquet/column_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "parquet/compression.h"
#include "parquet/encoder.h"
#include "parquet/level_builder.h"
#include "parquet/value_encoder.h"
#include "tarn/thread_pool.h"

namespace tarn::parquet {

namespace {

// A chunk holding nearly one dictionary entry per value gains nothing from a dictionary; the
// first kDictionaryProbe values decide early so unique columns do not pay for a full build.
constexpr int64_t kDictionaryProbe = 16384;
constexpr double kMaxDictionaryRatio = 0.75;

template <typename Fn>
void ForEachPresentRow(const LeafLevels& levels, Fn&& fn) {
  const Column& leaf = *levels.leaf;
  if (!levels.dense) {
    for (int64_t row : levels.value_rows) fn(row);
    return;
  }
  if (leaf.null_count == 0 || leaf.validity == nullptr) {
    for (int64_t row = 0; row < leaf.length; ++row) fn(row);
    return;
  }
  const uint8_t* validity = leaf.validity->data();
  for (int64_t row = 0; row < leaf.length; ++row) {
    if (GetBit(validity, row)) fn(row);
  }
}

// Appends the present values of `levels` (stored as Src) converted to T.
template <typename Src, typename T, typename Convert>
void AppendConverted(const LeafLevels& levels, std::vector<T>* out, Convert convert) {
  const Src* src = levels.leaf->values_as<Src>();
  size_t start = out->size();
  out->resize(start + static_cast<size_t>(levels.num_values));
  T* dst = out->data() + start;
  ForEachPresentRow(levels, [&](int64_t row) { *dst++ = convert(src[row]); });
}

// AppendConverted with a plain cast; values already of type T and without NULLs are copied
// in one go. (Only here: a conversion that changes the value, such as seconds to
// microseconds, must never take the copy.)
template <typename Src, typename T>
void AppendCast(const LeafLevels& levels, std::vector<T>* out) {
  if constexpr (std::is_same_v<Src, T>) {
    if (levels.dense && levels.leaf->null_count == 0) {
      size_t start = out->size();
      out->resize(start + static_cast<size_t>(levels.num_values));
      std::memcpy(out->data() + start, levels.leaf->values_as<Src>(),
                  static_cast<size_t>(levels.num_values) * sizeof(T));
      return;
    }
  }
  AppendConverted<Src>(levels, out, [](Src v) { return static_cast<T>(v); });
}

}  // namespace

class ColumnChunkWriter::Impl {
 public:
  Impl(const WriterLeaf& leaf, const WriterProperties& props) : leaf_(leaf), props_(props) {}
  virtual ~Impl() = default;

  Status Add(const Column& column) {
    LeafLevels levels;
    TARN_RETURN_NOT_OK(BuildLeafLevels(leaf_, column, &levels));
    if (leaf_.max_def > 0) {
      def_levels_.insert(def_levels_.end(), levels.def_levels.begin(), levels.def_levels.end());
    }
    if (leaf_.max_rep > 0) {
      rep_levels_.insert(rep_levels_.end(), levels.rep_levels.begin(), levels.rep_levels.end());
    }
    num_levels_ += levels.num_levels;
    num_rows_ += levels.num_rows;
    return Gather(levels);
  }

  virtual Result<EncodedChunk> Finish() = 0;

 protected:
  virtual Status Gather(const LeafLevels& levels) = 0;

  const WriterLeaf& leaf_;
  const WriterProperties& props_;
  std::vector<int16_t> def_levels_;
  std::vector<int16_t> rep_levels_;
  int64_t num_levels_ = 0;
  int64_t num_rows_ = 0;
};

namespace {

struct PageRange {
  int64_t level_begin = 0;
  int64_t level_end = 0;
  int64_t value_begin = 0;
  int64_t value_end = 0;
  int64_t rows = 0;
};

// T is the in-memory representation of the physical type: uint8_t (BOOLEAN, 0/1), int32_t,
// int64_t, float, double, std::string_view (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY).
template <typename T>
class TypedChunkWriter final : public ColumnChunkWriter::Impl {
 public:
  using Impl::Impl;

  Status Gather(const LeafLevels& levels) override;
  Result<EncodedChunk> Finish() override;

 private:
  static constexpr bool kIsBytes = std::is_same_v<T, std::string_view>;
  static constexpr bool kIsBool = std::is_same_v<T, uint8_t>;

  // Builds the dictionary and indices_; false when the chunk should be PLAIN.
  bool BuildDictionary();
  template <typename Traits>
  bool BuildDictionaryWith();
  void EncodeValues(const T* values, int64_t count, std::string* out) const;
  // A page on its own: header and body bytes, sizes and its page index entry (the entry's
  // offset and size are set when the page is placed in the chunk). Const, so the pages of a
  // chunk can be encoded on several threads at once.
  struct EncodedPage {
    std::string bytes;
    int64_t header_size = 0;
    int64_t uncompressed = 0;  // levels and values before compression
    int64_t compressed = 0;
    std::optional<PageIndexEntry> entry;
  };
  Status EncodeDataPage(const PageRange& range, int64_t first_row, EncodedPage* page) const;
  Status EncodePage(PageHeader header, std::string_view uncompressed_levels,
                    std::string_view values, EncodedPage* page) const;
  // Appends a page to the chunk and counts its sizes.
  void PlacePage(EncodedPage page, EncodedChunk* chunk);
  int64_t PlainBits(int64_t value_idx) const {
    if constexpr (kIsBool) {
      return 1;
    } else if constexpr (kIsBytes) {
      return 8 * (leaf_.physical == PhysicalType::kByteArray
                      ? 4 + static_cast<int64_t>(values_[value_idx].size())
                      : leaf_.type_length);
    } else {
      return 8 * static_cast<int64_t>(sizeof(T));
    }
  }

  std::vector<T> values_;
  std::vector<std::unique_ptr<std::string>> arena_;  // converted FIXED_LEN_BYTE_ARRAY bytes
  // Dictionary encoding (when chosen), else value_encoding_.
  bool use_dictionary_ = false;
  Encoding value_encoding_ = Encoding::kPlain;
  std::vector<T> dictionary_;
  int64_t dictionary_plain_bytes_ = 0;
  std::vector<uint32_t> indices_;
  int index_bit_width_ = 1;
  int32_t data_pages_ = 0;
  int64_t first_data_page_offset_ = -1;
  // Page index entries are recorded unless the leaf's page index is off.
  const bool record_pages_ = props_.page_index_for(leaf_.path) != PageIndexMode::kOff;
};

template <typename T>
Status TypedChunkWriter<T>::Gather(const LeafLevels& levels) {
  const TypeId id = leaf_.type.id;
  if constexpr (kIsBool) {
    const uint8_t* bits = levels.leaf->values->data();
    size_t start = values_.size();
    values_.resize(start + static_cast<size_t>(levels.num_values));
    uint8_t* dst = values_.data() + start;
    ForEachPresentRow(levels, [&](int64_t row) { *dst++ = GetBit(bits, row) ? 1 : 0; });
  } else if constexpr (std::is_same_v<T, int32_t>) {
    switch (id) {
      case TypeId::kInt8: AppendCast<int8_t>(levels, &values_); break;
      case TypeId::kInt16: AppendCast<int16_t>(levels, &values_); break;
      case TypeId::kUInt8: AppendCast<uint8_t>(levels, &values_); break;
      case TypeId::kUInt16: AppendCast<uint16_t>(levels, &values_); break;
      case TypeId::kUInt32: AppendCast<uint32_t>(levels, &values_); break;
      case TypeId::kDecimal: AppendCast<__int128>(levels, &values_); break;
      default: AppendCast<int32_t>(levels, &values_); break;  // int32, date
    }
  } else if constexpr (std::is_same_v<T, int64_t>) {
    switch (id) {
      case TypeId::kDecimal: AppendCast<__int128>(levels, &values_); break;
      case TypeId::kTimestampS: {
        // Parquet has no unit of seconds: TIMESTAMP_S is written in microseconds, and a value
        // without a microsecond form (±infinity, years past 294247) is refused with DuckDB's
        // words, as DuckDB's writer refuses it.
        std::optional<int64_t> unwritable;
        AppendConverted<int64_t>(levels, &values_, [&](int64_t seconds) {
          int64_t micros = 0;
          if (__builtin_mul_overflow(seconds, int64_t{1000000}, &micros) && !unwritable) {
            unwritable = seconds;
          }
          return micros;
        });
        if (unwritable) {
          const int64_t seconds = *unwritable;
          const std::string shown =
              seconds == INT64_MAX    ? "infinity"
              : seconds == -INT64_MAX ? "-infinity"
                                      : Value::Int(DataType(TypeId::kTimestampS), seconds).ToString();
          return Status::InvalidArgument("column '", leaf_.path[0], "': Could not convert "
                                         "Timestamp(S) to Timestamp(US): the value ", shown,
                                         " has no microsecond form");
        }
        break;
      }
      default: AppendCast<int64_t>(levels, &values_); break;  // int64, uint64, times
    }
  } else if constexpr (std::is_same_v<T, float>) {
    AppendCast<float>(levels, &values_);
  } else if constexpr (std::is_same_v<T, double>) {
    switch (id) {
      case TypeId::kInt128: AppendCast<__int128>(levels, &values_); break;
      case TypeId::kUInt128: AppendCast<unsigned __int128>(levels, &values_); break;
      default: AppendCast<double>(levels, &values_); break;
    }
  } else {
    const Column& leaf = *levels.leaf;
    size_t start = values_.size();
    values_.resize(start + static_cast<size_t>(levels.num_values));
    std::string_view* dst = values_.data() + start;
    if (leaf_.physical == PhysicalType::kByteArray) {
      const int64_t* offsets = leaf.values->data_as<int64_t>();
      const char* data = leaf.data ? reinterpret_cast<const char*>(leaf.data->data()) : "";
      ForEachPresentRow(levels, [&](int64_t row) {
        *dst++ = std::string_view(data + offsets[row],
                                  static_cast<size_t>(offsets[row + 1] - offsets[row]));
      });
    } else if (id == TypeId::kUuid) {
      const char* data = reinterpret_cast<const char*>(leaf.values->data());
      ForEachPresentRow(levels, [&](int64_t row) { *dst++ = std::string_view(data + 16 * row, 16); });
    } else {
      // Converted into owned bytes: decimals big-endian, intervals as three u32.
      int width = leaf_.type_length;
      auto bytes = std::make_unique<std::string>(
          static_cast<size_t>(levels.num_values * width), '\0');
      char* out = bytes->data();
      if (id == TypeId::kDecimal) {
        const __int128* src = leaf.values_as<__int128>();
        ForEachPresentRow(levels, [&](int64_t row) {
          unsigned __int128 bits = static_cast<unsigned __int128>(src[row]);
          for (int byte_idx = 15; byte_idx >= 0; --byte_idx) {
            out[byte_idx] = static_cast<char>(static_cast<uint8_t>(bits));
            bits >>= 8;
          }
          *dst++ = std::string_view(out, 16);
          out += 16;
        });
      } else {  // kInterval
        // Parquet's INTERVAL is three unsigned words (months, days, milliseconds): a negative
        // part is refused as DuckDB refuses it, and so is a time part past 2^32 ms (about 49.7
        // days), which would otherwise wrap to another value.
        const Interval* src = leaf.values_as<Interval>();
        const Interval* unwritable = nullptr;
        ForEachPresentRow(levels, [&](int64_t row) {
          const Interval& v = src[row];
          const int64_t millis = v.nanos / 1000000;
          if ((v.months < 0 || v.days < 0 || v.nanos < 0 || millis > 0xFFFFFFFFLL) &&
              unwritable == nullptr) {
            unwritable = &v;
          }
          uint32_t parts[3] = {static_cast<uint32_t>(v.months), static_cast<uint32_t>(v.days),
                               static_cast<uint32_t>(millis)};
          std::memcpy(out, parts, 12);
          *dst++ = std::string_view(out, 12);
          out += 12;
        });
        if (unwritable != nullptr) {
          const std::string shown = Value::MakeInterval(*unwritable).ToString();
          if (unwritable->months < 0 || unwritable->days < 0 || unwritable->nanos < 0) {
            return Status::InvalidArgument("column '", leaf_.path[0],
                                           "': Parquet files do not support negative intervals "
                                           "(the value ", shown, ")");
          }
          return Status::InvalidArgument("column '", leaf_.path[0], "': the INTERVAL ", shown,
                                         " does not fit Parquet's INTERVAL: its time part is "
                                         "2^32 milliseconds (about 49.7 days) or more");
        }
      }
      arena_.push_back(std::move(bytes));
    }
  }
  return Status::OK();
}

template <typename T>
template <typename Traits>
bool TypedChunkWriter<T>::BuildDictionaryWith() {
  DictionaryBuilder<T, Traits> builder(props_.dictionary_page_bytes_limit());
  int64_t count = static_cast<int64_t>(values_.size());
  indices_.resize(static_cast<size_t>(count));
  for (int64_t value_idx = 0; value_idx < count; ++value_idx) {
    if (!builder.Insert(values_[value_idx], &indices_[value_idx])) return false;
    if (value_idx + 1 == kDictionaryProbe &&
        builder.size() > static_cast<int64_t>(kMaxDictionaryRatio * kDictionaryProbe)) {
      return false;
    }
  }
  if (builder.size() > static_cast<int64_t>(kMaxDictionaryRatio * static_cast<double>(count)) &&
      count > 16) {
    return false;
  }
  dictionary_ = builder.values();
  dictionary_plain_bytes_ = builder.byte_size();
  index_bit_width_ = std::max(1, BitWidth(static_cast<uint64_t>(builder.size() - 1)));
  return true;
}

template <typename T>
bool TypedChunkWriter<T>::BuildDictionary() {
  if constexpr (kIsBool) {
    return false;
  } else {
    const std::optional<Encoding> requested = RequestedEncoding(props_, leaf_);
    const bool dictionary_requested =
        requested && (*requested == Encoding::kRleDictionary ||
                      *requested == Encoding::kPlainDictionary);
    if (requested && !dictionary_requested) return false;
    if ((!props_.dictionary_enabled() && !dictionary_requested) || values_.empty()) return false;
    bool ok;
    if constexpr (kIsBytes) {
      ok = leaf_.physical == PhysicalType::kByteArray
               ? BuildDictionaryWith<ByteArrayTraits>()
               : BuildDictionaryWith<FixedLenByteArrayTraits>();
    } else {
      ok = BuildDictionaryWith<FixedWidthTraits<T>>();
    }
    if (!ok) {
      indices_.clear();
      indices_.shrink_to_fit();
    }
    return ok;
  }
}

template <typename T>
void TypedChunkWriter<T>::EncodeValues(const T* values, int64_t count, std::string* out) const {
  if constexpr (kIsBool) {
    EncodePlainBooleans(values, count, out);
  } else if constexpr (kIsBytes) {
    if (leaf_.physical == PhysicalType::kByteArray) {
      EncodePlainByteArrays(values, count, out);
    } else {
      EncodePlainFixedLenByteArrays(values, count, out);
    }
  } else {
    EncodePlain(values, count, out);
  }
}

template <typename T>
Status TypedChunkWriter<T>::EncodePage(PageHeader header, std::string_view uncompressed_levels,
                                       std::string_view values, EncodedPage* page) const {
  // v1 compresses levels and values together (the caller passes them joined as `values`);
  // v2 and dictionary pages pass levels uncompressed and values to compress.
  auto codec = static_cast<CompressionCodec>(props_.compression());
  std::string compressed_scratch;
  std::string_view compressed_values = values;
  if (codec != CompressionCodec::kUncompressed) {
    TARN_RETURN_NOT_OK(
        Compress(codec, values, props_.compression_level(), &compressed_scratch)
            .WithContext(StrCat("compressing a page of column '", leaf_.path.back(), "'")));
    compressed_values = compressed_scratch;
  }
  int64_t uncompressed = static_cast<int64_t>(uncompressed_levels.size() + values.size());
  int64_t compressed = static_cast<int64_t>(uncompressed_levels.size() + compressed_values.size());
  if (uncompressed > INT32_MAX || compressed > INT32_MAX) {
    return Status::InvalidArgument("column '", leaf_.path.back(), "': a page of ", uncompressed,
                                   " bytes exceeds Parquet's 2 GiB page limit");
  }
  header.uncompressed_page_size = static_cast<int32_t>(uncompressed);
  header.compressed_page_size = static_cast<int32_t>(compressed);
  if (props_.write_page_crc()) {
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(uncompressed_levels.data()),
                static_cast<uInt>(uncompressed_levels.size()));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(compressed_values.data()),
                static_cast<uInt>(compressed_values.size()));
    header.crc = static_cast<int32_t>(static_cast<uint32_t>(crc));
  }
  page->bytes.clear();
  EncodePageHeader(header, &page->bytes);
  page->header_size = static_cast<int64_t>(page->bytes.size());
  page->bytes.append(uncompressed_levels);
  page->bytes.append(compressed_values);
  page->uncompressed = uncompressed;
  page->compressed = compressed;
  return Status::OK();
}

template <typename T>
void TypedChunkWriter<T>::PlacePage(EncodedPage page, EncodedChunk* chunk) {
  if (page.entry) {
    if (first_data_page_offset_ < 0) {
      first_data_page_offset_ = static_cast<int64_t>(chunk->bytes.size());
    }
    ++data_pages_;
    if (record_pages_) {
      page.entry->offset = static_cast<int64_t>(chunk->bytes.size());
      page.entry->compressed_page_size = static_cast<int32_t>(page.bytes.size());
      chunk->pages.push_back(std::move(*page.entry));
    }
  }
  chunk->bytes.append(page.bytes);
  chunk->meta.total_uncompressed_size += page.header_size + page.uncompressed;
  chunk->meta.total_compressed_size += page.header_size + page.compressed;
}

template <typename T>
Status TypedChunkWriter<T>::EncodeDataPage(const PageRange& range, int64_t first_row,
                                           EncodedPage* page) const {
  int64_t level_count = range.level_end - range.level_begin;
  int64_t value_count = range.value_end - range.value_begin;
  std::string values;
  if (use_dictionary_) {
    values.push_back(static_cast<char>(index_bit_width_));
    EncodeRleBitPacked(indices_.data() + range.value_begin, value_count, index_bit_width_,
                       &values);
  } else {
    EncodeValuesAs(value_encoding_, leaf_, values_.data() + range.value_begin, value_count,
                   &values);
  }
  int def_width = BitWidth(static_cast<uint64_t>(leaf_.max_def));
  int rep_width = BitWidth(static_cast<uint64_t>(leaf_.max_rep));
  Encoding encoding = use_dictionary_ ? Encoding::kRleDictionary : value_encoding_;
  // Every data page carries an entry (it marks the page as a data page); it is kept only
  // when the page index is recorded.
  PageIndexEntry entry;
  entry.first_row_index = first_row;
  if (record_pages_) {
    ChunkStatistics page_stats;
    if constexpr (kIsBytes) {
      UpdateByteArrayBounds(leaf_, values_.data() + range.value_begin, value_count,
                            props_.statistics_truncate_length(), &page_stats);
    } else {
      UpdateMinMax(leaf_, values_.data() + range.value_begin, value_count, &page_stats);
    }
    TruncateMinMax(leaf_, props_.statistics_truncate_length(), &page_stats);
    entry.null_count = level_count - value_count;
    entry.nan_count = page_stats.nan_count;
    entry.null_page = value_count == 0;
    entry.has_min_max = page_stats.has_min_max;
    entry.min = std::move(page_stats.min);
    entry.max = std::move(page_stats.max);
  }
  page->entry = std::move(entry);
  PageHeader header;
  if (props_.data_page_version() == 1) {
    std::string body;
    if (leaf_.max_rep > 0) {
      EncodeLengthPrefixedLevels(rep_levels_.data() + range.level_begin, level_count, rep_width,
                                 &body);
    }
    if (leaf_.max_def > 0) {
      EncodeLengthPrefixedLevels(def_levels_.data() + range.level_begin, level_count, def_width,
                                 &body);
    }
    body.append(values);
    header.type = PageType::kDataPage;
    DataPageHeader data;
    data.num_values = static_cast<int32_t>(level_count);
    data.encoding = encoding;
    header.data_page_header = data;
    return EncodePage(std::move(header), {}, body, page);
  }
  std::string levels;
  int32_t rep_bytes = 0;
  if (leaf_.max_rep > 0) {
    EncodeRleBitPackedLevels(rep_levels_.data() + range.level_begin, level_count, rep_width,
                             &levels);
    rep_bytes = static_cast<int32_t>(levels.size());
  }
  if (leaf_.max_def > 0) {
    EncodeRleBitPackedLevels(def_levels_.data() + range.level_begin, level_count, def_width,
                             &levels);
  }
  header.type = PageType::kDataPageV2;
  DataPageHeaderV2 data;
  data.num_values = static_cast<int32_t>(level_count);
  data.num_nulls = static_cast<int32_t>(level_count - value_count);
  data.num_rows = static_cast<int32_t>(range.rows);
  data.encoding = encoding;
  data.repetition_levels_byte_length = rep_bytes;
  data.definition_levels_byte_length = static_cast<int32_t>(levels.size()) - rep_bytes;
  data.is_compressed =
      static_cast<CompressionCodec>(props_.compression()) != CompressionCodec::kUncompressed;
  header.data_page_header_v2 = data;
  return EncodePage(std::move(header), levels, values, page);
}

template <typename T>
Result<EncodedChunk> TypedChunkWriter<T>::Finish() {
  EncodedChunk chunk;
  chunk.num_rows = num_rows_;
  const int64_t num_values = static_cast<int64_t>(values_.size());
  ChunkStatistics& stats = chunk.stats;
  stats.num_levels = num_levels_;
  stats.null_count = num_levels_ - num_values;
  if constexpr (kIsBytes) {
    UpdateByteArrayBounds(leaf_, values_.data(), num_values, props_.statistics_truncate_length(),
                          &stats);
    if (leaf_.type.id == TypeId::kGeometry) UpdateGeometry(values_.data(), num_values, &stats);
  } else {
    UpdateMinMax(leaf_, values_.data(), num_values, &stats);
  }
  TruncateMinMax(leaf_, props_.statistics_truncate_length(), &stats);

  use_dictionary_ = BuildDictionary();
  if (!use_dictionary_) {
    // A requested encoding, else PLAIN or DELTA_BINARY_PACKED where it pays.
    const std::optional<Encoding> requested = RequestedEncoding(props_, leaf_);
    value_encoding_ = requested && *requested != Encoding::kRleDictionary &&
                              *requested != Encoding::kPlainDictionary
                          ? *requested
                          : ChooseValueEncoding(props_, leaf_, values_.data(), num_values);
    TARN_RETURN_NOT_OK(CheckValueEncoding(value_encoding_, leaf_));
  }
  ColumnMetaData& meta = chunk.meta;
  meta.type = leaf_.physical;
  meta.path_in_schema = leaf_.path;
  meta.codec = static_cast<CompressionCodec>(props_.compression());
  meta.num_values = num_levels_;
  if (use_dictionary_) {
    meta.dictionary_page_offset = 0;
    std::string values;
    EncodeValues(dictionary_.data(), static_cast<int64_t>(dictionary_.size()), &values);
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    DictionaryPageHeader dict;
    dict.num_values = static_cast<int32_t>(dictionary_.size());
    dict.encoding = Encoding::kPlain;
    header.dictionary_page_header = dict;
    EncodedPage page;
    TARN_RETURN_NOT_OK(EncodePage(std::move(header), {}, values, &page));
    PlacePage(std::move(page), &chunk);
  }

  // Cut pages at record starts once a page holds data_page_rows records or about
  // data_page_bytes of encoded values.
  const bool has_def = leaf_.max_def > 0;
  const bool has_rep = leaf_.max_rep > 0;
  const int64_t page_rows = props_.data_page_rows();
  const int64_t page_bits = props_.data_page_bytes() * 8;
  std::vector<PageRange> ranges;
  std::vector<int64_t> first_rows;  // each page's first row within the chunk
  int64_t level = 0;
  int64_t value = 0;
  int64_t rows_before = 0;
  do {
    PageRange range;
    range.level_begin = level;
    range.value_begin = value;
    int64_t rows = 0;
    int64_t bits = 0;
    while (level < num_levels_) {
      if (!has_rep || rep_levels_[level] == 0) {
        if (rows > 0 && (rows >= page_rows || bits >= page_bits)) break;
        ++rows;
      }
      if (!has_def || def_levels_[level] == leaf_.max_def) {
        bits += use_dictionary_ ? index_bit_width_ : PlainBits(value);
        ++value;
      }
      ++level;
    }
    range.level_end = level;
    range.value_end = value;
    range.rows = rows;
    ranges.push_back(range);
    first_rows.push_back(rows_before);
    rows_before += rows;
  } while (level < num_levels_);
  // The pages encode and compress on their own, on every thread when there are several (a
  // chunk much larger than the others then does not finish its row group alone).
  std::vector<EncodedPage> pages(ranges.size());
  auto encode = [&](size_t p) { return EncodeDataPage(ranges[p], first_rows[p], &pages[p]); };
  if (ranges.size() > 1) {
    TARN_RETURN_NOT_OK(ThreadPool::Default()->ParallelFor(ranges.size(), encode));
  } else {
    TARN_RETURN_NOT_OK(encode(0));
  }
  for (EncodedPage& page : pages) PlacePage(std::move(page), &chunk);

  meta.data_page_offset = first_data_page_offset_;
  if (use_dictionary_) {
    meta.encodings = {Encoding::kPlain, Encoding::kRleDictionary};
    meta.encoding_stats.push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
  } else {
    meta.encodings = {value_encoding_};
  }
  if (has_def || has_rep) meta.encodings.push_back(Encoding::kRle);
  meta.encoding_stats.push_back(
      {props_.data_page_version() == 1 ? PageType::kDataPage : PageType::kDataPageV2,
       use_dictionary_ ? Encoding::kRleDictionary : value_encoding_, data_pages_});
  if (props_.statistics_enabled()) {
    meta.statistics = ToThriftStatistics(leaf_, stats);
    if (stats.geometry) meta.geospatial_statistics = ToGeospatialStatistics(*stats.geometry);
  }
  return chunk;
}

}  // namespace

ColumnChunkWriter::ColumnChunkWriter(const WriterLeaf& leaf, const WriterProperties& properties) {
  switch (leaf.physical) {
    case PhysicalType::kBoolean:
      impl_ = std::make_unique<TypedChunkWriter<uint8_t>>(leaf, properties);
      break;
    case PhysicalType::kInt32:
      impl_ = std::make_unique<TypedChunkWriter<int32_t>>(leaf, properties);
      break;
    case PhysicalType::kInt64:
      impl_ = std::make_unique<TypedChunkWriter<int64_t>>(leaf, properties);
      break;
    case PhysicalType::kFloat:
      impl_ = std::make_unique<TypedChunkWriter<float>>(leaf, properties);
      break;
    case PhysicalType::kDouble:
      impl_ = std::make_unique<TypedChunkWriter<double>>(leaf, properties);
      break;
    default:
      impl_ = std::make_unique<TypedChunkWriter<std::string_view>>(leaf, properties);
      break;
  }
}

ColumnChunkWriter::~ColumnChunkWriter() = default;

Status ColumnChunkWriter::Add(const Column& top_level_column) {
  return impl_->Add(top_level_column);
}

Result<EncodedChunk> ColumnChunkWriter::Finish() { return impl_->Finish(); }

}  // namespace tarn::parquet
