// GroupTable: assigns a dense group id to each distinct key (one or more columns) seen.
//
// Two typed hash tables: a single integer-like key (any integer width, date, time, timestamp)
// probes an open-addressing table of int64 keys; any other key (strings, several columns,
// floats, decimals) is serialized to bytes and probes a table of byte strings. NULLs group
// together; NaN groups with NaN and -0.0 with 0.0. The key values of each group are kept in
// column builders so the aggregate can emit them.
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::sql {

class GroupTable {
 public:
  explicit GroupTable(std::vector<DataType> key_types);
  ~GroupTable();
  GroupTable(const GroupTable&) = delete;
  GroupTable& operator=(const GroupTable&) = delete;

  // Fills (*ids)[i] with the group of row i of `keys` (one column per key type), creating
  // groups for new keys.
  Status Assign(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                std::vector<uint32_t>* ids);
  int64_t num_groups() const { return num_groups_; }
  // A frozen table adds no group: Assign gives kNoGroup to keys it does not hold (a hash
  // aggregate past its memory, which spills the rows of new keys instead).
  static constexpr uint32_t kNoGroup = UINT32_MAX;
  void set_frozen(bool frozen) { frozen_ = frozen; }
  // Bytes held: table slots, serialized keys and key values.
  int64_t MemoryBytes() const;
  // The key columns, one row per group in id order. Ends the table's use.
  std::vector<std::shared_ptr<Column>> FinishKeys();

  // Serializes row `row` of `column` into `out` (a tag byte for NULL), normalizing floats.
  static void AppendKeyBytes(const Column& column, int64_t row, std::string* out);

 private:
  template <typename T>
  void AssignIntegers(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                      uint32_t* ids);
  // A single var-length key: hashes and compares the values themselves (no serialization);
  // NULL is its own group.
  void AssignStrings(const Column& column, const std::vector<std::shared_ptr<Column>>& keys,
                     int64_t rows, uint32_t* ids);
  // Keys that are all columns with dictionary codes (see DictionaryCodes) and few
  // combinations of them: each combination is looked up once, its rows found through a map
  // from combined code to group. Returns false, assigning nothing, when the keys do not
  // qualify.
  bool AssignCoded(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                   uint32_t* ids);
  uint32_t AssignInteger(int64_t key, bool is_null, const std::vector<std::shared_ptr<Column>>& keys,
                         int64_t row);
  // Finds or adds the group of `key` (serialized keys, or string mode's raw values). Keys of
  // up to 16 bytes are hashed and compared as two words; `can_overread` says 16 bytes from
  // key.data() are readable.
  uint32_t AssignBytes(std::string_view key, bool can_overread,
                       const std::vector<std::shared_ptr<Column>>& keys, int64_t row);
  uint32_t NewGroup(const std::vector<std::shared_ptr<Column>>& keys, int64_t row);
  // Bytes mode: every row's serialized key, row r at [(*starts)[r], (*starts)[r + 1]).
  static void SerializeRows(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                            std::string* row_keys, std::vector<uint64_t>* row_starts);
  // The serialized key of one row, as SerializeRows writes it.
  static void SerializeRow(const std::vector<std::shared_ptr<Column>>& keys, int64_t row,
                           std::string* out);
  void GrowInteger();
  void GrowBytes();

  std::vector<DataType> key_types_;
  bool integer_mode_ = false;
  bool string_mode_ = false;  // one var-length key; byte_keys_ hold the raw values
  std::vector<std::unique_ptr<ColumnBuilder>> builders_;
  int64_t num_groups_ = 0;
  int64_t key_value_bytes_ = 0;
  // Integer mode: open addressing, slot_ids_ == UINT32_MAX marks an empty slot.
  std::vector<int64_t> int_keys_;
  std::vector<uint32_t> slot_ids_;
  uint32_t null_group_ = UINT32_MAX;
  // Bytes and string modes: slot_ids_ index into byte_keys_ (keys over 16 bytes) and
  // short_keys_; hashes cached per group.
  std::vector<std::string> byte_keys_;
  std::vector<uint64_t> byte_hashes_;
  // Keys of up to 16 bytes as zero-padded words (size > 16: in byte_keys_).
  struct ShortKey {
    uint64_t lo;
    uint64_t hi;
    uint32_t size;
  };
  std::vector<ShortKey> short_keys_;
  int64_t byte_key_bytes_ = 0;
  bool frozen_ = false;
};

// 64-bit hash of bytes / an integer (not cryptographic; good spread for hash tables).
uint64_t HashBytes(std::string_view bytes);
inline uint64_t HashInteger(uint64_t value) {
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdULL;
  value ^= value >> 33;
  value *= 0xc4ceb9fe1a85ec53ULL;
  value ^= value >> 33;
  return value;
}

}  // namespace tarn::sql
