#include "table/write_files.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <random>

#include "catalog/stats_encode.h"
#include "catalog/variant_extra_stats.h"
#include "expr/eval/cast.h"
#include "parquet/compression.h"
#include "table/file_reader.h"
#include "table/reserved_columns.h"
#include "table/write_sink.h"
#include "util/byte_size.h"

namespace tarn::table_internal {

namespace {

Result<int64_t> ParseOptionInt(const std::string& key, const std::string& text, int64_t min) {
  int64_t value = 0;
  size_t used = 0;
  bool ok = !text.empty();
  try {
    value = std::stoll(text, &used);
  } catch (...) {
    ok = false;
  }
  if (!ok || used != text.size() || value < min) {
    return Status::InvalidArgument("option ", key, " = '", text, "' is not an integer >= ", min);
  }
  return value;
}

// A bound of the writer's file statistics as the lake keeps it. String and blob bounds cut to
// the writer's statistics length (a min cut to a prefix, a max cut and incremented) are kept,
// as the official extension keeps DuckDB's: they still bound every value of the file.
std::optional<Value> StatBound(const std::optional<Value>& bound, bool exact,
                               const DataType& type) {
  const bool cut_bytes =
      type.id == TypeId::kVarchar || type.id == TypeId::kJson || type.id == TypeId::kBlob;
  if ((!exact && !cut_bytes) || !bound.has_value() || bound->is_null()) return std::nullopt;
  if (type.IsFloating() && std::isnan(bound->GetDouble())) return std::nullopt;
  if (bound->type() == type) return bound;
  auto cast = expr::CastValue(*bound, type, /*try_cast=*/true);
  if (!cast.ok() || cast->is_null()) return std::nullopt;
  return *cast;
}

// A byte count option: digits, or DuckDB's size spelling ('1KB', '5MB', '1GiB').
Result<int64_t> ParseOptionBytes(const std::string& key, const std::string& text, int64_t min) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    return ParseOptionInt(key, text, min);
  }
  Result<int64_t> bytes = ParseByteSize(text);
  if (!bytes.ok() || *bytes < min) {
    return Status::InvalidArgument("option ", key, " = '", text, "' is not a size >= ", min);
  }
  return bytes;
}

}  // namespace

std::string NewUuidV7() {
  static std::mutex mu;
  static std::mt19937_64 rng{std::random_device{}() ^
                             static_cast<uint64_t>(std::chrono::steady_clock::now()
                                                       .time_since_epoch()
                                                       .count())};
  static uint64_t last_millis = 0;
  static uint64_t counter = 0;  // 12 bits in rand_a keep ids increasing within a millisecond
  std::lock_guard<std::mutex> lock(mu);
  uint64_t millis = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::system_clock::now().time_since_epoch())
                                              .count());
  if (millis <= last_millis) {
    millis = last_millis;
    if (++counter > 0xfff) {
      ++millis;
      counter = 0;
    }
  } else {
    counter = rng() & 0x3ff;
  }
  last_millis = millis;
  const uint64_t random = rng();
  const uint64_t high = (millis << 16) | (uint64_t{7} << 12) | (counter & 0xfff);
  const uint64_t low = (uint64_t{2} << 62) | (random & ((uint64_t{1} << 62) - 1));
  char text[37];
  std::snprintf(text, sizeof(text), "%08llx-%04llx-%04llx-%04llx-%012llx",
                static_cast<unsigned long long>(high >> 32),
                static_cast<unsigned long long>((high >> 16) & 0xffff),
                static_cast<unsigned long long>(high & 0xffff),
                static_cast<unsigned long long>(low >> 48),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return text;
}

std::string NewDataFileName() { return "ducklake-" + NewUuidV7() + ".parquet"; }
std::string NewDeleteFileName(bool deletion_vector) {
  return "ducklake-" + NewUuidV7() + (deletion_vector ? "-delete.puffin" : "-delete.parquet");
}

