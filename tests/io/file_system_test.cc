// One suite run against every FileSystem implementation; each must behave the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <thread>

#include "support/test_util.h"
#include "tarn/io.h"

namespace tarn {
namespace {

std::string RandomBytes(std::mt19937_64& rng, size_t length) {
  std::string bytes(length, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  return bytes;
}

class FileSystemTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string& kind = GetParam();
    if (kind == "local" || kind == "faulty_local") {
      fs_ = LocalFileSystem();
      root_ = temp_.path() + "/root";
    } else {
      fs_ = NewMemoryFileSystem();
      root_ = "/mem/root";
    }
    // The fault-injecting wrapper with nothing scheduled must be transparent.
    if (kind.starts_with("faulty")) fs_ = std::make_shared<FaultInjectingFileSystem>(fs_);
    ASSERT_TRUE(fs_->CreateDirectories(root_).ok());
  }

  std::string P(std::string_view name) const { return root_ + "/" + std::string(name); }

  std::vector<std::string> ListPaths(const std::string& dir, bool recursive) {
    auto listed = fs_->List(dir, recursive);
    EXPECT_TRUE(listed.ok()) << listed.status().ToString();
    std::vector<std::string> paths;
    if (listed.ok()) {
      for (const FileInfo& info : *listed) paths.push_back(info.path);
    }
    return paths;
  }

  testing::TempDir temp_;
  std::shared_ptr<FileSystem> fs_;
  std::string root_;
};

TEST_P(FileSystemTest, WriteThenReadBack) {
  std::mt19937_64 rng(1);
  std::string bytes = RandomBytes(rng, 10000);
  ASSERT_TRUE(fs_->WriteFile(P("f.bin"), bytes).ok());
  auto read = fs_->ReadFile(P("f.bin"));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, bytes);
  auto info = fs_->Stat(P("f.bin"));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->path, P("f.bin"));
  EXPECT_EQ(info->size, 10000);
  EXPECT_FALSE(info->is_directory);
  EXPECT_TRUE(fs_->Exists(P("f.bin")).ValueOr(false));
  EXPECT_FALSE(fs_->Exists(P("g.bin")).ValueOr(true));
}

TEST_P(FileSystemTest, EmptyFile) {
  ASSERT_TRUE(fs_->WriteFile(P("empty"), "").ok());
  auto file = fs_->OpenForRead(P("empty"));
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->size(), 0);
  EXPECT_EQ((*file)->Read(0, 0).ValueOr("x"), "");
  EXPECT_FALSE((*file)->Read(0, 1).ok());
}

TEST_P(FileSystemTest, RangedReadsMatchTheBytes) {
  std::mt19937_64 rng(2);
  std::string bytes = RandomBytes(rng, 5000);
  ASSERT_TRUE(fs_->WriteFile(P("f"), bytes).ok());
  auto file = fs_->OpenForRead(P("f"));
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->path(), P("f"));
  for (int read_idx = 0; read_idx < 300; ++read_idx) {
    int64_t offset = static_cast<int64_t>(rng() % 5001);
    int64_t length = static_cast<int64_t>(rng() % (5001 - offset));
    auto got = (*file)->Read(offset, length);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_EQ(*got, bytes.substr(offset, length)) << offset << "+" << length;
  }
}

TEST_P(FileSystemTest, ReadingPastTheEndNamesPathRangeAndSize) {
  ASSERT_TRUE(fs_->WriteFile(P("short"), "0123456789").ok());
  auto file = fs_->OpenForRead(P("short"));
  ASSERT_TRUE(file.ok());
  std::string expected = "IO error: read past end of file '" + P("short") +
                         "': offset 8, length 3, file size 10";
  EXPECT_EQ((*file)->Read(8, 3).status().ToString(), expected);
  EXPECT_EQ((*file)->Read(11, 0).status().code(), StatusCode::kIOError);
  EXPECT_EQ((*file)->Read(INT64_MAX, 1).status().code(), StatusCode::kIOError);
  EXPECT_EQ((*file)->Read(5, INT64_MAX).status().code(), StatusCode::kIOError);
  uint8_t byte = 0;
  EXPECT_EQ((*file)->ReadAt(-1, 1, &byte).code(), StatusCode::kIOError);
  EXPECT_EQ((*file)->Read(0, -1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*file)->Read(7, 3).ValueOr(""), "789");
  EXPECT_EQ((*file)->Read(10, 0).ValueOr("x"), "");
}

