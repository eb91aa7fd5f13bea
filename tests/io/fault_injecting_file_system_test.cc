#include <gtest/gtest.h>

#include "tarn/io.h"

namespace tarn {
namespace {

using Op = FaultInjectingFileSystem::Op;

// Performs each kind of operation once, in enum order, stopping at the first failure.
// Returns the failure, or OK.
Status DoEveryOp(FileSystem& fs) {
  TARN_ASSIGN_OR_RETURN(auto writer, fs.OpenForWrite("/d/a"));   // kOpenWrite
  TARN_RETURN_NOT_OK(writer->Append("hello"));                   // kAppend
  TARN_RETURN_NOT_OK(writer->Sync());                            // kSync
  TARN_RETURN_NOT_OK(writer->Close());                           // kClose
  TARN_ASSIGN_OR_RETURN(auto reader, fs.OpenForRead("/d/a"));    // kOpenRead
  TARN_ASSIGN_OR_RETURN(std::string bytes, reader->Read(1, 3));  // kRead
  if (bytes != "ell") return Status::Internal("read back '", bytes, "'");
  TARN_RETURN_NOT_OK(fs.Stat("/d/a").status());                  // kStat
  TARN_RETURN_NOT_OK(fs.List("/d", false).status());             // kList
  TARN_RETURN_NOT_OK(fs.CreateDirectories("/e"));                // kCreateDir
  TARN_RETURN_NOT_OK(fs.Rename("/d/a", "/e/b"));                 // kRename
  TARN_RETURN_NOT_OK(fs.Delete("/e/b"));                         // kDelete
  return Status::OK();
}
constexpr int64_t kOpsInDoEveryOp = 11;

struct OpCase {
  Op op;
  std::string expected_message;
};

TEST(FaultInjectingFileSystemTest, CountsEveryOperation) {
  FaultInjectingFileSystem fs(NewMemoryFileSystem());
  ASSERT_TRUE(DoEveryOp(fs).ok());
  EXPECT_EQ(fs.op_count(), kOpsInDoEveryOp);
  fs.Clear();
  EXPECT_EQ(fs.op_count(), 0);
  ASSERT_TRUE(fs.Exists("/x").ok());
  EXPECT_EQ(fs.op_count(), 1);
}

TEST(FaultInjectingFileSystemTest, EveryOpKindFailsWhenScheduled) {
  const std::vector<OpCase> cases = {
      {Op::kOpenWrite, "injected fault: open for write '/d/a' (op #0)"},
      {Op::kAppend, "injected fault: append '/d/a' (op #1)"},
      {Op::kSync, "injected fault: sync '/d/a' (op #2)"},
      {Op::kClose, "injected fault: close '/d/a' (op #3)"},
      {Op::kOpenRead, "injected fault: open for read '/d/a' (op #4)"},
      {Op::kRead, "injected fault: read '/d/a' (op #5) at offset 1, length 3"},
      {Op::kStat, "injected fault: stat '/d/a' (op #6)"},
      {Op::kList, "injected fault: list '/d' (op #7)"},
      {Op::kCreateDir, "injected fault: create directories '/e' (op #8)"},
      {Op::kRename, "injected fault: rename '/d/a' (op #9) to '/e/b'"},
      {Op::kDelete, "injected fault: delete '/e/b' (op #10)"},
  };
  for (const OpCase& op_case : cases) {
    FaultInjectingFileSystem fs(NewMemoryFileSystem());
    fs.FailAfter(0, {op_case.op});
    Status status = DoEveryOp(fs);
    EXPECT_EQ(status.code(), StatusCode::kIOError) << op_case.expected_message;
    EXPECT_EQ(status.message(), op_case.expected_message);
    // Counting only matching ops: a second op of this kind never comes, so nothing fails.
    FaultInjectingFileSystem again(NewMemoryFileSystem());
    again.FailAfter(1, {op_case.op});
    EXPECT_TRUE(DoEveryOp(again).ok()) << op_case.expected_message;
  }
}

TEST(FaultInjectingFileSystemTest, EachOpInTurnFailsTheWorkload) {
  for (int64_t n = 0; n <= kOpsInDoEveryOp; ++n) {
    FaultInjectingFileSystem fs(NewMemoryFileSystem());
    fs.FailAfter(n);
    Status status = DoEveryOp(fs);
    if (n == kOpsInDoEveryOp) {
      EXPECT_TRUE(status.ok()) << status.ToString();
    } else {
      EXPECT_EQ(status.code(), StatusCode::kIOError) << "n=" << n;
      EXPECT_NE(status.message().find("(op #" + std::to_string(n) + ")"), std::string::npos)
          << status.message();
      EXPECT_EQ(fs.op_count(), n + 1);
    }
  }
}

TEST(FaultInjectingFileSystemTest, FailedCloseAbandonsTheFile) {
  auto base = NewMemoryFileSystem();
  FaultInjectingFileSystem fs(base);
  fs.FailAfter(0, {Op::kClose});
  {
    auto writer = fs.OpenForWrite("/f");
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append("data").ok());
    EXPECT_EQ((*writer)->bytes_written(), 4);
    EXPECT_FALSE((*writer)->Close().ok());
  }
  EXPECT_FALSE(base->Exists("/f").ValueOr(true));
}

TEST(FaultInjectingFileSystemTest, StickyFailsEveryLaterMatchingOp) {
  FaultInjectingFileSystem fs(NewMemoryFileSystem());
  ASSERT_TRUE(fs.WriteFile("/f", "0123456789").ok());
  auto reader = fs.OpenForRead("/f");
  ASSERT_TRUE(reader.ok());
  fs.FailAfter(2, {Op::kRead}, /*sticky=*/true);
  EXPECT_TRUE((*reader)->Read(0, 1).ok());
  EXPECT_TRUE(fs.Stat("/f").ok());  // not a read: neither counted toward n nor failed
  EXPECT_TRUE((*reader)->Read(1, 1).ok());
  for (int read_idx = 0; read_idx < 5; ++read_idx) {
    EXPECT_EQ((*reader)->Read(2, 1).status().code(), StatusCode::kIOError);
  }
  EXPECT_TRUE(fs.WriteFile("/g", "x").ok());
  fs.Clear();
  EXPECT_TRUE((*reader)->Read(2, 1).ok());
}

TEST(FaultInjectingFileSystemTest, NonStickyFailsOnce) {
  FaultInjectingFileSystem fs(NewMemoryFileSystem());
  fs.FailAfter(1, {Op::kOpenWrite, Op::kAppend});
  auto writer = fs.OpenForWrite("/f");
  ASSERT_TRUE(writer.ok());
  EXPECT_FALSE((*writer)->Append("a").ok());
  EXPECT_TRUE((*writer)->Append("b").ok());
  EXPECT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(fs.ReadFile("/f").ValueOr(""), "b");  // the failed append wrote nothing
}

TEST(FaultInjectingFileSystemTest, FailPathsFailsReadsOfMatchingPaths) {
  FaultInjectingFileSystem fs(NewMemoryFileSystem());
  ASSERT_TRUE(fs.WriteFile("/bad.parquet", "x").ok());
  ASSERT_TRUE(fs.WriteFile("/good.parquet", "y").ok());
  auto reader = fs.OpenForRead("/bad.parquet");
  ASSERT_TRUE(reader.ok());
  fs.FailPaths([](const std::string& path) { return path.starts_with("/bad"); });
  EXPECT_EQ(fs.OpenForRead("/bad.parquet").status().message(),
            "injected fault: open for read '/bad.parquet' (failing path)");
  EXPECT_EQ((*reader)->Read(0, 1).status().message(),
            "injected fault: read '/bad.parquet' (failing path) at offset 0, length 1");
  EXPECT_EQ(fs.ReadFile("/good.parquet").ValueOr(""), "y");
  EXPECT_TRUE(fs.Stat("/bad.parquet").ok());  // only reads fail
  EXPECT_TRUE(fs.WriteFile("/bad.parquet", "z").ok());
  fs.Clear();
  EXPECT_EQ(fs.ReadFile("/bad.parquet").ValueOr(""), "z");
}

}  // namespace
}  // namespace tarn
