// SQL mode's pieces shared by the batch runner (sql_shell.cc: -c, -f, piped input) and the
// interactive shell (interactive.cc: a terminal on standard input).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn::cli {

// A TextSink on a stdio stream. A closed pipe ends output quietly: Append returns Cancelled.
class FileSink : public TextSink {
 public:
  explicit FileSink(std::FILE* file) : file_(file) {}
  Status Append(std::string_view text) override {
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
      return Status::Cancelled("output closed");
    }
    return Status::OK();
  }

 private:
  std::FILE* file_;
};

// How query results are shown.
struct PrintOptions {
  // table (= box), box, csv, json, markdown or line. Default: table.
  std::string format = "table";
  int64_t max_rows = 40;  // table/box: rows shown before the middle is elided. Default: 40
  int max_width = 120;    // table/box: terminal columns. Default: 120
};

// Whether `format` is one PrintOptions::format takes.
bool IsKnownFormat(std::string_view format);

// Prints a statement's result: a query's rows in options.format, nothing for a command.
Status PrintResult(QueryResult& result, const PrintOptions& options, TextSink* sink);

// What the interactive shell starts with.
struct InteractiveOptions {
  std::string lake;  // the LAKE argument, shown in .open's help; empty when none
  PrintOptions print;
};

// Runs the read-eval-print loop on the terminal of standard input until .quit or end of
// input (Ctrl-D). `session` may be replaced by .open. Returns the exit status.
int RunInteractive(std::unique_ptr<Session> session, InteractiveOptions options);

}  // namespace tarn::cli
