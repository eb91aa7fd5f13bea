#include "support/s3_test_util.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "io/s3/http.h"
#include "support/test_util.h"

namespace tarn::testing {

Result<std::string> TestS3Endpoint() {
  const char* endpoint = std::getenv("TARN_TEST_S3");
  if (endpoint == nullptr || *endpoint == '\0') {
    return Status::InvalidArgument(
        "TARN_TEST_S3 is not set: run the tests through scripts/test.sh, or start a server with "
        "scripts/s3-server.sh start DIR and export TARN_TEST_S3=<the endpoint it prints>");
  }
  return std::string(endpoint);
}

Result<std::unique_ptr<PrivateS3Server>> PrivateS3Server::Start(bool tls) {
  std::unique_ptr<PrivateS3Server> server(new PrivateS3Server());
  char folder[] = "/tmp/tarn-s3-XXXXXX";
  if (::mkdtemp(folder) == nullptr) return Status::IOError("mkdtemp failed");
  server->dir_ = folder;
  const std::string command =
      StrCat(SourceDir(), "/scripts/s3-server.sh start ", server->dir_, "/server",
             tls ? " --tls" : "");
  FILE* out = ::popen(command.c_str(), "r");
  if (out == nullptr) return Status::IOError("cannot run ", command);
  char line[256] = {0};
  const bool got = std::fgets(line, sizeof(line), out) != nullptr;
  const int status = ::pclose(out);
  if (!got || status != 0) return Status::IOError(command, " failed (status ", status, ")");
  server->endpoint_ = line;
  while (!server->endpoint_.empty() && std::isspace(static_cast<unsigned char>(server->endpoint_.back()))) {
    server->endpoint_.pop_back();
  }
  return server;
}

PrivateS3Server::~PrivateS3Server() {
  const std::string command =
      StrCat(SourceDir(), "/scripts/s3-server.sh stop ", dir_, "/server; rm -rf ", dir_);
  const int status = std::system(command.c_str());
  (void)status;  // a server that is gone already is fine
}

Result<S3Options> TestS3Options(const std::string& given) {
  std::string endpoint = given;
  if (endpoint.empty()) {
    TARN_ASSIGN_OR_RETURN(endpoint, TestS3Endpoint());
  }
  S3Options options;
  options.endpoint = endpoint;
  options.use_ssl = false;
  options.url_style = "path";
  options.region = "us-east-1";
  options.access_key_id = "S3RVER";
  options.secret_access_key = "S3RVER";
  options.retry_wait_ms = 20;
  options.request_timeout_ms = 20000;
  return options;
}

std::string UniqueS3Prefix(std::string_view name) {
  static std::atomic<int64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return StrCat("s3://tarn-test/", name, "-", ::getpid(), "-", now % 1000000000, "-",
                counter++, "/");
}

Result<std::string> TestS3SecretSql(const std::string& given) {
  std::string endpoint = given;
  if (endpoint.empty()) {
    TARN_ASSIGN_OR_RETURN(endpoint, TestS3Endpoint());
  }
  return StrCat("CREATE SECRET tarn_test (TYPE s3, KEY_ID 'S3RVER', SECRET 'S3RVER', ENDPOINT '",
                endpoint, "', URL_STYLE 'path', USE_SSL false, REGION 'us-east-1')");
}

Result<std::string> S3ServerControl(const std::string& endpoint, std::string_view request,
                                    bool post) {
  s3::HttpClient http(5000, 30000);
  s3::HttpRequest call;
  call.method = post ? "POST" : "GET";
  call.url = StrCat("http://", endpoint, "/__tarn/", request);
  s3::HttpResponse response;
  TARN_RETURN_NOT_OK(http.Perform(call, &response));
  if (response.status != 200) {
    return Status::IOError("S3 test server: ", call.url, " answered ", response.status);
  }
  return response.body;
}

Result<int64_t> S3ServerCounter(const std::string& endpoint, std::string_view name) {
  TARN_ASSIGN_OR_RETURN(std::string json, S3ServerControl(endpoint, "stats", /*post=*/false));
  const std::string key = StrCat("\"", name, "\":");
  const size_t at = json.find(key);
  if (at == std::string::npos) return Status::NotFound("no counter '", name, "' in ", json);
  return static_cast<int64_t>(std::strtoll(json.c_str() + at + key.size(), nullptr, 10));
}

}  // namespace tarn::testing
