// In-memory columnar data: buffers, columns and batches in the Arrow C Data layout.
//
// A Column owns (through shared Buffers) a validity bitmap, a values buffer and, for
// var-length types, a data buffer, plus child columns for nested types; type.h lists the
// layout of every type. Columns are immutable once built (by ColumnBuilder or a decoder);
// buffers are shared, never copied, when a column is exported as an ArrowArray, so an exported
// batch stays valid after tarn drops its own references.
//
// Invariants of every Column:
//   - offset is always 0: a slice is a copy (Slice), so consumers index buffers directly;
//   - validity is null exactly when null_count == 0; bit i set = row i valid (LSB-first);
//   - values of a NULL row are zeroed (fixed width) or empty (var-length, list);
//   - var-length: values holds length+1 int64 offsets into data; list/map: length+1 int32
//     offsets into children[0];
//   - every buffer is 64-byte aligned and padded to a multiple of 64 bytes.
//
// Thread-safety: a finished Column or Batch may be read from any number of threads.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tarn/arrow_abi.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn {

// A contiguous, 64-byte aligned, zero-padded block of memory.
class Buffer {
 public:
  // Allocates `size` bytes (contents zeroed).
  static std::shared_ptr<Buffer> Allocate(int64_t size);
  // Allocates `size` bytes whose contents are unspecified; only the padding past size() is
  // zeroed. For callers that write every byte of [0, size) before anything reads it.
  static std::shared_ptr<Buffer> AllocateUninitialized(int64_t size);
  static std::shared_ptr<Buffer> CopyOf(const void* bytes, int64_t size);

  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const uint8_t* data() const { return data_; }
  uint8_t* mutable_data() { return data_; }
  template <typename T>
  const T* data_as() const { return reinterpret_cast<const T*>(data_); }
  template <typename T>
  T* mutable_data_as() { return reinterpret_cast<T*>(data_); }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }

  // Grows or shrinks the logical size, keeping the contents; new bytes are zero.
  void Resize(int64_t new_size);
  void Reserve(int64_t min_capacity);

 private:
  Buffer() = default;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanos = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
};

// One value of any type, for row-wise access: formatting, literals, statistics and tests.
// Storage by type:
//   kBoolean: bool; signed ints, date, time*, timestamp*: int64_t (raw units of the type);
//   unsigned ints: uint64_t; kInt128, kUInt128, kDecimal: __int128 (unscaled for decimals);
//   float types: double; var-length types: std::string (raw bytes); kUuid: std::string of 16
//   big-endian bytes; kInterval: Interval; kStruct: children = field values; kList: children =
//   elements; kMap: children = entries, each a kStruct value {key, value}.
class Value {
 public:
  using Storage = std::variant<std::monostate, bool, int64_t, uint64_t, __int128, double,
                               std::string, Interval, std::vector<Value>>;

  Value() = default;  // NULL of type kNull
  static Value Null(DataType type);
  static Value Boolean(bool v);
  static Value Int(DataType type, int64_t v);      // signed ints, date, time*, timestamp*
  static Value UInt(DataType type, uint64_t v);    // unsigned ints up to 64 bits
  static Value Int128(DataType type, __int128 v);  // kInt128, kUInt128, kDecimal
  static Value Double(DataType type, double v);    // kFloat32, kFloat64
  static Value Bytes(DataType type, std::string v);  // var-length types and kUuid
  static Value MakeInterval(Interval v);
  static Value Nested(DataType type, std::vector<Value> children);  // struct, list, map
  // Convenience
  static Value Int64(int64_t v) { return Int(DataType(TypeId::kInt64), v); }
  static Value Float64(double v) { return Double(DataType(TypeId::kFloat64), v); }
  static Value Varchar(std::string v) { return Bytes(DataType(TypeId::kVarchar), std::move(v)); }

  const DataType& type() const { return type_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(storage_); }

  // REQUIRES: !is_null() and the storage kind documented above.
  bool GetBool() const { return std::get<bool>(storage_); }
  int64_t GetInt64() const { return std::get<int64_t>(storage_); }
  uint64_t GetUInt64() const { return std::get<uint64_t>(storage_); }
  __int128 GetInt128() const { return std::get<__int128>(storage_); }
  double GetDouble() const { return std::get<double>(storage_); }
  const std::string& GetBytes() const { return std::get<std::string>(storage_); }
  const Interval& GetInterval() const { return std::get<Interval>(storage_); }
  const std::vector<Value>& children() const { return std::get<std::vector<Value>>(storage_); }
  const Storage& storage() const { return storage_; }

  // Exact equality for tests: same type and same value; NaN equals NaN (of either sign),
  // 0.0 and -0.0 differ.
  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }

  // A readable rendering for messages and tests (DuckDB-like, not the CSV formatter).
  std::string ToString() const;

 private:
  DataType type_;
  Storage storage_;
};

struct Column;

// A var-length column's rows as indices into a dictionary of values, kept beside the values by
// readers that have it for free (dictionary-encoded Parquet pages). Consumers that hash or
// compare values (grouping) can then work once per entry instead of once per row. It describes
// the column it was made for only: Column::codes() checks that the rows and the values buffer
// are still the ones it was made with.
struct DictionaryCodes {
  std::shared_ptr<const Column> entries;  // the dictionary: same type, no NULLs
  std::shared_ptr<const Buffer> codes;    // uint32 per row, each < entries->length; 0 when NULL
  // The described column's `values` buffer (held, so no other buffer can take its address).
  std::shared_ptr<const Buffer> values_of;
  int64_t length = 0;                     // and its row count
};

