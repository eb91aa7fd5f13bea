// The operating system's files, through POSIX calls.
//
// Reads use pread, so one open file serves many threads at once. A write goes to a temporary
// sibling "<path>.tarn-tmp-<pid>-<n>" and is renamed onto <path> by Close(), so readers see
// either the old file or the complete new one; dropping the writer unlinks the temporary.

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "io/range_check.h"
#include "tarn/io.h"

namespace tarn {
namespace {

// "<what> '<path>': <errno text>", NotFound for a missing path and IOError otherwise.
Status ErrnoStatus(std::string_view what, const std::string& path, int error_number) {
  if (error_number == ENOENT) {
    return Status::NotFound(what, " '", path, "': ", std::strerror(error_number));
  }
  return Status::IOError(what, " '", path, "': ", std::strerror(error_number));
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (!dir.empty() && dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(std::string path, int fd, int64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  ~LocalRandomAccessFile() override { ::close(fd_); }
  LocalRandomAccessFile(const LocalRandomAccessFile&) = delete;
  LocalRandomAccessFile& operator=(const LocalRandomAccessFile&) = delete;

  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }

  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    TARN_RETURN_NOT_OK(io_internal::CheckReadRange(path_, offset, length, size_));
    int64_t done = 0;
    while (done < length) {
      ssize_t got = ::pread(fd_, out + done, static_cast<size_t>(length - done), offset + done);
      if (got < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("read '", path_, "' at offset ", offset + done, ", length ",
                               length - done, ": ", std::strerror(errno));
      }
      if (got == 0) {
        // The file shrank after it was opened.
        return Status::IOError("short read of '", path_, "': offset ", offset, ", length ",
                               length, ", got ", done, " bytes; file size was ", size_);
      }
      done += got;
    }
    return Status::OK();
  }

 private:
  const std::string path_;
  const int fd_;
  const int64_t size_;
};

class LocalWritableFile final : public WritableFile {
 public:
  LocalWritableFile(std::string path, std::string temp_path, int fd)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd) {}
  ~LocalWritableFile() override {
    if (fd_ >= 0) ::close(fd_);
    if (!published_) ::unlink(temp_path_.c_str());  // abandoned: leave nothing behind
  }
  LocalWritableFile(const LocalWritableFile&) = delete;
  LocalWritableFile& operator=(const LocalWritableFile&) = delete;

  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return bytes_written_; }

