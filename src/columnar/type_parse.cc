// Parsers for the two type spellings tarn reads: DuckLake's catalog `column_type` strings and
// DuckDB's SQL type syntax. Both treat their input as untrusted text: every read is bounds
// checked and errors name the offending text.
#include <cctype>
#include <string>
#include <utility>

#include "tarn/type.h"

namespace tarn {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct NamedType {
  const char* name;
  TypeId id;
};

constexpr NamedType kDuckLakeNames[] = {
    {"boolean", TypeId::kBoolean},       {"int8", TypeId::kInt8},
    {"int16", TypeId::kInt16},           {"int32", TypeId::kInt32},
    {"int64", TypeId::kInt64},           {"int128", TypeId::kInt128},
    {"uint8", TypeId::kUInt8},           {"uint16", TypeId::kUInt16},
    {"uint32", TypeId::kUInt32},         {"uint64", TypeId::kUInt64},
    {"uint128", TypeId::kUInt128},       {"float32", TypeId::kFloat32},
    {"float64", TypeId::kFloat64},       {"time", TypeId::kTime},
    {"time_ns", TypeId::kTimeNs},        {"timetz", TypeId::kTimeTz},
    {"date", TypeId::kDate},             {"timestamp", TypeId::kTimestamp},
    {"timestamp_us", TypeId::kTimestamp}, {"timestamp_s", TypeId::kTimestampS},
    {"timestamp_ms", TypeId::kTimestampMs}, {"timestamp_ns", TypeId::kTimestampNs},
    {"timestamptz", TypeId::kTimestampTz}, {"interval", TypeId::kInterval},
    {"varchar", TypeId::kVarchar},       {"blob", TypeId::kBlob},
    {"uuid", TypeId::kUuid},             {"json", TypeId::kJson},
    {"struct", TypeId::kStruct},         {"list", TypeId::kList},
    {"map", TypeId::kMap},               {"variant", TypeId::kVariant},
    {"geometry", TypeId::kGeometry},
};

// DuckDB's single-word type names and aliases (upper-cased comparisons done on lower case).
constexpr NamedType kSqlNames[] = {
    {"boolean", TypeId::kBoolean},   {"bool", TypeId::kBoolean},
    {"logical", TypeId::kBoolean},   {"tinyint", TypeId::kInt8},
    {"int1", TypeId::kInt8},         {"smallint", TypeId::kInt16},
    {"int2", TypeId::kInt16},        {"short", TypeId::kInt16},
    {"integer", TypeId::kInt32},     {"int", TypeId::kInt32},
    {"int4", TypeId::kInt32},        {"signed", TypeId::kInt32},
    {"bigint", TypeId::kInt64},      {"int8", TypeId::kInt64},
    {"long", TypeId::kInt64},        {"hugeint", TypeId::kInt128},
    {"int128", TypeId::kInt128},     {"utinyint", TypeId::kUInt8},
    {"uint8", TypeId::kUInt8},       {"usmallint", TypeId::kUInt16},
    {"uint16", TypeId::kUInt16},     {"uinteger", TypeId::kUInt32},
    {"uint32", TypeId::kUInt32},     {"ubigint", TypeId::kUInt64},
    {"uint64", TypeId::kUInt64},     {"uhugeint", TypeId::kUInt128},
    {"uint128", TypeId::kUInt128},   {"real", TypeId::kFloat32},
    {"float4", TypeId::kFloat32},    {"float", TypeId::kFloat32},
    {"double", TypeId::kFloat64},    {"float8", TypeId::kFloat64},
    {"date", TypeId::kDate},         {"time", TypeId::kTime},
    {"time_ns", TypeId::kTimeNs},    {"timetz", TypeId::kTimeTz},
    {"timestamp", TypeId::kTimestamp}, {"datetime", TypeId::kTimestamp},
    {"timestamp_us", TypeId::kTimestamp}, {"timestamp_s", TypeId::kTimestampS},
    {"timestamp_ms", TypeId::kTimestampMs}, {"timestamp_ns", TypeId::kTimestampNs},
    {"timestamptz", TypeId::kTimestampTz}, {"interval", TypeId::kInterval},
    {"varchar", TypeId::kVarchar},   {"text", TypeId::kVarchar},
    {"string", TypeId::kVarchar},    {"char", TypeId::kVarchar},
    {"bpchar", TypeId::kVarchar},    {"nvarchar", TypeId::kVarchar},
    {"blob", TypeId::kBlob},         {"bytea", TypeId::kBlob},
    {"binary", TypeId::kBlob},       {"varbinary", TypeId::kBlob},
    {"uuid", TypeId::kUuid},         {"json", TypeId::kJson},
    {"variant", TypeId::kVariant},   {"geometry", TypeId::kGeometry},
};

Result<DataType> MakeDecimal(int64_t precision, int64_t scale, std::string_view text) {
  if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
    return Status::InvalidArgument("invalid decimal width in type '", text,
                                   "': precision must be 1..38 and scale 0..precision");
  }
  return DataType::Decimal(static_cast<int>(precision), static_cast<int>(scale));
}

