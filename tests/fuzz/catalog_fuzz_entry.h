// The one entry point shared by the catalog libFuzzer target (catalog_fuzzer.cc) and the
// catalog fuzz test (catalog_fuzz_test.cc): damages a copy of a fixture lake's catalog as the
// bytes say, then opens the lake and reads everything through it.
//
// The bytes are read as:
//   byte 0        the fixture lake (index into kCatalogFuzzFixtures)
//   byte 1        the snapshot to load besides the latest (modulo the snapshot count)
//   then groups of 5 bytes, one mutation each (at most kMaxCatalogMutations):
//     table       index into the catalog database's tables (by name), inlined-data tables
//                 included
//     column      index into that table's columns
//     row         index into its rows (by rowid)
//     kind        what to do (CatalogMutation below, modulo the count)
//     other       a second row index, for the kinds that copy a value from another row
// A mutation the database refuses (a type it cannot hold, a column it cannot drop) is skipped.
//
// Afterwards the lake is opened (its data path overridden to the fixture's read-only data/
// folder) and read: the snapshot list, the latest and the chosen snapshot, every table of both
// with its files, statistics and inlined rows, and a scan of each (every column with rowid and
// snapshot_id). Nothing is written outside the catalog copy.
//
// Every outcome but a crash, a sanitizer report, a leak or a hang is acceptable: a damaged
// catalog gives an error Status, or reads if the damage did not matter.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/table.h"

