#include "sql/system/system_tables.h"

#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "expr/parse/ast.h"
#include "expr/bind/binder.h"
#include "expr/parse/lexer.h"
#include "sql/lake/lake_source.h"
#include "sql/lake/rows_source.h"
#include "sql/parse/select_text.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/names.h"
#include "sql/system/secrets.h"
#include "sql/system/show.h"
#include "tarn/catalog.h"

namespace tarn::sql {
namespace {

const DataType kVarchar(TypeId::kVarchar);
const DataType kBigint(TypeId::kInt64);
const DataType kInteger(TypeId::kInt32);
const DataType kBool(TypeId::kBoolean);

struct DatabaseEntry {
  std::string name;
  int64_t oid = 0;
  std::optional<std::string> path;
  bool internal = false;
  std::string type = "duckdb";
  bool read_only = false;
  std::vector<std::pair<std::string, std::string>> tags;
};

struct SchemaEntry {
  std::string database;
  int64_t database_oid = 0;
  std::string name;
  int64_t oid = 0;
  bool internal = false;
  std::optional<std::string> comment;
};

struct ColumnEntry {
  std::string name;
  DataType type;
  bool nullable = true;
  std::optional<std::string> default_text;
  std::optional<std::string> comment;
};

struct TableEntry {
  std::string database;
  int64_t database_oid = 0;
  std::string schema;
  int64_t schema_oid = 0;
  std::string name;
  int64_t oid = 0;
  bool view = false;
  bool temporary = false;            // an object of the "temp" database
  std::vector<ColumnEntry> columns;  // a view's: empty when it no longer plans
  bool bound = true;                 // a view plans
  std::optional<std::string> comment;
  std::optional<int64_t> estimated_size;
  std::string sql;
};

// Everything the catalog views list.
struct Catalogs {
  std::vector<DatabaseEntry> databases;
  std::vector<SchemaEntry> schemas;
  std::vector<TableEntry> tables;
};

constexpr int64_t kMemoryOid = 1;
constexpr int64_t kTempOid = 2;
constexpr int64_t kLakeOidBase = 1000;
constexpr int64_t kMetadataOidBase = 2000;

// The comments of a lake's objects at `snapshot_id`: by object id, and by (table id, column
// id). A catalog without the tag tables has none.
struct Comments {
  std::map<int64_t, std::string> objects;
  std::map<std::pair<int64_t, int64_t>, std::string> columns;
};

Comments ReadComments(Lake& lake, int64_t snapshot_id) {
  Comments comments;
  CatalogStore* store = lake.store();
  CatalogQuery objects;
  objects.sql =
      "SELECT object_id, value FROM ducklake_tag WHERE key = 'comment' AND begin_snapshot <= ?1 "
      "AND (end_snapshot IS NULL OR end_snapshot > ?1)";
  objects.params = {CatalogDatum::Integer(snapshot_id)};
  objects.result_types = {CatalogType::kBigint, CatalogType::kVarchar};
  objects.what = "ducklake_tag";
  Result<CatalogResult> rows = store->Query(objects);
  if (rows.ok()) {
    for (const auto& row : rows->rows) {
      if (!row[0].is_null() && !row[1].is_null()) comments.objects[row[0].integer()] = row[1].bytes();
    }
  }
  CatalogQuery columns;
  columns.sql =
      "SELECT table_id, column_id, value FROM ducklake_column_tag WHERE key = 'comment' AND "
      "begin_snapshot <= ?1 AND (end_snapshot IS NULL OR end_snapshot > ?1)";
  columns.params = {CatalogDatum::Integer(snapshot_id)};
  columns.result_types = {CatalogType::kBigint, CatalogType::kBigint, CatalogType::kVarchar};
  columns.what = "ducklake_column_tag";
  rows = store->Query(columns);
  if (rows.ok()) {
    for (const auto& row : rows->rows) {
      if (row[0].is_null() || row[1].is_null() || row[2].is_null()) continue;
      comments.columns[{row[0].integer(), row[1].integer()}] = row[2].bytes();
    }
  }
  return comments;
}

std::optional<std::string> Find(const std::map<int64_t, std::string>& map, int64_t key) {
  auto found = map.find(key);
  if (found == map.end()) return std::nullopt;
  return found->second;
}

std::string QualifiedName(const std::string& schema, const std::string& name) {
  std::string out = LowerAscii(schema) == "main" ? "" : ast::DuckDBIdentifier(schema) + ".";
  return out + ast::DuckDBIdentifier(name);
}

// DuckDB's CREATE TABLE text of a table (duckdb_tables().sql).
std::string TableSql(const TableEntry& table) {
  std::string sql = "CREATE TABLE " + QualifiedName(table.schema, table.name) + "(";
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const ColumnEntry& column = table.columns[i];
    sql += (i ? ", " : "") + ast::DuckDBIdentifier(column.name) + " " + column.type.ToString();
    if (column.default_text) sql += " DEFAULT(" + *column.default_text + ")";
    if (!column.nullable) sql += " NOT NULL";
  }
  return sql + ");";
}

// DuckDB's CREATE VIEW text of a lake view (duckdb_views().sql).
std::string ViewSql(const ViewInfo& view) {
  std::string sql = "CREATE VIEW " + QualifiedName(view.schema_name, view.name);
  if (!view.column_aliases.empty()) {
    sql += " (";
    for (size_t i = 0; i < view.column_aliases.size(); ++i) {
      sql += (i ? ", " : "") + ast::DuckDBIdentifier(view.column_aliases[i]);
    }
    sql += ")";
  }
  std::string body = view.sql;
  while (!body.empty() && (body.back() == ';' || std::isspace(static_cast<unsigned char>(body.back())))) {
    body.pop_back();
  }
  // The query as DuckDB prints it, when tarn can print it so; else as stored.
  Result<std::vector<std::unique_ptr<Statement>>> parsed = ParseStatements(body);
  if (parsed.ok() && parsed->size() == 1 && (*parsed)[0]->kind == StatementKind::kSelect) {
    if (std::optional<std::string> text = SelectText(*(*parsed)[0]->select)) body = *text;
  }
  return sql + " AS " + body + ";";
}

// The columns of a view as its planned query has them; nullopt when it does not plan (a
// table it reads was dropped).
std::optional<std::vector<ColumnEntry>> ViewColumns(const LakeBinding& lake,
                                                    const ViewInfo& view,
                                                    const ExecContext& context) {
  TableRef ref;
  ref.kind = TableRef::Kind::kTable;
  ref.names = {lake.name, view.schema_name, view.name};
  Result<std::unique_ptr<Source>> source = BindLakeTableRef(ref, "", context);
  if (!source.ok() || *source == nullptr) return std::nullopt;
  std::vector<ColumnEntry> columns;
  const Schema& schema = (*source)->schema();
  for (int c = 0; c < (*source)->visible_columns(); ++c) {
    columns.push_back({schema.field(c).name, schema.field(c).type, true, std::nullopt,
                       std::nullopt});
  }
  return columns;
}

Status AddLake(const LakeBinding& lake, int64_t oid, const ExecContext& context,
               Catalogs* out) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, LoadLakeSnapshot(lake, std::nullopt, "", 0));
  const Comments comments = ReadComments(*lake.lake, snapshot->snapshot_id());
  const bool builtin = !lake.is_ducklake();
  const bool temporary = lake.kind == DatabaseKind::kTemp;
  for (const SchemaInfo& schema : snapshot->schemas()) {
    // DuckDB's own databases count their main schema as internal.
    const bool internal = builtin && LowerAscii(schema.name) == "main";
    out->schemas.push_back({lake.name, oid, schema.name, builtin ? oid : schema.schema_id,
                            internal, Find(comments.objects, schema.schema_id)});
  }
  auto schema_oid = [&](const std::string& name) -> int64_t {
    const SchemaInfo* schema = snapshot->FindSchema(name);
    return schema ? schema->schema_id : 0;
  };
  for (const auto& table : snapshot->tables()) {
    TableEntry entry;
    entry.database = lake.name;
    entry.database_oid = oid;
    entry.schema = table->schema_name;
    entry.schema_oid = schema_oid(table->schema_name);
    entry.name = table->name;
    entry.oid = table->table_id;
    entry.temporary = temporary;
    // The view's own comments: an open transaction's COMMENT ON shows before COMMIT.
    entry.comment = table->comment;
    for (const ColumnInfo& column : table->columns) {
      ColumnEntry shown{column.name, column.type, column.nulls_allowed, std::nullopt,
                        std::nullopt};
      if (column.default_value.kind != ColumnDefault::Kind::kNone) {
        shown.default_text = DefaultText(column);
      }
      auto comment = table->column_comments.find(column.column_id);
      if (comment != table->column_comments.end()) shown.comment = comment->second;
      entry.columns.push_back(std::move(shown));
    }
    Result<std::shared_ptr<const TableMetadata>> metadata = LoadLakeTable(
        lake, *snapshot, LakeObjectName{table->schema_name, table->name},
        lake.transaction != nullptr);
    entry.estimated_size =
        metadata.ok() && (*metadata)->stats.has_value() ? (*metadata)->stats->record_count : 0;
    entry.sql = TableSql(entry);
    out->tables.push_back(std::move(entry));
  }
  for (const ViewInfo& view : snapshot->views()) {
    TableEntry entry;
    entry.database = lake.name;
    entry.database_oid = oid;
    entry.schema = view.schema_name;
    entry.schema_oid = schema_oid(view.schema_name);
    entry.name = view.name;
    entry.oid = view.view_id;
    entry.view = true;
    entry.temporary = temporary;
    entry.comment = view.comment;
    std::optional<std::vector<ColumnEntry>> columns = ViewColumns(lake, view, context);
    entry.bound = columns.has_value();
    if (columns) entry.columns = std::move(*columns);
    entry.sql = ViewSql(view);
    out->tables.push_back(std::move(entry));
  }
  return Status::OK();
}