TEST_P(FileSystemTest, MissingFilesAreNotFoundAndNamed) {
  for (Status status : {fs_->OpenForRead(P("nope")).status(), fs_->Stat(P("nope")).status(),
                        fs_->Delete(P("nope")), fs_->Rename(P("nope"), P("b")),
                        fs_->List(P("nope"), false).status()}) {
    EXPECT_TRUE(status.IsNotFound()) << status.ToString();
    EXPECT_NE(status.message().find(P("nope")), std::string::npos) << status.ToString();
  }
}

TEST_P(FileSystemTest, FileIsVisibleOnlyAfterClose) {
  ASSERT_TRUE(fs_->WriteFile(P("f"), "old").ok());
  auto writer = fs_->OpenForWrite(P("f"));
  ASSERT_TRUE(writer.ok());
  auto fresh = fs_->OpenForWrite(P("g"));
  ASSERT_TRUE(fresh.ok());
  ASSERT_TRUE((*writer)->Append("new ").ok());
  ASSERT_TRUE((*writer)->Append("bytes").ok());
  ASSERT_TRUE((*writer)->Sync().ok());
  EXPECT_EQ((*writer)->bytes_written(), 9);
  EXPECT_EQ((*writer)->path(), P("f"));
  EXPECT_EQ(fs_->ReadFile(P("f")).ValueOr(""), "old");
  EXPECT_FALSE(fs_->Exists(P("g")).ValueOr(true));
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->bytes_written(), 9);
  EXPECT_EQ(fs_->ReadFile(P("f")).ValueOr(""), "new bytes");
  ASSERT_TRUE((*fresh)->Close().ok());
  EXPECT_EQ(fs_->ReadFile(P("g")).ValueOr("x"), "");
  // A closed writer refuses more work.
  EXPECT_EQ((*writer)->Append("more").code(), StatusCode::kIOError);
  EXPECT_EQ((*writer)->Close().code(), StatusCode::kIOError);
}

TEST_P(FileSystemTest, AbandonedWriterLeavesNothing) {
  {
    auto writer = fs_->OpenForWrite(P("abandoned"));
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append(std::string(100000, 'x')).ok());
    ASSERT_TRUE((*writer)->Sync().ok());
  }
  EXPECT_FALSE(fs_->Exists(P("abandoned")).ValueOr(true));
  EXPECT_TRUE(ListPaths(root_, true).empty());
}

TEST_P(FileSystemTest, ListIsSortedAndRecursiveListsFiles) {
  ASSERT_TRUE(fs_->CreateDirectories(P("d/e")).ok());
  ASSERT_TRUE(fs_->CreateDirectories(P("empty")).ok());
  for (const char* name : {"b", "a", "d/z", "d/e/y", "c"}) {
    ASSERT_TRUE(fs_->WriteFile(P(name), name).ok());
  }
  EXPECT_EQ(ListPaths(root_, false),
            (std::vector<std::string>{P("a"), P("b"), P("c"), P("d"), P("empty")}));
  EXPECT_EQ(ListPaths(root_ + "/", false).size(), 5u);
  EXPECT_EQ(ListPaths(root_, true),
            (std::vector<std::string>{P("a"), P("b"), P("c"), P("d/e/y"), P("d/z")}));
  auto listed = fs_->List(root_, false);
  ASSERT_TRUE(listed.ok());
  EXPECT_FALSE((*listed)[0].is_directory);
  EXPECT_EQ((*listed)[0].size, 1);
  EXPECT_TRUE((*listed)[3].is_directory);
  EXPECT_TRUE((*listed)[4].is_directory);
  EXPECT_EQ(ListPaths(P("d"), false), (std::vector<std::string>{P("d/e"), P("d/z")}));
  EXPECT_TRUE(fs_->Stat(P("d")).ValueOr(FileInfo{}).is_directory);
  EXPECT_TRUE(fs_->Exists(P("empty")).ValueOr(false));
  EXPECT_EQ(fs_->List(P("a"), false).status().code(), StatusCode::kIOError);
}

TEST_P(FileSystemTest, RenameMovesAndReplaces) {
  ASSERT_TRUE(fs_->WriteFile(P("a"), "aaa").ok());
  ASSERT_TRUE(fs_->WriteFile(P("b"), "bbbb").ok());
  ASSERT_TRUE(fs_->Rename(P("a"), P("c")).ok());
  EXPECT_FALSE(fs_->Exists(P("a")).ValueOr(true));
  EXPECT_EQ(fs_->ReadFile(P("c")).ValueOr(""), "aaa");
  ASSERT_TRUE(fs_->Rename(P("c"), P("b")).ok());
  EXPECT_EQ(fs_->ReadFile(P("b")).ValueOr(""), "aaa");
  EXPECT_EQ(ListPaths(root_, false), std::vector<std::string>{P("b")});
}

