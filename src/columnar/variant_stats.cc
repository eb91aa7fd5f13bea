// Per-path shredding statistics of VARIANT values.
#include "columnar/variant_stats.h"

#include <algorithm>
#include <cmath>

namespace tarn::variant {

namespace {

// The order of two scalars of the same type, for min/max.
int CompareScalars(const Value& a, const Value& b) {
  const DataType& type = a.type();
  if (type.IsFloating()) {
    const double x = a.GetDouble(), y = b.GetDouble();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  switch (a.storage().index()) {
    case 1: return static_cast<int>(a.GetBool()) - static_cast<int>(b.GetBool());
    case 2: return a.GetInt64() < b.GetInt64() ? -1 : (a.GetInt64() > b.GetInt64() ? 1 : 0);
    case 3: return a.GetUInt64() < b.GetUInt64() ? -1 : (a.GetUInt64() > b.GetUInt64() ? 1 : 0);
    case 4: return a.GetInt128() < b.GetInt128() ? -1 : (a.GetInt128() > b.GetInt128() ? 1 : 0);
    case 6: return a.GetBytes().compare(b.GetBytes()) < 0 ? -1 : (a.GetBytes() == b.GetBytes() ? 0 : 1);
    default: return 0;
  }
}

// Narrows a scalar to its shredded type (both hold the same number).
Value AsShredded(const Value& scalar, const DataType& type) {
  if (scalar.type() == type) return scalar;
  switch (scalar.type().id) {
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      return Value::Int(type, static_cast<int64_t>(scalar.GetUInt64()));
    case TypeId::kInt128: case TypeId::kUInt128:
      return Value::Int(type, static_cast<int64_t>(scalar.GetInt128()));
    default: return scalar;
  }
}

int64_t ScalarBytes(const Value& v) {
  if (v.is_null()) return 0;
  const int width = v.type().FixedWidth();
  if (width > 0) return width;
  if (v.type().id == TypeId::kBoolean) return 1;
  return static_cast<int64_t>(v.GetBytes().size()) + 4;
}

std::string QuoteField(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

}  // namespace

// What one path saw. A kind is "OBJECT", "ARRAY" or a scalar type's DuckLake name.
struct VariantStatsCollector::PathState {
  struct KindStats {
    std::string kind;
    DataType type;
    int64_t count = 0;
    std::optional<Value> min, max;
    bool nan = false;
    int64_t bytes = 0;
  };
  std::vector<KindStats> kinds;  // in order of first appearance
  // Object fields in order of first appearance, and the array element.
  std::vector<std::pair<std::string, std::unique_ptr<PathState>>> fields;
  std::unique_ptr<PathState> element;
  int64_t arrays_with_elements = 0;  // array values holding at least one element
  int64_t elements = 0;              // elements over all array values

  KindStats& Kind(const std::string& kind, const DataType& type) {
    for (KindStats& stats : kinds) {
      if (stats.kind == kind) return stats;
    }
    kinds.push_back(KindStats{kind, type, 0, std::nullopt, std::nullopt, false, 0});
    return kinds.back();
  }

  PathState& Field(const std::string& name) {
    for (auto& [field_name, state] : fields) {
      if (field_name == name) return *state;
    }
    fields.emplace_back(name, std::make_unique<PathState>());
    return *fields.back().second;
  }

  void Add(const VariantNode& node, int depth) {
    if (node.IsNull() || depth > 64) return;
    switch (node.kind) {
      case VariantNode::Kind::kObject: {
        ++Kind("OBJECT", DataType()).count;
        for (size_t i = 0; i < node.names.size(); ++i) Field(node.names[i]).Add(node.children[i], depth + 1);
        return;
      }
      case VariantNode::Kind::kArray: {
        ++Kind("ARRAY", DataType()).count;
        if (!node.children.empty()) ++arrays_with_elements;
        elements += static_cast<int64_t>(node.children.size());
        if (!element) element = std::make_unique<PathState>();
        for (const VariantNode& child : node.children) element->Add(child, depth + 1);
        return;
      }
      case VariantNode::Kind::kPrimitive: break;
    }
    const DataType type = ShreddedType(node.scalar.type());
    KindStats& stats = Kind(type.ToDuckLakeName(), type);
    ++stats.count;
    stats.bytes += ScalarBytes(node.scalar);
    const Value value = AsShredded(node.scalar, type);
    if (type.IsFloating() && std::isnan(value.GetDouble())) {
      stats.nan = true;
      return;
    }
    if (!stats.min || CompareScalars(value, *stats.min) < 0) stats.min = value;
    if (!stats.max || CompareScalars(value, *stats.max) > 0) stats.max = value;
  }

  const KindStats* Chosen() const {
    const KindStats* best = nullptr;
    for (const KindStats& stats : kinds) {
      if (best == nullptr || stats.count > best->count) best = &stats;
    }
    return best;
  }

  void Collect(const std::string& path, int64_t slots, std::vector<VariantFieldStats>* out) const {
    const KindStats* chosen = Chosen();
    if (chosen == nullptr) return;
    if (chosen->kind == "OBJECT") {
      for (const auto& [name, state] : fields) {
        const std::string quoted = QuoteField(name);
        state->Collect(path.empty() ? quoted : path + "." + quoted, slots, out);
      }
      return;
    }
    if (chosen->kind == "ARRAY") {
      if (element) {
        element->Collect(path.empty() ? "element" : path + ".element",
                         slots - arrays_with_elements + elements, out);
      }
      return;
    }
    if (kinds.size() != 1) return;  // other kinds stay in the untyped value
    VariantFieldStats stats;
    stats.path = path.empty() ? "root" : path;
    stats.type = chosen->type;
    stats.num_values = slots;
    stats.null_count = slots - chosen->count;
    stats.min = chosen->min;
    stats.max = chosen->max;
    stats.contains_nan = chosen->nan;
    stats.size_bytes = chosen->bytes;
    out->push_back(std::move(stats));
  }
};

VariantStatsCollector::VariantStatsCollector() : root_(std::make_unique<PathState>()) {}
VariantStatsCollector::~VariantStatsCollector() = default;
VariantStatsCollector::VariantStatsCollector(VariantStatsCollector&&) noexcept = default;
VariantStatsCollector& VariantStatsCollector::operator=(VariantStatsCollector&&) noexcept = default;

void VariantStatsCollector::Add(const Column& column) {
  for (int64_t row = 0; row < column.length; ++row) {
    if (column.IsNull(row)) {
      AddRow(nullptr);
      continue;
    }
    Result<VariantNode> node = Decode(column.GetView(row));
    AddRow(node.ok() ? &*node : nullptr);
  }
}

void VariantStatsCollector::AddRow(const VariantNode* node) {
  ++rows_;
  if (node == nullptr || node->IsNull()) {
    ++null_rows_;
    return;
  }
  root_->Add(*node, 0);
}

std::vector<VariantFieldStats> VariantStatsCollector::Finish() const {
  std::vector<VariantFieldStats> out;
  root_->Collect("", rows_, &out);
  std::sort(out.begin(), out.end(),
            [](const VariantFieldStats& a, const VariantFieldStats& b) { return a.path < b.path; });
  return out;
}

DataType ShreddedType(const DataType& scalar) {
  switch (scalar.id) {
    case TypeId::kUInt8: return DataType(TypeId::kInt16);
    case TypeId::kUInt16: return DataType(TypeId::kInt32);
    case TypeId::kUInt32: case TypeId::kUInt64: case TypeId::kInt128: case TypeId::kUInt128:
      return DataType(TypeId::kInt64);
    default: return scalar;
  }
}

}  // namespace tarn::variant
