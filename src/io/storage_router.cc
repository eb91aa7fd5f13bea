// StorageRouter (tarn/s3.h): s3:// paths to the S3 file system of their scope, others to the
// local disk.

#include <algorithm>

#include "tarn/s3.h"

namespace tarn {

std::shared_ptr<FileSystem> DefaultFileSystem() {
  static const std::shared_ptr<FileSystem> kDefault =
      std::make_shared<StorageRouter>(LocalFileSystem());
  return kDefault;
}

StorageRouter::StorageRouter(std::shared_ptr<FileSystem> local) : local_(std::move(local)) {}

void StorageRouter::SetS3Scope(const std::string& scope, S3Options options) {
  std::shared_ptr<FileSystem> fs = NewS3FileSystem(std::move(options));
  std::lock_guard<std::mutex> lock(mu_);
  for (Scope& existing : scopes_) {
    if (existing.prefix == scope) {
      retired_ += S3CountersOf(*existing.fs);
      existing.fs = std::move(fs);
      return;
    }
  }
  scopes_.push_back(Scope{scope, std::move(fs)});
}

void StorageRouter::RemoveS3Scope(const std::string& scope) {
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(scopes_, [&](const Scope& existing) {
    if (existing.prefix != scope) return false;
    retired_ += S3CountersOf(*existing.fs);
    return true;
  });
}

std::shared_ptr<FileSystem> StorageRouter::For(const std::string& path) {
  if (!IsS3Path(path)) return local_;
  std::lock_guard<std::mutex> lock(mu_);
  const Scope* best = nullptr;
  for (const Scope& scope : scopes_) {
    if (path.starts_with(scope.prefix) &&
        (best == nullptr || scope.prefix.size() > best->prefix.size())) {
      best = &scope;
    }
  }
  if (best != nullptr) return best->fs;
  // No scope set: the environment's options, made once.
  scopes_.push_back(Scope{"", NewS3FileSystem(S3OptionsFromEnvironment())});
  return scopes_.back().fs;
}

S3Counters StorageRouter::Counters() const {
  std::lock_guard<std::mutex> lock(mu_);
  S3Counters out = retired_;
  for (const Scope& scope : scopes_) out += S3CountersOf(*scope.fs);
  return out;
}

Result<std::unique_ptr<RandomAccessFile>> StorageRouter::OpenForRead(const std::string& path) {
  return For(path)->OpenForRead(path);
}
Result<std::unique_ptr<WritableFile>> StorageRouter::OpenForWrite(const std::string& path) {
  return For(path)->OpenForWrite(path);
}
Result<FileInfo> StorageRouter::Stat(const std::string& path) { return For(path)->Stat(path); }
Result<bool> StorageRouter::Exists(const std::string& path) { return For(path)->Exists(path); }
Result<std::vector<FileInfo>> StorageRouter::List(const std::string& dir, bool recursive) {
  return For(dir)->List(dir, recursive);
}
Result<std::string> StorageRouter::RealPath(const std::string& path) {
  return For(path)->RealPath(path);
}
Status StorageRouter::CreateDirectories(const std::string& dir) {
  return For(dir)->CreateDirectories(dir);
}
Status StorageRouter::Delete(const std::string& path) { return For(path)->Delete(path); }

Status StorageRouter::DeleteFiles(const std::vector<std::string>& paths) {
  // Each file system deletes its own paths together (S3 in batches).
  std::vector<std::pair<std::shared_ptr<FileSystem>, std::vector<std::string>>> groups;
  for (const std::string& path : paths) {
    std::shared_ptr<FileSystem> fs = For(path);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& group) { return group.first == fs; });
    if (it == groups.end()) {
      groups.emplace_back(fs, std::vector<std::string>());
      it = groups.end() - 1;
    }
    it->second.push_back(path);
  }
  Status first;
  for (auto& [fs, group] : groups) {
    Status deleted = fs->DeleteFiles(group);
    if (!deleted.ok() && first.ok()) first = std::move(deleted);
  }
  return first;
}

Status StorageRouter::Rename(const std::string& from, const std::string& to) {
  std::shared_ptr<FileSystem> source = For(from);
  if (source != For(to)) {
    return Status::NotSupported("rename '", from, "' to '", to,
                                "': the two paths are on different storage");
  }
  return source->Rename(from, to);
}

}  // namespace tarn
