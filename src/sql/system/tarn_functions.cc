#include "sql/system/tarn_functions.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/eval/cast.h"
#include "expr/parse/lexer.h"
#include "sql/lake/lake_source.h"
#include "sql/plan/names.h"
#include "table/rowid_lookup.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/layout.h"
#include "tarn/table.h"
#include "tarn/rowid.h"

namespace tarn::sql {
namespace {

constexpr const char* kPublish = "tarn_publish_row_summaries";
constexpr const char* kSweep = "tarn_sweep_row_summaries";
constexpr const char* kStats = "tarn_row_summary_stats";
constexpr const char* kTableStats = "tarn_table_stats";
constexpr const char* kLayoutExplain = "tarn_layout_explain";

Field BigIntField(const char* name) { return Field(name, DataType(TypeId::kInt64)); }

std::shared_ptr<Batch> OneRow(std::vector<Field> fields, const std::vector<Value>& values) {
  std::vector<std::shared_ptr<Column>> columns;
  for (size_t i = 0; i < fields.size(); ++i) {
    ColumnBuilder builder(fields[i].type);
    Status appended = builder.Append(values[i]);
    (void)appended;  // the values are built with the fields' types
    columns.push_back(builder.Finish());
  }
  auto batch = MakeBatch(std::make_shared<Schema>(std::move(fields)), std::move(columns));
  batch->num_rows = 1;
  return batch;
}

// A function whose one-row result is computed when the source is opened.
class DeferredRowSource : public Source {
 public:
  // `reports_progress`: `compute` tells Session::Progress how far it is (Source::ReportsProgress).
  DeferredRowSource(std::string label, std::vector<Field> fields,
                    std::function<Result<std::vector<Value>>()> compute,
                    bool reports_progress = false)
      : label_(std::move(label)), schema_(std::move(fields)), compute_(std::move(compute)),
        reports_progress_(reports_progress) {}

  const Schema& schema() const override { return schema_; }
  bool ReportsProgress() const override { return reports_progress_; }

  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    TARN_ASSIGN_OR_RETURN(std::vector<Value> values, compute_());
    std::vector<Field> fields;
    std::vector<Value> selected;
    for (int index : columns) {
      fields.push_back(schema_.field(index));
      selected.push_back(values[static_cast<size_t>(index)]);
    }
    if (columns.empty()) {
      return MakeValues(label_, MakeEmptyColumnsBatch(std::make_shared<Schema>(), 1));
    }
    return MakeValues(label_, OneRow(std::move(fields), selected));
  }

