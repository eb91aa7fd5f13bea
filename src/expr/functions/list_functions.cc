#include "expr/functions/list_functions.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "expr/eval/cast.h"

namespace tarn::expr {
namespace {

struct NameEntry {
  const char* name;
  FunctionId id;
};

constexpr NameEntry kListNames[] = {
    {"list_transform", FunctionId::kListTransform}, {"list_apply", FunctionId::kListTransform},
    {"array_transform", FunctionId::kListTransform}, {"array_apply", FunctionId::kListTransform},
    {"apply", FunctionId::kListTransform}, {"list_filter", FunctionId::kListFilter},
    {"array_filter", FunctionId::kListFilter}, {"filter", FunctionId::kListFilter},
    {"list_reduce", FunctionId::kListReduce}, {"array_reduce", FunctionId::kListReduce},
    {"reduce", FunctionId::kListReduce}, {"list_zip", FunctionId::kListZip},
    {"flatten", FunctionId::kFlatten}, {"array_to_string", FunctionId::kArrayToString},
    {"string_split", FunctionId::kStringSplit}, {"str_split", FunctionId::kStringSplit},
    {"string_to_array", FunctionId::kStringSplit}, {"split", FunctionId::kStringSplit},
    {"list_concat", FunctionId::kListConcat}, {"list_cat", FunctionId::kListConcat},
    {"array_concat", FunctionId::kListConcat}, {"array_cat", FunctionId::kListConcat},
    {"list_append", FunctionId::kListAppend}, {"array_append", FunctionId::kListAppend},
    {"array_push_back", FunctionId::kListAppend}, {"list_prepend", FunctionId::kListPrepend},
    {"array_prepend", FunctionId::kListPrepend}, {"array_push_front", FunctionId::kListPrepend},
    {"list_contains", FunctionId::kListContains}, {"list_has", FunctionId::kListContains},
    {"array_contains", FunctionId::kListContains}, {"array_has", FunctionId::kListContains},
    {"list_position", FunctionId::kListPosition}, {"list_indexof", FunctionId::kListPosition},
    {"array_position", FunctionId::kListPosition}, {"array_indexof", FunctionId::kListPosition},
    {"list_distinct", FunctionId::kListDistinct}, {"array_distinct", FunctionId::kListDistinct},
    {"list_unique", FunctionId::kListUnique}, {"array_unique", FunctionId::kListUnique},
    {"list_sort", FunctionId::kListSort}, {"array_sort", FunctionId::kListSort},
    {"list_reverse_sort", FunctionId::kListReverseSort},
    {"array_reverse_sort", FunctionId::kListReverseSort},
    {"list_reverse", FunctionId::kListReverse}, {"array_reverse", FunctionId::kListReverse},
    {"list_slice", FunctionId::kListSlice}, {"array_slice", FunctionId::kListSlice},
    {"array_length", FunctionId::kListLength},
};

const DataType kBigint(TypeId::kInt64);
const DataType kVarchar(TypeId::kVarchar);

bool IsText(const DataType& type) {
  return type.id == TypeId::kVarchar || type.id == TypeId::kJson;
}

// A list's element type; "NULL" for an untyped NULL; nullopt for anything else.
std::optional<DataType> ElementOf(const DataType& type) {
  if (type.id == TypeId::kNull) return DataType(TypeId::kNull);
  if (type.id != TypeId::kList) return std::nullopt;
  return type.children[0].type;
}

// How DuckDB names an argument's type in a message.
std::string ArgumentTypeName(const ListArgument& arg) {
  if (arg.lambda) return "LAMBDA";
  if (arg.integer_literal) return "INTEGER_LITERAL";
  if (arg.string_literal) return "STRING_LITERAL";
  return arg.type.ToString();
}

// The common type of two list element types, as list_concat unifies them: VARCHAR meets only
// VARCHAR.
std::optional<DataType> CommonElement(const DataType& a, const DataType& b) {
  if (a.id == TypeId::kNull) return b;
  if (b.id == TypeId::kNull) return a;
  if (IsText(a) != IsText(b)) return std::nullopt;
  return MaxType(a, b);
}

// An omitted slice bound: x[:b] binds as array_slice(x, [], b).
// An omitted slice bound is the empty list literal `[]` (a list of type "NULL"[], constant or
// not yet folded).
bool IsOmittedBound(const ListArgument& arg) {
  if (arg.type.id != TypeId::kList) return false;
  if (arg.constant != nullptr) return !arg.constant->is_null() && arg.constant->children().empty();
  return !arg.type.children.empty() && arg.type.children[0].type.id == TypeId::kNull;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// list_sort's constant order arguments. DuckDB reads them as its enums OrderType and
// OrderByNullType, with their messages.
Status ParseSortOrder(const Value& text, bool* descending) {
  const std::string order = Upper(text.GetBytes());
  if (order == "ASC" || order == "ASCENDING") {
    *descending = false;
  } else if (order == "DESC" || order == "DESCENDING") {
    *descending = true;
  } else {
    return Status::InvalidArgument("Not implemented Error: Enum value: unrecognized value \"",
                                   order, "\" for enum \"OrderType\"");
  }
  return Status::OK();
}

Status ParseNullOrder(const Value& text, bool* nulls_first) {
  const std::string order = Upper(text.GetBytes());
  if (order == "NULLS FIRST" || order == "NULLS_FIRST") {
    *nulls_first = true;
  } else if (order == "NULLS LAST" || order == "NULLS_LAST") {
    *nulls_first = false;
  } else {
    return Status::InvalidArgument("Not implemented Error: Enum value: unrecognized value \"",
                                   order, "\" for enum \"OrderByNullType\"");
  }
  return Status::OK();
}

// ---- typing ----------------------------------------------------------------------------------

// list_contains(T[], T) and list_position(T[], T): the element type T both arguments meet at.
Result<DataType> TemplateElement(std::string_view signature, const DataType& element,
                                 const ListArgument& value) {
  auto incompatible = [&](const std::string& first, const std::string& second) {
    return Status::InvalidArgument("Binder Error: Cannot deduce template type 'T' in function: '",
                                   signature, "'\nType 'T' was inferred to be:\n - '", first,
                                   "', from first occurrence\n - '", second,
                                   "', which is incompatible with previously inferred type!");
  };
  if (value.type.id == TypeId::kNull) return element;
  if (element.id == TypeId::kNull) return value.type;
  if (value.string_literal) return element;
  if (value.integer_literal && element.IsInteger() && value.constant != nullptr) {
    __int128 lo, hi;
    IntegerRange(element.id, &lo, &hi);
    const __int128 v = AsInt128(*value.constant);
    if (!IsBeyondInt128(*value.constant) && v >= lo && v <= hi) return element;
  }
  if (IsText(element) != IsText(value.type)) {
    return incompatible(element.ToString(), ArgumentTypeName(value));
  }
  std::optional<DataType> common = MaxType(element, value.type);
  if (!common) return incompatible(element.ToString(), ArgumentTypeName(value));
  return *common;
}

}  // namespace

Status NoListFunctionMatch(std::string_view name, std::span<const ListArgument> args) {
  std::string signature(name);
  signature += "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) signature += ", ";
    signature += ArgumentTypeName(args[i]);
  }
  return Status::InvalidArgument("Binder Error: No function matches the given name and argument ",
                                 "types '", signature,
                                 ")'. You might need to add explicit type casts.");
}

bool IsListFunction(FunctionId id) {
  return id >= FunctionId::kListTransform && id <= FunctionId::kListLength;
}

FunctionId LookupListFunction(std::string_view lower_name) {
  for (const NameEntry& entry : kListNames) {
    if (lower_name == entry.name) return entry.id;
  }
  return FunctionId::kNone;
}

const char* ListFunctionName(FunctionId id) {
  if (id == FunctionId::kListConcatOperator) return "||";
  for (const NameEntry& entry : kListNames) {
    if (entry.id == id) return entry.name;
  }
  return "?";
}

bool ListFunctionPropagatesNull(FunctionId id) {
  switch (id) {
    case FunctionId::kListConcatOperator: case FunctionId::kFlatten:
    case FunctionId::kListContains: case FunctionId::kListDistinct: case FunctionId::kListUnique:
    case FunctionId::kListSort: case FunctionId::kListReverseSort: case FunctionId::kListReverse:
    case FunctionId::kListSlice: case FunctionId::kListLength:
      return true;
    default:
      return false;
  }
}

Status ResolveListFunctionTypes(FunctionId id, std::string_view name,
                                std::span<const ListArgument> args,
                                std::vector<DataType>* cast_to, DataType* result) {
  const size_t n = args.size();
  auto mismatch = [&] { return NoListFunctionMatch(name, args); };
  cast_to->clear();
  for (const ListArgument& arg : args) cast_to->push_back(arg.type);
  const DataType kNullType(TypeId::kNull);
  switch (id) {
    case FunctionId::kListZip: {
      if (n == 0) return Status::InvalidArgument("Binder Error: Provide at least one argument to list_zip");
      size_t lists = n;
      if (n > 1 && args[n - 1].type.id == TypeId::kBoolean) --lists;  // the truncate flag
      std::vector<Field> fields;
      for (size_t i = 0; i < lists; ++i) {
        std::optional<DataType> element = ElementOf(args[i].type);
        if (!element) return Status::InvalidArgument("Binder Error: Parameter type needs to be List");
        fields.emplace_back("", *element);
      }
      *result = DataType::List(DataType::Struct(std::move(fields)));
      return Status::OK();
    }
    case FunctionId::kFlatten: {
      if (n != 1) return mismatch();
      const DataType& type = args[0].type;
      if (type.id == TypeId::kNull) {
        *result = kNullType;
        return Status::OK();
      }
      if (type.id != TypeId::kList) {
        return Status::InvalidArgument("Binder Error: Function 'flatten' has a template parameter ",
                                       "type 'T' that could not be resolved to a concrete type");
      }
      const DataType& inner = type.children[0].type;
      if (inner.id == TypeId::kNull) {
        *result = type;  // flatten([]) and flatten([NULL]): "NULL"[]
        return Status::OK();
      }
      if (inner.id != TypeId::kList) return mismatch();
      *result = inner;
      return Status::OK();
    }
    case FunctionId::kArrayToString: {
      if (n != 2) {
        return Status::InvalidArgument("Binder Error: Macro array_to_string() does not support ",
                                       "the supplied arguments. You might need to add explicit ",
                                       "type casts.");
      }
      if (!IsText(args[1].type) && args[1].type.id != TypeId::kNull) {
        return Status::InvalidArgument(
            "Binder Error: No matching aggregate function\nBinder Error: No function matches the "
            "given name and argument types 'string_agg(VARCHAR, ",
            args[1].type.ToString(), ")'. You might need to add explicit type casts.");
      }
      if (args[1].constant == nullptr) {
        return Status::InvalidArgument("Binder Error: Separator argument to StringAgg must be a "
                                       "constant");
      }
      (*cast_to)[0] = args[0].type.id == TypeId::kNull ? kNullType : DataType::List(kVarchar);
      (*cast_to)[1] = kVarchar;
      *result = kVarchar;
      return Status::OK();
    }
    case FunctionId::kStringSplit: {
      if (n != 2) return mismatch();
      for (const ListArgument& arg : args) {
        if (!IsText(arg.type) && arg.type.id != TypeId::kNull && !arg.string_literal) {
          return mismatch();
        }
      }
      *cast_to = {kVarchar, kVarchar};
      *result = DataType::List(kVarchar);
      return Status::OK();
    }
    case FunctionId::kListConcat: case FunctionId::kListConcatOperator:
    case FunctionId::kListAppend: case FunctionId::kListPrepend: {
      const bool single = id == FunctionId::kListAppend || id == FunctionId::kListPrepend;
      if (single && n != 2) return mismatch();
      if (id == FunctionId::kListConcatOperator && n != 2) return mismatch();
      // list_append(l, e) concatenates l with [e]; list_prepend(e, l) [e] with l.
      const size_t value_at = id == FunctionId::kListAppend ? 1 : 0;
      std::vector<DataType> lists;
      for (size_t i = 0; i < n; ++i) {
        if (single && i == value_at) {
          lists.push_back(DataType::List(args[i].type));
          continue;
        }
        if (!ElementOf(args[i].type)) {
          if (id == FunctionId::kListConcatOperator) {
            return Status::InvalidArgument("Binder Error: Cannot concatenate types ",
                                           args[0].type.ToString(), " and ",
                                           args[1].type.ToString(),
                                           " - an explicit cast is required");
          }
          return mismatch();
        }
        lists.push_back(args[i].type);
      }
      DataType element(TypeId::kNull);
      bool any_list = false;
      const DataType* first = nullptr;
      for (const DataType& list : lists) {
        if (list.id == TypeId::kNull) continue;
        any_list = true;
        std::optional<DataType> common = CommonElement(element, list.children[0].type);
        if (!common) {
          return Status::InvalidArgument("Binder Error: Cannot concatenate lists of types ",
                                         first->ToString(), " and ", list.ToString(),
                                         " - an explicit cast is required");
        }
        element = *common;
        if (first == nullptr) first = &list;
      }
      if (!any_list) {
        *result = kNullType;
        return Status::OK();
      }
      for (size_t i = 0; i < n; ++i) {
        if (single && i == value_at) {
          (*cast_to)[i] = element;
        } else if (args[i].type.id != TypeId::kNull) {
          (*cast_to)[i] = DataType::List(element);
        }
      }
      *result = DataType::List(element);
      return Status::OK();
    }
    case FunctionId::kListContains: case FunctionId::kListPosition: {
      if (n != 2) return mismatch();
      std::optional<DataType> element = ElementOf(args[0].type);
      if (!element) return mismatch();
      const bool contains = id == FunctionId::kListContains;
      TARN_ASSIGN_OR_RETURN(
          DataType common,
          TemplateElement(contains ? "list_contains(T[], T) -> BOOLEAN"
                                   : "list_position(T[], T) -> INTEGER",
                          *element, args[1]));
      if (args[0].type.id != TypeId::kNull) (*cast_to)[0] = DataType::List(common);
      (*cast_to)[1] = common;
      *result = DataType(contains ? TypeId::kBoolean : TypeId::kInt32);
      return Status::OK();
    }
    case FunctionId::kListDistinct: case FunctionId::kListUnique: case FunctionId::kListReverse: {
      if (n != 1) return mismatch();
      if (!ElementOf(args[0].type)) {
        if (id == FunctionId::kListReverse) {
          return Status::InvalidArgument(
              "Binder Error: ARRAY_SLICE can only operate on LISTs and VARCHARs");
        }
        return mismatch();
      }
      *result = id == FunctionId::kListUnique ? DataType(TypeId::kUInt64) : args[0].type;
      return Status::OK();
    }
    case FunctionId::kListSort: case FunctionId::kListReverseSort: {
      const size_t max_args = id == FunctionId::kListSort ? 3 : 2;
      if (n < 1 || n > max_args || !ElementOf(args[0].type)) return mismatch();
      for (size_t i = 1; i < n; ++i) {
        if (!IsText(args[i].type) && args[i].type.id != TypeId::kNull) return mismatch();
        if (args[i].constant == nullptr) {
          return Status::InvalidArgument("Invalid Input Error: Sorting order must be a constant");
        }
        if (args[i].constant->is_null()) continue;
        bool flag = false;
        const bool null_order = id == FunctionId::kListReverseSort || i == 2;
        TARN_RETURN_NOT_OK(null_order ? ParseNullOrder(*args[i].constant, &flag)
                                      : ParseSortOrder(*args[i].constant, &flag));
        (*cast_to)[i] = kVarchar;
      }
      *result = args[0].type;
      return Status::OK();
    }
    case FunctionId::kListSlice: {
      if (n != 3 && n != 4) return mismatch();
      const DataType& type = args[0].type;
      if (type.id != TypeId::kList && !IsText(type) && type.id != TypeId::kBlob &&
          type.id != TypeId::kNull) {
        return Status::InvalidArgument(
            "Binder Error: ARRAY_SLICE can only operate on LISTs and VARCHARs");
      }
      if (type.id != TypeId::kList && type.id != TypeId::kNull && n == 4) {
        return Status::InvalidArgument(
            "Not implemented Error: Slice with steps has not been implemented for string types, "
            "you can consider rewriting your query as follows:\n SELECT array_to_string((str_split"
            "(string, '')[begin:end:step], '');");
      }
      for (size_t i = 1; i < n; ++i) {
        if (i < 3 && args[i].type.id == TypeId::kList) {
          if (!IsOmittedBound(args[i])) {
            return Status::InvalidArgument(
                "Binder Error: The upper and lower bounds of the slice must be a BIGINT");
          }
          continue;
        }
        (*cast_to)[i] = kBigint;
      }
      *result = IsText(type) ? kVarchar : type;
      return Status::OK();
    }
    case FunctionId::kListLength: {
      if (n < 1 || n > 2 || !ElementOf(args[0].type)) return mismatch();
      if (n == 2) (*cast_to)[1] = kBigint;
      *result = kBigint;
      return Status::OK();
    }
    default:
      return mismatch();
  }
}

namespace {

// ---- list_distinct ---------------------------------------------------------------------------
//
// DuckDB collects the distinct values in a std::unordered_map keyed by the value (by its
// physical type) and returns them in the map's iteration order; building the same map here
// gives the same order for fixed-width numbers (std::hash) and strings (DuckDB's own hash).

uint64_t MurmurHash64(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  return x;
}

// DuckDB's Hash(const char*, size_t) (common/types/hash.cpp).
struct DuckDBStringHash {
  size_t operator()(const std::string& text) const {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const size_t length = text.size();
    uint64_t h = 0xe17a1465ULL ^ (static_cast<uint64_t>(length) * 0xc6a4a7935bd1e995ULL);
    const size_t remainder = length & 7;
    for (const unsigned char* end = p + length - remainder; p != end; p += 8) {
      uint64_t block;
      std::memcpy(&block, p, 8);
      h ^= block;
      h *= 0xd6e8feb86659fd93ULL;
    }
    if (remainder != 0) {
      uint64_t block = 0;
      std::memcpy(&block, p, remainder);
      h ^= block;
      h *= 0xd6e8feb86659fd93ULL;
    }
    return static_cast<size_t>(MurmurHash64(h));
  }
};

template <typename Key, typename Hash = std::hash<Key>, typename KeyOf>
std::vector<size_t> DistinctIndices(const std::vector<Value>& elements, KeyOf key_of) {
  std::unordered_map<Key, size_t, Hash> first;
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!elements[i].is_null()) first.emplace(key_of(elements[i]), i);
  }
  std::vector<size_t> out;
  out.reserve(first.size());
  for (const auto& entry : first) out.push_back(entry.second);
  return out;
}

