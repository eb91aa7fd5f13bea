// Text formats: values as text, CSV and JSON-lines output, tables for a terminal, CSV input.
//
// Value text follows DuckDB exactly: AppendValueText gives, for every type, the string
// DuckDB produces when it casts the value to VARCHAR, which is also what its
// `COPY ... TO 'f.csv' (HEADER)` writes before CSV quoting. CsvWriter writes the same bytes as
// that COPY statement; JsonLinesWriter the same as `COPY ... TO 'f.json' (FORMAT JSON)`.
// docs/formats/text-output.md lists the rules with examples.
//
// Writers stream: they format one batch at a time into a TextSink and keep no rows.
// TableRenderer keeps only the rows it may show (the first and last max_rows / 2).
//
// Thread-safety: the free functions are pure. Writer, renderer and reader objects are used by
// one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn {

// ---- Values as text ----------------------------------------------------------------------

// Appends DuckDB's VARCHAR text of the value at `row`: "NULL" for a NULL; nested values as
// "{'a': 1, 'b': NULL}", "[1, 2, NULL]", "{k=v}" with DuckDB's quoting of nested strings.
// REQUIRES: 0 <= row < column.length.
void AppendValueText(const Column& column, int64_t row, std::string* out);
std::string ValueText(const Column& column, int64_t row);
// The same for a Value ("NULL" for a NULL of any type).
std::string FormatValue(const Value& value);
// Shortest round-trip spellings as DuckDB prints them: "0.1", "1e+20", "1.5e-07", "-0.0",
// "nan", "-inf".
std::string FormatDouble(double value);
std::string FormatFloat(float value);

// ---- Sinks -------------------------------------------------------------------------------

// Where writers put their text. Append may be called with pieces of any size.
class TextSink {
 public:
  virtual ~TextSink() = default;
  virtual Status Append(std::string_view text) = 0;
};

// Appends to a string the caller owns (and must keep alive while the sink is used).
class StringSink : public TextSink {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  Status Append(std::string_view text) override {
    out_->append(text);
    return Status::OK();
  }

 private:
  std::string* out_;
};

// Appends to a WritableFile the caller owns; the caller closes it.
class FileSink : public TextSink {
 public:
  explicit FileSink(WritableFile* file) : file_(file) {}
  Status Append(std::string_view text) override { return file_->Append(text); }

 private:
  WritableFile* file_;
};

// ---- CSV output --------------------------------------------------------------------------

struct CsvWriteOptions {
  char delimiter = ',';    // Default: ','
  char quote = '"';        // Default: '"' (a quote inside a quoted field is doubled)
  bool header = true;      // Default: a header row of column names
  std::string null_text;   // Default: "" (an empty string value is then written as "")
};

// The column names a file written from `schema` carries: repeated names told apart as
// DuckDB's COPY does, ignoring case — the second `k` becomes k_1, the next k_2, a name already
// taken skipped (k, k_1, k -> k, k_1, k_2). `schema` itself when no name repeats.
std::shared_ptr<const Schema> DistinctColumnNames(const std::shared_ptr<const Schema>& schema);

// Writes rows as DuckDB's COPY ... TO (HEADER) does: fields separated by `delimiter`, "\n"
// after every row, NULL as `null_text`. A field is quoted when it is empty (or equals
// null_text), or contains the delimiter, the quote, '\n', '\r' or '#'.
class CsvWriter {
 public:
  CsvWriter(TextSink* sink, CsvWriteOptions options = {});

  // Writes the header (once, before the first rows) when options.header is set. Called by
  // the first Write when not called explicitly.
  Status Begin(const Schema& schema);
  Status Write(const Batch& batch);
  int64_t rows_written() const { return rows_written_; }

 private:
  void AppendField(std::string_view text, std::string* out) const;

  TextSink* sink_;
  CsvWriteOptions options_;
  bool begun_ = false;
  int64_t rows_written_ = 0;
  std::string buffer_;  // reused between batches
};

// Streams every batch of `reader` into `sink` as CSV.
Status WriteCsv(BatchReader* reader, TextSink* sink, const CsvWriteOptions& options = {});

// ---- JSON lines --------------------------------------------------------------------------

