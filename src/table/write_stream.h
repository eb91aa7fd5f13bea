// RowStreamWriter: rows of one statement streamed into a table as they come — an INSERT's
// input, an UPDATE's new row versions, a sorted rewrite's rows.
//
// Rows are held only while the transaction's rows of the same kind could still be inlined
// (data_inlining_row_limit); past that they go to data files through a RowSink as they come,
// preceded by the transaction's earlier inlined rows of that kind. When the rows must reach
// the files in the table's key order they are held up to the sort memory limit and then go
// through an ExternalSort (sorted runs spilled to temporary files, merged at Finish), so any
// number of rows is written within a bounded amount of memory.
//
// Two kinds of rows: new rows (the table's columns; rowids are assigned at commit) and rows
// that keep their rowid (the table's columns then _ducklake_internal_row_id, as
// DataFileSchema(table, true) gives them: UPDATE and rewrites of committed rows).
//
// An UPDATE removes the old versions of the transaction's own inlined rows only after its scan
// (ApplyDeletes), while rows stream already: `excluded` names those rows (indexes into the
// pending inlined rows of the writer's kind, sorted), which a sink opened mid-scan leaves out.
// Call Finish after they are removed. Destroying an unfinished writer deletes what it wrote.
//
// Thread-safety: one thread at a time; uses one WriteState.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "table/external_sort.h"
#include "table/write_sink.h"
#include "table/write_state.h"
#include "tarn/table_write.h"

namespace tarn::table_internal {

class RowStreamWriter {
 public:
  enum class Kind { kNewRows, kKeptRowIds };
  enum class Order {
    kAsInserted,  // as an INSERT orders rows (InsertNewRows' rules for the table's key)
    kUnsorted,    // as they come
    kKeyOrder,    // always in the table's key order
  };

  // REQUIRES: `table` and `excluded` outlive the writer; `table` has a path.
  RowStreamWriter(WriteState& state, const TableInfo& table, Kind kind, Order order,
                  const std::vector<int64_t>* excluded = nullptr);
  ~RowStreamWriter();
  RowStreamWriter(const RowStreamWriter&) = delete;
  RowStreamWriter& operator=(const RowStreamWriter&) = delete;

  // Resolves the table's write settings. Call once before Add.
  Status Init();
  // REQUIRES: rows of the writer's kind's schema (ArrangeRows' layout, plus the rowid column
  // for kKeptRowIds).
  Status Add(std::shared_ptr<Batch> rows);
  // Writes what is held (inlining it when few enough), finishes the files and records them in
  // the transaction. `rows` of the result counts the rows added.
  Result<WriteResult> Finish();

 private:
  bool Inlinable(int64_t more) const;
  int64_t PendingRows() const;
  // The transaction's earlier inlined rows of this kind not in `excluded`, in file layout.
  std::shared_ptr<Batch> PendingRowsForFiles() const;
  Status StartSink();
  Status StartSort();
  Result<WriteResult> FinishHeld();
  void ClearPending();

  WriteState& state_;
  const TableInfo& table_;
  const Kind kind_;
  const Order order_;
  const std::vector<int64_t>* excluded_;
  std::shared_ptr<const Schema> schema_;
  WriteSettings settings_;
  bool sorted_ = false;  // rows reach files in key order
  std::vector<std::shared_ptr<Batch>> held_;
  int64_t held_bytes_ = 0;
  int64_t rows_ = 0;
  std::unique_ptr<ExternalSort> sort_;
  std::unique_ptr<RowSink> sink_;
  bool finished_ = false;
};

}  // namespace tarn::table_internal
