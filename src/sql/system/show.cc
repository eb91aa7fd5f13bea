#include "sql/system/show.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "sql/plan/names.h"
#include "sql/plan/planner.h"

namespace tarn::sql {
namespace {

struct ShownTable {
  std::string database;
  std::string schema;
  std::string name;
  std::vector<std::string> column_names;
  std::vector<std::string> column_types;
  bool temporary = false;
};

Value TextList(const std::vector<std::string>& items) {
  DataType type = DataType::List(DataType(TypeId::kVarchar));
  std::vector<Value> values;
  for (const std::string& item : items) values.push_back(Value::Varchar(item));
  return Value::Nested(type, std::move(values));
}

// The tables and views of `database` at the session's view of it.
Status AddDatabase(const LakeBinding& database, std::vector<ShownTable>* tables) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(database, std::nullopt, "", 0));
  const bool temporary = database.kind == DatabaseKind::kTemp;
  for (const auto& table : snapshot->tables()) {
    ShownTable shown{database.name, table->schema_name, table->name, {}, {}, temporary};
    for (const ColumnInfo& column : table->columns) {
      shown.column_names.push_back(column.name);
      shown.column_types.push_back(column.type.ToString());
    }
    tables->push_back(std::move(shown));
  }
  for (const ViewInfo& view : snapshot->views()) {
    tables->push_back(
        {database.name, view.schema_name, view.name, view.column_aliases, {}, temporary});
  }
  return Status::OK();
}

// SHOW TABLES: the default database's tables and views; SHOW ALL TABLES: every database's,
// ordered by database, schema and name. The SqlCatalog's tables are memory's.
Result<std::vector<ShownTable>> ListTables(bool all, const ExecContext& context) {
  std::vector<ShownTable> tables;
  const bool memory_default =
      context.lake == nullptr || context.lake->kind == DatabaseKind::kMemory;
  if (all) {
    for (const LakeBinding* database : context.lakes) {
      TARN_RETURN_NOT_OK(AddDatabase(*database, &tables));
    }
  } else {
    // The default database's tables, and the temporary ones (DuckDB's SHOW TABLES).
    if (context.lake != nullptr) TARN_RETURN_NOT_OK(AddDatabase(*context.lake, &tables));
    for (const LakeBinding* database : context.lakes) {
      if (database->kind == DatabaseKind::kTemp && database != context.lake) {
        TARN_RETURN_NOT_OK(AddDatabase(*database, &tables));
      }
    }
  }
  if (context.catalog != nullptr && (all || memory_default)) {
    for (const std::string& name : context.catalog->TableNames()) {
      ShownTable shown{"memory", "main", name, {}, {}, false};
      if (const SqlTable* table = context.catalog->FindTable(name)) {
        for (const Field& field : table->schema().fields) {
          shown.column_names.push_back(field.name);
          shown.column_types.push_back(field.type.ToString());
        }
      }
      tables.push_back(std::move(shown));
    }
  }
  std::stable_sort(tables.begin(), tables.end(), [](const ShownTable& a, const ShownTable& b) {
    return std::tie(a.database, a.schema, a.name) < std::tie(b.database, b.schema, b.name);
  });
  return tables;
}

// DESCRIBE's columns, all VARCHAR, and a builder for each.
std::shared_ptr<Schema> DescribeSchema() {
  auto schema = std::make_shared<Schema>();
  for (const char* column : {"column_name", "column_type", "null", "key", "default", "extra"}) {
    schema->fields.emplace_back(column, DataType(TypeId::kVarchar));
  }
  return schema;
}

std::vector<std::unique_ptr<ColumnBuilder>> DescribeBuilders() {
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (int c = 0; c < 6; ++c) {
    builders.push_back(std::make_unique<ColumnBuilder>(DataType(TypeId::kVarchar)));
  }
  return builders;
}

}  // namespace

