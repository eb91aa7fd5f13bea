// A parsed JSON text and the paths DuckDB's JSON functions take.
//
// JsonDocument parses with RapidJSON's SAX reader into a flat pre-order array of nodes (an
// object's members are a key node followed by the value's subtree), reading JSON as DuckDB's
// reader (yyjson) does: trailing commas and NaN / Infinity are accepted, numbers keep their
// text, strings are decoded. Serialize writes a node minified with DuckDB's spelling:
// integers that fit 64 bits as their value, wider integers and out-of-range doubles as
// written, other numbers through a double (format::AppendJsonDouble), strings escaped as
// DuckDB's JSON writer does. A document is reused across rows: Parse keeps its buffers.
//
// JsonPath: '$' JSONPath ('$.a.b', '$."a b"', '$.a[0]', '$[-1]', '$.a[#-1]'), a JSON pointer
// ('/a/0', '~1' for '/', '~0' for '~'), or a bare key ('a': the member named 'a'); an integer
// path is an array index (negative from the end). Wildcards ('$.*' any member, '$[*]' any
// element, '$..a' member 'a' at any depth) make a path answer every match (CollectJsonPath).
//
// Thread-safety: a document or path is used by one thread at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::expr {

enum class JsonKind : uint8_t { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };

struct JsonNode {
  JsonKind kind = JsonKind::kNull;
  uint32_t text_offset = 0;  // a string's decoded bytes or a number's text, in the document
  uint32_t text_length = 0;
  uint32_t end = 0;          // one past the last node of this node's subtree
  uint32_t count = 0;        // an array's elements, an object's members
};

class JsonDocument {
 public:
  // Parses `text`; on failure DuckDB's message ("Malformed JSON at byte 6 of input:
  // unexpected end of data.  Input: \"{\"a\":1\"") without the error class.
  Status Parse(std::string_view text);

  static constexpr uint32_t kRoot = 0;
  const JsonNode& node(uint32_t index) const { return nodes_[index]; }
  std::string_view Text(const JsonNode& node) const {
    return std::string_view(text_).substr(node.text_offset, node.text_length);
  }
  // The first child of a container (for an object: its first key) and the node after
  // `index`'s subtree.
  static uint32_t FirstChild(uint32_t index) { return index + 1; }
  uint32_t Next(uint32_t index) const { return nodes_[index].end; }

  // The minified text of `index`'s subtree appended to `out`.
  void Serialize(uint32_t index, std::string* out) const;
  // The same laid out as yyjson's pretty writer: one member or element a line, four spaces
  // an indent level, ": " after keys; empty containers stay "[]" and "{}".
  void SerializePretty(uint32_t index, int depth, std::string* out) const;
  // DuckDB's json_type name: NULL, BOOLEAN, UBIGINT, BIGINT, DOUBLE, VARCHAR, ARRAY, OBJECT.
  const char* TypeName(uint32_t index) const;

 private:
  friend class JsonSaxHandler;
  std::vector<JsonNode> nodes_;
  std::string text_;
};

struct JsonPathStep {
  enum class Kind : uint8_t { kKey, kIndex, kFromEnd, kPointer, kAnyMember, kAnyElement,
                              kDescendant };
  Kind kind = Kind::kKey;
  std::string key;     // kKey, kPointer, kDescendant
  int64_t index = 0;   // kIndex (negative from the end), kFromEnd (#-index); kPointer: -1 if
                       // the token is not an array index
};

struct JsonPath {
  std::vector<JsonPathStep> steps;
  bool HasWildcard() const;
};

// The path in `text`; on a syntax error DuckDB's "JSON path error near '...'" (no class).
Result<JsonPath> ParseJsonPath(std::string_view text);
JsonPath JsonIndexPath(int64_t index);

// The node `path` reaches from the root, or nullopt. REQUIRES: no wildcard.
std::optional<uint32_t> LookupJsonPath(const JsonDocument& doc, const JsonPath& path);
// Every node `path` (wildcards allowed) reaches from the root, in document order.
void CollectJsonPath(const JsonDocument& doc, const JsonPath& path, std::vector<uint32_t>* out);

// DuckDB's number spelling of a JSON number's text.
void AppendJsonNumber(std::string_view literal, std::string* out);

}  // namespace tarn::expr
