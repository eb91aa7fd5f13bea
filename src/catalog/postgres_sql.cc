#include "catalog/postgres_sql.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace tarn::catalog_internal {

Result<PostgresSql> TranslateToPostgres(std::string_view sql) {
  PostgresSql out;
  out.sql.reserve(sql.size() + 8);
  size_t pos = 0;
  while (pos < sql.size()) {
    const char c = sql[pos];
    if (c == '\'' || c == '"') {
      // A literal or a quoted name, copied as is; a doubled quote is part of it.
      size_t end = pos + 1;
      while (true) {
        end = sql.find(c, end);
        if (end == std::string_view::npos) {
          return Status::InvalidArgument("unterminated ", c == '\'' ? "string literal" : "name",
                                         " in SQL '", sql.substr(0, 80), "'");
        }
        if (end + 1 < sql.size() && sql[end + 1] == c) {
          end += 2;
          continue;
        }
        break;
      }
      out.sql.append(sql.substr(pos, end + 1 - pos));
      pos = end + 1;
      continue;
    }
    if (c != '?') {
      out.sql.push_back(c);
      ++pos;
      continue;
    }
    size_t digits = pos + 1;
    while (digits < sql.size() && sql[digits] >= '0' && sql[digits] <= '9') ++digits;
    size_t number = 0;
    if (digits == pos + 1) {
      number = out.num_params + 1;
    } else {
      for (size_t i = pos + 1; i < digits; ++i) {
        number = number * 10 + static_cast<size_t>(sql[i] - '0');
        if (number > 65535) {
          return Status::InvalidArgument("placeholder ", sql.substr(pos, digits - pos),
                                         " is out of range in SQL '", sql.substr(0, 80), "'");
        }
      }
      if (number == 0) {
        return Status::InvalidArgument("placeholder ?0 in SQL '", sql.substr(0, 80), "'");
      }
    }
    out.num_params = std::max(out.num_params, number);
    out.sql += "$" + std::to_string(number);
    pos = digits;
  }
  return out;
}

namespace {

// A URI connection string without the password of its user info and query.
std::string RedactUri(const std::string& uri) {
  std::string out = uri;
  const size_t scheme_end = out.find("://");
  const size_t authority = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const size_t at = out.find('@', authority);
  const size_t slash = out.find('/', authority);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
    const size_t colon = out.find(':', authority);
    if (colon != std::string::npos && colon < at) out.erase(colon, at - colon);
  }
  for (size_t key = out.find("password="); key != std::string::npos;
       key = out.find("password=", key)) {
    if (key == 0 || (out[key - 1] != '?' && out[key - 1] != '&')) {
      key += 9;
      continue;
    }
    size_t end = out.find('&', key);
    const size_t start = out[key - 1] == '&' ? key - 1 : key;
    if (end == std::string::npos) {
      out.erase(start);
    } else {
      out.erase(start, end + (start == key ? 1 : 0) - start);
    }
  }
  if (!out.empty() && out.back() == '?') out.pop_back();
  return out;
}

// keyword=value pairs in their given order, without password=...; values keep their quoting.
std::string RedactKeywords(const std::string& conninfo) {
  std::string out;
  size_t pos = 0;
  while (pos < conninfo.size()) {
    while (pos < conninfo.size() && std::isspace(static_cast<unsigned char>(conninfo[pos]))) ++pos;
    if (pos >= conninfo.size()) break;
    const size_t start = pos;
    while (pos < conninfo.size() && conninfo[pos] != '=' &&
           !std::isspace(static_cast<unsigned char>(conninfo[pos]))) {
      ++pos;
    }
    const std::string keyword = conninfo.substr(start, pos - start);
    while (pos < conninfo.size() && (conninfo[pos] == '=' ||
                                     std::isspace(static_cast<unsigned char>(conninfo[pos])))) {
      ++pos;
    }
    if (pos < conninfo.size() && conninfo[pos] == '\'') {
      for (++pos; pos < conninfo.size() && conninfo[pos] != '\''; ++pos) {
        if (conninfo[pos] == '\\') ++pos;
      }
      ++pos;
    } else {
      while (pos < conninfo.size() && !std::isspace(static_cast<unsigned char>(conninfo[pos]))) {
        if (conninfo[pos] == '\\') ++pos;
        ++pos;
      }
    }
    if (keyword == "password") continue;
    if (!out.empty()) out.push_back(' ');
    out += conninfo.substr(start, std::min(pos, conninfo.size()) - start);
  }
  return out;
}

}  // namespace

Result<std::string> RedactConninfo(const std::string& conninfo) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (options == nullptr) {
    std::string reason = error != nullptr ? error : "out of memory";
    PQfreemem(error);
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
    return Status::InvalidArgument("PostgreSQL connection string is not understood: ", reason);
  }
  PQconninfoFree(options);
  const bool uri = conninfo.rfind("postgresql://", 0) == 0 || conninfo.rfind("postgres://", 0) == 0;
  return uri ? RedactUri(conninfo) : RedactKeywords(conninfo);
}

std::string PostgresTypeToDuckDb(std::string_view type) {
  if (type == "bigint") return "BIGINT";
  if (type == "integer") return "INTEGER";
  if (type == "smallint") return "SMALLINT";
  if (type == "boolean") return "BOOLEAN";
  if (type == "character varying" || type == "text") return "VARCHAR";
  if (type == "uuid") return "UUID";
  if (type == "timestamp with time zone") return "TIMESTAMP WITH TIME ZONE";
  if (type == "timestamp without time zone") return "TIMESTAMP";
  if (type == "date") return "DATE";
  if (type == "bytea") return "BLOB";
  if (type == "double precision") return "DOUBLE";
  if (type == "real") return "FLOAT";
  std::string upper(type);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

std::string PostgresInlinedColumnType(const DataType& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kUInt8:
      return "smallint";
    case TypeId::kInt32:
    case TypeId::kUInt16:
      return "integer";
    case TypeId::kInt64:
    case TypeId::kUInt32:
      return "bigint";
    case TypeId::kFloat32:
      return "real";
    case TypeId::kFloat64:
      return "double precision";
    case TypeId::kVarchar:
    case TypeId::kJson:
    case TypeId::kBlob:
      return "bytea";
    case TypeId::kUuid:
      return "uuid";
    default:
      return "character varying";
  }
}

}  // namespace tarn::catalog_internal
