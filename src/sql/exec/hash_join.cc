#include "sql/exec/hash_join.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "expr/bind/bound.h"
#include "expr/eval/kernels.h"
#include "sql/exec/group_table.h"
#include "sql/exec/spill.h"
#include "tarn/sql.h"

namespace tarn::sql {
namespace {

using expr::Phys;

constexpr uint32_t kEmpty = UINT32_MAX;

// A slot of a join's table of distinct integer keys (row == kEmpty: unused): the key, its
// first row (the others follow through the join's `next`) and how many rows hold it.
struct KeySlot {
  int64_t key;
  uint32_t row;
  uint32_t count;
};

// The slot of `key` in `slots` (mask + 1 of them, never full): its own, or the unused one
// where it would go.
inline size_t FindSlot(const KeySlot* slots, uint64_t mask, int64_t key) {
  size_t slot = HashInteger(static_cast<uint64_t>(key)) & mask;
  while (slots[slot].row != kEmpty && slots[slot].key != key) slot = (slot + 1) & mask;
  return slot;
}

// Probes fetch the slot of the row this many rows ahead.
constexpr int64_t kPrefetchAhead = 16;

bool IsIntegerKey(const DataType& type) {
  switch (expr::PhysOf(type)) {
    case Phys::kI8: case Phys::kI16: case Phys::kI32: case Phys::kI64:
    case Phys::kU8: case Phys::kU16: case Phys::kU32: case Phys::kU64:
      return true;
    default:
      return false;
  }
}

// The key columns of some rows in the table's form: 64-bit integers (row-major, one per key)
// or serialized bytes, with a hash and a NULL flag per row.
struct KeyRows {
  std::vector<int64_t> ints;
  std::string bytes;
  std::vector<uint64_t> offsets;  // bytes mode: rows + 1
  std::vector<uint64_t> hashes;   // bytes mode and several integer keys
  std::vector<uint8_t> has_null;

  std::string_view Bytes(int64_t row) const {
    return std::string_view(bytes).substr(offsets[static_cast<size_t>(row)],
                                          offsets[static_cast<size_t>(row) + 1] -
                                              offsets[static_cast<size_t>(row)]);
  }
};

uint64_t CombineHash(uint64_t seed, uint64_t value) {
  return HashInteger(seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

void ComputeKeyRows(const std::vector<std::shared_ptr<Column>>& keys, bool integer_mode,
                    int64_t rows, KeyRows* out) {
  const size_t num_keys = keys.size();
  out->has_null.assign(static_cast<size_t>(rows), 0);
  for (const auto& key : keys) {
    if (key->null_count == 0) continue;
    for (int64_t row = 0; row < rows; ++row) {
      if (key->IsNull(row)) out->has_null[static_cast<size_t>(row)] = 1;
    }
  }
  if (integer_mode) {
    out->ints.resize(static_cast<size_t>(rows) * num_keys);
    for (size_t k = 0; k < num_keys; ++k) {
      const Column& column = *keys[k];
      int64_t* ints = out->ints.data();
      expr::WithTypedValues(column, expr::PhysOf(column.type), [&](const auto* values) {
        for (int64_t row = 0; row < rows; ++row) {
          ints[static_cast<size_t>(row) * num_keys + k] = static_cast<int64_t>(values[row]);
        }
      });
    }
    if (num_keys > 1) {
      out->hashes.resize(static_cast<size_t>(rows));
      for (int64_t row = 0; row < rows; ++row) {
        const int64_t* key = out->ints.data() + static_cast<size_t>(row) * num_keys;
        uint64_t hash = HashInteger(static_cast<uint64_t>(key[0]));
        for (size_t k = 1; k < num_keys; ++k) hash = CombineHash(hash, static_cast<uint64_t>(key[k]));
        out->hashes[static_cast<size_t>(row)] = hash;
      }
    }
    return;
  }
  out->bytes.clear();
  out->offsets.resize(static_cast<size_t>(rows) + 1);
  out->hashes.resize(static_cast<size_t>(rows));
  out->offsets[0] = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const size_t start = out->bytes.size();
    if (out->has_null[static_cast<size_t>(row)] == 0) {
      for (const auto& key : keys) GroupTable::AppendKeyBytes(*key, row, &out->bytes);
    }
    out->offsets[static_cast<size_t>(row) + 1] = out->bytes.size();
    out->hashes[static_cast<size_t>(row)] =
        HashBytes(std::string_view(out->bytes).substr(start));
  }
}

// What a hash join needs to spill, and how deep in re-partitioning it runs.
struct JoinSpill {
  int64_t memory_limit = INT64_MAX;
  std::string temp_directory;  // empty: no spilling
  ThreadPool* pool = nullptr;
  int threads = 1;             // of the query: spilled partitions are joined this many at once
  const std::atomic<bool>* interrupted = nullptr;
  int level = 0;  // 0: the join the planner made; n: a partition of a level n - 1 join
  std::shared_ptr<SpillFolder> folder;  // shared by the partitions' joins; made on first use
};

// The two sides of a join that spilled, partitioned alike by key hash.
struct SpilledSides {
  std::shared_ptr<SpillFolder> folder;
  std::unique_ptr<SpillPartitions> build;
  std::unique_ptr<SpillPartitions> probe;
};

Result<std::unique_ptr<Operator>> MakeHashJoinAt(std::unique_ptr<Operator> probe,
                                                 std::unique_ptr<Operator> build,
                                                 std::shared_ptr<const HashJoinSpec> spec,
                                                 JoinSpill spill);

// The joins of a spilled join's partitions, one part each: partition p's probe rows joined with
// its build rows by a join of the next level (which spills again, split differently, should
// the partition still not fit).
class PartitionJoins : public Operator {
 public:
  PartitionJoins(std::shared_ptr<SpilledSides> sides, std::shared_ptr<const HashJoinSpec> spec,
                 JoinSpill nested, std::shared_ptr<const Schema> schema)
      : sides_(std::move(sides)), spec_(std::move(spec)), nested_(std::move(nested)),
        schema_(std::move(schema)) {}

  std::shared_ptr<const Schema> schema() const override { return schema_; }
  std::string label() const override { return "HASH_JOIN_PARTITIONS"; }
  int64_t num_parts() const override { return sides_->build->count(); }

  Result<std::unique_ptr<BatchReader>> OpenPart(int64_t part) const override {
    const int p = static_cast<int>(part);
    TARN_ASSIGN_OR_RETURN(auto probe_rows, sides_->probe->Open(p));
    TARN_ASSIGN_OR_RETURN(auto build_rows, sides_->build->Open(p));
    std::unique_ptr<Operator> probe =
        MakeInterruptible(MakeReaderSource("SPILLED_PROBE", std::move(probe_rows)),
                          nested_.interrupted);
    std::unique_ptr<Operator> build =
        MakeInterruptible(MakeReaderSource("SPILLED_BUILD", std::move(build_rows)),
                          nested_.interrupted);
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> join,
                          MakeHashJoinAt(std::move(probe), std::move(build), spec_, nested_));
    return std::unique_ptr<BatchReader>(std::move(join));
  }

  Result<std::shared_ptr<Batch>> Next() override {
    while (true) {
      if (!current_) {
        if (next_part_ == num_parts()) return std::shared_ptr<Batch>();
        TARN_ASSIGN_OR_RETURN(current_, OpenPart(next_part_++));
      }
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, current_->Next());
      if (!batch) {
        current_.reset();
        continue;
      }
      if (batch->num_rows > 0) return batch;
    }
  }

