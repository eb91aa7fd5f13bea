// Session: statement dispatch (SELECT, COPY, EXPLAIN, DESCRIBE, SHOW, SET, ATTACH/DETACH/USE,
// writes) and settings.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/eval/cast.h"
#include "expr/parse/lexer.h"
#include "sql/exec/copy.h"
#include "sql/lake/ducklake_functions.h"
#include "sql/lake/lake_source.h"
#include "sql/lake/macros.h"
#include "sql/lake/maintenance_calls.h"
#include "sql/lake/metadata_writes.h"
#include "sql/lake/write_statements.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "sql/system/attached_lakes.h"
#include "sql/system/secrets.h"
#include "sql/system/settings.h"
#include "sql/system/show.h"
#include "tarn/catalog.h"
#include "tarn/format.h"
#include "tarn/lake_write.h"
#include "tarn/s3.h"
#include "tarn/sql.h"

namespace tarn {

using sql::LowerAscii;

Status SqlCatalog::AddTable(const std::string& name, std::shared_ptr<const SqlTable> table) {
  std::string key = LowerAscii(name);
  if (tables_.count(key) > 0) return Status::AlreadyExists("table \"", name, "\" already exists");
  tables_[key] = Entry{name, std::move(table)};
  return Status::OK();
}

Status SqlCatalog::DropTable(const std::string& name) {
  if (tables_.erase(LowerAscii(name)) == 0) {
    return Status::NotFound("table \"", name, "\" does not exist");
  }
  return Status::OK();
}

const SqlTable* SqlCatalog::FindTable(std::string_view name) const {
  auto it = tables_.find(LowerAscii(std::string(name)));
  return it == tables_.end() ? nullptr : it->second.table.get();
}

std::vector<std::string> SqlCatalog::TableNames() const {
  std::vector<std::string> names;
  for (const auto& [key, entry] : tables_) names.push_back(entry.name);
  return names;
}

Result<int64_t> ParseMemorySize(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  size_t start = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  std::string number(text.substr(start, i - start));
  while (i < text.size() && text[i] == ' ') ++i;
  std::string unit = LowerAscii(std::string(text.substr(i)));
  while (!unit.empty() && unit.back() == ' ') unit.pop_back();
  char* end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0') {
    return Status::InvalidArgument("Parser Error: could not parse memory size \"", text,
                                   "\" (e.g. '1GB', '512MiB')");
  }
  static const std::pair<const char*, double> kUnits[] = {
      {"", 1},       {"b", 1},       {"byte", 1},    {"bytes", 1},   {"kb", 1e3},  {"mb", 1e6},
      {"gb", 1e9},   {"tb", 1e12},   {"k", 1e3},     {"m", 1e6},     {"g", 1e9},   {"t", 1e12},
      {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
  for (const auto& [name, factor] : kUnits) {
    if (unit == name) {
      double bytes = value * factor;
      if (bytes >= 9.2e18) return Status::InvalidArgument("memory size \"", text, "\" is too large");
      return static_cast<int64_t>(bytes);
    }
  }
  return Status::InvalidArgument("Parser Error: unknown unit \"", unit, "\" in memory size \"",
                                 text, "\" (use KB, MB, GB, TB, KiB, MiB, GiB or TiB)");
}

std::string FormatMemorySize(int64_t bytes) {
  static const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return std::to_string(bytes) + " bytes";
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f %s", value, kUnits[unit]);
  return text;
}

Result<std::shared_ptr<Batch>> ReadAllBatches(BatchReader* reader) {
  std::vector<std::shared_ptr<Batch>> batches;
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, reader->Next());
    if (!batch) break;
    if (batch->num_rows > 0) batches.push_back(std::move(batch));
  }
  if (batches.size() == 1) return batches[0];
  if (!batches.empty() && batches[0]->num_columns() > 0) return ConcatenateBatches(batches);
  int64_t rows = 0;
  for (const auto& batch : batches) rows += batch->num_rows;
  std::vector<std::shared_ptr<Column>> columns;
  if (rows == 0) {
    for (const Field& field : reader->schema()->fields) columns.push_back(ColumnBuilder(field.type).Finish());
  }
  auto batch = std::make_shared<Batch>();
  batch->schema = reader->schema();
  batch->columns = std::move(columns);
  batch->num_rows = rows;
  return batch;
}

