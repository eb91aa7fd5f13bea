// Files held in memory, for tests.
//
// Directories are implicit, as in object storage: a directory exists when it was created with
// CreateDirectories or when some file lies below it, and writing a file needs no parent.
// A file's bytes are an immutable shared string: an open reader keeps the version it opened,
// whatever later writes, renames or deletes do. A writer buffers privately and publishes its
// bytes under the path only on Close().

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "io/range_check.h"
#include "tarn/io.h"

namespace tarn {
namespace {

using Bytes = std::shared_ptr<const std::string>;

// "a/b/" -> "a/b"; the root "/" stays.
std::string TrimTrailingSlash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string DirPrefix(const std::string& dir) {
  return dir.empty() || dir.back() == '/' ? dir : dir + "/";
}

class MemoryRandomAccessFile final : public RandomAccessFile {
 public:
  MemoryRandomAccessFile(std::string path, Bytes bytes)
      : path_(std::move(path)), bytes_(std::move(bytes)) {}
  const std::string& path() const override { return path_; }
  int64_t size() const override { return static_cast<int64_t>(bytes_->size()); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    TARN_RETURN_NOT_OK(io_internal::CheckReadRange(path_, offset, length, size()));
    std::copy_n(bytes_->data() + offset, length, out);
    return Status::OK();
  }

 private:
  const std::string path_;
  const Bytes bytes_;
};

class MemoryFileSystemImpl;

class MemoryWritableFile final : public WritableFile {
 public:
  MemoryWritableFile(std::string path, std::shared_ptr<MemoryFileSystemImpl> fs)
      : path_(std::move(path)), fs_(std::move(fs)) {}
  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return bytes_written_; }
  Status Append(std::string_view bytes) override {
    TARN_RETURN_NOT_OK(CheckOpen("append to"));
    buffer_.append(bytes);
    bytes_written_ += static_cast<int64_t>(bytes.size());
    return Status::OK();
  }
  Status Sync() override { return CheckOpen("sync"); }
  Status Close() override;

 private:
  Status CheckOpen(std::string_view what) const {
    if (closed_) return Status::IOError("cannot ", what, " '", path_, "': already closed");
    return Status::OK();
  }

