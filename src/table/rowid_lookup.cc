#include "table/rowid_lookup.h"

#include <algorithm>
#include <charconv>
#include <list>
#include <mutex>
#include <unordered_map>

#include "expr/bind/bound.h"
#include "expr/eval/cast.h"

namespace tarn::table_internal {

namespace {

using expr::BoundKind;
using expr::BoundNode;

// The value of a constant subtree made of constants and casts; nullopt for anything else.
std::optional<Value> ConstantOf(const BoundNode& node) {
  if (node.kind == BoundKind::kConstant) return node.constant;
  if (node.kind == BoundKind::kCast && node.children.size() == 1) {
    std::optional<Value> inner = ConstantOf(*node.children[0]);
    if (!inner) return std::nullopt;
    Result<Value> cast = expr::CastValue(*inner, node.type, node.try_cast);
    if (!cast.ok()) return std::nullopt;
    return *cast;
  }
  return std::nullopt;
}

// A constant as a rowid: true with *id unset for NULL (matches nothing); false when the
// constant is not an integer a BIGINT comparison would see as is.
bool RowIdConstant(const BoundNode& node, std::optional<int64_t>* id) {
  std::optional<Value> value = ConstantOf(node);
  if (!value) return false;
  if (value->is_null()) {
    id->reset();
    return true;
  }
  if (!value->type().IsInteger()) return false;
  Result<Value> as_bigint = expr::CastValue(*value, DataType(TypeId::kInt64), /*try_cast=*/true);
  if (!as_bigint.ok() || as_bigint->is_null()) return false;
  *id = as_bigint->GetInt64();
  return true;
}

bool IsRowIdColumn(const BoundNode& node, int rowid_index) {
  if (node.kind == BoundKind::kColumn) return node.column_index == rowid_index;
  // A cast of rowid to BIGINT is rowid itself.
  return node.kind == BoundKind::kCast && node.type.id == TypeId::kInt64 &&
         node.children.size() == 1 && node.children[0]->kind == BoundKind::kColumn &&
         node.children[0]->column_index == rowid_index;
}

std::vector<int64_t> Normalize(std::vector<int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::optional<std::vector<int64_t>> Pinned(const BoundNode& node, int rowid_index) {
  switch (node.kind) {
    case BoundKind::kCompare: {
      if (node.children.size() != 2) return std::nullopt;
      if (node.op != ast::Op::kEqual && node.op != ast::Op::kIsNotDistinctFrom) {
        return std::nullopt;
      }
      for (int side = 0; side < 2; ++side) {
        if (!IsRowIdColumn(*node.children[side], rowid_index)) continue;
        std::optional<int64_t> id;
        if (!RowIdConstant(*node.children[1 - side], &id)) return std::nullopt;
        // rowid is never NULL: `= NULL` and `IS NOT DISTINCT FROM NULL` match no row.
        if (!id) return std::vector<int64_t>();
        return std::vector<int64_t>{*id};
      }
      return std::nullopt;
    }
    case BoundKind::kIn: {
      if (node.negated || node.children.empty() ||
          !IsRowIdColumn(*node.children[0], rowid_index)) {
        return std::nullopt;
      }
      std::vector<int64_t> ids;
      for (size_t i = 1; i < node.children.size(); ++i) {
        std::optional<int64_t> id;
        if (!RowIdConstant(*node.children[i], &id)) return std::nullopt;
        if (id) ids.push_back(*id);
      }
      return Normalize(std::move(ids));
    }
    case BoundKind::kAnd: {
      std::optional<std::vector<int64_t>> out;
      for (const auto& child : node.children) {
        std::optional<std::vector<int64_t>> pinned = Pinned(*child, rowid_index);
        if (!pinned) continue;
        out = out ? IntersectRowIds(*out, *pinned) : std::move(*pinned);
      }
      return out;
    }
    case BoundKind::kOr: {
      std::vector<int64_t> out;
      for (const auto& child : node.children) {
        std::optional<std::vector<int64_t>> pinned = Pinned(*child, rowid_index);
        if (!pinned) return std::nullopt;
        out.insert(out.end(), pinned->begin(), pinned->end());
      }
      return Normalize(std::move(out));
    }
    default:
      return std::nullopt;
  }
}

// ducklake_snapshot_changes by snapshot id, read only when a file needs the proof: one of
// `table`'s files that is not in `known` (files a kept directory classified already).
Result<std::map<int64_t, std::string>> ChangesIfNeeded(Lake& lake, const TableMetadata& table,
                                                       const TableMetadata* known = nullptr) {
  std::map<int64_t, std::string> changes;
  bool needed = false;
  for (const DataFileInfo& file : table.data_files) {
    if (!file.row_id_start.has_value() || file.partial_max.has_value()) continue;
    const bool classified =
        known != nullptr &&
        std::binary_search(known->data_files.begin(), known->data_files.end(), file,
                           [](const DataFileInfo& a, const DataFileInfo& b) {
                             return a.data_file_id < b.data_file_id;
                           });
    needed |= !classified;
  }
  if (!needed) return changes;
  TARN_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> snapshots, lake.ListSnapshots());
  for (const SnapshotInfo& snapshot : snapshots) {
    if (snapshot.changes_made) changes[snapshot.snapshot_id] = *snapshot.changes_made;
  }
  return changes;
}

// `table` without a write transaction's own files (data_file_id < 0), which are not placed.
std::shared_ptr<const TableMetadata> Committed(const TableMetadata& table) {
  auto committed = std::make_shared<TableMetadata>(table);
  std::erase_if(committed->data_files,
                [](const DataFileInfo& file) { return file.data_file_id < 0; });
  return committed;
}

// A kept directory's committed files as compared with each statement's: (id, path length),
// contiguous so the comparison streams.
struct FileKey {
  int64_t data_file_id = 0;
  int64_t begin_snapshot = 0;
  size_t path_size = 0;
};

std::vector<FileKey> FileKeysOf(const TableMetadata& committed) {
  std::vector<FileKey> keys;
  keys.reserve(committed.data_files.size());
  for (const DataFileInfo& file : committed.data_files) {
    keys.push_back(FileKey{file.data_file_id, file.begin_snapshot, file.path.size()});
  }
  return keys;
}

// Whether `table` at `snapshot_id` has the committed files `keys` describe. Within one catalog
// (the key names it) a data file id is never given to another file and a file's row is never
// rewritten, so the ids decide; the fields on the id's cache line are compared too, for free.
// Comparing each file's path and row facts cost more than the rest of a warm lookup.
bool SameFiles(int64_t snapshot_id, const std::vector<FileKey>& keys, const TableMetadata& table) {
  if (snapshot_id != table.snapshot_id) return false;
  size_t next = 0;
  for (const DataFileInfo& file : table.data_files) {
    if (file.data_file_id < 0) continue;
    if (next == keys.size()) return false;
    const FileKey& kept = keys[next++];
    if (kept.data_file_id != file.data_file_id || kept.begin_snapshot != file.begin_snapshot ||
        kept.path_size != file.path.size()) {
      return false;
    }
  }
  return next == keys.size();
}

// The directories a process keeps across statements, one per (lake, file system, table): a
// statement takes its table's out (a FileDirectory serves one thread at a time), uses it when it
// still describes the statement's committed files at the summary cache's generation, refreshes
// it to another snapshot or file list, and puts it back. Least recently used ones go first past
// kKeptDirectoryBytes or kKeptDirectories.
constexpr int64_t kKeptDirectoryBytes = int64_t{64} << 20;
constexpr size_t kKeptDirectories = 64;

class KeptDirectories {
 public:
  struct Entry {
    std::unique_ptr<FileDirectory> directory;
    std::shared_ptr<const TableMetadata> committed;  // the files `directory` describes
    std::vector<FileKey> file_keys;                  // FileKeysOf(*committed)
    uint64_t generation = 0;                         // the summary cache's, when validated
    int64_t bytes = 0;
  };

