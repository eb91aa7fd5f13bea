#include "format/json_text.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "format/scalar_text.h"

namespace tarn::format {
namespace {

constexpr char kHexUpper[] = "0123456789ABCDEF";
constexpr int kMaxDepth = 1000;

void AppendUtf8(uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

// A recursive-descent re-writer over untrusted text; every read is bounds-checked.
class Minifier {
 public:
  explicit Minifier(std::string_view text) : text_(text) {}

  bool Run(std::string* out) {
    SkipSpace();
    if (!Value(out, 0)) return false;
    SkipSpace();
    return pos_ == text_.size();
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool Value(std::string* out, int depth) {
    if (depth > kMaxDepth || pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{') return Object(out, depth);
    if (c == '[') return Array(out, depth);
    if (c == '"') {
      std::string decoded;
      if (!String(&decoded)) return false;
      AppendJsonString(decoded, out);
      return true;
    }
    for (std::string_view word : {"true", "false", "null"}) {
      if (Consume(word)) {
        out->append(word);
        return true;
      }
    }
    return Number(out);
  }

  bool Object(std::string* out, int depth) {
    ++pos_;
    out->push_back('{');
    SkipSpace();
    if (Consume("}")) {
      out->push_back('}');
      return true;
    }
    while (true) {
      SkipSpace();
      std::string key;
      if (pos_ >= text_.size() || text_[pos_] != '"' || !String(&key)) return false;
      AppendJsonString(key, out);
      SkipSpace();
      if (!Consume(":")) return false;
      out->push_back(':');
      SkipSpace();
      if (!Value(out, depth + 1)) return false;
      SkipSpace();
      if (Consume("}")) {
        out->push_back('}');
        return true;
      }
      if (!Consume(",")) return false;
      SkipSpace();
      if (Consume("}")) {  // a trailing comma, which DuckDB's reader accepts
        out->push_back('}');
        return true;
      }
      out->push_back(',');
    }
  }

  bool Array(std::string* out, int depth) {
    ++pos_;
    out->push_back('[');
    SkipSpace();
    if (Consume("]")) {
      out->push_back(']');
      return true;
    }
    while (true) {
      SkipSpace();
      if (!Value(out, depth + 1)) return false;
      SkipSpace();
      if (Consume("]")) {
        out->push_back(']');
        return true;
      }
      if (!Consume(",")) return false;
      SkipSpace();
      if (Consume("]")) {  // a trailing comma, which DuckDB's reader accepts
        out->push_back(']');
        return true;
      }
      out->push_back(',');
    }
  }

  bool Hex4(uint32_t* value) {
    if (text_.size() - pos_ < 4) return false;
    *value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      uint32_t digit;
      if (c >= '0' && c <= '9') {
        digit = static_cast<uint32_t>(c - '0');
      } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
        digit = static_cast<uint32_t>((c | 0x20) - 'a' + 10);
      } else {
        return false;
      }
      *value = *value * 16 + digit;
    }
    return true;
  }

  bool String(std::string* decoded) {
    ++pos_;  // the opening quote
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        decoded->push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) return false;
      const char escape = text_[pos_++];
      switch (escape) {
        case '"': decoded->push_back('"'); break;
        case '\\': decoded->push_back('\\'); break;
        case '/': decoded->push_back('/'); break;
        case 'b': decoded->push_back('\b'); break;
        case 'f': decoded->push_back('\f'); break;
        case 'n': decoded->push_back('\n'); break;
        case 'r': decoded->push_back('\r'); break;
        case 't': decoded->push_back('\t'); break;
        case 'u': {
          uint32_t code_point;
          if (!Hex4(&code_point)) return false;
          if (code_point >= 0xD800 && code_point < 0xDC00 && Consume("\\u")) {
            uint32_t low;
            if (!Hex4(&low) || low < 0xDC00 || low >= 0xE000) return false;
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(code_point, decoded);
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  bool Number(std::string* out) {
    const size_t start = pos_;
    bool integral = true;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (!digits()) return false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      integral = false;
      if (!digits()) return false;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      integral = false;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) return false;
    }
    std::string_view literal = text_.substr(start, pos_ - start);
    const char* first = literal.data();
    const char* last = literal.data() + literal.size();
    if (integral) {
      int64_t signed_value;
      uint64_t unsigned_value;
      auto fits = [last](std::from_chars_result result) {
        return result.ec == std::errc() && result.ptr == last;
      };
      if (fits(std::from_chars(first, last, signed_value))) {
        AppendInt64(signed_value, out);
      } else if (fits(std::from_chars(first, last, unsigned_value))) {
        AppendUInt64(unsigned_value, out);
      } else {
        out->append(literal);  // wider than 64 bits: kept as written
      }
      return true;
    }
    std::string copy(literal);
    errno = 0;
    const double value = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(value)) {
      out->append(literal);
    } else {
      AppendJsonDouble(value, out);
    }
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (char c : text) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out->append("\\u00");
          out->push_back(kHexUpper[static_cast<unsigned char>(c) >> 4]);
          out->push_back(kHexUpper[static_cast<unsigned char>(c) & 15]);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendMinifiedJson(std::string_view text, std::string* out) {
  std::string minified;
  if (Minifier(text).Run(&minified)) {
    out->append(minified);
  } else {
    out->append(text);
  }
}

}  // namespace tarn::format