  const std::string path_;
  std::shared_ptr<MemoryFileSystemImpl> fs_;
  std::string buffer_;
  int64_t bytes_written_ = 0;
  bool closed_ = false;
};

class MemoryFileSystemImpl final : public FileSystem,
                                   public std::enable_shared_from_this<MemoryFileSystemImpl> {
 public:
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) {
      if (IsDirectoryLocked(path)) {
        return Status::IOError("open for read '", path, "': is a directory");
      }
      return Status::NotFound("open for read '", path, "': no such file");
    }
    return std::unique_ptr<RandomAccessFile>(new MemoryRandomAccessFile(path, it->second));
  }

  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (path.empty() || path.back() == '/' || IsDirectoryLocked(path)) {
      return Status::IOError("open for write '", path, "': is a directory");
    }
    return std::unique_ptr<WritableFile>(new MemoryWritableFile(path, shared_from_this()));
  }

  Result<FileInfo> Stat(const std::string& path) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(path);
    if (it != files_.end()) return FileInfoLocked(path, it->second);
    if (IsDirectoryLocked(TrimTrailingSlash(path))) return DirectoryInfo(path);
    return Status::NotFound("stat '", path, "': no such file or directory");
  }

  Result<bool> Exists(const std::string& path) override {
    std::lock_guard<std::mutex> lock(mu_);
    return files_.count(path) > 0 || IsDirectoryLocked(TrimTrailingSlash(path));
  }

  Result<std::vector<FileInfo>> List(const std::string& dir_arg, bool recursive) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::string dir = TrimTrailingSlash(dir_arg);
    if (files_.count(dir) > 0) {
      return Status::IOError("list directory '", dir_arg, "': not a directory");
    }
    if (!IsDirectoryLocked(dir)) {
      return Status::NotFound("list directory '", dir_arg, "': no such directory");
    }
    std::string prefix = DirPrefix(dir);
    std::map<std::string, FileInfo> entries;  // by path, so the result comes out sorted
    for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
      const std::string& path = it->first;
      if (path.compare(0, prefix.size(), prefix) != 0) break;
      size_t slash = path.find('/', prefix.size());
      if (recursive || slash == std::string::npos) {
        entries[path] = FileInfoLocked(path, it->second);
      } else {
        std::string sub = path.substr(0, slash);
        entries[sub] = DirectoryInfo(sub);
      }
    }
    if (!recursive) {
      for (auto it = dirs_.lower_bound(prefix); it != dirs_.end(); ++it) {
        if (it->compare(0, prefix.size(), prefix) != 0) break;
        std::string sub = it->substr(0, it->find('/', prefix.size()));
        entries[sub] = DirectoryInfo(sub);
      }
    }
    std::vector<FileInfo> out;
    out.reserve(entries.size());
    for (auto& [path, info] : entries) out.push_back(std::move(info));
    return out;
  }

  Status CreateDirectories(const std::string& dir_arg) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::string dir = TrimTrailingSlash(dir_arg);
    // Every ancestor must not be a file, as on a disk.
    for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
      std::string ancestor = dir.substr(0, slash);
      if (files_.count(ancestor) > 0) {
        return Status::IOError("create directories '", dir_arg, "': '", ancestor,
                               "' is a file");
      }
      if (slash == std::string::npos) break;
    }
    dirs_.insert(dir);
    return Status::OK();
  }

  Status Delete(const std::string& path) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (files_.erase(path) > 0) {
      modified_.erase(path);
      return Status::OK();
    }
    std::string dir = TrimTrailingSlash(path);
    if (!IsDirectoryLocked(dir)) {
      return Status::NotFound("delete '", path, "': no such file or directory");
    }
    if (HasChildrenLocked(dir)) return Status::IOError("delete '", path, "': directory not empty");
    dirs_.erase(dir);
    return Status::OK();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(from);
    if (it != files_.end()) {
      if (IsDirectoryLocked(to)) {
        return Status::IOError("rename '", from, "' to '", to, "': target is a directory");
      }
      Bytes bytes = it->second;
      files_.erase(it);
      files_[to] = std::move(bytes);
      modified_[to] = modified_[from];
      modified_.erase(from);
      return Status::OK();
    }
    if (!IsDirectoryLocked(from)) {
      return Status::NotFound("rename '", from, "' to '", to, "': no such file or directory");
    }
    if (files_.count(to) > 0 || HasChildrenLocked(to)) {
      return Status::IOError("rename '", from, "' to '", to, "': target exists");
    }
    MoveTreeLocked(from, to);
    return Status::OK();
  }

  void Publish(const std::string& path, std::string bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    files_[path] = std::make_shared<const std::string>(std::move(bytes));
    modified_[path] = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  }

 private:
  FileInfo FileInfoLocked(const std::string& path, const Bytes& bytes) const {
    FileInfo info;
    info.path = path;
    info.size = static_cast<int64_t>(bytes->size());
    auto it = modified_.find(path);
    if (it != modified_.end()) info.modified_micros = it->second;
    return info;
  }
  static FileInfo DirectoryInfo(const std::string& path) {
    FileInfo info;
    info.path = path;
    info.is_directory = true;
    return info;
  }

  bool IsDirectoryLocked(const std::string& dir) const {
    if (dir == "/" || dirs_.count(dir) > 0) return true;
    return HasChildrenLocked(dir);
  }

  bool HasChildrenLocked(const std::string& dir) const {
    std::string prefix = DirPrefix(dir);
    auto file = files_.lower_bound(prefix);
    if (file != files_.end() && file->first.compare(0, prefix.size(), prefix) == 0) return true;
    auto sub = dirs_.lower_bound(prefix);
    return sub != dirs_.end() && sub->compare(0, prefix.size(), prefix) == 0;
  }

  // True when `key` is `dir` itself or lies below it.
  static bool IsAtOrBelow(const std::string& key, const std::string& dir) {
    return key == dir || key.compare(0, DirPrefix(dir).size(), DirPrefix(dir)) == 0;
  }

  // Moves every file and explicit directory at or below `from` to the same place under `to`.
  void MoveTreeLocked(const std::string& from, const std::string& to) {
    std::map<std::string, Bytes> moved_files;
    for (auto it = files_.begin(); it != files_.end();) {
      if (!IsAtOrBelow(it->first, from)) {
        ++it;
        continue;
      }
      const std::string moved = to + it->first.substr(from.size());
      moved_files[moved] = it->second;
      modified_[moved] = modified_[it->first];
      modified_.erase(it->first);
      it = files_.erase(it);
    }
    std::set<std::string> moved_dirs;
    for (auto it = dirs_.begin(); it != dirs_.end();) {
      if (!IsAtOrBelow(*it, from)) {
        ++it;
        continue;
      }
      moved_dirs.insert(to + it->substr(from.size()));
      it = dirs_.erase(it);
    }
    files_.merge(moved_files);
    dirs_.merge(moved_dirs);
  }

  std::mutex mu_;  // guards files_, modified_ and dirs_
  std::map<std::string, Bytes> files_;
  std::map<std::string, int64_t> modified_;  // by path: when its bytes were published
  std::set<std::string> dirs_;  // created explicitly; others are implied by files_
};

Status MemoryWritableFile::Close() {
  TARN_RETURN_NOT_OK(CheckOpen("close"));
  closed_ = true;
  fs_->Publish(path_, std::move(buffer_));
  buffer_.clear();
  return Status::OK();
}

}  // namespace

std::shared_ptr<FileSystem> NewMemoryFileSystem() {
  return std::make_shared<MemoryFileSystemImpl>();
}

}  // namespace tarn