  std::optional<Entry> Take(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    Entry entry = std::move(it->second->second);
    bytes_ -= entry.bytes;
    items_.erase(it->second);
    index_.erase(it);
    return entry;
  }

  void Put(const std::string& key, Entry entry) {
    if (entry.bytes > kKeptDirectoryBytes) return;
    std::lock_guard<std::mutex> lock(mu_);
    // Another statement over the same table may have put one back meanwhile: the newer wins.
    auto it = index_.find(key);
    if (it != index_.end()) {
      bytes_ -= it->second->second.bytes;
      items_.erase(it->second);
      index_.erase(it);
    }
    bytes_ += entry.bytes;
    items_.emplace_front(key, std::move(entry));
    index_[key] = items_.begin();
    while (!items_.empty() && (bytes_ > kKeptDirectoryBytes || items_.size() > kKeptDirectories)) {
      bytes_ -= items_.back().second.bytes;
      index_.erase(items_.back().first);
      items_.pop_back();
    }
  }

  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    items_.clear();
    index_.clear();
    bytes_ = 0;
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return items_.size();
  }

 private:
  std::mutex mu_;  // guards everything below
  std::list<std::pair<std::string, Entry>> items_;  // most recent first
  std::unordered_map<std::string, std::list<std::pair<std::string, Entry>>::iterator> index_;
  int64_t bytes_ = 0;
};

KeptDirectories& Kept() {
  static KeptDirectories* const kept = new KeptDirectories();  // never destroyed: used at exit
  return *kept;
}

// The catalog (its backend and location — a catalog file, a connection string — or, for a
// private in-memory catalog, the store's address), the lake's data path, the table's uuid (a new
// catalog never repeats one), the file system (an entry keeps its own alive, so the address is
// not reused while it is kept) and the table. Appended by hand: every lookup pays for it.
std::string KeptKey(Lake& lake, const FileSystem* fs, const TableInfo& table) {
  std::string key;
  // Only the store's backend and location are read: both are fixed when the store is opened.
  const CatalogStore* store = lake.store();
  const std::string& location = store != nullptr ? store->location() : lake.data_path();
  key.reserve(location.size() + lake.data_path().size() + table.table_uuid.size() + 80);
  char digits[24];
  auto append_hex = [&](uintptr_t value) {
    key.append(digits, std::to_chars(digits, digits + sizeof(digits), value, 16).ptr);
  };
  if (store != nullptr) key.append(store->backend());
  key.push_back('\0');
  key.append(location);
  if (location.empty() || location == ":memory:") append_hex(reinterpret_cast<uintptr_t>(store));
  key.push_back('\0');
  key.append(lake.data_path());
  key.push_back('\0');
  key.append(table.table_uuid);
  key.push_back('\0');
  key.append(digits, std::to_chars(digits, digits + sizeof(digits), table.table_id).ptr);
  key.push_back('\0');
  append_hex(reinterpret_cast<uintptr_t>(fs));
  return key;
}

}  // namespace

