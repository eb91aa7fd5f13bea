#include "expr/eval/kernels.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_set>

#include <libdivide.h>

#include "columnar/bit_util.h"
#include "expr/eval/arithmetic.h"
#include "expr/eval/cast.h"
#include "expr/functions/datetime.h"

namespace tarn::expr {
namespace {

using ast::Op;

int64_t Bytes(int64_t bits) { return (bits + 7) / 8; }

// Calls f(T{}) with the C++ type stored by a fixed-width physical class; false otherwise.
template <typename F>
bool VisitFixed(Phys phys, F&& f) {
  switch (phys) {
    case Phys::kI8: f(int8_t{}); return true;
    case Phys::kI16: f(int16_t{}); return true;
    case Phys::kI32: f(int32_t{}); return true;
    case Phys::kI64: f(int64_t{}); return true;
    case Phys::kU8: f(uint8_t{}); return true;
    case Phys::kU16: f(uint16_t{}); return true;
    case Phys::kU32: f(uint32_t{}); return true;
    case Phys::kU64: f(uint64_t{}); return true;
    case Phys::kI128: f(__int128{}); return true;
    case Phys::kF32: f(float{}); return true;
    case Phys::kF64: f(double{}); return true;
    default: return false;
  }
}

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T>;

template <typename T>
bool Eq(T a, T b) {
  if constexpr (kIsFloat<T>) return FloatEqual(a, b);
  return a == b;
}
template <typename T>
bool Lt(T a, T b) {
  if constexpr (kIsFloat<T>) return FloatLess(a, b);
  return a < b;
}

// Writes cmp(a[i], b[i]) as bits; `get` reads element i of each side (stride 0 = constant).
// REQUIRES: `out` is zeroed. Whole bytes are assembled without branches: comparisons of
// random data would mispredict half of the per-row branches.
template <typename GetA, typename GetB, typename Cmp>
void CompareBits(int64_t rows, uint8_t* out, GetA get_a, GetB get_b, Cmp cmp) {
  int64_t i = 0;
  for (; i + 8 <= rows; i += 8) {
    uint32_t byte = 0;
    for (int j = 0; j < 8; ++j) {
      byte |= static_cast<uint32_t>(cmp(get_a(i + j), get_b(i + j))) << j;
    }
    out[i >> 3] = static_cast<uint8_t>(byte);
  }
  for (; i < rows; ++i) {
    if (cmp(get_a(i), get_b(i))) SetBit(out, i);
  }
}

template <typename T, typename GetA, typename GetB>
void CompareOp(Op op, int64_t rows, uint8_t* out, GetA a, GetB b) {
  switch (op) {
    case Op::kEqual: case Op::kIsNotDistinctFrom:
      CompareBits(rows, out, a, b, [](T x, T y) { return Eq(x, y); });
      break;
    case Op::kNotEqual: case Op::kIsDistinctFrom:
      CompareBits(rows, out, a, b, [](T x, T y) { return !Eq(x, y); });
      break;
    case Op::kLess: CompareBits(rows, out, a, b, [](T x, T y) { return Lt(x, y); }); break;
    case Op::kLessEqual: CompareBits(rows, out, a, b, [](T x, T y) { return !Lt(y, x); }); break;
    case Op::kGreater: CompareBits(rows, out, a, b, [](T x, T y) { return Lt(y, x); }); break;
    case Op::kGreaterEqual: CompareBits(rows, out, a, b, [](T x, T y) { return !Lt(x, y); }); break;
    default: break;
  }
}

}  // namespace

// Rows of a dictionary-coded column `coded` (n of them) take the bit of their entry:
// bit i of `out` = entry_bits[codes[i]]. NULL rows (code 0) are masked by the caller.
void GatherEntryBits(const DictionaryCodes& coded, const uint8_t* entry_bits, int64_t n,
                     uint8_t* out) {
  const uint32_t* codes = coded.codes->data_as<uint32_t>();
  std::memset(out, 0, static_cast<size_t>((n + 7) / 8));
  for (int64_t i = 0; i < n; ++i) {
    out[i >> 3] |= static_cast<uint8_t>(GetBit(entry_bits, codes[i]) << (i & 7));
  }
}

Phys PhysOf(const DataType& type) {
  switch (type.id) {
    case TypeId::kBoolean: return Phys::kBool;
    case TypeId::kInt8: return Phys::kI8;
    case TypeId::kInt16: return Phys::kI16;
    case TypeId::kInt32: case TypeId::kDate: return Phys::kI32;
    case TypeId::kInt64: case TypeId::kTime: case TypeId::kTimeNs: case TypeId::kTimeTz:
    case TypeId::kTimestamp: case TypeId::kTimestampS: case TypeId::kTimestampMs:
    case TypeId::kTimestampNs: case TypeId::kTimestampTz:
      return Phys::kI64;
    case TypeId::kUInt8: return Phys::kU8;
    case TypeId::kUInt16: return Phys::kU16;
    case TypeId::kUInt32: return Phys::kU32;
    case TypeId::kUInt64: return Phys::kU64;
    case TypeId::kInt128: case TypeId::kDecimal: return Phys::kI128;
    case TypeId::kFloat32: return Phys::kF32;
    case TypeId::kFloat64: return Phys::kF64;
    case TypeId::kVarchar: case TypeId::kBlob: case TypeId::kJson: return Phys::kBytes;
    default: return Phys::kOther;
  }
}

std::shared_ptr<Column> MakeColumn(DataType type, int64_t length, std::shared_ptr<Buffer> values,
                                   std::shared_ptr<Buffer> validity, int64_t null_count) {
  auto column = std::make_shared<Column>();
  column->type = std::move(type);
  column->length = length;
  column->values = std::move(values);
  column->null_count = null_count;
  column->validity = null_count > 0 ? std::move(validity) : nullptr;
  return column;
}

StringColumnWriter::StringColumnWriter(int64_t rows, size_t bytes_hint)
    : offsets_buffer_(Buffer::AllocateUninitialized((rows + 1) * 8)),
      offsets_(offsets_buffer_->mutable_data_as<int64_t>()) {
  offsets_[0] = 0;
  data_.reserve(bytes_hint);
}

std::shared_ptr<Column> StringColumnWriter::Finish(DataType type, std::shared_ptr<Buffer> validity,
                                                   int64_t null_count) {
  auto column = MakeColumn(std::move(type), row_, std::move(offsets_buffer_), std::move(validity),
                           null_count);
  column->data = Buffer::CopyOf(data_.data(), static_cast<int64_t>(data_.size()));
  return column;
}

std::shared_ptr<Buffer> CombinedValidity(std::span<const Vec* const> inputs, int64_t rows,
                                         int64_t* null_count) {
  std::shared_ptr<Buffer> out;
  for (const Vec* input : inputs) {
    const Column& column = *input->column;
    if (column.null_count == 0) continue;
    if (!out) {
      out = Buffer::Allocate(Bytes(rows));
      std::memset(out->mutable_data(), 0xFF, static_cast<size_t>(Bytes(rows)));
    }
    uint8_t* bits = out->mutable_data();
    if (input->constant) {
      std::memset(bits, 0, static_cast<size_t>(Bytes(rows)));
    } else {
      const uint8_t* in = column.validity->data();
      for (int64_t b = 0; b < Bytes(rows); ++b) bits[b] &= in[b];
    }
  }
  *null_count = 0;
  if (!out) return nullptr;
  uint8_t* bits = out->mutable_data();
  if (rows % 8 != 0) bits[rows / 8] &= static_cast<uint8_t>((1u << (rows % 8)) - 1);
  const int64_t valid = internal::CountSetBits(bits, 0, rows);
  *null_count = rows - valid;
  return *null_count > 0 ? out : nullptr;
}

void ZeroNullRows(Column* column) {
  if (column->null_count == 0 || !column->values) return;
  const uint8_t* valid = column->validity->data();
  if (column->type.id == TypeId::kBoolean) {
    uint8_t* bits = column->values->mutable_data();
    for (int64_t b = 0; b < Bytes(column->length); ++b) bits[b] &= valid[b];
    return;
  }
  int width = column->type.FixedWidth();
  if (width <= 0) return;
  uint8_t* data = column->values->mutable_data();
  for (int64_t i = 0; i < column->length; ++i) {
    if (!GetBit(valid, i)) std::memset(data + i * width, 0, static_cast<size_t>(width));
  }
}

ListElements FlattenLists(const Column& lists, int64_t rows) {
  ListElements out;
  out.offsets.resize(static_cast<size_t>(rows) + 1);
  if (rows == 0) {
    out.elements = ColumnBuilder(lists.type.children[0].type).Finish();
    return out;
  }
  const int32_t* offsets = lists.values_as<int32_t>();
  const int64_t first = offsets[0];
  for (int64_t row = 0; row <= rows; ++row) {
    out.offsets[static_cast<size_t>(row)] = offsets[row] - first;
  }
  const int64_t total = out.offsets.back();
  const std::shared_ptr<Column>& child = lists.children[0];
  out.elements = first == 0 && child->length == total ? child : Slice(*child, first, total);
  return out;
}

std::vector<int64_t> ElementRows(const ListElements& lists) {
  std::vector<int64_t> rows(static_cast<size_t>(lists.offsets.back()));
  for (size_t row = 0; row + 1 < lists.offsets.size(); ++row) {
    for (int64_t k = lists.offsets[row]; k < lists.offsets[row + 1]; ++k) {
      rows[static_cast<size_t>(k)] = static_cast<int64_t>(row);
    }
  }
  return rows;
}

std::shared_ptr<Column> MakeListColumn(DataType type, const std::vector<int64_t>& offsets,
                                       std::shared_ptr<Column> elements,
                                       std::shared_ptr<Buffer> validity, int64_t null_count) {
  const int64_t rows = static_cast<int64_t>(offsets.size()) - 1;
  auto values = Buffer::Allocate(static_cast<int64_t>(offsets.size() * sizeof(int32_t)));
  int32_t* out = values->mutable_data_as<int32_t>();
  for (size_t i = 0; i < offsets.size(); ++i) out[i] = static_cast<int32_t>(offsets[i]);
  auto column = MakeColumn(std::move(type), rows, std::move(values), std::move(validity),
                           null_count);
  column->children.push_back(std::move(elements));
  return column;
}

Result<Vec> CompareKernel(Op op, const Vec& left, const Vec& right, int64_t rows) {
  Phys phys = PhysOf(left.column->type);
  if (phys == Phys::kOther || PhysOf(right.column->type) != phys) return Vec{};
  bool constant = left.constant && right.constant;
  int64_t n = constant ? 1 : rows;
  auto bits = Buffer::Allocate(Bytes(n));
  uint8_t* out = bits->mutable_data();
  int64_t sa = left.constant ? 0 : 1, sb = right.constant ? 0 : 1;
  if (phys == Phys::kBytes) {
    const Column& a = *left.column;
    const Column& b = *right.column;
    // A dictionary-coded column against a constant: each dictionary entry compared once.
    const DictionaryCodes* coded = sa == 1 && sb == 0 ? a.codes() : sa == 0 && sb == 1 ? b.codes()
                                                                                      : nullptr;
    if (coded != nullptr && coded->entries->length < n) {
      const Column& entries = *coded->entries;
      const int64_t count = entries.length;
      std::vector<uint8_t> entry_bits(static_cast<size_t>((count + 7) / 8), 0);
      if (sa == 1) {
        const std::string_view constant_b = b.GetView(0);
        CompareOp<std::string_view>(op, count, entry_bits.data(),
                                    [&](int64_t j) { return entries.GetView(j); },
                                    [&](int64_t) { return constant_b; });
      } else {
        const std::string_view constant_a = a.GetView(0);
        CompareOp<std::string_view>(op, count, entry_bits.data(),
                                    [&](int64_t) { return constant_a; },
                                    [&](int64_t j) { return entries.GetView(j); });
      }
      GatherEntryBits(*coded, entry_bits.data(), n, out);
    } else {
      CompareOp<std::string_view>(op, n, out, [&](int64_t i) { return a.GetView(i * sa); },
                                  [&](int64_t i) { return b.GetView(i * sb); });
    }
  } else if (phys == Phys::kBool) {
    const Column& a = *left.column;
    const Column& b = *right.column;
    CompareOp<bool>(op, n, out, [&](int64_t i) { return a.GetBool(i * sa); },
                    [&](int64_t i) { return b.GetBool(i * sb); });
  } else {
    VisitFixed(phys, [&](auto tag) {
      using T = decltype(tag);
      const T* a = left.column->values_as<T>();
      const T* b = right.column->values_as<T>();
      if (sa == 1 && sb == 0) {  // column against a constant, the common filter shape
        const T constant_b = b[0];
        CompareOp<T>(op, n, out, [&](int64_t i) { return a[i]; },
                     [&](int64_t) { return constant_b; });
      } else if (sa == 1 && sb == 1) {
        CompareOp<T>(op, n, out, [&](int64_t i) { return a[i]; }, [&](int64_t i) { return b[i]; });
      } else {
        CompareOp<T>(op, n, out, [&](int64_t i) { return a[i * sa]; },
                     [&](int64_t i) { return b[i * sb]; });
      }
    });
  }
  const Vec* inputs[] = {&left, &right};
  int64_t null_count = 0;
  auto validity = CombinedValidity(inputs, n, &null_count);
  if (op == Op::kIsDistinctFrom || op == Op::kIsNotDistinctFrom) {
    // Never NULL: two NULLs are not distinct, a NULL and a value are.
    if (null_count > 0) {
      for (int64_t i = 0; i < n; ++i) {
        bool va = VecValid(left, i), vb = VecValid(right, i);
        if (va && vb) continue;
        bool distinct = va != vb;
        if (distinct == (op == Op::kIsDistinctFrom)) {
          SetBit(out, i);
        } else {
          ClearBit(out, i);
        }
      }
    }
    return Vec{MakeColumn(DataType(TypeId::kBoolean), n, bits, nullptr, 0), constant};
  }
  auto column = MakeColumn(DataType(TypeId::kBoolean), n, bits, validity, null_count);
  ZeroNullRows(column.get());
  return Vec{column, constant};
}

namespace {

// Row by row with every check: NULL rows skipped, division by zero made NULL, and the first
// overflow reported with its operands. The fast loops below fall back to it.
template <typename T>
Status IntegerRowLoop(Op op, TypeId type, int64_t n, const T* a, int64_t sa, const T* b,
                      int64_t sb, T* out, uint8_t* validity, int64_t* extra_nulls) {
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !GetBit(validity, i)) continue;
    T x = a[i * sa], y = b[i * sb], r = 0;
    bool overflow = false;
    switch (op) {
      case Op::kAdd: overflow = __builtin_add_overflow(x, y, &r); break;
      case Op::kSubtract: overflow = __builtin_sub_overflow(x, y, &r); break;
      case Op::kMultiply: overflow = __builtin_mul_overflow(x, y, &r); break;
      case Op::kIntDivide: case Op::kModulo:
        if (y == 0) {
          ClearBit(validity, i);
          ++*extra_nulls;
          continue;
        }
        if (std::is_signed_v<T> && y == static_cast<T>(-1) && x == std::numeric_limits<T>::min()) {
          if (op == Op::kModulo) {
            r = 0;
            break;
          }
          overflow = true;
          break;
        }
        r = static_cast<T>(op == Op::kIntDivide ? x / y : x % y);
        break;
      default: return Status::Internal("bad operator");
    }
    if (overflow) return OverflowError(op, type, x, y);
    out[i] = r;
  }
  return Status::OK();
}

