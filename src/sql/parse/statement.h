// The syntax tree of a SQL statement, as written: table and column names unresolved.
//
// Expressions inside statements are ast::Expr trees from the expression parser
// (expr/parse/parser.h). The statement parser (statement_parser.h) builds these; the planner
// (planner.h) turns a SelectStmt into an operator tree.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "expr/parse/ast.h"

namespace tarn::sql {

struct SelectStmt;

// One argument of a table function: an expression, a [list, of, expressions], and/or a name
// (name => value or name = value).
struct TableArg {
  std::string name;  // empty for a positional argument
  std::unique_ptr<ast::Expr> expr;
  bool is_list = false;
  std::vector<std::unique_ptr<ast::Expr>> list;
};

// Time travel on a lake table: AT (VERSION => n) or AT (TIMESTAMP => '...').
struct AtClause {
  bool timestamp = false;           // false: VERSION
  std::unique_ptr<ast::Expr> value;  // a constant expression
};

// How a kJoin TableRef combines its two sides. kSemi / kAnti keep the left side's rows with /
// without a matching right row (and only the left side's columns).
enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kCross, kSemi, kAnti };

struct TableRef {
  enum class Kind : uint8_t { kNone, kTable, kFunction, kFile, kSubquery, kJoin };
  Kind kind = Kind::kNone;
  std::vector<std::string> names;  // kTable: name parts; kFunction: names[0] is the function
  std::string file;                // kFile: FROM 'path'
  std::vector<TableArg> args;      // kFunction
  std::unique_ptr<SelectStmt> subquery;
  std::string alias;
  std::vector<std::string> column_aliases;
  // kSubquery: its last `unnest_lists` columns are LISTs whose elements the rows are repeated
  // for (sql/exec/unnest.h), in place of the lists: how UNNEST in a select list and in FROM
  // is planned (sql/plan/unnest_rewrite.h).
  int unnest_lists = 0;
  // kSubquery: LATERAL (SELECT ...), reading the tables before it (sql/plan/decorrelate.h).
  bool lateral = false;
  // The last `hidden_columns` columns are not shown by `*` (a decorrelated join's keys).
  int hidden_columns = 0;
  std::optional<AtClause> at;  // kTable only
  int32_t offset = 0;  // where the reference starts in the source text, for errors
  // kJoin: left JOIN right, with an ON condition, a USING list, NATURAL, or none (CROSS and
  // comma joins). A comma join is kCross with `comma` set.
  std::unique_ptr<TableRef> left;
  std::unique_ptr<TableRef> right;
  JoinType join_type = JoinType::kInner;
  std::unique_ptr<ast::Expr> on;
  std::vector<std::string> using_columns;
  bool natural = false;
  bool comma = false;
};

struct SelectItem {
  std::unique_ptr<ast::Expr> expr;  // null for a star
  std::string alias;                // empty: named after the expression
  bool star = false;
  std::string star_qualifier;       // t.*
  std::vector<std::string> exclude; // * EXCLUDE (a, b)
  // * REPLACE (expr AS a, ...): the column a as expr, in its place.
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> replace;
};

struct OrderItem {
  std::unique_ptr<ast::Expr> expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // absent: DuckDB's default, NULLS LAST
};

// WITH name [(columns)] AS (query).
struct CommonTableExpr {
  std::string name;
  std::vector<std::string> column_aliases;
  std::shared_ptr<const SelectStmt> query;
  // WITH RECURSIVE: a UNION [ALL] query may read the CTE itself on its right side.
  bool recursive = false;
  // AS MATERIALIZED (true) / AS NOT MATERIALIZED (false); absent: materialized when the query
  // reads it more than once (common_table.h).
  std::optional<bool> materialized;
};

// WINDOW name AS (spec): `spec` is a kWindow node without a function (expr/parse/ast.h).
struct NamedWindow {
  std::string name;
  std::unique_ptr<ast::Expr> spec;
};

// USING SAMPLE / TABLESAMPLE: `size` rows (reservoir sampling) or percent of the rows, each row
// (bernoulli) or each batch of rows (system) kept with that probability; `seed` from
// REPEATABLE (s) or (method, s), else random.
struct SampleSpec {
  enum class Method : uint8_t { kSystem, kBernoulli, kReservoir };
  Method method = Method::kSystem;
  bool percent = true;
  double size = 0;
  std::optional<int64_t> seed;
};

