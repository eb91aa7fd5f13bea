// WKT ⇄ WKB and the geometry statistics of geometry.h.
#include "columnar/geometry.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace tarn::geometry {

namespace {

enum class Kind : uint32_t {
  kPoint = 1,
  kLineString = 2,
  kPolygon = 3,
  kMultiPoint = 4,
  kMultiLineString = 5,
  kMultiPolygon = 6,
  kCollection = 7,
};

// Deep enough for any real collection, shallow enough for the stack of every build.
constexpr int kMaxDepth = 128;

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kPoint: return "POINT";
    case Kind::kLineString: return "LINESTRING";
    case Kind::kPolygon: return "POLYGON";
    case Kind::kMultiPoint: return "MULTIPOINT";
    case Kind::kMultiLineString: return "MULTILINESTRING";
    case Kind::kMultiPolygon: return "MULTIPOLYGON";
    case Kind::kCollection: return "GEOMETRYCOLLECTION";
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// WKT → WKB
// ---------------------------------------------------------------------------------------------

// Reads WKT as DuckDB's parser does: every token may be preceded by whitespace, keywords
// match case-insensitively as prefixes, an error names the offset after that whitespace.
class WktReader {
 public:
  explicit WktReader(std::string_view text) : text_(text) {}

  bool TryMatch(std::string_view word) {
    SkipSpaces();
    if (text_.size() - pos_ < word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(text_[pos_ + i])) != word[i]) return false;
    }
    pos_ += word.size();
    return true;
  }

  bool TryMatch(char c) {
    SkipSpaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Status Match(char c) {
    if (TryMatch(c)) return Status::OK();
    std::string got = pos_ < text_.size() ? StrCat("'", text_.substr(pos_, 1), "'")
                                          : std::string("end of input");
    return Error(StrCat("Expected '", std::string(1, c), "' but got ", got));
  }

  Result<double> MatchNumber() {
    SkipSpaces();
    size_t start = pos_;
    size_t body = start < text_.size() && text_[start] == '-' ? start + 1 : start;
    // No '+' and no leading '.', as DuckDB; "inf", "infinity" and "nan" are numbers.
    if (body >= text_.size()) return Error("Expected number");
    const char first = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[body])));
    if (!std::isdigit(static_cast<unsigned char>(first)) && first != 'i' && first != 'n') {
      return Error("Expected number");
    }
    double value = 0;
    const char* begin = text_.data() + start;
    auto [end, ec] = std::from_chars(begin, text_.data() + text_.size(), value);
    if (ec == std::errc::invalid_argument) return Error("Expected number");
    if (ec == std::errc::result_out_of_range) {
      // Past the range: ±inf or a subnormal/zero, as strtod rounds it.
      std::string copy(begin, end);
      value = std::strtod(copy.c_str(), nullptr);
    }
    pos_ = static_cast<size_t>(end - text_.data());
    return value;
  }

  Status Error(std::string_view what) const {
    return Status::InvalidArgument("Invalid Input Error: Failed to parse geometry: ", what,
                                   " at offset ", pos_);
  }

 private:
  void SkipSpaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

class WkbWriter {
 public:
  void Header(Kind kind, bool has_z, bool has_m) {
    out_.push_back('\x01');  // little endian
    U32(static_cast<uint32_t>(kind) + (has_z ? 1000 : 0) + (has_m ? 2000 : 0));
  }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void F64(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof(bits));
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  }
  // A count written later: the offset of its placeholder.
  size_t BeginCount() {
    size_t at = out_.size();
    U32(0);
    return at;
  }
  void EndCount(size_t at, uint32_t count) {
    for (int i = 0; i < 4; ++i) out_[at + i] = static_cast<char>((count >> (8 * i)) & 0xff);
  }
  std::string Finish() { return std::move(out_); }

 private:
  std::string out_;
};

class WktParser {
 public:
  explicit WktParser(std::string_view text) : reader_(text) {}

