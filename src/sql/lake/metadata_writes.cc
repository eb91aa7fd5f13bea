#include "sql/lake/metadata_writes.h"

#include <functional>
#include <utility>

#include "expr/eval/cast.h"
#include "sql/lake/metadata_tables.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "tarn/catalog.h"
#include "tarn/expr.h"
#include "tarn/format.h"

namespace tarn::sql {
namespace {

// t.column / alias.column → column: the target's own qualifier.
void StripQualifier(ast::Expr* expr, const WriteStmt& write) {
  if (expr->kind == ast::ExprKind::kColumnRef && expr->names.size() >= 2) {
    const std::string first = LowerAscii(expr->names[0]);
    if (first == LowerAscii(write.names.back()) ||
        (!write.alias.empty() && first == LowerAscii(write.alias))) {
      expr->names.erase(expr->names.begin());
    }
  }
  for (auto& child : expr->children) StripQualifier(child.get(), write);
}

Result<std::unique_ptr<BoundExpr>> BindOverRows(const ast::Expr& expr, const WriteStmt& write,
                                                const Schema& schema) {
  std::unique_ptr<ast::Expr> copy = expr.Clone();
  StripQualifier(copy.get(), write);
  return Bind(*copy, schema);
}

// `value` in the form the column's declared type stores.
Result<CatalogDatum> ToDatum(const Value& value, const Field& field, CatalogType stored) {
  if (value.is_null()) return CatalogDatum::Null();
  Result<Value> cast = expr::CastValue(value, field.type);
  if (!cast.ok()) {
    return Status::InvalidArgument("Conversion Error: ", FormatValue(value), " for column \"",
                                   field.name, "\": ", cast.status().message());
  }
  switch (stored) {
    case CatalogType::kBigint: return CatalogDatum::Integer(cast->GetInt64());
    case CatalogType::kBoolean: return CatalogDatum::Boolean(cast->GetBool());
    case CatalogType::kDouble: return CatalogDatum::Real(cast->GetDouble());
    case CatalogType::kBlob: return CatalogDatum::Blob(cast->GetBytes());
    default: return CatalogDatum::Text(cast->GetBytes());
  }
}

Result<Value> ConstantValue(const ast::Expr& expr) {
  Schema empty;
  TARN_ASSIGN_OR_RETURN(auto bound, Bind(expr, empty));
  if (!bound->IsConstant()) {
    return Status::InvalidArgument("Binder Error: an INSERT value must be a constant, not \"",
                                   expr.ToString(), "\"");
  }
  return bound->EvaluateConstant();
}

class MetadataWriter {
 public:
  MetadataWriter(const Statement& statement, const LakeBinding& lake, const ExecContext& context,
                 MetadataTable table)
      : statement_(statement), write_(*statement.write), lake_(lake), context_(context),
        table_(std::move(table)), store_(lake.lake->store()) {}

  Result<int64_t> Run() {
    switch (statement_.kind) {
      case StatementKind::kInsert: return Insert();
      case StatementKind::kUpdate: return UpdateOrDelete(/*update=*/true);
      case StatementKind::kDelete: return UpdateOrDelete(/*update=*/false);
      default: return Status::Internal("not a metadata write: ", statement_.what);
    }
  }

 private:
  int ColumnIndex(const std::string& name) const {
    for (size_t c = 0; c < table_.fields.size(); ++c) {
      if (LowerAscii(table_.fields[c].name) == LowerAscii(name)) return static_cast<int>(c);
    }
    return -1;
  }

  Status NoColumn(const std::string& name) const {
    return Status::NotFound("Binder Error: Table \"", table_.name,
                            "\" does not have a column with name \"", name, "\"");
  }

