#include "sql/exec/copy.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "format/json_text.h"
#include "parquet/compression.h"
#include "sql/plan/names.h"
#include "table/partition_keys.h"
#include "table/write_files.h"
#include "tarn/format.h"
#include "tarn/parquet.h"

namespace tarn::sql {
namespace {

struct CopyOptions {
  std::string format;
  bool header = true;
  char delimiter = ',';
  std::string compression = "snappy";
  int64_t row_group_size = 122880;
  std::vector<std::string> partition_by;  // PARTITION_BY columns, in folder order
  bool overwrite_or_ignore = false;       // OVERWRITE_OR_IGNORE: write into a non-empty folder
  int64_t row_groups_per_file = 0;        // ROW_GROUPS_PER_FILE: > 0 writes a folder of files
  bool append = false;  // APPEND: add uniquely named files to a folder that may hold others
  // GEOPARQUET_VERSION: "V1" (DuckDB's default) writes top-level GEOMETRY columns as WKB
  // BLOBs described by GeoParquet's "geo" metadata; NONE and V2 as Parquet's GEOMETRY type.
  std::string geoparquet_version = "V1";
};

// The column names of PARTITION_BY: a name or a (parenthesized) list of names.
Result<std::vector<std::string>> PartitionColumns(const ast::Expr* expr) {
  std::vector<std::string> names;
  if (expr != nullptr && expr->kind == ast::ExprKind::kList) {
    for (const auto& child : expr->children) names.push_back(child->text);
  } else if (expr != nullptr && expr->kind == ast::ExprKind::kLiteral &&
             expr->literal_kind == ast::LiteralKind::kString) {
    names.push_back(expr->text);
  } else if (expr != nullptr && expr->kind == ast::ExprKind::kColumnRef && expr->names.size() == 1) {
    names.push_back(expr->names[0]);
  }
  if (names.empty()) {
    return Status::InvalidArgument("Binder Error: PARTITION_BY needs a column or a list of columns");
  }
  return names;
}

Result<Value> OptionValue(const std::string& name, const ast::Expr* expr) {
  if (expr == nullptr) return Value::Boolean(true);  // HEADER alone means HEADER true
  Schema empty;
  TARN_ASSIGN_OR_RETURN(auto bound, Bind(*expr, empty));
  if (!bound->IsConstant()) {
    return Status::InvalidArgument("Binder Error: COPY option ", name, " must be a constant");
  }
  return bound->EvaluateConstant();
}

Result<CopyOptions> ParseOptions(const Statement& copy) {
  CopyOptions options;
  std::string lower_path = LowerAscii(copy.copy_path);
  if (lower_path.ends_with(".parquet")) options.format = "parquet";
  if (lower_path.ends_with(".csv") || lower_path.ends_with(".tsv")) options.format = "csv";
  if (lower_path.ends_with(".json") || lower_path.ends_with(".ndjson") ||
      lower_path.ends_with(".jsonl")) {
    options.format = "json";
  }
  for (const auto& [name, expr] : copy.copy_options) {
    if (name == "PARTITION_BY") {
      TARN_ASSIGN_OR_RETURN(options.partition_by, PartitionColumns(expr.get()));
      continue;
    }
    TARN_ASSIGN_OR_RETURN(Value value, OptionValue(name, expr.get()));
    std::string text = value.is_null() ? "" : FormatValue(value);
    if (name == "FORMAT") {
      options.format = LowerAscii(text);
    } else if (name == "HEADER") {
      std::string lower = LowerAscii(text);
      options.header = lower == "true" || lower == "1" || lower == "t";
    } else if (name == "DELIMITER" || name == "DELIM" || name == "SEP") {
      if (text.size() != 1) {
        return Status::InvalidArgument("Binder Error: COPY ", name, " must be one character");
      }
      options.delimiter = text[0];
    } else if (name == "COMPRESSION" || name == "CODEC") {
      options.compression = LowerAscii(text);
    } else if (name == "ROW_GROUP_SIZE") {
      char* end = nullptr;
      options.row_group_size = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || options.row_group_size <= 0) {
        return Status::InvalidArgument("Binder Error: COPY ROW_GROUP_SIZE must be a positive integer");
      }
    } else if (name == "ROW_GROUPS_PER_FILE") {
      char* end = nullptr;
      options.row_groups_per_file = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || options.row_groups_per_file <= 0) {
        return Status::InvalidArgument(
            "Binder Error: COPY ROW_GROUPS_PER_FILE must be a positive integer");
      }
    } else if (name == "GEOPARQUET_VERSION") {
      std::string upper = text;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (upper != "NONE" && upper != "V1" && upper != "V2" && upper != "BOTH") {
        return Status::InvalidArgument("Binder Error: GEOPARQUET_VERSION must be one of NONE, "
                                       "V1, V2 or BOTH");
      }
      options.geoparquet_version = upper;
    } else if (name == "APPEND") {
      std::string lower = LowerAscii(text);
      options.append = text.empty() || lower == "true" || lower == "1" || lower == "t";
    } else if (name == "OVERWRITE_OR_IGNORE") {
      std::string lower = LowerAscii(text);
      options.overwrite_or_ignore = lower == "true" || lower == "1" || lower == "t";
    } else {
      return Status::InvalidArgument("Binder Error: unrecognized COPY option \"", name,
                                     "\" (supported: FORMAT, HEADER, DELIMITER, COMPRESSION, "
                                     "ROW_GROUP_SIZE, ROW_GROUPS_PER_FILE, PARTITION_BY, "
                                     "OVERWRITE_OR_IGNORE, APPEND, GEOPARQUET_VERSION)");
    }
  }
  if (options.format.empty()) {
    return Status::InvalidArgument("Binder Error: COPY TO '", copy.copy_path,
                                   "' needs a FORMAT (parquet, csv or json)");
  }
  if (options.row_groups_per_file > 0 && !options.partition_by.empty()) {
    return Status::NotSupported(
        "not yet supported: COPY ... ROW_GROUPS_PER_FILE together with PARTITION_BY");
  }
  if ((!options.partition_by.empty() || options.row_groups_per_file > 0) &&
      options.format != "parquet") {
    return Status::NotSupported("not yet supported: COPY ... ",
                                options.partition_by.empty() ? "ROW_GROUPS_PER_FILE"
                                                             : "PARTITION_BY",
                                " with FORMAT ", options.format, " (supported: parquet)");
  }
  if (options.format != "parquet" && options.format != "csv" && options.format != "json") {
    return Status::NotSupported("not yet supported: COPY format \"", options.format,
                                "\" (supported: parquet, csv, json)");
  }
  return options;
}