  Result<std::string> Parse() {
    if (reader_.TryMatch("srid")) {
      TARN_RETURN_NOT_OK(reader_.Match('='));
      TARN_RETURN_NOT_OK(reader_.MatchNumber().status());
      TARN_RETURN_NOT_OK(reader_.Match(';'));
    }
    TARN_RETURN_NOT_OK(Geometry(0, false, false));
    return writer_.Finish();
  }

 private:
  Status Geometry(int depth, bool parent_z, bool parent_m) {
    if (depth > kMaxDepth) {
      return reader_.Error(StrCat("Geometry exceeds maximum recursion depth of ", kMaxDepth));
    }
    Kind kind;
    // Longer names first where one is a prefix of another's match position.
    if (reader_.TryMatch("point")) {
      kind = Kind::kPoint;
    } else if (reader_.TryMatch("linestring")) {
      kind = Kind::kLineString;
    } else if (reader_.TryMatch("polygon")) {
      kind = Kind::kPolygon;
    } else if (reader_.TryMatch("multipoint")) {
      kind = Kind::kMultiPoint;
    } else if (reader_.TryMatch("multilinestring")) {
      kind = Kind::kMultiLineString;
    } else if (reader_.TryMatch("multipolygon")) {
      kind = Kind::kMultiPolygon;
    } else if (reader_.TryMatch("geometrycollection")) {
      kind = Kind::kCollection;
    } else {
      return reader_.Error("Unknown geometry type");
    }
    has_z_ = reader_.TryMatch("z");
    has_m_ = reader_.TryMatch("m");
    const bool empty = reader_.TryMatch("empty");
    if (depth != 0 && (parent_z != has_z_ || parent_m != has_m_)) {
      return reader_.Error("Geometry has inconsistent Z/M dimensions");
    }
    dims_ = 2 + (has_z_ ? 1 : 0) + (has_m_ ? 1 : 0);
    writer_.Header(kind, has_z_, has_m_);
    switch (kind) {
      case Kind::kPoint:
        if (empty) return EmptyPoint();
        TARN_RETURN_NOT_OK(reader_.Match('('));
        TARN_RETURN_NOT_OK(Vertex());
        return reader_.Match(')');
      case Kind::kLineString:
        return empty ? EmptyCount() : Vertices();
      case Kind::kPolygon:
        return empty ? EmptyCount() : Rings();
      case Kind::kMultiPoint:
      case Kind::kMultiLineString:
      case Kind::kMultiPolygon:
        return empty ? EmptyCount() : Parts(kind);
      case Kind::kCollection: {
        if (empty) return EmptyCount();
        const bool z = has_z_, m = has_m_;
        TARN_RETURN_NOT_OK(reader_.Match('('));
        const size_t at = writer_.BeginCount();
        uint32_t count = 0;
        do {
          TARN_RETURN_NOT_OK(Geometry(depth + 1, z, m));
          ++count;
        } while (reader_.TryMatch(','));
        writer_.EndCount(at, count);
        return reader_.Match(')');
      }
    }
    return Status::OK();
  }

  Status EmptyPoint() {
    for (int d = 0; d < dims_; ++d) writer_.F64(std::numeric_limits<double>::quiet_NaN());
    return Status::OK();
  }

  Status EmptyCount() {
    writer_.U32(0);
    return Status::OK();
  }

  Status Vertex() {
    for (int d = 0; d < dims_; ++d) {
      TARN_ASSIGN_OR_RETURN(double value, reader_.MatchNumber());
      writer_.F64(value);
    }
    return Status::OK();
  }

  // '(' vertex (',' vertex)* ')' with its count.
  Status Vertices() {
    TARN_RETURN_NOT_OK(reader_.Match('('));
    const size_t at = writer_.BeginCount();
    uint32_t count = 0;
    do {
      TARN_RETURN_NOT_OK(Vertex());
      ++count;
    } while (reader_.TryMatch(','));
    writer_.EndCount(at, count);
    return reader_.Match(')');
  }

  Status Rings() {
    TARN_RETURN_NOT_OK(reader_.Match('('));
    const size_t at = writer_.BeginCount();
    uint32_t count = 0;
    do {
      TARN_RETURN_NOT_OK(Vertices());
      ++count;
    } while (reader_.TryMatch(','));
    writer_.EndCount(at, count);
    return reader_.Match(')');
  }

