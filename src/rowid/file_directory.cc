// FileDirectory: dense files by arithmetic, embedded-row-id files by their summaries, excluded
// early by footer bounds — or, once many summaries are resident, by one index over their ids.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "rowid/bit_packing.h"
#include "rowid/derive.h"
#include "rowid/elias_fano.h"
#include "rowid/order_locator.h"
#include "rowid/sidecar.h"
#include "tarn/rowid.h"

namespace tarn {

bool ProvenDenseByCatalog(const DataFileInfo& file, int64_t table_id,
                          const std::map<int64_t, std::string>& changes_by_snapshot) {
  if (!file.row_id_start || file.partial_max) return false;
  auto it = changes_by_snapshot.find(file.begin_snapshot);
  if (it == changes_by_snapshot.end()) return false;
  // Tokens "kind:value", comma-separated. Any change to this table other than a plain insert
  // (an UPDATE deletes, a flush or compaction has its own token) leaves the file unproven.
  const std::string suffix = StrCat(":", table_id);
  bool inserted = false;
  std::string_view rest = it->second;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view token = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (!token.ends_with(suffix)) continue;
    std::string_view kind = token.substr(0, token.size() - suffix.size());
    if (kind == "inserted_into_table") {
      inserted = true;
    } else if (kind.find(':') == std::string_view::npos) {
      return false;
    }
  }
  return inserted;
}

namespace {

enum class FileKind : uint8_t { kUnknown, kDense, kEmbedded };

struct FileState {
  DataFileInfo info;
  FileKind kind = FileKind::kUnknown;
  std::optional<std::pair<uint64_t, uint64_t>> bounds;  // from the footer; nullopt = unknown
  bool bounds_known = false;
  std::optional<FileSummary> summary;
  int64_t probes = 0;  // lookups answered through the sidecar's set index
};

// The wanted ids (sorted) in [lo, hi].
std::span<const uint64_t> Within(const std::vector<uint64_t>& wanted, uint64_t lo, uint64_t hi) {
  if (lo > hi) return {};
  auto begin = std::lower_bound(wanted.begin(), wanted.end(), lo);
  auto end = std::upper_bound(begin, wanted.end(), hi);
  return std::span<const uint64_t>(wanted.data() + (begin - wanted.begin()),
                                   static_cast<size_t>(end - begin));
}

// Every id of the files whose summaries were resident when it was built, with each id's file:
// an id in several files (an old version and its rewrite) appears once per file.
struct MembershipIndex {
  std::shared_ptr<const rowid_internal::EliasFanoSet> ids;  // non-decreasing
  std::string files;                                      // per id, its file's slot, packed
  int file_width = 0;
  std::vector<size_t> rest;  // slots of the files it does not cover, still asked one by one
};

}  // namespace

struct FileDirectory::Impl {
  std::shared_ptr<const TableMetadata> table;
  RowSummaryContext ctx;
  FileDirectoryOptions options;
  std::vector<FileState> files;  // by data_file_id
  // Built by BuildIndexIfWorthIt over `files`; dropped whenever `files` is rebuilt.
  std::optional<MembershipIndex> index;
  // What the lookups without an index have cost since `files` was built, in the units of
  // FileDirectoryOptions::index_work_per_id.
  uint64_t lookup_work = 0;
  // memory_bytes() as last computed; reset whenever a summary, the index or `files` changes.
  mutable std::optional<int64_t> memory_bytes;

  int64_t table_id() const { return table->table->table_id; }
  const std::string& ns() const { return ctx.cache_namespace.empty() ? ctx.data_path : ctx.cache_namespace; }

  void Adopt(std::shared_ptr<const TableMetadata> next, std::vector<FileState> previous) {
    std::unordered_map<int64_t, FileState*> old;
    for (FileState& s : previous) old[s.info.data_file_id] = &s;
    table = std::move(next);
    index.reset();
    memory_bytes.reset();
    lookup_work = 0;
    files.clear();
    files.reserve(table->data_files.size());  // FileState moves may copy: never reallocate
    for (const DataFileInfo& info : table->data_files) {
      FileState state;
      auto it = old.find(info.data_file_id);
      if (it != old.end() && it->second->info.path == info.path &&
          it->second->info.file_size_bytes == info.file_size_bytes) {
        state = std::move(*it->second);
      }
      state.info = info;  // delete files and the like may have changed; the rows did not
      if (state.kind == FileKind::kUnknown) {
        if (!info.row_id_start) {
          state.kind = FileKind::kEmbedded;
        } else if (ProvenDenseByCatalog(info, table_id(), options.changes_by_snapshot)) {
          state.kind = FileKind::kDense;
        }
      }
      files.push_back(std::move(state));
    }
  }