namespace {

// A binder error naming an unknown column, as DuckDB shows it: the statement's line with a
// caret under the name (its first spelling in `text`), the candidates after it.
Status PlaceColumnError(const Status& status, std::string_view text) {
  constexpr std::string_view kLead = "Binder Error: Referenced column \"";
  const std::string& message = status.message();
  if (!status.IsNotFound() || message.rfind(kLead, 0) != 0 ||
      message.find(" (line ") != std::string::npos) {
    return status;
  }
  const size_t end = message.find('"', kLead.size());
  if (end == std::string::npos) return status;
  const std::string name = sql::LowerAscii(message.substr(kLead.size(), end - kLead.size()));
  Result<std::vector<sql::Token>> tokens = sql::Tokenize(text);
  if (!tokens.ok()) return status;
  for (const sql::Token& token : *tokens) {
    const bool spelled = (token.kind == sql::TokenKind::kIdentifier ||
                          token.kind == sql::TokenKind::kQuotedIdentifier) &&
                         sql::LowerAscii(token.text) == name;
    if (!spelled) continue;
    const size_t line_end = message.find('\n');
    const std::string head = message.substr(0, line_end);
    const std::string rest = line_end == std::string::npos ? "" : message.substr(line_end);
    return Status(status.code(), sql::FormatErrorAt(text, head, token.offset) + rest);
  }
  return status;
}

int64_t DefaultMemoryLimit() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return int64_t{8} << 30;
  return static_cast<int64_t>(static_cast<double>(pages) * static_cast<double>(page_size) * 0.8);
}

int DefaultThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

// One VARCHAR column per name, one row per entry of each column.
std::shared_ptr<Batch> TextBatch(const std::vector<std::string>& names,
                                 const std::vector<std::vector<std::optional<std::string>>>& rows) {
  auto schema = std::make_shared<Schema>();
  std::vector<std::shared_ptr<Column>> columns;
  for (size_t c = 0; c < names.size(); ++c) {
    schema->fields.emplace_back(names[c], DataType(TypeId::kVarchar));
    ColumnBuilder builder{DataType(TypeId::kVarchar)};
    for (const auto& row : rows) {
      if (row[c]) {
        builder.AppendBytes(*row[c]);
      } else {
        builder.AppendNull();
      }
    }
    columns.push_back(builder.Finish());
  }
  return MakeBatch(schema, std::move(columns));
}

// DuckDB's rule for an error inside an explicit transaction: an error parsing or binding a
// statement (a parser, binder or catalog error, or tarn refusing a statement it does not
// speak) leaves the transaction usable; any other error (a constraint, a conversion, a
// failed read or write) aborts it, and it can then only end, by rolling back.
bool InvalidatesTransaction(const Status& status) {
  const std::string& message = status.message();
  const size_t at = message.find(" Error: ");
  if (at != std::string::npos) {
    // The kind is the words before the first " Error: ", after any context ("in view v: ").
    std::string_view kind(message.data(), at);
    if (size_t colon = kind.rfind(": "); colon != std::string_view::npos) {
      kind.remove_prefix(colon + 2);
    }
    // A Dependency Error (DROP SCHEMA of a schema with entries) leaves the transaction usable
    // too, as DuckDB's suite runs DROP MACRO after it inside the same BEGIN.
    for (std::string_view kept : {"Binder", "Catalog", "Parser", "Connection", "Permission",
                                  "Parameter Not Allowed", "Dependency"}) {
      if (kind == kept) return false;
    }
    return true;
  }
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kNotSupported:
    case StatusCode::kAlreadyExists:
      return false;
    default:
      return true;
  }
}

// A query's rows inside an explicit transaction: an error while reading them aborts the
// transaction as an error running the statement does.
class TransactionGuardedReader final : public BatchReader {
 public:
  TransactionGuardedReader(std::unique_ptr<BatchReader> input,
                           std::function<void(const Status&)> on_error)
      : input_(std::move(input)), on_error_(std::move(on_error)) {}

