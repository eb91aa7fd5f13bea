#include "expr/eval/function_kernels.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "expr/eval/cast.h"
#include "expr/eval/json_kernels.h"
#include "expr/eval/kernels.h"
#include "expr/functions/case_mapping.h"
#include "expr/functions/conversion_functions.h"
#include "expr/functions/date_functions.h"
#include "expr/functions/datetime.h"
#include "expr/functions/functions.h"
#include "expr/functions/json_functions.h"

namespace tarn::expr {
namespace {

// Row i of a VARCHAR argument (a constant's only row for every i).
struct Text {
  const Column* column;
  bool constant;
  std::string_view operator()(int64_t i) const { return column->GetView(constant ? 0 : i); }
  bool Valid(int64_t i) const { return column->IsValid(constant ? 0 : i); }
};

bool AllOfType(const std::vector<Vec>& inputs, TypeId id) {
  for (const Vec& v : inputs) {
    if (v.column->type.id != id) return false;
  }
  return true;
}

int64_t CountCodePoints(std::string_view s) {
  int64_t count = 0;
  for (char c : s) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// A VARCHAR result of the rows where every input is valid (NULL elsewhere): append(i, out)
// writes row i.
template <typename Append>
Vec StringResult(const std::vector<Vec>& inputs, int64_t rows, size_t bytes_hint, Append&& append) {
  std::vector<const Vec*> all;
  for (const Vec& v : inputs) all.push_back(&v);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = CombinedValidity(all, rows, &null_count);
  StringColumnWriter writer(rows, bytes_hint);
  std::string* out = writer.text();
  const uint8_t* valid = validity ? validity->data() : nullptr;
  for (int64_t i = 0; i < rows; ++i) {
    if (valid == nullptr || GetBit(valid, i)) append(i, out);
    writer.EndRow();
  }
  return Vec{writer.Finish(DataType(TypeId::kVarchar), std::move(validity), null_count), false};
}

// A fixed-width result of the rows where every input is valid: out[i] = value(i).
template <typename T, typename Value>
Vec FixedResult(const DataType& type, const std::vector<Vec>& inputs, int64_t rows, Value&& value) {
  std::vector<const Vec*> all;
  for (const Vec& v : inputs) all.push_back(&v);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = CombinedValidity(all, rows, &null_count);
  auto values = Buffer::AllocateUninitialized(rows * static_cast<int64_t>(sizeof(T)));
  T* out = values->mutable_data_as<T>();
  if (validity == nullptr) {
    for (int64_t i = 0; i < rows; ++i) out[i] = value(i);
  } else {
    const uint8_t* valid = validity->data();
    for (int64_t i = 0; i < rows; ++i) out[i] = GetBit(valid, i) ? value(i) : T{};
  }
  return Vec{MakeColumn(type, rows, values, validity, null_count), false};
}

// A BOOLEAN result of the rows where every input is valid.
template <typename Predicate>
Vec BoolResult(const std::vector<Vec>& inputs, int64_t rows, Predicate&& predicate) {
  std::vector<const Vec*> all;
  for (const Vec& v : inputs) all.push_back(&v);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = CombinedValidity(all, rows, &null_count);
  auto bits = Buffer::Allocate((rows + 7) / 8);
  uint8_t* out = bits->mutable_data();
  const uint8_t* valid = validity ? validity->data() : nullptr;
  for (int64_t i = 0; i < rows; ++i) {
    if ((valid == nullptr || GetBit(valid, i)) && predicate(i)) SetBit(out, i);
  }
  return Vec{MakeColumn(DataType(TypeId::kBoolean), rows, bits, validity, null_count), false};
}

Vec Concat(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  std::vector<Text> parts;
  size_t hint = 0;
  for (const Vec& v : inputs) {
    parts.push_back(Text{v.column.get(), v.constant});
    hint += v.constant ? v.column->GetView(0).size() : 8;
  }
  if (node.function == FunctionId::kConcatOperator) {
    return StringResult(inputs, rows, hint * static_cast<size_t>(rows), [&](int64_t i, std::string* out) {
      for (const Text& part : parts) out->append(part(i));
    });
  }
  // concat() skips NULL arguments and is never NULL itself.
  StringColumnWriter writer(rows, hint * static_cast<size_t>(rows));
  std::string* out = writer.text();
  for (int64_t i = 0; i < rows; ++i) {
    for (const Text& part : parts) {
      if (part.Valid(i)) out->append(part(i));
    }
    writer.EndRow();
  }
  return Vec{writer.Finish(DataType(TypeId::kVarchar), nullptr, 0), false};
}

Vec ChangeCase(bool upper, const std::vector<Vec>& inputs, int64_t rows) {
  const Text text{inputs[0].column.get(), inputs[0].constant};
  return StringResult(inputs, rows, static_cast<size_t>(rows) * 8, [&](int64_t i, std::string* out) {
    const std::string_view s = text(i);
    bool ascii = true;
    for (char c : s) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    if (!ascii) {
      if (upper) {
        AppendUpperUtf8(s, out);
      } else {
        AppendLowerUtf8(s, out);
      }
      return;
    }
    const size_t at = out->size();
    out->append(s);
    char* p = out->data() + at;
    for (size_t k = 0; k < s.size(); ++k) {
      const char c = p[k];
      if (upper ? (c >= 'a' && c <= 'z') : (c >= 'A' && c <= 'Z')) {
        p[k] = static_cast<char>(c ^ 0x20);
      }
    }
  });
}

Vec Replace(const std::vector<Vec>& inputs, int64_t rows) {
  const Text text{inputs[0].column.get(), inputs[0].constant};
  const Text from{inputs[1].column.get(), inputs[1].constant};
  const Text to{inputs[2].column.get(), inputs[2].constant};
  return StringResult(inputs, rows, static_cast<size_t>(rows) * 8, [&](int64_t i, std::string* out) {
    const std::string_view s = text(i);
    const std::string_view f = from(i);
    if (f.empty()) {
      out->append(s);
      return;
    }
    const std::string_view t = to(i);
    size_t pos = 0;
    while (true) {
      const size_t found = s.find(f, pos);
      if (found == std::string_view::npos) break;
      out->append(s.substr(pos, found - pos));
      out->append(t);
      pos = found + f.size();
    }
    out->append(s.substr(pos));
  });
}

Vec Trim(FunctionId id, const std::vector<Vec>& inputs, int64_t rows) {
  const Text text{inputs[0].column.get(), inputs[0].constant};
  const bool has_chars = inputs.size() > 1;
  const Text chars{has_chars ? inputs[1].column.get() : nullptr, has_chars && inputs[1].constant};
  const bool left = id != FunctionId::kRTrim, right = id != FunctionId::kLTrim;
  return StringResult(inputs, rows, static_cast<size_t>(rows) * 8, [&](int64_t i, std::string* out) {
    const std::string_view s = text(i);
    const std::string_view set = has_chars ? chars(i) : std::string_view(" ");
    size_t begin = 0, end = s.size();
    if (left) {
      while (begin < end && set.find(s[begin]) != std::string_view::npos) ++begin;
    }
    if (right) {
      while (end > begin && set.find(s[end - 1]) != std::string_view::npos) --end;
    }
    out->append(s.substr(begin, end - begin));
  });
}

// greatest / least over numbers of one type: the largest (smallest) non-NULL argument, in
// CompareValues' order (NaN above every number); NULL when every argument is NULL.
Vec Extreme(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  const Phys phys = PhysOf(node.type);
  Vec result;
  for (const Vec& v : inputs) {
    if (v.column->type != node.type) return result;
  }
  const bool greatest = node.function == FunctionId::kGreatest;
  bool no_nulls = true;
  for (const Vec& v : inputs) no_nulls = no_nulls && v.column->null_count == 0;
  WithTypedValues(*inputs[0].column, phys, [&](const auto* first_values) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(first_values)>>;
    if constexpr (std::is_integral_v<T>) {
      if (no_nulls) {
        // No NULL anywhere: an input at a time, a branch-free max or min per row.
        auto values = Buffer::AllocateUninitialized(rows * static_cast<int64_t>(sizeof(T)));
        T* out = values->mutable_data_as<T>();
        const int64_t s0 = inputs[0].constant ? 0 : 1;
        for (int64_t i = 0; i < rows; ++i) out[i] = first_values[i * s0];
        for (size_t k = 1; k < inputs.size(); ++k) {
          const T* x = inputs[k].column->values_as<T>();
          const int64_t step = inputs[k].constant ? 0 : 1;
          for (int64_t i = 0; i < rows; ++i) {
            out[i] = greatest ? std::max(out[i], x[i * step]) : std::min(out[i], x[i * step]);
          }
        }
        result = Vec{MakeColumn(node.type, rows, std::move(values), nullptr, 0), false};
        return;
      }
    }
    auto column = NullableFixedColumn<T>(node.type, rows, [&](int64_t i, T* out) {
      bool any = false;
      for (const Vec& v : inputs) {
        const int64_t row = v.constant ? 0 : i;
        if (!v.column->IsValid(row)) continue;
        const T x = v.column->values_as<T>()[row];
        bool better = !any;
        if constexpr (std::is_floating_point_v<T>) {
          better = better || (greatest ? FloatLess(static_cast<double>(*out), static_cast<double>(x))
                                       : FloatLess(static_cast<double>(x), static_cast<double>(*out)));
        } else {
          better = better || (greatest ? *out < x : x < *out);
        }
        if (better) *out = x;
        any = true;
      }
      return any;
    });
    result = Vec{std::move(column), false};
  });
  return result;
}

// nullif(a, b) over numbers of one type: NULL where a equals b (both non-NULL), else a.
Vec NullIf(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  Vec result;
  if (inputs[0].column->type != node.type || inputs[1].column->type != node.type) return result;
  const Vec& a = inputs[0];
  const Vec& b = inputs[1];
  WithTypedValues(*a.column, PhysOf(node.type), [&](const auto* a_values) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(a_values)>>;
    const T* b_values = b.column->values_as<T>();
    auto column = NullableFixedColumn<T>(node.type, rows, [&](int64_t i, T* out) {
      const int64_t ra = a.constant ? 0 : i, rb = b.constant ? 0 : i;
      if (!a.column->IsValid(ra)) return false;
      *out = a_values[ra];
      if (!b.column->IsValid(rb)) return true;
      if constexpr (std::is_floating_point_v<T>) {
        return !FloatEqual(static_cast<double>(a_values[ra]), static_cast<double>(b_values[rb]));
      } else {
        return a_values[ra] != b_values[rb];
      }
    });
    result = Vec{std::move(column), false};
  });
  return result;
}

Vec StructPack(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  const auto& fields = node.type.children;
  if (fields.size() != inputs.size()) return Vec{};
  auto column = std::make_shared<Column>();
  column->type = node.type;
  column->length = rows;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].column->type != fields[k].type) return Vec{};
    column->children.push_back(Broadcast(inputs[k], rows));
  }
  return Vec{column, false};
}

