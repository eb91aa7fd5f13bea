#include "sql/lake/write_statements.h"

#include "sql/exec/batch_bytes.h"
#include "sql/lake/joined_writes.h"

#include <cctype>
#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/eval/cast.h"
#include "expr/parse/lexer.h"
#include "sql/parse/select_text.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "sql/plan/source.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#if TARN_SQL_LAKE_WRITES
#include "table/write_rows.h"
#include "tarn/layout.h"
#include "tarn/table_write.h"
#endif

namespace tarn::sql {

void TransactionDeleter::operator()(WriteTransaction* transaction) const {
#if TARN_SQL_LAKE_WRITES
  delete transaction;
#else
  (void)transaction;  // never created without the write side
#endif
}

LakeState::LakeState() = default;
LakeState::~LakeState() {
  transaction.reset();  // rolls back an open transaction before the lake closes
  binding.transaction = nullptr;
}

namespace {

bool IsCallOf(const Statement& statement, std::string_view name) {
  return statement.kind == StatementKind::kCall && statement.select &&
         LowerAscii(statement.select->from.names[0]) == name;
}

}  // namespace

bool IsWriteStatement(const Statement& statement) {
  switch (statement.kind) {
    case StatementKind::kCreateTable:
    case StatementKind::kInsert:
    case StatementKind::kDelete:
    case StatementKind::kUpdate:
    case StatementKind::kCreateSchema:
    case StatementKind::kDropSchema:
    case StatementKind::kDropTable:
    case StatementKind::kAlterTable:
    case StatementKind::kCreateView:
    case StatementKind::kDropView:
    case StatementKind::kCreateMacro:
    case StatementKind::kDropMacro:
    case StatementKind::kMerge:
    case StatementKind::kBegin:
    case StatementKind::kCommit:
    case StatementKind::kRollback:
      return true;
    case StatementKind::kCall:
      return IsCallOf(statement, "ducklake_set_option") ||
             IsCallOf(statement, "ducklake_set_commit_message") ||
             IsCallOf(statement, "ducklake_add_data_files");
    default:
      return false;
  }
}

#if TARN_SQL_LAKE_WRITES
namespace {

Result<Value> ConstantOf(const ast::Expr& expr, std::string_view what) {
  Schema empty;
  Result<std::unique_ptr<BoundExpr>> bound = Bind(expr, empty);
  if (!bound.ok()) return bound.status();
  if (!(*bound)->IsConstant()) {
    return Status::InvalidArgument("Binder Error: ", what, " must be a constant, not \"",
                                   expr.ToString(), "\"");
  }
  return (*bound)->EvaluateConstant();
}

// t.col / alias.col → col in a predicate or assignment over the target table.
void StripTarget(ast::Expr* expr, const WriteStmt& write) {
  if (expr->kind == ast::ExprKind::kColumnRef && expr->names.size() >= 2) {
    const std::string first = LowerAscii(expr->names[0]);
    if (first == LowerAscii(write.names.back()) ||
        (!write.alias.empty() && first == LowerAscii(write.alias))) {
      expr->names.erase(expr->names.begin());
    }
  }
  for (auto& child : expr->children) StripTarget(child.get(), write);
}

std::string TargetText(const ast::Expr& expr, const WriteStmt& write) {
  auto copy = expr.Clone();
  StripTarget(copy.get(), write);
  return copy->ToString();
}

// SET SORTED BY items as the catalog stores them: the expression in DuckDB's spelling.
bool HasWindow(const ast::Expr& expr) {
  if (expr.kind == ast::ExprKind::kWindow) return true;
  for (const auto& child : expr.children) {
    if (HasWindow(*child)) return true;
  }
  return false;
}

Result<std::vector<SortField>> SortFieldsOf(const std::vector<OrderItem>& items) {
  std::vector<SortField> fields;
  for (const OrderItem& item : items) {
    if (HasWindow(*item.expr)) {
      return Status::InvalidArgument("Binder Error: window functions are not allowed in ",
                                     "SORTED BY");
    }
    SortField field;
    field.expression = ast::ToDuckDBText(*item.expr);
    field.dialect = "duckdb";
    field.descending = item.descending;
    field.nulls_first = item.nulls_first.value_or(false);
    fields.push_back(std::move(field));
  }
  return fields;
}

// The picker's key as catalog sort fields (plain column names in DuckDB's spelling).
std::vector<SortField> SortFieldsOf(const SortKeyChoice& choice) {
  std::vector<SortField> fields;
  for (const SortKeyColumn& column : choice.key) {
    SortField field;
    field.expression = ast::DuckDBIdentifier(column.name);
    field.dialect = "duckdb";
    field.descending = column.descending;
    field.nulls_first = column.nulls_first;
    fields.push_back(std::move(field));
  }
  return fields;
}

// A DuckDB type DuckLake does not store: a fixed-size ARRAY (INTEGER[3], also inside a STRUCT),
// UNION, ENUM, BIT, BIGNUM.
bool IsTypeDuckLakeLacks(const std::string& type_text) {
  std::string upper;
  for (char c : type_text) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (size_t open = upper.find('['); open != std::string::npos; open = upper.find('[', open + 1)) {
    if (open + 1 < upper.size() && std::isdigit(static_cast<unsigned char>(upper[open + 1]))) {
      return true;
    }
  }
  for (const char* word : {"UNION", "ENUM", "BIT", "BITSTRING", "BIGNUM", "VARINT"}) {
    const size_t at = upper.find(word);
    if (at == std::string::npos) continue;
    const size_t end = at + std::string_view(word).size();
    const bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(upper[at - 1]));
    const bool ends = end == upper.size() || upper[end] == '(' || upper[end] == ' ' ||
                      upper[end] == ')' || upper[end] == ',' || upper[end] == '[';
    if (starts && ends) return true;
  }
  return false;
}

// Whether a DEFAULT is a literal the catalog stores as its value: a constant, a signed number,
// a cast of one, or a list, struct or MAP literal of them. Anything else (now(), round(pi()))
// is an expression stored as DuckDB prints it and evaluated at each insert.
bool IsLiteralDefault(const ast::Expr& e) {
  auto all_children = [&] {
    for (const auto& child : e.children) {
      if (!IsLiteralDefault(*child)) return false;
    }
    return true;
  };
  switch (e.kind) {
    case ast::ExprKind::kLiteral:
      return true;
    case ast::ExprKind::kUnary:
      return (e.op == ast::Op::kNegate || e.op == ast::Op::kPlus) && all_children();
    case ast::ExprKind::kCast: case ast::ExprKind::kList: case ast::ExprKind::kStruct:
      return all_children();
    case ast::ExprKind::kFunction:
      return !e.names.empty() && e.names[0] == "map" && !e.has_filter && e.arg_orders.empty() && all_children();
    default:
      return false;
  }
}

Result<ColumnDefinition> ToDefinition(const ColumnDef& column) {
  ColumnDefinition definition;
  definition.name = column.name;
  Result<DataType> type = ParseSqlType(column.type_text);
  if (!type.ok()) {
    if (IsTypeDuckLakeLacks(column.type_text)) {
      return Status::InvalidArgument(
          "Invalid Input Error: Failed to convert DuckDB type to DuckLake - unsupported type ",
          column.type_text, " (column \"", column.name, "\")");
    }
    return Status::InvalidArgument("Catalog Error: type \"", column.type_text,
                                   "\" of column \"", column.name, "\" does not exist");
  }
  definition.type = *type;
  definition.nulls_allowed = !column.not_null;
  if (column.default_value && !IsLiteralDefault(*column.default_value)) {
    definition.default_expression = ast::ToDuckDBText(*column.default_value);
  } else if (column.default_value) {
    TARN_ASSIGN_OR_RETURN(Value value, ConstantOf(*column.default_value, "a DEFAULT"));
    TARN_ASSIGN_OR_RETURN(definition.default_value, expr::CastValue(value, definition.type));
  }
  return definition;
}

// A CREATE MACRO implementation as the catalog stores it: the expression in DuckDB's spelling
// (a table macro's query too, where tarn prints it), parameter types and defaults by their DuckLake names.
Result<MacroImpl> ToMacroImpl(const MacroImplDef& def) {
  MacroImpl impl;
  impl.is_table = def.query != nullptr;
  if (impl.is_table) {
    // The query as DuckDB prints it, when tarn can print it so; else as written.
    std::optional<std::string> printed = SelectText(*def.query);
    impl.sql = printed ? *printed : def.query_text;
  } else {
    impl.sql = ast::ToDuckDBText(*def.body);
  }
  std::vector<std::string> seen;
  for (const MacroParameterDef& parameter : def.parameters) {
    for (const std::string& name : seen) {
      if (LowerAscii(name) == LowerAscii(parameter.name)) {
        return Status::InvalidArgument("Binder Error: Duplicate parameter \"", parameter.name,
                                       "\" in macro definition");
      }
    }
    seen.push_back(parameter.name);
    MacroParameter out;
    out.name = parameter.name;
    if (!parameter.type_text.empty()) {
      Result<DataType> type = ParseSqlType(parameter.type_text);
      if (!type.ok()) {
        return Status::InvalidArgument("Catalog Error: type \"", parameter.type_text,
                                       "\" of macro parameter \"", parameter.name,
                                       "\" does not exist");
      }
      out.type = type->ToDuckLakeName();
    }
    if (parameter.default_value) {
      TARN_ASSIGN_OR_RETURN(Value value,
                            ConstantOf(*parameter.default_value, "a macro parameter default"));
      out.default_value_type = value.type().ToDuckLakeName();
      if (!value.is_null()) {
        TARN_ASSIGN_OR_RETURN(Value text, expr::CastValue(value, DataType(TypeId::kVarchar)));
        out.default_value = text.GetBytes();
      }
    } else if (!impl.parameters.empty() && impl.parameters.back().default_value.has_value()) {
      return Status::InvalidArgument(
          "Parser Error: Positional parameters cannot come after parameters with a default "
          "value!");
    }
    impl.parameters.push_back(std::move(out));
  }
  return impl;
}

// Renames the columns of a query's batches to the insert target's names.
class RenamingReader : public BatchReader {
 public:
  RenamingReader(std::unique_ptr<Operator> input, std::shared_ptr<const Schema> schema)
      : input_(std::move(input)), schema_(std::move(schema)) {}
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input_->Next());
    if (!batch) return batch;
    auto out = MakeBatch(schema_, std::move(batch->columns));
    out->num_rows = batch->num_rows;
    return out;
  }

 private:
  std::unique_ptr<Operator> input_;
  std::shared_ptr<const Schema> schema_;
};

