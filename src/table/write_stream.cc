#include "table/write_stream.h"

#include <utility>

#include "table/sort_rows.h"
#include "table/write_dml.h"
#include "table/write_files.h"
#include "table/write_rows.h"

namespace tarn::table_internal {

namespace {

// The settings of a streamed write of unknown size: a read-optimized one gets the row groups
// of its smallest size class (what any write of up to lanes x minimum rows gets), so the open
// row group stays small.
Result<WriteSettings> StreamingSettings(WriteState& state, const TableInfo& table) {
  const ReadOptimizedSettings read_optimized;
  return ResolveWriteSettings(state, table,
                              read_optimized.lanes * read_optimized.min_row_group_rows);
}

// The rowid column of rows in DataFileSchema(table, true), and the rows without it.
std::pair<std::shared_ptr<Batch>, std::vector<int64_t>> SplitRowIds(const TableInfo& table,
                                                                    const Batch& rows) {
  const int rowid_index = static_cast<int>(table.columns.size());
  std::vector<std::shared_ptr<Column>> columns(rows.columns.begin(),
                                               rows.columns.begin() + rowid_index);
  auto plain = MakeBatch(DataFileSchema(table, false), std::move(columns));
  plain->num_rows = rows.num_rows;
  const int64_t* ids = rows.column(rowid_index).values_as<int64_t>();
  return {std::move(plain), std::vector<int64_t>(ids, ids + rows.num_rows)};
}

}  // namespace

RowStreamWriter::RowStreamWriter(WriteState& state, const TableInfo& table, Kind kind,
                                 Order order, const std::vector<int64_t>* excluded)
    : state_(state),
      table_(table),
      kind_(kind),
      order_(order),
      excluded_(excluded),
      schema_(DataFileSchema(table, kind == Kind::kKeptRowIds)) {}

RowStreamWriter::~RowStreamWriter() {
  if (!finished_ && sink_) sink_->Abandon();
}

Status RowStreamWriter::Init() {
  TARN_ASSIGN_OR_RETURN(settings_, ResolveWriteSettings(state_, table_));
  const bool keyed = !TableSortKey(table_).empty();
  switch (order_) {
    case Order::kAsInserted:
      // As InsertNewRows: the key orders the rows that go to files unless sort_on_insert is
      // false and inlining is disabled.
      sorted_ = keyed && (settings_.sort_on_insert || settings_.inlining_row_limit > 0);
      break;
    case Order::kUnsorted:
      sorted_ = false;
      break;
    case Order::kKeyOrder:
      sorted_ = keyed;
      break;
  }
  return Status::OK();
}

int64_t RowStreamWriter::PendingRows() const {
  // New rows: each statement decides for its own rows (InsertNewRows), so the transaction's
  // earlier inlined rows neither count nor move to this statement's files.
  if (kind_ == Kind::kNewRows) return 0;
  const TableDml* dml = state_.FindDml(table_.table_id);
  if (dml == nullptr) return 0;
  const PendingInlinedRows& pending =
      kind_ == Kind::kNewRows ? dml->plain_inlined : dml->rowid_inlined;
  const int64_t excluded = excluded_ ? static_cast<int64_t>(excluded_->size()) : 0;
  return pending.num_rows() - excluded;
}

bool RowStreamWriter::Inlinable(int64_t more) const {
  return settings_.inlining_allowed && settings_.inlining_row_limit > 0 &&
         PendingRows() + more <= settings_.inlining_row_limit;
}

std::shared_ptr<Batch> RowStreamWriter::PendingRowsForFiles() const {
  if (kind_ == Kind::kNewRows) return nullptr;
  const TableDml* dml = state_.FindDml(table_.table_id);
  if (dml == nullptr) return nullptr;
  const PendingInlinedRows& pending =
      kind_ == Kind::kNewRows ? dml->plain_inlined : dml->rowid_inlined;
  if (pending.num_rows() == 0) return nullptr;
  static const std::vector<int64_t> kNone;
  const std::vector<int64_t>& drop = excluded_ ? *excluded_ : kNone;
  std::shared_ptr<Batch> rows = drop.empty() ? pending.rows : DropRows(*pending.rows, drop);
  if (kind_ == Kind::kNewRows) return rows;
  std::vector<int64_t> ids;
  size_t next = 0;
  for (size_t i = 0; i < pending.row_ids.size(); ++i) {
    while (next < drop.size() && drop[next] < static_cast<int64_t>(i)) ++next;
    if (next < drop.size() && drop[next] == static_cast<int64_t>(i)) continue;
    ids.push_back(pending.row_ids[i]);
  }
  return WithRowIds(table_, *rows, ids);
}

void RowStreamWriter::ClearPending() {
  if (kind_ == Kind::kNewRows) return;
  TableDml& dml = state_.Dml(table_.table_id);
  (kind_ == Kind::kNewRows ? dml.plain_inlined : dml.rowid_inlined) = PendingInlinedRows();
}

Status RowStreamWriter::StartSink() {
  TARN_ASSIGN_OR_RETURN(WriteSettings streaming, StreamingSettings(state_, table_));
  sink_ = MakeTableSink(state_, table_, streaming, schema_, kind_ == Kind::kKeptRowIds);
  // The transaction's earlier inlined rows with row ids go first (an update's rows).
  if (auto pending = PendingRowsForFiles(); pending && pending->num_rows > 0) {
    TARN_RETURN_NOT_OK(sink_->Add(*pending));
  }
  for (const auto& rows : held_) TARN_RETURN_NOT_OK(sink_->Add(*rows));
  held_.clear();
  return Status::OK();
}

Status RowStreamWriter::StartSort() {
  sort_ = std::make_unique<ExternalSort>(table_, TableSortKey(table_), schema_,
                                         state_.sort_memory_limit);
  if (auto pending = PendingRowsForFiles(); pending && pending->num_rows > 0) {
    TARN_RETURN_NOT_OK(sort_->Add(std::move(pending)));
  }
  for (auto& rows : held_) TARN_RETURN_NOT_OK(sort_->Add(std::move(rows)));
  held_.clear();
  return Status::OK();
}

Status RowStreamWriter::Add(std::shared_ptr<Batch> rows) {
  if (rows->num_rows == 0) return Status::OK();
  rows_ += rows->num_rows;
  if (sort_) return sort_->Add(std::move(rows));
  if (sink_) return sink_->Add(*rows);
  held_bytes_ += BatchBytes(*rows);
  held_.push_back(std::move(rows));
  if (sorted_ && held_bytes_ <= state_.sort_memory_limit) return Status::OK();
  if (Inlinable(rows_)) return Status::OK();
  return sorted_ ? StartSort() : StartSink();
}

Result<WriteResult> RowStreamWriter::FinishHeld() {
  WriteResult result;
  result.rows = rows_;
  if (held_.empty()) return result;
  if (order_ == Order::kKeyOrder && sorted_) {
    TARN_ASSIGN_OR_RETURN(auto ordered, SortRowsByKey(table_, TableSortKey(table_), held_));
    held_ = {std::move(ordered)};
  }
  if (kind_ == Kind::kNewRows) {
    TARN_ASSIGN_OR_RETURN(result.files_written, InsertNewRows(state_, table_, std::move(held_)));
  } else {
    auto joined = held_.size() == 1 ? held_[0] : ConcatenateBatches(held_);
    auto [rows, ids] = SplitRowIds(table_, *joined);
    TARN_ASSIGN_OR_RETURN(result.files_written,
                          InsertRowsWithIds(state_, table_, std::move(rows), std::move(ids)));
  }
  if (result.files_written > 0) result.peak_held_bytes = held_bytes_;
  held_.clear();
  return result;
}

Result<WriteResult> RowStreamWriter::Finish() {
  if (!sort_ && !sink_) {
    finished_ = true;
    return FinishHeld();
  }
  WriteResult result;
  result.rows = rows_;
  if (sort_) {
    TARN_ASSIGN_OR_RETURN(WriteSettings streaming, StreamingSettings(state_, table_));
    sink_ = MakeTableSink(state_, table_, streaming, schema_, kind_ == Kind::kKeptRowIds);
    TARN_RETURN_NOT_OK(sort_->Finish([&](const Batch& sorted) { return sink_->Add(sorted); }));
  }
  // An error leaves the sink to the destructor, which deletes its files.
  TARN_ASSIGN_OR_RETURN(std::vector<PendingDataFile> files, sink_->Finish());
  finished_ = true;
  result.peak_held_bytes = (sort_ ? sort_->peak_held_bytes() : 0) + sink_->peak_held_bytes();
  result.files_written = static_cast<int64_t>(files.size());
  TableDml& dml = state_.Dml(table_.table_id);
  for (PendingDataFile& file : files) dml.files.push_back(std::move(file));
  ClearPending();
  return result;
}

}  // namespace tarn::table_internal
