#include "sql/lake/maintenance_calls.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/inlined_text.h"
#include "expr/eval/cast.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/lake_maintenance.h"
#include "tarn/table_write.h"

namespace tarn::sql {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string CallName(const Statement& statement) {
  if (statement.kind != StatementKind::kCall || !statement.select ||
      statement.select->from.names.empty()) {
    return "";
  }
  return Lower(statement.select->from.names.back());
}

Result<Value> Constant(const ast::Expr& expr, const std::string& function) {
  Schema empty;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<BoundExpr> bound, Bind(expr, empty));
  if (!bound->IsConstant()) {
    return Status::InvalidArgument("Binder Error: ", function, " arguments must be constants, not \"",
                                   expr.ToString(), "\"");
  }
  return bound->EvaluateConstant();
}

std::string Text(const Value& v) {
  return v.type().id == TypeId::kVarchar ? v.GetBytes() : FormatValue(v);
}

// A named argument as the parameter's type, cast as DuckDB casts it (1 is true, '0.5' is 0.5);
// a value that does not convert is the cast's Conversion Error.
Result<Value> ArgumentAs(const Value& v, TypeId type, const std::string& what) {
  if (v.type().id == type) return v;
  if (v.type().IsNested() || v.type().id == TypeId::kBlob) {
    return Status::InvalidArgument("Binder Error: ", what, " must be a ",
                                   DataType(type).ToString(), ", not ", v.type().ToString());
  }
  return expr::CastValue(v, DataType(type));
}

Result<double> Number(const Value& v, const std::string& what) {
  TARN_ASSIGN_OR_RETURN(Value number, ArgumentAs(v, TypeId::kFloat64, what));
  return number.GetDouble();
}

Result<bool> Bool(const Value& v, const std::string& what) {
  TARN_ASSIGN_OR_RETURN(Value flag, ArgumentAs(v, TypeId::kBoolean, what));
  return flag.GetBool();
}

Result<int64_t> Micros(const Value& v) {
  Result<int64_t> micros = ParseCatalogTimestamp(Text(v));
  if (!micros.ok()) {
    return Status::InvalidArgument("Invalid Input Error: older_than must be a timestamp, not ",
                                   FormatValue(v));
  }
  return micros;
}

std::shared_ptr<Batch> TextRows(const std::string& name, const std::vector<std::string>& rows) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field(name, DataType(TypeId::kVarchar))});
  ColumnBuilder column{DataType(TypeId::kVarchar)};
  for (const std::string& r : rows) column.AppendBytes(r);
  auto batch = MakeBatch(schema, {column.Finish()});
  batch->num_rows = static_cast<int64_t>(rows.size());
  return batch;
}