// +, - or * over every row with the overflow flags ORed together, so the loop has no branch;
// false when some row overflowed (then nothing is known of `out`).
template <typename T, typename GetA, typename GetB>
bool CheckedLoop(Op op, int64_t n, GetA get_a, GetB get_b, T* out) {
  bool overflow = false;
  switch (op) {
    case Op::kAdd:
      for (int64_t i = 0; i < n; ++i) overflow |= __builtin_add_overflow(get_a(i), get_b(i), &out[i]);
      break;
    case Op::kSubtract:
      for (int64_t i = 0; i < n; ++i) overflow |= __builtin_sub_overflow(get_a(i), get_b(i), &out[i]);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) overflow |= __builtin_mul_overflow(get_a(i), get_b(i), &out[i]);
      break;
  }
  return !overflow;
}

// `//` and `%` by a constant divisor other than 0 and -1: a multiplication by the divisor's
// reciprocal instead of a hardware division per row. NULL rows are computed too (any value
// divides safely) and zeroed by the caller.
template <typename T>
void DivideByConstant(Op op, int64_t n, const T* a, T divisor, T* out) {
  using Wide = std::conditional_t<(sizeof(T) <= 4), std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
                                  std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;
  const Wide d = divisor;
  const libdivide::divider<Wide> reciprocal(d);
  if (op == Op::kIntDivide) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(static_cast<Wide>(a[i]) / reciprocal);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      Wide x = a[i];
      out[i] = static_cast<T>(x - (x / reciprocal) * d);
    }
  }
}

