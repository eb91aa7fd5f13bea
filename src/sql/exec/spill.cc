#include "sql/exec/spill.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace tarn::sql {
namespace {

constexpr uint32_t kBatchMagic = 0x4C505354;  // "TSPL"
constexpr size_t kWriteBuffer = 64 << 10;
constexpr size_t kReadBuffer = 256 << 10;
constexpr int kMaxDepth = 64;  // nesting of child columns

std::string ErrnoText(int error) { return std::strerror(error); }

}  // namespace

std::string SpillDisabledNote(const std::string& temp_directory) {
  if (temp_directory.empty()) {
    return " (spilling to disk is off: SET temp_directory to a folder to allow it)";
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// SpillFolder

SpillFolder::SpillFolder(std::string parent) : parent_(std::move(parent)) {}

SpillFolder::~SpillFolder() {
  std::lock_guard<std::mutex> lock(mu_);
  if (path_.empty()) return;
  std::error_code error;
  std::filesystem::remove_all(path_, error);  // best effort: nothing to report it to
}

Result<std::string> SpillFolder::NewPath(const std::string& stem) {
  std::lock_guard<std::mutex> lock(mu_);
  if (path_.empty()) {
    std::error_code error;
    std::filesystem::create_directories(parent_, error);
    if (error) {
      return Status::IOError("cannot create the temp_directory '", parent_,
                             "' for spilling: ", error.message());
    }
    std::string pattern = (std::filesystem::path(parent_) / "tarn-spill-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return Status::IOError("cannot create a spill folder in the temp_directory '", parent_,
                             "': ", ErrnoText(errno));
    }
    path_ = std::move(pattern);
  }
  return (std::filesystem::path(path_) / (stem + "-" + std::to_string(next_file_++) + ".spill"))
      .string();
}

std::string SpillFolder::path() const {
  std::lock_guard<std::mutex> lock(mu_);
  return path_;
}

// ---------------------------------------------------------------------------------------------
// SpillWriter

Result<std::unique_ptr<SpillWriter>> SpillWriter::Create(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Status::IOError("cannot create the spill file '", path, "': ", ErrnoText(errno));
  }
  return std::unique_ptr<SpillWriter>(new SpillWriter(path, fd));
}

SpillWriter::~SpillWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void SpillWriter::Put(const void* data, size_t size) {
  const char* bytes = static_cast<const char*>(data);
  bytes_ += static_cast<int64_t>(size);
  if (buffer_.size() + size > kWriteBuffer) {
    if (error_.ok()) error_ = Flush();
    if (size >= kWriteBuffer) {  // large buffers go straight to the file
      while (size > 0 && error_.ok()) {
        const ssize_t written = ::write(fd_, bytes, size);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) {
          error_ = Status::IOError("cannot write the spill file '", path_, "': ", ErrnoText(errno));
          break;
        }
        bytes += written;
        size -= static_cast<size_t>(written);
      }
      return;
    }
  }
  buffer_.append(bytes, size);
}

Status SpillWriter::Flush() {
  size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t written = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) {
      return Status::IOError("cannot write the spill file '", path_, "': ", ErrnoText(errno));
    }
    done += static_cast<size_t>(written);
  }
  buffer_.clear();
  return Status::OK();
}

void SpillWriter::PutColumn(const Column& column) {
  const uint8_t type = static_cast<uint8_t>(column.type.id);
  Put(&type, 1);
  const int64_t header[2] = {column.length, column.null_count};
  Put(header, sizeof(header));
  for (const std::shared_ptr<Buffer>* buffer : {&column.validity, &column.values, &column.data}) {
    const int64_t size = *buffer ? (*buffer)->size() : -1;
    Put(&size, sizeof(size));
    if (size > 0) Put((*buffer)->data(), static_cast<size_t>(size));
  }
  const uint32_t children = static_cast<uint32_t>(column.children.size());
  Put(&children, sizeof(children));
  for (const auto& child : column.children) PutColumn(*child);
}

Status SpillWriter::Write(const Batch& batch) {
  TARN_RETURN_NOT_OK(error_);
  if (buffer_.capacity() < kWriteBuffer) buffer_.reserve(kWriteBuffer);
  const uint32_t magic = kBatchMagic;
  Put(&magic, sizeof(magic));
  const int64_t rows = batch.num_rows;
  Put(&rows, sizeof(rows));
  const uint32_t columns = static_cast<uint32_t>(batch.columns.size());
  Put(&columns, sizeof(columns));
  for (const auto& column : batch.columns) PutColumn(*column);
  rows_ += rows;
  return error_;
}

Status SpillWriter::Finish() {
  Status status = error_;
  if (status.ok()) status = Flush();
  if (::close(fd_) != 0 && status.ok()) {
    status = Status::IOError("cannot write the spill file '", path_, "': ", ErrnoText(errno));
  }
  fd_ = -1;
  buffer_ = std::string();
  return status;
}

// ---------------------------------------------------------------------------------------------
// SpillReader