 private:
  std::string label_;
  Schema schema_;
  std::function<Result<std::vector<Value>>()> compute_;
  bool reports_progress_;
};

Result<Value> Constant(const ast::Expr& expr, std::string_view function) {
  Schema empty;
  Result<std::unique_ptr<BoundExpr>> bound = Bind(expr, empty);
  if (!bound.ok() || !(*bound)->IsConstant()) {
    return Status::InvalidArgument("Binder Error: ", function, " argument \"", expr.ToString(),
                                   "\" must be a constant");
  }
  return (*bound)->EvaluateConstant();
}

// Checks the arguments: at most one positional (the catalog name) and the named ones allowed;
// returns the named values.
Result<std::map<std::string, Value>> CheckArguments(const TableRef& ref, std::string_view name,
                                                    const std::vector<std::string>& allowed,
                                                    const LakeBinding* lake) {
  std::map<std::string, Value> named;
  int positional = 0;
  for (const TableArg& arg : ref.args) {
    if (arg.is_list) return Status::InvalidArgument("Binder Error: ", name, " takes no lists");
    TARN_ASSIGN_OR_RETURN(Value value, Constant(*arg.expr, name));
    if (arg.name.empty()) {
      if (++positional > 1 || lake == nullptr) {
        return Status::InvalidArgument(
            "Binder Error: ", name,
            lake == nullptr ? " takes no positional arguments"
                            : " takes at most one positional argument (the catalog name)");
      }
      if (value.is_null() || value.type().id != TypeId::kVarchar) {
        return Status::InvalidArgument("Binder Error: ", name,
                                       ": the catalog argument must be a string such as '",
                                       lake->name, "'");
      }
      if (LowerAscii(value.GetBytes()) != LowerAscii(lake->name)) {
        return Status::NotFound("Catalog Error: catalog \"", value.GetBytes(),
                                "\" does not exist; the attached lake is \"", lake->name, "\"");
      }
      continue;
    }
    const std::string lower = LowerAscii(arg.name);
    if (std::find(allowed.begin(), allowed.end(), lower) == allowed.end()) {
      return Status::InvalidArgument("Binder Error: ", name, " has no named parameter \"",
                                     arg.name, "\"");
    }
    named[lower] = std::move(value);
  }
  return named;
}

Result<std::unique_ptr<Source>> BindPublish(const TableRef& ref, const LakeBinding& lake,
                                            const WorkWatch& watch) {
  TARN_ASSIGN_OR_RETURN(auto named, CheckArguments(ref, kPublish, {"since"}, &lake));
  PublishOptions options;
  auto since = named.find("since");
  if (since != named.end()) {
    const Value& value = since->second;
    if (value.is_null() || !value.type().IsInteger()) {
      return Status::InvalidArgument("Binder Error: ", kPublish,
                                     ": since => must be a snapshot id, not ",
                                     FormatValue(value));
    }
    TARN_ASSIGN_OR_RETURN(Value id, expr::CastValue(value, DataType(TypeId::kInt64)));
    options.since_snapshot = id.GetInt64();
  }
  Lake* target = lake.lake;
  std::shared_ptr<FileSystem> fs = lake.fs;
  std::vector<Field> fields = {BigIntField("files_considered"), BigIntField("published"),
                               BigIntField("already_published"), BigIntField("dense"),
                               BigIntField("failed"),
                               Field("first_error", DataType(TypeId::kVarchar))};
  options.watch = watch;
  auto compute = [target, fs, options]() -> Result<std::vector<Value>> {
    RowSummaryContext ctx = table_internal::ProcessRowSummaryContext(*target, fs);
    ctx.cache.reset();  // publishing never reads or fills a cache
    if (options.since_snapshot) {
      // An unknown snapshot is an error, not an empty pass.
      Result<SnapshotInfo> boundary =
          target->FindSnapshot(SnapshotSelector::Id(*options.since_snapshot));
      if (boundary.status().IsNotFound()) {
        return Status::NotFound("Binder Error: ", kPublish, ": the lake has no snapshot ",
                                *options.since_snapshot);
      }
      TARN_RETURN_NOT_OK(boundary.status());
    }
    Result<PublishReport> passed = PublishRowSummaries(*target, ctx, options);
    // Directories kept across statements re-read what this pass published.
    table_internal::NoteProcessSidecarsChanged();
    TARN_ASSIGN_OR_RETURN(PublishReport report, std::move(passed));
    return std::vector<Value>{
        Value::Int64(report.files_considered), Value::Int64(report.published),
        Value::Int64(report.already_published), Value::Int64(report.dense),
        Value::Int64(report.failed),
        report.errors.empty() ? Value::Null(DataType(TypeId::kVarchar))
                              : Value::Varchar(report.errors.front())};
  };
  return std::unique_ptr<Source>(std::make_unique<DeferredRowSource>(
      StrCat("TABLE_FUNCTION ", kPublish), std::move(fields), std::move(compute),
      /*reports_progress=*/true));
}

Result<std::unique_ptr<Source>> BindSweep(const TableRef& ref, const LakeBinding& lake,
                                          const WorkWatch& watch) {
  TARN_RETURN_NOT_OK(CheckArguments(ref, kSweep, {}, &lake).status());
  std::shared_ptr<FileSystem> fs = lake.fs;
  std::string data_path = lake.lake->data_path();
  auto compute = [fs, data_path, watch]() -> Result<std::vector<Value>> {
    Result<SweepReport> swept = SweepRowSummaries(*fs, data_path, watch);
    table_internal::NoteProcessSidecarsChanged();
    TARN_ASSIGN_OR_RETURN(SweepReport report, std::move(swept));
    return std::vector<Value>{Value::Int64(report.listed), Value::Int64(report.sidecars),
                              Value::Int64(report.deleted)};
  };
  return std::unique_ptr<Source>(std::make_unique<DeferredRowSource>(
      StrCat("TABLE_FUNCTION ", kSweep),
      std::vector<Field>{BigIntField("listed"), BigIntField("sidecars"), BigIntField("deleted")},
      std::move(compute), /*reports_progress=*/true));
}

Result<std::unique_ptr<Source>> BindStats(const TableRef& ref) {
  TARN_RETURN_NOT_OK(CheckArguments(ref, kStats, {}, nullptr).status());
  std::vector<Field> fields = {
      BigIntField("cache_hits"),     BigIntField("cache_misses"),
      BigIntField("sidecar_hits"),   BigIntField("sidecar_misses"),
      BigIntField("refused_identity"), BigIntField("decode_failures"),
      BigIntField("derived"),        BigIntField("footer_probes"),
      BigIntField("published"),      BigIntField("already_published"),
      BigIntField("publish_failures"), BigIntField("sidecar_probes")};
  auto compute = []() -> Result<std::vector<Value>> {
    const RowSummaryStats& s = *table_internal::ProcessRowSummaryStats();
    std::vector<Value> row;
    for (const std::atomic<int64_t>* counter :
         {&s.cache_hits, &s.cache_misses, &s.sidecar_hits, &s.sidecar_misses,
          &s.refused_identity, &s.decode_failures, &s.derived, &s.footer_probes, &s.published,
          &s.already_published, &s.publish_failures, &s.sidecar_probes}) {
      row.push_back(Value::Int64(counter->load()));
    }
    return row;
  };
  return std::unique_ptr<Source>(std::make_unique<DeferredRowSource>(
      StrCat("TABLE_FUNCTION ", kStats), std::move(fields), std::move(compute)));
}

// A function whose rows are computed when the source is opened.
class DeferredBatchSource : public Source {
 public:
  DeferredBatchSource(std::string label, std::vector<Field> fields,
                      std::function<Result<std::shared_ptr<Batch>>()> compute)
      : label_(std::move(label)), schema_(std::move(fields)), compute_(std::move(compute)) {}

