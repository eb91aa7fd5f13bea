#include "expr/functions/case_mapping.h"

#include <utf8proc.h>

namespace tarn::expr {
namespace {

template <typename MapCodePoint>
void AppendMapped(std::string_view text, MapCodePoint map, std::string* out_text) {
  std::string& out = *out_text;
  size_t at = 0;
  while (at < text.size()) {
    const unsigned char byte = static_cast<unsigned char>(text[at]);
    if (byte < 0x80) {
      out.push_back(static_cast<char>(map(byte)));
      ++at;
      continue;
    }
    utf8proc_int32_t code_point = 0;
    const utf8proc_ssize_t length =
        utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + at),
                         static_cast<utf8proc_ssize_t>(text.size() - at), &code_point);
    if (length <= 0) {  // not UTF-8: keep the byte
      out.push_back(static_cast<char>(byte));
      ++at;
      continue;
    }
    utf8proc_uint8_t encoded[4];
    const utf8proc_ssize_t written = utf8proc_encode_char(map(code_point), encoded);
    out.append(reinterpret_cast<const char*>(encoded), static_cast<size_t>(written));
    at += static_cast<size_t>(length);
  }
}

utf8proc_int32_t ToLower(utf8proc_int32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
  return utf8proc_tolower(c);
}

utf8proc_int32_t ToUpper(utf8proc_int32_t c) {
  if (c < 0x80) return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
  return utf8proc_toupper(c);
}

}  // namespace

std::string LowerUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  AppendMapped(text, ToLower, &out);
  return out;
}

std::string UpperUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  AppendMapped(text, ToUpper, &out);
  return out;
}

void AppendLowerUtf8(std::string_view text, std::string* out) { AppendMapped(text, ToLower, out); }
void AppendUpperUtf8(std::string_view text, std::string* out) { AppendMapped(text, ToUpper, out); }

}  // namespace tarn::expr