Result<std::unique_ptr<SpillReader>> SpillReader::Open(const std::string& path,
                                                       std::shared_ptr<const Schema> schema) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::IOError("cannot open the spill file '", path, "': ", ErrnoText(errno));
  }
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    return Status::IOError("cannot read the spill file '", path, "': ", ErrnoText(error));
  }
  return std::unique_ptr<SpillReader>(
      new SpillReader(path, fd, static_cast<int64_t>(info.st_size), std::move(schema)));
}

SpillReader::~SpillReader() {
  if (fd_ >= 0) ::close(fd_);
}

Status SpillReader::Damaged(const std::string& what) const {
  return Status::Corruption("the spill file '", path_, "' is damaged: ", what);
}

Status SpillReader::Get(void* out, size_t size) {
  char* target = static_cast<char*>(out);
  while (size > 0) {
    if (buffer_position_ == buffer_.size()) {
      const int64_t left = size_ - offset_;
      if (left <= 0) return Damaged("it ends in the middle of a batch");
      // Large reads skip the buffer.
      if (size >= kReadBuffer) {
        if (static_cast<int64_t>(size) > left) return Damaged("it ends in the middle of a batch");
        while (size > 0) {
          const ssize_t got = ::pread(fd_, target, size, offset_);
          if (got < 0 && errno == EINTR) continue;
          if (got <= 0) {
            return Status::IOError("cannot read the spill file '", path_, "': ",
                                   got < 0 ? ErrnoText(errno) : "unexpected end");
          }
          offset_ += got;
          target += got;
          size -= static_cast<size_t>(got);
        }
        return Status::OK();
      }
      buffer_.resize(static_cast<size_t>(std::min<int64_t>(left, kReadBuffer)));
      size_t filled = 0;
      while (filled < buffer_.size()) {
        const ssize_t got = ::pread(fd_, buffer_.data() + filled, buffer_.size() - filled, offset_);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
          return Status::IOError("cannot read the spill file '", path_, "': ",
                                 got < 0 ? ErrnoText(errno) : "unexpected end");
        }
        offset_ += got;
        filled += static_cast<size_t>(got);
      }
      buffer_position_ = 0;
    }
    const size_t take = std::min(size, buffer_.size() - buffer_position_);
    std::memcpy(target, buffer_.data() + buffer_position_, take);
    buffer_position_ += take;
    target += take;
    size -= take;
  }
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> SpillReader::GetBuffer() {
  int64_t size = 0;
  TARN_RETURN_NOT_OK(Get(&size, sizeof(size)));
  if (size < 0) {
    if (size != -1) return Damaged("a buffer of negative size");
    return std::shared_ptr<Buffer>();
  }
  const int64_t left = size_ - offset_ + static_cast<int64_t>(buffer_.size() - buffer_position_);
  if (size > left) return Damaged("a buffer runs past its end");
  std::shared_ptr<Buffer> buffer = Buffer::AllocateUninitialized(size);
  TARN_RETURN_NOT_OK(Get(buffer->mutable_data(), static_cast<size_t>(size)));
  return buffer;
}

Result<std::shared_ptr<Column>> SpillReader::GetColumn(const DataType& type, int depth) {
  if (depth > kMaxDepth) return Damaged("columns nested too deeply");
  uint8_t type_id = 0;
  TARN_RETURN_NOT_OK(Get(&type_id, 1));
  if (type_id != static_cast<uint8_t>(type.id)) return Damaged("a column of another type");
  auto column = std::make_shared<Column>();
  column->type = type;
  int64_t header[2];
  TARN_RETURN_NOT_OK(Get(header, sizeof(header)));
  column->length = header[0];
  column->null_count = header[1];
  if (column->length < 0 || column->null_count < 0 || column->null_count > column->length) {
    return Damaged("a column with an impossible length");
  }
  TARN_ASSIGN_OR_RETURN(column->validity, GetBuffer());
  TARN_ASSIGN_OR_RETURN(column->values, GetBuffer());
  TARN_ASSIGN_OR_RETURN(column->data, GetBuffer());
  uint32_t children = 0;
  TARN_RETURN_NOT_OK(Get(&children, sizeof(children)));
  if (children != type.children.size()) return Damaged("a nested column of another shape");
  for (uint32_t c = 0; c < children; ++c) {
    TARN_ASSIGN_OR_RETURN(auto child, GetColumn(type.children[c].type, depth + 1));
    column->children.push_back(std::move(child));
  }
  return column;
}

Result<std::shared_ptr<Batch>> SpillReader::Next() {
  if (offset_ == size_ && buffer_position_ == buffer_.size()) return std::shared_ptr<Batch>();
  uint32_t magic = 0;
  TARN_RETURN_NOT_OK(Get(&magic, sizeof(magic)));
  if (magic != kBatchMagic) return Damaged("a batch does not start where one should");
  int64_t rows = 0;
  uint32_t columns = 0;
  TARN_RETURN_NOT_OK(Get(&rows, sizeof(rows)));
  TARN_RETURN_NOT_OK(Get(&columns, sizeof(columns)));
  if (rows < 0 || columns != static_cast<uint32_t>(schema_->num_fields())) {
    return Damaged("a batch of another shape");
  }
  auto batch = std::make_shared<Batch>();
  batch->schema = schema_;
  batch->num_rows = rows;
  for (const Field& field : schema_->fields) {
    TARN_ASSIGN_OR_RETURN(auto column, GetColumn(field.type, 0));
    if (column->length != rows) return Damaged("a column of another length than its batch");
    batch->columns.push_back(std::move(column));
  }
  Status valid = batch->Validate();
  if (!valid.ok()) return Damaged(valid.message());
  return batch;
}

