// JSON spelling helpers shared by the JSON writer: string escaping as DuckDB's JSON writer
// does it, and re-serializing JSON text without insignificant whitespace.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace tarn::format {

// Appends `text` as a JSON string: '"' and '\\' escaped, \b \f \n \r \t by name, other bytes
// below 0x20 as \u00XX (upper-case hex); every other byte, UTF-8 included, as is.
void AppendJsonString(std::string_view text, std::string* out);

// Appends the JSON value in `text` re-serialized: no whitespace between tokens, strings
// unescaped and escaped again by AppendJsonString, integers that fit 64 bits as their value,
// wider integers as written, other numbers through a double (AppendJsonDouble); a trailing
// comma in an object or array is dropped, as DuckDB's reader accepts it. Text that is not
// valid JSON is appended unchanged.
void AppendMinifiedJson(std::string_view text, std::string* out);

}  // namespace tarn::format
