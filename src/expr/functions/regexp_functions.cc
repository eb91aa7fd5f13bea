#include "expr/functions/regexp_functions.h"

#include <re2/re2.h>

#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "expr/eval/cast.h"

namespace tarn::expr {
namespace {

const DataType kVarchar(TypeId::kVarchar);
const DataType kBool(TypeId::kBoolean);
const DataType kInt(TypeId::kInt32);

// The settings an options string gives, DuckDB's letters.
struct RegexpOptions {
  bool case_sensitive = true;
  bool literal = false;
  bool dot_nl = false;
  bool global = false;

  // The cache key's prefix: one letter per setting.
  std::string Key() const {
    return std::string{case_sensitive ? 'c' : 'i', literal ? 'l' : '-', dot_nl ? 's' : 'n'};
  }
};

Result<RegexpOptions> ParseOptions(std::string_view text, bool allow_global) {
  RegexpOptions options;
  for (char c : text) {
    switch (c) {
      case 'c': options.case_sensitive = true; break;
      case 'i': options.case_sensitive = false; break;
      case 'l': options.literal = true; break;
      case 'm': case 'n': case 'p': options.dot_nl = false; break;
      case 's': options.dot_nl = true; break;
      case 'g':
        if (!allow_global) {
          return Status::InvalidArgument(
              "Invalid Input Error: Option 'g' (global replace) is only valid for "
              "regexp_replace");
        }
        options.global = true;
        break;
      case ' ': case '\t': case '\n': break;
      default:
        return Status::InvalidArgument("Invalid Input Error: Unrecognized Regex option ", c);
    }
  }
  return options;
}

// Compiled patterns of this thread, most recently used first, at most kCacheSize.
class PatternCache {
 public:
  Result<std::shared_ptr<const re2::RE2>> Get(const std::string& pattern,
                                              const RegexpOptions& options) {
    std::string key = options.Key() + pattern;
    auto found = index_.find(key);
    if (found != index_.end()) {
      entries_.splice(entries_.begin(), entries_, found->second);
      return found->second->second;
    }
    re2::RE2::Options settings;
    settings.set_log_errors(false);
    settings.set_case_sensitive(options.case_sensitive);
    settings.set_literal(options.literal);
    settings.set_dot_nl(options.dot_nl);
    auto compiled = std::make_shared<const re2::RE2>(pattern, settings);
    if (!compiled->ok()) {
      return Status::InvalidArgument("Invalid Input Error: ", compiled->error());
    }
    if (entries_.size() >= kCacheSize) {
      index_.erase(entries_.back().first);
      entries_.pop_back();
    }
    entries_.emplace_front(key, compiled);
    index_[std::move(key)] = entries_.begin();
    return compiled;
  }