// The positions of the first occurrence of each distinct non-NULL element, in DuckDB's order.
std::vector<size_t> DistinctPositions(const DataType& type, const std::vector<Value>& elements) {
  switch (type.id) {
    case TypeId::kBoolean:
      return DistinctIndices<bool>(elements, [](const Value& v) { return v.GetBool(); });
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kDate: case TypeId::kTime: case TypeId::kTimestamp: case TypeId::kTimestampS:
    case TypeId::kTimestampMs: case TypeId::kTimestampNs: case TypeId::kTimestampTz:
      return DistinctIndices<int64_t>(elements, [](const Value& v) { return v.GetInt64(); });
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      return DistinctIndices<uint64_t>(elements, [](const Value& v) { return v.GetUInt64(); });
    case TypeId::kFloat32:
      return DistinctIndices<float>(elements,
                                    [](const Value& v) { return static_cast<float>(v.GetDouble()); });
    case TypeId::kFloat64:
      return DistinctIndices<double>(elements, [](const Value& v) { return v.GetDouble(); });
    case TypeId::kDecimal:
      if (type.precision <= 18) {
        return DistinctIndices<int64_t>(
            elements, [](const Value& v) { return static_cast<int64_t>(v.GetInt128()); });
      }
      break;
    case TypeId::kVarchar: case TypeId::kBlob: case TypeId::kJson:
      return DistinctIndices<std::string, DuckDBStringHash>(
          elements, [](const Value& v) { return v.GetBytes(); });
    default:
      break;
  }
  // Other types by their text (DuckDB hashes a sort key instead: the order differs).
  return DistinctIndices<std::string, DuckDBStringHash>(
      elements, [](const Value& v) { return ValueToText(v); });
}