Result<WriteSettings> ResolveWriteSettings(const WriteState& state, const TableInfo& table,
                                           std::optional<int64_t> write_rows) {
  auto option = [&](const char* key) {
    return state.GetOption(key, table.schema_id, table.table_id);
  };
  WriteSettings settings;
  WriterProperties::Builder builder;
  builder.created_by(std::string("tarn ") + std::string(TarnVersionString()));
  int codec = static_cast<int>(parquet::CompressionCodec::kSnappy);
  int level = 0;
  // The writer profile first; the table's explicit parquet_* options refine it.
  if (auto text = option("parquet_profile")) {
    Result<WriterProfile> profile = ParseWriterProfile(*text);
    if (!profile.ok()) return profile.status().WithContext("table " + table.name);
    settings.profile = *profile;
  }
  if (settings.profile == WriterProfile::kReadOptimized) {
    const ReadOptimizedSettings read_optimized;
    // A write of unknown size (a streaming append) keeps the largest row groups and lets the
    // file roll bound them.
    ApplyReadOptimized(builder, write_rows.value_or(read_optimized.max_row_group_rows *
                                              read_optimized.lanes),
                       read_optimized);
    settings.target_file_size = read_optimized.target_file_size;
  }
  if (auto text = option("parquet_compression")) {
    TARN_ASSIGN_OR_RETURN(auto parsed, parquet::ParseCodec(*text));
    codec = static_cast<int>(parsed);
  }
  if (auto text = option("parquet_compression_level")) {
    TARN_ASSIGN_OR_RETURN(int64_t parsed, ParseOptionInt("parquet_compression_level", *text,
                                                         -131072));
    level = static_cast<int>(parsed);
  }
  builder.compression(codec, level);
  if (auto text = option("parquet_version")) {
    if (*text == "V1" || *text == "v1" || *text == "1") {
      builder.data_page_version(1);
    } else if (*text == "V2" || *text == "v2" || *text == "2") {
      builder.data_page_version(2);
    } else {
      return Status::InvalidArgument("option parquet_version = '", *text,
                                     "' is not V1 or V2");
    }
  }
  if (auto text = option("parquet_row_group_size")) {
    TARN_ASSIGN_OR_RETURN(int64_t rows, ParseOptionInt("parquet_row_group_size", *text, 1));
    builder.max_row_group_rows(rows);
  }
  if (auto text = option("parquet_row_group_size_bytes")) {
    TARN_ASSIGN_OR_RETURN(int64_t bytes,
                          ParseOptionBytes("parquet_row_group_size_bytes", *text, 1));
    builder.max_row_group_bytes(bytes);
  }
  if (auto text = option("target_file_size")) {
    TARN_ASSIGN_OR_RETURN(settings.target_file_size,
                          ParseOptionBytes("target_file_size", *text, 1));
  }
  // The session's ducklake_target_file_size wins over every scope of the option.
  if (state.session.target_file_size) settings.target_file_size = *state.session.target_file_size;
  settings.inlining_row_limit = state.session.default_inlining_row_limit;
  if (auto text = option("data_inlining_row_limit")) {
    TARN_ASSIGN_OR_RETURN(settings.inlining_row_limit,
                          ParseOptionInt("data_inlining_row_limit", *text, 0));
  }
  for (auto [key, slot] : {std::pair{"sort_on_insert", &settings.sort_on_insert},
                            std::pair{"hive_file_pattern", &settings.hive_file_pattern},
                            std::pair{"write_deletion_vectors",
                                      &settings.write_deletion_vectors}}) {
    std::optional<std::string> text = option(key);
    if (!text) continue;
    if (*text == "true" || *text == "1") {
      *slot = true;
    } else if (*text == "false" || *text == "0") {
      *slot = false;
    } else {
      return Status::InvalidArgument("option ", key, " = '", *text, "' is not true or false");
    }
  }
  auto built = builder.Build();
  if (!built.ok()) return built.status().WithContext("table " + table.name);
  settings.properties = *built;
  // The extension inlines no GEOMETRY, not even inside a list, struct or map.
  auto holds_uninlinable = [](const DataType& type, auto&& self) -> bool {
    if (type.id == TypeId::kGeometry || type.id == TypeId::kVariant) return true;
    for (const Field& child : type.children) {
      if (self(child.type, self)) return true;
    }
    return false;
  };
  for (const ColumnInfo& column : table.columns) {
    const std::string& name = column.name;
    if (IsInlinedSystemColumn(name) || name.rfind("_ducklake_internal_", 0) == 0 ||
        holds_uninlinable(column.type, holds_uninlinable)) {
      settings.inlining_allowed = false;
    }
  }
  return settings;
}

std::shared_ptr<const Schema> DataFileSchema(const TableInfo& table, bool with_row_ids) {
  std::vector<Field> fields;
  for (const ColumnInfo& column : table.columns) {
    Field field = column.ToField();
    field.nullable = true;
    fields.push_back(std::move(field));
  }
  if (with_row_ids) {
    fields.emplace_back(kRowIdInternalName, DataType(TypeId::kInt64), true, kRowIdFieldId);
  }
  return std::make_shared<Schema>(std::move(fields));
}

std::shared_ptr<Batch> WithRowIds(const TableInfo& table, const Batch& rows,
                                  const std::vector<int64_t>& row_ids) {
  ColumnBuilder ids(DataType(TypeId::kInt64));
  ids.Reserve(static_cast<int64_t>(row_ids.size()));
  for (int64_t id : row_ids) ids.AppendNumber<int64_t>(id);
  std::vector<std::shared_ptr<Column>> columns = rows.columns;
  columns.push_back(ids.Finish());
  auto out = MakeBatch(DataFileSchema(table, true), std::move(columns));
  out->num_rows = rows.num_rows;
  return out;
}

