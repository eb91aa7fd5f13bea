// The sort-key picker against the exhaustive best, on one table (bench/layout.mjs drives it).
//
//   bench_layout SOURCE OUT_DIR [--threads N] [--budget ROW_MEASUREMENTS] [--top K]
//
// SOURCE is a Parquet file, or `correlated:ROWS` for the generated table with correlated
// columns described at CorrelatedTable. The rows are read into memory and shuffled with a
// fixed seed (the same permutation every run), then, every size measured by tarn's writer in
// memory with the read-optimized profile for the table's row count:
//   - unsorted: the shuffled rows as they are;
//   - rules: the key duckrun's published heuristic picks (PickSortKey, mode rules);
//   - auto: the key tarn's measured picker picks (PickSortKey, the default mode), with its
//     profiling cost (scans, seconds) and the whole pick's time and sample files written;
//   - exhaustive: the smallest over every ordered key of 1 to 3 columns. When keys × rows
//     exceeds ROW_MEASUREMENTS (default 300M) the keys are first measured on a prefix of the
//     shuffled rows (a uniform sample) of ROW_MEASUREMENTS / keys rows, and the best K
//     (default 16) of them, plus the rules and auto keys, are measured on all rows.
// The exhaustive search runs on N threads (default 2). It also writes OUT_DIR/shuffled.parquet
// (the shuffled rows) and OUT_DIR/sorted.parquet (sorted by the auto key), both with the
// writer's default (DuckLake's) settings, for the read benchmark. Prints one JSON line.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tarn/io.h"
#include "tarn/layout.h"
#include "tarn/parquet.h"
#include "tarn/sql.h"
#include "tarn/thread_pool.h"

namespace {

using namespace tarn;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// route (2,000 values) determines carrier, origin, destination and distance; the day of year
// determines the month and the weekday; the hour depends loosely on the route; delay and
// passengers are noise. Ascending cardinality orders weekday, month and carrier before the
// route, cutting each route's run of four clustered columns into pieces.
std::shared_ptr<Batch> CorrelatedTable(int64_t rows) {
  std::mt19937_64 rng(20261203);
  ColumnBuilder day(DataType(TypeId::kDate)), month(DataType(TypeId::kInt32)),
      weekday(DataType(TypeId::kVarchar)), carrier(DataType(TypeId::kVarchar)),
      origin(DataType(TypeId::kVarchar)), destination(DataType(TypeId::kVarchar)),
      route(DataType(TypeId::kInt32)), distance(DataType(TypeId::kInt32)),
      hour(DataType(TypeId::kInt32)), delay(DataType(TypeId::kInt32)),
      passengers(DataType(TypeId::kInt32));
  static constexpr const char* kWeekdays[] = {"Thursday", "Friday",  "Saturday", "Sunday",
                                              "Monday",   "Tuesday", "Wednesday"};
  for (int64_t row = 0; row < rows; ++row) {
    const int d = static_cast<int>(rng() % 365);  // days of 2025
    const int r = static_cast<int>(rng() % 2000);
    day.AppendNumber<int32_t>(20089 + d);  // 2025-01-01
    month.AppendNumber<int32_t>(1 + d * 12 / 365);
    weekday.AppendBytes(kWeekdays[(d + 3) % 7]);
    carrier.AppendBytes("carrier-" + std::to_string(r % 23));
    origin.AppendBytes("airport-" + std::to_string((r * 7) % 151));
    destination.AppendBytes("airport-" + std::to_string((r * 13 + 5) % 151));
    route.AppendNumber<int32_t>(r);
    distance.AppendNumber<int32_t>(150 + (r * 37) % 4800);
    hour.AppendNumber<int32_t>((r % 18) + 5 + static_cast<int32_t>(rng() % 3));
    delay.AppendNumber<int32_t>(static_cast<int32_t>(rng() % 180) - 30);
    passengers.AppendNumber<int32_t>(50 + static_cast<int32_t>(rng() % 250));
  }
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("day", DataType(TypeId::kDate)), Field("month", DataType(TypeId::kInt32)),
      Field("weekday", DataType(TypeId::kVarchar)), Field("carrier", DataType(TypeId::kVarchar)),
      Field("origin", DataType(TypeId::kVarchar)),
      Field("destination", DataType(TypeId::kVarchar)), Field("route", DataType(TypeId::kInt32)),
      Field("distance", DataType(TypeId::kInt32)), Field("hour", DataType(TypeId::kInt32)),
      Field("delay", DataType(TypeId::kInt32)), Field("passengers", DataType(TypeId::kInt32))});
  auto batch = MakeBatch(schema, {day.Finish(), month.Finish(), weekday.Finish(),
                                  carrier.Finish(), origin.Finish(), destination.Finish(),
                                  route.Finish(), distance.Finish(), hour.Finish(),
                                  delay.Finish(), passengers.Finish()});
  batch->num_rows = rows;
  return batch;
}

Result<std::shared_ptr<Batch>> ReadParquet(const std::string& path) {
  Session session;
  std::string quoted;
  for (char c : path) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  TARN_ASSIGN_OR_RETURN(QueryResult result,
                        session.Execute("SELECT * FROM read_parquet('" + quoted + "')"));
  return ReadAllBatches(result.reader.get());
}

