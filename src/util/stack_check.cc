#include "util/stack_check.h"

#include <pthread.h>

#include <cstddef>

namespace tarn {

namespace {

struct StackBounds {
  uintptr_t low = 0;  // the lowest address of the stack (it grows down)
  int64_t size = 0;
};

StackBounds LookUp() {
  StackBounds bounds;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return bounds;
  void* address = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attributes, &address, &size) == 0) {
    bounds.low = reinterpret_cast<uintptr_t>(address);
    bounds.size = static_cast<int64_t>(size);
  }
  pthread_attr_destroy(&attributes);
  return bounds;
}

const StackBounds& ThreadStack() {
  thread_local const StackBounds bounds = LookUp();
  return bounds;
}

}  // namespace

int64_t StackBytesLeft() {
  const StackBounds& bounds = ThreadStack();
  if (bounds.size == 0) return INT64_MAX;
  // The frame itself, not a local's address: a sanitizer may keep locals elsewhere.
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (here <= bounds.low) return 0;
  return static_cast<int64_t>(here - bounds.low);
}

int64_t StackSize() { return ThreadStack().size; }

}  // namespace tarn
