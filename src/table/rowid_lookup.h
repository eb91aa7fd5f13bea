// Row-id lookups for the table layer: which row ids a scan seeks (from TableScanOptions::row_ids
// or a predicate that pins rowid to constants), and where they physically sit (a FileDirectory
// over the table at its snapshot), as positions per data file for DataFileReader.
//
// The directory returns physical placements only; a scan reading those positions applies
// delete files, inlined deletions and the partial-file snapshot filter exactly as a full scan
// does, so it returns the same rows (a Repeated id's versions hidden at the snapshot are dropped
// there, as in a full scan). Inlined rows are not placed: they come from the catalog.
//
// The process keeps one SummaryCache (memory tier) and one RowSummaryStats for every lookup;
// tarn_row_summary_stats() shows the latter.
//
// The process also keeps one FileDirectory per (lake, file system, table) across statements
// (at most 64, 64 MiB), so a warm lookup costs the directory's search rather than a fetch of
// every file's summary. A kept directory is used only while it describes the statement's
// committed files (snapshot, ids, paths, sizes, row facts) at the summary cache's generation,
// which Clear() and every sidecar published, swept or refused bump; another snapshot (a
// commit) refreshes it, keeping what it knew of the files still listed.
//
// Thread-safety: the functions may run on many threads (the cache, counters and kept
// directories are shared and synchronized; a statement takes its table's directory out while
// it uses it, and one running meanwhile builds its own).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/expr.h"
#include "tarn/io.h"
#include "tarn/rowid.h"

namespace tarn::table_internal {

// The process's summary cache (memory only: 64 MiB membership + 64 MiB whole) and counters.
const std::shared_ptr<SummaryCache>& ProcessRowSummaryCache();
const std::shared_ptr<RowSummaryStats>& ProcessRowSummaryStats();

// How lookups reach the summaries of `lake`: `fs`, its data path, the process cache and
// counters, sidecars on.
RowSummaryContext ProcessRowSummaryContext(const Lake& lake, std::shared_ptr<FileSystem> fs);

// The row ids `filter` restricts rows to, when it does: `rowid = c`, `c = rowid`,
// `rowid IN (c, ...)` (integer constants; NULLs match nothing), any AND with such a conjunct
// (intersection) and ORs whose every branch pins (union). `rowid_index` is the rowid
// pseudo-column's index in the schema `filter` was bound over. Sorted, unique; nullopt when the
// filter does not pin rowid.
std::optional<std::vector<int64_t>> PinnedRowIds(const BoundExpr& filter, int rowid_index);

// Sorted, unique ids in both lists.
std::vector<int64_t> IntersectRowIds(std::span<const int64_t> a, std::span<const int64_t> b);

// Bumps the process cache's generation: sidecars were published or swept (the SQL functions).
void NoteProcessSidecarsChanged();
// Drops every kept directory; how many are kept (for tests).
void ForgetKeptDirectories();
size_t KeptDirectoryCount();

// Where `row_ids` sit in the committed files of `table` (files with data_file_id >= 0; a write
// transaction's own files are not placed): data_file_id -> sorted unique physical positions.
// Files absent from the map hold none of the ids.
Result<std::map<int64_t, std::vector<int64_t>>> PlaceRowIds(
    Lake& lake, std::shared_ptr<FileSystem> fs, const TableMetadata& table,
    std::span<const int64_t> row_ids);

}  // namespace tarn::table_internal
