// Scalar functions by name: lookup, result types, and row-at-a-time implementations.
//
// The binder resolves a call to a FunctionId and the argument types it casts to
// (ResolveFunctionTypes); the evaluator calls InvokeFunction per row with non-cast values, or
// a vectorized kernel where one exists (evaluator.cc). Semantics are DuckDB's: string
// positions count Unicode code points, round() rounds half away from zero, sqrt/ln/log of
// out-of-domain values are errors.
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

enum class FunctionId : uint16_t {
  kNone,
  kAbs, kRound, kFloor, kCeil, kSqrt, kLn, kLog10, kLog2, kLogBase, kExp, kPower, kSign,
  kPi, kRandom, kGenRandomUuid, kSin, kCos, kTan, kCot, kAsin, kAcos, kAtan, kAtan2, kDegrees, kRadians, kCbrt,
  kGreatest, kLeast, kNullIf,
  kLength, kLower, kUpper, kTrim, kLTrim, kRTrim, kSubstring, kConcat, kConcatOperator,
  kReplace, kStartsWith, kEndsWith, kContains, kStrpos, kLeft, kRight,
  kIsNan, kIsInf, kIsFinite,
  // date_functions.cc
  kDatePart, kDateTrunc, kYear, kMonth, kDay, kHour, kMinute, kSecond, kQuarter, kDayOfWeek,
  kIsoDow, kDayOfYear, kWeek, kIsoYear, kYearWeek, kDecade, kCentury, kMillennium, kEra,
  kMillisecond, kMicrosecond, kDateDiff, kEpoch, kEpochMs, kEpochUs, kEpochNs, kDayName,
  kMonthName, kLastDay, kStrftime, kStrptime, kTryStrptime, kMakeDate, kMakeTimestamp,
  kDateSub, kAge,
  // nested_functions.cc
  kStructPack, kListValue, kMap, kRange, kMapExtractValue,
  // nested_functions.cc (kGenerateSeries .. kListNegativeDot)
  kGenerateSeries, kMapExtract, kMapKeys, kMapValues, kCardinality, kMapEntries,
  kMapFromEntries, kMapConcat, kMapContains, kListHasAny, kListHasAll, kListExtract,
  kArrayPopBack, kArrayPopFront, kListResize, kListWhere, kListSelect, kListGradeUp,
  kListAnyValue, kListDotProduct, kListCosineSimilarity, kListDistance, kListCosineDistance,
  kListNegativeDot,
  // conversion_functions.cc
  kTrunc, kMd5, kMurmur3, kToTimestamp, kToMicroseconds, kToMilliseconds, kToSeconds, kToMinutes,
  kToHours, kToDays, kToWeeks, kToMonths, kToQuarters, kToYears, kToDecades, kToCenturies,
  kToMillennia,
  // bitwise_functions.cc
  kBitAnd, kBitOr, kBitXor, kShiftLeft, kShiftRight, kBitNot, kBitCount,
  // string_functions.cc
  kHex, kUnhex, kLpad, kRpad, kRepeat, kPrintf, kFormat, kChr, kAscii,
  // regexp_functions.cc
  kRegexpMatches, kRegexpFullMatch, kRegexpExtract, kRegexpExtractAll, kRegexpReplace,
  kRegexpSplitToArray,
  // list_functions.cc (kListTransform .. kListLength; the first three take a lambda)
  kListTransform, kListFilter, kListReduce, kListZip, kFlatten, kArrayToString, kStringSplit,
  kListConcat, kListConcatOperator, kListAppend, kListPrepend, kListContains, kListPosition,
  kListDistinct, kListUnique, kListSort, kListReverseSort, kListReverse, kListSlice,
  kListLength,
  // list_aggregates.cc (kListAggregate .. kListMax)
  kListAggregate, kListCount, kListSum, kListAvg, kListMin, kListFirst, kListLast, kListMedian,
  kListMode, kListProduct, kListStringAgg, kListStddevSamp, kListStddevPop, kListVarSamp,
  kListVarPop, kListBoolAnd, kListBoolOr, kListBitAnd, kListBitOr, kListBitXor, kListKurtosis,
  kListKurtosisPop, kListSkewness, kListEntropy, kListHistogram, kListApproxCountDistinct,
  kListMad, kListMax,
  // variant_functions.cc
  kVariantTypeof, kVariantExtract,
  // hash_functions.cc
  kHash, kSha256, kSha1,
  // text_functions.cc (kReverse .. kRegexpEscape)
  kReverse, kConcatWs, kSplitPart, kTranslate, kStripAccents, kUnicode, kBitLength,
  kOctetLength, kStrlen, kLengthGrapheme, kLevenshtein, kDamerauLevenshtein, kHamming,
  kJaccard, kJaro, kJaroWinkler, kToBase64, kFromBase64, kToBase, kBin, kFormatBytes,
  kFormatDecimalBytes, kMd5Number, kMd5NumberUpper, kMd5NumberLower, kUrlEncode, kUrlDecode,
  kRegexpEscape,
  // math_functions.cc (kGcd .. kLgamma)
  kGcd, kLcm, kFactorial, kEven, kNextAfter, kSignBit, kRoundEven, kFmod, kSinh, kCosh, kTanh,
  kAsinh, kAcosh, kAtanh, kGamma, kLgamma,
  // date_functions.cc
  kTimeBucket, kMakeTime,
  // json_functions.cc (kJsonExtract .. kJsonObject)
  kJsonExtract, kJsonExtractString, kJsonValue, kJsonExists, kJsonType, kJsonArrayLength,
  kJsonKeys, kJsonValid, kJsonMinify, kJsonContains, kJsonMergePatch, kJsonStructure, kJsonPretty,
  kToJson,
  kJsonArray,
  kJsonObject,
};

// The function a name calls (case-insensitive, with aliases: substr, ceiling, pow, instr,
// log with two arguments = log base, datepart, extract's date_part), or kNone.
FunctionId LookupFunction(std::string_view name, size_t num_args);
const char* FunctionName(FunctionId id);

// Given the argument types after literal adaptation, fills the types each argument is cast to
// and the result type; fails with a message naming the function and argument types.
// `constant_args[i]` is the value of argument i when it is a constant (else nullptr):
// round(decimal, n) needs n at bind time.
Status ResolveFunctionTypes(FunctionId id, std::string_view name,
                            const std::vector<DataType>& arg_types,
                            const std::vector<const Value*>& constant_args,
                            std::vector<DataType>* cast_to, DataType* result);

// For the function families' type resolvers: when `arg_types` are `want` (equal, NULL, or
// implicitly castable to them, and as many), sets *cast_to = want and *result = out; else
// InvalidArgument("mismatch"), which the caller turns into its message.
Status ExpectArgumentTypes(const std::vector<DataType>& arg_types, std::vector<DataType> want,
                           DataType out, std::vector<DataType>* cast_to, DataType* result);

// Whether each call answers anew (random(), gen_random_uuid()): never folded into a constant,
// evaluated once per row.
bool IsVolatile(FunctionId id);

// Whether a NULL argument makes the result NULL without calling InvokeFunction.
bool PropagatesNull(FunctionId id);

// Computes one row. `args` have the types ResolveFunctionTypes chose.
Result<Value> InvokeFunction(FunctionId id, std::span<const Value> args,
                             const DataType& result_type);

}  // namespace tarn::expr
