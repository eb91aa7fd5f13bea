#include "expr/functions/nested_functions.h"

#include <algorithm>
#include <cmath>

#include "expr/eval/cast.h"

namespace tarn::expr {
namespace {

const DataType kBigint(TypeId::kInt64);

// range's element count, or an error beyond DuckDB's limit of 2^32 elements.
Result<int64_t> RangeCount(__int128 start, __int128 end, __int128 step) {
  if (step == 0 || (step > 0 && start >= end) || (step < 0 && start <= end)) return 0;
  __int128 span = step > 0 ? end - start : start - end;
  __int128 magnitude = step > 0 ? step : -step;
  __int128 count = (span + magnitude - 1) / magnitude;
  if (count > (static_cast<__int128>(1) << 32)) {
    return Status::InvalidArgument(
        "Invalid Input Error: Lists larger than 2^32 elements are not supported");
  }
  return static_cast<int64_t>(count);
}

Result<Value> Range(std::span<const Value> args, const DataType& result_type) {
  __int128 start = 0, end = 0, step = 1;
  if (args.size() == 1) {
    end = args[0].GetInt64();
  } else {
    start = args[0].GetInt64();
    end = args[1].GetInt64();
    if (args.size() == 3) step = args[2].GetInt64();
  }
  TARN_ASSIGN_OR_RETURN(int64_t count, RangeCount(start, end, step));
  std::vector<Value> elements;
  elements.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    elements.push_back(Value::Int64(static_cast<int64_t>(start + step * i)));
  }
  return Value::Nested(result_type, std::move(elements));
}

Result<Value> Map(std::span<const Value> args, const DataType& result_type) {
  if (args.empty()) return Value::Nested(result_type, {});
  const std::vector<Value>& keys = args[0].children();
  const std::vector<Value>& values = args[1].children();
  if (keys.size() != values.size()) {
    return Status::InvalidArgument(
        "Invalid Input Error: The map key list does not align with the map value list.");
  }
  const DataType& entry_type = result_type.children[0].type;
  std::vector<Value> entries;
  entries.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].is_null()) {
      return Status::InvalidArgument("Invalid Input Error: Map keys can not be NULL.");
    }
    for (size_t k = 0; k < i; ++k) {
      if (CompareValues(keys[k], keys[i]) == 0) {
        return Status::InvalidArgument("Invalid Input Error: Map keys must be unique.");
      }
    }
    entries.push_back(Value::Nested(entry_type, {keys[i], values[i]}));
  }
  return Value::Nested(result_type, std::move(entries));
}

// The element type of a list argument (a NULL argument has none: "NULL").
std::optional<DataType> ElementType(const DataType& type) {
  if (type.id == TypeId::kNull) return DataType(TypeId::kNull);
  if (type.id != TypeId::kList) return std::nullopt;
  return type.children[0].type;
}

// map[key]: the value of the entry with that key, NULL when there is none.
Value MapExtractValue(std::span<const Value> args, const DataType& result_type) {
  for (const Value& entry : args[0].children()) {
    const std::vector<Value>& pair = entry.children();
    if (pair.size() == 2 && !pair[0].is_null() && CompareValues(pair[0], args[1]) == 0) {
      return pair[1];
    }
  }
  return Value::Null(result_type);
}

// The entries of a map value.
const std::vector<Value>& Entries(const Value& map) { return map.children(); }

Result<Value> MapFromEntries(const Value& list, const DataType& result_type) {
  const DataType& entry_type = result_type.children[0].type;
  std::vector<Value> entries;
  for (const Value& entry : list.children()) {
    if (entry.is_null()) continue;
    const std::vector<Value>& pair = entry.children();
    if (pair[0].is_null()) {
      return Status::InvalidArgument("Invalid Input Error: Map keys can not be NULL.");
    }
    for (const Value& earlier : entries) {
      if (CompareValues(earlier.children()[0], pair[0]) == 0) {
        return Status::InvalidArgument("Invalid Input Error: Map keys must be unique.");
      }
    }
    entries.push_back(Value::Nested(entry_type, {pair[0], pair[1]}));
  }
  return Value::Nested(result_type, std::move(entries));
}