// A lake's catalog database, when ATTACH named it: its tables in schema main.
Status AddMetadataCatalog(const LakeBinding& lake, int64_t oid, Catalogs* out) {
  out->schemas.push_back({lake.metadata_catalog, oid, "main", oid, false, std::nullopt});
  CatalogStore* store = lake.lake->store();
  TARN_ASSIGN_OR_RETURN(std::vector<std::string> names, store->TableNames());
  for (const std::string& name : names) {
    TableEntry entry;
    entry.database = lake.metadata_catalog;
    entry.database_oid = oid;
    entry.schema = "main";
    entry.schema_oid = oid;
    entry.name = name;
    entry.oid = oid;
    Result<std::vector<std::pair<std::string, std::string>>> declared =
        store->TableColumnTypes(name);
    if (declared.ok()) {
      for (const auto& [column, type] : *declared) {
        const std::string upper = LowerAscii(type);
        DataType shown = upper.find("int") != std::string::npos ? kBigint : kVarchar;
        entry.columns.push_back({column, shown, true, std::nullopt, std::nullopt});
      }
    }
    entry.sql = TableSql(entry);
    out->tables.push_back(std::move(entry));
  }
  return Status::OK();
}

Result<Catalogs> Collect(const ExecContext& context) {
  Catalogs out;
  out.databases.push_back({"memory", kMemoryOid, std::nullopt, false, "duckdb", false, {}});
  const LakeBinding* memory = nullptr;
  const LakeBinding* temp = nullptr;
  for (const LakeBinding* lake : context.lakes) {
    if (lake->kind == DatabaseKind::kMemory) memory = lake;
    if (lake->kind == DatabaseKind::kTemp) temp = lake;
  }
  if (memory != nullptr) {
    TARN_RETURN_NOT_OK(AddLake(*memory, kMemoryOid, context, &out));
  } else {
    out.schemas.push_back({"memory", kMemoryOid, "main", kMemoryOid, true, std::nullopt});
  }
  int64_t index = 0;
  for (const LakeBinding* lake : context.lakes) {
    if (!lake->is_ducklake()) continue;
    const int64_t oid = kLakeOidBase + index;
    DatabaseEntry database{lake->name, oid, lake->lake->store()->location(), false,
                           "ducklake", lake->read_only,
                           {{"data_path", lake->lake->data_path()}}};
    out.databases.push_back(std::move(database));
    TARN_RETURN_NOT_OK(AddLake(*lake, oid, context, &out));
    // The extension hides the catalog database it names itself.
    if (lake->metadata_catalog != "__ducklake_metadata_" + lake->name) {
      const int64_t metadata_oid = kMetadataOidBase + index;
      out.databases.push_back({lake->metadata_catalog, metadata_oid,
                               lake->lake->store()->location(), false,
                               std::string(lake->lake->store()->backend()), lake->read_only, {}});
      TARN_RETURN_NOT_OK(AddMetadataCatalog(*lake, metadata_oid, &out));
    }
    ++index;
  }
  out.databases.push_back({"system", 0, std::nullopt, true, "duckdb", false, {}});
  out.databases.push_back({"temp", kTempOid, std::nullopt, true, "duckdb", false, {}});
  for (const char* schema : {"information_schema", "main", "pg_catalog"}) {
    out.schemas.push_back({"system", 0, schema, 0, true, std::nullopt});
  }
  if (temp != nullptr) {
    TARN_RETURN_NOT_OK(AddLake(*temp, kTempOid, context, &out));
  } else {
    out.schemas.push_back({"temp", kTempOid, "main", kTempOid, true, std::nullopt});
  }
  if (context.catalog != nullptr) {
    int64_t table_oid = 1;
    for (const std::string& name : context.catalog->TableNames()) {
      const SqlTable* table = context.catalog->FindTable(name);
      if (table == nullptr) continue;
      TableEntry entry;
      entry.database = "memory";
      entry.database_oid = kMemoryOid;
      entry.schema = "main";
      entry.schema_oid = kMemoryOid;
      entry.name = name;
      entry.oid = table_oid++;
      for (const Field& field : table->schema().fields) {
        entry.columns.push_back({field.name, field.type, true, std::nullopt, std::nullopt});
      }
      entry.sql = TableSql(entry);
      out.tables.push_back(std::move(entry));
    }
  }
  return out;
}