// GeoParquet v1: the top-level GEOMETRY columns of `schema` (their indices) become BLOBs and
// the "geo" key-value metadata names them (WKB, kinds and box left unstated: both optional).
struct GeoParquetLayout {
  Schema schema;
  std::vector<int> geometry_columns;
  std::vector<std::pair<std::string, std::string>> metadata;
};

GeoParquetLayout LayOutGeoParquet(const Schema& schema, const std::string& version) {
  GeoParquetLayout layout;
  std::vector<Field> fields = schema.fields;
  if (version == "V1" || version == "BOTH") {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].type.id == TypeId::kGeometry) {
        fields[i].type = DataType(TypeId::kBlob);
        layout.geometry_columns.push_back(static_cast<int>(i));
      }
    }
  }
  layout.schema = Schema(std::move(fields));
  if (layout.geometry_columns.empty()) return layout;
  std::string columns;
  for (int index : layout.geometry_columns) {
    std::string name;
    format::AppendJsonString(schema.field(index).name, &name);
    columns += StrCat(columns.empty() ? "" : ",", name,
                      ":{\"encoding\":\"WKB\",\"geometry_types\":[]}");
  }
  std::string primary;
  format::AppendJsonString(schema.field(layout.geometry_columns[0]).name, &primary);
  layout.metadata.emplace_back(
      "geo", StrCat("{\"version\":\"1.0.0\",\"primary_column\":", primary, ",\"columns\":{",
                    columns, "}}"));
  return layout;
}