// Integer +, -, *, // and % of two columns (stride 1) or a column and a constant (stride 0).
template <typename T>
Status IntegerLoop(Op op, TypeId type, int64_t n, const T* a, int64_t sa, const T* b, int64_t sb,
                   T* out, uint8_t* validity, int64_t* extra_nulls) {
  const bool divides = op == Op::kIntDivide || op == Op::kModulo;
  if (divides && sa == 1 && sb == 0 && b[0] != 0 &&
      !(std::is_signed_v<T> && b[0] == static_cast<T>(-1))) {
    DivideByConstant<T>(op, n, a, b[0], out);
    return Status::OK();
  }
  if (!divides && validity == nullptr && (op == Op::kAdd || op == Op::kSubtract || op == Op::kMultiply)) {
    bool fits;
    if (sa == 1 && sb == 1) {
      fits = CheckedLoop<T>(op, n, [a](int64_t i) { return a[i]; }, [b](int64_t i) { return b[i]; }, out);
    } else if (sa == 1) {
      const T y = b[0];
      fits = CheckedLoop<T>(op, n, [a](int64_t i) { return a[i]; }, [y](int64_t) { return y; }, out);
    } else if (sb == 1) {
      const T x = a[0];
      fits = CheckedLoop<T>(op, n, [x](int64_t) { return x; }, [b](int64_t i) { return b[i]; }, out);
    } else {
      fits = CheckedLoop<T>(op, n, [a](int64_t) { return a[0]; }, [b](int64_t) { return b[0]; }, out);
    }
    if (fits) return Status::OK();
  }
  return IntegerRowLoop<T>(op, type, n, a, sa, b, sb, out, validity, extra_nulls);
}

