#include "rowid/rowsum_format.h"

#include <algorithm>
#include <cstring>

#include "rowid/bit_packing.h"
#include "rowid/byte_cursor.h"
#include "rowid/run_order.h"
#include "rowid/set_index.h"
#include "tarn/columnar.h"

namespace tarn {
namespace rowid_internal {

namespace {

// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): SSE4.2's crc32 instruction when the
// CPU has it, else a table. Both give the same value.
struct Crc32cTable {
  uint32_t entries[256];
  Crc32cTable() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      entries[i] = c;
    }
  }
};

uint32_t Crc32cSoftware(const uint8_t* p, size_t n, uint32_t crc) {
  static const Crc32cTable table;
  for (size_t i = 0; i < n; ++i) crc = table.entries[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cHardware(const uint8_t* p, size_t n,
                                                          uint32_t crc) {
  uint64_t c = crc;
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    c = __builtin_ia32_crc32di(c, word);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  while (n > 0) {
    c32 = __builtin_ia32_crc32qi(c32, *p++);
    --n;
  }
  return c32;
}
#endif

}  // namespace

uint32_t Crc32(std::string_view bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
#if defined(__x86_64__)
  static const bool hardware = __builtin_cpu_supports("sse4.2");
  if (hardware) return ~Crc32cHardware(p, bytes.size(), ~0u);
#endif
  return ~Crc32cSoftware(p, bytes.size(), ~0u);
}

uint32_t Crc32cForTesting(std::string_view bytes, bool hardware) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
#if defined(__x86_64__)
  if (hardware && __builtin_cpu_supports("sse4.2")) return ~Crc32cHardware(p, bytes.size(), ~0u);
#endif
  (void)hardware;
  return ~Crc32cSoftware(p, bytes.size(), ~0u);
}

uint64_t RowsumHeader::offsets_bytes() const {
  return order_form == OrderForm::kRepeated ? PackedBytes(distinct + 1, offset_width) : 0;
}

uint64_t RowsumHeader::body_len() const {
  switch (order_form) {
    case OrderForm::kAscending: return 0;
    case OrderForm::kPermuted: return PackedBytes(distinct, position_width);
    case OrderForm::kRepeated:
      return offsets_bytes() + PackedBytes(physical_rows, position_width);
    case OrderForm::kRuns: {
      // order_len = body + 4·ceil(body / B): the block count is ceil(order_len / (B + 4)).
      // When no body fits, the header check comparing order_len with body_len() + 4 per block
      // fails.
      const uint64_t per_block = uint64_t{order_block} + 4;
      const uint64_t blocks = order_len / per_block + (order_len % per_block != 0 ? 1 : 0);
      return 4 * blocks <= order_len ? order_len - 4 * blocks : 0;
    }
  }
  return 0;
}

Status DecodeRowsumHeader(std::string_view prefix, RowsumHeader* h, size_t* needed) {
  *needed = kFixedHeaderBytes;
  if (prefix.size() < kFixedHeaderBytes) return Status::OK();
  ByteCursor in(prefix, "rowsum header");
  std::string_view magic;
  TARN_RETURN_NOT_OK(in.ReadBytes(8, &magic));
  if (std::memcmp(magic.data(), kRowsumMagic, 8) != 0) return in.Error("bad magic");
  uint32_t version = 0, header_len = 0;
  TARN_RETURN_NOT_OK(in.Read(&version));
  if (version < 1 || version > kRowsumVersion) {
    return Status::Corruption("rowsum header: unknown version ", version, " (reads ",
                              kRowsumVersion, ")");
  }
  TARN_RETURN_NOT_OK(in.Read(&header_len));
  uint64_t table_id = 0, file_id = 0, file_size = 0;
  TARN_RETURN_NOT_OK(in.Read(&table_id));
  TARN_RETURN_NOT_OK(in.Read(&file_id));
  TARN_RETURN_NOT_OK(in.Read(&file_size));
  TARN_RETURN_NOT_OK(in.Read(&h->physical_rows));
  TARN_RETURN_NOT_OK(in.Read(&h->distinct));
  TARN_RETURN_NOT_OK(in.Read(&h->min_id));
  TARN_RETURN_NOT_OK(in.Read(&h->max_id));
  TARN_RETURN_NOT_OK(in.Read(&h->set_len));
  TARN_RETURN_NOT_OK(in.Read(&h->order_len));
  uint8_t set_kind = 0, order_form = 0, pw = 0, ow = 0;
  TARN_RETURN_NOT_OK(in.Read(&set_kind));
  TARN_RETURN_NOT_OK(in.Read(&order_form));
  TARN_RETURN_NOT_OK(in.Read(&pw));
  TARN_RETURN_NOT_OK(in.Read(&ow));
  TARN_RETURN_NOT_OK(in.Read(&h->order_block));
  TARN_RETURN_NOT_OK(in.Read(&h->set_crc));
  uint32_t path_len = 0;
  TARN_RETURN_NOT_OK(in.Read(&path_len));
  if (path_len > (1u << 16)) return in.Error("path longer than 64 KiB");
  // Version 3 holds the set index's length, sample and block between the path and the checksum.
  const uint32_t index_fields = version >= 3 ? 16 : 0;
  if (header_len != kFixedHeaderBytes + path_len + index_fields + 4) {
    return Status::Corruption("rowsum header: length ", header_len, " disagrees with path length ",
                              path_len, " in version ", version);
  }
  *needed = header_len;
  if (prefix.size() < header_len) return Status::OK();
  std::string_view path;
  TARN_RETURN_NOT_OK(in.ReadBytes(path_len, &path));
  h->index_len = 0;
  h->index_sample = 0;
  h->index_block = 0;
  if (version >= 3) {
    TARN_RETURN_NOT_OK(in.Read(&h->index_len));
    TARN_RETURN_NOT_OK(in.Read(&h->index_sample));
    TARN_RETURN_NOT_OK(in.Read(&h->index_block));
  }
  uint32_t stored_crc = 0;
  TARN_RETURN_NOT_OK(in.Read(&stored_crc));
  const uint32_t crc = Crc32(prefix.substr(0, header_len - 4));
  if (crc != stored_crc) {
    return Status::Corruption("rowsum header: checksum mismatch: stored ", stored_crc,
                              ", computed ", crc);
  }
  // Version 1 knows set kinds 1..3 and order forms 0..2; versions 2 and 3 add set kind 4 and
  // order form 3.
  const uint8_t last_set_kind = version == 1 ? 3 : 4, last_order_form = version == 1 ? 2 : 3;
  if (set_kind < 1 || set_kind > last_set_kind) {
    return Status::Corruption("rowsum header: set kind ", int{set_kind}, " in version ", version);
  }
  if (order_form > last_order_form) {
    return Status::Corruption("rowsum header: order form ", int{order_form}, " in version ", version);
  }
  h->version = version;
  h->identity.table_id = static_cast<int64_t>(table_id);
  h->identity.data_file_id = static_cast<int64_t>(file_id);
  h->identity.file_size = static_cast<int64_t>(file_size);
  h->identity.relative_path.assign(path);
  h->set_kind = static_cast<RowIdSet::Kind>(set_kind);
  h->order_form = static_cast<OrderForm>(order_form);
  h->position_width = pw;
  h->offset_width = ow;
  h->header_len = header_len;
  // Fields that follow from others must agree, so a reader never trusts a lone number.
  const uint64_t rows = h->physical_rows;
  if (rows > 0xFFFFFFFFULL || h->distinct > rows || (rows > 0 && h->distinct == 0)) {
    return Status::Corruption("rowsum header: ", h->distinct, " ids in ", rows, " rows");
  }
  if (h->order_form != OrderForm::kRepeated && h->distinct != rows) {
    return Status::Corruption("rowsum header: a non-repeated order with ", h->distinct,
                              " ids in ", rows, " rows");
  }
  if (h->position_width != BitsFor(rows == 0 ? 0 : rows - 1) ||
      h->offset_width != (h->order_form == OrderForm::kRepeated ? BitsFor(rows) : 0)) {
    return Status::Corruption("rowsum header: widths ", h->position_width, "/", h->offset_width,
                              " do not fit ", rows, " rows");
  }
  if (h->order_block == 0 || h->order_block > kMaxOrderBlock) {
    return Status::Corruption("rowsum header: order block ", h->order_block);
  }
  if (h->order_len != h->body_len() + 4 * h->block_count()) {
    return Status::Corruption("rowsum header: order length ", h->order_len, ", expected ",
                              h->body_len() + 4 * h->block_count());
  }
  if (h->set_kind == RowIdSet::Kind::kRange && h->set_len != 16) {
    return Status::Corruption("rowsum header: range set of ", h->set_len, " bytes");
  }
  if (h->set_len > (uint64_t{1} << 40) || h->min_id > h->max_id) {
    return Status::Corruption("rowsum header: set length ", h->set_len, ", bounds ", h->min_id,
                              "..", h->max_id);
  }
  if (version >= 3) {
    // Version 3 is stamped only for an indexed Elias-Fano set; the index's length follows from
    // the header (SetIndex::Decode checks the rest).
    if (h->set_kind != RowIdSet::Kind::kEliasFano || h->distinct == 0 || h->index_sample == 0 ||
        h->index_sample > kMaxSetIndexSample || h->index_block == 0 ||
        h->index_block > kMaxSetIndexBlock) {
      return Status::Corruption("rowsum header: a set index (sample ", h->index_sample, ", block ",
                                h->index_block, ") for a set of kind ", int{set_kind});
    }
    const EliasFanoShape shape = EliasFanoShape::Of(h->distinct, h->min_id, h->max_id);
    if (shape.set_len != h->set_len ||
        h->index_len != SetIndexBytes(shape, h->index_sample, h->index_block)) {
      return Status::Corruption("rowsum header: set index of ", h->index_len, " bytes, expected ",
                                SetIndexBytes(shape, h->index_sample, h->index_block));
    }
  }
  return Status::OK();
}

Status CheckIdentity(const RowsumHeader& header, const SummaryIdentity& expected) {
  const SummaryIdentity& got = header.identity;
  if (got.table_id != expected.table_id) {
    return Status::InvalidArgument("describes table ", got.table_id, ", expected ", expected.table_id);
  }
  if (got.data_file_id != expected.data_file_id) {
    return Status::InvalidArgument("describes data file ", got.data_file_id, ", expected ",
                                   expected.data_file_id);
  }
  if (got.relative_path != expected.relative_path) {
    return Status::InvalidArgument("describes '", got.relative_path, "', expected '",
                                   expected.relative_path, "'");
  }
  if (got.file_size != expected.file_size) {
    return Status::InvalidArgument("describes a file of ", got.file_size, " bytes, expected ",
                                   expected.file_size);
  }
  return Status::OK();
}

Result<RowIdSet> DecodeRowsumSet(const RowsumHeader& header, std::string_view set_bytes) {
  if (set_bytes.size() != header.set_len) {
    return Status::Corruption("rowsum set: ", set_bytes.size(), " bytes, header says ", header.set_len);
  }
  const uint32_t crc = Crc32(set_bytes);
  if (crc != header.set_crc) {
    return Status::Corruption("rowsum set: checksum mismatch: stored ", header.set_crc,
                              ", computed ", crc);
  }
  TARN_ASSIGN_OR_RETURN(RowIdSet set, RowIdSet::Decode(header.set_kind, set_bytes));
  if (set.size() != header.distinct ||
      (!set.empty() && (set.min() != header.min_id || set.max() != header.max_id))) {
    return Status::Corruption("rowsum set: ", set.size(), " ids disagree with the header's ",
                              header.distinct);
  }
  return set;
}

Status CheckOrderBlock(const RowsumHeader& header, uint64_t block, std::string_view block_bytes,
                       uint32_t stored_crc) {
  const uint32_t crc = Crc32(block_bytes);
  if (crc != stored_crc) {
    return Status::Corruption("rowsum order block ", block, " of '", header.identity.relative_path,
                              "': checksum mismatch: stored ", stored_crc, ", computed ", crc);
  }
  return Status::OK();
}

Result<RowOrder> DecodeRowsumOrder(const RowsumHeader& header, std::string_view order) {
  if (order.size() != header.order_len) {
    return Status::Corruption("rowsum order: ", order.size(), " bytes, header says ", header.order_len);
  }
  if (header.order_form == OrderForm::kAscending) return RowOrder::Ascending();
  const uint64_t body = header.body_len();
  for (uint64_t b = 0; b < header.block_count(); ++b) {
    const uint64_t start = b * header.order_block;
    const uint64_t len = std::min<uint64_t>(header.order_block, body - start);
    TARN_RETURN_NOT_OK(CheckOrderBlock(header, b, order.substr(start, len),
                                       LoadLE<uint32_t>(order.data() + body + 4 * b)));
  }
  const uint64_t rows = header.physical_rows;
  const uint64_t count = header.order_form == OrderForm::kRepeated ? rows : header.distinct;
  if (header.order_form == OrderForm::kRuns) {
    // Decoded to the resident Permuted form; the decode checks every bit against the tree, so
    // the positions are a permutation of the file's rows. The tree is parsed before anything
    // is allocated for the rows: it proves the body holds at least a bit per row.
    const std::string_view body_bytes = order.substr(0, body);
    TARN_ASSIGN_OR_RETURN(uint64_t table_bytes, RunOrderIndex::TableBytes(body_bytes, rows, body));
    TARN_ASSIGN_OR_RETURN(RunOrderIndex index,
                          RunOrderIndex::Parse(body_bytes.substr(0, table_bytes), rows, body));
    std::shared_ptr<Buffer> positions_buffer = Buffer::AllocateUninitialized(4 * static_cast<int64_t>(rows));
    TARN_RETURN_NOT_OK(index.DecodeAll(body_bytes, positions_buffer->mutable_data_as<uint32_t>()));
    return RowOrder::Permuted(std::move(positions_buffer));
  }
  std::shared_ptr<Buffer> positions_buffer = Buffer::AllocateUninitialized(4 * static_cast<int64_t>(count));
  uint32_t* positions = positions_buffer->mutable_data_as<uint32_t>();
  UnpackAll(order.substr(header.positions_start()), count, header.position_width, positions);
  // Every position must lie in the file: one branch-free pass, the offender found only on failure.
  uint32_t largest = 0;
  for (uint64_t k = 0; k < count; ++k) largest = std::max(largest, positions[k]);
  if (count > 0 && largest >= rows) {
    const uint32_t* bad = std::find_if(positions, positions + count, [&](uint32_t p) { return p >= rows; });
    return Status::Corruption("rowsum order: position ", *bad, " of ", rows, " rows");
  }
  if (header.order_form == OrderForm::kPermuted) return RowOrder::Permuted(std::move(positions_buffer));
  std::shared_ptr<Buffer> offsets_buffer =
      Buffer::AllocateUninitialized(4 * static_cast<int64_t>(header.distinct + 1));
  uint32_t* offsets = offsets_buffer->mutable_data_as<uint32_t>();
  const uint64_t offset_count = header.distinct + 1;
  UnpackAll(order, offset_count, header.offset_width, offsets);
  if (offsets[0] != 0 || offsets[offset_count - 1] != rows) {
    return Status::Corruption("rowsum order: offsets do not span ", rows, " rows");
  }
  for (uint64_t k = 1; k < offset_count; ++k) {
    if (offsets[k] <= offsets[k - 1]) return Status::Corruption("rowsum order: offsets not ascending");
  }
  return RowOrder::Repeated(std::move(offsets_buffer), std::move(positions_buffer));
}

}  // namespace rowid_internal

