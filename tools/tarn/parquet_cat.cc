// `tarn parquet cat FILE [--columns a,b] [--where PREDICATE] [--with-position]
//                        [--format csv|json|table] [--limit N]`
//
// The predicate prunes row groups on their statistics and then filters rows; columns it reads
// but the output does not show are read and dropped.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "output.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/parquet.h"

namespace tarn::cli {
namespace {

// Writes batches in the chosen format, up to a row limit.
class RowPrinter {
 public:
  RowPrinter(const std::string& format, std::shared_ptr<const Schema> schema)
      : format_(format), schema_(std::move(schema)), csv_(&sink_), json_(&sink_) {
    if (format_ == "table") table_ = std::make_unique<TableRenderer>(schema_);
  }

  Status Begin() {
    if (format_ == "csv") return csv_.Begin(*schema_);
    return Status::OK();
  }
  Status Write(const Batch& batch) {
    if (format_ == "csv") return csv_.Write(batch);
    if (format_ == "json") return json_.Write(batch);
    table_->Add(batch);
    return Status::OK();
  }
  Status Finish() {
    if (table_) return sink_.Append(table_->Finish());
    return Status::OK();
  }

 private:
  std::string format_;
  std::shared_ptr<const Schema> schema_;
  StdoutSink sink_;
  CsvWriter csv_;
  JsonLinesWriter json_;
  std::unique_ptr<TableRenderer> table_;
};

Status Cat(const ParquetCatArgs& args) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(LocalFileSystem(), args.file));
  const Schema& file_schema = reader->schema();

  // The output columns, by name as the file spells them.
  std::vector<std::string> output_columns;
  if (args.columns.empty()) {
    for (const Field& field : file_schema.fields) output_columns.push_back(field.name);
  } else {
    for (const std::string& name : args.columns) {
      int index = file_schema.FindField(name);
      if (index < 0) {
        return Status::NotFound("column \"", name, "\" not found in ", args.file);
      }
      output_columns.push_back(file_schema.field(index).name);
    }
  }

  ScanOptions options;
  options.with_position = args.with_position;
  std::unique_ptr<BoundExpr> predicate;
  std::shared_ptr<const Schema> scan_schema;
  if (!args.where.empty()) {
    // Bind against every column (plus the position) to learn what the predicate reads.
    Schema bindable = file_schema;
    if (args.with_position) {
      bindable.fields.emplace_back(options.position_column_name, DataType(TypeId::kInt64), false);
    }
    TARN_ASSIGN_OR_RETURN(auto probe, ParseAndBind(args.where, bindable));
    std::vector<bool> needed(file_schema.fields.size(), false);
    for (int index : probe->ReferencedColumns()) {
      if (index < file_schema.num_fields()) needed[index] = true;
    }
    for (const std::string& name : output_columns) needed[file_schema.FindField(name)] = true;
    for (size_t i = 0; i < needed.size(); ++i) {
      if (needed[i]) options.columns.push_back(file_schema.fields[i].name);
    }
    Schema scanned;
    for (const std::string& name : options.columns) {
      scanned.fields.push_back(file_schema.field(file_schema.FindField(name)));
    }
    if (args.with_position) {
      scanned.fields.emplace_back(options.position_column_name, DataType(TypeId::kInt64), false);
    }
    TARN_ASSIGN_OR_RETURN(predicate, ParseAndBind(args.where, scanned));
    if (predicate->type().id != TypeId::kBoolean) {
      return Status::InvalidArgument("--where must be a boolean predicate, but \"", args.where,
                                     "\" is ", predicate->type().ToString());
    }
    options.predicate = MakeStatisticsPredicate(*predicate, scanned);
  } else {
    options.columns = output_columns;
  }

  TARN_ASSIGN_OR_RETURN(auto scan, reader->Scan(options));
  // Which scanned columns are shown, in output order.
  std::shared_ptr<const Schema> scanned_schema = scan->schema();
  std::vector<int> shown;
  for (const std::string& name : output_columns) shown.push_back(scanned_schema->FindField(name));
  if (args.with_position) shown.push_back(scanned_schema->num_fields() - 1);
  auto output_schema = std::make_shared<Schema>();
  for (int index : shown) output_schema->fields.push_back(scanned_schema->field(index));

  RowPrinter printer(args.format, output_schema);
  TARN_RETURN_NOT_OK(printer.Begin());
  int64_t remaining = args.limit < 0 ? INT64_MAX : args.limit;
  while (remaining > 0) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, scan->Next());
    if (!batch) break;
    if (predicate) {
      TARN_ASSIGN_OR_RETURN(batch, FilterBatch(*batch, *predicate));
    }
    if (batch->num_rows == 0) continue;
    if (batch->num_rows > remaining) batch = SliceBatch(*batch, 0, remaining);
    std::vector<std::shared_ptr<Column>> columns;
    for (int index : shown) columns.push_back(batch->columns[index]);
    auto out = MakeBatch(output_schema, std::move(columns));
    TARN_RETURN_NOT_OK(printer.Write(*out));
    remaining -= out->num_rows;
  }
  return printer.Finish();
}

}  // namespace

int RunParquetCat(const ParquetCatArgs& args) {
  Status status = Cat(args);
  if (status.ok() || status.IsCancelled()) return 0;
  return ReportError(status.message());
}

}  // namespace tarn::cli