// ---- evaluation ------------------------------------------------------------------------------

Value ListZip(std::span<const Value> args, const DataType& result_type) {
  const DataType& entry_type = result_type.children[0].type;
  const size_t lists = entry_type.children.size();
  const bool truncate = args.size() > lists && !args[lists].is_null() && args[lists].GetBool();
  size_t length = 0;
  for (size_t i = 0; i < lists; ++i) {
    const size_t size = args[i].is_null() ? 0 : args[i].children().size();
    length = i == 0 ? size : truncate ? std::min(length, size) : std::max(length, size);
  }
  std::vector<Value> entries;
  entries.reserve(length);
  for (size_t row = 0; row < length; ++row) {
    std::vector<Value> fields;
    fields.reserve(lists);
    for (size_t i = 0; i < lists; ++i) {
      const bool present = !args[i].is_null() && row < args[i].children().size();
      fields.push_back(present ? args[i].children()[row]
                               : Value::Null(entry_type.children[i].type));
    }
    entries.push_back(Value::Nested(entry_type, std::move(fields)));
  }
  return Value::Nested(result_type, std::move(entries));
}

Value Flatten(const Value& list, const DataType& result_type) {
  std::vector<Value> out;
  for (const Value& inner : list.children()) {
    if (inner.is_null() || inner.type().id != TypeId::kList) continue;
    out.insert(out.end(), inner.children().begin(), inner.children().end());
  }
  return Value::Nested(result_type, std::move(out));
}