// list_value(a, b, ...): row i's list holds row i of each argument, in order.
Vec ListValue(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  if (node.type.children.size() != 1) return Vec{};
  const DataType& element_type = node.type.children[0].type;
  std::vector<std::shared_ptr<Column>> parts;
  for (const Vec& v : inputs) {
    if (v.column->type != element_type) return Vec{};
    parts.push_back(v.column);
  }
  // Element k of row i is row i (0 for a constant) of argument k, at its place in the parts
  // laid end to end.
  const int64_t width = static_cast<int64_t>(inputs.size());
  std::vector<int64_t> starts(inputs.size());
  int64_t start = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    starts[k] = start;
    start += inputs[k].column->length;
  }
  std::vector<int64_t> take(static_cast<size_t>(rows * width));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t k = 0; k < width; ++k) {
      take[static_cast<size_t>(i * width + k)] =
          starts[static_cast<size_t>(k)] + (inputs[static_cast<size_t>(k)].constant ? 0 : i);
    }
  }
  std::shared_ptr<Column> elements = Take(*Concatenate(parts), take);
  std::vector<int64_t> offsets(static_cast<size_t>(rows) + 1);
  for (int64_t i = 0; i <= rows; ++i) offsets[static_cast<size_t>(i)] = i * width;
  return Vec{MakeListColumn(node.type, offsets, std::move(elements), nullptr, 0), false};
}

