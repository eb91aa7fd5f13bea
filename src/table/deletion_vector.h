// Deletion vectors: delete files in the Iceberg v3 form DuckLake calls `puffin`.
//
// A deletion-vector-v1 blob holds the deleted positions of one data file:
//   u32 big-endian  length of what follows up to the checksum (magic + bitmaps)
//   4 bytes         magic D1 D3 39 64
//   portable 64-bit Roaring bitmap: u64 little-endian bitmap count, then per bitmap a u32 key
//                   (the positions' high 32 bits) and a portable 32-bit Roaring bitmap
//   u32 big-endian  CRC-32 of magic + bitmaps
// The file is that blob alone (one deletion vector, which belongs to the delete file's
// begin_snapshot), or a Puffin container: "PFA1", the blobs back to back, then the footer
// "PFA1" | JSON payload | u32 little-endian payload size | u32 flags (0) | "PFA1". The payload
// lists each blob's offset and length and, in the property "ducklake-snapshot-id", the
// snapshot as of which that blob holds every deleted position (blobs are cumulative). As the
// extension reads them, a position's deleting snapshot is that of the first blob holding it.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "table/deletes.h"
#include "tarn/status.h"

namespace tarn::table_internal {

// The positions a deletion-vector file lists, each with the snapshot that deleted it (sorted
// by position). `begin_snapshot` is the delete file's, for a blob without a snapshot. Every
// inconsistency (magic, lengths, checksum, footer, overlapping blobs) is Corruption naming
// `path`.
Result<std::vector<DeletedPosition>> DecodeDeletionVectorFile(std::string_view bytes,
                                                              const std::string& path,
                                                              int64_t begin_snapshot);

// One deletion-vector-v1 blob of `positions` (ascending, unique, non-negative): the bytes of
// a delete file holding one deletion vector.
std::string EncodeDeletionVector(std::span<const int64_t> positions);

// A Puffin container of cumulative deletion vectors, one blob per snapshot that deleted some
// of `positions` (any order; one entry per position); with a single snapshot, the bare blob
// (footer_size 0), whose snapshot is then the delete file's begin_snapshot. `data_file_path` is recorded as each
// blob's referenced-data-file. `footer_size` receives the footer's length (payload and its
// framing), as ducklake_delete_file stores it.
std::string EncodeDeletionVectorsBySnapshot(std::vector<DeletedPosition> positions,
                                            const std::string& data_file_path,
                                            int64_t* footer_size);

}  // namespace tarn::table_internal
