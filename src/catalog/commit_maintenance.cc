// The rows of maintenance changes (reference §3.9 flush, §3.10 compaction): data and delete
// files with explicit snapshot bounds, flushed inlined rows removed, compacted sources removed
// (merge) or ended (rewrite), and replaced files scheduled for deletion.
#include "catalog/commit_internal.h"
#include "catalog/row_reader.h"
#include "tarn/format.h"

namespace tarn::catalog_internal {

namespace {

using T = CatalogType;

Status Schedule(CommitAttempt* a, int64_t file_id, const std::string& path) {
  return Exec(a->store,
              "INSERT INTO ducklake_files_scheduled_for_deletion VALUES (?1, ?2, TRUE, ?3)",
              {CatalogDatum::Integer(file_id), CatalogDatum::Text(path),
               CatalogDatum::Text(a->now_text)})
      .status();
}

Result<int64_t> AddMaintenanceDataFile(CommitAttempt* a, int64_t table_id,
                                       const MaintenanceDataFile& m) {
  const NewDataFile& f = m.file;
  TARN_RETURN_NOT_OK(a->Table(table_id).status());
  const int64_t id = a->next_file_id++;
  if (f.provisional_id < 0) a->id_mapping[f.provisional_id] = id;
  TARN_RETURN_NOT_OK(Exec(
      a->store,
      "INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, end_snapshot, "
      "file_order, path, path_is_relative, file_format, record_count, file_size_bytes, "
      "footer_size, row_id_start, partition_id, encryption_key, mapping_id, partial_max) VALUES "
      "(?1, ?2, ?3, NULL, NULL, ?4, TRUE, 'parquet', ?5, ?6, ?7, ?8, ?9, NULL, NULL, ?10)",
      {CatalogDatum::Integer(id), CatalogDatum::Integer(table_id),
       CatalogDatum::Integer(m.begin_snapshot.value_or(a->snapshot_id)),
       CatalogDatum::Text(f.path), CatalogDatum::Integer(f.record_count),
       CatalogDatum::Integer(f.file_size_bytes), CatalogDatum::Integer(f.footer_size),
       OptInteger(m.row_id_start), OptInteger(f.partition_id), OptInteger(m.partial_max)}));
  for (const NewFileColumnStats& s : f.column_stats) {
    // A file written under an older schema version may hold columns dropped since: their
    // statistics are kept too, as for the file that held them first.
    auto text = [&](const std::optional<Value>& bound) -> Result<CatalogDatum> {
      if (!bound.has_value() || bound->is_null()) return CatalogDatum::Null();
      if ((bound->type().id == TypeId::kVarchar || bound->type().id == TypeId::kJson) &&
          bound->GetBytes().find('\0') != std::string::npos) {
        return CatalogDatum::Null();
      }
      TARN_ASSIGN_OR_RETURN(std::string encoded, EncodeStatsValue(*bound, bound->type()));
      return CatalogDatum::Text(encoded);
    };
    TARN_ASSIGN_OR_RETURN(CatalogDatum min, text(s.min));
    TARN_ASSIGN_OR_RETURN(CatalogDatum max, text(s.max));
    TARN_RETURN_NOT_OK(InsertFileColumnStats(a, id, table_id, s, min, max));
  }
  for (size_t k = 0; k < f.partition_values.size(); ++k) {
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "INSERT INTO ducklake_file_partition_value VALUES (?1, ?2, ?3, ?4)",
                            {CatalogDatum::Integer(id), CatalogDatum::Integer(table_id),
                             CatalogDatum::Integer(static_cast<int64_t>(k)),
                             OptText(f.partition_values[k])}));
  }
  return id;
}