// The batches already read from a query, then the rest of it.
class HeldThenRest : public BatchReader {
 public:
  HeldThenRest(std::vector<std::shared_ptr<Batch>> held, std::unique_ptr<Operator> rest,
               std::shared_ptr<const Schema> schema)
      : held_(std::move(held)), rest_(std::move(rest)), schema_(std::move(schema)) {}
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    if (next_held_ < held_.size()) return std::move(held_[next_held_++]);
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, rest_->Next());
    if (!batch) return batch;
    auto out = MakeBatch(schema_, std::move(batch->columns));
    out->num_rows = batch->num_rows;
    return out;
  }

 private:
  std::vector<std::shared_ptr<Batch>> held_;
  size_t next_held_ = 0;
  std::unique_ptr<Operator> rest_;
  std::shared_ptr<const Schema> schema_;
};

class Writer {
 public:
  Writer(const Statement& statement, LakeState* lake, const ExecContext& context)
      : statement_(statement), write_(*statement.write), lake_(lake), context_(context) {}

  Result<std::optional<int64_t>> Run(WriteTransaction* txn) {
    txn_ = txn;
    // An insert into a sorted table sorts its rows within the session's memory_limit: the
    // external sort holds its rows and their sorted copy, so it gets half.
    txn_->SetSortMemoryLimit(context_.memory_limit / 2);
    switch (statement_.kind) {
      case StatementKind::kCreateSchema: {
        TARN_ASSIGN_OR_RETURN(std::string schema, SchemaName());
        TARN_RETURN_NOT_OK(txn->CreateSchema(schema, write_.if_not_exists));
        return std::optional<int64_t>();
      }
      case StatementKind::kDropSchema: {
        TARN_ASSIGN_OR_RETURN(std::string schema, SchemaName());
        if (!write_.if_exists) {
          TARN_ASSIGN_OR_RETURN(auto snapshot, View());
          TARN_RETURN_NOT_OK(CheckBuiltinSchema(*snapshot, schema));
        }
        TARN_RETURN_NOT_OK(txn->DropSchema(schema, write_.if_exists, write_.cascade));
        return std::optional<int64_t>();
      }
      case StatementKind::kCreateTable: return CreateTable();
      case StatementKind::kDropTable: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        TARN_RETURN_NOT_OK(txn->DropTable(name.schema, name.name, write_.if_exists));
        return std::optional<int64_t>();
      }
      case StatementKind::kCreateView: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        if (write_.if_not_exists) {
          TARN_ASSIGN_OR_RETURN(auto snapshot, View());
          if (snapshot->FindView(name.schema, name.name)) return std::optional<int64_t>();
        }
        TARN_RETURN_NOT_OK(txn->CreateView(name.schema, name.name, write_.query_text,
                                           write_.view_aliases, write_.or_replace));
        return std::optional<int64_t>();
      }
      case StatementKind::kDropView: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        TARN_RETURN_NOT_OK(txn->DropView(name.schema, name.name, write_.if_exists));
        return std::optional<int64_t>();
      }
      case StatementKind::kCreateMacro: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        std::vector<MacroImpl> impls;
        for (const MacroImplDef& def : write_.macro_impls) {
          TARN_ASSIGN_OR_RETURN(MacroImpl impl, ToMacroImpl(def));
          impls.push_back(std::move(impl));
        }
        TARN_RETURN_NOT_OK(txn->CreateMacro(name.schema, name.name, std::move(impls),
                                            write_.or_replace, write_.if_not_exists));
        return std::optional<int64_t>();
      }
      case StatementKind::kDropMacro: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        TARN_RETURN_NOT_OK(
            txn->DropMacro(name.schema, name.name, write_.table_macro, write_.if_exists));
        return std::optional<int64_t>();
      }
      case StatementKind::kAlterTable: return Alter();
      case StatementKind::kInsert: return Insert();
      case StatementKind::kMerge: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        return RunJoinedWrite(statement_, name, txn_, context_);
      }
      case StatementKind::kDelete: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        if (write_.from) return RunJoinedWrite(statement_, name, txn_, context_);
        std::optional<std::string> predicate;
        if (write_.where) predicate = TargetText(*write_.where, write_);
        TARN_ASSIGN_OR_RETURN(WriteResult result, txn->Delete(name.schema, name.name, predicate));
        return std::optional<int64_t>(result.rows);
      }
      case StatementKind::kUpdate: {
        TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
        if (write_.from) return RunJoinedWrite(statement_, name, txn_, context_);
        std::vector<UpdateAssignment> assignments;
        for (const auto& [column, value] : write_.assignments) {
          assignments.push_back({column, TargetText(*value, write_)});
        }
        std::optional<std::string> predicate;
        if (write_.where) predicate = TargetText(*write_.where, write_);
        TARN_ASSIGN_OR_RETURN(WriteResult result,
                              txn->Update(name.schema, name.name, assignments, predicate));
        return std::optional<int64_t>(result.rows);
      }
      default:
        return Status::Internal("not a write statement: ", statement_.what);
    }
  }

 private:
  Result<std::shared_ptr<const LakeSnapshot>> View() { return txn_->Snapshot(); }

  Result<LakeObjectName> Target() {
    TARN_ASSIGN_OR_RETURN(auto snapshot, View());
    TARN_ASSIGN_OR_RETURN(LakeObjectName name,
                          ResolveLakeName(write_.names, lake_->binding, *snapshot));
    if (!write_.if_exists) TARN_RETURN_NOT_OK(CheckBuiltinSchema(*snapshot, name.schema));
    return name;
  }

  // DuckDB's words for a schema its own database does not have (a lake's are the extension's,
  // from the transaction).
  Status CheckBuiltinSchema(const LakeSnapshot& snapshot, const std::string& schema) const {
    if (lake_->binding.is_ducklake() || snapshot.FindSchema(schema) != nullptr) {
      return Status::OK();
    }
    return Status::NotFound("Catalog Error: Schema with name ", schema, " does not exist!");
  }

  // CREATE/DROP SCHEMA [catalog.]name
  Result<std::string> SchemaName() {
    if (write_.names.size() == 2) {
      if (LowerAscii(write_.names[0]) != LowerAscii(lake_->binding.name)) {
        return Status::NotFound("Catalog Error: catalog \"", write_.names[0],
                                "\" does not exist; the attached lake is \"",
                                lake_->binding.name, "\"");
      }
      return write_.names[1];
    }
    if (write_.names.size() != 1) {
      return Status::InvalidArgument("Parser Error: a schema name has at most two parts");
    }
    return write_.names[0];
  }

  Result<std::unique_ptr<Operator>> PlanQuery() {
    return PlanSelect(*write_.query, statement_.text, context_);
  }

  Result<std::optional<int64_t>> CreateTable() {
    TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
    if (write_.or_replace) TARN_RETURN_NOT_OK(txn_->DropTable(name.schema, name.name, true));
    std::vector<ColumnDefinition> columns;
    std::unique_ptr<Operator> query;
    if (write_.query) {
      TARN_ASSIGN_OR_RETURN(query, PlanQuery());
      for (const Field& field : query->schema()->fields) {
        ColumnDefinition definition;
        definition.name = field.name;
        definition.type = field.type;
        columns.push_back(std::move(definition));
      }
    } else {
      for (const ColumnDef& column : write_.columns) {
        TARN_ASSIGN_OR_RETURN(ColumnDefinition definition, ToDefinition(column));
        columns.push_back(std::move(definition));
      }
    }
    TARN_RETURN_NOT_OK(txn_->CreateTable(name.schema, name.name, columns, write_.if_not_exists));
    if (!query) return std::optional<int64_t>();
    if (write_.no_data) return std::optional<int64_t>(0);
    auto schema = std::make_shared<Schema>(*query->schema());
    if (write_.sort_auto) return CreateSortedByAuto(name, std::move(query), schema);
    if (!write_.sort_keys.empty()) {
      TARN_ASSIGN_OR_RETURN(std::vector<SortField> fields, SortFieldsOf(write_.sort_keys));
      TARN_RETURN_NOT_OK(txn_->SetSortKey(name.schema, name.name, std::move(fields)));
    }
    RenamingReader rows(std::move(query), schema);
    TARN_ASSIGN_OR_RETURN(WriteResult result, txn_->Insert(name.schema, name.name, rows));
    return std::optional<int64_t>(result.rows);
  }

  // CREATE TABLE … SORTED BY AUTO AS: the picker chooses over the query's rows and the table
  // stores the key it picked. Rows that fit in half the memory_limit are picked over in memory
  // and inserted in key order; more are inserted as they come, then picked over by scanning the
  // table (at most two scans) and rewritten in key order (an external sort), in the same
  // transaction: one snapshot either way.
  Result<std::optional<int64_t>> CreateSortedByAuto(const LakeObjectName& name,
                                                    std::unique_ptr<Operator> query,
                                                    std::shared_ptr<const Schema> schema) {
    std::vector<std::shared_ptr<Batch>> batches;
    int64_t bytes = 0;
    bool too_many = false;
    while (!too_many) {
      TARN_ASSIGN_OR_RETURN(auto batch, query->Next());
      if (!batch) break;
      if (batch->num_rows == 0) continue;
      auto renamed = MakeBatch(schema, batch->columns);
      renamed->num_rows = batch->num_rows;
      bytes += BatchBytes(*renamed);
      batches.push_back(std::move(renamed));
      too_many = bytes > context_.memory_limit / 2;
    }
    if (!too_many) {
      TARN_ASSIGN_OR_RETURN(SortKeyChoice choice, PickSortKey(schema, batches, PickerSettings()));
      TARN_RETURN_NOT_OK(txn_->SetSortKey(name.schema, name.name, SortFieldsOf(choice)));
      auto rows = MakeVectorReader(schema, std::move(batches));
      TARN_ASSIGN_OR_RETURN(WriteResult result, txn_->Insert(name.schema, name.name, *rows));
      return std::optional<int64_t>(result.rows);
    }
    HeldThenRest rows(std::move(batches), std::move(query), schema);
    TARN_ASSIGN_OR_RETURN(WriteResult result, txn_->Insert(name.schema, name.name, rows));
    TARN_RETURN_NOT_OK(SortTableByAuto(name.schema, name.name));
    return std::optional<int64_t>(result.rows);
  }

  // The picker as the session's layout_picker and layout_sample_rows set it.
  PickerOptions PickerSettings() const {
    PickerOptions options;
    options.mode = context_.layout_picker;
    options.sample_rows = context_.layout_sample_rows;
    return options;
  }

  // SET SORTED BY AUTO: pick over the table's rows at the transaction's view, store the
  // explicit key, and rewrite the table in that order in the same snapshot.
  Status SortTableByAuto(const std::string& s, const std::string& t) {
    WriteTransaction* txn = txn_;
    RowSourceFactory open_rows = [txn, s, t]() -> Result<std::unique_ptr<BatchReader>> {
      TARN_ASSIGN_OR_RETURN(auto scan, txn->Scan(s, t));
      return std::unique_ptr<BatchReader>(std::move(scan));
    };
    TARN_ASSIGN_OR_RETURN(SortKeyChoice choice, PickSortKey(open_rows, PickerSettings()));
    TARN_RETURN_NOT_OK(txn_->SetSortKey(s, t, SortFieldsOf(choice)));
    if (!choice.key.empty()) TARN_RETURN_NOT_OK(txn_->RewriteInSortOrder(s, t).status());
    return Status::OK();
  }

  Result<std::optional<int64_t>> Insert() {
    TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
    TARN_ASSIGN_OR_RETURN(auto table, txn_->LoadTable(name.schema, name.name));
    const TableInfo& info = *table->table;
    // BY NAME: the query's column names are the column list.
    std::unique_ptr<Operator> by_name_query;
    std::vector<std::string> insert_columns = write_.insert_columns;
    if (write_.by_name) {
      if (!write_.query) {
        return Status::InvalidArgument("Binder Error: INSERT BY NAME can only be used when "
                                       "inserting from a SELECT statement");
      }
      TARN_ASSIGN_OR_RETURN(by_name_query, PlanQuery());
      insert_columns.clear();
      for (const Field& field : by_name_query->schema()->fields) {
        insert_columns.push_back(field.name);
      }
    }
    // The target columns, by name, in the order values come.
    std::vector<const ColumnInfo*> targets;
    if (insert_columns.empty()) {
      for (const ColumnInfo& column : info.columns) targets.push_back(&column);
    } else {
      for (const std::string& wanted : insert_columns) {
        const ColumnInfo* found = nullptr;
        for (const ColumnInfo& column : info.columns) {
          if (LowerAscii(column.name) == LowerAscii(wanted)) found = &column;
        }
        if (found == nullptr) {
          std::vector<std::string> names;
          for (const ColumnInfo& column : info.columns) names.push_back(column.name);
          // DuckDB's words, with the table's columns as its suggestions.
          std::string message = StrCat("Binder Error: Table \"", name.name,
                                       "\" does not have a column with name \"", wanted, "\"");
          std::vector<std::string> closest = expr::ClosestNames(wanted, names);
          if (!closest.empty()) {
            message += "\n\nDid you mean: ";
            for (size_t i = 0; i < closest.size(); ++i) {
              message += StrCat(i ? ", " : "", "\"", closest[i], "\"");
            }
          }
          return Status::NotFound(message);
        }
        targets.push_back(found);
      }
    }
    auto schema = std::make_shared<Schema>();
    for (const ColumnInfo* column : targets) {
      schema->fields.emplace_back(column->name, column->type);
    }
    std::unique_ptr<BatchReader> rows;
    if (write_.default_values) {
      schema->fields.clear();
      auto batch = MakeEmptyColumnsBatch(schema, 1);
      rows = MakeVectorReader(schema, {batch});
    } else if (!write_.values.empty()) {
      std::vector<std::unique_ptr<ColumnBuilder>> builders;
      for (const Field& field : schema->fields) {
        builders.push_back(std::make_unique<ColumnBuilder>(field.type));
      }
      for (size_t r = 0; r < write_.values.size(); ++r) {
        const auto& row = write_.values[r];
        if (row.size() != targets.size()) {
          return Status::InvalidArgument("Binder Error: table \"", name.ToString(), "\" has ",
                                         targets.size(), " columns but ", row.size(),
                                         " values were supplied");
        }
        for (size_t c = 0; c < row.size(); ++c) {
          if (row[c]->kind == ast::ExprKind::kStar && row[c]->text == "DEFAULT") {
            TARN_ASSIGN_OR_RETURN(Value value, ColumnInsertDefault(*targets[c]));
            TARN_RETURN_NOT_OK(builders[c]->Append(value));
            continue;
          }
          TARN_ASSIGN_OR_RETURN(Value value, ConstantOf(*row[c], "an INSERT value"));
          Result<Value> cast = expr::CastValue(value, schema->field(static_cast<int>(c)).type);
          if (!cast.ok()) {
            return Status::InvalidArgument("Conversion Error: ", row[c]->ToString(),
                                           " for column \"", targets[c]->name, "\": ",
                                           cast.status().message());
          }
          TARN_RETURN_NOT_OK(builders[c]->Append(*cast));
        }
      }
      std::vector<std::shared_ptr<Column>> columns;
      for (auto& builder : builders) columns.push_back(builder->Finish());
      auto batch = MakeBatch(schema, std::move(columns));
      batch->num_rows = static_cast<int64_t>(write_.values.size());
      rows = MakeVectorReader(schema, {batch});
    } else {
      std::unique_ptr<Operator> query = std::move(by_name_query);
      if (!query) {
        TARN_ASSIGN_OR_RETURN(query, PlanQuery());
      }
      if (query->schema()->num_fields() != schema->num_fields()) {
        return Status::InvalidArgument("Binder Error: table \"", name.ToString(), "\" has ",
                                       schema->num_fields(), " columns but the query returns ",
                                       query->schema()->num_fields());
      }
      // The query's types, the target's names: Insert casts to the column types.
      auto renamed = std::make_shared<Schema>(*query->schema());
      for (int c = 0; c < renamed->num_fields(); ++c) {
        renamed->fields[c].name = schema->field(c).name;
      }
      rows = std::make_unique<RenamingReader>(std::move(query), renamed);
    }
    TARN_ASSIGN_OR_RETURN(WriteResult result, txn_->Insert(name.schema, name.name, *rows));
    return std::optional<int64_t>(result.rows);
  }

  // COMMENT ON TABLE | VIEW | COLUMN … IS 'text' | NULL
  Result<std::optional<int64_t>> Comment() {
    std::vector<std::string> names = write_.names;
    std::string column;
    if (write_.comment_on == "COLUMN") {
      column = names.back();
      names.pop_back();
    }
    TARN_ASSIGN_OR_RETURN(auto snapshot, View());
    TARN_ASSIGN_OR_RETURN(LakeObjectName name, ResolveLakeName(names, lake_->binding, *snapshot));
    TARN_ASSIGN_OR_RETURN(Value value, ConstantOf(*write_.default_value, "a comment"));
    std::optional<std::string> comment;
    if (!value.is_null()) {
      comment = value.type().id == TypeId::kVarchar ? value.GetBytes() : FormatValue(value);
    }
    const SetCommentChange::Target target =
        write_.comment_on == "VIEW"     ? SetCommentChange::Target::kView
        : write_.comment_on == "COLUMN" ? SetCommentChange::Target::kColumn
                                        : SetCommentChange::Target::kTable;
    TARN_RETURN_NOT_OK(txn_->SetComment(target, name.schema, name.name, column, comment));
    return std::optional<int64_t>();
  }

  Result<std::optional<int64_t>> Alter() {
    if (write_.alter == AlterAction::kSetComment) return Comment();
    TARN_ASSIGN_OR_RETURN(LakeObjectName name, Target());
    if (write_.alter == AlterAction::kRenameView) {
      TARN_RETURN_NOT_OK(txn_->RenameView(name.schema, name.name, write_.new_name,
                                          write_.if_exists));
      return std::optional<int64_t>();
    }
    {
      TARN_ASSIGN_OR_RETURN(auto snapshot, View());
      if (!snapshot->FindTable(name.schema, name.name)) {
        if (snapshot->FindView(name.schema, name.name)) {
          return Status::InvalidArgument("Binder Error: Cannot use ALTER TABLE on entry ",
                                         name.name, " - it is not a table");
        }
        if (write_.if_exists) return std::optional<int64_t>();
      }
    }
    const std::string& s = name.schema;
    const std::string& t = name.name;
    if (!lake_->binding.is_ducklake() &&
        (write_.alter == AlterAction::kSetPartitionedBy ||
         write_.alter == AlterAction::kResetPartitionedBy ||
         write_.alter == AlterAction::kSetSortedBy)) {
      // A layout of data files: DuckLake's, not of DuckDB's own tables.
      return Status::NotSupported("Not implemented Error: ", statement_.what, " ",
                                  write_.alter == AlterAction::kSetSortedBy ? "SET SORTED BY"
                                                                            : "PARTITIONED BY",
                                  " is only supported for DuckLake tables, not for table \"",
                                  t, "\" of database \"", lake_->binding.name, "\"");
    }
    switch (write_.alter) {
      case AlterAction::kAddColumn: {
        TARN_ASSIGN_OR_RETURN(ColumnDefinition definition, ToDefinition(write_.columns[0]));
        if (!write_.column_path.empty()) {
          TARN_RETURN_NOT_OK(
              txn_->AddField(s, t, write_.column_path, definition, write_.if_not_exists));
          break;
        }
        if (write_.if_not_exists) {
          TARN_ASSIGN_OR_RETURN(auto table, txn_->LoadTable(s, t));
          if (table->table->schema.FindField(definition.name) >= 0) {
            return std::optional<int64_t>();
          }
        }
        TARN_RETURN_NOT_OK(txn_->AddColumn(s, t, definition));
        break;
      }
      case AlterAction::kDropColumn:
        if (!write_.column_path.empty()) {
          TARN_RETURN_NOT_OK(
              txn_->DropField(s, t, write_.column_path, write_.column_if_exists));
          break;
        }
        if (write_.column_if_exists) {
          TARN_ASSIGN_OR_RETURN(auto table, txn_->LoadTable(s, t));
          if (table->table->schema.FindField(write_.column) < 0) return std::optional<int64_t>();
        }
        TARN_RETURN_NOT_OK(txn_->DropColumn(s, t, write_.column));
        break;
      case AlterAction::kRenameColumn:
        if (!write_.column_path.empty()) {
          TARN_RETURN_NOT_OK(txn_->RenameField(s, t, write_.column_path, write_.new_name));
          break;
        }
        TARN_RETURN_NOT_OK(txn_->RenameColumn(s, t, write_.column, write_.new_name));
        break;
      case AlterAction::kRenameTable:
        TARN_RETURN_NOT_OK(txn_->RenameTable(s, t, write_.new_name));
        break;
      case AlterAction::kSetType: {
        Result<DataType> type = ParseSqlType(write_.type_text);
        if (!type.ok()) {
          return Status::InvalidArgument("Catalog Error: type \"", write_.type_text,
                                         "\" does not exist");
        }
        TARN_RETURN_NOT_OK(txn_->AlterColumnType(s, t, write_.column, *type));
        break;
      }
      case AlterAction::kSetDefault: {
        if (!IsLiteralDefault(*write_.default_value)) {
          TARN_RETURN_NOT_OK(txn_->SetColumnDefaultExpression(
              s, t, write_.column, ast::ToDuckDBText(*write_.default_value)));
          break;
        }
        TARN_ASSIGN_OR_RETURN(Value value, ConstantOf(*write_.default_value, "a DEFAULT"));
        TARN_ASSIGN_OR_RETURN(auto table, txn_->LoadTable(s, t));
        int index = table->table->schema.FindField(write_.column);
        if (index >= 0) {
          TARN_ASSIGN_OR_RETURN(value,
                                expr::CastValue(value, table->table->schema.field(index).type));
        }
        TARN_RETURN_NOT_OK(txn_->SetColumnDefault(s, t, write_.column, value));
        break;
      }
      case AlterAction::kDropDefault:
        TARN_RETURN_NOT_OK(txn_->SetColumnDefault(s, t, write_.column, std::nullopt));
        break;
      case AlterAction::kSetNotNull:
        TARN_RETURN_NOT_OK(txn_->SetColumnNotNull(s, t, write_.column, true));
        break;
      case AlterAction::kDropNotNull:
        TARN_RETURN_NOT_OK(txn_->SetColumnNotNull(s, t, write_.column, false));
        break;
      case AlterAction::kSetPartitionedBy: {
        std::vector<PartitionKeyDefinition> keys;
        for (const auto& key : write_.partition_keys) {
          TARN_ASSIGN_OR_RETURN(PartitionKeyDefinition definition, PartitionKeyOf(*key));
          keys.push_back(std::move(definition));
        }
        TARN_RETURN_NOT_OK(txn_->SetPartitioning(s, t, keys));
        break;
      }
      case AlterAction::kResetPartitionedBy:
        TARN_RETURN_NOT_OK(txn_->SetPartitioning(s, t, {}));
        break;
      case AlterAction::kSetSortedBy: {
        if (write_.sort_auto) {
          TARN_RETURN_NOT_OK(SortTableByAuto(s, t));
          break;
        }
        TARN_ASSIGN_OR_RETURN(std::vector<SortField> fields, SortFieldsOf(write_.sort_keys));
        TARN_RETURN_NOT_OK(txn_->SetSortKey(s, t, std::move(fields)));
        break;
      }
      case AlterAction::kRenameView:
      case AlterAction::kSetComment:
        break;  // handled above
    }
    return std::optional<int64_t>();
  }

  // A key of SET PARTITIONED BY: column, year/month/day/hour(column) or bucket(n, column).
  static Result<PartitionKeyDefinition> PartitionKeyOf(const ast::Expr& key) {
    auto column_name = [](const ast::Expr& expr) -> std::optional<std::string> {
      if (expr.kind != ast::ExprKind::kColumnRef || expr.names.size() != 1) return std::nullopt;
      return expr.names[0];
    };
    PartitionKeyDefinition definition;
    if (auto name = column_name(key)) {
      definition.column = *name;
      return definition;
    }
    auto refuse = [&]() {
      return Status::InvalidArgument(
          "Binder Error: partition key ", key.ToString(),
          " is not a column, year/month/day/hour(column) or bucket(count, column)");
    };
    if (key.kind != ast::ExprKind::kFunction || key.names.empty()) return refuse();
    const std::string function = LowerAscii(key.names[0]);
    const std::pair<const char*, PartitionTransform> kTemporal[] = {
        {"year", PartitionTransform::kYear},
        {"month", PartitionTransform::kMonth},
        {"day", PartitionTransform::kDay},
        {"hour", PartitionTransform::kHour}};
    for (const auto& [name, transform] : kTemporal) {
      if (function != name) continue;
      if (key.children.size() != 1) return refuse();
      auto column = column_name(*key.children[0]);
      if (!column) return refuse();
      definition.column = *column;
      definition.transform = transform;
      return definition;
    }
    if (function == "bucket") {
      // The extension's checks, in its order and words.
      auto expected = [&]() {
        return Status::InvalidArgument(
            "Invalid Input Error: Expected bucket(bucket_count, column), but got ", key.ToString());
      };
      if (key.children.size() != 2) return expected();
      const ast::Expr* count_expr = key.children[0].get();
      if (count_expr->kind == ast::ExprKind::kUnary && count_expr->children.size() == 1) {
        count_expr = count_expr->children[0].get();  // -1 is a constant to DuckDB's parser
      }
      if (count_expr->kind != ast::ExprKind::kLiteral) {
        return Status::InvalidArgument(
            "Invalid Input Error: Bucket count must be a constant integer, got ", key.ToString());
      }
      auto column = column_name(*key.children[1]);
      if (!column) return expected();
      TARN_ASSIGN_OR_RETURN(Value count, ConstantOf(*key.children[0], "a bucket count"));
      Result<Value> wide = expr::CastValue(count, DataType(TypeId::kInt64));
      if (count.is_null() || !wide.ok()) {
        return Status::InvalidArgument("Invalid Input Error: Bucket count must be an integer");
      }
      if (wide->GetInt64() <= 0) {
        return Status::InvalidArgument("Invalid Input Error: Bucket count must be positive");
      }
      if (wide->GetInt64() > std::numeric_limits<int32_t>::max()) {
        return Status::InvalidArgument("Invalid Input Error: Bucket count cannot exceed ",
                                       std::numeric_limits<int32_t>::max());
      }
      definition.column = *column;
      definition.transform = PartitionTransform::kBucket;
      definition.bucket_count = wide->GetInt64();
      return definition;
    }
    if (function == "epoch_year" || function == "epoch_month" || function == "epoch_day" ||
        function == "epoch_hour") {
      return Status::InvalidArgument("Invalid Input Error: DuckLake 1.0 does not support the ",
                                     function, " partition transform");
    }
    return Status::NotSupported(
        "Not implemented Error: Unsupported partition function ", function,
        " - only year, month, day, hour, epoch_year, epoch_month, epoch_day, epoch_hour, and "
        "bucket are supported");
  }

  const Statement& statement_;
  const WriteStmt& write_;
  LakeState* lake_;
  ExecContext context_;
  WriteTransaction* txn_ = nullptr;
};

