// Where a lake's catalog lives: the locator forms tarn accepts and the PostgreSQL catalog
// store (the SQLite one is in tarn/catalog.h).
//
// A locator names a catalog database:
//   "ducklake:sqlite:PATH", "sqlite:PATH", or a bare PATH ending in ".sqlite", ".sqlite3" or
//   ".db"                          -> a SQLite file;
//   "ducklake:postgres:CONNINFO", "postgres:CONNINFO"
//                                  -> a PostgreSQL database by its libpq connection string
//                                     ("host=h port=5432 dbname=d user=u", a postgresql:// URI,
//                                     or empty for libpq's defaults and PG* variables); the
//                                     lake is the catalog tables of the connection's current
//                                     schema (its search_path).
// Lake::Open and CreateLake (tarn/lake_write.h) accept every form.
//
// Thread-safety: as CatalogStore (tarn/catalog.h): one thread at a time per store.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "tarn/catalog.h"

namespace tarn {

struct CatalogLocator {
  enum class Backend : uint8_t { kSqlite, kPostgres };
  Backend backend = Backend::kSqlite;
  std::string target;  // the file path or the connection string
};

// InvalidArgument for a locator of neither form, or a SQLite one naming no file.
Result<CatalogLocator> ParseCatalogLocator(std::string_view locator);

// `locator` for messages: a PostgreSQL connection string without its password (one libpq
// cannot parse is shown as "<connection string not understood>"); other locators as they are.
std::string RedactLocator(std::string_view locator);

// Connects to a PostgreSQL database through libpq. location() is the connection string
// without its password. Errors: InvalidArgument for a connection string libpq cannot parse,
// IOError when the server cannot be reached or refuses the connection (naming the location
// and libpq's reason). read_only makes every transaction of the session READ ONLY.
//
// Transactions are REPEATABLE READ, so one reads one committed state as on SQLite; a unique
// violation (SQLSTATE 23505), a serialization failure (40001) or a deadlock (40P01) against a
// concurrent writer is Conflict, which commits retry. A connection lost outside a transaction
// is reopened before the next statement; inside one, the statement fails with IOError and the
// server rolls the transaction back.
Result<std::unique_ptr<CatalogStore>> OpenPostgresCatalogStore(const std::string& conninfo,
                                                               bool read_only);

}  // namespace tarn