template <typename T>
void FloatLoop(Op op, int64_t n, const T* a, int64_t sa, const T* b, int64_t sb, T* out) {
  switch (op) {
    case Op::kAdd: for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] + b[i * sb]; break;
    case Op::kSubtract: for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] - b[i * sb]; break;
    case Op::kMultiply: for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] * b[i * sb]; break;
    case Op::kDivide:
      for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] / b[i * sb];
      break;
    case Op::kIntDivide:  // floating `//` divides; by zero it is NULL (see ArithmeticKernel)
      for (int64_t i = 0; i < n; ++i) out[i] = b[i * sb] == 0 ? T(0) : a[i * sa] / b[i * sb];
      break;
    case Op::kModulo: for (int64_t i = 0; i < n; ++i) out[i] = std::fmod(a[i * sa], b[i * sb]); break;
    case Op::kPower:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(std::pow(a[i * sa], b[i * sb]));
      break;
    default: std::fill(out, out + n, T(0)); break;
  }
}

}  // namespace

namespace {

// DECIMAL +, - or * in 64-bit registers over the low words of the operands' 128-bit values
// (a column strides 2 words, a constant 0): each row's result r is written sign-extended, and
// the kernel says whether the batch may keep them — every operand's high word is its low
// word's sign (the values fit in 64 bits) and no valid row's result wrapped or reached
// `bound` in magnitude. Otherwise the caller's 128-bit loop decides. Branch-free per row.
template <Op kOp, bool kNullable>
bool Decimal64Kernel(int64_t n, const int64_t* a, int64_t sa, const int64_t* b, int64_t sb,
                     int64_t bound, const uint8_t* valid, __int128* out) {
  uint64_t stray = 0;
  bool outside = false;
  auto run = [&](auto low_a, auto low_b, auto high_a, auto high_b) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t x = low_a(i), y = low_b(i);
      int64_t r = 0;
      bool wrapped;
      if constexpr (kOp == Op::kAdd) {
        wrapped = __builtin_add_overflow(x, y, &r);
      } else if constexpr (kOp == Op::kSubtract) {
        wrapped = __builtin_sub_overflow(x, y, &r);
      } else {
        wrapped = __builtin_mul_overflow(x, y, &r);
      }
      bool out_of_range = wrapped | (r >= bound) | (r <= -bound);
      if constexpr (kNullable) out_of_range &= GetBit(valid, i);
      outside |= out_of_range;
      stray |= static_cast<uint64_t>((high_a(i) ^ (x >> 63)) | (high_b(i) ^ (y >> 63)));
      out[i] = r;
    }
  };
  const int64_t ca = a[0], cb = b[0], ha = a[1], hb = b[1];  // row 0: a constant's value
  auto column = [](const int64_t* words, int64_t word) {
    return [words, word](int64_t i) { return words[2 * i + word]; };
  };
  auto constant = [](int64_t value) { return [value](int64_t) { return value; }; };
  if (sa == 1 && sb == 1) {
    run(column(a, 0), column(b, 0), column(a, 1), column(b, 1));
  } else if (sa == 1) {
    run(column(a, 0), constant(cb), column(a, 1), constant(hb));
  } else if (sb == 1) {
    run(constant(ca), column(b, 0), constant(ha), column(b, 1));
  } else {
    run(constant(ca), constant(cb), constant(ha), constant(hb));
  }
  return stray == 0 && !outside;
}

template <Op kOp>
bool Decimal64(int64_t n, const int64_t* a, int64_t sa, const int64_t* b, int64_t sb,
               int64_t bound, const uint8_t* valid, __int128* out) {
  return valid == nullptr ? Decimal64Kernel<kOp, false>(n, a, sa, b, sb, bound, valid, out)
                          : Decimal64Kernel<kOp, true>(n, a, sa, b, sb, bound, valid, out);
}

