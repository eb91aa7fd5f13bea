// Where long work reports how far it has come and looks for an interrupt: a SQL session's
// counters behind Session::Progress() and its Interrupt() flag, handed to the layers below
// (the table layer's DELETE, UPDATE and compaction scans, row-summary publishing and
// sweeping).
//
// Thread-safety: the counters are atomics; a WorkWatch may be used from several threads.
#pragma once

#include <atomic>
#include <cstdint>

#include "tarn/status.h"

namespace tarn {

struct WorkWatch {
  // Null members: not reported, never interrupted.
  const std::atomic<bool>* interrupted = nullptr;
  std::atomic<int64_t>* done = nullptr;     // units of work done
  std::atomic<int64_t>* planned = nullptr;  // units of work planned
  // What the units are: "rows" (the default) or "files".
  std::atomic<const char*>* unit = nullptr;

  // Adds `units` to the work planned.
  void Plan(int64_t units) const {
    if (planned != nullptr) planned->fetch_add(units, std::memory_order_relaxed);
  }
  // Adds `units` to the work done, then Cancelled("Interrupted") when interrupted.
  Status Done(int64_t units) const {
    if (done != nullptr) done->fetch_add(units, std::memory_order_relaxed);
    if (interrupted != nullptr && interrupted->load(std::memory_order_relaxed)) {
      return Status::Cancelled("Interrupted");
    }
    return Status::OK();
  }
  // The work counts files, not rows.
  void CountFiles() const {
    if (unit != nullptr) unit->store("files", std::memory_order_relaxed);
  }
};

}  // namespace tarn