  Status Append(std::string_view bytes) override {
    TARN_RETURN_NOT_OK(CheckOpen("append to"));
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t wrote = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (wrote < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("write '", path_, "' (temporary '", temp_path_, "') at offset ",
                               bytes_written_, ": ", std::strerror(errno));
      }
      done += static_cast<size_t>(wrote);
      bytes_written_ += wrote;
    }
    return Status::OK();
  }

  Status Sync() override {
    TARN_RETURN_NOT_OK(CheckOpen("sync"));
    if (::fsync(fd_) != 0) {
      return Status::IOError("fsync '", path_, "' (temporary '", temp_path_,
                             "'): ", std::strerror(errno));
    }
    return Status::OK();
  }

  Status Close() override {
    TARN_RETURN_NOT_OK(CheckOpen("close"));
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
      return Status::IOError("close '", path_, "' (temporary '", temp_path_,
                             "'): ", std::strerror(errno));
    }
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
      return Status::IOError("rename temporary '", temp_path_, "' to '", path_,
                             "': ", std::strerror(errno));
    }
    published_ = true;
    return Status::OK();
  }

 private:
  Status CheckOpen(std::string_view what) const {
    if (fd_ < 0) return Status::IOError("cannot ", what, " '", path_, "': already closed");
    return Status::OK();
  }

  const std::string path_;
  const std::string temp_path_;
  int fd_;                  // -1 once closed
  bool published_ = false;  // renamed onto path_
  int64_t bytes_written_ = 0;
};

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus("open for read", path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int error_number = errno;
      ::close(fd);
      return ErrnoStatus("stat", path, error_number);
    }
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      return Status::IOError("open for read '", path, "': is a directory");
    }
    return std::unique_ptr<RandomAccessFile>(
        new LocalRandomAccessFile(path, fd, static_cast<int64_t>(st.st_size)));
  }

  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override {
    static std::atomic<uint64_t> temp_counter{0};
    std::string temp_path = StrCat(path, ".tarn-tmp-", ::getpid(), "-",
                                   temp_counter.fetch_add(1, std::memory_order_relaxed));
    int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoStatus("open for write", path, errno);
    return std::unique_ptr<WritableFile>(new LocalWritableFile(path, temp_path, fd));
  }

  Result<FileInfo> Stat(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return ErrnoStatus("stat", path, errno);
    return InfoOf(path, st, /*is_symlink=*/false);
  }

  Result<bool> Exists(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) return true;
    if (errno == ENOENT || errno == ENOTDIR) return false;
    return ErrnoStatus("stat", path, errno);
  }

  Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) override {
    std::vector<FileInfo> out;
    TARN_RETURN_NOT_OK(ListInto(dir, recursive, &out));
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }

  Result<std::string> RealPath(const std::string& path) override {
    // The parent folder resolved, the last name kept: the file itself may be gone (or be a
    // link, which is then what a delete removes).
    const size_t slash = path.find_last_of('/');
    const std::string parent = slash == std::string::npos ? "." : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    char* resolved = ::realpath(parent.c_str(), nullptr);
    if (resolved == nullptr) return ErrnoStatus("resolve path", parent, errno);
    std::string out = resolved;
    ::free(resolved);
    return JoinPath(out, name);
  }

  Status CreateDirectories(const std::string& dir) override {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) {
      return Status::IOError("create directories '", dir, "': ", error.message());
    }
    return Status::OK();
  }

  Status Delete(const std::string& path) override {
    if (::unlink(path.c_str()) == 0) return Status::OK();
    if (errno == EISDIR || errno == EPERM) {
      if (::rmdir(path.c_str()) == 0) return Status::OK();
    }
    return ErrnoStatus("delete", path, errno);
  }

  Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) == 0) return Status::OK();
    int error_number = errno;
    std::string what = StrCat("rename '", from, "' to '", to, "'");
    if (error_number == ENOENT) return Status::NotFound(what, ": ", std::strerror(error_number));
    return Status::IOError(what, ": ", std::strerror(error_number));
  }

 private:
  // Appends the entries of `dir` (recursive: the files of its whole subtree) to `out`.
  Status ListInto(const std::string& dir, bool recursive, std::vector<FileInfo>* out) {
    DIR* handle = ::opendir(dir.c_str());
    if (handle == nullptr) return ErrnoStatus("list directory", dir, errno);
    std::vector<std::string> names;
    errno = 0;
    while (struct dirent* entry = ::readdir(handle)) {
      std::string_view name = entry->d_name;
      if (name != "." && name != "..") names.emplace_back(name);
      errno = 0;
    }
    int read_error = errno;
    ::closedir(handle);
    if (read_error != 0) return ErrnoStatus("list directory", dir, read_error);
    for (const std::string& name : names) {
      std::string path = JoinPath(dir, name);
      struct stat st;
      if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) continue;  // deleted while listing
        return ErrnoStatus("stat", path, errno);
      }
      if (S_ISLNK(st.st_mode)) {
        // Listed, never followed: a link may lead out of `dir` or back into it.
        struct stat target;
        const bool resolves = ::stat(path.c_str(), &target) == 0;
        out->push_back(InfoOf(path, resolves ? target : st, /*is_symlink=*/true));
        continue;
      }
      if (recursive && S_ISDIR(st.st_mode)) {
        TARN_RETURN_NOT_OK(ListInto(path, true, out));
      } else {
        out->push_back(InfoOf(path, st, /*is_symlink=*/false));
      }
    }
    return Status::OK();
  }

  static FileInfo InfoOf(const std::string& path, const struct stat& st, bool is_symlink) {
    FileInfo info;
    info.path = path;
    info.is_directory = S_ISDIR(st.st_mode);
    info.size = info.is_directory ? 0 : static_cast<int64_t>(st.st_size);
    info.modified_micros = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000 +
                           static_cast<int64_t>(st.st_mtim.tv_nsec) / 1000;
    info.is_symlink = is_symlink;
    return info;
  }
};

}  // namespace

std::shared_ptr<FileSystem> LocalFileSystem() {
  static const std::shared_ptr<FileSystem> file_system = std::make_shared<PosixFileSystem>();
  return file_system;
}

}  // namespace tarn
