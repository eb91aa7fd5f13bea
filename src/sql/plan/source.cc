#include "sql/plan/source.h"

#include <fnmatch.h>

#include <algorithm>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/eval/cast.h"
#include "expr/parse/lexer.h"
#include "sql/exec/scan_operators.h"
#include "sql/lake/ducklake_functions.h"
#include "sql/lake/lake_source.h"
#include "sql/lake/macros.h"
#include "sql/lake/maintenance_calls.h"
#include "sql/lake/metadata_tables.h"
#include "sql/lake/rows_source.h"
#include "sql/system/parquet_functions.h"
#include "sql/system/show.h"
#include "sql/system/system_tables.h"
#include "sql/system/tarn_functions.h"
#include "tarn/expr.h"

namespace tarn::sql {
namespace {

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool HasWildcard(std::string_view text) {
  return text.find_first_of("*?[") != std::string_view::npos;
}

// A table function argument's value: constant expressions only.
Result<Value> ConstantArg(const ast::Expr& expr, std::string_view function) {
  Schema empty;
  Result<std::unique_ptr<BoundExpr>> bound = Bind(expr, empty);
  if (!bound.ok()) {
    return Status::InvalidArgument("Binder Error: ", function,
                                   " arguments must be constants: ", bound.status().message());
  }
  if (!(*bound)->IsConstant()) {
    return Status::InvalidArgument("Binder Error: ", function, " argument \"", expr.ToString(),
                                   "\" must be a constant");
  }
  return (*bound)->EvaluateConstant();
}

Result<std::string> StringArg(const ast::Expr& expr, std::string_view function) {
  TARN_ASSIGN_OR_RETURN(Value value, ConstantArg(expr, function));
  if (value.is_null() || value.type().id != TypeId::kVarchar) {
    return Status::InvalidArgument("Binder Error: ", function, " expects a string, not \"",
                                   expr.ToString(), "\"");
  }
  return value.GetBytes();
}

Result<bool> BoolArg(const ast::Expr& expr, std::string_view function) {
  TARN_ASSIGN_OR_RETURN(Value value, ConstantArg(expr, function));
  if (value.is_null() || value.type().id != TypeId::kBoolean) {
    return Status::InvalidArgument("Binder Error: ", function, " expects a boolean, not \"",
                                   expr.ToString(), "\"");
  }
  return value.GetBool();
}

Result<int64_t> IntegerArg(const ast::Expr& expr, std::string_view function) {
  TARN_ASSIGN_OR_RETURN(Value value, ConstantArg(expr, function));
  if (value.is_null() || !value.type().IsInteger()) {
    return Status::InvalidArgument("Binder Error: ", function, " expects an integer, not \"",
                                   expr.ToString(), "\"");
  }
  TARN_ASSIGN_OR_RETURN(Value cast, expr::CastValue(value, DataType(TypeId::kInt64)));
  return cast.GetInt64();
}

// The files of a read_parquet / read_csv first argument: a glob or a list of globs.
Result<std::vector<std::string>> FileArgs(const TableArg& arg, std::string_view function,
                                          FileSystem* fs) {
  std::vector<std::string> patterns;
  if (arg.is_list) {
    for (const auto& element : arg.list) {
      TARN_ASSIGN_OR_RETURN(std::string pattern, StringArg(*element, function));
      patterns.push_back(std::move(pattern));
    }
  } else {
    // A string, or a list of strings from any constant expression (getvariable('files')).
    TARN_ASSIGN_OR_RETURN(Value value, ConstantArg(*arg.expr, function));
    const bool string_list = value.type().id == TypeId::kList &&
                             value.type().children[0].type.id == TypeId::kVarchar;
    if (!value.is_null() && string_list) {
      for (const Value& element : value.children()) {
        if (element.is_null()) {
          return Status::InvalidArgument("Binder Error: ", function, " got a NULL file name in \"",
                                         arg.expr->ToString(), "\"");
        }
        patterns.push_back(element.GetBytes());
      }
    } else {
      TARN_ASSIGN_OR_RETURN(std::string pattern, StringArg(*arg.expr, function));
      patterns.push_back(std::move(pattern));
    }
  }
  if (patterns.empty()) {
    return Status::InvalidArgument("Binder Error: ", function, " needs at least one file");
  }
  std::vector<std::string> files;
  for (const std::string& pattern : patterns) {
    TARN_ASSIGN_OR_RETURN(std::vector<std::string> matched, ExpandGlob(fs, pattern));
    files.insert(files.end(), matched.begin(), matched.end());
  }
  return files;
}

Status UnknownOption(std::string_view function, const std::string& name,
                     const std::vector<std::string>& known) {
  std::string message = StrCat("Binder Error: ", function, " has no option \"", name, "\"");
  std::vector<std::string> closest = expr::ClosestNames(name, known);
  if (!closest.empty()) message += "; did you mean \"" + closest[0] + "\"?";
  return Status::InvalidArgument(message);
}

Result<std::unique_ptr<Source>> BindReadParquet(const TableRef& ref, const ExecContext& context) {
  const std::string function = "read_parquet";
  if (ref.args.empty() || !ref.args[0].name.empty()) {
    return Status::InvalidArgument("Binder Error: read_parquet needs a file name or a list of files");
  }
  ParquetSourceOptions options;
  for (size_t i = 1; i < ref.args.size(); ++i) {
    const TableArg& arg = ref.args[i];
    std::string name = Lower(arg.name);
    if (name.empty()) {
      return Status::InvalidArgument("Binder Error: read_parquet takes one positional argument");
    }
    if (name == "file_row_number") {
      TARN_ASSIGN_OR_RETURN(options.file_row_number, BoolArg(*arg.expr, function));
    } else if (name == "filename") {
      TARN_ASSIGN_OR_RETURN(options.filename, BoolArg(*arg.expr, function));
    } else if (name == "hive_partitioning") {
      TARN_ASSIGN_OR_RETURN(bool hive, BoolArg(*arg.expr, function));
      options.hive_partitioning = hive;
    } else if (name == "binary_as_string") {
      TARN_ASSIGN_OR_RETURN(bool ignored, BoolArg(*arg.expr, function));
      (void)ignored;
    } else {
      return UnknownOption(function, arg.name,
                           {"file_row_number", "filename", "hive_partitioning",
                            "binary_as_string"});
    }
  }
  TARN_ASSIGN_OR_RETURN(options.files, FileArgs(ref.args[0], function, context.fs.get()));
  return OpenParquetSource(std::move(options), context);
}

Result<std::unique_ptr<Source>> BindReadCsv(const TableRef& ref, const ExecContext& context) {
  const std::string function = "read_csv";
  if (ref.args.empty() || !ref.args[0].name.empty()) {
    return Status::InvalidArgument("Binder Error: read_csv needs a file name");
  }
  CsvReadOptions options;
  for (size_t i = 1; i < ref.args.size(); ++i) {
    const TableArg& arg = ref.args[i];
    std::string name = Lower(arg.name);
    if (name == "header") {
      TARN_ASSIGN_OR_RETURN(options.header, BoolArg(*arg.expr, function));
    } else if (name == "delim" || name == "sep" || name == "delimiter" || name == "quote") {
      TARN_ASSIGN_OR_RETURN(std::string text, StringArg(*arg.expr, function));
      if (text.size() != 1) {
        return Status::InvalidArgument("Binder Error: read_csv option ", name,
                                       " must be one character, not '", text, "'");
      }
      (name == "quote" ? options.quote : options.delimiter) = text[0];
    } else if (name == "nullstr") {
      TARN_ASSIGN_OR_RETURN(options.null_text, StringArg(*arg.expr, function));
    } else if (name == "auto_detect") {
      TARN_ASSIGN_OR_RETURN(bool ignored, BoolArg(*arg.expr, function));
      (void)ignored;
    } else {
      return UnknownOption(function, arg.name.empty() ? "(positional)" : arg.name,
                           {"header", "delim", "sep", "quote", "nullstr", "auto_detect"});
    }
  }
  TARN_ASSIGN_OR_RETURN(std::vector<std::string> files,
                        FileArgs(ref.args[0], function, context.fs.get()));
  return OpenCsvSource(std::move(files), std::move(options), context);
}

// range(end), range(start, end[, step]): [start, end) by step; generate_series includes end
// (and names its column generate_series), as in DuckDB.
Result<std::unique_ptr<Source>> BindRange(const TableRef& ref, bool inclusive) {
  const char* function = inclusive ? "generate_series" : "range";
  std::vector<int64_t> values;
  for (const TableArg& arg : ref.args) {
    if (!arg.name.empty() || arg.is_list) {
      return Status::InvalidArgument("Binder Error: ", function,
                                     " takes 1 to 3 integer arguments");
    }
    TARN_ASSIGN_OR_RETURN(int64_t value, IntegerArg(*arg.expr, function));
    values.push_back(value);
  }
  if (values.empty() || values.size() > 3) {
    return Status::InvalidArgument("Binder Error: ", function,
                                   " takes 1 to 3 integer arguments, got ", values.size());
  }
  int64_t start = values.size() == 1 ? 0 : values[0];
  int64_t end = values.size() == 1 ? values[0] : values[1];
  int64_t step = values.size() == 3 ? values[2] : 1;
  if (step == 0) return Status::InvalidArgument("Binder Error: ", function, " step cannot be 0");
  return MakeRangeSource(start, end, step, function, inclusive);
}

// glob(pattern): the files the pattern matches, one row each (column `file`), sorted; none when
// nothing matches.
Result<std::unique_ptr<Source>> BindGlob(const TableRef& ref, const ExecContext& context) {
  if (ref.args.size() != 1 || !ref.args[0].name.empty() || ref.args[0].is_list) {
    return Status::InvalidArgument("Binder Error: glob takes one pattern");
  }
  TARN_ASSIGN_OR_RETURN(std::string pattern, StringArg(*ref.args[0].expr, "glob"));
  Result<std::vector<std::string>> files = ExpandGlob(context.fs.get(), pattern);
  if (!files.ok() && files.status().code() != StatusCode::kNotFound) return files.status();
  RowsBuilder rows({Field("file", DataType(TypeId::kVarchar))});
  if (files.ok()) {
    for (const std::string& file : *files) TARN_RETURN_NOT_OK(rows.Add({Value::Varchar(file)}));
  }
  return std::unique_ptr<Source>(std::make_unique<RowsSource>("TABLE_FUNCTION glob",
                                                              rows.Finish()));
}

}  // namespace

Result<std::vector<std::string>> ExpandGlob(FileSystem* fs, const std::string& pattern) {
  if (!HasWildcard(pattern)) {
    TARN_ASSIGN_OR_RETURN(bool exists, fs->Exists(pattern));
    if (!exists) {
      return Status::NotFound("IO Error: No files found that match the pattern \"", pattern,
                              "\"");
    }
    return std::vector<std::string>{pattern};
  }
  // List below the last directory before the first wildcard.
  size_t wildcard = pattern.find_first_of("*?[");
  size_t slash = pattern.rfind('/', wildcard);
  std::string dir = slash == std::string::npos ? "." : pattern.substr(0, slash == 0 ? 1 : slash);
  bool recursive = pattern.find('/', wildcard) != std::string::npos ||
                   pattern.find("**") != std::string::npos;
  auto listed = fs->List(dir, recursive);
  if (!listed.ok()) {
    return Status::NotFound("IO Error: No files found that match the pattern \"", pattern,
                            "\"");
  }
  bool any_depth = pattern.find("**") != std::string::npos;
  // "/**/" also stands for no folder at all, as DuckDB's glob takes it ("d/**/*" matches d/f).
  std::string no_folder = pattern;
  for (size_t at = no_folder.find("/**/"); at != std::string::npos;
       at = no_folder.find("/**/", at)) {
    no_folder.replace(at, 4, "/");
  }
  std::vector<std::string> files;
  for (const FileInfo& info : *listed) {
    if (info.is_directory) continue;
    std::string path = info.path;
    if (slash == std::string::npos && path.rfind("./", 0) == 0) path = path.substr(2);
    if (fnmatch(pattern.c_str(), path.c_str(), any_depth ? 0 : FNM_PATHNAME) == 0 ||
        (any_depth && fnmatch(no_folder.c_str(), path.c_str(), FNM_PATHNAME) == 0)) {
      files.push_back(path);
    }
  }
  if (files.empty()) {
    return Status::NotFound("IO Error: No files found that match the pattern \"", pattern,
                            "\"");
  }
  std::sort(files.begin(), files.end());
  return files;
}

Result<std::unique_ptr<Source>> BindTableRef(const TableRef& ref, std::string_view sql_text,
                                             const ExecContext& context) {
  if (ref.kind == TableRef::Kind::kFile) {
    TableRef call;
    call.kind = TableRef::Kind::kFunction;
    TableArg arg;
    arg.expr = ast::MakeLiteral(ast::LiteralKind::kString, ref.file);
    call.args.push_back(std::move(arg));
    std::string lower = Lower(ref.file);
    bool csv = lower.size() >= 4 && (lower.ends_with(".csv") || lower.ends_with(".tsv") ||
                                     lower.ends_with(".csv.gz"));
    return csv ? BindReadCsv(call, context) : BindReadParquet(call, context);
  }
  if (ref.kind == TableRef::Kind::kFunction) {
    std::string name = Lower(ref.names[0]);
    if (name == "read_parquet" || name == "parquet_scan") return BindReadParquet(ref, context);
    if (name == "read_csv" || name == "read_csv_auto") return BindReadCsv(ref, context);
    if (IsMaintenanceCallName(name)) {
      Status is_lake = CheckFirstArgumentIsLake(ref, context);
      Result<std::shared_ptr<Batch>> rows =
          is_lake.ok() ? RunMaintenanceCall(ref, name, LakeOfFirstArgument(ref, context),
                                            context.Watch())
                       : Result<std::shared_ptr<Batch>>(is_lake);
      if (!rows.ok()) {
        return Status(rows.status().code(),
                      FormatErrorAt(sql_text, rows.status().message(), ref.offset));
      }
      return std::unique_ptr<Source>(
          std::make_unique<RowsSource>(StrCat("TABLE_FUNCTION ", name), std::move(*rows)));
    }
    if (IsDucklakeFunction(name)) return BindDucklakeFunction(ref, sql_text, context);
    if (IsTarnFunction(name)) return BindTarnFunction(ref, sql_text, context);
    if (IsSystemTableFunction(name)) return BindSystemTableFunction(ref, sql_text, context);
    if (name == "glob") return BindGlob(ref, context);
    if (name == "#describe") {  // (DESCRIBE …), (SHOW name)
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows,
                            DescribeRows(*ref.subquery, sql_text, context));
      return std::unique_ptr<Source>(std::make_unique<RowsSource>("DESCRIBE", std::move(rows)));
    }
    if (name == "#show_tables" || name == "#show_all_tables") {  // (SHOW [ALL] TABLES)
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows,
                            ShowTables(name == "#show_all_tables", context));
      return std::unique_ptr<Source>(std::make_unique<RowsSource>("SHOW_TABLES", std::move(rows)));
    }
    if (IsParquetMetadataFunction(name)) {
      if (ref.args.size() != 1 || !ref.args[0].name.empty()) {
        return Status::InvalidArgument("Binder Error: ", name, " takes one file pattern or a "
                                       "list of them");
      }
      TARN_ASSIGN_OR_RETURN(std::vector<std::string> files,
                            FileArgs(ref.args[0], name, context.fs.get()));
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows,
                            ParquetMetadataFunction(name, files, context.fs));
      return std::unique_ptr<Source>(
          std::make_unique<RowsSource>(StrCat("TABLE_FUNCTION ", name), std::move(rows)));
    }
    if (name == "range" || name == "generate_series") {
      return BindRange(ref, name == "generate_series");
    }
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<Source> macro, BindTableMacro(ref, sql_text, context));
    if (macro) return macro;
    std::string message = FormatErrorAt(
        sql_text, StrCat("Catalog Error: table function \"", ref.names[0], "\" does not exist"),
        ref.offset);
    std::vector<std::string> closest = expr::ClosestNames(
        name, {"read_parquet", "parquet_scan", "read_csv", "read_csv_auto", "range",
               "ducklake_snapshots", "ducklake_table_info", "ducklake_list_files",
               "ducklake_table_changes", "ducklake_options"});
    if (!closest.empty()) message += "\nDid you mean \"" + closest[0] + "\"?";
    return Status::NotFound(message);
  }
  // DuckDB's information_schema, a table of a lake's catalog database, of an attached lake,
  // else of the SqlCatalog.
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Source> information,
                        BindInformationSchema(ref, sql_text, context));
  if (information) return information;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Source> metadata,
                        BindMetadataTable(ref, sql_text, context));
  if (metadata) return metadata;
  // "memory.t" or "temp.t" before the statement that creates that database: nothing there.
  const bool empty_builtin = ref.names.size() >= 2 && IsBuiltinDatabaseName(ref.names[0]) &&
                             FindLake(context, ref.names[0]) == nullptr;
  if (!empty_builtin && LakeOfNames(ref.names, context) != nullptr) {
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<Source> lake_table,
                          BindLakeTableRef(ref, sql_text, context));
    if (lake_table) return lake_table;
  }
  // The SqlCatalog's tables are memory.main's: t (while memory is the default database),
  // main.t, memory.t, memory.main.t.
  const bool memory_default = context.lake == nullptr || context.lake->kind == DatabaseKind::kMemory;
  const std::vector<std::string>& names = ref.names;
  const bool memory_main =
      (names.size() == 1 && memory_default) ||
      (names.size() == 2 && (Lower(names[0]) == "memory" ||
                             (Lower(names[0]) == "main" && memory_default))) ||
      (names.size() == 3 && Lower(names[0]) == "memory" && Lower(names[1]) == "main");
  const std::string& name = ref.names.back();
  const SqlTable* table =
      context.catalog != nullptr && memory_main ? context.catalog->FindTable(name) : nullptr;
  if (table == nullptr) {
    std::vector<std::string> known = context.catalog ? context.catalog->TableNames()
                                                     : std::vector<std::string>();
    for (const LakeBinding* database : {FindLake(context, "temp"), context.lake}) {
      if (database == nullptr) continue;
      Result<std::shared_ptr<const LakeSnapshot>> snapshot =
          LoadLakeSnapshot(*database, std::nullopt, sql_text, ref.offset);
      if (snapshot.ok()) {
        for (std::string& lake_name : LakeObjectNames(**snapshot)) {
          known.push_back(std::move(lake_name));
        }
      }
    }
    return TableNotFound(ref, sql_text, known);
  }
  if (ref.at.has_value()) {
    return Status::InvalidArgument(FormatErrorAt(
        sql_text, "Binder Error: Catalog type does not support time travel", ref.offset));
  }
  return MakeCatalogSource(name, table, context);
}

std::unique_ptr<Operator> WatchSource(std::unique_ptr<Operator> op, const Source& source,
                                      const ExecContext& context) {
  if (source.ReportsProgress()) return MakeInterruptible(std::move(op), context.interrupted);
  return MakeWatchedSource(std::move(op), context, source.EstimatedRows());
}

}  // namespace tarn::sql
