// The S3 file system against the test server (TARN_TEST_S3: s3rver behind a proxy that checks
// every SigV4 signature and payload hash), and the signer against the examples of the
// Signature Version 4 specification.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

#include "io/s3/s3_client.h"
#include "io/s3/sigv4.h"
#include "support/s3_test_util.h"
#include "support/test_util.h"
#include "tarn/s3.h"

namespace tarn {
namespace {

using testing::S3ServerControl;
using testing::S3ServerCounter;

std::string RandomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(rng());
  return out;
}

std::shared_ptr<FileSystem> TestFileSystem(int64_t part_size = 16 << 20) {
  auto options = testing::TestS3Options();
  EXPECT_TRUE(options.ok()) << options.status().ToString();
  if (!options.ok()) return nullptr;
  options->part_size = part_size;
  return NewS3FileSystem(*options);
}

#define ASSERT_OK(expr)                                      \
  do {                                                       \
    const auto& _status = (expr);                            \
    ASSERT_TRUE(_status.ok()) << _status.status().ToString(); \
  } while (0)

// ---- the signer: the specification's worked examples (AWS access key "AKIAIOSFODNN7EXAMPLE")

const s3::SigningCredentials kExampleKeys{"AKIAIOSFODNN7EXAMPLE",
                                          "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"};
constexpr const char* kEmptyHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

TEST(SigV4Test, GetObjectWithRangeMatchesTheSpecificationsExample) {
  s3::RequestToSign request;
  request.method = "GET";
  request.path = "/test.txt";
  request.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"Range", "bytes=0-9"},
                     {"x-amz-content-sha256", kEmptyHash},
                     {"x-amz-date", "20130524T000000Z"}};
  request.payload_hash = kEmptyHash;
  EXPECT_EQ(s3::CanonicalRequest(request),
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
            "x-amz-content-sha256:" + std::string(kEmptyHash) +
                "\nx-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n" +
                kEmptyHash);
  EXPECT_EQ(s3::SignV4(request, kExampleKeys, "us-east-1", "20130524T000000Z"),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
            "aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, ListObjectsQueryIsSortedAndEncodedAsTheSpecificationsExample) {
  s3::RequestToSign request;
  request.method = "GET";
  request.path = "/";
  request.query = {{"prefix", "J"}, {"max-keys", "2"}};
  request.headers = {{"host", "examplebucket.s3.amazonaws.com"},
                     {"x-amz-content-sha256", kEmptyHash},
                     {"x-amz-date", "20130524T000000Z"}};
  request.payload_hash = kEmptyHash;
  const std::string authorization =
      s3::SignV4(request, kExampleKeys, "us-east-1", "20130524T000000Z");
  EXPECT_NE(s3::CanonicalRequest(request).find("\nmax-keys=2&prefix=J\n"), std::string::npos);
  EXPECT_TRUE(authorization.ends_with(
      "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"))
      << authorization;
}

TEST(SigV4Test, UriEncodingKeepsOnlyUnreservedBytes) {
  EXPECT_EQ(s3::UriEncode("a b/c~d_e-f.g", true), "a%20b/c~d_e-f.g");
  EXPECT_EQ(s3::UriEncode("a b/c", false), "a%20b%2Fc");
  EXPECT_EQ(s3::UriEncode("é+=", false), "%C3%A9%2B%3D");
  EXPECT_EQ(s3::CanonicalQuery({{"uploads", ""}, {"b", "x y"}, {"a", "1"}}),
            "a=1&b=x%20y&uploads=");
}

TEST(S3PathTest, ParsesBucketAndKeyAndRefusesOthers) {
  auto path = s3::ParseS3Path("s3://bucket/a/b.parquet");
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(path->bucket, "bucket");
  EXPECT_EQ(path->key, "a/b.parquet");
  EXPECT_EQ(s3::ParseS3Path("S3A://b/k")->bucket, "b");
  EXPECT_EQ(s3::ParseS3Path("s3://b")->key, "");
  EXPECT_FALSE(s3::ParseS3Path("s3:///key").ok());
  EXPECT_FALSE(s3::ParseS3Path("/tmp/x").ok());
  EXPECT_TRUE(IsS3Path("s3n://b/k"));
  EXPECT_FALSE(IsS3Path("http://b/k"));
}

// ---- against the server ------------------------------------------------------------------