  // Classifies an unproven file and learns its bounds: cached facts, else one footer read.
  Status LearnFacts(FileState& s) {
    const SummaryIdentity identity = IdentityOf(table_id(), s.info, ctx.data_path);
    std::optional<SummaryCache::FileFacts> facts;
    if (ctx.cache) facts = ctx.cache->LookupFacts(ns(), identity);
    if (!facts) {
      if (ctx.stats) ctx.stats->footer_probes++;
      TARN_ASSIGN_OR_RETURN(rowid_internal::FooterFacts probe, rowid_internal::ProbeFooter(ctx.fs, s.info));
      facts = SummaryCache::FileFacts{probe.embeds_row_ids, probe.bounds};
      if (ctx.cache) ctx.cache->InsertFacts(ns(), identity, *facts);
    }
    if (s.kind == FileKind::kUnknown) {
      s.kind = facts->embeds_row_ids ? FileKind::kEmbedded : FileKind::kDense;
    }
    s.bounds = facts->bounds;
    s.bounds_known = true;
    return Status::OK();
  }

  // Asks the file's sidecar about `ids` through its set index. Leaves *answered false — the
  // caller loads the set through the ordinary path, which counts and logs what went wrong — when
  // there is no sidecar, it has no index, or it fails.
  Status Probe(FileState& s, std::span<const uint64_t> ids, std::vector<RowPlacement>* out,
               bool* answered) {
    ++s.probes;
    const std::string path = SidecarPath(s.info);
    Result<rowid_internal::RowsumProbe> probe =
        rowid_internal::ProbeRowsum(*ctx.fs, path, IdentityOf(table_id(), s.info, ctx.data_path), ids);
    if (!probe.ok()) {
      // A sidecar without an index stays without one: its later lookups load the set directly.
      if (probe.status().code() == StatusCode::kNotSupported) s.probes = options.probe_lookups;
      return Status::OK();
    }
    std::vector<uint64_t> found, ranks;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (probe->ranks[i]) {
        found.push_back(ids[i]);
        ranks.push_back(*probe->ranks[i]);
      }
    }
    std::vector<std::vector<int64_t>> positions;
    if (!ranks.empty()) {
      rowid_internal::OrderLocator locator;
      locator.fs = ctx.fs;
      locator.path = path;
      locator.header_bytes = std::move(probe->header_bytes);
      locator.header = probe->header;
      int64_t bytes_read = 0;
      if (!rowid_internal::ReadOrderEntries(locator, ranks, &positions, &bytes_read).ok()) {
        return Status::OK();
      }
    }
    if (ctx.stats) {
      ctx.stats->sidecar_hits++;
      ctx.stats->sidecar_probes++;
    }
    for (size_t i = 0; i < found.size(); ++i) {
      out->push_back(RowPlacement{static_cast<int64_t>(found[i]), s.info.data_file_id,
                                  std::move(positions[i])});
    }
    *answered = true;
    return Status::OK();
  }

  Status PlaceInFile(FileState& s, const std::vector<uint64_t>& wanted,
                     std::vector<RowPlacement>* out) {
    if (s.kind == FileKind::kUnknown) TARN_RETURN_NOT_OK(LearnFacts(s));
    if (s.kind == FileKind::kDense) {
      const uint64_t start = static_cast<uint64_t>(*s.info.row_id_start);
      if (s.info.record_count <= 0) return Status::OK();
      for (uint64_t id : Within(wanted, start, start + static_cast<uint64_t>(s.info.record_count) - 1)) {
        out->push_back(RowPlacement{static_cast<int64_t>(id), s.info.data_file_id,
                                    {static_cast<int64_t>(id - start)}});
      }
      return Status::OK();
    }
    if (!s.summary) {
      // Bounds already learned reject most files of a kept directory before any cache key is
      // built (a lookup visits every file).
      if (s.bounds_known && s.bounds && Within(wanted, s.bounds->first, s.bounds->second).empty()) {
        return Status::OK();
      }
      memory_bytes.reset();
    }
    if (!s.summary && ctx.cache) {
      s.summary = ctx.cache->Lookup(ns(), IdentityOf(table_id(), s.info, ctx.data_path),
                                    SummaryNeed::kMembership, ctx.stats.get());
    }
    if (!s.summary) {
      if (!s.bounds_known) TARN_RETURN_NOT_OK(LearnFacts(s));
      const std::span<const uint64_t> admitted =
          s.bounds ? Within(wanted, s.bounds->first, s.bounds->second) : std::span<const uint64_t>(wanted);
      if (admitted.empty()) return Status::OK();
      if (ctx.use_sidecars && s.probes < options.probe_lookups &&
          static_cast<int64_t>(admitted.size()) <= options.probe_max_ids) {
        bool answered = false;
        TARN_RETURN_NOT_OK(Probe(s, admitted, out, &answered));
        if (answered) return Status::OK();
      }
      TARN_ASSIGN_OR_RETURN(FileSummary summary,
                            LoadFileSummary(ctx, table_id(), s.info, SummaryNeed::kMembership));
      s.summary = std::move(summary);
    }
    const RowIdSet& set = *s.summary->set;
    if (set.empty()) return Status::OK();
    std::vector<uint64_t> found;
    const std::span<const uint64_t> admitted = Within(wanted, set.min(), set.max());
    lookup_work += 16 * admitted.size();
    for (uint64_t id : admitted) {
      if (set.Contains(id)) found.push_back(id);
    }
    if (found.empty()) return Status::OK();
    std::vector<std::vector<int64_t>> positions;
    TARN_RETURN_NOT_OK(ResolvePositions(ctx, table_id(), s.info, *s.summary, found, &positions));
    for (size_t i = 0; i < found.size(); ++i) {
      out->push_back(RowPlacement{static_cast<int64_t>(found[i]), s.info.data_file_id,
                                  std::move(positions[i])});
    }
    return Status::OK();
  }
};

