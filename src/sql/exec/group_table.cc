#include "sql/exec/group_table.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "expr/eval/kernels.h"
#include "tarn/format.h"

namespace tarn::sql {
namespace {

using expr::Phys;

bool IsIntegerKey(const DataType& type) {
  switch (expr::PhysOf(type)) {
    case Phys::kI8: case Phys::kI16: case Phys::kI32: case Phys::kI64:
    case Phys::kU8: case Phys::kU16: case Phys::kU32: case Phys::kU64:
      return true;
    default:
      return false;
  }
}

int64_t LoadInteger(const Column& column, int64_t row) {
  switch (expr::PhysOf(column.type)) {
    case Phys::kI8: return column.values_as<int8_t>()[row];
    case Phys::kI16: return column.values_as<int16_t>()[row];
    case Phys::kI32: return column.values_as<int32_t>()[row];
    case Phys::kI64: return column.values_as<int64_t>()[row];
    case Phys::kU8: return column.values_as<uint8_t>()[row];
    case Phys::kU16: return column.values_as<uint16_t>()[row];
    case Phys::kU32: return column.values_as<uint32_t>()[row];
    case Phys::kU64: return static_cast<int64_t>(column.values_as<uint64_t>()[row]);
    default: return 0;
  }
}

constexpr uint32_t kEmpty = UINT32_MAX;

// Serialized keys prefix a variable-length value with its size: one byte below 255, else 255
// and 8 bytes.
uint64_t SizePrefixBytes(uint64_t size) { return size < 255 ? 1 : 9; }

// Writes the size prefix and the bytes at `out`; returns the bytes written.
uint64_t WriteSized(std::string_view value, char* out) {
  uint64_t size = value.size();
  uint64_t prefix = SizePrefixBytes(size);
  if (prefix == 1) {
    out[0] = static_cast<char>(size);
  } else {
    out[0] = static_cast<char>(255);
    std::memcpy(out + 1, &size, 8);
  }
  if (size > 0) std::memcpy(out + prefix, value.data(), size);
  return prefix + size;
}


// Serialized fixed-width values: floats as doubles, booleans as a byte.
uint64_t KeyWidth(const Column& column, Phys phys) {
  return phys == Phys::kF32 || phys == Phys::kF64 ? 8
         : phys == Phys::kBool                    ? 1
                                                  : static_cast<uint64_t>(column.type.FixedWidth());
}

// One key column's part of a serialized row key at `p`: a NULL tag, or a value tag and the
// fixed-width or size-prefixed value (floats normalized). Returns the bytes written.
uint64_t WriteKeyValue(const Column& column, Phys phys, int64_t row, char* p) {
  if (column.IsNull(row)) {
    *p = '\0';
    return 1;
  }
  *p++ = '\1';
  if (phys == Phys::kF32 || phys == Phys::kF64) {
    double v = phys == Phys::kF32 ? column.values_as<float>()[row] : column.values_as<double>()[row];
    if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
    if (v == 0) v = 0.0;  // -0.0 groups with 0.0
    std::memcpy(p, &v, 8);
    return 9;
  }
  if (phys == Phys::kBytes) return 1 + WriteSized(column.GetView(row), p);
  if (phys == Phys::kBool) {
    *p = column.GetBool(row) ? '\1' : '\0';
    return 2;
  }
  if (phys != Phys::kOther) {
    const int width = column.type.FixedWidth();
    std::memcpy(p, column.values->data() + row * width, static_cast<size_t>(width));
    return 1 + static_cast<uint64_t>(width);
  }
  return 1 + WriteSized(ValueText(column, row), p);
}

// Keys of up to 16 bytes are compared and hashed as two zero-padded 64-bit words.
struct ShortWords {
  uint64_t lo = 0;
  uint64_t hi = 0;
};

inline ShortWords LoadShort(const char* p, size_t size, bool can_overread) {
  ShortWords words;
  if (can_overread) {
    std::memcpy(&words.lo, p, 8);
    std::memcpy(&words.hi, p + 8, 8);
    if (size < 8) {
      words.lo &= (uint64_t{1} << (size * 8)) - 1;
      words.hi = 0;
    } else if (size < 16) {
      words.hi &= (uint64_t{1} << ((size - 8) * 8)) - 1;
    }
  } else {
    char buffer[16] = {};
    std::memcpy(buffer, p, size);
    std::memcpy(&words.lo, buffer, 8);
    std::memcpy(&words.hi, buffer + 8, 8);
  }
  return words;
}

inline uint64_t HashShort(const ShortWords& words, size_t size) {
  uint64_t hash = (words.lo ^ (size * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
  hash ^= (hash >> 29) ^ words.hi;
  return HashInteger(hash);
}

}  // namespace

uint64_t HashBytes(std::string_view bytes) {
  // One multiply per 8-byte word, one full mix at the end. The tail is read with fixed-size
  // loads (overlapping the words before it), never a variable-length copy.
  const char* data = bytes.data();
  const size_t size = bytes.size();
  auto load64 = [](const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  auto load32 = [](const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return static_cast<uint64_t>(v);
  };
  uint64_t hash = 0xcbf29ce484222325ULL ^ (size * 0x9e3779b97f4a7c15ULL);
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    hash = (hash ^ load64(data + i)) * 0xff51afd7ed558ccdULL;
    hash ^= hash >> 29;
  }
  if (i < size) {
    uint64_t tail;
    if (size >= 8) {
      tail = load64(data + size - 8);
    } else if (size >= 4) {
      tail = load32(data) | (load32(data + size - 4) << 32);
    } else {
      tail = static_cast<uint64_t>(static_cast<uint8_t>(data[0])) |
             (static_cast<uint64_t>(static_cast<uint8_t>(data[size / 2])) << 8) |
             (static_cast<uint64_t>(static_cast<uint8_t>(data[size - 1])) << 16);
    }
    hash = (hash ^ tail) * 0xc4ceb9fe1a85ec53ULL;
  }
  return HashInteger(hash);
}

GroupTable::GroupTable(std::vector<DataType> key_types) : key_types_(std::move(key_types)) {
  integer_mode_ = key_types_.size() == 1 && IsIntegerKey(key_types_[0]);
  string_mode_ = key_types_.size() == 1 && expr::PhysOf(key_types_[0]) == Phys::kBytes;
  for (const DataType& type : key_types_) builders_.push_back(std::make_unique<ColumnBuilder>(type));
  slot_ids_.assign(1024, kEmpty);
  if (integer_mode_) int_keys_.assign(1024, 0);
}

GroupTable::~GroupTable() = default;

void GroupTable::AppendKeyBytes(const Column& column, int64_t row, std::string* out) {
  if (column.IsNull(row)) {
    out->push_back('\0');
    return;
  }
  out->push_back('\1');
  Phys phys = expr::PhysOf(column.type);
  if (phys == Phys::kF32 || phys == Phys::kF64) {
    double v = phys == Phys::kF32 ? column.values_as<float>()[row] : column.values_as<double>()[row];
    if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
    if (v == 0) v = 0.0;  // -0.0 groups with 0.0
    out->append(reinterpret_cast<const char*>(&v), sizeof(v));
  } else if (phys == Phys::kBytes) {
    std::string_view view = column.GetView(row);
    uint64_t size = view.size();
    out->append(reinterpret_cast<const char*>(&size), sizeof(size));
    out->append(view);
  } else if (phys == Phys::kBool) {
    out->push_back(column.GetBool(row) ? '\1' : '\0');
  } else if (phys != Phys::kOther) {
    int width = column.type.FixedWidth();
    out->append(reinterpret_cast<const char*>(column.values->data() + row * width), width);
  } else {
    // Nested and other types: DuckDB's text of the value identifies it.
    std::string text = ValueText(column, row);
    uint64_t size = text.size();
    out->append(reinterpret_cast<const char*>(&size), sizeof(size));
    out->append(text);
  }
}

uint32_t GroupTable::NewGroup(const std::vector<std::shared_ptr<Column>>& keys, int64_t row) {
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& column = *keys[k];
    if (column.IsNull(row)) {
      builders_[k]->AppendNull();
    } else if (column.type.IsVarLength()) {
      std::string_view view = column.GetView(row);
      key_value_bytes_ += static_cast<int64_t>(view.size());
      builders_[k]->AppendBytes(view);
    } else if (column.type.id == TypeId::kBoolean) {
      builders_[k]->AppendBool(column.GetBool(row));
    } else if (column.type.FixedWidth() > 0) {
      builders_[k]->AppendFixed(column.values->data() + row * column.type.FixedWidth());
    } else {
      (void)builders_[k]->Append(column.GetValue(row));
    }
  }
  return static_cast<uint32_t>(num_groups_++);
}

void GroupTable::GrowInteger() {
  std::vector<int64_t> old_keys = std::move(int_keys_);
  std::vector<uint32_t> old_ids = std::move(slot_ids_);
  size_t capacity = old_ids.size() * 2;
  int_keys_.assign(capacity, 0);
  slot_ids_.assign(capacity, kEmpty);
  for (size_t i = 0; i < old_ids.size(); ++i) {
    if (old_ids[i] == kEmpty) continue;
    size_t slot = HashInteger(static_cast<uint64_t>(old_keys[i])) & (capacity - 1);
    while (slot_ids_[slot] != kEmpty) slot = (slot + 1) & (capacity - 1);
    int_keys_[slot] = old_keys[i];
    slot_ids_[slot] = old_ids[i];
  }
}

void GroupTable::GrowBytes() {
  size_t capacity = slot_ids_.size() * 2;
  slot_ids_.assign(capacity, kEmpty);
  for (size_t id = 0; id < byte_keys_.size(); ++id) {
    if (id == null_group_) continue;  // string mode: the NULL group has no slot
    size_t slot = byte_hashes_[id] & (capacity - 1);
    while (slot_ids_[slot] != kEmpty) slot = (slot + 1) & (capacity - 1);
    slot_ids_[slot] = static_cast<uint32_t>(id);
  }
}

uint32_t GroupTable::AssignInteger(int64_t key, bool is_null,
                                   const std::vector<std::shared_ptr<Column>>& keys, int64_t row) {
  if (is_null) {
    if (null_group_ == kEmpty && !frozen_) null_group_ = NewGroup(keys, row);
    return null_group_;
  }
  size_t mask = slot_ids_.size() - 1;
  size_t slot = HashInteger(static_cast<uint64_t>(key)) & mask;
  while (slot_ids_[slot] != kEmpty) {
    if (int_keys_[slot] == key) return slot_ids_[slot];
    slot = (slot + 1) & mask;
  }
  if (frozen_) return kNoGroup;
  uint32_t id = NewGroup(keys, row);
  int_keys_[slot] = key;
  slot_ids_[slot] = id;
  if (static_cast<size_t>(num_groups_) * 2 > slot_ids_.size()) GrowInteger();
  return id;
}

template <typename T>
void GroupTable::AssignIntegers(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                                uint32_t* ids) {
  const Column& column = *keys[0];
  const T* values = column.values_as<T>();
  const uint8_t* valid = column.validity ? column.validity->data() : nullptr;
  for (int64_t row = 0; row < rows; ++row) {
    bool is_null = valid != nullptr && !GetBit(valid, row);
    ids[row] = AssignInteger(static_cast<int64_t>(values[row]), is_null, keys, row);
  }
}

Status GroupTable::Assign(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                          std::vector<uint32_t>* ids) {
  ids->resize(rows);
  if (keys.empty()) {
    if (num_groups_ == 0) NewGroup(keys, 0);
    std::fill(ids->begin(), ids->end(), 0);
    return Status::OK();
  }
  if (num_groups_ >= static_cast<int64_t>(UINT32_MAX) - rows) {
    return Status::ResourceExhausted("HASH_GROUP_BY: more than 4 billion groups");
  }
  if (integer_mode_) {
    const Column& column = *keys[0];
    switch (expr::PhysOf(column.type)) {
      case Phys::kI8: AssignIntegers<int8_t>(keys, rows, ids->data()); break;
      case Phys::kI16: AssignIntegers<int16_t>(keys, rows, ids->data()); break;
      case Phys::kI32: AssignIntegers<int32_t>(keys, rows, ids->data()); break;
      case Phys::kI64: AssignIntegers<int64_t>(keys, rows, ids->data()); break;
      case Phys::kU8: AssignIntegers<uint8_t>(keys, rows, ids->data()); break;
      case Phys::kU16: AssignIntegers<uint16_t>(keys, rows, ids->data()); break;
      case Phys::kU32: AssignIntegers<uint32_t>(keys, rows, ids->data()); break;
      default:
        for (int64_t row = 0; row < rows; ++row) {
          (*ids)[row] = AssignInteger(LoadInteger(column, row), column.IsNull(row), keys, row);
        }
    }
    return Status::OK();
  }
  if (AssignCoded(keys, rows, ids->data())) return Status::OK();
  if (string_mode_) {
    AssignStrings(*keys[0], keys, rows, ids->data());
    return Status::OK();
  }
  // Scratch reused across calls on this thread (a table is used by one thread at a time).
  thread_local std::string row_keys;
  thread_local std::vector<uint64_t> row_starts;
  SerializeRows(keys, rows, &row_keys, &row_starts);
  for (int64_t row = 0; row < rows; ++row) {
    std::string_view key(row_keys.data() + row_starts[row], row_starts[row + 1] - row_starts[row]);
    (*ids)[row] = AssignBytes(key, row_starts[row] + 16 <= row_keys.size(), keys, row);
  }
  return Status::OK();
}

uint32_t GroupTable::AssignBytes(std::string_view key, bool can_overread,
                                 const std::vector<std::shared_ptr<Column>>& keys, int64_t row) {
  const size_t size = key.size();
  const size_t mask = slot_ids_.size() - 1;
  uint64_t hash;
  size_t slot;
  if (size <= 16) {
    const ShortWords words = LoadShort(key.data(), size, can_overread);
    hash = HashShort(words, size);
    slot = hash & mask;
    while (slot_ids_[slot] != kEmpty) {
      const uint32_t id = slot_ids_[slot];
      const ShortKey& stored = short_keys_[id];
      if (stored.lo == words.lo && stored.hi == words.hi && stored.size == size) return id;
      slot = (slot + 1) & mask;
    }
  } else {
    hash = HashBytes(key);
    slot = hash & mask;
    while (slot_ids_[slot] != kEmpty) {
      const uint32_t id = slot_ids_[slot];
      if (byte_hashes_[id] == hash && byte_keys_[id] == key) return id;
      slot = (slot + 1) & mask;
    }
  }
  if (frozen_) return kNoGroup;
  const uint32_t id = NewGroup(keys, row);
  byte_keys_.resize(id + 1);
  byte_hashes_.resize(id + 1);
  short_keys_.resize(id + 1);
  byte_hashes_[id] = hash;
  if (size <= 16) {
    // Short keys live only in short_keys_; a size over 16 marks the others.
    const ShortWords words = LoadShort(key.data(), size, false);
    short_keys_[id] = ShortKey{words.lo, words.hi, static_cast<uint32_t>(size)};
  } else {
    byte_keys_[id].assign(key);
    short_keys_[id] = ShortKey{0, 0, UINT32_MAX};
  }
  byte_key_bytes_ += static_cast<int64_t>(size);
  slot_ids_[slot] = id;
  // Small tables stay at most 1/8 full: a probe's first slot then almost always decides it,
  // which matters when few groups take millions of probes. Large ones stay at most half full.
  const size_t load_factor = slot_ids_.size() < (size_t{1} << 15) ? 8 : 2;
  if (static_cast<size_t>(num_groups_) * load_factor > slot_ids_.size()) GrowBytes();
  return id;
}

bool GroupTable::AssignCoded(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                             uint32_t* ids) {
  struct CodedKey {
    const uint32_t* codes;
    const uint8_t* valid;
    uint32_t null_code;  // NULL rows: one code past the entries
    uint64_t stride;
  };
  constexpr size_t kMaxKeys = 8;
  if (keys.size() > kMaxKeys) return false;
  CodedKey coded[kMaxKeys];
  // The map from combined code to group is cleared per call: its size must stay in
  // proportion to the rows.
  const uint64_t max_space = std::max<uint64_t>(4096, static_cast<uint64_t>(rows));
  uint64_t space = 1;
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& column = *keys[k];
    const DictionaryCodes* codes = column.codes();
    if (codes == nullptr) return false;
    const uint64_t entries = static_cast<uint64_t>(codes->entries->length);
    coded[k] = CodedKey{codes->codes->data_as<uint32_t>(),
                        column.validity ? column.validity->data() : nullptr,
                        static_cast<uint32_t>(entries), space};
    if (entries + 1 > max_space / space) return false;
    space *= entries + 1;
  }
  thread_local std::vector<uint32_t> group_of;
  thread_local std::string row_key;
  group_of.assign(space, kEmpty);
  auto code_of = [&](const CodedKey& key, int64_t row) -> uint64_t {
    const uint32_t code = key.valid != nullptr && !GetBit(key.valid, row) ? key.null_code
                                                                           : key.codes[row];
    return code * key.stride;
  };
  auto assign_row = [&](int64_t row) {
    if (string_mode_) {
      const Column& column = *keys[0];
      if (column.IsNull(row)) {
        if (null_group_ == kEmpty && !frozen_) null_group_ = NewGroup(keys, row);
        return null_group_;
      }
      return AssignBytes(column.GetView(row), false, keys, row);
    }
    SerializeRow(keys, row, &row_key);
    return AssignBytes(row_key, false, keys, row);
  };
  if (keys.size() == 1) {
    for (int64_t row = 0; row < rows; ++row) {
      uint32_t& id = group_of[code_of(coded[0], row)];
      if (id == kEmpty) id = assign_row(row);
      ids[row] = id;
    }
    return true;
  }
  for (int64_t row = 0; row < rows; ++row) {
    uint64_t code = 0;
    for (size_t k = 0; k < keys.size(); ++k) code += code_of(coded[k], row);
    uint32_t& id = group_of[code];
    if (id == kEmpty) id = assign_row(row);
    ids[row] = id;
  }
  return true;
}

void GroupTable::AssignStrings(const Column& column,
                               const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                               uint32_t* ids) {
  const int64_t* offsets = column.values_as<int64_t>();
  const char* data = reinterpret_cast<const char*>(column.data->data());
  // Bytes up to the buffer's capacity are readable (and zero past its size).
  const int64_t readable = column.data->capacity();
  const uint8_t* valid = column.validity ? column.validity->data() : nullptr;
  // Short keys go in chunks: first every row's words and hash (independent work the CPU
  // overlaps), then the probes, which find an existing group for most rows.
  constexpr int64_t kChunk = 64;
  ShortWords words[kChunk];
  uint64_t hashes[kChunk];
  for (int64_t chunk = 0; chunk < rows; chunk += kChunk) {
    const int64_t end = std::min(rows, chunk + kChunk);
    bool all_short = true;
    for (int64_t row = chunk; row < end; ++row) {
      const int64_t begin = offsets[row];
      const size_t size = static_cast<size_t>(offsets[row + 1] - begin);
      if (size > 16 || begin + 16 > readable) {
        all_short = false;  // AssignBytes handles the whole chunk
        break;
      }
      words[row - chunk] = LoadShort(data + begin, size, true);
      hashes[row - chunk] = HashShort(words[row - chunk], size);
    }
    for (int64_t row = chunk; row < end; ++row) {
      if (valid != nullptr && !GetBit(valid, row)) {
        if (null_group_ == kEmpty && !frozen_) null_group_ = NewGroup(keys, row);
        ids[row] = null_group_;
        continue;
      }
      const int64_t begin = offsets[row];
      const size_t size = static_cast<size_t>(offsets[row + 1] - begin);
      if (all_short) {
        const ShortWords& w = words[row - chunk];
        const size_t mask = slot_ids_.size() - 1;
        size_t slot = hashes[row - chunk] & mask;
        uint32_t found = kEmpty;
        while (slot_ids_[slot] != kEmpty) {
          const uint32_t id = slot_ids_[slot];
          const ShortKey& stored = short_keys_[id];
          if (stored.lo == w.lo && stored.hi == w.hi && stored.size == size) {
            found = id;
            break;
          }
          slot = (slot + 1) & mask;
        }
        if (found != kEmpty) {
          ids[row] = found;
          continue;
        }
      }
      ids[row] = AssignBytes(std::string_view(data + begin, size), begin + 16 <= readable, keys,
                             row);
    }
  }
}

void GroupTable::SerializeRows(const std::vector<std::shared_ptr<Column>>& keys, int64_t rows,
                               std::string* row_keys, std::vector<uint64_t>* row_starts) {
  // Pass 1: each row's length; pass 2: each column's bytes at its rows' positions. Every
  // column's part is self-delimiting: a NULL tag, or a value tag and a fixed-width or
  // size-prefixed value.
  row_starts->assign(static_cast<size_t>(rows) + 1, 0);
  for (const auto& column_ptr : keys) {
    const Column& column = *column_ptr;
    Phys phys = expr::PhysOf(column.type);
    uint64_t* lengths = row_starts->data() + 1;
    if (phys == Phys::kBytes) {
      const int64_t* offsets = column.values_as<int64_t>();
      for (int64_t row = 0; row < rows; ++row) {
        uint64_t size = static_cast<uint64_t>(offsets[row + 1] - offsets[row]);
        lengths[row] += column.IsValid(row) ? 1 + SizePrefixBytes(size) + size : 1;
      }
    } else if (phys == Phys::kOther) {
      for (int64_t row = 0; row < rows; ++row) {
        uint64_t size = column.IsValid(row) ? ValueText(column, row).size() : 0;
        lengths[row] += column.IsValid(row) ? 1 + SizePrefixBytes(size) + size : 1;
      }
    } else {
      const uint64_t width = KeyWidth(column, phys);
      for (int64_t row = 0; row < rows; ++row) lengths[row] += column.IsValid(row) ? 1 + width : 1;
    }
  }
  for (int64_t row = 0; row < rows; ++row) (*row_starts)[row + 1] += (*row_starts)[row];
  row_keys->resize((*row_starts)[rows]);
  thread_local std::vector<uint64_t> at;
  at.assign(row_starts->begin(), row_starts->end() - 1);
  char* out = row_keys->data();
  for (const auto& column_ptr : keys) {
    const Column& column = *column_ptr;
    Phys phys = expr::PhysOf(column.type);
    for (int64_t row = 0; row < rows; ++row) at[row] += WriteKeyValue(column, phys, row, out + at[row]);
  }
}

void GroupTable::SerializeRow(const std::vector<std::shared_ptr<Column>>& keys, int64_t row,
                              std::string* out) {
  out->clear();
  for (const auto& column_ptr : keys) {
    const Column& column = *column_ptr;
    Phys phys = expr::PhysOf(column.type);
    uint64_t size = 1;
    if (column.IsValid(row)) {
      if (phys == Phys::kBytes || phys == Phys::kOther) {
        const uint64_t bytes =
            phys == Phys::kBytes ? column.GetView(row).size() : ValueText(column, row).size();
        size += SizePrefixBytes(bytes) + bytes;
      } else {
        size += KeyWidth(column, phys);
      }
    }
    const size_t at = out->size();
    out->resize(at + size);
    WriteKeyValue(column, phys, row, out->data() + at);
  }
}

int64_t GroupTable::MemoryBytes() const {
  int64_t slots = static_cast<int64_t>(slot_ids_.size()) * (integer_mode_ ? 12 : 4);
  int64_t per_group = 0;
  for (const DataType& type : key_types_) per_group += std::max(type.FixedWidth(), 8) + 1;
  int64_t keys = integer_mode_ ? 0
                               : byte_key_bytes_ + num_groups_ * static_cast<int64_t>(
                                                                     sizeof(std::string) + 8);
  return slots + num_groups_ * per_group + key_value_bytes_ + keys;
}

std::vector<std::shared_ptr<Column>> GroupTable::FinishKeys() {
  std::vector<std::shared_ptr<Column>> columns;
  for (auto& builder : builders_) columns.push_back(builder->Finish());
  return columns;
}

}  // namespace tarn::sql