std::shared_ptr<Batch> Rows(const Batch& batch, std::span<const int64_t> order) {
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : batch.columns) columns.push_back(Take(*column, order));
  auto out = MakeBatch(batch.schema, std::move(columns));
  out->num_rows = static_cast<int64_t>(order.size());
  return out;
}

std::shared_ptr<Batch> Shuffled(const Batch& batch) {
  std::vector<int64_t> order(static_cast<size_t>(batch.num_rows));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(42);
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[static_cast<size_t>(rng() % i)]);
  }
  return Rows(batch, order);
}

// Every ordered key of 1 to `longest` distinct columns out of `columns`.
std::vector<std::vector<int>> OrderedKeys(int columns, int longest) {
  std::vector<std::vector<int>> keys;
  std::vector<int> key;
  std::function<void()> extend = [&] {
    if (!key.empty()) keys.push_back(key);
    if (static_cast<int>(key.size()) == longest) return;
    for (int c = 0; c < columns; ++c) {
      if (std::find(key.begin(), key.end(), c) != key.end()) continue;
      key.push_back(c);
      extend();
      key.pop_back();
    }
  };
  extend();
  return keys;
}

std::vector<int> KeyIndices(const std::vector<SortKeyColumn>& key, const Schema& schema) {
  std::vector<int> out;
  for (const SortKeyColumn& column : key) out.push_back(schema.FindField(column.name));
  return out;
}

