// Object storage: "s3://bucket/key" paths through the S3 API of AWS or any S3-compatible
// server, over HTTP or HTTPS (libcurl), signed with AWS Signature Version 4 (OpenSSL).
//
// An S3 file system reads with ranged GETs (the last 64 KiB of an object come with the request
// that learns its size, so a Parquet footer costs no extra round trip; ReadRanges coalesces
// near ranges and keeps several requests in flight), writes with one PUT or, past
// `part_size`, a multipart upload, lists with pagination and deletes in batches of 1,000.
// Transient failures (HTTP 5xx, 429, SlowDown, a refused, reset or timed-out connection) are
// retried with exponential backoff; a 403, 404 or other refusal is an error naming the
// bucket, the key and S3's code and message. Objects are immutable once written, as DuckLake's
// data files are: object sizes and footers are cached by path.
//
// StorageRouter is the file system sessions use: s3:// paths go to an S3 file system whose
// options come from the scope that matches the path (CREATE SECRET's SCOPE), then from the
// s3_* settings, then from the environment; every other path goes to the local disk.
//
// Thread-safety: every FileSystem here is safe to call from many threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tarn/io.h"

namespace tarn {

struct S3Options {
  std::string region;    // "" means us-east-1
  // host[:port], or a URL whose scheme sets use_ssl; "" means s3.<region>.amazonaws.com.
  std::string endpoint;
  std::string url_style;  // "vhost" (bucket.host/key) or "path" (host/bucket/key); "" = vhost
  bool use_ssl = true;
  // A PEM file of the certificate authorities HTTPS trusts; "" means the system's.
  std::string ca_file;
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  // Retries of a transient failure, the first wait, and the growth of each next one.
  int max_retries = 6;
  int64_t retry_wait_ms = 100;
  double retry_backoff = 2.0;
  int64_t connect_timeout_ms = 5000;
  int64_t request_timeout_ms = 60000;
  // Writes larger than this go up in parts of this size (S3 wants at least 5 MiB per part).
  int64_t part_size = 16 << 20;
  // ReadRanges joins ranges closer than this into one GET, and runs up to `parallel_requests`
  // GETs at once.
  int64_t coalesce_gap = 512 << 10;
  int parallel_requests = 8;
};

// The options the AWS tools would take from this process's environment: AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION (else AWS_DEFAULT_REGION),
// AWS_ENDPOINT_URL_S3 (else AWS_ENDPOINT_URL), AWS_CA_BUNDLE; what those leave unset from the
// profile
// AWS_PROFILE (else "default") of the shared credentials file (AWS_SHARED_CREDENTIALS_FILE,
// else ~/.aws/credentials) and the config file (AWS_CONFIG_FILE, else ~/.aws/config:
// region, endpoint_url, ca_bundle, s3 addressing_style).
S3Options S3OptionsFromEnvironment();

// Requests sent and bytes moved by one S3 file system since it was made.
struct S3Counters {
  int64_t requests = 0;
  int64_t retries = 0;
  int64_t bytes_downloaded = 0;
  int64_t bytes_uploaded = 0;

  S3Counters& operator+=(const S3Counters& other) {
    requests += other.requests;
    retries += other.retries;
    bytes_downloaded += other.bytes_downloaded;
    bytes_uploaded += other.bytes_uploaded;
    return *this;
  }
};

// A file system for "s3://bucket/key" paths with these options. List and Stat treat a key
// prefix ending in '/' as a folder; CreateDirectories does nothing (S3 has no folders); Rename
// is a copy and a delete.
std::shared_ptr<FileSystem> NewS3FileSystem(S3Options options);
// The counters of a file system NewS3FileSystem made (zeros for any other).
S3Counters S3CountersOf(const FileSystem& fs);

// The file system of callers that name none: a process-wide StorageRouter over the local disk
// whose s3:// paths take the environment's options.
std::shared_ptr<FileSystem> DefaultFileSystem();

// True for "s3://…" (and DuckDB's aliases "s3a://", "s3n://"), case-insensitive scheme.
bool IsS3Path(std::string_view path);

class StorageRouter final : public FileSystem {
 public:
  explicit StorageRouter(std::shared_ptr<FileSystem> local);

  // Options for s3:// paths starting with `scope` (the longest matching scope wins; "" matches
  // every s3:// path). Replaces the scope's options; the S3 file system is remade.
  void SetS3Scope(const std::string& scope, S3Options options);
  void RemoveS3Scope(const std::string& scope);
  // The file system for `path`: the local one or the S3 one of its scope.
  std::shared_ptr<FileSystem> For(const std::string& path);
  // The sum of the counters of every S3 file system this router made.
  S3Counters Counters() const;

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override;
  Result<FileInfo> Stat(const std::string& path) override;
  Result<bool> Exists(const std::string& path) override;
  Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) override;
  Result<std::string> RealPath(const std::string& path) override;
  Status CreateDirectories(const std::string& dir) override;
  Status Delete(const std::string& path) override;
  Status DeleteFiles(const std::vector<std::string>& paths) override;
  Status Rename(const std::string& from, const std::string& to) override;

 private:
  struct Scope {
    std::string prefix;
    std::shared_ptr<FileSystem> fs;
  };
  std::shared_ptr<FileSystem> local_;
  mutable std::mutex mu_;  // guards scopes_ and retired_
  std::vector<Scope> scopes_;
  S3Counters retired_;  // counters of file systems replaced or removed since
};

}  // namespace tarn
