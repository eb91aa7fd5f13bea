// WriterSchema: how the Parquet writer lays a tarn Schema out in a file. It holds the flattened
// SchemaElements (as DuckDB's Parquet writer writes them: physical types, logical and
// converted annotations, field ids, 3-level LIST and MAP groups) and, per leaf column, what the
// writer needs to shred nested data into levels and to encode and order its values.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parquet/metadata.h"
#include "tarn/columnar.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn::parquet {

// One step on the way from a top-level column down to a leaf, in Arrow layout terms.
struct ShredStep {
  enum class Kind : uint8_t {
    kStruct,    // descend into children[child_index]; same row
    kRepeated,  // list or map: each row expands into children[0] rows [offsets[r], offsets[r+1])
    kLeaf,      // the values themselves
  };
  Kind kind = Kind::kLeaf;
  bool nullable = true;   // this node adds one definition level when present
  int child_index = 0;    // kStruct only
  int16_t rep_level = 0;  // kRepeated only: the repetition level of its elements
};

// How a leaf's values compare in Parquet's statistics order.
enum class SortOrder : uint8_t {
  kSigned,         // ints, floats, dates, times, timestamps, booleans
  kUnsigned,       // unsigned ints (INT32/INT64 compared as unsigned)
  kBytes,          // byte-wise unsigned (strings, blobs, uuids)
  kSignedDecimal,  // FIXED_LEN_BYTE_ARRAY big-endian two's complement
  kNone,           // no statistics min/max (interval, int128, variant, geometry)
};

struct WriterLeaf {
  std::vector<std::string> path;  // path_in_schema
  int top_level_column = 0;
  int32_t field_id = -1;          // -1 when the field has none
  DataType type;                  // the tarn type of the values
  PhysicalType physical = PhysicalType::kInt32;
  int32_t type_length = 0;        // FIXED_LEN_BYTE_ARRAY only
  int16_t max_def = 0;
  int16_t max_rep = 0;
  SortOrder sort_order = SortOrder::kSigned;
  std::vector<ShredStep> steps;   // from the top-level column; the last is kLeaf
};

struct WriterSchema {
  std::vector<SchemaElement> elements;  // depth-first, root first
  std::vector<WriterLeaf> leaves;       // in schema order
};

// The struct a VARIANT column is written as: metadata and value, both required BLOBs.
DataType VariantParquetStructType();
// `column` with every VARIANT (at any depth) replaced by that struct of Parquet's variant
// metadata and value bytes (VARIANT → struct in the type too); a NULL row stays NULL. The
// in-memory encoding is checked on the way: bad bytes are Corruption naming the row.
Result<std::shared_ptr<Column>> VariantColumnToParquet(const Column& column);
bool HoldsVariant(const DataType& type);

// Lays out `schema`; fails (InvalidArgument / NotSupported) on types that cannot be written.
Result<WriterSchema> BuildWriterSchema(const Schema& schema);

}  // namespace tarn::parquet
