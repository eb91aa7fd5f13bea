// SummaryCache: two memory LRUs (membership, whole) bounded by bytes, footer facts, and an
// optional disk tier of files in the sidecar encoding.
#include <atomic>
#include <charconv>
#include <list>
#include <unordered_map>

#include "rowid/order_locator.h"
#include "rowid/sidecar.h"
#include "tarn/rowid.h"

namespace tarn {

using rowid_internal::OrderLocator;
using rowid_internal::ReadRowsum;
using rowid_internal::RowsumRead;

namespace {

// ns, table id, data file id, relative path and file size, NUL-separated (the disk tier's file
// names hash it). Appended by hand rather than through StrCat's stream: a lookup builds one
// per file it visits, and the stream cost more than the hash lookup it keys.
std::string CacheKey(const std::string& ns, const SummaryIdentity& id) {
  std::string key;
  key.reserve(ns.size() + id.relative_path.size() + 64);
  auto append_number = [&key](int64_t value) {
    char digits[24];
    key.append(digits, std::to_chars(digits, digits + sizeof(digits), value).ptr);
  };
  key.append(ns);
  key.push_back('\0');
  append_number(id.table_id);
  key.push_back('\0');
  append_number(id.data_file_id);
  key.push_back('\0');
  key.append(id.relative_path);
  key.push_back('\0');
  append_number(id.file_size);
  return key;
}

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t h = 1469598103934665603ULL;
  for (char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

struct Lru {
  struct Entry {
    std::string key;
    FileSummary summary;
    int64_t bytes = 0;
  };
  std::list<Entry> items;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> index;
  int64_t bytes = 0;
  int64_t limit = 0;

  const FileSummary* Find(const std::string& key) {
    auto it = index.find(key);
    if (it == index.end()) return nullptr;
    items.splice(items.begin(), items, it->second);
    return &it->second->summary;
  }
  void Put(const std::string& key, const FileSummary& summary) {
    const int64_t size = summary.memory_bytes();
    if (size > limit) return;
    auto it = index.find(key);
    if (it != index.end()) {
      bytes -= it->second->bytes;
      items.erase(it->second);
      index.erase(it);
    }
    items.push_front(Entry{key, summary, size});
    index[key] = items.begin();
    bytes += size;
    while (bytes > limit && !items.empty()) {
      bytes -= items.back().bytes;
      index.erase(items.back().key);
      items.pop_back();
    }
  }
  void Clear() {
    items.clear();
    index.clear();
    bytes = 0;
  }
};

}  // namespace

struct SummaryCache::Impl {
  SummaryCacheOptions options;
  mutable std::mutex mu;  // guards everything below
  Lru membership;
  Lru whole;
  std::unordered_map<std::string, FileFacts> facts;
  struct DiskEntry {
    int64_t bytes = 0;
    uint64_t last_use = 0;
  };
  std::unordered_map<std::string, DiskEntry> disk;  // by file path
  int64_t disk_used = 0;
  uint64_t tick = 0;
  std::atomic<uint64_t> generation{0};  // read without mu

