// Finding the rows a DELETE or UPDATE touches: a scan of the table at the transaction's view
// that keeps, for every row where the predicate is TRUE, where it lives — (data file,
// physical position), a committed inlined row_id, or an index into the transaction's own
// inlined rows — and, for UPDATE, its values.
//
// The predicate prunes files (catalog statistics) and row groups only where that is exact:
// never when it reads a floating-point column (NaN of either sign sits outside recorded
// bounds), and never in a file where a column it reads carries another name than the
// table's (a physical rename). Positions are physical, so pruning never shifts them.
//
// Thread-safety: uses one WriteState.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "table/write_state.h"

namespace tarn::table_internal {

struct MatchedRows {
  std::map<int64_t, std::vector<int64_t>> committed_files;  // data_file_id -> positions
  std::map<int64_t, std::vector<int64_t>> pending_files;    // provisional id -> positions
  // Files (of either map) whose every row matched: positions 0 .. n-1 of a file of n rows and
  // no deleted row. Their position lists stay empty (8 bytes a row saved: an UPDATE of a whole
  // table or a sorted rewrite would hold them all). File id -> n.
  std::map<int64_t, int64_t> whole_files;
  std::vector<int64_t> committed_inlined;  // row_ids, sorted
  std::vector<int64_t> pending_plain;      // indexes into TableDml::plain_inlined, sorted
  std::vector<int64_t> pending_rowid;      // indexes into TableDml::rowid_inlined, sorted
  int64_t count = 0;
  // With want_rows: the matched rows in the internal layout (every table column, rowid,
  // snapshot_id, position), split by whether the rowid is final (committed rows and rows
  // rewritten with their rowid) or provisional (rows this transaction inserted).
  std::vector<std::shared_ptr<Batch>> final_rows;
  std::vector<std::shared_ptr<Batch>> provisional_rows;
  std::shared_ptr<const Schema> internal_schema;
  // Files read, and files whose scan got the predicate pushed down (for tests).
  int64_t files_read = 0;
  int64_t files_pushed_down = 0;
  int64_t files_pruned = 0;
};

// The internal layout of the rows FindMatches hands on with want_rows (every table column,
// rowid, snapshot_id, position): what expressions over the matched rows bind against.
Result<std::shared_ptr<const Schema>> MatchSchema(const TableInfo& table,
                                                  const std::optional<std::string>& predicate);

// Receives the matched rows batch by batch (in the internal layout) instead of their being kept
// in final_rows / provisional_rows. `matched` is the result so far: the matches among the
// transaction's own inlined rows (pending_plain, pending_rowid) are known before the first call.
using MatchedRowsConsumer =
    std::function<Status(std::shared_ptr<Batch> rows, bool final_rowid, const MatchedRows& matched)>;

// With want_rows, the matched rows go to `on_rows` when given, else into the result.
Result<MatchedRows> FindMatches(WriteState& state, std::shared_ptr<const TableInfo> table,
                                const std::optional<std::string>& predicate, bool want_rows,
                                const MatchedRowsConsumer& on_rows = nullptr);

}  // namespace tarn::table_internal
