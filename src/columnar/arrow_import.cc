// Arrow C Data import: copies foreign arrays into tarn buffers.
//
// Nothing in the foreign structures is trusted beyond what the C interface cannot express
// (the sizes of the buffers themselves): lengths, offsets and null counts are checked before
// any byte is read through them, NULL rows are normalized to tarn's invariants (zeroed values,
// empty strings and lists), and every imported column is Validate()d. Errors are
// InvalidArgument naming the column path; formats tarn does not hold are NotSupported.
//
// An ArrowArray does not say how wide its offsets are; that comes from the ArrowSchema's
// format. The tarn-Schema overload of ImportBatch therefore assumes tarn's own layout (what
// ExportBatch produces); the ArrowSchema overload also reads "u"/"z" (32-bit string offsets)
// and "+L" (64-bit list offsets).
#include <cstring>

#include "columnar/arrow_import_layout.h"
#include "columnar/bit_util.h"
#include "tarn/columnar.h"

namespace tarn {
namespace {

using internal::ImportLayout;

// Any single buffer larger than this is refused rather than allocated.
constexpr int64_t kMaxImportBytes = int64_t{1} << 40;

class ArrayImporter {
 public:
  Result<std::shared_ptr<Column>> Import(const DataType& type, const ImportLayout& layout,
                                         const ArrowArray* array, int64_t parent_offset,
                                         int64_t length, const std::string& path) {
    auto fail = [&](const auto&... args) {
      return Status::InvalidArgument("Arrow column ", path, " (", type.ToString(), "): ", args...);
    };
    if (array == nullptr) return fail("missing ArrowArray");
    if (array->release == nullptr) return fail("the ArrowArray is already released");
    if (array->dictionary != nullptr) {
      return Status::NotSupported("Arrow column ", path, ": dictionary-encoded arrays are not supported");
    }
    if (array->length < 0 || array->offset < 0) {
      return fail("negative length ", array->length, " or offset ", array->offset);
    }
    if (parent_offset > array->length || length > array->length - parent_offset) {
      return fail("needs rows [", parent_offset, ", ", parent_offset + length, ") but has ",
                  array->length);
    }
    if (array->offset > INT64_MAX / 2 - parent_offset) return fail("offset too large");
    const int64_t start = array->offset + parent_offset;
    const int expected_buffers = ExpectedBuffers(type);
    if (array->n_buffers != expected_buffers) {
      return fail("has ", array->n_buffers, " buffers, expected ", expected_buffers);
    }
    if (expected_buffers > 0 && array->buffers == nullptr) return fail("buffers array is null");
    const size_t expected_children = type.IsNested() ? type.children.size() : 0;
    if (array->n_children != static_cast<int64_t>(expected_children)) {
      return fail("has ", array->n_children, " children, expected ", expected_children);
    }
    if (expected_children > 0 && array->children == nullptr) return fail("children array is null");

    auto out = std::make_shared<Column>();
    out->type = type;
    out->length = length;
    std::shared_ptr<Buffer> bitmap;  // validity of the imported rows, when NULLs exist
    if (type.id == TypeId::kNull) {
      out->null_count = length;
      if (length > 0) out->validity = Buffer::Allocate((length + 7) / 8);
      return out;
    }
    const uint8_t* validity = static_cast<const uint8_t*>(array->buffers[0]);
    if (validity == nullptr) {
      if (array->null_count > 0) return fail("null_count ", array->null_count, " but no validity buffer");
    } else {
      bitmap = Buffer::Allocate((length + 7) / 8);
      internal::CopyBits(validity, start, bitmap->mutable_data(), 0, length);
      const int64_t nulls = length - internal::CountSetBits(bitmap->data(), 0, length);
      const bool whole_array = parent_offset == 0 && length == array->length;
      if (whole_array && array->null_count >= 0 && array->null_count != nulls) {
        return fail("null_count is ", array->null_count, " but the validity bitmap has ", nulls, " NULLs");
      }
      out->null_count = nulls;
      if (nulls > 0) {
        out->validity = bitmap;
      } else {
        bitmap.reset();
      }
    }

    if (type.id == TypeId::kBoolean) {
      const uint8_t* values = static_cast<const uint8_t*>(array->buffers[1]);
      if (values == nullptr && length > 0) return fail("missing values buffer");
      out->values = Buffer::Allocate((length + 7) / 8);
      if (length > 0) internal::CopyBits(values, start, out->values->mutable_data(), 0, length);
      if (bitmap) {  // NULL rows hold false
        uint8_t* bits = out->values->mutable_data();
        for (int64_t byte = 0; byte < (length + 7) / 8; ++byte) bits[byte] &= bitmap->data()[byte];
      }
      return out;
    }
    if (type.IsVarLength()) {
      TARN_RETURN_NOT_OK(ImportVarLength(layout, array, start, out.get(), fail));
      return out;
    }
    if (type.id == TypeId::kStruct) {
      for (size_t child_idx = 0; child_idx < type.children.size(); ++child_idx) {
        const Field& field = type.children[child_idx];
        TARN_ASSIGN_OR_RETURN(
            auto child, Import(field.type, layout.children[child_idx], array->children[child_idx],
                               start, length, path + "." + field.name));
        out->children.push_back(std::move(child));
      }
      return out;
    }
    if (type.id == TypeId::kList || type.id == TypeId::kMap) {
      TARN_RETURN_NOT_OK(ImportList(layout, array, start, out.get(), path, fail));
      return out;
    }
    const int width = type.FixedWidth();
    const uint8_t* values = static_cast<const uint8_t*>(array->buffers[1]);
    if (values == nullptr && length > 0) return fail("missing values buffer");
    if (length > kMaxImportBytes / 16) {
      return Status::ResourceExhausted("Arrow column ", path, ": ", length, " rows is too many");
    }
    out->values = Buffer::CopyOf(values == nullptr ? nullptr : values + start * width, length * width);
    if (bitmap) {
      uint8_t* slots = out->values->mutable_data();
      for (int64_t row = 0; row < length; ++row) {
        if (!GetBit(bitmap->data(), row)) std::memset(slots + row * width, 0, static_cast<size_t>(width));
      }
    }
    return out;
  }