  const Schema& schema() const override { return schema_; }

  Result<std::unique_ptr<Operator>> Open(const std::vector<int>& columns,
                                         std::shared_ptr<const StatisticsPredicate>) override {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> all, compute_());
    if (columns.empty()) {
      return MakeValues(label_, MakeEmptyColumnsBatch(std::make_shared<Schema>(), all->num_rows));
    }
    std::vector<Field> fields;
    std::vector<std::shared_ptr<Column>> selected;
    for (int index : columns) {
      fields.push_back(schema_.field(index));
      selected.push_back(all->columns[static_cast<size_t>(index)]);
    }
    auto batch = MakeBatch(std::make_shared<Schema>(std::move(fields)), std::move(selected));
    batch->num_rows = all->num_rows;
    return MakeValues(label_, batch);
  }

 private:
  std::string label_;
  Schema schema_;
  std::function<Result<std::shared_ptr<Batch>>()> compute_;
};

// The one positional argument naming a lake table ('t', 's.t' or 'lake.s.t'), and the named
// ones allowed.
Result<std::pair<std::vector<std::string>, std::map<std::string, Value>>> TableArguments(
    const TableRef& ref, std::string_view name, const std::vector<std::string>& allowed) {
  std::vector<std::string> table;
  std::map<std::string, Value> named;
  for (const TableArg& arg : ref.args) {
    if (arg.is_list) return Status::InvalidArgument("Binder Error: ", name, " takes no lists");
    TARN_ASSIGN_OR_RETURN(Value value, Constant(*arg.expr, name));
    if (arg.name.empty()) {
      if (!table.empty() || value.is_null() || value.type().id != TypeId::kVarchar) {
        return Status::InvalidArgument("Binder Error: ", name,
                                       " takes one table name, such as ", name, "('t')");
      }
      std::string text = value.GetBytes();
      size_t start = 0;
      while (true) {
        const size_t dot = text.find('.', start);
        table.push_back(text.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos) break;
        start = dot + 1;
      }
      continue;
    }
    const std::string lower = LowerAscii(arg.name);
    if (std::find(allowed.begin(), allowed.end(), lower) == allowed.end()) {
      return Status::InvalidArgument("Binder Error: ", name, " has no named parameter \"",
                                     arg.name, "\"");
    }
    named[lower] = std::move(value);
  }
  if (table.empty() || table.size() > 3) {
    return Status::InvalidArgument("Binder Error: ", name, " takes one table name, such as ",
                                   name, "('t')");
  }
  return std::make_pair(std::move(table), std::move(named));
}

