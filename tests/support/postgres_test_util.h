// The PostgreSQL server tests run against. scripts/test.sh starts a throwaway one
// (scripts/pg-server.sh) and passes its libpq connection string in TARN_TEST_PG. A test that
// needs it fails when the variable is unset or the server does not answer: it never skips.
#pragma once

#include <string>

#include "tarn/status.h"

namespace tarn::testing {

// TARN_TEST_PG; FailedPrecondition-style InvalidArgument naming the variable when unset.
Result<std::string> TestPostgresConninfo();

// A new, empty schema in the test database (a unique name per call); returns a connection
// string whose search_path is that schema, so a lake created through it is private to the
// caller.
Result<std::string> NewPostgresSchema();

// Copies every table of the SQLite catalog at `sqlite_path` into the current schema of
// `conninfo` (empty): the 28 DuckLake tables with the types CreateLake declares on
// PostgreSQL, other tables (inlined data) with PostgreSQL types for their SQLite declared
// types, every row as stored. A fixture's catalog then opens on PostgreSQL.
Status CopySqliteCatalogToPostgres(const std::string& sqlite_path, const std::string& conninfo);

}  // namespace tarn::testing
