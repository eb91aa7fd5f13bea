// Maintenance procedures (tarn/table_write.h): flush of inlined data, merge of adjacent files,
// rewrite of files with deletes. Each reads the latest snapshot, writes files, and commits one
// FlushInlinedChange / CompactFilesChange per table or output (tarn/lake_write.h).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "table/deletes.h"
#include "table/deletion_vector.h"
#include "table/file_reader.h"
#include "table/partition_keys.h"
#include "table/sort_rows.h"
#include "table/write_files.h"
#include "table/write_state.h"
#include "tarn/s3.h"
#include "tarn/table_write.h"

namespace tarn {

namespace {

using table_internal::kRowIdFieldId;
using table_internal::kRowIdInternalName;
using table_internal::kSnapshotIdFieldId;
using table_internal::kSnapshotIdInternalName;

// What one procedure run is doing: the snapshot, the files written (deleted on failure).
struct Run {
  Lake* lake = nullptr;
  std::shared_ptr<FileSystem> fs;
  std::shared_ptr<const LakeSnapshot> snapshot;
  table_internal::WriteState state;  // for option lookup and directories
  LakeChanges changes;
  std::vector<std::string> written;
  MaintenanceResult result;
  // Inside a transaction: its committed data files already consumed and tables already
  // flushed by earlier runs (left alone), and what this run consumes and flushes.
  const std::set<int64_t>* excluded_files = nullptr;
  const std::set<int64_t>* excluded_tables = nullptr;
  std::set<int64_t> consumed_files;
  std::set<int64_t> flushed_tables;

  bool Excluded(int64_t data_file_id) const {
    return excluded_files != nullptr && excluded_files->count(data_file_id) > 0;
  }

  ~Run() {
    for (const std::string& path : written) (void)fs->Delete(path);
  }
};

Result<std::unique_ptr<Run>> StartRun(Lake& lake, std::shared_ptr<FileSystem> fs,
                                      const MaintenanceOptions& options) {
  if (fs == nullptr) fs = DefaultFileSystem();
  auto run = std::make_unique<Run>();
  run->lake = &lake;
  run->fs = fs;
  TARN_ASSIGN_OR_RETURN(run->snapshot, lake.LoadSnapshot(SnapshotSelector::Latest()));
  run->state.session = options.session;
  run->state.watch = options.watch;
  run->state.lake = &lake;
  run->state.fs = fs;
  run->state.start_snapshot_id = run->snapshot->snapshot_id();
  run->state.start = run->snapshot;
  return run;
}

// DuckDB's Catalog Error for a table the call names that its schema does not have, pointing
// at the tables of that name in other schemas ("main.t or s1.t").
Status MissingTable(const LakeSnapshot& snapshot, const std::string& table) {
  std::string elsewhere;
  for (const auto& candidate : snapshot.tables()) {
    if (!table_internal::NameEquals(candidate->name, table)) continue;
    elsewhere += (elsewhere.empty() ? "" : " or ") + candidate->schema_name + "." + candidate->name;
  }
  std::string message = "Catalog Error: Table with name " + table + " does not exist!";
  if (!elsewhere.empty()) message += "\nDid you mean \"" + elsewhere + "\"?";
  return Status::NotFound(message);
}

// The tables the options select, by table id.
Result<std::vector<std::shared_ptr<const TableInfo>>> SelectTables(const Run& run,
                                                                   const MaintenanceOptions& o) {
  std::optional<std::string> schema = o.schema;
  if (!schema && o.table) schema = "main";
  std::vector<std::shared_ptr<const TableInfo>> out;
  for (const auto& table : run.snapshot->tables()) {
    if (schema && !table_internal::NameEquals(table->schema_name, *schema)) continue;
    if (o.table && !table_internal::NameEquals(table->name, *o.table)) continue;
    // A call over the whole lake or a schema leaves out the tables whose auto_compact option
    // (table > schema > global) is false, as the extension does; a named table is maintained.
    if (!o.table) {
      std::optional<std::string> auto_compact =
          run.state.GetOption("auto_compact", table->schema_id, table->table_id);
      if (auto_compact) {
        std::string value = *auto_compact;
        for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (value == "false" || value == "0" || value == "f") continue;
      }
    }
    out.push_back(table);
  }
  if (o.table && out.empty()) return MissingTable(*run.snapshot, *o.table);
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a->table_id < b->table_id; });
  return out;
}

// `path` (absolute) relative to the lake's data_path, as files_scheduled_for_deletion keeps it.
std::string FromDataPath(const Lake& lake, const std::string& path) {
  const std::string& base = lake.data_path();
  if (path.compare(0, base.size(), base) == 0) return path.substr(base.size());
  return path;
}