  // The members of a MULTI* geometry: each one EMPTY or its body, written as a geometry of
  // its own with the parent's dimensions. A MULTIPOINT member may omit its parentheses.
  Status Parts(Kind kind) {
    const Kind part = static_cast<Kind>(static_cast<uint32_t>(kind) - 3);
    TARN_RETURN_NOT_OK(reader_.Match('('));
    const size_t at = writer_.BeginCount();
    uint32_t count = 0;
    do {
      writer_.Header(part, has_z_, has_m_);
      ++count;
      if (reader_.TryMatch("empty")) {
        TARN_RETURN_NOT_OK(part == Kind::kPoint ? EmptyPoint() : EmptyCount());
        continue;
      }
      switch (part) {
        case Kind::kPoint:
          if (reader_.TryMatch('(')) {
            TARN_RETURN_NOT_OK(Vertex());
            TARN_RETURN_NOT_OK(reader_.Match(')'));
          } else {
            TARN_RETURN_NOT_OK(Vertex());
          }
          break;
        case Kind::kLineString:
          TARN_RETURN_NOT_OK(Vertices());
          break;
        default:
          TARN_RETURN_NOT_OK(Rings());
          break;
      }
    } while (reader_.TryMatch(','));
    writer_.EndCount(at, count);
    return reader_.Match(')');
  }

  WktReader reader_;
  WkbWriter writer_;
  bool has_z_ = false;
  bool has_m_ = false;
  int dims_ = 2;
};

// ---------------------------------------------------------------------------------------------
// WKB reading
// ---------------------------------------------------------------------------------------------

// A bounds-checked cursor over WKB; the byte order is set per geometry header.
class WkbReader {
 public:
  explicit WkbReader(std::string_view bytes) : bytes_(bytes) {}

  bool done() const { return pos_ == bytes_.size(); }

  Status U8(uint8_t* out) {
    if (pos_ + 1 > bytes_.size()) return Truncated();
    *out = static_cast<uint8_t>(bytes_[pos_++]);
    return Status::OK();
  }

  Status U32(bool little, uint32_t* out) {
    if (pos_ + 4 > bytes_.size()) return Truncated();
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const uint32_t b = static_cast<uint8_t>(bytes_[pos_ + (little ? i : 3 - i)]);
      v |= b << (8 * i);
    }
    pos_ += 4;
    *out = v;
    return Status::OK();
  }

  Status F64(bool little, double* out) {
    if (pos_ + 8 > bytes_.size()) return Truncated();
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      const uint64_t b = static_cast<uint8_t>(bytes_[pos_ + (little ? i : 7 - i)]);
      v |= b << (8 * i);
    }
    pos_ += 8;
    std::memcpy(out, &v, sizeof(v));
    return Status::OK();
  }

  // A count of items each at least `min_item_bytes` long, checked against what is left so a
  // corrupt count cannot drive a long loop.
  Status Count(bool little, size_t min_item_bytes, uint32_t* out) {
    TARN_RETURN_NOT_OK(U32(little, out));
    if (static_cast<uint64_t>(*out) * min_item_bytes > bytes_.size() - pos_) return Truncated();
    return Status::OK();
  }

  Status Error(std::string_view what) const {
    return Status::Corruption("invalid WKB geometry: ", what, " at byte ", pos_);
  }

 private:
  Status Truncated() const { return Error("truncated"); }

  std::string_view bytes_;
  size_t pos_ = 0;
};

struct Header {
  bool little = true;
  Kind kind = Kind::kPoint;
  bool has_z = false;
  bool has_m = false;
  int dims() const { return 2 + (has_z ? 1 : 0) + (has_m ? 1 : 0); }
};