TEST(S3FileSystemTest, WritesReadsStatsListsAndDeletes) {
  auto fs = TestFileSystem();
  ASSERT_NE(fs, nullptr);
  const std::string dir = testing::UniqueS3Prefix("basic");
  const std::string data = RandomBytes(200000, 1);
  ASSERT_TRUE(fs->WriteFile(dir + "a/one.bin", data).ok());
  ASSERT_TRUE(fs->WriteFile(dir + "a/two.bin", "two").ok());
  ASSERT_TRUE(fs->WriteFile(dir + "b/c/three.bin", "").ok());  // an empty object
  // (s3rver finds a common prefix only through an object directly under it.)
  ASSERT_TRUE(fs->WriteFile(dir + "b/four.bin", "4").ok());

  auto read = fs->ReadFile(dir + "a/one.bin");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, data);
  EXPECT_EQ(*fs->ReadFile(dir + "b/c/three.bin"), "");

  auto file = fs->OpenForRead(dir + "a/one.bin");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->size(), 200000);
  EXPECT_EQ(*(*file)->Read(10, 100), data.substr(10, 100));          // before the tail
  EXPECT_EQ(*(*file)->Read(199990, 10), data.substr(199990, 10));    // inside it
  auto past = (*file)->Read(199990, 11);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("a/one.bin"), std::string::npos);

  auto stat = fs->Stat(dir + "a/two.bin");
  ASSERT_TRUE(stat.ok());
  EXPECT_EQ(stat->size, 3);
  EXPECT_FALSE(stat->is_directory);
  EXPECT_GT(stat->modified_micros, 0);
  auto folder = fs->Stat(dir + "b");
  ASSERT_TRUE(folder.ok());
  EXPECT_TRUE(folder->is_directory);
  EXPECT_TRUE(*fs->Exists(dir + "a"));
  EXPECT_FALSE(*fs->Exists(dir + "nothing"));
  EXPECT_TRUE(fs->Stat(dir + "nothing").status().IsNotFound());

  auto top = fs->List(dir, false);
  ASSERT_TRUE(top.ok()) << top.status().ToString();
  ASSERT_EQ(top->size(), 2u);
  EXPECT_EQ((*top)[0].path, dir + "a");
  EXPECT_TRUE((*top)[0].is_directory);
  EXPECT_EQ((*top)[1].path, dir + "b");
  auto all = fs->List(dir, true);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 4u);
  EXPECT_EQ((*all)[0].path, dir + "a/one.bin");
  EXPECT_EQ((*all)[0].size, 200000);
  EXPECT_EQ((*all)[2].path, dir + "b/c/three.bin");
  EXPECT_EQ((*all)[3].path, dir + "b/four.bin");

  ASSERT_TRUE(fs->Rename(dir + "a/two.bin", dir + "a/renamed.bin").ok());
  EXPECT_EQ(*fs->ReadFile(dir + "a/renamed.bin"), "two");
  EXPECT_FALSE(*fs->Exists(dir + "a/two.bin"));

  ASSERT_TRUE(fs->Delete(dir + "a/one.bin").ok());
  EXPECT_TRUE(fs->OpenForRead(dir + "a/one.bin").status().IsNotFound());
  ASSERT_TRUE(fs->Delete(dir + "a/one.bin").ok());  // already gone: nothing to do
  ASSERT_TRUE(fs->DeleteFiles({dir + "a/renamed.bin", dir + "b/c/three.bin", dir + "b/four.bin",
                               dir + "none"}).ok());
  EXPECT_TRUE(fs->List(dir, true)->empty());
}

