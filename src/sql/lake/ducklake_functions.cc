#include "sql/lake/ducklake_functions.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/eval/cast.h"
#include "expr/parse/lexer.h"
#include "sql/lake/lake_source.h"
#include "sql/lake/rows_source.h"
#include "sql/plan/names.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/table.h"

namespace tarn::sql {
namespace {

struct FunctionSpec {
  const char* name;
  int arguments;  // positional arguments, the catalog included
  std::vector<std::string> named;
};

const std::vector<FunctionSpec>& Specs() {
  static const std::vector<FunctionSpec> kSpecs = {
      {"ducklake_snapshots", 1, {}},
      {"ducklake_current_snapshot", 1, {}},
      {"ducklake_last_committed_snapshot", 1, {}},
      {"ducklake_table_info", 1, {}},
      {"ducklake_options", 1, {}},
      {"ducklake_list_files", 2, {"schema", "snapshot_version", "snapshot_time"}},
      {"ducklake_table_insertions", 5, {}},
      {"ducklake_table_deletions", 5, {}},
      {"ducklake_table_changes", 5, {}},
  };
  return kSpecs;
}

const FunctionSpec* FindSpec(std::string_view name) {
  for (const FunctionSpec& spec : Specs()) {
    if (LowerAscii(std::string(name)) == spec.name) return &spec;
  }
  return nullptr;
}

struct Arguments {
  std::vector<Value> positional;  // without the catalog
  std::map<std::string, Value> named;  // lower-case names
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

Result<Arguments> EvaluateArguments(const TableRef& ref, const FunctionSpec& spec,
                                    const LakeBinding& lake) {
  Arguments args;
  for (const TableArg& arg : ref.args) {
    if (arg.is_list) {
      return Status::InvalidArgument("Binder Error: ", spec.name, " takes no list arguments");
    }
    TARN_ASSIGN_OR_RETURN(Value value, Constant(*arg.expr, spec.name));
    if (arg.name.empty()) {
      if (!args.named.empty()) {
        return Status::InvalidArgument("Binder Error: ", spec.name,
                                       ": positional arguments come before named ones");
      }
      args.positional.push_back(std::move(value));
      continue;
    }
    std::string name = LowerAscii(arg.name);
    if (std::find(spec.named.begin(), spec.named.end(), name) == spec.named.end()) {
      std::string message =
          StrCat("Binder Error: ", spec.name, " has no named parameter \"", arg.name, "\"");
      std::vector<std::string> closest = expr::ClosestNames(name, spec.named);
      if (!closest.empty()) message += "; did you mean \"" + closest[0] + "\"?";
      return Status::InvalidArgument(message);
    }
    args.named[name] = std::move(value);
  }
  const int given = static_cast<int>(args.positional.size());
  if (given == spec.arguments) {
    // The first argument is the catalog.
    const Value& catalog = args.positional[0];
    if (catalog.is_null() || catalog.type().id != TypeId::kVarchar) {
      return Status::InvalidArgument("Binder Error: ", spec.name,
                                     ": the catalog argument must be a string such as '",
                                     lake.name, "'");
    }
    if (LowerAscii(catalog.GetBytes()) != LowerAscii(lake.name)) {
      return Status::NotFound("Catalog Error: catalog \"", catalog.GetBytes(),
                              "\" does not exist; the attached lake is \"", lake.name, "\"");
    }
    args.positional.erase(args.positional.begin());
  } else if (given != spec.arguments - 1) {
    return Status::InvalidArgument("Binder Error: ", spec.name, " takes ", spec.arguments,
                                   " positional argument", spec.arguments == 1 ? "" : "s",
                                   " (the catalog name first, which may be left out), got ",
                                   given);
  }
  return args;
}

Result<std::string> TextArgument(const Value& value, std::string_view function,
                                 std::string_view what) {
  if (value.is_null() || value.type().id != TypeId::kVarchar) {
    return Status::InvalidArgument("Binder Error: ", function, ": ", what,
                                   " must be a string, not ", FormatValue(value));
  }
  return value.GetBytes();
}

// A snapshot bound of a change feed: an id, or a time (lower: the first snapshot at or after
// it; upper: the last at or before it).
Result<int64_t> SnapshotBound(Lake& lake, const Value& value, bool lower,
                              std::string_view function) {
  if (value.is_null()) {
    return Status::InvalidArgument("Binder Error: ", function,
                                   ": a snapshot bound cannot be NULL");
  }
  if (value.type().IsInteger()) {
    TARN_ASSIGN_OR_RETURN(Value id, expr::CastValue(value, DataType(TypeId::kInt64)));
    return id.GetInt64();
  }
  int64_t micros = 0;
  if (value.type().id == TypeId::kVarchar) {
    Result<int64_t> parsed = ParseCatalogTimestamp(value.GetBytes());
    if (!parsed.ok()) {
      return Status::InvalidArgument("Binder Error: ", function, ": '", value.GetBytes(),
                                     "' is neither a snapshot id nor a timestamp");
    }
    micros = *parsed;
  } else if (value.type().id == TypeId::kTimestamp || value.type().id == TypeId::kTimestampTz) {
    micros = value.GetInt64();
  } else if (value.type().id == TypeId::kDate) {  // its midnight
    TARN_ASSIGN_OR_RETURN(Value time, expr::CastValue(value, DataType(TypeId::kTimestamp)));
    micros = time.GetInt64();
  } else {
    return Status::InvalidArgument("Binder Error: ", function,
                                   ": a snapshot bound is a BIGINT or a TIMESTAMPTZ, not ",
                                   value.type().ToString());
  }
  TARN_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> snapshots, lake.ListSnapshots());
  if (lower) {
    for (const SnapshotInfo& snapshot : snapshots) {
      if (snapshot.snapshot_time_micros >= micros) return snapshot.snapshot_id;
    }
  } else {
    for (auto it = snapshots.rbegin(); it != snapshots.rend(); ++it) {
      if (it->snapshot_time_micros <= micros) return it->snapshot_id;
    }
  }
  return Status::NotFound("Catalog Error: no snapshot ", lower ? "at or after " : "at or before ",
                          FormatValue(value));
}

// The display form of a changes_made value: "main"."t" → main.t, "s" → s, 3 → 3; a name
// that needs quotes in DuckDB (a keyword: "simple") keeps them, as the extension shows it.
std::string DisplayName(std::string_view value) {
  std::string out, part;
  bool quoted = false, any = false;
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (quoted) {
      if (c == '"' && i + 1 < value.size() && value[i + 1] == '"') {
        part += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        part += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == '.') {
      out += (any ? "." : "") + ast::DuckDBIdentifier(part);
      part.clear();
      any = true;
    } else {
      part += c;
    }
  }
  return out + (any ? "." : "") + (any || value.find('"') != std::string_view::npos
                                       ? ast::DuckDBIdentifier(part)
                                       : part);
}

// changes_made → the extension's MAP(VARCHAR, VARCHAR[]) value.
Value ChangesValue(const std::optional<std::string>& changes_made) {
  // token → (display key, whether the values are ids sorted numerically)
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kKeys = {
      {"schemas_created", {"created_schema"}},
      {"schemas_dropped", {"dropped_schema"}},
      {"tables_created", {"created_table"}},
      {"views_created", {"created_view"}},
      {"scalar_macros_created", {"created_scalar_macro"}},
      {"table_macros_created", {"created_table_macro"}},
      {"tables_dropped", {"dropped_table"}},
      {"tables_altered", {"altered_table"}},
      {"tables_inserted_into", {"inserted_into_table"}},
      {"tables_deleted_from", {"deleted_from_table"}},
      {"views_dropped", {"dropped_view"}},
      {"scalar_macros_dropped", {"dropped_scalar_macro"}},
      {"table_macros_dropped", {"dropped_table_macro"}},
      {"views_altered", {"altered_view"}},
      {"inlined_insert", {"inlined_insert"}},
      {"inlined_delete", {"inlined_delete"}},
      {"flushed_inlined", {"flushed_inlined", "inline_flush"}},
      {"merge_adjacent", {"merge_adjacent"}},
      {"rewrite_delete", {"rewrite_delete"}},
  };
  std::multimap<std::string, std::string> tokens;
  if (changes_made) {
    const std::string& text = *changes_made;
    size_t i = 0;
    while (i < text.size()) {
      size_t colon = text.find(':', i);
      if (colon == std::string::npos) break;
      std::string key = text.substr(i, colon - i);
      size_t j = colon + 1;
      bool quoted = false;
      while (j < text.size() && (quoted || text[j] != ',')) {
        if (text[j] == '"') quoted = !quoted;
        ++j;
      }
      tokens.emplace(key, text.substr(colon + 1, j - colon - 1));
      i = j + 1;
    }
  }
  DataType list_type = DataType::List(DataType(TypeId::kVarchar));
  DataType map_type = DataType::Map(DataType(TypeId::kVarchar), list_type);
  const DataType& entry_type = map_type.children[0].type;
  std::vector<Value> entries;
  for (const auto& [display, names] : kKeys) {
    std::vector<std::string> values;
    // Ids in numeric order when every value is one (a damaged catalog may hold any text).
    std::set<int64_t> ids;
    bool numeric = true;
    for (const std::string& name : names) {
      auto range = tokens.equal_range(name);
      for (auto it = range.first; it != range.second; ++it) {
        const std::string& value = it->second;
        values.push_back(value);
        int64_t id = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), id);
        numeric = numeric && !value.empty() && value[0] != '-' && error == std::errc() &&
                  end == value.data() + value.size();
        if (numeric) ids.insert(id);
      }
    }
    if (values.empty()) continue;
    if (numeric) {
      values.clear();
      for (int64_t id : ids) values.push_back(std::to_string(id));
    } else {
      for (std::string& value : values) value = DisplayName(value);
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
    }
    std::vector<Value> list;
    for (std::string& value : values) list.push_back(Value::Varchar(std::move(value)));
    entries.push_back(Value::Nested(
        entry_type, {Value::Varchar(display), Value::Nested(list_type, std::move(list))}));
  }
  return Value::Nested(map_type, std::move(entries));
}