struct Column {
  DataType type;
  int64_t length = 0;
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity;  // null when null_count == 0
  std::shared_ptr<Buffer> values;    // values, boolean bitmap, or offsets
  std::shared_ptr<Buffer> data;      // bytes of var-length types
  std::vector<std::shared_ptr<Column>> children;
  // Optional (var-length types): the rows as dictionary codes. Read it through codes().
  std::shared_ptr<const DictionaryCodes> dictionary;

  // The dictionary codes when they still describe this column (a copy that replaced its
  // values or length has none).
  const DictionaryCodes* codes() const {
    const bool current = dictionary && dictionary->values_of.get() == values.get() &&
                         dictionary->length == length;
    return current ? dictionary.get() : nullptr;
  }
  bool IsValid(int64_t row) const { return !validity || GetBit(validity->data(), row); }
  bool IsNull(int64_t row) const { return !IsValid(row); }
  template <typename T>
  const T* values_as() const { return values->data_as<T>(); }
  // REQUIRES: var-length type.
  std::string_view GetView(int64_t row) const {
    const int64_t* offsets = values->data_as<int64_t>();
    return std::string_view(reinterpret_cast<const char*>(data->data()) + offsets[row],
                            static_cast<size_t>(offsets[row + 1] - offsets[row]));
  }
  // REQUIRES: kBoolean.
  bool GetBool(int64_t row) const { return GetBit(values->data(), row); }
  Value GetValue(int64_t row) const;

  // Checks every invariant above (buffer sizes, offsets monotone and in range, null_count
  // matching the bitmap, children lengths). For tests and for data imported from outside.
  Status Validate() const;
};

// Builds a column value by value. Not thread-safe.
class ColumnBuilder {
 public:
  explicit ColumnBuilder(DataType type);
  ~ColumnBuilder();
  ColumnBuilder(const ColumnBuilder&) = delete;
  ColumnBuilder& operator=(const ColumnBuilder&) = delete;

  const DataType& type() const;
  int64_t length() const;
  void Reserve(int64_t rows);

  void AppendNull();
  // The value's storage kind must match the builder's type (a NULL Value of any type is a
  // NULL). Nested values recurse into child builders.
  Status Append(const Value& value);
  // Fast paths. REQUIRES: the matching type.
  void AppendBool(bool v);
  void AppendFixed(const void* bytes);  // FixedWidth() bytes
  template <typename T>
  void AppendNumber(T v) { AppendFixed(&v); }
  void AppendBytes(std::string_view v);  // var-length types (and kUuid: exactly 16 bytes)

  // Returns the built column and resets the builder to empty.
  std::shared_ptr<Column> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A set of equally long columns with a schema.
struct Batch {
  std::shared_ptr<const Schema> schema;
  std::vector<std::shared_ptr<Column>> columns;
  int64_t num_rows = 0;

  int num_columns() const { return static_cast<int>(columns.size()); }
  const Column& column(int index) const { return *columns[index]; }
  Status Validate() const;
};

std::shared_ptr<Batch> MakeBatch(std::shared_ptr<const Schema> schema,
                                 std::vector<std::shared_ptr<Column>> columns);

// Copies rows [offset, offset + length) into a new column.
std::shared_ptr<Column> Slice(const Column& column, int64_t offset, int64_t length);
// Copies the rows named by `indices` (in that order) into a new column.
std::shared_ptr<Column> Take(const Column& column, std::span<const int64_t> indices);
// Keeps the rows whose bit in `keep` (length bits, LSB-first) is set.
std::shared_ptr<Column> Filter(const Column& column, const uint8_t* keep, int64_t keep_count);
// Appends columns of the same type end to end.
std::shared_ptr<Column> Concatenate(std::span<const std::shared_ptr<Column>> columns);
std::shared_ptr<Batch> SliceBatch(const Batch& batch, int64_t offset, int64_t length);
std::shared_ptr<Batch> ConcatenateBatches(std::span<const std::shared_ptr<Batch>> batches);

// A stream of batches. Next() returns nullptr at the end. Not thread-safe.
class BatchReader {
 public:
  virtual ~BatchReader() = default;
  virtual std::shared_ptr<const Schema> schema() const = 0;
  virtual Result<std::shared_ptr<Batch>> Next() = 0;
};

// A BatchReader over batches already in memory.
std::unique_ptr<BatchReader> MakeVectorReader(std::shared_ptr<const Schema> schema,
                                              std::vector<std::shared_ptr<Batch>> batches);

// Arrow C Data Interface export. The exported structures hold shared references to the
// column buffers (no copy); release() drops them.
Status ExportSchema(const Schema& schema, ArrowSchema* out);
Status ExportType(const Field& field, ArrowSchema* out);
Status ExportBatch(std::shared_ptr<Batch> batch, ArrowArray* out);
// Exports the reader as a C stream; the stream owns the reader.
Status ExportBatchReader(std::unique_ptr<BatchReader> reader, ArrowArrayStream* out);

// Import (copying into tarn buffers, validating every offset): for tests and embedders that
// hand tarn Arrow data.
Result<Schema> ImportSchema(ArrowSchema* schema);  // releases `schema`
// This overload assumes tarn's own layout (as ExportBatch produces: 64-bit string offsets).
Result<std::shared_ptr<Batch>> ImportBatch(std::shared_ptr<const Schema> schema,
                                           ArrowArray* array);  // releases `array`
// Imports an array described by its own Arrow schema, which also admits layouts tarn does not
// export ("u"/"z" 32-bit string offsets, "+L" 64-bit list offsets). Releases both.
Result<std::shared_ptr<Batch>> ImportBatch(ArrowSchema* schema, ArrowArray* array);

}  // namespace tarn
