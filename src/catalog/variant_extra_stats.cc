// VARIANT extra_stats JSON: writing, reading, merging.
#include "catalog/variant_extra_stats.h"

#include <algorithm>

#include "catalog/commit_internal.h"
#include "columnar/variant.h"
#include "format/json_text.h"
#include "tarn/lake_write.h"
#include "tarn/catalog.h"

namespace tarn::catalog_internal {
namespace {

using variant::VariantNode;

const VariantNode* FieldOf(const VariantNode& object, std::string_view name) {
  for (size_t i = 0; i < object.names.size(); ++i) {
    if (object.names[i] == name) return &object.children[i];
  }
  return nullptr;
}

std::optional<int64_t> IntOf(const VariantNode* node) {
  if (node == nullptr || node->kind != VariantNode::Kind::kPrimitive || node->scalar.is_null()) {
    return std::nullopt;
  }
  const Value& v = node->scalar;
  if (v.type().id == TypeId::kUInt64) return static_cast<int64_t>(v.GetUInt64());
  if (v.type().id == TypeId::kInt64) return v.GetInt64();
  return std::nullopt;
}

std::optional<std::string> TextOf(const VariantNode* node) {
  if (node == nullptr || node->kind != VariantNode::Kind::kPrimitive || node->scalar.is_null() ||
      node->scalar.type().id != TypeId::kVarchar) {
    return std::nullopt;
  }
  return node->scalar.GetBytes();
}

std::optional<bool> BoolOf(const VariantNode* node) {
  if (node == nullptr || node->kind != VariantNode::Kind::kPrimitive || node->scalar.is_null() ||
      node->scalar.type().id != TypeId::kBoolean) {
    return std::nullopt;
  }
  return node->scalar.GetBool();
}

// Keeps the lower (or higher) of two bounds, compared as values of `type`.
std::optional<std::string> Bound(const std::optional<std::string>& a,
                                 const std::optional<std::string>& b, const DataType& type,
                                 int keep_sign) {
  if (!a || !b) return std::nullopt;
  Result<Value> x = DecodeStatsValue(*a, type);
  Result<Value> y = DecodeStatsValue(*b, type);
  if (!x.ok() || !y.ok()) return std::nullopt;
  return CompareStatsValues(*y, *x) * keep_sign > 0 ? b : a;
}

}  // namespace

std::optional<std::string> VariantEntriesToJson(const std::vector<VariantFieldEntry>& entries) {
  if (entries.empty()) return std::nullopt;
  std::string out = "[";
  for (size_t i = 0; i < entries.size(); ++i) {
    const VariantFieldEntry& e = entries[i];
    if (i > 0) out += ",";
    out += "{\"field_name\":";
    format::AppendJsonString(e.field_name, &out);
    out += ",\"shredded_type\":";
    format::AppendJsonString(e.shredded_type, &out);
    out += ",\"null_count\":" + std::to_string(e.null_count);
    if (e.min) {
      out += ",\"min\":";
      format::AppendJsonString(*e.min, &out);
    }
    if (e.max) {
      out += ",\"max\":";
      format::AppendJsonString(*e.max, &out);
    }
    out += ",\"num_values\":" + std::to_string(e.num_values);
    if (e.contains_nan) out += std::string(",\"contains_nan\":") + (*e.contains_nan ? "true" : "false");
    out += ",\"column_size_bytes\":" + std::to_string(e.column_size_bytes);
    out += std::string(",\"any_valid\":") + (e.any_valid ? "true" : "false") + "}";
  }
  return out + "]";
}

std::optional<std::vector<VariantFieldEntry>> VariantEntriesFromJson(std::string_view json) {
  Result<VariantNode> parsed = variant::ParseJson(json);
  if (!parsed.ok() || parsed->kind != VariantNode::Kind::kArray) return std::nullopt;
  std::vector<VariantFieldEntry> out;
  for (const VariantNode& object : parsed->children) {
    if (object.kind != VariantNode::Kind::kObject) return std::nullopt;
    VariantFieldEntry entry;
    std::optional<std::string> name = TextOf(FieldOf(object, "field_name"));
    std::optional<std::string> type = TextOf(FieldOf(object, "shredded_type"));
    if (!name || !type) return std::nullopt;
    entry.field_name = *name;
    entry.shredded_type = *type;
    entry.null_count = IntOf(FieldOf(object, "null_count")).value_or(0);
    entry.min = TextOf(FieldOf(object, "min"));
    entry.max = TextOf(FieldOf(object, "max"));
    entry.num_values = IntOf(FieldOf(object, "num_values")).value_or(0);
    entry.contains_nan = BoolOf(FieldOf(object, "contains_nan"));
    entry.column_size_bytes = IntOf(FieldOf(object, "column_size_bytes")).value_or(0);
    entry.any_valid = BoolOf(FieldOf(object, "any_valid")).value_or(true);
    out.push_back(std::move(entry));
  }
  return out;
}

void MergeVariantExtraStats(std::optional<std::string>* into,
                            const std::optional<std::string>& more) {
  if (!into->has_value()) return;  // no shredded fields: nothing to keep
  std::optional<std::vector<VariantFieldEntry>> mine = VariantEntriesFromJson(**into);
  std::optional<std::vector<VariantFieldEntry>> theirs =
      more ? VariantEntriesFromJson(*more) : std::vector<VariantFieldEntry>{};
  if (!mine || !theirs) {
    into->reset();
    return;
  }
  std::vector<VariantFieldEntry> kept;
  for (VariantFieldEntry& entry : *mine) {
    auto other = std::find_if(theirs->begin(), theirs->end(), [&](const VariantFieldEntry& e) {
      return e.field_name == entry.field_name;
    });
    if (other == theirs->end() || other->shredded_type != entry.shredded_type) continue;
    Result<DataType> type = ParseDuckLakeType(entry.shredded_type);
    entry.null_count += other->null_count;
    entry.num_values += other->num_values;
    entry.column_size_bytes += other->column_size_bytes;
    entry.any_valid = entry.any_valid || other->any_valid;
    if (entry.contains_nan || other->contains_nan) {
      entry.contains_nan = entry.contains_nan.value_or(false) || other->contains_nan.value_or(false);
    }
    if (type.ok()) {
      entry.min = Bound(entry.min, other->min, *type, -1);
      entry.max = Bound(entry.max, other->max, *type, 1);
    } else {
      entry.min.reset();
      entry.max.reset();
    }
    kept.push_back(std::move(entry));
  }
  *into = VariantEntriesToJson(kept);
}

}  // namespace tarn::catalog_internal