std::shared_ptr<Column> Int64Column(const std::vector<int64_t>& values) {
  ColumnBuilder builder{DataType(TypeId::kInt64)};
  builder.Reserve(static_cast<int64_t>(values.size()));
  for (int64_t v : values) builder.AppendNumber<int64_t>(v);
  return builder.Finish();
}

// Writes one data file of `table`: `columns` (the table's top-level columns), then the row
// ids and snapshot ids when given; under `directory` of the table's folder ("" or a partition's
// "k=v/…/").
Result<MaintenanceDataFile> WriteOutput(Run& run, const TableInfo& table,
                                        std::vector<std::shared_ptr<Column>> columns,
                                        const std::vector<int64_t>* row_ids,
                                        const std::vector<int64_t>* snapshot_ids,
                                        const std::string& directory = "") {
  const int64_t rows = columns.empty() ? 0 : columns[0]->length;
  TARN_ASSIGN_OR_RETURN(table_internal::WriteSettings settings,
                        table_internal::ResolveWriteSettings(run.state, table, rows));
  auto schema = std::make_shared<Schema>(*table_internal::DataFileSchema(table, false));
  if (row_ids != nullptr) {
    schema->fields.emplace_back(kRowIdInternalName, DataType(TypeId::kInt64), true,
                                kRowIdFieldId);
    columns.push_back(Int64Column(*row_ids));
  }
  if (snapshot_ids != nullptr) {
    schema->fields.emplace_back(kSnapshotIdInternalName, DataType(TypeId::kInt64), true,
                                kSnapshotIdFieldId);
    columns.push_back(Int64Column(*snapshot_ids));
  }
  auto batch = MakeBatch(schema, std::move(columns));
  batch->num_rows = rows;
  // hive_file_pattern = false: a partition's files lie in the table's folder.
  const std::string folder = settings.hive_file_pattern ? directory : std::string();
  TARN_RETURN_NOT_OK(run.state.EnsureDirectory(table.path + folder));
  const std::string name = folder + table_internal::NewDataFileName();
  const std::string path = table.path + name;
  TARN_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(run.fs, path, *schema,
                                                         settings.properties));
  run.written.push_back(path);
  Status status = writer->Write(*batch);
  if (!status.ok()) {
    writer->Abandon();
    return status;
  }
  TARN_ASSIGN_OR_RETURN(WrittenFileInfo info, writer->Finish());
  MaintenanceDataFile out;
  out.file.provisional_id = run.changes.NewProvisionalId();
  out.file.table_id = table.table_id;
  out.file.path = name;
  out.file.record_count = info.num_rows;
  out.file.file_size_bytes = info.file_size;
  out.file.footer_size = info.footer_size;
  out.file.embeds_row_ids = row_ids != nullptr;
  out.file.column_stats = table_internal::CatalogStatistics(info, table);
  return out;
}

// A delete file with per-position snapshot ids: (file_path, pos, _ducklake_internal_snapshot_id).
Result<MaintenanceDeleteFile> WritePartialDeleteFile(
    Run& run, const TableInfo& table, const std::string& data_file_path,
    std::vector<table_internal::DeletedPosition> positions) {
  std::sort(positions.begin(), positions.end(),
            [](const auto& a, const auto& b) { return a.position < b.position; });
  TARN_ASSIGN_OR_RETURN(table_internal::WriteSettings settings,
                        table_internal::ResolveWriteSettings(run.state, table));
  if (settings.write_deletion_vectors) {
    // One cumulative deletion vector per deleting snapshot, in a Puffin container.
    MaintenanceDeleteFile d;
    d.format = DeleteFileFormat::kPuffin;
    d.delete_count = static_cast<int64_t>(positions.size());
    for (const auto& p : positions) {
      d.begin_snapshot =
          d.begin_snapshot == 0 ? p.snapshot : std::min(d.begin_snapshot, p.snapshot);
      d.partial_max = std::max(d.partial_max.value_or(0), p.snapshot);
    }
    const std::string bytes = table_internal::EncodeDeletionVectorsBySnapshot(
        std::move(positions), data_file_path, &d.footer_size);
    TARN_RETURN_NOT_OK(run.state.EnsureDirectory(table.path));
    d.path = table_internal::NewDeleteFileName(true);
    const std::string path = table.path + d.path;
    run.written.push_back(path);
    TARN_RETURN_NOT_OK(table_internal::WriteFileBytes(run.fs, path, bytes));
    d.file_size_bytes = static_cast<int64_t>(bytes.size());
    return d;
  }
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("file_path", DataType(TypeId::kVarchar), true,
            table_internal::kDeleteFilePathFieldId),
      Field("pos", DataType(TypeId::kInt64), true, table_internal::kDeletePosFieldId),
      Field(kSnapshotIdInternalName, DataType(TypeId::kInt64), true, kSnapshotIdFieldId)});
  ColumnBuilder paths{DataType(TypeId::kVarchar)};
  std::vector<int64_t> pos, snaps;
  for (const auto& p : positions) {
    paths.AppendBytes(data_file_path);
    pos.push_back(p.position);
    snaps.push_back(p.snapshot);
  }
  auto batch = MakeBatch(schema, {paths.Finish(), Int64Column(pos), Int64Column(snaps)});
  batch->num_rows = static_cast<int64_t>(positions.size());
  TARN_RETURN_NOT_OK(run.state.EnsureDirectory(table.path));
  const std::string name = table_internal::NewDeleteFileName();
  const std::string path = table.path + name;
  TARN_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(run.fs, path, *schema,
                                                         settings.properties));
  run.written.push_back(path);
  Status status = writer->Write(*batch);
  if (!status.ok()) {
    writer->Abandon();
    return status;
  }
  TARN_ASSIGN_OR_RETURN(WrittenFileInfo info, writer->Finish());
  MaintenanceDeleteFile d;
  d.path = name;
  d.delete_count = info.num_rows;
  d.file_size_bytes = info.file_size;
  d.footer_size = info.footer_size;
  d.begin_snapshot = snaps.empty() ? 0 : *std::min_element(snaps.begin(), snaps.end());
  d.partial_max = snaps.empty() ? 0 : *std::max_element(snaps.begin(), snaps.end());
  return d;
}

