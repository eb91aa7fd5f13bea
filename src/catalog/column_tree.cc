// Loading ducklake_column rows as column trees with full types and decoded defaults, and the
// column-tree rules shared with the write path (column_tree.h).
#include "catalog/column_tree.h"

#include <algorithm>
#include <set>

#include "catalog/inlined_text.h"
#include "catalog/loader.h"
#include "catalog/row_reader.h"
#include "catalog/value_text.h"

namespace tarn::catalog_internal {

namespace {

// A visible ducklake_column row before it is placed in its tree.
struct ColumnRow {
  int64_t table_id = 0;
  ColumnInfo info;
  std::string prefix;  // the row's error prefix, for problems found while building the tree
};

ColumnDefault ReadDefault(const std::optional<std::string>& text,
                          const std::optional<std::string>& kind,
                          const std::optional<std::string>& dialect) {
  ColumnDefault result;
  result.dialect = dialect.value_or("");
  // The extension writes the string 'NULL' for "no default"; a SQL NULL means the same.
  if (!text.has_value() || *text == "NULL") return result;
  result.kind = kind.has_value() && *kind == "expression" ? ColumnDefault::Kind::kExpression
                                                           : ColumnDefault::Kind::kLiteral;
  result.text = *text;
  return result;
}

// Attaches children and builds the nested type of `column` (recursively).
Status BuildNode(ColumnRow* node, std::map<int64_t, std::vector<ColumnRow*>>* children_of,
                 int depth) {
  ColumnInfo& column = node->info;
  if (depth > 64) return Status::Corruption(node->prefix, "column nesting deeper than 64 levels");
  std::vector<ColumnRow*> kids;
  auto found = children_of->find(column.column_id);
  if (found != children_of->end()) {
    kids = std::move(found->second);
    children_of->erase(found);  // each child is attached once: a cycle leaves rows behind
  }
  std::sort(kids.begin(), kids.end(), [](const ColumnRow* a, const ColumnRow* b) {
    return a->info.column_order != b->info.column_order ? a->info.column_order < b->info.column_order
                                                         : a->info.column_id < b->info.column_id;
  });
  for (ColumnRow* kid : kids) TARN_RETURN_NOT_OK(BuildNode(kid, children_of, depth + 1));
  for (ColumnRow* kid : kids) column.children.push_back(std::move(kid->info));

  switch (column.type.id) {
    case TypeId::kStruct:
      if (column.children.empty()) {
        return Status::Corruption(node->prefix, "struct column has no child columns");
      }
      break;
    case TypeId::kList:
      if (column.children.size() != 1) {
        return Status::Corruption(node->prefix, "list column has ", column.children.size(),
                                  " child columns (expected 1)");
      }
      break;
    case TypeId::kMap:
      if (column.children.size() != 2) {
        return Status::Corruption(node->prefix, "map column has ", column.children.size(),
                                  " child columns (expected key and value)");
      }
      // The key comes first by column order; a child named "key" wins if the order disagrees.
      if (column.children[1].name == "key" && column.children[0].name != "key") {
        std::swap(column.children[0], column.children[1]);
      }
      break;
    default:
      if (!column.children.empty()) {
        return Status::Corruption(node->prefix, "column of type ", column.type_name, " has ",
                                  column.children.size(), " child columns");
      }
      break;
  }
  ComposeNestedType(&column);
  // Defaults are decoded once the full type is known.
  if (column.initial_default.kind == ColumnDefault::Kind::kNone) {
    column.initial_value = Value::Null(column.type);
  } else if (column.initial_default.kind == ColumnDefault::Kind::kLiteral) {
    // Nested values, intervals and TIMETZ are stored in DuckDB's text of them, as inlined
    // values are; the rows written before the column was added read as this value.
    Result<Value> value = DecodeInlinedText(column.initial_default.text, column.type);
    if (value.ok()) {
      column.initial_value = std::move(value).value();
    } else if (column.type.id != TypeId::kVariant && column.type.id != TypeId::kGeometry) {
      return Status::Corruption(node->prefix, "initial_default: ", value.status().message());
    }
  }
  return Status::OK();
}

}  // namespace

void ComposeNestedType(ColumnInfo* column) {
  const std::vector<ColumnInfo>& children = column->children;
  switch (column->type.id) {
    case TypeId::kStruct: {
      std::vector<Field> fields;
      fields.reserve(children.size());
      for (const ColumnInfo& child : children) fields.push_back(child.ToField());
      column->type = DataType::Struct(std::move(fields));
      break;
    }
    case TypeId::kList:
      column->type = DataType::List(children[0].ToField());
      break;
    case TypeId::kMap: {
      column->type = DataType::Map(children[0].type, children[1].type);
      std::vector<Field>& entry = column->type.children[0].type.children;
      entry[0].field_id = static_cast<int32_t>(children[0].column_id);
      entry[1].field_id = static_cast<int32_t>(children[1].column_id);
      entry[1].nullable = children[1].nulls_allowed;
      break;
    }
    default:
      break;
  }
}

Result<std::map<int64_t, std::vector<ColumnInfo>>> LoadColumns(CatalogStore* store,
                                                               int64_t snapshot,
                                                               std::optional<int64_t> table_id) {
  std::string sql =
      "SELECT table_id, column_id, begin_snapshot, end_snapshot, column_order, column_name, "
      "column_type, initial_default, default_value, nulls_allowed, parent_column, "
      "default_value_type, default_value_dialect FROM ducklake_column "
      "WHERE begin_snapshot <= ?1 AND (end_snapshot IS NULL OR end_snapshot > ?1)";
  std::vector<CatalogDatum> params = {CatalogDatum::Integer(snapshot)};
  if (table_id.has_value()) {
    sql += " AND table_id = ?2";
    params.push_back(CatalogDatum::Integer(*table_id));
  }
  using T = CatalogType;
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(store, std::move(sql), std::move(params),
               {T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kBigint, T::kVarchar,
                T::kVarchar, T::kVarchar, T::kVarchar, T::kBoolean, T::kBigint, T::kVarchar,
                T::kVarchar},
               "ducklake_column"));
  std::vector<ColumnRow> rows(result.rows.size());
  for (size_t i = 0; i < result.rows.size(); ++i) {
    RowReader row(*store, result, i, "ducklake_column", {0, 1});
    ColumnRow& out = rows[i];
    out.prefix = row.prefix();
    ColumnInfo& column = out.info;
    TARN_ASSIGN_OR_RETURN(out.table_id, row.Int(0));
    TARN_ASSIGN_OR_RETURN(column.column_id, row.Int(1));
    if (column.column_id < 0) return row.Error("column_id is negative (", column.column_id, ")");
    TARN_ASSIGN_OR_RETURN(column.begin_snapshot, row.Int(2));
    column.end_snapshot = row.OptInt(3);
    column.column_order = row.OptInt(4).value_or(column.column_id);
    TARN_ASSIGN_OR_RETURN(column.name, row.Text(5));
    TARN_ASSIGN_OR_RETURN(column.type_name, row.Text(6));
    Result<DataType> type = ParseDuckLakeType(column.type_name);
    if (!type.ok()) {
      return row.Error("column_type '", column.type_name,
                       "' does not parse: ", type.status().message());
    }
    column.type = std::move(type).value();
    column.initial_default = ReadDefault(row.OptText(7), std::nullopt, std::nullopt);
    column.default_value = ReadDefault(row.OptText(8), row.OptText(11), row.OptText(12));
    column.nulls_allowed = row.BoolOr(9, true);
    column.parent_column = row.OptInt(10);
  }

