#include "expr/functions/list_aggregates.h"

#include <cctype>
#include <string>

#include "expr/eval/kernels.h"
#include "sql/exec/aggregate_function.h"

namespace tarn::expr {
namespace {

struct NameEntry {
  const char* name;
  FunctionId id;
};

constexpr NameEntry kAggregateNames[] = {
    {"list_aggregate", FunctionId::kListAggregate}, {"list_aggr", FunctionId::kListAggregate},
    {"aggregate", FunctionId::kListAggregate}, {"array_aggregate", FunctionId::kListAggregate},
    {"array_aggr", FunctionId::kListAggregate}, {"list_count", FunctionId::kListCount},
    {"list_sum", FunctionId::kListSum}, {"list_avg", FunctionId::kListAvg},
    {"list_min", FunctionId::kListMin}, {"list_max", FunctionId::kListMax},
    {"list_first", FunctionId::kListFirst}, {"list_last", FunctionId::kListLast},
    {"list_median", FunctionId::kListMedian}, {"list_mode", FunctionId::kListMode},
    {"list_product", FunctionId::kListProduct}, {"list_string_agg", FunctionId::kListStringAgg},
    {"list_stddev_samp", FunctionId::kListStddevSamp},
    {"list_stddev_pop", FunctionId::kListStddevPop}, {"list_var_samp", FunctionId::kListVarSamp},
    {"list_var_pop", FunctionId::kListVarPop}, {"list_bool_and", FunctionId::kListBoolAnd},
    {"list_bool_or", FunctionId::kListBoolOr}, {"list_bit_and", FunctionId::kListBitAnd},
    {"list_bit_or", FunctionId::kListBitOr}, {"list_bit_xor", FunctionId::kListBitXor},
    {"list_kurtosis", FunctionId::kListKurtosis},
    {"list_kurtosis_pop", FunctionId::kListKurtosisPop},
    {"list_skewness", FunctionId::kListSkewness}, {"list_entropy", FunctionId::kListEntropy},
    {"list_histogram", FunctionId::kListHistogram},
    {"list_approx_count_distinct", FunctionId::kListApproxCountDistinct},
    {"list_mad", FunctionId::kListMad},
};

// The aggregates list_aggregate takes, by the names DuckDB knows them by.
constexpr const char* kAggregates[] = {
    "count", "sum", "avg", "mean", "min", "max", "first", "arbitrary", "last", "any_value",
    "median", "mode", "product", "string_agg", "group_concat", "stddev_samp", "stddev",
    "stddev_pop", "var_samp", "variance", "var_pop", "bool_and", "bool_or", "bit_and", "bit_or",
    "bit_xor", "kurtosis", "kurtosis_pop", "skewness", "entropy", "histogram",
    "approx_count_distinct", "mad", "count_if", "fsum", "favg", "geomean", "list", "array_agg"};

// The aggregate a call computes: a fixed one, or list_aggregate's constant name.
std::string AggregateOf(FunctionId id, const Value* name) {
  switch (id) {
    case FunctionId::kListCount: return "count";
    case FunctionId::kListSum: return "sum";
    case FunctionId::kListAvg: return "avg";
    case FunctionId::kListMin: return "min";
    case FunctionId::kListMax: return "max";
    case FunctionId::kListFirst: return "first";
    case FunctionId::kListLast: return "last";
    case FunctionId::kListMedian: return "median";
    case FunctionId::kListMode: return "mode";
    case FunctionId::kListProduct: return "product";
    case FunctionId::kListStringAgg: return "string_agg";
    case FunctionId::kListStddevSamp: return "stddev_samp";
    case FunctionId::kListStddevPop: return "stddev_pop";
    case FunctionId::kListVarSamp: return "var_samp";
    case FunctionId::kListVarPop: return "var_pop";
    case FunctionId::kListBoolAnd: return "bool_and";
    case FunctionId::kListBoolOr: return "bool_or";
    case FunctionId::kListBitAnd: return "bit_and";
    case FunctionId::kListBitOr: return "bit_or";
    case FunctionId::kListBitXor: return "bit_xor";
    case FunctionId::kListKurtosis: return "kurtosis";
    case FunctionId::kListKurtosisPop: return "kurtosis_pop";
    case FunctionId::kListSkewness: return "skewness";
    case FunctionId::kListEntropy: return "entropy";
    case FunctionId::kListHistogram: return "histogram";
    case FunctionId::kListApproxCountDistinct: return "approx_count_distinct";
    case FunctionId::kListMad: return "mad";
    default: break;
  }
  std::string lower = name->GetBytes();
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// What the aggregate reads the elements as: an untyped NULL element is an INTEGER to sum and
// avg (DuckDB's first candidate), and stays NULL for min and max; string_agg reads text.
DataType InputType(const std::string& aggregate, const DataType& element) {
  if (aggregate == "string_agg" || aggregate == "group_concat") return DataType(TypeId::kVarchar);
  if (element.id != TypeId::kNull || aggregate == "min" || aggregate == "max") return element;
  return DataType(TypeId::kInt32);
}

}  // namespace

bool IsListAggregate(FunctionId id) {
  return id >= FunctionId::kListAggregate && id <= FunctionId::kListMax;
}

FunctionId LookupListAggregate(std::string_view lower_name) {
  for (const NameEntry& entry : kAggregateNames) {
    if (lower_name == entry.name) return entry.id;
  }
  return FunctionId::kNone;
}

const char* ListAggregateName(FunctionId id) {
  for (const NameEntry& entry : kAggregateNames) {
    if (entry.id == id) return entry.name;
  }
  return "?";
}

Status ResolveListAggregateTypes(FunctionId id, std::string_view name,
                                 std::span<const ListArgument> args,
                                 std::vector<DataType>* cast_to, DataType* result) {
  const bool named = id == FunctionId::kListAggregate;
  const size_t n = args.size();
  if (n != (named ? 2u : 1u) || (args[0].type.id != TypeId::kList &&
                                  args[0].type.id != TypeId::kNull)) {
    return NoListFunctionMatch(name, args);
  }
  cast_to->clear();
  for (const ListArgument& arg : args) cast_to->push_back(arg.type);
  if (named) {
    if (args[1].type.id != TypeId::kVarchar && args[1].type.id != TypeId::kNull) {
      return NoListFunctionMatch(name, args);
    }
    if (args[1].constant == nullptr) {
      return Status::InvalidArgument("Invalid Input Error: Aggregate function name must be a "
                                     "constant");
    }
    const std::string aggregate = args[1].constant->is_null()
                                      ? std::string("NULL")
                                      : AggregateOf(id, args[1].constant);
    bool known = false;
    for (const char* candidate : kAggregates) known = known || aggregate == candidate;
    if (!known) {
      return Status::InvalidArgument("Catalog Error: Aggregate Function with name ", aggregate,
                                     " does not exist!");
    }
  }
  if (args[0].type.id == TypeId::kNull) {
    *result = DataType(TypeId::kNull);
    return Status::OK();
  }
  const std::string aggregate = AggregateOf(id, named ? args[1].constant : nullptr);
  const DataType input = InputType(aggregate, args[0].type.children[0].type);
  if (input.id == TypeId::kNull) {
    *result = input;  // min or max of NULLs
    return Status::OK();
  }
  (*cast_to)[0] = DataType::List(input);
  Result<std::unique_ptr<sql::AggregateState>> state = sql::MakeAggregateState(aggregate, input);
  if (!state.ok()) {
    return Status::InvalidArgument("Binder Error: No matching aggregate function\nBinder Error: ",
                                   "No function matches the given name and argument types '",
                                   aggregate, "(", input.ToString(),
                                   ")'. You might need to add explicit type casts.");
  }
  *result = (*state)->result_type();
  return Status::OK();
}

Result<Vec> EvaluateListAggregate(FunctionId id, const DataType& result_type,
                                  const std::vector<Vec>& inputs, int64_t rows) {
  const Vec& list = inputs[0];
  const int64_t n = list.constant ? 1 : rows;
  const Column& lists = *list.column;
  if (lists.type.id == TypeId::kNull || result_type.id == TypeId::kNull) {
    ColumnBuilder nulls(result_type);
    for (int64_t row = 0; row < n; ++row) nulls.AppendNull();
    return Vec{nulls.Finish(), list.constant};
  }
  Value name;
  if (id == FunctionId::kListAggregate) name = inputs[1].column->GetValue(0);
  const std::string aggregate = AggregateOf(id, &name);
  const ListElements flat = FlattenLists(lists, n);
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<sql::AggregateState> state,
                        sql::MakeAggregateState(aggregate, flat.elements->type));
  state->Resize(n);
  const std::vector<int64_t> element_rows = ElementRows(flat);
  std::vector<uint32_t> groups(element_rows.begin(), element_rows.end());
  TARN_RETURN_NOT_OK(state->Update(flat.elements.get(), groups.data(),
                                   static_cast<int64_t>(groups.size()), nullptr));
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<Column> values, state->Finish(n));
  if (lists.null_count > 0) {
    // A NULL list has no elements, so only count gives it a value (0): make it NULL.
    ColumnBuilder masked(result_type);
    masked.Reserve(n);
    for (int64_t row = 0; row < n; ++row) {
      if (lists.IsNull(row)) {
        masked.AppendNull();
      } else {
        TARN_RETURN_NOT_OK(masked.Append(values->GetValue(row)));
      }
    }
    values = masked.Finish();
  }
  return Vec{values, list.constant};
}

}  // namespace tarn::expr
