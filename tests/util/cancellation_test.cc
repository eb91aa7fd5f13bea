#include <gtest/gtest.h>

#include <atomic>

#include "tarn/thread_pool.h"

namespace tarn {
namespace {

TEST(CancellationTokenTest, CheckIsOkUntilCancelled) {
  CancellationToken token;
  EXPECT_FALSE(token.IsCancelled());
  EXPECT_TRUE(token.Check().ok());
  token.Cancel();
  EXPECT_TRUE(token.IsCancelled());
  Status status = token.Check();
  EXPECT_TRUE(status.IsCancelled());
  EXPECT_EQ(status.ToString(), "Cancelled: operation cancelled");
  EXPECT_EQ(token.Check("scan of t1").message(), "scan of t1 cancelled");
}

TEST(CancellationTokenTest, StopsAParallelForEarly) {
  ThreadPool pool(2);
  CancellationToken token;
  std::atomic<int> ran{0};
  Status status = pool.ParallelFor(100000, [&](size_t index) {
    TARN_RETURN_NOT_OK(token.Check("work"));
    ran.fetch_add(1);
    if (index == 100) token.Cancel();
    return Status::OK();
  });
  EXPECT_TRUE(status.IsCancelled()) << status.ToString();
  EXPECT_EQ(status.message(), "work cancelled");
  EXPECT_LT(ran.load(), 100000);
}

}  // namespace
}  // namespace tarn
