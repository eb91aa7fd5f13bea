// Column kernels: Slice, Take, Filter, Concatenate. They work on the raw buffers with typed
// loops and memcpy of byte ranges; no per-row Values. Inputs keep columnar.h's invariants
// (NULL rows zeroed or empty), and copying preserves them, so no kernel re-zeroes anything.
#include <cassert>
#include <cstring>

#include "columnar/bit_util.h"
#include "tarn/columnar.h"

namespace tarn {
namespace {

std::shared_ptr<Buffer> BitmapFor(int64_t rows) { return Buffer::Allocate((rows + 7) / 8); }

// Sets column.validity and null_count from a bitmap of column.length bits; a bitmap without
// NULLs is dropped (validity is null exactly when null_count == 0).
void AttachValidity(Column* column, std::shared_ptr<Buffer> bitmap) {
  int64_t valid = internal::CountSetBits(bitmap->data(), 0, column->length);
  column->null_count = column->length - valid;
  if (column->null_count > 0) column->validity = std::move(bitmap);
}

std::shared_ptr<Column> EmptyLike(const Column& column, int64_t length) {
  auto out = std::make_shared<Column>();
  out->type = column.type;
  out->length = length;
  return out;
}

bool IsListLike(const DataType& type) { return type.id == TypeId::kList || type.id == TypeId::kMap; }

}  // namespace

std::shared_ptr<Column> Slice(const Column& column, int64_t offset, int64_t length) {
  assert(offset >= 0 && length >= 0 && offset + length <= column.length);
  // Columns are immutable, so the whole range can share the buffers instead of copying.
  if (offset == 0 && length == column.length) return std::make_shared<Column>(column);
  std::shared_ptr<Column> out = EmptyLike(column, length);
  if (column.validity) {
    std::shared_ptr<Buffer> bitmap = BitmapFor(length);
    internal::CopyBits(column.validity->data(), offset, bitmap->mutable_data(), 0, length);
    AttachValidity(out.get(), std::move(bitmap));
  } else if (column.type.id == TypeId::kNull) {
    out->null_count = length;
    out->validity = BitmapFor(length);
  }
  const DataType& type = column.type;
  if (type.id == TypeId::kBoolean) {
    out->values = BitmapFor(length);
    internal::CopyBits(column.values->data(), offset, out->values->mutable_data(), 0, length);
  } else if (type.IsVarLength()) {
    const int64_t* offsets = column.values_as<int64_t>() + offset;
    const int64_t base = offsets[0];
    out->values = Buffer::Allocate((length + 1) * 8);
    int64_t* out_offsets = out->values->mutable_data_as<int64_t>();
    for (int64_t row = 0; row <= length; ++row) out_offsets[row] = offsets[row] - base;
    out->data = Buffer::CopyOf(column.data->data() + base, offsets[length] - base);
  } else if (IsListLike(type)) {
    const int32_t* offsets = column.values_as<int32_t>() + offset;
    const int32_t base = offsets[0];
    out->values = Buffer::Allocate((length + 1) * 4);
    int32_t* out_offsets = out->values->mutable_data_as<int32_t>();
    for (int64_t row = 0; row <= length; ++row) out_offsets[row] = offsets[row] - base;
    out->children.push_back(Slice(*column.children[0], base, offsets[length] - base));
  } else if (type.id == TypeId::kStruct) {
    for (const auto& child : column.children) out->children.push_back(Slice(*child, offset, length));
  } else if (const int width = type.FixedWidth(); width > 0) {
    out->values = Buffer::CopyOf(column.values->data() + offset * width, length * width);
  }
  return out;
}

namespace {

template <typename T>
void GatherFixed(const uint8_t* src, uint8_t* dst, std::span<const int64_t> indices) {
  const T* in = reinterpret_cast<const T*>(src);
  T* out = reinterpret_cast<T*>(dst);
  for (size_t i = 0; i < indices.size(); ++i) out[i] = in[indices[i]];
}

struct Bytes16 {
  uint64_t lo;
  uint64_t hi;
};

void GatherBits(const uint8_t* src, uint8_t* dst, std::span<const int64_t> indices) {
  for (size_t i = 0; i < indices.size(); ++i) {
    if (GetBit(src, indices[i])) SetBit(dst, static_cast<int64_t>(i));
  }
}

}  // namespace

std::shared_ptr<Column> Take(const Column& column, std::span<const int64_t> indices) {
  const int64_t length = static_cast<int64_t>(indices.size());
  std::shared_ptr<Column> out = EmptyLike(column, length);
  if (column.validity) {
    std::shared_ptr<Buffer> bitmap = BitmapFor(length);
    GatherBits(column.validity->data(), bitmap->mutable_data(), indices);
    AttachValidity(out.get(), std::move(bitmap));
  } else if (column.type.id == TypeId::kNull) {
    out->null_count = length;
    out->validity = BitmapFor(length);
  }
  const DataType& type = column.type;
  if (type.id == TypeId::kBoolean) {
    out->values = BitmapFor(length);
    GatherBits(column.values->data(), out->values->mutable_data(), indices);
  } else if (type.IsVarLength()) {
    const int64_t* offsets = column.values_as<int64_t>();
    int64_t total = 0;
    for (int64_t index : indices) total += offsets[index + 1] - offsets[index];
    // Every offset and every data byte below is written.
    out->values = Buffer::AllocateUninitialized((length + 1) * 8);
    out->data = Buffer::AllocateUninitialized(total);
    int64_t* out_offsets = out->values->mutable_data_as<int64_t>();
    out_offsets[0] = 0;
    const uint8_t* src = column.data->data();
    uint8_t* dst = out->data->mutable_data();
    int64_t pos = 0;
    for (int64_t row = 0; row < length; ++row) {
      const int64_t index = indices[row];
      const int64_t size = offsets[index + 1] - offsets[index];
      std::memcpy(dst + pos, src + offsets[index], static_cast<size_t>(size));
      pos += size;
      out_offsets[row + 1] = pos;
    }
    if (const DictionaryCodes* codes = column.codes()) {
      auto taken = Buffer::AllocateUninitialized(length * 4);
      GatherFixed<uint32_t>(codes->codes->data(), taken->mutable_data(), indices);
      out->dictionary = std::make_shared<DictionaryCodes>(
          DictionaryCodes{codes->entries, std::move(taken), out->values, length});
    }
  } else if (IsListLike(type)) {
    const int32_t* offsets = column.values_as<int32_t>();
    out->values = Buffer::Allocate((length + 1) * 4);
    int32_t* out_offsets = out->values->mutable_data_as<int32_t>();
    std::vector<int64_t> child_indices;
    for (int64_t row = 0; row < length; ++row) {
      const int64_t index = indices[row];
      for (int32_t element = offsets[index]; element < offsets[index + 1]; ++element) {
        child_indices.push_back(element);
      }
      out_offsets[row + 1] = static_cast<int32_t>(child_indices.size());
    }
    out->children.push_back(Take(*column.children[0], child_indices));
  } else if (type.id == TypeId::kStruct) {
    for (const auto& child : column.children) out->children.push_back(Take(*child, indices));
  } else if (const int width = type.FixedWidth(); width > 0) {
    out->values = Buffer::AllocateUninitialized(length * width);  // every slot is gathered
    const uint8_t* src = column.values->data();
    uint8_t* dst = out->values->mutable_data();
    switch (width) {
      case 1: GatherFixed<uint8_t>(src, dst, indices); break;
      case 2: GatherFixed<uint16_t>(src, dst, indices); break;
      case 4: GatherFixed<uint32_t>(src, dst, indices); break;
      case 8: GatherFixed<uint64_t>(src, dst, indices); break;
      case 16: GatherFixed<Bytes16>(src, dst, indices); break;
      default: assert(false && "unexpected fixed width");
    }
  }
  return out;
}

std::shared_ptr<Column> Filter(const Column& column, const uint8_t* keep, int64_t keep_count) {
  // The kept-row count is taken from the bitmap itself (over column.length bits), so a caller
  // passing the bitmap's length instead of its population count still gets the right answer.
  (void)keep_count;
  const int64_t kept = internal::CountSetBits(keep, 0, column.length);
  if (kept == column.length) return std::make_shared<Column>(column);
  if (kept == 0) return Slice(column, 0, 0);
  std::vector<int64_t> indices;
  indices.reserve(static_cast<size_t>(kept));
  const int64_t full_words = column.length / 64;
  for (int64_t word_idx = 0; word_idx < full_words; ++word_idx) {
    uint64_t word;
    std::memcpy(&word, keep + word_idx * 8, 8);
    while (word != 0) {
      indices.push_back(word_idx * 64 + __builtin_ctzll(word));
      word &= word - 1;
    }
  }
  for (int64_t row = full_words * 64; row < column.length; ++row) {
    if (GetBit(keep, row)) indices.push_back(row);
  }
  return Take(column, indices);
}

std::shared_ptr<Column> Concatenate(std::span<const std::shared_ptr<Column>> columns) {
  if (columns.empty()) return std::make_shared<Column>();  // an empty NULL-typed column
  if (columns.size() == 1) return std::make_shared<Column>(*columns[0]);
  const DataType& type = columns[0]->type;
  int64_t length = 0;
  bool any_nulls = false;
  for (const auto& column : columns) {
    assert(column->type == type);
    length += column->length;
    any_nulls |= column->null_count > 0;
  }
  std::shared_ptr<Column> out = EmptyLike(*columns[0], length);
  if (any_nulls) {
    std::shared_ptr<Buffer> bitmap = BitmapFor(length);
    int64_t pos = 0;
    for (const auto& column : columns) {
      if (column->validity) {
        internal::CopyBits(column->validity->data(), 0, bitmap->mutable_data(), pos, column->length);
      } else if (type.id != TypeId::kNull) {
        internal::SetBitRange(bitmap->mutable_data(), pos, column->length);
      }
      pos += column->length;
    }
    if (type.id == TypeId::kNull) {
      out->null_count = length;
      out->validity = std::move(bitmap);
    } else {
      AttachValidity(out.get(), std::move(bitmap));
    }
  }
  if (type.id == TypeId::kBoolean) {
    out->values = BitmapFor(length);
    int64_t pos = 0;
    for (const auto& column : columns) {
      internal::CopyBits(column->values->data(), 0, out->values->mutable_data(), pos, column->length);
      pos += column->length;
    }
  } else if (type.IsVarLength()) {
    int64_t total = 0;
    for (const auto& column : columns) {
      const int64_t* offsets = column->values_as<int64_t>();
      total += offsets[column->length] - offsets[0];
    }
    out->values = Buffer::Allocate((length + 1) * 8);
    out->data = Buffer::Allocate(total);
    int64_t* out_offsets = out->values->mutable_data_as<int64_t>();
    int64_t row_pos = 0;
    int64_t byte_pos = 0;
    for (const auto& column : columns) {
      const int64_t* offsets = column->values_as<int64_t>();
      const int64_t base = offsets[0];
      const int64_t bytes = offsets[column->length] - base;
      std::memcpy(out->data->mutable_data() + byte_pos, column->data->data() + base,
                  static_cast<size_t>(bytes));
      for (int64_t row = 1; row <= column->length; ++row) {
        out_offsets[row_pos + row] = offsets[row] - base + byte_pos;
      }
      row_pos += column->length;
      byte_pos += bytes;
    }
  } else if (IsListLike(type)) {
    out->values = Buffer::Allocate((length + 1) * 4);
    int32_t* out_offsets = out->values->mutable_data_as<int32_t>();
    std::vector<std::shared_ptr<Column>> child_parts;
    int64_t row_pos = 0;
    int64_t element_pos = 0;
    for (const auto& column : columns) {
      const int32_t* offsets = column->values_as<int32_t>();
      const int32_t base = offsets[0];
      const int32_t elements = offsets[column->length] - base;
      for (int64_t row = 1; row <= column->length; ++row) {
        out_offsets[row_pos + row] = static_cast<int32_t>(offsets[row] - base + element_pos);
      }
      const Column& child = *column->children[0];
      // Slice shares the child's buffers when the list covers all of it.
      child_parts.push_back(Slice(child, base, elements));
      row_pos += column->length;
      element_pos += elements;
    }
    out->children.push_back(Concatenate(child_parts));
  } else if (type.id == TypeId::kStruct) {
    for (size_t child_idx = 0; child_idx < type.children.size(); ++child_idx) {
      std::vector<std::shared_ptr<Column>> parts;
      parts.reserve(columns.size());
      for (const auto& column : columns) parts.push_back(column->children[child_idx]);
      out->children.push_back(Concatenate(parts));
    }
  } else if (const int width = type.FixedWidth(); width > 0) {
    out->values = Buffer::AllocateUninitialized(length * width);  // every part is copied
    int64_t pos = 0;
    for (const auto& column : columns) {
      std::memcpy(out->values->mutable_data() + pos * width, column->values->data(),
                  static_cast<size_t>(column->length * width));
      pos += column->length;
    }
  }
  return out;
}

}  // namespace tarn
