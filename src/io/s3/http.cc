#include "io/s3/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>

namespace tarn::s3 {
namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Where a response's body goes while curl receives it.
struct Sink {
  HttpResponse* response = nullptr;
  uint8_t* out = nullptr;        // the caller's buffer, for a 2xx body
  int64_t out_length = 0;
  int64_t written = 0;
  bool overflow = false;
  long status = 0;               // known once the headers are in
  CURL* handle = nullptr;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  Sink* sink = static_cast<Sink*>(user);
  const size_t bytes = size * count;
  if (sink->status == 0) curl_easy_getinfo(sink->handle, CURLINFO_RESPONSE_CODE, &sink->status);
  const bool to_buffer = sink->out != nullptr && sink->status >= 200 && sink->status < 300;
  if (to_buffer) {
    if (sink->written + static_cast<int64_t>(bytes) > sink->out_length) {
      sink->overflow = true;
      return 0;  // stops the transfer: more bytes than the range asked for
    }
    std::memcpy(sink->out + sink->written, data, bytes);
  } else {
    sink->response->body.append(data, bytes);
  }
  sink->written += static_cast<int64_t>(bytes);
  return bytes;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  HttpResponse* response = static_cast<HttpResponse*>(user);
  const size_t bytes = size * count;
  std::string_view line(data, bytes);
  if (line.starts_with("HTTP/")) {
    response->headers.clear();  // a new status line (after 100 Continue or a redirect)
    return bytes;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return bytes;
  std::string name(line.substr(0, colon));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  response->headers.emplace_back(std::move(name), std::string(value));
  return bytes;
}

// The request body, handed to curl piece by piece.
struct Source {
  std::string_view body;
  size_t sent = 0;
};

size_t OnRead(char* buffer, size_t size, size_t count, void* user) {
  Source* source = static_cast<Source*>(user);
  const size_t n = std::min(size * count, source->body.size() - source->sent);
  std::memcpy(buffer, source->body.data() + source->sent, n);
  source->sent += n;
  return n;
}

}  // namespace

std::string_view HttpResponse::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return {};
}

HttpClient::HttpClient(int64_t connect_timeout_ms, int64_t request_timeout_ms,
                       std::string ca_file)
    : connect_timeout_ms_(connect_timeout_ms),
      request_timeout_ms_(request_timeout_ms),
      ca_file_(std::move(ca_file)) {
  GlobalInit();
}

HttpClient::~HttpClient() {
  for (void* handle : idle_) curl_easy_cleanup(static_cast<CURL*>(handle));
}

void* HttpClient::TakeHandle() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      void* handle = idle_.back();
      idle_.pop_back();
      return handle;
    }
  }
  return curl_easy_init();
}

void HttpClient::GiveBack(void* handle) {
  std::lock_guard<std::mutex> lock(mu_);
  idle_.push_back(handle);
}

Status HttpClient::Perform(const HttpRequest& request, HttpResponse* response, uint8_t* out,
                           int64_t out_length) {
  CURL* curl = static_cast<CURL*>(TakeHandle());
  if (curl == nullptr) return Status::IOError("HTTP ", request.method, " ", request.url,
                                              ": curl_easy_init failed");
  curl_easy_reset(curl);
  *response = HttpResponse();
  Sink sink;
  sink.response = response;
  sink.out = out;
  sink.out_length = out_length;
  sink.handle = curl;
  Source source{request.body, 0};
  char error[CURL_ERROR_SIZE] = {0};

  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  // curl adds "Expect: 100-continue" to large uploads; S3-compatible servers differ in how
  // they answer it, and the round trip buys nothing here.
  headers = curl_slist_append(headers, "Expect:");

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  if (!ca_file_.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file_.c_str());
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect_timeout_ms_));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(request_timeout_ms_));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, response);
  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method == "PUT") {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, OnRead);
    curl_easy_setopt(curl, CURLOPT_READDATA, &source);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  } else if (request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }

  const CURLcode code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
  response->body_bytes = sink.written;
  Status result;
  if (sink.overflow) {
    result = Status::IOError("HTTP ", request.method, " ", request.url, ": the server sent more than the ",
                             out_length, " bytes asked for");
  } else if (code != CURLE_OK) {
    result = Status::IOError("HTTP ", request.method, " ", request.url, ": ",
                             error[0] != '\0' ? error : curl_easy_strerror(code));
  } else if (out != nullptr && response->status >= 200 && response->status < 300 &&
             sink.written != out_length) {
    result = Status::IOError("HTTP ", request.method, " ", request.url, ": the server sent ",
                             sink.written, " bytes where ", out_length, " were asked for");
  }
  if (code == CURLE_OK) {
    GiveBack(curl);  // its connection stays open for the next request
  } else {
    curl_easy_cleanup(curl);  // a broken transfer may leave its connection unusable
  }
  return result;
}

}  // namespace tarn::s3