Value TextOrNull(const std::optional<std::string>& text) {
  return text ? Value::Varchar(*text) : Value::Null(kVarchar);
}

Value IntOrNull(std::optional<int64_t> value, const DataType& type) {
  return value ? Value::Int(type, *value) : Value::Null(type);
}

Value TextMap(const std::vector<std::pair<std::string, std::string>>& entries) {
  DataType type = DataType::Map(kVarchar, kVarchar);
  const DataType& entry_type = type.children[0].type;
  std::vector<Value> values;
  for (const auto& [key, value] : entries) {
    values.push_back(Value::Nested(entry_type, {Value::Varchar(key), Value::Varchar(value)}));
  }
  return Value::Nested(type, std::move(values));
}

// DuckDB's LogicalTypeId of a type (duckdb_columns().data_type_id).
int64_t TypeIdNumber(const DataType& type) {
  switch (type.id) {
    case TypeId::kBoolean: return 10;
    case TypeId::kInt8: return 11;
    case TypeId::kInt16: return 12;
    case TypeId::kInt32: return 13;
    case TypeId::kInt64: return 14;
    case TypeId::kDate: return 15;
    case TypeId::kTime: return 16;
    case TypeId::kTimestampS: return 17;
    case TypeId::kTimestampMs: return 18;
    case TypeId::kTimestamp: return 19;
    case TypeId::kTimestampNs: return 20;
    case TypeId::kDecimal: return 21;
    case TypeId::kFloat32: return 22;
    case TypeId::kFloat64: return 23;
    case TypeId::kVarchar: return 25;
    case TypeId::kBlob: return 26;
    case TypeId::kInterval: return 27;
    case TypeId::kUInt8: return 28;
    case TypeId::kUInt16: return 29;
    case TypeId::kUInt32: return 30;
    case TypeId::kUInt64: return 31;
    case TypeId::kTimestampTz: return 32;
    case TypeId::kTimeTz: return 34;
    case TypeId::kUInt128: return 49;
    case TypeId::kInt128: return 50;
    case TypeId::kUuid: return 54;
    case TypeId::kStruct: return 100;
    case TypeId::kList: return 101;
    case TypeId::kMap: return 102;
    default: return 0;
  }
}

