#include "io/s3/s3_client.h"

#include <tinyxml2.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <thread>

#include "io/s3/sigv4.h"

namespace tarn::s3 {
namespace {

constexpr std::string_view kEmptyHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

// The text of the first <name> element anywhere under `node`, or "".
std::string ChildText(const tinyxml2::XMLNode* node, const char* name) {
  for (const tinyxml2::XMLElement* child = node->FirstChildElement(); child != nullptr;
       child = child->NextSiblingElement()) {
    if (std::string_view(child->Name()) == name) {
      return child->GetText() != nullptr ? child->GetText() : "";
    }
  }
  return "";
}

// "2009-10-12T17:50:30.000Z" → microseconds since the epoch; 0 when it does not parse.
int64_t ParseIsoTime(const std::string& text) {
  std::tm parts{};
  int millis = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &parts.tm_year, &parts.tm_mon,
                  &parts.tm_mday, &parts.tm_hour, &parts.tm_min, &parts.tm_sec, &millis) < 6) {
    return 0;
  }
  parts.tm_year -= 1900;
  parts.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&parts)) * 1000000 + int64_t{millis} * 1000;
}

bool RetryableStatus(long status, std::string_view code) {
  return status == 500 || status == 502 || status == 503 || status == 504 || status == 429 ||
         code == "SlowDown" || code == "RequestTimeout" || code == "InternalError";
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

ErrorBody ParseError(const std::string& body) {
  ErrorBody out;
  tinyxml2::XMLDocument document;
  if (body.empty() || document.Parse(body.data(), body.size()) != tinyxml2::XML_SUCCESS) return out;
  const tinyxml2::XMLElement* root = document.RootElement();
  if (root == nullptr) return out;
  out.code = ChildText(root, "Code");
  out.message = ChildText(root, "Message");
  return out;
}

}  // namespace

Result<ObjectPath> ParseS3Path(std::string_view path) {
  size_t start = 0;
  for (std::string_view scheme : {"s3://", "s3a://", "s3n://"}) {
    if (StartsWithNoCase(path, scheme)) start = scheme.size();
  }
  if (start == 0) return Status::InvalidArgument("not an s3:// path: '", path, "'");
  std::string_view rest = path.substr(start);
  const size_t slash = rest.find('/');
  ObjectPath out;
  out.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
  if (out.bucket.empty()) return Status::InvalidArgument("s3 path '", path, "' names no bucket");
  return out;
}

S3Client::S3Client(S3Options options)
    : options_(std::move(options)),
      http_(options_.connect_timeout_ms, options_.request_timeout_ms, options_.ca_file) {
  if (options_.region.empty()) options_.region = "us-east-1";
  std::string endpoint = options_.endpoint;
  scheme_ = options_.use_ssl ? "https" : "http";
  if (endpoint.starts_with("http://")) {
    scheme_ = "http";
    endpoint = endpoint.substr(7);
  } else if (endpoint.starts_with("https://")) {
    scheme_ = "https";
    endpoint = endpoint.substr(8);
  }
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  host_ = endpoint.empty() ? "s3." + options_.region + ".amazonaws.com" : endpoint;
  path_style_ = options_.url_style == "path";
}

S3Counters S3Client::counters() const {
  S3Counters out;
  out.requests = requests_.load();
  out.retries = retries_.load();
  out.bytes_downloaded = downloaded_.load();
  out.bytes_uploaded = uploaded_.load();
  return out;
}

Status S3Client::ErrorOf(const Call& call, const HttpResponse& response,
                         const ErrorBody& error) const {
  const std::string where = call.path != nullptr ? call.path->ToString() : "s3://" + call.bucket + "/";
  std::string detail = error.code.empty() ? std::string() : " " + error.code;
  if (!error.message.empty()) detail += ": " + error.message;
  if (response.status == 404) {
    return Status::NotFound("S3 ", call.operation, " '", where, "': HTTP 404", detail.empty() ? " (no such key)" : detail);
  }
  if (response.status == 403 && error.code.empty()) detail = " (access denied: check the credentials and the region)";
  return Status::IOError("S3 ", call.operation, " '", where, "': HTTP ", response.status, detail);
}