// CALL ducklake_set_option(cat, option, value, schema =>, table_name =>) and
// CALL ducklake_set_commit_message(cat, author, message, extra_info =>).
struct CallArguments {
  std::vector<Value> positional;
  std::map<std::string, Value> named;
};

Result<CallArguments> EvaluateCall(const TableRef& call, const LakeBinding& lake, size_t arguments,
                                   const std::vector<std::string>& named) {
  CallArguments args;
  const std::string function = LowerAscii(call.names[0]);
  for (const TableArg& arg : call.args) {
    if (arg.is_list) return Status::InvalidArgument("Binder Error: ", function, " takes no lists");
    TARN_ASSIGN_OR_RETURN(Value value, ConstantOf(*arg.expr, function + " arguments"));
    if (arg.name.empty()) {
      args.positional.push_back(std::move(value));
    } else if (std::find(named.begin(), named.end(), LowerAscii(arg.name)) != named.end()) {
      args.named[LowerAscii(arg.name)] = std::move(value);
    } else {
      return Status::InvalidArgument("Binder Error: ", function, " has no named parameter \"",
                                     arg.name, "\"");
    }
  }
  if (args.positional.size() == arguments) {
    const Value& catalog = args.positional[0];
    if (catalog.is_null() || catalog.type().id != TypeId::kVarchar ||
        LowerAscii(catalog.GetBytes()) != LowerAscii(lake.name)) {
      return Status::NotFound("Catalog Error: catalog \"", FormatValue(catalog),
                              "\" does not exist; the attached lake is \"", lake.name, "\"");
    }
    args.positional.erase(args.positional.begin());
  } else if (args.positional.size() != arguments - 1) {
    return Status::InvalidArgument("Binder Error: ", function, " takes ", arguments,
                                   " positional arguments (the catalog first, which may be "
                                   "left out), got ", args.positional.size());
  }
  return args;
}

