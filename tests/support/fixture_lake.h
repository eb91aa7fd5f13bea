// The shared DuckLake fixture lakes (/work/shared/fixtures/ducklake/<fixture>/): their folders,
// private copies of their catalogs and data for tests that attach or write them (the shared
// fixtures stay read-only), and the expected results official DuckLake recorded for them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support/test_util.h"
#include "tarn/columnar.h"

namespace tarn::testing {

// The folder of fixture lake `name` (catalog.sqlite, data/, expected/, spec.sql).
std::string FixtureLakePath(const std::string& name);

// Copies fixture `fixture`'s catalog.sqlite to dir/<fixture>.sqlite (replacing an earlier copy),
// owner-readable and writable, and returns the copy's path.
std::string CopyFixtureCatalog(const std::string& fixture, const TempDir& dir);

// Copies fixture `fixture`'s data/ folder to dir/<fixture>-data (replacing an earlier copy),
// everything in it owner-readable and writable, and returns the copy's path.
std::string CopyFixtureData(const std::string& fixture, const TempDir& dir);

// One file of a fixture's expected/ folder: SCHEMA.TABLE@N.parquet (the table at snapshot N,
// `SELECT rowid, * ... ORDER BY rowid`) or SCHEMA.TABLE.changes.parquet (its change feed from
// snapshot 0 to the latest).
struct ExpectedFile {
  std::string schema;
  std::string table;
  std::optional<int64_t> snapshot;  // nullopt: the changes file
  std::string path;
};

// Every expected file of fixture `fixture`, sorted by path; other names are skipped, and a
// missing folder gives none.
std::vector<ExpectedFile> ListExpectedFiles(const std::string& fixture);

// Corrects the one recorded defect of the shared fixtures' expected files and returns how many
// cells it rewrote. The `compacted` lake's expected files give rowids 0 and 1 the ids 65536
// and 65537, while its spec.sql inserts range(0, 300) (so 'v0' and 'v1' carry ids 0 and 1),
// its data file holds 0 and 1 (DuckDB's read_parquet of that file agrees) and its catalog
// statistics give the file an id range of 0..299. Everything else in those files matches: the
// correction rewrites exactly those cells to the spec's values and leaves every other cell as
// recorded.
int CorrectKnownFixtureDefects(const std::string& fixture, Batch* expected);

}  // namespace tarn::testing
