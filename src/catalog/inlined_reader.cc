// Lake::ReadInlinedRows: rows of a ducklake_inlined_data_<table>_<version> table as a Batch
// typed by the table's columns at that schema version.
#include <cmath>
#include <cstdio>
#include <limits>

#include "catalog/inlined_text.h"
#include "catalog/loader.h"
#include "catalog/row_reader.h"
#include "catalog/value_text.h"

namespace tarn {

using catalog_internal::RowReader;
using catalog_internal::StoreName;

namespace {

std::string QuoteIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

Result<Value> IntegerValue(const DataType& type, __int128 v) {
  __int128 lo = 0, hi = 0;
  switch (type.id) {
    case TypeId::kInt8: lo = INT8_MIN; hi = INT8_MAX; break;
    case TypeId::kInt16: lo = INT16_MIN; hi = INT16_MAX; break;
    case TypeId::kInt32: lo = INT32_MIN; hi = INT32_MAX; break;
    case TypeId::kInt64: lo = INT64_MIN; hi = INT64_MAX; break;
    case TypeId::kUInt8: hi = UINT8_MAX; break;
    case TypeId::kUInt16: hi = UINT16_MAX; break;
    case TypeId::kUInt32: hi = UINT32_MAX; break;
    case TypeId::kUInt64: hi = UINT64_MAX; break;
    case TypeId::kInt128:
      return Value::Int128(type, v);
    case TypeId::kUInt128:
      if (v < 0) return Status::InvalidArgument("negative value for uint128");
      return Value::Int128(type, v);
    default:
      return Status::InvalidArgument("not an integer type");
  }
  if (v < lo || v > hi) {
    return Status::InvalidArgument("value out of range for ", type.ToDuckLakeName());
  }
  if (type.id >= TypeId::kUInt8 && type.id <= TypeId::kUInt64) {
    return Value::UInt(type, static_cast<uint64_t>(v));
  }
  return Value::Int(type, static_cast<int64_t>(v));
}

// Decodes a stored inlined value by the column's type, whatever its storage form.
Result<Value> DecodeStoredValue(const CatalogDatum& datum, const DataType& type) {
  using Kind = CatalogDatum::Kind;
  if (datum.is_null()) return Value::Null(type);
  if (type.IsNested() || type.id == TypeId::kVariant || type.id == TypeId::kGeometry ||
      type.id == TypeId::kInterval || type.id == TypeId::kTimeTz) {
    // Types a SQL catalog has no column type for are stored as DuckDB's text spelling (as
    // bytes on catalogs that keep text in binary columns).
    if (datum.kind() == Kind::kText || datum.kind() == Kind::kBlob) {
      return catalog_internal::DecodeInlinedText(datum.bytes(), type);
    }
    return Status::InvalidArgument(datum.ToString(), " is not a stored value of type ",
                                   type.ToString());
  }
  switch (datum.kind()) {
    case Kind::kInteger: {
      int64_t v = datum.integer();
      if (type.id == TypeId::kBoolean) {
        if (v != 0 && v != 1) return Status::InvalidArgument(v, " is not a boolean");
        return Value::Boolean(v == 1);
      }
      if (type.IsInteger()) return IntegerValue(type, v);
      if (type.IsFloating()) {
        double d = static_cast<double>(v);
        if (type.id == TypeId::kFloat32) d = static_cast<double>(static_cast<float>(d));
        return Value::Double(type, d);
      }
      if (type.id == TypeId::kDecimal) {
        // An integral decimal stored with integer affinity: scale it up.
        return catalog_internal::DecodeLiteralValue(std::to_string(v), type);
      }
      if (type.id == TypeId::kVarchar || type.id == TypeId::kJson) {
        return Value::Bytes(type, std::to_string(v));
      }
      break;
    }
    case Kind::kReal: {
      double d = datum.real();
      if (type.IsFloating()) {
        if (type.id == TypeId::kFloat32) d = static_cast<double>(static_cast<float>(d));
        return Value::Double(type, d);
      }
      if (type.id == TypeId::kDecimal && std::isfinite(d)) {
        char buf[128];
        std::snprintf(buf, sizeof(buf), "%.*f", static_cast<int>(type.scale), d);
        return catalog_internal::DecodeLiteralValue(buf, type);
      }
      if (type.IsInteger() && std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 1.7e38) {
        return IntegerValue(type, static_cast<__int128>(d));
      }
      break;
    }
    case Kind::kText:
      if (type.id == TypeId::kBlob) return Value::Bytes(type, datum.bytes());
      return catalog_internal::DecodeLiteralValue(datum.bytes(), type);
    case Kind::kBlob:
      if (type.id == TypeId::kBlob || type.id == TypeId::kVarchar || type.id == TypeId::kJson) {
        return Value::Bytes(type, datum.bytes());
      }
      if (type.id == TypeId::kUuid && datum.bytes().size() == 16) {
        return Value::Bytes(type, datum.bytes());
      }
      break;
    case Kind::kNull:
      break;
  }
  return Status::InvalidArgument(datum.ToString(), " is not a stored value of type ",
                                 type.ToDuckLakeName());
}

}  // namespace

Result<std::shared_ptr<Batch>> Lake::ReadInlinedRows(const TableMetadata& table,
                                                     const InlinedDataTable& inlined,
                                                     InlinedRowSelection selection) {
  std::lock_guard<std::mutex> lock(mu_);
  CatalogStore* store = store_.get();
  const std::string& name = inlined.table_name;
  // Why the query below could not run: a missing table or column, named (looked up only on
  // failure, as scans run this for every inlined table).
  auto diagnose = [&](const Status& failure) -> Status {
    TARN_ASSIGN_OR_RETURN(std::vector<std::string> stored_columns, store->TableColumns(name));
    auto has_column = [&](std::string_view column) {
      for (const std::string& stored : stored_columns) {
        if (stored == column) return true;
      }
      return false;
    };
    for (std::string_view required : {"row_id", "begin_snapshot", "end_snapshot"}) {
      if (!has_column(required)) {
        return Status::Corruption(StoreName(*store), ": inlined data table ", name,
                                  " has no column ", required);
      }
    }
    for (const ColumnInfo& column : inlined.columns) {
      if (!has_column(column.name)) {
        return Status::Corruption(StoreName(*store), ": inlined data table ", name,
                                  " has no column ", column.name, " (column_id ",
                                  column.column_id, " at schema version ",
                                  inlined.schema_version, ")");
      }
    }
    return failure;
  };
  std::string sql = "SELECT row_id, begin_snapshot, end_snapshot";
  std::vector<Field> fields = {Field("row_id", DataType(TypeId::kInt64), false),
                               Field("begin_snapshot", DataType(TypeId::kInt64), false),
                               Field("end_snapshot", DataType(TypeId::kInt64), true)};
  for (const ColumnInfo& column : inlined.columns) {
    sql += ", " + QuoteIdentifier(column.name);
    fields.push_back(column.ToField());
  }
  sql += " FROM " + QuoteIdentifier(name) + " WHERE begin_snapshot <= ?1";
  if (selection == InlinedRowSelection::kVisible) {
    sql += " AND (end_snapshot IS NULL OR end_snapshot > ?1)";
  }
  sql += " ORDER BY row_id, begin_snapshot";
  std::vector<CatalogType> types = {CatalogType::kBigint, CatalogType::kBigint,
                                    CatalogType::kBigint};
  Result<CatalogResult> queried =
      catalog_internal::RunQuery(store, std::move(sql), {CatalogDatum::Integer(table.snapshot_id)},
                                 std::move(types), name);
  if (!queried.ok()) {
    if (queried.status().code() == StatusCode::kInvalidArgument) {
      return diagnose(queried.status());
    }
    return queried.status();
  }
  CatalogResult result = std::move(queried).value();
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (const Field& field : fields) builders.push_back(std::make_unique<ColumnBuilder>(field.type));
  for (auto& builder : builders) builder->Reserve(static_cast<int64_t>(result.rows.size()));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, name, {0});
    TARN_ASSIGN_OR_RETURN(int64_t row_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(int64_t begin, row.Int(1));
    if (row_id < 0) return row.Error("row_id is negative");
    builders[0]->AppendNumber<int64_t>(row_id);
    builders[1]->AppendNumber<int64_t>(begin);
    if (std::optional<int64_t> end = row.OptInt(2)) {
      builders[2]->AppendNumber<int64_t>(*end);
    } else {
      builders[2]->AppendNull();
    }
    for (size_t c = 0; c < inlined.columns.size(); ++c) {
      const ColumnInfo& column = inlined.columns[c];
      Result<Value> value = DecodeStoredValue(result.rows[i][c + 3], column.type);
      if (!value.ok()) {
        if (value.status().IsNotSupported()) {
          return Status::NotSupported(StoreName(*store), ": ", name, " column ", column.name,
                                      ": ", value.status().message());
        }
        return row.Error("column ", column.name, ": ", value.status().message());
      }
      Status appended = builders[c + 3]->Append(*value);
      if (!appended.ok()) return row.Error("column ", column.name, ": ", appended.message());
    }
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (auto& builder : builders) columns.push_back(builder->Finish());
  return MakeBatch(std::make_shared<const Schema>(std::move(fields)), std::move(columns));
}

}  // namespace tarn
