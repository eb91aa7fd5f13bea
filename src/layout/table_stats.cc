#include "parquet/metadata.h"
#include "tarn/layout.h"

namespace tarn {

Result<LakeTableStats> ReadLakeTableStats(Lake& lake, const std::shared_ptr<FileSystem>& fs,
                                          const TableMetadata& table) {
  LakeTableStats stats;
  const TableInfo& info = *table.table;
  stats.rows = table.FileRowCount();
  for (const InlinedDataTable& inlined : info.inlined_tables) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows, lake.ReadInlinedRows(table, inlined));
    stats.rows += rows->num_rows;
  }
  for (const DataFileInfo& file : table.data_files) {
    ++stats.files;
    stats.bytes_on_disk += file.file_size_bytes;
    if (file.delete_file.has_value()) {
      ++stats.delete_files;
      stats.bytes_on_disk += file.delete_file->file_size_bytes;
    }
    for (const DeleteFileInfo& other : file.other_delete_files) {
      ++stats.delete_files;
      stats.bytes_on_disk += other.file_size_bytes;
    }
    auto reader = ParquetReader::Open(fs, file.path);
    if (!reader.ok()) return reader.status().WithContext("tarn_table_stats");
    const parquet::FileMetaData& meta = (*reader)->metadata();
    stats.row_groups += static_cast<int64_t>(meta.row_groups.size());
    for (const parquet::RowGroup& group : meta.row_groups) {
      for (const parquet::ColumnChunk& chunk : group.columns) {
        if (!chunk.meta_data.has_value()) continue;
        stats.compressed_bytes += chunk.meta_data->total_compressed_size;
        stats.uncompressed_bytes += chunk.meta_data->total_uncompressed_size;
      }
    }
  }
  int64_t file_rows = 0;
  for (const DataFileInfo& file : table.data_files) file_rows += file.record_count;
  stats.average_row_group_rows =
      stats.row_groups == 0 ? 0 : static_cast<double>(file_rows) / stats.row_groups;
  stats.compression_ratio = stats.compressed_bytes == 0
                                ? 0
                                : static_cast<double>(stats.uncompressed_bytes) /
                                      static_cast<double>(stats.compressed_bytes);
  if (info.sorting.has_value()) {
    for (const SortField& field : info.sorting->fields) {
      if (!stats.sort_key.empty()) stats.sort_key += ", ";
      stats.sort_key += field.expression;
      if (field.descending) stats.sort_key += " DESC";
      if (field.nulls_first) stats.sort_key += " NULLS FIRST";
    }
  }
  stats.profile = lake.GetOption("parquet_profile", info.schema_id, info.table_id)
                      .value_or(std::string(WriterProfileName(WriterProfile::kDuckDb)));
  return stats;
}

}  // namespace tarn