// numeric_precision, numeric_precision_radix, numeric_scale as DuckDB reports them.
struct NumericShape {
  std::optional<int64_t> precision, radix, scale;
};

NumericShape Numeric(const DataType& type) {
  switch (type.id) {
    case TypeId::kInt8: case TypeId::kUInt8: return {8, 2, 0};
    case TypeId::kInt16: case TypeId::kUInt16: return {16, 2, 0};
    case TypeId::kInt32: case TypeId::kUInt32: return {32, 2, 0};
    case TypeId::kInt64: case TypeId::kUInt64: return {64, 2, 0};
    case TypeId::kInt128: case TypeId::kUInt128: return {128, 2, 0};
    case TypeId::kFloat32: return {24, 2, 0};
    case TypeId::kFloat64: return {53, 2, 0};
    case TypeId::kDecimal: return {type.precision, 10, type.scale};
    default: return {};
  }
}

Field F(const char* name, const DataType& type) { return Field(name, type); }

std::unique_ptr<Source> Rows(const std::string& label, std::shared_ptr<Batch> batch) {
  return std::make_unique<RowsSource>(label, std::move(batch));
}

Result<std::unique_ptr<Source>> Databases(const Catalogs& catalogs) {
  const DataType map = DataType::Map(kVarchar, kVarchar);
  RowsBuilder rows({F("database_name", kVarchar), F("database_oid", kBigint), F("path", kVarchar),
                    F("comment", kVarchar), F("tags", map), F("internal", kBool),
                    F("type", kVarchar), F("readonly", kBool), F("encrypted", kBool),
                    F("cipher", kVarchar), F("options", map)});
  for (const DatabaseEntry& db : catalogs.databases) {
    TARN_RETURN_NOT_OK(rows.Add({Value::Varchar(db.name), Value::Int64(db.oid), TextOrNull(db.path),
                                 Value::Null(kVarchar), TextMap(db.tags),
                                 Value::Boolean(db.internal), Value::Varchar(db.type),
                                 Value::Boolean(db.read_only), Value::Boolean(false),
                                 Value::Null(kVarchar), TextMap({})}));
  }
  return Rows("TABLE_FUNCTION duckdb_databases", rows.Finish());
}

