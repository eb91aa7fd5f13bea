#include "expr/functions/json_document.h"

#include <rapidjson/error/error.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "format/json_text.h"
#include "format/scalar_text.h"

namespace tarn::expr {

// Builds the node array from RapidJSON's SAX events.
class JsonSaxHandler {
 public:
  // `overrides`: the text of the numbers RapidJSON cannot read (beyond a double's range),
  // by their ordinal among the document's numbers; the parsed text holds a 0 in their place.
  JsonSaxHandler(JsonDocument* doc, const std::vector<std::pair<uint32_t, std::string>>* overrides)
      : doc_(doc), overrides_(overrides) {}
  uint32_t numbers() const { return numbers_; }

  bool Null() { return Leaf(JsonKind::kNull, {}); }
  bool Bool(bool b) { return Leaf(b ? JsonKind::kTrue : JsonKind::kFalse, {}); }
  // Numbers arrive as text (kParseNumbersAsStringsFlag); these are never called.
  bool Int(int) { return false; }
  bool Uint(unsigned) { return false; }
  bool Int64(int64_t) { return false; }
  bool Uint64(uint64_t) { return false; }
  bool Double(double) { return false; }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool) {
    const uint32_t ordinal = numbers_++;
    for (const auto& [at, literal] : *overrides_) {
      if (at == ordinal) return Leaf(JsonKind::kNumber, literal);
    }
    return Leaf(JsonKind::kNumber, std::string_view(str, length));
  }
  bool String(const char* str, rapidjson::SizeType length, bool) {
    return Leaf(JsonKind::kString, std::string_view(str, length));
  }
  bool Key(const char* str, rapidjson::SizeType length, bool) {
    return Leaf(JsonKind::kString, std::string_view(str, length));
  }
  bool StartObject() { return Open(JsonKind::kObject); }
  bool EndObject(rapidjson::SizeType members) { return Close(members); }
  bool StartArray() { return Open(JsonKind::kArray); }
  bool EndArray(rapidjson::SizeType elements) { return Close(elements); }

 private:
  bool Leaf(JsonKind kind, std::string_view text) {
    JsonNode node;
    node.kind = kind;
    node.text_offset = static_cast<uint32_t>(doc_->text_.size());
    node.text_length = static_cast<uint32_t>(text.size());
    doc_->text_.append(text);
    node.end = static_cast<uint32_t>(doc_->nodes_.size() + 1);
    doc_->nodes_.push_back(node);
    return true;
  }
  bool Open(JsonKind kind) {
    open_.push_back(static_cast<uint32_t>(doc_->nodes_.size()));
    JsonNode node;
    node.kind = kind;
    doc_->nodes_.push_back(node);
    return true;
  }
  bool Close(rapidjson::SizeType count) {
    JsonNode& node = doc_->nodes_[open_.back()];
    open_.pop_back();
    node.count = count;
    node.end = static_cast<uint32_t>(doc_->nodes_.size());
    return true;
  }

  JsonDocument* doc_;
  const std::vector<std::pair<uint32_t, std::string>>* overrides_;
  uint32_t numbers_ = 0;
  std::vector<uint32_t> open_;
};

namespace {

constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag |
                                 rapidjson::kParseNumbersAsStringsFlag |
                                 rapidjson::kParseTrailingCommasFlag |
                                 rapidjson::kParseNanAndInfFlag | rapidjson::kParseValidateEncodingFlag;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// yyjson's wording of RapidJSON's error codes, as DuckDB reports them.
const char* ErrorText(rapidjson::ParseErrorCode code, bool at_end) {
  switch (code) {
    case rapidjson::kParseErrorDocumentRootNotSingular: return "unexpected content after document";
    case rapidjson::kParseErrorStringUnicodeSurrogateInvalid: return "no low surrogate in string";
    case rapidjson::kParseErrorStringEscapeInvalid: return "invalid escaped character in string";
    case rapidjson::kParseErrorStringInvalidEncoding: return "invalid utf-8 encoding in string";
    case rapidjson::kParseErrorStringUnicodeEscapeInvalidHex:
      return "invalid escaped sequence in string";
    default: return at_end ? "unexpected end of data" : "unexpected character";
  }
}

}  // namespace