Result<std::string> EncodeRowSummary(const SummaryIdentity& identity, const PositionedRowSet& rows) {
  using namespace rowid_internal;
  if (!rows.set || !rows.order) return Status::InvalidArgument("encode a row summary: no order");
  const RowIdSet& set = *rows.set;
  const RowOrder& order = *rows.order;
  const uint64_t physical = static_cast<uint64_t>(rows.physical_rows);
  RowsumHeader h;
  h.physical_rows = physical;
  h.distinct = set.size();
  h.min_id = set.empty() ? 0 : set.min();
  h.max_id = set.empty() ? 0 : set.max();
  h.order_form = static_cast<OrderForm>(order.kind());
  h.position_width = BitsFor(physical == 0 ? 0 : physical - 1);
  h.offset_width = order.kind() == RowOrder::Kind::kRepeated ? BitsFor(physical) : 0;
  std::string body;
  if (order.kind() == RowOrder::Kind::kRepeated) {
    if (order.offsets().size() != set.size() + 1 || order.positions().size() != physical) {
      return Status::Internal("repeated order of ", order.positions().size(), " positions for ",
                              set.size(), " ids in ", physical, " rows");
    }
    TARN_RETURN_NOT_OK(PackBits(order.offsets(), h.offset_width, &body));
    TARN_RETURN_NOT_OK(PackBits(order.positions(), h.position_width, &body));
  } else if (order.kind() == RowOrder::Kind::kPermuted) {
    if (order.positions().size() != set.size() || set.size() != physical) {
      return Status::Internal("permuted order of ", order.positions().size(), " positions for ",
                              set.size(), " ids");
    }
    // Runs when its body is smaller than the packed one (docs/formats/rowsum.md, "Picking").
    const uint64_t packed_bytes = PackedBytes(set.size(), h.position_width);
    if (auto plan = PlanRunOrder(order.positions(), packed_bytes > 0 ? packed_bytes - 1 : 0)) {
      h.order_form = OrderForm::kRuns;
      EncodeRunOrder(*plan, order.positions(), &body);
    } else {
      TARN_RETURN_NOT_OK(PackBits(order.positions(), h.position_width, &body));
    }
  } else if (set.size() != physical) {
    return Status::Internal("ascending order with ", set.size(), " ids in ", physical, " rows");
  }
  const uint64_t body_len = body.size();
  for (uint64_t start = 0; start < body_len; start += h.order_block) {
    const uint64_t len = std::min<uint64_t>(h.order_block, body_len - start);
    PutU32(&body, Crc32(std::string_view(body).substr(start, len)));
  }
  std::string set_bytes;
  set.EncodeTo(&set_bytes);

  // An Elias-Fano set large enough gets a set index (version 3), so a lookup can ask it about a
  // few ids without loading it.
  std::string index;
  if (set.kind() == RowIdSet::Kind::kEliasFano && set_bytes.size() >= kSetIndexMinSetBytes) {
    EncodeSetIndex(EliasFanoShape::Of(set.size(), set.min(), set.max()), set_bytes,
                   kSetIndexBucketSample, kSetIndexBlock, &index);
  }

  std::string out;
  out.reserve(kFixedHeaderBytes + identity.relative_path.size() + 20 + set_bytes.size() +
              body.size() + index.size());
  out.append(kRowsumMagic, 8);
  // The lowest version whose forms are used, so such sidecars keep their exact bytes.
  const bool needs_v2 = set.kind() == RowIdSet::Kind::kEliasFano || h.order_form == OrderForm::kRuns;
  const uint32_t version = !index.empty() ? 3 : needs_v2 ? 2 : 1;
  PutU32(&out, version);
  PutU32(&out, static_cast<uint32_t>(kFixedHeaderBytes + identity.relative_path.size() +
                                     (version >= 3 ? 16 : 0) + 4));
  PutU64(&out, static_cast<uint64_t>(identity.table_id));
  PutU64(&out, static_cast<uint64_t>(identity.data_file_id));
  PutU64(&out, static_cast<uint64_t>(identity.file_size));
  PutU64(&out, physical);
  PutU64(&out, h.distinct);
  PutU64(&out, h.min_id);
  PutU64(&out, h.max_id);
  PutU64(&out, set_bytes.size());
  PutU64(&out, body.size());
  PutU8(&out, static_cast<uint8_t>(set.kind()));
  PutU8(&out, static_cast<uint8_t>(h.order_form));
  PutU8(&out, static_cast<uint8_t>(h.position_width));
  PutU8(&out, static_cast<uint8_t>(h.offset_width));
  PutU32(&out, h.order_block);
  PutU32(&out, Crc32(set_bytes));
  PutU32(&out, static_cast<uint32_t>(identity.relative_path.size()));
  out.append(identity.relative_path);
  if (version >= 3) {
    PutU64(&out, index.size());
    PutU32(&out, kSetIndexBucketSample);
    PutU32(&out, kSetIndexBlock);
  }
  PutU32(&out, Crc32(out));
  out.append(index);
  out.append(set_bytes);
  out.append(body);
  return out;
}

}  // namespace tarn