// PIVOT source ON col [IN (values)], ... [USING agg [AS name], ...] [GROUP BY ...] and
// UNPIVOT [INCLUDE NULLS] source ON col, ... [INTO NAME n VALUE v], DuckDB's statements, and
// their SQL-standard forms source PIVOT (agg, ... FOR col IN (values) ... [GROUP BY ...]) and
// source UNPIVOT [INCLUDE NULLS] (v FOR n IN (col [AS name], ...)) (sql/plan/pivot.h rewrites
// them into queries).
struct PivotSpec {
  bool unpivot = false;
  TableRef source;
  std::vector<std::unique_ptr<ast::Expr>> on;  // PIVOT: expressions; UNPIVOT: columns
  // PIVOT: per expression of `on`, its IN (...) values; empty (or missing): all its values.
  std::vector<std::vector<std::unique_ptr<ast::Expr>>> in;
  // UNPIVOT: per column of `on`, the name its rows get; empty: the column's name.
  std::vector<std::string> on_names;
  std::vector<std::pair<std::unique_ptr<ast::Expr>, std::string>> aggregates;  // USING
  std::vector<std::unique_ptr<ast::Expr>> group_by;
  std::string name_column = "name";    // UNPIVOT INTO NAME
  std::string value_column = "value";  // UNPIVOT VALUE
  bool include_nulls = false;          // UNPIVOT INCLUDE NULLS
};

// How a set operation query combines its two queries (set_operation.h).
enum class SetOp : uint8_t { kNone, kUnion, kIntersect, kExcept };

struct SelectStmt {
  // WITH: visible to the FROM clauses of this query (and its subqueries), each to the ones
  // after it.
  std::vector<CommonTableExpr> ctes;
  // A set operation: set_left UNION / INTERSECT / EXCEPT [ALL] set_right. Of the other fields
  // only ctes, order_by, limit and offset are used; ORDER BY names the output columns (the
  // left query's names).
  SetOp set_op = SetOp::kNone;
  bool set_all = false;
  bool set_by_name = false;  // UNION [ALL] BY NAME: columns matched by name, not position
  std::unique_ptr<SelectStmt> set_left;
  std::unique_ptr<SelectStmt> set_right;
  // PIVOT / UNPIVOT: the query is that statement; of the other fields only order_by, limit
  // and offset are used.
  std::shared_ptr<const PivotSpec> pivot;
  // SUMMARIZE relation: the query is one row per column of the relation (a table, file, table
  // function or subquery) with its statistics (plan/summarize.h); of the other fields only
  // order_by, limit and offset are used.
  std::shared_ptr<const TableRef> summarize;
  // VALUES (a, b), (c, d): the rows of a query with no other clause (columns col0, col1...).
  std::vector<std::vector<std::unique_ptr<ast::Expr>>> values;
  bool distinct = false;
  // SELECT DISTINCT ON (a, b): the first row (in ORDER BY's order) of each distinct (a, b).
  std::vector<std::unique_ptr<ast::Expr>> distinct_on;
  std::vector<SelectItem> items;
  TableRef from;  // kNone: SELECT without FROM
  std::unique_ptr<ast::Expr> where;
  // USING SAMPLE: the rows past WHERE sampled, before GROUP BY (FROM t TABLESAMPLE ... becomes
  // a derived table (SELECT * FROM t) AS t with this set).
  std::shared_ptr<const SampleSpec> sample;
  std::vector<std::unique_ptr<ast::Expr>> group_by;
  bool group_by_all = false;
  // GROUP BY GROUPING SETS (...) / ROLLUP (...) / CUBE (...), alone or crossed with other
  // items: each grouping set as indices into group_by (which then holds every expression once).
  // Empty: a plain GROUP BY.
  std::vector<std::vector<int>> grouping_sets;
  std::unique_ptr<ast::Expr> having;
  // WINDOW w AS (...), ...: the planner merges them into the OVER clauses that name them.
  std::vector<NamedWindow> windows;
  std::unique_ptr<ast::Expr> qualify;  // QUALIFY: a filter over the window functions' results
  std::vector<OrderItem> order_by;
  std::unique_ptr<ast::Expr> limit;
  // LIMIT p% / LIMIT p PERCENT: `limit` is a percentage (0 to 100) of the rows the query
  // produces; OFFSET then skips rows before them.
  bool limit_percent = false;
  std::unique_ptr<ast::Expr> offset;
};

