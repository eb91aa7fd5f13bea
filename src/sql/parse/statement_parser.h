// The statement grammar: SQL text → Statement trees.
//
// Supported: [WITH name [(columns)] AS (query), ...] SELECT [DISTINCT] items [FROM sources]
// [WHERE e] [GROUP BY e, ... | GROUP BY ALL] [HAVING e] [ORDER BY e [ASC|DESC] [NULLS
// FIRST|LAST], ...] [LIMIT n] [OFFSET m], or VALUES (e, ...), ...; sources are tables, files,
// table functions, (subqueries) and (VALUES ...) with [AS alias [(columns)]], combined by ','
// and [NATURAL] [INNER | LEFT | RIGHT | FULL [OUTER] | CROSS | SEMI | ANTI] JOIN ... [ON e |
// USING (columns)]; a table optionally followed by AT (VERSION => n | TIMESTAMP => t);
// COPY (query) | name TO 'file' [(options)]; EXPLAIN [ANALYZE] stmt; DESCRIBE query | source;
// SHOW [ALL] TABLES; SET name = value; RESET name; CALL f(args); the lake writes (CREATE/DROP
// SCHEMA|TABLE|VIEW, CREATE TABLE AS, INSERT, DELETE, UPDATE, ALTER TABLE, BEGIN/COMMIT/
// ROLLBACK; docs/sql.md). Other statements (ATTACH, MERGE, PRAGMA, ...) are recognized and
// returned as kUnsupported naming the statement. Expressions go to the expression parser.
// Every syntax error carries line, column and a caret (FormatSyntaxError).
//
// Thread-safety: pure functions.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "sql/parse/statement.h"
#include "tarn/status.h"

namespace tarn::sql {

// Parses every ';'-separated statement of `text` (empty statements are skipped).
Result<std::vector<std::unique_ptr<Statement>>> ParseStatements(std::string_view text);

}  // namespace tarn::sql