  std::shared_ptr<const Schema> schema() const override { return input_->schema(); }

  Result<std::shared_ptr<Batch>> Next() override {
    Result<std::shared_ptr<Batch>> batch = input_->Next();
    if (!batch.ok()) on_error_(batch.status());
    return batch;
  }

 private:
  std::unique_ptr<BatchReader> input_;
  std::function<void(const Status&)> on_error_;
};

}  // namespace

struct Session::Impl {
  std::shared_ptr<FileSystem> fs;
  // CREATE SECRET and the s3_* settings; they route s3:// paths when `fs` is the session's
  // own router (a caller's file system is used as given).
  std::unique_ptr<sql::StorageSecrets> secrets;
  SqlCatalog catalog;
  SqlSettings settings;  // threads and memory_limit of `values`, for Session::settings()
  sql::SessionSettings values{DefaultThreads(), DefaultMemoryLimit()};
  std::unique_ptr<ThreadPool> pool;
  sql::AttachedLakes lakes;  // ATTACH, DETACH, USE
  // The explicit transaction: an error aborted it (only COMMIT / ROLLBACK run), and its
  // number, so that a reader of an earlier transaction's query cannot abort a later one.
  bool transaction_aborted = false;
  int64_t transaction_number = 0;
  std::map<std::string, Value> variables;  // SET VARIABLE
  std::map<std::string, std::string> prepared;  // PREPARE name AS statement: its text
  // Session::Interrupt(): set from any thread (or a signal handler), cleared as each
  // statement starts; every scan of the statement checks it (ExecContext::interrupted).
  std::atomic<bool> interrupted{false};
  // Session::Progress(): counted by the statement's scans (ExecContext::rows_read), reset as
  // each statement starts.
  std::atomic<int64_t> rows_read{0};
  std::atomic<int64_t> rows_planned{0};
  std::atomic<const char*> progress_unit{"rows"};

  void StartStatement() {
    interrupted.store(false, std::memory_order_relaxed);
    rows_read.store(0, std::memory_order_relaxed);
    rows_planned.store(0, std::memory_order_relaxed);
    progress_unit.store("rows", std::memory_order_relaxed);
  }

  sql::ExecContext Context() {
    if (!pool || static_cast<int>(pool->size()) != settings.threads) {
      pool = std::make_unique<ThreadPool>(static_cast<size_t>(settings.threads));
    }
    sql::ExecContext context;
    context.fs = fs;
    context.pool = pool.get();
    context.threads = settings.threads;
    context.memory_limit = settings.memory_limit;
    context.temp_directory = values.temp_directory();
    context.layout_picker = values.layout_picker();
    context.layout_sample_rows = values.layout_sample_rows();
    context.catalog = &catalog;
    // The default database, unless it is a built-in one no statement has written yet.
    sql::LakeState* database = lakes.default_database();
    context.lake = database->lake != nullptr ? &database->binding : nullptr;
    context.lakes = lakes.Bindings();
    context.secrets = secrets.get();
    context.interrupted = &interrupted;
    context.rows_read = &rows_read;
    context.rows_planned = &rows_planned;
    context.progress_unit = &progress_unit;
    return context;
  }

  static Result<QueryResult> RowsResult(QueryResult result, std::shared_ptr<Batch> batch) {
    result.schema = batch->schema;
    result.reader = MakeVectorReader(batch->schema, {batch});
    return result;
  }

  Result<std::unique_ptr<sql::Operator>> Plan(const sql::Statement& statement) {
    sql::ExecContext context = Context();
    return sql::PlanSelect(*statement.select, statement.text, context);
  }

