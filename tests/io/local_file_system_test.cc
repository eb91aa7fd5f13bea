// Behaviour specific to the local file system: the temporary sibling and OS error text.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "support/test_util.h"
#include "tarn/io.h"

namespace tarn {
namespace {

std::vector<std::string> Names(FileSystem& fs, const std::string& dir) {
  std::vector<std::string> names;
  auto listed = fs.List(dir, false);
  EXPECT_TRUE(listed.ok()) << listed.status().ToString();
  if (!listed.ok()) return names;
  for (const FileInfo& info : *listed) names.push_back(info.path.substr(dir.size() + 1));
  return names;
}

TEST(LocalFileSystemTest, WritesGoToATemporarySiblingUntilClose) {
  testing::TempDir temp;
  auto fs = LocalFileSystem();
  std::string path = temp.Join("data.parquet");
  auto writer = fs->OpenForWrite(path);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append("abc").ok());
  std::vector<std::string> names = Names(*fs, temp.path());
  ASSERT_EQ(names.size(), 1u);
  EXPECT_TRUE(names[0].starts_with("data.parquet.tarn-tmp-")) << names[0];
  struct stat st;
  EXPECT_NE(::stat(path.c_str(), &st), 0);
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(Names(*fs, temp.path()), std::vector<std::string>{"data.parquet"});
  EXPECT_EQ(fs->ReadFile(path).ValueOr(""), "abc");
}

TEST(LocalFileSystemTest, TwoWritersToOnePathDoNotCollide) {
  testing::TempDir temp;
  auto fs = LocalFileSystem();
  std::string path = temp.Join("f");
  auto first = fs->OpenForWrite(path);
  auto second = fs->OpenForWrite(path);
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_TRUE((*first)->Append("first").ok());
  ASSERT_TRUE((*second)->Append("second").ok());
  ASSERT_TRUE((*second)->Close().ok());
  ASSERT_TRUE((*first)->Close().ok());
  EXPECT_EQ(fs->ReadFile(path).ValueOr(""), "first");  // the last Close wins, whole
  EXPECT_EQ(Names(*fs, temp.path()), std::vector<std::string>{"f"});
}

TEST(LocalFileSystemTest, ErrorsNameThePathAndTheOsReason) {
  testing::TempDir temp;
  auto fs = LocalFileSystem();
  std::string missing = temp.Join("no/such/dir/f");
  EXPECT_EQ(fs->OpenForRead(missing).status().ToString(),
            "Not found: open for read '" + missing + "': No such file or directory");
  EXPECT_EQ(fs->OpenForWrite(missing).status().ToString(),
            "Not found: open for write '" + missing + "': No such file or directory");
  EXPECT_EQ(fs->OpenForRead(temp.path()).status().ToString(),
            "IO error: open for read '" + temp.path() + "': is a directory");
  ASSERT_TRUE(fs->WriteFile(temp.Join("file"), "x").ok());
  Status status = fs->CreateDirectories(temp.Join("file/sub"));
  EXPECT_EQ(status.code(), StatusCode::kIOError);
  EXPECT_NE(status.message().find(temp.Join("file/sub")), std::string::npos) << status.message();
  EXPECT_EQ(fs->List(temp.Join("file"), false).status().ToString(),
            "IO error: list directory '" + temp.Join("file") + "': Not a directory");
}

TEST(LocalFileSystemTest, ListRecursiveSkipsNothingBelow) {
  testing::TempDir temp;
  auto fs = LocalFileSystem();
  ASSERT_TRUE(fs->CreateDirectories(temp.Join("a/b/c")).ok());
  ASSERT_TRUE(fs->WriteFile(temp.Join("a/b/c/deep"), "1234").ok());
  ASSERT_TRUE(fs->WriteFile(temp.Join("top"), "").ok());
  auto listed = fs->List(temp.path() + "/", true);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].path, temp.Join("a/b/c/deep"));
  EXPECT_EQ((*listed)[0].size, 4);
  EXPECT_EQ((*listed)[1].path, temp.Join("top"));
}

}  // namespace
}  // namespace tarn
