#include "table/column_conform.h"

#include "table/write_state.h"
#include "tarn/expr.h"

namespace tarn::table_internal {

namespace {

// The source child that carries `target`'s column: by field id when the source has ids,
// else by name (case-insensitive). -1 when absent.
int FindSourceChild(const std::vector<Field>& children, const ColumnInfo& target,
                    const MappedNames* mapped_names) {
  if (mapped_names != nullptr) {
    auto it = mapped_names->find(target.column_id);
    if (it == mapped_names->end()) return -1;
    for (size_t i = 0; i < children.size(); ++i) {
      if (children[i].name == it->second) return static_cast<int>(i);
    }
    Schema names(children);
    return names.FindField(it->second);
  }
  bool any_ids = false;
  for (size_t i = 0; i < children.size(); ++i) {
    if (!children[i].field_id.has_value()) continue;
    any_ids = true;
    if (*children[i].field_id == target.column_id) return static_cast<int>(i);
  }
  if (any_ids) return -1;
  Schema names(children);
  return names.FindField(target.name);
}

Result<std::shared_ptr<Column>> ConformStruct(const Column& column, const Field& source,
                                              const ColumnInfo& target,
                                              const MappedNames* mapped_names) {
  auto out = std::make_shared<Column>();
  out->type = target.type;
  out->length = column.length;
  out->null_count = column.null_count;
  out->validity = column.validity;
  for (const ColumnInfo& child : target.children) {
    int index = FindSourceChild(source.type.children, child, mapped_names);
    std::shared_ptr<Column> conformed;
    if (index < 0) {
      TARN_ASSIGN_OR_RETURN(conformed,
                            ConstantColumn(InitialValue(child), child.type, column.length));
    } else {
      TARN_ASSIGN_OR_RETURN(conformed, ConformColumn(column.children[index],
                                                     source.type.children[index], child,
                                                     mapped_names));
    }
    out->children.push_back(std::move(conformed));
  }
  return out;
}

}  // namespace

bool SameShape(const DataType& a, const DataType& b) {
  if (a.id != b.id || a.precision != b.precision || a.scale != b.scale ||
      a.children.size() != b.children.size()) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (a.id == TypeId::kStruct && !NameEquals(a.children[i].name, b.children[i].name)) {
      return false;
    }
    if (!SameShape(a.children[i].type, b.children[i].type)) return false;
  }
  return true;
}

std::shared_ptr<Column> Relabel(const std::shared_ptr<Column>& column, const DataType& type) {
  if (column->type == type) return column;
  auto out = std::make_shared<Column>(*column);
  out->type = type;
  for (size_t i = 0; i < out->children.size() && i < type.children.size(); ++i) {
    out->children[i] = Relabel(column->children[i], type.children[i].type);
  }
  return out;
}

Result<std::shared_ptr<Column>> CastColumn(std::shared_ptr<Column> column, const DataType& to) {
  if (SameShape(column->type, to)) return Relabel(column, to);
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field("v", column->type)});
  TARN_ASSIGN_OR_RETURN(auto cast, ParseAndBind(StrCat("CAST(v AS ", to.ToString(), ")"), *schema));
  auto batch = MakeBatch(schema, {column});
  TARN_ASSIGN_OR_RETURN(auto result, cast->Evaluate(*batch));
  if (!SameShape(result->type, to)) {
    return Status::Internal("cast of ", column->type.ToString(), " to ", to.ToString(),
                            " produced ", result->type.ToString());
  }
  return Relabel(result, to);
}

Result<std::shared_ptr<Column>> ConstantColumn(const Value& value, const DataType& type,
                                               int64_t rows) {
  ColumnBuilder builder(type);
  builder.Reserve(rows);
  if (value.is_null()) {
    for (int64_t row = 0; row < rows; ++row) builder.AppendNull();
    return builder.Finish();
  }
  Value typed = value;
  if (value.type() != type) {
    // A default decoded by an older type of a promoted column.
    auto schema = std::make_shared<Schema>(std::vector<Field>{Field("v", value.type())});
    ColumnBuilder one(value.type());
    TARN_RETURN_NOT_OK(one.Append(value));
    TARN_ASSIGN_OR_RETURN(auto cast, CastColumn(one.Finish(), type));
    typed = cast->GetValue(0);
  }
  for (int64_t row = 0; row < rows; ++row) TARN_RETURN_NOT_OK(builder.Append(typed));
  return builder.Finish();
}

Value InitialValue(const ColumnInfo& column) {
  if (column.initial_value.has_value()) return *column.initial_value;
  return Value::Null(column.type);
}

Result<std::shared_ptr<Column>> ConformColumn(std::shared_ptr<Column> column, const Field& source,
                                              const ColumnInfo& target,
                                              const MappedNames* mapped_names) {
  const DataType& type = target.type;
  switch (type.id) {
    case TypeId::kStruct:
      if (source.type.id != TypeId::kStruct) break;
      return ConformStruct(*column, source, target, mapped_names);
    case TypeId::kList: {
      if (source.type.id != TypeId::kList || target.children.size() != 1) break;
      TARN_ASSIGN_OR_RETURN(auto element, ConformColumn(column->children[0],
                                                        source.type.children[0],
                                                        target.children[0], mapped_names));
      auto out = std::make_shared<Column>(*column);
      out->type = type;
      out->children = {std::move(element)};
      return out;
    }
    case TypeId::kMap: {
      if (source.type.id != TypeId::kMap || target.children.size() != 2) break;
      const Column& entries = *column->children[0];
      const Field& entry_field = source.type.children[0];
      if (entry_field.type.children.size() != 2) break;
      TARN_ASSIGN_OR_RETURN(auto key, ConformColumn(entries.children[0],
                                                    entry_field.type.children[0],
                                                    target.children[0], mapped_names));
      TARN_ASSIGN_OR_RETURN(auto value, ConformColumn(entries.children[1],
                                                      entry_field.type.children[1],
                                                      target.children[1], mapped_names));
      auto out_entries = std::make_shared<Column>(entries);
      out_entries->type = type.children[0].type;
      out_entries->children = {std::move(key), std::move(value)};
      auto out = std::make_shared<Column>(*column);
      out->type = type;
      out->children = {std::move(out_entries)};
      return out;
    }
    default: {
      if (source.type.IsNested()) break;
      if (column->type.id == type.id && column->type.precision == type.precision &&
          column->type.scale == type.scale) {
        if (column->type == type) return column;
        auto out = std::make_shared<Column>(*column);
        out->type = type;
        return out;
      }
      return CastColumn(std::move(column), type);
    }
  }
  return Status::NotSupported("column '", target.name, "' of type ", type.ToString(),
                              " cannot be read from data of type ", source.type.ToString());
}

}  // namespace tarn::table_internal