// ---------------------------------------------------------------------------------------------
// SpillPartitions

struct SpillPartitions::Partition {
  std::mutex mu;
  std::unique_ptr<SpillWriter> writer;
  std::string path;
  int64_t rows = 0;
  int64_t bytes = 0;
};

SpillPartitions::SpillPartitions(SpillFolder* folder, std::string stem,
                                 std::shared_ptr<const Schema> schema, int count)
    : folder_(folder), stem_(std::move(stem)), schema_(std::move(schema)) {
  for (int p = 0; p < count; ++p) partitions_.push_back(std::make_unique<Partition>());
}

SpillPartitions::~SpillPartitions() = default;

Result<SpillWriter*> SpillPartitions::WriterOf(Partition& partition) {
  if (!partition.writer) {
    TARN_ASSIGN_OR_RETURN(partition.path, folder_->NewPath(stem_));
    TARN_ASSIGN_OR_RETURN(partition.writer, SpillWriter::Create(partition.path));
  }
  return partition.writer.get();
}

Status SpillPartitions::AppendAll(int p, const Batch& batch) {
  if (batch.num_rows == 0) return Status::OK();
  Partition& partition = *partitions_[static_cast<size_t>(p)];
  std::lock_guard<std::mutex> lock(partition.mu);
  TARN_ASSIGN_OR_RETURN(SpillWriter * writer, WriterOf(partition));
  TARN_RETURN_NOT_OK(writer->Write(batch));
  partition.rows = writer->rows();
  partition.bytes = writer->bytes();
  return Status::OK();
}

Status SpillPartitions::Append(const Batch& batch, std::span<const uint16_t> partition_of) {
  const int count = this->count();
  // Rows grouped by partition, each group in row order (a counting sort).
  std::vector<int64_t> starts(static_cast<size_t>(count) + 1, 0);
  for (uint16_t p : partition_of) {
    if (p != kDropRow) ++starts[p + 1u];
  }
  for (int p = 0; p < count; ++p) starts[p + 1] += starts[p];
  std::vector<int64_t> order(static_cast<size_t>(starts[count]));
  {
    std::vector<int64_t> next(starts.begin(), starts.end() - 1);
    for (size_t row = 0; row < partition_of.size(); ++row) {
      if (partition_of[row] == kDropRow) continue;
      order[static_cast<size_t>(next[partition_of[row]]++)] = static_cast<int64_t>(row);
    }
  }
  for (int p = 0; p < count; ++p) {
    const int64_t begin = starts[p];
    const int64_t end = starts[p + 1];
    if (begin == end) continue;
    std::span<const int64_t> rows(order.data() + begin, static_cast<size_t>(end - begin));
    auto part = std::make_shared<Batch>();
    part->schema = batch.schema;
    part->num_rows = end - begin;
    for (const auto& column : batch.columns) part->columns.push_back(Take(*column, rows));
    TARN_RETURN_NOT_OK(AppendAll(p, *part));
  }
  return Status::OK();
}

Status SpillPartitions::Finish() {
  for (auto& partition : partitions_) {
    if (!partition->writer) continue;
    partition->bytes = partition->writer->bytes();
    TARN_RETURN_NOT_OK(partition->writer->Finish());
    partition->writer.reset();
  }
  return Status::OK();
}

int64_t SpillPartitions::rows(int p) const { return partitions_[static_cast<size_t>(p)]->rows; }
int64_t SpillPartitions::bytes(int p) const { return partitions_[static_cast<size_t>(p)]->bytes; }

int64_t SpillPartitions::total_bytes() const {
  int64_t total = 0;
  for (const auto& partition : partitions_) total += partition->bytes;
  return total;
}

namespace {

class NoRows : public BatchReader {
 public:
  explicit NoRows(std::shared_ptr<const Schema> schema) : schema_(std::move(schema)) {}
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override { return std::shared_ptr<Batch>(); }

 private:
  std::shared_ptr<const Schema> schema_;
};

}  // namespace

Result<std::unique_ptr<BatchReader>> SpillPartitions::Open(int p) const {
  const Partition& partition = *partitions_[static_cast<size_t>(p)];
  if (partition.path.empty()) return std::unique_ptr<BatchReader>(std::make_unique<NoRows>(schema_));
  TARN_ASSIGN_OR_RETURN(auto reader, SpillReader::Open(partition.path, schema_));
  return std::unique_ptr<BatchReader>(std::move(reader));
}

}  // namespace tarn::sql
