// ColumnBuilder: appends values into growing Buffers and hands them over as a Column.
//
// Each GrowingBuffer tracks its logical size locally and only tells the Buffer about it when
// it must grow and at Finish, so the fast paths are a capacity check plus a store. The bytes
// past the logical size are zero (Buffer's invariant), which is what makes a NULL row free:
// appending a NULL just advances the size over zero bytes.
#include <algorithm>
#include <cstring>

#include "columnar/value_check.h"
#include "tarn/columnar.h"

namespace tarn {
namespace {

class GrowingBuffer {
 public:
  GrowingBuffer() : buffer_(Buffer::Allocate(0)) {}

  int64_t size() const { return size_; }
  uint8_t* data() { return buffer_->mutable_data(); }

  // Returns a pointer to `bytes` writable bytes at the end and advances the size.
  uint8_t* Extend(int64_t bytes) {
    if (size_ + bytes > buffer_->capacity()) Grow(size_ + bytes);
    uint8_t* out = buffer_->mutable_data() + size_;
    size_ += bytes;
    return out;
  }
  void Reserve(int64_t bytes) {
    if (bytes > buffer_->capacity()) Grow(bytes);
  }
  // Hands the buffer over (sized exactly) and starts a new empty one.
  std::shared_ptr<Buffer> Finish() {
    buffer_->Resize(size_);
    std::shared_ptr<Buffer> out = std::move(buffer_);
    buffer_ = Buffer::Allocate(0);
    size_ = 0;
    return out;
  }

 private:
  void Grow(int64_t min_capacity) {
    // Tell the Buffer the true size first, so Reserve copies what was written.
    buffer_->Resize(size_);
    buffer_->Reserve(std::max(min_capacity, buffer_->capacity() * 2));
  }

  std::shared_ptr<Buffer> buffer_;
  int64_t size_ = 0;  // bytes written; buffer_->size() lags behind it
};

// A bitmap over a GrowingBuffer.
class GrowingBitmap {
 public:
  int64_t length() const { return length_; }
  void Append(bool bit) {
    if ((length_ & 7) == 0) bytes_.Extend(1);
    if (bit) SetBit(bytes_.data(), length_);
    ++length_;
  }
  void AppendOnes(int64_t count) {
    for (int64_t i = 0; i < count; ++i) Append(true);
  }
  void Reserve(int64_t bits) { bytes_.Reserve((bits + 7) / 8); }
  std::shared_ptr<Buffer> Finish() {
    length_ = 0;
    return bytes_.Finish();
  }

 private:
  GrowingBuffer bytes_;
  int64_t length_ = 0;
};

enum class Layout { kNull, kBool, kFixed, kVar, kStruct, kList };

Layout LayoutOf(const DataType& type) {
  if (type.id == TypeId::kNull) return Layout::kNull;
  if (type.id == TypeId::kBoolean) return Layout::kBool;
  if (type.IsVarLength()) return Layout::kVar;
  if (type.id == TypeId::kStruct) return Layout::kStruct;
  if (type.id == TypeId::kList || type.id == TypeId::kMap) return Layout::kList;
  return Layout::kFixed;
}

}  // namespace

struct ColumnBuilder::Impl {
  DataType type;
  Layout layout;
  int width;
  int64_t length = 0;
  int64_t null_count = 0;
  bool has_validity = false;  // the bitmap exists once the first NULL arrives
  GrowingBitmap validity;
  GrowingBuffer values;  // fixed values, or int64 / int32 offsets
  GrowingBitmap bits;    // kBoolean values
  GrowingBuffer data;    // var-length bytes
  std::vector<std::unique_ptr<ColumnBuilder>> children;
  std::vector<bool> child_nullable;
  int64_t last_offset = 0;  // var-length and list layouts

  explicit Impl(DataType column_type)
      : type(std::move(column_type)), layout(LayoutOf(type)), width(type.FixedWidth()) {
    for (const Field& field : type.children) {
      children.push_back(std::make_unique<ColumnBuilder>(field.type));
      child_nullable.push_back(field.nullable);
    }
    StartOffsets();
  }

  void StartOffsets() {
    last_offset = 0;
    if (layout == Layout::kVar) {
      int64_t zero = 0;
      std::memcpy(values.Extend(8), &zero, 8);
    } else if (layout == Layout::kList) {
      int32_t zero = 0;
      std::memcpy(values.Extend(4), &zero, 4);
    }
  }