Value ArrayToString(std::span<const Value> args) {
  if (args[0].is_null()) return Value::Null(kVarchar);
  const std::string separator = args[1].is_null() ? "," : args[1].GetBytes();
  const std::vector<Value>& elements = args[0].children();
  if (elements.empty()) return Value::Varchar("");
  std::string out;
  bool any = false;
  for (const Value& element : elements) {
    if (element.is_null()) continue;
    if (any) out += separator;
    out += element.GetBytes();
    any = true;
  }
  return any ? Value::Varchar(std::move(out)) : Value::Null(kVarchar);
}

Value StringSplit(std::span<const Value> args, const DataType& result_type) {
  if (args[0].is_null()) return Value::Null(result_type);
  const std::string& text = args[0].GetBytes();
  std::vector<Value> parts;
  if (args[1].is_null() || text.empty()) {
    parts.push_back(Value::Varchar(text));
  } else if (args[1].GetBytes().empty()) {
    // Each character (UTF-8 code point) on its own.
    for (size_t i = 0; i < text.size();) {
      size_t next = i + 1;
      while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
      parts.push_back(Value::Varchar(text.substr(i, next - i)));
      i = next;
    }
  } else {
    const std::string& separator = args[1].GetBytes();
    size_t start = 0;
    while (true) {
      const size_t found = text.find(separator, start);
      if (found == std::string::npos) break;
      parts.push_back(Value::Varchar(text.substr(start, found - start)));
      start = found + separator.size();
    }
    parts.push_back(Value::Varchar(text.substr(start)));
  }
  return Value::Nested(result_type, std::move(parts));
}