  // Group by table, then build each table's trees.
  std::map<int64_t, std::vector<ColumnRow*>> by_table;
  for (ColumnRow& row : rows) by_table[row.table_id].push_back(&row);
  std::map<int64_t, std::vector<ColumnInfo>> tables;
  for (auto& [tid, table_rows] : by_table) {
    std::set<int64_t> ids;
    std::map<int64_t, std::vector<ColumnRow*>> children_of;
    std::vector<ColumnRow*> roots;
    for (ColumnRow* row : table_rows) {
      if (!ids.insert(row->info.column_id).second) {
        return Status::Corruption(row->prefix, "column_id ", row->info.column_id,
                                  " has more than one visible version at snapshot ", snapshot);
      }
      if (row->info.parent_column.has_value()) {
        children_of[*row->info.parent_column].push_back(row);
      } else {
        roots.push_back(row);
      }
    }
    std::sort(roots.begin(), roots.end(), [](const ColumnRow* a, const ColumnRow* b) {
      return a->info.column_order != b->info.column_order
                 ? a->info.column_order < b->info.column_order
                 : a->info.column_id < b->info.column_id;
    });
    for (ColumnRow* root : roots) TARN_RETURN_NOT_OK(BuildNode(root, &children_of, 0));
    if (!children_of.empty()) {
      const ColumnRow* orphan = children_of.begin()->second.front();
      return Status::Corruption(orphan->prefix, "parent_column ", *orphan->info.parent_column,
                                " is not a visible column of table ", tid, " at snapshot ",
                                snapshot);
    }
    std::vector<ColumnInfo>& out = tables[tid];
    for (ColumnRow* root : roots) out.push_back(std::move(root->info));
  }
  return tables;
}

Status ParsePartitionTransform(std::string_view text, const DataType& source_type,
                               PartitionField* field) {
  field->transform_text = std::string(text);
  if (text == "identity") {
    field->transform = PartitionTransform::kIdentity;
    field->result_type = source_type;
    return Status::OK();
  }
  const std::pair<std::string_view, PartitionTransform> kTemporal[] = {
      {"year", PartitionTransform::kYear},
      {"month", PartitionTransform::kMonth},
      {"day", PartitionTransform::kDay},
      {"hour", PartitionTransform::kHour}};
  for (const auto& [name, transform] : kTemporal) {
    if (text == name) {
      field->transform = transform;
      field->result_type = DataType(TypeId::kInt64);
      return Status::OK();
    }
  }
  constexpr std::string_view kBucket = "bucket(";
  if (text.substr(0, kBucket.size()) == kBucket && text.size() > kBucket.size() + 1 &&
      text.back() == ')') {
    int64_t count = 0;
    std::string_view digits = text.substr(kBucket.size(), text.size() - kBucket.size() - 1);
    if (ParseInt64Text(digits, &count) && count > 0 && count <= 2147483647) {
      field->transform = PartitionTransform::kBucket;
      field->bucket_count = count;
      field->result_type = DataType(TypeId::kInt32);
      return Status::OK();
    }
  }
  return Status::InvalidArgument("unknown partition transform '", text, "'");
}

Schema SchemaOfColumns(const std::vector<ColumnInfo>& columns) {
  std::vector<Field> fields;
  fields.reserve(columns.size());
  for (const ColumnInfo& column : columns) fields.push_back(column.ToField());
  return Schema(std::move(fields));
}

const ColumnInfo* FindInTree(const std::vector<ColumnInfo>& columns, int64_t column_id) {
  for (const ColumnInfo& column : columns) {
    if (column.column_id == column_id) return &column;
    if (const ColumnInfo* found = FindInTree(column.children, column_id)) return found;
  }
  return nullptr;
}

}  // namespace tarn::catalog_internal