TEST_P(FileSystemTest, RenameMovesADirectory) {
  ASSERT_TRUE(fs_->CreateDirectories(P("src/inner")).ok());
  ASSERT_TRUE(fs_->WriteFile(P("src/inner/f"), "f").ok());
  ASSERT_TRUE(fs_->Rename(P("src"), P("dst")).ok());
  EXPECT_EQ(ListPaths(root_, true), std::vector<std::string>{P("dst/inner/f")});
  EXPECT_FALSE(fs_->Exists(P("src")).ValueOr(true));
}

TEST_P(FileSystemTest, DeleteFilesAndEmptyDirectories) {
  ASSERT_TRUE(fs_->CreateDirectories(P("d")).ok());
  ASSERT_TRUE(fs_->WriteFile(P("d/f"), "x").ok());
  EXPECT_EQ(fs_->Delete(P("d")).code(), StatusCode::kIOError);  // not empty
  ASSERT_TRUE(fs_->Delete(P("d/f")).ok());
  EXPECT_FALSE(fs_->Exists(P("d/f")).ValueOr(true));
  ASSERT_TRUE(fs_->Delete(P("d")).ok());
  EXPECT_FALSE(fs_->Exists(P("d")).ValueOr(true));
  EXPECT_TRUE(ListPaths(root_, false).empty());
}

TEST_P(FileSystemTest, OpenReaderKeepsItsBytesAcrossDeleteAndOverwrite) {
  ASSERT_TRUE(fs_->WriteFile(P("f"), "first").ok());
  auto reader = fs_->OpenForRead(P("f"));
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(fs_->WriteFile(P("f"), "second!").ok());
  EXPECT_EQ((*reader)->Read(0, 5).ValueOr(""), "first");
  ASSERT_TRUE(fs_->Delete(P("f")).ok());
  EXPECT_EQ((*reader)->Read(1, 4).ValueOr(""), "irst");
}

TEST_P(FileSystemTest, ConcurrentReadsOfOneFile) {
  std::mt19937_64 rng(3);
  std::string bytes = RandomBytes(rng, 1 << 16);
  ASSERT_TRUE(fs_->WriteFile(P("f"), bytes).ok());
  auto file = fs_->OpenForRead(P("f"));
  ASSERT_TRUE(file.ok());
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int thread_idx = 0; thread_idx < 4; ++thread_idx) {
    threads.emplace_back([&, thread_idx] {
      std::mt19937_64 local_rng(thread_idx);
      for (int read_idx = 0; read_idx < 500; ++read_idx) {
        int64_t offset = static_cast<int64_t>(local_rng() % bytes.size());
        int64_t length = static_cast<int64_t>(local_rng() % (bytes.size() - offset));
        auto got = (*file)->Read(offset, length);
        if (!got.ok() || *got != bytes.substr(offset, length)) mismatches.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// Random writes, overwrites, renames and deletes checked against a std::map after every step.
TEST_P(FileSystemTest, RandomOperationsMatchAModel) {
  std::mt19937_64 rng(4);
  ASSERT_TRUE(fs_->CreateDirectories(P("x/y")).ok());
  const std::vector<std::string> names = {P("a"), P("b"), P("x/c"), P("x/d"), P("x/y/e")};
  std::map<std::string, std::string> model;
  for (int step = 0; step < 300; ++step) {
    const std::string& name = names[rng() % names.size()];
    switch (rng() % 4) {
      case 0:
      case 1: {
        std::string bytes = RandomBytes(rng, rng() % 3000);
        ASSERT_TRUE(fs_->WriteFile(name, bytes).ok());
        model[name] = bytes;
        break;
      }
      case 2: {
        Status status = fs_->Delete(name);
        ASSERT_EQ(status.ok(), model.erase(name) == 1) << status.ToString();
        break;
      }
      default: {
        const std::string& to = names[rng() % names.size()];
        Status status = fs_->Rename(name, to);
        auto it = model.find(name);
        ASSERT_EQ(status.ok(), it != model.end()) << status.ToString();
        if (it != model.end()) {
          std::string bytes = it->second;
          model.erase(it);
          model[to] = bytes;
        }
      }
    }
    std::vector<std::string> expected;
    for (const auto& [path, bytes] : model) expected.push_back(path);
    ASSERT_EQ(ListPaths(root_, true), expected) << "step " << step;
    for (const auto& [path, bytes] : model) {
      ASSERT_EQ(fs_->ReadFile(path).ValueOr("<error>"), bytes) << path << " step " << step;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllFileSystems, FileSystemTest,
                         ::testing::Values("local", "memory", "faulty_local", "faulty_memory"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

}  // namespace
}  // namespace tarn
