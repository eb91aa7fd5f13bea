#include "sql/exec/unnest.h"

#include <algorithm>
#include <utility>

#include "expr/eval/kernels.h"

namespace tarn::sql {
namespace {

// One unnested column of a batch: its rows' element ranges, and its elements with one NULL
// appended (at index `null_index`) for the rows a longer list pads.
struct Unnested {
  std::vector<int64_t> offsets;  // rows + 1
  std::shared_ptr<Column> elements;
  int64_t null_index = 0;
};

Unnested Flatten(const Column& lists, const DataType& element_type, int64_t rows) {
  Unnested out;
  ColumnBuilder null_element(element_type);
  null_element.AppendNull();
  std::shared_ptr<Column> padding = null_element.Finish();
  if (lists.type.id == TypeId::kNull) {
    out.offsets.assign(static_cast<size_t>(rows) + 1, 0);
    out.elements = padding;
    return out;
  }
  expr::ListElements flat = expr::FlattenLists(lists, rows);
  out.offsets = std::move(flat.offsets);
  out.null_index = flat.elements->length;
  const std::shared_ptr<Column> parts[] = {flat.elements, padding};
  out.elements = Concatenate(parts);
  return out;
}

class UnnestOperator : public Operator {
 public:
  UnnestOperator(std::unique_ptr<Operator> input, std::vector<int> kept, std::vector<int> lists,
                 std::vector<DataType> element_types, std::vector<std::string> element_names,
                 bool keep_empty)
      : input_(std::move(input)), kept_(std::move(kept)), lists_(std::move(lists)),
        element_types_(std::move(element_types)), keep_empty_(keep_empty) {
    auto schema = std::make_shared<Schema>();
    const Schema& in = *input_->schema();
    for (int column : kept_) schema->fields.push_back(in.field(column));
    for (size_t k = 0; k < lists_.size(); ++k) {
      schema->fields.emplace_back(element_names[k], element_types_[k]);
    }
    schema_ = std::move(schema);
  }

  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    return NextTransformed(*this, input_.get());
  }
  Operator* per_batch_input() override { return input_.get(); }

  Result<std::shared_ptr<Batch>> TransformBatch(std::shared_ptr<Batch> batch) const override {
    const int64_t rows = batch->num_rows;
    std::vector<Unnested> unnested;
    for (size_t k = 0; k < lists_.size(); ++k) {
      unnested.push_back(Flatten(batch->column(lists_[k]), element_types_[k], rows));
    }
    // Each row's output count: its longest list.
    std::vector<int64_t> counts(static_cast<size_t>(rows), 0);
    int64_t total = 0;
    for (int64_t row = 0; row < rows; ++row) {
      int64_t longest = keep_empty_ ? 1 : 0;
      for (const Unnested& u : unnested) {
        longest = std::max(longest, u.offsets[static_cast<size_t>(row) + 1] -
                                        u.offsets[static_cast<size_t>(row)]);
      }
      counts[static_cast<size_t>(row)] = longest;
      total += longest;
    }
    std::vector<int64_t> repeat(static_cast<size_t>(total));
    std::vector<std::vector<int64_t>> picks(unnested.size(),
                                            std::vector<int64_t>(static_cast<size_t>(total)));
    int64_t out = 0;
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t count = counts[static_cast<size_t>(row)];
      for (int64_t j = 0; j < count; ++j) repeat[static_cast<size_t>(out + j)] = row;
      for (size_t k = 0; k < unnested.size(); ++k) {
        const Unnested& u = unnested[k];
        const int64_t begin = u.offsets[static_cast<size_t>(row)];
        const int64_t length = u.offsets[static_cast<size_t>(row) + 1] - begin;
        int64_t* pick = picks[k].data() + out;
        for (int64_t j = 0; j < count; ++j) pick[j] = j < length ? begin + j : u.null_index;
      }
      out += count;
    }
    std::vector<std::shared_ptr<Column>> columns;
    for (int column : kept_) columns.push_back(Take(batch->column(column), repeat));
    for (size_t k = 0; k < unnested.size(); ++k) {
      columns.push_back(Take(*unnested[k].elements, picks[k]));
    }
    if (columns.empty()) return MakeEmptyColumnsBatch(schema_, total);
    return MakeBatch(schema_, std::move(columns));
  }

  std::string label() const override { return "UNNEST"; }
  std::vector<std::string> details() const override {
    std::vector<std::string> lines;
    const Schema& in = *input_->schema();
    for (int list : lists_) lines.push_back(in.field(list).name);
    return lines;
  }
  std::vector<const Operator*> inputs() const override { return {input_.get()}; }

 private:
  std::unique_ptr<Operator> input_;
  std::vector<int> kept_;
  std::vector<int> lists_;
  std::vector<DataType> element_types_;
  bool keep_empty_;
  std::shared_ptr<const Schema> schema_;
};

}  // namespace

Result<DataType> UnnestedType(const DataType& list) {
  if (list.id == TypeId::kNull) return DataType(TypeId::kNull);
  if (list.id == TypeId::kList) return list.children[0].type;
  if (list.id == TypeId::kStruct) {
    // A struct's UNNEST as a whole select item became its fields before planning.
    return Status::InvalidArgument("Binder Error: UNNEST() on a struct column can only be "
                                   "applied as the root element of a SELECT expression");
  }
  return Status::InvalidArgument(
      "Binder Error: UNNEST() can only be applied to lists, structs and NULL, not ", list.ToString());
}

std::unique_ptr<Operator> MakeUnnest(std::unique_ptr<Operator> input, std::vector<int> kept,
                                     std::vector<int> lists,
                                     std::vector<std::string> element_names, bool keep_empty) {
  std::vector<DataType> types;
  const Schema& in = *input->schema();
  for (int list : lists) {
    const DataType& type = in.field(list).type;
    types.push_back(type.id == TypeId::kList ? type.children[0].type : DataType(TypeId::kNull));
  }
  return std::make_unique<UnnestOperator>(std::move(input), std::move(kept), std::move(lists),
                                          std::move(types), std::move(element_names), keep_empty);
}

}  // namespace tarn::sql
