#include "support/sql_test_util.h"

#include "tarn/format.h"

namespace tarn::testing {

Result<std::string> TarnCsv(Session* session, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session->Execute(sql));
  std::string out;
  StringSink sink(&out);
  TARN_RETURN_NOT_OK(WriteCsv(result.reader.get(), &sink));
  return out;
}

std::string SqlString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return out + "'";
}

std::string ReplaceAll(std::string text, const std::string& key, const std::string& value) {
  size_t at = 0;
  while ((at = text.find(key, at)) != std::string::npos) {
    text.replace(at, key.size(), value);
    at += value.size();
  }
  return text;
}

}  // namespace tarn::testing