// `batch` with the GEOMETRY columns of `layout` relabelled BLOB (the same buffers).
std::shared_ptr<Batch> AsGeoParquetBatch(const GeoParquetLayout& layout,
                                         std::shared_ptr<Batch> batch) {
  if (layout.geometry_columns.empty()) return batch;
  auto out = std::make_shared<Batch>(*batch);
  out->schema = std::make_shared<Schema>(layout.schema);
  for (int index : layout.geometry_columns) {
    auto column = std::make_shared<Column>(*out->columns[static_cast<size_t>(index)]);
    column->type = DataType(TypeId::kBlob);
    out->columns[static_cast<size_t>(index)] = std::move(column);
  }
  return out;
}

// The Parquet writer settings COPY's options ask for (COMPRESSION, ROW_GROUP_SIZE).
Result<std::shared_ptr<const WriterProperties>> CopyWriterProperties(const CopyOptions& options) {
  TARN_ASSIGN_OR_RETURN(parquet::CompressionCodec codec, parquet::ParseCodec(options.compression));
  return WriterProperties::Builder()
      .compression(static_cast<int>(codec))
      .max_row_group_rows(options.row_group_size)
      .Build();
}

Result<int64_t> CopyParquet(Operator* input, const std::string& path, const CopyOptions& options,
                            const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(auto properties, CopyWriterProperties(options));
  const GeoParquetLayout geo = LayOutGeoParquet(*input->schema(), options.geoparquet_version);
  TARN_ASSIGN_OR_RETURN(auto writer,
                        ParquetWriter::Open(context.fs, path, geo.schema, properties,
                                            geo.metadata));
  int64_t rows = 0;
  while (true) {
    Result<std::shared_ptr<Batch>> batch = input->Next();
    if (!batch.ok()) {
      writer->Abandon();
      return batch.status();
    }
    if (!*batch) break;
    Status status = writer->Write(*AsGeoParquetBatch(geo, *batch));
    if (!status.ok()) {
      writer->Abandon();
      return status;
    }
    rows += (*batch)->num_rows;
  }
  TARN_ASSIGN_OR_RETURN(WrittenFileInfo info, writer->Finish());
  (void)info;
  return rows;
}

// The name of the index-th file a COPY writes into a folder: data_<index>.parquet, or with
// APPEND a fresh UUID so that files already there stay.
std::string CopyFileName(const CopyOptions& options, int64_t index) {
  if (options.append) return table_internal::NewUuidV7() + ".parquet";
  return StrCat("data_", index, ".parquet");
}

// The folder a COPY writes several files into, without a trailing '/': created when missing
// (its parent must exist), and empty unless OVERWRITE_OR_IGNORE or APPEND.
Result<std::string> PrepareCopyDirectory(std::string path, const CopyOptions& options,
                                         const ExecContext& context) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  TARN_ASSIGN_OR_RETURN(bool exists, context.fs->Exists(path));
  if (exists) {
    TARN_ASSIGN_OR_RETURN(std::vector<FileInfo> entries, context.fs->List(path, false));
    if (!entries.empty() && !options.overwrite_or_ignore && !options.append) {
      return Status::IOError("IO Error: Directory \"", path,
                             "\" is not empty! Enable OVERWRITE option to overwrite files");
    }
  } else {
    const size_t slash = path.rfind('/');
    if (slash != std::string::npos && slash > 0) {
      TARN_ASSIGN_OR_RETURN(bool parent, context.fs->Exists(path.substr(0, slash)));
      if (!parent) {
        return Status::IOError("IO Error: Failed to create directory \"", path,
                               "\": No such file or directory");
      }
    }
    TARN_RETURN_NOT_OK(context.fs->CreateDirectories(path));
  }
  return path;
}