namespace {

// `st` (not OK) with the file it concerns. Callers test ok() first: copying a Status copies
// its message, which a lookup visiting every file would pay per file.
Status InFile(const Status& st, const FileState& s) {
  return st.WithContext(StrCat("row id lookup in '", s.info.path, "'"));
}

// Sorts `keys` of `key_bits` bits by a least-significant-digit radix sort, 11 bits a pass;
// a pass whose digit is the same for every key is skipped.
void RadixSort(std::vector<uint64_t>* keys, int key_bits) {
  constexpr int kDigitBits = 11;
  constexpr uint64_t kDigitMask = (uint64_t{1} << kDigitBits) - 1;
  const size_t n = keys->size();
  if (n < 2) return;
  std::vector<uint64_t> scratch(n);
  std::vector<size_t> counts(size_t{1} << kDigitBits);
  uint64_t* from = keys->data();
  uint64_t* to = scratch.data();
  for (int shift = 0; shift < key_bits; shift += kDigitBits) {
    std::fill(counts.begin(), counts.end(), 0);
    for (size_t k = 0; k < n; ++k) counts[(from[k] >> shift) & kDigitMask]++;
    if (counts[(from[0] >> shift) & kDigitMask] == n) continue;
    size_t sum = 0;
    for (size_t& count : counts) {
      const size_t here = count;
      count = sum;
      sum += here;
    }
    for (size_t k = 0; k < n; ++k) to[counts[(from[k] >> shift) & kDigitMask]++] = from[k];
    std::swap(from, to);
  }
  if (from != keys->data()) std::copy(from, from + n, keys->data());
}

// Builds the index when enough embedded files' summaries are resident and their ids are few
// enough (FileDirectoryOptions); a no-op otherwise.
void BuildIndexIfWorthIt(std::vector<FileState>& files, const FileDirectoryOptions& options,
                         uint64_t lookup_work, std::optional<MembershipIndex>* index) {
  if (*index || options.index_min_files <= 0) return;
  std::vector<size_t> covered;
  uint64_t total = 0;
  for (size_t slot = 0; slot < files.size(); ++slot) {
    const FileState& s = files[slot];
    if (s.kind == FileKind::kEmbedded && s.summary && s.summary->set) {
      covered.push_back(slot);
      total += s.summary->set->size();
    }
  }
  if (static_cast<int64_t>(covered.size()) < options.index_min_files || total == 0 ||
      total > static_cast<uint64_t>(options.index_max_ids) ||
      lookup_work < total * static_cast<uint64_t>(std::max<int64_t>(options.index_work_per_id, 0))) {
    return;
  }
  MembershipIndex built;
  built.file_width = BitsFor(files.size() - 1);
  uint64_t max_id = 0;
  for (size_t slot : covered) max_id = std::max(max_id, files[slot].summary->set->max());
  std::vector<uint64_t> ids;
  std::vector<uint32_t> slots;
  slots.reserve(total);
  if (BitsFor(max_id) + built.file_width <= 64) {
    // Each entry one key, id << width | slot, radix-sorted: ids ascending, an id's files by slot.
    std::vector<uint64_t> keys;
    keys.reserve(total);
    for (size_t slot : covered) {
      for (uint64_t id : files[slot].summary->set->ToVector()) keys.push_back(id << built.file_width | slot);
    }
    RadixSort(&keys, BitsFor(max_id) + built.file_width);
    const uint64_t slot_mask = (uint64_t{1} << built.file_width) - 1;
    for (uint64_t& key : keys) {
      slots.push_back(static_cast<uint32_t>(key & slot_mask));
      key >>= built.file_width;  // the keys become the ids, in place
    }
    ids = std::move(keys);
  } else {
    std::vector<std::pair<uint64_t, uint32_t>> entries;
    entries.reserve(total);
    ids.reserve(total);
    for (size_t slot : covered) {
      for (uint64_t id : files[slot].summary->set->ToVector()) entries.emplace_back(id, static_cast<uint32_t>(slot));
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& [id, slot] : entries) {
      ids.push_back(id);
      slots.push_back(slot);
    }
  }
  built.ids = rowid_internal::EliasFanoSet::Build(ids);
  // Slots are below files.size(), so the width holds them.
  if (!rowid_internal::PackBits(slots, built.file_width, &built.files).ok()) return;
  size_t next = 0;
  for (size_t slot = 0; slot < files.size(); ++slot) {
    if (next < covered.size() && covered[next] == slot) {
      ++next;
    } else {
      built.rest.push_back(slot);
    }
  }
  *index = std::move(built);
}

}  // namespace