 private:
  std::shared_ptr<SpilledSides> sides_;
  std::shared_ptr<const HashJoinSpec> spec_;
  JoinSpill nested_;
  std::shared_ptr<const Schema> schema_;
  std::unique_ptr<BatchReader> current_;
  int64_t next_part_ = 0;
};

// Partitions a spilled join splits into at each level.
constexpr int kSpillPartitions = 64;

// Build sides up to this many rows are looked up by a JoinKeyFilter; larger ones are only
// checked against their key range.
constexpr size_t kKeyFilterLookupRows = size_t{1} << 22;
// A join of one integer key whose keys span fewer values than this (or than 16 per build row)
// keeps a bit per value of the span for its JoinKeyFilter (1 MiB at most, or 2 bytes a row).
constexpr uint64_t kKeyBitsLimit = uint64_t{1} << 23;
// A JoinKeyFilter that has kept 90% of the first this many rows or more stops checking.
constexpr int64_t kFilterTrialRows = 1 << 17;

class HashJoinOperator;

// A join's probe key column, checked while a scan below decodes it: rows whose key the build
// side does not hold are dropped before the scan decodes their other columns (see
// HashJoinOperator::OfferKeyFilter). The first check builds the join's build side.
class JoinKeyFilter : public parquet::RowFilter {
 public:
  JoinKeyFilter(const HashJoinOperator* join, int column) : join_(join), column_(column) {}
  std::vector<int> columns() const override { return {column_}; }
  Result<std::vector<uint8_t>> Select(const Batch& probe, int64_t* selected) const override;
  std::string label() const override { return "join keys"; }
  // The build side's least and greatest key (builds it first); none once spilled.
  Result<std::optional<parquet::KeptRange>> Range() const override;

 private:
  const HashJoinOperator* join_;  // owns the probe side, and so the scan holding this filter
  int column_;
};

class HashJoinOperator : public Operator {
 public:
  HashJoinOperator(std::unique_ptr<Operator> probe, std::unique_ptr<Operator> build,
                   std::shared_ptr<const HashJoinSpec> spec, JoinSpill spill)
      : probe_(std::move(probe)), build_input_(std::move(build)), spec_(std::move(spec)),
        spill_(std::move(spill)), memory_limit_(spill_.memory_limit),
        state_(std::make_unique<State>()) {
    pair_schema_ = PairSchema(*probe_->schema(), *build_input_->schema());
    output_schema_ = !OutputsProbeColumns(spec_->kind) ? build_input_->schema()
                     : OutputsBuildColumns(spec_->kind) ? pair_schema_
                                                        : probe_->schema();
    integer_mode_ = true;
    for (const auto& key : spec_->probe_keys) {
      integer_mode_ = integer_mode_ && IsIntegerKey(key->type());
    }
    for (size_t k = 0; k < spec_->probe_keys.size() && filter_key_ < 0; ++k) {
      const expr::BoundNode& key = spec_->probe_keys[k]->root();
      if (IsIntegerKey(key.type) && key.kind == expr::BoundKind::kColumn) {
        filter_key_ = static_cast<int>(k);
      }
    }
  }

