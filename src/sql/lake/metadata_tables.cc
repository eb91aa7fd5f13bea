#include "sql/lake/metadata_tables.h"

#include <cctype>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/parse/lexer.h"
#include "sql/lake/lake_source.h"
#include "sql/lake/rows_source.h"
#include "tarn/catalog.h"

namespace tarn::sql {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A declared column type's SQL type and the form the store reads it in.
std::pair<DataType, CatalogType> ColumnType(const std::string& declared) {
  std::string upper = declared;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.find("INT") != std::string::npos) {
    return {DataType(TypeId::kInt64), CatalogType::kBigint};
  }
  if (upper == "BOOLEAN" || upper == "BOOL") {
    return {DataType(TypeId::kBoolean), CatalogType::kBoolean};
  }
  if (upper.find("REAL") != std::string::npos || upper.find("DOUB") != std::string::npos ||
      upper.find("FLOA") != std::string::npos) {
    return {DataType(TypeId::kFloat64), CatalogType::kDouble};
  }
  if (upper == "BLOB") return {DataType(TypeId::kBlob), CatalogType::kBlob};
  return {DataType(TypeId::kVarchar), CatalogType::kVarchar};
}

Value ToValue(const CatalogDatum& datum, const DataType& type) {
  if (datum.is_null()) return Value::Null(type);
  switch (type.id) {
    case TypeId::kInt64: return Value::Int64(datum.integer());
    case TypeId::kBoolean: return Value::Boolean(datum.integer() != 0);
    case TypeId::kFloat64: return Value::Float64(datum.real());
    case TypeId::kBlob: return Value::Bytes(type, datum.bytes());
    default: return Value::Varchar(datum.bytes());
  }
}

}  // namespace

std::string QuoteSqlName(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

const LakeBinding* FindMetadataCatalog(const ExecContext& context, std::string_view name) {
  const std::string wanted = Lower(name);
  const LakeBinding* lake = nullptr;
  for (const LakeBinding* candidate : context.lakes) {
    if (candidate->is_ducklake() && Lower(candidate->metadata_catalog) == wanted) {
      lake = candidate;
    }
  }
  return lake;
}

Result<MetadataTable> FindMetadataTable(const LakeBinding& lake,
                                        const std::vector<std::string>& names) {
  if (names.size() == 3 && Lower(names[1]) != "main") {
    return Status::NotFound("Catalog Error: schema \"", names[1], "\" does not exist in ",
                            names[0], " (its tables are in schema main)");
  }
  CatalogStore* store = lake.lake->store();
  const std::string& name = names.back();
  TARN_ASSIGN_OR_RETURN(std::vector<std::string> tables, store->TableNames());
  MetadataTable table;
  for (const std::string& candidate : tables) {
    if (Lower(candidate) == Lower(name)) table.name = candidate;
  }
  if (table.name.empty()) {
    std::string message = StrCat("Catalog Error: Table with name ", name, " does not exist in ",
                                 names.size() > 1 ? names[0] : lake.metadata_catalog, "!");
    std::vector<std::string> closest = expr::ClosestNames(name, tables);
    if (!closest.empty()) message += "\nDid you mean \"" + closest[0] + "\"?";
    return Status::NotFound(message);
  }
  TARN_ASSIGN_OR_RETURN(auto declared, store->TableColumnTypes(table.name));
  for (const auto& [column, declared_type] : declared) {
    auto [type, read_as] = ColumnType(declared_type);
    table.fields.emplace_back(column, type);
    table.read_as.push_back(read_as);
  }
  return table;
}

Result<std::shared_ptr<Batch>> ReadMetadataRows(const LakeBinding& lake,
                                                const MetadataTable& table, bool with_rowid) {
  std::vector<Field> fields;
  CatalogQuery query;
  query.sql = "SELECT ";
  if (with_rowid) {
    fields.emplace_back("rowid", DataType(TypeId::kInt64));
    query.result_types.push_back(CatalogType::kBigint);
    query.sql += "rowid";
  }
  for (size_t i = 0; i < table.fields.size(); ++i) {
    fields.push_back(table.fields[i]);
    query.result_types.push_back(table.read_as[i]);
    query.sql += (fields.size() > 1 ? ", " : "") + QuoteSqlName(table.fields[i].name);
  }
  query.sql += " FROM " + QuoteSqlName(table.name);
  query.what = table.name;
  TARN_ASSIGN_OR_RETURN(CatalogResult result, lake.lake->store()->Query(query));
  RowsBuilder rows(fields);
  std::vector<Value> row(fields.size());
  for (const auto& stored : result.rows) {
    for (size_t c = 0; c < fields.size(); ++c) row[c] = ToValue(stored[c], fields[c].type);
    TARN_RETURN_NOT_OK(rows.Add(row));
  }
  return rows.Finish();
}

Result<std::unique_ptr<Source>> BindMetadataTable(const TableRef& ref, std::string_view sql_text,
                                                  const ExecContext& context) {
  if (ref.names.size() < 2 || ref.names.size() > 3) return std::unique_ptr<Source>();
  const LakeBinding* lake = FindMetadataCatalog(context, ref.names[0]);
  if (lake == nullptr) return std::unique_ptr<Source>();
  auto located = [&](const Status& status) {
    return Status(status.code(), FormatErrorAt(sql_text, status.message(), ref.offset));
  };
  if (ref.at.has_value()) {
    return located(Status::InvalidArgument(
        "Binder Error: AT (...) needs a table of a DuckLake lake, not of its catalog database"));
  }
  Result<MetadataTable> table = FindMetadataTable(*lake, ref.names);
  if (!table.ok()) return located(table.status());
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows,
                        ReadMetadataRows(*lake, *table, /*with_rowid=*/false));
  return std::unique_ptr<Source>(
      std::make_unique<RowsSource>(StrCat("CATALOG_TABLE ", table->name), std::move(rows)));
}

}  // namespace tarn::sql