Result<HttpResponse> S3Client::Send(const Call& call) {
  const std::string& bucket = call.path != nullptr ? call.path->bucket : call.bucket;
  const std::string key = call.path != nullptr ? call.path->key : std::string();
  const std::string encoded_key = UriEncode(key, /*keep_slash=*/true);
  const std::string host = path_style_ ? host_ : bucket + "." + host_;
  const std::string path = path_style_ ? "/" + bucket + "/" + encoded_key : "/" + encoded_key;
  const std::string query = CanonicalQuery(call.query);
  const std::string url = scheme_ + "://" + host + path + (query.empty() ? "" : "?" + query);
  const std::string payload_hash =
      call.body.empty() ? std::string(kEmptyHash) : Sha256Hex(call.body);

  std::mt19937_64 jitter(std::random_device{}());
  Status last;
  HttpResponse response;
  int retried = 0;
  for (int attempt = 0;; ++attempt) {
    HttpRequest request;
    request.method = call.method;
    request.url = url;
    request.body = call.body;
    request.headers = call.headers;
    const std::string amz_date = AmzDate(std::chrono::system_clock::now());
    request.headers.emplace_back("Host", host);
    request.headers.emplace_back("x-amz-date", amz_date);
    request.headers.emplace_back("x-amz-content-sha256", payload_hash);
    if (!options_.session_token.empty()) {
      request.headers.emplace_back("x-amz-security-token", options_.session_token);
    }
    if (!options_.access_key_id.empty()) {
      RequestToSign to_sign;
      to_sign.method = request.method;
      to_sign.path = path;
      to_sign.query = call.query;
      to_sign.headers = request.headers;
      to_sign.payload_hash = payload_hash;
      request.headers.emplace_back(
          "Authorization",
          SignV4(to_sign, {options_.access_key_id, options_.secret_access_key}, options_.region,
                 amz_date));
    }
    requests_.fetch_add(1, std::memory_order_relaxed);
    uploaded_.fetch_add(static_cast<int64_t>(call.body.size()), std::memory_order_relaxed);
    Status sent = http_.Perform(request, &response, call.out, call.out_length);
    downloaded_.fetch_add(response.body_bytes, std::memory_order_relaxed);
    bool retry = false;
    if (!sent.ok()) {
      last = sent;
      retry = true;
    } else if (response.status >= 200 && response.status < 300) {
      return response;
    } else {
      const ErrorBody error = ParseError(response.body);
      last = ErrorOf(call, response, error);
      retry = RetryableStatus(response.status, error.code);
    }
    if (!retry || attempt >= options_.max_retries) break;
    ++retried;
    retries_.fetch_add(1, std::memory_order_relaxed);
    double wait = static_cast<double>(options_.retry_wait_ms);
    for (int i = 0; i < attempt; ++i) wait *= options_.retry_backoff;
    wait *= 0.5 + std::uniform_real_distribution<double>(0, 1)(jitter);  // spread retries out
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(wait * 1000)));
  }
  if (retried > 0) {
    return Status(last.code(), last.message() + " (after " + std::to_string(retried) +
                                   (retried == 1 ? " retry)" : " retries)"));
  }
  return last;
}

Result<S3Client::ObjectHead> S3Client::Head(const ObjectPath& path) {
  Call call("HEAD", "HEAD", &path);
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  const std::string_view length = response.Header("content-length");
  char* end = nullptr;
  const std::string text(length);
  const long long size = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || size < 0) {
    return Status::IOError("S3 HEAD '", path.ToString(), "': no Content-Length in the answer");
  }
  ObjectHead head;
  head.size = static_cast<int64_t>(size);
  // "Last-Modified: Wed, 12 Oct 2009 17:50:00 GMT"
  const std::string modified(response.Header("last-modified"));
  std::tm parts{};
  if (!modified.empty() && strptime(modified.c_str(), "%a, %d %b %Y %H:%M:%S", &parts) != nullptr) {
    head.modified_micros = static_cast<int64_t>(timegm(&parts)) * 1000000;
  }
  return head;
}

Status S3Client::GetRange(const ObjectPath& path, int64_t offset, int64_t length, uint8_t* out) {
  if (length == 0) return Status::OK();
  Call call("GET", "GET", &path);
  call.headers.emplace_back("Range", "bytes=" + std::to_string(offset) + "-" +
                                         std::to_string(offset + length - 1));
  call.out = out;
  call.out_length = length;
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  (void)response;
  return Status::OK();
}

