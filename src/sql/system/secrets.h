// CREATE SECRET / DROP SECRET and the s3_* settings: the options a session's s3:// paths are
// read and written with (tarn/s3.h StorageRouter).
//
// A secret of TYPE s3 covers the paths under its SCOPE (every s3:// path without one); the
// longest matching scope wins, and paths no secret covers take the s3_* settings over the
// environment's options (S3OptionsFromEnvironment). PROVIDER config (the default) takes the
// secret's own values over DuckDB's defaults; PROVIDER credential_chain starts from the
// environment and the ~/.aws files. Secrets live as long as the session: PERSISTENT ones are
// refused.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sql/parse/statement.h"
#include "sql/system/settings.h"
#include "tarn/columnar.h"
#include "tarn/s3.h"

namespace tarn::sql {

class StorageSecrets {
 public:
  // `router` may be null (a session over a caller's file system): secrets are then kept and
  // listed but route nothing.
  explicit StorageSecrets(std::shared_ptr<StorageRouter> router);

  // `values`: each option of the statement evaluated to a constant, in order.
  Status Create(const SessionStmt& statement, const std::vector<Value>& values);
  Status Drop(const SessionStmt& statement);
  // The s3_* settings changed: paths no secret covers take them.
  void ApplySettings(const S3SettingValues& settings);

  // duckdb_secrets(): name, type, provider, persistent, storage, scope, secret_string (the
  // secret's values with SECRET and SESSION_TOKEN redacted).
  std::shared_ptr<Batch> Rows() const;

 private:
  struct Secret {
    std::string name;
    std::string provider;
    std::vector<std::string> scopes;
    S3Options options;
  };
  void Route(const Secret& secret);
  void Unroute(const Secret& secret);

  std::shared_ptr<StorageRouter> router_;
  std::map<std::string, Secret> secrets_;  // by lower-case name
};

}  // namespace tarn::sql
