#include "progress.h"

#include <algorithm>
#include <cmath>

namespace tarn::cli {
namespace {

constexpr auto kFirstDraw = std::chrono::milliseconds(500);
constexpr auto kRedraw = std::chrono::milliseconds(100);
constexpr int kBarCells = 30;

// 1234 → "1234", 1234567 → "1.2M".
std::string Count(double value) {
  char text[32];
  if (value >= 1e9) {
    std::snprintf(text, sizeof(text), "%.1fG", value / 1e9);
  } else if (value >= 1e6) {
    std::snprintf(text, sizeof(text), "%.1fM", value / 1e6);
  } else if (value >= 1e4) {
    std::snprintf(text, sizeof(text), "%.1fK", value / 1e3);
  } else {
    std::snprintf(text, sizeof(text), "%.0f", value);
  }
  return text;
}

std::string Duration(double seconds) {
  const int64_t whole = static_cast<int64_t>(std::ceil(seconds));
  if (whole < 60) return std::to_string(whole) + "s";
  if (whole < 3600) return std::to_string(whole / 60) + "m" + std::to_string(whole % 60) + "s";
  return std::to_string(whole / 3600) + "h" + std::to_string(whole % 3600 / 60) + "m";
}

}  // namespace

std::string ProgressLine(const StatementProgress& progress, double seconds, int width) {
  const double rows = static_cast<double>(progress.rows_read);
  const double rate = seconds > 0 ? rows / seconds : 0;
  const std::string unit(progress.unit);
  std::string tail = Count(rows) + " " + unit + ", " + Count(rate) + " " + unit + "/s";
  std::string line;
  if (progress.rows_planned > 0) {
    const double share =
        std::min(0.99, rows / static_cast<double>(progress.rows_planned));  // 100% when done
    char percent[8];
    std::snprintf(percent, sizeof(percent), "%3d%% ", static_cast<int>(share * 100));
    const int filled = static_cast<int>(share * kBarCells);
    line = percent;
    line += "\u2595";
    for (int cell = 0; cell < kBarCells; ++cell) line += cell < filled ? "\u2588" : " ";
    line += "\u258F ";
    if (rate > 0 && rows < static_cast<double>(progress.rows_planned)) {
      tail += ", " + Duration((static_cast<double>(progress.rows_planned) - rows) / rate) +
              " left";
    }
  }
  line += tail;
  // The bar's cells are one column each but three bytes: count columns, not bytes.
  const int columns = static_cast<int>(line.size()) -
                      (progress.rows_planned > 0 ? 2 * (kBarCells + 2) : 0);
  if (columns > width && width > 0) return std::string();  // too narrow: nothing
  return line;
}

ProgressBar::ProgressBar(const Session* session, std::FILE* terminal, int width)
    : session_(session), terminal_(terminal), width_(width) {
  thread_ = std::thread([this] { Run(); });
}

ProgressBar::~ProgressBar() { Stop(); }

void ProgressBar::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
    if (drawn_) {
      std::fputs("\r\x1b[K", terminal_);
      std::fflush(terminal_);
      drawn_ = false;
    }
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressBar::Run() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  if (wake_.wait_for(lock, kFirstDraw, [&] { return stop_; })) return;
  while (!stop_) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string line = ProgressLine(session_->Progress(), seconds, width_ - 1);
    if (!line.empty()) {
      std::fputs(("\r" + line + "\x1b[K").c_str(), terminal_);
      std::fflush(terminal_);
      drawn_ = true;
    }
    wake_.wait_for(lock, kRedraw, [&] { return stop_; });
  }
}

}  // namespace tarn::cli