  // The probe side's scan may still be decoding on pool threads that check the key filter
  // (which reads state_): it goes first, its filter told to build nothing any more.
  ~HashJoinOperator() override {
    state_->closing.store(true, std::memory_order_relaxed);
    tail_.reset();
    probe_.reset();
  }

  std::shared_ptr<const Schema> schema() const override { return output_schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    while (true) {
      if (tail_) return tail_->Next();
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, probe_->Next());
      if (!batch) {
        TARN_ASSIGN_OR_RETURN(tail_, OpenTail());
        if (!tail_) return batch;
        continue;
      }
      TARN_ASSIGN_OR_RETURN(batch, TransformBatch(std::move(batch)));
      if (batch->num_rows > 0) return batch;
    }
  }
  Operator* per_batch_input() override { return probe_.get(); }

  // A filter on probe columns (which the output carries as they are) goes to the probe side.
  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    for (int column : filter->columns()) {
      if (column < 0 || column >= probe_->schema()->num_fields()) return false;
    }
    return probe_->AddRowFilter(std::move(filter));
  }

  // Inner, semi, right outer, right semi and right anti joins (whose probe rows without a
  // match output nothing) with an integer key that is a probe column
  // (filter_key_): hands the probe side a filter on that column (JoinKeyFilter) that drops
  // rows whose key the build side does not hold (they output nothing), so a scan below decodes
  // the other columns only for rows that can match. With several keys only that one is
  // checked (the join checks them all).
  void OfferKeyFilter() {
    if (spec_->kind != JoinKind::kInner && spec_->kind != JoinKind::kSemi &&
        spec_->kind != JoinKind::kRightOuter && !IsRightSemiOrAnti(spec_->kind)) {
      return;
    }
    if (filter_key_ < 0) return;
    const expr::BoundNode& key = spec_->probe_keys[static_cast<size_t>(filter_key_)]->root();
    probe_->AddRowFilter(std::make_shared<JoinKeyFilter>(this, key.column_index));
  }

  // The least and greatest filter key of the build rows (low > high when there are none), or
  // nullopt when the build side went to partition files or the query is over. Builds the
  // build side first if need be.
  Result<std::optional<std::pair<int64_t, int64_t>>> BuildKeyRange() const {
    const State& state = *state_;
    if (state.closing.load(std::memory_order_relaxed)) {
      return std::optional<std::pair<int64_t, int64_t>>();
    }
    TARN_RETURN_NOT_OK(EnsureBuilt().status());
    if (state.spilled) return std::optional<std::pair<int64_t, int64_t>>();
    return std::optional<std::pair<int64_t, int64_t>>(std::make_pair(state.key_min, state.key_max));
  }

  // Of `keys` (a probe key column), the rows whose key the build side holds: their bits in
  // `keep`, and how many. Builds the build side first if need be.
  Result<int64_t> SelectKnownKeys(const Column& keys, uint8_t* keep) const {
    const State& state = *state_;
    const int64_t rows = keys.length;
    if (state.closing.load(std::memory_order_relaxed)) {  // the query is over
      std::memset(keep, 0xFF, static_cast<size_t>((rows + 7) / 8));
      return rows;
    }
    TARN_RETURN_NOT_OK(EnsureBuilt().status());
    if (state.spilled) {  // no table in memory: keep everything
      std::memset(keep, 0xFF, static_cast<size_t>((rows + 7) / 8));
      return rows;
    }
    if (state.filter_off.load(std::memory_order_relaxed)) {
      std::memset(keep, 0xFF, static_cast<size_t>((rows + 7) / 8));
      return rows;
    }
    const int64_t low = state.key_min;
    const int64_t high = state.key_max;
    const uint8_t* valid = keys.validity ? keys.validity->data() : nullptr;
    int64_t kept = 0;
    if (!state.key_bits.empty()) {
      // One bit per key of the range: no branch, no probe.
      const uint64_t* bits = state.key_bits.data();
      const uint64_t beyond = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) + 1;
      expr::WithTypedValues(keys, expr::PhysOf(keys.type), [&](const auto* values) {
        auto found = [&](int64_t row) {
          const uint64_t offset =
              static_cast<uint64_t>(static_cast<int64_t>(values[row])) - static_cast<uint64_t>(low);
          const uint64_t at = offset < beyond ? offset : beyond;  // bit `beyond` is 0
          return static_cast<unsigned>((bits[at >> 6] >> (at & 63)) & 1);
        };
        // A byte of rows assembled in a register, then stored once.
        const int64_t whole = rows & ~int64_t{7};
        for (int64_t row = 0; row < whole; row += 8) {
          unsigned byte = 0;
          for (int j = 0; j < 8; ++j) byte |= found(row + j) << j;
          keep[row >> 3] = static_cast<uint8_t>(byte);
          kept += __builtin_popcount(byte);
        }
        for (int64_t row = whole; row < rows; ++row) {
          const unsigned bit = found(row);
          keep[row >> 3] |= static_cast<uint8_t>(bit << (row & 7));
          kept += bit;
        }
      });
      if (valid != nullptr) {
        kept = 0;
        const int64_t bytes = (rows + 7) / 8;
        for (int64_t i = 0; i < bytes; ++i) {
          keep[i] &= valid[i];
          kept += __builtin_popcount(keep[i]);
        }
      }
    } else {
      // A large table costs a cache miss per lookup: then only the key range is checked, as
      // it is for a join of several keys.
      const bool lookup = !state.slots.empty() && state.next.size() <= kKeyFilterLookupRows;
      const KeySlot* slots = state.slots.data();
      expr::WithTypedValues(keys, expr::PhysOf(keys.type), [&](const auto* values) {
        const uint64_t mask = state.mask;
        for (int64_t row = 0; row < rows; ++row) {
          if (lookup && row + kPrefetchAhead < rows) {
            const uint64_t ahead = static_cast<uint64_t>(values[row + kPrefetchAhead]);
            __builtin_prefetch(&slots[HashInteger(ahead) & mask]);
          }
          const int64_t key = static_cast<int64_t>(values[row]);
          bool found = (valid == nullptr || GetBit(valid, row)) && key >= low && key <= high;
          if (found && lookup) found = slots[FindSlot(slots, mask, key)].row != kEmpty;
          keep[row >> 3] |= static_cast<uint8_t>(found) << (row & 7);
          kept += found;
        }
      });
    }
    const int64_t checked = state.filter_checked.fetch_add(rows) + rows;
    const int64_t kept_all = state.filter_kept.fetch_add(kept) + kept;
    if (checked >= kFilterTrialRows && kept_all * 10 >= checked * 9) {
      state.filter_off.store(true, std::memory_order_relaxed);
    }
    return kept;
  }

  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    TARN_ASSIGN_OR_RETURN(JoinBuild * build, EnsureBuilt());
    std::vector<std::shared_ptr<Column>> keys;
    for (const auto& key : spec_->probe_keys) {
      TARN_ASSIGN_OR_RETURN(auto column, key->Evaluate(*batch));
      keys.push_back(std::move(column));
    }
    KeyRows probe_keys;
    ComputeKeyRows(keys, integer_mode_, batch->num_rows, &probe_keys);
    if (state_->spilled) {
      // Every probe row waits in its partition's file for the tail.
      // Probe rows without a match are output by left, full and anti joins.
      const bool keep_null = spec_->kind == JoinKind::kLeftOuter ||
                             spec_->kind == JoinKind::kFullOuter ||
                             spec_->kind == JoinKind::kAnti;
      TARN_RETURN_NOT_OK(Route(*batch, probe_keys, state_->spilled->probe.get(), keep_null));
      return MakeEmptyColumnsBatch(output_schema_, 0);
    }
    if (IsRightSemiOrAnti(spec_->kind) && !spec_->residual) {
      MarkMatches(probe_keys, batch->num_rows, build);
      return MakeEmptyColumnsBatch(output_schema_, 0);
    }
    std::vector<int64_t> probe_rows;
    std::vector<int64_t> build_rows;
    // Semi and anti joins without a residual only need to know whether a match exists.
    const bool first_match_only = !OutputsBuildColumns(spec_->kind) && !spec_->residual;
    FindPairs(probe_keys, batch->num_rows, first_match_only, &probe_rows, &build_rows);
    return FinishProbe(spec_->kind, spec_->residual.get(), output_schema_, pair_schema_, batch,
                       build, &probe_rows, &build_rows);
  }

  // A spilled join owes the joins of its partitions once every probe row is in them.
  Result<std::unique_ptr<Operator>> OpenTail() const override {
    // A join that outputs build rows at the end owes them even when no probe row came.
    if (OutputsBuildRowsAtEnd(spec_->kind)) TARN_RETURN_NOT_OK(EnsureBuilt().status());
    std::shared_ptr<SpilledSides> sides = state_->spilled;
    if (!sides) return std::unique_ptr<Operator>();
    TARN_RETURN_NOT_OK(sides->probe->Finish());
    JoinSpill nested = spill_;
    nested.level = spill_.level + 1;
    nested.folder = sides->folder;
    // The partitions are joined up to `threads` at once: each gets its share of the limit. A
    // partition's join runs on the one thread that took it, and so do its own partitions'.
    nested.memory_limit = std::max<int64_t>(1, spill_.memory_limit / std::max(1, spill_.threads));
    nested.threads = 1;
    return std::unique_ptr<Operator>(std::make_unique<PartitionJoins>(
        std::move(sides), spec_, std::move(nested), output_schema_));
  }

  // Builds on the first call; later calls return the same build (or the same error).
  Result<JoinBuild*> EnsureBuilt() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!state_->done) {
      state_->done = true;
      state_->status = Build();
    }
    if (!state_->status.ok()) return state_->status;
    return state_->build.get();
  }

  std::string label() const override { return "HASH_JOIN"; }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines{JoinKindName(spec_->kind)};
    for (const std::string& text : spec_->condition_text) lines.push_back(text);
    if (spec_->residual) lines.push_back("residual: " + spec_->residual->ToString());
    return lines;
  }
  std::vector<const Operator*> inputs() const override {
    return {probe_.get(), build_input_.get()};
  }

 private:
  struct State {
    std::mutex mu;  // guards the build: taken by every probe batch until it is done
    bool done = false;
    Status status;
    std::unique_ptr<JoinBuild> build;
    KeyRows keys;
    std::vector<uint32_t> buckets;  // head row of each bucket's chain, kEmpty when none
    std::vector<uint32_t> next;     // the next row of a row's chain
    uint64_t mask = 0;
    // Set when the build side passed memory_limit and went to partition files; the build
    // above is then empty and every probe row goes to its partition's file.
    std::shared_ptr<SpilledSides> spilled;
    // The filter key (filter_key_): the least and greatest of the build rows without a NULL
    // key (min > max when none).
    int64_t key_min = INT64_MAX;
    int64_t key_max = INT64_MIN;
    // The filter key, when its range is small enough (kKeyBitsLimit): bit k - key_min set for
    // each build key k, and one 0 bit past the range, for JoinKeyFilter. Empty otherwise.
    std::vector<uint64_t> key_bits;
    // One integer key: an open-addressing table of the distinct keys, each with the first of
    // its rows (the others follow through `next`), so a probe touches one slot to find a key
    // or its absence. Replaces `buckets`.
    std::vector<KeySlot> slots;
    // JoinKeyFilter: rows checked and kept so far; a filter that keeps nearly every row stops
    // checking (its lookups would cost more than the rows it saves).
    mutable std::atomic<int64_t> filter_checked{0};
    mutable std::atomic<int64_t> filter_kept{0};
    mutable std::atomic<bool> filter_off{false};
    // Set by the destructor: a key filter still checking keeps every row and builds nothing.
    std::atomic<bool> closing{false};
  };

  Status OutOfMemory(int64_t needed, int64_t rows) const {
    std::string note = SpillDisabledNote(spill_.temp_directory);
    if (note.empty() && spill_.level >= kMaxSpillLevels) {
      note = StrCat(" (after splitting its input ", spill_.level,
                    " times: too many rows share one key)");
    }
    return Status::ResourceExhausted("Out of Memory Error: ", label(), " needs ",
                                     FormatMemorySize(needed), " for the ", rows,
                                     " rows of its build side, more than the memory_limit of ",
                                     FormatMemorySize(memory_limit_), note);
  }

  bool CanSpill() const {
    return !spill_.temp_directory.empty() && spill_.level < kMaxSpillLevels;
  }

  // REQUIRES: state_->mu held.
  Status StartSpill() const {
    auto sides = std::make_shared<SpilledSides>();
    sides->folder = spill_.folder ? spill_.folder
                                  : std::make_shared<SpillFolder>(spill_.temp_directory);
    const std::string level = std::to_string(spill_.level);
    sides->build = std::make_unique<SpillPartitions>(
        sides->folder.get(), "join-build-" + level, build_input_->schema(), kSpillPartitions);
    sides->probe = std::make_unique<SpillPartitions>(
        sides->folder.get(), "join-probe-" + level, probe_->schema(), kSpillPartitions);
    state_->spilled = std::move(sides);
    return Status::OK();
  }

  // Appends each row of `batch` (whose keys are `keys`) to its partition in `parts`. A row with
  // a NULL key matches nothing: it is dropped when the join does not output it (`keep_null`
  // false), else spread over the partitions by row number (hashing would put every such row in
  // one partition, at every level), where the partition's join outputs it as its kind says.
  Status Route(const Batch& batch, const KeyRows& keys, SpillPartitions* parts,
               bool keep_null) const {
    std::vector<uint16_t> partition_of(static_cast<size_t>(batch.num_rows), 0);
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      uint16_t& partition = partition_of[static_cast<size_t>(row)];
      if (keys.has_null[static_cast<size_t>(row)] != 0) {
        partition = keep_null ? static_cast<uint16_t>(row % parts->count()) : kDropRow;
        continue;
      }
      partition =
          static_cast<uint16_t>(PartitionOfHash(Hash(keys, row), spill_.level, parts->count()));
    }
    return parts->Append(batch, partition_of);
  }

  Status RouteBuild(const Batch& batch) const {
    std::vector<std::shared_ptr<Column>> keys;
    for (const auto& key : spec_->build_keys) {
      TARN_ASSIGN_OR_RETURN(auto column, key->Evaluate(batch));
      keys.push_back(std::move(column));
    }
    KeyRows key_rows;
    ComputeKeyRows(keys, integer_mode_, batch.num_rows, &key_rows);
    // Build rows without a match are output by full, right and right anti joins only.
    return Route(batch, key_rows, state_->spilled->build.get(),
                 spec_->kind == JoinKind::kFullOuter || spec_->kind == JoinKind::kRightOuter ||
                     spec_->kind == JoinKind::kRightAnti);
  }

  // Moves the rows held so far to the partition files, then the rest of the build input.
  // REQUIRES: state_->mu held.
  Status SpillBuild(std::vector<std::shared_ptr<Batch>> held) const {
    TARN_RETURN_NOT_OK(StartSpill());
    for (const auto& batch : held) TARN_RETURN_NOT_OK(RouteBuild(*batch));
    held.clear();
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, build_input_->Next());
      if (!batch) break;
      if (batch->num_rows > 0) TARN_RETURN_NOT_OK(RouteBuild(*batch));
    }
    TARN_RETURN_NOT_OK(state_->spilled->build->Finish());
    TARN_ASSIGN_OR_RETURN(state_->build,
                          JoinBuild::FromBatches({}, build_input_->schema(), label(),
                                                 NeedsNullBuildRow(spec_->kind),
                                                 OutputsBuildRowsAtEnd(spec_->kind)));
    return Status::OK();
  }

  // REQUIRES: state_->mu held.
  Status Build() const {
    const int64_t per_row = static_cast<int64_t>(8 * spec_->build_keys.size() + 24);
    std::vector<std::shared_ptr<Batch>> held;
    int64_t rows = 0;
    int64_t bytes = 0;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, build_input_->Next());
      if (!batch) break;
      if (batch->num_rows == 0) continue;
      rows += batch->num_rows;
      bytes += BatchMemoryBytes(*batch);
      held.push_back(std::move(batch));
      const int64_t needed = bytes + rows * per_row;
      if (needed > memory_limit_) {
        if (!CanSpill()) return OutOfMemory(needed, rows);
        return SpillBuild(std::move(held));
      }
    }
    TARN_ASSIGN_OR_RETURN(state_->build,
                          JoinBuild::FromBatches(std::move(held), build_input_->schema(), label(),
                                                 NeedsNullBuildRow(spec_->kind),
                                                 OutputsBuildRowsAtEnd(spec_->kind)));
    const JoinBuild& build = *state_->build;
    // Keys of every row, the outer joins' NULL row at the end included (and never inserted).
    std::vector<std::shared_ptr<Column>> keys;
    for (const auto& key : spec_->build_keys) {
      TARN_ASSIGN_OR_RETURN(auto column, key->Evaluate(build.batch()));
      keys.push_back(std::move(column));
    }
    ComputeKeyRows(keys, integer_mode_, build.batch().num_rows, &state_->keys);
    // Chained buckets: twice the rows. Key slots (16 bytes, one per distinct key): at most
    // three in four used, so a miss ends within a few slots.
    const bool key_slots = integer_mode_ && spec_->build_keys.size() == 1;
    uint64_t buckets = 16;
    const uint64_t wanted = key_slots ? static_cast<uint64_t>(rows) * 4 / 3 + 1
                                      : static_cast<uint64_t>(rows) * 2;
    while (buckets < wanted) buckets <<= 1;
    const int64_t slot_bytes = key_slots ? 16 : 4;
    const int64_t table_bytes = static_cast<int64_t>(buckets) * slot_bytes + rows * 4 +
                                static_cast<int64_t>(state_->keys.ints.size() * 8 +
                                                     state_->keys.bytes.size() +
                                                     state_->keys.hashes.size() * 8);
    if (build.memory_bytes() + table_bytes > memory_limit_) {
      if (!CanSpill()) return OutOfMemory(build.memory_bytes() + table_bytes, rows);
      // The keys took more than estimated (long strings): the rows go to partitions after all.
      std::shared_ptr<Batch> all = SliceBatch(build.batch(), 0, rows);
      state_->keys = KeyRows();
      state_->build.reset();
      return SpillBuild({std::move(all)});
    }
    state_->next.assign(static_cast<size_t>(rows), kEmpty);
    state_->mask = buckets - 1;
    if (filter_key_ >= 0) {
      const Column& column = *keys[static_cast<size_t>(filter_key_)];
      const uint8_t* has_null = state_->keys.has_null.data();
      expr::WithTypedValues(column, expr::PhysOf(column.type), [&](const auto* values) {
        for (int64_t row = 0; row < rows; ++row) {
          if (has_null[row] != 0) continue;
          const int64_t key = static_cast<int64_t>(values[row]);
          state_->key_min = std::min(state_->key_min, key);
          state_->key_max = std::max(state_->key_max, key);
        }
        const uint64_t range =
            static_cast<uint64_t>(state_->key_max) - static_cast<uint64_t>(state_->key_min);
        if (state_->key_min <= state_->key_max &&
            range < std::max<uint64_t>(kKeyBitsLimit, static_cast<uint64_t>(rows) * 16) &&
            static_cast<int64_t>(range / 8) < memory_limit_ / 4) {
          state_->key_bits.assign(range / 64 + 2, 0);
          for (int64_t row = 0; row < rows; ++row) {
            if (has_null[row] != 0) continue;
            const uint64_t at = static_cast<uint64_t>(static_cast<int64_t>(values[row])) -
                                static_cast<uint64_t>(state_->key_min);
            state_->key_bits[at >> 6] |= uint64_t{1} << (at & 63);
          }
        }
      });
    }
    if (key_slots) {
      state_->slots.assign(buckets, KeySlot{0, kEmpty, 0});
      KeySlot* slots = state_->slots.data();
      const int64_t* key_values = state_->keys.ints.data();
      // Inserted last row first, so each key's rows chain in ascending order.
      for (int64_t row = rows - 1; row >= 0; --row) {
        if (state_->keys.has_null[static_cast<size_t>(row)] != 0) continue;
        KeySlot& slot = slots[FindSlot(slots, state_->mask, key_values[row])];
        state_->next[static_cast<size_t>(row)] = slot.row;
        slot.key = key_values[row];
        slot.row = static_cast<uint32_t>(row);
        ++slot.count;
      }
      return Status::OK();
    }
    state_->buckets.assign(buckets, kEmpty);
    // Inserted last row first, so each chain lists its rows in ascending order.
    for (int64_t row = rows - 1; row >= 0; --row) {
      if (state_->keys.has_null[static_cast<size_t>(row)] != 0) continue;
      const uint64_t bucket = Hash(state_->keys, row) & state_->mask;
      state_->next[static_cast<size_t>(row)] = state_->buckets[bucket];
      state_->buckets[bucket] = static_cast<uint32_t>(row);
    }
    return Status::OK();
  }

  uint64_t Hash(const KeyRows& keys, int64_t row) const {
    if (integer_mode_ && spec_->probe_keys.size() == 1) {
      return HashInteger(static_cast<uint64_t>(keys.ints[static_cast<size_t>(row)]));
    }
    return keys.hashes[static_cast<size_t>(row)];
  }

  // A right semi or anti join without a residual: marks every build row whose key a probe row
  // holds. The rows of one key are marked together, so a key whose first row is marked is
  // skipped.
  // Calls visit(row, slot) for each probe row (of `rows`, one integer key) whose key the
  // build side holds, fetching the slot 16 rows ahead.
  template <typename Visit>
  void ForEachKeySlot(const KeyRows& probe, int64_t rows, Visit&& visit) const {
    const KeySlot* slots = state_->slots.data();
    const int64_t* keys = probe.ints.data();
    const uint8_t* has_null = probe.has_null.data();
    const uint64_t mask = state_->mask;
    for (int64_t row = 0; row < rows; ++row) {
      if (row + kPrefetchAhead < rows) {
        const uint64_t ahead = static_cast<uint64_t>(keys[row + kPrefetchAhead]);
        __builtin_prefetch(&slots[HashInteger(ahead) & mask]);
      }
      if (has_null[row] != 0) continue;
      const KeySlot& slot = slots[FindSlot(slots, mask, keys[row])];
      if (slot.row != kEmpty) visit(row, slot);
    }
  }

  void MarkMatches(const KeyRows& probe, int64_t rows, JoinBuild* build) const {
    if (integer_mode_ && spec_->probe_keys.size() == 1) {
      const uint32_t* next = state_->next.data();
      ForEachKeySlot(probe, rows, [&](int64_t, const KeySlot& slot) {
        if (build->matched(slot.row)) return;
        for (uint32_t b = slot.row; b != kEmpty; b = next[b]) build->MarkMatched(b);
      });
      return;
    }
    std::vector<int64_t> probe_rows;
    std::vector<int64_t> build_rows;
    FindPairs(probe, rows, false, &probe_rows, &build_rows);
    for (int64_t b : build_rows) build->MarkMatched(b);
  }

  void FindPairs(const KeyRows& probe, int64_t rows, bool first_match_only,
                 std::vector<int64_t>* probe_rows, std::vector<int64_t>* build_rows) const {
    const State& state = *state_;
    const uint32_t* buckets = state.buckets.data();
    const uint32_t* next = state.next.data();
    const size_t num_keys = spec_->probe_keys.size();
    probe_rows->reserve(static_cast<size_t>(rows));
    build_rows->reserve(static_cast<size_t>(rows));
    if (integer_mode_ && num_keys == 1) {
      ForEachKeySlot(probe, rows, [&](int64_t row, const KeySlot& slot) {
        probe_rows->push_back(row);
        build_rows->push_back(slot.row);
        if (slot.count == 1 || first_match_only) return;
        for (uint32_t b = next[slot.row]; b != kEmpty; b = next[b]) {
          probe_rows->push_back(row);
          build_rows->push_back(b);
        }
      });
      return;
    }
    for (int64_t row = 0; row < rows; ++row) {
      if (probe.has_null[static_cast<size_t>(row)] != 0) continue;
      const uint64_t hash = probe.hashes[static_cast<size_t>(row)];
      for (uint32_t b = buckets[hash & state.mask]; b != kEmpty; b = next[b]) {
        if (state.keys.hashes[b] != hash) continue;
        bool equal;
        if (integer_mode_) {
          equal = std::equal(probe.ints.begin() + static_cast<int64_t>(row * num_keys),
                             probe.ints.begin() + static_cast<int64_t>((row + 1) * num_keys),
                             state.keys.ints.begin() + static_cast<int64_t>(b * num_keys));
        } else {
          equal = probe.Bytes(row) == state.keys.Bytes(b);
        }
        if (!equal) continue;
        probe_rows->push_back(row);
        build_rows->push_back(b);
        if (first_match_only) break;
      }
    }
  }

  std::unique_ptr<Operator> probe_;
  std::unique_ptr<Operator> build_input_;
  std::shared_ptr<const HashJoinSpec> spec_;
  JoinSpill spill_;
  int64_t memory_limit_;
  bool integer_mode_ = true;
  // The key a JoinKeyFilter checks: the first of integer type whose probe side is a column;
  // -1 when none.
  int filter_key_ = -1;
  std::shared_ptr<const Schema> pair_schema_;
  std::shared_ptr<const Schema> output_schema_;
  std::unique_ptr<State> state_;
  std::unique_ptr<Operator> tail_;  // Next() without a feed: the spilled partitions' joins
};