TEST(S3FileSystemTest, LargeWritesGoUpInPartsAndAbandonedOnesLeaveNothing) {
  auto fs = TestFileSystem(/*part_size=*/5 << 20);
  ASSERT_NE(fs, nullptr);
  const std::string dir = testing::UniqueS3Prefix("multipart");
  const std::string data = RandomBytes((11 << 20) + 12345, 2);
  const S3Counters before = S3CountersOf(*fs);
  {
    auto out = fs->OpenForWrite(dir + "big.bin");
    ASSERT_TRUE(out.ok());
    for (size_t at = 0; at < data.size(); at += 1000003) {
      ASSERT_TRUE((*out)->Append(std::string_view(data).substr(at, 1000003)).ok());
    }
    EXPECT_EQ((*out)->bytes_written(), static_cast<int64_t>(data.size()));
    ASSERT_TRUE((*out)->Close().ok());
  }
  // Create, three parts, complete.
  EXPECT_EQ(S3CountersOf(*fs).requests - before.requests, 5);
  auto back = fs->ReadFile(dir + "big.bin");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == data);
  {
    auto out = fs->OpenForWrite(dir + "dropped.bin");
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Append(data).ok());  // two parts already sent
  }  // dropped without Close: the upload is aborted
  EXPECT_FALSE(*fs->Exists(dir + "dropped.bin"));
  {
    auto out = fs->OpenForWrite(dir + "small-dropped.bin");
    ASSERT_TRUE((*out)->Append("x").ok());
  }
  EXPECT_FALSE(*fs->Exists(dir + "small-dropped.bin"));
}

TEST(S3FileSystemTest, ReadRangesJoinsNearRangesAndReadsTheRestInParallel) {
  auto options = testing::TestS3Options();
  ASSERT_TRUE(options.ok());
  options->coalesce_gap = 1000;
  auto fs = NewS3FileSystem(*options);
  const std::string path = testing::UniqueS3Prefix("ranges") + "data.bin";
  const std::string data = RandomBytes(3 << 20, 3);
  ASSERT_TRUE(fs->WriteFile(path, data).ok());
  auto file = fs->OpenForRead(path);
  ASSERT_TRUE(file.ok());
  // Two near ranges (one GET), three far ones (a GET each), one in the cached tail (none).
  const std::vector<std::pair<int64_t, int64_t>> spans = {
      {100, 50}, {600, 300}, {1 << 20, 4096}, {2 << 20, 10}, {(2 << 20) + 500000, 77},
      {(3 << 20) - 100, 100}};
  std::vector<std::string> buffers(spans.size());
  std::vector<ReadRange> ranges;
  for (size_t i = 0; i < spans.size(); ++i) {
    buffers[i].resize(static_cast<size_t>(spans[i].second));
    ranges.push_back(ReadRange{spans[i].first, spans[i].second,
                               reinterpret_cast<uint8_t*>(buffers[i].data())});
  }
  std::reverse(ranges.begin(), ranges.end());  // any order
  const S3Counters before = S3CountersOf(*fs);
  ASSERT_TRUE((*file)->ReadRanges(ranges).ok());
  EXPECT_EQ(S3CountersOf(*fs).requests - before.requests, 4);
  for (size_t i = 0; i < spans.size(); ++i) {
    EXPECT_EQ(buffers[i], data.substr(static_cast<size_t>(spans[i].first),
                                      static_cast<size_t>(spans[i].second)))
        << "range " << i;
  }
  // Reopening a file costs no request: its size and tail are cached.
  const int64_t requests = S3CountersOf(*fs).requests;
  auto again = fs->OpenForRead(path);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(S3CountersOf(*fs).requests, requests);
  // Rewriting it drops what was cached.
  ASSERT_TRUE(fs->WriteFile(path, "short").ok());
  EXPECT_EQ(*fs->ReadFile(path), "short");
}

TEST(S3FileSystemTest, ListingPaginatesAndDeletesGoInBatches) {
  auto fs = TestFileSystem();
  ASSERT_NE(fs, nullptr);
  const std::string dir = testing::UniqueS3Prefix("many");
  constexpr int kFiles = 1005;  // more than one page of 1,000 keys
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < 8; ++w) {
    writers.emplace_back([&, w] {
      for (int i = w; i < kFiles; i += 8) {
        if (!fs->WriteFile(StrCat(dir, "f", 10000 + i), "x").ok()) ++failures;
      }
    });
  }
  for (auto& writer : writers) writer.join();
  ASSERT_EQ(failures.load(), 0);
  auto listed = fs->List(dir, false);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), static_cast<size_t>(kFiles));
  EXPECT_EQ(listed->front().path, dir + "f10000");
  EXPECT_EQ(listed->back().path, StrCat(dir, "f", 10000 + kFiles - 1));
  std::vector<std::string> paths;
  for (const FileInfo& info : *listed) paths.push_back(info.path);
  const S3Counters before = S3CountersOf(*fs);
  ASSERT_TRUE(fs->DeleteFiles(paths).ok());
  // 1,000 keys, then 5 (s3rver sometimes fails a large batch with a 500; it is retried).
  const S3Counters after = S3CountersOf(*fs);
  EXPECT_EQ((after.requests - after.retries) - (before.requests - before.retries), 2);
  EXPECT_TRUE(fs->List(dir, true)->empty());
}