// Builds a batch row by row from Values.

Value Text(const std::optional<std::string>& text) {
  return text ? Value::Varchar(*text) : Value::Null(DataType(TypeId::kVarchar));
}
Value BigInt(int64_t v) { return Value::Int64(v); }
Value UBigInt(int64_t v) { return Value::UInt(DataType(TypeId::kUInt64), static_cast<uint64_t>(v)); }

Result<std::shared_ptr<Batch>> Snapshots(Lake& lake) {
  RowsBuilder rows({Field("snapshot_id", DataType(TypeId::kInt64)),
                    Field("snapshot_time", DataType(TypeId::kTimestampTz)),
                    Field("schema_version", DataType(TypeId::kInt64)),
                    Field("changes", DataType::Map(DataType(TypeId::kVarchar),
                                                   DataType::List(DataType(TypeId::kVarchar)))),
                    Field("author", DataType(TypeId::kVarchar)),
                    Field("commit_message", DataType(TypeId::kVarchar)),
                    Field("commit_extra_info", DataType(TypeId::kVarchar))});
  TARN_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> snapshots, lake.ListSnapshots());
  for (const SnapshotInfo& s : snapshots) {
    TARN_RETURN_NOT_OK(rows.Add({BigInt(s.snapshot_id),
                                 Value::Int(DataType(TypeId::kTimestampTz), s.snapshot_time_micros),
                                 BigInt(s.schema_version), ChangesValue(s.changes_made),
                                 Text(s.author), Text(s.commit_message),
                                 Text(s.commit_extra_info)}));
  }
  return rows.Finish();
}