// ducklake_expire_snapshots, ducklake_cleanup_old_files, ducklake_delete_orphaned_files.
Result<std::shared_ptr<Batch>> RunCatalogCall(const TableRef& call, const std::string& function,
                                              const LakeBinding* lake) {
  const bool expire = function == "ducklake_expire_snapshots";
  ExpireSnapshotsOptions expire_options;
  CleanupOptions cleanup;
  std::vector<Value> positional;
  for (const TableArg& arg : call.args) {
    const std::string name = Lower(arg.name);
    if (arg.is_list) {
      if (!(expire && name == "versions")) {
        return Status::InvalidArgument("Binder Error: ", function, " takes no lists");
      }
      for (const auto& item : arg.list) {
        TARN_ASSIGN_OR_RETURN(Value v, Constant(*item, function));
        if (!v.type().IsInteger()) {
          return Status::InvalidArgument("Binder Error: versions must be snapshot ids");
        }
        TARN_ASSIGN_OR_RETURN(Value id, ArgumentAs(v, TypeId::kInt64, "versions"));
        expire_options.versions.push_back(id.GetInt64());
      }
      continue;
    }
    TARN_ASSIGN_OR_RETURN(Value value, Constant(*arg.expr, function));
    if (name.empty()) {
      positional.push_back(std::move(value));
    } else if (value.is_null()) {
      continue;
    } else if (name == "older_than") {
      TARN_ASSIGN_OR_RETURN(int64_t micros, Micros(value));
      expire_options.older_than_micros = micros;
      cleanup.older_than_micros = micros;
    } else if (name == "dry_run") {
      TARN_ASSIGN_OR_RETURN(bool dry_run, Bool(value, name));
      expire_options.dry_run = cleanup.dry_run = dry_run;
    } else if (name == "cleanup_all" && !expire) {
      TARN_ASSIGN_OR_RETURN(cleanup.cleanup_all, Bool(value, name));
    } else {
      return Status::InvalidArgument("Binder Error: ", function, " has no named parameter \"",
                                     arg.name, "\"");
    }
  }
  if (positional.size() != 1 || positional[0].is_null() ||
      Lower(Text(positional[0])) != Lower(lake->name)) {
    return Status::InvalidArgument("Binder Error: ", function, " takes the catalog name \"",
                                   lake->name, "\"");
  }
  Lake& target = *lake->lake;
  // Without older_than (and, for expire, without versions) the lake's expire_older_than /
  // delete_older_than option says how old, as the extension takes it: now minus the interval.
  auto cutoff_from_option = [&](const char* key) -> Result<std::optional<int64_t>> {
    std::optional<std::string> text = target.GetOption(key, std::nullopt, std::nullopt);
    if (!text || text->empty()) return std::optional<int64_t>();
    Interval interval;
    if (!catalog_internal::ParseIntervalText(*text, &interval)) {
      return Status::InvalidArgument("Invalid Input Error: the lake's option ", key, " is '",
                                     *text, "', not an interval");
    }
    const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    const int64_t micros = (static_cast<int64_t>(interval.months) * 30 + interval.days) *
                               86400LL * 1000000 +
                           interval.nanos / 1000;
    return std::optional<int64_t>(now - micros);
  };
  if (expire && !expire_options.older_than_micros && expire_options.versions.empty()) {
    TARN_ASSIGN_OR_RETURN(expire_options.older_than_micros,
                          cutoff_from_option("expire_older_than"));
  }
  if (!expire && !cleanup.older_than_micros) {
    TARN_ASSIGN_OR_RETURN(std::optional<int64_t> cutoff, cutoff_from_option("delete_older_than"));
    if (cutoff) cleanup.older_than_micros = cutoff;
  }
  if (expire) {
    TARN_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> expired,
                          ExpireSnapshots(target, expire_options));
    auto schema = std::make_shared<Schema>(
        std::vector<Field>{Field("snapshot_id", DataType(TypeId::kInt64)),
                           Field("snapshot_time", DataType(TypeId::kVarchar))});
    ColumnBuilder ids{DataType(TypeId::kInt64)}, times{DataType(TypeId::kVarchar)};
    for (const SnapshotInfo& s : expired) {
      ids.AppendNumber<int64_t>(s.snapshot_id);
      times.AppendBytes(s.snapshot_time_text);
    }
    auto batch = MakeBatch(schema, {ids.Finish(), times.Finish()});
    batch->num_rows = static_cast<int64_t>(expired.size());
    return batch;
  }
  Result<std::vector<std::string>> paths =
      function == "ducklake_cleanup_old_files"
          ? CleanupOldFiles(target, lake->fs, cleanup)
          : DeleteOrphanedFiles(target, lake->fs, cleanup);
  TARN_RETURN_NOT_OK(paths.status());
  return TextRows("path", *paths);
}

// A compaction argument (UBIGINT, as the extension declares them; -1 is the cast's Conversion
// Error) that may not be NULL.
Result<std::optional<uint64_t>> Unsigned(const std::map<std::string, Value>& arguments,
                                         const std::string& name) {
  auto it = arguments.find(name);
  if (it == arguments.end()) return std::optional<uint64_t>();
  if (it->second.is_null()) {
    return Status::InvalidArgument("Binder Error: The ", name,
                                   " option must be a non-null integer.");
  }
  TARN_ASSIGN_OR_RETURN(Value number, ArgumentAs(it->second, TypeId::kUInt64, name));
  return std::optional<uint64_t>(number.GetUInt64());
}

