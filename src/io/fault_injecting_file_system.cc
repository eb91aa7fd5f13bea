// FaultInjectingFileSystem: counts every operation and fails the ones the schedule names.
//
// A failed operation never reaches the wrapped file system: a failed Append writes nothing, a
// failed Close leaves the wrapped writer unclosed, so it is abandoned like a crashed writer.
// Files it returns keep a pointer to it and must not outlive it.

#include <algorithm>

#include "tarn/io.h"

namespace tarn {
namespace {

using Op = FaultInjectingFileSystem::Op;

std::string_view OpName(Op op) {
  switch (op) {
    case Op::kOpenRead: return "open for read";
    case Op::kOpenWrite: return "open for write";
    case Op::kRead: return "read";
    case Op::kAppend: return "append";
    case Op::kSync: return "sync";
    case Op::kClose: return "close";
    case Op::kStat: return "stat";
    case Op::kList: return "list";
    case Op::kCreateDir: return "create directories";
    case Op::kDelete: return "delete";
    case Op::kRename: return "rename";
  }
  return "unknown op";
}

class FaultyRandomAccessFile final : public RandomAccessFile {
 public:
  FaultyRandomAccessFile(std::unique_ptr<RandomAccessFile> base, FaultInjectingFileSystem* fs)
      : base_(std::move(base)), fs_(fs) {}
  const std::string& path() const override { return base_->path(); }
  int64_t size() const override { return base_->size(); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    Status fault = fs_->MaybeFail(Op::kRead, base_->path());
    if (!fault.ok()) {
      return Status::IOError(fault.message(), " at offset ", offset, ", length ", length);
    }
    return base_->ReadAt(offset, length, out);
  }

 private:
  const std::unique_ptr<RandomAccessFile> base_;
  FaultInjectingFileSystem* const fs_;
};

class FaultyWritableFile final : public WritableFile {
 public:
  FaultyWritableFile(std::unique_ptr<WritableFile> base, FaultInjectingFileSystem* fs)
      : base_(std::move(base)), fs_(fs) {}
  const std::string& path() const override { return base_->path(); }
  int64_t bytes_written() const override { return base_->bytes_written(); }
  Status Append(std::string_view bytes) override {
    TARN_RETURN_NOT_OK(fs_->MaybeFail(Op::kAppend, base_->path()));
    return base_->Append(bytes);
  }
  Status Sync() override {
    TARN_RETURN_NOT_OK(fs_->MaybeFail(Op::kSync, base_->path()));
    return base_->Sync();
  }
  Status Close() override {
    TARN_RETURN_NOT_OK(fs_->MaybeFail(Op::kClose, base_->path()));
    return base_->Close();
  }

 private:
  const std::unique_ptr<WritableFile> base_;
  FaultInjectingFileSystem* const fs_;
};

}  // namespace

FaultInjectingFileSystem::FaultInjectingFileSystem(std::shared_ptr<FileSystem> base)
    : base_(std::move(base)) {}

void FaultInjectingFileSystem::FailAfter(int64_t n, std::vector<Op> ops, bool sticky) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_at_ = n;  // counts down on each matching op; the op that sees 0 fails
  fail_ops_ = std::move(ops);
  sticky_ = sticky;
}

void FaultInjectingFileSystem::FailPaths(std::function<bool(const std::string&)> pred) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_paths_ = std::move(pred);
}

void FaultInjectingFileSystem::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  ops_seen_ = 0;
  fail_at_ = -1;
  sticky_ = false;
  fail_ops_.clear();
  fail_paths_ = nullptr;
}

int64_t FaultInjectingFileSystem::op_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ops_seen_;
}

Status FaultInjectingFileSystem::MaybeFail(Op op, const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t op_index = ops_seen_++;
  bool is_read = op == Op::kOpenRead || op == Op::kRead;
  if (is_read && fail_paths_ && fail_paths_(path)) {
    return Status::IOError("injected fault: ", OpName(op), " '", path, "' (failing path)");
  }
  bool matches = fail_ops_.empty() ||
                 std::find(fail_ops_.begin(), fail_ops_.end(), op) != fail_ops_.end();
  if (!matches || fail_at_ < 0) return Status::OK();
  if (fail_at_ > 0) {
    --fail_at_;
    return Status::OK();
  }
  if (!sticky_) fail_at_ = -1;
  return Status::IOError("injected fault: ", OpName(op), " '", path, "' (op #", op_index, ")");
}

Result<std::unique_ptr<RandomAccessFile>> FaultInjectingFileSystem::OpenForRead(
    const std::string& path) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kOpenRead, path));
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, base_->OpenForRead(path));
  return std::unique_ptr<RandomAccessFile>(new FaultyRandomAccessFile(std::move(file), this));
}

Result<std::unique_ptr<WritableFile>> FaultInjectingFileSystem::OpenForWrite(
    const std::string& path) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kOpenWrite, path));
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, base_->OpenForWrite(path));
  return std::unique_ptr<WritableFile>(new FaultyWritableFile(std::move(file), this));
}

Result<FileInfo> FaultInjectingFileSystem::Stat(const std::string& path) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kStat, path));
  return base_->Stat(path);
}

Result<bool> FaultInjectingFileSystem::Exists(const std::string& path) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kStat, path));
  return base_->Exists(path);
}

Result<std::vector<FileInfo>> FaultInjectingFileSystem::List(const std::string& dir,
                                                             bool recursive) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kList, dir));
  return base_->List(dir, recursive);
}

Result<std::string> FaultInjectingFileSystem::RealPath(const std::string& path) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kStat, path));
  return base_->RealPath(path);
}

Status FaultInjectingFileSystem::CreateDirectories(const std::string& dir) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kCreateDir, dir));
  return base_->CreateDirectories(dir);
}

Status FaultInjectingFileSystem::Delete(const std::string& path) {
  TARN_RETURN_NOT_OK(MaybeFail(Op::kDelete, path));
  return base_->Delete(path);
}

Status FaultInjectingFileSystem::Rename(const std::string& from, const std::string& to) {
  Status fault = MaybeFail(Op::kRename, from);
  if (!fault.ok()) return Status::IOError(fault.message(), " to '", to, "'");
  return base_->Rename(from, to);
}

}  // namespace tarn
