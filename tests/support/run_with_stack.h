// Runs work on a thread of a chosen stack size: the depth tests show a limit holds with a
// margin, whatever the stack of the thread the test runner happens to use.
#pragma once

#include <cstddef>
#include <functional>

#include "tarn/status.h"

namespace tarn::testing {

// Runs `work` on a new thread with `stack_bytes` of stack and returns what it returned.
Status RunWithStack(size_t stack_bytes, const std::function<Status()>& work);

}  // namespace tarn::testing