// map_concat: the entries of every map; a later map's value replaces an earlier one's in place.
Value MapConcat(std::span<const Value> args, const DataType& result_type) {
  const DataType& entry_type = result_type.children[0].type;
  std::vector<Value> entries;
  for (const Value& map : args) {
    if (map.is_null()) continue;
    for (const Value& entry : Entries(map)) {
      const std::vector<Value>& pair = entry.children();
      bool replaced = false;
      for (Value& earlier : entries) {
        if (CompareValues(earlier.children()[0], pair[0]) == 0) {
          earlier = Value::Nested(entry_type, {pair[0], pair[1]});
          replaced = true;
          break;
        }
      }
      if (!replaced) entries.push_back(Value::Nested(entry_type, {pair[0], pair[1]}));
    }
  }
  return Value::Nested(result_type, std::move(entries));
}

bool Contains(const std::vector<Value>& haystack, const Value& needle) {
  for (const Value& v : haystack) {
    if (!v.is_null() && CompareValues(v, needle) == 0) return true;
  }
  return false;
}

// l[i]: 1-based, negative from the end, NULL outside.
Value Element(const std::vector<Value>& elements, int64_t index, const DataType& type) {
  const auto n = static_cast<int64_t>(elements.size());
  if (index > 0 && index <= n) return elements[static_cast<size_t>(index - 1)];
  if (index < 0 && -index <= n) return elements[static_cast<size_t>(n + index)];
  return Value::Null(type);
}

Result<Value> VectorDistance(FunctionId id, std::span<const Value> args,
                             const DataType& result_type) {
  const char* name = id == FunctionId::kListDotProduct         ? "list_dot_product"
                     : id == FunctionId::kListCosineSimilarity ? "list_cosine_similarity"
                     : id == FunctionId::kListDistance         ? "list_distance"
                     : id == FunctionId::kListCosineDistance   ? "list_cosine_distance"
                                                               : "list_negative_dot_product";
  const std::vector<Value>& a = args[0].children();
  const std::vector<Value>& b = args[1].children();
  if (a.size() != b.size()) {
    return Status::InvalidArgument("Invalid Input Error: ", name,
                                   ": list dimensions must be equal, got left length '", a.size(),
                                   "' and right length '", b.size(), "'");
  }
  double dot = 0, norm_a = 0, norm_b = 0, distance = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_null()) {
      return Status::InvalidArgument("Invalid Input Error: ", name,
                                     ": left argument can not contain NULL values");
    }
    if (b[i].is_null()) {
      return Status::InvalidArgument("Invalid Input Error: ", name,
                                     ": right argument can not contain NULL values");
    }
    const double x = a[i].GetDouble(), y = b[i].GetDouble();
    dot += x * y;
    norm_a += x * x;
    norm_b += y * y;
    distance += (x - y) * (x - y);
  }
  double result = 0;
  switch (id) {
    case FunctionId::kListDotProduct: result = dot; break;
    case FunctionId::kListNegativeDot: result = -dot; break;
    case FunctionId::kListDistance: result = std::sqrt(distance); break;
    default: {
      const double denominator = std::sqrt(norm_a * norm_b);
      double similarity = denominator == 0 ? -1.0 : dot / denominator;
      similarity = std::max(-1.0, std::min(1.0, similarity));
      result = id == FunctionId::kListCosineSimilarity ? similarity : 1.0 - similarity;
    }
  }
  return Value::Double(result_type, result);
}