std::string DefaultText(const ColumnInfo& column) {
  const ColumnDefault& def = column.default_value;
  if (def.kind == ColumnDefault::Kind::kExpression) return def.text;
  if (column.type.IsNumeric() || column.type.id == TypeId::kBoolean) return def.text;
  std::string out = "'";
  for (char c : def.text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

Result<std::shared_ptr<Batch>> ShowTables(bool all, const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(std::vector<ShownTable> tables, ListTables(all, context));
  const std::string default_schema =
      context.lake != nullptr ? context.lake->default_schema : std::string("main");
  std::vector<Field> fields;
  if (all) {
    fields = {Field("database", DataType(TypeId::kVarchar)),
              Field("schema", DataType(TypeId::kVarchar)),
              Field("name", DataType(TypeId::kVarchar)),
              Field("column_names", DataType::List(DataType(TypeId::kVarchar))),
              Field("column_types", DataType::List(DataType(TypeId::kVarchar))),
              Field("temporary", DataType(TypeId::kBoolean))};
  } else {
    fields = {Field("name", DataType(TypeId::kVarchar))};
  }
  auto schema = std::make_shared<Schema>(std::move(fields));
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (const Field& field : schema->fields) {
    builders.push_back(std::make_unique<ColumnBuilder>(field.type));
  }
  std::vector<std::string> names;
  int64_t rows = 0;
  for (const ShownTable& table : tables) {
    if (!all) {
      // The default schema only, as DuckDB's SHOW TABLES.
      if (LowerAscii(table.schema) == LowerAscii(default_schema)) names.push_back(table.name);
      continue;
    }
    TARN_RETURN_NOT_OK(builders[0]->Append(Value::Varchar(table.database)));
    TARN_RETURN_NOT_OK(builders[1]->Append(Value::Varchar(table.schema)));
    TARN_RETURN_NOT_OK(builders[2]->Append(Value::Varchar(table.name)));
    TARN_RETURN_NOT_OK(builders[3]->Append(TextList(table.column_names)));
    TARN_RETURN_NOT_OK(builders[4]->Append(TextList(table.column_types)));
    TARN_RETURN_NOT_OK(builders[5]->Append(Value::Boolean(table.temporary)));
    ++rows;
  }
  if (!all) {
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) builders[0]->AppendBytes(name);
    rows = static_cast<int64_t>(names.size());
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (auto& builder : builders) columns.push_back(builder->Finish());
  auto batch = MakeBatch(schema, std::move(columns));
  batch->num_rows = rows;
  return batch;
}

Result<std::shared_ptr<Batch>> DescribeLakeTable(const SelectStmt& select,
                                                 std::string_view sql_text,
                                                 const ExecContext& context) {
  const TableRef& from = select.from;
  if (from.kind != TableRef::Kind::kTable ||
      select.items.size() != 1 || !select.items[0].star ||
      !select.items[0].star_qualifier.empty() || !select.items[0].exclude.empty() ||
      select.where || !select.group_by.empty() || select.distinct ||
      !from.column_aliases.empty()) {
    return std::shared_ptr<Batch>();
  }
  const LakeBinding* database = LakeOfNames(from.names, context);
  if (database == nullptr || (from.at.has_value() && !database->is_ducklake())) {
    return std::shared_ptr<Batch>();
  }
  const LakeBinding& lake = *database;
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, from.at, sql_text, from.offset));
  Result<LakeObjectName> name = ResolveLakeName(from.names, lake, *snapshot);
  if (!name.ok()) return std::shared_ptr<Batch>();
  std::shared_ptr<const TableInfo> table = snapshot->FindTable(name->schema, name->name);
  if (!table) return std::shared_ptr<Batch>();
  auto schema = DescribeSchema();
  std::vector<std::unique_ptr<ColumnBuilder>> builders = DescribeBuilders();
  for (const ColumnInfo& column : table->columns) {
    builders[0]->AppendBytes(column.name);
    builders[1]->AppendBytes(column.type.ToString());
    builders[2]->AppendBytes(column.nulls_allowed ? "YES" : "NO");
    builders[3]->AppendNull();
    if (column.default_value.kind == ColumnDefault::Kind::kNone) {
      builders[4]->AppendNull();
    } else {
      builders[4]->AppendBytes(DefaultText(column));
    }
    builders[5]->AppendNull();
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (auto& builder : builders) columns.push_back(builder->Finish());
  auto batch = MakeBatch(schema, std::move(columns));
  batch->num_rows = static_cast<int64_t>(table->columns.size());
  return batch;
}

Result<std::shared_ptr<Batch>> DescribeRows(const SelectStmt& select, std::string_view sql_text,
                                            const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> described,
                        DescribeLakeTable(select, sql_text, context));
  if (described) return described;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> root, PlanSelect(select, sql_text, context));
  auto schema = DescribeSchema();
  std::vector<std::unique_ptr<ColumnBuilder>> builders = DescribeBuilders();
  for (const Field& field : root->schema()->fields) {
    builders[0]->AppendBytes(field.name);
    builders[1]->AppendBytes(field.type.ToString());
    builders[2]->AppendBytes("YES");
    for (int c = 3; c < 6; ++c) builders[c]->AppendNull();
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (auto& builder : builders) columns.push_back(builder->Finish());
  return MakeBatch(std::move(schema), std::move(columns));
}

}  // namespace tarn::sql
