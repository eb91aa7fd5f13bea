// VARIANT values: a self-describing value (a typed scalar, an object of named fields, or an
// array), as DuckDB 1.5 holds it and as Parquet's VARIANT logical type stores it.
//
// Bytes. A value of a kVariant column is one byte string: a 4-byte little-endian length of
// the metadata, the metadata, then the value, both in the Parquet Variant binary encoding
// (metadata: version byte, dictionary of field names; value: header byte whose low two bits
// are the basic type — primitive, short string, object, array). In memory two things differ
// from what a Parquet file holds, so that every DuckDB type survives until it is written:
// object fields stay in the order they were given (DuckDB prints {'b': 1, 'a': 2} so), and
// DuckDB types without a Parquet primitive use private primitive ids (kExt* below). ToParquet
// maps those to Parquet primitives (or fails as DuckDB does) and sorts fields; FromParquet
// reads a file's metadata and value columns back.
//
// SQL NULL is the column's NULL. A variant null (primitive id 0) may appear inside objects and
// arrays; at the top level casts and extraction turn it into SQL NULL, as DuckDB does.
//
// Every decoder checks bounds: corrupt bytes give Corruption naming the offset, never a read
// past the input.
//
// Thread-safety: pure functions; a VariantNode is a plain value.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::variant {

// A decoded variant. kPrimitive holds `scalar`, a tarn Value of the matching DataType (a NULL
// Value of kNull is the variant null); kObject holds `names` and `children` pairwise; kArray
// holds `children`.
struct VariantNode {
  enum class Kind : uint8_t { kPrimitive, kObject, kArray };
  Kind kind = Kind::kPrimitive;
  Value scalar;
  std::vector<std::string> names;
  std::vector<VariantNode> children;

  static VariantNode Primitive(Value value);
  static VariantNode Null() { return Primitive(Value()); }
  bool IsNull() const { return kind == Kind::kPrimitive && scalar.is_null(); }
};

// Which rules bytes follow: tarn's in-memory form or a Parquet file's.
enum class Flavor : uint8_t { kMemory, kParquet };

// The node as bytes of the in-memory form. InvalidArgument for a scalar type a variant cannot
// hold (nested types go through FromValue).
Result<std::string> Encode(const VariantNode& node);
// Parses the in-memory form. Corruption when the bytes do not hold one complete variant.
Result<VariantNode> Decode(std::string_view bytes);

// The Parquet pair (metadata, value) of an in-memory variant: fields sorted by name, DuckDB's
// wider types mapped as DuckDB 1.5's writer maps them (UTINYINT → INT16, UINTEGER → INT64,
// HUGEINT → INT64 or DECIMAL), InvalidArgument for those it refuses ("Can't convert VARIANT of
// type 'TIMESTAMP_SEC' to Parquet VARIANT").
Status ToParquet(const VariantNode& node, std::string* metadata, std::string* value);
// Reads a Parquet (metadata, value) pair; Corruption naming the offset for bad bytes.
Result<VariantNode> FromParquet(std::string_view metadata, std::string_view value);

// Any value as a variant (CAST(x AS VARIANT)): structs become objects, lists and maps arrays
// (a map's entries as {'key': k, 'value': v}), JSON text is parsed. NULL inside nested values is
// the variant null. InvalidArgument with DuckDB's message for unnamed structs.
Result<VariantNode> FromValue(const Value& value);

// JSON text as a variant, as DuckDB's JSON → VARIANT cast reads it: non-negative integers
// UINT64, negative ones INT64, other numbers DOUBLE, a repeated key keeping its last value.
// InvalidArgument naming the byte for malformed text.
Result<VariantNode> ParseJson(std::string_view text);

// variant_typeof: "INT32", "VARCHAR", "DECIMAL(4, 1)", "OBJECT(a, b)", "ARRAY(5)",
// "VARIANT_NULL", "BOOL_TRUE".
std::string TypeName(const VariantNode& node);
// The name without the shape: "OBJECT", "ARRAY", else TypeName (for messages).
std::string KindName(const VariantNode& node);

// v.name / v['name']: the field's value, the variant null when `node` is no object or lacks it.
VariantNode ExtractField(const VariantNode& node, std::string_view name);
// v[i] on an array (1-based); the variant null out of range or on a non-array.
// InvalidArgument for index 0 and negative indexes, with DuckDB's messages.
Result<VariantNode> ExtractIndex(const VariantNode& node, int64_t index);

}  // namespace tarn::variant
