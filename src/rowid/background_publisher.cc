// RowSummaryPublisher: two lanes (backfill, commits), each a thread running one pass at a time
// with retries backing off and a deadline per attempt.
#include <condition_variable>
#include <thread>

#include "tarn/rowid.h"

namespace tarn {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

struct RowSummaryPublisher::Impl {
  Lake* lake = nullptr;
  RowSummaryContext ctx;
  PublisherOptions options;

  std::mutex mu;  // guards everything below
  std::condition_variable cv;
  bool closing = false;
  Progress progress;

  struct Lane {
    bool backfill = false;                // this lane's kind
    bool pending = false;                 // backfill: a pass is wanted
    std::map<int64_t, int64_t> commits;   // commit lane: table id -> oldest boundary
    bool running = false;
    Clock::time_point not_before{};
    std::chrono::milliseconds backoff{0};
    std::shared_ptr<CancellationToken> attempt_cancel;
    std::thread thread;
    bool has_work() const { return backfill ? pending : !commits.empty(); }
  };
  Lane lanes[2];

  void Run(Lane& lane) {
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      while (!closing && (!lane.has_work() || Clock::now() < lane.not_before)) {
        if (lane.has_work()) {
          cv.wait_until(lock, lane.not_before);
        } else {
          cv.wait(lock);
        }
      }
      if (closing) return;
      // Take the batch; new requests merge into the next one.
      PublishOptions pass;
      pass.max_concurrency = options.max_concurrency;
      std::map<int64_t, int64_t> batch;
      if (lane.backfill) {
        lane.pending = false;
      } else {
        batch.swap(lane.commits);
        int64_t since = INT64_MAX;
        for (auto& [table, boundary] : batch) {
          pass.table_ids.push_back(table);
          since = std::min(since, boundary);
        }
        pass.since_snapshot = since;
      }
      auto cancel = std::make_shared<CancellationToken>();
      lane.attempt_cancel = cancel;
      lane.running = true;
      pass.cancel = cancel.get();
      lock.unlock();

      // The attempt runs on its own thread so that its deadline can cancel it.
      std::mutex done_mu;
      std::condition_variable done_cv;
      bool done = false;
      Result<PublishReport> result = Status::Internal("not run");
      std::thread attempt([&] {
        Result<PublishReport> r = PublishRowSummaries(*lake, ctx, pass);
        std::lock_guard<std::mutex> g(done_mu);
        result = std::move(r);
        done = true;
        done_cv.notify_all();
      });
      {
        std::unique_lock<std::mutex> g(done_mu);
        if (!done_cv.wait_for(g, options.attempt_deadline, [&] { return done; })) cancel->Cancel();
      }
      attempt.join();

      lock.lock();
      lane.running = false;
      lane.attempt_cancel.reset();
      const bool ok = result.ok() && result->failed == 0;
      if (ok) {
        progress.passes_ok++;
        lane.backoff = std::chrono::milliseconds(0);
      } else {
        progress.passes_failed++;
        if (closing) return;
        progress.retries++;
        // Keep the batch: merge it back under the oldest boundary.
        if (lane.backfill) {
          lane.pending = true;
        } else {
          for (auto& [table, boundary] : batch) {
            auto [it, added] = lane.commits.emplace(table, boundary);
            if (!added) it->second = std::min(it->second, boundary);
          }
        }
        lane.backoff = lane.backoff.count() == 0
                           ? options.initial_backoff
                           : std::min(options.max_backoff, lane.backoff * 2);
        lane.not_before = Clock::now() + lane.backoff;
      }
      cv.notify_all();
    }
  }
};

RowSummaryPublisher::RowSummaryPublisher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<RowSummaryPublisher>> RowSummaryPublisher::Start(Lake* lake,
                                                                        RowSummaryContext ctx,
                                                                        PublisherOptions options) {
  if (lake == nullptr || !ctx.fs) return Status::InvalidArgument("RowSummaryPublisher: no lake or fs");
  auto impl = std::make_unique<Impl>();
  impl->lake = lake;
  impl->ctx = std::move(ctx);
  impl->options = options;
  impl->lanes[0].backfill = true;
  impl->lanes[1].backfill = false;
  Impl* raw = impl.get();
  for (auto& lane : raw->lanes) lane.thread = std::thread([raw, &lane] { raw->Run(lane); });
  return std::unique_ptr<RowSummaryPublisher>(new RowSummaryPublisher(std::move(impl)));
}

RowSummaryPublisher::~RowSummaryPublisher() { Close(); }

void RowSummaryPublisher::EnqueueBackfill() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->lanes[0].pending = true;
  impl_->cv.notify_all();
}

void RowSummaryPublisher::EnqueueCommit(int64_t table_id, int64_t since_snapshot) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto& commits = impl_->lanes[1].commits;
  auto [it, added] = commits.emplace(table_id, since_snapshot);
  if (!added) it->second = std::min(it->second, since_snapshot);
  impl_->cv.notify_all();
}

bool RowSummaryPublisher::WaitIdle(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl_->mu);
  return impl_->cv.wait_for(lock, timeout, [&] {
    for (auto& lane : impl_->lanes) {
      if (lane.running || lane.has_work()) return false;
    }
    return true;
  });
}

void RowSummaryPublisher::Close() {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->closing && !impl_->lanes[0].thread.joinable() && !impl_->lanes[1].thread.joinable()) return;
    impl_->closing = true;
    for (auto& lane : impl_->lanes) {
      if (lane.attempt_cancel) lane.attempt_cancel->Cancel();
    }
    impl_->cv.notify_all();
  }
  for (auto& lane : impl_->lanes) {
    if (lane.thread.joinable()) lane.thread.join();
  }
}

RowSummaryPublisher::Progress RowSummaryPublisher::progress() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->progress;
}

}  // namespace tarn
