// FileSystem: every byte tarn reads or writes goes through this interface, so that every
// failure path can be injected and tested.
//
// Implementations: the local disk (LocalFileSystem), memory (MemoryFileSystem) and a wrapper
// that fails chosen operations (FaultInjectingFileSystem). Paths are '/'-separated strings;
// the local file system takes them as the OS does.
//
// Thread-safety: FileSystem methods and RandomAccessFile::ReadAt are safe to call from many
// threads at once. A WritableFile is used by one thread at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn {

// One range for RandomAccessFile::ReadRanges: `length` bytes at `offset` into `out`.
struct ReadRange {
  int64_t offset = 0;
  int64_t length = 0;
  uint8_t* out = nullptr;
};

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual const std::string& path() const = 0;
  virtual int64_t size() const = 0;
  // Reads exactly `length` bytes at `offset` into `out`, or fails: a range past the end is an
  // IOError naming the path, the range and the file size.
  virtual Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const = 0;
  // Reads every range as ReadAt would. Files far from their bytes (object storage) fetch the
  // ranges together, joining near ones; local files read them one by one.
  virtual Status ReadRanges(std::span<const ReadRange> ranges) const;
  // Convenience: ReadAt into a string.
  Result<std::string> Read(int64_t offset, int64_t length) const;
};

class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual const std::string& path() const = 0;
  virtual Status Append(std::string_view bytes) = 0;
  virtual int64_t bytes_written() const = 0;
  // Flushes to durable storage (fsync on local disk).
  virtual Status Sync() = 0;
  // Finishes the file; it is complete and visible under its path only after Close() succeeds
  // (local: written to a temporary name, renamed on Close). A file dropped without Close() is
  // abandoned and leaves nothing behind.
  virtual Status Close() = 0;
};

struct FileInfo {
  std::string path;
  int64_t size = 0;
  bool is_directory = false;
  // Last modification, microseconds since the epoch (UTC); 0 when the file system keeps none.
  int64_t modified_micros = 0;
  // A symbolic link (List and Stat never follow one into a directory; see List).
  bool is_symlink = false;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) = 0;
  virtual Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) = 0;
  virtual Result<FileInfo> Stat(const std::string& path) = 0;
  virtual Result<bool> Exists(const std::string& path) = 0;
  // Lists the entries directly under `dir` (recursive: every file below it), sorted by path.
  // A symbolic link is listed as itself (is_symlink, with its target's size and time when the
  // target is a file) and never followed: a recursive listing stays inside `dir` and ends on a
  // link cycle.
  virtual Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) = 0;
  // `path` with every symbolic link resolved (the path itself need not exist; its parent
  // folder must). File systems without links return it unchanged.
  virtual Result<std::string> RealPath(const std::string& path) { return path; }
  virtual Status CreateDirectories(const std::string& dir) = 0;
  virtual Status Delete(const std::string& path) = 0;
  // Deletes every path that exists, as Delete does each (a missing one is no error; the first
  // failure is returned after trying the rest); object stores delete them in batches.
  virtual Status DeleteFiles(const std::vector<std::string>& paths);
  virtual Status Rename(const std::string& from, const std::string& to) = 0;

  // Whole-file helpers.
  Result<std::string> ReadFile(const std::string& path);
  Status WriteFile(const std::string& path, std::string_view bytes);
};

// The operating system's files.
std::shared_ptr<FileSystem> LocalFileSystem();

// Files held in memory; for tests.
std::shared_ptr<FileSystem> NewMemoryFileSystem();

// Wraps another FileSystem and fails operations on demand. Each operation (open, read,
// append, sync, close, rename, delete, list, stat) counts as one "op"; the schedule decides.
class FaultInjectingFileSystem : public FileSystem {
 public:
  enum class Op { kOpenRead, kOpenWrite, kRead, kAppend, kSync, kClose, kStat, kList,
                  kCreateDir, kDelete, kRename };
  explicit FaultInjectingFileSystem(std::shared_ptr<FileSystem> base);

  // Fails the n-th (0-based) operation counted from now whose op is in `ops` (empty = any),
  // and every later one when `sticky`.
  void FailAfter(int64_t n, std::vector<Op> ops = {}, bool sticky = false);
  // Fails reads at a path for which `pred(path)` is true.
  void FailPaths(std::function<bool(const std::string&)> pred);
  // Removes every scheduled failure and restarts the op count at 0.
  void Clear();
  int64_t op_count() const;

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override;
  Result<FileInfo> Stat(const std::string& path) override;
  Result<bool> Exists(const std::string& path) override;
  Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) override;
  Result<std::string> RealPath(const std::string& path) override;
  Status CreateDirectories(const std::string& dir) override;
  Status Delete(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;

  // Used by the wrapped files; returns an IOError when this op must fail.
  Status MaybeFail(Op op, const std::string& path);

 private:
  std::shared_ptr<FileSystem> base_;
  mutable std::mutex mu_;  // guards everything below
  int64_t ops_seen_ = 0;
  int64_t fail_at_ = -1;
  bool sticky_ = false;
  std::vector<Op> fail_ops_;
  std::function<bool(const std::string&)> fail_paths_;
};

}  // namespace tarn
