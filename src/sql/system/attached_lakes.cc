#include "sql/system/attached_lakes.h"

#include <filesystem>
#include <utility>

#include "expr/eval/cast.h"
#include "sql/plan/names.h"
#include "tarn/catalog.h"
#include "tarn/catalog_locator.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/lake_write.h"

namespace tarn::sql {

namespace {

bool Same(std::string_view a, std::string_view b) { return LowerAscii(std::string(a)) == LowerAscii(std::string(b)); }

// "ducklake:sqlite:PATH" -> "sqlite:PATH"; "ducklake:PATH" -> "PATH".
std::string_view WithoutDucklakePrefix(std::string_view locator) {
  if (locator.substr(0, 9) == "ducklake:") locator.remove_prefix(9);
  return locator;
}

Result<Value> OptionValue(const std::string& option, const ast::Expr* expr) {
  if (expr == nullptr) return Value::Boolean(true);  // a bare option: READ_ONLY
  Schema empty;
  TARN_ASSIGN_OR_RETURN(auto bound, Bind(*expr, empty));
  if (!bound->IsConstant()) {
    return Status::InvalidArgument("Binder Error: ATTACH option ", option,
                                   " needs a constant value");
  }
  return bound->EvaluateConstant();
}

Result<bool> OptionBool(const std::string& option, const Value& value) {
  Result<Value> cast = expr::CastValue(value, DataType(TypeId::kBoolean));
  if (!cast.ok() || cast->is_null()) {
    return Status::InvalidArgument("Invalid Input Error: ATTACH option ", option,
                                   " must be a boolean, not ", FormatValue(value));
  }
  return cast->GetBool();
}

Result<int64_t> OptionInt(const std::string& option, const Value& value) {
  Result<Value> cast = expr::CastValue(value, DataType(TypeId::kInt64));
  if (!cast.ok() || cast->is_null()) {
    return Status::InvalidArgument("Invalid Input Error: ATTACH option ", option,
                                   " must be an integer, not ", FormatValue(value));
  }
  return cast->GetInt64();
}

std::string OptionText(const Value& value) {
  if (!value.is_null() && value.type().id == TypeId::kVarchar) return value.GetBytes();
  return FormatValue(value);
}

// The catalog file of a "ducklake:[sqlite:]PATH" locator.
std::string_view CatalogFilePath(std::string_view locator) {
  for (std::string_view prefix : {"ducklake:", "sqlite:"}) {
    if (locator.substr(0, prefix.size()) == prefix) locator.remove_prefix(prefix.size());
  }
  return locator;
}

bool CatalogFileExists(std::string_view locator) {
  if (WithoutDucklakePrefix(locator).substr(0, 9) == "postgres:") return false;  // no file
  std::error_code error;
  return std::filesystem::exists(std::string(CatalogFilePath(locator)), error);
}

// A relative data path is relative to the working directory, as DuckDB resolves it.
std::string AbsoluteDataPath(std::string path) {
  if (path.find("://") != std::string::npos || path.empty() || path[0] == '/') return path;
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

}  // namespace

std::unique_ptr<Statement> TransactionStatement(StatementKind kind, const char* what) {
  auto statement = std::make_unique<Statement>();
  statement->kind = kind;
  statement->what = what;
  return statement;
}

std::string DefaultAttachName(std::string_view locator) {
  locator = WithoutDucklakePrefix(locator);
  if (locator.substr(0, 9) == "postgres:") {
    // A PostgreSQL catalog is named after its database ("dbname=x ..."), else "lake".
    const size_t key = locator.find("dbname=");
    if (key == std::string_view::npos || (key > 0 && locator[key - 1] != ' ')) return "lake";
    std::string_view name = locator.substr(key + 7);
    name = name.substr(0, name.find(' '));
    return name.empty() || name.front() == '\'' ? std::string("lake") : std::string(name);
  }
  if (locator.substr(0, 7) == "sqlite:") locator.remove_prefix(7);
  std::string name = std::filesystem::path(std::string(locator)).stem().string();
  return name.empty() ? "lake" : name;
}

AttachedLakes::AttachedLakes() {
  for (DatabaseKind kind : {DatabaseKind::kMemory, DatabaseKind::kTemp}) {
    auto state = std::make_unique<LakeState>();
    state->binding.kind = kind;
    state->binding.name = kind == DatabaseKind::kMemory ? "memory" : "temp";
    (kind == DatabaseKind::kMemory ? memory_ : temp_) = std::move(state);
  }
  current_ = memory_.get();
}

AttachedLakes::~AttachedLakes() = default;

void AttachedLakes::set_settings(const LakeSessionSettings* settings) {
  settings_ = settings;
  for (const auto& lake : lakes_) lake->binding.settings = settings;
}

Status AttachedLakes::Create(LakeState* builtin, const ExecContext& context) {
  if (builtin->lake != nullptr) return Status::OK();
  CreateLakeOptions create;
  create.data_path = "/" + builtin->binding.name + "/";
  create.created_by = "tarn " + builtin->binding.name + " database";
  TARN_ASSIGN_OR_RETURN(builtin->lake, CreateInMemoryLake(create));
  builtin->binding.lake = builtin->lake.get();
  builtin->binding.fs = NewMemoryFileSystem();
  if (in_transaction_) {
    // The database joins the open transaction, as a lake attached inside one does.
    auto begin = TransactionStatement(StatementKind::kBegin, "BEGIN");
    TARN_RETURN_NOT_OK(ExecuteWriteStatement(*begin, builtin, context).status());
  }
  return Status::OK();
}

std::vector<LakeState*> AttachedLakes::Databases() const {
  std::vector<LakeState*> databases;
  if (memory_ != nullptr && memory_->lake != nullptr) databases.push_back(memory_.get());
  for (const auto& lake : lakes_) databases.push_back(lake.get());
  if (temp_->lake != nullptr) databases.push_back(temp_.get());
  return databases;
}

Status AttachedLakes::Attach(std::string_view locator, const AttachOptions& options,
                             std::shared_ptr<FileSystem> fs, bool make_default) {
  if (Find(options.name) != nullptr || IsBuiltinDatabaseName(options.name)) {
    return Status::AlreadyExists("Binder Error: Failed to attach database: database with name \"",
                                 options.name, "\" already exists");
  }
  if (options.create_if_missing && !options.read_only && options.data_path.has_value()) {
    CreateLakeOptions create;
    create.data_path = *options.data_path;
    create.data_inlining_row_limit = options.data_inlining_row_limit;
    if (options.write_deletion_vectors.has_value()) {
      create.options.emplace_back("write_deletion_vectors",
                                  *options.write_deletion_vectors ? "true" : "false");
    }
    Result<std::unique_ptr<Lake>> created = CreateLake(locator, create);
    if (created.ok()) return Attach(std::move(*created), options, std::move(fs), make_default);
    // AlreadyExists: the lake is there (perhaps created a moment ago by another process).
    if (!created.status().IsAlreadyExists()) return created.status();
  }
  LakeOpenOptions open_options;
  open_options.data_path = options.data_path;
  open_options.override_data_path = options.override_data_path;
  open_options.read_only = options.read_only || options.snapshot_version.has_value() ||
                           options.snapshot_time.has_value();
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Lake> lake, Lake::Open(locator, open_options));
  return Attach(std::move(lake), options, std::move(fs), make_default);
}

Status AttachedLakes::Attach(std::unique_ptr<Lake> lake, const AttachOptions& options,
                             std::shared_ptr<FileSystem> fs, bool make_default) {
  if (!lake) return Status::InvalidArgument("Attach: no lake");
  if (options.name.empty()) return Status::InvalidArgument("Attach: the catalog name is empty");
  if (Find(options.name) != nullptr || IsBuiltinDatabaseName(options.name)) {
    return Status::AlreadyExists("Binder Error: Failed to attach database: database with name \"",
                                 options.name, "\" already exists");
  }
  auto state = std::make_unique<LakeState>();
  state->binding.name = options.name;
  state->binding.settings = settings_;
  state->binding.metadata_catalog =
      options.metadata_catalog.value_or("__ducklake_metadata_" + options.name);
  state->binding.fs = std::move(fs);
  state->binding.read_only = options.read_only || lake->store()->read_only();
  if (options.snapshot_version.has_value() || options.snapshot_time.has_value()) {
    SnapshotSelector selector;
    std::string wanted;
    if (options.snapshot_version.has_value()) {
      selector = SnapshotSelector::Id(*options.snapshot_version);
      wanted = StrCat("version ", *options.snapshot_version);
    } else {
      TARN_ASSIGN_OR_RETURN(int64_t micros, ParseCatalogTimestamp(*options.snapshot_time));
      selector = SnapshotSelector::AtTime(micros);
      wanted = "timestamp " + *options.snapshot_time;
    }
    Result<SnapshotInfo> found = lake->FindSnapshot(selector);
    if (!found.ok()) {
      if (!found.status().IsNotFound()) return found.status();
      return Status::NotFound("Invalid Input Error: No snapshot found at ", wanted, " in lake \"",
                              options.name, "\"");
    }
    state->binding.pinned_snapshot = found->snapshot_id;
    state->binding.read_only = true;
  }
  state->lake = std::move(lake);
  state->binding.lake = state->lake.get();
  LakeState* added = state.get();
  lakes_.push_back(std::move(state));
  if (make_default && current_ == memory_.get()) current_ = added;
  return Status::OK();
}

Status AttachedLakes::Run(const Statement& statement, std::shared_ptr<FileSystem> fs,
                          const ExecContext& context) {
  switch (statement.kind) {
    case StatementKind::kAttach: {
      TARN_RETURN_NOT_OK(RunAttach(statement, std::move(fs)));
      if (in_transaction_) {
        // The new lake joins the open transaction.
        LakeState* added = lakes_.back().get();
        auto begin = TransactionStatement(StatementKind::kBegin, "BEGIN");
        TARN_RETURN_NOT_OK(ExecuteWriteStatement(*begin, added, context).status());
      }
      return Status::OK();
    }
    case StatementKind::kDetach:
      return RunDetach(*statement.session);
    case StatementKind::kUse:
      return RunUse(*statement.session, context);
    default:
      return Status::Internal("not a session statement: ", statement.what);
  }
}

Status AttachedLakes::RunAttach(const Statement& statement, std::shared_ptr<FileSystem> fs) {
  const SessionStmt& attach = *statement.session;
  AttachOptions options;
  options.name = attach.name.empty() ? DefaultAttachName(attach.locator) : attach.name;
  options.create_if_missing = true;
  bool typed_ducklake = false;
  bool read_write = false;         // READ_WRITE asked for
  bool create_option_set = false;  // CREATE_IF_NOT_EXISTS given
  for (const auto& [option, expr] : attach.options) {
    TARN_ASSIGN_OR_RETURN(Value value, OptionValue(option, expr.get()));
    if (option == "TYPE") {
      if (!Same(OptionText(value), "ducklake")) {
        return Status::NotSupported("not yet supported: ATTACH of TYPE ", OptionText(value),
                                    " (tarn attaches DuckLake catalogs)");
      }
      typed_ducklake = true;
    } else if (option == "DATA_PATH") {
      if (!value.is_null()) options.data_path = AbsoluteDataPath(OptionText(value));
    } else if (option == "READ_ONLY" || option == "READONLY") {
      TARN_ASSIGN_OR_RETURN(options.read_only, OptionBool(option, value));
    } else if (option == "READ_WRITE") {
      TARN_ASSIGN_OR_RETURN(bool writable, OptionBool(option, value));
      options.read_only = !writable;
      read_write = writable;
    } else if (option == "CREATE_IF_NOT_EXISTS") {
      TARN_ASSIGN_OR_RETURN(options.create_if_missing, OptionBool(option, value));
      create_option_set = true;
    } else if (option == "DATA_INLINING_ROW_LIMIT") {
      TARN_ASSIGN_OR_RETURN(int64_t limit, OptionInt(option, value));
      if (limit < 0) {
        return Status::InvalidArgument("Invalid Input Error: DATA_INLINING_ROW_LIMIT must not be "
                                       "negative");
      }
      options.data_inlining_row_limit = limit;
    } else if (option == "WRITE_DELETION_VECTORS") {
      TARN_ASSIGN_OR_RETURN(bool vectors, OptionBool(option, value));
      options.write_deletion_vectors = vectors;
    } else if (option == "SNAPSHOT_VERSION") {
      TARN_ASSIGN_OR_RETURN(int64_t version, OptionInt(option, value));
      options.snapshot_version = version;
    } else if (option == "SNAPSHOT_TIME") {
      options.snapshot_time = OptionText(value);
    } else if (option == "OVERRIDE_DATA_PATH") {
      TARN_ASSIGN_OR_RETURN(options.override_data_path, OptionBool(option, value));
    } else if (option == "AUTOMATIC_MIGRATION") {
      // A 1.0 catalog needs none; older ones are refused by Lake::Open, naming their version.
      TARN_RETURN_NOT_OK(OptionBool(option, value).status());
    } else if (option == "METADATA_CATALOG") {
      // The name under which SQL reads the catalog database's own tables.
      if (value.is_null() || value.type().id != TypeId::kVarchar) {
        return Status::InvalidArgument("Invalid Input Error: METADATA_CATALOG must be a name");
      }
      options.metadata_catalog = OptionText(value);
    } else if (option == "METADATA_SCHEMA" || option == "METADATA_PARAMETERS" ||
               option == "ENCRYPTED" ||
               option.rfind("META_", 0) == 0) {
      return Status::NotSupported("not yet supported: ATTACH option ", option);
    } else {
      return Status::InvalidArgument("Binder Error: Unrecognized option for a DuckLake ATTACH: \"",
                                     option, "\"");
    }
  }
  // As the extension: a read-only attach creates no lake unless asked to; a lake pinned at a
  // snapshot is read-only and cannot be asked to be writable; the metadata catalog is a
  // database of its own, never the lake itself.
  if (options.read_only && !create_option_set) options.create_if_missing = false;
  if (options.snapshot_version.has_value() && options.snapshot_time.has_value()) {
    return Status::InvalidArgument("Invalid Input Error: Cannot specify both VERSION and TIMESTAMP");
  }
  if ((options.snapshot_version.has_value() || options.snapshot_time.has_value()) && read_write) {
    return Status::InvalidArgument(
        "Invalid Input Error: SNAPSHOT_VERSION / SNAPSHOT_TIME can only be used in read-only mode");
  }
  if (options.metadata_catalog.has_value() && Same(*options.metadata_catalog, options.name)) {
    return Status::InvalidArgument("Binder Error: Failed to attach database: the metadata catalog \"",
                                   *options.metadata_catalog,
                                   "\" of a DuckLake cannot be the DuckLake itself");
  }
  const bool ducklake = attach.locator.rfind("ducklake:", 0) == 0;
  if (!ducklake && !typed_ducklake) {
    return Status::NotSupported("not yet supported: ATTACH '", attach.locator,
                                "': tarn attaches DuckLake catalogs ('ducklake:sqlite:PATH', "
                                "'ducklake:postgres:CONNINFO')");
  }
  bool replaces_default = false;
  if (LakeState* existing = Find(options.name)) {
    if (attach.if_not_exists) return Status::OK();
    if (!attach.or_replace || !existing->binding.is_ducklake()) {
      return Status::AlreadyExists("Binder Error: Failed to attach database: database with name \"",
                                   options.name, "\" already exists");
    }
    if (existing == current_) {
      // The new lake takes its place as the default.
      current_ = memory_ != nullptr ? memory_.get() : temp_.get();
      replaces_default = true;
    }
    for (auto it = lakes_.begin(); it != lakes_.end(); ++it) {
      if (it->get() == existing) {
        lakes_.erase(it);
        break;
      }
    }
  } else if (IsBuiltinDatabaseName(options.name)) {
    if (attach.if_not_exists) return Status::OK();
    return Status::AlreadyExists("Binder Error: Failed to attach database: database with name \"",
                                 options.name, "\" already exists");
  }
  if (!options.data_path.has_value() && options.create_if_missing && !options.read_only) {
    // A new lake on the embedded catalog named by a bare path keeps its files beside it, in
    // "<catalog>.files/", as the extension places a new lake's files beside a DuckDB catalog.
    // A catalog named as sqlite:PATH needs DATA_PATH, as in the extension.
    std::string_view path = attach.locator;
    if (path.substr(0, 9) == "ducklake:") path.remove_prefix(9);
    const bool bare = path.find(':') == std::string_view::npos && !path.empty() &&
                      path != ":memory:";
    std::error_code error;
    if (bare && !std::filesystem::exists(std::string(path), error)) {
      options.data_path = AbsoluteDataPath(std::string(path) + ".files");
    }
  }
  Status attached = Attach(attach.locator, options, std::move(fs), /*make_default=*/false);
  if (attached.ok() && replaces_default) current_ = lakes_.back().get();
  if (attached.IsNotFound() && !options.create_if_missing && !CatalogFileExists(attach.locator)) {
    // The extension's words when the catalog is missing and CREATE_IF_NOT_EXISTS is false.
    return Status::InvalidArgument("Invalid Input Error: Existing DuckLake at metadata catalog \"",
                                   RedactLocator(CatalogFilePath(attach.locator)),
                                   "\" does not exist - and "
                                   "creating a new DuckLake is explicitly disabled");
  }
  if (attached.IsNotFound() && !options.data_path.has_value() && options.create_if_missing &&
      !CatalogFileExists(attach.locator)) {
    return Status::InvalidArgument(
        "Invalid Input Error: Attempting to create a new ducklake instance but data_path is not "
        "set - set the DATA_PATH parameter to the desired location of the data files");
  }
  return attached;
}

Status AttachedLakes::RunDetach(const SessionStmt& detach) {
  LakeState* lake = Find(detach.name);
  // "temp" is no database of the database manager's: DuckDB finds none to detach.
  if (lake == nullptr || lake == temp_.get()) {
    if (detach.if_exists) return Status::OK();
    return Status::NotFound("Binder Error: Failed to detach database with name \"", detach.name,
                            "\": database not found");
  }
  if (lake == current_) {
    return Status::InvalidArgument(
        "Binder Error: Cannot detach database \"", lake->binding.name,
        "\" because it is the default database. Select a different database using `USE` to "
        "allow detaching this database");
  }
  if (lake == memory_.get()) {
    memory_.reset();  // its tables are gone, as DuckDB's are
    return Status::OK();
  }
  for (auto it = lakes_.begin(); it != lakes_.end(); ++it) {
    if (it->get() == lake) {
      lakes_.erase(it);  // an open transaction of the lake rolls back
      break;
    }
  }
  return Status::OK();
}

Status AttachedLakes::RunUse(const SessionStmt& use, const ExecContext& context) {
  LakeState* lake = Find(use.name);
  std::string schema = use.schema;
  if (lake == nullptr && use.schema.empty()) {
    // USE schema: a schema of the default database.
    lake = current_;
    schema = use.name;
  }
  const auto not_found = [&]() {
    return Status::NotFound("Catalog Error: SET search_path: No catalog + schema named \"",
                            use.name, use.schema.empty() ? "" : "." + use.schema, "\" found.");
  };
  if (lake == nullptr) return not_found();
  if (lake->lake == nullptr) {
    // A built-in database not yet created has schema main only.
    if (!schema.empty() && !Same(schema, "main")) return not_found();
    lake->binding.default_schema = "main";
    current_ = lake;
    return Status::OK();
  }
  if (!schema.empty()) {
    ExecContext lake_context = context;
    lake_context.lake = &lake->binding;
    TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake->binding, std::nullopt, "", 0));
    if (snapshot->FindSchema(schema) == nullptr) return not_found();
    lake->binding.default_schema = schema;
  } else {
    lake->binding.default_schema = "main";
  }
  current_ = lake;
  return Status::OK();
}