Result<std::vector<uint8_t>> JoinKeyFilter::Select(const Batch& probe, int64_t* selected) const {
  if (column_ >= probe.num_columns() || !probe.columns[static_cast<size_t>(column_)]) {
    return Status::Internal("a join key filter reads column ", column_, " of a batch of ",
                            probe.num_columns());
  }
  const Column& keys = *probe.columns[static_cast<size_t>(column_)];
  std::vector<uint8_t> keep(static_cast<size_t>((keys.length + 7) / 8), 0);
  TARN_ASSIGN_OR_RETURN(*selected, join_->SelectKnownKeys(keys, keep.data()));
  return keep;
}

Result<std::optional<parquet::KeptRange>> JoinKeyFilter::Range() const {
  TARN_ASSIGN_OR_RETURN(auto range, join_->BuildKeyRange());
  if (!range) return std::optional<parquet::KeptRange>();
  return std::optional<parquet::KeptRange>(parquet::KeptRange{column_, range->first, range->second});
}

Result<std::unique_ptr<Operator>> MakeHashJoinAt(std::unique_ptr<Operator> probe,
                                                 std::unique_ptr<Operator> build,
                                                 std::shared_ptr<const HashJoinSpec> spec,
                                                 JoinSpill spill) {
  const JoinKind kind = spec->kind;
  const int probe_columns = probe->schema()->num_fields();
  ExecContext gather;  // the partitions' joins run on the thread that takes their part
  gather.pool = spill.level == 0 ? spill.pool : nullptr;
  gather.threads = spill.level == 0 ? spill.threads : 1;
  const bool planned = spill.level == 0;
  auto join = std::make_unique<HashJoinOperator>(std::move(probe), std::move(build),
                                                 std::move(spec), std::move(spill));
  if (planned) join->OfferKeyFilter();
  const HashJoinOperator* raw = join.get();
  return WithBuildRowsAtEnd(
      std::move(join), kind, probe_columns,
      [raw]() -> Result<const JoinBuild*> {
        TARN_ASSIGN_OR_RETURN(JoinBuild * built, raw->EnsureBuilt());
        return built;
      },
      gather);
}

}  // namespace

Result<std::unique_ptr<Operator>> MakeHashJoin(std::unique_ptr<Operator> probe,
                                               std::unique_ptr<Operator> build, HashJoinSpec spec,
                                               const ExecContext& context) {
  if (spec.probe_keys.empty() || spec.probe_keys.size() != spec.build_keys.size()) {
    return Status::Internal("HASH_JOIN needs pairs of keys");
  }
  for (size_t k = 0; k < spec.probe_keys.size(); ++k) {
    if (spec.probe_keys[k]->type() != spec.build_keys[k]->type()) {
      return Status::Internal("HASH_JOIN keys of different types: ",
                              spec.probe_keys[k]->type().ToString(), " and ",
                              spec.build_keys[k]->type().ToString());
    }
  }
  JoinSpill spill;
  spill.memory_limit = context.memory_limit;
  spill.temp_directory = context.temp_directory;
  spill.pool = context.pool;
  spill.threads = std::max(1, context.threads);
  spill.interrupted = context.interrupted;
  return MakeHashJoinAt(std::move(probe), std::move(build),
                        std::make_shared<const HashJoinSpec>(std::move(spec)), std::move(spill));
}

}  // namespace tarn::sql
