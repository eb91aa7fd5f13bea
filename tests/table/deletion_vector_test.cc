// Deletion vectors (puffin delete files): bytes laid out by hand from the Iceberg
// deletion-vector-v1 and Puffin specifications decode to the positions they hold; tarn's
// encoder writes those same bytes; random sets round trip against std::set; cumulative blobs
// give each position the snapshot of the first blob holding it; every truncation and every
// checksum-covered byte flip is Corruption.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "table/deletion_vector.h"

namespace tarn::table_internal {
namespace {

void PutBigEndian32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}
void PutLittleEndian(uint64_t v, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

// The deletion-vector-v1 blob of positions {1, 3}, byte by byte: one 64-bit Roaring bitmap
// (key 0) holding one array container, in the portable layout without run containers
// (cookie 12346, container count, key and cardinality - 1, offsets, the values).
std::string HandMadeBlob() {
  std::string body = "\xD1\xD3\x39\x64";
  PutLittleEndian(1, 8, &body);      // bitmap count
  PutLittleEndian(0, 4, &body);      // key: high 32 bits
  PutLittleEndian(12346, 4, &body);  // cookie, no runs
  PutLittleEndian(1, 4, &body);      // containers
  PutLittleEndian(0, 2, &body);      // container key
  PutLittleEndian(1, 2, &body);      // cardinality - 1
  PutLittleEndian(16, 4, &body);     // offset of the container's values
  PutLittleEndian(1, 2, &body);
  PutLittleEndian(3, 2, &body);
  std::string blob;
  PutBigEndian32(static_cast<uint32_t>(body.size()), &blob);
  blob += body;
  PutBigEndian32(static_cast<uint32_t>(::crc32(0L, reinterpret_cast<const Bytef*>(body.data()),
                                               static_cast<uInt>(body.size()))),
                 &blob);
  return blob;
}

std::vector<int64_t> Positions(const std::vector<DeletedPosition>& deleted) {
  std::vector<int64_t> out;
  for (const DeletedPosition& d : deleted) out.push_back(d.position);
  return out;
}

TEST(DeletionVectorTest, HandMadeBlobDecodesAndIsWhatTheEncoderWrites) {
  const std::string blob = HandMadeBlob();
  auto decoded = DecodeDeletionVectorFile(blob, "dv.puffin", 7);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ((*decoded)[0].position, 1);
  EXPECT_EQ((*decoded)[1].position, 3);
  EXPECT_EQ((*decoded)[0].snapshot, 7);  // a bare blob belongs to the file's begin_snapshot
  const std::vector<int64_t> positions = {1, 3};
  EXPECT_EQ(EncodeDeletionVector(positions), blob);
}

TEST(DeletionVectorTest, HandMadePuffinContainerWithSnapshots) {
  // Two cumulative blobs: {1, 3} as of snapshot 4, then {0, 1, 3} as of snapshot 6, and a
  // blob of another type that readers skip.
  std::string file = "PFA1";
  const std::string first = HandMadeBlob();
  const std::vector<int64_t> later = {0, 1, 3};
  const std::string second = EncodeDeletionVector(later);
  const size_t first_offset = file.size();
  file += first;
  const size_t second_offset = file.size();
  file += second;
  const std::string payload =
      "{\"blobs\": [{\"type\": \"apache-datasketches-theta-v1\", \"fields\": [1], \"offset\": 4, "
      "\"length\": 1}, {\"type\": \"deletion-vector-v1\", \"fields\": [], \"snapshot-id\": -1, "
      "\"sequence-number\": -1, \"offset\": " + std::to_string(second_offset) +
      ", \"length\": " + std::to_string(second.size()) +
      ", \"properties\": {\"ducklake-snapshot-id\": \"6\"}}, {\"type\": \"deletion-vector-v1\", "
      "\"offset\": " + std::to_string(first_offset) + ", \"length\": " +
      std::to_string(first.size()) + ", \"properties\": {\"ducklake-snapshot-id\": \"4\", "
      "\"referenced-data-file\": \"d.parquet\"}}], \"properties\": {}}";
  file += "PFA1" + payload;
  PutLittleEndian(payload.size(), 4, &file);
  PutLittleEndian(0, 4, &file);
  file += "PFA1";
  auto decoded = DecodeDeletionVectorFile(file, "c.puffin", 1);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->size(), 3u);
  EXPECT_EQ((*decoded)[0].position, 0);
  EXPECT_EQ((*decoded)[0].snapshot, 6);
  EXPECT_EQ((*decoded)[1].position, 1);
  EXPECT_EQ((*decoded)[1].snapshot, 4);
  EXPECT_EQ((*decoded)[2].position, 3);
  EXPECT_EQ((*decoded)[2].snapshot, 4);

  // Compressed footers are refused by name; a mix of blobs with and without a snapshot too.
  std::string compressed = file;
  compressed[compressed.size() - 8] = 1;
  auto refused = DecodeDeletionVectorFile(compressed, "c.puffin", 1);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().ToString().find("footer flags"), std::string::npos);
}