Status ReadHeader(WkbReader& reader, Header* out) {
  uint8_t order = 0;
  TARN_RETURN_NOT_OK(reader.U8(&order));
  if (order > 1) return reader.Error(StrCat("byte order ", static_cast<int>(order)));
  out->little = order == 1;
  uint32_t code = 0;
  TARN_RETURN_NOT_OK(reader.U32(out->little, &code));
  // EWKB flags, as PostGIS writes them, besides ISO's thousands.
  out->has_z = (code & 0x80000000u) != 0;
  out->has_m = (code & 0x40000000u) != 0;
  code &= 0x0fffffffu;
  const uint32_t base = code % 1000;
  const uint32_t dims = code / 1000;
  if (base < 1 || base > 7 || dims > 3) return reader.Error(StrCat("geometry type ", code));
  out->kind = static_cast<Kind>(base);
  out->has_z = out->has_z || dims == 1 || dims == 3;
  out->has_m = out->has_m || dims == 2 || dims == 3;
  return Status::OK();
}

// Walks one WKB geometry, handing every vertex to `vertex(coords, dims, header)` and every
// geometry to `begin(header, count)` / `end(header)` as a writer of text needs them.
class WkbVisitor {
 public:
  virtual ~WkbVisitor() = default;
  // `count`: vertices, rings or members; for a point, 1, or 0 when all its coordinates are NaN.
  virtual void Begin(const Header& header, uint32_t count, int depth) = 0;
  virtual void End(const Header& header, int depth) = 0;
  virtual void Vertex(const double* coords, const Header& header) = 0;
  // Between the rings of a polygon: a ring's start and end.
  virtual void BeginRing(uint32_t count) = 0;
  virtual void EndRing() = 0;
  virtual void Separator() = 0;
};

Status Walk(WkbReader& reader, WkbVisitor& visitor, int depth) {
  if (depth > kMaxDepth) return reader.Error("nested too deeply");
  Header header;
  TARN_RETURN_NOT_OK(ReadHeader(reader, &header));
  const int dims = header.dims();
  const size_t vertex_bytes = static_cast<size_t>(dims) * 8;
  double coords[4];
  auto read_vertex = [&]() -> Status {
    for (int d = 0; d < dims; ++d) TARN_RETURN_NOT_OK(reader.F64(header.little, &coords[d]));
    return Status::OK();
  };
  auto vertices = [&](uint32_t count) -> Status {
    for (uint32_t i = 0; i < count; ++i) {
      if (i > 0) visitor.Separator();
      TARN_RETURN_NOT_OK(read_vertex());
      visitor.Vertex(coords, header);
    }
    return Status::OK();
  };
  switch (header.kind) {
    case Kind::kPoint: {
      TARN_RETURN_NOT_OK(read_vertex());
      bool all_nan = true;
      for (int d = 0; d < dims; ++d) all_nan = all_nan && std::isnan(coords[d]);
      visitor.Begin(header, all_nan ? 0 : 1, depth);
      if (!all_nan) visitor.Vertex(coords, header);
      visitor.End(header, depth);
      return Status::OK();
    }
    case Kind::kLineString: {
      uint32_t count = 0;
      TARN_RETURN_NOT_OK(reader.Count(header.little, vertex_bytes, &count));
      visitor.Begin(header, count, depth);
      TARN_RETURN_NOT_OK(vertices(count));
      visitor.End(header, depth);
      return Status::OK();
    }
    case Kind::kPolygon: {
      uint32_t rings = 0;
      TARN_RETURN_NOT_OK(reader.Count(header.little, 4, &rings));
      visitor.Begin(header, rings, depth);
      for (uint32_t r = 0; r < rings; ++r) {
        if (r > 0) visitor.Separator();
        uint32_t count = 0;
        TARN_RETURN_NOT_OK(reader.Count(header.little, vertex_bytes, &count));
        visitor.BeginRing(count);
        TARN_RETURN_NOT_OK(vertices(count));
        visitor.EndRing();
      }
      visitor.End(header, depth);
      return Status::OK();
    }
    default: {
      uint32_t members = 0;
      TARN_RETURN_NOT_OK(reader.Count(header.little, 5, &members));
      visitor.Begin(header, members, depth);
      for (uint32_t i = 0; i < members; ++i) {
        if (i > 0) visitor.Separator();
        TARN_RETURN_NOT_OK(Walk(reader, visitor, depth + 1));
      }
      visitor.End(header, depth);
      return Status::OK();
    }
  }
}