Result<std::shared_ptr<const TableMetadata>> LoadNamedTable(const LakeBinding& lake,
                                                            const std::vector<std::string>& names,
                                                            std::string_view sql_text,
                                                            int32_t offset) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, std::nullopt, sql_text, offset));
  TARN_ASSIGN_OR_RETURN(LakeObjectName name, ResolveLakeName(names, lake, *snapshot));
  return LoadLakeTable(lake, *snapshot, name, lake.transaction != nullptr);
}

Field TextField(const char* name) { return Field(name, DataType(TypeId::kVarchar)); }
Field DoubleField(const char* name) { return Field(name, DataType(TypeId::kFloat64)); }

Result<std::unique_ptr<Source>> BindTableStats(const TableRef& ref, std::string_view sql_text,
                                               const LakeBinding& lake) {
  TARN_ASSIGN_OR_RETURN(auto args, TableArguments(ref, kTableStats, {}));
  const LakeBinding* binding = &lake;
  std::vector<std::string> names = args.first;
  std::string text(sql_text);
  const int32_t offset = ref.offset;
  std::vector<Field> fields = {TextField("table_name"),       BigIntField("rows"),
                               BigIntField("files"),          BigIntField("delete_files"),
                               BigIntField("row_groups"),     DoubleField("avg_rows_per_row_group"),
                               BigIntField("bytes_on_disk"),  BigIntField("compressed_bytes"),
                               BigIntField("uncompressed_bytes"),
                               DoubleField("compression_ratio"), TextField("sort_key"),
                               TextField("parquet_profile")};
  auto compute = [binding, names, text, offset]() -> Result<std::vector<Value>> {
    TARN_ASSIGN_OR_RETURN(auto table, LoadNamedTable(*binding, names, text, offset));
    TARN_ASSIGN_OR_RETURN(LakeTableStats stats,
                          ReadLakeTableStats(*binding->lake, binding->fs, *table));
    return std::vector<Value>{
        Value::Varchar(table->table->schema_name + "." + table->table->name),
        Value::Int64(stats.rows), Value::Int64(stats.files), Value::Int64(stats.delete_files),
        Value::Int64(stats.row_groups), Value::Float64(stats.average_row_group_rows),
        Value::Int64(stats.bytes_on_disk), Value::Int64(stats.compressed_bytes),
        Value::Int64(stats.uncompressed_bytes), Value::Float64(stats.compression_ratio),
        stats.sort_key.empty() ? Value::Null(DataType(TypeId::kVarchar))
                               : Value::Varchar(stats.sort_key),
        Value::Varchar(stats.profile)};
  };
  return std::unique_ptr<Source>(std::make_unique<DeferredRowSource>(
      StrCat("TABLE_FUNCTION ", kTableStats), std::move(fields), std::move(compute)));
}

std::string Percent(double share) { return StrCat(static_cast<int64_t>(share * 1000) / 10.0, "%"); }

