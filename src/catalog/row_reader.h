// RowReader: typed, checked access to one row of a CatalogResult, with errors that name the
// catalog table and the row.
//
// The store has already converted each cell to the type the query declared, so a reader only
// checks presence (NULL where a value is required) and builds the Corruption message:
//   SQLite catalog 'x.sqlite': ducklake_column row (table_id = 1, column_id = 3): <problem>
//
// Thread-safety: a RowReader refers to a result it does not own; use it on one thread.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "tarn/catalog.h"

namespace tarn::catalog_internal {

class RowReader {
 public:
  // `key_columns` name the columns that identify the row in messages.
  RowReader(const CatalogStore& store, const CatalogResult& result, size_t row_index,
            std::string_view what, std::initializer_list<size_t> key_columns);

  bool IsNull(size_t column) const { return row_[column].is_null(); }
  Result<int64_t> Int(size_t column) const;
  std::optional<int64_t> OptInt(size_t column) const;
  Result<std::string> Text(size_t column) const;
  std::optional<std::string> OptText(size_t column) const;
  std::optional<bool> OptBool(size_t column) const;
  bool BoolOr(size_t column, bool if_null) const;

  // Corruption naming the store, table and row, then the message.
  template <typename... Args>
  Status Error(const Args&... args) const {
    return Status::Corruption(prefix(), StrCat(args...));
  }
  // "SQLite catalog 'x': ducklake_column row (table_id = 1): ", built on first use (rows are
  // read by the thousand; only an error needs the text).
  const std::string& prefix() const;

 private:
  static constexpr size_t kMaxKeyColumns = 4;

  const CatalogStore& store_;
  const CatalogResult& result_;
  const std::vector<CatalogDatum>& row_;
  size_t row_index_;
  std::string_view what_;  // REQUIRES: outlives the reader (callers pass literals)
  size_t key_columns_[kMaxKeyColumns] = {};
  size_t num_key_columns_ = 0;
  mutable std::string prefix_;
};

// Runs a query whose cells are converted to `types`; `what` names the table for errors.
Result<CatalogResult> RunQuery(CatalogStore* store, std::string sql,
                               std::vector<CatalogDatum> params, std::vector<CatalogType> types,
                               std::string what);

// "SQLite catalog 'path'" for messages.
std::string StoreName(const CatalogStore& store);

// Joins a catalog path to its base: `path` as is when absolute, else base + path. A NULL path
// means the base itself. When `directory`, the result ends in '/'.
std::string ResolveCatalogPath(const std::string& base, const std::optional<std::string>& path,
                               bool path_is_relative, bool directory);

}  // namespace tarn::catalog_internal