// Prints WKT. Members of MULTI* geometries print without their type name; members of a
// collection with it.
class WktWriter final : public WkbVisitor {
 public:
  void Begin(const Header& header, uint32_t count, int depth) override {
    const bool bare = depth > 0 && parent_is_multi_.size() >= static_cast<size_t>(depth) &&
                      parent_is_multi_[static_cast<size_t>(depth - 1)];
    if (!bare) {
      out_ += KindName(header.kind);
      if (header.has_z && header.has_m) {
        out_ += " ZM";
      } else if (header.has_z) {
        out_ += " Z";
      } else if (header.has_m) {
        out_ += " M";
      }
      out_ += ' ';
    }
    if (parent_is_multi_.size() <= static_cast<size_t>(depth)) {
      parent_is_multi_.resize(static_cast<size_t>(depth) + 1);
    }
    const bool multi = header.kind == Kind::kMultiPoint ||
                       header.kind == Kind::kMultiLineString ||
                       header.kind == Kind::kMultiPolygon;
    parent_is_multi_[static_cast<size_t>(depth)] = multi;
    empty_.push_back(count == 0);
    if (count == 0) {
      out_ += "EMPTY";
      return;
    }
    // A bare point member of a MULTIPOINT prints its coordinates without parentheses.
    if (!(bare && header.kind == Kind::kPoint)) out_ += '(';
    bare_point_.push_back(bare && header.kind == Kind::kPoint);
  }
  void End(const Header&, int) override {
    const bool was_empty = empty_.back();
    empty_.pop_back();
    if (was_empty) return;
    if (!bare_point_.back()) out_ += ')';
    bare_point_.pop_back();
  }
  void Vertex(const double* coords, const Header& header) override {
    for (int d = 0; d < header.dims(); ++d) {
      if (d > 0) out_ += ' ';
      AppendCoordinate(coords[d], &out_);
    }
  }
  void BeginRing(uint32_t count) override {
    ring_empty_ = count == 0;
    out_ += ring_empty_ ? "EMPTY" : "(";
  }
  void EndRing() override {
    if (!ring_empty_) out_ += ')';
  }
  void Separator() override { out_ += ", "; }

  std::string Finish() { return std::move(out_); }

 private:
  std::string out_;
  std::vector<bool> parent_is_multi_;  // per depth: the geometry there is a MULTI*
  std::vector<bool> empty_;            // per open geometry
  std::vector<bool> bare_point_;       // per open non-empty geometry
  bool ring_empty_ = false;            // the polygon ring being written has no vertices
};

const char* KindStatName(Kind kind) {
  switch (kind) {
    case Kind::kPoint: return "point";
    case Kind::kLineString: return "linestring";
    case Kind::kPolygon: return "polygon";
    case Kind::kMultiPoint: return "multipoint";
    case Kind::kMultiLineString: return "multilinestring";
    case Kind::kMultiPolygon: return "multipolygon";
    case Kind::kCollection: return "geometrycollection";
  }
  return "unknown";
}

// Folds every coordinate into a GeometryStats and records the top-level kind.
class StatsCollector final : public WkbVisitor {
 public:
  explicit StatsCollector(GeometryStats* stats) : stats_(stats) {}

  void Begin(const Header& header, uint32_t, int depth) override {
    if (depth != 0) return;
    std::string name = KindStatName(header.kind);
    if (header.has_z && header.has_m) {
      name += "_zm";
    } else if (header.has_z) {
      name += "_z";
    } else if (header.has_m) {
      name += "_m";
    }
    type_ = std::move(name);
  }
  void End(const Header&, int) override {}
  void Vertex(const double* coords, const Header& header) override {
    int slot = 0;
    Fold(GeometryStats::kX, coords[slot++]);
    Fold(GeometryStats::kY, coords[slot++]);
    if (header.has_z) Fold(GeometryStats::kZ, coords[slot++]);
    if (header.has_m) Fold(GeometryStats::kM, coords[slot++]);
  }
  void BeginRing(uint32_t) override {}
  void EndRing() override {}
  void Separator() override {}

