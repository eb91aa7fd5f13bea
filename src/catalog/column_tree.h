// The rules that make a column tree (ColumnInfo with children) whole, and the search of one,
// shared by the catalog
// loader (column_tree.cc, from ducklake_column rows) and the write path (table/write_ddl.cc,
// from a declared type), so that a table reads back with the types it was written with.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "tarn/catalog.h"

namespace tarn::catalog_internal {

// Sets the type of a STRUCT, LIST or MAP column from its children: struct fields and the list
// element are the children's fields (field ids = column ids), a map's key and value types are
// its two children's, with their column ids as field ids and the value's nullability. Other
// types are left as they are.
// REQUIRES: the children are complete and their number fits the type (a struct has at least
// one, a list one, a map two, key first).
void ComposeNestedType(ColumnInfo* column);

// The column with `column_id` anywhere in a tree (children included), or nullptr.
const ColumnInfo* FindInTree(const std::vector<ColumnInfo>& columns, int64_t column_id);

// Builds a tarn::Schema from top-level columns.
Schema SchemaOfColumns(const std::vector<ColumnInfo>& columns);

}  // namespace tarn::catalog_internal
