// ThreadPool: a fixed set of worker threads running submitted tasks; CancellationToken: a flag
// that long operations poll to stop early.
//
// Thread-safety: all methods may be called from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tarn/status.h"

namespace tarn {

class CancellationToken {
 public:
  void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool IsCancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  // Cancelled("<what> cancelled") when cancelled, else OK.
  Status Check(std::string_view what = "operation") const;

 private:
  std::atomic<bool> cancelled_{false};
};

class ThreadPool {
 public:
  // threads == 0 means std::thread::hardware_concurrency().
  explicit ThreadPool(size_t threads = 0);
  ~ThreadPool();  // finishes queued tasks, then joins
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  size_t size() const { return workers_.size(); }

  // Runs fn on a worker; the future carries its result.
  template <typename Fn>
  auto Submit(Fn fn) -> std::future<decltype(fn())> {
    using R = decltype(fn());
    auto task = std::make_shared<std::packaged_task<R()>>(std::move(fn));
    std::future<R> result = task->get_future();
    Enqueue([task] { (*task)(); });
    return result;
  }

  // Runs fn(i) for i in [0, n) across the pool and the calling thread; returns the first
  // non-OK status (by index), after every started task has finished.
  Status ParallelFor(size_t n, const std::function<Status(size_t)>& fn);

  // A process-wide pool sized to the machine.
  static ThreadPool* Default();

 private:
  void Enqueue(std::function<void()> task);
  void WorkerLoop();

  std::mutex mu_;  // guards queue_ and stopping_
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace tarn
