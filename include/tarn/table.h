// Reading DuckLake tables: scans at a snapshot and change feeds between snapshots.
//
// A TableScan reads one table as of one snapshot exactly as DuckDB's `ducklake` extension
// returns it: every row, its rowid and its values. For each visible data file it
//   1. prunes the file on the catalog's column statistics (NaN-safe) and partition values;
//   2. reads it with tarn's Parquet reader (projection, row-group pruning, and the physical
//      row position of every row);
//   3. drops deleted positions (the visible delete file, snapshot-filtered when it embeds
//      snapshot ids, and inlined file deletions visible at the snapshot);
//   4. keeps only rows written by the snapshot in partial files (embedded snapshot ids);
//   5. derives each row's rowid: the embedded `_ducklake_internal_row_id`, else
//      row_id_start + position;
//   6. maps file columns to the table's columns by field id (= column id; renames), by name
//      mapping, or by position for files without field ids; fills columns a file predates
//      with their initial_default; casts promoted types to the type at the snapshot;
// then adds the inlined rows visible at the snapshot (every inlined-data table the snapshot
// sees, mapped by column id), and finally applies the residual predicate to every row.
// Rows come file by file (by data_file_id), then the inlined rows.
//
// Change feeds report insertions, deletions and both joined into changes (insert, delete,
// update_preimage, update_postimage) between two snapshots, inclusive, as the extension's
// ducklake_table_insertions / _deletions / _changes do. docs/table-scan.md has the rules.
//
// Thread-safety: OpenTableScan and ReadTableChanges may run on many threads at once (the
// Lake serializes its catalog use). A returned reader is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/parquet.h"
#include "tarn/status.h"
#include "tarn/thread_pool.h"

namespace tarn {

// The name of the rowid pseudo-column. A table column of the same name shadows it in
// predicates (as in DuckDB).
inline constexpr const char* kRowIdColumnName = "rowid";
// The name of the per-row snapshot pseudo-column: the snapshot that wrote the row.
inline constexpr const char* kSnapshotIdColumnName = "snapshot_id";
// The names of the virtual columns of a row's place: its position in its file, the file.
inline constexpr const char* kFileRowNumberColumnName = "file_row_number";
inline constexpr const char* kFilenameColumnName = "filename";
// The filename of a write transaction's own inlined rows (TableScanOptions::with_filename), as
// the DuckLake extension names them.
inline constexpr const char* kTransactionLocalInlinedName =
    "__ducklake_inlined_transaction_local_data";

struct TableScanOptions {
  // Table columns to return, by name (case-insensitive), in this order. Empty = every
  // top-level column at the snapshot, in column order.
  std::vector<std::string> columns;
  // Prepends the BIGINT column "rowid". Default: false.
  bool with_rowid = false;
  // Prepends (before rowid) the BIGINT column "snapshot_id": the snapshot that inserted the
  // row (the embedded _ducklake_internal_snapshot_id, else the data file's begin_snapshot;
  // for inlined rows their begin_snapshot). Default: false.
  bool with_snapshot_id = false;
  // Appends (after the columns) the BIGINT column "file_row_number": the row's position in its
  // data file; for inlined rows, its position among the visible rows of its inlined table (or
  // of the transaction's own inlined rows). Default: false.
  bool with_file_row_number = false;
  // Appends (last) the VARCHAR column "filename": the data file's path; for inlined rows the
  // inlined table's name, or kTransactionLocalInlinedName for a transaction's own inlined rows.
  // Default: false.
  bool with_filename = false;
  // Rows a write transaction wrote and has not committed (its data files and inlined rows)
  // have a NULL snapshot_id, as the DuckLake extension shows them; otherwise they have the
  // transaction's start snapshot. The filter sees the same values. Default: false.
  bool local_snapshot_id_null = false;
  // A SQL predicate over the table's columns and the pseudo-columns "rowid" and
  // "snapshot_id"; rows where it is not TRUE are dropped. It also prunes files and row
  // groups. Default: none.
  std::optional<std::string> filter;
  // Default: ThreadPool::Default() for the Parquet reader.
  ThreadPool* pool = nullptr;
  // Rows per batch from the Parquet reader. Default: 122,880.
  int64_t batch_rows = 122880;
  const CancellationToken* cancel = nullptr;
  // Only rows whose rowid is in this list (a point lookup). Combined with `filter` (AND).
  // Default: none.
  std::optional<std::vector<int64_t>> row_ids;
  // When the rowids sought are known (`row_ids`, or a filter that pins rowid to constants:
  // `rowid = c`, `rowid IN (...)`, under AND/OR), find each id's file and physical position
  // with a FileDirectory (tarn/rowid.h) and read only those positions; other files are not
  // opened. Off: read every file and filter (same rows). Default: on.
  bool use_row_id_lookup = true;
};

// What a scan did: for EXPLAIN and for tests that check pruning really happened.
struct TableScanMetrics {
  int64_t files_total = 0;
  int64_t files_pruned_by_stats = 0;      // catalog column statistics
  int64_t files_pruned_by_partition = 0;  // partition values
  int64_t files_pruned_by_rowid = 0;      // a row-id lookup placed no sought id in them
  bool row_id_lookup = false;             // the scan read placed positions only
  int64_t files_read = 0;
  int64_t row_groups_total = 0;
  int64_t row_groups_pruned = 0;
  int64_t rows_deleted = 0;         // dropped by delete files and inlined file deletions
  int64_t rows_after_snapshot = 0;  // dropped from partial files (written after the snapshot)
  int64_t rows_filtered = 0;        // dropped by the residual predicate
  int64_t inlined_rows = 0;         // inlined rows visible at the snapshot (before the filter)
};

namespace parquet {
class RowFilter;  // parquet/filtered_scan.h
}  // namespace parquet

class TableScanReader : public BatchReader {
 public:
  // Counters so far; complete once Next() returned nullptr, or every part's reader did.
  virtual const TableScanMetrics& metrics() const = 0;