namespace tarn::fuzz {

inline constexpr const char* kCatalogFuzzFixtures[] = {
    "basic",  "compacted",    "evolution", "inlined", "inlinedtypes", "nan",
    "nested", "partitioned2", "schemaflux", "sorted",  "types3"};
inline constexpr size_t kCatalogFuzzFixtureCount =
    sizeof(kCatalogFuzzFixtures) / sizeof(kCatalogFuzzFixtures[0]);
inline constexpr size_t kMaxCatalogMutations = 16;

enum class CatalogMutation : uint8_t {
  kNull,            // SET c = NULL
  kMinusOne,        // SET c = -1
  kPlusOne,         // SET c = c + 1
  kMinusOneFrom,    // SET c = c - 1
  kHuge,            // SET c = 9223372036854775807
  kNegativeHuge,    // SET c = -9223372036854775808
  kJunkText,        // SET c = 'x' || c
  kEmptyText,       // SET c = ''
  kBlob,            // SET c = X'00FF'
  kReal,            // SET c = 1.5
  kAsText,          // SET c = CAST(c AS TEXT)
  kTypeName,        // SET c = 'struct' (a type name without its children)
  kFromOtherRow,    // SET c = (c of the other row)
  kTimesMillion,    // SET c = c * 1000000
  kDeleteRow,       // DELETE the row
  kDuplicateRow,    // INSERT a copy of the row
  kDeleteAllRows,   // DELETE every row of the table
  kDropColumn,      // ALTER TABLE DROP COLUMN c
  kDropTable,       // DROP TABLE
  kCount,
};

inline std::string QuoteSqlName(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

// The rows of a one-column query, as text (empty on error).
inline std::vector<std::string> QueryColumn(CatalogStore& store, const std::string& sql) {
  CatalogQuery query;
  query.sql = sql;
  query.result_types = {CatalogType::kVarchar};
  std::vector<std::string> out;
  auto result = store.Query(query);
  if (!result.ok()) return out;
  for (const auto& row : result->rows) {
    if (!row.empty() && !row[0].is_null()) out.push_back(row[0].bytes());
  }
  return out;
}

// Applies one mutation; failures are ignored (the database refused it).
inline void ApplyCatalogMutation(CatalogStore& store, const uint8_t* op) {
  const std::vector<std::string> tables = QueryColumn(
      store, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  if (tables.empty()) return;
  const std::string& table_name = tables[op[0] % tables.size()];
  const std::string table = QuoteSqlName(table_name);
  auto columns = store.TableColumns(table_name);
  if (!columns.ok() || columns->empty()) return;
  const std::string column = QuoteSqlName((*columns)[op[1] % columns->size()]);
  const std::vector<std::string> rowids =
      QueryColumn(store, "SELECT rowid FROM " + table + " ORDER BY rowid");
  const auto kind = static_cast<CatalogMutation>(op[3] % static_cast<int>(CatalogMutation::kCount));
  std::string sql;
  switch (kind) {
    case CatalogMutation::kDeleteAllRows:
      sql = "DELETE FROM " + table;
      break;
    case CatalogMutation::kDropColumn:
      sql = "ALTER TABLE " + table + " DROP COLUMN " + column;
      break;
    case CatalogMutation::kDropTable:
      sql = "DROP TABLE " + table;
      break;
    default: {
      if (rowids.empty()) return;
      const std::string row = rowids[op[2] % rowids.size()];
      const std::string other = rowids[op[4] % rowids.size()];
      const std::string where = " WHERE rowid = " + row;
      std::string value;
      switch (kind) {
        case CatalogMutation::kNull: value = "NULL"; break;
        case CatalogMutation::kMinusOne: value = "-1"; break;
        case CatalogMutation::kPlusOne: value = column + " + 1"; break;
        case CatalogMutation::kMinusOneFrom: value = column + " - 1"; break;
        case CatalogMutation::kHuge: value = "9223372036854775807"; break;
        case CatalogMutation::kNegativeHuge: value = "-9223372036854775808"; break;
        case CatalogMutation::kJunkText: value = "'x' || " + column; break;
        case CatalogMutation::kEmptyText: value = "''"; break;
        case CatalogMutation::kBlob: value = "X'00FF'"; break;
        case CatalogMutation::kReal: value = "1.5"; break;
        case CatalogMutation::kAsText: value = "CAST(" + column + " AS TEXT)"; break;
        case CatalogMutation::kTypeName: value = "'struct'"; break;
        case CatalogMutation::kFromOtherRow:
          value = "(SELECT " + column + " FROM " + table + " WHERE rowid = " + other + ")";
          break;
        case CatalogMutation::kTimesMillion: value = column + " * 1000000"; break;
        case CatalogMutation::kDeleteRow:
          sql = "DELETE FROM " + table + where;
          break;
        case CatalogMutation::kDuplicateRow:
          sql = "INSERT INTO " + table + " SELECT * FROM " + table + where;
          break;
        default:
          return;
      }
      if (sql.empty()) sql = "UPDATE " + table + " SET " + column + " = " + value + where;
      break;
    }
  }
  (void)store.Execute(sql, {});
}

// Reads everything a scan of `lake` at `snapshot` would; errors end the reading.
inline void ReadCatalogSnapshot(Lake& lake, const std::shared_ptr<FileSystem>& fs,
                                const SnapshotSelector& selector) {
  auto snapshot = lake.LoadSnapshot(selector);
  if (!snapshot.ok()) return;
  for (const auto& table : (*snapshot)->tables()) {
    auto metadata = lake.LoadTable(**snapshot, table->table_id);
    if (!metadata.ok()) continue;
    (void)(*metadata)->FileRowCount();
    for (const InlinedDataTable& inlined : table->inlined_tables) {
      (void)lake.ReadInlinedRows(**metadata, inlined, InlinedRowSelection::kAll);
    }
    TableScanOptions options;
    options.with_rowid = true;
    options.with_snapshot_id = true;
    options.batch_rows = 1000;
    auto reader = OpenTableScan(lake, fs, *metadata, options);
    if (!reader.ok()) continue;
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok() || *batch == nullptr) break;
      (void)(*batch)->Validate();
    }
  }
}

// A temporary copy of a catalog, removed on destruction.
class CatalogCopy {
 public:
  explicit CatalogCopy(const std::string& source) {
    char name[] = "/tmp/tarn-catalog-fuzz-XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd < 0) return;
    ::close(fd);
    path_ = name;
    std::error_code error;
    std::filesystem::copy_file(source, path_, std::filesystem::copy_options::overwrite_existing,
                               error);
    std::filesystem::permissions(path_, std::filesystem::perms::owner_read |
                                            std::filesystem::perms::owner_write,
                                 error);
    if (error) path_.clear();
  }
  ~CatalogCopy() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  CatalogCopy(const CatalogCopy&) = delete;
  CatalogCopy& operator=(const CatalogCopy&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `shared_dir` is the folder of the shared fixtures (../shared beside the checkout).
inline int FuzzCatalogBytes(const uint8_t* data, size_t size, const std::string& shared_dir) {
  if (size < 2) return 0;
  const std::string fixture = shared_dir + "/fixtures/ducklake/" +
                              kCatalogFuzzFixtures[data[0] % kCatalogFuzzFixtureCount];
  CatalogCopy copy(fixture + "/catalog.sqlite");
  if (copy.path().empty()) return 0;
  {
    auto store = OpenSqliteCatalogStore(copy.path(), /*read_only=*/false);
    if (!store.ok()) return 0;
    size_t mutations = 0;
    for (size_t at = 2; at + 5 <= size && mutations < kMaxCatalogMutations; at += 5) {
      ApplyCatalogMutation(**store, data + at);
      ++mutations;
    }
  }
  LakeOpenOptions options;
  options.data_path = fixture + "/data/";
  auto lake = Lake::Open("ducklake:sqlite:" + copy.path(), options);
  if (!lake.ok()) return 0;
  auto snapshots = (*lake)->ListSnapshots();
  const std::shared_ptr<FileSystem> fs = LocalFileSystem();
  ReadCatalogSnapshot(**lake, fs, SnapshotSelector::Latest());
  if (snapshots.ok() && !snapshots->empty()) {
    const SnapshotInfo& chosen = (*snapshots)[data[1] % snapshots->size()];
    ReadCatalogSnapshot(**lake, fs, SnapshotSelector::Id(chosen.snapshot_id));
    (void)(*lake)->FindSnapshot(SnapshotSelector::AtTime(chosen.snapshot_time_micros));
  }
  return 0;
}

}  // namespace tarn::fuzz