Result<std::unique_ptr<Source>> Schemas(const Catalogs& catalogs) {
  RowsBuilder rows({F("oid", kBigint), F("database_name", kVarchar), F("database_oid", kBigint),
                    F("schema_name", kVarchar), F("comment", kVarchar),
                    F("tags", DataType::Map(kVarchar, kVarchar)), F("internal", kBool),
                    F("sql", kVarchar)});
  for (const SchemaEntry& schema : catalogs.schemas) {
    TARN_RETURN_NOT_OK(rows.Add({Value::Int64(schema.oid), Value::Varchar(schema.database),
                                 Value::Int64(schema.database_oid), Value::Varchar(schema.name),
                                 TextOrNull(schema.comment), TextMap({}),
                                 Value::Boolean(schema.internal), Value::Null(kVarchar)}));
  }
  return Rows("TABLE_FUNCTION duckdb_schemas", rows.Finish());
}

Result<std::unique_ptr<Source>> Tables(const Catalogs& catalogs) {
  RowsBuilder rows({F("database_name", kVarchar), F("database_oid", kBigint),
                    F("schema_name", kVarchar), F("schema_oid", kBigint),
                    F("table_name", kVarchar), F("table_oid", kBigint), F("comment", kVarchar),
                    F("tags", DataType::Map(kVarchar, kVarchar)), F("internal", kBool),
                    F("temporary", kBool), F("has_primary_key", kBool),
                    F("estimated_size", kBigint), F("column_count", kBigint),
                    F("index_count", kBigint), F("check_constraint_count", kBigint),
                    F("sql", kVarchar)});
  for (const TableEntry& table : catalogs.tables) {
    if (table.view) continue;
    TARN_RETURN_NOT_OK(rows.Add(
        {Value::Varchar(table.database), Value::Int64(table.database_oid),
         Value::Varchar(table.schema), Value::Int64(table.schema_oid), Value::Varchar(table.name),
         Value::Int64(table.oid), TextOrNull(table.comment), TextMap({}), Value::Boolean(false),
         Value::Boolean(table.temporary), Value::Boolean(false),
         IntOrNull(table.estimated_size, kBigint),
         Value::Int64(static_cast<int64_t>(table.columns.size())), Value::Int64(0),
         Value::Int64(0), Value::Varchar(table.sql)}));
  }
  return Rows("TABLE_FUNCTION duckdb_tables", rows.Finish());
}