Result<MaintenanceResult> Finish(std::unique_ptr<Run> run, const MaintenanceOptions& options) {
  if (run->changes.empty()) {
    run->result.commit.snapshot.snapshot_id = -1;
    return std::move(run->result);
  }
  TARN_ASSIGN_OR_RETURN(run->result.commit,
                        CommitLakeChanges(*run->lake, run->snapshot->snapshot_id(),
                                          run->changes, options.commit));
  run->written.clear();  // committed: the catalog owns them now
  return std::move(run->result);
}

// ---- flush -----------------------------------------------------------------------------------

// The flushed rows (`columns`, `n` rows, of the inlined table's `version_columns`) grouped by
// the table's current partition spec, groups in the order of their first row; one group of
// every row (with no values) when the table is not partitioned or a key's column is not in
// that schema version.
std::vector<table_internal::PartitionGroup> FlushGroups(
    const TableInfo& info, const std::vector<ColumnInfo>& version_columns,
    const std::vector<std::shared_ptr<Column>>& columns, int64_t n) {
  std::vector<int> sources;
  if (info.partitioning) {
    for (const PartitionField& field : info.partitioning->fields) {
      int index = -1;
      for (size_t c = 0; c < version_columns.size(); ++c) {
        if (version_columns[c].column_id == field.column_id) index = static_cast<int>(c);
      }
      if (index < 0) {
        sources.clear();
        break;
      }
      sources.push_back(index);
    }
  }
  if (sources.empty()) {
    table_internal::PartitionGroup all;
    all.rows.resize(static_cast<size_t>(n));
    std::iota(all.rows.begin(), all.rows.end(), 0);
    return {std::move(all)};
  }
  TableInfo version = info;
  version.columns = version_columns;
  auto batch = MakeBatch(table_internal::DataFileSchema(version, false), columns);
  batch->num_rows = n;
  return table_internal::GroupByPartition(*batch, info.partitioning->fields, sources);
}