  Result<int64_t> Insert() {
    std::vector<int> targets;
    if (write_.insert_columns.empty()) {
      for (size_t c = 0; c < table_.fields.size(); ++c) targets.push_back(static_cast<int>(c));
    } else {
      for (const std::string& name : write_.insert_columns) {
        const int index = ColumnIndex(name);
        if (index < 0) return NoColumn(name);
        targets.push_back(index);
      }
    }
    std::string sql = "INSERT INTO " + QuoteSqlName(table_.name) + " (";
    std::string placeholders;
    for (size_t i = 0; i < targets.size(); ++i) {
      sql += (i ? ", " : "") + QuoteSqlName(table_.fields[static_cast<size_t>(targets[i])].name);
      placeholders += (i ? ", ?" : "?") + std::to_string(i + 1);
    }
    sql += ") VALUES (" + placeholders + ")";
    // The rows first: a query may read this very catalog.
    std::vector<std::vector<Value>> rows;
    if (write_.default_values) {
      return Status::NotSupported("not yet supported: INSERT DEFAULT VALUES into ", table_.name);
    } else if (!write_.values.empty()) {
      for (const auto& written : write_.values) {
        if (written.size() != targets.size()) {
          return Status::InvalidArgument("Binder Error: table \"", table_.name, "\" has ",
                                         targets.size(), " columns but ", written.size(),
                                         " values were supplied");
        }
        std::vector<Value> row;
        for (const auto& expr : written) {
          if (expr == nullptr) {
            row.push_back(Value::Null(DataType(TypeId::kVarchar)));
            continue;
          }
          TARN_ASSIGN_OR_RETURN(Value value, ConstantValue(*expr));
          row.push_back(std::move(value));
        }
        rows.push_back(std::move(row));
      }
    } else {
      TARN_ASSIGN_OR_RETURN(auto query, PlanSelect(*write_.query, statement_.text, context_));
      if (query->schema()->num_fields() != static_cast<int>(targets.size())) {
        return Status::InvalidArgument("Binder Error: table \"", table_.name, "\" has ",
                                       targets.size(), " columns but the query returns ",
                                       query->schema()->num_fields());
      }
      while (true) {
        TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, query->Next());
        if (!batch) break;
        for (int64_t r = 0; r < batch->num_rows; ++r) {
          std::vector<Value> row;
          for (int c = 0; c < batch->num_columns(); ++c) row.push_back(batch->column(c).GetValue(r));
          rows.push_back(std::move(row));
        }
      }
    }
    std::vector<std::vector<CatalogDatum>> data;
    for (const auto& row : rows) {
      std::vector<CatalogDatum> params;
      for (size_t i = 0; i < targets.size(); ++i) {
        const size_t c = static_cast<size_t>(targets[i]);
        TARN_ASSIGN_OR_RETURN(CatalogDatum datum,
                              ToDatum(row[i], table_.fields[c], table_.read_as[c]));
        params.push_back(std::move(datum));
      }
      data.push_back(std::move(params));
    }
    return InTransaction([&]() -> Result<int64_t> {
      int64_t changed = 0;
      for (const auto& params : data) {
        TARN_ASSIGN_OR_RETURN(int64_t n, store_->Execute(sql, params));
        changed += n;
      }
      return changed;
    });
  }

