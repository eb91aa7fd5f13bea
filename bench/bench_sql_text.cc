// The SQL front end on large texts: lexing and parsing throughput (MB/s) on scripts of simple
// statements of growing size, which must stay flat (linear time), and one large
// INSERT ... VALUES statement.
//
// Usage: bench_sql_text [max_mb=100] [rounds=3]
// Scripts of 1, 10 and 100 MB (up to max_mb) of
//   INSERT INTO t VALUES (<i>, 'name <i>', <i>.25);
//   SELECT a, b FROM t WHERE a = <i> AND b LIKE 'n%';
// are tokenized (Tokenize) and parsed into statement trees (ParseStatements, which lexes
// too); each row reports the best of `rounds`. Times are the thread's CPU time (the work is
// single-threaded), so a busy machine does not distort them.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "expr/parse/lexer.h"
#include "sql/parse/statement_parser.h"

namespace tarn {
namespace {

double Now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string Script(size_t bytes) {
  std::string script;
  script.reserve(bytes + 128);
  for (int64_t i = 0; script.size() < bytes; ++i) {
    const std::string n = std::to_string(i);
    script += "INSERT INTO t VALUES (" + n + ", 'name " + n + "', " + n + ".25);\n";
    script += "SELECT a, b FROM t WHERE a = " + n + " AND b LIKE 'n%';\n";
  }
  return script;
}

std::string InsertValues(int rows) {
  std::string sql = "INSERT INTO t VALUES ";
  for (int row = 0; row < rows; ++row) {
    if (row > 0) sql += ",";
    sql += "(" + std::to_string(row) + ",'v" + std::to_string(row % 1000) + "')";
  }
  return sql;
}

template <typename Work>
double Best(int rounds, Work work) {
  double best = 1e300;
  for (int round = 0; round < rounds; ++round) {
    const double start = Now();
    if (!work()) return -1;
    best = std::min(best, Now() - start);
  }
  return best;
}

int Run(int max_mb, int rounds) {
  std::printf("%-28s %10s %10s %12s %10s\n", "input", "MB", "cpu s", "MB/s", "items");
  auto report = [](const char* what, size_t bytes, double seconds, size_t items) {
    const double mb = static_cast<double>(bytes) / 1e6;
    std::printf("%-28s %10.1f %10.3f %12.1f %10zu\n", what, mb, seconds, mb / seconds, items);
  };
  for (int mb : {1, 10, 100}) {
    if (mb > max_mb) break;
    const std::string script = Script(static_cast<size_t>(mb) << 20);
    size_t tokens = 0;
    const double lex = Best(rounds, [&] {
      auto result = sql::Tokenize(script);
      if (!result.ok()) {
        std::fprintf(stderr, "%s\n", result.status().ToString().c_str());
        return false;
      }
      tokens = result->size();
      return true;
    });
    if (lex < 0) return 1;
    report(("lex " + std::to_string(mb) + " MB script").c_str(), script.size(), lex, tokens);
    size_t statements = 0;
    const double parse = Best(rounds, [&] {
      auto result = sql::ParseStatements(script);
      if (!result.ok()) {
        std::fprintf(stderr, "%s\n", result.status().ToString().c_str());
        return false;
      }
      statements = result->size();
      return true;
    });
    if (parse < 0) return 1;
    report(("lex+parse " + std::to_string(mb) + " MB script").c_str(), script.size(), parse,
           statements);
  }
  const std::string insert = InsertValues(200000);
  size_t rows = 0;
  const double parse_insert = Best(rounds, [&] {
    auto result = sql::ParseStatements(insert);
    if (!result.ok() || result->size() != 1) return false;
    rows = (*result)[0]->write->values.size();
    return true;
  });
  if (parse_insert < 0) return 1;
  report("lex+parse INSERT 200k rows", insert.size(), parse_insert, rows);
  return 0;
}

}  // namespace
}  // namespace tarn

int main(int argc, char** argv) {
  const int max_mb = argc > 1 ? std::atoi(argv[1]) : 100;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  return tarn::Run(max_mb, rounds);
}
