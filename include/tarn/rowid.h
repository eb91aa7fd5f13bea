// Row-id lookup: which data file, and which physical position in it, holds a row id.
//
// A DuckLake row's id is either dense — `row_id_start + position`, known from catalog metadata
// alone — or embedded in the file's `_ducklake_internal_row_id` column (UPDATE, rewrite, merge
// and flush outputs). For an embedded-row-id file the answer needs a *row summary*: the file's
// set of ids (contains, rank) and the order that maps each id's rank to its physical
// position(s). This header has four layers:
//
//   RowIdSet / RowOrder / PositionedRowSet
//                 — the summary itself. A set is a Range, a Roaring-style 64-bit bitmap, an
//                   Elias-Fano sequence or a sorted run; an order is Ascending (position = rank), Permuted (one
//                   position per id) or Repeated (an id at several positions, as a flushed
//                   inlined file keeps several versions of a row).
//   .rowsum sidecars
//                 — one immutable `<data file path>.rowsum` per embedded-row-id file, holding
//                   the summary in the byte format of docs/formats/rowsum.md. A lookup fetches
//                   header + set only; a position is read by arithmetic on the order's fixed
//                   width, or — for a file of a few ascending runs, stored as runs — by one
//                   descent through the runs' tree. A sidecar that is missing, corrupt, or
//                   names another file is "absent": the answer is the same as without it.
//   SummaryCache / LoadFileSummary
//                 — the read path, each step a strict fallback: dense metadata → cache
//                   (memory, then local disk) → sidecar → derive from the data file (kept in
//                   this process's cache). A read never publishes.
//   FileDirectory — one table at one snapshot: Place(row ids) → physical placements. The table
//                   layer applies delete files, inlined deletes and partial-file snapshot
//                   filtering, and picks the visible version of a Repeated id.
// plus publishing (PublishRowSummaries, RowSummaryPublisher) and SweepRowSummaries.
//
// Dense files: a file is answered from metadata only when the catalog proves it carries no
// embedded ids. `row_id_start` alone does not: DuckLake assigns it to UPDATE outputs and
// flushed files too. docs/rowid.md gives the rule; an unproven file costs one footer read.
//
// Thread-safety: RowIdSet, RowOrder, PositionedRowSet and FileSummary are immutable and shared
// freely. SummaryCache, RowSummaryStats and the free functions are safe from many threads.
// A FileDirectory is used by one thread at a time. RowSummaryPublisher's methods may be called
// from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/io.h"
#include "tarn/status.h"
#include "tarn/thread_pool.h"
#include "tarn/work_watch.h"

namespace tarn {

inline constexpr int32_t kEmbeddedRowIdFieldId = 2147483540;
inline constexpr const char* kEmbeddedRowIdName = "_ducklake_internal_row_id";
inline constexpr std::string_view kRowSummarySuffix = ".rowsum";

class Buffer;

namespace rowid_internal {
class EliasFanoSet;
class RoaringSet;
struct OrderLocator;
}  // namespace rowid_internal

// =============================================================================================
// The summary
// =============================================================================================

// An immutable set of row ids that answers contains and rank.
class RowIdSet {
 public:
  enum class Kind : uint8_t { kRange = 1, kRoaring = 2, kSorted = 3, kEliasFano = 4 };

  RowIdSet();  // empty
  // [begin, end). REQUIRES: begin <= end.
  static RowIdSet Range(uint64_t begin, uint64_t end);
  // REQUIRES: ids strictly ascending. Picks the smallest encoding: Range when contiguous, else
  // the smallest encoded of Roaring, Elias-Fano and Sorted, a tie going to the earlier.
  static RowIdSet FromSorted(std::span<const uint64_t> ids);
  // As above with the encoding forced (kRange requires contiguous ids).
  static RowIdSet FromSorted(std::span<const uint64_t> ids, Kind kind);

  Kind kind() const { return kind_; }
  uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // REQUIRES: !empty().
  uint64_t min() const { return min_; }
  uint64_t max() const { return max_; }
  bool Contains(uint64_t id) const;
  // The number of members below `id` when `id` is a member; nullopt otherwise.
  std::optional<uint64_t> Rank(uint64_t id) const;
  // Every member, ascending.
  std::vector<uint64_t> ToVector() const;
  int64_t memory_bytes() const;
  // Roaring only: the number of 2^16-id containers.
  int64_t container_count() const;