Result<Value> InvokeCollectionFunction(FunctionId id, std::span<const Value> args,
                                       const DataType& result_type) {
  switch (id) {
    case FunctionId::kGenerateSeries: {
      // Range with the end included.
      std::vector<Value> bounds(args.begin(), args.end());
      const size_t end_at = bounds.size() == 1 ? 0 : 1;
      const int64_t step = bounds.size() == 3 ? bounds[2].GetInt64() : 1;
      if (step == 0) return Value::Nested(result_type, {});
      int64_t end = bounds[end_at].GetInt64();
      const int64_t start = bounds.size() == 1 ? 0 : bounds[0].GetInt64();
      const bool reaches = step > 0 ? start <= end : start >= end;
      if (reaches && (end - start) % step == 0) {
        if (__builtin_add_overflow(end, step > 0 ? 1 : -1, &end)) {
          return Status::InvalidArgument("Out of Range Error: Overflow in generate_series");
        }
        bounds[end_at] = Value::Int64(end);
      } else if (reaches) {
        bounds[end_at] = Value::Int64(end + (step > 0 ? 1 : -1));
      }
      return Range(bounds, result_type);
    }
    case FunctionId::kMapExtract: {
      std::vector<Value> found;
      for (const Value& entry : Entries(args[0])) {
        const std::vector<Value>& pair = entry.children();
        if (!args[1].is_null() && CompareValues(pair[0], args[1]) == 0) found.push_back(pair[1]);
      }
      return Value::Nested(result_type, std::move(found));
    }
    case FunctionId::kMapKeys: case FunctionId::kMapValues: {
      std::vector<Value> out;
      for (const Value& entry : Entries(args[0])) {
        out.push_back(entry.children()[id == FunctionId::kMapKeys ? 0 : 1]);
      }
      return Value::Nested(result_type, std::move(out));
    }
    case FunctionId::kCardinality:
      return Value::UInt(result_type, Entries(args[0]).size());
    case FunctionId::kMapEntries: {
      std::vector<Value> out;
      const DataType& entry_type = result_type.children[0].type;
      for (const Value& entry : Entries(args[0])) {
        out.push_back(Value::Nested(entry_type, entry.children()));
      }
      return Value::Nested(result_type, std::move(out));
    }
    case FunctionId::kMapFromEntries: return MapFromEntries(args[0], result_type);
    case FunctionId::kMapConcat: return MapConcat(args, result_type);
    case FunctionId::kMapContains: {
      for (const Value& entry : Entries(args[0])) {
        if (CompareValues(entry.children()[0], args[1]) == 0) return Value::Boolean(true);
      }
      return Value::Boolean(false);
    }
    case FunctionId::kListHasAny: case FunctionId::kListHasAll: {
      const std::vector<Value>& haystack = args[0].children();
      const bool all = id == FunctionId::kListHasAll;
      for (const Value& needle : args[1].children()) {
        if (needle.is_null()) continue;
        const bool found = Contains(haystack, needle);
        if (all && !found) return Value::Boolean(false);
        if (!all && found) return Value::Boolean(true);
      }
      return Value::Boolean(all);
    }
    case FunctionId::kListExtract: {
      const int64_t index = args[1].GetInt64();
      if (args[0].type().id == TypeId::kList) {
        return Element(args[0].children(), index, result_type);
      }
      // A string: its index-th character.
      const std::string& s = args[0].GetBytes();
      std::vector<size_t> starts;
      for (size_t i = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
      }
      starts.push_back(s.size());
      const auto n = static_cast<int64_t>(starts.size()) - 1;
      int64_t at = index > 0 ? index - 1 : n + index;
      if (index == 0 || at < 0 || at >= n) return Value::Varchar("");
      return Value::Varchar(s.substr(starts[static_cast<size_t>(at)],
                                     starts[static_cast<size_t>(at) + 1] -
                                         starts[static_cast<size_t>(at)]));
    }
    case FunctionId::kArrayPopBack: case FunctionId::kArrayPopFront: {
      std::vector<Value> elements = args[0].children();
      if (!elements.empty()) {
        if (id == FunctionId::kArrayPopBack) {
          elements.pop_back();
        } else {
          elements.erase(elements.begin());
        }
      }
      return Value::Nested(result_type, std::move(elements));
    }
    case FunctionId::kListResize: {
      const int64_t size = args[1].is_null() ? 0 : args[1].GetInt64();
      if (size < 0) {
        return Status::InvalidArgument("Conversion Error: Type INT64 with value ", size,
                                       " can't be cast because the value is out of range for "
                                       "the destination type UINT64");
      }
      if (size > (int64_t{1} << 32)) {
        return Status::InvalidArgument(
            "Invalid Input Error: Lists larger than 2^32 elements are not supported");
      }
      std::vector<Value> elements = args[0].children();
      const Value fill = args.size() > 2 ? args[2] : Value::Null(result_type.children[0].type);
      elements.resize(static_cast<size_t>(size), fill);
      return Value::Nested(result_type, std::move(elements));
    }
    case FunctionId::kListWhere: {
      const std::vector<Value>& elements = args[0].children();
      std::vector<Value> out;
      const std::vector<Value>& mask = args[1].children();
      for (size_t i = 0; i < mask.size(); ++i) {
        if (mask[i].is_null()) {
          return Status::InvalidArgument("Invalid Input Error: NULLs are not allowed as list "
                                         "elements in the second input parameter.");
        }
        if (!mask[i].GetBool()) continue;
        out.push_back(i < elements.size() ? elements[i]
                                          : Value::Null(result_type.children[0].type));
      }
      return Value::Nested(result_type, std::move(out));
    }
    case FunctionId::kListSelect: {
      const std::vector<Value>& elements = args[0].children();
      std::vector<Value> out;
      for (const Value& index : args[1].children()) {
        if (index.is_null()) {
          return Status::InvalidArgument("Invalid Input Error: NULLs are not allowed as list "
                                         "elements in the second input parameter.");
        }
        const int64_t i = index.GetInt64();
        out.push_back(i >= 1 && i <= static_cast<int64_t>(elements.size())
                          ? elements[static_cast<size_t>(i - 1)]
                          : Value::Null(result_type.children[0].type));
      }
      return Value::Nested(result_type, std::move(out));
    }
    case FunctionId::kListGradeUp: {
      const std::vector<Value>& elements = args[0].children();
      bool descending = false;
      if (args.size() > 1) {
        std::string order = args[1].GetBytes();
        for (char& c : order) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        descending = order == "DESC" || order == "DESCENDING";
      }
      std::vector<size_t> order(elements.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const Value& x = elements[a];
        const Value& y = elements[b];
        if (x.is_null() || y.is_null()) return !x.is_null() && y.is_null();
        const int c = CompareValues(x, y);
        return descending ? c > 0 : c < 0;
      });
      std::vector<Value> out;
      for (size_t i : order) out.push_back(Value::Int64(static_cast<int64_t>(i + 1)));
      return Value::Nested(result_type, std::move(out));
    }
    case FunctionId::kListAnyValue: {
      for (const Value& v : args[0].children()) {
        if (!v.is_null()) return v;
      }
      return Value::Null(result_type);
    }
    default: return VectorDistance(id, args, result_type);
  }
}