// COPY … TO 'dir' (FORMAT parquet, ROW_GROUPS_PER_FILE n): files data_0.parquet, data_1.parquet,
// … in `dir`, each holding at most n row groups of ROW_GROUP_SIZE rows, as DuckDB writes them.
Result<int64_t> CopyParquetFiles(Operator* input, std::string path, const CopyOptions& options,
                                 const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(path, PrepareCopyDirectory(std::move(path), options, context));
  TARN_ASSIGN_OR_RETURN(auto properties, CopyWriterProperties(options));
  const GeoParquetLayout geo = LayOutGeoParquet(*input->schema(), options.geoparquet_version);
  const int64_t rows_per_file = options.row_groups_per_file * options.row_group_size;
  std::unique_ptr<ParquetWriter> writer;
  int64_t files = 0;
  int64_t in_file = 0;  // rows in the open file
  int64_t rows = 0;
  auto abandon = [&](Status status) {
    if (writer) writer->Abandon();
    return status;
  };
  while (true) {
    Result<std::shared_ptr<Batch>> next = input->Next();
    if (!next.ok()) return abandon(next.status());
    if (!*next) break;
    std::shared_ptr<Batch> batch = AsGeoParquetBatch(geo, *next);
    int64_t offset = 0;
    while (offset < batch->num_rows) {
      if (!writer) {
        Result<std::unique_ptr<ParquetWriter>> opened =
            ParquetWriter::Open(context.fs, StrCat(path, "/", CopyFileName(options, files)),
                                geo.schema, properties, geo.metadata);
        if (!opened.ok()) return abandon(opened.status());
        writer = std::move(*opened);
        ++files;
        in_file = 0;
      }
      const int64_t take = std::min(batch->num_rows - offset, rows_per_file - in_file);
      Status written = offset == 0 && take == batch->num_rows
                           ? writer->Write(*batch)
                           : writer->Write(*SliceBatch(*batch, offset, take));
      if (!written.ok()) return abandon(written);
      offset += take;
      in_file += take;
      rows += take;
      if (in_file == rows_per_file) {
        Result<WrittenFileInfo> finished = writer->Finish();
        writer.reset();
        if (!finished.ok()) return finished.status();
      }
    }
  }
  if (writer) {
    Result<WrittenFileInfo> finished = writer->Finish();
    writer.reset();
    if (!finished.ok()) return finished.status();
  }
  return rows;
}

// One partition folder of a partitioned COPY and its open file.
struct CopyPartition {
  std::string directory;
  std::unique_ptr<ParquetWriter> writer;
};

// COPY … TO 'dir' (FORMAT parquet, PARTITION_BY (cols)): hive folders `col=value/…/` under
// `dir` (values escaped as DuckDB escapes them, NULL as __HIVE_DEFAULT_PARTITION__), one
// data_0.parquet per folder holding the other columns. `dir` is created when missing (its
// parent must exist) and must be empty unless OVERWRITE_OR_IGNORE.
Result<int64_t> CopyPartitionedParquet(Operator* input, std::string path,
                                       const CopyOptions& options, const ExecContext& context) {
  const Schema& schema = *input->schema();
  std::vector<int> keys;
  for (const std::string& name : options.partition_by) {
    int found = -1;
    for (int c = 0; c < schema.num_fields(); ++c) {
      if (LowerAscii(schema.field(c).name) == LowerAscii(name)) found = c;
    }
    if (found < 0) {
      return Status::InvalidArgument("Binder Error: \"partition_by\" expected to find ", name,
                                     ", but it was not found in the table");
    }
    keys.push_back(found);
  }
  std::vector<int> kept;
  std::vector<Field> kept_fields;
  for (int c = 0; c < schema.num_fields(); ++c) {
    if (std::find(keys.begin(), keys.end(), c) != keys.end()) continue;
    kept.push_back(c);
    kept_fields.push_back(schema.field(c));
  }
  if (kept.empty()) {
    return Status::NotSupported(
        "Not implemented Error: No column to write as all columns are specified as partition "
        "columns. WRITE_PARTITION_COLUMNS option can be used to write partition columns.");
  }
  auto file_schema = std::make_shared<Schema>(std::move(kept_fields));
  TARN_ASSIGN_OR_RETURN(path, PrepareCopyDirectory(std::move(path), options, context));
  TARN_ASSIGN_OR_RETURN(auto properties, CopyWriterProperties(options));
  std::map<std::string, CopyPartition> partitions;  // by folder
  auto abandon = [&](Status status) {
    for (auto& [folder, partition] : partitions) {
      if (partition.writer) partition.writer->Abandon();
    }
    return status;
  };
  int64_t rows = 0;
  while (true) {
    Result<std::shared_ptr<Batch>> next = input->Next();
    if (!next.ok()) return abandon(next.status());
    if (!*next) break;
    const Batch& batch = **next;
    if (batch.num_rows == 0) continue;
    // Rows by folder, in the order each folder first appears.
    std::map<std::string, std::vector<int64_t>> rows_of;
    std::vector<std::string> order;
    std::string folder;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      folder.clear();
      for (size_t k = 0; k < keys.size(); ++k) {
        Value value = batch.column(keys[k]).GetValue(row);
        folder += schema.field(keys[k]).name;
        folder.push_back('=');
        folder += value.is_null() ? "__HIVE_DEFAULT_PARTITION__"
                                  : table_internal::HiveEscape(FormatValue(value));
        folder.push_back('/');
      }
      auto [it, inserted] = rows_of.try_emplace(folder);
      if (inserted) order.push_back(folder);
      it->second.push_back(row);
    }
    for (const std::string& name : order) {
      CopyPartition& partition = partitions[name];
      if (!partition.writer) {
        partition.directory = path + "/" + name;
        Status made = context.fs->CreateDirectories(partition.directory);
        if (!made.ok()) return abandon(made);
        auto writer = ParquetWriter::Open(context.fs, partition.directory + CopyFileName(options, 0),
                                          *file_schema, properties);
        if (!writer.ok()) return abandon(writer.status());
        partition.writer = std::move(writer).value();
      }
      const std::vector<int64_t>& selected = rows_of[name];
      std::vector<std::shared_ptr<Column>> columns;
      for (int c : kept) {
        columns.push_back(static_cast<int64_t>(selected.size()) == batch.num_rows
                              ? batch.columns[static_cast<size_t>(c)]
                              : Take(batch.column(c), selected));
      }
      auto part = MakeBatch(file_schema, std::move(columns));
      part->num_rows = static_cast<int64_t>(selected.size());
      Status written = partition.writer->Write(*part);
      if (!written.ok()) return abandon(written);
    }
    rows += batch.num_rows;
  }
  for (auto& [name, partition] : partitions) {
    Result<WrittenFileInfo> finished = partition.writer->Finish();
    partition.writer.reset();
    if (!finished.ok()) return abandon(finished.status());
  }
  return rows;
}

