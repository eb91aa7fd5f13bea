// Arrow C Data / C Stream export, zero-copy.
//
// Every exported ArrowSchema / ArrowArray owns a heap "private" block holding what its
// pointers point into: strings, child structs, and shared_ptrs to the column Buffers. Each
// child has its own private block, so a consumer may move a child out (and release it later)
// independently of its parent, as the C Data Interface allows. release() releases the
// children that are still live, frees the block and marks the struct released.
//
// Types the Arrow format cannot tell apart by format string alone carry an extension name in
// the field metadata ("ARROW:extension:name"): arrow.uuid and arrow.json (canonical),
// duckdb.hugeint / duckdb.uhugeint (as DuckDB names them), geoarrow.wkb for GEOMETRY (stored
// as WKB, as in DuckLake's Parquet files), and tarn.time_tz / tarn.variant for the rest.
// Field ids travel as "PARQUET:field_id", as Arrow's Parquet bindings spell it.
#include <cerrno>
#include <cstring>

#include "columnar/arrow_internal.h"
#include "tarn/columnar.h"

namespace tarn {
namespace {

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;  // Arrow's binary key/value encoding; empty = none
  std::unique_ptr<ArrowSchema[]> child_storage;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  for (int64_t child_idx = 0; child_idx < schema->n_children; ++child_idx) {
    ArrowSchema* child = schema->children[child_idx];
    if (child != nullptr && child->release != nullptr) child->release(child);
  }
  delete static_cast<SchemaPrivate*>(schema->private_data);
  schema->private_data = nullptr;
  schema->release = nullptr;
}

void AppendInt32(std::string* out, int32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); }

