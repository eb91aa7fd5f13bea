// RowReader and the small helpers every catalog loader shares.
#include "catalog/row_reader.h"

namespace tarn::catalog_internal {

std::string StoreName(const CatalogStore& store) {
  std::string backend(store.backend());
  if (backend == "sqlite") backend = "SQLite";
  if (backend == "postgres") backend = "PostgreSQL";
  return StrCat(backend, " catalog '", store.location(), "'");
}

RowReader::RowReader(const CatalogStore& store, const CatalogResult& result, size_t row_index,
                     std::string_view what, std::initializer_list<size_t> key_columns)
    : store_(store), result_(result), row_(result.rows[row_index]), row_index_(row_index),
      what_(what) {
  for (size_t column : key_columns) {
    if (num_key_columns_ < kMaxKeyColumns) key_columns_[num_key_columns_++] = column;
  }
}

const std::string& RowReader::prefix() const {
  if (!prefix_.empty()) return prefix_;
  std::string key;
  for (size_t i = 0; i < num_key_columns_; ++i) {
    const size_t column = key_columns_[i];
    if (column >= row_.size()) continue;
    if (!key.empty()) key += ", ";
    key += StrCat(result_.column_names[column], " = ", row_[column].ToString());
  }
  if (key.empty()) key = StrCat("#", row_index_ + 1);
  prefix_ = StrCat(StoreName(store_), ": ", what_, " row (", key, "): ");
  return prefix_;
}

Result<int64_t> RowReader::Int(size_t column) const {
  const CatalogDatum& d = row_[column];
  if (d.is_null()) return Error(result_.column_names[column], " is NULL");
  if (d.kind() != CatalogDatum::Kind::kInteger) {
    return Error(result_.column_names[column], " is ", d.ToString(), ", not an integer");
  }
  return d.integer();
}

std::optional<int64_t> RowReader::OptInt(size_t column) const {
  const CatalogDatum& d = row_[column];
  if (d.kind() != CatalogDatum::Kind::kInteger) return std::nullopt;
  return d.integer();
}

Result<std::string> RowReader::Text(size_t column) const {
  const CatalogDatum& d = row_[column];
  if (d.is_null()) return Error(result_.column_names[column], " is NULL");
  if (d.kind() != CatalogDatum::Kind::kText && d.kind() != CatalogDatum::Kind::kBlob) {
    return Error(result_.column_names[column], " is ", d.ToString(), ", not text");
  }
  return d.bytes();
}

std::optional<std::string> RowReader::OptText(size_t column) const {
  const CatalogDatum& d = row_[column];
  if (d.kind() != CatalogDatum::Kind::kText && d.kind() != CatalogDatum::Kind::kBlob) {
    return std::nullopt;
  }
  return d.bytes();
}

std::optional<bool> RowReader::OptBool(size_t column) const {
  const CatalogDatum& d = row_[column];
  if (d.kind() != CatalogDatum::Kind::kInteger) return std::nullopt;
  return d.integer() != 0;
}

bool RowReader::BoolOr(size_t column, bool if_null) const {
  return OptBool(column).value_or(if_null);
}

Result<CatalogResult> RunQuery(CatalogStore* store, std::string sql,
                               std::vector<CatalogDatum> params, std::vector<CatalogType> types,
                               std::string what) {
  CatalogQuery query;
  query.sql = std::move(sql);
  query.params = std::move(params);
  query.result_types = std::move(types);
  query.what = std::move(what);
  return store->Query(query);
}

std::string ResolveCatalogPath(const std::string& base, const std::optional<std::string>& path,
                               bool path_is_relative, bool directory) {
  std::string resolved;
  if (!path.has_value()) {
    resolved = base;
  } else if (path_is_relative) {
    resolved = base;
    if (!resolved.empty() && resolved.back() != '/') resolved += '/';
    resolved += *path;
  } else {
    resolved = *path;
  }
  if (directory && (resolved.empty() || resolved.back() != '/')) resolved += '/';
  return resolved;
}

}  // namespace tarn::catalog_internal
