// Typed loops over column buffers for the evaluator's common cases (see evaluator.h), and the
// small column-building helpers they share.
//
// Thread-safety: pure functions.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "expr/bind/bound.h"
#include "expr/eval/evaluator.h"
#include "tarn/columnar.h"

namespace tarn::expr {

// Physical storage classes the typed loops dispatch on.
enum class Phys : uint8_t { kBool, kI8, kI16, kI32, kI64, kU8, kU16, kU32, kU64, kI128, kF32, kF64, kBytes, kOther };
Phys PhysOf(const DataType& type);

// Calls fn(values) with the column's values typed by their physical type: integers (128-bit as
// __int128) and floats; nothing for other types.
template <typename Fn>
void WithTypedValues(const Column& column, Phys phys, Fn&& fn) {
  switch (phys) {
    case Phys::kI8: return fn(column.values_as<int8_t>());
    case Phys::kI16: return fn(column.values_as<int16_t>());
    case Phys::kI32: return fn(column.values_as<int32_t>());
    case Phys::kI64: return fn(column.values_as<int64_t>());
    case Phys::kU8: return fn(column.values_as<uint8_t>());
    case Phys::kU16: return fn(column.values_as<uint16_t>());
    case Phys::kU32: return fn(column.values_as<uint32_t>());
    case Phys::kU64: return fn(column.values_as<uint64_t>());
    case Phys::kI128: return fn(column.values_as<__int128>());
    case Phys::kF32: return fn(column.values_as<float>());
    case Phys::kF64: return fn(column.values_as<double>());
    default: return;
  }
}

// A column of `length` rows from raw buffers; validity null when null_count == 0.
std::shared_ptr<Column> MakeColumn(DataType type, int64_t length, std::shared_ptr<Buffer> values,
                                   std::shared_ptr<Buffer> validity, int64_t null_count);
// Validity where every input row is valid (constants broadcast); null when no row is NULL.
std::shared_ptr<Buffer> CombinedValidity(std::span<const Vec* const> inputs, int64_t rows,
                                         int64_t* null_count);
// Zeroes the values (or clears the bits) of NULL rows, as the Column invariants require.
void ZeroNullRows(Column* column);
inline bool VecValid(const Vec& v, int64_t row) { return v.column->IsValid(v.constant ? 0 : row); }

// A fixed-width column of `rows` values of T: value_at(i, &out) writes row i's value and says
// whether the row is valid (an invalid row's value is zeroed, as Column requires).
template <typename T, typename ValueAt>
std::shared_ptr<Column> NullableFixedColumn(const DataType& type, int64_t rows,
                                            ValueAt&& value_at) {
  auto values = Buffer::AllocateUninitialized(rows * static_cast<int64_t>(sizeof(T)));
  auto validity = Buffer::Allocate((rows + 7) / 8);
  T* out = values->mutable_data_as<T>();
  uint8_t* valid = validity->mutable_data();
  int64_t null_count = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (value_at(i, &out[i])) {
      SetBit(valid, i);
    } else {
      out[i] = T{};
      ++null_count;
    }
  }
  return MakeColumn(type, rows, std::move(values), std::move(validity), null_count);
}

// Builds a var-length column (VARCHAR, BLOB) row by row without a Value per row: a row's bytes
// are appended to text(), then EndRow() closes it. NULL rows are closed empty.
class StringColumnWriter {
 public:
  explicit StringColumnWriter(int64_t rows, size_t bytes_hint = 0);
  std::string* text() { return &data_; }
  void EndRow() { offsets_[++row_] = static_cast<int64_t>(data_.size()); }
  void Append(std::string_view bytes) {
    data_.append(bytes);
    EndRow();
  }
  // REQUIRES: every row closed. `validity` as MakeColumn takes it.
  std::shared_ptr<Column> Finish(DataType type, std::shared_ptr<Buffer> validity,
                                 int64_t null_count);

 private:
  std::shared_ptr<Buffer> offsets_buffer_;
  int64_t* offsets_;
  int64_t row_ = 0;
  std::string data_;
};

// The elements of the first `rows` rows of a list (or map) column, end to end: row r's
// elements are elements[offsets[r] .. offsets[r + 1]), offsets[0] == 0. A NULL row has none.
struct ListElements {
  std::vector<int64_t> offsets;  // rows + 1
  std::shared_ptr<Column> elements;
};
ListElements FlattenLists(const Column& lists, int64_t rows);
// The row each element of `lists` belongs to (offsets as above).
std::vector<int64_t> ElementRows(const ListElements& lists);
// A list column of offsets.size() - 1 rows over `elements`, NULL where `validity` (of a column
// with `null_count` NULLs, as Column holds them) says so. REQUIRES: NULL rows are empty.
std::shared_ptr<Column> MakeListColumn(DataType type, const std::vector<int64_t>& offsets,
                                       std::shared_ptr<Column> elements,
                                       std::shared_ptr<Buffer> validity, int64_t null_count);

// Each returns a Vec with a null column when the case is not one of its typed cases.
Result<Vec> CompareKernel(ast::Op op, const Vec& left, const Vec& right, int64_t rows);
Result<Vec> ArithmeticKernel(const BoundNode& node, const Vec& left, const Vec& right,
                             int64_t rows);
Result<Vec> NegateKernel(const BoundNode& node, const Vec& operand, int64_t rows);
Result<Vec> CastKernel(const BoundNode& node, const Vec& operand, int64_t rows);
// The casts CastKernel's widenings leave (cast_kernels.cc): to and from text, between integers,
// decimals and floats, between dates and timestamps. A row the typed loop cannot convert
// plainly goes through CastValue alone, so errors and TRY_CAST's NULLs are exactly its.
Result<Vec> ConversionCastKernel(const BoundNode& node, const Vec& operand, int64_t rows);
// Rows of a dictionary-coded column `coded` (n of them) take the bit of their entry:
// bit i of `out` = entry_bits[codes[i]]. NULL rows (code 0) are masked by the caller.
void GatherEntryBits(const DictionaryCodes& coded, const uint8_t* entry_bits, int64_t n,
                     uint8_t* out);
Vec LogicKernel(bool is_and, const std::vector<Vec>& inputs, int64_t rows);
Vec NotKernel(const Vec& input, int64_t rows);
Vec IsNullKernel(const Vec& input, bool negated, int64_t rows);
// `items` are the IN list's values (all constants) of the operand's type.
Result<Vec> InKernel(const Vec& operand, const std::vector<Value>& items, bool negated,
                     int64_t rows);

}  // namespace tarn::expr