TEST(S3FileSystemTest, ErrorsNameTheBucketTheKeyAndWhatTheServerSaid) {
  auto fs = TestFileSystem();
  ASSERT_NE(fs, nullptr);
  const std::string dir = testing::UniqueS3Prefix("errors");
  auto missing = fs->OpenForRead(dir + "missing.parquet");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsNotFound());
  EXPECT_NE(missing.status().message().find(dir + "missing.parquet"), std::string::npos)
      << missing.status().message();
  EXPECT_NE(missing.status().message().find("404"), std::string::npos);

  auto no_bucket = fs->OpenForRead("s3://no-such-bucket-tarn/x");
  ASSERT_FALSE(no_bucket.ok());
  EXPECT_NE(no_bucket.status().message().find("NoSuchBucket"), std::string::npos)
      << no_bucket.status().message();

  auto options = testing::TestS3Options();
  ASSERT_TRUE(options.ok());
  options->secret_access_key = "wrong";
  auto wrong = NewS3FileSystem(*options);
  Status refused = wrong->WriteFile(dir + "x", "x");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("403"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("SignatureDoesNotMatch"), std::string::npos);
  EXPECT_NE(refused.message().find(dir + "x"), std::string::npos);

  EXPECT_FALSE(fs->OpenForWrite(dir).ok());  // a folder is not an object
  EXPECT_FALSE(fs->OpenForRead("/local/path").ok());
}

// A server of its own: the faults would hit other tests' requests on the shared one.
TEST(S3FileSystemTest, TransientFailuresAreRetriedAndPersistentOnesReported) {
  auto server = testing::PrivateS3Server::Start();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const std::string endpoint = (*server)->endpoint();
  auto options = testing::TestS3Options(endpoint);
  ASSERT_TRUE(options.ok());
  options->retry_wait_ms = 100;
  options->retry_backoff = 2;
  options->max_retries = 6;  // waits of about 0.1, 0.2, … 3.2 s: past a 1.5 s outage
  auto fs = NewS3FileSystem(*options);
  const std::string path = testing::UniqueS3Prefix("retries") + "data.bin";
  const std::string data = RandomBytes(100000, 4);
  ASSERT_TRUE(fs->WriteFile(path, data).ok());

  ASSERT_OK(S3ServerControl(endpoint, "fail?count=3&status=503"));
  const int64_t retries = S3CountersOf(*fs).retries;
  auto read = fs->ReadFile(path);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, data);
  EXPECT_EQ(S3CountersOf(*fs).retries - retries, 3);

  ASSERT_OK(S3ServerControl(endpoint, "reset?count=2"));
  ASSERT_TRUE(fs->WriteFile(path + ".2", data).ok());
  EXPECT_EQ(*fs->ReadFile(path + ".2"), data);

  // The server goes away and comes back (as a restart looks to a client).
  ASSERT_OK(S3ServerControl(endpoint, "outage?ms=1500"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fs->WriteFile(path + ".3", data).ok());
  EXPECT_EQ(*fs->ReadFile(path + ".3"), data);

  options->max_retries = 2;
  options->retry_wait_ms = 10;
  auto impatient = NewS3FileSystem(*options);
  ASSERT_OK(S3ServerControl(endpoint, "fail?count=3&status=503"));
  Status failed = impatient->WriteFile(path + ".4", data);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.message().find("503"), std::string::npos) << failed.message();
  EXPECT_NE(failed.message().find("SlowDown"), std::string::npos);
  EXPECT_NE(failed.message().find(path + ".4"), std::string::npos);
  EXPECT_FALSE(*fs->Exists(path + ".4"));
}

