// The read path: cache → sidecar → derive, each a strict fallback with the same answer.
#include <algorithm>

#include "rowid/order_locator.h"
#include "rowid/sidecar.h"
#include "tarn/rowid.h"

namespace tarn {

using rowid_internal::OrderLocator;

SummaryIdentity IdentityOf(int64_t table_id, const DataFileInfo& file, std::string_view data_path) {
  SummaryIdentity id;
  id.table_id = table_id;
  id.data_file_id = file.data_file_id;
  id.file_size = file.file_size_bytes;
  std::string_view path = file.path;
  if (!data_path.empty() && path.size() > data_path.size() && path.starts_with(data_path)) {
    path.remove_prefix(data_path.size());
  }
  id.relative_path.assign(path);
  return id;
}

std::string SidecarPath(const DataFileInfo& file) { return file.path + std::string(kRowSummarySuffix); }

namespace {

const std::string& Namespace(const RowSummaryContext& ctx) {
  return ctx.cache_namespace.empty() ? ctx.data_path : ctx.cache_namespace;
}

// Counts and logs (once per path) a sidecar that could not serve; NotFound is a plain miss.
void NoteSidecarFailure(const RowSummaryContext& ctx, const std::string& path, const Status& st) {
  RowSummaryStats* stats = ctx.stats.get();
  if (st.IsNotFound()) {
    if (stats) stats->sidecar_misses++;
    return;
  }
  // A refused sidecar is a change of what the cache's users may rely on.
  if (ctx.cache) ctx.cache->NoteSidecarsChanged();
  if (stats == nullptr) return;
  if (st.code() == StatusCode::kInvalidArgument) {
    stats->refused_identity++;
    stats->LogOnce(path, StrCat("row summary '", path, "' refused: ", st.message()));
  } else {
    stats->decode_failures++;
    stats->LogOnce(path, StrCat("row summary '", path, "' unusable: ", st.ToString()));
  }
}

}  // namespace

Result<FileSummary> LoadFileSummary(const RowSummaryContext& ctx, int64_t table_id,
                                    const DataFileInfo& file, SummaryNeed need) {
  const SummaryIdentity identity = IdentityOf(table_id, file, ctx.data_path);
  if (ctx.cache) {
    std::optional<FileSummary> hit = ctx.cache->Lookup(Namespace(ctx), identity, need, ctx.stats.get());
    if (hit) return std::move(*hit);
  }
  if (ctx.use_sidecars) {
    const std::string path = SidecarPath(file);
    Result<rowid_internal::RowsumRead> read =
        rowid_internal::ReadRowsum(*ctx.fs, path, identity, need == SummaryNeed::kPositions,
                                   ctx.sidecar_prefix_bytes);
    if (read.ok()) {
      if (ctx.stats) ctx.stats->sidecar_hits++;
      FileSummary summary;
      summary.identity = identity;
      summary.physical_rows = static_cast<int64_t>(read->header.physical_rows);
      summary.set = std::make_shared<const RowIdSet>(std::move(read->set));
      summary.source = SummarySource::kSidecar;
      if (read->order) {
        summary.order = std::make_shared<const RowOrder>(std::move(*read->order));
      } else {
        auto locator = std::make_shared<OrderLocator>();
        locator->fs = ctx.fs;
        locator->path = path;
        locator->header_bytes = std::move(read->header_bytes);
        locator->header = read->header;
        summary.order_locator = std::move(locator);
      }
      if (ctx.cache) ctx.cache->Insert(Namespace(ctx), summary, /*write_disk=*/true);
      return summary;
    }
    NoteSidecarFailure(ctx, path, read.status());
  }
  TARN_ASSIGN_OR_RETURN(PositionedRowSet rows, DeriveRowSummary(ctx.fs, file));
  if (ctx.stats) ctx.stats->derived++;
  FileSummary summary;
  summary.identity = identity;
  summary.physical_rows = rows.physical_rows;
  summary.set = std::move(rows.set);
  summary.order = std::move(rows.order);
  summary.source = SummarySource::kDerived;
  if (ctx.cache) ctx.cache->Insert(Namespace(ctx), summary, /*write_disk=*/true);
  return summary;
}

Status ResolvePositions(const RowSummaryContext& ctx, int64_t table_id, const DataFileInfo& file,
                        const FileSummary& summary, std::span<const uint64_t> row_ids,
                        std::vector<std::vector<int64_t>>* positions) {
  positions->assign(row_ids.size(), {});
  std::vector<uint64_t> ranks(row_ids.size());
  for (size_t i = 0; i < row_ids.size(); ++i) {
    std::optional<uint64_t> rank = summary.set->Rank(row_ids[i]);
    if (!rank) return Status::InvalidArgument("row id ", row_ids[i], " is not in ", summary.identity.ToString());
    ranks[i] = *rank;
  }
  if (summary.order) {
    for (size_t i = 0; i < ranks.size(); ++i) summary.order->AppendPositions(ranks[i], &(*positions)[i]);
    return Status::OK();
  }
  if (summary.order_locator) {
    int64_t bytes_read = 0;
    Status st = rowid_internal::ReadOrderEntries(*summary.order_locator, ranks, positions, &bytes_read);
    if (st.ok()) {
      if (ctx.stats && summary.source == SummarySource::kSidecar) ctx.stats->sidecar_hits++;
      return Status::OK();
    }
    NoteSidecarFailure(ctx, summary.order_locator->path, st);
  } else {
    return Status::InvalidArgument("a membership summary of ", summary.identity.ToString(),
                                   " cannot answer positions");
  }
  // The order entries are gone or corrupt: load a whole summary through the ordinary path.
  TARN_ASSIGN_OR_RETURN(FileSummary whole, LoadFileSummary(ctx, table_id, file, SummaryNeed::kPositions));
  if (!whole.order) return Status::Internal("a whole summary without an order");
  for (size_t i = 0; i < row_ids.size(); ++i) {
    std::optional<uint64_t> rank = whole.set->Rank(row_ids[i]);
    if (!rank) {
      return Status::Corruption("row id ", row_ids[i], " was in the set of ", summary.identity.ToString(),
                                " but not in its ", SummarySourceName(whole.source), " summary");
    }
    (*positions)[i].clear();
    whole.order->AppendPositions(*rank, &(*positions)[i]);
  }
  return Status::OK();
}

}  // namespace tarn