Result<std::unique_ptr<Source>> Views(const Catalogs& catalogs) {
  RowsBuilder rows({F("database_name", kVarchar), F("database_oid", kBigint),
                    F("schema_name", kVarchar), F("schema_oid", kBigint),
                    F("view_name", kVarchar), F("view_oid", kBigint), F("comment", kVarchar),
                    F("tags", DataType::Map(kVarchar, kVarchar)), F("internal", kBool),
                    F("temporary", kBool), F("column_count", kBigint), F("sql", kVarchar),
                    F("is_bound", kBool)});
  for (const TableEntry& view : catalogs.tables) {
    if (!view.view) continue;
    TARN_RETURN_NOT_OK(rows.Add(
        {Value::Varchar(view.database), Value::Int64(view.database_oid),
         Value::Varchar(view.schema), Value::Int64(view.schema_oid), Value::Varchar(view.name),
         Value::Int64(view.oid), TextOrNull(view.comment), TextMap({}), Value::Boolean(false),
         Value::Boolean(view.temporary), Value::Int64(static_cast<int64_t>(view.columns.size())),
         Value::Varchar(view.sql), Value::Boolean(view.bound)}));
  }
  return Rows("TABLE_FUNCTION duckdb_views", rows.Finish());
}

Result<std::unique_ptr<Source>> Columns(const Catalogs& catalogs) {
  RowsBuilder rows({F("database_name", kVarchar), F("database_oid", kBigint),
                    F("schema_name", kVarchar), F("schema_oid", kBigint),
                    F("table_name", kVarchar), F("table_oid", kBigint),
                    F("column_name", kVarchar), F("column_index", kInteger),
                    F("comment", kVarchar), F("internal", kBool), F("column_default", kVarchar),
                    F("is_nullable", kBool), F("data_type", kVarchar),
                    F("data_type_id", kBigint), F("character_maximum_length", kInteger),
                    F("numeric_precision", kInteger), F("numeric_precision_radix", kInteger),
                    F("numeric_scale", kInteger)});
  for (const TableEntry& table : catalogs.tables) {
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const ColumnEntry& column = table.columns[c];
      const NumericShape numeric = Numeric(column.type);
      TARN_RETURN_NOT_OK(rows.Add(
          {Value::Varchar(table.database), Value::Int64(table.database_oid),
           Value::Varchar(table.schema), Value::Int64(table.schema_oid),
           Value::Varchar(table.name), Value::Int64(table.oid), Value::Varchar(column.name),
           Value::Int(kInteger, static_cast<int64_t>(c + 1)), TextOrNull(column.comment),
           Value::Boolean(false), TextOrNull(column.default_text),
           Value::Boolean(column.nullable), Value::Varchar(column.type.ToString()),
           Value::Int64(TypeIdNumber(column.type)), Value::Null(kInteger),
           IntOrNull(numeric.precision, kInteger), IntOrNull(numeric.radix, kInteger),
           IntOrNull(numeric.scale, kInteger)}));
    }
  }
  return Rows("TABLE_FUNCTION duckdb_columns", rows.Finish());
}