Result<int64_t> CopyText(Operator* input, const std::string& path, const CopyOptions& options,
                         const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, context.fs->OpenForWrite(path));
  FileSink sink(file.get());
  CsvWriteOptions csv_options;
  csv_options.header = options.header;
  csv_options.delimiter = options.delimiter;
  CsvWriter csv(&sink, csv_options);
  JsonLinesWriter json(&sink);
  bool is_csv = options.format == "csv";
  if (is_csv) TARN_RETURN_NOT_OK(csv.Begin(*input->schema()));
  int64_t rows = 0;
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input->Next());
    if (!batch) break;
    TARN_RETURN_NOT_OK(is_csv ? csv.Write(*batch) : json.Write(*batch));
    rows += batch->num_rows;
  }
  TARN_RETURN_NOT_OK(file->Close());
  return rows;
}

// The input's batches under other column names.
class RenamedColumns : public Operator {
 public:
  RenamedColumns(Operator* input, std::shared_ptr<const Schema> schema)
      : input_(input), schema_(std::move(schema)) {}
  std::string label() const override { return ""; }
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
    if (!batch) return batch;
    auto out = std::make_shared<Batch>(*batch);
    out->schema = schema_;
    return out;
  }

 private:
  Operator* input_;
  std::shared_ptr<const Schema> schema_;
};

}  // namespace

Result<int64_t> ExecuteCopy(Operator* input, const Statement& copy, const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(CopyOptions options, ParseOptions(copy));
  std::shared_ptr<const Schema> names = DistinctColumnNames(input->schema());
  RenamedColumns renamed(input, names);
  if (names != input->schema()) input = &renamed;
  if (!options.partition_by.empty()) {
    return CopyPartitionedParquet(input, copy.copy_path, options, context);
  }
  if (options.row_groups_per_file > 0) {
    return CopyParquetFiles(input, copy.copy_path, options, context);
  }
  if (options.format == "parquet") return CopyParquet(input, copy.copy_path, options, context);
  return CopyText(input, copy.copy_path, options, context);
}

}  // namespace tarn::sql