FileDirectory::FileDirectory(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileDirectory::~FileDirectory() = default;

Result<std::unique_ptr<FileDirectory>> FileDirectory::Build(std::shared_ptr<const TableMetadata> table,
                                                            RowSummaryContext ctx,
                                                            FileDirectoryOptions options) {
  if (!table || !table->table) return Status::InvalidArgument("FileDirectory: no table");
  if (!ctx.fs) return Status::InvalidArgument("FileDirectory: no file system");
  auto impl = std::make_unique<Impl>();
  impl->ctx = std::move(ctx);
  impl->options = std::move(options);
  impl->Adopt(std::move(table), {});
  return std::unique_ptr<FileDirectory>(new FileDirectory(std::move(impl)));
}

int64_t FileDirectory::snapshot_id() const { return impl_->table->snapshot_id; }

Result<PlaceResult> FileDirectory::Place(std::span<const int64_t> row_ids) {
  PlaceResult result;
  std::vector<uint64_t> wanted;
  for (int64_t id : row_ids) {
    if (id < 0) {
      result.not_found.push_back(id);
    } else {
      wanted.push_back(static_cast<uint64_t>(id));
    }
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  if (!wanted.empty() && impl_->index) {
    // The indexed files: one search per id, then positions file by file.
    const MembershipIndex& index = *impl_->index;
    std::map<size_t, std::vector<uint64_t>> found;  // by slot; each list ascending
    for (uint64_t id : wanted) {
      const auto [first, last] = index.ids->EqualRange(id);
      for (uint64_t k = first; k < last; ++k) {
        found[rowid_internal::UnpackAt(index.files, k, index.file_width)].push_back(id);
      }
    }
    for (const auto& [slot, ids] : found) {
      const FileState& s = impl_->files[slot];
      std::vector<std::vector<int64_t>> positions;
      Status st = ResolvePositions(impl_->ctx, impl_->table_id(), s.info, *s.summary, ids, &positions);
      if (!st.ok()) return InFile(st, s);
      for (size_t i = 0; i < ids.size(); ++i) {
        result.placements.push_back(
            RowPlacement{static_cast<int64_t>(ids[i]), s.info.data_file_id, std::move(positions[i])});
      }
    }
    for (size_t slot : index.rest) {
      FileState& s = impl_->files[slot];
      Status st = impl_->PlaceInFile(s, wanted, &result.placements);
      if (!st.ok()) return InFile(st, s);
    }
  } else if (!wanted.empty()) {
    for (FileState& s : impl_->files) {
      Status st = impl_->PlaceInFile(s, wanted, &result.placements);
      if (!st.ok()) return InFile(st, s);
    }
    impl_->lookup_work += impl_->files.size();
    BuildIndexIfWorthIt(impl_->files, impl_->options, impl_->lookup_work, &impl_->index);
    if (impl_->index) impl_->memory_bytes.reset();
  }
  std::sort(result.placements.begin(), result.placements.end(),
            [](const RowPlacement& a, const RowPlacement& b) {
              return a.row_id != b.row_id ? a.row_id < b.row_id : a.data_file_id < b.data_file_id;
            });
  size_t p = 0;
  for (uint64_t id : wanted) {
    while (p < result.placements.size() && static_cast<uint64_t>(result.placements[p].row_id) < id) ++p;
    if (p == result.placements.size() || static_cast<uint64_t>(result.placements[p].row_id) != id) {
      result.not_found.push_back(static_cast<int64_t>(id));
    }
  }
  std::sort(result.not_found.begin(), result.not_found.end());
  result.not_found.erase(std::unique(result.not_found.begin(), result.not_found.end()),
                         result.not_found.end());
  return result;
}

Status FileDirectory::Refresh(std::shared_ptr<const TableMetadata> table,
                              std::map<int64_t, std::string> more_changes) {
  if (!table || !table->table || table->table->table_id != impl_->table_id()) {
    return Status::InvalidArgument("FileDirectory::Refresh: another table");
  }
  for (auto& [snapshot, changes] : more_changes) impl_->options.changes_by_snapshot[snapshot] = changes;
  impl_->Adopt(std::move(table), std::move(impl_->files));
  return Status::OK();
}

int64_t FileDirectory::memory_bytes() const {
  if (impl_->memory_bytes) return *impl_->memory_bytes;
  int64_t bytes = static_cast<int64_t>(sizeof(Impl) + impl_->files.capacity() * sizeof(FileState));
  for (const FileState& s : impl_->files) {
    bytes += static_cast<int64_t>(s.info.path.capacity() + s.info.relative_path.capacity() +
                                  s.info.column_stats.capacity() * sizeof(FileColumnStats));
    if (s.summary) bytes += s.summary->memory_bytes();
  }
  if (impl_->index) {
    bytes += impl_->index->ids->memory_bytes() +
             static_cast<int64_t>(impl_->index->files.capacity() + 8 * impl_->index->rest.capacity());
  }
  impl_->memory_bytes = bytes;
  return bytes;
}

FileDirectory::Counts FileDirectory::counts() const {
  Counts c;
  for (const FileState& s : impl_->files) {
    if (s.kind == FileKind::kDense) ++c.dense;
    if (s.kind == FileKind::kEmbedded) ++c.embedded;
    if (s.kind == FileKind::kUnknown) ++c.unclassified;
    if (s.summary) ++c.summarized;
  }
  if (impl_->index) c.indexed = static_cast<int64_t>(impl_->files.size() - impl_->index->rest.size());
  return c;
}

}  // namespace tarn