// Row i of a DATE or TIMESTAMP (microseconds) argument as microseconds.
struct Micros {
  const Column* column;
  bool constant;
  bool is_date;
  int64_t operator()(int64_t i) const {
    const int64_t row = constant ? 0 : i;
    return is_date ? static_cast<int64_t>(column->values_as<int32_t>()[row]) * kMicrosPerDay
                   : column->values_as<int64_t>()[row];
  }
};

std::optional<Micros> MicrosOf(const Vec& v) {
  const TypeId id = v.column->type.id;
  if (id != TypeId::kDate && id != TypeId::kTimestamp) return std::nullopt;
  return Micros{v.column.get(), v.constant, id == TypeId::kDate};
}

// The constant text of argument `k`, or nullopt.
std::optional<std::string_view> ConstantText(const std::vector<Vec>& inputs, size_t k) {
  if (k >= inputs.size() || !inputs[k].constant || inputs[k].column->type.id != TypeId::kVarchar ||
      !inputs[k].column->IsValid(0)) {
    return std::nullopt;
  }
  return inputs[k].column->GetView(0);
}

// The calendar fields of DATE rows straight from their day counts, the part chosen once per
// batch; nullopt for the parts ExtractDatePart computes.
std::optional<Vec> DayPartResult(DatePart part, const DataType& type, const std::vector<Vec>& inputs,
                                 size_t k, int64_t rows) {
  const Vec& dates = inputs[k];
  if (dates.column->type.id != TypeId::kDate) return std::nullopt;
  const int32_t* days = dates.column->values_as<int32_t>();
  const int64_t stride = dates.constant ? 0 : 1;
  auto field = [&](auto pick) {
    return FixedResult<int64_t>(type, inputs, rows, [&](int64_t i) {
      int64_t year, month, day;
      CivilFromDays(days[i * stride], &year, &month, &day);
      return pick(year, month, day);
    });
  };
  switch (part) {
    case DatePart::kYear: return field([](int64_t y, int64_t, int64_t) { return y; });
    case DatePart::kMonth: return field([](int64_t, int64_t m, int64_t) { return m; });
    case DatePart::kDay: return field([](int64_t, int64_t, int64_t d) { return d; });
    case DatePart::kQuarter: return field([](int64_t, int64_t m, int64_t) { return (m + 2) / 3; });
    default: return std::nullopt;
  }
}