const std::shared_ptr<SummaryCache>& ProcessRowSummaryCache() {
  static const std::shared_ptr<SummaryCache> cache = [] {
    Result<std::shared_ptr<SummaryCache>> opened = SummaryCache::Open(SummaryCacheOptions{});
    // Without a disk tier, opening cannot fail; fall back to no cache if it ever does.
    return opened.ok() ? *opened : std::shared_ptr<SummaryCache>();
  }();
  return cache;
}

const std::shared_ptr<RowSummaryStats>& ProcessRowSummaryStats() {
  static const std::shared_ptr<RowSummaryStats> stats = std::make_shared<RowSummaryStats>();
  return stats;
}

RowSummaryContext ProcessRowSummaryContext(const Lake& lake, std::shared_ptr<FileSystem> fs) {
  RowSummaryContext ctx;
  ctx.fs = std::move(fs);
  ctx.data_path = lake.data_path();
  ctx.cache = ProcessRowSummaryCache();
  ctx.stats = ProcessRowSummaryStats();
  return ctx;
}

std::optional<std::vector<int64_t>> PinnedRowIds(const BoundExpr& filter, int rowid_index) {
  return Pinned(filter.root(), rowid_index);
}

std::vector<int64_t> IntersectRowIds(std::span<const int64_t> a, std::span<const int64_t> b) {
  std::vector<int64_t> x(a.begin(), a.end());
  std::vector<int64_t> y(b.begin(), b.end());
  x = Normalize(std::move(x));
  y = Normalize(std::move(y));
  std::vector<int64_t> out;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
  return out;
}

