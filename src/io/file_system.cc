#include "io/range_check.h"
#include "tarn/io.h"

namespace tarn {

Result<std::string> RandomAccessFile::Read(int64_t offset, int64_t length) const {
  if (length < 0) {
    return Status::InvalidArgument("negative read length ", length, " at offset ", offset,
                                   " in '", path(), "'");
  }
  // Check before allocating: a corrupt length must fail cleanly, not exhaust memory.
  TARN_RETURN_NOT_OK(io_internal::CheckReadRange(path(), offset, length, size()));
  std::string out(static_cast<size_t>(length), '\0');
  TARN_RETURN_NOT_OK(ReadAt(offset, length, reinterpret_cast<uint8_t*>(out.data())));
  return out;
}

Status RandomAccessFile::ReadRanges(std::span<const ReadRange> ranges) const {
  for (const ReadRange& range : ranges) {
    TARN_RETURN_NOT_OK(ReadAt(range.offset, range.length, range.out));
  }
  return Status::OK();
}

Status FileSystem::DeleteFiles(const std::vector<std::string>& paths) {
  Status first;
  for (const std::string& path : paths) {
    Status deleted = Delete(path);
    if (!deleted.ok() && !deleted.IsNotFound() && first.ok()) first = std::move(deleted);
  }
  return first;
}

Result<std::string> FileSystem::ReadFile(const std::string& path) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, OpenForRead(path));
  return file->Read(0, file->size());
}

Status FileSystem::WriteFile(const std::string& path, std::string_view bytes) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, OpenForWrite(path));
  TARN_RETURN_NOT_OK(file->Append(bytes));
  return file->Close();
}

}  // namespace tarn