// The date functions over DATE and TIMESTAMP columns with constant part names and formats.
Result<Vec> DateKernel(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  const FunctionId id = node.function;
  if (std::optional<DatePart> part = PartOfFunction(id)) {
    if (std::optional<Vec> fields = DayPartResult(*part, node.type, inputs, 0, rows)) return *fields;
    const std::optional<Micros> micros = MicrosOf(inputs[0]);
    if (!micros) return Vec{};
    return FixedResult<int64_t>(node.type, inputs, rows,
                                [&](int64_t i) { return ExtractDatePart(*part, (*micros)(i)); });
  }
  switch (id) {
    case FunctionId::kDatePart: case FunctionId::kDateTrunc: {
      const std::optional<std::string_view> name = ConstantText(inputs, 0);
      const std::optional<Micros> micros = MicrosOf(inputs[1]);
      if (!name || !micros) return Vec{};
      const std::optional<DatePart> part = ParseDatePart(*name);
      if (!part) return Vec{};  // the row-wise path reports it
      if (id == FunctionId::kDateTrunc) {
        if (!TruncatesTo(*part) || node.type.id != TypeId::kTimestamp) return Vec{};
        return FixedResult<int64_t>(node.type, inputs, rows,
                                    [&](int64_t i) { return TruncateMicros(*part, (*micros)(i)); });
      }
      if (node.type.id == TypeId::kFloat64) {
        if (*part != DatePart::kEpoch) return Vec{};
        return FixedResult<double>(node.type, inputs, rows, [&](int64_t i) {
          return static_cast<double>((*micros)(i)) / 1e6;
        });
      }
      if (std::optional<Vec> fields = DayPartResult(*part, node.type, inputs, 1, rows)) return *fields;
      return FixedResult<int64_t>(node.type, inputs, rows,
                                  [&](int64_t i) { return ExtractDatePart(*part, (*micros)(i)); });
    }
    case FunctionId::kDateDiff: {
      const std::optional<std::string_view> name = ConstantText(inputs, 0);
      const std::optional<Micros> start = MicrosOf(inputs[1]);
      const std::optional<Micros> end = MicrosOf(inputs[2]);
      if (!name || !start || !end) return Vec{};
      const std::optional<DatePart> part = ParseDatePart(*name);
      if (!part || !DiffersBy(*part)) return Vec{};
      return FixedResult<int64_t>(node.type, inputs, rows, [&](int64_t i) {
        return DateDiff(*part, (*start)(i), (*end)(i));
      });
    }
    case FunctionId::kStrftime: {
      const size_t format_at = inputs[0].column->type.id == TypeId::kVarchar ? 0 : 1;
      const std::optional<std::string_view> text = ConstantText(inputs, format_at);
      const std::optional<Micros> micros = MicrosOf(inputs[1 - format_at]);
      if (!text || !micros) return Vec{};
      Result<DateFormat> format = DateFormat::Compile(*text);
      if (!format.ok()) return Vec{};
      return StringResult(inputs, rows, static_cast<size_t>(rows) * text->size(),
                          [&](int64_t i, std::string* out) { format->Format((*micros)(i), out); });
    }
    case FunctionId::kEpoch: case FunctionId::kEpochUs: {
      const std::optional<Micros> micros = MicrosOf(inputs[0]);
      if (!micros) return Vec{};
      if (id == FunctionId::kEpoch) {
        return FixedResult<double>(node.type, inputs, rows, [&](int64_t i) {
          return static_cast<double>((*micros)(i)) / 1e6;
        });
      }
      return FixedResult<int64_t>(node.type, inputs, rows, [&](int64_t i) { return (*micros)(i); });
    }
    default:
      return Vec{};
  }
}

