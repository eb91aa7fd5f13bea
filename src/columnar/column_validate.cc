// Column::Validate: checks every invariant listed in columnar.h. Columns built by tarn keep
// them by construction; this is for tests and for data that came from outside (Arrow import,
// decoders of untrusted files), so it trusts nothing and reads nothing out of bounds.
#include <cstring>

#include "columnar/bit_util.h"
#include "columnar/value_check.h"
#include "tarn/columnar.h"
#include "util/utf8.h"

namespace tarn {
namespace {

class Validator {
 public:
  Status Check(const Column& column, const std::string& path) {
    const DataType& type = column.type;
    auto fail = [&](const auto&... args) {
      return Status::Corruption("column ", path, " (", type.ToString(), "): ", args...);
    };
    if (column.length < 0) return fail("negative length ", column.length);
    if (column.null_count < 0 || column.null_count > column.length) {
      return fail("null_count ", column.null_count, " outside [0, ", column.length, "]");
    }
    const int64_t length = column.length;
    const int64_t bitmap_bytes = (length + 7) / 8;
    if (column.null_count == 0) {
      if (column.validity) return fail("a validity bitmap is present but null_count is 0");
    } else {
      if (!column.validity) return fail("null_count is ", column.null_count, " but no validity bitmap");
      if (column.validity->size() < bitmap_bytes) {
        return fail("validity bitmap has ", column.validity->size(), " bytes, expected at least ",
                    bitmap_bytes);
      }
      int64_t valid = internal::CountSetBits(column.validity->data(), 0, length);
      if (length - valid != column.null_count) {
        return fail("null_count is ", column.null_count, " but the bitmap has ", length - valid,
                    " NULLs");
      }
    }
    switch (type.id) {
      case TypeId::kNull:
        if (column.null_count != length) return fail("a NULL-typed column has non-NULL rows");
        return Status::OK();
      case TypeId::kBoolean: {
        TARN_RETURN_NOT_OK(CheckValues(column, bitmap_bytes, fail));
        for (int64_t row = 0; row < length; ++row) {
          if (column.IsNull(row) && column.GetBool(row)) return fail("NULL row ", row, " has a set value bit");
        }
        return Status::OK();
      }
      case TypeId::kStruct: return CheckStruct(column, path, fail);
      case TypeId::kList:
      case TypeId::kMap: return CheckList(column, path, fail);
      default: break;
    }
    if (type.IsVarLength()) return CheckVarLength(column, fail);
    const int width = type.FixedWidth();
    if (width == 0) return fail("unknown type id ", static_cast<int>(type.id));
    if (type.id == TypeId::kDecimal && (type.precision < 1 || type.precision > 38 ||
                                        type.scale > type.precision)) {
      return fail("invalid decimal precision/scale");
    }
    TARN_RETURN_NOT_OK(CheckValues(column, length * width, fail));
    const uint8_t* values = column.values->data();
    for (int64_t row = 0; row < length; ++row) {
      if (column.IsNull(row)) {
        for (int byte = 0; byte < width; ++byte) {
          if (values[row * width + byte] != 0) return fail("NULL row ", row, " is not zeroed");
        }
      }
    }
    if (type.id == TypeId::kDecimal) {
      const __int128 limit = internal::PowerOfTen(type.precision);
      for (int64_t row = 0; row < length; ++row) {
        __int128 v;
        std::memcpy(&v, values + row * 16, 16);
        if (v >= limit || v <= -limit) return fail("row ", row, " exceeds the decimal precision");
      }
    }
    return Status::OK();
  }

 private:
  template <typename Fail>
  Status CheckValues(const Column& column, int64_t min_bytes, const Fail& fail) {
    if (!column.values) return fail("missing values buffer");
    if (column.values->size() < min_bytes) {
      return fail("values buffer has ", column.values->size(), " bytes, expected at least ", min_bytes);
    }
    return Status::OK();
  }

  // Offsets (int64 for var-length data, int32 for lists): non-negative, non-decreasing,
  // ending within `limit`, with empty NULL rows.
  template <typename Offset, typename Fail>
  Status CheckOffsets(const Column& column, int64_t limit, const char* what, const Fail& fail) {
    const int64_t length = column.length;
    TARN_RETURN_NOT_OK(CheckValues(column, (length + 1) * static_cast<int64_t>(sizeof(Offset)), fail));
    const Offset* offsets = column.values->data_as<Offset>();
    if (offsets[0] < 0) return fail("first offset is negative: ", offsets[0]);
    for (int64_t row = 0; row < length; ++row) {
      if (offsets[row + 1] < offsets[row]) {
        return fail("offsets decrease at row ", row, ": ", offsets[row], " > ", offsets[row + 1]);
      }
      if (offsets[row + 1] != offsets[row] && column.IsNull(row)) {
        return fail("NULL row ", row, " is not empty");
      }
    }
    if (offsets[length] > limit) {
      return fail("last offset ", offsets[length], " exceeds the ", what, " size ", limit);
    }
    return Status::OK();
  }