  void MarkValid() {
    if (has_validity) validity.Append(true);
    ++length;
  }
  void MarkNull() {
    if (!has_validity) {
      has_validity = true;
      validity.AppendOnes(length);
    }
    validity.Append(false);
    ++null_count;
    ++length;
  }

  // The last offset written, kept here so appends need not read it back.
  int64_t LastVarOffset() const { return last_offset; }
  int64_t LastListOffset() const { return last_offset; }
  void PushVarOffset(int64_t offset) {
    last_offset = offset;
    std::memcpy(values.Extend(8), &offset, 8);
  }
  void PushListOffset(int64_t offset) {
    last_offset = offset;
    int32_t narrow = static_cast<int32_t>(offset);
    std::memcpy(values.Extend(4), &narrow, 4);
  }

  // Copies one fixed-width value; constant-size copies compile to plain moves.
  void StoreFixed(const void* bytes) {
    uint8_t* out = values.Extend(width);
    switch (width) {
      case 1: std::memcpy(out, bytes, 1); break;
      case 2: std::memcpy(out, bytes, 2); break;
      case 4: std::memcpy(out, bytes, 4); break;
      case 8: std::memcpy(out, bytes, 8); break;
      case 16: std::memcpy(out, bytes, 16); break;
      default: std::memcpy(out, bytes, static_cast<size_t>(width)); break;
    }
  }

  // The storage part of a NULL or default row: zero / empty, no validity change.
  void AppendEmptySlot() {
    switch (layout) {
      case Layout::kNull: break;
      case Layout::kBool: bits.Append(false); break;
      case Layout::kFixed: values.Extend(width); break;
      case Layout::kVar: PushVarOffset(LastVarOffset()); break;
      case Layout::kList: PushListOffset(LastListOffset()); break;
      case Layout::kStruct:
        // Non-nullable children of a NULL (or default) struct row get a default value,
        // nullable ones a NULL.
        for (size_t child_idx = 0; child_idx < children.size(); ++child_idx) {
          if (child_nullable[child_idx]) {
            children[child_idx]->AppendNull();
          } else {
            children[child_idx]->impl_->AppendDefault();
          }
        }
        break;
    }
  }

  // A valid zero / empty row (used where a non-nullable field sits under a NULL struct row).
  void AppendDefault() {
    if (layout == Layout::kNull) {
      MarkNull();
      return;
    }
    AppendEmptySlot();
    MarkValid();
  }

  void AppendNull() {
    AppendEmptySlot();
    MarkNull();
  }

  // REQUIRES: CheckValue(type, value) passed.
  void AppendChecked(const Value& value) {
    if (value.is_null()) {
      AppendNull();
      return;
    }
    const Value::Storage& storage = value.storage();
    switch (type.id) {
      case TypeId::kBoolean:
        bits.Append(std::get<bool>(storage));
        MarkValid();
        return;
      case TypeId::kInt8: return AppendNarrow<int8_t>(std::get<int64_t>(storage));
      case TypeId::kInt16: return AppendNarrow<int16_t>(std::get<int64_t>(storage));
      case TypeId::kInt32:
      case TypeId::kDate: return AppendNarrow<int32_t>(std::get<int64_t>(storage));
      case TypeId::kUInt8: return AppendNarrow<uint8_t>(std::get<uint64_t>(storage));
      case TypeId::kUInt16: return AppendNarrow<uint16_t>(std::get<uint64_t>(storage));
      case TypeId::kUInt32: return AppendNarrow<uint32_t>(std::get<uint64_t>(storage));
      case TypeId::kUInt64: return AppendNarrow<uint64_t>(std::get<uint64_t>(storage));
      case TypeId::kInt128:
      case TypeId::kUInt128:
      case TypeId::kDecimal: return AppendNarrow<__int128>(std::get<__int128>(storage));
      case TypeId::kFloat32:
        return AppendNarrow<float>(static_cast<float>(std::get<double>(storage)));
      case TypeId::kFloat64: return AppendNarrow<double>(std::get<double>(storage));
      case TypeId::kInterval: {
        const Interval& interval = std::get<Interval>(storage);
        uint8_t* out = values.Extend(16);
        std::memcpy(out, &interval.months, 4);
        std::memcpy(out + 4, &interval.days, 4);
        std::memcpy(out + 8, &interval.nanos, 8);
        MarkValid();
        return;
      }
      case TypeId::kUuid:
        std::memcpy(values.Extend(16), std::get<std::string>(storage).data(), 16);
        MarkValid();
        return;
      case TypeId::kStruct: {
        const auto& fields = std::get<std::vector<Value>>(storage);
        for (size_t child_idx = 0; child_idx < children.size(); ++child_idx) {
          children[child_idx]->impl_->AppendChecked(fields[child_idx]);
        }
        MarkValid();
        return;
      }
      case TypeId::kList:
      case TypeId::kMap: {
        const auto& elements = std::get<std::vector<Value>>(storage);
        for (const Value& element : elements) children[0]->impl_->AppendChecked(element);
        PushListOffset(LastListOffset() + static_cast<int64_t>(elements.size()));
        MarkValid();
        return;
      }
      default:
        if (layout == Layout::kVar) {
          AppendBytes(std::get<std::string>(storage));
          return;
        }
        // Remaining fixed types are int64-backed: time*, timestamp*, kInt64.
        AppendNarrow<int64_t>(std::get<int64_t>(storage));
        return;
    }
  }