  // SET VARIABLE name = expr: the value of a one-column query, any expression a SELECT takes
  // (a scalar subquery included); RESET VARIABLE name forgets it.
  Status SetVariable(const sql::Statement& statement, bool reset) {
    if (reset) {
      variables.erase(statement.setting);
      return Status::OK();
    }
    sql::SelectStmt select;
    sql::SelectItem item;
    item.expr = statement.value->Clone();
    select.items.push_back(std::move(item));
    sql::ExecContext context = Context();
    TARN_ASSIGN_OR_RETURN(auto root, sql::PlanSelect(select, statement.text, context));
    Value value;
    bool seen = false;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, root->Next());
      if (batch == nullptr) break;
      if (batch->num_rows == 0) continue;
      if (seen || batch->num_rows > 1) {
        return Status::InvalidArgument("Invalid Input Error: SET VARIABLE ", statement.setting,
                                       ": the value has more than one row");
      }
      value = batch->column(0).GetValue(0);
      seen = true;
    }
    variables[statement.setting] = std::move(value);
    return Status::OK();
  }

  // The value of a constant expression (a scalar subquery, getvariable() included).
  Result<Value> Evaluate(const ast::Expr& expression, const std::string& text) {
    sql::SelectStmt select;
    sql::SelectItem item;
    item.expr = expression.Clone();
    select.items.push_back(std::move(item));
    TARN_ASSIGN_OR_RETURN(auto root, sql::PlanSelect(select, text, Context()));
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> all, ReadAllBatches(root.get()));
    if (all->num_rows != 1) {
      return Status::InvalidArgument("Invalid Input Error: ", expression.ToString(),
                                     " is not one value");
    }
    return all->column(0).GetValue(0);
  }

  // EXECUTE name(arguments): the prepared statement's text with each parameter ($1, $2, ...
  // or ?, in order) replaced by its argument's value as a typed literal, run as a statement.
  Result<QueryResult> Execute(const sql::Statement& statement) {
    auto found = prepared.find(statement.setting);
    if (found == prepared.end()) {
      return Status::NotFound("Binder Error: Prepared statement \"", statement.setting,
                              "\" does not exist");
    }
    std::vector<std::string> literals;
    for (const auto& argument : statement.arguments) {
      TARN_ASSIGN_OR_RETURN(Value value, Evaluate(*argument, statement.text));
      if (value.is_null()) {
        literals.push_back("NULL");
        continue;
      }
      std::string text = "'";
      for (char c : expr::ValueToText(value)) text += c == '\'' ? std::string("''") : std::string(1, c);
      literals.push_back("CAST(" + text + "' AS " + value.type().ToString() + ")");
    }
    const std::string& source = found->second;
    TARN_ASSIGN_OR_RETURN(std::vector<sql::Token> tokens, sql::Tokenize(source));
    std::string sql;
    size_t copied = 0;
    size_t next_positional = 0;
    size_t highest = 0;
    for (const sql::Token& token : tokens) {
      if (token.kind != sql::TokenKind::kParameter) continue;
      size_t index;
      if (token.text == "?") {
        index = next_positional++;
      } else {
        const std::string digits = token.text.substr(1);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
            digits.size() > 6) {
          return Status::NotSupported("not yet supported: named parameter ", token.text);
        }
        index = std::stoul(digits) - 1;
      }
      highest = std::max(highest, index + 1);
      if (index >= literals.size()) continue;  // reported below
      sql.append(source, copied, static_cast<size_t>(token.offset) - copied);
      sql += literals[index];
      copied = static_cast<size_t>(token.offset + token.length);
    }
    if (highest > literals.size()) {
      std::string missing;
      for (size_t i = literals.size(); i < highest; ++i) {
        missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1);
      }
      return Status::InvalidArgument(
          "Invalid Input Error: Values were not provided for the following prepared statement "
          "parameters: ", missing);
    }
    if (literals.size() > highest) {
      std::string excess;
      for (size_t i = highest; i < literals.size(); ++i) {
        excess += (excess.empty() ? "" : ", ") + std::to_string(i + 1);
      }
      return Status::InvalidArgument(
          "Invalid Input Error: Parameter argument/count mismatch, identifiers of the excess "
          "parameters: ", excess);
    }
    sql.append(source, copied, std::string::npos);
    TARN_ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(sql));
    if (statements.size() != 1) return Status::Internal("EXECUTE of ", statements.size(), " statements");
    return Run(*statements[0]);
  }

  // SET / RESET of a DuckDB setting (settings.h has the list and the rules).
  Status Set(const sql::Statement& statement, bool reset) {
    if (statement.variable) return SetVariable(statement, reset);
    if (reset) {
      TARN_RETURN_NOT_OK(values.Reset(statement.setting));
    } else {
      Schema empty;
      TARN_ASSIGN_OR_RETURN(auto bound, Bind(*statement.value, empty));
      if (!bound->IsConstant()) {
        return Status::InvalidArgument("Binder Error: SET ", statement.setting,
                                       " needs a constant value");
      }
      TARN_ASSIGN_OR_RETURN(Value value, bound->EvaluateConstant());
      TARN_RETURN_NOT_OK(values.Set(statement.setting, value));
    }
    if (sql::LowerAscii(statement.setting).starts_with("s3_")) {
      secrets->ApplySettings(values.s3());
    }
    settings.threads = values.threads();
    settings.memory_limit = values.memory_limit();
    return Status::OK();
  }

  // CHECKPOINT [lake]: the lake's maintenance in the extension's order, each step its own
  // snapshot when it changes anything: flush inlined data, merge adjacent files, rewrite files
  // with many deletions. Expiring snapshots and removing files are left to their own calls
  // (they need an age, which CHECKPOINT does not give).
  Status Checkpoint(const sql::Statement& statement) {
    sql::LakeState* lake =
        statement.setting.empty() ? lakes.default_database() : lakes.Find(statement.setting);
    // DuckDB's own databases keep nothing to checkpoint here.
    if (lake != nullptr && !lake->binding.is_ducklake()) return Status::OK();
    if (lake == nullptr) {
      if (statement.setting.empty()) {
        return Status::InvalidArgument("Catalog Error: CHECKPOINT needs an attached DuckLake lake");
      }
      return Status::NotFound("Catalog Error: database \"", statement.setting,
                              "\" does not exist");
    }
    for (const char* procedure : {"ducklake_flush_inlined_data", "ducklake_merge_adjacent_files",
                                  "ducklake_rewrite_data_files"}) {
      sql::TableRef call;
      call.kind = sql::TableRef::Kind::kFunction;
      call.names = {procedure};
      sql::TableArg lake_name;
      lake_name.expr = ast::MakeLiteral(ast::LiteralKind::kString, lake->binding.name);
      call.args.push_back(std::move(lake_name));
      TARN_RETURN_NOT_OK(sql::RunMaintenanceCall(call, "CHECKPOINT", &lake->binding).status());
    }
    return Status::OK();
  }

  // A statement, with DuckDB's aborted transactions: after an error that aborts an explicit
  // transaction, every statement but COMMIT and ROLLBACK fails until it ends, and either
  // ends it by rolling back.
  Result<QueryResult> Run(const sql::Statement& statement) {
    if (!lakes.in_transaction()) return RunStatement(statement);
    const bool ends = statement.kind == sql::StatementKind::kCommit ||
                      statement.kind == sql::StatementKind::kRollback;
    if (transaction_aborted) {
      if (!ends) {
        return Status::InvalidArgument(
            "TransactionContext Error: Current transaction is aborted (please ROLLBACK)");
      }
      auto rollback = sql::TransactionStatement(sql::StatementKind::kRollback, "ROLLBACK");
      return RunStatement(*rollback);
    }
    Result<QueryResult> result = RunStatement(statement);
    if (!result.ok()) {
      NoteError(result.status());
    } else if (result->reader && !ends && lakes.in_transaction()) {
      const int64_t transaction = transaction_number;
      result->reader = std::make_unique<TransactionGuardedReader>(
          std::move(result->reader), [this, transaction](const Status& error) {
            if (transaction == transaction_number) NoteError(error);
          });
    }
    return result;
  }

  void NoteError(const Status& error) {
    if (lakes.in_transaction() && InvalidatesTransaction(error)) transaction_aborted = true;
  }

  Result<QueryResult> RunStatement(const sql::Statement& statement) {
    expr::StatementTimeScope statement_time;  // now() is one value in a statement
    expr::VariablesScope statement_variables(&variables);  // getvariable()
    expr::SettingsScope statement_settings(&values.values());  // current_setting()
    // Macros in expressions bound outside a query's planning (a table's sort key).
    const expr::MacroExpansionScope::Expand expand_macros =
        [this](std::unique_ptr<ast::Expr>* call) { return sql::ExpandMacroCall(call, Context()); };
    expr::MacroExpansionScope statement_macros(&expand_macros);
    QueryResult result;
    result.statement = statement.text;
    switch (statement.kind) {
      case sql::StatementKind::kSelect: {
        TARN_ASSIGN_OR_RETURN(auto root, Plan(statement));
        result.schema = root->schema();
        result.reader = std::move(root);
        return result;
      }
      case sql::StatementKind::kCopy: {
        TARN_ASSIGN_OR_RETURN(auto root, Plan(statement));
        TARN_ASSIGN_OR_RETURN(int64_t rows, sql::ExecuteCopy(root.get(), statement, Context()));
        auto schema = std::make_shared<Schema>();
        schema->fields.emplace_back("Count", DataType(TypeId::kInt64));
        ColumnBuilder count{DataType(TypeId::kInt64)};
        count.AppendNumber<int64_t>(rows);
        result.kind = QueryKind::kCommand;
        result.schema = schema;
        result.reader = MakeVectorReader(schema, {MakeBatch(schema, {count.Finish()})});
        return result;
      }
      case sql::StatementKind::kExplain: {
        const sql::Statement& inner = *statement.inner;
        if (!inner.select || (inner.kind != sql::StatementKind::kSelect &&
                              inner.kind != sql::StatementKind::kCopy)) {
          return Status::NotSupported("not yet supported: EXPLAIN of this statement");
        }
        TARN_ASSIGN_OR_RETURN(auto root, Plan(inner));
        std::vector<std::string> lines;
        if (statement.analyze) {
          auto start = std::chrono::steady_clock::now();
          int64_t rows = 0;
          while (true) {
            TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, root->Next());
            if (!batch) break;
            rows += batch->num_rows;
          }
          double ms = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start).count();
          char timing[96];
          std::snprintf(timing, sizeof(timing), "result: %lld rows in %.1f ms",
                        static_cast<long long>(rows), ms);
          lines.push_back(timing);
        }
        for (const std::string& line : sql::ExplainLines(*root)) lines.push_back(line);
        // As DuckDB answers EXPLAIN: one row of (explain_key, explain_value), the plan's lines
        // in one text.
        std::string plan;
        for (const std::string& line : lines) {
          if (!plan.empty()) plan += '\n';
          plan += line;
        }
        std::vector<std::vector<std::optional<std::string>>> rows = {
            {std::string(statement.analyze ? "analyzed_plan" : "physical_plan"),
             std::move(plan)}};
        auto batch = TextBatch({"explain_key", "explain_value"}, rows);
        result.schema = batch->schema;
        result.reader = MakeVectorReader(batch->schema, {batch});
        return result;
      }
      case sql::StatementKind::kDescribe: {
        TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> described,
                              sql::DescribeRows(*statement.select, statement.text, Context()));
        return RowsResult(std::move(result), std::move(described));
      }
      case sql::StatementKind::kShowTables: {
        TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch,
                              sql::ShowTables(statement.show_all, Context()));
        return RowsResult(std::move(result), std::move(batch));
      }
      case sql::StatementKind::kCall:
        if (sql::IsMaintenanceCall(statement)) {
          TARN_ASSIGN_OR_RETURN(sql::LakeState * target, lakes.TargetOf(statement, Context()));
          TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows,
                                sql::RunMaintenanceCall(statement, target, Context().Watch()));
          return RowsResult(std::move(result), std::move(rows));
        }
        if (sql::IsDucklakeFunction(statement.select->from.names[0]) &&
            !sql::IsReadOnlyDucklakeFunction(statement.select->from.names[0]) &&
            !sql::IsWriteStatement(statement)) {
          // Maintenance procedures (expire, merge, rewrite, cleanup, flush, ...).
          return Status::NotSupported("not yet supported: ", statement.what,
                                      lakes.current() ? "" : " needs an attached DuckLake lake");
        }
        if (!sql::IsWriteStatement(statement)) {
          TARN_ASSIGN_OR_RETURN(auto root, Plan(statement));
          result.schema = root->schema();
          result.reader = std::move(root);
          return result;
        }
        return RunWrite(statement, std::move(result));
      case sql::StatementKind::kCreateTable:
      case sql::StatementKind::kInsert:
      case sql::StatementKind::kDelete:
      case sql::StatementKind::kUpdate:
      case sql::StatementKind::kCreateSchema:
      case sql::StatementKind::kDropSchema:
      case sql::StatementKind::kDropTable:
      case sql::StatementKind::kAlterTable:
      case sql::StatementKind::kCreateView:
      case sql::StatementKind::kDropView:
      case sql::StatementKind::kCreateMacro:
      case sql::StatementKind::kDropMacro:
      case sql::StatementKind::kMerge:
        return RunWrite(statement, std::move(result));
      case sql::StatementKind::kBegin:
      case sql::StatementKind::kCommit:
      case sql::StatementKind::kRollback:
        transaction_aborted = false;
        ++transaction_number;
        TARN_RETURN_NOT_OK(statement.kind == sql::StatementKind::kBegin
                               ? lakes.Begin(statement, Context())
                               : lakes.End(statement, Context()));
        return EmptyResult(std::move(result));
      case sql::StatementKind::kCheckpoint:
        TARN_RETURN_NOT_OK(Checkpoint(statement));
        return EmptyResult(std::move(result));
      case sql::StatementKind::kCreateSecret: {
        std::vector<Value> option_values;
        for (const auto& [name, expression] : statement.session->options) {
          if (expression == nullptr) {
            option_values.push_back(Value::Boolean(true));
            continue;
          }
          Schema empty;
          TARN_ASSIGN_OR_RETURN(auto bound, Bind(*expression, empty));
          if (!bound->IsConstant()) {
            return Status::InvalidArgument("Binder Error: secret option ", name,
                                           " needs a constant value");
          }
          TARN_ASSIGN_OR_RETURN(Value value, bound->EvaluateConstant());
          option_values.push_back(std::move(value));
        }
        TARN_RETURN_NOT_OK(secrets->Create(*statement.session, option_values));
        return EmptyResult(std::move(result));
      }
      case sql::StatementKind::kDropSecret:
        TARN_RETURN_NOT_OK(secrets->Drop(*statement.session));
        return EmptyResult(std::move(result));
      case sql::StatementKind::kAttach:
      case sql::StatementKind::kDetach:
      case sql::StatementKind::kUse:
        TARN_RETURN_NOT_OK(lakes.Run(statement, fs, Context()));
        return EmptyResult(std::move(result));
      case sql::StatementKind::kSet:
      case sql::StatementKind::kReset: {
        TARN_RETURN_NOT_OK(Set(statement, statement.kind == sql::StatementKind::kReset));
        return EmptyResult(std::move(result));
      }
      case sql::StatementKind::kPrepare:
        prepared[statement.setting] = statement.inner->text;
        return EmptyResult(std::move(result));
      case sql::StatementKind::kExecute:
        return Execute(statement);
      case sql::StatementKind::kLoad: {
        // What these DuckDB extensions give is part of tarn; others are not.
        static const char* const kBuiltIn[] = {"ducklake", "parquet", "json", "icu", "sqlite",
                                               "sqlite_scanner", "core_functions"};
        std::string name = statement.setting;
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (const char* built_in : kBuiltIn) {
          if (name == built_in) return EmptyResult(std::move(result));
        }
        return Status::NotSupported("not yet supported: the extension \"", statement.setting,
                                    "\" (tarn has ducklake, parquet, json, icu and sqlite "
                                    "built in)");
      }
      case sql::StatementKind::kDeallocate:
        prepared.erase(statement.setting);
        return EmptyResult(std::move(result));
      case sql::StatementKind::kUnsupported:
        return Status::NotSupported("not yet supported: ", statement.what);
    }
    return Status::Internal("unknown statement kind");
  }

  // A command without rows (SET, ATTACH, BEGIN).
  static Result<QueryResult> EmptyResult(QueryResult result) {
    result.kind = QueryKind::kCommand;
    result.schema = std::make_shared<Schema>();
    result.reader = MakeVectorReader(result.schema, {});
    return result;
  }

  // A write statement: a command whose result is the row count (INSERT, DELETE, UPDATE,
  // CREATE TABLE AS), or nothing.
  Result<QueryResult> RunWrite(const sql::Statement& statement, QueryResult result) {
    sql::ExecContext context = Context();
    std::optional<int64_t> rows;
    if (const sql::LakeBinding* owner = sql::MetadataWriteTarget(statement, context)) {
      TARN_ASSIGN_OR_RETURN(rows, sql::ExecuteMetadataWrite(statement, *owner, context));
    } else {
      TARN_ASSIGN_OR_RETURN(sql::LakeState * target, lakes.TargetOf(statement, context));
      // Creating a built-in database adds it to what the statement's query can read.
      context = Context();
      TARN_ASSIGN_OR_RETURN(rows, sql::ExecuteWriteStatement(statement, target, context));
    }
    result.kind = QueryKind::kCommand;
    auto schema = std::make_shared<Schema>();
    std::vector<std::shared_ptr<Batch>> batches;
    if (rows.has_value()) {
      schema->fields.emplace_back("Count", DataType(TypeId::kInt64));
      ColumnBuilder count{DataType(TypeId::kInt64)};
      count.AppendNumber<int64_t>(*rows);
      batches.push_back(MakeBatch(schema, {count.Finish()}));
    }
    result.schema = schema;
    result.reader = MakeVectorReader(schema, std::move(batches));
    return result;
  }
};

