#include "sql/system/secrets.h"

#include "sql/plan/names.h"
#include "tarn/format.h"

namespace tarn::sql {

StorageSecrets::StorageSecrets(std::shared_ptr<StorageRouter> router)
    : router_(std::move(router)) {
  if (router_ != nullptr) ApplySettings(S3SettingValues());
}

void StorageSecrets::ApplySettings(const S3SettingValues& settings) {
  if (router_ == nullptr) return;
  S3Options options = S3OptionsFromEnvironment();
  auto over = [](std::string& target, const std::string& value) {
    if (!value.empty()) target = value;
  };
  over(options.region, settings.region);
  over(options.endpoint, settings.endpoint);
  if (!settings.access_key_id.empty()) {  // a key pair comes whole from one place
    options.access_key_id = settings.access_key_id;
    options.secret_access_key = settings.secret_access_key;
    options.session_token = settings.session_token;
  }
  over(options.url_style, settings.url_style);
  if (settings.use_ssl.has_value()) options.use_ssl = *settings.use_ssl;
  router_->SetS3Scope("", std::move(options));
}

Status StorageSecrets::Create(const SessionStmt& statement, const std::vector<Value>& values) {
  if (statement.persistent) {
    return Status::NotSupported("not yet supported: persistent secrets (tarn keeps secrets for "
                                "the session only: CREATE SECRET without PERSISTENT)");
  }
  Secret secret;
  secret.name = statement.name.empty() ? "__default_s3" : LowerAscii(statement.name);
  secret.provider = "config";
  // The options first, by name; the provider decides what they start from.
  std::map<std::string, Value> given;
  for (size_t i = 0; i < statement.options.size(); ++i) {
    const std::string& name = statement.options[i].first;
    const Value& value = values[i];
    if (given.count(name) != 0) {
      return Status::InvalidArgument("Binder Error: secret option '", LowerAscii(name),
                                     "' given twice");
    }
    given.emplace(name, value);
  }
  // An option's value as text ("" when absent or NULL).
  auto text = [&](const std::string& name) -> std::string {
    auto it = given.find(name);
    if (it == given.end() || it->second.is_null()) return std::string();
    if (it->second.type().id == TypeId::kVarchar) return it->second.GetBytes();
    return FormatValue(it->second);
  };
  const std::string type = LowerAscii(text("TYPE"));
  if (type.empty()) {
    return Status::InvalidArgument("Invalid Input Error: Can not create a secret without a type");
  }
  if (type != "s3") {
    return Status::NotSupported("not yet supported: secrets of type '", type,
                                "' (tarn's object storage speaks the S3 API: TYPE s3)");
  }
  const std::string provider = LowerAscii(text("PROVIDER"));
  if (provider.empty() || provider == "config") {
    secret.provider = "config";
  } else if (provider == "credential_chain") {
    secret.provider = "credential_chain";
    secret.options = S3OptionsFromEnvironment();
  } else {
    return Status::InvalidArgument("Invalid Input Error: Secret provider '", provider,
                                   "' not found for type 's3' (config or credential_chain)");
  }
  for (const auto& [name, value] : given) {
    if (name == "TYPE" || name == "PROVIDER") continue;
    std::string v = text(name);
    if (name == "KEY_ID") {
      secret.options.access_key_id = v;
    } else if (name == "SECRET") {
      secret.options.secret_access_key = v;
    } else if (name == "SESSION_TOKEN") {
      secret.options.session_token = v;
    } else if (name == "REGION") {
      secret.options.region = v;
    } else if (name == "ENDPOINT") {
      secret.options.endpoint = v;
    } else if (name == "URL_STYLE") {
      v = LowerAscii(v);
      if (v != "path" && v != "vhost") {
        return Status::InvalidArgument("Invalid Input Error: URL_STYLE must be 'path' or "
                                       "'vhost', not '", v, "'");
      }
      secret.options.url_style = v;
    } else if (name == "USE_SSL") {
      if (value.is_null() || value.type().id != TypeId::kBoolean) {
        const std::string lower = LowerAscii(v);
        if (lower != "true" && lower != "false") {
          return Status::InvalidArgument("Invalid Input Error: USE_SSL must be a boolean, not '",
                                         v, "'");
        }
        secret.options.use_ssl = lower == "true";
      } else {
        secret.options.use_ssl = value.GetBool();
      }
    } else if (name == "SCOPE") {
      if (value.type().id == TypeId::kList) {
        return Status::NotSupported("not yet supported: a list of scopes (give one SCOPE)");
      }
      if (!IsS3Path(v)) {
        return Status::InvalidArgument("Invalid Input Error: SCOPE '", v,
                                       "' is not an s3:// path");
      }
      secret.scopes.push_back(v);
    } else {
      return Status::InvalidArgument("Binder Error: Unknown parameter '", LowerAscii(name),
                                     "' for secret type 's3' (KEY_ID, SECRET, SESSION_TOKEN, "
                                     "REGION, ENDPOINT, URL_STYLE, USE_SSL, SCOPE, PROVIDER)");
    }
  }
  if (secret.scopes.empty()) secret.scopes.push_back("s3://");

  auto existing = secrets_.find(secret.name);
  if (existing != secrets_.end()) {
    if (statement.if_not_exists) return Status::OK();
    if (!statement.or_replace) {
      return Status::InvalidArgument("Invalid Input Error: Temporary secret with name '",
                                     secret.name, "' already exists!");
    }
    Unroute(existing->second);
    secrets_.erase(existing);
  }
  Route(secret);
  secrets_.emplace(secret.name, std::move(secret));
  return Status::OK();
}

Status StorageSecrets::Drop(const SessionStmt& statement) {
  if (statement.persistent) {
    return Status::NotSupported("not yet supported: persistent secrets");
  }
  auto it = secrets_.find(LowerAscii(statement.name));
  if (it == secrets_.end()) {
    if (statement.if_exists) return Status::OK();
    return Status::InvalidArgument("Invalid Input Error: Failed to remove non-existent secret "
                                   "with name '", LowerAscii(statement.name), "'");
  }
  Unroute(it->second);
  secrets_.erase(it);
  // A scope another secret also named keeps that secret's options.
  for (const auto& [name, secret] : secrets_) Route(secret);
  return Status::OK();
}

void StorageSecrets::Route(const Secret& secret) {
  if (router_ == nullptr) return;
  for (const std::string& scope : secret.scopes) router_->SetS3Scope(scope, secret.options);
}

void StorageSecrets::Unroute(const Secret& secret) {
  if (router_ == nullptr) return;
  for (const std::string& scope : secret.scopes) router_->RemoveS3Scope(scope);
}

std::shared_ptr<Batch> StorageSecrets::Rows() const {
  auto schema = std::make_shared<Schema>();
  const DataType text(TypeId::kVarchar);
  for (const char* name : {"name", "type", "provider"}) schema->fields.emplace_back(name, text);
  schema->fields.emplace_back("persistent", DataType(TypeId::kBoolean));
  schema->fields.emplace_back("storage", text);
  schema->fields.emplace_back("scope", DataType::List(text));
  schema->fields.emplace_back("secret_string", text);
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (const Field& field : schema->fields) {
    builders.push_back(std::make_unique<ColumnBuilder>(field.type));
  }
  auto columns = [&](size_t i) -> ColumnBuilder& { return *builders[i]; };
  for (const auto& [name, secret] : secrets_) {
    columns(0).AppendBytes(secret.name);
    columns(1).AppendBytes("s3");
    columns(2).AppendBytes(secret.provider);
    columns(3).AppendBool(false);
    columns(4).AppendBytes("memory");
    std::vector<Value> scopes;
    for (const std::string& scope : secret.scopes) scopes.push_back(Value::Varchar(scope));
    Status appended = columns(5).Append(Value::Nested(DataType::List(text), std::move(scopes)));
    (void)appended;  // a list of VARCHAR always fits its column
    const S3Options& o = secret.options;
    columns(6).AppendBytes("name=" + secret.name + ";type=s3;provider=" + secret.provider +
                           ";serializable=true;scope=" + secret.scopes[0] +
                           ";endpoint=" + o.endpoint + ";key_id=" + o.access_key_id +
                           ";region=" + o.region + ";secret=redacted;session_token=redacted" +
                           ";url_style=" + o.url_style +
                           ";use_ssl=" + (o.use_ssl ? "true" : "false"));
  }
  std::vector<std::shared_ptr<Column>> finished;
  for (auto& builder : builders) finished.push_back(builder->Finish());
  return MakeBatch(schema, std::move(finished));
}

}  // namespace tarn::sql