  Result<int64_t> UpdateOrDelete(bool update) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows,
                          ReadMetadataRows(lake_, table_, /*with_rowid=*/true));
    // The rows as the statement sees them: the table's columns (SQLite's rowid left out).
    auto schema = std::make_shared<Schema>(table_.fields);
    std::vector<std::shared_ptr<Column>> columns(rows->columns.begin() + 1, rows->columns.end());
    auto visible = MakeBatch(schema, std::move(columns));
    visible->num_rows = rows->num_rows;
    std::vector<bool> matched(static_cast<size_t>(rows->num_rows), true);
    if (write_.where) {
      TARN_ASSIGN_OR_RETURN(auto predicate, BindOverRows(*write_.where, write_, *schema));
      TARN_ASSIGN_OR_RETURN(auto result, predicate->Evaluate(*visible));
      for (int64_t r = 0; r < rows->num_rows; ++r) {
        Value keep = result->GetValue(r);
        matched[static_cast<size_t>(r)] = !keep.is_null() && keep.GetBool();
      }
    }
    std::vector<int> targets;
    std::vector<std::shared_ptr<Column>> values;
    std::string sql;
    if (update) {
      sql = "UPDATE " + QuoteSqlName(table_.name) + " SET ";
      for (size_t i = 0; i < write_.assignments.size(); ++i) {
        const auto& [name, expr] = write_.assignments[i];
        const int index = ColumnIndex(name);
        if (index < 0) return NoColumn(name);
        targets.push_back(index);
        TARN_ASSIGN_OR_RETURN(auto bound, BindOverRows(*expr, write_, *schema));
        TARN_ASSIGN_OR_RETURN(auto column, bound->Evaluate(*visible));
        values.push_back(std::move(column));
        sql += (i ? ", " : "") + QuoteSqlName(table_.fields[static_cast<size_t>(index)].name) +
               " = ?" + std::to_string(i + 1);
      }
      sql += " WHERE rowid = ?" + std::to_string(targets.size() + 1);
    } else {
      sql = "DELETE FROM " + QuoteSqlName(table_.name) + " WHERE rowid = ?1";
    }
    std::vector<std::vector<CatalogDatum>> data;
    for (int64_t r = 0; r < rows->num_rows; ++r) {
      if (!matched[static_cast<size_t>(r)]) continue;
      std::vector<CatalogDatum> params;
      for (size_t i = 0; i < targets.size(); ++i) {
        const size_t c = static_cast<size_t>(targets[i]);
        TARN_ASSIGN_OR_RETURN(CatalogDatum datum, ToDatum(values[i]->GetValue(r),
                                                          table_.fields[c], table_.read_as[c]));
        params.push_back(std::move(datum));
      }
      params.push_back(CatalogDatum::Integer(rows->column(0).GetValue(r).GetInt64()));
      data.push_back(std::move(params));
    }
    return InTransaction([&]() -> Result<int64_t> {
      int64_t changed = 0;
      for (const auto& params : data) {
        TARN_ASSIGN_OR_RETURN(int64_t n, store_->Execute(sql, params));
        changed += n;
      }
      return changed;
    });
  }

  // Runs `work` in one write transaction of the catalog database, then lets the lake see new
  // options.
  Result<int64_t> InTransaction(const std::function<Result<int64_t>()>& work) {
    TARN_RETURN_NOT_OK(store_->Begin(CatalogTransactionMode::kWrite));
    Result<int64_t> changed = work();
    if (!changed.ok()) {
      (void)store_->Rollback();
      return changed;
    }
    TARN_RETURN_NOT_OK(store_->Commit());
    if (LowerAscii(table_.name) == "ducklake_metadata") {
      TARN_RETURN_NOT_OK(lake_.lake->ReloadMetadata());
    }
    return changed;
  }

  const Statement& statement_;
  const WriteStmt& write_;
  const LakeBinding& lake_;
  const ExecContext& context_;
  MetadataTable table_;
  CatalogStore* store_;
};

}  // namespace

const LakeBinding* MetadataWriteTarget(const Statement& statement, const ExecContext& context) {
  if (statement.write == nullptr ||
      (statement.kind != StatementKind::kInsert && statement.kind != StatementKind::kUpdate &&
       statement.kind != StatementKind::kDelete)) {
    return nullptr;
  }
  const std::vector<std::string>& names = statement.write->names;
  if (names.size() < 2 || names.size() > 3) return nullptr;
  return FindMetadataCatalog(context, names[0]);
}

Result<int64_t> ExecuteMetadataWrite(const Statement& statement, const LakeBinding& lake,
                                     const ExecContext& context) {
  if (lake.read_only || lake.lake->store()->read_only()) {
    return Status::InvalidArgument("Invalid Input Error: cannot run ", statement.what, ": the lake \"",
                                   lake.name, "\" is attached read-only");
  }
  if (lake.transaction != nullptr) {
    return Status::NotSupported("not yet supported: ", statement.what, " on the catalog database ",
                                "of lake \"", lake.name, "\" inside a transaction");
  }
  TARN_ASSIGN_OR_RETURN(MetadataTable table, FindMetadataTable(lake, statement.write->names));
  return MetadataWriter(statement, lake, context, std::move(table)).Run();
}

}  // namespace tarn::sql
