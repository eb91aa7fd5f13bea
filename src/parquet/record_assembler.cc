#include "parquet/record_assembler.h"

#include <cstring>

#include "parquet/variant_reader.h"

namespace tarn::parquet {

namespace {

class Assembler {
 public:
  Assembler(const std::vector<LeafDescriptor>& descriptors, std::vector<LeafOutput>& leaves,
            const std::string& context)
      : descriptors_(descriptors), leaves_(leaves), context_(context) {}

  Result<std::shared_ptr<Column>> Build(const SchemaNode& node, int64_t expected) {
    const LeafDescriptor& leaf = descriptors_[node.first_leaf];
    LeafOutput& out = leaves_[node.first_leaf];
    const bool flat = leaf.max_rep_level == 0;
    if (node.kind == SchemaNode::Kind::kLeaf && flat) {
      if (out.length != expected) return Mismatch(node, out.length, expected);
      auto column = std::make_shared<Column>();
      column->type = node.field.type;
      column->length = out.length;
      column->null_count = out.null_count;
      column->validity = out.null_count > 0 ? out.validity : nullptr;
      column->values = out.values;
      column->data = out.data;
      if (out.codes != nullptr) {
        auto entries = std::make_shared<Column>();
        entries->type = node.field.type;
        entries->length = out.code_entries;
        entries->values = out.code_offsets;
        entries->data = out.code_bytes;
        auto codes = std::make_shared<DictionaryCodes>();
        codes->entries = std::move(entries);
        codes->codes = out.codes;
        codes->values_of = column->values;
        codes->length = column->length;
        column->dictionary = std::move(codes);
      }
      return column;
    }
    const int64_t entries = out.num_entries;
    const int16_t* defs = out.def_levels.empty() ? nullptr : out.def_levels.data();
    const int16_t* reps = out.rep_levels.empty() ? nullptr : out.rep_levels.data();
    if ((leaf.max_def_level > 0 && defs == nullptr && entries > 0) ||
        (defs != nullptr && static_cast<int64_t>(out.def_levels.size()) != entries)) {
      return Status::Internal(context_, ": levels of ", leaf.PathString(), " were not kept");
    }
    // Slots of this node in the first leaf's entries.
    std::vector<int64_t> slots;
    if (flat) {
      slots.resize(static_cast<size_t>(entries));
      for (int64_t i = 0; i < entries; ++i) slots[i] = i;
    } else {
      for (int64_t i = 0; i < entries; ++i) {
        const int16_t def = defs ? defs[i] : 0;
        const int16_t rep = reps ? reps[i] : 0;
        if (def >= node.slot_def_level && rep <= node.slot_rep_level) slots.push_back(i);
      }
    }
    const int64_t count = static_cast<int64_t>(slots.size());
    if (count != expected) return Mismatch(node, count, expected);

    auto column = std::make_shared<Column>();
    column->type = node.field.type;
    column->length = count;
    if (node.field.nullable && defs != nullptr) {
      auto validity = Buffer::Allocate((count + 7) / 8);
      uint8_t* bits = validity->mutable_data();
      int64_t nulls = 0;
      for (int64_t k = 0; k < count; ++k) {
        if (defs[slots[k]] >= node.def_level) {
          SetBit(bits, k);
        } else {
          ++nulls;
        }
      }
      if (nulls > 0) {
        column->validity = std::move(validity);
        column->null_count = nulls;
      }
    }
    switch (node.kind) {
      case SchemaNode::Kind::kLeaf:
        TARN_RETURN_NOT_OK(SpreadValues(node, leaf, out, slots, defs, column.get()));
        break;
      case SchemaNode::Kind::kStruct:
        for (const SchemaNode& child : node.children) {
          TARN_ASSIGN_OR_RETURN(auto child_column, Build(child, count));
          column->children.push_back(std::move(child_column));
        }
        if (node.variant) {
          Result<std::shared_ptr<Column>> joined = AssembleVariant(node, *column);
          if (!joined.ok()) return joined.status().WithContext(context_);
          return joined;
        }
        break;
      case SchemaNode::Kind::kList: {
        auto offsets_buffer = Buffer::Allocate((count + 1) * 4);
        int32_t* offsets = offsets_buffer->mutable_data_as<int32_t>();
        int64_t total = 0;
        for (int64_t k = 0; k < count; ++k) {
          const int64_t end = k + 1 < count ? slots[k + 1] : entries;
          for (int64_t i = slots[k]; i < end; ++i) {
            const int16_t def = defs ? defs[i] : 0;
            const int16_t rep = reps ? reps[i] : 0;
            if (def >= node.element_def_level && rep <= node.element_rep_level) ++total;
          }
          if (total > INT32_MAX) {
            return Status::Corruption(context_, ": list ", node.field.name,
                                      " has more than 2^31 elements in one batch");
          }
          offsets[k + 1] = static_cast<int32_t>(total);
        }
        column->values = std::move(offsets_buffer);
        TARN_ASSIGN_OR_RETURN(auto child_column, Build(node.children[0], total));
        column->children.push_back(std::move(child_column));
        break;
      }
    }
    return column;
  }