Status ResolveCollectionFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                      std::vector<DataType>* cast_to, DataType* result) {
  const size_t n = arg_types.size();
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  const DataType kNullType(TypeId::kNull);
  *cast_to = arg_types;
  auto map_parts = [&](const DataType& type, DataType* key, DataType* value) {
    if (type.id != TypeId::kMap) return false;
    *key = type.children[0].type.children[0].type;
    *value = type.children[0].type.children[1].type;
    return true;
  };
  DataType key, value;
  switch (id) {
    case FunctionId::kGenerateSeries: {
      if (n < 1 || n > 3) return mismatch();
      for (const DataType& type : arg_types) {
        if (!(type.IsInteger() || type.id == TypeId::kNull) || !ImplicitlyCastable(type, kBigint)) {
          return mismatch();
        }
      }
      *cast_to = std::vector<DataType>(n, kBigint);
      *result = DataType::List(kBigint);
      return Status::OK();
    }
    case FunctionId::kMapExtract: case FunctionId::kMapContains:
      if (n != 2 || !map_parts(arg_types[0], &key, &value)) return mismatch();
      if (!(arg_types[1] == key || arg_types[1].id == TypeId::kNull ||
            ImplicitlyCastable(arg_types[1], key))) {
        return mismatch();
      }
      (*cast_to)[1] = key;
      *result = id == FunctionId::kMapExtract ? DataType::List(value) : DataType(TypeId::kBoolean);
      return Status::OK();
    case FunctionId::kMapKeys: case FunctionId::kMapValues: case FunctionId::kCardinality:
    case FunctionId::kMapEntries:
      if (n != 1 || !map_parts(arg_types[0], &key, &value)) return mismatch();
      if (id == FunctionId::kCardinality) {
        *result = DataType(TypeId::kUInt64);
      } else if (id == FunctionId::kMapEntries) {
        *result = DataType::List(DataType::Struct({Field("key", key), Field("value", value)}));
      } else {
        *result = DataType::List(id == FunctionId::kMapKeys ? key : value);
      }
      return Status::OK();
    case FunctionId::kMapFromEntries: {
      if (n != 1 || arg_types[0].id != TypeId::kList) return mismatch();
      const DataType& entry = arg_types[0].children[0].type;
      if (entry.id == TypeId::kNull) {
        *result = DataType::Map(kNullType, kNullType);
        (*cast_to)[0] = DataType::List(DataType::Struct({Field("key", kNullType),
                                                         Field("value", kNullType)}));
        return Status::OK();
      }
      if (entry.id != TypeId::kStruct || entry.children.size() != 2) return mismatch();
      *result = DataType::Map(entry.children[0].type, entry.children[1].type);
      return Status::OK();
    }
    case FunctionId::kMapConcat: {
      if (n == 0) return mismatch();
      std::optional<DataType> merged;
      for (const DataType& type : arg_types) {
        if (type.id == TypeId::kNull) continue;
        if (type.id != TypeId::kMap) return mismatch();
        if (!merged) {
          merged = type;
        } else if (!(*merged == type)) {
          std::optional<DataType> common = MaxType(*merged, type);
          if (!common) return mismatch();
          merged = *common;
        }
      }
      if (!merged) merged = DataType::Map(kNullType, kNullType);
      for (size_t i = 0; i < n; ++i) {
        if (arg_types[i].id != TypeId::kNull) (*cast_to)[i] = *merged;
      }
      *result = *merged;
      return Status::OK();
    }
    case FunctionId::kListHasAny: case FunctionId::kListHasAll: {
      if (n != 2) return mismatch();
      std::optional<DataType> a = ElementType(arg_types[0]);
      std::optional<DataType> b = ElementType(arg_types[1]);
      if (!a || !b) return mismatch();
      std::optional<DataType> common = a->id == TypeId::kNull   ? *b
                                       : b->id == TypeId::kNull ? *a
                                                                : MaxType(*a, *b);
      if (!common) return mismatch();
      for (size_t i = 0; i < 2; ++i) {
        if (arg_types[i].id != TypeId::kNull) (*cast_to)[i] = DataType::List(*common);
      }
      *result = DataType(TypeId::kBoolean);
      return Status::OK();
    }
    case FunctionId::kListExtract: {
      if (n != 2 || !(arg_types[1].IsInteger() || arg_types[1].id == TypeId::kNull)) {
        return mismatch();
      }
      (*cast_to)[1] = kBigint;
      if (arg_types[0].id == TypeId::kVarchar) {
        *result = arg_types[0];
        return Status::OK();
      }
      std::optional<DataType> element = ElementType(arg_types[0]);
      if (!element) return mismatch();
      *result = *element;
      return Status::OK();
    }
    case FunctionId::kArrayPopBack: case FunctionId::kArrayPopFront:
      if (n != 1 || !ElementType(arg_types[0])) return mismatch();
      *result = arg_types[0];
      return Status::OK();
    case FunctionId::kListResize: {
      if (n < 2 || n > 3) return mismatch();
      std::optional<DataType> element = ElementType(arg_types[0]);
      if (!element || !(arg_types[1].IsInteger() || arg_types[1].id == TypeId::kNull)) {
        return mismatch();
      }
      (*cast_to)[1] = kBigint;
      if (n == 3) {
        if (element->id == TypeId::kNull) {
          element = arg_types[2];
          (*cast_to)[0] = DataType::List(*element);
        }
        if (!(arg_types[2] == *element || arg_types[2].id == TypeId::kNull ||
              ImplicitlyCastable(arg_types[2], *element))) {
          return mismatch();
        }
        (*cast_to)[2] = *element;
      }
      *result = DataType::List(*element);
      return Status::OK();
    }
    case FunctionId::kListWhere: case FunctionId::kListSelect: {
      if (n != 2) return mismatch();
      std::optional<DataType> element = ElementType(arg_types[0]);
      std::optional<DataType> second = ElementType(arg_types[1]);
      if (!element || !second) return mismatch();
      const DataType want(id == FunctionId::kListWhere ? TypeId::kBoolean : TypeId::kInt64);
      if (!(*second == want || second->id == TypeId::kNull || ImplicitlyCastable(*second, want))) {
        return mismatch();
      }
      (*cast_to)[1] = DataType::List(want);
      *result = DataType::List(*element);
      return Status::OK();
    }
    case FunctionId::kListGradeUp: {
      if (n < 1 || n > 2 || !ElementType(arg_types[0])) return mismatch();
      if (n == 2 && arg_types[1].id != TypeId::kVarchar) return mismatch();
      *result = DataType::List(kBigint);
      return Status::OK();
    }
    case FunctionId::kListAnyValue: {
      if (n != 1) return mismatch();
      std::optional<DataType> element = ElementType(arg_types[0]);
      if (!element) return mismatch();
      *result = *element;
      return Status::OK();
    }
    default: {  // the distances
      if (n != 2) return mismatch();
      std::optional<DataType> a = ElementType(arg_types[0]);
      std::optional<DataType> b = ElementType(arg_types[1]);
      if (!a || !b) return mismatch();
      const bool floats = a->id == TypeId::kFloat32 && b->id == TypeId::kFloat32;
      const DataType element(floats ? TypeId::kFloat32 : TypeId::kFloat64);
      for (const std::optional<DataType>& t : {a, b}) {
        if (!(t->IsNumeric() || t->id == TypeId::kNull)) return mismatch();
      }
      *cast_to = {DataType::List(element), DataType::List(element)};
      *result = element;
      return Status::OK();
    }
  }
}

}  // namespace

