#include "table/add_files.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "catalog/stats_encode.h"
#include "columnar/geometry.h"
#include "expr/eval/cast.h"
#include "parquet/schema.h"
#include "parquet/statistics.h"
#include "table/partition_keys.h"
#include "tarn/format.h"
#include "tarn/parquet.h"

namespace tarn::table_internal {

namespace {

// One name-mapping entry before it gets its mapping-local index.
struct MappedNode {
  std::string source_name;
  int64_t target_field_id = 0;
  bool is_partition = false;
  std::vector<MappedNode> children;
};

// A value a file takes from a `key=value` folder: an identity column, or a partition key.
struct HiveValue {
  int64_t column_id = 0;
  PartitionTransform transform = PartitionTransform::kIdentity;
  int64_t key_index = -1;  // transformed keys: the spec's key index
  Value value;             // typed; NULL for a NULL partition
};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        HexDigit(text[i + 1]) >= 0 && HexDigit(text[i + 2]) >= 0) {
      out += static_cast<char>(HexDigit(text[i + 1]) * 16 + HexDigit(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The `key=value` folders of a path (the file name itself excluded), as DuckDB parses them;
// a key given twice keeps its last value.
std::map<std::string, std::string> ParseHivePartitions(const std::string& path) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (true) {
    const size_t end = path.find('/', start);
    if (end == std::string::npos) break;
    std::string_view segment(path.data() + start, end - start);
    const size_t equals = segment.find('=');
    if (equals != std::string_view::npos && equals > 0) {
      out[std::string(segment.substr(0, equals))] = PercentDecode(segment.substr(equals + 1));
    }
    start = end + 1;
  }
  return out;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// A hive folder's text as a value of `type`, as DuckDB's HivePartitioning::GetValue: NULL for
// an empty value, "NULL" or __HIVE_DEFAULT_PARTITION__, else a cast that must succeed.
Result<Value> HiveValueOf(const std::string& key, const std::string& text, const DataType& type) {
  if (text.empty() || text == "__HIVE_DEFAULT_PARTITION__" || Upper(text) == "NULL") {
    return Value::Null(type);
  }
  Result<Value> cast = expr::CastValue(Value::Varchar(text), type);
  if (!cast.ok()) {
    return Status::InvalidArgument("Invalid Input Error: Unable to cast '", text,
                                   "' (from hive partition column '", Upper(key), "') to: '",
                                   type.ToString(), "'");
  }
  return cast;
}

// A type as the extension prints a file's type: nested types by their kind alone.
std::string SourceTypeName(const DataType& type) {
  switch (type.id) {
    case TypeId::kStruct: return "STRUCT";
    case TypeId::kList: return "LIST";
    case TypeId::kMap: return "MAP";
    default: return type.ToString();
  }
}

bool SameType(const DataType& a, const DataType& b) {
  return a.id == b.id && a.precision == b.precision && a.scale == b.scale;
}

// Maps one file's columns onto the table's, checking types; collects the hive values and,
// per leaf of the file, the table column its statistics describe.
class FileMapper {
 public:
  FileMapper(const TableInfo& table, std::string file, const AddDataFilesOptions& options,
             std::map<std::string, std::string> hive)
      : table_(table), file_(std::move(file)), options_(options), hive_(std::move(hive)) {}

  Status MapColumns(const std::vector<parquet::SchemaNode>& nodes,
                    const std::vector<ColumnInfo>& targets, const std::string& prefix,
                    bool top_level, std::vector<MappedNode>* out);
  // Keys of the table's partition spec with a transform (year, month, ...), from the path.
  Status MapPartitionKeys();

  const std::vector<HiveValue>& hive_values() const { return hive_values_; }
  const std::map<int, const ColumnInfo*>& leaf_targets() const { return leaf_targets_; }

 private:
  Status MapColumn(const parquet::SchemaNode& node, const ColumnInfo& target,
                   const std::string& prefix, MappedNode* out);
  Status MapHiveColumn(const ColumnInfo& target, const std::string& text, MappedNode* out);
  Status CheckType(const DataType& source, const ColumnInfo& target, const std::string& prefix,
                   const std::string& name) const;
  Status Fail(const std::string& prefix, const std::string& name,
              const std::string& failure) const {
    return Status::InvalidArgument("Invalid Input Error: Failed to map column \"",
                                   prefix.empty() ? "" : prefix + ".", name, "\" from file \"",
                                   file_, "\" to the column in table \"", table_.name,
                                   "\"\n* ", failure);
  }

  const TableInfo& table_;
  std::string file_;
  const AddDataFilesOptions& options_;
  std::map<std::string, std::string> hive_;
  std::vector<HiveValue> hive_values_;
  std::map<int, const ColumnInfo*> leaf_targets_;  // FileSchema leaf index -> table column
};

Status FileMapper::CheckType(const DataType& source, const ColumnInfo& target,
                             const std::string& prefix, const std::string& name) const {
  const DataType& type = target.type;
  auto expect = [&](std::vector<TypeId> accepted) -> Status {
    for (TypeId id : accepted) {
      if (source.id == id) return Status::OK();
    }
    std::string list;
    for (TypeId id : accepted) list += (list.empty() ? "" : ", ") + DataType(id).ToString();
    return Fail(prefix, name, StrCat("Expected ", accepted.size() > 1 ? "one of " : "", list,
                                     ", found type ", SourceTypeName(source)));
  };
  switch (type.id) {
    case TypeId::kJson:
      if (source.id != TypeId::kJson) {
        return Fail(prefix, name, StrCat("Expected type \"JSON\" but found type \"",
                                         SourceTypeName(source), "\""));
      }
      return Status::OK();
    case TypeId::kGeometry:
      // A GeoParquet v1 file holds WKB in a plain BLOB column (its "geo" metadata aside).
      if (source.id != TypeId::kGeometry) {
        return Fail(prefix, name,
                    StrCat("Expected type \"GEOMETRY\" but found type \"", SourceTypeName(source),
                           "\". Is this a GeoParquet v1.*.* file? DuckLake only supports GEOMETRY "
                           "types stored in native Parquet(V3) format, not GeoParquet(v1.*.*)"));
      }
      return Status::OK();
    case TypeId::kInt64:
      return expect({TypeId::kInt64, TypeId::kUInt32, TypeId::kInt32, TypeId::kUInt16,
                     TypeId::kInt16, TypeId::kUInt8, TypeId::kInt8});
    case TypeId::kInt32:
      return expect({TypeId::kInt32, TypeId::kUInt16, TypeId::kInt16, TypeId::kUInt8,
                     TypeId::kInt8});
    case TypeId::kInt16:
      return expect({TypeId::kInt16, TypeId::kUInt8, TypeId::kInt8});
    case TypeId::kInt8:
      return expect({TypeId::kInt8});
    case TypeId::kUInt64:
      return expect({TypeId::kUInt64, TypeId::kUInt32, TypeId::kUInt16, TypeId::kUInt8});
    case TypeId::kUInt32:
      return expect({TypeId::kUInt32, TypeId::kUInt16, TypeId::kUInt8});
    case TypeId::kUInt16:
      return expect({TypeId::kUInt16, TypeId::kUInt8});
    case TypeId::kUInt8:
      return expect({TypeId::kUInt8});
    case TypeId::kFloat64:
      return expect({TypeId::kFloat64, TypeId::kFloat32});
    case TypeId::kFloat32:
      return expect({TypeId::kFloat32});
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap:
      if (source.id != type.id) {
        return Fail(prefix, name, StrCat("Expected type \"", type.ToString(),
                                         "\" but found type \"", SourceTypeName(source), "\""));
      }
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampNs:
      return expect({TypeId::kTimestampNs, TypeId::kTimestamp, TypeId::kTimestampMs,
                     TypeId::kTimestampS});
    case TypeId::kTimestampS:
    case TypeId::kTimestampMs:
      return expect({TypeId::kTimestamp, TypeId::kTimestampMs, TypeId::kTimestampS});
    case TypeId::kDecimal:
      if (source.id != TypeId::kDecimal) {
        return Fail(prefix, name, StrCat("Expected type \"DECIMAL\" but found type \"",
                                         SourceTypeName(source), "\""));
      }
      if (source.scale > type.scale || source.precision > type.precision) {
        return Fail(prefix, name,
                    StrCat("Incompatible decimal precision/scale - found precision ",
                           static_cast<int>(source.precision), ", scale ",
                           static_cast<int>(source.scale),
                           " - but table is defined with precision ",
                           static_cast<int>(type.precision), ", scale ",
                           static_cast<int>(type.scale)));
      }
      return Status::OK();
    default:
      if (!SameType(source, type)) {
        return Fail(prefix, name, StrCat("Expected ", type.ToString(), ", found type ",
                                         SourceTypeName(source)));
      }
      return Status::OK();
  }
}

Status FileMapper::MapHiveColumn(const ColumnInfo& target, const std::string& text,
                                 MappedNode* out) {
  if (target.type.IsNested()) {
    return Status::InvalidArgument("Invalid Input Error: Type \"", target.type.ToString(),
                                   "\" is not supported for hive partitioning");
  }
  TARN_ASSIGN_OR_RETURN(Value value, HiveValueOf(target.name, text, target.type));
  hive_values_.push_back({target.column_id, PartitionTransform::kIdentity, -1, value});
  out->source_name = target.name;
  out->target_field_id = target.column_id;
  out->is_partition = true;
  return Status::OK();
}

Status FileMapper::MapColumn(const parquet::SchemaNode& node, const ColumnInfo& target,
                             const std::string& prefix, MappedNode* out) {
  TARN_RETURN_NOT_OK(CheckType(node.field.type, target, prefix, node.field.name));
  out->source_name = node.field.name;
  out->target_field_id = target.column_id;
  const std::string path = prefix.empty() ? node.field.name : prefix + "." + node.field.name;
  if (node.kind == parquet::SchemaNode::Kind::kLeaf) {
    leaf_targets_[node.leaf] = &target;
    return Status::OK();
  }
  switch (target.type.id) {
    case TypeId::kVariant:
      // A Parquet VARIANT group reads whole; its metadata/value/typed_value leaves map to no
      // column of their own.
      if (node.variant) return Status::OK();
      break;
    case TypeId::kStruct:
      return MapColumns(node.children, target.children, path, false, &out->children);
    case TypeId::kList: {
      if (node.children.size() != 1 || target.children.size() != 1) break;
      const parquet::SchemaNode& element = node.children[0];
      MappedNode child;
      TARN_RETURN_NOT_OK(MapColumn(element, target.children[0], path, &child));
      // The extension names a list's element "list" (or keeps a legacy "array").
      child.source_name = element.field.name == "array" ? "array" : "list";
      out->children.push_back(std::move(child));
      return Status::OK();
    }
    case TypeId::kMap: {
      if (node.children.size() != 1 || node.children[0].children.size() != 2 ||
          target.children.size() != 2) {
        break;
      }
      return MapColumns(node.children[0].children, target.children, path, false,
                        &out->children);
    }
    default:
      break;
  }
  return Status::InvalidArgument("Invalid Input Error: Unsupported nested type ",
                                 target.type.ToString(), " for add files");
}

Status FileMapper::MapColumns(const std::vector<parquet::SchemaNode>& nodes,
                              const std::vector<ColumnInfo>& targets, const std::string& prefix,
                              bool top_level, std::vector<MappedNode>* out) {
  std::vector<bool> used(targets.size(), false);
  const std::string shown = prefix.empty() ? "" : prefix + ".";
  for (const parquet::SchemaNode& node : nodes) {
    int found = -1;
    for (size_t i = 0; i < targets.size(); ++i) {
      if (!used[i] && NameEquals(targets[i].name, node.field.name)) {
        found = static_cast<int>(i);
        break;
      }
    }
    if (found < 0) {
      if (options_.ignore_extra_columns) continue;
      return Status::InvalidArgument(
          "Invalid Input Error: Column \"", shown, node.field.name, "\" exists in file \"",
          file_, "\" but was not found in table \"", table_.name,
          "\"\n* Set ignore_extra_columns => true to add the file anyway");
    }
    used[found] = true;
    MappedNode mapped;
    auto hive = top_level ? hive_.find(node.field.name) : hive_.end();
    if (hive != hive_.end()) {
      TARN_RETURN_NOT_OK(MapHiveColumn(targets[found], hive->second, &mapped));
    } else {
      TARN_RETURN_NOT_OK(MapColumn(node, targets[found], prefix, &mapped));
    }
    out->push_back(std::move(mapped));
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (used[i]) continue;
    auto hive = top_level ? hive_.find(targets[i].name) : hive_.end();
    if (hive != hive_.end()) {
      MappedNode mapped;
      TARN_RETURN_NOT_OK(MapHiveColumn(targets[i], hive->second, &mapped));
      out->push_back(std::move(mapped));
      continue;
    }
    if (!options_.allow_missing) {
      return Status::InvalidArgument(
          "Invalid Input Error: Column \"", shown, targets[i].name, "\" exists in table \"",
          table_.name, "\" but was not found in file \"", file_,
          "\"\n* Set allow_missing => true to allow missing fields and columns");
    }
  }
  return Status::OK();
}

Status FileMapper::MapPartitionKeys() {
  if (!table_.partitioning.has_value()) return Status::OK();
  for (const PartitionField& field : table_.partitioning->fields) {
    if (field.transform == PartitionTransform::kIdentity) continue;
    const ColumnInfo* column = table_.FindColumn(field.column_id);
    if (column == nullptr) continue;
    const std::string key = PartitionKeyName(field, table_);
    auto hive = hive_.find(key);
    if (hive == hive_.end()) continue;
    TARN_ASSIGN_OR_RETURN(Value value, HiveValueOf(key, hive->second, field.result_type));
    hive_values_.push_back({field.column_id, field.transform, field.partition_key_index, value});
  }
  return Status::OK();
}

// Entries depth-first, parents before their children, siblings by target column id: the same
// columns in another order give the same mapping, which the commit then shares.
void Flatten(std::vector<MappedNode>& nodes, std::optional<int64_t> parent,
             std::vector<NameMappingEntry>* out) {
  std::stable_sort(nodes.begin(), nodes.end(), [](const MappedNode& a, const MappedNode& b) {
    return a.target_field_id < b.target_field_id;
  });
  for (MappedNode& node : nodes) {
    NameMappingEntry entry;
    entry.column_id = static_cast<int64_t>(out->size());
    entry.source_name = node.source_name;
    entry.target_field_id = node.target_field_id;
    entry.parent_column = parent;
    entry.is_partition = node.is_partition;
    out->push_back(entry);
    Flatten(node.children, entry.column_id, out);
  }
}

// Folds a chunk's GeospatialStatistics into `geo`, as the extension reads them from
// parquet_metadata (geo_bbox, geo_types).
void FoldGeospatial(const parquet::GeospatialStatistics& chunk, geometry::GeometryStats* geo) {
  using G = geometry::GeometryStats;
  geometry::GeometryStats add;
  if (chunk.bbox) {
    const parquet::BoundingBox& box = *chunk.bbox;
    add.min[G::kX] = box.xmin;
    add.max[G::kX] = box.xmax;
    add.min[G::kY] = box.ymin;
    add.max[G::kY] = box.ymax;
    if (box.zmin && box.zmax) {
      add.min[G::kZ] = *box.zmin;
      add.max[G::kZ] = *box.zmax;
    }
    if (box.mmin && box.mmax) {
      add.min[G::kM] = *box.mmin;
      add.max[G::kM] = *box.mmax;
    }
  }
  for (int32_t code : chunk.geospatial_types) add.AddTypeCode(code);
  geo->Merge(add);
}

// Footer statistics of one leaf over every row group, typed as `target`.
NewFileColumnStats LeafStatistics(const ParquetReader& reader, const parquet::LeafDescriptor& leaf,
                                  const ColumnInfo& target) {
  NewFileColumnStats stats;
  stats.column_id = target.column_id;
  const bool with_bounds = catalog_internal::HasStatsText(target.type);
  bool min_known = with_bounds, max_known = with_bounds, nan_known = true;
  int64_t nan_count = 0;
  std::optional<Value> min, max;
  geometry::GeometryStats geo;  // GEOMETRY targets: the chunks' GeospatialStatistics
  for (const parquet::RowGroup& group : reader.metadata().row_groups) {
    if (leaf.column_index < 0 || leaf.column_index >= static_cast<int>(group.columns.size()) ||
        !group.columns[leaf.column_index].meta_data.has_value()) {
      min_known = max_known = nan_known = false;
      continue;
    }
    const parquet::ColumnMetaData& meta = *group.columns[leaf.column_index].meta_data;
    stats.column_size_bytes += meta.total_compressed_size;
    if (meta.geospatial_statistics) FoldGeospatial(*meta.geospatial_statistics, &geo);
    std::optional<ColumnStatistics> decoded = parquet::DecodeColumnStatistics(meta, leaf);
    const int64_t nulls = decoded && decoded->null_count ? *decoded->null_count : 0;
    stats.null_count += nulls;
    stats.value_count += std::max<int64_t>(0, meta.num_values - nulls);
    if (!decoded || !decoded->nan_count.has_value()) {
      nan_known = false;
    } else {
      nan_count += *decoded->nan_count;
    }
    auto fold = [&](const std::optional<Value>& bound, bool exact, bool* known,
                    std::optional<Value>* into, bool is_min) {
      if (!*known) return;
      if (!decoded || !exact || !bound.has_value() || bound->is_null()) {
        // A row group without a bound leaves the file's unknown, unless it holds no values.
        if (!(decoded && meta.num_values == nulls)) *known = false;
        return;
      }
      Result<Value> cast = bound->type() == target.type
                               ? Result<Value>(*bound)
                               : expr::CastValue(*bound, target.type, /*try_cast=*/true);
      if (!cast.ok() || cast->is_null()) {
        *known = false;
        return;
      }
      if (!into->has_value() ||
          (is_min ? expr::CompareValues(*cast, **into) < 0
                  : expr::CompareValues(*cast, **into) > 0)) {
        *into = *cast;
      }
    };
    fold(decoded ? decoded->min : std::nullopt, decoded && decoded->min_exact, &min_known, &min,
         true);
    fold(decoded ? decoded->max : std::nullopt, decoded && decoded->max_exact, &max_known, &max,
         false);
  }
  if (min_known) stats.min = min;
  if (max_known) stats.max = max;
  if (target.type.IsFloating() && nan_known) stats.contains_nan = nan_count > 0;
  if (target.type.id == TypeId::kGeometry) stats.extra_stats = geo.ToJson();
  return stats;
}

// Whether `path` lies below `directory` (which ends in '/'); then the rest of it.
std::optional<std::string> RelativeTo(const std::string& path, const std::string& directory) {
  if (directory.empty() || path.size() <= directory.size() ||
      path.compare(0, directory.size(), directory) != 0) {
    return std::nullopt;
  }
  return path.substr(directory.size());
}

std::string NormalizePath(std::string path) {
  std::replace(path.begin(), path.end(), '\\', '/');
  return path;
}

// One file as a pending data file of `table`.
Result<std::optional<PendingDataFile>> MapFile(WriteState& state, const TableInfo& table,
                                               const std::string& path,
                                               const AddDataFilesOptions& options) {
  Result<std::unique_ptr<ParquetReader>> opened = ParquetReader::Open(state.fs, path);
  if (!opened.ok()) {
    return Status::InvalidArgument("Invalid Input Error: Failed to add data files to DuckLake: ",
                                   opened.status().message());
  }
  const ParquetReader& reader = **opened;
  if (reader.num_rows() == 0) return std::optional<PendingDataFile>();
  TARN_ASSIGN_OR_RETURN(parquet::FileSchema schema,
                        parquet::FileSchema::Make(reader.metadata().schema));
  std::map<std::string, std::string> hive;
  if (options.hive_partitioning.value_or(true)) hive = ParseHivePartitions(path);
  FileMapper mapper(table, path, options, std::move(hive));
  TARN_RETURN_NOT_OK(mapper.MapPartitionKeys());
  std::vector<MappedNode> nodes;
  TARN_RETURN_NOT_OK(mapper.MapColumns(schema.columns(), table.columns, "", true, &nodes));

  PendingDataFile pending;
  NewDataFile& change = pending.change;
  change.provisional_id = state.NewProvisionalId();
  change.table_id = table.table_id;
  if (std::optional<std::string> relative = RelativeTo(path, table.path)) {
    change.path = *relative;
  } else {
    change.path = path;
    change.path_is_relative = false;
  }
  pending.absolute_path = path;
  change.record_count = reader.num_rows();
  change.file_size_bytes = reader.file_size();
  change.footer_size = reader.footer_size();
  Flatten(nodes, std::nullopt, &change.name_mapping);

  std::set<int64_t> with_stats;
  for (const auto& [leaf_index, target] : mapper.leaf_targets()) {
    change.column_stats.push_back(LeafStatistics(reader, schema.leaves()[leaf_index], *target));
    with_stats.insert(target->column_id);
  }
  for (const HiveValue& hive_value : mapper.hive_values()) {
    if (hive_value.transform != PartitionTransform::kIdentity) continue;
    const ColumnInfo* column = table.FindColumn(hive_value.column_id);
    if (column == nullptr || !with_stats.insert(column->column_id).second) continue;
    NewFileColumnStats stats;
    stats.column_id = column->column_id;
    if (hive_value.value.is_null()) {
      stats.null_count = change.record_count;
    } else {
      stats.value_count = change.record_count;
      if (catalog_internal::HasStatsText(column->type)) stats.min = stats.max = hive_value.value;
    }
    change.column_stats.push_back(std::move(stats));
  }

  if (table.partitioning.has_value() && !table.partitioning->fields.empty()) {
    const PartitionSpec& spec = *table.partitioning;
    const std::vector<HiveValue>& values = mapper.hive_values();
    bool valid = values.size() == spec.fields.size();
    for (const HiveValue& value : values) {
      bool in_spec = false;
      for (const PartitionField& field : spec.fields) in_spec |= field.column_id == value.column_id;
      valid &= in_spec;
    }
    change.partition_values.assign(spec.fields.size(), std::nullopt);
    for (size_t k = 0; valid && k < spec.fields.size(); ++k) {
      const PartitionField& field = spec.fields[k];
      const HiveValue* found = nullptr;
      for (const HiveValue& value : values) {
        const bool identity = value.transform == PartitionTransform::kIdentity;
        if (field.transform == PartitionTransform::kIdentity
                ? identity && value.column_id == field.column_id
                : !identity && value.key_index == field.partition_key_index) {
          found = &value;
        }
      }
      if (found == nullptr) {
        valid = false;
        break;
      }
      if (!found->value.is_null()) {
        change.partition_values[k] = field.transform == PartitionTransform::kIdentity
                                         ? PartitionKeyText(field, found->value)
                                         : std::optional<std::string>(
                                               expr::ValueToText(found->value));
      }
    }
    if (!valid) {
      return Status::InvalidArgument("Invalid Input Error: File \"", path,
                                     "\" contains an invalid partition value for the table "
                                     "configuration.");
    }
    change.partition_id = spec.partition_id;
  }
  return std::optional<PendingDataFile>(std::move(pending));
}

}  // namespace

Result<WriteResult> AddDataFiles(WriteState& state, const TableInfo& table,
                                 const std::vector<std::string>& paths,
                                 const AddDataFilesOptions& options) {
  std::vector<PendingDataFile> added;
  std::set<std::string> seen;
  WriteResult result;
  for (const std::string& path : paths) {
    if (!seen.insert(NormalizePath(path)).second) continue;  // overlapping globs
    TARN_ASSIGN_OR_RETURN(std::optional<PendingDataFile> file, MapFile(state, table, path, options));
    if (!file.has_value()) continue;
    result.rows += file->change.record_count;
    added.push_back(std::move(*file));
  }
  // Only now, when every file fits: a refused file registers none.
  TableDml& dml = state.Dml(table.table_id);
  for (PendingDataFile& file : added) dml.files.push_back(std::move(file));
  return result;
}

}  // namespace tarn::table_internal
