#include "table/rowid_lookup.h"

#include <algorithm>

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

// ducklake_snapshot_changes by snapshot id, read only when a file needs the proof.
Result<std::map<int64_t, std::string>> ChangesIfNeeded(Lake& lake, const TableMetadata& table) {
  std::map<int64_t, std::string> changes;
  bool needed = false;
  for (const DataFileInfo& file : table.data_files) {
    needed |= file.row_id_start.has_value() && !file.partial_max.has_value();
  }
  if (!needed) return changes;
  TARN_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> snapshots, lake.ListSnapshots());
  for (const SnapshotInfo& snapshot : snapshots) {
    if (snapshot.changes_made) changes[snapshot.snapshot_id] = *snapshot.changes_made;
  }
  return changes;
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

Result<std::map<int64_t, std::vector<int64_t>>> PlaceRowIds(
    Lake& lake, std::shared_ptr<FileSystem> fs, const TableMetadata& table,
    std::span<const int64_t> row_ids) {
  std::map<int64_t, std::vector<int64_t>> positions;
  if (row_ids.empty()) return positions;
  auto committed = std::make_shared<TableMetadata>(table);
  std::erase_if(committed->data_files,
                [](const DataFileInfo& file) { return file.data_file_id < 0; });
  if (committed->data_files.empty()) return positions;
  FileDirectoryOptions options;
  TARN_ASSIGN_OR_RETURN(options.changes_by_snapshot, ChangesIfNeeded(lake, *committed));
  TARN_ASSIGN_OR_RETURN(auto directory,
                        FileDirectory::Build(committed, ProcessRowSummaryContext(lake, fs),
                                             std::move(options)));
  TARN_ASSIGN_OR_RETURN(PlaceResult placed, directory->Place(row_ids));
  for (RowPlacement& placement : placed.placements) {
    std::vector<int64_t>& out = positions[placement.data_file_id];
    out.insert(out.end(), placement.positions.begin(), placement.positions.end());
  }
  for (auto& [file_id, list] : positions) list = Normalize(std::move(list));
  return positions;
}

}  // namespace tarn::table_internal