Value Concatenate(FunctionId id, std::span<const Value> args, const DataType& result_type) {
  std::vector<Value> out;
  bool any = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool value = (id == FunctionId::kListAppend && i == 1) ||
                       (id == FunctionId::kListPrepend && i == 0);
    if (value) {
      out.push_back(args[i]);
      any = true;
      continue;
    }
    if (args[i].is_null()) continue;
    any = true;
    out.insert(out.end(), args[i].children().begin(), args[i].children().end());
  }
  if (!any) return Value::Null(result_type);
  return Value::Nested(result_type, std::move(out));
}

Value Position(std::span<const Value> args) {
  const DataType int32(TypeId::kInt32);
  if (args[0].is_null()) return Value::Null(int32);
  const std::vector<Value>& elements = args[0].children();
  for (size_t i = 0; i < elements.size(); ++i) {
    const bool hit = args[1].is_null() ? elements[i].is_null()
                                       : !elements[i].is_null() &&
                                             CompareValues(elements[i], args[1]) == 0;
    if (hit) return Value::Int(int32, static_cast<int64_t>(i + 1));
  }
  return Value::Null(int32);
}

Result<Value> Sort(FunctionId id, std::span<const Value> args, const DataType& result_type) {
  bool descending = id == FunctionId::kListReverseSort;
  bool nulls_first = false;
  if (id == FunctionId::kListSort && args.size() > 1) {
    TARN_RETURN_NOT_OK(ParseSortOrder(args[1], &descending));
  }
  const size_t nulls_at = id == FunctionId::kListSort ? 2 : 1;
  if (args.size() > nulls_at) TARN_RETURN_NOT_OK(ParseNullOrder(args[nulls_at], &nulls_first));
  std::vector<Value> elements = args[0].children();
  std::stable_sort(elements.begin(), elements.end(), [&](const Value& a, const Value& b) {
    if (a.is_null() || b.is_null()) {
      if (a.is_null() == b.is_null()) return false;
      return a.is_null() == nulls_first;
    }
    const int c = CompareValues(a, b);
    return descending ? c > 0 : c < 0;
  });
  return Value::Nested(result_type, std::move(elements));
}

