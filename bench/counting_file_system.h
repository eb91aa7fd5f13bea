// What the row-summary benchmarks share: a file system that counts the bytes and reads going
// through it, and the process's CPU time.
#pragma once

#include <atomic>
#include <ctime>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tarn/io.h"

namespace tarn::bench {

// Counts the bytes and reads of every ReadAt through it; the rest passes to `base`.
class CountingFileSystem : public FileSystem {
 public:
  explicit CountingFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}
  std::atomic<int64_t> bytes{0};
  std::atomic<int64_t> reads{0};

  class File : public RandomAccessFile {
   public:
    File(std::unique_ptr<RandomAccessFile> base, CountingFileSystem* owner)
        : base_(std::move(base)), owner_(owner) {}
    const std::string& path() const override { return base_->path(); }
    int64_t size() const override { return base_->size(); }
    Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
      owner_->bytes += length;
      owner_->reads += 1;
      return base_->ReadAt(offset, length, out);
    }

   private:
    std::unique_ptr<RandomAccessFile> base_;
    CountingFileSystem* owner_;
  };

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    TARN_ASSIGN_OR_RETURN(auto file, base_->OpenForRead(path));
    return std::unique_ptr<RandomAccessFile>(new File(std::move(file), this));
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override {
    return base_->OpenForWrite(path);
  }
  Result<FileInfo> Stat(const std::string& path) override { return base_->Stat(path); }
  Result<bool> Exists(const std::string& path) override { return base_->Exists(path); }
  Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) override {
    return base_->List(dir, recursive);
  }
  Status CreateDirectories(const std::string& dir) override { return base_->CreateDirectories(dir); }
  Status Delete(const std::string& path) override { return base_->Delete(path); }
  Status Rename(const std::string& from, const std::string& to) override {
    return base_->Rename(from, to);
  }

 private:
  std::shared_ptr<FileSystem> base_;
};

inline double CpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

}  // namespace tarn::bench