// A recursive-descent parser over DuckDB's type syntax.
class SqlTypeParser {
 public:
  explicit SqlTypeParser(std::string_view text) : text_(text) {}

  Result<DataType> ParseAll() {
    TARN_ASSIGN_OR_RETURN(DataType type, ParseType(0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text");
    return type;
  }

 private:
  static constexpr int kMaxDepth = 64;

  Status Error(std::string_view what) const {
    // A hostile type name can be megabytes long: show its start only.
    constexpr size_t kShown = 200;
    std::string_view shown = text_.substr(0, kShown);
    return Status::InvalidArgument(what, " at offset ", pos_, " in type '", shown,
                                   text_.size() > kShown ? "...'" : "'");
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // A bare word: letters, digits and underscores.
  std::string Word() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return Lower(text_.substr(start, pos_ - start));
  }
  // Consumes `word` (case-insensitive) if it is next; otherwise leaves the position.
  bool ConsumeWord(std::string_view word) {
    size_t saved = pos_;
    if (Word() == word) return true;
    pos_ = saved;
    return false;
  }
  Result<int64_t> Integer() {
    SkipSpace();
    size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      value = value * 10 + (text_[pos_] - '0');
      if (value > 1000000) return Error("number too large");
      ++pos_;
    }
    if (start == pos_) return Error("expected a number");
    return value;
  }
  // A struct field name: a bare identifier (case kept) or a "quoted" one with "" escapes.
  Result<std::string> Identifier() {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      ++pos_;
      std::string name;
      while (true) {
        if (pos_ >= text_.size()) return Error("unterminated quoted name");
        char c = text_[pos_++];
        if (c == '"') {
          if (pos_ < text_.size() && text_[pos_] == '"') {
            name += '"';
            ++pos_;
            continue;
          }
          return name;
        }
        name += c;
      }
    }
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    if (start == pos_) return Error("expected a field name");
    return std::string(text_.substr(start, pos_ - start));
  }

  Result<DataType> ParseType(int depth) {
    if (depth > kMaxDepth) return Error("type nested too deeply");
    TARN_ASSIGN_OR_RETURN(DataType type, ParseBase(depth));
    // Postfix list markers: T[], T[][]. Fixed-size arrays (T[3]) are not supported. Each
    // marker is one more level of nesting.
    while (Consume('[')) {
      if (++depth > kMaxDepth) return Error("type nested too deeply");
      if (!Consume(']')) return Error("fixed-size ARRAY types are not supported; expected ']'");
      type = DataType::List(std::move(type));
    }
    return type;
  }