  // Parts that several threads can read at once, each decoding on the thread that reads it:
  // the data files left after pruning (a large file split into runs of its row groups), then
  // the inlined rows. Reading the parts in order gives what Next() gives. Planned by the first
  // call, which must come before Next(); 0 when the scan does not split (a rowid lookup, no
  // pool, or a file that failed to open: Next() then reports the error).
  virtual int64_t num_parts() { return 0; }
  // A reader of part `part` (0 <= part < num_parts()). Safe to call, and to use the readers,
  // from several threads at once; a reader adds its counters to metrics() when it ends.
  virtual Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const;

  // For the SQL engine's joins: a filter over this scan's output columns that the consumer
  // checks again (rows it rejects may be dropped early, rows it keeps never are), evaluated
  // while the files decode, with its range (RowFilter::Range) pruning files, row groups and
  // pages. Before the first Next() or num_parts(); false when not taken.
  virtual bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) {
    (void)filter;
    return false;
  }
};

// Opens a scan of `table` (loaded with Lake::LoadTable at the snapshot to read). Inlined rows
// are read from `lake` here; the reader keeps no reference to the Lake. Data and delete files
// are read through `fs` (paths as the catalog resolved them).
// Errors: NotFound for an unknown column, InvalidArgument/NotFound for a predicate that does
// not bind or is not BOOLEAN; while reading, NotSupported for an encrypted file, Corruption
// for files that contradict the catalog (a delete position outside the file, a damaged
// deletion vector, a partial file without snapshot ids, ...), each naming the file.
Result<std::unique_ptr<TableScanReader>> OpenTableScan(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                       std::shared_ptr<const TableMetadata> table,
                                                       const TableScanOptions& options = {});

// Reads a whole scan into one batch (for tests and small tables).
Result<std::shared_ptr<Batch>> ScanTableToBatch(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                std::shared_ptr<const TableMetadata> table,
                                                const TableScanOptions& options = {});

// Point lookup: the rows of `table` (as a scan with `options` returns them) whose rowid is in
// `row_ids`, found through row placements: dense files by arithmetic, embedded-row-id files
// through row summaries (cache, `.rowsum` sidecar, or derived), then only the rows' positions
// are read; deletes, partial files and inlined rows are applied as in a scan. Ids not in the
// table are simply absent. `options.row_ids` is replaced.
Result<std::shared_ptr<Batch>> LookupTableRows(Lake& lake, std::shared_ptr<FileSystem> fs,
                                               std::shared_ptr<const TableMetadata> table,
                                               std::span<const int64_t> row_ids,
                                               TableScanOptions options = {});

enum class ChangeFeedKind : uint8_t {
  kInsertions,  // snapshot_id, rowid, <columns>
  kDeletions,   // snapshot_id, rowid, <columns>
  kChanges,     // snapshot_id, rowid, change_type, <columns>
};

struct ChangeFeedOptions {
  ChangeFeedKind kind = ChangeFeedKind::kChanges;
  // The snapshot range, inclusive. The table is resolved by name at end_snapshot; its
  // columns there are the feed's columns.
  int64_t start_snapshot = 0;
  int64_t end_snapshot = 0;
  ThreadPool* pool = nullptr;
  const CancellationToken* cancel = nullptr;
};

// The change feed of `schema`.`table` between two snapshots. Rows are ordered by snapshot_id,
// rowid and change_type (update_postimage before update_preimage, as text). Errors: NotFound
// for an unknown table or snapshot at end_snapshot; InvalidArgument when start > end; the
// scan's errors for files.
Result<std::unique_ptr<BatchReader>> ReadTableChanges(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                      const std::string& schema,
                                                      const std::string& table,
                                                      const ChangeFeedOptions& options);

}  // namespace tarn
