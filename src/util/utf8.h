// UTF-8 validation and ASCII checks, shared by the Parquet reader (VARCHAR values of untrusted files) and
// Column::Validate.
//
// Thread-safety: a pure function.
#pragma once

#include <cstdint>

namespace tarn {

// Whether bytes are well-formed UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF.
// ASCII runs are skipped eight bytes at a time.
bool IsValidUtf8(const uint8_t* bytes, int64_t size);

// Whether every byte is ASCII (below 0x80): one pass, no branch per byte. Valid UTF-8 then,
// whatever the bytes' boundaries.
bool IsAscii(const uint8_t* bytes, int64_t size);

}  // namespace tarn
