// CsvWriter: rows as DuckDB's COPY ... TO 'f.csv' (HEADER) writes them.
#include <cctype>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/value_text_internal.h"
#include "tarn/format.h"

namespace tarn {

namespace {
// Flush the text buffer to the sink once it holds this much.
constexpr size_t kFlushBytes = 1 << 20;
}  // namespace

CsvWriter::CsvWriter(TextSink* sink, CsvWriteOptions options)
    : sink_(sink), options_(std::move(options)) {}

void CsvWriter::AppendField(std::string_view text, std::string* out) const {
  bool quote = text.empty() || text == options_.null_text;
  for (size_t i = 0; i < text.size() && !quote; ++i) {
    const char c = text[i];
    quote = c == options_.delimiter || c == options_.quote || c == '\n' || c == '\r' || c == '#';
  }
  if (!quote) {
    out->append(text);
    return;
  }
  out->push_back(options_.quote);
  for (char c : text) {
    if (c == options_.quote) out->push_back(options_.quote);
    out->push_back(c);
  }
  out->push_back(options_.quote);
}

std::shared_ptr<const Schema> DistinctColumnNames(const std::shared_ptr<const Schema>& schema) {
  auto lower = [](std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  };
  std::unordered_map<std::string, int64_t> next;  // lower-case name -> its next suffix
  std::vector<Field> fields = schema->fields;
  bool renamed = false;
  for (Field& field : fields) {
    const std::string key = lower(field.name);
    auto found = next.find(key);
    if (found == next.end()) {
      next[key] = 1;
      continue;
    }
    int64_t suffix = found->second;
    std::string name = field.name + "_" + std::to_string(suffix);
    while (next.count(lower(name)) > 0) name = field.name + "_" + std::to_string(++suffix);
    next[key] = suffix + 1;
    next[lower(name)] = 1;
    field.name = std::move(name);
    renamed = true;
  }
  return renamed ? std::make_shared<const Schema>(std::move(fields)) : schema;
}

Status CsvWriter::Begin(const Schema& schema) {
  if (begun_) return Status::OK();
  begun_ = true;
  if (!options_.header) return Status::OK();
  std::string line;
  const auto names = DistinctColumnNames(std::make_shared<const Schema>(schema));
  for (int column_idx = 0; column_idx < names->num_fields(); ++column_idx) {
    if (column_idx > 0) line.push_back(options_.delimiter);
    AppendField(names->field(column_idx).name, &line);
  }
  line.push_back('\n');
  return sink_->Append(line);
}

Status CsvWriter::Write(const Batch& batch) {
  if (!begun_) {
    if (batch.schema == nullptr) return Status::InvalidArgument("CsvWriter: batch without schema");
    TARN_RETURN_NOT_OK(Begin(*batch.schema));
  }
  buffer_.clear();
  std::string cell;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    for (int column_idx = 0; column_idx < batch.num_columns(); ++column_idx) {
      if (column_idx > 0) buffer_.push_back(options_.delimiter);
      const Column& column = batch.column(column_idx);
      if (column.IsNull(row)) {
        buffer_.append(options_.null_text);
        continue;
      }
      cell.clear();
      format::AppendNonNullText(column, row, &cell);
      AppendField(cell, &buffer_);
    }
    buffer_.push_back('\n');
    if (buffer_.size() >= kFlushBytes) {
      TARN_RETURN_NOT_OK(sink_->Append(buffer_));
      buffer_.clear();
    }
  }
  rows_written_ += batch.num_rows;
  if (!buffer_.empty()) TARN_RETURN_NOT_OK(sink_->Append(buffer_));
  buffer_.clear();
  return Status::OK();
}

Status WriteCsv(BatchReader* reader, TextSink* sink, const CsvWriteOptions& options) {
  CsvWriter writer(sink, options);
  TARN_RETURN_NOT_OK(writer.Begin(*reader->schema()));
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader->Next());
    if (batch == nullptr) return Status::OK();
    TARN_RETURN_NOT_OK(writer.Write(*batch));
  }
}

}  // namespace tarn
