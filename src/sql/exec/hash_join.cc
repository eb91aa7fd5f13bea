#include "sql/exec/hash_join.h"

#include <mutex>
#include <utility>

#include "expr/kernels.h"
#include "sql/exec/group_table.h"

namespace tarn::sql {
namespace {

using expr::Phys;

constexpr uint32_t kEmpty = UINT32_MAX;

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

class HashJoinOperator : public Operator {
 public:
  HashJoinOperator(std::unique_ptr<Operator> probe, std::unique_ptr<Operator> build,
                   HashJoinSpec spec, int64_t memory_limit)
      : probe_(std::move(probe)), build_input_(std::move(build)), spec_(std::move(spec)),
        memory_limit_(memory_limit), state_(std::make_unique<State>()) {
    pair_schema_ = PairSchema(*probe_->schema(), *build_input_->schema());
    output_schema_ = OutputsBuildColumns(spec_.kind) ? pair_schema_ : probe_->schema();
    integer_mode_ = true;
    for (const auto& key : spec_.probe_keys) integer_mode_ = integer_mode_ && IsIntegerKey(key->type());
  }

  std::shared_ptr<const Schema> schema() const override { return output_schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, probe_->Next());
      if (!batch) return batch;
      TARN_ASSIGN_OR_RETURN(batch, TransformBatch(std::move(batch)));
      if (batch->num_rows > 0) return batch;
    }
  }
  Operator* per_batch_input() override { return probe_.get(); }

  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    TARN_ASSIGN_OR_RETURN(JoinBuild * build, EnsureBuilt());
    std::vector<std::shared_ptr<Column>> keys;
    for (const auto& key : spec_.probe_keys) {
      TARN_ASSIGN_OR_RETURN(auto column, key->Evaluate(*batch));
      keys.push_back(std::move(column));
    }
    KeyRows probe_keys;
    ComputeKeyRows(keys, integer_mode_, batch->num_rows, &probe_keys);
    std::vector<int64_t> probe_rows;
    std::vector<int64_t> build_rows;
    // Semi and anti joins without a residual only need to know whether a match exists.
    const bool first_match_only = !OutputsBuildColumns(spec_.kind) && !spec_.residual;
    FindPairs(probe_keys, batch->num_rows, first_match_only, &probe_rows, &build_rows);
    return FinishProbe(spec_.kind, spec_.residual.get(), output_schema_, pair_schema_, batch, build,
                       &probe_rows, &build_rows);
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
    std::vector<std::string> lines{JoinKindName(spec_.kind)};
    for (const std::string& text : spec_.condition_text) lines.push_back(text);
    if (spec_.residual) lines.push_back("residual: " + spec_.residual->ToString());
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
  };

  // REQUIRES: state_->mu held.
  Status Build() const {
    const int64_t per_row = static_cast<int64_t>(8 * spec_.build_keys.size() + 24);
    const bool outer = spec_.kind == JoinKind::kLeftOuter || spec_.kind == JoinKind::kFullOuter;
    TARN_ASSIGN_OR_RETURN(state_->build,
                          JoinBuild::Read(build_input_.get(), label(), outer,
                                          spec_.kind == JoinKind::kFullOuter, per_row,
                                          memory_limit_));
    const JoinBuild& build = *state_->build;
    const int64_t rows = build.rows();
    // Keys of every row, the outer joins' NULL row at the end included (and never inserted).
    std::vector<std::shared_ptr<Column>> keys;
    for (const auto& key : spec_.build_keys) {
      TARN_ASSIGN_OR_RETURN(auto column, key->Evaluate(build.batch()));
      keys.push_back(std::move(column));
    }
    ComputeKeyRows(keys, integer_mode_, rows, &state_->keys);
    uint64_t buckets = 16;
    while (buckets < static_cast<uint64_t>(rows) * 2) buckets <<= 1;
    state_->buckets.assign(buckets, kEmpty);
    state_->next.assign(static_cast<size_t>(rows), kEmpty);
    state_->mask = buckets - 1;
    const int64_t table_bytes = static_cast<int64_t>(buckets * 4) + rows * 4 +
                                static_cast<int64_t>(state_->keys.ints.size() * 8 +
                                                     state_->keys.bytes.size() +
                                                     state_->keys.hashes.size() * 8);
    if (build.memory_bytes() + table_bytes > memory_limit_) {
      return Status::ResourceExhausted(
          "Out of Memory Error: ", label(), " needs ",
          FormatMemorySize(build.memory_bytes() + table_bytes), " for the ", rows,
          " rows of its build side, more than the memory_limit of ",
          FormatMemorySize(memory_limit_));
    }
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
    if (integer_mode_ && spec_.probe_keys.size() == 1) {
      return HashInteger(static_cast<uint64_t>(keys.ints[static_cast<size_t>(row)]));
    }
    return keys.hashes[static_cast<size_t>(row)];
  }

  void FindPairs(const KeyRows& probe, int64_t rows, bool first_match_only,
                 std::vector<int64_t>* probe_rows, std::vector<int64_t>* build_rows) const {
    const State& state = *state_;
    const uint32_t* buckets = state.buckets.data();
    const uint32_t* next = state.next.data();
    const size_t num_keys = spec_.probe_keys.size();
    probe_rows->reserve(static_cast<size_t>(rows));
    build_rows->reserve(static_cast<size_t>(rows));
    if (integer_mode_ && num_keys == 1) {
      const int64_t* build_keys = state.keys.ints.data();
      for (int64_t row = 0; row < rows; ++row) {
        if (probe.has_null[static_cast<size_t>(row)] != 0) continue;
        const int64_t key = probe.ints[static_cast<size_t>(row)];
        for (uint32_t b = buckets[HashInteger(static_cast<uint64_t>(key)) & state.mask];
             b != kEmpty; b = next[b]) {
          if (build_keys[b] != key) continue;
          probe_rows->push_back(row);
          build_rows->push_back(b);
          if (first_match_only) break;
        }
      }
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
  HashJoinSpec spec_;
  int64_t memory_limit_;
  bool integer_mode_ = true;
  std::shared_ptr<const Schema> pair_schema_;
  std::shared_ptr<const Schema> output_schema_;
  std::unique_ptr<State> state_;
};

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
  const JoinKind kind = spec.kind;
  const int probe_columns = probe->schema()->num_fields();
  auto join = std::make_unique<HashJoinOperator>(std::move(probe), std::move(build),
                                                 std::move(spec), context.memory_limit);
  if (kind != JoinKind::kFullOuter) return std::unique_ptr<Operator>(std::move(join));
  const HashJoinOperator* raw = join.get();
  std::unique_ptr<Operator> gathered = MakeGather(std::move(join), context);
  return MakeUnmatchedBuildRows(
      std::move(gathered),
      [raw]() -> Result<const JoinBuild*> {
        TARN_ASSIGN_OR_RETURN(JoinBuild * built, raw->EnsureBuilt());
        return built;
      },
      probe_columns);
}

}  // namespace tarn::sql
