// Arrow schema import, and the physical details of an Arrow array that a tarn DataType does
// not record (how wide its offsets are), needed to read the array's buffers.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "tarn/arrow_abi.h"
#include "tarn/type.h"

namespace tarn::internal {

// Mirrors the DataType tree: one node per type, children in the same order.
struct ImportLayout {
  int offset_width = 0;  // var-length and list types: 4 or 8 bytes per offset
  std::vector<ImportLayout> children;
};

// The layout tarn itself exports: 8-byte string offsets, 4-byte list offsets.
ImportLayout DefaultImportLayout(const DataType& type);

// Converts an Arrow schema (a "+s" struct) into a tarn Schema plus one layout per field.
// Does not release `schema`.
Result<Schema> ImportSchemaWithLayout(const ArrowSchema* schema, std::vector<ImportLayout>* layouts);

}  // namespace tarn::internal