  // The set's bytes in the .rowsum encoding (docs/formats/rowsum.md, "set").
  int64_t EncodedSize() const;
  void EncodeTo(std::string* out) const;
  // Bounds-checked; any inconsistency is Corruption naming the offset.
  static Result<RowIdSet> Decode(Kind kind, std::string_view bytes);

 private:
  Kind kind_ = Kind::kRange;
  uint64_t size_ = 0;
  uint64_t min_ = 0;
  uint64_t max_ = 0;
  std::shared_ptr<const rowid_internal::RoaringSet> roaring_;
  std::shared_ptr<const rowid_internal::EliasFanoSet> elias_fano_;
  std::shared_ptr<const std::vector<uint64_t>> sorted_;
};

// Maps a member's rank to its physical position(s) in the file.
class RowOrder {
 public:
  enum class Kind : uint8_t { kAscending = 0, kPermuted = 1, kRepeated = 2 };

  static RowOrder Ascending() { return RowOrder(); }
  // positions[rank] = the file position of the rank-th smallest id.
  static RowOrder Permuted(const std::vector<uint32_t>& positions);
  // The rank-th id sits at positions[offsets[rank] .. offsets[rank + 1]), ascending.
  static RowOrder Repeated(const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& positions);
  // The same over buffers of uint32_t values (size a multiple of 4), taken without copying.
  static RowOrder Permuted(std::shared_ptr<const Buffer> positions);
  static RowOrder Repeated(std::shared_ptr<const Buffer> offsets, std::shared_ptr<const Buffer> positions);

  Kind kind() const { return kind_; }
  // Appends the positions of the member of rank `rank`. REQUIRES: rank < the set's size.
  void AppendPositions(uint64_t rank, std::vector<int64_t>* out) const;
  std::span<const uint32_t> positions() const { return positions_; }
  std::span<const uint32_t> offsets() const { return offsets_; }
  int64_t memory_bytes() const;

 private:
  Kind kind_ = Kind::kAscending;
  // Large arrays live in buffers (recycled blocks) rather than fresh heap allocations; the
  // spans view them.
  std::shared_ptr<const Buffer> offsets_buffer_;
  std::shared_ptr<const Buffer> positions_buffer_;
  std::span<const uint32_t> offsets_;
  std::span<const uint32_t> positions_;
};

// A set paired with an order: a data file's row summary. Physical rows counts every row of the
// file (deleted ones included; a Repeated id counts once per position).
struct PositionedRowSet {
  std::shared_ptr<const RowIdSet> set;
  std::shared_ptr<const RowOrder> order;
  int64_t physical_rows = 0;

  // Summarizes a file's row ids listed in file order (ids[p] sits at position p).
  // InvalidArgument for a negative id; NotSupported past 2^32 - 1 rows.
  static Result<PositionedRowSet> FromFileOrder(std::span<const int64_t> ids);
};

// Bits needed to write every value in [0, max_value]: 0 for 0.
int BitsFor(uint64_t max_value);

// =============================================================================================
// Identity, summaries and statistics
// =============================================================================================

// What a summary describes. relative_path is the data file's path relative to the lake's data
// path (the full path when the file lies outside it), so a moved lake keeps its summaries.
struct SummaryIdentity {
  int64_t table_id = 0;
  int64_t data_file_id = 0;
  std::string relative_path;
  int64_t file_size = 0;

  friend bool operator==(const SummaryIdentity&, const SummaryIdentity&) = default;
  std::string ToString() const;
};

// The identity of `file` of table `table_id` in a lake whose data path is `data_path`.
SummaryIdentity IdentityOf(int64_t table_id, const DataFileInfo& file,
                           std::string_view data_path);
// `<data file path>.rowsum`.
std::string SidecarPath(const DataFileInfo& file);

enum class SummaryNeed : uint8_t {
  kMembership,  // the set; positions are read entry by entry when asked for
  kPositions,   // the set and the whole order, resident
};

enum class SummarySource : uint8_t { kDense, kMemoryCache, kDiskCache, kSidecar, kDerived };
std::string_view SummarySourceName(SummarySource source);

// A file's summary as a source delivered it.
class FileSummary {
 public:
  FileSummary();
  ~FileSummary();
  FileSummary(const FileSummary&);
  FileSummary& operator=(const FileSummary&);