// max_compacted_files, min_file_size and max_file_size checked as the extension checks them.
Status ReadCompactionArguments(const std::map<std::string, Value>& arguments,
                               MaintenanceOptions* options) {
  TARN_ASSIGN_OR_RETURN(std::optional<uint64_t> max_files,
                        Unsigned(arguments, "max_compacted_files"));
  if (max_files && *max_files == 0) {
    return Status::InvalidArgument(
        "Binder Error: The max_compacted_files option must be greater than zero.");
  }
  options->max_compacted_files = max_files;
  TARN_ASSIGN_OR_RETURN(std::optional<uint64_t> min_size, Unsigned(arguments, "min_file_size"));
  TARN_ASSIGN_OR_RETURN(std::optional<uint64_t> max_size, Unsigned(arguments, "max_file_size"));
  if (max_size && *max_size == 0) {
    return Status::InvalidArgument(
        "Binder Error: The max_file_size option must be greater than zero.");
  }
  if (min_size && max_size && *min_size >= *max_size) {
    return Status::InvalidArgument("Binder Error: The min_file_size must be less than "
                                   "max_file_size.");
  }
  // Sizes past INT64_MAX bound nothing a file can reach.
  constexpr uint64_t kLargest = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (min_size) options->min_file_size = static_cast<int64_t>(std::min(*min_size, kLargest));
  if (max_size) options->max_file_size = static_cast<int64_t>(std::min(*max_size, kLargest));
  return Status::OK();
}

}  // namespace

bool IsMaintenanceCallName(std::string_view function) {
  const std::string name = Lower(std::string(function));
  return name == "ducklake_flush_inlined_data" || name == "ducklake_merge_adjacent_files" ||
         name == "ducklake_rewrite_data_files" || name == "ducklake_expire_snapshots" ||
         name == "ducklake_cleanup_old_files" || name == "ducklake_delete_orphaned_files";
}

bool IsMaintenanceCall(const Statement& statement) {
  return IsMaintenanceCallName(CallName(statement));
}

Result<std::shared_ptr<Batch>> RunMaintenanceCall(const Statement& statement, LakeState* lake,
                                                  const WorkWatch& watch) {
  return RunMaintenanceCall(statement.select->from, statement.what,
                            lake != nullptr ? &lake->binding : nullptr, watch);
}