enum class StatementKind : uint8_t {
  kSelect,
  kCopy,
  kExplain,
  kDescribe,
  kShowTables,
  kSet,
  kReset,
  kCall,         // CALL f(...): `select` is SELECT * FROM f(...)
  // Lake writes (write_statements.h executes them); `write` holds the details.
  kCreateTable,
  kInsert,
  kDelete,
  kUpdate,
  kCreateSchema,
  kDropSchema,
  kDropTable,
  kAlterTable,
  kCreateView,
  kDropView,
  kCreateMacro,
  kDropMacro,
  kMerge,        // MERGE INTO target USING source ON … WHEN …
  kBegin,
  kCommit,
  kRollback,
  // Session statements (system/session.cc runs them); `session` holds the details.
  kAttach,
  kDetach,
  kUse,
  kCheckpoint,   // CHECKPOINT [lake]: `setting` names the lake (empty: the default one)
  // CREATE [OR REPLACE] [TEMPORARY] SECRET [IF NOT EXISTS] [name] (TYPE s3, option value, …),
  // DROP [TEMPORARY] SECRET [IF EXISTS] name: `session` holds the name and options.
  kCreateSecret,
  kDropSecret,
  // PREPARE name AS statement (`setting`, `inner` with its text), EXECUTE name[(arguments)],
  // DEALLOCATE [PREPARE] name.
  kPrepare,
  kExecute,
  kDeallocate,
  // LOAD / [FORCE] INSTALL extension (`setting`): the extensions tarn has built in.
  kLoad,
  kUnsupported,  // a statement tarn does not run: parsed far enough to name it
};

// A column of CREATE TABLE or ALTER TABLE ADD COLUMN.
struct ColumnDef {
  std::string name;
  std::string type_text;  // as written: "DECIMAL(10, 2)", "INTEGER[]"
  bool not_null = false;
  std::unique_ptr<ast::Expr> default_value;  // DEFAULT expr, or null
};

enum class AlterAction : uint8_t {
  kAddColumn,     // columns[0]
  kDropColumn,    // column
  kRenameColumn,  // column -> new_name
  kRenameTable,   // new_name
  kSetType,       // column, type_text
  kSetDefault,    // column, default_value
  kDropDefault,   // column
  kSetNotNull,    // column
  kDropNotNull,   // column
  kSetPartitionedBy,    // partition_keys
  kResetPartitionedBy,  // —
  kSetSortedBy,   // sort_keys (empty: RESET SORTED BY)
  kRenameView,    // ALTER VIEW names RENAME TO new_name
  kSetComment,    // COMMENT ON comment_on names IS default_value (a string or NULL)
};

// One implementation of CREATE MACRO: (parameters) AS expression, or AS TABLE query.
struct MacroParameterDef {
  std::string name;
  std::string type_text;                     // as written; empty when untyped
  std::unique_ptr<ast::Expr> default_value;  // name := value, or null
};
struct MacroImplDef {
  std::vector<MacroParameterDef> parameters;
  std::unique_ptr<ast::Expr> body;    // a scalar macro's expression
  std::unique_ptr<SelectStmt> query;  // a table macro's query
  std::string query_text;             // its text as written, outer parentheses removed
};

// One WHEN clause of MERGE INTO.
struct MergeAction {
  enum class When : uint8_t {
    kMatched,             // WHEN MATCHED
    kNotMatched,          // WHEN NOT MATCHED [BY TARGET]: a source row no target row matches
    kNotMatchedBySource,  // WHEN NOT MATCHED BY SOURCE: a target row no source row matches
  };
  enum class Kind : uint8_t { kUpdate, kDelete, kInsert, kDoNothing };
  When when = When::kMatched;
  Kind kind = Kind::kDoNothing;
  std::unique_ptr<ast::Expr> condition;  // WHEN … AND condition; null: always
  // UPDATE SET column = value, …; empty: every target column the source has, from it (UPDATE,
  // UPDATE SET *).
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> assignments;
  // INSERT [(columns)] VALUES (values); no values and not default_values: the source's columns
  // by name (INSERT, INSERT *).
  std::vector<std::string> columns;
  std::vector<std::unique_ptr<ast::Expr>> values;
  bool default_values = false;  // INSERT DEFAULT VALUES
};

