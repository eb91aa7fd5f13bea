#include "tarn/thread_pool.h"

#include <algorithm>
#include <exception>

namespace tarn {

Status CancellationToken::Check(std::string_view what) const {
  if (!IsCancelled()) return Status::OK();
  return Status::Cancelled(what, " cancelled");
}

ThreadPool::ThreadPool(size_t threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads);
  for (size_t worker_idx = 0; worker_idx < threads; ++worker_idx) {
    workers_.emplace_back([this] { WorkerLoop(); });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Enqueue(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      // Queued tasks still run after stopping_ is set: the destructor promises to finish them.
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

namespace {

// The state one ParallelFor call shares with the helper tasks it submits. Helpers may start
// after the call has returned (the pool was busy), so the state is reference-counted and a
// late helper only checks `closed` and leaves without touching `fn`.
struct ParallelForState {
  ParallelForState(size_t count, const std::function<Status(size_t)>* function)
      : n(count), fn(function) {}

  const size_t n;
  const std::function<Status(size_t)>* fn;  // valid while !closed or active > 0
  std::atomic<size_t> next_index{0};
  std::atomic<bool> failed{false};

  std::mutex mu;  // guards everything below
  std::condition_variable cv;
  bool closed = false;  // the caller no longer waits; new helpers must not start
  size_t active = 0;    // helpers currently claiming indices
  size_t first_error_index = 0;
  Status first_error;

  // Claims and runs indices until none are left or one has failed.
  void RunIndices() {
    for (;;) {
      // After a failure stop claiming: every index below the failed one was claimed before
      // it, so the lowest failing index among those that ran is the lowest overall.
      if (failed.load(std::memory_order_acquire)) return;
      size_t index = next_index.fetch_add(1, std::memory_order_relaxed);
      if (index >= n) return;
      Status status;
      try {
        status = (*fn)(index);
      } catch (const std::exception& e) {
        status = Status::Internal("ParallelFor task ", index, " threw: ", e.what());
      } catch (...) {
        status = Status::Internal("ParallelFor task ", index, " threw an unknown exception");
      }
      if (!status.ok()) RecordError(index, std::move(status));
    }
  }

  void RecordError(size_t index, Status status) {
    std::lock_guard<std::mutex> lock(mu);
    if (first_error.ok() || index < first_error_index) {
      first_error_index = index;
      first_error = std::move(status);
    }
    failed.store(true, std::memory_order_release);
  }
};

}  // namespace

Status ThreadPool::ParallelFor(size_t n, const std::function<Status(size_t)>& fn) {
  if (n == 0) return Status::OK();
  auto state = std::make_shared<ParallelForState>(n, &fn);
  // The calling thread works too, so at most n - 1 helpers are useful. It also means the call
  // finishes even when every worker is busy (e.g. ParallelFor from inside a pool task).
  size_t helpers = std::min(n - 1, workers_.size());
  for (size_t helper_idx = 0; helper_idx < helpers; ++helper_idx) {
    Enqueue([state] {
      {
        std::lock_guard<std::mutex> lock(state->mu);
        if (state->closed) return;
        ++state->active;
      }
      state->RunIndices();
      std::lock_guard<std::mutex> lock(state->mu);
      if (--state->active == 0) state->cv.notify_all();
    });
  }
  state->RunIndices();
  std::unique_lock<std::mutex> lock(state->mu);
  state->closed = true;
  state->cv.wait(lock, [&] { return state->active == 0; });
  return state->first_error;
}

ThreadPool* ThreadPool::Default() {
  // Never destroyed: tasks may still use it while static destructors run at exit.
  static ThreadPool* pool =
      new ThreadPool(std::max<size_t>(2, std::thread::hardware_concurrency()));
  return pool;
}

}  // namespace tarn
