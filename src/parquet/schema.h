// FileSchema: a Parquet file's flattened schema (the footer's SchemaElement list) resolved into
// tarn's logical Schema, one LeafDescriptor per column chunk, and a tree of SchemaNodes that
// says how each leaf's definition and repetition levels map onto the nested Arrow layout.
//
// Level model. Every leaf column stores, per entry, a definition level `def` and a repetition
// level `rep`. For a node of the output tree:
//   - an entry is a *slot* of the node (one value of that node in its parent's layout) when
//     def >= slot_def_level and rep <= slot_rep_level; other entries continue a deeper list or
//     stand for an empty/NULL enclosing list;
//   - the slot is non-NULL when def >= def_level;
//   - for a list node, entries with def >= element_def_level are elements, and an entry with
//     rep == element_rep_level continues the current list.
// Any leaf under a node sees the same slots, so struct validity and list offsets are derived
// from the node's first leaf.
//
// Types follow DuckDB's reading of the same file (logical types first, then legacy converted
// types, then the physical type); see LeafType in schema.cc.
//
// Thread-safety: immutable after Make.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parquet/encoding.h"
#include "parquet/metadata.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn::parquet {

struct LeafDescriptor {
  std::vector<std::string> path;  // names from the root's child down to the leaf
  int column_index = 0;           // index of the column chunk in each row group
  PhysicalType physical_type = PhysicalType::kInt32;
  int32_t type_length = 0;        // FIXED_LEN_BYTE_ARRAY only
  int16_t max_def_level = 0;
  int16_t max_rep_level = 0;
  bool nullable = true;           // the leaf itself is OPTIONAL (may hold NULLs)
  DataType type;                  // the in-memory type of the leaf's values
  ValueKind kind = ValueKind::kCopy;
  int64_t factor = 1;             // kInt32ToInt64, kInt64Multiply, kInt64Divide
  int output_width = 0;           // bytes per in-memory value (0: boolean or var-length)
  int physical_width = 0;         // bytes per PLAIN value (0: boolean or BYTE_ARRAY)
  LogicalType logical_type;       // as in the file (kind kNone when absent)

  std::string PathString() const;  // "a.b.c"
  ValueLayout layout() const {
    return ValueLayout{kind, physical_width, output_width, factor,
                       type.id == TypeId::kVarchar || type.id == TypeId::kJson};
  }
};

struct SchemaNode {
  enum class Kind : uint8_t { kLeaf, kStruct, kList };  // maps are lists of key/value structs
  Kind kind = Kind::kLeaf;
  Field field;                 // name, type, nullability and field id of this node
  int16_t def_level = 0;       // non-NULL when def >= def_level
  int16_t slot_def_level = 0;  // entries with def >= this ...
  int16_t slot_rep_level = 0;  // ... and rep <= this are slots of the node
  int16_t element_def_level = 0;  // kList: entries with def >= this are elements
  int16_t element_rep_level = 0;  // kList: rep == this continues the current list
  int leaf = -1;               // kLeaf: index into FileSchema::leaves()
  int first_leaf = 0;          // leaves of the subtree: [first_leaf, first_leaf + num_leaves)
  int num_leaves = 0;
  std::vector<SchemaNode> children;  // kStruct: fields; kList: one element
  // kStruct annotated VARIANT: children are metadata, value and perhaps typed_value (the file's
  // shredding); the node's field type is kVariant and the assembler joins the children.
  bool variant = false;
};

class FileSchema {
 public:
  // Nesting deeper than this is refused as hostile.
  static constexpr int kMaxDepth = 64;

  // Resolves the footer's schema. Errors (Corruption or NotSupported) describe the element.
  static Result<FileSchema> Make(const std::vector<SchemaElement>& elements);

  const Schema& schema() const { return schema_; }
  const std::vector<SchemaNode>& columns() const { return columns_; }  // one per top field
  const std::vector<LeafDescriptor>& leaves() const { return leaves_; }

 private:
  Schema schema_;
  std::vector<SchemaNode> columns_;
  std::vector<LeafDescriptor> leaves_;
};

// The in-memory type and conversion of a primitive element (exposed for tests).
Status ResolveLeafType(const SchemaElement& element, LeafDescriptor* leaf);

}  // namespace tarn::parquet
