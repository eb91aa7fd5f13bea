#include "support/run_with_stack.h"

#include <pthread.h>

namespace tarn::testing {

Status RunWithStack(size_t stack_bytes, const std::function<Status()>& work) {
  struct Call {
    const std::function<Status()>* work;
    Status status;
  } call{&work, Status::OK()};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, stack_bytes);
  pthread_t thread;
  auto body = [](void* argument) -> void* {
    auto* c = static_cast<Call*>(argument);
    c->status = (*c->work)();
    return nullptr;
  };
  if (pthread_create(&thread, &attributes, body, &call) != 0) {
    pthread_attr_destroy(&attributes);
    return Status::Internal("pthread_create failed");
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
  return call.status;
}

}  // namespace tarn::testing
