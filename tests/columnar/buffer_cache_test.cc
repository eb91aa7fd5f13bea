// Buffers of large blocks are recycled through a cache of freed blocks: a recycled block must
// look exactly like a fresh one (Allocate zeroed, padding past size() zero after CopyOf,
// Resize and Reserve inside the block's spare room), from any thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "tarn/columnar.h"

namespace tarn {
namespace {

bool AllZero(const Buffer& buffer, int64_t from, int64_t to) {
  for (int64_t i = from; i < to; ++i) {
    if (buffer.data()[i] != 0) return false;
  }
  return true;
}

// Frees a block of `size` bytes after filling it with garbage, so the next allocation of its
// size class may receive it.
void Dirty(int64_t size) {
  auto buffer = Buffer::Allocate(size);
  std::memset(buffer->mutable_data(), 0xCD, static_cast<size_t>(buffer->size()));
}

TEST(BufferCacheTest, RecycledBlocksAreZeroed) {
  for (int64_t size : {int64_t{64} << 10, int64_t{100000}, int64_t{1} << 20, int64_t{3000001}}) {
    Dirty(size);
    auto buffer = Buffer::Allocate(size);
    EXPECT_EQ(buffer->size(), size);
    EXPECT_EQ(buffer->capacity() % 64, 0);
    EXPECT_TRUE(AllZero(*buffer, 0, buffer->capacity())) << size;
  }
}

TEST(BufferCacheTest, CopyOfZeroesThePadding) {
  const int64_t size = (int64_t{256} << 10) - 5;
  Dirty(size);
  std::vector<uint8_t> bytes(static_cast<size_t>(size), 0x11);
  auto buffer = Buffer::CopyOf(bytes.data(), size);
  EXPECT_EQ(std::memcmp(buffer->data(), bytes.data(), bytes.size()), 0);
  EXPECT_TRUE(AllZero(*buffer, size, buffer->capacity()));
}

TEST(BufferCacheTest, GrowingInsideTheBlockClearsStaleBytes) {
  // A 96 KiB-class block, dirtied and freed, then reused for a smaller buffer that grows into
  // the block's spare room.
  Dirty(96 << 10);
  auto buffer = Buffer::Allocate(66000);
  EXPECT_TRUE(AllZero(*buffer, 0, buffer->capacity()));
  std::memset(buffer->mutable_data(), 0x22, 66000);
  buffer->Reserve(98000);  // fits the block: no reallocation
  EXPECT_GE(buffer->capacity(), 98000);
  EXPECT_TRUE(AllZero(*buffer, 66000, buffer->capacity()));
  buffer->Resize(90000);
  EXPECT_EQ(buffer->data()[65999], 0x22);
  EXPECT_TRUE(AllZero(*buffer, 66000, buffer->capacity()));
  // Past the block: a new block, contents kept.
  buffer->Resize(500000);
  EXPECT_EQ(buffer->data()[0], 0x22);
  EXPECT_TRUE(AllZero(*buffer, 66000, buffer->capacity()));
  // Shrinking clears what is cut off.
  buffer->Resize(10);
  EXPECT_TRUE(AllZero(*buffer, 10, buffer->capacity()));
}

TEST(BufferCacheTest, ManyThreads) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int round = 0; round < 200; ++round) {
        const int64_t size = (int64_t{64} << 10) + (round % 7) * 40000 + t;
        auto buffer = Buffer::Allocate(size);
        if (!AllZero(*buffer, 0, buffer->capacity())) ++failures[t];
        std::memset(buffer->mutable_data(), t + 1, static_cast<size_t>(size));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

TEST(BufferCacheTest, UninitializedAllocationZeroesOnlyThePadding) {
  for (int64_t size : {int64_t{0}, int64_t{5}, int64_t{64} << 10, int64_t{100001},
                       (int64_t{1} << 20) - 3}) {
    if (size >= 64) Dirty(size);
    auto buffer = Buffer::AllocateUninitialized(size);
    EXPECT_EQ(buffer->size(), size);
    EXPECT_GE(buffer->capacity(), std::max<int64_t>(size, 1));
    EXPECT_EQ(buffer->capacity() % 64, 0);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()) % 64, 0u);
    EXPECT_TRUE(AllZero(*buffer, size, buffer->capacity())) << size;
    // The caller writes every byte; growing afterwards exposes only zeros.
    std::memset(buffer->mutable_data(), 0x5A, static_cast<size_t>(size));
    buffer->Resize(size + 100);
    EXPECT_TRUE(AllZero(*buffer, size, buffer->capacity())) << size;
    for (int64_t i = 0; i < size; ++i) ASSERT_EQ(buffer->data()[i], 0x5A) << size;
  }
}

}  // namespace
}  // namespace tarn