// One inlined table's rows (deleted ones included) as data files written with that table's
// own columns (those of its schema version), one per partition of the table's current spec,
// and a delete file for each file's rows deleted since.
Status FlushInlinedTable(Run& run, const TableInfo& info, const TableMetadata& md,
                         const InlinedDataTable& inlined, FlushInlinedChange* change,
                         std::vector<MaintenanceDeleteFile>* flushed_deletes) {
  TARN_ASSIGN_OR_RETURN(auto all, run.lake->ReadInlinedRows(md, inlined, InlinedRowSelection::kAll));
  if (all->num_rows == 0) return Status::OK();
  TableInfo version = info;
  version.columns = inlined.columns;
  const int64_t n = all->num_rows;
  const Column& row_id = *all->columns[0];
  const Column& begin = *all->columns[1];
  const Column& end = *all->columns[2];
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  auto rid = [&](int64_t i) { return row_id.GetValue(i).GetInt64(); };
  auto bs = [&](int64_t i) { return begin.GetValue(i).GetInt64(); };
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return std::make_pair(rid(a), bs(a)) < std::make_pair(rid(b), bs(b));
  });
  // Sort step: the table's sort key first, row ids breaking ties.
  const std::vector<std::shared_ptr<Column>> values(all->columns.begin() + 3, all->columns.end());
  TARN_RETURN_NOT_OK(table_internal::StableSortByTableKey(info, inlined.columns, values, &order));
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : values) columns.push_back(Take(*column, order));
  // One file per partition of the table's current spec (as an insert splits its rows), each
  // holding its rows in the order above.
  for (const table_internal::PartitionGroup& group :
       FlushGroups(info, inlined.columns, columns, n)) {
    std::vector<std::shared_ptr<Column>> group_columns;
    if (static_cast<int64_t>(group.rows.size()) == n) {
      group_columns = columns;
    } else {
      for (const auto& column : columns) group_columns.push_back(Take(*column, group.rows));
    }
    std::vector<int64_t> row_ids, snapshots;
    std::vector<table_internal::DeletedPosition> deleted;
    for (size_t p = 0; p < group.rows.size(); ++p) {
      const int64_t i = order[static_cast<size_t>(group.rows[p])];
      row_ids.push_back(rid(i));
      snapshots.push_back(bs(i));
      if (!end.IsNull(i)) {
        deleted.push_back({static_cast<int64_t>(p), end.GetValue(i).GetInt64()});
      }
    }
    // As the extension flushes: every file keeps its rows' snapshot ids and states the
    // largest as partial_max, so all files of a flush share one schema.
    const int64_t min_s = *std::min_element(snapshots.begin(), snapshots.end());
    const int64_t max_s = *std::max_element(snapshots.begin(), snapshots.end());
    std::string directory;
    if (info.partitioning && !group.values.empty()) {
      std::vector<std::string> names;
      for (const PartitionField& field : info.partitioning->fields) {
        names.push_back(table_internal::PartitionKeyName(field, info));
      }
      directory = table_internal::HiveDirectory(names, group.values);
    }
    TARN_ASSIGN_OR_RETURN(MaintenanceDataFile file,
                          WriteOutput(run, version, std::move(group_columns), &row_ids,
                                      &snapshots, directory));
    if (!directory.empty()) {
      file.file.partition_id = info.partitioning->partition_id;
      file.file.partition_values = group.values;
    }
    file.row_id_start = *std::min_element(row_ids.begin(), row_ids.end());
    file.begin_snapshot = min_s;
    file.partial_max = max_s;
    const int64_t provisional = file.file.provisional_id;
    const std::string data_path = info.path + file.file.path;
    change->data_files.push_back(std::move(file));
    change->rows_flushed += static_cast<int64_t>(group.rows.size());
    if (!deleted.empty()) {
      TARN_ASSIGN_OR_RETURN(MaintenanceDeleteFile d,
                            WritePartialDeleteFile(run, info, data_path, std::move(deleted)));
      d.data_file_id = provisional;
      d.partial_max.reset();  // as the extension writes a flushed file's delete file
      flushed_deletes->push_back(std::move(d));
    }
  }
  return Status::OK();
}

Status FlushTable(Run& run, const TableInfo& info) {
  if (run.excluded_tables != nullptr && run.excluded_tables->count(info.table_id) > 0) {
    return Status::OK();
  }
  run.flushed_tables.insert(info.table_id);
  const int64_t s = run.snapshot->snapshot_id();
  TARN_ASSIGN_OR_RETURN(auto md, run.lake->LoadTable(*run.snapshot, info.table_id));
  FlushInlinedChange change;
  change.table_id = info.table_id;
  change.up_to_snapshot = s;
  // Inlined rows, deleted ones included: one file per inlined table (by schema version).
  std::vector<const InlinedDataTable*> inlined_tables;
  for (const InlinedDataTable& inlined : info.inlined_tables) inlined_tables.push_back(&inlined);
  std::stable_sort(inlined_tables.begin(), inlined_tables.end(),
                   [](const InlinedDataTable* a, const InlinedDataTable* b) {
                     return a->schema_version < b->schema_version;
                   });
  for (const InlinedDataTable* inlined : inlined_tables) {
    change.inlined_tables.push_back(inlined->table_name);
    TARN_RETURN_NOT_OK(FlushInlinedTable(run, info, *md, *inlined, &change, &change.delete_files));
  }
  // Inlined file deletions become partial delete files, merged with the visible ones.
  std::vector<MaintenanceDeleteFile> merged;
  for (const DataFileInfo& file : md->data_files) {
    if (file.inlined_deletes.empty() || run.Excluded(file.data_file_id)) continue;
    run.consumed_files.insert(file.data_file_id);
    std::vector<table_internal::DeletedPosition> positions;
    if (file.delete_file.has_value()) {
      TARN_ASSIGN_OR_RETURN(positions, table_internal::ReadDeleteFile(
                                           run.fs, *file.delete_file, file.path,
                                           file.record_count));
    }
    for (const DeleteFileInfo& other : file.other_delete_files) {
      TARN_ASSIGN_OR_RETURN(auto more, table_internal::ReadDeleteFile(run.fs, other, file.path,
                                                                      file.record_count));
      positions.insert(positions.end(), more.begin(), more.end());
    }
    for (const InlinedFileDelete& d : file.inlined_deletes) {
      positions.push_back({d.position, d.begin_snapshot});
    }
    // A position can be listed twice (a cumulative delete file also lists the inlined
    // deletions before it): it was deleted at the earliest of its snapshots.
    std::sort(positions.begin(), positions.end(), [](const auto& a, const auto& b) {
      return std::make_pair(a.position, a.snapshot) < std::make_pair(b.position, b.snapshot);
    });
    positions.erase(std::unique(positions.begin(), positions.end(),
                                [](const auto& a, const auto& b) { return a.position == b.position; }),
                    positions.end());
    TARN_ASSIGN_OR_RETURN(MaintenanceDeleteFile d,
                          WritePartialDeleteFile(run, info, file.path, std::move(positions)));
    d.data_file_id = file.data_file_id;
    if (file.delete_file.has_value()) {
      d.replaces_delete_file_id = file.delete_file->delete_file_id;
      d.replaced_path_from_data_path = FromDataPath(*run.lake, file.delete_file->path);
    }
    merged.push_back(std::move(d));
  }
  if (!merged.empty()) {
    change.merged_file_deletes = true;
    // Ids as the extension assigns them: the flushed file, its file deletions, then the
    // flushed file's delete file.
    merged.insert(merged.end(), std::make_move_iterator(change.delete_files.begin()),
                  std::make_move_iterator(change.delete_files.end()));
    change.delete_files = std::move(merged);
  }
  if (change.data_files.empty() && !change.merged_file_deletes) return Status::OK();
  MaintenanceTableResult table_result;
  table_result.schema_name = info.schema_name;
  table_result.table_name = info.name;
  table_result.rows_flushed = change.rows_flushed;
  run.result.tables.push_back(std::move(table_result));
  run.changes.Add(std::move(change));
  return Status::OK();
}

