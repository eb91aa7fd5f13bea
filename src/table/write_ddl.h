// DDL of a write transaction: validation against the catalog at the transaction's view, the
// view's update, and the change recorded for the commit.
//
// Changes to objects the transaction created are folded into their creation (a column added
// to a new table edits its CreateTableChange; dropping it removes the creation), and repeated
// changes to one committed column keep one AlterColumnChange, so the commit sees at most one
// new version per object.
//
// Thread-safety: uses one WriteState.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "table/write_state.h"
#include "tarn/table_write.h"

namespace tarn::table_internal {

Status DdlCreateSchema(WriteState& state, const std::string& name, bool if_not_exists);
Status DdlDropSchema(WriteState& state, const std::string& name, bool if_exists,
                     bool cascade);
Status DdlCreateTable(WriteState& state, const std::string& schema, const std::string& table,
                      const std::vector<ColumnDefinition>& columns, bool if_not_exists);
Status DdlDropTable(WriteState& state, const std::string& schema, const std::string& table,
                    bool if_exists);
Status DdlRenameTable(WriteState& state, const std::string& schema, const std::string& table,
                      const std::string& new_name);
Status DdlAddColumn(WriteState& state, const std::string& schema, const std::string& table,
                    const ColumnDefinition& column);
Status DdlDropColumn(WriteState& state, const std::string& schema, const std::string& table,
                     const std::string& column);
Status DdlRenameColumn(WriteState& state, const std::string& schema, const std::string& table,
                       const std::string& column, const std::string& new_name);
Status DdlAlterColumnType(WriteState& state, const std::string& schema, const std::string& table,
                          const std::string& column, const DataType& new_type);
// Nested fields by path (write_ddl_fields.cc; WriteTransaction::AddField has the rules).
Status DdlAddField(WriteState& state, const std::string& schema, const std::string& table,
                   const std::vector<std::string>& parent_path, const ColumnDefinition& field,
                   bool if_not_exists);
Status DdlDropField(WriteState& state, const std::string& schema, const std::string& table,
                    const std::vector<std::string>& path, bool if_exists);
Status DdlRenameField(WriteState& state, const std::string& schema, const std::string& table,
                      const std::vector<std::string>& path, const std::string& new_name);
// SET DATA TYPE of a STRUCT, LIST or MAP column: `target` is the evolved column (fields
// matched by name, promoted, added with ids from the table's next ids, dropped), recorded as
// the field rows it changes; the column's own row keeps its version.
Status EvolveNestedColumn(WriteState& state, const TableInfo& table, const ColumnInfo& column,
                          const DataType& new_type, ColumnInfo* target);
// A new version of the top-level `column` of `table` after changes to its fields, recorded
// as the difference of its field rows from the start snapshot (or folded into the table's
// creation or the column's ADD in this transaction).
// REQUIRES: the view still holds the table as it was before the change (ReplaceTable after).
Status RecordFieldChanges(WriteState& state, const TableInfo& table, const ColumnInfo& column);
// Erases the pending column changes of `table_id` that touch any of `column_ids`.
void EraseColumnChanges(WriteState& state, int64_t table_id,
                        const std::vector<int64_t>& column_ids);
// The highest column id the table has used (catalog rows of every version and ids added in
// this transaction).
Result<int64_t> MaxColumnId(WriteState& state, const TableInfo& table);
Status DdlSetColumnDefault(WriteState& state, const std::string& schema,
                           const std::string& table, const std::string& column,
                           std::optional<Value> default_value);
Status DdlSetColumnDefaultExpression(WriteState& state, const std::string& schema,
                                     const std::string& table, const std::string& column,
                                     const std::string& expression);
Status DdlSetColumnNotNull(WriteState& state, const std::string& schema,
                           const std::string& table, const std::string& column, bool not_null);
// SET PARTITIONED BY (keys) / RESET PARTITIONED BY (no keys). The same keys again, or a reset
// of an unpartitioned table, change nothing.
Status DdlSetPartitioning(WriteState& state, const std::string& schema, const std::string& table,
                          const std::vector<PartitionKeyDefinition>& keys);
// SET SORTED BY (fields) / RESET SORTED BY (no fields): expressions in DuckDB's spelling;
// every column they name must be a column of the table (Binder Error naming the others).
Status DdlSetSortKey(WriteState& state, const std::string& schema, const std::string& table,
                     std::vector<SortField> fields);
// The check of DdlSetSortKey alone (also run before a sorted write).
Status CheckSortKeyColumns(const TableInfo& table, const std::vector<SortField>& fields);
// RENAME COLUMN of a sorted table: the key's references to the column follow the new name
// (table->sorting is updated and a new key recorded).
Status RenameSortKeyColumn(WriteState& state, TableInfo* table, const std::string& old_name,
                           const std::string& new_name);
// DROP COLUMN: refused when the table's sort key uses the column.
Status CheckDropSortedColumn(const TableInfo& table, const std::string& column);
Status DdlCreateView(WriteState& state, const std::string& schema, const std::string& view,
                     const std::string& sql, const std::vector<std::string>& column_aliases,
                     bool or_replace);
Status DdlDropView(WriteState& state, const std::string& schema, const std::string& view,
                   bool if_exists);
Status DdlRenameView(WriteState& state, const std::string& schema, const std::string& view,
                     const std::string& new_name, bool if_exists);
// COMMENT ON TABLE | VIEW | COLUMN (`column` for kColumn); nullopt is IS NULL.
Status DdlSetComment(WriteState& state, SetCommentChange::Target target,
                     const std::string& schema, const std::string& name,
                     const std::string& column, std::optional<std::string> comment);
// CREATE [OR REPLACE] MACRO: every implementation of one kind (scalar or table).
Status DdlCreateMacro(WriteState& state, const std::string& schema, const std::string& name,
                      std::vector<MacroImpl> impls, bool or_replace, bool if_not_exists);
// DROP MACRO [TABLE]: `is_table` says which kind the statement names.
Status DdlDropMacro(WriteState& state, const std::string& schema, const std::string& name,
                    bool is_table, bool if_exists);
Status DdlSetOption(WriteState& state, const std::string& key, const std::string& value,
                    const std::optional<std::string>& scope_schema,
                    const std::optional<std::string>& scope_table);

// Whether a type promotion from `from` to `to` of a primitive column is allowed (DuckLake:
// DuckDB's max logical type of the two is `to`).
bool IsAllowedPromotion(const DataType& from, const DataType& to);
// The error of a refused promotion, in the extension's words.
Status PromotionError(const std::string& column, const DataType& from, const DataType& to);

// Helpers shared by write_ddl.cc (schemas, tables, views, options) and write_ddl_columns.cc.
Status CheckName(const std::string& what, const std::string& name);
Status CheckType(const std::string& column, const DataType& type);
// A column's catalog row tree for `type`, ids assigned depth-first from *next_id.
ColumnInfo BuildColumn(const std::string& name, const DataType& type, bool nulls_allowed,
                       int64_t* next_id);
// `value` cast to `type`, as a catalog literal default and the cast value.
Result<std::pair<ColumnDefault, Value>> MakeDefault(const std::string& column,
                                                    const DataType& type, const Value& value);
// An expression default of a column of `type`: it must bind without columns and convert to
// the type (checked by evaluating it once).
Result<ColumnDefault> MakeExpressionDefault(const std::string& column, const DataType& type,
                                            const std::string& expression);
// DuckLake's refusal of an expression default on ADD COLUMN (older rows would need its value).
Status NonLiteralAddColumnDefault();
void RebuildSchema(TableInfo* table);
// The CreateTableChange of a table created in this transaction, or null.
CreateTableChange* FindCreateTable(WriteState& state, int64_t table_id);

// The path segment of a new schema or table: its name when it is only ASCII letters, digits,
// '_' and '-' (as the extension names directories), else nullopt.
std::optional<std::string> PathSegmentFor(const std::string& name);

}  // namespace tarn::table_internal
