// Buffer: a 64-byte aligned block whose bytes past size() (up to capacity()) are always zero,
// so growing the logical size never exposes stale bytes and exported buffers are padded.
//
// Large blocks (64 KiB and up) come from size classes and are recycled through a process-wide
// cache of freed blocks (bounded in bytes): batches of one scan have the same sizes, and
// handing a warm block to the next batch avoids the page faults, the kernel's page clearing
// and the heap trimming that fresh allocations of that size cost. A block is a 64-byte header
// holding its usable size, then the data; capacity() (what the buffer may use without
// reallocating, always zero past size()) can be less than the block's size.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "tarn/columnar.h"

namespace tarn {
namespace {

constexpr int64_t kAlignment = 64;
constexpr int64_t kHeader = 64;  // keeps data 64-byte aligned
constexpr int64_t kMinCachedBlock = int64_t{64} << 10;
constexpr int kNumClasses = 64;
#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer must see every free, so nothing is recycled.
constexpr int64_t kCacheBytes = 0;
#else
constexpr int64_t kCacheBytes = int64_t{256} << 20;
#endif

int64_t RoundUpCapacity(int64_t size) {
  // Never zero: an empty buffer still has a valid, aligned, non-null pointer, which Arrow
  // consumers expect for offsets and data buffers.
  int64_t rounded = (std::max<int64_t>(size, 1) + kAlignment - 1) / kAlignment * kAlignment;
  return rounded;
}

// Size classes for large blocks: 64K, 96K, 128K, 192K, 256K, ... (powers of two and 1.5x).
int ClassOf(int64_t size, int64_t* class_size) {
  int64_t power = kMinCachedBlock;
  int index = 0;
  while (true) {
    if (size <= power) {
      *class_size = power;
      return index;
    }
    if (size <= power + power / 2) {
      *class_size = power + power / 2;
      return index + 1;
    }
    power *= 2;
    index += 2;
  }
}

struct BlockCache {
  std::mutex mu;  // guards the fields below
  std::vector<uint8_t*> free_blocks[kNumClasses];
  int64_t bytes = 0;
};

BlockCache& Cache() {
  static BlockCache* cache = new BlockCache();  // never destroyed: buffers may outlive statics
  return *cache;
}

int64_t& BlockSize(uint8_t* data) { return *reinterpret_cast<int64_t*>(data - kHeader); }

// Returns the data pointer of a block of at least `min_size` usable bytes, contents unspecified.
uint8_t* AllocateBlock(int64_t min_size) {
  int64_t block_size = min_size;
  int index = -1;
  if (min_size >= kMinCachedBlock) {
    index = ClassOf(min_size, &block_size);
    if (kCacheBytes > 0 && index < kNumClasses) {
      BlockCache& cache = Cache();
      std::lock_guard<std::mutex> lock(cache.mu);
      auto& list = cache.free_blocks[index];
      if (!list.empty()) {
        uint8_t* data = list.back();
        list.pop_back();
        cache.bytes -= block_size;
        return data;
      }
    }
  }
  void* memory = std::aligned_alloc(kAlignment, static_cast<size_t>(block_size + kHeader));
  if (memory == nullptr) throw std::bad_alloc();  // out of memory is fatal, as with new
  uint8_t* data = static_cast<uint8_t*>(memory) + kHeader;
  BlockSize(data) = block_size;
  return data;
}

void FreeBlock(uint8_t* data) {
  if (data == nullptr) return;
  const int64_t block_size = BlockSize(data);
  if (kCacheBytes > 0 && block_size >= kMinCachedBlock) {
    int64_t class_size = 0;
    const int index = ClassOf(block_size, &class_size);
    if (index < kNumClasses && class_size == block_size) {
      BlockCache& cache = Cache();
      std::lock_guard<std::mutex> lock(cache.mu);
      if (cache.bytes + block_size <= kCacheBytes) {
        cache.free_blocks[index].push_back(data);
        cache.bytes += block_size;
        return;
      }
    }
  }
  std::free(data - kHeader);
}

}  // namespace

std::shared_ptr<Buffer> Buffer::Allocate(int64_t size) {
  size = std::max<int64_t>(size, 0);
  std::shared_ptr<Buffer> buffer(new Buffer());
  buffer->capacity_ = RoundUpCapacity(size);
  buffer->data_ = AllocateBlock(buffer->capacity_);
  buffer->size_ = size;
  std::memset(buffer->data_, 0, static_cast<size_t>(buffer->capacity_));
  return buffer;
}

std::shared_ptr<Buffer> Buffer::AllocateUninitialized(int64_t size) {
  size = std::max<int64_t>(size, 0);
  std::shared_ptr<Buffer> buffer(new Buffer());
  buffer->capacity_ = RoundUpCapacity(size);
  buffer->data_ = AllocateBlock(buffer->capacity_);
  buffer->size_ = size;
  std::memset(buffer->data_ + size, 0, static_cast<size_t>(buffer->capacity_ - size));
  return buffer;
}

std::shared_ptr<Buffer> Buffer::CopyOf(const void* bytes, int64_t size) {
  size = std::max<int64_t>(size, 0);
  std::shared_ptr<Buffer> buffer(new Buffer());
  buffer->capacity_ = RoundUpCapacity(size);
  buffer->data_ = AllocateBlock(buffer->capacity_);
  buffer->size_ = size;
  if (size > 0) std::memcpy(buffer->data_, bytes, static_cast<size_t>(size));
  std::memset(buffer->data_ + size, 0, static_cast<size_t>(buffer->capacity_ - size));
  return buffer;
}

Buffer::~Buffer() { FreeBlock(data_); }

void Buffer::Reserve(int64_t min_capacity) {
  if (min_capacity <= capacity_) return;
  int64_t new_capacity = RoundUpCapacity(min_capacity);
  if (new_capacity <= BlockSize(data_)) {
    // The block has room: its bytes past capacity_ may be stale, so clear them.
    std::memset(data_ + capacity_, 0, static_cast<size_t>(new_capacity - capacity_));
    capacity_ = new_capacity;
    return;
  }
  uint8_t* new_data = AllocateBlock(new_capacity);
  if (size_ > 0) std::memcpy(new_data, data_, static_cast<size_t>(size_));
  std::memset(new_data + size_, 0, static_cast<size_t>(new_capacity - size_));
  FreeBlock(data_);
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