// ---- compaction ------------------------------------------------------------------------------

// The rows of `files` at the snapshot (deletes applied), in file order, with row and snapshot
// ids.
struct CompactedRows {
  std::vector<std::shared_ptr<Column>> columns;
  std::vector<int64_t> row_ids, snapshots;
};

// `columns` (nullopt: the table's current ones) are the columns read and returned.
Result<CompactedRows> ReadFiles(Run& run, const TableMetadata& md,
                                const std::vector<const DataFileInfo*>& files,
                                const std::vector<ColumnInfo>* columns = nullptr) {
  auto info = std::make_shared<TableInfo>(*md.table);
  info->inlined_tables.clear();
  if (columns != nullptr) info->columns = *columns;
  std::vector<std::shared_ptr<Batch>> batches;
  for (const DataFileInfo* file : files) run.state.watch.Plan(file->record_count);
  for (const DataFileInfo* file : files) {
    auto one = std::make_shared<TableMetadata>(md);
    one->table = info;
    one->data_files = {*file};
    one->has_inlined_delete_table = md.has_inlined_delete_table;
    TableScanOptions options;
    options.with_rowid = true;
    options.with_snapshot_id = true;
    TARN_ASSIGN_OR_RETURN(auto batch, ScanTableToBatch(*run.lake, run.fs, one, options));
    TARN_RETURN_NOT_OK(run.state.watch.Done(file->record_count));
    if (batch->num_rows > 0) batches.push_back(batch);
  }
  CompactedRows out;
  if (batches.empty()) return out;
  auto all = (batches.size() == 1 ? batches[0] : ConcatenateBatches(batches));
  for (int64_t i = 0; i < all->num_rows; ++i) {
    out.snapshots.push_back(all->columns[0]->GetValue(i).GetInt64());
    out.row_ids.push_back(all->columns[1]->GetValue(i).GetInt64());
  }
  for (size_t c = 2; c < all->columns.size(); ++c) out.columns.push_back(all->columns[c]);
  return out;
}

// The extension's candidate order: (begin_snapshot, row_id_start NULLS LAST, data_file_id).
bool ByFileOrder(const DataFileInfo* a, const DataFileInfo* b) {
  constexpr int64_t kLast = std::numeric_limits<int64_t>::max();
  return std::make_tuple(a->begin_snapshot, a->row_id_start.value_or(kLast), a->data_file_id) <
         std::make_tuple(b->begin_snapshot, b->row_id_start.value_or(kLast), b->data_file_id);
}

// Files are compacted together only within one schema version (the table's last version
// beginning at or before the file's begin_snapshot) and one partition, as the extension does.
using GroupKey =
    std::tuple<size_t, std::optional<int64_t>, std::vector<std::optional<std::string>>>;

GroupKey GroupOf(const std::vector<TableSchemaVersion>& versions, const DataFileInfo& file) {
  size_t index = 0;
  while (index + 1 < versions.size() && versions[index + 1].begin_snapshot <= file.begin_snapshot) {
    ++index;
  }
  std::vector<std::optional<std::string>> values;
  for (const FilePartitionValue& v : file.partition_values) values.push_back(v.text);
  return {index, file.partition_id, std::move(values)};
}

