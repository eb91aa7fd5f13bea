// CsvReader: RFC 4180 text into batches, with DuckDB-like type sniffing for simple files.
#include <algorithm>
#include <map>

#include "format/text_parse.h"
#include "tarn/format.h"

namespace tarn {
namespace {

struct CsvField {
  std::string text;
  bool quoted = false;
};

struct Record {
  std::vector<CsvField> fields;
  int64_t line = 0;  // 1-based line where the record starts
};

// Splits the whole text into records. Quoted fields may hold delimiters, quotes (doubled) and
// line breaks; "\r\n" and "\n" both end a record; a blank line is skipped.
Status SplitRecords(std::string_view text, const std::string& name, const CsvReadOptions& options,
                    std::vector<Record>* records) {
  size_t pos = 0;
  int64_t line = 1;
  while (pos < text.size()) {
    Record record;
    record.line = line;
    if (text[pos] == '\n' || (text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n')) {
      pos += text[pos] == '\r' ? 2 : 1;  // a blank line
      ++line;
      continue;
    }
    while (true) {
      CsvField field;
      if (pos < text.size() && text[pos] == options.quote) {
        field.quoted = true;
        const int64_t start_line = line;
        ++pos;
        while (true) {
          if (pos >= text.size()) {
            return Status::Corruption(name, ": line ", start_line, ", column ",
                                      record.fields.size() + 1,
                                      ": quoted field is not closed before the end of the file");
          }
          const char c = text[pos++];
          if (c == options.quote) {
            if (pos < text.size() && text[pos] == options.quote) {
              field.text.push_back(c);
              ++pos;
              continue;
            }
            break;
          }
          if (c == '\n') ++line;
          field.text.push_back(c);
        }
        if (pos < text.size() && text[pos] != options.delimiter && text[pos] != '\n' &&
            text[pos] != '\r') {
          return Status::Corruption(name, ": line ", line, ", column ", record.fields.size() + 1,
                                    ": unexpected character after a closing quote");
        }
      } else {
        const size_t start = pos;
        while (pos < text.size() && text[pos] != options.delimiter && text[pos] != '\n' &&
               text[pos] != '\r') {
          ++pos;
        }
        field.text.assign(text.substr(start, pos - start));
      }
      record.fields.push_back(std::move(field));
      if (pos < text.size() && text[pos] == options.delimiter) {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '\r') ++pos;
      if (pos < text.size() && text[pos] == '\n') {
        ++pos;
        ++line;
      }
      break;
    }
    records->push_back(std::move(record));
  }
  return Status::OK();
}

// The most specific type every non-NULL value of the column parses as.
DataType SniffType(const std::vector<Record>& records, size_t first, size_t column,
                   const std::string& null_text) {
  bool all_int = true, all_double = true, all_bool = true, all_date = true, all_ts = true;
  bool any_value = false;
  for (size_t r = first; r < records.size(); ++r) {
    const CsvField& field = records[r].fields[column];
    if (!field.quoted && field.text == null_text) continue;
    any_value = true;
    int64_t i64;
    double f64;
    bool b;
    int32_t days;
    int64_t micros;
    all_int = all_int && format::ParseInt64(field.text, &i64);
    all_double = all_double && format::ParseDouble(field.text, &f64);
    all_bool = all_bool && format::ParseBoolean(field.text, &b);
    all_date = all_date && format::ParseDate(field.text, &days);
    all_ts = all_ts && format::ParseTimestampMicros(field.text, /*allow_date_only=*/false, &micros);
    if (!(all_int || all_double || all_bool || all_date || all_ts)) break;
  }
  if (!any_value) return DataType(TypeId::kVarchar);
  if (all_int) return DataType(TypeId::kInt64);
  if (all_double) return DataType(TypeId::kFloat64);
  if (all_bool) return DataType(TypeId::kBoolean);
  if (all_date) return DataType(TypeId::kDate);
  if (all_ts) return DataType(TypeId::kTimestamp);
  return DataType(TypeId::kVarchar);
}

}  // namespace

struct CsvReader::Impl {
  std::string name;
  CsvReadOptions options;
  std::vector<Record> records;
  size_t next = 0;  // next record to read
  std::shared_ptr<const Schema> schema;