Status AddMaintenanceDeleteFile(CommitAttempt* a, int64_t table_id,
                                const MaintenanceDeleteFile& d) {
  TARN_ASSIGN_OR_RETURN(int64_t data_file_id, a->Resolve(d.data_file_id, "data file"));
  if (d.replaces_delete_file_id.has_value()) {
    TARN_ASSIGN_OR_RETURN(
        int64_t removed,
        Exec(a->store,
             "DELETE FROM ducklake_delete_file WHERE delete_file_id = ?1 AND data_file_id = ?2 "
             "AND end_snapshot IS NULL",
             {CatalogDatum::Integer(*d.replaces_delete_file_id),
              CatalogDatum::Integer(data_file_id)}));
    if (removed == 0) {
      return LogicalConflict("delete file ", *d.replaces_delete_file_id, " of data file ",
                             data_file_id, " is no longer the visible one");
    }
    TARN_RETURN_NOT_OK(Schedule(a, *d.replaces_delete_file_id, d.replaced_path_from_data_path));
  }
  const int64_t id = a->next_file_id++;
  return Exec(
             a->store,
             "INSERT INTO ducklake_delete_file (delete_file_id, table_id, begin_snapshot, "
             "end_snapshot, data_file_id, path, path_is_relative, format, delete_count, "
             "file_size_bytes, footer_size, encryption_key, partial_max) VALUES "
             "(?1, ?2, ?3, NULL, ?4, ?5, TRUE, ?10, ?6, ?7, ?8, NULL, ?9)",
             {CatalogDatum::Integer(id), CatalogDatum::Integer(table_id),
              CatalogDatum::Integer(d.begin_snapshot), CatalogDatum::Integer(data_file_id),
              CatalogDatum::Text(d.path), CatalogDatum::Integer(d.delete_count),
              CatalogDatum::Integer(d.file_size_bytes), CatalogDatum::Integer(d.footer_size),
              OptInteger(d.partial_max), CatalogDatum::Text(DeleteFileFormatName(d.format))})
      .status();
}

Status Flush(CommitAttempt* a, const FlushInlinedChange& f) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(f.table_id, "table"));
  // The inlined rows read must still be there: a concurrent flush removes them.
  int64_t present = 0;
  for (const std::string& name : f.inlined_tables) {
    TARN_ASSIGN_OR_RETURN(bool exists, a->store->TableExists(name));
    if (!exists) continue;
    TARN_ASSIGN_OR_RETURN(
        CatalogResult count,
        RunQuery(a->store,
                 StrCat("SELECT COUNT(*) FROM ", QuoteName(name), " WHERE begin_snapshot <= ?1"),
                 {CatalogDatum::Integer(f.up_to_snapshot)}, {T::kBigint}, name));
    RowReader row(*a->store, count, 0, name, {0});
    TARN_ASSIGN_OR_RETURN(int64_t n, row.Int(0));
    present += n;
  }
  if (present != f.rows_flushed) {
    return LogicalConflict("flushing ", f.rows_flushed, " inlined rows of table_id ", table_id,
                           ": ", present, " are there now");
  }
  for (const MaintenanceDataFile& file : f.data_files) {
    TARN_RETURN_NOT_OK(AddMaintenanceDataFile(a, table_id, file).status());
    TARN_ASSIGN_OR_RETURN(TableStatsAccum * accum, StatsFor(a, table_id));
    accum->added_bytes += file.file.file_size_bytes;
    accum->has_data_files = true;
  }
  for (const MaintenanceDeleteFile& d : f.delete_files) {
    TARN_RETURN_NOT_OK(AddMaintenanceDeleteFile(a, table_id, d));
  }
  for (const std::string& name : f.inlined_tables) {
    TARN_ASSIGN_OR_RETURN(bool exists, a->store->TableExists(name));
    if (!exists) continue;
    TARN_RETURN_NOT_OK(Exec(a->store,
                            StrCat("DELETE FROM ", QuoteName(name), " WHERE begin_snapshot <= ?1"),
                            {CatalogDatum::Integer(f.up_to_snapshot)}));
  }
  if (f.merged_file_deletes) {
    // Only the inlined deletions merged into a delete file go: those of data files no longer
    // live (deleted whole or rewritten since) are not merged and stay, for time travel to the
    // snapshots that still have the file.
    const std::string name = StrCat("ducklake_inlined_delete_", table_id);
    TARN_ASSIGN_OR_RETURN(bool exists, a->store->TableExists(name));
    for (const MaintenanceDeleteFile& d : f.delete_files) {
      if (!exists || d.data_file_id < 0) continue;  // a flushed file's own delete file
      TARN_RETURN_NOT_OK(Exec(a->store,
                              StrCat("DELETE FROM ", QuoteName(name),
                                     " WHERE file_id = ?1 AND begin_snapshot <= ?2"),
                              {CatalogDatum::Integer(d.data_file_id),
                               CatalogDatum::Integer(f.up_to_snapshot)}));
    }
    a->tokens.deleted.insert(table_id);
  }
  a->tokens.flushed.insert(table_id);
  return Status::OK();
}

