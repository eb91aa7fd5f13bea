// HTTP requests through libcurl, for the S3 client: one easy handle per request taken from a
// pool, so connections (and TLS sessions) are kept alive and reused between requests.
//
// Thread-safety: HttpClient::Perform may be called from many threads at once.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tarn/status.h"

namespace tarn::s3 {

struct HttpRequest {
  std::string method;  // GET, HEAD, PUT, POST, DELETE
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;
};

struct HttpResponse {
  long status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
  std::string body;  // unless the body went to a caller's buffer
  int64_t body_bytes = 0;

  // The first header of that (lower-case) name, or "".
  std::string_view Header(std::string_view name) const;
};

class HttpClient {
 public:
  // `ca_file`: the PEM bundle HTTPS trusts ("" = the system's).
  HttpClient(int64_t connect_timeout_ms, int64_t request_timeout_ms, std::string ca_file = "");
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends `request`. A 2xx body goes to `out` when given (exactly `out_length` bytes are
  // expected; more or fewer is an IOError), else to response->body; an error's body always
  // goes to response->body. A transport failure (no connection, reset, timeout) is an IOError
  // with curl's reason; any HTTP status is a success here, for the caller to judge.
  Status Perform(const HttpRequest& request, HttpResponse* response, uint8_t* out = nullptr,
                 int64_t out_length = 0);

 private:
  void* TakeHandle();
  void GiveBack(void* handle);

  int64_t connect_timeout_ms_;
  int64_t request_timeout_ms_;
  std::string ca_file_;
  std::mutex mu_;  // guards idle_
  std::vector<void*> idle_;
};

}  // namespace tarn::s3