// The rows of tarn_layout_explain: the profile, the column sets counted, every candidate with
// its measured (or modelled) bytes, and the choice.
std::shared_ptr<Batch> ExplainRows(const SortKeyChoice& choice) {
  ColumnBuilder kind(DataType(TypeId::kVarchar));
  ColumnBuilder key(DataType(TypeId::kVarchar));
  ColumnBuilder bytes(DataType(TypeId::kInt64));
  ColumnBuilder detail(DataType(TypeId::kVarchar));
  int64_t rows = 0;
  auto add = [&](const std::string& k, const std::string& what, int64_t size,
                 const std::string& text) {
    kind.AppendBytes(k);
    key.AppendBytes(what);
    if (size < 0) {
      bytes.AppendNull();
    } else {
      bytes.AppendNumber<int64_t>(size);
    }
    detail.AppendBytes(text);
    ++rows;
  };
  const TableProfile& profile = choice.profile;
  auto names = [&](const std::vector<int>& columns) {
    if (columns.empty()) return std::string("(as it is)");
    std::string out;
    for (int c : columns) out += (out.empty() ? "" : ", ") + profile.columns[c].name;
    return out;
  };
  for (const ColumnProfile& column : profile.columns) {
    add("profile", column.name, -1,
        StrCat(column.type.ToString(), "; distinct ", column.distinct,
               column.distinct_exact ? " (exact)" : " (estimated)", "; skew ", column.skew,
               column.skew_exact ? "" : " (estimated)", "; nulls ", Percent(column.null_share()),
               "; width ", column.average_width, " B; ",
               column.candidate ? "candidate" : "excluded: " + column.excluded_because));
  }
  for (const ColumnSetDistinct& set : profile.column_sets) {
    add("dependency", names(set.columns), -1,
        StrCat(set.distinct, " distinct", set.exact ? " (exact)" : " (estimated)"));
  }
  for (const KeyCandidate& candidate : choice.candidates) {
    std::string note = candidate.note;
    if (candidate.modelled_bytes >= 0) {
      note += StrCat("; modelled ", static_cast<int64_t>(candidate.modelled_bytes), " bytes");
    }
    // Keys measured on different samples compare by their estimate for the table.
    int64_t shown = candidate.bytes;
    if (candidate.estimated_bytes >= 0 && candidate.estimated_bytes != candidate.bytes) {
      note += StrCat("; ", candidate.bytes, " bytes measured, estimated for the table");
      shown = candidate.estimated_bytes;
    }
    add("candidate", names(candidate.columns), shown, note);
  }
  add("choice", choice.key.empty() ? "(unsorted)" : FormatSortKey(choice.key),
      choice.chosen_bytes,
      StrCat(PickerModeName(choice.mode), ": ", choice.reason, "; ", profile.rows, " rows, ",
             profile.sample_rows, " sampled, ", profile.scans, " scans, ", choice.measurements,
             " files measured"));
  std::vector<Field> fields = {TextField("kind"), TextField("key"), BigIntField("bytes"),
                               TextField("detail")};
  auto batch = MakeBatch(std::make_shared<Schema>(std::move(fields)),
                         {kind.Finish(), key.Finish(), bytes.Finish(), detail.Finish()});
  batch->num_rows = rows;
  return batch;
}