TEST(S3FileSystemTest, EverySignedRequestWasAccepted) {
  // The proxy rejects a request whose signature or payload hash is wrong. A server of its own,
  // whose counters no other test's requests (some deliberately wrong) reach.
  auto server = testing::PrivateS3Server::Start();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const std::string endpoint = (*server)->endpoint();
  auto options = testing::TestS3Options(endpoint);
  ASSERT_TRUE(options.ok());
  auto fs = NewS3FileSystem(*options);
  const std::string path = testing::UniqueS3Prefix("signed") + "odd key =+&%é.bin";
  ASSERT_OK(S3ServerControl(endpoint, "stats/reset"));
  ASSERT_TRUE(fs->WriteFile(path, "payload").ok());
  EXPECT_EQ(*fs->ReadFile(path), "payload");
  auto listed = fs->List(path.substr(0, path.rfind('/')), false);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].path, path);
  auto rejected = S3ServerCounter(endpoint, "rejected");
  ASSERT_TRUE(rejected.ok());
  EXPECT_EQ(*rejected, 0);
}

TEST(S3FileSystemTest, HttpsTrustsTheGivenAuthorityOnly) {
  auto server = testing::PrivateS3Server::Start(/*tls=*/true);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto options = testing::TestS3Options((*server)->endpoint());
  ASSERT_TRUE(options.ok());
  options->use_ssl = true;
  options->max_retries = 0;
  const std::string path = testing::UniqueS3Prefix("https") + "x.bin";
  // The server's certificate is its own authority's: not trusted by the system's bundle.
  Status untrusted = NewS3FileSystem(*options)->WriteFile(path, "secret bytes");
  ASSERT_FALSE(untrusted.ok());
  EXPECT_NE(untrusted.message().find("certificate"), std::string::npos) << untrusted.message();
  options->ca_file = (*server)->ca_file();
  auto fs = NewS3FileSystem(*options);
  ASSERT_TRUE(fs->WriteFile(path, "secret bytes").ok());
  auto back = fs->ReadFile(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, "secret bytes");
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_.has_value()) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(S3OptionsTest, TakenFromTheEnvironmentThenTheProfileFiles) {
  testing::TempDir dir;
  {
    std::ofstream credentials(dir.Join("credentials"));
    credentials << "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = d\n"
                   "[work]\naws_access_key_id=WORKKEY\naws_secret_access_key = w s\n"
                   "aws_session_token = token\n";
    std::ofstream config(dir.Join("config"));
    config << "[default]\nregion = eu-west-1\n[profile work]\nregion = us-west-2\n"
              "endpoint_url = http://127.0.0.1:9000\nca_bundle = /etc/work-ca.pem\n"
              "s3 =\n  addressing_style = path\n";
  }
  for (const char* name : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                           "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL",
                           "AWS_ENDPOINT_URL_S3", "AWS_CA_BUNDLE"}) {
    ::unsetenv(name);
  }
  ScopedEnv credentials("AWS_SHARED_CREDENTIALS_FILE", dir.Join("credentials"));
  ScopedEnv config("AWS_CONFIG_FILE", dir.Join("config"));
  {
    ScopedEnv profile("AWS_PROFILE", "work");
    const S3Options options = S3OptionsFromEnvironment();
    EXPECT_EQ(options.access_key_id, "WORKKEY");
    EXPECT_EQ(options.secret_access_key, "w s");
    EXPECT_EQ(options.session_token, "token");
    EXPECT_EQ(options.region, "us-west-2");
    EXPECT_EQ(options.endpoint, "http://127.0.0.1:9000");
    EXPECT_EQ(options.url_style, "path");
    EXPECT_EQ(options.ca_file, "/etc/work-ca.pem");
  }
  {
    ScopedEnv profile("AWS_PROFILE", "default");
    ScopedEnv region("AWS_REGION", "ap-south-1");
    const S3Options options = S3OptionsFromEnvironment();
    EXPECT_EQ(options.access_key_id, "DEFAULTKEY");
    EXPECT_EQ(options.region, "ap-south-1");  // the environment first
    EXPECT_EQ(options.url_style, "");
  }
  {
    ScopedEnv key("AWS_ACCESS_KEY_ID", "ENVKEY");
    ScopedEnv secret("AWS_SECRET_ACCESS_KEY", "envsecret");
    const S3Options options = S3OptionsFromEnvironment();
    EXPECT_EQ(options.access_key_id, "ENVKEY");
    EXPECT_EQ(options.secret_access_key, "envsecret");
    EXPECT_EQ(options.session_token, "");  // a key pair comes whole from one place
  }
}

}  // namespace
}  // namespace tarn
