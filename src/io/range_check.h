// CheckReadRange: the one bounds check every RandomAccessFile::ReadAt performs before it
// touches bytes, so all implementations report a bad range with the same message.
#pragma once

#include <cstdint>
#include <string>

#include "tarn/status.h"

namespace tarn::io_internal {

// OK when [offset, offset + length) lies inside a file of `file_size` bytes; otherwise an
// IOError naming the path, the range and the file size. Safe against overflow.
inline Status CheckReadRange(const std::string& path, int64_t offset, int64_t length,
                             int64_t file_size) {
  if (offset < 0 || length < 0) {
    return Status::IOError("invalid read range in '", path, "': offset ", offset, ", length ",
                           length);
  }
  if (offset > file_size || length > file_size - offset) {
    return Status::IOError("read past end of file '", path, "': offset ", offset, ", length ",
                           length, ", file size ", file_size);
  }
  return Status::OK();
}

}  // namespace tarn::io_internal