void NoteProcessSidecarsChanged() {
  if (const std::shared_ptr<SummaryCache>& cache = ProcessRowSummaryCache()) cache->NoteSidecarsChanged();
}

void ForgetKeptDirectories() { Kept().Clear(); }
size_t KeptDirectoryCount() { return Kept().size(); }

Result<std::map<int64_t, std::vector<int64_t>>> PlaceRowIds(
    Lake& lake, std::shared_ptr<FileSystem> fs, const TableMetadata& table,
    std::span<const int64_t> row_ids) {
  std::map<int64_t, std::vector<int64_t>> positions;
  if (row_ids.empty()) return positions;
  if (!table.table) return Status::InvalidArgument("PlaceRowIds: no table");
  const std::shared_ptr<SummaryCache>& cache = ProcessRowSummaryCache();
  const uint64_t generation = cache ? cache->generation() : 0;
  const std::string key = KeptKey(lake, fs.get(), *table.table);
  std::optional<KeptDirectories::Entry> kept = Kept().Take(key);
  // A directory built before a sidecar was published, swept or refused, or before the cache was
  // cleared, would keep answering from what it held: build anew.
  if (kept && kept->generation != generation) kept.reset();
  if (kept && !SameFiles(kept->committed->snapshot_id, kept->file_keys, table)) {
    // Another snapshot (a commit, time travel) or another file list: files still listed keep
    // their state, the others are dropped, new ones classified.
    std::shared_ptr<const TableMetadata> committed = Committed(table);
    Result<std::map<int64_t, std::string>> changes = ChangesIfNeeded(lake, *committed, kept->committed.get());
    if (!changes.ok() || !kept->directory->Refresh(committed, std::move(*changes)).ok()) {
      kept.reset();
    } else {
      kept->file_keys = FileKeysOf(*committed);
      kept->committed = std::move(committed);
    }
  }
  if (!kept) {
    std::shared_ptr<const TableMetadata> committed = Committed(table);
    if (committed->data_files.empty()) return positions;
    FileDirectoryOptions options;
    TARN_ASSIGN_OR_RETURN(options.changes_by_snapshot, ChangesIfNeeded(lake, *committed));
    TARN_ASSIGN_OR_RETURN(auto directory,
                          FileDirectory::Build(committed, ProcessRowSummaryContext(lake, fs),
                                               std::move(options)));
    kept.emplace();
    kept->directory = std::move(directory);
    kept->file_keys = FileKeysOf(*committed);
    kept->committed = std::move(committed);
  }
  kept->generation = generation;
  TARN_ASSIGN_OR_RETURN(PlaceResult placed, kept->directory->Place(row_ids));
  kept->bytes = kept->directory->memory_bytes();
  Kept().Put(key, std::move(*kept));
  for (RowPlacement& placement : placed.placements) {
    std::vector<int64_t>& out = positions[placement.data_file_id];
    out.insert(out.end(), placement.positions.begin(), placement.positions.end());
  }
  for (auto& [file_id, list] : positions) list = Normalize(std::move(list));
  return positions;
}

}  // namespace tarn::table_internal