  SummaryIdentity identity;
  int64_t physical_rows = 0;
  std::shared_ptr<const RowIdSet> set;
  // Null for a membership summary.
  std::shared_ptr<const RowOrder> order;
  SummarySource source = SummarySource::kDerived;
  // Set on membership summaries loaded from a sidecar or the disk tier: where to read single
  // order entries. Internal.
  std::shared_ptr<const rowid_internal::OrderLocator> order_locator;

  bool has_order() const { return order != nullptr; }
  int64_t memory_bytes() const;
};

// Counters of the read path and of publishing. Shared by everything given the same object.
struct RowSummaryStats {
  std::atomic<int64_t> cache_hits{0};          // memory or disk tier answered
  std::atomic<int64_t> cache_misses{0};
  std::atomic<int64_t> sidecar_hits{0};        // a sidecar answered (set, order entries, probe)
  std::atomic<int64_t> sidecar_probes{0};      // ... of which asked about ids through its set index
  std::atomic<int64_t> sidecar_misses{0};      // no sidecar object
  std::atomic<int64_t> refused_identity{0};    // a sidecar describing another file
  std::atomic<int64_t> decode_failures{0};     // bad magic/version, short read, corrupt bytes
  std::atomic<int64_t> derived{0};             // summaries built from the data file
  std::atomic<int64_t> footer_probes{0};       // footers read to classify or bound a file
  std::atomic<int64_t> published{0};
  std::atomic<int64_t> already_published{0};
  std::atomic<int64_t> publish_failures{0};

  // Called once per sidecar path that is refused or fails to decode (default: stderr).
  std::function<void(const std::string&)> log;
  // Logs `message` unless `key` was logged before.
  void LogOnce(const std::string& key, const std::string& message);

 private:
  std::mutex mu_;  // guards logged_
  std::vector<std::string> logged_;
};

// =============================================================================================
// The cache
// =============================================================================================

struct SummaryCacheOptions {
  // Default: 64 MiB for membership summaries and 64 MiB for whole ones, apart, so neither
  // evicts the other.
  int64_t membership_bytes = 64LL << 20;
  int64_t whole_bytes = 64LL << 20;
  // The local-disk tier: a directory (on disk_fs) of files in the sidecar encoding. Empty =
  // no disk tier. Default: none; disk_bytes default 256 MiB.
  std::shared_ptr<FileSystem> disk_fs;
  std::string disk_dir;
  int64_t disk_bytes = 256LL << 20;
};

// A process's summaries: a memory tier (two LRUs bounded by bytes) and an optional disk tier.
// Keys are (namespace, identity); the namespace tells lakes apart (default: the data path).
class SummaryCache {
 public:
  static Result<std::shared_ptr<SummaryCache>> Open(SummaryCacheOptions options);
  ~SummaryCache();

  // A resident summary able to serve `need`, from memory, then from the disk tier. A whole
  // summary serves both needs; a membership summary never serves kPositions.
  std::optional<FileSummary> Lookup(const std::string& ns, const SummaryIdentity& identity,
                                    SummaryNeed need, RowSummaryStats* stats);
  // Keeps `summary` in memory (a whole one also on the disk tier, when `write_disk`).
  void Insert(const std::string& ns, const FileSummary& summary, bool write_disk);
  // Footer facts of a file: whether it embeds row ids and its row-id bounds.
  struct FileFacts {
    bool embeds_row_ids = false;
    std::optional<std::pair<uint64_t, uint64_t>> bounds;  // [min, max]; none = unknown
  };
  std::optional<FileFacts> LookupFacts(const std::string& ns, const SummaryIdentity& identity);
  void InsertFacts(const std::string& ns, const SummaryIdentity& identity, FileFacts facts);

  int64_t membership_bytes_used() const;
  int64_t whole_bytes_used() const;
  int64_t disk_bytes_used() const;
  int64_t entries() const;
  void Clear();  // memory tiers only; bumps the generation

  // Bumped by Clear() and NoteSidecarsChanged(). What keeps state derived from this cache's
  // answers across statements (the row-id directories a process keeps) is valid only for the
  // generation it was built at.
  uint64_t generation() const;
  // Something a summary could be read from changed: a sidecar was published, swept, or refused
  // as corrupt or describing another file. Bumps the generation.
  void NoteSidecarsChanged();