// DECIMAL +, - and * on the unscaled 128-bit values, as ArithmeticValues computes them (the
// binder has aligned the operands' scales). On overflow: no column, so the caller's row-wise
// path reports the error with the values.
Vec DecimalArithmetic(const BoundNode& node, const Vec& left, const Vec& right, int64_t rows) {
  if (node.op != Op::kAdd && node.op != Op::kSubtract && node.op != Op::kMultiply) return Vec{};
  bool constant = left.constant && right.constant;
  int64_t n = constant ? 1 : rows;
  const Vec* inputs[] = {&left, &right};
  int64_t null_count = 0;
  auto validity = CombinedValidity(inputs, n, &null_count);
  auto values = Buffer::AllocateUninitialized(n * 16);  // every row is written below
  const __int128* a = left.column->values_as<__int128>();
  const __int128* b = right.column->values_as<__int128>();
  __int128* out = values->mutable_data_as<__int128>();
  int64_t sa = left.constant ? 0 : 1, sb = right.constant ? 0 : 1;
  const __int128 limit = PowerOfTen(node.type.precision);
  const uint8_t* valid = validity ? validity->data() : nullptr;
  auto finished = [&] {
    auto column = MakeColumn(node.type, n, values, validity, null_count);
    ZeroNullRows(column.get());
    return Vec{column, constant};
  };
  const int pa = left.column->type.precision, pb = right.column->type.precision;
  const int64_t* a64 = left.column->values_as<int64_t>();  // low, high, low, high, ...
  const int64_t* b64 = right.column->values_as<int64_t>();
  if (pa <= 18 && pb <= 18 && node.op != Op::kMultiply) {
    // The common shape (TPC-H's 1 - l_discount): 64-bit operands, a result below 10^19 whose
    // only bound is the result's precision when that is 18 digits or fewer.
    const int64_t bound =
        node.type.precision <= 18 ? static_cast<int64_t>(PowerOfTen(node.type.precision)) : INT64_MAX;
    const bool kept = node.op == Op::kAdd
                          ? Decimal64<Op::kAdd>(n, a64, sa, b64, sb, bound, valid, out)
                          : Decimal64<Op::kSubtract>(n, a64, sa, b64, sb, bound, valid, out);
    if (kept) return finished();
    // Some row needs 128 bits (or overflows): the general loop below decides.
  } else if (node.op == Op::kMultiply && pa <= 18 && pb <= 18 && node.type.precision <= 18) {
    // A result of at most 18 digits (TPC-H's price * (1 - discount) * (1 + tax)).
    if (Decimal64<Op::kMultiply>(n, a64, sa, b64, sb,
                                 static_cast<int64_t>(PowerOfTen(node.type.precision)), valid, out)) {
      return finished();
    }
  }
  if (node.op == Op::kMultiply && pa <= 18 && pb <= 18 && pa + pb <= node.type.precision) {
    // Values of at most 18 digits multiply exactly in one 64x64->128 instruction, and a product
    // of pa + pb digits cannot leave the result's precision. Each value's high word is checked
    // to be its low word's sign on the way (a value out of its type's range takes the general
    // loop below).
    int64_t stray = 0;
    auto run = [&](auto get_a, auto get_b) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t x = get_a(i), y = get_b(i);
        out[i] = static_cast<__int128>(x) * y;
        stray |= (a64[2 * i * sa + 1] ^ (x >> 63)) | (b64[2 * i * sb + 1] ^ (y >> 63));
      }
    };
    if (sa == 1 && sb == 1) {
      run([a64](int64_t i) { return a64[2 * i]; }, [b64](int64_t i) { return b64[2 * i]; });
    } else if (sa == 1) {
      run([a64](int64_t i) { return a64[2 * i]; }, [b64](int64_t) { return b64[0]; });
    } else {
      run([a64, sa](int64_t i) { return a64[2 * i * sa]; }, [b64, sb](int64_t i) { return b64[2 * i * sb]; });
    }
    if (stray == 0) return finished();
  }
  bool overflow = false;
  // Results outside the precision overflow (NULL rows excepted); no branch per row, and a loop
  // per shape of operands (column or constant) so none multiplies by a stride.
  const __int128 ca = sa == 0 ? a[0] : 0, cb = sb == 0 ? b[0] : 0;  // constants: row 0
  auto loop = [&](auto op) {
    auto run = [&](auto get_a, auto get_b) {
      if (valid == nullptr) {
        for (int64_t i = 0; i < n; ++i) {
          __int128 r = 0;
          overflow |= op(get_a(i), get_b(i), &r) | (r >= limit) | (r <= -limit);
          out[i] = r;
        }
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        __int128 r = 0;
        const bool o = op(get_a(i), get_b(i), &r) | (r >= limit) | (r <= -limit);
        overflow |= o & GetBit(valid, i);
        out[i] = r;
      }
    };
    auto column_a = [a](int64_t i) { return a[i]; };
    auto column_b = [b](int64_t i) { return b[i]; };
    auto constant_a = [ca](int64_t) { return ca; };
    auto constant_b = [cb](int64_t) { return cb; };
    if (sa == 1 && sb == 1) {
      run(column_a, column_b);
    } else if (sa == 1) {
      run(column_a, constant_b);
    } else if (sb == 1) {
      run(constant_a, column_b);
    } else {
      run(constant_a, constant_b);
    }
  };
  switch (node.op) {
    case Op::kAdd:
      loop([](__int128 x, __int128 y, __int128* r) { return __builtin_add_overflow(x, y, r); });
      break;
    case Op::kSubtract:
      loop([](__int128 x, __int128 y, __int128* r) { return __builtin_sub_overflow(x, y, r); });
      break;
    default:
      // Two values that fit in 64 bits (DECIMAL up to 18 digits) multiply exactly in one
      // 64x64->128 instruction; the checked 128-bit multiplication is a library call.
      loop([](__int128 x, __int128 y, __int128* r) {
        const int64_t x64 = static_cast<int64_t>(x), y64 = static_cast<int64_t>(y);
        if (x64 == x && y64 == y) {
          *r = static_cast<__int128>(x64) * y64;
          return false;
        }
        return __builtin_mul_overflow(x, y, r);
      });
      break;
  }
  if (overflow) return Vec{};
  return finished();
}

}  // namespace

namespace {

// DATE ± integer, DATE - DATE and TIMESTAMP ± a constant INTERVAL; empty when the operands are
// of other types or a result leaves the DATE range (the row-wise path then reports it).
Vec CalendarArithmetic(const BoundNode& node, const Vec& left, const Vec& right, int64_t rows) {
  const TypeId lt = left.column->type.id, rt = right.column->type.id;
  const bool subtract = node.op == Op::kSubtract;
  if ((node.op != Op::kAdd && !subtract) || (lt != TypeId::kDate && lt != TypeId::kTimestamp)) {
    return Vec{};  // decided before any work: every arithmetic node asks here first
  }
  const bool constant = left.constant && right.constant;
  const int64_t n = constant ? 1 : rows;
  const Vec* inputs[] = {&left, &right};
  int64_t null_count = 0;
  auto validity = CombinedValidity(inputs, n, &null_count);
  const int64_t sa = left.constant ? 0 : 1, sb = right.constant ? 0 : 1;
  if (lt == TypeId::kDate && node.type.id == TypeId::kDate && right.column->type.IsInteger() &&
      PhysOf(right.column->type) != Phys::kI128 && PhysOf(right.column->type) != Phys::kU64) {
    const int32_t* a = left.column->values_as<int32_t>();
    auto values = Buffer::AllocateUninitialized(n * 4);
    int32_t* out = values->mutable_data_as<int32_t>();
    bool in_range = true;
    WithTypedValues(*right.column, PhysOf(right.column->type), [&](const auto* b) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(b)>>;
      if constexpr (std::is_integral_v<T>) {
        for (int64_t i = 0; i < n; ++i) {
          // Deltas past ±2^32 days leave the DATE range whatever the date.
          const int64_t delta = std::clamp<int64_t>(static_cast<int64_t>(b[i * sb]),
                                                    -(int64_t{1} << 32), int64_t{1} << 32);
          const int64_t days = a[i * sa] + (subtract ? -delta : delta);
          in_range = in_range && days >= INT32_MIN && days <= INT32_MAX;
          out[i] = static_cast<int32_t>(days);
        }
      }
    });
    if (!in_range) {
      // NULL rows may hold anything; only valid rows out of range go row-wise.
      for (int64_t i = 0; i < n; ++i) {
        if (validity == nullptr || GetBit(validity->data(), i)) {
          const __int128 delta = AsInt128(right.column->GetValue(i * sb));
          const __int128 days = a[i * sa] + (subtract ? -delta : delta);
          if (days < INT32_MIN || days > INT32_MAX) return Vec{};
        }
      }
    }
    auto column = MakeColumn(node.type, n, values, validity, null_count);
    ZeroNullRows(column.get());
    return Vec{column, constant};
  }
  if (lt == TypeId::kDate && rt == TypeId::kDate && subtract && node.type.id == TypeId::kInt64) {
    const int32_t* a = left.column->values_as<int32_t>();
    const int32_t* b = right.column->values_as<int32_t>();
    auto values = Buffer::AllocateUninitialized(n * 8);
    int64_t* out = values->mutable_data_as<int64_t>();
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(a[i * sa]) - b[i * sb];
    auto column = MakeColumn(node.type, n, values, validity, null_count);
    ZeroNullRows(column.get());
    return Vec{column, constant};
  }
  if (lt == TypeId::kTimestamp && rt == TypeId::kInterval && node.type.id == TypeId::kTimestamp) {
    const int64_t* a = left.column->values_as<int64_t>();
    auto values = Buffer::AllocateUninitialized(n * 8);
    int64_t* out = values->mutable_data_as<int64_t>();
    const uint8_t* b = right.column->values->data();  // 16 bytes a row: months, days, nanos
    for (int64_t i = 0; i < n; ++i) {
      Interval interval;
      std::memcpy(&interval.months, b + 16 * i * sb, 4);
      std::memcpy(&interval.days, b + 16 * i * sb + 4, 4);
      std::memcpy(&interval.nanos, b + 16 * i * sb + 8, 8);
      if (subtract) interval = Interval{-interval.months, -interval.days, -interval.nanos};
      out[i] = AddInterval(a[i * sa], interval);
    }
    auto column = MakeColumn(node.type, n, values, validity, null_count);
    ZeroNullRows(column.get());
    return Vec{column, constant};
  }
  return Vec{};
}

}  // namespace