// The table-wide bounds of every column that has a ducklake_table_column_stats row become
// those of the live files' statistics.
Status RecomputeColumnStats(CommitAttempt* a, int64_t table_id) {
  TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(table_id));
  TARN_ASSIGN_OR_RETURN(
      CatalogResult rows,
      RunQuery(a->store,
               "SELECT s.column_id, s.min_value, s.max_value, s.null_count FROM "
               "ducklake_file_column_stats s JOIN ducklake_data_file f ON f.data_file_id = "
               "s.data_file_id WHERE f.table_id = ?1 AND f.end_snapshot IS NULL",
               {CatalogDatum::Integer(table_id)}, {T::kBigint, T::kVarchar, T::kVarchar, T::kBigint},
               "ducklake_file_column_stats"));
  struct Bounds {
    std::optional<Value> min, max;
    std::optional<std::string> min_text, max_text;
    bool has_null = false;
  };
  std::map<int64_t, Bounds> bounds;
  for (size_t i = 0; i < rows.rows.size(); ++i) {
    RowReader row(*a->store, rows, i, "ducklake_file_column_stats", {0});
    TARN_ASSIGN_OR_RETURN(int64_t column_id, row.Int(0));
    const ColumnInfo* column = FindInTree(table->columns, column_id);
    if (column == nullptr) continue;
    Bounds& b = bounds[column_id];
    b.has_null = b.has_null || row.OptInt(3).value_or(0) > 0;
    for (int k = 1; k <= 2; ++k) {
      std::optional<std::string> text = row.OptText(static_cast<size_t>(k));
      if (!text.has_value()) continue;
      Result<Value> value = DecodeStatsValue(*text, column->type);
      if (!value.ok()) continue;
      std::optional<Value>& bound = k == 1 ? b.min : b.max;
      const int want = k == 1 ? -1 : 1;
      if (!bound.has_value() || CompareStatsValues(*value, *bound) == want) {
        bound = *value;
        (k == 1 ? b.min_text : b.max_text) = *text;
      }
    }
  }
  for (const auto& [column_id, b] : bounds) {
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "UPDATE ducklake_table_column_stats SET min_value = ?3, max_value = "
                            "?4, contains_null = ?5 WHERE table_id = ?1 AND column_id = ?2",
                            {CatalogDatum::Integer(table_id), CatalogDatum::Integer(column_id),
                             OptText(b.min_text), OptText(b.max_text),
                             CatalogDatum::Boolean(b.has_null)}));
  }
  return Status::OK();
}

Result<int64_t> CountOf(CommitAttempt* a, const std::string& sql, int64_t table_id,
                        const std::string& what) {
  TARN_ASSIGN_OR_RETURN(CatalogResult result,
                        RunQuery(a->store, sql, {CatalogDatum::Integer(table_id)}, {T::kBigint},
                                 what));
  RowReader row(*a->store, result, 0, what, {0});
  return row.OptInt(0).value_or(0);
}

