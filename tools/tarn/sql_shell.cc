// The program's SQL mode:
//
//   tarn [LAKE] [--data-path DIR [--override-data-path]] [--read-only] [-c SQL]...
//        [-f FILE.sql] [--format table|box|csv|json|markdown|line]
//
// Runs each -c statement list in order, then the -f file; with neither, reads SQL from
// standard input, or, when standard input is a terminal, runs the interactive shell
// (interactive.cc). Results of queries (SELECT, EXPLAIN, DESCRIBE, SHOW) are printed in the
// chosen format (default: table); SET, COPY and write statements print nothing. LAKE, when
// given, is attached as catalog "lake" (Session::Attach). The first error is printed as
// "Error: <message>" on stderr and the exit status is 1.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "output.h"
#include "shell.h"
#include "tarn/catalog_locator.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn::cli {
namespace {

constexpr const char* kUsage =
    "Usage: tarn [LAKE] [--data-path DIR [--override-data-path]] [--read-only] [-c SQL]...\n"
    "            [-f FILE.sql] [--format table|box|csv|json|markdown|line]\n"
    "       tarn parquet meta|cat|write ...   (see tarn parquet --help)\n"
    "\n"
    "Runs SQL (DuckDB's dialect) over a DuckLake lake and over files: read_parquet('x/*.parquet'),\n"
    "read_csv('f.csv'), range(n). SQL comes from -c (repeatable), -f, or standard input.\n"
    "\n"
    "LAKE is ducklake:sqlite:PATH (or a bare PATH.sqlite) or ducklake:postgres:CONNINFO (a libpq\n"
    "connection string: 'dbname=d host=h user=u'), attached as catalog \"lake\":\n"
    "  SELECT rowid, * FROM t AT (VERSION => 3); SHOW TABLES; CALL ducklake_snapshots('lake');\n"
    "  --data-path DIR   the lake's data path; when the catalog does not exist yet, a new\n"
    "                    lake is created there with DIR as data path. On an existing lake DIR\n"
    "                    must be the catalog's data path, unless --override-data-path is given\n"
    "  --override-data-path\n"
    "                    the lake's files were moved to DIR: read and write them there\n"
    "  --read-only       refuse every write statement\n";

struct SqlArgs {
  std::string lake;
  std::string data_path;
  bool override_data_path = false;
  bool read_only = false;
  std::vector<std::string> scripts;  // -c texts and -f file contents, in order
  std::string format = "table";
  // No -c or -f, and standard input is a terminal: the interactive shell.
  bool interactive = false;
};

// Parses the arguments; returns -1 to go on, else an exit status.
int ParseArgs(int argc, char** argv, SqlArgs* args) {
  bool any_sql = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "-c") {
      std::string sql;
      if (!value(&sql)) return ReportError("-c needs a SQL argument");
      args->scripts.push_back(std::move(sql));
      any_sql = true;
    } else if (arg == "-f") {
      std::string path;
      if (!value(&path)) return ReportError("-f needs a file argument");
      auto text = LocalFileSystem()->ReadFile(path);
      if (!text.ok()) return ReportError(text.status().message());
      args->scripts.push_back(std::move(text).value());
      any_sql = true;
    } else if (arg == "--format") {
      if (!value(&args->format)) return ReportError("--format needs a value");
      if (!IsKnownFormat(args->format)) {
        return ReportError("--format must be one of table, box, csv, json, markdown, line; not \"" +
                           args->format + "\"");
      }
    } else if (arg == "--data-path") {
      if (!value(&args->data_path)) return ReportError("--data-path needs a directory");
    } else if (arg == "--override-data-path") {
      args->override_data_path = true;
    } else if (arg == "--read-only") {
      args->read_only = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::fputs(kUsage, stderr);
      return ReportError("unknown option \"" + arg + "\"");
    } else if (args->lake.empty()) {
      args->lake = arg;
    } else {
      return ReportError("unexpected argument \"" + arg + "\" (only one LAKE may be given)");
    }
  }
  if (args->lake.empty() && (!args->data_path.empty() || args->read_only)) {
    return ReportError("--data-path and --read-only need a LAKE argument");
  }
  if (args->override_data_path && args->data_path.empty()) {
    return ReportError("--override-data-path needs --data-path DIR");
  }
  if (!any_sql && isatty(STDIN_FILENO)) {
    args->interactive = true;
  } else if (!any_sql) {
    args->scripts.emplace_back(std::istreambuf_iterator<char>(std::cin),
                               std::istreambuf_iterator<char>());
  }
  return -1;
}

}  // namespace

int RunSqlShell(int argc, char** argv) {
  SqlArgs args;
  int exit_status = ParseArgs(argc, argv, &args);
  if (exit_status >= 0) return exit_status;
  auto session = std::make_unique<Session>();
  if (!args.lake.empty()) {
    AttachOptions options;
    if (args.data_path.find("://") != std::string::npos) {
      options.data_path = args.data_path;  // object storage (s3://…): taken as written
    } else if (!args.data_path.empty()) {
      std::error_code error;
      std::filesystem::path absolute = std::filesystem::absolute(args.data_path, error);
      options.data_path = error ? args.data_path : absolute.lexically_normal().string();
    }
    options.override_data_path = args.override_data_path;
    options.read_only = args.read_only;
    options.create_if_missing = true;
    Status attached = session->Attach(args.lake, options);
    if (!attached.ok()) {
      std::string message =
          "cannot attach the lake \"" + RedactLocator(args.lake) + "\": " + attached.message();
      if (attached.code() == StatusCode::kInvalidArgument &&
          attached.message().find("does not match existing data path") != std::string::npos) {
        message += " (tarn --override-data-path)";
      }
      return ReportError(message);
    }
  }
  PrintOptions print;
  print.format = args.format;
  if (args.interactive) {
    InteractiveOptions options;
    options.lake = args.lake;
    options.print = print;
    return RunInteractive(std::move(session), std::move(options));
  }
  StdoutSink sink;
  for (const std::string& script : args.scripts) {
    Status status = session->ExecuteScript(
        script, [&](QueryResult& result) { return PrintResult(result, print, &sink); });
    if (status.IsCancelled()) return 0;  // standard output closed
    if (!status.ok()) return ReportError(status.message());
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace tarn::cli
