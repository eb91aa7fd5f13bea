// The interactive shell's progress bar: while a statement runs, a line on the terminal's
// standard error with the share of the rows its scans were planned to read, the rows read, the
// rate and the time left, redrawn at most 10 times a second once the statement has run for
// half a second (quick statements show nothing), and erased before the statement's output.
//
// Thread-safety: one thread owns the bar; its own thread polls Session::Progress().
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn::cli {

// The bar's text for `progress` after `seconds`, at most `width` columns: "  42% ▕███   ▏
// 1.2M rows, 3.4M rows/s, 2s left"; without a planned total, the rows and the rate alone.
std::string ProgressLine(const StatementProgress& progress, double seconds, int width);

class ProgressBar {
 public:
  // Starts polling `session` (which must outlive the bar) and drawing on `terminal`.
  ProgressBar(const Session* session, std::FILE* terminal, int width);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Erases the line, if drawn, and stops polling. Idempotent.
  void Stop();

 private:
  void Run();

  const Session* session_;
  std::FILE* terminal_;
  int width_;
  std::mutex mu_;  // guards stop_ and the drawing
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

// Passes text on to `sink`, stopping `bar` first: the bar never mixes with a result.
class StopBarSink : public TextSink {
 public:
  StopBarSink(ProgressBar* bar, TextSink* sink) : bar_(bar), sink_(sink) {}
  Status Append(std::string_view text) override {
    if (bar_ != nullptr) bar_->Stop();
    return sink_->Append(text);
  }

 private:
  ProgressBar* bar_;
  TextSink* sink_;
};

}  // namespace tarn::cli