  template <typename T, typename V>
  void AppendNarrow(V v) {
    T narrow = static_cast<T>(v);
    std::memcpy(values.Extend(sizeof(T)), &narrow, sizeof(T));
    MarkValid();
  }

  void AppendBytes(std::string_view bytes) {
    int64_t size = static_cast<int64_t>(bytes.size());
    int64_t end = LastVarOffset() + size;
    if (size > 0) std::memcpy(data.Extend(size), bytes.data(), bytes.size());
    PushVarOffset(end);
    MarkValid();
  }

  std::shared_ptr<Column> Finish() {
    auto column = std::make_shared<Column>();
    column->type = type;
    column->length = length;
    column->null_count = null_count;
    std::shared_ptr<Buffer> validity_buffer = validity.Finish();
    if (null_count > 0) column->validity = std::move(validity_buffer);
    switch (layout) {
      case Layout::kNull:
      case Layout::kStruct: break;
      case Layout::kBool: column->values = bits.Finish(); break;
      case Layout::kFixed:
      case Layout::kList: column->values = values.Finish(); break;
      case Layout::kVar:
        column->values = values.Finish();
        column->data = data.Finish();
        break;
    }
    for (auto& child : children) column->children.push_back(child->Finish());
    length = 0;
    null_count = 0;
    has_validity = false;
    StartOffsets();
    return column;
  }
};

ColumnBuilder::ColumnBuilder(DataType type) : impl_(std::make_unique<Impl>(std::move(type))) {}
ColumnBuilder::~ColumnBuilder() = default;

const DataType& ColumnBuilder::type() const { return impl_->type; }
int64_t ColumnBuilder::length() const { return impl_->length; }

void ColumnBuilder::Reserve(int64_t rows) {
  Impl& impl = *impl_;
  switch (impl.layout) {
    case Layout::kBool: impl.bits.Reserve(rows); break;
    case Layout::kFixed: impl.values.Reserve(rows * impl.width); break;
    case Layout::kVar: impl.values.Reserve((rows + 1) * 8); break;
    case Layout::kList: impl.values.Reserve((rows + 1) * 4); break;
    case Layout::kStruct:
      for (auto& child : impl.children) child->Reserve(rows);
      break;
    case Layout::kNull: break;
  }
}

void ColumnBuilder::AppendNull() { impl_->AppendNull(); }

Status ColumnBuilder::Append(const Value& value) {
  // Check the whole value first so that a rejected value leaves the builder unchanged.
  TARN_RETURN_NOT_OK(internal::CheckValueForType(impl_->type, value));
  impl_->AppendChecked(value);
  return Status::OK();
}

void ColumnBuilder::AppendBool(bool v) {
  impl_->bits.Append(v);
  impl_->MarkValid();
}

void ColumnBuilder::AppendFixed(const void* bytes) {
  impl_->StoreFixed(bytes);
  impl_->MarkValid();
}

void ColumnBuilder::AppendBytes(std::string_view v) {
  if (impl_->type.id == TypeId::kUuid) {
    AppendFixed(v.data());
    return;
  }
  impl_->AppendBytes(v);
}

std::shared_ptr<Column> ColumnBuilder::Finish() { return impl_->Finish(); }

}  // namespace tarn