// DuckDB's slice arithmetic (array_slice.cpp): 1-based inclusive bounds, 0 meaning the start,
// negative ones counting from the end, clamped to the value; `step` walks from the end when
// negative.
struct SliceRange {
  int64_t begin = 0;  // 0-based, inclusive
  int64_t end = 0;    // exclusive
};

SliceRange ClampSlice(int64_t begin, int64_t end, int64_t length) {
  bool is_min = false;
  if (begin != 0 && begin != INT64_MIN) {
    --begin;
  } else if (begin == INT64_MIN) {
    ++begin;
    is_min = true;
  }
  if (begin < 0 && -begin > length && end < 0 && end < -length) return {0, 0};
  if (begin < 0 && -begin > length) begin = 0;
  auto clamp = [&](int64_t index, bool min) {
    if (index < 0) return length + (min ? index : index + 1);
    return std::min(index, length);
  };
  begin = clamp(begin, is_min);
  end = clamp(end, false);
  return {begin, std::max(begin, end)};
}

Result<Value> Slice(std::span<const Value> args, const DataType& result_type) {
  const Value& input = args[0];
  const bool text = input.type().id != TypeId::kList;
  std::vector<size_t> starts;  // code point starts of a text, plus its end
  int64_t length = 0;
  if (text) {
    const std::string& bytes = input.GetBytes();
    const bool blob = input.type().id == TypeId::kBlob;
    for (size_t i = 0; i < bytes.size(); ++i) {
      if (blob || (static_cast<unsigned char>(bytes[i]) & 0xC0) != 0x80) starts.push_back(i);
    }
    starts.push_back(bytes.size());
    length = static_cast<int64_t>(starts.size()) - 1;
  } else {
    length = static_cast<int64_t>(input.children().size());
  }
  const bool begin_omitted = args[1].type().id == TypeId::kList;
  const bool end_omitted = args[2].type().id == TypeId::kList;
  int64_t begin = begin_omitted ? 0 : args[1].GetInt64();
  int64_t end = end_omitted ? length : args[2].GetInt64();
  const bool has_step = args.size() > 3;
  const int64_t step = has_step ? args[3].GetInt64() : 1;
  if (step < 0) {
    std::swap(begin, end);
    begin = end_omitted ? 0 : begin;
    end = begin_omitted ? length : end;
  }
  const SliceRange range = ClampSlice(begin, end, length);
  if (text) {
    const std::string& bytes = input.GetBytes();
    const size_t from = starts[static_cast<size_t>(range.begin)];
    const size_t to = starts[static_cast<size_t>(range.end)];
    return Value::Bytes(result_type, bytes.substr(from, to - from));
  }
  if (has_step && step == 0) {
    return Status::InvalidArgument("Invalid Input Error: Slice step cannot be zero");
  }
  const std::vector<Value>& elements = input.children();
  std::vector<Value> out;
  const int64_t span = range.end - range.begin;
  if (span > 0) {
    const int64_t magnitude = step < 0 ? -step : step;
    const int64_t count = magnitude >= span ? 1 : (span + magnitude - 1) / magnitude;
    int64_t at = step < 0 ? range.end - 1 : range.begin;
    for (int64_t i = 0; i < count; ++i, at += step) {
      out.push_back(elements[static_cast<size_t>(at)]);
    }
  }
  return Value::Nested(result_type, std::move(out));
}

}  // namespace