// Appends the JSON text of the value at `row` as DuckDB's JSON writer spells it: integers and
// floats as numbers (NaN, Infinity, -Infinity as bare words), DECIMAL with precision <= 9 as a
// number and wider ones as their decimal text, booleans, null, strings escaped, temporal,
// UUID, INTERVAL and BLOB values as strings of their VARCHAR text, JSON values re-serialized
// without insignificant whitespace, structs and maps as objects (map keys as their text),
// lists as arrays.
void AppendJsonValue(const Column& column, int64_t row, std::string* out);

// One JSON object per row, {"column":value,...}, each followed by "\n".
class JsonLinesWriter {
 public:
  explicit JsonLinesWriter(TextSink* sink) : sink_(sink) {}
  Status Write(const Batch& batch);
  int64_t rows_written() const { return rows_written_; }

 private:
  TextSink* sink_;
  int64_t rows_written_ = 0;
  std::string buffer_;
};

Status WriteJsonLines(BatchReader* reader, TextSink* sink);

// ---- Tables for a terminal ---------------------------------------------------------------

enum class TableMode {
  kBox,       // DuckDB shell's default: box-drawing borders, names and types in the header
  kPlainBox,  // DuckDB's `.mode box`: box-drawing borders and names only, every row and
              // column in full, no footer
  kMarkdown,  // | a | b |, a |---| rule, numbers right-aligned (---:)
  kLine,      // one "name = value" line per column, a blank line between rows
};

struct TableRenderOptions {
  TableMode mode = TableMode::kBox;  // Default: box
  // Total width in terminal columns the box may take; middle columns give way to a "…"
  // column when it does not fit. Default: 120.
  int max_width = 120;
  // Rows shown; beyond it the first and last max_rows / 2 are shown with a "·" gap between
  // them. Default: 40. (kPlainBox, kMarkdown and kLine show every row.)
  int64_t max_rows = 40;
  // Longest text of a single cell before it is cut with "…". Default: 50.
  int max_cell_width = 50;
  bool show_types = true;   // Default: a second header line with each column's type
  std::string null_text = "NULL";
};

// Collects batches and renders them. Keeps at most max_rows rows of text.
class TableRenderer {
 public:
  TableRenderer(std::shared_ptr<const Schema> schema, TableRenderOptions options = {});
  ~TableRenderer();
  TableRenderer(const TableRenderer&) = delete;
  TableRenderer& operator=(const TableRenderer&) = delete;

  void Add(const Batch& batch);
  // The rendered table, ending in "\n".
  std::string Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::string RenderTable(const Schema& schema, const std::vector<std::shared_ptr<Batch>>& batches,
                        const TableRenderOptions& options = {});

// The type name DuckDB's shell shows under a column name: "int32", "int64", "varchar",
// "decimal(18,3)", "timestamp with time zone", "integer[]".
std::string ShellTypeName(const DataType& type);

// ---- CSV input ---------------------------------------------------------------------------

struct CsvReadOptions {
  char delimiter = ',';  // Default: ','
  char quote = '"';      // Default: '"' (doubled inside a quoted field)
  bool header = true;    // Default: the first record names the columns
  // Column types. Absent: sniffed from the data (see CsvReader). With a header, the schema's
  // names replace the header's; its field count must match the file's.
  std::optional<Schema> schema;
  // Unquoted fields equal to this are NULL. Default: "" (an empty unquoted field).
  std::string null_text;
  int64_t batch_rows = 122880;  // Default: 122,880 rows per batch
};

// Reads an RFC 4180 file into batches. Without an explicit schema each column gets the most
// specific type every non-NULL value parses as, in this order: BOOLEAN (true/false, any case),
// BIGINT, DOUBLE, DATE (YYYY-MM-DD), TIMESTAMP (YYYY-MM-DD[ T]HH:MM:SS[.ffffff]), else
// VARCHAR; an all-NULL column is VARCHAR. Header names that are empty become "column<i>".
// Errors (Corruption for malformed records, InvalidArgument for values that do not fit an
// explicit type) name the file, the 1-based line and the column.
class CsvReader : public BatchReader {
 public:
  static Result<std::unique_ptr<CsvReader>> Open(std::shared_ptr<FileSystem> fs,
                                                 const std::string& path,
                                                 CsvReadOptions options = {});
  // Reads `text`, naming it `name` in errors.
  static Result<std::unique_ptr<CsvReader>> FromString(std::string text, std::string name,
                                                       CsvReadOptions options = {});
  ~CsvReader() override;

  std::shared_ptr<const Schema> schema() const override;
  Result<std::shared_ptr<Batch>> Next() override;

 private:
  struct Impl;
  explicit CsvReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tarn