 private:
  static constexpr size_t kCacheSize = 64;
  using Entry = std::pair<std::string, std::shared_ptr<const re2::RE2>>;
  std::list<Entry> entries_;
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

Result<std::shared_ptr<const re2::RE2>> Compile(const std::string& pattern,
                                                const RegexpOptions& options) {
  thread_local PatternCache cache;
  return cache.Get(pattern, options);
}

bool IsCharacterStart(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

std::string PieceText(const re2::StringPiece& piece) {
  return piece.data() == nullptr ? std::string() : std::string(piece.data(), piece.size());
}

// Where the options argument is: regexp_replace's fourth, regexp_extract(_all)'s fourth
// (after the group), the others' third.
size_t OptionsIndex(FunctionId id) {
  return id == FunctionId::kRegexpReplace || id == FunctionId::kRegexpExtract ||
                 id == FunctionId::kRegexpExtractAll
             ? 3
             : 2;
}

Status CheckGroup(const Value& group) {
  const int64_t index = group.GetInt64();
  if (index < 0 || index > 9) {
    return Status::InvalidArgument("Invalid Input Error: Group index must be between 0 and 9!");
  }
  return Status::OK();
}

// regexp_extract_all's walk (DuckDB's): each match's group, then on from the match's end; an
// empty match moves on by one character.
Status CheckGroupExists(const re2::RE2& re, int64_t group) {
  if (group > re.NumberOfCapturingGroups()) {
    return Status::InvalidArgument("Invalid Input Error: Pattern has ",
                                   re.NumberOfCapturingGroups(), " groups. Cannot access group ",
                                   group);
  }
  return Status::OK();
}

Result<Value> ExtractAll(const std::string& text, const re2::RE2& re, int group,
                         const DataType& result_type) {
  TARN_RETURN_NOT_OK(CheckGroupExists(re, group));
  std::vector<Value> out;
  const int groups = re.NumberOfCapturingGroups();
  std::vector<re2::StringPiece> pieces(static_cast<size_t>(groups + 1));
  re2::StringPiece input(text);
  size_t start = 0;
  while (start <= input.size() &&
         re.Match(input, start, input.size(), re2::RE2::UNANCHORED, pieces.data(), groups + 1)) {
    size_t consumed = static_cast<size_t>(pieces[0].data() + pieces[0].size() -
                                          (input.data() + start));
    if (consumed == 0) {
      ++consumed;
      while (start + consumed < input.size() && !IsCharacterStart(input[start + consumed])) {
        ++consumed;
      }
    }
    start += consumed;
    const re2::StringPiece& piece = pieces[static_cast<size_t>(group)];
    // A group that took no part in the match is NULL (regexp_extract gives '').
    out.push_back(piece.data() == nullptr ? Value::Null(kVarchar) : Value::Varchar(PieceText(piece)));
  }
  return Value::Nested(result_type, std::move(out));
}

// regexp_split_to_array's walk (DuckDB's string_split with a pattern): each search starts
// afresh on the rest of the text, so anchors match there; an empty match at the start moves on
// by one character.
Value Split(const std::string& text, const re2::RE2& re, const DataType& result_type) {
  std::vector<Value> out;
  const char* data = text.data();
  size_t size = text.size();
  if (size == 0) return Value::Nested(result_type, {Value::Varchar("")});
  while (size > 0) {
    re2::StringPiece match;
    if (!re.Match(re2::StringPiece(data, size), 0, size, re2::RE2::UNANCHORED, &match, 1)) {
      break;
    }
    size_t pos = static_cast<size_t>(match.data() - data);
    const size_t match_size = match.size();
    if (match_size == 0 && pos == 0) {
      for (++pos; pos < size; ++pos) {
        if (IsCharacterStart(data[pos])) break;
      }
      if (pos == size) break;
    }
    out.push_back(Value::Varchar(std::string(data, pos)));
    data += pos + match_size;
    size -= pos + match_size;
  }
  out.push_back(Value::Varchar(std::string(data, size)));
  return Value::Nested(result_type, std::move(out));
}

}  // namespace

bool IsRegexpFunction(FunctionId id) {
  return id == FunctionId::kRegexpMatches || id == FunctionId::kRegexpFullMatch ||
         id == FunctionId::kRegexpExtract || id == FunctionId::kRegexpExtractAll ||
         id == FunctionId::kRegexpReplace || id == FunctionId::kRegexpSplitToArray;
}

Status ResolveRegexpFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                  const std::vector<const Value*>& constant_args,
                                  std::vector<DataType>* cast_to, DataType* result) {
  const size_t n = arg_types.size();
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  auto text_ok = [&](size_t i) {
    return arg_types[i].id == TypeId::kVarchar || arg_types[i].id == TypeId::kNull;
  };
  const bool extract = id == FunctionId::kRegexpExtract || id == FunctionId::kRegexpExtractAll;
  const size_t fixed = id == FunctionId::kRegexpReplace ? 3 : 2;
  const size_t options_index = OptionsIndex(id);
  if (n < fixed || n > options_index + 1) return mismatch();
  for (size_t i = 0; i < fixed; ++i) {
    if (!text_ok(i)) return mismatch();
  }
  *cast_to = std::vector<DataType>(fixed, kVarchar);
  bool names = false;
  if (extract && n > 2) {
    const DataType& group = arg_types[2];
    names = group.id == TypeId::kList && id == FunctionId::kRegexpExtract;
    if (!names && !(group.IsInteger() || group.id == TypeId::kNull)) return mismatch();
    if (constant_args[2] == nullptr) {
      return Status::InvalidArgument(
          "Invalid Input Error: Group specification field must be a constant!");
    }
    if (names) {
      cast_to->push_back(group);
    } else {
      cast_to->push_back(kInt);
      if (!constant_args[2]->is_null()) {
        Value as_int = Value::Int64(static_cast<int64_t>(AsInt128(*constant_args[2])));
        TARN_RETURN_NOT_OK(CheckGroup(as_int));
      }
    }
  }
  RegexpOptions options;
  if (n > options_index) {
    if (!text_ok(options_index)) return mismatch();
    if (constant_args[options_index] == nullptr) {
      return Status::InvalidArgument(
          "Invalid Input Error: Regex options field must be a constant");
    }
    if (!constant_args[options_index]->is_null()) {
      TARN_ASSIGN_OR_RETURN(options,
                            ParseOptions(constant_args[options_index]->GetBytes(),
                                         id == FunctionId::kRegexpReplace));
    }
    cast_to->push_back(kVarchar);
  }
  // A constant pattern must compile now, as in DuckDB.
  const Value* pattern = constant_args[1];
  std::shared_ptr<const re2::RE2> compiled;
  if (pattern != nullptr && !pattern->is_null() && pattern->type().id == TypeId::kVarchar) {
    TARN_ASSIGN_OR_RETURN(compiled, Compile(pattern->GetBytes(), options));
  }
  switch (id) {
    case FunctionId::kRegexpMatches:
    case FunctionId::kRegexpFullMatch:
      *result = kBool;
      break;
    case FunctionId::kRegexpReplace:
      *result = kVarchar;
      break;
    case FunctionId::kRegexpExtract:
      *result = kVarchar;
      if (names) {
        const Value& list = *constant_args[2];
        if (list.is_null() || list.children().empty()) {
          return Status::InvalidArgument("Binder Error: Group name list must be non-empty");
        }
        std::vector<Field> fields;
        for (const Value& name : list.children()) {
          if (name.is_null() || name.type().id != TypeId::kVarchar) {
            return Status::InvalidArgument(
                "Binder Error: Group name list must contain string literals");
          }
          fields.emplace_back(name.GetBytes(), kVarchar);
        }
        if (compiled == nullptr) {
          return Status::InvalidArgument(
              "Binder Error: regexp_extract with a list of group names needs a constant "
              "pattern");
        }
        if (compiled->NumberOfCapturingGroups() < static_cast<int>(fields.size())) {
          return Status::InvalidArgument("Binder Error: Not enough capturing groups (",
                                         compiled->NumberOfCapturingGroups(),
                                         ") for provided names (", fields.size(), ")");
        }
        *result = DataType::Struct(std::move(fields));
      }
      break;
    case FunctionId::kRegexpExtractAll:
      if (compiled != nullptr && n > 2 && !constant_args[2]->is_null()) {
        TARN_RETURN_NOT_OK(
            CheckGroupExists(*compiled, static_cast<int64_t>(AsInt128(*constant_args[2]))));
      }
      *result = DataType::List(kVarchar);
      break;
    case FunctionId::kRegexpSplitToArray:
      *result = DataType::List(kVarchar);
      break;
    default:
      return mismatch();
  }
  return Status::OK();
}

Result<Value> InvokeRegexpFunction(FunctionId id, std::span<const Value> args,
                                   const DataType& result_type) {
  const size_t options_index = OptionsIndex(id);
  RegexpOptions options;
  if (args.size() > options_index) {
    TARN_ASSIGN_OR_RETURN(options, ParseOptions(args[options_index].GetBytes(),
                                                id == FunctionId::kRegexpReplace));
  }
  const std::string& text = args[0].GetBytes();
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<const re2::RE2> re,
                        Compile(args[1].GetBytes(), options));
  switch (id) {
    case FunctionId::kRegexpMatches:
      return Value::Boolean(re2::RE2::PartialMatch(text, *re));
    case FunctionId::kRegexpFullMatch:
      return Value::Boolean(re2::RE2::FullMatch(text, *re));
    case FunctionId::kRegexpReplace: {
      std::string out = text;
      if (options.global) {
        re2::RE2::GlobalReplace(&out, *re, args[2].GetBytes());
      } else {
        re2::RE2::Replace(&out, *re, args[2].GetBytes());
      }
      return Value::Varchar(std::move(out));
    }
    case FunctionId::kRegexpExtract: {
      const int groups = re->NumberOfCapturingGroups();
      std::vector<re2::StringPiece> pieces(static_cast<size_t>(groups + 1));
      const bool matched = re->Match(text, 0, text.size(), re2::RE2::UNANCHORED, pieces.data(),
                                     groups + 1);
      if (result_type.id == TypeId::kStruct) {
        std::vector<Value> fields;
        for (size_t i = 1; i <= result_type.children.size(); ++i) {
          fields.push_back(Value::Varchar(matched ? PieceText(pieces[i]) : std::string()));
        }
        return Value::Nested(result_type, std::move(fields));
      }
      const int64_t group = args.size() > 2 ? static_cast<int64_t>(AsInt128(args[2])) : 0;
      TARN_RETURN_NOT_OK(CheckGroup(Value::Int64(group)));
      if (!matched || group > groups) return Value::Varchar("");
      return Value::Varchar(PieceText(pieces[static_cast<size_t>(group)]));
    }
    case FunctionId::kRegexpExtractAll: {
      const int64_t group = args.size() > 2 ? static_cast<int64_t>(AsInt128(args[2])) : 0;
      TARN_RETURN_NOT_OK(CheckGroup(Value::Int64(group)));
      return ExtractAll(text, *re, static_cast<int>(group), result_type);
    }
    case FunctionId::kRegexpSplitToArray:
      return Split(text, *re, result_type);
    default:
      return Status::Internal("not a regexp function");
  }
}

}  // namespace tarn::expr
