// AWS Signature Version 4 for S3 requests: the canonical request, the string to sign and the
// Authorization header, with OpenSSL's SHA-256 and HMAC.
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tarn::s3 {

// Lower-case hex SHA-256 of `bytes` (the payload hash S3 expects in x-amz-content-sha256).
std::string Sha256Hex(std::string_view bytes);
// Base64 of the MD5 digest of `bytes` (the Content-MD5 header batch deletes must carry).
std::string Md5Base64(std::string_view bytes);

// RFC 3986 percent-encoding as SigV4 wants it: every byte but A-Z a-z 0-9 - _ . ~ is encoded
// (upper-case hex), and '/' too unless `keep_slash` (object keys in paths keep theirs).
std::string UriEncode(std::string_view text, bool keep_slash);

// "YYYYMMDDTHHMMSSZ" in UTC.
std::string AmzDate(std::chrono::system_clock::time_point when);

struct SigningCredentials {
  std::string access_key_id;
  std::string secret_access_key;
};

// One request as it is signed. `path` is the request's path already encoded (UriEncode with
// keep_slash); `query` holds the raw (not yet encoded) parameters; `headers` every header to
// sign, with any capitalisation (host, x-amz-date and x-amz-content-sha256 among them).
struct RequestToSign {
  std::string_view method;
  std::string_view path;
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view payload_hash;
};

// The canonical request (exposed for tests and for messages when a server disagrees).
std::string CanonicalRequest(const RequestToSign& request);
// The value of the Authorization header for `request` at `amz_date` (AmzDate's form).
std::string SignV4(const RequestToSign& request, const SigningCredentials& credentials,
                   std::string_view region, std::string_view amz_date,
                   std::string_view service = "s3");
// The canonical query string of `query` (sorted, encoded): also what goes on the URL.
std::string CanonicalQuery(std::vector<std::pair<std::string, std::string>> query);

}  // namespace tarn::s3