// As the extension after a rewrite (reference §3.10 "global stats are recomputed"): when no
// live data file has deletions left, record_count becomes the rows of the live files plus the
// live inlined rows, file_size_bytes the live files' bytes, and the column bounds those of
// the live files' statistics; while deletions remain the stats stay as they were (they are
// counts of rows ever inserted, which never fall below the live rows).
Status RecomputeTableStats(CommitAttempt* a, int64_t table_id) {
  TARN_ASSIGN_OR_RETURN(
      int64_t gross,
      CountOf(a, "SELECT SUM(record_count) FROM ducklake_data_file WHERE table_id = ?1 AND "
                 "end_snapshot IS NULL", table_id, "ducklake_data_file"));
  TARN_ASSIGN_OR_RETURN(
      int64_t deleted,
      CountOf(a, "SELECT SUM(d.delete_count) FROM ducklake_delete_file d JOIN ducklake_data_file "
                 "f ON f.data_file_id = d.data_file_id WHERE d.table_id = ?1 AND d.end_snapshot "
                 "IS NULL AND f.end_snapshot IS NULL", table_id, "ducklake_delete_file"));
  const std::string inlined_deletes = StrCat("ducklake_inlined_delete_", table_id);
  TARN_ASSIGN_OR_RETURN(bool has_inlined_deletes, a->store->TableExists(inlined_deletes));
  if (has_inlined_deletes) {
    TARN_ASSIGN_OR_RETURN(
        int64_t inlined,
        CountOf(a, StrCat("SELECT COUNT(*) FROM ", QuoteName(inlined_deletes), " i JOIN "
                          "ducklake_data_file f ON f.data_file_id = i.file_id WHERE f.table_id = "
                          "?1 AND f.end_snapshot IS NULL"), table_id, inlined_deletes));
    deleted += inlined;
  }
  if (deleted != 0) return Status::OK();
  TARN_ASSIGN_OR_RETURN(
      int64_t bytes,
      CountOf(a, "SELECT SUM(file_size_bytes) FROM ducklake_data_file WHERE table_id = ?1 AND "
                 "end_snapshot IS NULL", table_id, "ducklake_data_file"));
  TARN_ASSIGN_OR_RETURN(
      CatalogResult registered,
      RunQuery(a->store, "SELECT table_name FROM ducklake_inlined_data_tables WHERE table_id = ?1",
               {CatalogDatum::Integer(table_id)}, {T::kVarchar}, "ducklake_inlined_data_tables"));
  int64_t live_inlined = 0;
  for (size_t i = 0; i < registered.rows.size(); ++i) {
    RowReader row(*a->store, registered, i, "ducklake_inlined_data_tables", {0});
    TARN_ASSIGN_OR_RETURN(std::string name, row.Text(0));
    TARN_ASSIGN_OR_RETURN(bool exists, a->store->TableExists(name));
    if (!exists) continue;
    TARN_ASSIGN_OR_RETURN(
        int64_t n,
        CountOf(a,
                StrCat("SELECT COUNT(*) FROM ", QuoteName(name),
                       " WHERE end_snapshot IS NULL AND CAST(?1 AS BIGINT) IS NOT NULL"),
                table_id, name));
    live_inlined += n;
  }
  TARN_RETURN_NOT_OK(Exec(a->store,
                          "UPDATE ducklake_table_stats SET record_count = ?2, file_size_bytes = ?3 "
                          "WHERE table_id = ?1",
                          {CatalogDatum::Integer(table_id), CatalogDatum::Integer(gross + live_inlined),
                           CatalogDatum::Integer(bytes)}));
  // Inlined rows have no file statistics: their values keep the bounds that hold them.
  if (live_inlined == 0) TARN_RETURN_NOT_OK(RecomputeColumnStats(a, table_id));
  return Status::OK();
}