LakeState* AttachedLakes::Find(std::string_view name) {
  if (memory_ != nullptr && Same(name, "memory")) return memory_.get();
  if (Same(name, "temp")) return temp_.get();
  for (const auto& lake : lakes_) {
    if (Same(lake->binding.name, name)) return lake.get();
  }
  return nullptr;
}

std::vector<const LakeBinding*> AttachedLakes::Bindings() const {
  std::vector<const LakeBinding*> bindings;
  for (LakeState* database : Databases()) bindings.push_back(&database->binding);
  return bindings;
}

namespace {

// Whether `database` holds a table or view `schema`.`name` (at its transaction's view).
bool Holds(const LakeBinding& database, const std::string& schema, const std::string& name) {
  if (database.lake == nullptr) return false;
  Result<std::shared_ptr<const LakeSnapshot>> snapshot =
      LoadLakeSnapshot(database, std::nullopt, "", 0);
  return snapshot.ok() && ((*snapshot)->FindTable(schema, name) != nullptr ||
                           (*snapshot)->FindView(schema, name) != nullptr);
}

// Statements whose target is an existing table or view, found along the search path.
bool NamesExistingObject(StatementKind kind) {
  switch (kind) {
    case StatementKind::kInsert:
    case StatementKind::kDelete:
    case StatementKind::kUpdate:
    case StatementKind::kDropTable:
    case StatementKind::kDropView:
    case StatementKind::kAlterTable:
    case StatementKind::kMerge:
      return true;
    default:
      return false;
  }
}

}  // namespace

