#include "sql/exec/batch_bytes.h"

namespace tarn::sql {

int64_t BatchBytes(const Batch& batch) {
  int64_t bytes = 0;
  for (const auto& column : batch.columns) {
    if (column->values) bytes += column->values->size();
    if (column->data) bytes += column->data->size();
    if (column->validity) bytes += column->validity->size();
  }
  return bytes;
}

}  // namespace tarn::sql