// The details of a write statement.
struct WriteStmt {
  std::vector<std::string> names;  // the target as written: [catalog.][schema.]name
  bool if_exists = false;
  bool if_not_exists = false;
  bool column_if_exists = false;  // ALTER TABLE … DROP COLUMN IF EXISTS c
  bool or_replace = false;
  bool cascade = false;
  bool temporary = false;  // CREATE TEMP TABLE | VIEW | MACRO: the object goes to "temp"
  // CREATE TABLE (columns) / ALTER TABLE ADD COLUMN (columns[0])
  std::vector<ColumnDef> columns;
  // CREATE TABLE AS / INSERT ... SELECT / CREATE VIEW AS: the query and its source text
  std::unique_ptr<SelectStmt> query;
  std::string query_text;
  bool no_data = false;  // CREATE TABLE … AS … WITH NO DATA: the query's columns, no rows
  // INSERT
  std::vector<std::string> insert_columns;  // empty: every column in order
  // VALUES rows
  std::vector<std::vector<std::unique_ptr<ast::Expr>>> values;
  bool default_values = false;              // INSERT ... DEFAULT VALUES
  bool by_name = false;  // INSERT INTO t BY NAME query: the query's columns by their names
  // DELETE / UPDATE
  std::unique_ptr<ast::Expr> where;
  std::string alias;  // DELETE FROM t AS x / UPDATE t AS x
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> assignments;
  // UPDATE t SET … FROM <from> / DELETE FROM t USING <from>: more tables the WHERE clause and
  // the assignments read (null: none)
  std::unique_ptr<TableRef> from;
  // MERGE INTO: `from` is the source; ON condition or USING (columns); the WHEN clauses
  std::unique_ptr<ast::Expr> merge_on;
  std::vector<std::string> merge_using;
  std::vector<MergeAction> merge_actions;
  // ALTER TABLE
  AlterAction alter = AlterAction::kAddColumn;
  std::string column;
  // A nested field's path (DuckDB's `s.f`): kAddColumn the struct the new field goes into,
  // kDropColumn and kRenameColumn the field itself; empty for top-level columns.
  std::vector<std::string> column_path;
  std::string new_name;
  std::string type_text;
  std::unique_ptr<ast::Expr> default_value;
  // SET PARTITIONED BY (key, ...): a column, year/month/day/hour(column), bucket(n, column)
  std::vector<std::unique_ptr<ast::Expr>> partition_keys;
  // ALTER TABLE SET SORTED BY (...) | AUTO; CREATE TABLE t SORTED BY (...) | AUTO AS SELECT
  std::vector<OrderItem> sort_keys;
  bool sort_auto = false;
  // CREATE VIEW v (a, b)
  std::vector<std::string> view_aliases;
  // COMMENT ON: "TABLE", "VIEW" or "COLUMN" (then `names` ends with the column's name)
  std::string comment_on;
  // CREATE MACRO name impl, impl, ... / DROP MACRO TABLE (table_macro)
  std::vector<MacroImplDef> macro_impls;
  bool table_macro = false;
};

// ATTACH [OR REPLACE] [DATABASE] [IF NOT EXISTS] 'locator' [AS name] [(option [value], ...)],
// DETACH [DATABASE] [IF EXISTS] name, USE name[.schema]; CREATE / DROP SECRET (name, options,
// or_replace, if_exists, if_not_exists; `persistent` when PERSISTENT was written).
struct SessionStmt {
  std::string locator;  // ATTACH: the path or locator as written
  std::string name;     // ATTACH AS name (empty: derived from the locator), DETACH, USE
  std::string schema;   // USE name.schema (empty: the lake's default)
  bool if_exists = false;
  bool if_not_exists = false;
  bool or_replace = false;
  bool persistent = false;
  // ATTACH options by upper-case name; a bare option (READ_ONLY) has a null value.
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> options;
};

struct Statement {
  StatementKind kind = StatementKind::kSelect;
  std::unique_ptr<SelectStmt> select;  // kSelect, kCopy source, kDescribe
  std::unique_ptr<Statement> inner;    // kExplain
  bool analyze = false;                // EXPLAIN ANALYZE
  // kCopy
  std::string copy_path;
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> copy_options;
  // kSet / kReset (SET VARIABLE / RESET VARIABLE: `variable`)
  std::string setting;
  bool variable = false;
  std::unique_ptr<ast::Expr> value;
  // kExecute: the values of the parameters $1, $2, ...
  std::vector<std::unique_ptr<ast::Expr>> arguments;
  // kShowTables: SHOW ALL TABLES
  bool show_all = false;
  // Lake writes
  std::unique_ptr<WriteStmt> write;
  // kAttach / kDetach / kUse
  std::unique_ptr<SessionStmt> session;
  // kUnsupported: "CREATE TABLE", "INSERT", "CALL ducklake_expire_snapshots"; for writes, the
  // statement's name for messages ("INSERT", "CREATE TABLE")
  std::string what;
  std::string text;  // the statement's source text
};

}  // namespace tarn::sql
