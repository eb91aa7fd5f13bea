#include "expr/functions/nested_functions.h"

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

}  // namespace

bool IsNestedFunction(FunctionId id) {
  return id == FunctionId::kStructPack || id == FunctionId::kListValue ||
         id == FunctionId::kMap || id == FunctionId::kRange ||
         id == FunctionId::kMapExtractValue;
}

Status ResolveNestedFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                  std::vector<DataType>* cast_to, DataType* result) {
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
    default: return Status::Internal("not a nested function");
  }
}

}  // namespace tarn::expr
