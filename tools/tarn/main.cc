// The `tarn` program: `tarn parquet meta|cat|write ...`, and SQL mode for anything else
// (`tarn [LAKE] [-c SQL]... [-f FILE] [--format ...]`, see sql_shell.cc).
#include <cstdio>
#include <cstring>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.h"

namespace tarn::cli {
int RunSqlShell(int argc, char** argv);
}  // namespace tarn::cli

int main(int argc, char** argv) {
  if (argc < 2 ||
      (std::strcmp(argv[1], "parquet") != 0 && std::strcmp(argv[1], "--version") != 0)) {
    return tarn::cli::RunSqlShell(argc, argv);
  }
  CLI::App app{"tarn — a DuckLake lakehouse engine", "tarn"};
  app.set_version_flag("--version", std::string("tarn ") + TARN_VERSION);
  app.require_subcommand(1);

  CLI::App* parquet = app.add_subcommand("parquet", "Inspect, read and write Parquet files");
  parquet->require_subcommand(1);

  tarn::cli::ParquetMetaArgs meta;
  CLI::App* meta_cmd = parquet->add_subcommand(
      "meta", "Schema, row groups, column chunks, encodings, codecs, statistics and sizes");
  meta_cmd->add_option("file", meta.file, "Parquet file")->required();
  meta_cmd->add_option("--format", meta.format, "table or json (one object per column chunk, "
                                                "named as DuckDB's parquet_metadata)")
      ->check(CLI::IsMember({"table", "json"}));

  tarn::cli::ParquetCatArgs cat;
  std::string columns;
  CLI::App* cat_cmd = parquet->add_subcommand("cat", "Print the rows of a Parquet file");
  cat_cmd->add_option("file", cat.file, "Parquet file")->required();
  cat_cmd->add_option("--columns", columns, "Comma-separated top-level columns to read");
  cat_cmd->add_option("--where", cat.where, "A SQL predicate, e.g. \"x > 3 AND s LIKE 'a%'\"");
  cat_cmd->add_flag("--with-position", cat.with_position,
                    "Add each row's physical position in the file (file_row_number)");
  cat_cmd->add_option("--format", cat.format, "csv, json or table")
      ->check(CLI::IsMember({"csv", "json", "table"}));
  cat_cmd->add_option("--limit", cat.limit, "Print at most N rows");

  tarn::cli::ParquetWriteArgs write;
  CLI::App* write_cmd =
      parquet->add_subcommand("write", "Transcode a Parquet or CSV file into a Parquet file");
  write_cmd->add_option("input", write.input, "Parquet or CSV file")->required();
  write_cmd->add_option("output", write.output, "Parquet file to write")->required();
  write_cmd->add_option("--compression", write.compression,
                        "uncompressed, snappy, gzip, zstd, brotli, lz4 (=lz4_raw), with :LEVEL");
  write_cmd->add_option("--row-group-rows", write.row_group_rows, "Rows per row group");
  write_cmd->add_option("--row-group-bytes", write.row_group_bytes, "Bytes per row group");
  write_cmd->add_option("--page-bytes", write.page_bytes, "Bytes per data page");
  write_cmd->add_option("--page-rows", write.page_rows, "Rows per data page");
  write_cmd->add_option("--dictionary-limit", write.dictionary_limit,
                        "Dictionary bytes before falling back to PLAIN");
  write_cmd->add_option("--page-version", write.page_version, "Data page version: 1 or 2")
      ->check(CLI::IsMember({1, 2}));
  write_cmd->add_option("--stats-truncate", write.stats_truncate,
                        "Truncate binary min/max statistics to N bytes");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  if (meta_cmd->parsed()) return tarn::cli::RunParquetMeta(meta);
  if (cat_cmd->parsed()) {
    size_t start = 0;
    while (start <= columns.size() && !columns.empty()) {
      size_t comma = columns.find(',', start);
      if (comma == std::string::npos) comma = columns.size();
      if (comma > start) cat.columns.push_back(columns.substr(start, comma - start));
      start = comma + 1;
    }
    return tarn::cli::RunParquetCat(cat);
  }
  if (write_cmd->parsed()) return tarn::cli::RunParquetWrite(write);
  return 1;
}