Status Compact(CommitAttempt* a, const CompactFilesChange& c) {
  TARN_ASSIGN_OR_RETURN(int64_t table_id, a->Resolve(c.table_id, "table"));
  const bool merge = c.kind == CompactFilesChange::Kind::kMergeAdjacent;
  const std::string inlined_deletes = StrCat("ducklake_inlined_delete_", table_id);
  TARN_ASSIGN_OR_RETURN(bool has_inlined_deletes, a->store->TableExists(inlined_deletes));
  for (const ScheduledFile& source : c.sources) {
    const std::vector<CatalogDatum> id = {CatalogDatum::Integer(source.file_id),
                                          CatalogDatum::Integer(table_id)};
    TARN_ASSIGN_OR_RETURN(
        CatalogResult live,
        RunQuery(a->store,
                 "SELECT COUNT(*) FROM ducklake_data_file WHERE data_file_id = ?1 AND "
                 "table_id = ?2 AND end_snapshot IS NULL",
                 id, {T::kBigint}, "ducklake_data_file"));
    TARN_ASSIGN_OR_RETURN(int64_t n, RowReader(*a->store, live, 0, "ducklake_data_file", {0}).Int(0));
    if (n != 1) {
      return LogicalConflict("compacting data file ", source.file_id, " of table_id ", table_id,
                             ": the file is no longer live");
    }
    if (merge) {
      TARN_ASSIGN_OR_RETURN(
          CatalogResult deletes,
          RunQuery(a->store,
                   "SELECT COUNT(*) FROM ducklake_delete_file WHERE data_file_id = ?1 AND "
                   "table_id = ?2 AND end_snapshot IS NULL",
                   id, {T::kBigint}, "ducklake_delete_file"));
      TARN_ASSIGN_OR_RETURN(int64_t d,
                            RowReader(*a->store, deletes, 0, "ducklake_delete_file", {0}).Int(0));
      int64_t inlined = 0;
      if (has_inlined_deletes) {
        TARN_ASSIGN_OR_RETURN(
            CatalogResult rows,
            RunQuery(a->store,
                     StrCat("SELECT COUNT(*) FROM ", QuoteName(inlined_deletes),
                            " WHERE file_id = ?1"),
                     {CatalogDatum::Integer(source.file_id)}, {T::kBigint}, inlined_deletes));
        TARN_ASSIGN_OR_RETURN(inlined, RowReader(*a->store, rows, 0, inlined_deletes, {0}).Int(0));
      }
      if (d + inlined > 0) {
        return LogicalConflict("merging data file ", source.file_id, " of table_id ", table_id,
                               ": rows of it were deleted meanwhile");
      }
      for (const char* table : {"ducklake_data_file", "ducklake_file_column_stats",
                                "ducklake_delete_file", "ducklake_file_partition_value",
                                "ducklake_file_variant_stats"}) {
        TARN_RETURN_NOT_OK(Exec(a->store, StrCat("DELETE FROM ", table, " WHERE data_file_id = ?1"),
                                {CatalogDatum::Integer(source.file_id)}));
      }
      TARN_RETURN_NOT_OK(Schedule(a, source.file_id, source.path_from_data_path));
    } else {
      TARN_RETURN_NOT_OK(Exec(a->store,
                              "UPDATE ducklake_delete_file SET end_snapshot = ?1 WHERE "
                              "data_file_id = ?2 AND end_snapshot IS NULL",
                              {CatalogDatum::Integer(a->snapshot_id),
                               CatalogDatum::Integer(source.file_id)}));
      TARN_RETURN_NOT_OK(Exec(a->store,
                              "UPDATE ducklake_data_file SET end_snapshot = ?1 WHERE "
                              "data_file_id = ?2 AND end_snapshot IS NULL",
                              {CatalogDatum::Integer(a->snapshot_id),
                               CatalogDatum::Integer(source.file_id)}));
    }
  }
  if (c.output.has_value()) {
    TARN_RETURN_NOT_OK(AddMaintenanceDataFile(a, table_id, *c.output).status());
  }
  if (!merge) TARN_RETURN_NOT_OK(RecomputeTableStats(a, table_id));
  (merge ? a->tokens.merge_adjacent : a->tokens.rewrite_delete).insert(table_id);
  return Status::OK();
}

}  // namespace

Status WriteMaintenanceChanges(CommitAttempt* a) {
  for (const LakeChange& change : a->changes->changes()) {
    if (const auto* f = std::get_if<FlushInlinedChange>(&change)) {
      TARN_RETURN_NOT_OK(Flush(a, *f));
    } else if (const auto* c = std::get_if<CompactFilesChange>(&change)) {
      TARN_RETURN_NOT_OK(Compact(a, *c));
    }
  }
  return Status::OK();
}

}  // namespace tarn::catalog_internal