Result<Vec> ArithmeticKernel(const BoundNode& node, const Vec& left, const Vec& right, int64_t rows) {
  const DataType& type = node.type;
  if (Vec calendar = CalendarArithmetic(node, left, right, rows); calendar.column) return calendar;
  if (type.id == TypeId::kDecimal && left.column->type.id == TypeId::kDecimal &&
      right.column->type.id == TypeId::kDecimal) {
    return DecimalArithmetic(node, left, right, rows);
  }
  if (left.column->type != type || right.column->type != type) return Vec{};
  Phys phys = PhysOf(type);
  bool is_int = phys == Phys::kI8 || phys == Phys::kI16 || phys == Phys::kI32 ||
                phys == Phys::kI64 || phys == Phys::kU8 || phys == Phys::kU16 ||
                phys == Phys::kU32 || phys == Phys::kU64;
  bool is_float = phys == Phys::kF32 || phys == Phys::kF64;
  if (!(type.IsInteger() && is_int) && !(type.IsFloating() && is_float)) return Vec{};
  bool constant = left.constant && right.constant;
  int64_t n = constant ? 1 : rows;
  const Vec* inputs[] = {&left, &right};
  int64_t null_count = 0;
  auto validity = CombinedValidity(inputs, n, &null_count);
  // Division by zero is NULL; a constant divisor other than zero never makes one.
  bool divisor_nonzero = right.constant && right.column->IsValid(0) && [&] {
    bool nonzero = false;
    VisitFixed(phys, [&](auto tag) { nonzero = right.column->values_as<decltype(tag)>()[0] != 0; });
    return nonzero;
  }();
  bool may_null = (node.op == Op::kIntDivide || (is_int && node.op == Op::kModulo)) && !divisor_nonzero;
  if (may_null && !validity) {
    validity = Buffer::Allocate(Bytes(n));
    std::memset(validity->mutable_data(), 0xFF, static_cast<size_t>(Bytes(n)));
  }
  // The loops write every valid row and ZeroNullRows the others.
  auto values = Buffer::AllocateUninitialized(n * type.FixedWidth());
  int64_t sa = left.constant ? 0 : 1, sb = right.constant ? 0 : 1;
  Status status;
  int64_t extra_nulls = 0;
  VisitFixed(phys, [&](auto tag) {
    using T = decltype(tag);
    const T* a = left.column->values_as<T>();
    const T* b = right.column->values_as<T>();
    T* out = values->mutable_data_as<T>();
    if constexpr (std::is_floating_point_v<T>) {
      FloatLoop<T>(node.op, n, a, sa, b, sb, out);
      if (node.op == Op::kIntDivide && may_null) {
        uint8_t* valid = validity->mutable_data();
        for (int64_t i = 0; i < n; ++i) {
          if (b[i * sb] == 0 && GetBit(valid, i)) {
            ClearBit(valid, i);
            ++extra_nulls;
          }
        }
      }
    } else if constexpr (!std::is_same_v<T, __int128>) {
      status = IntegerLoop<T>(node.op, type.id, n, a, sa, b, sb, out,
                              validity ? validity->mutable_data() : nullptr, &extra_nulls);
    }
  });
  TARN_RETURN_NOT_OK(status);
  auto column = MakeColumn(type, n, values, validity, null_count + extra_nulls);
  ZeroNullRows(column.get());
  return Vec{column, constant};
}

Result<Vec> NegateKernel(const BoundNode& node, const Vec& operand, int64_t rows) {
  Phys phys = PhysOf(node.type);
  if (operand.column->type != node.type || !(node.type.IsInteger() || node.type.IsFloating()) ||
      phys == Phys::kI128 || phys == Phys::kU8 || phys == Phys::kU16 || phys == Phys::kU32 ||
      phys == Phys::kU64) {
    return Vec{};
  }
  int64_t n = operand.constant ? 1 : rows;
  const Column& in = *operand.column;
  auto values = Buffer::AllocateUninitialized(n * node.type.FixedWidth());  // all written
  Status status;
  VisitFixed(phys, [&](auto tag) {
    using T = decltype(tag);
    const T* a = in.values_as<T>();
    T* out = values->mutable_data_as<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (!std::is_floating_point_v<T>) {
        if (a[i] == std::numeric_limits<T>::min() && in.IsValid(i)) {
          status = Status::InvalidArgument("Out of Range Error: Overflow in negation of ",
                                           PhysicalName(node.type.id), " (", static_cast<int64_t>(a[i]), ")!");
          return;
        }
      }
      out[i] = static_cast<T>(-a[i]);
    }
  });
  TARN_RETURN_NOT_OK(status);
  return Vec{MakeColumn(node.type, n, values, in.validity, in.null_count), operand.constant};
}

