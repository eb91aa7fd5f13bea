#include "parquet/byte_stream_split.h"

#include <cstring>

namespace tarn::parquet {

namespace {

// Joins values [first, first + count) of `n` split values of W bytes into PLAIN order.
template <int W>
void JoinFixed(const uint8_t* data, int64_t n, int64_t first, int64_t count, uint8_t* out) {
  for (int64_t i = 0; i < count; ++i) {
    for (int k = 0; k < W; ++k) out[i * W + k] = data[k * n + first + i];
  }
}

void JoinAny(const uint8_t* data, int width, int64_t n, int64_t first, int64_t count,
             uint8_t* out) {
  for (int k = 0; k < width; ++k) {
    const uint8_t* stream = data + k * n + first;
    for (int64_t i = 0; i < count; ++i) out[i * width + k] = stream[i];
  }
}

}  // namespace

int ByteStreamSplitWidth(PhysicalType physical, int type_length) {
  switch (physical) {
    case PhysicalType::kFloat:
    case PhysicalType::kInt32:
      return 4;
    case PhysicalType::kDouble:
    case PhysicalType::kInt64:
      return 8;
    case PhysicalType::kFixedLenByteArray:
      return type_length > 0 ? type_length : 0;
    default:
      return 0;
  }
}

void EncodeByteStreamSplit(const uint8_t* values, int64_t count, int width, std::string* out) {
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(count * width));
  auto* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  for (int k = 0; k < width; ++k) {
    uint8_t* stream = dst + k * count;
    for (int64_t i = 0; i < count; ++i) stream[i] = values[i * width + k];
  }
}

Status ByteStreamSplitReader::Reset(PhysicalType physical, int type_length, const uint8_t* data,
                                    int64_t size) {
  width_ = ByteStreamSplitWidth(physical, type_length);
  if (width_ == 0) {
    return Status::Corruption("encoding BYTE_STREAM_SPLIT does not apply to physical type ",
                              PhysicalTypeName(physical));
  }
  if (size % width_ != 0) {
    return Status::Corruption("BYTE_STREAM_SPLIT: a section of ", size,
                              " bytes is not a whole number of ", width_, "-byte values");
  }
  data_ = data;
  num_values_ = size / width_;
  next_ = 0;
  return Status::OK();
}

Status ByteStreamSplitReader::Decode(int64_t count, ValueSink* sink, int64_t pos) {
  if (count <= 0) return Status::OK();
  if (count > num_values_ - next_) {
    return Status::Corruption("BYTE_STREAM_SPLIT: ", count, " values needed, the page holds ",
                              num_values_ - next_, " more");
  }
  plain_.resize(static_cast<size_t>(count * width_));
  auto* out = reinterpret_cast<uint8_t*>(plain_.data());
  switch (width_) {
    case 4: JoinFixed<4>(data_, num_values_, next_, count, out); break;
    case 8: JoinFixed<8>(data_, num_values_, next_, count, out); break;
    default: JoinAny(data_, width_, num_values_, next_, count, out); break;
  }
  next_ += count;
  int64_t read_pos = 0;
  return DecodePlainValues(layout_, out, count * width_, &read_pos, count, sink, pos);
}

Status ByteStreamSplitReader::Skip(int64_t count) {
  if (count > num_values_ - next_) {
    return Status::Corruption("BYTE_STREAM_SPLIT: skipping ", count, " values, the page holds ",
                              num_values_ - next_, " more");
  }
  next_ += count;
  return Status::OK();
}

}  // namespace tarn::parquet