  Status Init(std::string_view text) {
    TARN_RETURN_NOT_OK(SplitRecords(text, name, options, &records));
    size_t num_columns = 0;
    if (options.schema.has_value()) {
      num_columns = static_cast<size_t>(options.schema->num_fields());
    } else if (!records.empty()) {
      num_columns = records[0].fields.size();
    } else {
      return Status::InvalidArgument(name, ": empty CSV file and no schema given");
    }
    for (const Record& record : records) {
      if (record.fields.size() != num_columns) {
        return Status::Corruption(name, ": line ", record.line, ": expected ", num_columns,
                                  " fields, found ", record.fields.size());
      }
    }
    std::vector<std::string> names;
    if (options.header && !records.empty()) {
      next = 1;
      std::map<std::string, int> seen;
      for (size_t c = 0; c < num_columns; ++c) {
        std::string column_name = records[0].fields[c].text;
        if (column_name.empty()) column_name = StrCat("column", c);
        // Repeated names get a suffix, as DuckDB does: a, a_1, a_2.
        const int count = seen[column_name]++;
        names.push_back(count == 0 ? column_name : StrCat(column_name, "_", count));
      }
    } else {
      for (size_t c = 0; c < num_columns; ++c) names.push_back(StrCat("column", c));
    }
    if (options.schema.has_value()) {
      schema = std::make_shared<const Schema>(*options.schema);
      return Status::OK();
    }
    std::vector<tarn::Field> fields;
    for (size_t c = 0; c < num_columns; ++c) {
      fields.emplace_back(names[c], SniffType(records, next, c, options.null_text));
    }
    schema = std::make_shared<const Schema>(std::move(fields));
    return Status::OK();
  }

  Result<std::shared_ptr<Batch>> Next() {
    if (next >= records.size()) return std::shared_ptr<Batch>();
    const size_t end = std::min(records.size(), next + static_cast<size_t>(std::max<int64_t>(1, options.batch_rows)));
    std::vector<std::shared_ptr<Column>> columns;
    for (int c = 0; c < schema->num_fields(); ++c) {
      const DataType& type = schema->field(c).type;
      ColumnBuilder builder(type);
      builder.Reserve(static_cast<int64_t>(end - next));
      for (size_t r = next; r < end; ++r) {
        const CsvField& field = records[r].fields[static_cast<size_t>(c)];
        if (!field.quoted && field.text == options.null_text) {
          builder.AppendNull();
          continue;
        }
        Status status = format::AppendParsed(field.text, type, &builder);
        if (!status.ok()) {
          return Status(status.code(), StrCat(name, ": line ", records[r].line, ", column '",
                                              schema->field(c).name, "': ", status.message()));
        }
      }
      columns.push_back(builder.Finish());
    }
    // Release the text of consumed records.
    for (size_t r = next; r < end; ++r) records[r].fields.clear();
    next = end;
    return MakeBatch(schema, std::move(columns));
  }
};

CsvReader::CsvReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CsvReader::~CsvReader() = default;

Result<std::unique_ptr<CsvReader>> CsvReader::Open(std::shared_ptr<FileSystem> fs,
                                                   const std::string& path,
                                                   CsvReadOptions options) {
  TARN_ASSIGN_OR_RETURN(std::string text, fs->ReadFile(path));
  return FromString(std::move(text), path, std::move(options));
}

Result<std::unique_ptr<CsvReader>> CsvReader::FromString(std::string text, std::string name,
                                                         CsvReadOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->name = std::move(name);
  impl->options = std::move(options);
  TARN_RETURN_NOT_OK(impl->Init(text));
  return std::unique_ptr<CsvReader>(new CsvReader(std::move(impl)));
}

std::shared_ptr<const Schema> CsvReader::schema() const { return impl_->schema; }

Result<std::shared_ptr<Batch>> CsvReader::Next() { return impl_->Next(); }

}  // namespace tarn