 private:
  static int ExpectedBuffers(const DataType& type) {
    if (type.id == TypeId::kNull) return 0;
    if (type.id == TypeId::kStruct) return 1;
    if (type.IsVarLength()) return 3;
    return 2;
  }

  // Reads `length + 1` offsets of `width` bytes starting at entry `start`, checking that
  // they are non-negative and non-decreasing.
  template <typename Fail>
  static Status ReadOffsets(const void* buffer, int width, int64_t start, int64_t length,
                            std::vector<int64_t>* out, const Fail& fail) {
    if (buffer == nullptr) return fail("missing offsets buffer");
    if (length >= kMaxImportBytes / 8) return fail("too many rows: ", length);
    out->resize(static_cast<size_t>(length + 1));
    const uint8_t* bytes = static_cast<const uint8_t*>(buffer);
    for (int64_t row = 0; row <= length; ++row) {
      int64_t offset;
      if (width == 4) {
        int32_t narrow;
        std::memcpy(&narrow, bytes + (start + row) * 4, 4);
        offset = narrow;
      } else {
        std::memcpy(&offset, bytes + (start + row) * 8, 8);
      }
      if (offset < 0) return fail("negative offset ", offset, " at row ", row);
      if (row > 0 && offset < (*out)[row - 1]) {
        return fail("offsets decrease at row ", row - 1, ": ", (*out)[row - 1], " > ", offset);
      }
      (*out)[row] = offset;
    }
    return Status::OK();
  }

  template <typename Fail>
  Status ImportVarLength(const ImportLayout& layout, const ArrowArray* array, int64_t start,
                         Column* out, const Fail& fail) {
    const int64_t length = out->length;
    std::vector<int64_t> offsets;
    TARN_RETURN_NOT_OK(ReadOffsets(array->buffers[1], layout.offset_width, start, length, &offsets, fail));
    const uint8_t* data = static_cast<const uint8_t*>(array->buffers[2]);
    if (data == nullptr && offsets[length] > offsets[0]) return fail("missing data buffer");
    if (offsets[length] - offsets[0] > kMaxImportBytes) return fail("data too large");
    out->values = Buffer::Allocate((length + 1) * 8);
    int64_t* out_offsets = out->values->mutable_data_as<int64_t>();
    int64_t total = 0;
    for (int64_t row = 0; row < length; ++row) {
      if (out->IsValid(row)) total += offsets[row + 1] - offsets[row];
      out_offsets[row + 1] = total;
    }
    out->data = Buffer::Allocate(total);
    if (out->null_count == 0) {
      if (total > 0) std::memcpy(out->data->mutable_data(), data + offsets[0], static_cast<size_t>(total));
    } else {
      for (int64_t row = 0; row < length; ++row) {
        const int64_t size = out_offsets[row + 1] - out_offsets[row];
        if (size > 0) {
          std::memcpy(out->data->mutable_data() + out_offsets[row], data + offsets[row],
                      static_cast<size_t>(size));
        }
      }
    }
    return Status::OK();
  }