// The folder (relative to the table's, "" or "k=v/…/") of `source` when it is a partitioned
// file under the table's folder: a compaction writes its output next to its sources, as the
// extension puts it in the sources' hive folder.
std::string PartitionDirectory(const TableInfo& table, const DataFileInfo& source) {
  if (!source.partition_id.has_value()) return "";
  if (source.path.compare(0, table.path.size(), table.path) != 0) return "";
  const std::string relative = source.path.substr(table.path.size());
  const size_t slash = relative.rfind('/');
  return slash == std::string::npos ? "" : relative.substr(0, slash + 1);
}

// One result row: the extension returns one per compaction.
MaintenanceTableResult CompactionRow(const TableInfo& info, int64_t processed, int64_t created) {
  MaintenanceTableResult row;
  row.schema_name = info.schema_name;
  row.table_name = info.name;
  row.files_processed = processed;
  row.files_created = created;
  return row;
}

void SetPartition(const DataFileInfo& source, MaintenanceDataFile* file) {
  file->file.partition_id = source.partition_id;
  for (const FilePartitionValue& v : source.partition_values) {
    file->file.partition_values.push_back(v.text);
  }
}

// `columns`: those of the group's schema version, which every file of it was written with
// (and which the snapshots reading the merged file know).
Status MergeGroup(Run& run, const TableMetadata& md, const std::vector<ColumnInfo>& columns,
                  const std::vector<const DataFileInfo*>& group) {
  TARN_ASSIGN_OR_RETURN(CompactedRows rows, ReadFiles(run, md, group, &columns));
  // Sort step: the output in the table's sort-key order (row ids follow their rows).
  TARN_RETURN_NOT_OK(table_internal::SortColumnsByTableKey(*md.table, columns, &rows.columns,
                                                           &rows.row_ids, &rows.snapshots));
  bool contiguous = group[0]->row_id_start.has_value();
  for (size_t i = 0; contiguous && i < rows.row_ids.size(); ++i) {
    contiguous = rows.row_ids[i] == *group[0]->row_id_start + static_cast<int64_t>(i);
  }
  TableInfo info = *md.table;
  info.columns = columns;
  TARN_ASSIGN_OR_RETURN(MaintenanceDataFile file,
                        WriteOutput(run, info, std::move(rows.columns),
                                    contiguous ? nullptr : &rows.row_ids, &rows.snapshots,
                                    PartitionDirectory(info, *group[0])));
  if (contiguous) file.row_id_start = group[0]->row_id_start;
  file.begin_snapshot = group[0]->begin_snapshot;
  int64_t partial = 0;
  for (const DataFileInfo* f : group) {
    partial = std::max(partial, f->partial_max.value_or(f->begin_snapshot));
  }
  file.partial_max = partial;
  SetPartition(*group[0], &file);
  CompactFilesChange change;
  change.kind = CompactFilesChange::Kind::kMergeAdjacent;
  change.table_id = info.table_id;
  for (const DataFileInfo* f : group) {
    change.sources.push_back({f->data_file_id, FromDataPath(*run.lake, f->path)});
    run.consumed_files.insert(f->data_file_id);
  }
  change.output = std::move(file);
  run.changes.Add(std::move(change));
  run.result.tables.push_back(CompactionRow(info, static_cast<int64_t>(group.size()), 1));
  return Status::OK();
}

// The files of one group (in candidate order) cut into runs as the extension cuts them: from
// each file on, files are taken while the run is still below `target` (so the last one may
// pass it). Each run of two or more files is merged; a run of one is left alone but counts
// against max_compacted_files as the extension counts it. Returns the runs counted.
Result<uint64_t> MergeRuns(Run& run, const TableMetadata& md,
                           const std::vector<ColumnInfo>& columns,
                           const std::vector<const DataFileInfo*>& files, int64_t target,
                           uint64_t budget) {
  uint64_t counted = 0;
  for (size_t start = 0; start < files.size() && counted < budget; ++start, ++counted) {
    int64_t bytes = 0;
    size_t end = start;
    while (end < files.size() && bytes < target) bytes += files[end++]->file_size_bytes;
    if (end - start < 2) continue;
    const std::vector<const DataFileInfo*> pack(
        files.begin() + static_cast<std::ptrdiff_t>(start),
        files.begin() + static_cast<std::ptrdiff_t>(end));
    TARN_RETURN_NOT_OK(MergeGroup(run, md, columns, pack));
    start = end - 1;
  }
  return counted;
}

