#include "sql/system/settings.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

#include "expr/bind/binder.h"
#include "expr/eval/cast.h"
#include "sql/plan/names.h"
#include "tarn/format.h"
#include "tarn/sql.h"
#include "util/byte_size.h"

namespace tarn::sql {

namespace {

// The time zones that name UTC (ICU's aliases of Etc/UTC), lower-case.
bool IsUtcZone(std::string_view zone) {
  static const char* kUtc[] = {"utc",           "etc/utc",       "gmt",           "etc/gmt",
                               "z",             "zulu",          "etc/zulu",      "universal",
                               "etc/universal", "uct",           "etc/uct",       "greenwich",
                               "etc/greenwich", "gmt0",          "gmt+0",         "gmt-0",
                               "etc/gmt0",      "etc/gmt+0",     "etc/gmt-0"};
  const std::string lower = LowerAscii(std::string(zone));
  return std::any_of(std::begin(kUtc), std::end(kUtc),
                     [&](const char* name) { return lower == name; });
}

// CAST as SET casts: DuckDB words a failure "Failed to cast value: …".
Result<Value> CastSetting(const Value& value, const DataType& type) {
  if (value.type() == type) return value;
  Result<Value> cast = expr::CastValue(value, type);
  if (cast.ok()) return cast;
  std::string message = cast.status().message();
  constexpr std::string_view kPrefix = "Conversion Error: ";
  if (message.rfind(kPrefix, 0) == 0) message.erase(0, kPrefix.size());
  return Status::InvalidArgument("Invalid Input Error: Failed to cast value: ", message);
}

// memory_limit as current_setting() shows it: DuckDB's BytesToHumanReadableString, whose
// one decimal is truncated ("953.6 MiB" for 1GB), not rounded.
std::string HumanReadableBytes(int64_t bytes) {
  static const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  uint64_t parts[6] = {};
  parts[0] = static_cast<uint64_t>(bytes);
  for (int i = 1; i < 6; ++i) {
    parts[i] = parts[i - 1] / 1024;
    parts[i - 1] %= 1024;
  }
  for (int i = 5; i >= 1; --i) {
    if (parts[i] != 0) {
      return std::to_string(parts[i]) + "." + std::to_string(parts[i - 1] * 10 / 1024) + " " +
             kUnits[i];
    }
  }
  return std::to_string(parts[0]) + (bytes == 1 ? " byte" : " bytes");
}

// The system's temporary directory: $TMPDIR, else /tmp.
std::string DefaultTempDirectory() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir != nullptr && tmpdir[0] != '\0' ? std::string(tmpdir) : std::string("/tmp");
}

}  // namespace

enum class SessionSettings::Id : uint8_t {
  kThreads,
  kMemoryLimit,
  kPreserveInsertionOrder,
  kParquetMetadataCache,
  kImmediateTransactionMode,
  kTimeZone,
  kMaxRetryCount,
  kRetryWaitMs,
  kRetryBackoff,
  kDefaultInliningRowLimit,
  kTargetFileSize,
  kLayoutPicker,
  kLayoutSampleRows,
  kTempDirectory,
  kS3Region,
  kS3Endpoint,
  kS3AccessKeyId,
  kS3SecretAccessKey,
  kS3SessionToken,
  kS3UrlStyle,
  kS3UseSsl,
};

struct SessionSettings::Definition {
  Id id;
  const char* name;   // as DuckDB spells it
  const char* alias;  // another name, or null
  DataType type;
};

const std::vector<SessionSettings::Definition>& SessionSettings::Definitions() {
  static const std::vector<Definition> kDefinitions = {
      {Id::kThreads, "threads", "worker_threads", DataType(TypeId::kInt64)},
      {Id::kMemoryLimit, "memory_limit", "max_memory", DataType(TypeId::kVarchar)},
      {Id::kPreserveInsertionOrder, "preserve_insertion_order", nullptr,
       DataType(TypeId::kBoolean)},
      {Id::kParquetMetadataCache, "parquet_metadata_cache", nullptr,
       DataType(TypeId::kBoolean)},
      {Id::kImmediateTransactionMode, "immediate_transaction_mode", nullptr,
       DataType(TypeId::kBoolean)},
      {Id::kTimeZone, "TimeZone", nullptr, DataType(TypeId::kVarchar)},
      {Id::kMaxRetryCount, "ducklake_max_retry_count", nullptr,
       DataType(TypeId::kUInt64)},
      {Id::kRetryWaitMs, "ducklake_retry_wait_ms", nullptr, DataType(TypeId::kUInt64)},
      {Id::kRetryBackoff, "ducklake_retry_backoff", nullptr, DataType(TypeId::kFloat64)},
      {Id::kDefaultInliningRowLimit, "ducklake_default_data_inlining_row_limit", nullptr,
       DataType(TypeId::kUInt64)},
      {Id::kTargetFileSize, "ducklake_target_file_size", nullptr,
       DataType(TypeId::kVarchar)},
      {Id::kLayoutPicker, "layout_picker", nullptr, DataType(TypeId::kVarchar)},
      {Id::kLayoutSampleRows, "layout_sample_rows", nullptr, DataType(TypeId::kUInt64)},
      {Id::kTempDirectory, "temp_directory", nullptr, DataType(TypeId::kVarchar)},
      {Id::kS3Region, "s3_region", nullptr, DataType(TypeId::kVarchar)},
      {Id::kS3Endpoint, "s3_endpoint", nullptr, DataType(TypeId::kVarchar)},
      {Id::kS3AccessKeyId, "s3_access_key_id", nullptr, DataType(TypeId::kVarchar)},
      {Id::kS3SecretAccessKey, "s3_secret_access_key", nullptr, DataType(TypeId::kVarchar)},
      {Id::kS3SessionToken, "s3_session_token", nullptr, DataType(TypeId::kVarchar)},
      {Id::kS3UrlStyle, "s3_url_style", nullptr, DataType(TypeId::kVarchar)},
      {Id::kS3UseSsl, "s3_use_ssl", nullptr, DataType(TypeId::kBoolean)},
  };
  return kDefinitions;
}