Status JsonDocument::Parse(std::string_view text) {
  auto malformed = [&](size_t offset, const char* what) {
    return Status::InvalidArgument("Malformed JSON at byte ", offset, " of input: ", what,
                                   ".  Input: \"", text, "\"");
  };
  if (text.empty()) return malformed(0, "input length is 0");
  size_t first = 0;
  while (first < text.size() && IsSpace(text[first])) ++first;
  if (first == text.size()) return malformed(0, "input data is empty");
  // yyjson (DuckDB) keeps numbers beyond a double's range as written; RapidJSON refuses them,
  // so each is parsed as a 0 padded with spaces and its text restored by the handler.
  std::vector<std::pair<uint32_t, std::string>> overrides;
  std::string patched;
  std::string_view input = text;
  while (true) {
    nodes_.clear();
    text_.clear();
    rapidjson::MemoryStream stream(input.data(), input.size());
    JsonSaxHandler handler(this, &overrides);
    // One reader per thread: its stack (numbers and strings on their way to the handler) is
    // allocated once, not per document.
    thread_local rapidjson::Reader reader;
    const rapidjson::ParseResult result = reader.Parse<kParseFlags>(stream, handler);
    if (!result.IsError()) return Status::OK();
    const size_t offset = result.Offset();
    if (result.Code() != rapidjson::kParseErrorNumberTooBig || overrides.size() >= 10000) {
      return malformed(offset, ErrorText(result.Code(), offset >= text.size()));
    }
    size_t end = offset;
    while (end < text.size() && std::string_view("+-.eE0123456789").find(text[end]) !=
                                    std::string_view::npos) {
      ++end;
    }
    if (end == offset) return malformed(offset, "unexpected character");
    if (patched.empty()) patched = std::string(text);
    overrides.emplace_back(handler.numbers(), std::string(text.substr(offset, end - offset)));
    patched[offset] = '0';
    for (size_t i = offset + 1; i < end; ++i) patched[i] = ' ';
    input = patched;
  }
}

void AppendJsonNumber(std::string_view literal, std::string* out) {
  const char* first = literal.data();
  const char* last = literal.data() + literal.size();
  bool integral = true;
  for (char c : literal) {
    if (c == '.' || c == 'e' || c == 'E' || c == 'N' || c == 'I') integral = false;
  }
  auto fits = [last](std::from_chars_result result) {
    return result.ec == std::errc() && result.ptr == last;
  };
  if (integral) {
    int64_t signed_value;
    uint64_t unsigned_value;
    if (fits(std::from_chars(first, last, signed_value))) {
      format::AppendInt64(signed_value, out);
    } else if (fits(std::from_chars(first, last, unsigned_value))) {
      format::AppendUInt64(unsigned_value, out);
    } else {
      out->append(literal);  // wider than 64 bits: kept as written
    }
    return;
  }
  const std::string copy(literal);
  if (copy.find_first_of("NI") != std::string::npos) {  // NaN, Infinity, -Infinity
    out->append(literal);
    return;
  }
  const double value = std::strtod(copy.c_str(), nullptr);
  if (std::isinf(value)) {
    out->append(literal);
  } else {
    format::AppendJsonDouble(value, out);
  }
}

void JsonDocument::Serialize(uint32_t index, std::string* out) const {
  const JsonNode& node = nodes_[index];
  switch (node.kind) {
    case JsonKind::kNull: out->append("null"); return;
    case JsonKind::kTrue: out->append("true"); return;
    case JsonKind::kFalse: out->append("false"); return;
    case JsonKind::kNumber: AppendJsonNumber(Text(node), out); return;
    case JsonKind::kString: format::AppendJsonString(Text(node), out); return;
    case JsonKind::kArray: {
      out->push_back('[');
      for (uint32_t child = FirstChild(index); child < node.end; child = Next(child)) {
        if (child != FirstChild(index)) out->push_back(',');
        Serialize(child, out);
      }
      out->push_back(']');
      return;
    }
    case JsonKind::kObject: {
      out->push_back('{');
      for (uint32_t key = FirstChild(index); key < node.end; key = Next(key + 1)) {
        if (key != FirstChild(index)) out->push_back(',');
        format::AppendJsonString(Text(nodes_[key]), out);
        out->push_back(':');
        Serialize(key + 1, out);
      }
      out->push_back('}');
      return;
    }
  }
}

void JsonDocument::SerializePretty(uint32_t index, int depth, std::string* out) const {
  const JsonNode& node = nodes_[index];
  if ((node.kind != JsonKind::kArray && node.kind != JsonKind::kObject) || node.count == 0) {
    Serialize(index, out);
    return;
  }
  const bool object = node.kind == JsonKind::kObject;
  out->push_back(object ? '{' : '[');
  for (uint32_t child = FirstChild(index); child < node.end;
       child = object ? Next(child + 1) : Next(child)) {
    if (child != FirstChild(index)) out->push_back(',');
    out->push_back('\n');
    out->append(static_cast<size_t>(depth + 1) * 4, ' ');
    if (object) {
      format::AppendJsonString(Text(nodes_[child]), out);
      out->append(": ");
      SerializePretty(child + 1, depth + 1, out);
    } else {
      SerializePretty(child, depth + 1, out);
    }
  }
  out->push_back('\n');
  out->append(static_cast<size_t>(depth) * 4, ' ');
  out->push_back(object ? '}' : ']');
}