namespace {

NewFileColumnStats VariantCatalogStatistics(const WrittenVariantStatistics& written,
                                            int64_t column_id) {
  // As DuckDB writes a VARIANT, every row has metadata (a NULL is the variant null): the
  // column counts no NULLs, and its shredded fields carry the detail.
  NewFileColumnStats stats;
  stats.column_id = column_id;
  stats.column_size_bytes = written.compressed_bytes;
  stats.value_count = written.rows;
  stats.null_count = 0;
  std::vector<catalog_internal::VariantFieldEntry> entries;
  for (const WrittenVariantField& field : written.fields) {
    auto text = [&](const std::optional<Value>& bound) -> std::optional<std::string> {
      if (!bound) return std::nullopt;
      Result<std::string> encoded = EncodeStatsValue(*bound, field.type);
      if (!encoded.ok()) return std::nullopt;
      return std::move(encoded).value();
    };
    NewVariantFieldStats row;
    row.path = field.path;
    row.shredded_type = field.type.ToDuckLakeName();
    row.column_size_bytes = field.size_bytes;
    row.value_count = field.num_values - field.null_count;
    row.null_count = field.null_count;
    row.min = text(field.min);
    row.max = text(field.max);
    if (field.type.IsFloating()) row.contains_nan = field.contains_nan;
    catalog_internal::VariantFieldEntry entry;
    entry.field_name = row.path;
    entry.shredded_type = row.shredded_type;
    entry.null_count = row.null_count;
    entry.min = row.min;
    entry.max = row.max;
    entry.num_values = field.num_values;
    entry.contains_nan = row.contains_nan;
    entry.column_size_bytes = row.column_size_bytes;
    entry.any_valid = row.value_count > 0;
    entries.push_back(std::move(entry));
    stats.variant_fields.push_back(std::move(row));
  }
  stats.extra_stats = catalog_internal::VariantEntriesToJson(entries);
  return stats;
}

}  // namespace

std::vector<NewFileColumnStats> CatalogStatistics(const WrittenFileInfo& info,
                                                  const TableInfo& table) {
  std::vector<NewFileColumnStats> out;
  for (const WrittenColumnStatistics& written : info.columns) {
    if (written.field_id < 0) continue;
    const ColumnInfo* column = table.FindColumn(written.field_id);
    if (column == nullptr) continue;  // internal columns
    NewFileColumnStats stats;
    stats.column_id = column->column_id;
    stats.column_size_bytes = written.stats.compressed_bytes;
    stats.null_count = written.stats.null_count.value_or(0);
    stats.value_count = written.stats.value_count - stats.null_count;
    if (catalog_internal::HasStatsText(column->type)) {
      stats.min = StatBound(written.stats.min, written.stats.min_exact, column->type);
      stats.max = StatBound(written.stats.max, written.stats.max_exact, column->type);
    }
    if (column->type.IsFloating()) stats.contains_nan = written.contains_nan;
    if (column->type.id == TypeId::kGeometry) stats.extra_stats = written.geometry_stats;
    out.push_back(std::move(stats));
  }
  for (const WrittenVariantStatistics& written : info.variants) {
    const ColumnInfo* column = written.field_id < 0 ? nullptr : table.FindColumn(written.field_id);
    if (column == nullptr) continue;
    out.push_back(VariantCatalogStatistics(written, column->column_id));
  }
  return out;
}

Result<std::vector<PendingDataFile>> WriteDataFiles(WriteState& state, const TableInfo& table,
                                                    const WriteSettings& settings,
                                                    std::shared_ptr<const Schema> file_schema,
                                                    bool embeds_row_ids,
                                                    std::span<const std::shared_ptr<Batch>> batches) {
  std::unique_ptr<RowSink> sink =
      MakeTableSink(state, table, settings, std::move(file_schema), embeds_row_ids);
  for (const auto& batch : batches) {
    Status status = sink->Add(*batch);
    if (!status.ok()) {
      sink->Abandon();
      return status;
    }
  }
  return sink->Finish();
}

Result<WrittenFileInfo> WriteDeleteFile(const std::shared_ptr<FileSystem>& fs,
                                        const std::string& path,
                                        const std::string& data_file_path,
                                        std::span<const int64_t> positions,
                                        std::shared_ptr<const WriterProperties> properties) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("file_path", DataType(TypeId::kVarchar), true, kDeleteFilePathFieldId),
      Field("pos", DataType(TypeId::kInt64), true, kDeletePosFieldId)});
  ColumnBuilder paths(DataType(TypeId::kVarchar));
  ColumnBuilder pos(DataType(TypeId::kInt64));
  paths.Reserve(static_cast<int64_t>(positions.size()));
  pos.Reserve(static_cast<int64_t>(positions.size()));
  for (int64_t position : positions) {
    paths.AppendBytes(data_file_path);
    pos.AppendNumber<int64_t>(position);
  }
  auto batch = MakeBatch(schema, {paths.Finish(), pos.Finish()});
  batch->num_rows = static_cast<int64_t>(positions.size());
  TARN_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(fs, path, *schema, properties));
  Status status = writer->Write(*batch);
  if (!status.ok()) {
    writer->Abandon();
    return status;
  }
  return writer->Finish();
}

Status WriteFileBytes(const std::shared_ptr<FileSystem>& fs, const std::string& path,
                      std::string_view bytes) {
  TARN_ASSIGN_OR_RETURN(auto file, fs->OpenForWrite(path));
  TARN_RETURN_NOT_OK(file->Append(bytes));
  TARN_RETURN_NOT_OK(file->Sync());
  return file->Close();
}

}  // namespace tarn::table_internal