Result<Vec> CastKernel(const BoundNode& node, const Vec& operand, int64_t rows) {
  const DataType& from = operand.column->type;
  const DataType& to = node.type;
  Phys pf = PhysOf(from), pt = PhysOf(to);
  bool from_ok = (from.IsInteger() && pf != Phys::kI128 && pf != Phys::kOther) || from.IsFloating();
  bool widening = (to.id == TypeId::kFloat64 && from_ok) ||
                  (from.IsInteger() && to.IsInteger() && from_ok && pt != Phys::kI128 &&
                   pt != Phys::kOther && MaxType(from, to) == std::optional<DataType>(to) &&
                   PhysOf(from) != Phys::kU64);
  if (!widening) return ConversionCastKernel(node, operand, rows);
  int64_t n = operand.constant ? 1 : rows;
  const Column& in = *operand.column;
  auto values = Buffer::AllocateUninitialized(n * to.FixedWidth());  // all written
  VisitFixed(pf, [&](auto from_tag) {
    using F = decltype(from_tag);
    VisitFixed(pt, [&](auto to_tag) {
      using T = decltype(to_tag);
      if constexpr (!std::is_same_v<F, __int128> && !std::is_same_v<T, __int128>) {
        const F* a = in.values_as<F>();
        T* out = values->mutable_data_as<T>();
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(a[i]);
      }
    });
  });
  return Vec{MakeColumn(to, n, values, in.validity, in.null_count), operand.constant};
}

Vec LogicKernel(bool is_and, const std::vector<Vec>& inputs, int64_t rows) {
  bool constant = true;
  for (const Vec& v : inputs) constant = constant && v.constant;
  const int64_t n = constant ? 1 : rows;
  const int64_t bytes = Bytes(n);
  // AND: FALSE wins, then NULL, then TRUE. OR: TRUE wins, then NULL, then FALSE. A byte of rows
  // at a time: `decided` where a winning value was seen, `unknown` where a NULL was.
  std::vector<uint8_t> decided(static_cast<size_t>(bytes), 0);
  std::vector<uint8_t> unknown(static_cast<size_t>(bytes), 0);
  uint8_t* dec = decided.data();
  uint8_t* unk = unknown.data();
  const uint8_t flip = is_and ? 0xFF : 0x00;  // a row's bit XOR flip: 1 where it wins
  for (const Vec& v : inputs) {
    const Column& c = *v.column;
    const uint8_t* bits = c.values->data();
    if (v.constant) {
      const bool valid = c.IsValid(0);
      const bool wins = valid && GetBit(bits, 0) != is_and;
      if (wins) std::memset(dec, 0xFF, static_cast<size_t>(bytes));
      if (!valid) std::memset(unk, 0xFF, static_cast<size_t>(bytes));
      continue;
    }
    if (c.validity == nullptr || c.null_count == 0) {
      for (int64_t b = 0; b < bytes; ++b) dec[b] |= static_cast<uint8_t>(bits[b] ^ flip);
      continue;
    }
    const uint8_t* valid = c.validity->data();
    for (int64_t b = 0; b < bytes; ++b) {
      dec[b] |= static_cast<uint8_t>((bits[b] ^ flip) & valid[b]);
      unk[b] |= static_cast<uint8_t>(~valid[b]);
    }
  }
  // Rows past n in the last byte stay clear in both outputs.
  const uint8_t last_mask =
      n % 8 == 0 ? uint8_t{0xFF} : static_cast<uint8_t>((1u << (n % 8)) - 1);
  auto values = Buffer::Allocate(bytes);
  auto validity = Buffer::Allocate(bytes);
  uint8_t* out = values->mutable_data();
  uint8_t* val = validity->mutable_data();
  int64_t valid_rows = 0;
  for (int64_t b = 0; b < bytes; ++b) {
    const uint8_t mask = b == bytes - 1 ? last_mask : uint8_t{0xFF};
    const uint8_t known = static_cast<uint8_t>((dec[b] | ~unk[b]) & mask);
    val[b] = known;
    // AND: undecided rows are TRUE; OR: decided ones are. NULL rows stay clear.
    out[b] = static_cast<uint8_t>((dec[b] ^ flip) & known);
    valid_rows += std::popcount(static_cast<unsigned>(known));
  }
  const int64_t null_count = n - valid_rows;
  return Vec{MakeColumn(DataType(TypeId::kBoolean), n, values, null_count > 0 ? validity : nullptr,
                        null_count),
             constant};
}

Vec NotKernel(const Vec& input, int64_t rows) {
  int64_t n = input.constant ? 1 : rows;
  const Column& c = *input.column;
  auto values = Buffer::Allocate(Bytes(n));
  uint8_t* out = values->mutable_data();
  const uint8_t* in = c.values->data();
  for (int64_t b = 0; b < Bytes(n); ++b) out[b] = static_cast<uint8_t>(~in[b]);
  if (n % 8 != 0) out[n / 8] &= static_cast<uint8_t>((1u << (n % 8)) - 1);
  auto column = MakeColumn(c.type, n, values, c.validity, c.null_count);
  ZeroNullRows(column.get());
  return Vec{column, input.constant};
}

Vec IsNullKernel(const Vec& input, bool negated, int64_t rows) {
  int64_t n = input.constant ? 1 : rows;
  const Column& c = *input.column;
  auto values = Buffer::Allocate(Bytes(n));
  uint8_t* out = values->mutable_data();
  if (c.null_count == 0) {
    if (negated) std::memset(out, 0xFF, static_cast<size_t>(Bytes(n)));
  } else {
    const uint8_t* valid = c.validity->data();
    for (int64_t b = 0; b < Bytes(n); ++b) out[b] = negated ? valid[b] : static_cast<uint8_t>(~valid[b]);
  }
  if (n % 8 != 0) out[n / 8] &= static_cast<uint8_t>((1u << (n % 8)) - 1);
  return Vec{MakeColumn(DataType(TypeId::kBoolean), n, values, nullptr, 0), input.constant};
}

