#include "tarn/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

namespace tarn {
namespace {

TEST(ThreadPoolTest, SubmitReturnsTheValue) {
  ThreadPool pool(2);
  EXPECT_EQ(pool.size(), 2u);
  std::future<int> answer = pool.Submit([] { return 6 * 7; });
  EXPECT_EQ(answer.get(), 42);
}

TEST(ThreadPoolTest, DestructorFinishesEveryQueuedTask) {
  constexpr int kTasks = 20000;
  std::atomic<int> ran{0};
  {
    ThreadPool pool(3);
    for (int task_idx = 0; task_idx < kTasks; ++task_idx) {
      (void)pool.Submit([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    }
  }
  EXPECT_EQ(ran.load(), kTasks);
}

TEST(ThreadPoolTest, ParallelForRunsEveryIndexExactlyOnce) {
  ThreadPool pool(4);
  for (size_t n : {0, 1, 2, 3, 7, 1000, 100000}) {
    std::vector<std::atomic<int>> runs(n);
    Status status = pool.ParallelFor(n, [&](size_t index) {
      runs[index].fetch_add(1, std::memory_order_relaxed);
      return Status::OK();
    });
    ASSERT_TRUE(status.ok()) << status.ToString();
    for (size_t index = 0; index < n; ++index) {
      ASSERT_EQ(runs[index].load(), 1) << "n=" << n << " index=" << index;
    }
  }
}

TEST(ThreadPoolTest, ParallelForUsesTheCallingThreadToo) {
  // A pool of one busy worker: ParallelFor must still finish, on the caller alone.
  ThreadPool pool(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::future<void> blocker = pool.Submit([released] { released.wait(); });
  std::atomic<int> ran{0};
  Status status = pool.ParallelFor(50, [&](size_t) {
    ran.fetch_add(1);
    return Status::OK();
  });
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(ran.load(), 50);
  release.set_value();
  blocker.get();
}

TEST(ThreadPoolTest, ParallelForReturnsTheLowestFailingIndex) {
  ThreadPool pool(4);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::atomic<bool>> ran(2000);
    Status status = pool.ParallelFor(2000, [&](size_t index) {
      ran[index].store(true);
      if (index == 1500 || index == 37 || index == 900) {
        return Status::Corruption("task ", index, " failed");
      }
      return Status::OK();
    });
    ASSERT_TRUE(status.IsCorruption()) << status.ToString();
    ASSERT_EQ(status.message(), "task 37 failed");
    // Every index below the failure ran: the answer matches a sequential loop's.
    for (size_t index = 0; index < 37; ++index) ASSERT_TRUE(ran[index].load()) << index;
  }
}

TEST(ThreadPoolTest, ParallelForWaitsForEveryStartedTask) {
  ThreadPool pool(3);
  std::atomic<int> started{0};
  std::atomic<int> finished{0};
  Status status = pool.ParallelFor(40, [&](size_t index) {
    started.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    finished.fetch_add(1);
    return index == 5 ? Status::IOError("boom") : Status::OK();
  });
  EXPECT_EQ(status.ToString(), "IO error: boom");
  // Read right after return: a task still running would make these differ.
  EXPECT_EQ(started.load(), finished.load());
  EXPECT_GE(started.load(), 6);
}

TEST(ThreadPoolTest, ParallelForTurnsExceptionsIntoInternalErrors) {
  ThreadPool pool(2);
  Status status = pool.ParallelFor(10, [](size_t index) -> Status {
    if (index == 3) throw std::runtime_error("bad thing");
    return Status::OK();
  });
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_EQ(status.message(), "ParallelFor task 3 threw: bad thing");
}

TEST(ThreadPoolTest, NestedParallelForDoesNotDeadlock) {
  ThreadPool pool(2);
  std::atomic<int> inner_runs{0};
  Status status = pool.ParallelFor(16, [&](size_t) {
    return pool.ParallelFor(100, [&](size_t) {
      inner_runs.fetch_add(1, std::memory_order_relaxed);
      return Status::OK();
    });
  });
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(inner_runs.load(), 1600);
}

TEST(ThreadPoolTest, ParallelForFromEveryWorkerAtOnce) {
  // Every worker is inside a task that calls ParallelFor: no helper can ever start.
  ThreadPool pool(2);
  std::atomic<int> runs{0};
  std::vector<std::future<Status>> outer;
  for (int task_idx = 0; task_idx < 8; ++task_idx) {
    outer.push_back(pool.Submit([&] {
      return pool.ParallelFor(1000, [&](size_t) {
        runs.fetch_add(1, std::memory_order_relaxed);
        return Status::OK();
      });
    }));
  }
  for (auto& result : outer) EXPECT_TRUE(result.get().ok());
  EXPECT_EQ(runs.load(), 8000);
}

TEST(ThreadPoolTest, ParallelForErrorInsideNestedCallPropagates) {
  ThreadPool pool(2);
  Status status = pool.ParallelFor(4, [&](size_t outer) {
    return pool.ParallelFor(4, [outer](size_t inner) {
      if (outer == 2 && inner == 1) return Status::NotFound("outer 2 inner 1");
      return Status::OK();
    });
  });
  EXPECT_TRUE(status.IsNotFound());
  EXPECT_EQ(status.message(), "outer 2 inner 1");
}

TEST(ThreadPoolTest, DefaultPoolHasAtLeastTwoThreads) {
  ThreadPool* pool = ThreadPool::Default();
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool, ThreadPool::Default());
  EXPECT_GE(pool->size(), 2u);
  EXPECT_GE(pool->size(), static_cast<size_t>(std::thread::hardware_concurrency()));
}

TEST(ThreadPoolTest, ZeroThreadsMeansHardwareConcurrency) {
  ThreadPool pool(0);
  EXPECT_EQ(pool.size(), std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace
}  // namespace tarn
