// The S3-compatible server tests run against. scripts/test.sh starts one
// (scripts/s3-server.sh: s3rver behind a proxy that checks SigV4 signatures, with the bucket
// `tarn-test`) and passes its endpoint "127.0.0.1:PORT" in TARN_TEST_S3. A test that needs it
// fails when the variable is unset or the server does not answer: it never skips.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "tarn/s3.h"
#include "tarn/status.h"

namespace tarn::testing {

// TARN_TEST_S3; an InvalidArgument naming the variable when unset.
Result<std::string> TestS3Endpoint();

// A server of the test's own (scripts/s3-server.sh in a temporary folder), for tests that
// inject faults, stop the server or read its counters: the shared one serves tests running
// at the same time. Stopped when destroyed.
class PrivateS3Server {
 public:
  // `tls`: HTTPS, with a certificate of its own authority (ca_file()).
  static Result<std::unique_ptr<PrivateS3Server>> Start(bool tls = false);
  ~PrivateS3Server();
  const std::string& endpoint() const { return endpoint_; }
  std::string ca_file() const { return dir_ + "/server/tls/cert.pem"; }

 private:
  PrivateS3Server() = default;
  std::string dir_;
  std::string endpoint_;
};

// Options for the test server (`endpoint`, else TARN_TEST_S3): its key pair, path-style
// addressing, plain HTTP, and short retry waits (tests that exercise retries set their own).
Result<S3Options> TestS3Options(const std::string& endpoint = "");

// A new, unused folder of the test bucket: "s3://tarn-test/<name>-<pid>-<time>-<n>/".
std::string UniqueS3Prefix(std::string_view name);

// CREATE SECRET for the test server (`endpoint`, else TARN_TEST_S3), for SQL sessions.
Result<std::string> TestS3SecretSql(const std::string& endpoint = "");

// A control request to a test server (tools/s3server/serve.mjs): "fail?count=3&status=503",
// "reset?count=2", "outage?ms=1500", "stats/reset"; returns the answer's body ("stats": its
// JSON counters).
Result<std::string> S3ServerControl(const std::string& endpoint, std::string_view request,
                                    bool post = true);

// One number of a server's JSON counters ("requests", "bytes_in", "bytes_out", "rejected").
Result<int64_t> S3ServerCounter(const std::string& endpoint, std::string_view name);

}  // namespace tarn::testing