// to_seconds(x), to_days(x), ...: an INTERVAL column (16 bytes a row: months, days, nanos).
// Empty when a row is out of range (the row-wise path names it).
Vec UnitsToIntervals(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  if (inputs.size() != 1 || node.type.id != TypeId::kInterval) return Vec{};
  const Column& amounts = *inputs[0].column;
  const Phys phys = PhysOf(amounts.type);
  if (phys != Phys::kF64 && phys != Phys::kI64 && phys != Phys::kI32) return Vec{};
  auto values = Buffer::AllocateUninitialized(rows * 16);
  uint8_t* out = values->mutable_data();
  const uint8_t* valid = amounts.validity ? amounts.validity->data() : nullptr;
  bool in_range = true;
  WithTypedValues(amounts, phys, [&](const auto* x) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int64_t> ||
                  std::is_same_v<T, int32_t>) {
      using Amount = std::conditional_t<std::is_same_v<T, double>, double, int64_t>;
      for (int64_t i = 0; i < rows && in_range; ++i) {
        Interval interval{0, 0, 0};
        if (valid == nullptr || GetBit(valid, i)) {
          std::optional<Interval> converted =
              IntervalOfUnits(node.function, static_cast<Amount>(x[i]));
          if (!converted) {
            in_range = false;
            break;
          }
          interval = *converted;
        }
        std::memcpy(out + 16 * i, &interval.months, 4);
        std::memcpy(out + 16 * i + 4, &interval.days, 4);
        std::memcpy(out + 16 * i + 8, &interval.nanos, 8);
      }
    } else {
      in_range = false;
    }
  });
  if (!in_range) return Vec{};
  return Vec{MakeColumn(node.type, rows, std::move(values), amounts.validity,
                        amounts.validity ? amounts.null_count : 0),
             false};
}

}  // namespace