Status MergeTable(Run& run, const TableInfo& info, const MaintenanceOptions& options) {
  TARN_ASSIGN_OR_RETURN(auto md, run.lake->LoadTable(*run.snapshot, info.table_id));
  TARN_ASSIGN_OR_RETURN(table_internal::WriteSettings settings,
                        table_internal::ResolveWriteSettings(run.state, info));
  const int64_t target = settings.target_file_size;
  const int64_t max_size = options.max_file_size.value_or(target);
  const int64_t min_size = options.min_file_size.value_or(0);
  TARN_ASSIGN_OR_RETURN(std::vector<TableSchemaVersion> versions,
                        run.lake->LoadSchemaVersions(info, run.snapshot->snapshot_id()));
  // Candidates as the extension takes them: live, no deletes, min_file_size <= size <
  // max_file_size and below the target. Name-mapped files (added with add_data_files) are
  // read through their mapping and merged like any other.
  std::map<GroupKey, std::vector<const DataFileInfo*>> groups;
  for (const DataFileInfo& file : md->data_files) {
    if (file.delete_file.has_value() || !file.inlined_deletes.empty()) continue;
    if (file.encryption_key.has_value()) continue;
    if (file.file_size_bytes < min_size || file.file_size_bytes >= max_size) continue;
    if (file.file_size_bytes >= target || run.Excluded(file.data_file_id)) continue;
    groups[GroupOf(versions, file)].push_back(&file);
  }
  uint64_t budget = options.max_compacted_files.value_or(std::numeric_limits<uint64_t>::max());
  for (auto& [key, files] : groups) {
    if (budget == 0) break;
    if (files.size() < 2) continue;  // the extension does not count a lone file's group
    std::sort(files.begin(), files.end(), ByFileOrder);
    TARN_ASSIGN_OR_RETURN(uint64_t counted, MergeRuns(run, *md, versions[std::get<0>(key)].columns,
                                                      files, target, budget));
    budget -= counted;
  }
  return Status::OK();
}

// The delete threshold as the extension takes it: the call's, else the table's
// rewrite_delete_threshold option (table > schema > global), else 0.95.
Result<double> DeleteThreshold(const Run& run, const TableInfo& info,
                               const MaintenanceOptions& options) {
  if (options.delete_threshold.has_value()) return *options.delete_threshold;
  std::optional<std::string> text =
      run.state.GetOption("rewrite_delete_threshold", info.schema_id, info.table_id);
  if (!text.has_value()) return 0.95;
  char* end = nullptr;
  const double value = std::strtod(text->c_str(), &end);
  if (end == text->c_str() || *end != '\0' || !(value >= 0 && value <= 1)) {
    return Status::InvalidArgument("option rewrite_delete_threshold of ", info.schema_name, ".",
                                   info.name, " is '", *text, "', not a number between 0 and 1");
  }
  return value;
}

Status RewriteTable(Run& run, const TableInfo& info, const MaintenanceOptions& options) {
  TARN_ASSIGN_OR_RETURN(auto md, run.lake->LoadTable(*run.snapshot, info.table_id));
  const int64_t s = run.snapshot->snapshot_id();
  TARN_ASSIGN_OR_RETURN(const double threshold, DeleteThreshold(run, info, options));
  std::vector<const DataFileInfo*> sources;
  for (const DataFileInfo& file : md->data_files) {
    if (file.encryption_key.has_value()) continue;
    if (!file.delete_file.has_value() && file.inlined_deletes.empty()) continue;
    if (run.Excluded(file.data_file_id)) continue;
    TARN_ASSIGN_OR_RETURN(std::vector<int64_t> deleted,
                          table_internal::DeletedPositionsAt(run.fs, file, file.record_count, s));
    if (deleted.empty() || file.record_count <= 0) continue;
    const double fraction =
        static_cast<double>(deleted.size()) / static_cast<double>(file.record_count);
    if (fraction >= threshold) sources.push_back(&file);
  }
  if (sources.empty()) return Status::OK();
  TARN_ASSIGN_OR_RETURN(std::vector<TableSchemaVersion> versions,
                        run.lake->LoadSchemaVersions(info, s));
  std::map<GroupKey, std::vector<const DataFileInfo*>> groups;
  for (const DataFileInfo* file : sources) groups[GroupOf(versions, *file)].push_back(file);
  // One output (and one result row) per group, written with the group's columns, as the
  // extension rewrites; every file of a group goes into it whatever its size.
  for (auto& [key, group] : groups) {
    std::sort(group.begin(), group.end(), ByFileOrder);
    const std::vector<ColumnInfo>& columns = versions[std::get<0>(key)].columns;
    TARN_ASSIGN_OR_RETURN(CompactedRows rows, ReadFiles(run, *md, group, &columns));
    // Sort step: the output in the table's sort-key order (row ids follow their rows).
    TARN_RETURN_NOT_OK(table_internal::SortColumnsByTableKey(info, columns, &rows.columns,
                                                             &rows.row_ids, &rows.snapshots));
    CompactFilesChange change;
    change.kind = CompactFilesChange::Kind::kRewriteDeletes;
    change.table_id = info.table_id;
    for (const DataFileInfo* f : group) {
      change.sources.push_back({f->data_file_id, FromDataPath(*run.lake, f->path)});
      run.consumed_files.insert(f->data_file_id);
    }
    int64_t created = 0;
    if (!rows.row_ids.empty()) {
      TableInfo version = info;
      version.columns = columns;
      TARN_ASSIGN_OR_RETURN(MaintenanceDataFile file,
                            WriteOutput(run, version, std::move(rows.columns), &rows.row_ids,
                                        nullptr, PartitionDirectory(info, *group[0])));
      SetPartition(*group[0], &file);
      change.output = std::move(file);
      created = 1;
    }
    run.changes.Add(std::move(change));
    run.result.tables.push_back(
        CompactionRow(info, static_cast<int64_t>(group.size()), created));
  }
  return Status::OK();
}