  const std::string& type() const { return type_; }

 private:
  void Fold(int dim, double value) {
    if (std::isnan(value)) return;
    stats_->min[dim] = std::min(stats_->min[dim], value);
    stats_->max[dim] = std::max(stats_->max[dim], value);
  }

  GeometryStats* stats_;
  std::string type_;
};

// The JSON number after `"key":` in `json` (null or absent: nullopt).
std::optional<double> JsonNumber(std::string_view json, std::string_view key) {
  const std::string quoted = StrCat("\"", key, "\"");
  size_t at = json.find(quoted);
  if (at == std::string_view::npos) return std::nullopt;
  at = json.find(':', at + quoted.size());
  if (at == std::string_view::npos) return std::nullopt;
  ++at;
  while (at < json.size() && std::isspace(static_cast<unsigned char>(json[at]))) ++at;
  double value = 0;
  auto [end, ec] = std::from_chars(json.data() + at, json.data() + json.size(), value);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

}  // namespace

Result<std::string> WktToWkb(std::string_view wkt) { return WktParser(wkt).Parse(); }

Result<std::string> WkbToWkt(std::string_view wkb) {
  WkbReader reader(wkb);
  WktWriter writer;
  TARN_RETURN_NOT_OK(Walk(reader, writer, 0));
  if (!reader.done()) return reader.Error("trailing bytes");
  return writer.Finish();
}

void AppendCoordinate(double value, std::string* out) {
  if (std::isnan(value)) {
    *out += "nan";
    return;
  }
  if (std::isinf(value)) {
    *out += value < 0 ? "-inf" : "inf";
    return;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  std::string_view sci(buffer, static_cast<size_t>(result.ptr - buffer));
  const size_t e = sci.find('e');
  std::string_view mantissa = sci.substr(0, e);
  int exponent = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(),
                  exponent);
  if (!mantissa.empty() && mantissa[0] == '-') {
    out->push_back('-');
    mantissa.remove_prefix(1);
  }
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  if (exponent > -5 && exponent < 16) {
    if (exponent < 0) {
      *out += "0.";
      out->append(static_cast<size_t>(-exponent - 1), '0');
      *out += digits;
    } else if (static_cast<int>(digits.size()) <= exponent + 1) {
      *out += digits;
      out->append(static_cast<size_t>(exponent + 1) - digits.size(), '0');
    } else {
      *out += digits.substr(0, static_cast<size_t>(exponent + 1));
      out->push_back('.');
      *out += digits.substr(static_cast<size_t>(exponent + 1));
    }
    return;
  }
  out->push_back(digits[0]);
  if (digits.size() > 1) {
    out->push_back('.');
    *out += digits.substr(1);
  }
  char exp_text[16];
  std::snprintf(exp_text, sizeof(exp_text), "e%c%02d", exponent < 0 ? '-' : '+',
                exponent < 0 ? -exponent : exponent);
  *out += exp_text;
}

GeometryStats::GeometryStats() {
  min.fill(std::numeric_limits<double>::infinity());
  max.fill(-std::numeric_limits<double>::infinity());
}

Status GeometryStats::Add(std::string_view wkb) {
  WkbReader reader(wkb);
  StatsCollector collector(this);
  TARN_RETURN_NOT_OK(Walk(reader, collector, 0));
  types.insert(collector.type());
  return Status::OK();
}

void GeometryStats::Merge(const GeometryStats& other) {
  for (int d = 0; d < 4; ++d) {
    min[d] = std::min(min[d], other.min[d]);
    max[d] = std::max(max[d], other.max[d]);
  }
  types.insert(other.types.begin(), other.types.end());
}