std::string EncodeMetadata(const std::vector<std::pair<std::string, std::string>>& pairs) {
  if (pairs.empty()) return std::string();
  std::string out;
  AppendInt32(&out, static_cast<int32_t>(pairs.size()));
  for (const auto& [key, value] : pairs) {
    AppendInt32(&out, static_cast<int32_t>(key.size()));
    out += key;
    AppendInt32(&out, static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

// Fills `out` for a field with `name` and `type`; `children` are exported recursively.
Status ExportField(const std::string& name, const DataType& type, bool nullable,
                   std::optional<int32_t> field_id, ArrowSchema* out, int depth);

Status ExportChildren(const std::vector<Field>& fields, SchemaPrivate* holder, ArrowSchema* out,
                      int depth) {
  holder->child_storage = std::make_unique<ArrowSchema[]>(fields.size());
  holder->child_pointers.resize(fields.size());
  for (size_t child_idx = 0; child_idx < fields.size(); ++child_idx) {
    ArrowSchema* child = &holder->child_storage[child_idx];
    child->release = nullptr;
    holder->child_pointers[child_idx] = child;
  }
  out->n_children = static_cast<int64_t>(fields.size());
  out->children = holder->child_pointers.data();
  for (size_t child_idx = 0; child_idx < fields.size(); ++child_idx) {
    const Field& field = fields[child_idx];
    TARN_RETURN_NOT_OK(ExportField(field.name, field.type, field.nullable, field.field_id,
                                   holder->child_pointers[child_idx], depth + 1));
  }
  return Status::OK();
}

Status ExportField(const std::string& name, const DataType& type, bool nullable,
                   std::optional<int32_t> field_id, ArrowSchema* out, int depth) {
  if (depth > internal::kMaxArrowDepth) return Status::InvalidArgument("type nested too deeply to export");
  auto holder = std::make_unique<SchemaPrivate>();
  TARN_ASSIGN_OR_RETURN(holder->format, internal::ArrowFormatOf(type));
  holder->name = name;
  std::vector<std::pair<std::string, std::string>> metadata;
  if (const char* extension = internal::ArrowExtensionOf(type)) {
    metadata.emplace_back(internal::kExtensionNameKey, extension);
  }
  if (field_id) metadata.emplace_back(internal::kFieldIdKey, std::to_string(*field_id));
  holder->metadata = EncodeMetadata(metadata);

  out->format = holder->format.c_str();
  out->name = holder->name.c_str();
  out->metadata = holder->metadata.empty() ? nullptr : holder->metadata.data();
  out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  out->n_children = 0;
  out->children = nullptr;
  out->dictionary = nullptr;
  out->release = &ReleaseSchema;
  SchemaPrivate* raw = holder.release();
  out->private_data = raw;

  Status status;
  if (type.id == TypeId::kStruct || type.id == TypeId::kList) {
    status = ExportChildren(type.children, raw, out, depth);
  } else if (type.id == TypeId::kMap) {
    // Arrow names the map's entry struct "entries"; tarn calls it "key_value".
    std::vector<Field> entries = type.children;
    if (entries.size() == 1) entries[0].name = "entries";
    status = ExportChildren(entries, raw, out, depth);
  }
  if (!status.ok()) ReleaseSchema(out);
  return status;
}

// ---- arrays ---------------------------------------------------------------------------------

struct ArrayPrivate {
  std::vector<std::shared_ptr<Buffer>> buffers;  // keeps the memory alive
  const void* buffer_pointers[3] = {nullptr, nullptr, nullptr};
  std::unique_ptr<ArrowArray[]> child_storage;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  for (int64_t child_idx = 0; child_idx < array->n_children; ++child_idx) {
    ArrowArray* child = array->children[child_idx];
    if (child != nullptr && child->release != nullptr) child->release(child);
  }
  delete static_cast<ArrayPrivate*>(array->private_data);
  array->private_data = nullptr;
  array->release = nullptr;
}

ArrayPrivate* StartArray(int64_t length, int64_t null_count, ArrowArray* out) {
  auto* holder = new ArrayPrivate();
  out->length = length;
  out->null_count = null_count;
  out->offset = 0;
  out->n_buffers = 0;
  out->n_children = 0;
  out->buffers = holder->buffer_pointers;
  out->children = nullptr;
  out->dictionary = nullptr;
  out->release = &ReleaseArray;
  out->private_data = holder;
  return holder;
}

void AddBuffer(ArrayPrivate* holder, ArrowArray* out, const std::shared_ptr<Buffer>& buffer) {
  holder->buffer_pointers[out->n_buffers++] = buffer ? buffer->data() : nullptr;
  if (buffer) holder->buffers.push_back(buffer);
}

void PrepareChildren(ArrayPrivate* holder, ArrowArray* out, size_t count) {
  holder->child_storage = std::make_unique<ArrowArray[]>(count);
  holder->child_pointers.resize(count);
  for (size_t child_idx = 0; child_idx < count; ++child_idx) {
    holder->child_storage[child_idx].release = nullptr;
    holder->child_pointers[child_idx] = &holder->child_storage[child_idx];
  }
  out->n_children = static_cast<int64_t>(count);
  out->children = holder->child_pointers.data();
}

Status ExportColumn(const Column& column, ArrowArray* out, int depth) {
  if (depth > internal::kMaxArrowDepth) return Status::InvalidArgument("column nested too deeply to export");
  ArrayPrivate* holder = StartArray(column.length, column.null_count, out);
  const DataType& type = column.type;
  if (type.id != TypeId::kNull) AddBuffer(holder, out, column.validity);
  if (type.IsVarLength()) {
    if (!column.values || !column.data) {
      ReleaseArray(out);
      return Status::InvalidArgument("cannot export a ", type.ToString(), " column without buffers");
    }
    AddBuffer(holder, out, column.values);
    AddBuffer(holder, out, column.data);
  } else if (type.id != TypeId::kNull && type.id != TypeId::kStruct) {
    if (!column.values) {
      ReleaseArray(out);
      return Status::InvalidArgument("cannot export a ", type.ToString(), " column without values");
    }
    AddBuffer(holder, out, column.values);
  }
  if (!column.children.empty()) {
    PrepareChildren(holder, out, column.children.size());
    for (size_t child_idx = 0; child_idx < column.children.size(); ++child_idx) {
      Status status = ExportColumn(*column.children[child_idx], out->children[child_idx], depth + 1);
      if (!status.ok()) {
        ReleaseArray(out);
        return status;
      }
    }
  }
  return Status::OK();
}

// ---- streams --------------------------------------------------------------------------------

struct StreamPrivate {
  std::unique_ptr<BatchReader> reader;
  std::string last_error;
};

int ErrnoFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInvalidArgument: return EINVAL;
    case StatusCode::kNotSupported: return ENOSYS;
    case StatusCode::kResourceExhausted: return ENOMEM;
    default: return EIO;
  }
}

int StreamFail(ArrowArrayStream* stream, const Status& status) {
  static_cast<StreamPrivate*>(stream->private_data)->last_error = status.ToString();
  return ErrnoFor(status);
}

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* state = static_cast<StreamPrivate*>(stream->private_data);
  std::shared_ptr<const Schema> schema = state->reader->schema();
  if (!schema) return StreamFail(stream, Status::Internal("the stream's reader has no schema"));
  Status status = ExportSchema(*schema, out);
  return status.ok() ? 0 : StreamFail(stream, status);
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* state = static_cast<StreamPrivate*>(stream->private_data);
  Result<std::shared_ptr<Batch>> next = state->reader->Next();
  if (!next.ok()) return StreamFail(stream, next.status());
  if (*next == nullptr) {
    out->release = nullptr;  // end of stream
    return 0;
  }
  Status status = ExportBatch(std::move(*next), out);
  return status.ok() ? 0 : StreamFail(stream, status);
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  auto* state = static_cast<StreamPrivate*>(stream->private_data);
  return state->last_error.empty() ? nullptr : state->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete static_cast<StreamPrivate*>(stream->private_data);
  stream->private_data = nullptr;
  stream->release = nullptr;
}

}  // namespace

