// Sort-key DDL of a write transaction: SET SORTED BY / RESET SORTED BY, and what renaming or
// dropping a column does to the key (as the DuckLake extension does: a rename rewrites the
// key's column references, a drop of a column the key uses is refused).
#include "expr/parse/ast.h"
#include "tarn/expr.h"
#include "table/write_ddl.h"

namespace tarn::table_internal {

namespace {

// Calls `visit` on every column reference of `expr` (not on a lambda's parameters, `hidden`).
template <typename Visit>
void VisitColumnRefs(ast::Expr& expr, const Visit& visit, std::vector<std::string>* hidden) {
  if (expr.kind == ast::ExprKind::kColumnRef) {
    for (const std::string& name : *hidden) {
      if (NameEquals(name, expr.names[0])) return;
    }
    visit(expr);
    return;
  }
  const size_t outer = hidden->size();
  if (expr.kind == ast::ExprKind::kLambda) {
    hidden->insert(hidden->end(), expr.names.begin(), expr.names.end());
  }
  for (auto& child : expr.children) VisitColumnRefs(*child, visit, hidden);
  hidden->resize(outer);
}

template <typename Visit>
void VisitColumnRefs(ast::Expr& expr, const Visit& visit) {
  std::vector<std::string> hidden;
  VisitColumnRefs(expr, visit, &hidden);
}

Result<std::unique_ptr<ast::Expr>> ParseSortExpression(const SortField& field,
                                                       const TableInfo& table) {
  Result<std::unique_ptr<ast::Expr>> parsed = ParseExpression(field.expression);
  if (!parsed.ok()) {
    return Status::InvalidArgument("sort key expression '", field.expression, "' of table \"",
                                   table.schema_name, ".", table.name,
                                   "\" does not parse: ", parsed.status().message());
  }
  return parsed;
}

bool HasColumn(const TableInfo& table, const std::string& name) {
  for (const ColumnInfo& column : table.columns) {
    if (NameEquals(column.name, name)) return true;
  }
  return false;
}

// Replaces any SetSortKeyChange of the table with one for `fields`.
void RecordSortKey(WriteState& state, int64_t table_id, std::vector<SortField> fields) {
  std::erase_if(state.ddl, [&](const LakeChange& change) {
    const auto* set = std::get_if<SetSortKeyChange>(&change);
    return set != nullptr && set->table_id == table_id;
  });
  state.ddl.push_back(SetSortKeyChange{table_id, std::move(fields)});
}

}  // namespace

Status CheckSortKeyColumns(const TableInfo& table, const std::vector<SortField>& fields) {
  std::vector<std::string> missing;
  for (const SortField& field : fields) {
    TARN_ASSIGN_OR_RETURN(auto parsed, ParseSortExpression(field, table));
    bool qualified = false;
    VisitColumnRefs(*parsed, [&](ast::Expr& ref) {
      if (ref.names.size() > 1) {
        qualified = true;
        return;
      }
      const std::string& name = ref.names[0];
      if (HasColumn(table, name)) return;
      for (const std::string& seen : missing) {
        if (seen == name) return;
      }
      missing.push_back(name);
    });
    if (qualified) {
      return Status::InvalidArgument(
          "Invalid Input Error: Unexpected qualified column reference - only unqualified "
          "columns are supported");
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string& name : missing) list += (list.empty() ? "" : ", ") + name;
    return Status::InvalidArgument(
        "Binder Error: Columns in the SET SORTED BY statement were not found in the DuckLake "
        "table. Unmatched columns were: ",
        list);
  }
  return Status::OK();
}

Status DdlSetSortKey(WriteState& state, const std::string& schema, const std::string& name,
                     std::vector<SortField> fields) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, name));
  for (size_t k = 0; k < fields.size(); ++k) {
    fields[k].sort_key_index = static_cast<int64_t>(k);
    if (fields[k].dialect.empty()) fields[k].dialect = "duckdb";
  }
  TARN_RETURN_NOT_OK(CheckSortKeyColumns(*table, fields));
  auto copy = std::make_shared<TableInfo>(*table);
  if (fields.empty()) {
    copy->sorting.reset();
  } else {
    copy->sorting = SortSpec{table->sorting ? table->sorting->sort_id : 0, fields};
  }
  RecordSortKey(state, table->table_id, std::move(fields));
  state.ReplaceTable(std::move(copy));
  return Status::OK();
}

Status RenameSortKeyColumn(WriteState& state, TableInfo* table, const std::string& old_name,
                           const std::string& new_name) {
  if (!table->sorting.has_value()) return Status::OK();
  std::vector<SortField> fields = table->sorting->fields;
  for (SortField& field : fields) {
    TARN_ASSIGN_OR_RETURN(auto parsed, ParseSortExpression(field, *table));
    VisitColumnRefs(*parsed, [&](ast::Expr& ref) {
      if (ref.names.size() == 1 && NameEquals(ref.names[0], old_name)) ref.names[0] = new_name;
    });
    field.expression = ast::ToDuckDBText(*parsed);
  }
  table->sorting->fields = fields;
  RecordSortKey(state, table->table_id, std::move(fields));
  return Status::OK();
}

Status CheckDropSortedColumn(const TableInfo& table, const std::string& column) {
  if (!table.sorting.has_value()) return Status::OK();
  for (const SortField& field : table.sorting->fields) {
    TARN_ASSIGN_OR_RETURN(auto parsed, ParseSortExpression(field, table));
    bool used = false;
    VisitColumnRefs(*parsed, [&](ast::Expr& ref) {
      if (ref.names.size() == 1 && NameEquals(ref.names[0], column)) used = true;
    });
    if (used) {
      return Status::InvalidArgument("Catalog Error: Cannot drop column \"", column,
                                     "\" - the table is sorted by this column. Reset or change "
                                     "the sort order on this table in order to drop this "
                                     "column");
    }
  }
  return Status::OK();
}

}  // namespace tarn::table_internal