using table_internal::MaintenanceProcedure;

Status RunProcedure(Run& run, MaintenanceProcedure procedure, const TableInfo& info,
                    const MaintenanceOptions& options) {
  switch (procedure) {
    case MaintenanceProcedure::kFlush: return FlushTable(run, info);
    case MaintenanceProcedure::kMerge: return MergeTable(run, info, options);
    case MaintenanceProcedure::kRewrite: return RewriteTable(run, info, options);
  }
  return Status::Internal("unknown maintenance procedure");
}

Result<MaintenanceResult> RunCommitted(Lake& lake, std::shared_ptr<FileSystem> fs,
                                       MaintenanceProcedure procedure,
                                       const MaintenanceOptions& options) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Run> run, StartRun(lake, std::move(fs), options));
  TARN_ASSIGN_OR_RETURN(auto tables, SelectTables(*run, options));
  for (const auto& table : tables) TARN_RETURN_NOT_OK(RunProcedure(*run, procedure, *table, options));
  return Finish(std::move(run), options);
}

}  // namespace

namespace table_internal {

Result<MaintenanceResult> RunMaintenanceInTransaction(WriteState& txn,
                                                      MaintenanceProcedure procedure,
                                                      const MaintenanceOptions& options) {
  auto run = std::make_unique<Run>();
  run->lake = txn.lake;
  run->fs = txn.fs;
  run->snapshot = txn.start;
  run->state.lake = txn.lake;
  run->state.fs = txn.fs;
  run->state.start_snapshot_id = txn.start_snapshot_id;
  run->state.start = txn.start;
  run->state.pending_options = txn.pending_options;
  run->state.session = txn.session;
  run->state.watch = txn.watch;
  run->excluded_files = &txn.maintained_files;
  run->excluded_tables = &txn.flushed_tables;
  // Provisional ids continue the transaction's, so the two change sets never share one.
  while (txn.last_provisional_id < 0 &&
         run->changes.NewProvisionalId() > txn.last_provisional_id) {
  }
  TARN_ASSIGN_OR_RETURN(auto tables, SelectTables(*run, options));
  for (const auto& committed : tables) {
    std::shared_ptr<const TableInfo> current = txn.FindTableById(committed->table_id);
    if (current == nullptr) continue;  // dropped by the transaction
    // The transaction's sort key orders what the run writes.
    TableInfo info = *committed;
    info.sorting = current->sorting;
    TARN_RETURN_NOT_OK(RunProcedure(*run, procedure, info, options));
  }
  txn.last_provisional_id = run->changes.NewProvisionalId();
  for (const LakeChange& change : run->changes.changes()) {
    if (const auto* flush = std::get_if<FlushInlinedChange>(&change)) {
      txn.maintained_tables.insert(flush->table_id);
    } else if (const auto* compact = std::get_if<CompactFilesChange>(&change)) {
      txn.maintained_tables.insert(compact->table_id);
    }
    txn.maintenance.push_back(change);
  }
  txn.maintained_files.insert(run->consumed_files.begin(), run->consumed_files.end());
  txn.flushed_tables.insert(run->flushed_tables.begin(), run->flushed_tables.end());
  for (std::string& path : run->written) txn.written_files.insert(std::move(path));
  run->written.clear();  // the transaction owns them now
  run->result.commit.snapshot.snapshot_id = -1;
  return std::move(run->result);
}

}  // namespace table_internal

Result<MaintenanceResult> FlushInlinedData(Lake& lake, std::shared_ptr<FileSystem> fs,
                                           const MaintenanceOptions& options) {
  return RunCommitted(lake, std::move(fs), MaintenanceProcedure::kFlush, options);
}

Result<MaintenanceResult> MergeAdjacentFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                             const MaintenanceOptions& options) {
  return RunCommitted(lake, std::move(fs), MaintenanceProcedure::kMerge, options);
}

Result<MaintenanceResult> RewriteDataFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                           const MaintenanceOptions& options) {
  return RunCommitted(lake, std::move(fs), MaintenanceProcedure::kRewrite, options);
}

}  // namespace tarn