Result<LakeState*> AttachedLakes::TargetOf(const Statement& statement,
                                           const ExecContext& context) {
  if (statement.kind == StatementKind::kCall && statement.select != nullptr) {
    const TableRef& call = statement.select->from;
    if (!call.args.empty() && call.args[0].name.empty() && call.args[0].expr != nullptr &&
        call.args[0].expr->kind == ast::ExprKind::kLiteral &&
        call.args[0].expr->literal_kind == ast::LiteralKind::kString) {
      if (LakeState* named = Find(call.args[0].expr->text)) return named;
    }
    return current();
  }
  LakeState* target = current_;
  if (statement.write != nullptr) {
    const WriteStmt& write = *statement.write;
    const std::vector<std::string>& names = write.names;
    LakeState* named = nullptr;
    if (names.size() >= 2) named = Find(names[0]);
    if (write.temporary) {
      if (named != nullptr && named != temp_.get()) {
        return Status::InvalidArgument(
            "Parser Error: TEMPORARY table names can *only* use the \"temp\" catalog");
      }
      target = temp_.get();
    } else if (named != nullptr) {
      target = named;
    } else if (NamesExistingObject(statement.kind) && !names.empty() &&
               (names.size() == 1 || (names.size() == 2 && Same(names[0], "main"))) &&
               Holds(temp_->binding, "main", names.back())) {
      // temp.main comes first on DuckDB's search path.
      target = temp_.get();
    }
  }
  if (!target->binding.is_ducklake()) TARN_RETURN_NOT_OK(Create(target, context));
  return target;
}

