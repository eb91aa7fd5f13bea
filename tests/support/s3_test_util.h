// The S3-compatible server tests run against. scripts/test.sh starts one
// (scripts/s3-server.sh: s3rver behind a proxy that checks SigV4 signatures, with the bucket
// `tarn-test`) and passes its endpoint "127.0.0.1:PORT" in TARN_TEST_S3. A test that needs it
// fails when the variable is unset or the server does not answer: it never skips.
#pragma once

#include <string>
#include <string_view>

#include "tarn/s3.h"
#include "tarn/status.h"

namespace tarn::testing {

// TARN_TEST_S3; an InvalidArgument naming the variable when unset.
Result<std::string> TestS3Endpoint();

// Options for the test server: its key pair, path-style addressing, plain HTTP, and short
// retry waits (tests that exercise retries set their own).
Result<S3Options> TestS3Options();

// A new, unused folder of the test bucket: "s3://tarn-test/<name>-<pid>-<time>-<n>/".
std::string UniqueS3Prefix(std::string_view name);

// CREATE SECRET for the test server, for SQL sessions.
Result<std::string> TestS3SecretSql();

// A control request to the test server (tools/s3server/serve.mjs): "fail?count=3&status=503",
// "reset?count=2", "outage?ms=1500", "stats/reset"; returns the answer's body ("stats": its
// JSON counters).
Result<std::string> S3ServerControl(std::string_view request, bool post = true);

// One number of the server's JSON counters ("requests", "bytes_in", "bytes_out", "rejected").
Result<int64_t> S3ServerCounter(std::string_view name);

}  // namespace tarn::testing
