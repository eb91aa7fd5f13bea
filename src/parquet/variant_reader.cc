// Reconstructs variants from unshredded and shredded Parquet VARIANT columns.
#include "parquet/variant_reader.h"

#include <algorithm>
#include <optional>
#include <string>

#include "columnar/variant.h"

namespace tarn::parquet {
namespace {

using variant::VariantNode;

// The {value, typed_value} pair at one level of a shredded variant.
struct Level {
  const Column* value = nullptr;        // BLOB, may be absent
  const Column* typed_value = nullptr;  // any type, may be absent
};

Level LevelOf(const Column& group) {
  Level level;
  const DataType& type = group.type;
  for (size_t i = 0; i < type.children.size() && i < group.children.size(); ++i) {
    if (type.children[i].name == "value") level.value = group.children[i].get();
    if (type.children[i].name == "typed_value") level.typed_value = group.children[i].get();
  }
  return level;
}

class Rebuilder {
 public:
  explicit Rebuilder(std::string_view metadata) : metadata_(metadata) {}

  // The variant at `row` of `level`; nullopt when neither column holds one (a missing field).
  Result<std::optional<VariantNode>> Read(const Level& level, int64_t row, int depth) {
    if (depth > 64) return Status::Corruption("variant shredding nests too deeply");
    std::optional<VariantNode> untyped;
    if (level.value != nullptr && !level.value->IsNull(row)) {
      TARN_ASSIGN_OR_RETURN(VariantNode node,
                            variant::FromParquet(metadata_, level.value->GetView(row)));
      untyped = std::move(node);
    }
    const Column* typed = level.typed_value;
    if (typed == nullptr || typed->IsNull(row)) return untyped;
    switch (typed->type.id) {
      case TypeId::kStruct: {
        // A shredded object; a partially shredded one keeps its other fields in `value`.
        VariantNode node;
        node.kind = VariantNode::Kind::kObject;
        for (size_t i = 0; i < typed->children.size(); ++i) {
          TARN_ASSIGN_OR_RETURN(std::optional<VariantNode> field,
                                Read(LevelOf(*typed->children[i]), row, depth + 1));
          if (!field) continue;
          node.names.push_back(typed->type.children[i].name);
          node.children.push_back(std::move(*field));
        }
        if (untyped && untyped->kind == VariantNode::Kind::kObject) {
          for (size_t i = 0; i < untyped->names.size(); ++i) {
            node.names.push_back(std::move(untyped->names[i]));
            node.children.push_back(std::move(untyped->children[i]));
          }
        }
        // Fields come back in name order, as from an unshredded value (DuckDB reads them so).
        std::vector<size_t> order(node.names.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return node.names[a] < node.names[b]; });
        VariantNode sorted;
        sorted.kind = VariantNode::Kind::kObject;
        for (size_t i : order) {
          sorted.names.push_back(std::move(node.names[i]));
          sorted.children.push_back(std::move(node.children[i]));
        }
        return std::optional<VariantNode>(std::move(sorted));
      }
      case TypeId::kList: {
        const int32_t* offsets = typed->values_as<int32_t>();
        const Column& elements = *typed->children[0];
        VariantNode node;
        node.kind = VariantNode::Kind::kArray;
        const Level element_level = LevelOf(elements);
        for (int32_t i = offsets[row]; i < offsets[row + 1]; ++i) {
          TARN_ASSIGN_OR_RETURN(std::optional<VariantNode> element, Read(element_level, i, depth + 1));
          node.children.push_back(element ? std::move(*element) : VariantNode::Null());
        }
        return std::optional<VariantNode>(std::move(node));
      }
      default:
        return std::optional<VariantNode>(VariantNode::Primitive(typed->GetValue(row)));
    }
  }

 private:
  std::string_view metadata_;
};

}  // namespace

Result<std::shared_ptr<Column>> AssembleVariant(const SchemaNode& node, const Column& group) {
  const Column* metadata = nullptr;
  for (size_t i = 0; i < node.children.size() && i < group.children.size(); ++i) {
    if (node.children[i].field.name == "metadata") metadata = group.children[i].get();
  }
  if (metadata == nullptr) {
    return Status::Corruption("VARIANT column '", node.field.name, "' has no metadata");
  }
  Level top;
  for (size_t i = 0; i < node.children.size() && i < group.children.size(); ++i) {
    if (node.children[i].field.name == "value") top.value = group.children[i].get();
    if (node.children[i].field.name == "typed_value") top.typed_value = group.children[i].get();
  }
  ColumnBuilder builder{DataType(TypeId::kVariant)};
  for (int64_t row = 0; row < group.length; ++row) {
    if (group.IsNull(row) || metadata->IsNull(row)) {
      TARN_RETURN_NOT_OK(builder.Append(Value::Null(DataType(TypeId::kVariant))));
      continue;
    }
    Rebuilder rebuilder(metadata->GetView(row));
    Result<std::optional<VariantNode>> node_at = rebuilder.Read(top, row, 0);
    if (!node_at.ok()) {
      return node_at.status().WithContext("VARIANT column '" + node.field.name + "' row " +
                                          std::to_string(row));
    }
    if (!node_at->has_value() || (*node_at)->IsNull()) {
      TARN_RETURN_NOT_OK(builder.Append(Value::Null(DataType(TypeId::kVariant))));
      continue;
    }
    TARN_ASSIGN_OR_RETURN(std::string bytes, variant::Encode(**node_at));
    builder.AppendBytes(bytes);
  }
  return builder.Finish();
}

}  // namespace tarn::parquet
