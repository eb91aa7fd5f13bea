#include "parquet/level_builder.h"

namespace tarn::parquet {

namespace {

class Shredder {
 public:
  Shredder(const WriterLeaf& leaf, std::vector<const Column*> columns, LeafLevels* out)
      : leaf_(leaf), columns_(std::move(columns)), out_(out) {}

  // Emits the level entries of row `row` of the column at step `step_idx`, whose parent
  // context reached definition level `def`; the first entry gets repetition level `rep`.
  Status Visit(size_t step_idx, int64_t row, int16_t def, int16_t rep) {
    const ShredStep& step = leaf_.steps[step_idx];
    const Column& column = *columns_[step_idx];
    if (step.nullable && column.IsNull(row)) {
      Emit(def, rep);
      return Status::OK();
    }
    int16_t present_def = static_cast<int16_t>(def + (step.nullable ? 1 : 0));
    switch (step.kind) {
      case ShredStep::Kind::kLeaf:
        Emit(present_def, rep);
        out_->value_rows.push_back(row);
        return Status::OK();
      case ShredStep::Kind::kStruct:
        return Visit(step_idx + 1, row, present_def, rep);
      case ShredStep::Kind::kRepeated: {
        const int32_t* offsets = column.values_as<int32_t>();
        int64_t begin = offsets[row];
        int64_t end = offsets[row + 1];
        if (begin > end || begin < 0 || end > columns_[step_idx + 1]->length) {
          return Status::InvalidArgument("column '", leaf_.path[0], "': list offsets [", begin,
                                         ", ", end, ") of row ", row, " out of range");
        }
        if (begin == end) {
          Emit(present_def, rep);
          return Status::OK();
        }
        int16_t element_def = static_cast<int16_t>(present_def + 1);
        for (int64_t element = begin; element < end; ++element) {
          TARN_RETURN_NOT_OK(
              Visit(step_idx + 1, element, element_def, element == begin ? rep : step.rep_level));
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

 private:
  void Emit(int16_t def, int16_t rep) {
    if (leaf_.max_def > 0) out_->def_levels.push_back(def);
    if (leaf_.max_rep > 0) out_->rep_levels.push_back(rep);
    ++out_->num_levels;
  }

  const WriterLeaf& leaf_;
  std::vector<const Column*> columns_;  // the column at each step
  LeafLevels* out_;
};

}  // namespace

Status BuildLeafLevels(const WriterLeaf& leaf_schema, const Column& column, LeafLevels* out) {
  *out = LeafLevels();
  out->num_rows = column.length;
  // Find the column at every step; the shape must follow the schema.
  std::vector<const Column*> columns;
  const Column* current = &column;
  for (const ShredStep& step : leaf_schema.steps) {
    columns.push_back(current);
    if (step.kind == ShredStep::Kind::kLeaf) break;
    size_t child = step.kind == ShredStep::Kind::kStruct ? static_cast<size_t>(step.child_index)
                                                         : 0;
    if (child >= current->children.size() || current->children[child] == nullptr) {
      return Status::InvalidArgument("column '", leaf_schema.path[0], "': a ",
                                     current->type.ToString(), " column lacks child ", child);
    }
    if (step.kind == ShredStep::Kind::kRepeated &&
        (current->values == nullptr ||
         current->values->size() < (current->length + 1) * static_cast<int64_t>(sizeof(int32_t)))) {
      return Status::InvalidArgument("column '", leaf_schema.path[0],
                                     "': list offsets buffer too small");
    }
    current = current->children[child].get();
  }
  out->leaf = current;

  if (leaf_schema.steps.size() == 1) {
    // Flat: one level per row, straight from the validity bitmap.
    out->num_levels = column.length;
    out->num_values = column.length - column.null_count;
    if (leaf_schema.max_def > 0) {
      out->def_levels.resize(static_cast<size_t>(column.length), 1);
      if (column.null_count > 0 && column.validity != nullptr) {
        const uint8_t* validity = column.validity->data();
        for (int64_t row = 0; row < column.length; ++row) {
          out->def_levels[row] = static_cast<int16_t>(GetBit(validity, row));
        }
      }
    } else if (column.null_count > 0) {
      return Status::InvalidArgument("column '", leaf_schema.path[0], "' is NOT NULL but has ",
                                     column.null_count, " NULL values");
    }
    return Status::OK();
  }

  out->dense = false;
  out->def_levels.reserve(static_cast<size_t>(column.length));
  if (leaf_schema.max_rep > 0) out->rep_levels.reserve(static_cast<size_t>(column.length));
  Shredder shredder(leaf_schema, std::move(columns), out);
  for (int64_t row = 0; row < column.length; ++row) {
    TARN_RETURN_NOT_OK(shredder.Visit(0, row, 0, 0));
  }
  out->num_values = static_cast<int64_t>(out->value_rows.size());
  return Status::OK();
}

}  // namespace tarn::parquet