Session::Session(std::shared_ptr<FileSystem> fs) : impl_(std::make_unique<Impl>()) {
  std::shared_ptr<StorageRouter> router;
  if (fs == nullptr) router = std::make_shared<StorageRouter>(LocalFileSystem());
  impl_->fs = fs ? std::move(fs) : router;
  impl_->secrets = std::make_unique<sql::StorageSecrets>(std::move(router));
  impl_->settings.threads = impl_->values.threads();
  impl_->settings.memory_limit = impl_->values.memory_limit();
  impl_->lakes.set_settings(&impl_->values.lake());
}

Session::~Session() = default;

SqlCatalog* Session::catalog() { return &impl_->catalog; }

Status Session::Attach(std::string_view locator, const AttachOptions& options) {
  return impl_->lakes.Attach(locator, options, impl_->fs, /*make_default=*/true);
}

Status Session::Attach(std::unique_ptr<Lake> lake, const AttachOptions& options) {
  return impl_->lakes.Attach(std::move(lake), options, impl_->fs, /*make_default=*/true);
}

Lake* Session::attached_lake() {
  return impl_->lakes.current() ? impl_->lakes.current()->lake.get() : nullptr;
}
const SqlSettings& Session::settings() const { return impl_->settings; }

Result<QueryResult> Session::Execute(std::string_view sql) {
  TARN_ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(sql));
  if (statements.size() != 1) {
    return Status::InvalidArgument("Execute takes exactly one statement, got ", statements.size());
  }
  impl_->StartStatement();
  Result<QueryResult> result = impl_->Run(*statements[0]);
  if (!result.ok()) return PlaceColumnError(result.status(), statements[0]->text);
  return result;
}

void Session::Interrupt() { impl_->interrupted.store(true, std::memory_order_relaxed); }

StatementProgress Session::Progress() const {
  StatementProgress progress;
  progress.rows_read = impl_->rows_read.load(std::memory_order_relaxed);
  progress.rows_planned = impl_->rows_planned.load(std::memory_order_relaxed);
  progress.unit = impl_->progress_unit.load(std::memory_order_relaxed);
  return progress;
}

Status Session::ExecuteScript(std::string_view script,
                              const std::function<Status(QueryResult&)>& on_result) {
  TARN_ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(script));
  for (const auto& statement : statements) {
    impl_->StartStatement();
    Result<QueryResult> result = impl_->Run(*statement);
    if (!result.ok()) return PlaceColumnError(result.status(), statement->text);
    TARN_RETURN_NOT_OK(on_result(*result));
  }
  return Status::OK();
}

}  // namespace tarn
