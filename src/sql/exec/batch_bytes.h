// The bytes a batch's buffers hold: what operators count against memory_limit.
//
// Thread-safety: a pure function.
#pragma once

#include <cstdint>

#include "tarn/columnar.h"

namespace tarn::sql {

int64_t BatchBytes(const Batch& batch);

}  // namespace tarn::sql