Result<std::shared_ptr<Batch>> SnapshotId(int64_t id) {
  RowsBuilder rows({Field("id", DataType(TypeId::kUInt64))});
  TARN_RETURN_NOT_OK(rows.Add({UBigInt(id)}));
  return rows.Finish();
}

Result<std::shared_ptr<Batch>> TableInfoRows(const LakeBinding& lake) {
  RowsBuilder rows({Field("table_name", DataType(TypeId::kVarchar)),
                    Field("schema_id", DataType(TypeId::kInt64)),
                    Field("table_id", DataType(TypeId::kInt64)),
                    Field("table_uuid", DataType(TypeId::kUuid)),
                    Field("file_count", DataType(TypeId::kInt64)),
                    Field("file_size_bytes", DataType(TypeId::kInt64)),
                    Field("delete_file_count", DataType(TypeId::kInt64)),
                    Field("delete_file_size_bytes", DataType(TypeId::kInt64))});
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, std::nullopt, "", 0));
  std::vector<std::shared_ptr<const TableInfo>> tables = snapshot->tables();
  std::sort(tables.begin(), tables.end(),
            [](const auto& a, const auto& b) { return a->table_id < b->table_id; });
  for (const auto& info : tables) {
    TARN_ASSIGN_OR_RETURN(auto table, lake.lake->LoadTable(*snapshot, info->table_id));
    int64_t files = 0, bytes = 0, delete_files = 0, delete_bytes = 0;
    for (const DataFileInfo& file : table->data_files) {
      ++files;
      bytes += file.file_size_bytes;
      if (file.delete_file) {
        ++delete_files;
        delete_bytes += file.delete_file->file_size_bytes;
      }
      for (const DeleteFileInfo& other : file.other_delete_files) {
        ++delete_files;
        delete_bytes += other.file_size_bytes;
      }
    }
    Result<Value> uuid = DecodeStatsValue(info->table_uuid, DataType(TypeId::kUuid));
    TARN_RETURN_NOT_OK(rows.Add({Value::Varchar(info->name), BigInt(info->schema_id),
                                 BigInt(info->table_id),
                                 uuid.ok() ? *uuid : Value::Null(DataType(TypeId::kUuid)),
                                 BigInt(files), BigInt(bytes), BigInt(delete_files),
                                 BigInt(delete_bytes)}));
  }
  return rows.Finish();
}