  template <typename Fail>
  Status ImportList(const ImportLayout& layout, const ArrowArray* array, int64_t start, Column* out,
                    const std::string& path, const Fail& fail) {
    const int64_t length = out->length;
    std::vector<int64_t> offsets;
    TARN_RETURN_NOT_OK(ReadOffsets(array->buffers[1], layout.offset_width, start, length, &offsets, fail));
    const int64_t first = offsets[0];
    const int64_t elements = offsets[length] - first;
    const Field& element_field = out->type.children[0];
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Column> child,
                          Import(element_field.type, layout.children[0], array->children[0], first,
                                 elements, path + "." + element_field.name));
    // NULL rows must be empty: drop the elements a NULL row still points at.
    bool null_rows_hold_elements = false;
    for (int64_t row = 0; row < length && !null_rows_hold_elements; ++row) {
      null_rows_hold_elements = out->IsNull(row) && offsets[row + 1] != offsets[row];
    }
    if (null_rows_hold_elements) {
      std::vector<int64_t> kept;
      for (int64_t row = 0; row < length; ++row) {
        if (out->IsNull(row)) continue;
        for (int64_t element = offsets[row]; element < offsets[row + 1]; ++element) {
          kept.push_back(element - first);
        }
      }
      child = Take(*child, kept);
    }
    if (child->length > INT32_MAX) return fail("more than 2^31-1 list elements");
    out->values = Buffer::Allocate((length + 1) * 4);
    int32_t* out_offsets = out->values->mutable_data_as<int32_t>();
    int64_t total = 0;
    for (int64_t row = 0; row < length; ++row) {
      if (out->IsValid(row)) total += offsets[row + 1] - offsets[row];
      out_offsets[row + 1] = static_cast<int32_t>(total);
    }
    out->children.push_back(std::move(child));
    return Status::OK();
  }
};

// Releases a C structure on scope exit (import takes ownership of its argument).
template <typename T>
struct ReleaseOnExit {
  T* target;
  ~ReleaseOnExit() {
    if (target != nullptr && target->release != nullptr) target->release(target);
  }
};

Result<std::shared_ptr<Batch>> ImportStruct(std::shared_ptr<const Schema> schema,
                                            const std::vector<ImportLayout>& layouts,
                                            const ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) {
    return Status::InvalidArgument("cannot import a null or released ArrowArray");
  }
  if (array->length < 0 || array->offset < 0) {
    return Status::InvalidArgument("Arrow batch has negative length or offset");
  }
  if (array->n_children != schema->num_fields()) {
    return Status::InvalidArgument("Arrow batch has ", array->n_children, " columns, the schema has ",
                                   schema->num_fields());
  }
  if (array->n_children > 0 && array->children == nullptr) {
    return Status::InvalidArgument("Arrow batch has a null children array");
  }
  if (array->n_buffers >= 1 && array->buffers != nullptr && array->buffers[0] != nullptr &&
      array->null_count != 0) {
    return Status::NotSupported("Arrow batches with NULL top-level rows are not supported");
  }
  auto batch = std::make_shared<Batch>();
  batch->schema = schema;
  batch->num_rows = array->length;
  ArrayImporter importer;
  for (int column_idx = 0; column_idx < schema->num_fields(); ++column_idx) {
    const Field& field = schema->field(column_idx);
    TARN_ASSIGN_OR_RETURN(auto column, importer.Import(field.type, layouts[column_idx],
                                                       array->children[column_idx], array->offset,
                                                       array->length, "'" + field.name + "'"));
    Status valid = column->Validate();
    if (!valid.ok()) {
      return Status::InvalidArgument("imported Arrow column '", field.name, "': ", valid.message());
    }
    batch->columns.push_back(std::move(column));
  }
  Status valid = batch->Validate();
  if (!valid.ok()) return Status::InvalidArgument("imported Arrow batch: ", valid.message());
  return batch;
}

}  // namespace

Result<Schema> ImportSchema(ArrowSchema* schema) {
  ReleaseOnExit<ArrowSchema> release{schema};
  std::vector<ImportLayout> layouts;
  return internal::ImportSchemaWithLayout(schema, &layouts);
}

Result<std::shared_ptr<Batch>> ImportBatch(std::shared_ptr<const Schema> schema, ArrowArray* array) {
  ReleaseOnExit<ArrowArray> release{array};
  if (!schema) return Status::InvalidArgument("ImportBatch needs a schema");
  std::vector<ImportLayout> layouts;
  for (const Field& field : schema->fields) layouts.push_back(internal::DefaultImportLayout(field.type));
  return ImportStruct(std::move(schema), layouts, array);
}

Result<std::shared_ptr<Batch>> ImportBatch(ArrowSchema* schema, ArrowArray* array) {
  ReleaseOnExit<ArrowSchema> release_schema{schema};
  ReleaseOnExit<ArrowArray> release_array{array};
  std::vector<ImportLayout> layouts;
  TARN_ASSIGN_OR_RETURN(Schema imported, internal::ImportSchemaWithLayout(schema, &layouts));
  return ImportStruct(std::make_shared<const Schema>(std::move(imported)), layouts, array);
}

}  // namespace tarn
