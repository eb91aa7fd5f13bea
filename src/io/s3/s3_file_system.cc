// The S3 file system (tarn/s3.h): objects as files, key prefixes as folders.

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <list>
#include <thread>
#include <unordered_map>

#include "io/range_check.h"
#include "io/s3/s3_client.h"
#include "tarn/s3.h"

namespace tarn {
namespace {

using s3::ObjectPath;
using s3::S3Client;

// Opening an object fetches its last bytes with the request that learns its size: a Parquet
// footer (and its 8-byte trailer) is almost always within them.
constexpr int64_t kTailBytes = 64 << 10;

// What an open learned about an object: its size and last bytes, kept by path so that
// reopening a file (every scan of a lake reopens its data files) costs no request. Objects
// tarn reads are immutable once written; writes and deletes through this file system drop
// their path's entry.
struct ObjectTail {
  int64_t size = 0;
  std::string bytes;  // the object's last bytes.size() bytes
};

class TailCache {
 public:
  std::shared_ptr<const ObjectTail> Find(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(path);
    if (it == entries_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second.position);
    return it->second.tail;
  }
  void Put(const std::string& path, std::shared_ptr<const ObjectTail> tail) {
    std::lock_guard<std::mutex> lock(mu_);
    EraseLocked(path);
    bytes_ += static_cast<int64_t>(tail->bytes.size());
    order_.push_front(path);
    entries_[path] = Entry{std::move(tail), order_.begin()};
    while (bytes_ > kCapacityBytes && !order_.empty()) EraseLocked(order_.back());
  }
  void Erase(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    EraseLocked(path);
  }

 private:
  static constexpr int64_t kCapacityBytes = 64 << 20;
  struct Entry {
    std::shared_ptr<const ObjectTail> tail;
    std::list<std::string>::iterator position;
  };
  void EraseLocked(const std::string& path) {
    auto it = entries_.find(path);
    if (it == entries_.end()) return;
    bytes_ -= static_cast<int64_t>(it->second.tail->bytes.size());
    order_.erase(it->second.position);
    entries_.erase(it);
  }
  std::mutex mu_;  // guards everything below
  std::unordered_map<std::string, Entry> entries_;
  std::list<std::string> order_;  // most recently used first
  int64_t bytes_ = 0;
};

class S3File final : public RandomAccessFile {
 public:
  S3File(std::shared_ptr<S3Client> client, std::string path, ObjectPath object,
         std::shared_ptr<const ObjectTail> tail)
      : client_(std::move(client)), path_(std::move(path)), object_(std::move(object)),
        tail_(std::move(tail)) {}

  const std::string& path() const override { return path_; }
  int64_t size() const override { return tail_->size; }

  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    TARN_RETURN_NOT_OK(io_internal::CheckReadRange(path_, offset, length, size()));
    if (FromTail(offset, length, out)) return Status::OK();
    return client_->GetRange(object_, offset, length, out);
  }

  Status ReadRanges(std::span<const ReadRange> ranges) const override {
    // Ranges not in the tail, by offset; then groups of ranges whose gaps are small enough
    // that one GET of the whole span costs less than another round trip.
    std::vector<const ReadRange*> wanted;
    for (const ReadRange& range : ranges) {
      TARN_RETURN_NOT_OK(io_internal::CheckReadRange(path_, range.offset, range.length, size()));
      if (range.length > 0 && !FromTail(range.offset, range.length, range.out)) {
        wanted.push_back(&range);
      }
    }
    std::sort(wanted.begin(), wanted.end(),
              [](const ReadRange* a, const ReadRange* b) { return a->offset < b->offset; });
    struct Group {
      int64_t begin = 0;
      int64_t end = 0;
      std::vector<const ReadRange*> members;
    };
    std::vector<Group> groups;
    const int64_t gap = client_->options().coalesce_gap;
    for (const ReadRange* range : wanted) {
      if (groups.empty() || range->offset > groups.back().end + gap) {
        groups.push_back(Group{range->offset, range->offset + range->length, {}});
      }
      Group& group = groups.back();
      group.end = std::max(group.end, range->offset + range->length);
      group.members.push_back(range);
    }
    auto fetch = [&](const Group& group) -> Status {
      if (group.members.size() == 1) {
        const ReadRange& only = *group.members[0];
        return client_->GetRange(object_, only.offset, only.length, only.out);
      }
      std::string buffer(static_cast<size_t>(group.end - group.begin), '\0');
      TARN_RETURN_NOT_OK(client_->GetRange(object_, group.begin, group.end - group.begin,
                                           reinterpret_cast<uint8_t*>(buffer.data())));
      for (const ReadRange* member : group.members) {
        std::memcpy(member->out, buffer.data() + (member->offset - group.begin),
                    static_cast<size_t>(member->length));
      }
      return Status::OK();
    };
    if (groups.size() <= 1) return groups.empty() ? Status::OK() : fetch(groups[0]);
    // Several GETs in flight: each worker takes the next group until none is left.
    std::atomic<size_t> next{0};
    std::vector<Status> results(groups.size());
    auto work = [&] {
      for (size_t i; (i = next.fetch_add(1)) < groups.size();) results[i] = fetch(groups[i]);
    };
    const size_t workers = std::min<size_t>(
        groups.size(), static_cast<size_t>(std::max(1, client_->options().parallel_requests)));
    std::vector<std::thread> threads;
    for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
    work();
    for (std::thread& thread : threads) thread.join();
    for (Status& result : results) TARN_RETURN_NOT_OK(result);
    return Status::OK();
  }

