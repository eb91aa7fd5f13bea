// The S3 REST operations tarn uses, signed and retried: ranged and tail GETs, HEAD, PUT,
// multipart uploads, ListObjectsV2, DeleteObjects, CopyObject.
//
// Every error names the operation, "s3://bucket/key", the HTTP status and S3's error code
// and message. NotFound for a 404 (NoSuchKey, NoSuchBucket), IOError otherwise. Transient
// failures — HTTP 500, 502, 503, 504, 429, the codes SlowDown, RequestTimeout and
// InternalError, a refused, reset or timed-out connection — are retried up to max_retries
// times, waiting retry_wait_ms · retry_backoff^attempt (with jitter) between tries.
//
// Thread-safety: every method may be called from many threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/s3/http.h"
#include "tarn/s3.h"
#include "tarn/status.h"

namespace tarn::s3 {

struct ObjectPath {
  std::string bucket;
  std::string key;  // without a leading '/'; "" for the bucket itself
  std::string ToString() const { return "s3://" + bucket + "/" + key; }
};

// "s3://bucket/key" (also s3a://, s3n://) into its parts; InvalidArgument otherwise.
Result<ObjectPath> ParseS3Path(std::string_view path);

struct ObjectEntry {
  std::string key;
  int64_t size = 0;
  int64_t modified_micros = 0;
};

// S3's <Error> answer: its code and message ("" when the body holds none).
struct ErrorBody {
  std::string code;
  std::string message;
};

struct ListPage {
  std::vector<ObjectEntry> objects;
  std::vector<std::string> prefixes;  // common prefixes (with a delimiter)
  std::string next_token;             // "" on the last page
};

class S3Client {
 public:
  explicit S3Client(S3Options options);

  const S3Options& options() const { return options_; }

  // The object's size and last modification; NotFound when there is none.
  struct ObjectHead {
    int64_t size = 0;
    int64_t modified_micros = 0;
  };
  Result<ObjectHead> Head(const ObjectPath& path);
  // `length` bytes at `offset` into `out`.
  Status GetRange(const ObjectPath& path, int64_t offset, int64_t length, uint8_t* out);
  // The last (up to) `length` bytes, and the object's size, in one request.
  struct Tail {
    int64_t object_size = 0;
    std::string bytes;
  };
  Result<Tail> GetTail(const ObjectPath& path, int64_t length);
  Status Put(const ObjectPath& path, std::string_view body);
  Result<std::string> CreateMultipartUpload(const ObjectPath& path);
  // Returns the part's ETag.
  Result<std::string> UploadPart(const ObjectPath& path, const std::string& upload_id,
                                 int part_number, std::string_view body);
  Status CompleteMultipartUpload(const ObjectPath& path, const std::string& upload_id,
                                 const std::vector<std::string>& etags);
  Status AbortMultipartUpload(const ObjectPath& path, const std::string& upload_id);
  // One page of keys under `prefix` (with `delimiter`: the folders directly under it too).
  Result<ListPage> List(const std::string& bucket, const std::string& prefix,
                            std::string_view delimiter, const std::string& token);
  Status DeleteObject(const ObjectPath& path);
  // Deletes up to 1,000 keys of one bucket in one request; a key the server could not delete
  // is an error naming it (a key that did not exist is not).
  Status DeleteObjects(const std::string& bucket, const std::vector<std::string>& keys);
  Status CopyObject(const ObjectPath& from, const ObjectPath& to);

  S3Counters counters() const;

 private:
  struct Call {
    Call(std::string_view op, std::string verb, const ObjectPath* object)
        : operation(op), method(std::move(verb)), path(object) {}
    Call(std::string_view op, std::string verb, std::string bucket_name)
        : operation(op), method(std::move(verb)), bucket(std::move(bucket_name)) {}
    std::string_view operation;  // for messages: "GET", "HEAD", "ListObjectsV2", …
    std::string method;
    const ObjectPath* path = nullptr;
    std::string bucket;  // when there is no path (ListObjectsV2, DeleteObjects)
    std::vector<std::pair<std::string, std::string>> query;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string_view body;
    uint8_t* out = nullptr;
    int64_t out_length = 0;
  };
  // Signs and sends `call`, retrying transient failures; a non-2xx status left after retries
  // is the error described above.
  Result<HttpResponse> Send(const Call& call);
  Status ErrorOf(const Call& call, const HttpResponse& response, const ErrorBody& error) const;

  S3Options options_;
  std::string host_;     // endpoint host[:port]
  std::string scheme_;   // "https" or "http"
  bool path_style_ = false;
  HttpClient http_;
  std::atomic<int64_t> requests_{0};
  std::atomic<int64_t> retries_{0};
  std::atomic<int64_t> downloaded_{0};
  std::atomic<int64_t> uploaded_{0};
};

}  // namespace tarn::s3
