#include "expr/functions/functions.h"

#include "expr/functions/date_functions.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>
#include <string>

#include "expr/functions/bitwise_functions.h"
#include "expr/eval/cast.h"
#include "expr/functions/case_mapping.h"
#include "expr/functions/conversion_functions.h"
#include "expr/functions/date_functions.h"
#include "expr/functions/datetime.h"
#include "expr/functions/hash_functions.h"
#include "expr/functions/json_functions.h"
#include "expr/functions/list_aggregates.h"
#include "expr/functions/math_functions.h"
#include "expr/functions/text_functions.h"
#include "expr/functions/list_functions.h"
#include "expr/functions/nested_functions.h"
#include "expr/functions/regexp_functions.h"
#include "expr/functions/string_functions.h"
#include "expr/functions/variant_functions.h"

namespace tarn::expr {
namespace {

// random() and gen_random_uuid(): one generator per thread, seeded from the system's entropy.
std::mt19937_64& RandomEngine() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine;
}

struct NameEntry {
  const char* name;
  FunctionId id;
};

constexpr NameEntry kNames[] = {
    {"abs", FunctionId::kAbs}, {"round", FunctionId::kRound}, {"floor", FunctionId::kFloor},
    {"ceil", FunctionId::kCeil}, {"ceiling", FunctionId::kCeil}, {"sqrt", FunctionId::kSqrt},
    {"ln", FunctionId::kLn}, {"log10", FunctionId::kLog10}, {"log2", FunctionId::kLog2},
    {"exp", FunctionId::kExp}, {"power", FunctionId::kPower}, {"pow", FunctionId::kPower},
    {"sign", FunctionId::kSign}, {"pi", FunctionId::kPi},
    {"random", FunctionId::kRandom}, {"gen_random_uuid", FunctionId::kGenRandomUuid},
    {"uuid", FunctionId::kGenRandomUuid}, {"sin", FunctionId::kSin},
    {"cos", FunctionId::kCos}, {"tan", FunctionId::kTan}, {"cot", FunctionId::kCot},
    {"asin", FunctionId::kAsin}, {"acos", FunctionId::kAcos}, {"atan", FunctionId::kAtan},
    {"atan2", FunctionId::kAtan2}, {"degrees", FunctionId::kDegrees},
    {"radians", FunctionId::kRadians}, {"cbrt", FunctionId::kCbrt},
    {"greatest", FunctionId::kGreatest},
    {"least", FunctionId::kLeast}, {"nullif", FunctionId::kNullIf},
    {"length", FunctionId::kLength}, {"len", FunctionId::kLength},
    {"char_length", FunctionId::kLength}, {"lower", FunctionId::kLower},
    {"lcase", FunctionId::kLower}, {"upper", FunctionId::kUpper}, {"ucase", FunctionId::kUpper},
    {"trim", FunctionId::kTrim}, {"ltrim", FunctionId::kLTrim}, {"rtrim", FunctionId::kRTrim},
    {"substring", FunctionId::kSubstring}, {"substr", FunctionId::kSubstring},
    {"concat", FunctionId::kConcat}, {"replace", FunctionId::kReplace},
    {"starts_with", FunctionId::kStartsWith}, {"prefix", FunctionId::kStartsWith},
    {"ends_with", FunctionId::kEndsWith}, {"suffix", FunctionId::kEndsWith},
    {"contains", FunctionId::kContains}, {"strpos", FunctionId::kStrpos},
    {"instr", FunctionId::kStrpos}, {"position", FunctionId::kStrpos},
    {"left", FunctionId::kLeft}, {"right", FunctionId::kRight}, {"isnan", FunctionId::kIsNan},
    {"isinf", FunctionId::kIsInf}, {"isfinite", FunctionId::kIsFinite},
    {"date_part", FunctionId::kDatePart}, {"datepart", FunctionId::kDatePart},
    {"date_trunc", FunctionId::kDateTrunc}, {"datetrunc", FunctionId::kDateTrunc},
    {"year", FunctionId::kYear}, {"month", FunctionId::kMonth}, {"day", FunctionId::kDay},
    {"hour", FunctionId::kHour}, {"minute", FunctionId::kMinute},
    {"second", FunctionId::kSecond}, {"quarter", FunctionId::kQuarter},
    {"dayofmonth", FunctionId::kDay}, {"dayofweek", FunctionId::kDayOfWeek},
    {"weekday", FunctionId::kDayOfWeek}, {"isodow", FunctionId::kIsoDow},
    {"dayofyear", FunctionId::kDayOfYear}, {"week", FunctionId::kWeek},
    {"weekofyear", FunctionId::kWeek}, {"isoyear", FunctionId::kIsoYear},
    {"yearweek", FunctionId::kYearWeek}, {"decade", FunctionId::kDecade},
    {"century", FunctionId::kCentury}, {"millennium", FunctionId::kMillennium},
    {"era", FunctionId::kEra}, {"millisecond", FunctionId::kMillisecond},
    {"microsecond", FunctionId::kMicrosecond}, {"date_diff", FunctionId::kDateDiff},
    {"datediff", FunctionId::kDateDiff},
    {"date_sub", FunctionId::kDateSub}, {"datesub", FunctionId::kDateSub},
    {"age", FunctionId::kAge}, {"epoch", FunctionId::kEpoch},
    {"epoch_ms", FunctionId::kEpochMs}, {"epoch_us", FunctionId::kEpochUs},
    {"epoch_ns", FunctionId::kEpochNs}, {"dayname", FunctionId::kDayName},
    {"monthname", FunctionId::kMonthName}, {"last_day", FunctionId::kLastDay},
    {"strftime", FunctionId::kStrftime}, {"strptime", FunctionId::kStrptime},
    {"try_strptime", FunctionId::kTryStrptime}, {"make_date", FunctionId::kMakeDate},
    {"make_timestamp", FunctionId::kMakeTimestamp},
    {"struct_pack", FunctionId::kStructPack}, {"list_value", FunctionId::kListValue},
    {"list_pack", FunctionId::kListValue}, {"map", FunctionId::kMap},
    {"range", FunctionId::kRange}, {"map_extract_value", FunctionId::kMapExtractValue},
    {"variant_typeof", FunctionId::kVariantTypeof}, {"variant_extract", FunctionId::kVariantExtract}, {"trunc", FunctionId::kTrunc}, {"md5", FunctionId::kMd5}, {"murmur3_32", FunctionId::kMurmur3}, {"xor", FunctionId::kBitXor}, {"bit_count", FunctionId::kBitCount},
    {"hex", FunctionId::kHex}, {"to_hex", FunctionId::kHex}, {"unhex", FunctionId::kUnhex},
    {"from_hex", FunctionId::kUnhex}, {"lpad", FunctionId::kLpad}, {"rpad", FunctionId::kRpad},
    {"repeat", FunctionId::kRepeat}, {"printf", FunctionId::kPrintf},
    {"format", FunctionId::kFormat}, {"chr", FunctionId::kChr}, {"ascii", FunctionId::kAscii},
    {"to_timestamp", FunctionId::kToTimestamp},
    {"to_microseconds", FunctionId::kToMicroseconds},
    {"to_milliseconds", FunctionId::kToMilliseconds}, {"to_seconds", FunctionId::kToSeconds},
    {"to_minutes", FunctionId::kToMinutes}, {"to_hours", FunctionId::kToHours},
    {"to_days", FunctionId::kToDays}, {"to_weeks", FunctionId::kToWeeks},
    {"to_months", FunctionId::kToMonths}, {"to_quarters", FunctionId::kToQuarters},
    {"to_years", FunctionId::kToYears}, {"to_decades", FunctionId::kToDecades},
    {"to_centuries", FunctionId::kToCenturies}, {"to_millennia", FunctionId::kToMillennia},
    {"regexp_matches", FunctionId::kRegexpMatches},
    {"regexp_full_match", FunctionId::kRegexpFullMatch},
    {"regexp_extract", FunctionId::kRegexpExtract},
    {"regexp_extract_all", FunctionId::kRegexpExtractAll},
    {"regexp_replace", FunctionId::kRegexpReplace},
    {"regexp_split_to_array", FunctionId::kRegexpSplitToArray},
    {"string_split_regex", FunctionId::kRegexpSplitToArray},
    {"str_split_regex", FunctionId::kRegexpSplitToArray},
    {"hash", FunctionId::kHash}, {"sha256", FunctionId::kSha256}, {"sha1", FunctionId::kSha1},
    {"reverse", FunctionId::kReverse}, {"concat_ws", FunctionId::kConcatWs},
    {"split_part", FunctionId::kSplitPart}, {"translate", FunctionId::kTranslate},
    {"strip_accents", FunctionId::kStripAccents}, {"unicode", FunctionId::kUnicode},
    {"ord", FunctionId::kUnicode}, {"bit_length", FunctionId::kBitLength},
    {"octet_length", FunctionId::kOctetLength}, {"strlen", FunctionId::kStrlen},
    {"length_grapheme", FunctionId::kLengthGrapheme},
    {"levenshtein", FunctionId::kLevenshtein}, {"editdist3", FunctionId::kLevenshtein},
    {"damerau_levenshtein", FunctionId::kDamerauLevenshtein},
    {"hamming", FunctionId::kHamming}, {"mismatches", FunctionId::kHamming},
    {"jaccard", FunctionId::kJaccard}, {"jaro_similarity", FunctionId::kJaro},
    {"jaro_winkler_similarity", FunctionId::kJaroWinkler}, {"base64", FunctionId::kToBase64},
    {"to_base64", FunctionId::kToBase64}, {"from_base64", FunctionId::kFromBase64},
    {"to_base", FunctionId::kToBase}, {"bin", FunctionId::kBin},
    {"to_binary", FunctionId::kBin}, {"format_bytes", FunctionId::kFormatBytes},
    {"formatreadablesize", FunctionId::kFormatBytes},
    {"formatreadabledecimalsize", FunctionId::kFormatDecimalBytes},
    {"md5_number", FunctionId::kMd5Number}, {"md5_number_upper", FunctionId::kMd5NumberUpper},
    {"md5_number_lower", FunctionId::kMd5NumberLower}, {"url_encode", FunctionId::kUrlEncode},
    {"url_decode", FunctionId::kUrlDecode}, {"regexp_escape", FunctionId::kRegexpEscape},
    {"generate_series", FunctionId::kGenerateSeries}, {"map_extract", FunctionId::kMapExtract},
    {"element_at", FunctionId::kMapExtract}, {"map_keys", FunctionId::kMapKeys},
    {"map_values", FunctionId::kMapValues}, {"cardinality", FunctionId::kCardinality},
    {"map_entries", FunctionId::kMapEntries}, {"map_from_entries", FunctionId::kMapFromEntries},
    {"map_concat", FunctionId::kMapConcat}, {"map_contains", FunctionId::kMapContains},
    {"list_has_any", FunctionId::kListHasAny}, {"array_has_any", FunctionId::kListHasAny},
    {"list_has_all", FunctionId::kListHasAll}, {"array_has_all", FunctionId::kListHasAll},
    {"list_extract", FunctionId::kListExtract}, {"list_element", FunctionId::kListExtract},
    {"array_extract", FunctionId::kListExtract}, {"array_pop_back", FunctionId::kArrayPopBack},
    {"array_pop_front", FunctionId::kArrayPopFront}, {"list_resize", FunctionId::kListResize},
    {"array_resize", FunctionId::kListResize}, {"list_where", FunctionId::kListWhere},
    {"array_where", FunctionId::kListWhere}, {"list_select", FunctionId::kListSelect},
    {"array_select", FunctionId::kListSelect}, {"list_grade_up", FunctionId::kListGradeUp},
    {"array_grade_up", FunctionId::kListGradeUp}, {"list_any_value", FunctionId::kListAnyValue},
    {"list_dot_product", FunctionId::kListDotProduct},
    {"list_inner_product", FunctionId::kListDotProduct},
    {"array_dot_product", FunctionId::kListDotProduct},
    {"array_inner_product", FunctionId::kListDotProduct},
    {"list_cosine_similarity", FunctionId::kListCosineSimilarity},
    {"array_cosine_similarity", FunctionId::kListCosineSimilarity},
    {"list_distance", FunctionId::kListDistance}, {"array_distance", FunctionId::kListDistance},
    {"list_cosine_distance", FunctionId::kListCosineDistance},
    {"array_cosine_distance", FunctionId::kListCosineDistance},
    {"list_negative_inner_product", FunctionId::kListNegativeDot},
    {"list_negative_dot_product", FunctionId::kListNegativeDot},
    {"array_negative_inner_product", FunctionId::kListNegativeDot},
    {"array_value", FunctionId::kListValue},
    {"time_bucket", FunctionId::kTimeBucket}, {"make_time", FunctionId::kMakeTime},
    {"gcd", FunctionId::kGcd}, {"greatest_common_divisor", FunctionId::kGcd},
    {"lcm", FunctionId::kLcm}, {"least_common_multiple", FunctionId::kLcm},
    {"factorial", FunctionId::kFactorial}, {"even", FunctionId::kEven},
    {"nextafter", FunctionId::kNextAfter}, {"signbit", FunctionId::kSignBit},
    {"round_even", FunctionId::kRoundEven}, {"roundbankers", FunctionId::kRoundEven},
    {"fmod", FunctionId::kFmod}, {"sinh", FunctionId::kSinh}, {"cosh", FunctionId::kCosh},
    {"tanh", FunctionId::kTanh}, {"asinh", FunctionId::kAsinh}, {"acosh", FunctionId::kAcosh},
    {"atanh", FunctionId::kAtanh}, {"gamma", FunctionId::kGamma}, {"lgamma", FunctionId::kLgamma},
};

const DataType kBigint(TypeId::kInt64);
const DataType kDouble(TypeId::kFloat64);
const DataType kVarchar(TypeId::kVarchar);
const DataType kBool(TypeId::kBoolean);

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Byte offsets of each code point start, plus the end.
std::vector<size_t> CodePoints(std::string_view s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  starts.push_back(s.size());
  return starts;
}

int64_t CodePointCount(std::string_view s) {
  int64_t count = 0;
  for (char c : s) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// Code points [begin, end) (0-based, clipped).
std::string CodePointRange(std::string_view s, int64_t begin, int64_t end) {
  std::vector<size_t> starts = CodePoints(s);
  int64_t n = static_cast<int64_t>(starts.size()) - 1;
  begin = std::clamp<int64_t>(begin, 0, n);
  end = std::clamp<int64_t>(end, 0, n);
  if (end <= begin) return "";
  return std::string(s.substr(starts[begin], starts[end] - starts[begin]));
}

bool TypeOk(const DataType& have, const DataType& want) {
  return have == want || have.id == TypeId::kNull || ImplicitlyCastable(have, want);
}

Status CheckDomain(double x, bool log) {
  if (log) {
    if (x == 0) return Status::InvalidArgument("Out of Range Error: cannot take logarithm of zero");
    if (x < 0) {
      return Status::InvalidArgument(
          "Out of Range Error: cannot take logarithm of a negative number");
    }
  } else if (x < 0) {
    return Status::InvalidArgument(
        "Out of Range Error: cannot take square root of a negative number");
  }
  return Status::OK();
}

// Timestamp micros of a DATE or TIMESTAMP value.
std::string TrimChars(std::string_view s, std::string_view chars, bool left, bool right) {
  size_t begin = 0, end = s.size();
  if (left) {
    while (begin < end && chars.find(s[begin]) != std::string_view::npos) ++begin;
  }
  if (right) {
    while (end > begin && chars.find(s[end - 1]) != std::string_view::npos) --end;
  }
  return std::string(s.substr(begin, end - begin));
}

double RoundHalfAway(double x) { return std::round(x); }

Status CheckLength(__int128 length) {
  if (length > UINT32_MAX || length < -static_cast<__int128>(UINT32_MAX)) {
    return Status::InvalidArgument(
        "Out of Range Error: Substring length outside of supported range (> 4294967295)");
  }
  return Status::OK();
}

}  // namespace

FunctionId LookupFunction(std::string_view name, size_t num_args) {
  std::string lower = Lower(name);
  if (lower == "log") return num_args == 2 ? FunctionId::kLogBase : FunctionId::kLog10;
  for (const NameEntry& entry : kNames) {
    if (lower == entry.name) return entry.id;
  }
  if (FunctionId id = LookupListFunction(lower); id != FunctionId::kNone) return id;
  if (FunctionId id = LookupJsonFunction(lower); id != FunctionId::kNone) return id;
  return LookupListAggregate(lower);
}

const char* FunctionName(FunctionId id) {
  if (id == FunctionId::kLogBase) return "log";
  if (id == FunctionId::kConcatOperator) return "||";
  if (id == FunctionId::kBitAnd) return "&";
  if (id == FunctionId::kBitOr) return "|";
  if (id == FunctionId::kShiftLeft) return "<<";
  if (id == FunctionId::kShiftRight) return ">>";
  if (id == FunctionId::kBitNot) return "~";
  for (const NameEntry& entry : kNames) {
    if (entry.id == id) return entry.name;
  }
  if (IsListFunction(id)) return ListFunctionName(id);
  if (IsListAggregate(id)) return ListAggregateName(id);
  if (IsJsonFunction(id)) return JsonFunctionName(id);
  return "?";
}

bool IsVolatile(FunctionId id) {
  return id == FunctionId::kRandom || id == FunctionId::kGenRandomUuid;
}

bool PropagatesNull(FunctionId id) {
  if (IsListFunction(id)) return ListFunctionPropagatesNull(id);
  if (IsListAggregate(id)) return false;
  if (IsJsonFunction(id)) return JsonFunctionPropagatesNull(id);
  return id != FunctionId::kConcat && id != FunctionId::kGreatest && id != FunctionId::kLeast &&
         id != FunctionId::kNullIf && id != FunctionId::kStructPack &&
         id != FunctionId::kListValue && id != FunctionId::kVariantTypeof &&
         id != FunctionId::kHash && id != FunctionId::kConcatWs &&
         id != FunctionId::kMapConcat;
}

Status ExpectArgumentTypes(const std::vector<DataType>& arg_types, std::vector<DataType> want,
                           DataType out, std::vector<DataType>* cast_to, DataType* result) {
  if (want.size() != arg_types.size()) return Status::InvalidArgument("mismatch");
  for (size_t i = 0; i < want.size(); ++i) {
    if (!(arg_types[i] == want[i] || arg_types[i].id == TypeId::kNull ||
          ImplicitlyCastable(arg_types[i], want[i]))) {
      return Status::InvalidArgument("mismatch");
    }
  }
  *cast_to = std::move(want);
  *result = std::move(out);
  return Status::OK();
}

Status ResolveFunctionTypes(FunctionId id, std::string_view name,
                            const std::vector<DataType>& arg_types,
                            const std::vector<const Value*>& constant_args,
                            std::vector<DataType>* cast_to, DataType* result) {
  auto mismatch = [&]() {
    std::string sig = std::string(name) + "(";
    for (size_t i = 0; i < arg_types.size(); ++i) {
      if (i > 0) sig += ", ";
      sig += arg_types[i].ToString();
    }
    return Status::InvalidArgument(
        "Binder Error: No function matches the given name and argument types '", sig, ")'");
  };
  auto expect = [&](std::vector<DataType> want, DataType out) -> Status {
    if (want.size() != arg_types.size()) return mismatch();
    for (size_t i = 0; i < want.size(); ++i) {
      if (!TypeOk(arg_types[i], want[i])) return mismatch();
    }
    *cast_to = std::move(want);
    *result = std::move(out);
    return Status::OK();
  };
  size_t n = arg_types.size();
  const DataType first = n > 0 ? arg_types[0] : DataType();
  switch (id) {
    case FunctionId::kAbs:
    case FunctionId::kSign:
    case FunctionId::kFloor:
    case FunctionId::kCeil: {
      if (n != 1 || !(first.IsNumeric() || first.id == TypeId::kNull)) return mismatch();
      DataType type = first.id == TypeId::kNull ? kDouble : first;
      bool rounding = id == FunctionId::kFloor || id == FunctionId::kCeil;
      if (rounding && type.IsInteger()) type = kDouble;  // DuckDB: floor(INTEGER) is DOUBLE
      if (type.id == TypeId::kDecimal && rounding) {
        return expect({type}, DataType::Decimal(type.precision, 0));
      }
      return expect({type}, id == FunctionId::kSign ? DataType(TypeId::kInt8) : type);
    }
    case FunctionId::kRound: {
      if (n < 1 || n > 2 || !(first.IsNumeric() || first.id == TypeId::kNull)) return mismatch();
      DataType type = first.id == TypeId::kNull ? kDouble : first;
      if (n == 1) {
        return expect({type}, type.id == TypeId::kDecimal ? DataType::Decimal(type.precision, 0)
                                                          : type);
      }
      if (type.id == TypeId::kDecimal) {
        if (constant_args[1] == nullptr || constant_args[1]->is_null()) {
          type = kDouble;
        } else {
          int64_t digits = static_cast<int64_t>(AsInt128(*constant_args[1]));
          int scale = static_cast<int>(std::clamp<int64_t>(digits, 0, type.scale));
          return expect({type, DataType(TypeId::kInt32)}, DataType::Decimal(type.precision, scale));
        }
      }
      return expect({type, DataType(TypeId::kInt32)}, type);
    }
    case FunctionId::kSqrt: case FunctionId::kLn: case FunctionId::kLog10:
    case FunctionId::kLog2: case FunctionId::kExp: case FunctionId::kSin: case FunctionId::kCos:
    case FunctionId::kTan: case FunctionId::kCot: case FunctionId::kAsin: case FunctionId::kAcos:
    case FunctionId::kAtan: case FunctionId::kDegrees: case FunctionId::kRadians:
    case FunctionId::kCbrt:
      return expect({kDouble}, kDouble);
    case FunctionId::kPi: case FunctionId::kRandom:
      return expect({}, kDouble);
    case FunctionId::kGenRandomUuid:
      return expect({}, DataType(TypeId::kUuid));
    case FunctionId::kLogBase: case FunctionId::kPower: case FunctionId::kAtan2:
      return expect({kDouble, kDouble}, kDouble);
    case FunctionId::kGreatest: case FunctionId::kLeast: case FunctionId::kNullIf: {
      // The binder has already unified the argument types.
      if (n == 0 || (id == FunctionId::kNullIf && n != 2)) return mismatch();
      *cast_to = arg_types;
      *result = first;
      return Status::OK();
    }
    case FunctionId::kLength:
      return expect({kVarchar}, kBigint);
    case FunctionId::kLower: case FunctionId::kUpper:
      return expect({kVarchar}, kVarchar);
    case FunctionId::kTrim: case FunctionId::kLTrim: case FunctionId::kRTrim:
      if (n == 1) return expect({kVarchar}, kVarchar);
      return expect({kVarchar, kVarchar}, kVarchar);
    case FunctionId::kSubstring:
      if (n == 2) return expect({kVarchar, kBigint}, kVarchar);
      return expect({kVarchar, kBigint, kBigint}, kVarchar);
    case FunctionId::kConcat: case FunctionId::kConcatOperator:
      if (n == 0) return mismatch();
      for (const DataType& t : arg_types) {
        if (t.IsNested()) return mismatch();
      }
      *cast_to = std::vector<DataType>(n, kVarchar);
      *result = kVarchar;
      return Status::OK();
    case FunctionId::kReplace:
      return expect({kVarchar, kVarchar, kVarchar}, kVarchar);
    case FunctionId::kStartsWith: case FunctionId::kEndsWith: case FunctionId::kContains:
      return expect({kVarchar, kVarchar}, kBool);
    case FunctionId::kStrpos:
      return expect({kVarchar, kVarchar}, kBigint);
    case FunctionId::kLeft: case FunctionId::kRight:
      return expect({kVarchar, kBigint}, kVarchar);
    case FunctionId::kIsNan: case FunctionId::kIsInf: case FunctionId::kIsFinite:
      return expect({kDouble}, kBool);
    case FunctionId::kNone:
      break;
    default:
      if (IsDateFunction(id)) {
        Status status = ResolveDateFunctionTypes(id, arg_types, constant_args, cast_to, result);
        if (status.ok() || status.message() != "mismatch") return status;
        break;
      }
      if (IsRegexpFunction(id)) {
        Status status = ResolveRegexpFunctionTypes(id, arg_types, constant_args, cast_to, result);
        // DuckDB's own errors (a bad pattern, group or option) stand; a type mismatch is
        // reported below with the signature.
        if (status.ok() || status.message() != "mismatch") return status;
        break;
      }
      if (IsJsonFunction(id)) {
        Status status = ResolveJsonFunctionTypes(id, arg_types, constant_args, cast_to, result);
        // DuckDB's own errors (a bad path, json_object's keys) stand.
        if (status.ok() || status.message() != "mismatch") return status;
        break;
      }
      if (IsStringFunction(id)) {
        Status status = ResolveStringFunctionTypes(id, arg_types, cast_to, result);
        if (status.ok()) return status;
        break;
      }
      if (IsListFunction(id) || IsListAggregate(id)) {
        // The binder passes literal flags itself (BindListCall); here the bare types.
        std::vector<ListArgument> args(n);
        for (size_t i = 0; i < n; ++i) {
          args[i].type = arg_types[i];
          args[i].constant = constant_args[i];
        }
        return IsListFunction(id) ? ResolveListFunctionTypes(id, name, args, cast_to, result)
                                  : ResolveListAggregateTypes(id, name, args, cast_to, result);
      }
      if (IsVariantFunction(id)) {
        Status status = ResolveVariantFunctionTypes(id, arg_types, cast_to, result);
        if (status.ok()) return status;
      }
      if (IsHashFunction(id)) {
        Status status = ResolveHashFunctionTypes(id, arg_types, cast_to, result);
        if (status.ok()) return status;
        break;
      }
      if (IsTextFunction(id)) {
        Status status = ResolveTextFunctionTypes(id, arg_types, cast_to, result);
        if (status.ok()) return status;
        break;
      }
      if (IsMathFunction(id)) {
        Status status = ResolveMathFunctionTypes(id, arg_types, cast_to, result);
        if (status.ok()) return status;
        break;
      }
      if (IsBitwiseFunction(id)) return ResolveBitwiseFunctionTypes(id, arg_types, cast_to, result);
      if (IsNestedFunction(id) || IsConversionFunction(id)) {
        Status status = IsNestedFunction(id)
                            ? ResolveNestedFunctionTypes(id, arg_types, cast_to, result)
                            : ResolveConversionFunctionTypes(id, arg_types, cast_to, result);
        if (status.ok()) return status;
      }
      break;
  }
  return mismatch();
}

Result<Value> InvokeFunction(FunctionId id, std::span<const Value> args,
                             const DataType& result_type) {
  switch (id) {
    case FunctionId::kAbs: {
      const Value& v = args[0];
      if (v.type().IsFloating()) return Value::Double(result_type, std::fabs(v.GetDouble()));
      __int128 x = AsInt128(v);
      if (x >= 0) return v;
      __int128 lo, hi;
      IntegerRange(v.type().id, &lo, &hi);
      if (v.type().IsInteger() && x == lo) {
        return Status::InvalidArgument("Out of Range Error: Overflow on abs(", ValueToText(v), ")");
      }
      return MakeInteger(result_type, -x);
    }
    case FunctionId::kSign: {
      const Value& v = args[0];
      int sign = v.type().IsFloating() ? (v.GetDouble() > 0) - (v.GetDouble() < 0)
                                       : (AsInt128(v) > 0) - (AsInt128(v) < 0);
      return Value::Int(result_type, sign);
    }
    case FunctionId::kFloor: case FunctionId::kCeil: case FunctionId::kRound: {
      const Value& v = args[0];
      if (v.type().IsFloating()) {
        double x = v.GetDouble();
        if (id == FunctionId::kFloor) x = std::floor(x);
        if (id == FunctionId::kCeil) x = std::ceil(x);
        if (id == FunctionId::kRound) {
          int64_t digits = args.size() > 1 ? static_cast<int64_t>(AsInt128(args[1])) : 0;
          if (digits == 0) {
            x = RoundHalfAway(x);
          } else if (std::isfinite(x)) {
            double factor = std::pow(10.0, static_cast<double>(digits));
            double rounded = RoundHalfAway(x * factor) / factor;
            if (std::isfinite(rounded)) x = rounded;
          }
        }
        return Value::Double(result_type, x);
      }
      if (v.type().IsInteger()) {
        if (id != FunctionId::kRound || args.size() < 2) return v;
        int64_t digits = static_cast<int64_t>(AsInt128(args[1]));
        if (digits >= 0) return v;
        if (digits < -38) return MakeInteger(result_type, 0);
        __int128 p = PowerOfTen(static_cast<int>(-digits));
        __int128 x = AsInt128(v);
        __int128 q = x / p, r = x % p;
        if ((r < 0 ? -r : r) * 2 >= p) q += x < 0 ? -1 : 1;
        return CastValue(Value::Int128(DataType(TypeId::kInt128), q * p), result_type);
      }
      // Decimal: to the result's scale.
      int from_scale = v.type().scale;
      int to_scale = result_type.scale;
      __int128 x = AsInt128(v);
      __int128 p = PowerOfTen(from_scale - to_scale);
      __int128 q = x / p, r = x % p;
      if (id == FunctionId::kRound) {
        if ((r < 0 ? -r : r) * 2 >= p) q += x < 0 ? -1 : 1;
        if (args.size() > 1) {
          int64_t digits = static_cast<int64_t>(AsInt128(args[1]));
          if (digits < 0) {
            __int128 pp = PowerOfTen(static_cast<int>(std::min<int64_t>(-digits, 38)));
            __int128 qq = q / pp, rr = q % pp;
            if ((rr < 0 ? -rr : rr) * 2 >= pp) qq += q < 0 ? -1 : 1;
            q = qq * pp;
          }
        }
      } else if (id == FunctionId::kFloor) {
        if (r < 0) --q;
      } else if (r > 0) {
        ++q;
      }
      return Value::Int128(result_type, q);
    }
    case FunctionId::kSqrt: {
      double x = args[0].GetDouble();
      TARN_RETURN_NOT_OK(CheckDomain(x, false));
      return Value::Float64(std::sqrt(x));
    }
    case FunctionId::kLn: case FunctionId::kLog10: case FunctionId::kLog2: {
      double x = args[0].GetDouble();
      TARN_RETURN_NOT_OK(CheckDomain(x, true));
      return Value::Float64(id == FunctionId::kLn     ? std::log(x)
                            : id == FunctionId::kLog2 ? std::log2(x)
                                                      : std::log10(x));
    }
    case FunctionId::kLogBase: {
      double base = args[0].GetDouble(), x = args[1].GetDouble();
      TARN_RETURN_NOT_OK(CheckDomain(base, true));
      TARN_RETURN_NOT_OK(CheckDomain(x, true));
      return Value::Float64(std::log(x) / std::log(base));
    }
    case FunctionId::kExp: return Value::Float64(std::exp(args[0].GetDouble()));
    case FunctionId::kPi: return Value::Float64(M_PI);
    case FunctionId::kRandom:
      // Uniform in [0, 1), as DuckDB's random().
      return Value::Float64(std::uniform_real_distribution<double>(0.0, 1.0)(RandomEngine()));
    case FunctionId::kGenRandomUuid: {
      // A version 4 UUID: 122 random bits, the version and variant bits set.
      std::string bytes(16, '\0');
      std::uniform_int_distribution<uint32_t> byte(0, 255);
      for (char& b : bytes) b = static_cast<char>(byte(RandomEngine()));
      bytes[6] = static_cast<char>((bytes[6] & 0x0F) | 0x40);
      bytes[8] = static_cast<char>((bytes[8] & 0x3F) | 0x80);
      return Value::Bytes(DataType(TypeId::kUuid), std::move(bytes));
    }
    case FunctionId::kSin: case FunctionId::kCos: case FunctionId::kTan: case FunctionId::kCot:
    case FunctionId::kAsin: case FunctionId::kAcos: {
      const double x = args[0].GetDouble();
      if (std::isinf(x)) {
        return Status::InvalidArgument("Out of Range Error: input value ", x < 0 ? "-inf" : "inf",
                                       " is out of range for numeric function");
      }
      if (id == FunctionId::kSin) return Value::Float64(std::sin(x));
      if (id == FunctionId::kCos) return Value::Float64(std::cos(x));
      if (id == FunctionId::kTan) return Value::Float64(std::tan(x));
      if (id == FunctionId::kCot) {
        if (x == 0) {
          return Status::InvalidArgument("Out of Range Error: input value ",
                                         std::signbit(x) ? "-" : "", "0.000000 is out of range ",
                                         "for numeric function cotangent");
        }
        return Value::Float64(1.0 / std::tan(x));
      }
      if (x < -1 || x > 1) {
        return Status::InvalidArgument("Invalid Input Error: ",
                                       id == FunctionId::kAsin ? "ASIN" : "ACOS",
                                       " is undefined outside [-1,1]");
      }
      return Value::Float64(id == FunctionId::kAsin ? std::asin(x) : std::acos(x));
    }
    case FunctionId::kAtan: return Value::Float64(std::atan(args[0].GetDouble()));
    case FunctionId::kAtan2:
      return Value::Float64(std::atan2(args[0].GetDouble(), args[1].GetDouble()));
    case FunctionId::kDegrees: return Value::Float64(args[0].GetDouble() * (180.0 / M_PI));
    case FunctionId::kRadians: return Value::Float64(args[0].GetDouble() * (M_PI / 180.0));
    case FunctionId::kCbrt: return Value::Float64(std::cbrt(args[0].GetDouble()));
    case FunctionId::kPower: return Value::Float64(std::pow(args[0].GetDouble(), args[1].GetDouble()));
    case FunctionId::kGreatest: case FunctionId::kLeast: {
      const Value* best = nullptr;
      for (const Value& v : args) {
        if (v.is_null()) continue;
        if (best == nullptr) {
          best = &v;
          continue;
        }
        int c = CompareValues(v, *best);
        if (id == FunctionId::kGreatest ? c > 0 : c < 0) best = &v;
      }
      return best ? *best : Value::Null(result_type);
    }
    case FunctionId::kNullIf:
      if (!args[0].is_null() && !args[1].is_null() && CompareValues(args[0], args[1]) == 0) {
        return Value::Null(result_type);
      }
      return args[0];
    case FunctionId::kLength: return Value::Int64(CodePointCount(args[0].GetBytes()));
    case FunctionId::kLower:
      return Value::Varchar(LowerUtf8(args[0].GetBytes()));
    case FunctionId::kUpper:
      return Value::Varchar(UpperUtf8(args[0].GetBytes()));
    case FunctionId::kTrim: case FunctionId::kLTrim: case FunctionId::kRTrim: {
      std::string_view chars = args.size() > 1 ? std::string_view(args[1].GetBytes()) : " ";
      return Value::Varchar(TrimChars(args[0].GetBytes(), chars, id != FunctionId::kRTrim,
                                      id != FunctionId::kLTrim));
    }
    case FunctionId::kSubstring: {
      if (args.size() > 2) TARN_RETURN_NOT_OK(CheckLength(AsInt128(args[2])));
      if (AsInt128(args[1]) > UINT32_MAX || AsInt128(args[1]) < -static_cast<__int128>(UINT32_MAX)) {
        return Status::InvalidArgument(
            "Out of Range Error: Substring offset outside of supported range (> 4294967295)");
      }
      // DuckDB's rules: a negative offset counts from the end and clamps to the start; offset
      // 0 starts one character before the first; a negative length reaches backwards.
      const std::string& s = args[0].GetBytes();
      int64_t len = CodePointCount(s);
      int64_t offset = static_cast<int64_t>(AsInt128(args[1]));
      int64_t length = args.size() > 2 ? static_cast<int64_t>(AsInt128(args[2])) : INT32_MAX * 4LL;
      if (length == 0) return Value::Varchar("");
      int64_t begin = 0, end = 0;
      if (offset > 0) {
        begin = std::min(len, offset - 1);
      } else if (offset < 0) {
        begin = std::max<int64_t>(len + offset, 0);
      } else if (--length <= 0) {
        return Value::Varchar("");
      }
      if (length > 0) {
        end = std::min(len, begin + length);
      } else {
        end = begin;
        begin = std::max<int64_t>(0, begin + length);
      }
      return Value::Varchar(CodePointRange(s, begin, end));
    }
    case FunctionId::kConcat: case FunctionId::kConcatOperator: {
      std::string out;
      for (const Value& v : args) {
        if (!v.is_null()) out += v.GetBytes();
      }
      return Value::Varchar(std::move(out));
    }
    case FunctionId::kReplace: {
      const std::string& s = args[0].GetBytes();
      const std::string& from = args[1].GetBytes();
      const std::string& to = args[2].GetBytes();
      if (from.empty()) return args[0];
      std::string out;
      size_t pos = 0;
      while (true) {
        size_t found = s.find(from, pos);
        if (found == std::string::npos) break;
        out.append(s, pos, found - pos);
        out += to;
        pos = found + from.size();
      }
      out.append(s, pos, std::string::npos);
      return Value::Varchar(std::move(out));
    }
    case FunctionId::kStartsWith:
      return Value::Boolean(std::string_view(args[0].GetBytes()).starts_with(args[1].GetBytes()));
    case FunctionId::kEndsWith:
      return Value::Boolean(std::string_view(args[0].GetBytes()).ends_with(args[1].GetBytes()));
    case FunctionId::kContains:
      return Value::Boolean(args[0].GetBytes().find(args[1].GetBytes()) != std::string::npos);
    case FunctionId::kStrpos: {
      size_t found = args[0].GetBytes().find(args[1].GetBytes());
      if (found == std::string::npos) return Value::Int64(0);
      return Value::Int64(CodePointCount(std::string_view(args[0].GetBytes()).substr(0, found)) + 1);
    }
    case FunctionId::kLeft: case FunctionId::kRight: {
      const std::string& s = args[0].GetBytes();
      int64_t len = CodePointCount(s);
      if (id == FunctionId::kLeft) TARN_RETURN_NOT_OK(CheckLength(AsInt128(args[1])));
      int64_t count = static_cast<int64_t>(AsInt128(args[1]));
      if (id == FunctionId::kLeft) {
        return Value::Varchar(CodePointRange(s, 0, count >= 0 ? count : len + count));
      }
      return Value::Varchar(CodePointRange(s, count >= 0 ? len - count : -count, len));
    }
    case FunctionId::kIsNan: return Value::Boolean(std::isnan(args[0].GetDouble()));
    case FunctionId::kIsInf: return Value::Boolean(std::isinf(args[0].GetDouble()));
    case FunctionId::kIsFinite: return Value::Boolean(std::isfinite(args[0].GetDouble()));
    case FunctionId::kNone: break;
    default:
      if (IsDateFunction(id)) return InvokeDateFunction(id, args, result_type);
      if (IsRegexpFunction(id)) return InvokeRegexpFunction(id, args, result_type);
      if (IsNestedFunction(id)) return InvokeNestedFunction(id, args, result_type);
      if (IsVariantFunction(id)) return InvokeVariantFunction(id, args, result_type);
      if (IsConversionFunction(id)) return InvokeConversionFunction(id, args, result_type);
      if (IsBitwiseFunction(id)) return InvokeBitwiseFunction(id, args, result_type);
      if (IsStringFunction(id)) return InvokeStringFunction(id, args, result_type);
      if (IsListFunction(id)) return InvokeListFunction(id, args, result_type);
      if (IsHashFunction(id)) return InvokeHashFunction(id, args, result_type);
      if (IsTextFunction(id)) return InvokeTextFunction(id, args, result_type);
      if (IsMathFunction(id)) return InvokeMathFunction(id, args, result_type);
      if (IsJsonFunction(id)) return InvokeJsonFunction(id, args, result_type);
      break;
  }
  return Status::Internal("unknown function");
}

}  // namespace tarn::expr