const char* JsonDocument::TypeName(uint32_t index) const {
  const JsonNode& node = nodes_[index];
  switch (node.kind) {
    case JsonKind::kNull: return "NULL";
    case JsonKind::kTrue: case JsonKind::kFalse: return "BOOLEAN";
    case JsonKind::kString: return "VARCHAR";
    case JsonKind::kArray: return "ARRAY";
    case JsonKind::kObject: return "OBJECT";
    case JsonKind::kNumber: {
      const std::string_view literal = Text(node);
      const char* first = literal.data();
      const char* last = first + literal.size();
      int64_t signed_value;
      uint64_t unsigned_value;
      auto r = std::from_chars(first, last, unsigned_value);
      if (r.ec == std::errc() && r.ptr == last) return "UBIGINT";
      r = std::from_chars(first, last, signed_value);
      if (r.ec == std::errc() && r.ptr == last) return "BIGINT";
      return "DOUBLE";
    }
  }
  return "NULL";
}

bool JsonPath::HasWildcard() const {
  for (const JsonPathStep& step : steps) {
    if (step.kind == JsonPathStep::Kind::kAnyMember ||
        step.kind == JsonPathStep::Kind::kAnyElement ||
        step.kind == JsonPathStep::Kind::kDescendant) {
      return true;
    }
  }
  return false;
}

JsonPath JsonIndexPath(int64_t index) {
  JsonPath path;
  JsonPathStep step;
  step.kind = JsonPathStep::Kind::kIndex;
  step.index = index;
  path.steps.push_back(std::move(step));
  return path;
}

Result<JsonPath> ParseJsonPath(std::string_view text) {
  JsonPath path;
  if (text.empty()) return path;
  if (text[0] == '/') {  // a JSON pointer
    size_t at = 1;
    while (true) {
      const size_t slash = text.find('/', at);
      const std::string_view token =
          text.substr(at, slash == std::string_view::npos ? std::string_view::npos : slash - at);
      JsonPathStep step;
      step.kind = JsonPathStep::Kind::kPointer;
      for (size_t i = 0; i < token.size(); ++i) {
        if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
          step.key.push_back(token[i + 1] == '0' ? '~' : '/');
          ++i;
        } else {
          step.key.push_back(token[i]);
        }
      }
      step.index = -1;
      if (!token.empty() && token.size() < 19 &&
          token.find_first_not_of("0123456789") == std::string_view::npos &&
          (token.size() == 1 || token[0] != '0')) {
        std::from_chars(token.data(), token.data() + token.size(), step.index);
      }
      path.steps.push_back(std::move(step));
      if (slash == std::string_view::npos) break;
      at = slash + 1;
    }
    return path;
  }
  if (text[0] != '$') {  // a bare key
    JsonPathStep step;
    step.key = std::string(text);
    path.steps.push_back(std::move(step));
    return path;
  }
  size_t at = 1;
  while (at < text.size()) {
    const size_t start = at;
    auto error = [&]() {
      return Status::InvalidArgument("JSON path error near '", text.substr(start), "'");
    };
    JsonPathStep step;
    if (text[at] == '.') {
      ++at;
      if (at < text.size() && text[at] == '"') {
        const size_t close = text.find('"', at + 1);
        if (close == std::string_view::npos) return error();
        step.key = std::string(text.substr(at + 1, close - at - 1));
        at = close + 1;
      } else if (at < text.size() && text[at] == '*') {
        step.kind = JsonPathStep::Kind::kAnyMember;
        ++at;
      } else if (at < text.size() && text[at] == '.') {
        ++at;
        size_t end = at;
        while (end < text.size() && text[end] != '.' && text[end] != '[') ++end;
        if (end == at) return error();
        step.kind = JsonPathStep::Kind::kDescendant;
        step.key = std::string(text.substr(at, end - at));
        at = end;
      } else {
        size_t end = at;
        while (end < text.size() && text[end] != '.' && text[end] != '[') ++end;
        if (end == at) return error();
        step.key = std::string(text.substr(at, end - at));
        at = end;
      }
    } else if (text[at] == '[') {
      ++at;
      const size_t close = text.find(']', at);
      if (close == std::string_view::npos) return error();
      std::string_view inside = text.substr(at, close - at);
      at = close + 1;
      if (inside == "*") {
        step.kind = JsonPathStep::Kind::kAnyElement;
      } else {
        step.kind = JsonPathStep::Kind::kIndex;
        bool negative = false;
        if (!inside.empty() && inside[0] == '#') {
          step.kind = JsonPathStep::Kind::kFromEnd;
          inside.remove_prefix(1);
          if (inside.empty()) {
            step.index = 0;
            path.steps.push_back(std::move(step));
            continue;
          }
          if (inside[0] != '-') return error();
          negative = true;
          inside.remove_prefix(1);
        } else if (!inside.empty() && inside[0] == '-') {
          negative = true;
          inside.remove_prefix(1);
        }
        if (inside.empty() || inside.find_first_not_of("0123456789") != std::string_view::npos) {
          return error();
        }
        uint64_t magnitude = 0;
        auto r = std::from_chars(inside.data(), inside.data() + inside.size(), magnitude);
        if (r.ec != std::errc() || magnitude > static_cast<uint64_t>(INT64_MAX)) return error();
        step.index = negative && step.kind == JsonPathStep::Kind::kIndex
                         ? -static_cast<int64_t>(magnitude)
                         : static_cast<int64_t>(magnitude);
      }
    } else {
      return error();
    }
    path.steps.push_back(std::move(step));
  }
  return path;
}