 private:
  bool FromTail(int64_t offset, int64_t length, uint8_t* out) const {
    const int64_t tail_start = tail_->size - static_cast<int64_t>(tail_->bytes.size());
    if (offset < tail_start) return false;
    std::memcpy(out, tail_->bytes.data() + (offset - tail_start), static_cast<size_t>(length));
    return true;
  }

  std::shared_ptr<S3Client> client_;
  std::string path_;
  ObjectPath object_;
  std::shared_ptr<const ObjectTail> tail_;
};

class S3WritableFile final : public WritableFile {
 public:
  S3WritableFile(std::shared_ptr<S3Client> client, std::shared_ptr<TailCache> cache,
                 std::string path, ObjectPath object)
      : client_(std::move(client)), cache_(std::move(cache)), path_(std::move(path)),
        object_(std::move(object)) {}

  ~S3WritableFile() override {
    // Dropped without Close(): the object was never made; parts already sent are abandoned.
    if (!closed_ && !upload_id_.empty()) {
      Status aborted = client_->AbortMultipartUpload(object_, upload_id_);
      (void)aborted;  // best effort: the bucket's lifecycle rules clear what is left
    }
  }

  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return written_; }

  Status Append(std::string_view bytes) override {
    if (closed_) return Status::IOError("append to closed file '", path_, "'");
    buffer_.append(bytes);
    written_ += static_cast<int64_t>(bytes.size());
    while (static_cast<int64_t>(buffer_.size()) >= PartSize()) {
      TARN_RETURN_NOT_OK(SendPart(std::string_view(buffer_).substr(0, PartSize())));
      buffer_.erase(0, static_cast<size_t>(PartSize()));
    }
    return Status::OK();
  }

  // Nothing is durable before Close(): an object appears whole or not at all.
  Status Sync() override { return Status::OK(); }

  Status Close() override {
    if (closed_) return Status::OK();
    if (upload_id_.empty()) {
      TARN_RETURN_NOT_OK(client_->Put(object_, buffer_));
    } else {
      if (!buffer_.empty()) TARN_RETURN_NOT_OK(SendPart(buffer_));
      TARN_RETURN_NOT_OK(client_->CompleteMultipartUpload(object_, upload_id_, etags_));
    }
    closed_ = true;
    buffer_.clear();
    buffer_.shrink_to_fit();
    cache_->Erase(path_);
    return Status::OK();
  }

 private:
  int64_t PartSize() const { return std::max<int64_t>(client_->options().part_size, 5 << 20); }

  Status SendPart(std::string_view part) {
    if (upload_id_.empty()) {
      TARN_ASSIGN_OR_RETURN(upload_id_, client_->CreateMultipartUpload(object_));
    }
    TARN_ASSIGN_OR_RETURN(std::string etag,
                          client_->UploadPart(object_, upload_id_,
                                              static_cast<int>(etags_.size()) + 1, part));
    etags_.push_back(std::move(etag));
    return Status::OK();
  }

  std::shared_ptr<S3Client> client_;
  std::shared_ptr<TailCache> cache_;
  std::string path_;
  ObjectPath object_;
  std::string buffer_;
  int64_t written_ = 0;
  std::string upload_id_;
  std::vector<std::string> etags_;
  bool closed_ = false;
};

std::string FolderPrefix(const std::string& key) {
  if (key.empty() || key.back() == '/') return key;
  return key + "/";
}

}  // namespace

class S3FileSystem final : public FileSystem {
 public:
  explicit S3FileSystem(S3Options options)
      : client_(std::make_shared<S3Client>(std::move(options))),
        cache_(std::make_shared<TailCache>()) {}