 private:
  Status Mismatch(const SchemaNode& node, int64_t got, int64_t expected) const {
    return Status::Corruption(context_, ": column '", node.field.name, "' has ", got,
                              " values where its parent expects ", expected,
                              " (columns of the row group do not line up)");
  }

  // Places the leaf's dense values into its slots (NULL slots zeroed or empty).
  Status SpreadValues(const SchemaNode& node, const LeafDescriptor& leaf, const LeafOutput& out,
                      const std::vector<int64_t>& slots, const int16_t* defs, Column* column) {
    const ValueLayout layout = leaf.layout();
    const int64_t count = static_cast<int64_t>(slots.size());
    const int16_t max_def = leaf.max_def_level;
    int64_t defined = count;
    if (defs != nullptr) {
      defined = 0;
      for (int64_t k = 0; k < count; ++k) defined += defs[slots[k]] == max_def;
    }
    if (defined != out.length) {
      return Status::Corruption(context_, ": column ", leaf.PathString(), " decoded ", out.length,
                                " values for ", defined, " defined slots of '", node.field.name,
                                "'");
    }
    int64_t dense = 0;
    if (layout.var_length()) {
      auto offsets_buffer = Buffer::Allocate((count + 1) * 8);
      int64_t* offsets = offsets_buffer->mutable_data_as<int64_t>();
      const int64_t* source = out.values->data_as<int64_t>();
      for (int64_t k = 0; k < count; ++k) {
        if (!defs || defs[slots[k]] == max_def) {
          if (dense >= out.length) break;
          offsets[k + 1] = source[dense + 1];
          ++dense;
        } else {
          offsets[k + 1] = offsets[k];
        }
      }
      offsets[0] = 0;
      column->values = std::move(offsets_buffer);
      column->data = out.data;
    } else if (layout.boolean()) {
      auto bits_buffer = Buffer::Allocate((count + 7) / 8);
      uint8_t* bits = bits_buffer->mutable_data();
      const uint8_t* source = out.values->data();
      for (int64_t k = 0; k < count; ++k) {
        if (!defs || defs[slots[k]] == max_def) {
          if (dense >= out.length) break;
          if (GetBit(source, dense)) SetBit(bits, k);
          ++dense;
        }
      }
      column->values = std::move(bits_buffer);
    } else {
      const int width = layout.output_width;
      auto values_buffer = Buffer::Allocate(count * width);
      uint8_t* values = values_buffer->mutable_data();
      const uint8_t* source = out.values->data();
      for (int64_t k = 0; k < count; ++k) {
        if (!defs || defs[slots[k]] == max_def) {
          if (dense >= out.length) break;
          std::memcpy(values + k * width, source + dense * width, static_cast<size_t>(width));
          ++dense;
        }
      }
      column->values = std::move(values_buffer);
    }
    return Status::OK();
  }

  const std::vector<LeafDescriptor>& descriptors_;
  std::vector<LeafOutput>& leaves_;
  const std::string& context_;
};

}  // namespace

Result<std::shared_ptr<Column>> AssembleColumn(const SchemaNode& node,
                                               const std::vector<LeafDescriptor>& descriptors,
                                               std::vector<LeafOutput>& leaves, int64_t num_rows,
                                               const std::string& context) {
  Assembler assembler(descriptors, leaves, context);
  return assembler.Build(node, num_rows);
}

}  // namespace tarn::parquet