SessionSettings::SessionSettings(int default_threads, int64_t default_memory_limit)
    : default_threads_(default_threads), default_memory_limit_(default_memory_limit) {
  for (const Definition& definition : Definitions()) {
    Status status = Reset(definition.name);
    (void)status;  // defaults always apply
  }
}

Result<const SessionSettings::Definition*> SessionSettings::Find(std::string_view name) const {
  const std::string lower = LowerAscii(std::string(name));
  std::vector<std::string> names;
  for (const Definition& definition : Definitions()) {
    if (lower == LowerAscii(std::string(definition.name)) ||
        (definition.alias != nullptr && lower == definition.alias)) {
      return &definition;
    }
    names.push_back(definition.name);
    if (definition.alias != nullptr) names.push_back(definition.alias);
  }
  std::string message = StrCat("Catalog Error: unrecognized configuration parameter \"", name,
                               "\"");
  std::vector<std::string> closest = expr::ClosestNames(lower, names);
  if (!closest.empty()) message += "; did you mean \"" + closest[0] + "\"?";
  return Status::InvalidArgument(message);
}

void SessionSettings::Publish(const Definition& definition, Value value) {
  values_[LowerAscii(std::string(definition.name))] = value;
  if (definition.alias != nullptr) values_[definition.alias] = std::move(value);
}

Status SessionSettings::Set(std::string_view name, const Value& value) {
  TARN_ASSIGN_OR_RETURN(const Definition* definition, Find(name));
  return Apply(*definition, value);
}

Status SessionSettings::Reset(std::string_view name) {
  TARN_ASSIGN_OR_RETURN(const Definition* definition, Find(name));
  switch (definition->id) {
    case Id::kThreads:
      threads_ = default_threads_;
      Publish(*definition, Value::Int64(threads_));
      return Status::OK();
    case Id::kMemoryLimit:
      memory_limit_ = default_memory_limit_;
      Publish(*definition, Value::Varchar(HumanReadableBytes(memory_limit_)));
      return Status::OK();
    case Id::kPreserveInsertionOrder:
      return Apply(*definition, Value::Boolean(true));
    case Id::kParquetMetadataCache:
    case Id::kImmediateTransactionMode:
      return Apply(*definition, Value::Boolean(false));
    case Id::kTimeZone:
      return Apply(*definition, Value::Varchar("UTC"));
    case Id::kMaxRetryCount:
      return Apply(*definition, Value::UInt(DataType(TypeId::kUInt64), 10));
    case Id::kRetryWaitMs:
      return Apply(*definition, Value::UInt(DataType(TypeId::kUInt64), 100));
    case Id::kRetryBackoff:
      return Apply(*definition, Value::Float64(1.5));
    case Id::kDefaultInliningRowLimit:
      return Apply(*definition, Value::UInt(DataType(TypeId::kUInt64), 10));
    case Id::kTargetFileSize:
      return Apply(*definition, Value::Null(DataType(TypeId::kVarchar)));
    case Id::kLayoutPicker:
      return Apply(*definition, Value::Varchar("measured"));
    case Id::kLayoutSampleRows:
      return Apply(*definition, Value::UInt(DataType(TypeId::kUInt64), 1 << 20));
    case Id::kTempDirectory:
      return Apply(*definition, Value::Varchar(DefaultTempDirectory()));
    case Id::kS3Region:
    case Id::kS3Endpoint:
    case Id::kS3AccessKeyId:
    case Id::kS3SecretAccessKey:
    case Id::kS3SessionToken:
    case Id::kS3UrlStyle:
      TARN_RETURN_NOT_OK(Apply(*definition, Value::Varchar("")));
      return Status::OK();
    case Id::kS3UseSsl:
      s3_.use_ssl.reset();
      Publish(*definition, Value::Boolean(true));
      return Status::OK();
  }
  return Status::Internal("unknown setting");
}