Result<S3Client::Tail> S3Client::GetTail(const ObjectPath& path, int64_t length) {
  Call call("GET", "GET", &path);
  call.headers.emplace_back("Range", "bytes=-" + std::to_string(length));
  Result<HttpResponse> got = Send(call);
  if (!got.ok()) {
    // An empty object has no last bytes: S3 answers 416 to any suffix range of it.
    if (got.status().message().find("HTTP 416") != std::string::npos) {
      TARN_ASSIGN_OR_RETURN(ObjectHead head, Head(path));
      return Tail{head.size, std::string()};
    }
    return got.status();
  }
  HttpResponse& response = *got;
  Tail tail;
  tail.bytes = std::move(response.body);
  if (response.status == 206) {
    // "Content-Range: bytes 100-199/200"
    const std::string range(response.Header("content-range"));
    long long first = 0;
    long long last = 0;
    long long size = 0;
    if (std::sscanf(range.c_str(), "bytes %lld-%lld/%lld", &first, &last, &size) != 3 ||
        first < 0 || last < first || size <= last ||
        last - first + 1 != static_cast<long long>(tail.bytes.size())) {
      return Status::IOError("S3 GET '", path.ToString(), "': Content-Range '", range,
                             "' does not match the ", tail.bytes.size(), " bytes sent");
    }
    tail.object_size = size;
    if (last + 1 != size) {
      // A server without suffix ranges read "bytes=-N" as "bytes=0-N": now that the size is
      // known, ask for the last bytes by their offsets.
      const int64_t start = std::max<int64_t>(0, size - length);
      tail.bytes.assign(static_cast<size_t>(size - start), '\0');
      TARN_RETURN_NOT_OK(GetRange(path, start, size - start,
                                  reinterpret_cast<uint8_t*>(tail.bytes.data())));
    }
  } else {
    // A server that ignores ranges sends the whole object.
    tail.object_size = static_cast<int64_t>(tail.bytes.size());
    if (static_cast<int64_t>(tail.bytes.size()) > length) {
      tail.bytes.erase(0, tail.bytes.size() - static_cast<size_t>(length));
    }
  }
  return tail;
}

Status S3Client::Put(const ObjectPath& path, std::string_view body) {
  Call call("PUT", "PUT", &path);
  call.body = body;
  call.headers.emplace_back("Content-Type", "application/octet-stream");
  return Send(call).status();
}

Result<std::string> S3Client::CreateMultipartUpload(const ObjectPath& path) {
  Call call("CreateMultipartUpload", "POST", &path);
  call.query.emplace_back("uploads", "");
  call.headers.emplace_back("Content-Type", "application/octet-stream");
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  tinyxml2::XMLDocument document;
  std::string id;
  if (document.Parse(response.body.data(), response.body.size()) == tinyxml2::XML_SUCCESS &&
      document.RootElement() != nullptr) {
    id = ChildText(document.RootElement(), "UploadId");
  }
  if (id.empty()) {
    return Status::IOError("S3 CreateMultipartUpload '", path.ToString(),
                           "': the answer holds no UploadId");
  }
  return id;
}

Result<std::string> S3Client::UploadPart(const ObjectPath& path, const std::string& upload_id,
                                         int part_number, std::string_view body) {
  Call call("UploadPart", "PUT", &path);
  call.query = {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id}};
  call.body = body;
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  std::string etag(response.Header("etag"));
  if (etag.empty()) {
    return Status::IOError("S3 UploadPart '", path.ToString(), "' part ", part_number,
                           ": the answer holds no ETag");
  }
  return etag;
}

Status S3Client::CompleteMultipartUpload(const ObjectPath& path, const std::string& upload_id,
                                         const std::vector<std::string>& etags) {
  std::string body = "<CompleteMultipartUpload>";
  for (size_t i = 0; i < etags.size(); ++i) {
    body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" +
            XmlEscape(etags[i]) + "</ETag></Part>";
  }
  body += "</CompleteMultipartUpload>";
  Call call("CompleteMultipartUpload", "POST", &path);
  call.query.emplace_back("uploadId", upload_id);
  call.body = body;
  call.headers.emplace_back("Content-Type", "application/xml");
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  // S3 may answer 200 and put an error in the body when the completion fails late.
  const ErrorBody error = ParseError(response.body);
  if (!error.code.empty() && response.body.find("<Error>") != std::string::npos) {
    return Status::IOError("S3 CompleteMultipartUpload '", path.ToString(), "': ", error.code,
                           ": ", error.message);
  }
  return Status::OK();
}

