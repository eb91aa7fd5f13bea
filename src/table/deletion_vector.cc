#include "table/deletion_vector.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <variant>

#include "columnar/variant.h"
#include "format/json_text.h"
#include "rowid/roaring_set.h"

namespace tarn::table_internal {

namespace {

constexpr char kBlobMagic[4] = {'\xD1', '\xD3', '\x39', '\x64'};
constexpr char kPuffinMagic[4] = {'P', 'F', 'A', '1'};
constexpr size_t kFooterTail = 12;  // payload size, flags, magic
constexpr const char* kBlobType = "deletion-vector-v1";
constexpr const char* kSnapshotProperty = "ducklake-snapshot-id";

uint32_t LoadBigEndian32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

uint32_t LoadLittleEndian32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
}

void AppendBigEndian32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

void AppendLittleEndian32(uint32_t v, std::string* out) {
  for (int shift = 0; shift < 32; shift += 8) out->push_back(static_cast<char>(v >> shift));
}

uint32_t Crc32(std::string_view bytes) {
  return static_cast<uint32_t>(
      ::crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

// The positions of one deletion-vector-v1 blob, ascending.
Result<std::vector<uint64_t>> DecodeBlob(std::string_view blob, const std::string& path,
                                         size_t offset) {
  auto corrupt = [&](auto&&... parts) {
    return Status::Corruption("deletion vector '", path, "' (blob at offset ", offset, "): ",
                              parts...);
  };
  if (blob.size() < 12) return corrupt("the blob is ", blob.size(), " bytes, too short");
  const uint32_t length = LoadBigEndian32(blob.data());
  if (length < 4 + 8 || length != blob.size() - 8) {
    return corrupt("its length field says ", length, " bytes, the blob holds ", blob.size() - 8);
  }
  const std::string_view checked = blob.substr(4, length);
  if (std::memcmp(checked.data(), kBlobMagic, 4) != 0) return corrupt("magic bytes mismatch");
  const uint32_t stored = LoadBigEndian32(blob.data() + 4 + length);
  const uint32_t computed = Crc32(checked);
  if (stored != computed) {
    return corrupt("stored checksum ", stored, " does not match the computed ", computed);
  }
  Result<std::shared_ptr<const rowid_internal::RoaringSet>> set =
      rowid_internal::RoaringSet::Decode(checked.substr(4));
  if (!set.ok()) return corrupt(set.status().message());
  std::vector<uint64_t> positions;
  (*set)->AppendTo(&positions);
  return positions;
}

std::optional<int64_t> IntegerOf(const variant::VariantNode& node) {
  if (node.kind != variant::VariantNode::Kind::kPrimitive || node.scalar.is_null()) {
    return std::nullopt;
  }
  if (const auto* v = std::get_if<int64_t>(&node.scalar.storage())) return *v;
  if (const auto* v = std::get_if<uint64_t>(&node.scalar.storage())) {
    if (*v <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(*v);
  }
  return std::nullopt;
}

const variant::VariantNode* Member(const variant::VariantNode& object, std::string_view name) {
  if (object.kind != variant::VariantNode::Kind::kObject) return nullptr;
  for (size_t i = 0; i < object.names.size() && i < object.children.size(); ++i) {
    if (object.names[i] == name) return &object.children[i];
  }
  return nullptr;
}

struct BlobRef {
  size_t offset = 0;
  size_t length = 0;
  std::optional<int64_t> snapshot;
};

// The deletion-vector blobs a Puffin container's footer lists (other blob types are skipped).
Result<std::vector<BlobRef>> ReadFooter(std::string_view bytes, const std::string& path) {
  auto corrupt = [&](auto&&... parts) {
    return Status::Corruption("deletion vector file '", path, "': ", parts...);
  };
  if (bytes.size() < 4 + 4 + kFooterTail) return corrupt("too short for a Puffin file");
  if (std::memcmp(bytes.data() + bytes.size() - 4, kPuffinMagic, 4) != 0) {
    return corrupt("trailing magic mismatch");
  }
  const uint32_t flags = LoadLittleEndian32(bytes.data() + bytes.size() - 8);
  if (flags != 0) {
    return Status::NotSupported("deletion vector file '", path, "' has footer flags ", flags,
                                " (a compressed footer), which tarn does not read");
  }
  const uint32_t payload_size = LoadLittleEndian32(bytes.data() + bytes.size() - 12);
  if (payload_size > bytes.size() - 4 - 4 - kFooterTail) {
    return corrupt("footer payload size ", payload_size, " exceeds the file");
  }
  const size_t payload_start = bytes.size() - kFooterTail - payload_size;
  if (std::memcmp(bytes.data() + payload_start - 4, kPuffinMagic, 4) != 0) {
    return corrupt("footer magic mismatch");
  }
  const size_t blobs_end = payload_start - 4;
  Result<variant::VariantNode> footer =
      variant::ParseJson(bytes.substr(payload_start, payload_size));
  if (!footer.ok()) return corrupt("footer is not JSON: ", footer.status().message());
  const variant::VariantNode* blobs = Member(*footer, "blobs");
  if (blobs == nullptr || blobs->kind != variant::VariantNode::Kind::kArray) {
    return corrupt("footer has no \"blobs\" list");
  }
  std::vector<BlobRef> refs;
  for (const variant::VariantNode& blob : blobs->children) {
    const variant::VariantNode* type = Member(blob, "type");
    if (type == nullptr || type->kind != variant::VariantNode::Kind::kPrimitive ||
        type->scalar.is_null() || type->scalar.type().id != TypeId::kVarchar) {
      return corrupt("a blob without a type");
    }
    if (type->scalar.GetBytes() != kBlobType) continue;
    std::optional<int64_t> offset, length;
    if (const auto* v = Member(blob, "offset")) offset = IntegerOf(*v);
    if (const auto* v = Member(blob, "length")) length = IntegerOf(*v);
    if (!offset || !length || *offset < 4 || *length < 0 ||
        static_cast<uint64_t>(*offset) > blobs_end ||
        static_cast<uint64_t>(*length) > blobs_end - static_cast<uint64_t>(*offset)) {
      return corrupt("a blob's offset and length lie outside the blobs");
    }
    BlobRef ref;
    ref.offset = static_cast<size_t>(*offset);
    ref.length = static_cast<size_t>(*length);
    if (const auto* properties = Member(blob, "properties")) {
      if (const auto* snapshot = Member(*properties, kSnapshotProperty)) {
        const std::string text = snapshot->scalar.is_null() ? "" : snapshot->scalar.GetBytes();
        int64_t value = 0;
        bool digits = !text.empty() && text.size() <= 18;
        for (char c : text) {
          digits = digits && c >= '0' && c <= '9';
          value = value * 10 + (c - '0');
        }
        if (!digits) return corrupt("invalid ", kSnapshotProperty, " \"", text, "\"");
        ref.snapshot = value;
      }
    }
    refs.push_back(ref);
  }
  return refs;
}

}  // namespace

Result<std::vector<DeletedPosition>> DecodeDeletionVectorFile(std::string_view bytes,
                                                              const std::string& path,
                                                              int64_t begin_snapshot) {
  std::vector<BlobRef> blobs;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), kPuffinMagic, 4) == 0) {
    TARN_ASSIGN_OR_RETURN(blobs, ReadFooter(bytes, path));
  } else if (bytes.size() >= 8 && std::memcmp(bytes.data() + 4, kBlobMagic, 4) == 0) {
    blobs.push_back({0, bytes.size(), std::nullopt});  // one bare blob
  } else {
    return Status::Corruption("deletion vector file '", path,
                              "' is neither a Puffin file nor a deletion-vector blob (magic "
                              "mismatch)");
  }
  size_t with_snapshot = 0;
  for (const BlobRef& blob : blobs) with_snapshot += blob.snapshot.has_value() ? 1 : 0;
  if (with_snapshot != 0 && with_snapshot != blobs.size()) {
    return Status::Corruption("deletion vector file '", path,
                              "' mixes deletion vectors with and without a snapshot");
  }
  std::stable_sort(blobs.begin(), blobs.end(), [](const BlobRef& a, const BlobRef& b) {
    return a.snapshot.value_or(0) < b.snapshot.value_or(0);
  });
  // Blobs in snapshot order, each ascending; with several, a position keeps the snapshot of the
  // first blob holding it.
  std::vector<DeletedPosition> out;
  for (const BlobRef& blob : blobs) {
    TARN_ASSIGN_OR_RETURN(std::vector<uint64_t> positions,
                          DecodeBlob(bytes.substr(blob.offset, blob.length), path, blob.offset));
    const int64_t snapshot = blob.snapshot.value_or(begin_snapshot);
    out.reserve(out.size() + positions.size());
    for (uint64_t position : positions) {
      if (position > static_cast<uint64_t>(INT64_MAX)) {
        return Status::Corruption("deletion vector file '", path, "': position ", position,
                                  " is out of range");
      }
      out.push_back({static_cast<int64_t>(position), snapshot});
    }
  }
  if (blobs.size() > 1) {
    auto by_position = [](const DeletedPosition& a, const DeletedPosition& b) {
      return a.position < b.position;
    };
    std::stable_sort(out.begin(), out.end(), by_position);
    out.erase(std::unique(out.begin(), out.end(),
                          [](const DeletedPosition& a, const DeletedPosition& b) {
                            return a.position == b.position;
                          }),
              out.end());
  }
  return out;
}

