#include "sql/exec/kept_runs.h"

#include <cstring>

#include "columnar/bit_util.h"

namespace tarn::sql {

RowRuns KeptRuns(const uint8_t* keep, int64_t rows) {
  RowRuns runs;
  int64_t row = 0;
  while (row < rows) {
    // Skip dropped rows a word at a time where possible.
    if ((row & 63) == 0 && row + 64 <= rows) {
      uint64_t word;
      std::memcpy(&word, keep + row / 8, 8);
      if (word == 0) {
        row += 64;
        continue;
      }
      if (word == ~uint64_t{0}) {
        if (!runs.empty() && runs.back().first + runs.back().second == row) {
          runs.back().second += 64;
        } else {
          runs.emplace_back(row, 64);
        }
        row += 64;
        continue;
      }
    }
    if (GetBit(keep, row)) {
      if (!runs.empty() && runs.back().first + runs.back().second == row) {
        ++runs.back().second;
      } else {
        runs.emplace_back(row, 1);
      }
    }
    ++row;
  }
  return runs;
}

std::shared_ptr<Column> CopyRuns(const Column& column, const RowRuns& runs, int64_t kept) {
  const DataType& type = column.type;
  const int width = type.FixedWidth();
  const bool fixed = width > 0 && type.id != TypeId::kBoolean;
  if (!fixed && !type.IsVarLength()) {
    std::vector<int64_t> indices;
    indices.reserve(static_cast<size_t>(kept));
    for (const auto& [start, length] : runs) {
      for (int64_t i = 0; i < length; ++i) indices.push_back(start + i);
    }
    return Take(column, indices);
  }
  auto out = std::make_shared<Column>();
  out->type = type;
  out->length = kept;
  if (column.validity) {
    auto bitmap = Buffer::Allocate((kept + 7) / 8);  // CopyBits needs zeroed bits
    int64_t pos = 0;
    for (const auto& [start, length] : runs) {
      internal::CopyBits(column.validity->data(), start, bitmap->mutable_data(), pos, length);
      pos += length;
    }
    out->null_count = kept - internal::CountSetBits(bitmap->data(), 0, kept);
    if (out->null_count > 0) out->validity = std::move(bitmap);
  }
  if (fixed) {
    // Every slot is written below.
    out->values = Buffer::AllocateUninitialized(kept * width);
    uint8_t* dst = out->values->mutable_data();
    const uint8_t* src = column.values->data();
    for (const auto& [start, length] : runs) {
      std::memcpy(dst, src + start * width, static_cast<size_t>(length * width));
      dst += length * width;
    }
    return out;
  }
  const int64_t* offsets = column.values_as<int64_t>();
  int64_t total = 0;
  for (const auto& [start, length] : runs) total += offsets[start + length] - offsets[start];
  // Every offset and data byte is written below.
  out->values = Buffer::AllocateUninitialized((kept + 1) * 8);
  out->data = Buffer::AllocateUninitialized(total);
  int64_t* out_offsets = out->values->mutable_data_as<int64_t>();
  uint8_t* dst = out->data->mutable_data();
  const uint8_t* src = column.data->data();
  out_offsets[0] = 0;
  int64_t row_pos = 0;
  int64_t byte_pos = 0;
  for (const auto& [start, length] : runs) {
    const int64_t base = offsets[start];
    const int64_t bytes = offsets[start + length] - base;
    std::memcpy(dst + byte_pos, src + base, static_cast<size_t>(bytes));
    const int64_t shift = byte_pos - base;
    for (int64_t i = 1; i <= length; ++i) out_offsets[row_pos + i] = offsets[start + i] + shift;
    row_pos += length;
    byte_pos += bytes;
  }
  if (const DictionaryCodes* codes = column.codes()) {
    auto kept_codes = Buffer::AllocateUninitialized(kept * 4);
    uint32_t* to = kept_codes->mutable_data_as<uint32_t>();
    const uint32_t* from = codes->codes->data_as<uint32_t>();
    for (const auto& [start, length] : runs) {
      std::memcpy(to, from + start, static_cast<size_t>(length) * 4);
      to += length;
    }
    out->dictionary = std::make_shared<DictionaryCodes>(
        DictionaryCodes{codes->entries, std::move(kept_codes), out->values, kept});
  }
  return out;
}

}  // namespace tarn::sql