bool IsNestedFunction(FunctionId id) {
  return id == FunctionId::kStructPack || id == FunctionId::kListValue ||
         id == FunctionId::kMap || id == FunctionId::kRange ||
         id == FunctionId::kMapExtractValue ||
         (id >= FunctionId::kGenerateSeries && id <= FunctionId::kListNegativeDot);
}

Status ResolveNestedFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                  std::vector<DataType>* cast_to, DataType* result) {
  if (id >= FunctionId::kGenerateSeries && id <= FunctionId::kListNegativeDot) {
    return ResolveCollectionFunctionTypes(id, arg_types, cast_to, result);
  }
  const size_t n = arg_types.size();
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  switch (id) {
    case FunctionId::kRange: {
      if (n < 1 || n > 3) return mismatch();
      for (const DataType& type : arg_types) {
        if (!(type.IsInteger() || type.id == TypeId::kNull) ||
            !ImplicitlyCastable(type, kBigint)) {
          return mismatch();
        }
      }
      *cast_to = std::vector<DataType>(n, kBigint);
      *result = DataType::List(kBigint);
      return Status::OK();
    }
    case FunctionId::kMap: {
      if (n == 0) {
        cast_to->clear();
        *result = DataType::Map(DataType(TypeId::kNull), DataType(TypeId::kNull));
        return Status::OK();
      }
      if (n != 2) return mismatch();
      std::optional<DataType> key = ElementType(arg_types[0]);
      std::optional<DataType> value = ElementType(arg_types[1]);
      if (!key || !value) return mismatch();
      *cast_to = {DataType::List(*key), DataType::List(*value)};
      *result = DataType::Map(*key, *value);
      return Status::OK();
    }
    case FunctionId::kMapExtractValue: {
      if (n != 2 || arg_types[0].id != TypeId::kMap) return mismatch();
      const DataType& entry = arg_types[0].children[0].type;
      *cast_to = {arg_types[0], entry.children[0].type};
      *result = entry.children[1].type;
      return Status::OK();
    }
    default:
      return mismatch();
  }
}

Result<Value> InvokeNestedFunction(FunctionId id, std::span<const Value> args,
                                   const DataType& result_type) {
  switch (id) {
    case FunctionId::kStructPack:
    case FunctionId::kListValue:
      return Value::Nested(result_type, std::vector<Value>(args.begin(), args.end()));
    case FunctionId::kMap: return Map(args, result_type);
    case FunctionId::kRange: return Range(args, result_type);
    case FunctionId::kMapExtractValue: return MapExtractValue(args, result_type);
    default:
      if (id >= FunctionId::kGenerateSeries && id <= FunctionId::kListNegativeDot) {
        return InvokeCollectionFunction(id, args, result_type);
      }
      return Status::Internal("not a nested function");
  }
}

}  // namespace tarn::expr
