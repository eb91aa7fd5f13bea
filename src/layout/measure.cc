#include "layout/measure.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "layout/column_keys.h"
#include "tarn/layout.h"

namespace tarn::layout {
namespace {

// A file that keeps nothing but its length.
class CountingFile final : public WritableFile {
 public:
  const std::string& path() const override { return path_; }
  Status Append(std::string_view bytes) override {
    bytes_ += static_cast<int64_t>(bytes.size());
    return Status::OK();
  }
  int64_t bytes_written() const override { return bytes_; }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }

 private:
  std::string path_ = "<measured layout>";
  int64_t bytes_ = 0;
};

// Rows per slice handed to the writer: it cuts row groups by rows and bytes either way.
constexpr int64_t kSliceRows = 122880;

}  // namespace

Result<int64_t> MeasureOrder(const Batch& batch, std::span<const int64_t> order,
                             const std::shared_ptr<const WriterProperties>& properties) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<ParquetWriter> writer,
                        ParquetWriter::Open(std::make_unique<CountingFile>(), *batch.schema,
                                            properties));
  const int64_t rows = static_cast<int64_t>(order.size());
  for (int64_t offset = 0; offset < rows; offset += kSliceRows) {
    const int64_t length = std::min(kSliceRows, rows - offset);
    std::span<const int64_t> slice = order.subspan(static_cast<size_t>(offset),
                                                   static_cast<size_t>(length));
    std::vector<std::shared_ptr<Column>> columns;
    for (const auto& column : batch.columns) columns.push_back(Take(*column, slice));
    auto piece = MakeBatch(batch.schema, std::move(columns));
    piece->num_rows = length;
    Status written = writer->Write(*piece);
    if (!written.ok()) {
      writer->Abandon();
      return written;
    }
  }
  TARN_ASSIGN_OR_RETURN(WrittenFileInfo info, writer->Finish());
  return info.file_size;
}

std::vector<int64_t> SortByRanks(int64_t rows,
                                 std::span<const std::vector<uint32_t>* const> ranks) {
  std::vector<int64_t> order(static_cast<size_t>(rows));
  std::iota(order.begin(), order.end(), 0);
  if (ranks.empty()) return order;
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    for (const std::vector<uint32_t>* column : ranks) {
      const uint32_t x = (*column)[static_cast<size_t>(a)];
      const uint32_t y = (*column)[static_cast<size_t>(b)];
      if (x != y) return x < y;
    }
    return false;
  });
  return order;
}

}  // namespace tarn::layout

namespace tarn {

Result<int64_t> MeasureSortedSize(const Batch& batch, std::span<const int> key,
                                  std::shared_ptr<const WriterProperties> properties) {
  if (properties == nullptr) {
    TARN_ASSIGN_OR_RETURN(properties,
                          WriterPropertiesFor(WriterProfile::kReadOptimized, batch.num_rows));
  }
  std::vector<std::vector<uint32_t>> ranks(key.size());
  std::vector<const std::vector<uint32_t>*> pointers;
  for (size_t k = 0; k < key.size(); ++k) {
    if (key[k] < 0 || key[k] >= batch.num_columns()) {
      return Status::InvalidArgument("sort key column ", key[k], " is not a column of a batch of ",
                                     batch.num_columns());
    }
    layout::RankColumn(batch.column(key[k]), &ranks[k]);
    pointers.push_back(&ranks[k]);
  }
  const std::vector<int64_t> order = layout::SortByRanks(batch.num_rows, pointers);
  return layout::MeasureOrder(batch, order, properties);
}

}  // namespace tarn