Result<std::shared_ptr<Batch>> RunMaintenanceCall(const TableRef& call, std::string_view what,
                                                  const LakeBinding* lake,
                                                  const WorkWatch& watch) {
  const std::string function = Lower(call.names.back());
  if (lake != nullptr && !lake->is_ducklake()) return NotADuckLake(lake->name);
  if (lake == nullptr || lake->lake == nullptr) {
    return Status::NotSupported("not yet supported: ", what,
                                " needs an attached DuckLake lake");
  }
  if (lake->read_only) {
    return Status::InvalidArgument("Invalid Input Error: cannot run ", what,
                                   ": the lake \"", lake->name, "\" is attached read-only");
  }
  if (function == "ducklake_expire_snapshots" || function == "ducklake_cleanup_old_files" ||
      function == "ducklake_delete_orphaned_files") {
    if (lake->transaction) {
      return Status::NotSupported("not yet supported: ", function,
                                  " inside a transaction: run it after COMMIT");
    }
    return RunCatalogCall(call, function, lake);
  }
  const bool flush = function == "ducklake_flush_inlined_data";
  const bool rewrite = function == "ducklake_rewrite_data_files";
  std::vector<Value> positional;
  MaintenanceOptions options;
  if (lake->settings != nullptr) {
    options.session = *lake->settings;
    options.commit.max_retries = lake->settings->max_retries;
    options.commit.retry_wait_ms = lake->settings->retry_wait_ms;
    options.commit.retry_backoff = lake->settings->retry_backoff;
  }
  // The compaction sizes and bound, checked after every argument is read, in the extension's
  // order.
  std::map<std::string, Value> compaction_arguments;
  for (const TableArg& arg : call.args) {
    if (arg.is_list) return Status::InvalidArgument("Binder Error: ", function, " takes no lists");
    TARN_ASSIGN_OR_RETURN(Value value, Constant(*arg.expr, function));
    const std::string name = Lower(arg.name);
    if (name.empty()) {
      positional.push_back(std::move(value));
    } else if (!flush && (name == "max_compacted_files" ||
                          (!rewrite && (name == "min_file_size" || name == "max_file_size")))) {
      compaction_arguments[name] = std::move(value);
    } else if (value.is_null()) {
      continue;
    } else if (name == "schema" || name == "schema_name") {
      options.schema = Text(value);
    } else if (name == "table_name" && flush) {
      options.table = Text(value);
    } else if (name == "delete_threshold" && rewrite) {
      TARN_ASSIGN_OR_RETURN(double threshold, Number(value, name));
      options.delete_threshold = threshold;
      if (threshold < 0 || threshold > 1) {
        return Status::InvalidArgument("Invalid Input Error: delete_threshold must be between 0 "
                                       "and 1");
      }
    } else {
      return Status::InvalidArgument("Binder Error: ", function, " has no named parameter \"",
                                     arg.name, "\"");
    }
  }
  TARN_RETURN_NOT_OK(ReadCompactionArguments(compaction_arguments, &options));
  // A catalog method written without its catalog (merge_adjacent_files()) works on the
  // default lake, as in DuckDB after USE.
  if (positional.empty()) positional.push_back(Value::Varchar(lake->name));
  if (positional.size() > (flush ? 1u : 2u)) {
    return Status::InvalidArgument("Binder Error: ", function,
                                   " takes the catalog name", flush ? "" : " and optionally a table");
  }
  if (positional[0].is_null() || Lower(Text(positional[0])) != Lower(lake->name)) {
    return Status::NotFound("Catalog Error: catalog \"", FormatValue(positional[0]),
                            "\" does not exist; the attached lake is \"", lake->name,
                            "\"");
  }
  if (positional.size() == 2 && !positional[1].is_null()) options.table = Text(positional[1]);

  options.watch = watch;
  Lake& target = *lake->lake;
  // Inside BEGIN ... COMMIT the procedure's changes become part of the transaction's commit.
  WriteTransaction* txn = lake->transaction;
  if (txn != nullptr) txn->SetWorkWatch(watch);
  Result<MaintenanceResult> result =
      txn != nullptr
          ? (flush ? txn->FlushInlinedData(options)
                   : rewrite ? txn->RewriteDataFiles(options) : txn->MergeAdjacentFiles(options))
          : (flush ? FlushInlinedData(target, lake->fs, options)
                   : rewrite ? RewriteDataFiles(target, lake->fs, options)
                             : MergeAdjacentFiles(target, lake->fs, options));
  TARN_RETURN_NOT_OK(result.status());

  std::vector<Field> fields = {Field("schema_name", DataType(TypeId::kVarchar)),
                               Field("table_name", DataType(TypeId::kVarchar))};
  if (flush) {
    fields.emplace_back("rows_flushed", DataType(TypeId::kInt64));
  } else {
    fields.emplace_back("files_processed", DataType(TypeId::kInt64));
    fields.emplace_back("files_created", DataType(TypeId::kInt64));
  }
  auto schema = std::make_shared<Schema>(std::move(fields));
  ColumnBuilder schemas{DataType(TypeId::kVarchar)}, tables{DataType(TypeId::kVarchar)},
      a{DataType(TypeId::kInt64)}, b{DataType(TypeId::kInt64)};
  for (const MaintenanceTableResult& t : result->tables) {
    schemas.AppendBytes(t.schema_name);
    tables.AppendBytes(t.table_name);
    a.AppendNumber<int64_t>(flush ? t.rows_flushed : t.files_processed);
    b.AppendNumber<int64_t>(t.files_created);
  }
  std::vector<std::shared_ptr<Column>> columns = {schemas.Finish(), tables.Finish(), a.Finish()};
  if (!flush) columns.push_back(b.Finish());
  auto batch = MakeBatch(schema, std::move(columns));
  batch->num_rows = static_cast<int64_t>(result->tables.size());
  return batch;
}

}  // namespace tarn::sql
