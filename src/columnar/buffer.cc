// Buffer: a 64-byte aligned block whose bytes past size() (up to capacity()) are always zero,
// so growing the logical size never exposes stale bytes and exported buffers are padded.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "tarn/columnar.h"

namespace tarn {
namespace {

constexpr int64_t kAlignment = 64;

int64_t RoundUpCapacity(int64_t size) {
  // Never zero: an empty buffer still has a valid, aligned, non-null pointer, which Arrow
  // consumers expect for offsets and data buffers.
  int64_t rounded = (std::max<int64_t>(size, 1) + kAlignment - 1) / kAlignment * kAlignment;
  return rounded;
}

// Allocates `capacity` bytes and zeroes those from `zero_from` on; the caller fills the rest
// (zeroing bytes that are about to be overwritten would cost a second pass over memory).
uint8_t* AllocateAligned(int64_t capacity, int64_t zero_from) {
  void* memory = std::aligned_alloc(kAlignment, static_cast<size_t>(capacity));
  if (memory == nullptr) throw std::bad_alloc();  // out of memory is fatal, as with new
  std::memset(static_cast<uint8_t*>(memory) + zero_from, 0, static_cast<size_t>(capacity - zero_from));
  return static_cast<uint8_t*>(memory);
}

}  // namespace

std::shared_ptr<Buffer> Buffer::Allocate(int64_t size) {
  std::shared_ptr<Buffer> buffer(new Buffer());
  buffer->capacity_ = RoundUpCapacity(size);
  buffer->data_ = AllocateAligned(buffer->capacity_, 0);
  buffer->size_ = std::max<int64_t>(size, 0);
  return buffer;
}

std::shared_ptr<Buffer> Buffer::CopyOf(const void* bytes, int64_t size) {
  size = std::max<int64_t>(size, 0);
  std::shared_ptr<Buffer> buffer(new Buffer());
  buffer->capacity_ = RoundUpCapacity(size);
  buffer->data_ = AllocateAligned(buffer->capacity_, size);
  buffer->size_ = size;
  if (size > 0) std::memcpy(buffer->data_, bytes, static_cast<size_t>(size));
  return buffer;
}

Buffer::~Buffer() { std::free(data_); }

void Buffer::Reserve(int64_t min_capacity) {
  if (min_capacity <= capacity_) return;
  int64_t new_capacity = RoundUpCapacity(min_capacity);
  uint8_t* new_data = AllocateAligned(new_capacity, size_);
  if (size_ > 0) std::memcpy(new_data, data_, static_cast<size_t>(size_));
  std::free(data_);
  data_ = new_data;
  capacity_ = new_capacity;
}

void Buffer::Resize(int64_t new_size) {
  new_size = std::max<int64_t>(new_size, 0);
  if (new_size > capacity_) {
    // Geometric growth keeps repeated appends amortized O(1).
    Reserve(std::max(new_size, capacity_ + capacity_ / 2));
  } else if (new_size < size_) {
    std::memset(data_ + new_size, 0, static_cast<size_t>(size_ - new_size));
  }
  size_ = new_size;
}

}  // namespace tarn