Status SessionSettings::Apply(const Definition& definition, const Value& value) {
  const std::string name = LowerAscii(std::string(definition.name));
  if (definition.id == Id::kMemoryLimit) {
    if (value.is_null()) return Status::InvalidArgument("Invalid Input Error: memory_limit is NULL");
    TARN_ASSIGN_OR_RETURN(memory_limit_, ParseMemorySize(FormatValue(value)));
    Publish(definition, Value::Varchar(HumanReadableBytes(memory_limit_)));
    return Status::OK();
  }
  if (definition.id == Id::kThreads && !value.is_null() && !value.type().IsInteger() &&
      value.type().id != TypeId::kVarchar) {
    return Status::InvalidArgument("Invalid Input Error: threads must be an integer, not ",
                                   FormatValue(value));
  }
  if (value.is_null() && definition.id != Id::kTargetFileSize &&
      definition.id != Id::kTempDirectory) {
    return Reset(definition.name);  // SET x = NULL: the default, as DuckDB leaves it
  }
  TARN_ASSIGN_OR_RETURN(Value typed, CastSetting(value, definition.type));
  switch (definition.id) {
    case Id::kThreads: {
      const int64_t threads = typed.GetInt64();
      if (threads < 1 || threads > 256) {
        return Status::InvalidArgument("Invalid Input Error: threads must be between 1 and 256");
      }
      threads_ = static_cast<int>(threads);
      break;
    }
    case Id::kTimeZone:
      if (!IsUtcZone(typed.GetBytes())) {
        return Status::NotSupported("not yet supported: SET TimeZone = '", typed.GetBytes(),
                                    "': tarn shows TIMESTAMP WITH TIME ZONE values in UTC");
      }
      break;
    case Id::kMaxRetryCount:
      lake_.max_retries = static_cast<int>(std::min<uint64_t>(typed.GetUInt64(), 1u << 20));
      break;
    case Id::kRetryWaitMs:
      lake_.retry_wait_ms = static_cast<int64_t>(std::min<uint64_t>(typed.GetUInt64(), 1u << 30));
      break;
    case Id::kRetryBackoff:
      lake_.retry_backoff = typed.GetDouble();
      break;
    case Id::kDefaultInliningRowLimit:
      lake_.default_inlining_row_limit =
          static_cast<int64_t>(std::min<uint64_t>(typed.GetUInt64(), INT64_MAX));
      break;
    case Id::kTargetFileSize:
      if (typed.is_null() || typed.GetBytes().empty()) {
        lake_.target_file_size.reset();
      } else {
        TARN_ASSIGN_OR_RETURN(int64_t bytes, ParseByteSize(typed.GetBytes()));
        lake_.target_file_size = std::max<int64_t>(bytes, 1);
      }
      break;
    case Id::kLayoutPicker: {
      TARN_ASSIGN_OR_RETURN(layout_picker_, ParsePickerMode(typed.GetBytes()));
      typed = Value::Varchar(std::string(PickerModeName(layout_picker_)));
      break;
    }
    case Id::kLayoutSampleRows:
      if (typed.GetUInt64() < 1 || typed.GetUInt64() > (uint64_t{1} << 40)) {
        return Status::InvalidArgument(
            "Invalid Input Error: layout_sample_rows must be between 1 and 2^40");
      }
      layout_sample_rows_ = static_cast<int64_t>(typed.GetUInt64());
      break;
    case Id::kTempDirectory:
      // NULL or '' turns spilling off, as DuckDB's empty temp_directory does.
      temp_directory_ = typed.is_null() ? std::string() : typed.GetBytes();
      typed = Value::Varchar(temp_directory_);
      break;
    case Id::kS3Region:
      s3_.region = typed.GetBytes();
      break;
    case Id::kS3Endpoint:
      s3_.endpoint = typed.GetBytes();
      break;
    case Id::kS3AccessKeyId:
      s3_.access_key_id = typed.GetBytes();
      break;
    case Id::kS3SecretAccessKey:
      s3_.secret_access_key = typed.GetBytes();
      break;
    case Id::kS3SessionToken:
      s3_.session_token = typed.GetBytes();
      break;
    case Id::kS3UrlStyle: {
      const std::string style = LowerAscii(typed.GetBytes());
      if (!style.empty() && style != "path" && style != "vhost") {
        return Status::InvalidArgument("Invalid Input Error: s3_url_style must be 'path' or "
                                       "'vhost', not '", typed.GetBytes(), "'");
      }
      s3_.url_style = style;
      typed = Value::Varchar(style);
      break;
    }
    case Id::kS3UseSsl:
      s3_.use_ssl = typed.GetBool();
      break;
    case Id::kMemoryLimit:
    case Id::kPreserveInsertionOrder:
    case Id::kParquetMetadataCache:
    case Id::kImmediateTransactionMode:
      break;
  }
  Publish(definition, std::move(typed));
  return Status::OK();
}

}  // namespace tarn::sql