std::string EncodeDeletionVector(std::span<const int64_t> positions) {
  std::vector<uint64_t> ids(positions.begin(), positions.end());
  std::string bitmaps;
  rowid_internal::RoaringSet::Build(ids)->EncodeTo(&bitmaps);
  std::string checked(kBlobMagic, 4);
  checked += bitmaps;
  std::string out;
  AppendBigEndian32(static_cast<uint32_t>(checked.size()), &out);
  out += checked;
  AppendBigEndian32(Crc32(checked), &out);
  return out;
}

std::string EncodeDeletionVectorsBySnapshot(std::vector<DeletedPosition> positions,
                                            const std::string& data_file_path,
                                            int64_t* footer_size) {
  std::map<int64_t, std::vector<int64_t>> by_snapshot;
  for (const DeletedPosition& p : positions) by_snapshot[p.snapshot].push_back(p.position);
  if (by_snapshot.size() <= 1) {
    // As the extension writes one deletion vector: the bare blob, whose snapshot is the
    // delete file's begin_snapshot.
    std::vector<int64_t> all;
    for (const DeletedPosition& p : positions) all.push_back(p.position);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    *footer_size = 0;
    return EncodeDeletionVector(all);
  }
  std::string out(kPuffinMagic, 4);
  std::string payload = "{\"blobs\":[";
  std::vector<int64_t> cumulative;
  bool first = true;
  for (auto& [snapshot, added] : by_snapshot) {
    std::vector<int64_t> merged;
    std::sort(added.begin(), added.end());
    std::set_union(cumulative.begin(), cumulative.end(), added.begin(), added.end(),
                   std::back_inserter(merged));
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    cumulative = std::move(merged);
    const std::string blob = EncodeDeletionVector(cumulative);
    if (!first) payload += ',';
    first = false;
    payload += StrCat("{\"type\":\"", kBlobType, "\",\"fields\":[],\"snapshot-id\":-1,",
                      "\"sequence-number\":-1,\"offset\":", out.size(), ",\"length\":",
                      blob.size(), ",\"properties\":{\"referenced-data-file\":");
    format::AppendJsonString(data_file_path, &payload);
    payload += StrCat(",\"cardinality\":\"", cumulative.size(), "\",\"", kSnapshotProperty,
                      "\":\"", snapshot, "\"}}");
    out += blob;
  }
  payload += "],\"properties\":{\"created-by\":\"tarn\"}}";
  out.append(kPuffinMagic, 4);
  out += payload;
  AppendLittleEndian32(static_cast<uint32_t>(payload.size()), &out);
  AppendLittleEndian32(0, &out);
  out.append(kPuffinMagic, 4);
  *footer_size = static_cast<int64_t>(payload.size() + 4 + kFooterTail);
  return out;
}

}  // namespace tarn::table_internal