Result<Vec> FunctionKernel(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
  bool all_constant = true;
  for (const Vec& v : inputs) all_constant = all_constant && v.constant;
  if (all_constant || inputs.empty()) return Vec{};
  switch (node.function) {
    case FunctionId::kConcat: case FunctionId::kConcatOperator:
      if (!AllOfType(inputs, TypeId::kVarchar)) return Vec{};
      return Concat(node, inputs, rows);
    case FunctionId::kLower: case FunctionId::kUpper:
      if (inputs.size() != 1 || !AllOfType(inputs, TypeId::kVarchar)) return Vec{};
      return ChangeCase(node.function == FunctionId::kUpper, inputs, rows);
    case FunctionId::kLength: {
      if (inputs.size() != 1 || !AllOfType(inputs, TypeId::kVarchar)) return Vec{};
      const Text text{inputs[0].column.get(), inputs[0].constant};
      return FixedResult<int64_t>(node.type, inputs, rows,
                                  [&](int64_t i) { return CountCodePoints(text(i)); });
    }
    case FunctionId::kReplace:
      if (inputs.size() != 3 || !AllOfType(inputs, TypeId::kVarchar)) return Vec{};
      return Replace(inputs, rows);
    case FunctionId::kTrim: case FunctionId::kLTrim: case FunctionId::kRTrim:
      if (inputs.size() > 2 || !AllOfType(inputs, TypeId::kVarchar)) return Vec{};
      return Trim(node.function, inputs, rows);
    case FunctionId::kStartsWith: case FunctionId::kEndsWith: case FunctionId::kContains: {
      if (inputs.size() != 2 || !AllOfType(inputs, TypeId::kVarchar)) return Vec{};
      const Text text{inputs[0].column.get(), inputs[0].constant};
      const Text part{inputs[1].column.get(), inputs[1].constant};
      const FunctionId id = node.function;
      return BoolResult(inputs, rows, [&](int64_t i) {
        const std::string_view s = text(i), p = part(i);
        if (id == FunctionId::kStartsWith) return s.starts_with(p);
        if (id == FunctionId::kEndsWith) return s.ends_with(p);
        return s.find(p) != std::string_view::npos;
      });
    }
    case FunctionId::kGreatest: case FunctionId::kLeast: {
      const Phys phys = PhysOf(node.type);
      if (phys == Phys::kBool || phys == Phys::kBytes || phys == Phys::kOther) return Vec{};
      return Extreme(node, inputs, rows);
    }
    case FunctionId::kNullIf: {
      const Phys phys = PhysOf(node.type);
      if (inputs.size() != 2 || phys == Phys::kBool || phys == Phys::kBytes ||
          phys == Phys::kOther) {
        return Vec{};
      }
      return NullIf(node, inputs, rows);
    }
    case FunctionId::kStructPack:
      return StructPack(node, inputs, rows);
    case FunctionId::kListValue:
      return ListValue(node, inputs, rows);
    default:
      if (IsDateFunction(node.function)) return DateKernel(node, inputs, rows);
      if (IsIntervalUnitFunction(node.function)) return UnitsToIntervals(node, inputs, rows);
      if (IsJsonFunction(node.function)) return JsonKernel(node, inputs, rows);
      return Vec{};
  }
}

Result<Vec> ListIndexKernel(const BoundNode& node, const Vec& list, const Vec& index,
                            int64_t rows) {
  if (list.constant || (list.column->type.id != TypeId::kList) ||
      !index.column->type.IsInteger() || PhysOf(index.column->type) == Phys::kI128 ||
      PhysOf(index.column->type) == Phys::kU64) {
    return Vec{};
  }
  const Column& lists = *list.column;
  const ListElements elements = FlattenLists(lists, rows);
  if (elements.elements->type != node.type) return Vec{};
  // Row i takes element `take[i]` of the flattened elements, or NULL (-1).
  std::vector<int64_t> take(static_cast<size_t>(rows));
  std::vector<int64_t> nulls;
  Vec result;
  WithTypedValues(*index.column, PhysOf(index.column->type), [&](const auto* indices) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(indices)>>;
    if constexpr (std::is_integral_v<T>) {
      for (int64_t i = 0; i < rows; ++i) {
        const int64_t r = index.constant ? 0 : i;
        const int64_t begin = elements.offsets[static_cast<size_t>(i)];
        const int64_t size = elements.offsets[static_cast<size_t>(i) + 1] - begin;
        int64_t at = static_cast<int64_t>(indices[r]);
        if (at < 0) at = size + at + 1;  // -1 is the last element
        if (!lists.IsValid(i) || !index.column->IsValid(r) || at < 1 || at > size) {
          take[static_cast<size_t>(i)] = 0;
          nulls.push_back(i);
          continue;
        }
        take[static_cast<size_t>(i)] = begin + at - 1;
      }
    }
  });
  if (nulls.empty()) return Vec{Take(*elements.elements, take), false};
  // Rows without an element take a NULL placed after the elements.
  ColumnBuilder null_row(node.type);
  null_row.AppendNull();
  const std::shared_ptr<Column> parts[] = {elements.elements, null_row.Finish()};
  const int64_t null_at = elements.elements->length;
  for (int64_t i : nulls) take[static_cast<size_t>(i)] = null_at;
  return Vec{Take(*Concatenate(parts), take), false};
}

}  // namespace tarn::expr