 private:
  struct Impl;
  explicit SummaryCache(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// =============================================================================================
// The read path
// =============================================================================================

// How summaries of one lake are reached.
struct RowSummaryContext {
  std::shared_ptr<FileSystem> fs;
  std::string data_path;                 // the lake's effective data path, ending in '/'
  std::shared_ptr<SummaryCache> cache;   // null = no cache
  std::shared_ptr<RowSummaryStats> stats;  // null = counted nowhere
  std::string cache_namespace;           // empty = data_path
  bool use_sidecars = true;
  // The first ranged read of a sidecar; extended when the header says the set runs longer.
  // Default: 64 KiB.
  int64_t sidecar_prefix_bytes = 64 << 10;
};

// Summarizes an embedded-row-id file through the strict fallbacks cache → sidecar → derive.
// A derived summary is kept in ctx.cache (never published). Errors only when the data file
// itself cannot be read or contradicts the catalog.
Result<FileSummary> LoadFileSummary(const RowSummaryContext& ctx, int64_t table_id,
                                    const DataFileInfo& file, SummaryNeed need);

// Appends the physical positions of `row_id` in the file. REQUIRES: summary.set contains it.
// A whole summary answers from memory; a membership summary reads only the order entries it
// needs from its sidecar, and if that fails, derives (same answer). A membership summary
// without a locator (derived membership never occurs) is InvalidArgument.
Status ResolvePositions(const RowSummaryContext& ctx, int64_t table_id, const DataFileInfo& file,
                        const FileSummary& summary, std::span<const uint64_t> row_ids,
                        std::vector<std::vector<int64_t>>* positions);

// Derives a summary by reading the data file's row-id column (no cache, no sidecar).
Result<PositionedRowSet> DeriveRowSummary(std::shared_ptr<FileSystem> fs, const DataFileInfo& file);

// =============================================================================================
// The directory
// =============================================================================================

struct RowPlacement {
  int64_t row_id = 0;
  int64_t data_file_id = 0;
  std::vector<int64_t> positions;  // ascending; several only for a Repeated id
};

struct PlaceResult {
  // By row_id, then data_file_id. An id may sit in several files (an old version in a file
  // whose delete file hides it, and its new version elsewhere): the table layer decides.
  std::vector<RowPlacement> placements;
  std::vector<int64_t> not_found;  // ascending
};

struct FileDirectoryOptions {
  // ducklake_snapshot_changes.changes_made by snapshot id, used to prove files dense without a
  // read (docs/rowid.md). Empty = every file with row_id_start is classified by its footer.
  std::map<int64_t, std::string> changes_by_snapshot;
  // A lookup visits every file and asks the set of each whose bounds admit the id. A directory
  // that serves many lookups builds one index over the ids of its resident summaries — the ids
  // in Elias-Fano form beside each id's file, bit-packed, about 2 + log2(span / ids) +
  // log2(files) bits per id — so a lookup costs one search however many files span the id. It
  // is built once at least index_min_files embedded files' summaries are resident and the
  // lookups so far have cost about what building it costs: a file visited counts 1, a set
  // asked 16, against index_work_per_id per id to index (building sorts every id). A directory
  // used for one lookup never builds one. Defaults: 64 files, 12 per id; 0 files = never;
  // 0 per id = as soon as the summaries are resident.
  int64_t index_min_files = 64;
  int64_t index_work_per_id = 12;
  // No index over more ids than this. Default: 64M (an index of about 2 bytes per id).
  int64_t index_max_ids = int64_t{64} << 20;
  // A file whose summary is not resident is asked about the wanted ids through its sidecar's
  // set index (a version 3 sidecar: a few KiB read rather than the whole set) for its first
  // probe_lookups lookups that want at most probe_max_ids of its ids; past either, or without
  // a set index, its set is loaded. Defaults: 8 lookups, 64 ids; 0 lookups = never probe.
  int64_t probe_lookups = 8;
  int64_t probe_max_ids = 64;
};

// The files of one table at one snapshot, and where each row id physically sits.
class FileDirectory {
 public:
  static Result<std::unique_ptr<FileDirectory>> Build(std::shared_ptr<const TableMetadata> table,
                                                      RowSummaryContext ctx,
                                                      FileDirectoryOptions options = {});
  ~FileDirectory();

  int64_t snapshot_id() const;
  // Each id's file and physical position(s). Negative ids are never found.
  Result<PlaceResult> Place(std::span<const int64_t> row_ids);
  // Moves to a newer snapshot of the same table: files still visible keep their state; only
  // new files are classified and summarized.
  Status Refresh(std::shared_ptr<const TableMetadata> table,
                 std::map<int64_t, std::string> more_changes = {});

  // For tests: how many files are dense / embedded / still unclassified, summaries held, and
  // files the index covers.
  struct Counts {
    int64_t dense = 0, embedded = 0, unclassified = 0, summarized = 0, indexed = 0;
  };
  Counts counts() const;
  // What the directory holds: its file states, the summaries it keeps (counted whole, though
  // a cache may share them) and its index.
  int64_t memory_bytes() const;

 private:
  struct Impl;
  explicit FileDirectory(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Whether the catalog proves `file` holds no embedded ids: row_id_start is set, it is not a
// partial file, and the snapshot that wrote it only inserted into the table.
bool ProvenDenseByCatalog(const DataFileInfo& file, int64_t table_id,
                          const std::map<int64_t, std::string>& changes_by_snapshot);

// =============================================================================================
// Publishing and sweeping
// =============================================================================================

// Encodes a whole summary as sidecar bytes. A position its width cannot hold is Internal.
Result<std::string> EncodeRowSummary(const SummaryIdentity& identity, const PositionedRowSet& rows);

enum class PublishOutcome : uint8_t { kPublished, kAlreadyPublished, kDense };

// Publishes one file's sidecar unless a valid one is there (checked with one header read).
// Never reads or fills a cache.
Result<PublishOutcome> PublishRowSummary(const RowSummaryContext& ctx, int64_t table_id,
                                         const DataFileInfo& file);

struct PublishOptions {
  // Only files registered after this snapshot (data_file_id >= its next_file_id). Default:
  // every file (the backfill).
  std::optional<int64_t> since_snapshot;
  std::vector<int64_t> table_ids;  // empty = every table
  int max_concurrency = 4;         // files published at once
  const CancellationToken* cancel = nullptr;
  // Told the rows of the files to publish and of those done; its interrupt cancels as
  // `cancel` does (Cancelled("Interrupted")).
  WorkWatch watch;
};

struct PublishReport {
  int64_t files_considered = 0;
  int64_t published = 0;
  int64_t already_published = 0;
  int64_t dense = 0;
  int64_t failed = 0;
  std::vector<std::string> errors;  // the first few, naming files
};

// One pass over the lake's latest snapshot. Errors: the catalog's; per-file failures are
// counted in the report (and stats), not returned. Cancelled when options.cancel fires.
Result<PublishReport> PublishRowSummaries(Lake& lake, const RowSummaryContext& ctx,
                                          const PublishOptions& options = {});

struct PublisherOptions {
  int max_concurrency = 2;  // per pass
  std::chrono::milliseconds initial_backoff{1000};
  std::chrono::milliseconds max_backoff{60000};
  std::chrono::milliseconds attempt_deadline{300000};
};

// An opt-in background publisher for an open lake: one worker with a backfill queue and a
// commit queue, polled alternately so a long backfill does not delay new files. A failed
// attempt is retried after a backoff doubling from initial_backoff to max_backoff; an attempt
// past its deadline is cancelled and retried. Close() cancels and joins. The Lake must outlive
// the publisher.
class RowSummaryPublisher {
 public:
  static Result<std::unique_ptr<RowSummaryPublisher>> Start(Lake* lake, RowSummaryContext ctx,
                                                            PublisherOptions options = {});
  ~RowSummaryPublisher();  // Close()

  void EnqueueBackfill();
  // Files registered after `since_snapshot` in `table_id`; merged with pending work (the
  // oldest boundary wins).
  void EnqueueCommit(int64_t table_id, int64_t since_snapshot);
  // Blocks until both queues are empty and no attempt runs, or `timeout` passes; true if idle.
  bool WaitIdle(std::chrono::milliseconds timeout);
  void Close();

  struct Progress {
    int64_t passes_ok = 0, passes_failed = 0, retries = 0;
  };
  Progress progress() const;

 private:
  struct Impl;
  explicit RowSummaryPublisher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct SweepReport {
  int64_t listed = 0;
  int64_t sidecars = 0;
  int64_t deleted = 0;
};

// Lists the data path once and deletes every `X.rowsum` whose X the listing did not find and
// that does not exist when re-checked (so a sidecar published during the sweep survives).
// `watch` is told the files listed and checked, and its interrupt stops the sweep
// (Cancelled("Interrupted")) between files.
Result<SweepReport> SweepRowSummaries(FileSystem& fs, const std::string& data_path,
                                      const WorkWatch& watch = {});

}  // namespace tarn