std::optional<std::string> OptionalText(const Value& value) {
  if (value.is_null()) return std::nullopt;
  return value.type().id == TypeId::kVarchar ? value.GetBytes() : FormatValue(value);
}

// The table a CALL names in `schema` (the lake's default schema when none is given), or the
// extension's Catalog Error, pointing at a table of that name in another schema.
Status RequireCallTable(WriteTransaction* txn, const std::string& schema,
                        const std::string& table) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, txn->Snapshot());
  std::string elsewhere;
  for (const auto& candidate : snapshot->tables()) {
    if (LowerAscii(candidate->name) != LowerAscii(table)) continue;
    if (LowerAscii(candidate->schema_name) == LowerAscii(schema)) return Status::OK();
    if (elsewhere.empty()) elsewhere = candidate->schema_name + "." + candidate->name;
  }
  std::string message = StrCat("Catalog Error: Table with name ", table, " does not exist!");
  if (!elsewhere.empty()) message += StrCat("\nDid you mean \"", elsewhere, "\"?");
  return Status::NotFound(message);
}

// CALL ducklake_add_data_files(cat, table, file | [files], schema =>, allow_missing =>,
// ignore_extra_columns =>, hive_partitioning =>). Globs are expanded here.
Status RunAddDataFiles(const TableRef& call, LakeState* lake, WriteTransaction* txn,
                       const ExecContext& context) {
  const std::string function = "ducklake_add_data_files";
  std::vector<Value> positional;
  std::vector<std::string> patterns;
  std::optional<std::string> schema;
  AddDataFilesOptions options;
  for (const TableArg& arg : call.args) {
    const std::string name = LowerAscii(arg.name);
    if (arg.is_list) {
      if (!name.empty() || positional.size() != 2) {
        return Status::InvalidArgument("Binder Error: ", function,
                                       " takes a list only as its file list");
      }
      for (const auto& element : arg.list) {
        TARN_ASSIGN_OR_RETURN(Value value, ConstantOf(*element, function + " arguments"));
        if (value.is_null() || value.type().id != TypeId::kVarchar) {
          return Status::InvalidArgument(
              "Invalid Input Error: File list must be a string or a list of strings");
        }
        patterns.push_back(value.GetBytes());
      }
      positional.push_back(Value::Varchar(""));
      continue;
    }
    TARN_ASSIGN_OR_RETURN(Value value, ConstantOf(*arg.expr, function + " arguments"));
    if (name.empty()) {
      if (positional.size() == 2) {
        if (value.is_null()) {
          return Status::InvalidArgument("Invalid Input Error: File list cannot be NULL");
        }
        if (value.type().id == TypeId::kList) {
          for (const Value& element : value.children()) {
            if (element.is_null() || element.type().id != TypeId::kVarchar) {
              return Status::InvalidArgument(
                  "Invalid Input Error: File list must be a string or a list of strings");
            }
            patterns.push_back(element.GetBytes());
          }
        } else if (value.type().id == TypeId::kVarchar) {
          patterns.push_back(value.GetBytes());
        } else {
          return Status::InvalidArgument(
              "Invalid Input Error: File list must be a string or a list of strings");
        }
      }
      positional.push_back(std::move(value));
      continue;
    }
    auto flag = [&](bool* out) -> Status {
      if (value.is_null()) return Status::OK();
      TARN_ASSIGN_OR_RETURN(Value cast, expr::CastValue(value, DataType(TypeId::kBoolean)));
      *out = cast.GetBool();
      return Status::OK();
    };
    if (name == "schema") {
      if (!value.is_null()) schema = value.type().id == TypeId::kVarchar ? value.GetBytes()
                                                                         : FormatValue(value);
    } else if (name == "allow_missing") {
      TARN_RETURN_NOT_OK(flag(&options.allow_missing));
    } else if (name == "ignore_extra_columns") {
      TARN_RETURN_NOT_OK(flag(&options.ignore_extra_columns));
    } else if (name == "hive_partitioning") {
      bool hive = true;
      TARN_RETURN_NOT_OK(flag(&hive));
      if (!value.is_null()) options.hive_partitioning = hive;
    } else {
      return Status::InvalidArgument("Binder Error: ", function, " has no named parameter \"",
                                     arg.name, "\"");
    }
  }
  if (positional.size() != 3) {
    return Status::InvalidArgument("Binder Error: ", function,
                                   " takes the catalog, the table and the files");
  }
  const Value& catalog = positional[0];
  if (catalog.is_null() || catalog.type().id != TypeId::kVarchar ||
      LowerAscii(catalog.GetBytes()) != LowerAscii(lake->binding.name)) {
    return Status::NotFound("Catalog Error: catalog \"", FormatValue(catalog),
                            "\" does not exist; the attached lake is \"", lake->binding.name,
                            "\"");
  }
  if (positional[1].is_null()) {
    return Status::InvalidArgument("Invalid Input Error: Table name cannot be NULL");
  }
  const std::string table = positional[1].type().id == TypeId::kVarchar
                                ? positional[1].GetBytes()
                                : FormatValue(positional[1]);
  const std::string schema_name = schema.value_or(lake->binding.default_schema);
  TARN_RETURN_NOT_OK(RequireCallTable(txn, schema_name, table));
  std::vector<std::string> files;
  for (const std::string& pattern : patterns) {
    Result<std::vector<std::string>> matched = ExpandGlob(context.fs.get(), pattern);
    if (!matched.ok()) {
      return Status::InvalidArgument(
          "Invalid Input Error: Failed to add data files to DuckLake: IO Error: No files found "
          "that match the pattern \"", pattern, "\"");
    }
    files.insert(files.end(), matched->begin(), matched->end());
  }
  return txn->AddDataFiles(schema_name, table, files, options).status();
}