Result<std::unique_ptr<Source>> BindLayoutExplain(const TableRef& ref, std::string_view sql_text,
                                                  const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(auto args, TableArguments(ref, kLayoutExplain, {"mode", "sample_rows"}));
  const LakeBinding& lake = *context.lake;
  // The session's layout_picker and layout_sample_rows unless the call names its own.
  PickerOptions options;
  options.mode = context.layout_picker;
  options.sample_rows = context.layout_sample_rows;
  auto mode = args.second.find("mode");
  if (mode != args.second.end()) {
    if (mode->second.is_null() || mode->second.type().id != TypeId::kVarchar) {
      return Status::InvalidArgument("Binder Error: ", kLayoutExplain,
                                     ": mode => must be 'measured' or 'rules'");
    }
    TARN_ASSIGN_OR_RETURN(options.mode, ParsePickerMode(mode->second.GetBytes()));
  }
  auto sample = args.second.find("sample_rows");
  if (sample != args.second.end()) {
    if (sample->second.is_null() || !sample->second.type().IsInteger()) {
      return Status::InvalidArgument("Binder Error: ", kLayoutExplain,
                                     ": sample_rows => must be a row count");
    }
    TARN_ASSIGN_OR_RETURN(Value rows, expr::CastValue(sample->second, DataType(TypeId::kInt64)));
    options.sample_rows = rows.GetInt64();
  }
  const LakeBinding* binding = &lake;
  std::vector<std::string> names = args.first;
  std::string text(sql_text);
  const int32_t offset = ref.offset;
  auto compute = [binding, names, text, offset, options]() -> Result<std::shared_ptr<Batch>> {
    TARN_ASSIGN_OR_RETURN(auto table, LoadNamedTable(*binding, names, text, offset));
    PickerOptions pick = options;
    if (pick.mode == PickerMode::kMeasured) {
      const WriterProfile profile =
          ParseWriterProfile(binding->lake
                                 ->GetOption("parquet_profile", table->table->schema_id,
                                             table->table->table_id)
                                 .value_or("duckdb"))
              .ValueOr(WriterProfile::kReadOptimized);
      TARN_ASSIGN_OR_RETURN(pick.properties,
                            WriterPropertiesFor(profile, table->FileRowCount()));
    }
    Lake* target = binding->lake;
    std::shared_ptr<FileSystem> fs = binding->fs;
    RowSourceFactory rows = [target, fs, table]() -> Result<std::unique_ptr<BatchReader>> {
      TARN_ASSIGN_OR_RETURN(auto scan, OpenTableScan(*target, fs, table));
      return std::unique_ptr<BatchReader>(std::move(scan));
    };
    TARN_ASSIGN_OR_RETURN(SortKeyChoice choice, PickSortKey(rows, pick));
    return ExplainRows(choice);
  };
  return std::unique_ptr<Source>(std::make_unique<DeferredBatchSource>(
      StrCat("TABLE_FUNCTION ", kLayoutExplain),
      std::vector<Field>{TextField("kind"), TextField("key"), BigIntField("bytes"),
                         TextField("detail")},
      std::move(compute)));
}

}  // namespace

bool IsTarnFunction(std::string_view name) {
  const std::string lower = LowerAscii(std::string(name));
  return lower == kPublish || lower == kSweep || lower == kStats || lower == kTableStats ||
         lower == kLayoutExplain;
}

Result<std::unique_ptr<Source>> BindTarnFunction(const TableRef& ref, std::string_view sql_text,
                                                 const ExecContext& context) {
  const std::string name = LowerAscii(ref.names[0]);
  auto located = [&](const Status& status) {
    return Status(status.code(), FormatErrorAt(sql_text, status.message(), ref.offset));
  };
  Result<std::unique_ptr<Source>> bound = Status::Internal("unhandled ", name);
  // The lake a positional string argument of publish and sweep names (any attached one), else
  // the default lake.
  const LakeBinding* lake = context.lake;
  if (name == kPublish || name == kSweep) {
    for (const TableArg& arg : ref.args) {
      if (!arg.name.empty() || arg.is_list) continue;
      Result<Value> catalog = Constant(*arg.expr, name);
      if (!catalog.ok() || catalog->is_null() || catalog->type().id != TypeId::kVarchar) break;
      const LakeBinding* named = FindLake(context, catalog->GetBytes());
      if (named == nullptr) {
        return located(Status::NotFound("Catalog Error: catalog \"", catalog->GetBytes(),
                                        "\" does not exist"));
      }
      lake = named;
      break;
    }
  }
  if (name == kStats) {
    bound = BindStats(ref);
  } else if (lake == nullptr || lake->lake == nullptr || !lake->is_ducklake()) {
    return located(
        Status::InvalidArgument("Catalog Error: ", name, " needs an attached DuckLake lake"));
  } else if (name == kPublish) {
    bound = BindPublish(ref, *lake, context.Watch());
  } else if (name == kSweep) {
    bound = BindSweep(ref, *lake, context.Watch());
  } else if (name == kTableStats) {
    bound = BindTableStats(ref, sql_text, *lake);
  } else if (name == kLayoutExplain) {
    bound = BindLayoutExplain(ref, sql_text, context);
  }
  if (!bound.ok()) return located(bound.status());
  return bound;
}

}  // namespace tarn::sql