TEST(DeletionVectorTest, RandomSetsRoundTrip) {
  std::mt19937_64 rng(20261206);
  for (int round = 0; round < 200; ++round) {
    std::set<int64_t> model;
    const int shape = round % 4;
    const int64_t span = shape == 0 ? 100 : shape == 1 ? 70000 : shape == 2 ? 5000000 : 1 << 20;
    const int count = static_cast<int>(rng() % 3000) + 1;
    for (int i = 0; i < count; ++i) {
      if (shape == 3) {  // runs: a dense stretch
        const int64_t start = static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
        for (int64_t k = 0; k < 50; ++k) model.insert(start + k);
      } else {
        model.insert(static_cast<int64_t>(rng() % static_cast<uint64_t>(span)));
      }
    }
    const std::vector<int64_t> positions(model.begin(), model.end());
    const std::string blob = EncodeDeletionVector(positions);
    auto decoded = DecodeDeletionVectorFile(blob, "r.puffin", 3);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(Positions(*decoded), positions) << "round " << round;
  }
}

TEST(DeletionVectorTest, BlobsBySnapshotAreCumulative) {
  std::vector<DeletedPosition> deleted = {{9, 12}, {2, 10}, {70000, 11}, {4, 10}, {5, 12}};
  int64_t footer = -1;
  const std::string file = EncodeDeletionVectorsBySnapshot(deleted, "data/f.parquet", &footer);
  EXPECT_GT(footer, 16);
  EXPECT_EQ(file.substr(0, 4), "PFA1");
  auto decoded = DecodeDeletionVectorFile(file, "s.puffin", 1);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  std::vector<std::pair<int64_t, int64_t>> got;
  for (const DeletedPosition& d : *decoded) got.emplace_back(d.position, d.snapshot);
  EXPECT_EQ(got, (std::vector<std::pair<int64_t, int64_t>>{
                     {2, 10}, {4, 10}, {5, 12}, {9, 12}, {70000, 11}}));
  // One snapshot: the bare blob, no footer.
  const std::string single =
      EncodeDeletionVectorsBySnapshot({{3, 5}, {1, 5}}, "data/f.parquet", &footer);
  EXPECT_EQ(footer, 0);
  EXPECT_EQ(single, HandMadeBlob());
}

TEST(DeletionVectorTest, DamageIsCorruption) {
  const std::vector<int64_t> positions = {0, 5, 65536, 65537, 1000000};
  const std::string blob = EncodeDeletionVector(positions);
  for (size_t length = 0; length < blob.size(); ++length) {
    auto cut = DecodeDeletionVectorFile(blob.substr(0, length), "t.puffin", 1);
    ASSERT_FALSE(cut.ok()) << "truncated to " << length;
    EXPECT_EQ(cut.status().code(), StatusCode::kCorruption) << cut.status().ToString();
  }
  // Every byte is covered by the length, the magic or the checksum.
  for (size_t i = 0; i < blob.size(); ++i) {
    std::string flipped = blob;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x20);
    auto bad = DecodeDeletionVectorFile(flipped, "t.puffin", 1);
    ASSERT_FALSE(bad.ok()) << "byte " << i;
    EXPECT_EQ(bad.status().code(), StatusCode::kCorruption) << bad.status().ToString();
  }
  int64_t footer = 0;
  const std::string file =
      EncodeDeletionVectorsBySnapshot({{1, 4}, {2, 5}, {3, 6}}, "f.parquet", &footer);
  for (size_t length = 0; length < file.size(); ++length) {
    EXPECT_FALSE(DecodeDeletionVectorFile(file.substr(0, length), "t.puffin", 1).ok())
        << "truncated to " << length;
  }
  for (size_t i = 0; i < file.size(); ++i) {  // never a crash; blob bytes always caught
    std::string flipped = file;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x01);
    (void)DecodeDeletionVectorFile(flipped, "t.puffin", 1);
  }
  auto parquet = DecodeDeletionVectorFile("PAR1....PAR1", "x.puffin", 1);
  ASSERT_FALSE(parquet.ok());
  EXPECT_NE(parquet.status().ToString().find("magic"), std::string::npos);
}

}  // namespace
}  // namespace tarn::table_internal