Result<std::unique_ptr<Source>> InformationSchemata(const Catalogs& catalogs) {
  RowsBuilder rows({F("catalog_name", kVarchar), F("schema_name", kVarchar),
                    F("schema_owner", kVarchar), F("default_character_set_catalog", kVarchar),
                    F("default_character_set_schema", kVarchar),
                    F("default_character_set_name", kVarchar), F("sql_path", kVarchar)});
  const Value null = Value::Null(kVarchar);
  for (const SchemaEntry& schema : catalogs.schemas) {
    TARN_RETURN_NOT_OK(rows.Add({Value::Varchar(schema.database), Value::Varchar(schema.name),
                                 Value::Varchar("duckdb"), null, null, null, null}));
  }
  return Rows("VIEW information_schema.schemata", rows.Finish());
}

Result<std::unique_ptr<Source>> InformationTables(const Catalogs& catalogs) {
  std::vector<Field> fields;
  for (const char* name : {"table_catalog", "table_schema", "table_name", "table_type",
                           "self_referencing_column_name", "reference_generation",
                           "user_defined_type_catalog", "user_defined_type_schema",
                           "user_defined_type_name", "is_insertable_into", "is_typed",
                           "commit_action", "TABLE_COMMENT"}) {
    fields.push_back(F(name, kVarchar));
  }
  RowsBuilder rows(std::move(fields));
  const Value null = Value::Null(kVarchar);
  for (const TableEntry& table : catalogs.tables) {
    TARN_RETURN_NOT_OK(rows.Add(
        {Value::Varchar(table.database), Value::Varchar(table.schema), Value::Varchar(table.name),
         Value::Varchar(table.view        ? "VIEW"
                        : table.temporary ? "LOCAL TEMPORARY"
                                          : "BASE TABLE"),
         null, null, null, null, null,
         Value::Varchar(table.view ? "NO" : "YES"), Value::Varchar("NO"), null,
         TextOrNull(table.comment)}));
  }
  return Rows("VIEW information_schema.tables", rows.Finish());
}

Result<std::unique_ptr<Source>> InformationColumns(const Catalogs& catalogs) {
  // DuckDB's 45 columns: V VARCHAR, I INTEGER, B BIGINT, T BOOLEAN.
  static constexpr std::pair<const char*, char> kColumns[] = {
      {"table_catalog", 'V'}, {"table_schema", 'V'}, {"table_name", 'V'},
      {"column_name", 'V'}, {"ordinal_position", 'I'}, {"column_default", 'V'},
      {"is_nullable", 'V'}, {"data_type", 'V'}, {"character_maximum_length", 'I'},
      {"character_octet_length", 'I'}, {"numeric_precision", 'I'},
      {"numeric_precision_radix", 'I'}, {"numeric_scale", 'I'}, {"datetime_precision", 'I'},
      {"interval_type", 'V'}, {"interval_precision", 'I'}, {"character_set_catalog", 'V'},
      {"character_set_schema", 'V'}, {"character_set_name", 'V'}, {"collation_catalog", 'V'},
      {"collation_schema", 'V'}, {"collation_name", 'V'}, {"domain_catalog", 'V'},
      {"domain_schema", 'V'}, {"domain_name", 'V'}, {"udt_catalog", 'V'}, {"udt_schema", 'V'},
      {"udt_name", 'V'}, {"scope_catalog", 'V'}, {"scope_schema", 'V'}, {"scope_name", 'V'},
      {"maximum_cardinality", 'B'}, {"dtd_identifier", 'V'}, {"is_self_referencing", 'T'},
      {"is_identity", 'T'}, {"identity_generation", 'V'}, {"identity_start", 'V'},
      {"identity_increment", 'V'}, {"identity_maximum", 'V'}, {"identity_minimum", 'V'},
      {"identity_cycle", 'T'}, {"is_generated", 'V'}, {"generation_expression", 'V'},
      {"is_updatable", 'T'}, {"COLUMN_COMMENT", 'V'}};
  std::vector<Field> fields;
  std::vector<Value> nulls;
  for (const auto& [name, kind] : kColumns) {
    const DataType type = kind == 'V' ? kVarchar : kind == 'I' ? kInteger
                          : kind == 'B' ? kBigint : kBool;
    fields.push_back(F(name, type));
    nulls.push_back(Value::Null(type));
  }
  RowsBuilder rows(std::move(fields));
  for (const TableEntry& table : catalogs.tables) {
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const ColumnEntry& column = table.columns[c];
      const NumericShape numeric = Numeric(column.type);
      std::vector<Value> row = nulls;
      row[0] = Value::Varchar(table.database);
      row[1] = Value::Varchar(table.schema);
      row[2] = Value::Varchar(table.name);
      row[3] = Value::Varchar(column.name);
      row[4] = Value::Int(kInteger, static_cast<int64_t>(c + 1));
      row[5] = TextOrNull(column.default_text);
      row[6] = Value::Varchar(column.nullable ? "YES" : "NO");
      row[7] = Value::Varchar(column.type.ToString());
      row[10] = IntOrNull(numeric.precision, kInteger);
      row[11] = IntOrNull(numeric.radix, kInteger);
      row[12] = IntOrNull(numeric.scale, kInteger);
      row[44] = TextOrNull(column.comment);
      TARN_RETURN_NOT_OK(rows.Add(row));
    }
  }
  return Rows("VIEW information_schema.columns", rows.Finish());
}

