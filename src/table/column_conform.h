// Bringing a column read from a data file (or an inlined table) to the table's column as of
// the snapshot being read: nested fields matched by field id (else by name), fields the data
// predates filled with their initial default, promoted types cast (int widening,
// float -> double, as CAST does), names and field ids taken from the catalog.
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::table_internal {

// Same physical layout and values: equal up to field ids, nullability and list/map child
// names (struct field names must match: they carry meaning).
bool SameShape(const DataType& a, const DataType& b);

// A shallow copy of `column` typed `type` (REQUIRES: SameShape), children relabeled too.
std::shared_ptr<Column> Relabel(const std::shared_ptr<Column>& column, const DataType& type);

// CAST(column AS to), row by row as DuckDB casts, typed exactly `to` (field ids and child
// names included). Returns `column` itself when the types are equal.
Result<std::shared_ptr<Column>> CastColumn(std::shared_ptr<Column> column, const DataType& to);

// `rows` copies of `value` (a NULL Value of any type gives NULLs) as a column of `type`.
Result<std::shared_ptr<Column>> ConstantColumn(const Value& value, const DataType& type,
                                               int64_t rows);

// The value a column takes in data written before it existed: its initial default, else NULL.
Value InitialValue(const ColumnInfo& column);

// Source names of nested columns, by column id, from a file's name mapping.
using MappedNames = std::map<int64_t, std::string>;

// Conforms `column`, described in its source by `source`, to `target`. The result's type is
// exactly target.type. With `mapped_names` (a name-mapped file) struct fields are found by
// the mapping's source names only, and a field the mapping lacks reads as its initial default.
Result<std::shared_ptr<Column>> ConformColumn(std::shared_ptr<Column> column, const Field& source,
                                              const ColumnInfo& target,
                                              const MappedNames* mapped_names = nullptr);

}  // namespace tarn::table_internal
