// Spilling: where the stateful operators put rows that do not fit in memory_limit.
//
// An operator whose state passes its share of memory_limit (the hash join's build side, the
// hash aggregate's groups, the sort's rows, the window's partitions) writes rows to temporary
// files under the session's temp_directory and reads them back a part at a time, so a query
// that needs more memory than the limit still finishes. With temp_directory empty spilling is
// off and such an operator fails with an Out of Memory Error naming itself and the limit.
//
// Files: each operator that spills owns a SpillFolder, a private folder `tarn-spill-XXXXXX`
// created on its first file and removed (with every file in it) when the folder object is
// destroyed — when the query ends, fails or is interrupted. A spill file holds batches of one
// schema, each as its columns' buffers verbatim (lengths, NULL counts, validity, values and
// var-length bytes, children recursively), so every type reads back exactly as written. The
// files never outlive the process that wrote them and are not a storage format.
//
// Thread-safety: SpillWriter and SpillReader are used by one thread at a time; SpillPartitions
// takes rows for different partitions from several threads at once; SpillFolder::NewPath may
// be called from several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::sql {

// The message part an operator appends to its Out of Memory Error when it cannot spill.
std::string SpillDisabledNote(const std::string& temp_directory);

class SpillFolder {
 public:
  // `parent`: the temp_directory (created if missing). REQUIRES: not empty.
  explicit SpillFolder(std::string parent);
  ~SpillFolder();  // removes the folder and its files
  SpillFolder(const SpillFolder&) = delete;
  SpillFolder& operator=(const SpillFolder&) = delete;

  // A new file path in the folder (creating the folder on first use); `stem` names its use.
  Result<std::string> NewPath(const std::string& stem);
  // The folder, once created (empty before).
  std::string path() const;

 private:
  const std::string parent_;
  mutable std::mutex mu_;
  std::string path_;
  int64_t next_file_ = 0;
};

class SpillWriter {
 public:
  static Result<std::unique_ptr<SpillWriter>> Create(const std::string& path);
  ~SpillWriter();
  SpillWriter(const SpillWriter&) = delete;
  SpillWriter& operator=(const SpillWriter&) = delete;

  Status Write(const Batch& batch);
  // Flushes and closes the file. REQUIRES: called once, before the file is read.
  Status Finish();

  const std::string& path() const { return path_; }
  int64_t rows() const { return rows_; }
  int64_t bytes() const { return bytes_; }  // written so far (buffered bytes included)

 private:
  explicit SpillWriter(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  void Put(const void* data, size_t size);
  void PutColumn(const Column& column);
  Status Flush();

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  Status error_;  // the first failed write, reported by Write/Finish
  int64_t rows_ = 0;
  int64_t bytes_ = 0;
};

// The batches of one spill file, in the order written, with `schema` (the writer's).
class SpillReader : public BatchReader {
 public:
  static Result<std::unique_ptr<SpillReader>> Open(const std::string& path,
                                                   std::shared_ptr<const Schema> schema);
  ~SpillReader() override;
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override;

 private:
  SpillReader(std::string path, int fd, int64_t size, std::shared_ptr<const Schema> schema)
      : path_(std::move(path)), fd_(fd), size_(size), schema_(std::move(schema)) {}
  Status Get(void* out, size_t size);
  Result<std::shared_ptr<Buffer>> GetBuffer();
  Result<std::shared_ptr<Column>> GetColumn(const DataType& type, int depth);
  Status Damaged(const std::string& what) const;

  std::string path_;
  int fd_ = -1;
  int64_t size_ = 0;     // of the file
  int64_t offset_ = 0;   // of the next byte to read
  std::string buffer_;
  size_t buffer_position_ = 0;
  std::shared_ptr<const Schema> schema_;
};

// A row SpillPartitions::Append leaves out.
constexpr uint16_t kDropRow = UINT16_MAX;

// Rows of one schema routed to `count` spill files (at most 65535) by partition number.
class SpillPartitions {
 public:
  SpillPartitions(SpillFolder* folder, std::string stem, std::shared_ptr<const Schema> schema,
                  int count);
  ~SpillPartitions();

  int count() const { return static_cast<int>(partitions_.size()); }
  // Appends row r of `batch` to partition partition_of[r] for every row (none when it is
  // kDropRow). Safe from several threads at once.
  Status Append(const Batch& batch, std::span<const uint16_t> partition_of);
  // Appends the whole batch to one partition. Safe from several threads at once.
  Status AppendAll(int partition, const Batch& batch);
  // Closes every file. REQUIRES: no Append running or to come.
  Status Finish();
  int64_t rows(int partition) const;
  int64_t bytes(int partition) const;
  int64_t total_bytes() const;
  // A reader of a finished partition's rows; an empty one when nothing was appended to it.
  Result<std::unique_ptr<BatchReader>> Open(int partition) const;

 private:
  struct Partition;
  Result<SpillWriter*> WriterOf(Partition& partition);

  SpillFolder* folder_;
  std::string stem_;
  std::shared_ptr<const Schema> schema_;
  std::vector<std::unique_ptr<Partition>> partitions_;
};

// The partition (of `count`, a power of two up to 65536) of a row whose key hashes to `hash`
// at recursion `level`: a different split at every level, so a partition too large for memory
// can be split again.
inline int PartitionOfHash(uint64_t hash, int level, int count) {
  uint64_t h = hash ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(level + 1));
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 29;
  return static_cast<int>(h & static_cast<uint64_t>(count - 1));
}

// How many levels of re-partitioning an operator tries before it gives up (a single key
// whose rows alone pass the limit cannot be split).
constexpr int kMaxSpillLevels = 4;

}  // namespace tarn::sql