  Result<DataType> ParseBase(int depth) {
    size_t word_start = pos_;
    std::string word = Word();
    if (word.empty()) return Error("expected a type name");
    if (word == "struct" || word == "row") {
      if (!Consume('(')) return Error("expected '(' after STRUCT");
      std::vector<Field> fields;
      do {
        TARN_ASSIGN_OR_RETURN(std::string name, Identifier());
        TARN_ASSIGN_OR_RETURN(DataType child, ParseType(depth + 1));
        fields.emplace_back(std::move(name), std::move(child));
      } while (Consume(','));
      if (!Consume(')')) return Error("expected ')' closing STRUCT");
      return DataType::Struct(std::move(fields));
    }
    if (word == "map") {
      if (!Consume('(')) return Error("expected '(' after MAP");
      TARN_ASSIGN_OR_RETURN(DataType key, ParseType(depth + 1));
      if (!Consume(',')) return Error("expected ',' in MAP");
      TARN_ASSIGN_OR_RETURN(DataType value, ParseType(depth + 1));
      if (!Consume(')')) return Error("expected ')' closing MAP");
      return DataType::Map(std::move(key), std::move(value));
    }
    if (word == "list") {  // LIST(T), an older spelling of T[]
      if (!Consume('(')) return Error("expected '(' after LIST");
      TARN_ASSIGN_OR_RETURN(DataType element, ParseType(depth + 1));
      if (!Consume(')')) return Error("expected ')' closing LIST");
      return DataType::List(std::move(element));
    }
    if (word == "decimal" || word == "numeric" || word == "dec") {
      int64_t precision = 18;
      int64_t scale = 3;
      if (Consume('(')) {
        TARN_ASSIGN_OR_RETURN(precision, Integer());
        scale = 0;
        if (Consume(',')) {
          TARN_ASSIGN_OR_RETURN(scale, Integer());
        }
        if (!Consume(')')) return Error("expected ')' closing DECIMAL");
      }
      return MakeDecimal(precision, scale, text_);
    }
    if (word == "double") {
      ConsumeWord("precision");
      return DataType(TypeId::kFloat64);
    }
    if (word == "time" || word == "timestamp") {
      size_t saved = pos_;
      if (ConsumeWord("with")) {
        if (ConsumeWord("time") && ConsumeWord("zone")) {
          return DataType(word == "time" ? TypeId::kTimeTz : TypeId::kTimestampTz);
        }
        pos_ = saved;
        return Error("expected WITH TIME ZONE");
      }
      if (ConsumeWord("without")) {
        if (ConsumeWord("time") && ConsumeWord("zone")) {
          return DataType(word == "time" ? TypeId::kTime : TypeId::kTimestamp);
        }
        return Error("expected WITHOUT TIME ZONE");
      }
    }
    for (const NamedType& named : kSqlNames) {
      if (word == named.name) {
        // VARCHAR(n) and friends: DuckDB accepts and ignores a length.
        if (named.id == TypeId::kVarchar && Consume('(')) {
          TARN_RETURN_NOT_OK(Integer().status());
          if (!Consume(')')) return Error("expected ')'");
        }
        return DataType(named.id);
      }
    }
    pos_ = word_start;
    return Error("unknown type name '" + word + "'");
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<DataType> ParseDuckLakeType(std::string_view name) {
  std::string lower = Lower(name);
  if (lower.rfind("decimal(", 0) == 0 && lower.back() == ')') {
    std::string_view args(lower);
    args = args.substr(8, args.size() - 9);
    size_t comma = args.find(',');
    if (comma == std::string_view::npos) {
      return Status::InvalidArgument("invalid DuckLake type '", name, "': expected decimal(P,S)");
    }
    auto parse_int = [](std::string_view digits, int64_t* out) {
      if (digits.empty() || digits.size() > 3) return false;
      int64_t value = 0;
      for (char c : digits) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + (c - '0');
      }
      *out = value;
      return true;
    };
    int64_t precision = 0;
    int64_t scale = 0;
    if (!parse_int(args.substr(0, comma), &precision) ||
        !parse_int(args.substr(comma + 1), &scale)) {
      return Status::InvalidArgument("invalid DuckLake type '", name, "': expected decimal(P,S)");
    }
    return MakeDecimal(precision, scale, name);
  }
  // "struct", "list" and "map" yield the nested id with no children: the catalog stores the
  // children as separate columns, and the caller attaches them.
  for (const NamedType& named : kDuckLakeNames) {
    if (lower == named.name) return DataType(named.id);
  }
  if (lower == "unknown") {
    return Status::NotSupported("DuckLake type 'unknown' cannot be stored in a table");
  }
  return Status::NotSupported("unsupported DuckLake type '", name, "'");
}

Result<DataType> ParseSqlType(std::string_view text) { return SqlTypeParser(text).ParseAll(); }

}  // namespace tarn
