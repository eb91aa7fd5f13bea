#include "rowid/derive.h"

#include "tarn/parquet.h"

namespace tarn {
namespace rowid_internal {
namespace {

// The row-id column's index in the file's schema, or -1: by field id, else by name.
int FindRowIdColumn(const Schema& schema) {
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (schema.field(i).field_id == kEmbeddedRowIdFieldId) return i;
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (schema.field(i).name == kEmbeddedRowIdName) return i;
  }
  return -1;
}

Status CheckRowIdType(const ParquetReader& reader, int column) {
  if (reader.schema().field(column).type.id != TypeId::kInt64) {
    return Status::Corruption("'", reader.path(), "': ", kEmbeddedRowIdName, " is ",
                              reader.schema().field(column).type.ToString(), ", expected BIGINT");
  }
  return Status::OK();
}

}  // namespace

Result<FooterFacts> ProbeFooter(std::shared_ptr<FileSystem> fs, const DataFileInfo& file) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(std::move(fs), file.path));
  FooterFacts facts;
  const int column = FindRowIdColumn(reader->schema());
  if (column < 0) return facts;
  TARN_RETURN_NOT_OK(CheckRowIdType(*reader, column));
  facts.embeds_row_ids = true;
  std::optional<std::pair<uint64_t, uint64_t>> bounds;
  for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
    if (reader->row_group_num_rows(rg) == 0) continue;
    std::optional<ColumnStatistics> stats = reader->RowGroupStatistics(rg, column);
    // A NULL id stands for row_id_start + position, which the statistics do not bound.
    if (!stats || !stats->min || !stats->max || !stats->min_exact || !stats->max_exact ||
        !stats->null_count || *stats->null_count != 0 || stats->min->is_null() ||
        stats->max->is_null() || stats->min->type().id != TypeId::kInt64 ||
        stats->max->type().id != TypeId::kInt64 || stats->min->GetInt64() < 0) {
      return facts;  // bounds unknown
    }
    const uint64_t lo = static_cast<uint64_t>(stats->min->GetInt64());
    const uint64_t hi = static_cast<uint64_t>(stats->max->GetInt64());
    if (!bounds) {
      bounds = std::make_pair(lo, hi);
    } else {
      bounds->first = std::min(bounds->first, lo);
      bounds->second = std::max(bounds->second, hi);
    }
  }
  facts.bounds = bounds ? bounds : std::make_optional(std::make_pair(uint64_t{1}, uint64_t{0}));
  return facts;
}

}  // namespace rowid_internal

Result<PositionedRowSet> DeriveRowSummary(std::shared_ptr<FileSystem> fs, const DataFileInfo& file) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(std::move(fs), file.path));
  const int column = rowid_internal::FindRowIdColumn(reader->schema());
  const int64_t rows = reader->num_rows();
  if (column < 0) {
    if (!file.row_id_start) {
      return Status::Corruption("'", file.path, "' has neither ", kEmbeddedRowIdName,
                                " nor a row_id_start");
    }
    std::vector<int64_t> ids(static_cast<size_t>(rows));
    for (int64_t p = 0; p < rows; ++p) ids[p] = *file.row_id_start + p;
    return PositionedRowSet::FromFileOrder(ids);
  }
  TARN_RETURN_NOT_OK(rowid_internal::CheckRowIdType(*reader, column));
  ScanOptions scan;
  scan.columns = {reader->schema().field(column).name};
  scan.with_position = true;
  scan.max_parallel_row_groups = 1;
  TARN_ASSIGN_OR_RETURN(auto scan_reader, reader->Scan(scan));
  std::vector<int64_t> ids(static_cast<size_t>(rows), -1);
  int64_t seen = 0;
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, scan_reader->Next());
    if (!batch) break;
    const Column& values = batch->column(0);
    const Column& positions = batch->column(1);
    const int64_t* value_data = values.values_as<int64_t>();
    const int64_t* position_data = positions.values_as<int64_t>();
    for (int64_t r = 0; r < batch->num_rows; ++r) {
      const int64_t p = position_data[r];
      if (p < 0 || p >= rows) return Status::Internal("position ", p, " outside '", file.path, "'");
      if (values.IsNull(r)) {
        if (!file.row_id_start) {
          return Status::Corruption("'", file.path, "': NULL row id at position ", p,
                                    " and no row_id_start");
        }
        ids[p] = *file.row_id_start + p;
      } else {
        ids[p] = value_data[r];
      }
      ++seen;
    }
  }
  if (seen != rows) return Status::Internal("read ", seen, " row ids of ", rows, " in '", file.path, "'");
  Result<PositionedRowSet> out = PositionedRowSet::FromFileOrder(ids);
  if (!out.ok()) return out.status().WithContext(StrCat("'", file.path, "'"));
  return out;
}

}  // namespace tarn