Status S3Client::AbortMultipartUpload(const ObjectPath& path, const std::string& upload_id) {
  Call call("AbortMultipartUpload", "DELETE", &path);
  call.query.emplace_back("uploadId", upload_id);
  return Send(call).status();
}

Result<ListPage> S3Client::List(const std::string& bucket, const std::string& prefix,
                                std::string_view delimiter, const std::string& token) {
  Call call("ListObjectsV2", "GET", bucket);
  call.query = {{"list-type", "2"}, {"prefix", prefix}};
  if (!delimiter.empty()) call.query.emplace_back("delimiter", std::string(delimiter));
  if (!token.empty()) call.query.emplace_back("continuation-token", token);
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  tinyxml2::XMLDocument document;
  if (document.Parse(response.body.data(), response.body.size()) != tinyxml2::XML_SUCCESS ||
      document.RootElement() == nullptr) {
    return Status::IOError("S3 ListObjectsV2 's3://", bucket, "/", prefix,
                           "': the answer is not XML");
  }
  const tinyxml2::XMLElement* root = document.RootElement();
  ListPage page;
  for (const tinyxml2::XMLElement* child = root->FirstChildElement(); child != nullptr;
       child = child->NextSiblingElement()) {
    const std::string_view name = child->Name();
    if (name == "Contents") {
      ObjectEntry entry;
      entry.key = ChildText(child, "Key");
      entry.size = std::strtoll(ChildText(child, "Size").c_str(), nullptr, 10);
      entry.modified_micros = ParseIsoTime(ChildText(child, "LastModified"));
      page.objects.push_back(std::move(entry));
    } else if (name == "CommonPrefixes") {
      page.prefixes.push_back(ChildText(child, "Prefix"));
    }
  }
  if (ChildText(root, "IsTruncated") == "true") {
    page.next_token = ChildText(root, "NextContinuationToken");
    if (page.next_token.empty()) {
      return Status::IOError("S3 ListObjectsV2 's3://", bucket, "/", prefix,
                             "': a truncated page without NextContinuationToken");
    }
  }
  return page;
}

Status S3Client::DeleteObject(const ObjectPath& path) {
  Call call("DELETE", "DELETE", &path);
  Result<HttpResponse> response = Send(call);
  if (!response.ok() && response.status().IsNotFound()) return Status::OK();  // already gone
  return response.status();
}

Status S3Client::DeleteObjects(const std::string& bucket, const std::vector<std::string>& keys) {
  if (keys.empty()) return Status::OK();
  std::string body = "<Delete><Quiet>true</Quiet>";
  for (const std::string& key : keys) body += "<Object><Key>" + XmlEscape(key) + "</Key></Object>";
  body += "</Delete>";
  Call call("DeleteObjects", "POST", bucket);
  call.query.emplace_back("delete", "");
  call.body = body;
  call.headers.emplace_back("Content-Type", "application/xml");
  call.headers.emplace_back("Content-MD5", Md5Base64(body));
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  tinyxml2::XMLDocument document;
  if (document.Parse(response.body.data(), response.body.size()) != tinyxml2::XML_SUCCESS ||
      document.RootElement() == nullptr) {
    return Status::OK();  // an empty quiet answer: everything was deleted
  }
  for (const tinyxml2::XMLElement* child = document.RootElement()->FirstChildElement();
       child != nullptr; child = child->NextSiblingElement()) {
    if (std::string_view(child->Name()) != "Error") continue;
    const std::string code = ChildText(child, "Code");
    if (code == "NoSuchKey") continue;
    return Status::IOError("S3 DeleteObjects 's3://", bucket, "/", ChildText(child, "Key"),
                           "': ", code, ": ", ChildText(child, "Message"));
  }
  return Status::OK();
}

Status S3Client::CopyObject(const ObjectPath& from, const ObjectPath& to) {
  Call call("CopyObject", "PUT", &to);
  call.headers.emplace_back("x-amz-copy-source", "/" + from.bucket + "/" + UriEncode(from.key, true));
  TARN_ASSIGN_OR_RETURN(HttpResponse response, Send(call));
  const ErrorBody error = ParseError(response.body);
  if (response.body.find("<Error>") != std::string::npos) {
    return Status::IOError("S3 CopyObject '", from.ToString(), "' to '", to.ToString(), "': ",
                           error.code, ": ", error.message);
  }
  return Status::OK();
}

}  // namespace tarn::s3
