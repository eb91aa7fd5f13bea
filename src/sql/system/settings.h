// The DuckDB settings a Session keeps: SET, RESET and current_setting() with DuckDB's names
// (case-insensitive, with its aliases), types, defaults, casts and messages.
//
// Settings that change what tarn does: threads, memory_limit, temp_directory (where operators
// spill past memory_limit; default $TMPDIR or /tmp, empty: no spilling), and the DuckLake extension's
// ducklake_target_file_size, ducklake_default_data_inlining_row_limit, ducklake_max_retry_count,
// ducklake_retry_wait_ms and ducklake_retry_backoff (LakeSessionSettings); tarn's own
// layout_picker ('measured' or 'rules') and layout_sample_rows, which SORTED BY AUTO picks its
// key with (tarn/layout.h PickerOptions). Settings kept for
// DuckDB's scripts without changing anything: preserve_insertion_order (tarn always keeps
// insertion order), parquet_metadata_cache, immediate_transaction_mode (BEGIN starts the lake
// transactions at once anyway). TimeZone takes only UTC and its aliases: tarn shows TIMESTAMP
// WITH TIME ZONE values in UTC. The s3_* settings (region, endpoint, access_key_id,
// secret_access_key, session_token, url_style, use_ssl) give the options of s3:// paths that
// no secret covers, over what the environment gives (tarn/s3.h).
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/layout.h"
#include "tarn/status.h"
#include "tarn/table_write.h"

namespace tarn::sql {

// The s3_* settings a user set ("" and no value: not set).
struct S3SettingValues {
  std::string region;
  std::string endpoint;
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  std::string url_style;
  std::optional<bool> use_ssl;
};

class SessionSettings {
 public:
  // Every setting at its default; threads and memory_limit as given.
  SessionSettings(int default_threads, int64_t default_memory_limit);

  // SET name = value: `value` is cast to the setting's type as DuckDB casts it ("Invalid
  // Input Error: Failed to cast value: …") and checked. An unknown name is DuckDB's Catalog
  // Error naming the closest setting.
  Status Set(std::string_view name, const Value& value);
  // RESET name: back to the default.
  Status Reset(std::string_view name);

  // Each setting's current value, by lower-case name and alias, as current_setting() shows it.
  const std::map<std::string, Value>& values() const { return values_; }

  int threads() const { return threads_; }
  int64_t memory_limit() const { return memory_limit_; }
  // Where operators spill what passes memory_limit; empty: spilling is off.
  const std::string& temp_directory() const { return temp_directory_; }
  // The ducklake_* settings as the lakes' writes take them.
  const LakeSessionSettings& lake() const { return lake_; }
  // SORTED BY AUTO's picker: its mode and sample size.
  PickerMode layout_picker() const { return layout_picker_; }
  int64_t layout_sample_rows() const { return layout_sample_rows_; }
  const S3SettingValues& s3() const { return s3_; }

 private:
  enum class Id : uint8_t;
  struct Definition;
  static const std::vector<Definition>& Definitions();
  Result<const Definition*> Find(std::string_view name) const;
  Status Apply(const Definition& definition, const Value& value);
  void Publish(const Definition& definition, Value value);

  int default_threads_;
  int64_t default_memory_limit_;
  int threads_;
  int64_t memory_limit_;
  std::string temp_directory_;
  LakeSessionSettings lake_;
  PickerMode layout_picker_ = PickerMode::kMeasured;
  int64_t layout_sample_rows_ = 1 << 20;
  S3SettingValues s3_;
  std::map<std::string, Value> values_;
};

}  // namespace tarn::sql