namespace {

// The node one non-wildcard step leads to from `at`, or nullopt.
std::optional<uint32_t> Step(const JsonDocument& doc, uint32_t at, const JsonPathStep& step) {
  const JsonNode& node = doc.node(at);
  const bool pointer = step.kind == JsonPathStep::Kind::kPointer;
  if (node.kind == JsonKind::kObject && (step.kind == JsonPathStep::Kind::kKey || pointer)) {
    for (uint32_t key = JsonDocument::FirstChild(at); key < node.end; key = doc.Next(key + 1)) {
      if (doc.Text(doc.node(key)) == step.key) return key + 1;
    }
    return std::nullopt;
  }
  if (node.kind != JsonKind::kArray) return std::nullopt;
  const auto count = static_cast<int64_t>(node.count);
  int64_t index;
  if (step.kind == JsonPathStep::Kind::kIndex) {
    index = step.index < 0 ? count + step.index : step.index;
  } else if (step.kind == JsonPathStep::Kind::kFromEnd) {
    index = count - step.index;
  } else if (pointer && step.index >= 0) {
    index = step.index;
  } else {
    return std::nullopt;
  }
  if (index < 0 || index >= count) return std::nullopt;
  uint32_t element = JsonDocument::FirstChild(at);
  for (int64_t skip = 0; skip < index; ++skip) element = doc.Next(element);
  return element;
}

void Collect(const JsonDocument& doc, uint32_t at, const JsonPath& path, size_t step_index,
             std::vector<uint32_t>* out) {
  if (step_index == path.steps.size()) {
    out->push_back(at);
    return;
  }
  const JsonPathStep& step = path.steps[step_index];
  const JsonNode& node = doc.node(at);
  switch (step.kind) {
    case JsonPathStep::Kind::kAnyMember:
      if (node.kind != JsonKind::kObject) return;
      for (uint32_t key = JsonDocument::FirstChild(at); key < node.end; key = doc.Next(key + 1)) {
        Collect(doc, key + 1, path, step_index + 1, out);
      }
      return;
    case JsonPathStep::Kind::kAnyElement:
      if (node.kind != JsonKind::kArray) return;
      for (uint32_t element = JsonDocument::FirstChild(at); element < node.end;
           element = doc.Next(element)) {
        Collect(doc, element, path, step_index + 1, out);
      }
      return;
    case JsonPathStep::Kind::kDescendant:
      // The member named step.key (the first of repeated keys) at any depth: an object's own
      // match first, then the matches inside each of its members.
      if (node.kind == JsonKind::kObject) {
        JsonPathStep own = step;
        own.kind = JsonPathStep::Kind::kKey;
        if (std::optional<uint32_t> match = Step(doc, at, own)) {
          Collect(doc, *match, path, step_index + 1, out);
        }
        for (uint32_t key = JsonDocument::FirstChild(at); key < node.end; key = doc.Next(key + 1)) {
          Collect(doc, key + 1, path, step_index, out);
        }
      } else if (node.kind == JsonKind::kArray) {
        for (uint32_t element = JsonDocument::FirstChild(at); element < node.end;
             element = doc.Next(element)) {
          Collect(doc, element, path, step_index, out);
        }
      }
      return;
    default: {
      std::optional<uint32_t> next = Step(doc, at, step);
      if (next) Collect(doc, *next, path, step_index + 1, out);
      return;
    }
  }
}

}  // namespace

std::optional<uint32_t> LookupJsonPath(const JsonDocument& doc, const JsonPath& path) {
  uint32_t at = JsonDocument::kRoot;
  for (const JsonPathStep& step : path.steps) {
    std::optional<uint32_t> next = Step(doc, at, step);
    if (!next) return std::nullopt;
    at = *next;
  }
  return at;
}

void CollectJsonPath(const JsonDocument& doc, const JsonPath& path, std::vector<uint32_t>* out) {
  Collect(doc, JsonDocument::kRoot, path, 0, out);
}

}  // namespace tarn::expr