  template <typename Fail>
  Status CheckVarLength(const Column& column, const Fail& fail) {
    if (!column.data) return fail("missing data buffer");
    TARN_RETURN_NOT_OK(CheckOffsets<int64_t>(column, column.data->size(), "data", fail));
    if (column.type.id == TypeId::kVarchar || column.type.id == TypeId::kJson) {
      const int64_t* offsets = column.values->data_as<int64_t>();
      for (int64_t row = 0; row < column.length; ++row) {
        if (!IsValidUtf8(column.data->data() + offsets[row], offsets[row + 1] - offsets[row])) {
          return fail("row ", row, " is not valid UTF-8");
        }
      }
    }
    if (const DictionaryCodes* codes = column.codes()) return CheckCodes(column, *codes, fail);
    return Status::OK();
  }

  // Dictionary codes: entries without NULLs, and each row's code naming its value.
  template <typename Fail>
  Status CheckCodes(const Column& column, const DictionaryCodes& codes, const Fail& fail) {
    if (!codes.entries || !codes.codes) return fail("dictionary codes without entries or codes");
    const Column& entries = *codes.entries;
    if (entries.type != column.type || entries.null_count != 0) {
      return fail("dictionary entries of type ", entries.type.ToString(), " with ",
                  entries.null_count, " NULLs");
    }
    // The entries' offsets (unused entries are never read as values: no UTF-8 check).
    if (!entries.data) return fail("dictionary entries without a data buffer");
    TARN_RETURN_NOT_OK(CheckOffsets<int64_t>(entries, entries.data->size(), "dictionary", fail));
    if (codes.codes->size() < column.length * 4) {
      return fail("dictionary codes have ", codes.codes->size(), " bytes for ", column.length,
                  " rows");
    }
    const uint32_t* values = codes.codes->data_as<uint32_t>();
    for (int64_t row = 0; row < column.length; ++row) {
      if (column.IsNull(row)) continue;
      if (values[row] >= entries.length) {
        return fail("row ", row, " has dictionary code ", values[row], " of ", entries.length);
      }
      if (entries.GetView(values[row]) != column.GetView(row)) {
        return fail("row ", row, " differs from its dictionary entry ", values[row]);
      }
    }
    return Status::OK();
  }

  template <typename Fail>
  Status CheckChild(const Column& column, size_t child_idx, const Field& field,
                    const std::string& path, const Fail& fail) {
    const auto& child = column.children[child_idx];
    if (!child) return fail("child ", child_idx, " is missing");
    if (child->type != field.type) {
      return fail("child '", field.name, "' has type ", child->type.ToString(), ", expected ",
                  field.type.ToString());
    }
    TARN_RETURN_NOT_OK(Check(*child, path + "." + field.name));
    if (!field.nullable && child->null_count != 0) {
      return fail("non-nullable child '", field.name, "' has ", child->null_count, " NULLs");
    }
    return Status::OK();
  }

  template <typename Fail>
  Status CheckStruct(const Column& column, const std::string& path, const Fail& fail) {
    const auto& fields = column.type.children;
    if (column.children.size() != fields.size()) {
      return fail("has ", column.children.size(), " children, the type has ", fields.size());
    }
    for (size_t child_idx = 0; child_idx < fields.size(); ++child_idx) {
      if (column.children[child_idx] && column.children[child_idx]->length != column.length) {
        return fail("child '", fields[child_idx].name, "' has ", column.children[child_idx]->length,
                    " rows, expected ", column.length);
      }
      TARN_RETURN_NOT_OK(CheckChild(column, child_idx, fields[child_idx], path, fail));
    }
    return Status::OK();
  }

  template <typename Fail>
  Status CheckList(const Column& column, const std::string& path, const Fail& fail) {
    const DataType& type = column.type;
    if (type.children.size() != 1) return fail("a list or map type needs exactly one child field");
    if (type.id == TypeId::kMap) {
      const DataType& entry = type.children[0].type;
      if (entry.id != TypeId::kStruct || entry.children.size() != 2 || type.children[0].nullable ||
          entry.children[0].nullable) {
        return fail("a map's child must be a non-nullable struct {key NOT NULL, value}");
      }
    }
    if (column.children.size() != 1 || !column.children[0]) return fail("needs exactly one child column");
    TARN_RETURN_NOT_OK(CheckOffsets<int32_t>(column, column.children[0]->length, "child", fail));
    return CheckChild(column, 0, type.children[0], path, fail);
  }
};

}  // namespace

// Paths in messages start at "$" (this column) and name struct fields, e.g. "$.a.element".
Status Column::Validate() const { return Validator().Check(*this, "$"); }

}  // namespace tarn