std::vector<int32_t> GeometryStats::TypeCodes() const {
  std::vector<int32_t> codes;
  for (const std::string& name : types) {
    const size_t underscore = name.find('_');
    const std::string_view base = std::string_view(name).substr(0, underscore);
    const std::string_view suffix =
        underscore == std::string::npos ? "" : std::string_view(name).substr(underscore + 1);
    int32_t code = 0;
    for (uint32_t k = 1; k <= 7; ++k) {
      if (base == KindStatName(static_cast<Kind>(k))) code = static_cast<int32_t>(k);
    }
    if (code == 0) continue;
    if (suffix == "z") code += 1000;
    if (suffix == "m") code += 2000;
    if (suffix == "zm") code += 3000;
    codes.push_back(code);
  }
  std::sort(codes.begin(), codes.end());
  return codes;
}

void GeometryStats::AddTypeCode(int32_t code) {
  const int32_t base = code % 1000;
  const int32_t dims = code / 1000;
  if (base < 1 || base > 7 || dims < 0 || dims > 3) return;
  static constexpr const char* kSuffix[4] = {"", "_z", "_m", "_zm"};
  types.insert(StrCat(KindStatName(static_cast<Kind>(base)), kSuffix[dims]));
}

std::string GeometryStats::ToJson() const {
  static constexpr const char* kNames[4] = {"x", "y", "z", "m"};
  auto bound = [](double v) -> std::string {
    if (std::isinf(v)) return "null";
    char text[512];
    std::snprintf(text, sizeof(text), "%f", v);
    return text;
  };
  std::string out = "{\"bbox\": {";
  for (int d = 0; d < 4; ++d) {
    if (d > 0) out += ", ";
    out += StrCat("\"", kNames[d], "min\": ", bound(min[d]), ", \"", kNames[d],
                  "max\": ", bound(max[d]));
  }
  out += "}, \"types\": [";
  bool first = true;
  for (const std::string& type : types) {
    if (!first) out += ", ";
    first = false;
    out += StrCat("\"", type, "\"");
  }
  out += "]}";
  return out;
}

std::string StatisticsText(const GeometryStats& stats) {
  static constexpr const char* kNames[4] = {"X", "Y", "Z", "M"};
  auto number = [](double v) -> std::string {
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char text[512];
    std::snprintf(text, sizeof(text), "%f", v);
    return text;
  };
  std::string out = "[Extent: [";
  for (int d = 0; d < 4; ++d) {
    out += StrCat(d > 0 ? ", " : "", kNames[d], ": [", number(stats.min[d]), ", ",
                  number(stats.max[d]), "]");
  }
  out += "], Types: [";
  // By dimensions, then kind: the order of DuckDB's type set.
  bool first = true;
  for (int32_t code : stats.TypeCodes()) {
    GeometryStats one;
    one.AddTypeCode(code);
    out += StrCat(first ? "" : ", ", *one.types.begin());
    first = false;
  }
  out += "], Flags: [Has Empty Geom: true, Has No Empty Geom: true, Has Empty Part: true, "
         "Has No Empty Part: true]]";
  return out;
}

std::optional<GeometryStats> GeometryStats::FromJson(std::string_view json) {
  if (json.find("\"bbox\"") == std::string_view::npos &&
      json.find("\"types\"") == std::string_view::npos) {
    return std::nullopt;
  }
  GeometryStats stats;
  static constexpr const char* kNames[4] = {"x", "y", "z", "m"};
  for (int d = 0; d < 4; ++d) {
    if (auto v = JsonNumber(json, StrCat(kNames[d], "min"))) stats.min[d] = *v;
    if (auto v = JsonNumber(json, StrCat(kNames[d], "max"))) stats.max[d] = *v;
  }
  size_t at = json.find("\"types\"");
  if (at != std::string_view::npos) at = json.find('[', at);
  if (at == std::string_view::npos) return stats;
  const size_t close = json.find(']', at);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view list = json.substr(at + 1, close - at - 1);
  size_t pos = 0;
  while ((pos = list.find('"', pos)) != std::string_view::npos) {
    const size_t end = list.find('"', pos + 1);
    if (end == std::string_view::npos) return std::nullopt;
    stats.types.insert(std::string(list.substr(pos + 1, end - pos - 1)));
    pos = end + 1;
  }
  return stats;
}

}  // namespace tarn::geometry
