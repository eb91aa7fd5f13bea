// CatalogDatum and the conversion of stored catalog values to their declared types.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "catalog/value_text.h"
#include "tarn/catalog.h"

namespace tarn {

CatalogDatum CatalogDatum::Integer(int64_t v) {
  CatalogDatum d;
  d.kind_ = Kind::kInteger;
  d.integer_ = v;
  return d;
}

CatalogDatum CatalogDatum::Real(double v) {
  CatalogDatum d;
  d.kind_ = Kind::kReal;
  d.real_ = v;
  return d;
}

CatalogDatum CatalogDatum::Text(std::string v) {
  CatalogDatum d;
  d.kind_ = Kind::kText;
  d.bytes_ = std::move(v);
  return d;
}

CatalogDatum CatalogDatum::Blob(std::string v) {
  CatalogDatum d;
  d.kind_ = Kind::kBlob;
  d.bytes_ = std::move(v);
  return d;
}

std::string CatalogDatum::ToString() const {
  switch (kind_) {
    case Kind::kNull:
      return "NULL";
    case Kind::kInteger:
      return std::to_string(integer_);
    case Kind::kReal: {
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", real_);
      return buf;
    }
    case Kind::kText: {
      // Long or binary text is cut: this is for messages only.
      std::string out = "'";
      size_t shown = 0;
      for (char c : bytes_) {
        if (shown++ == 64) {
          out += "...";
          break;
        }
        unsigned char uc = static_cast<unsigned char>(c);
        if (uc < 0x20 || uc >= 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02X", uc);
          out += buf;
        } else {
          out += c;
        }
      }
      return out + "'";
    }
    case Kind::kBlob: {
      std::string out = "x'";
      size_t shown = 0;
      for (char c : bytes_) {
        if (shown++ == 32) {
          out += "...";
          break;
        }
        char buf[4];
        std::snprintf(buf, sizeof(buf), "%02X", static_cast<unsigned char>(c));
        out += buf;
      }
      return out + "'";
    }
  }
  return "?";
}

std::string_view CatalogTypeName(CatalogType type) {
  switch (type) {
    case CatalogType::kAny: return "ANY";
    case CatalogType::kBigint: return "BIGINT";
    case CatalogType::kDouble: return "DOUBLE";
    case CatalogType::kBoolean: return "BOOLEAN";
    case CatalogType::kVarchar: return "VARCHAR";
    case CatalogType::kBlob: return "BLOB";
  }
  return "?";
}

namespace {

Status NotA(const CatalogDatum& datum, CatalogType type) {
  return Status::InvalidArgument(datum.ToString(), " is not a ", CatalogTypeName(type));
}

}  // namespace

Result<CatalogDatum> ConvertCatalogDatum(const CatalogDatum& datum, CatalogType type) {
  using Kind = CatalogDatum::Kind;
  if (datum.is_null() || type == CatalogType::kAny) return datum;
  switch (type) {
    case CatalogType::kAny:
      return datum;
    case CatalogType::kBigint:
      switch (datum.kind()) {
        case Kind::kInteger:
          return datum;
        case Kind::kReal: {
          double v = datum.real();
          // 2^63 is exactly representable; anything at or past it does not fit.
          if (std::isfinite(v) && v == std::trunc(v) && v >= -9223372036854775808.0 &&
              v < 9223372036854775808.0) {
            return CatalogDatum::Integer(static_cast<int64_t>(v));
          }
          return NotA(datum, type);
        }
        case Kind::kText: {
          int64_t v = 0;
          if (catalog_internal::ParseInt64Text(datum.bytes(), &v)) return CatalogDatum::Integer(v);
          return NotA(datum, type);
        }
        default:
          return NotA(datum, type);
      }
    case CatalogType::kBoolean:
      switch (datum.kind()) {
        case Kind::kInteger:
          if (datum.integer() == 0 || datum.integer() == 1) return datum;
          return NotA(datum, type);
        case Kind::kReal:
          if (datum.real() == 0.0 || datum.real() == 1.0) {
            return CatalogDatum::Boolean(datum.real() == 1.0);
          }
          return NotA(datum, type);
        case Kind::kText: {
          bool v = false;
          if (catalog_internal::ParseBoolText(datum.bytes(), &v)) return CatalogDatum::Boolean(v);
          return NotA(datum, type);
        }
        default:
          return NotA(datum, type);
      }
    case CatalogType::kDouble:
      switch (datum.kind()) {
        case Kind::kReal:
          return datum;
        case Kind::kInteger:
          return CatalogDatum::Real(static_cast<double>(datum.integer()));
        case Kind::kText: {
          double v = 0;
          if (catalog_internal::ParseDoubleText(datum.bytes(), &v)) return CatalogDatum::Real(v);
          return NotA(datum, type);
        }
        default:
          return NotA(datum, type);
      }
    case CatalogType::kVarchar:
      switch (datum.kind()) {
        case Kind::kText:
          return datum;
        case Kind::kBlob:
          return CatalogDatum::Text(datum.bytes());
        case Kind::kInteger:
          return CatalogDatum::Text(std::to_string(datum.integer()));
        case Kind::kReal:
          return CatalogDatum::Text(datum.ToString());
        default:
          return NotA(datum, type);
      }
    case CatalogType::kBlob:
      switch (datum.kind()) {
        case Kind::kBlob:
          return datum;
        case Kind::kText:
          return CatalogDatum::Blob(datum.bytes());
        default:
          return NotA(datum, type);
      }
  }
  return NotA(datum, type);
}

}  // namespace tarn