Result<std::shared_ptr<Batch>> ListFiles(const LakeBinding& lake, const Arguments& args) {
  const char* function = "ducklake_list_files";
  TARN_ASSIGN_OR_RETURN(std::string table_name,
                        TextArgument(args.positional[0], function, "the table"));
  std::string schema_name = "main";
  if (auto it = args.named.find("schema"); it != args.named.end()) {
    TARN_ASSIGN_OR_RETURN(schema_name, TextArgument(it->second, function, "schema"));
  }
  auto version = args.named.find("snapshot_version");
  auto time = args.named.find("snapshot_time");
  if (version != args.named.end() && time != args.named.end()) {
    return Status::InvalidArgument(
        "Invalid Input Error: either snapshot_version or snapshot_time may be given, not both");
  }
  std::optional<AtClause> at;
  if (version != args.named.end() || time != args.named.end()) {
    const Value& value = version != args.named.end() ? version->second : time->second;
    AtClause clause;
    clause.timestamp = time != args.named.end();
    clause.value = ast::MakeLiteral(ast::LiteralKind::kString, "");
    if (value.type().IsInteger()) {
      TARN_ASSIGN_OR_RETURN(Value id, expr::CastValue(value, DataType(TypeId::kInt64)));
      clause.value = ast::MakeLiteral(ast::LiteralKind::kInteger, std::to_string(id.GetInt64()));
    } else if (!value.is_null()) {
      clause.value = ast::MakeLiteral(ast::LiteralKind::kString, FormatValue(value));
    }
    at = std::move(clause);
  }
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, at, "", 0));
  LakeObjectName name{schema_name, table_name};
  TARN_ASSIGN_OR_RETURN(auto table, LoadLakeTable(lake, *snapshot, name,
                                                  lake.transaction != nullptr && !at));
  RowsBuilder rows({Field("data_file", DataType(TypeId::kVarchar)),
                    Field("data_file_size_bytes", DataType(TypeId::kUInt64)),
                    Field("data_file_footer_size", DataType(TypeId::kUInt64)),
                    Field("data_file_encryption_key", DataType(TypeId::kBlob)),
                    Field("delete_file", DataType(TypeId::kVarchar)),
                    Field("delete_file_size_bytes", DataType(TypeId::kUInt64)),
                    Field("delete_file_footer_size", DataType(TypeId::kUInt64)),
                    Field("delete_file_encryption_key", DataType(TypeId::kBlob))});
  auto key = [](const std::optional<std::string>& text) {
    return text ? Value::Bytes(DataType(TypeId::kBlob), *text)
                : Value::Null(DataType(TypeId::kBlob));
  };
  const Value null_text = Value::Null(DataType(TypeId::kVarchar));
  const Value null_size = Value::Null(DataType(TypeId::kUInt64));
  for (const DataFileInfo& file : table->data_files) {
    std::vector<Value> row = {Value::Varchar(file.path), UBigInt(file.file_size_bytes),
                              UBigInt(file.footer_size), key(file.encryption_key)};
    if (file.delete_file) {
      const DeleteFileInfo& d = *file.delete_file;
      row.insert(row.end(), {Value::Varchar(d.path), UBigInt(d.file_size_bytes),
                             UBigInt(d.footer_size), key(d.encryption_key)});
    } else {
      row.insert(row.end(), {null_text, null_size, null_size,
                             Value::Null(DataType(TypeId::kBlob))});
    }
    TARN_RETURN_NOT_OK(rows.Add(row));
  }
  return rows.Finish();
}