Result<Vec> InKernel(const Vec& operand, const std::vector<Value>& items, bool negated,
                     int64_t rows) {
  Phys phys = PhysOf(operand.column->type);
  bool list_has_null = false;
  for (const Value& item : items) list_has_null = list_has_null || item.is_null();
  int64_t n = operand.constant ? 1 : rows;
  const Column& c = *operand.column;
  // `contains(i)` for every row (NULL rows too: their bits are masked below), assembled a byte
  // of rows at a time; then x IN list is TRUE where contained, NULL where the row is NULL or
  // (the list holding a NULL) not contained, FALSE elsewhere; NOT IN the reverse.
  auto finish = [&](auto&& contains) {
    auto values = Buffer::Allocate(Bytes(n));
    uint8_t* out = values->mutable_data();
    CompareBits(n, out, [](int64_t i) { return i; }, [](int64_t) { return 0; },
                [&](int64_t i, int) { return contains(i); });
    std::shared_ptr<Buffer> validity;
    if (c.null_count > 0 || list_has_null) {
      validity = Buffer::Allocate(Bytes(n));
      uint8_t* val = validity->mutable_data();
      if (c.null_count > 0) {
        internal::CopyBits(c.validity->data(), 0, val, 0, n);
      } else {
        internal::SetBitRange(val, 0, n);
      }
      if (list_has_null) {
        for (int64_t byte = 0; byte < Bytes(n); ++byte) val[byte] &= out[byte];
      }
    }
    for (int64_t byte = 0; byte < Bytes(n); ++byte) {
      uint8_t bits = negated ? static_cast<uint8_t>(~out[byte]) : out[byte];
      out[byte] = validity ? static_cast<uint8_t>(bits & validity->data()[byte]) : bits;
    }
    if ((n & 7) != 0) out[n >> 3] &= static_cast<uint8_t>((1u << (n & 7)) - 1);
    int64_t null_count = validity ? n - internal::CountSetBits(validity->data(), 0, n) : 0;
    return Vec{MakeColumn(DataType(TypeId::kBoolean), n, values, validity, null_count),
               operand.constant};
  };
  if (phys == Phys::kBytes) {
    std::unordered_set<std::string_view> set;
    for (const Value& item : items) {
      if (!item.is_null()) set.insert(item.GetBytes());
    }
    // A dictionary-coded column: each dictionary entry looked up once.
    const DictionaryCodes* coded = operand.constant ? nullptr : c.codes();
    if (coded != nullptr && coded->entries->length < n) {
      const Column& entries = *coded->entries;
      std::vector<uint8_t> entry_in(static_cast<size_t>(entries.length));
      for (int64_t j = 0; j < entries.length; ++j) {
        entry_in[static_cast<size_t>(j)] = set.count(entries.GetView(j)) > 0 ? 1 : 0;
      }
      const uint32_t* codes = coded->codes->data_as<uint32_t>();
      return finish([&](int64_t i) { return entry_in[codes[i]] != 0; });
    }
    if (!set.empty() && set.size() <= 16 &&
        std::all_of(set.begin(), set.end(), [](std::string_view v) { return v.size() <= 8; })) {
      // A few short texts (TPC-H Q22's country codes): each row of up to 8 bytes packed into a
      // word and compared with every item's, no call per row.
      auto pack = [](const char* bytes, size_t length) {
        uint64_t word = 0;
        for (size_t k = 0; k < length; ++k) word |= uint64_t{static_cast<uint8_t>(bytes[k])} << (8 * k);
        return word;
      };
      std::vector<uint64_t> words;
      std::vector<int64_t> lengths;
      for (std::string_view item : set) {
        words.push_back(pack(item.data(), item.size()));
        lengths.push_back(static_cast<int64_t>(item.size()));
      }
      const int64_t* offsets = c.values_as<int64_t>();
      const char* bytes = c.data != nullptr ? reinterpret_cast<const char*>(c.data->data()) : "";
      return finish([&](int64_t i) {
        const int64_t length = offsets[i + 1] - offsets[i];
        if (length > 8) return false;
        const uint64_t word = pack(bytes + offsets[i], static_cast<size_t>(length));
        bool hit = false;
        for (size_t k = 0; k < words.size(); ++k) hit |= (words[k] == word) & (lengths[k] == length);
        return hit;
      });
    }
    return finish([&](int64_t i) { return c.IsValid(i) && set.count(c.GetView(i)) > 0; });
  }
  if (phys == Phys::kI8 || phys == Phys::kI16 || phys == Phys::kI32 || phys == Phys::kI64 ||
      phys == Phys::kU8 || phys == Phys::kU16 || phys == Phys::kU32) {
    std::vector<int64_t> sorted;
    for (const Value& item : items) {
      if (!item.is_null()) sorted.push_back(static_cast<int64_t>(AsInt128(item)));
    }
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    Vec result;
    VisitFixed(phys, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T> && sizeof(T) <= 8 &&
                    !(std::is_unsigned_v<T> && sizeof(T) == 8)) {
        const T* data = c.values_as<T>();
        if (sorted.empty()) {
          result = finish([](int64_t) { return false; });
          return;
        }
        // Values within 64 Ki of each other: one bit per value of their span.
        const uint64_t low = static_cast<uint64_t>(sorted.front());
        const uint64_t span = static_cast<uint64_t>(sorted.back()) - low;
        if (span < (uint64_t{1} << 16)) {
          std::vector<uint8_t> bitmap(static_cast<size_t>(span / 8 + 1), 0);
          for (int64_t v : sorted) SetBit(bitmap.data(), static_cast<int64_t>(static_cast<uint64_t>(v) - low));
          const uint8_t* bits = bitmap.data();
          result = finish([&](int64_t i) {
            uint64_t offset = static_cast<uint64_t>(static_cast<int64_t>(data[i])) - low;
            return offset <= span && GetBit(bits, static_cast<int64_t>(offset));
          });
        } else if (sorted.size() <= 16) {
          result = finish([&](int64_t i) {
            int64_t x = static_cast<int64_t>(data[i]);
            bool hit = false;
            for (int64_t v : sorted) hit |= x == v;
            return hit;
          });
        } else {
          result = finish([&](int64_t i) {
            return std::binary_search(sorted.begin(), sorted.end(), static_cast<int64_t>(data[i]));
          });
        }
      }
    });
    return result;
  }
  if (phys == Phys::kF64 || phys == Phys::kF32) {
    std::vector<double> list;
    for (const Value& item : items) {
      if (!item.is_null()) list.push_back(item.GetDouble());
    }
    return finish([&](int64_t i) {
      double x = phys == Phys::kF64 ? c.values_as<double>()[i] : c.values_as<float>()[i];
      for (double y : list) {
        if (FloatEqual(x, y)) return true;
      }
      return false;
    });
  }
  return Vec{};
}

}  // namespace tarn::expr