constexpr const char* kFunctions[] = {"duckdb_databases", "duckdb_schemas", "duckdb_tables",
                                      "duckdb_views", "duckdb_columns", "duckdb_secrets"};

}  // namespace

bool IsSystemTableFunction(std::string_view name) {
  for (const char* function : kFunctions) {
    if (name == function) return true;
  }
  return false;
}

Result<std::unique_ptr<Source>> BindSystemTableFunction(const TableRef& ref,
                                                        std::string_view sql_text,
                                                        const ExecContext& context) {
  const std::string name = LowerAscii(ref.names[0]);
  if (!ref.args.empty()) {
    return Status::InvalidArgument(FormatErrorAt(
        sql_text, StrCat("Binder Error: ", name, "() takes no arguments"), ref.offset));
  }
  if (name == "duckdb_secrets") {
    if (context.secrets == nullptr) return Status::Internal("duckdb_secrets() outside a session");
    return Rows("duckdb_secrets()", context.secrets->Rows());
  }
  Result<Catalogs> catalogs = Collect(context);
  if (!catalogs.ok()) {
    return Status(catalogs.status().code(),
                  FormatErrorAt(sql_text, catalogs.status().message(), ref.offset));
  }
  if (name == "duckdb_databases") return Databases(*catalogs);
  if (name == "duckdb_schemas") return Schemas(*catalogs);
  if (name == "duckdb_tables") return Tables(*catalogs);
  if (name == "duckdb_views") return Views(*catalogs);
  return Columns(*catalogs);
}

Result<std::unique_ptr<Source>> BindInformationSchema(const TableRef& ref,
                                                      std::string_view sql_text,
                                                      const ExecContext& context) {
  const size_t parts = ref.names.size();
  if (ref.kind != TableRef::Kind::kTable || parts < 2 || parts > 3 ||
      LowerAscii(ref.names[parts - 2]) != "information_schema") {
    return std::unique_ptr<Source>();
  }
  const std::string view = LowerAscii(ref.names.back());
  if (view != "schemata" && view != "tables" && view != "columns") {
    std::string message = FormatErrorAt(
        sql_text,
        StrCat("Catalog Error: Table with name ", ref.names.back(),
               " does not exist!"),
        ref.offset);
    std::vector<std::string> closest =
        expr::ClosestNames(view, {"schemata", "tables", "columns"});
    if (!closest.empty()) message += "\nDid you mean \"information_schema." + closest[0] + "\"?";
    return Status::NotFound(message);
  }
  Result<Catalogs> catalogs = Collect(context);
  if (!catalogs.ok()) {
    return Status(catalogs.status().code(),
                  FormatErrorAt(sql_text, catalogs.status().message(), ref.offset));
  }
  if (view == "schemata") return InformationSchemata(*catalogs);
  if (view == "tables") return InformationTables(*catalogs);
  return InformationColumns(*catalogs);
}

}  // namespace tarn::sql