Status AttachedLakes::Begin(const Statement& statement, const ExecContext& context) {
  if (in_transaction_) {
    return Status::InvalidArgument(
        "TransactionContext Error: cannot start a transaction within a transaction");
  }
  const std::vector<LakeState*> databases = Databases();
  for (LakeState* lake : databases) {
    Status begun = ExecuteWriteStatement(statement, lake, context).status();
    if (!begun.ok()) {
      auto rollback = TransactionStatement(StatementKind::kRollback, "ROLLBACK");
      for (LakeState* other : databases) {
        if (other->transaction) (void)ExecuteWriteStatement(*rollback, other, context);
      }
      return begun;
    }
  }
  in_transaction_ = true;
  return Status::OK();
}

Status AttachedLakes::End(const Statement& statement, const ExecContext& context) {
  if (!in_transaction_) {
    return Status::InvalidArgument("TransactionContext Error: cannot ",
                                   statement.kind == StatementKind::kCommit ? "commit"
                                                                            : "roll back",
                                   " - no transaction is active");
  }
  in_transaction_ = false;
  Status first_error;
  for (LakeState* lake : Databases()) {
    if (!lake->transaction) continue;
    Status ended = ExecuteWriteStatement(statement, lake, context).status();
    if (!ended.ok() && first_error.ok()) first_error = ended;
  }
  return first_error;
}

}  // namespace tarn::sql
