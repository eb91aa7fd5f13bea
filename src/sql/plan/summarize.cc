#include "sql/plan/summarize.h"

#include <string>
#include <utility>
#include <vector>

#include "sql/parse/statement_clone.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/planner.h"

namespace tarn::sql {
namespace {

// Where the generated query reads the relation; replaced by the relation itself once parsed.
constexpr std::string_view kSourceName = "__tarn_summarize_source";

std::string QuoteName(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

std::string QuoteText(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

// Dates and timestamps of every precision and zone (DuckDB's temporal types but times).
bool IsDateOrTimestamp(const DataType& type) {
  switch (type.id) {
    case TypeId::kDate: case TypeId::kTimestamp: case TypeId::kTimestampS:
    case TypeId::kTimestampMs: case TypeId::kTimestampNs: case TypeId::kTimestampTz:
      return true;
    default:
      return false;
  }
}

bool HasQuantiles(const DataType& type) {
  return type.IsNumeric() || IsDateOrTimestamp(type) || type.id == TypeId::kTime;
}

// The statistics of one column, each a SQL expression over the column `c` (quoted).
struct ColumnStatistics {
  std::string name, type, min, max, unique, avg, std, q25, q50, q75, count, null_percentage;
};

ColumnStatistics StatisticsOf(const Field& field) {
  const std::string c = QuoteName(field.name);
  const std::string null_text = "NULL::VARCHAR";
  ColumnStatistics s;
  s.name = QuoteText(field.name);
  s.type = QuoteText(field.type.ToString());
  s.min = "CAST(min(" + c + ") AS VARCHAR)";
  s.max = "CAST(max(" + c + ") AS VARCHAR)";
  s.unique = "CAST(approx_count_distinct(" + c + ") AS BIGINT)";
  if (field.type.IsNumeric()) {
    s.avg = "CAST(avg(" + c + ") AS VARCHAR)";
  } else if (IsDateOrTimestamp(field.type)) {
    // DuckDB averages dates and timestamps as timestamps (nanosecond and zoned ones in their
    // own type), truncating to the microsecond.
    const bool own_type =
        field.type.id == TypeId::kTimestampNs || field.type.id == TypeId::kTimestampTz;
    s.avg = "CAST(CAST(TIMESTAMP '1970-01-01' + to_microseconds(CAST(trunc(avg(epoch_us(" + c +
            "))) AS BIGINT)) AS " + (own_type ? field.type.ToString() : "TIMESTAMP") +
            ") AS VARCHAR)";
  } else {
    s.avg = null_text;
  }
  s.std = field.type.IsNumeric() ? "CAST(stddev(" + c + ") AS VARCHAR)" : null_text;
  auto quantile = [&](const char* fraction) {
    if (!HasQuantiles(field.type)) return null_text;
    return "CAST(approx_quantile(" + c + ", " + fraction + ") AS VARCHAR)";
  };
  s.q25 = quantile("0.25");
  s.q50 = quantile("0.5");
  s.q75 = quantile("0.75");
  s.count = "count(*)";
  s.null_percentage = "CAST(CASE WHEN count(*) > 0 THEN (1::DOUBLE - CAST(count(" + c +
                      ") AS DOUBLE) / CAST(count(*) AS DOUBLE)) * 100::DOUBLE ELSE NULL END "
                      "AS DECIMAL(9,2))";
  return s;
}

}  // namespace

Result<std::unique_ptr<SelectStmt>> RewriteSummarize(const SelectStmt& select,
                                                     std::string_view sql_text,
                                                     const ExecContext& context) {
  auto relation = std::make_unique<SelectStmt>();
  SelectItem star;
  star.star = true;
  relation->items.push_back(std::move(star));
  relation->from = CloneTableRef(*select.summarize);
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> planned,
                        PlanSelect(*relation, sql_text, context));
  const Schema& schema = *planned->schema();

  std::vector<ColumnStatistics> columns;
  for (int c = 0; c < schema.num_fields(); ++c) columns.push_back(StatisticsOf(schema.field(c)));
  struct Output {
    const char* name;
    std::string ColumnStatistics::*member;
  };
  static const Output kOutputs[] = {
      {"column_name", &ColumnStatistics::name}, {"column_type", &ColumnStatistics::type},
      {"min", &ColumnStatistics::min}, {"max", &ColumnStatistics::max},
      {"approx_unique", &ColumnStatistics::unique}, {"avg", &ColumnStatistics::avg},
      {"std", &ColumnStatistics::std}, {"q25", &ColumnStatistics::q25},
      {"q50", &ColumnStatistics::q50}, {"q75", &ColumnStatistics::q75},
      {"count", &ColumnStatistics::count},
      {"null_percentage", &ColumnStatistics::null_percentage}};
  std::string outer = "SELECT ";
  std::string inner = "SELECT ";
  for (size_t o = 0; o < std::size(kOutputs); ++o) {
    const std::string name = QuoteName(kOutputs[o].name);
    outer += (o ? ", unnest(" : "unnest(") + name + ") AS " + name;
    inner += o ? ", [" : "[";
    for (size_t c = 0; c < columns.size(); ++c) {
      inner += (c ? ", " : "") + columns[c].*kOutputs[o].member;
    }
    inner += "] AS " + name;
  }
  inner += " FROM " + std::string(kSourceName);
  const std::string text = outer + " FROM (" + inner + ") summarize_lists";
  TARN_ASSIGN_OR_RETURN(std::vector<std::unique_ptr<Statement>> parsed, ParseStatements(text));
  if (parsed.size() != 1 || !parsed[0]->select ||
      parsed[0]->select->from.kind != TableRef::Kind::kSubquery) {
    return Status::Internal("SUMMARIZE's query did not parse as one query: ", text);
  }
  std::unique_ptr<SelectStmt> query = std::move(parsed[0]->select);
  TableRef source;
  source.kind = TableRef::Kind::kSubquery;
  source.subquery = std::move(relation);
  source.alias = "summarize_tbl";
  query->from.subquery->from = std::move(source);
  if (select.order_by.empty() && !select.limit && !select.offset) return query;
  std::unique_ptr<SelectStmt> ordered = SelectAllFrom(std::move(query));
  CopyOrderAndLimit(select, ordered.get());
  return ordered;
}

}  // namespace tarn::sql