std::string Json(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string KeyJson(const std::vector<int>& key, const Schema& schema) {
  std::string out = "[";
  for (size_t i = 0; i < key.size(); ++i) {
    out += (i ? ", " : "") + Json(schema.field(key[i]).name);
  }
  return out + "]";
}

// Sizes of `batch` sorted by each of `keys`, on `pool`.
Result<std::vector<int64_t>> MeasureAll(const Batch& batch,
                                        const std::vector<std::vector<int>>& keys,
                                        const std::shared_ptr<const WriterProperties>& props,
                                        ThreadPool* pool) {
  std::vector<int64_t> bytes(keys.size(), -1);
  TARN_RETURN_NOT_OK(pool->ParallelFor(keys.size(), [&](size_t i) -> Status {
    TARN_ASSIGN_OR_RETURN(bytes[i], MeasureSortedSize(batch, keys[i], props));
    return Status::OK();
  }));
  return bytes;
}

struct Options {
  std::string source;
  std::string out_dir;
  int threads = 2;
  int64_t budget = 300000000;
  int top = 16;
};

Status Run(const Options& options) {
  std::shared_ptr<Batch> original;
  std::string name = options.source;
  if (options.source.rfind("correlated:", 0) == 0) {
    original = CorrelatedTable(std::stoll(options.source.substr(11)));
    name = "correlated";
  } else {
    TARN_ASSIGN_OR_RETURN(original, ReadParquet(options.source));
    name = std::filesystem::path(options.source).stem().string();
  }
  const std::shared_ptr<Batch> table = Shuffled(*original);
  original.reset();
  const Schema& schema = *table->schema;
  const int64_t rows = table->num_rows;
  TARN_ASSIGN_OR_RETURN(auto props, WriterPropertiesFor(WriterProfile::kReadOptimized, rows));
  // ParallelFor runs on the pool and the calling thread.
  ThreadPool pool(static_cast<size_t>(std::max(1, options.threads - 1)));

  TARN_ASSIGN_OR_RETURN(int64_t unsorted, MeasureSortedSize(*table, {}, props));

  PickerOptions picker;
  picker.pool = &pool;
  picker.mode = PickerMode::kRules;
  TARN_ASSIGN_OR_RETURN(SortKeyChoice rules, PickSortKey(table->schema, {table}, picker));
  picker.mode = PickerMode::kMeasured;
  TARN_ASSIGN_OR_RETURN(SortKeyChoice picked, PickSortKey(table->schema, {table}, picker));
  const std::vector<int> rules_key = KeyIndices(rules.key, schema);
  const std::vector<int> auto_key = KeyIndices(picked.key, schema);

  // The exhaustive search.
  const auto exhaustive_start = Clock::now();
  const std::vector<std::vector<int>> keys = OrderedKeys(table->num_columns(), 3);
  const int64_t key_count = static_cast<int64_t>(keys.size());
  int64_t sample_rows = rows;
  std::vector<std::vector<int>> finalists = keys;
  if (key_count * rows > options.budget) {
    sample_rows = std::max<int64_t>(options.budget / key_count, 10000);
    sample_rows = std::min(sample_rows, rows);
    auto sample = SliceBatch(*table, 0, sample_rows);
    TARN_ASSIGN_OR_RETURN(auto sample_props,
                          WriterPropertiesFor(WriterProfile::kReadOptimized, sample_rows));
    TARN_ASSIGN_OR_RETURN(std::vector<int64_t> sample_bytes,
                          MeasureAll(*sample, keys, sample_props, &pool));
    std::vector<size_t> ranked(keys.size());
    std::iota(ranked.begin(), ranked.end(), 0);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](size_t a, size_t b) { return sample_bytes[a] < sample_bytes[b]; });
    finalists.clear();
    for (size_t i = 0; i < ranked.size() && static_cast<int>(i) < options.top; ++i) {
      finalists.push_back(keys[ranked[i]]);
    }
  }
  for (const std::vector<int>& key : {rules_key, auto_key}) {
    if (!key.empty() && std::find(finalists.begin(), finalists.end(), key) == finalists.end()) {
      finalists.push_back(key);
    }
  }
  TARN_ASSIGN_OR_RETURN(std::vector<int64_t> finalist_bytes,
                        MeasureAll(*table, finalists, props, &pool));
  std::map<std::vector<int>, int64_t> full;
  size_t best = 0;
  for (size_t i = 0; i < finalists.size(); ++i) {
    full[finalists[i]] = finalist_bytes[i];
    if (finalist_bytes[i] < finalist_bytes[best]) best = i;
  }
  const double exhaustive_seconds = SecondsSince(exhaustive_start);
  auto bytes_of = [&](const std::vector<int>& key) { return key.empty() ? unsorted : full[key]; };

  // The files of the read benchmark, with the default writer settings.
  std::filesystem::create_directories(options.out_dir);
  const std::string shuffled_path = options.out_dir + "/shuffled.parquet";
  const std::string sorted_path = options.out_dir + "/sorted.parquet";
  {
    TARN_ASSIGN_OR_RETURN(auto defaults, WriterProperties::Builder().Build());
    TARN_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(LocalFileSystem(), shuffled_path,
                                                           schema, defaults));
    TARN_RETURN_NOT_OK(writer->Write(*table));
    TARN_RETURN_NOT_OK(writer->Finish().status());
  }
  {
    Session session;
    std::string order;
    for (const SortKeyColumn& column : picked.key) {
      order += (order.empty() ? "" : ", ") + std::string("\"") + column.name + "\"";
    }
    const std::string select = "SELECT * FROM read_parquet('" + shuffled_path + "')" +
                               (order.empty() ? "" : " ORDER BY " + order);
    TARN_ASSIGN_OR_RETURN(QueryResult copied,
                          session.Execute("COPY (" + select + ") TO '" + sorted_path +
                                          "' (FORMAT parquet)"));
    TARN_RETURN_NOT_OK(ReadAllBatches(copied.reader.get()).status());
  }

  std::string columns;
  for (const ColumnProfile& column : picked.profile.columns) {
    columns += StrCat(columns.empty() ? "" : ", ", "{\"name\": ", Json(column.name),
                      ", \"distinct\": ", column.distinct, "}");
  }
  std::printf(
      "{\"table\": %s, \"rows\": %lld, \"columns\": [%s], \"unsorted_bytes\": %lld,"
      " \"rules\": {\"key\": %s, \"bytes\": %lld, \"seconds\": %.3f, \"scans\": %d},"
      " \"auto\": {\"key\": %s, \"bytes\": %lld, \"seconds\": %.3f, \"profile_seconds\": %.3f,"
      " \"scans\": %d, \"sample_rows\": %lld, \"measurements\": %lld},"
      " \"exhaustive\": {\"key\": %s, \"bytes\": %lld, \"keys\": %lld, \"sample_rows\": %lld,"
      " \"measured_on_all_rows\": %zu, \"seconds\": %.1f},"
      " \"shuffled\": %s, \"sorted\": %s}\n",
      Json(name).c_str(), static_cast<long long>(rows), columns.c_str(),
      static_cast<long long>(unsorted), KeyJson(rules_key, schema).c_str(),
      static_cast<long long>(bytes_of(rules_key)), rules.seconds, rules.profile.scans,
      KeyJson(auto_key, schema).c_str(), static_cast<long long>(bytes_of(auto_key)),
      picked.seconds, picked.profile.seconds, picked.profile.scans,
      static_cast<long long>(picked.profile.sample_rows),
      static_cast<long long>(picked.measurements), KeyJson(finalists[best], schema).c_str(),
      static_cast<long long>(finalist_bytes[best]), static_cast<long long>(key_count),
      static_cast<long long>(sample_rows), finalists.size(), exhaustive_seconds,
      Json(shuffled_path).c_str(), Json(sorted_path).c_str());
  return Status::OK();
}

int Usage() {
  std::fprintf(stderr,
               "usage: bench_layout SOURCE|correlated:ROWS OUT_DIR [--threads N] "
               "[--budget ROW_MEASUREMENTS] [--top K]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--threads" || arg == "--budget" || arg == "--top") && i + 1 < argc) {
      const long long value = std::atoll(argv[++i]);
      if (value < 1) return Usage();
      if (arg == "--threads") options.threads = static_cast<int>(value);
      if (arg == "--budget") options.budget = value;
      if (arg == "--top") options.top = static_cast<int>(value);
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 2) return Usage();
  options.source = positional[0];
  options.out_dir = positional[1];
  Status status = Run(options);
  if (!status.ok()) {
    std::fprintf(stderr, "bench_layout: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
