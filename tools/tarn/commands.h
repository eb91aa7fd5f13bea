// The subcommands of the `tarn` program. Each returns the process exit status; errors are
// printed to stderr by the command itself.
#pragma once

#include <string>
#include <vector>

namespace tarn::cli {

struct ParquetMetaArgs {
  std::string file;
  std::string format = "table";  // table | json
};

struct ParquetCatArgs {
  std::string file;
  std::vector<std::string> columns;
  std::string where;
  bool with_position = false;
  std::string format = "csv";  // csv | json | table
  long long limit = -1;
};

struct ParquetWriteArgs {
  std::string input;
  std::string output;
  std::string compression = "snappy";
  long long row_group_rows = 122880;
  long long row_group_bytes = 128LL << 20;
  long long page_bytes = 1 << 20;
  long long page_rows = 20000;
  long long dictionary_limit = 1 << 20;
  int page_version = 1;
  long long stats_truncate = 64;
};

int RunParquetMeta(const ParquetMetaArgs& args);
int RunParquetCat(const ParquetCatArgs& args);
int RunParquetWrite(const ParquetWriteArgs& args);

// Prints "Error: <message>" to stderr and returns 1.
int ReportError(const std::string& message);

}  // namespace tarn::cli