  S3Counters counters() const { return client_->counters(); }

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    TARN_ASSIGN_OR_RETURN(ObjectPath object, s3::ParseS3Path(path));
    std::shared_ptr<const ObjectTail> tail = cache_->Find(path);
    if (tail == nullptr) {
      TARN_ASSIGN_OR_RETURN(S3Client::Tail got, client_->GetTail(object, kTailBytes));
      auto fresh = std::make_shared<ObjectTail>();
      fresh->size = got.object_size;
      fresh->bytes = std::move(got.bytes);
      tail = fresh;
      cache_->Put(path, tail);
    }
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<S3File>(client_, path, std::move(object), std::move(tail)));
  }

  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override {
    TARN_ASSIGN_OR_RETURN(ObjectPath object, s3::ParseS3Path(path));
    if (object.key.empty() || object.key.back() == '/') {
      return Status::InvalidArgument("cannot write '", path, "': it names a folder, not an object");
    }
    cache_->Erase(path);
    return std::unique_ptr<WritableFile>(
        std::make_unique<S3WritableFile>(client_, cache_, path, std::move(object)));
  }

  Result<FileInfo> Stat(const std::string& path) override {
    TARN_ASSIGN_OR_RETURN(ObjectPath object, s3::ParseS3Path(path));
    FileInfo info;
    info.path = path;
    if (!object.key.empty() && object.key.back() != '/') {
      Result<S3Client::ObjectHead> head = client_->Head(object);
      if (head.ok()) {
        info.size = head->size;
        info.modified_micros = head->modified_micros;
        return info;
      }
      if (!head.status().IsNotFound()) return head.status();
    }
    // No object: a folder when some key starts with "<key>/".
    TARN_ASSIGN_OR_RETURN(s3::ListPage page,
                          client_->List(object.bucket, FolderPrefix(object.key), "/", ""));
    if (page.objects.empty() && page.prefixes.empty() && !object.key.empty()) {
      return Status::NotFound("'", path, "': no such object or folder");
    }
    info.is_directory = true;
    return info;
  }

  Result<bool> Exists(const std::string& path) override {
    Result<FileInfo> info = Stat(path);
    if (info.ok()) return true;
    if (info.status().IsNotFound()) return false;
    return info.status();
  }

  Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) override {
    TARN_ASSIGN_OR_RETURN(ObjectPath object, s3::ParseS3Path(dir));
    const std::string prefix = FolderPrefix(object.key);
    const std::string root = "s3://" + object.bucket + "/";
    std::vector<FileInfo> out;
    std::string token;
    do {
      TARN_ASSIGN_OR_RETURN(s3::ListPage page,
                            client_->List(object.bucket, prefix, recursive ? "" : "/", token));
      for (s3::ObjectEntry& entry : page.objects) {
        if (entry.key == prefix) continue;  // a folder marker some tools write
        FileInfo info;
        info.path = root + entry.key;
        info.size = entry.size;
        info.modified_micros = entry.modified_micros;
        out.push_back(std::move(info));
      }
      for (std::string& folder : page.prefixes) {
        FileInfo info;
        if (!folder.empty() && folder.back() == '/') folder.pop_back();
        info.path = root + folder;
        info.is_directory = true;
        out.push_back(std::move(info));
      }
      token = std::move(page.next_token);
    } while (!token.empty());
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }

  Status CreateDirectories(const std::string& dir) override {
    return s3::ParseS3Path(dir).status();  // S3 has no folders to make
  }

  Status Delete(const std::string& path) override {
    TARN_ASSIGN_OR_RETURN(ObjectPath object, s3::ParseS3Path(path));
    cache_->Erase(path);
    return client_->DeleteObject(object);
  }

  Status DeleteFiles(const std::vector<std::string>& paths) override {
    std::map<std::string, std::vector<std::string>> by_bucket;
    for (const std::string& path : paths) {
      TARN_ASSIGN_OR_RETURN(ObjectPath object, s3::ParseS3Path(path));
      cache_->Erase(path);
      by_bucket[object.bucket].push_back(std::move(object.key));
    }
    for (const auto& [bucket, keys] : by_bucket) {
      constexpr size_t kBatch = 1000;  // S3's limit per DeleteObjects
      for (size_t start = 0; start < keys.size(); start += kBatch) {
        std::vector<std::string> batch(keys.begin() + static_cast<std::ptrdiff_t>(start),
                                       keys.begin() + static_cast<std::ptrdiff_t>(
                                                          std::min(keys.size(), start + kBatch)));
        TARN_RETURN_NOT_OK(client_->DeleteObjects(bucket, batch));
      }
    }
    return Status::OK();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    TARN_ASSIGN_OR_RETURN(ObjectPath source, s3::ParseS3Path(from));
    TARN_ASSIGN_OR_RETURN(ObjectPath target, s3::ParseS3Path(to));
    cache_->Erase(to);
    TARN_RETURN_NOT_OK(client_->CopyObject(source, target));
    return Delete(from);
  }

 private:
  std::shared_ptr<S3Client> client_;
  std::shared_ptr<TailCache> cache_;
};

std::shared_ptr<FileSystem> NewS3FileSystem(S3Options options) {
  return std::make_shared<S3FileSystem>(std::move(options));
}

S3Counters S3CountersOf(const FileSystem& fs) {
  const auto* s3 = dynamic_cast<const S3FileSystem*>(&fs);
  return s3 != nullptr ? s3->counters() : S3Counters();
}

bool IsS3Path(std::string_view path) { return s3::ParseS3Path(path).ok(); }

}  // namespace tarn