Result<std::shared_ptr<Batch>> Changes(const LakeBinding& lake, const Arguments& args,
                                       const FunctionSpec& spec, const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(std::string schema, TextArgument(args.positional[0], spec.name, "schema"));
  TARN_ASSIGN_OR_RETURN(std::string table, TextArgument(args.positional[1], spec.name, "table"));
  ChangeFeedOptions options;
  std::string_view name = spec.name;
  options.kind = name.ends_with("insertions")  ? ChangeFeedKind::kInsertions
                 : name.ends_with("deletions") ? ChangeFeedKind::kDeletions
                                               : ChangeFeedKind::kChanges;
  TARN_ASSIGN_OR_RETURN(options.start_snapshot,
                        SnapshotBound(*lake.lake, args.positional[2], true, spec.name));
  TARN_ASSIGN_OR_RETURN(options.end_snapshot,
                        SnapshotBound(*lake.lake, args.positional[3], false, spec.name));
  options.pool = context.pool;
  Result<std::unique_ptr<BatchReader>> reader =
      ReadTableChanges(*lake.lake, lake.fs, schema, table, options);
  if (!reader.ok() && reader.status().code() == StatusCode::kNotFound) {
    TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, std::nullopt, "", 0));
    if (snapshot->FindView(schema, table) != nullptr) {
      return Status::InvalidArgument("Binder Error: \"", table,
                                     "\" is a View, not a table. Data change feed functions "
                                     "only support tables.");
    }
  }
  TARN_RETURN_NOT_OK(reader.status());
  return ReadAllBatches(reader->get());
}

// The metadata option descriptions tarn shows (nullopt for keys it does not describe).
std::optional<std::string> OptionDescription(const std::string& key) {
  static const std::map<std::string, std::string> kDescriptions = {
      {"version", "The DuckLake format version of the catalog"},
      {"created_by", "The program that created the lake"},
      {"data_path", "Where data files are stored"},
      {"encrypted", "Whether data files are encrypted"},
      {"data_inlining_row_limit", "Inserts of at most this many rows go into the catalog"},
      {"target_file_size", "The size data files are written up to"},
      {"parquet_compression", "The Parquet compression codec of new files"},
      {"parquet_compression_level", "The compression level of new Parquet files"},
      {"parquet_version", "The Parquet format version of new files (1 or 2)"},
      {"parquet_row_group_size", "Rows per row group in new Parquet files"},
      {"parquet_row_group_size_bytes", "Bytes per row group in new Parquet files"},
      {"require_commit_message", "Whether every commit needs a commit message"},
      {"hive_file_pattern", "Whether partitioned files go into key=value folders"},
      {"rewrite_delete_threshold", "The deleted fraction of a file that warrants a rewrite"},
      {"delete_older_than", "How old unused files must be before cleanup removes them"},
      {"expire_older_than", "How old snapshots must be before they expire by default"},
      {"per_thread_output", "Whether each writer thread writes its own files"},
      {"write_deletion_vectors", "Whether delete files are deletion vectors (puffin)"},
  };
  auto it = kDescriptions.find(key);
  if (it == kDescriptions.end()) return std::nullopt;
  return it->second;
}

Result<std::shared_ptr<Batch>> Options(const LakeBinding& lake) {
  RowsBuilder rows({Field("option_name", DataType(TypeId::kVarchar)),
                    Field("description", DataType(TypeId::kVarchar)),
                    Field("value", DataType(TypeId::kVarchar)),
                    Field("scope", DataType(TypeId::kVarchar)),
                    Field("scope_entry", DataType(TypeId::kVarchar))});
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, std::nullopt, "", 0));
  std::vector<MetadataEntry> entries = lake.lake->metadata();
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    if (a.scope != b.scope) return a.scope < b.scope;
    return false;
  });
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.key < b.key; });
  for (const MetadataEntry& entry : entries) {
    std::optional<std::string> scope_entry;
    const char* scope = "GLOBAL";
    if (entry.scope == MetadataEntry::Scope::kSchema) {
      scope = "SCHEMA";
      for (const SchemaInfo& schema : snapshot->schemas()) {
        if (schema.schema_id == entry.scope_id) scope_entry = schema.name;
      }
    } else if (entry.scope == MetadataEntry::Scope::kTable) {
      scope = "TABLE";
      if (auto table = snapshot->FindTableById(entry.scope_id)) {
        scope_entry = table->schema_name + "." + table->name;
      }
    }
    TARN_RETURN_NOT_OK(rows.Add({Value::Varchar(entry.key), Text(OptionDescription(entry.key)),
                                 Value::Varchar(entry.value), Value::Varchar(scope),
                                 Text(scope_entry)}));
  }
  return rows.Finish();
}


}  // namespace