Result<Value> InvokeListFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type) {
  switch (id) {
    case FunctionId::kListZip: return ListZip(args, result_type);
    case FunctionId::kFlatten: return Flatten(args[0], result_type);
    case FunctionId::kArrayToString: return ArrayToString(args);
    case FunctionId::kStringSplit: return StringSplit(args, result_type);
    case FunctionId::kListConcat: case FunctionId::kListConcatOperator:
    case FunctionId::kListAppend: case FunctionId::kListPrepend:
      return Concatenate(id, args, result_type);
    case FunctionId::kListContains: {
      for (const Value& element : args[0].children()) {
        if (!element.is_null() && CompareValues(element, args[1]) == 0) return Value::Boolean(true);
      }
      return Value::Boolean(false);
    }
    case FunctionId::kListPosition: return Position(args);
    case FunctionId::kListDistinct: {
      const std::vector<Value>& elements = args[0].children();
      std::vector<Value> out;
      for (size_t position : DistinctPositions(result_type.children[0].type, elements)) {
        out.push_back(elements[position]);
      }
      return Value::Nested(result_type, std::move(out));
    }
    case FunctionId::kListUnique: {
      const DataType& element = args[0].type().children[0].type;
      return Value::UInt(result_type, DistinctPositions(element, args[0].children()).size());
    }
    case FunctionId::kListSort: case FunctionId::kListReverseSort:
      return Sort(id, args, result_type);
    case FunctionId::kListReverse: {
      std::vector<Value> elements = args[0].children();
      std::reverse(elements.begin(), elements.end());
      return Value::Nested(result_type, std::move(elements));
    }
    case FunctionId::kListSlice: return Slice(args, result_type);
    case FunctionId::kListLength:
      if (args.size() > 1 && args[1].GetInt64() != 1) {
        return Status::InvalidArgument("Not implemented Error: array_length for lists with ",
                                       "dimensions other than 1 not implemented");
      }
      return Value::Int64(static_cast<int64_t>(args[0].children().size()));
    default:
      return Status::Internal("not a list function");
  }
}

}  // namespace tarn::expr