Status ExportType(const Field& field, ArrowSchema* out) {
  return ExportField(field.name, field.type, field.nullable, field.field_id, out, 0);
}

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  return ExportField("", DataType::Struct(schema.fields), /*nullable=*/false, std::nullopt, out, 0);
}

Status ExportBatch(std::shared_ptr<Batch> batch, ArrowArray* out) {
  if (!batch) return Status::InvalidArgument("cannot export a null batch");
  for (size_t column_idx = 0; column_idx < batch->columns.size(); ++column_idx) {
    const auto& column = batch->columns[column_idx];
    if (!column || column->length != batch->num_rows) {
      return Status::InvalidArgument("cannot export batch column ", column_idx, ": it does not have ",
                                     batch->num_rows, " rows");
    }
    // The consumer reads the arrays through the exported schema, so they must agree.
    if (batch->schema && (column_idx >= batch->schema->fields.size() ||
                          batch->schema->fields[column_idx].type != column->type)) {
      return Status::InvalidArgument("cannot export batch column ", column_idx, " of type ",
                                     column->type.ToString(), ": the schema does not match");
    }
  }
  ArrayPrivate* holder = StartArray(batch->num_rows, 0, out);
  AddBuffer(holder, out, nullptr);  // the top-level struct has no validity bitmap
  PrepareChildren(holder, out, batch->columns.size());
  for (size_t column_idx = 0; column_idx < batch->columns.size(); ++column_idx) {
    Status status = ExportColumn(*batch->columns[column_idx], out->children[column_idx], 1);
    if (!status.ok()) {
      ReleaseArray(out);
      return status;
    }
  }
  return Status::OK();
}

Status ExportBatchReader(std::unique_ptr<BatchReader> reader, ArrowArrayStream* out) {
  if (!reader) return Status::InvalidArgument("cannot export a null reader");
  auto* state = new StreamPrivate();
  state->reader = std::move(reader);
  out->get_schema = &StreamGetSchema;
  out->get_next = &StreamGetNext;
  out->get_last_error = &StreamGetLastError;
  out->release = &StreamRelease;
  out->private_data = state;
  return Status::OK();
}

}  // namespace tarn