Status RunCall(const Statement& statement, LakeState* lake, WriteTransaction* txn,
               const ExecContext& context) {
  const TableRef& call = statement.select->from;
  if (IsCallOf(statement, "ducklake_add_data_files")) {
    return RunAddDataFiles(call, lake, txn, context);
  }
  if (IsCallOf(statement, "ducklake_set_option")) {
    TARN_ASSIGN_OR_RETURN(CallArguments args,
                          EvaluateCall(call, lake->binding, 3, {"schema", "table_name"}));
    std::optional<std::string> key = OptionalText(args.positional[0]);
    std::optional<std::string> value = OptionalText(args.positional[1]);
    if (!key || !value) {
      return Status::InvalidArgument("Binder Error: ducklake_set_option needs an option and a value");
    }
    std::optional<std::string> schema, table;
    if (auto it = args.named.find("schema"); it != args.named.end()) schema = OptionalText(it->second);
    if (auto it = args.named.find("table_name"); it != args.named.end()) {
      table = OptionalText(it->second);
      if (!schema) schema = "main";
    }
    return txn->SetOption(*key, *value, schema, table);
  }
  TARN_ASSIGN_OR_RETURN(CallArguments args,
                        EvaluateCall(call, lake->binding, 3, {"extra_info"}));
  std::optional<std::string> extra;
  if (auto it = args.named.find("extra_info"); it != args.named.end()) {
    extra = OptionalText(it->second);
  }
  txn->SetCommitInfo(OptionalText(args.positional[0]), OptionalText(args.positional[1]), extra);
  return Status::OK();
}

}  // namespace
#endif  // TARN_SQL_LAKE_WRITES