bool IsDucklakeFunction(std::string_view name) {
  return LowerAscii(std::string(name)).rfind("ducklake_", 0) == 0;
}

bool IsReadOnlyDucklakeFunction(std::string_view name) { return FindSpec(name) != nullptr; }

Result<std::unique_ptr<Source>> BindDucklakeFunction(const TableRef& ref,
                                                     std::string_view sql_text,
                                                     const ExecContext& context) {
  std::string name = LowerAscii(ref.names[0]);
  auto located = [&](const Status& status) {
    return Status(status.code(), FormatErrorAt(sql_text, status.message(), ref.offset));
  };
  if (name == "ducklake_set_option" || name == "ducklake_set_commit_message") {
    return located(Status::InvalidArgument(
        "Binder Error: ", name, " changes the lake; run it with CALL ", name, "(...)"));
  }
  const FunctionSpec* spec = FindSpec(name);
  if (spec == nullptr) {
    std::vector<std::string> known;
    for (const FunctionSpec& s : Specs()) known.push_back(s.name);
    std::string message = FormatErrorAt(
        sql_text, StrCat("Catalog Error: table function \"", ref.names[0], "\" does not exist"),
        ref.offset);
    std::vector<std::string> closest = expr::ClosestNames(name, known);
    if (!closest.empty()) message += "\nDid you mean \"" + closest[0] + "\"?";
    return Status::NotFound(message);
  }
  Status is_lake = CheckFirstArgumentIsLake(ref, context);
  if (!is_lake.ok()) return located(is_lake);
  const LakeBinding* chosen = LakeOfFirstArgument(ref, context);
  if (chosen == nullptr) {
    return located(Status::InvalidArgument("Catalog Error: ", spec->name,
                                           " needs an attached DuckLake lake"));
  }
  const LakeBinding& lake = *chosen;
  Result<Arguments> evaluated = EvaluateArguments(ref, *spec, lake);
  if (!evaluated.ok()) return located(evaluated.status());
  const Arguments& args = *evaluated;
  Result<std::shared_ptr<Batch>> batch = Status::Internal("unhandled ", name);
  if (name == "ducklake_snapshots") {
    batch = Snapshots(*lake.lake);
  } else if (name == "ducklake_current_snapshot") {
    Result<std::shared_ptr<const LakeSnapshot>> snapshot =
        LoadLakeSnapshot(lake, std::nullopt, "", 0);
    batch = snapshot.ok() ? SnapshotId((*snapshot)->snapshot_id())
                          : Result<std::shared_ptr<Batch>>(snapshot.status());
  } else if (name == "ducklake_last_committed_snapshot") {
    Result<SnapshotInfo> latest = lake.lake->FindSnapshot(SnapshotSelector::Latest());
    batch = latest.ok() ? SnapshotId(latest->snapshot_id)
                        : Result<std::shared_ptr<Batch>>(latest.status());
  } else if (name == "ducklake_table_info") {
    batch = TableInfoRows(lake);
  } else if (name == "ducklake_options") {
    batch = Options(lake);
  } else if (name == "ducklake_list_files") {
    batch = ListFiles(lake, args);
  } else {
    batch = Changes(lake, args, *spec, context);
    if (batch.ok() && (name.ends_with("_insertions") || name.ends_with("_deletions"))) {
      // As the extension's: snapshot_id and rowid are virtual columns, which `*` leaves out.
      std::shared_ptr<Batch> feed = std::move(*batch);
      std::vector<Field> fields(feed->schema->fields.begin() + 2, feed->schema->fields.end());
      std::vector<std::shared_ptr<Column>> columns(feed->columns.begin() + 2,
                                                   feed->columns.end());
      for (int c = 0; c < 2; ++c) {
        fields.push_back(feed->schema->field(c));
        columns.push_back(feed->columns[static_cast<size_t>(c)]);
      }
      auto moved = MakeBatch(std::make_shared<Schema>(std::move(fields)), std::move(columns));
      moved->num_rows = feed->num_rows;
      return std::unique_ptr<Source>(std::make_unique<RowsSource>(
          StrCat("TABLE_FUNCTION ", spec->name), std::move(moved), /*hidden_columns=*/2));
    }
  }
  if (!batch.ok()) return located(batch.status());
  return std::unique_ptr<Source>(
      std::make_unique<RowsSource>(StrCat("TABLE_FUNCTION ", spec->name), std::move(*batch)));
}

}  // namespace tarn::sql