  bool has_disk() const { return options.disk_fs != nullptr && !options.disk_dir.empty(); }
  std::string DiskPath(const std::string& key) const {
    char name[17];
    std::snprintf(name, sizeof(name), "%016llx", static_cast<unsigned long long>(Fnv1a64(key)));
    return StrCat(options.disk_dir, name, kRowSummarySuffix);
  }
  // REQUIRES: mu held.
  void EvictDisk() {
    while (disk_used > options.disk_bytes && !disk.empty()) {
      auto oldest = disk.begin();
      for (auto it = disk.begin(); it != disk.end(); ++it) {
        if (it->second.last_use < oldest->second.last_use) oldest = it;
      }
      (void)options.disk_fs->Delete(oldest->first);
      disk_used -= oldest->second.bytes;
      disk.erase(oldest);
    }
  }
};

SummaryCache::SummaryCache(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SummaryCache::~SummaryCache() = default;

Result<std::shared_ptr<SummaryCache>> SummaryCache::Open(SummaryCacheOptions options) {
  auto impl = std::make_unique<Impl>();
  if (!options.disk_dir.empty() && options.disk_dir.back() != '/') options.disk_dir += '/';
  impl->options = std::move(options);
  impl->membership.limit = impl->options.membership_bytes;
  impl->whole.limit = impl->options.whole_bytes;
  if (impl->has_disk()) {
    FileSystem& fs = *impl->options.disk_fs;
    TARN_RETURN_NOT_OK(fs.CreateDirectories(impl->options.disk_dir));
    TARN_ASSIGN_OR_RETURN(auto files, fs.List(impl->options.disk_dir, false));
    for (const FileInfo& f : files) {
      if (f.is_directory || !f.path.ends_with(kRowSummarySuffix)) continue;
      impl->disk[f.path] = Impl::DiskEntry{f.size, 0};
      impl->disk_used += f.size;
    }
    impl->EvictDisk();
  }
  return std::shared_ptr<SummaryCache>(new SummaryCache(std::move(impl)));
}

std::optional<FileSummary> SummaryCache::Lookup(const std::string& ns,
                                                const SummaryIdentity& identity, SummaryNeed need,
                                                RowSummaryStats* stats) {
  const std::string key = CacheKey(ns, identity);
  std::string disk_path;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    const FileSummary* hit = impl_->whole.Find(key);
    if (hit == nullptr && need == SummaryNeed::kMembership) hit = impl_->membership.Find(key);
    if (hit != nullptr) {
      if (stats) stats->cache_hits++;
      FileSummary out = *hit;
      out.source = SummarySource::kMemoryCache;
      return out;
    }
    if (impl_->has_disk()) {
      disk_path = impl_->DiskPath(key);
      auto it = impl_->disk.find(disk_path);
      if (it == impl_->disk.end()) {
        disk_path.clear();
      } else {
        it->second.last_use = ++impl_->tick;
      }
    }
  }
  if (!disk_path.empty()) {
    Result<RowsumRead> read = ReadRowsum(*impl_->options.disk_fs, disk_path, identity,
                                         need == SummaryNeed::kPositions, 1 << 20);
    if (read.ok()) {
      FileSummary summary;
      summary.identity = identity;
      summary.physical_rows = static_cast<int64_t>(read->header.physical_rows);
      summary.set = std::make_shared<const RowIdSet>(std::move(read->set));
      summary.source = SummarySource::kDiskCache;
      if (read->order) {
        summary.order = std::make_shared<const RowOrder>(std::move(*read->order));
      } else {
        auto locator = std::make_shared<OrderLocator>();
        locator->fs = impl_->options.disk_fs;
        locator->path = disk_path;
        locator->header_bytes = std::move(read->header_bytes);
        locator->header = read->header;
        summary.order_locator = std::move(locator);
      }
      {
        std::lock_guard<std::mutex> lock(impl_->mu);
        (summary.order ? impl_->whole : impl_->membership).Put(key, summary);
      }
      if (stats) stats->cache_hits++;
      return summary;
    }
    // A disk entry that does not read back is dropped; the caller falls through.
    if (stats && read.status().IsCorruption()) stats->decode_failures++;
    std::lock_guard<std::mutex> lock(impl_->mu);
    auto it = impl_->disk.find(disk_path);
    if (it != impl_->disk.end()) {
      (void)impl_->options.disk_fs->Delete(disk_path);
      impl_->disk_used -= it->second.bytes;
      impl_->disk.erase(it);
    }
  }
  if (stats) stats->cache_misses++;
  return std::nullopt;
}

void SummaryCache::Insert(const std::string& ns, const FileSummary& summary, bool write_disk) {
  const std::string key = CacheKey(ns, summary.identity);
  std::string disk_path;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    (summary.order ? impl_->whole : impl_->membership).Put(key, summary);
    if (!write_disk || !summary.order || !impl_->has_disk()) return;
    disk_path = impl_->DiskPath(key);
    if (impl_->disk.count(disk_path) > 0) return;
  }
  PositionedRowSet rows{summary.set, summary.order, summary.physical_rows};
  Result<std::string> bytes = EncodeRowSummary(summary.identity, rows);
  if (!bytes.ok()) return;
  if (!impl_->options.disk_fs->WriteFile(disk_path, *bytes).ok()) return;
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto [it, added] = impl_->disk.emplace(disk_path, Impl::DiskEntry{});
  if (added) impl_->disk_used += static_cast<int64_t>(bytes->size());
  it->second = Impl::DiskEntry{static_cast<int64_t>(bytes->size()), ++impl_->tick};
  impl_->EvictDisk();
}

std::optional<SummaryCache::FileFacts> SummaryCache::LookupFacts(const std::string& ns,
                                                                 const SummaryIdentity& identity) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->facts.find(CacheKey(ns, identity));
  if (it == impl_->facts.end()) return std::nullopt;
  return it->second;
}

void SummaryCache::InsertFacts(const std::string& ns, const SummaryIdentity& identity,
                               FileFacts facts) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (impl_->facts.size() >= (1u << 18)) impl_->facts.clear();  // a bound, not a policy
  impl_->facts[CacheKey(ns, identity)] = facts;
}

int64_t SummaryCache::membership_bytes_used() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->membership.bytes;
}
int64_t SummaryCache::whole_bytes_used() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->whole.bytes;
}
int64_t SummaryCache::disk_bytes_used() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->disk_used;
}
int64_t SummaryCache::entries() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return static_cast<int64_t>(impl_->membership.items.size() + impl_->whole.items.size());
}
void SummaryCache::Clear() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->membership.Clear();
  impl_->whole.Clear();
  impl_->facts.clear();
  impl_->generation.fetch_add(1);
}

uint64_t SummaryCache::generation() const { return impl_->generation.load(); }
void SummaryCache::NoteSidecarsChanged() { impl_->generation.fetch_add(1); }

}  // namespace tarn