Result<std::optional<int64_t>> ExecuteWriteStatement(const Statement& statement, LakeState* lake,
                                                     const ExecContext& context) {
  if (statement.kind == StatementKind::kCall && lake != nullptr &&
      !lake->binding.is_ducklake()) {
    return NotADuckLake(lake->binding.name);
  }
  if (lake == nullptr || lake->lake == nullptr) {
    return Status::NotSupported("not yet supported: ", statement.what,
                                " needs an attached DuckLake lake");
  }
  const std::string& name = lake->binding.name;
  if (lake->binding.read_only && statement.kind != StatementKind::kBegin &&
      statement.kind != StatementKind::kCommit && statement.kind != StatementKind::kRollback) {
    return Status::InvalidArgument("Invalid Input Error: cannot run ", statement.what,
                                   ": the lake \"", name, "\" is attached read-only");
  }
#if !TARN_SQL_LAKE_WRITES
  (void)context;
  return Status::NotSupported("not yet supported: ", statement.what,
                              " (writing DuckLake lakes from SQL)");
#else
  switch (statement.kind) {
    case StatementKind::kBegin: {
      if (lake->transaction) {
        return Status::InvalidArgument(
            "TransactionContext Error: cannot start a transaction within a transaction");
      }
      if (lake->binding.read_only) {
        return std::optional<int64_t>();  // reads only: nothing to hold open
      }
      TARN_ASSIGN_OR_RETURN(std::unique_ptr<WriteTransaction> begun,
                            WriteTransaction::Begin(*lake->lake, lake->binding.fs));
      lake->transaction = TransactionPtr(begun.release());
      lake->binding.transaction = lake->transaction.get();
      return std::optional<int64_t>();
    }
    case StatementKind::kCommit:
    case StatementKind::kRollback: {
      if (!lake->transaction) {
        if (lake->binding.read_only) return std::optional<int64_t>();
        return Status::InvalidArgument("TransactionContext Error: cannot ",
                                       statement.kind == StatementKind::kCommit ? "commit"
                                                                                : "roll back",
                                       " - no transaction is active");
      }
      TransactionPtr txn = std::move(lake->transaction);
      lake->binding.transaction = nullptr;
      if (statement.kind == StatementKind::kRollback) {
        TARN_RETURN_NOT_OK(txn->Rollback());
      } else {
        if (lake->binding.settings != nullptr) txn->SetSessionSettings(*lake->binding.settings);
        TARN_RETURN_NOT_OK(txn->Commit().status());
      }
      return std::optional<int64_t>();
    }
    default:
      break;
  }
  if (statement.kind == StatementKind::kCall &&
      IsCallOf(statement, "ducklake_set_commit_message") && !lake->transaction) {
    return Status::InvalidArgument(
        "Invalid Input Error: ducklake_set_commit_message names the commit of an open "
        "transaction: run BEGIN first");
  }
  // Autocommit: a transaction for this statement alone.
  std::unique_ptr<WriteTransaction> own;
  WriteTransaction* txn = lake->transaction.get();
  if (txn == nullptr) {
    TARN_ASSIGN_OR_RETURN(own, WriteTransaction::Begin(*lake->lake, lake->binding.fs));
    txn = own.get();
  }
  if (lake->binding.settings != nullptr) txn->SetSessionSettings(*lake->binding.settings);
  txn->SetWorkWatch(context.Watch());
  // The statement's query reads the target through `txn` (INSERT INTO t SELECT ... FROM t);
  // names resolve as in any query: in the default database, not in the target.
  ExecContext inner = context;
  LakeBinding binding = lake->binding;
  binding.transaction = txn;
  for (const LakeBinding*& database : inner.lakes) {
    if (database == &lake->binding) database = &binding;
  }
  if (inner.lake == &lake->binding) inner.lake = &binding;
  Result<std::optional<int64_t>> result = std::optional<int64_t>();
  if (statement.kind == StatementKind::kCall) {
    Status status = RunCall(statement, lake, txn, inner);
    if (!status.ok()) result = status;
  } else {
    result = Writer(statement, lake, inner).Run(txn);
  }
  // Work that reads no batch after an interrupt (a metadata change, the tail of a write)
  // still honours Session::Interrupt: it commits nothing.
  if (result.ok() && context.interrupted != nullptr &&
      context.interrupted->load(std::memory_order_relaxed)) {
    result = Status::Cancelled("Interrupted");
  }
  if (own) {
    if (!result.ok()) {
      (void)own->Rollback();
      return result;
    }
    TARN_RETURN_NOT_OK(own->Commit().status());
  }
  return result;
#endif
}

}  // namespace tarn::sql
