// How much of the calling thread's stack is left: recursive code (the planner's queries within
// queries) checks it and fails cleanly instead of overflowing the stack, whatever the thread's
// stack size and however large the frames of the build (sanitizers enlarge them).
//
// Thread-safety: safe from any thread; each thread looks up its own stack once.
#pragma once

#include <cstdint>

namespace tarn {

// Bytes between the caller's frame and the end of the thread's stack; INT64_MAX when the
// thread's stack cannot be found.
int64_t StackBytesLeft();

// The size of the calling thread's stack; 0 when it cannot be found.
int64_t StackSize();

}  // namespace tarn
