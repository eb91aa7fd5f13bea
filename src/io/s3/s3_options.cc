// S3Options from the environment and the AWS shared files (tarn/s3.h).

#include <cstdlib>
#include <fstream>
#include <map>

#include "tarn/s3.h"

namespace tarn {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string Trim(std::string text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

// The keys of section `section` of an INI file as the AWS tools write them; a nested block
// ("s3 =" followed by indented "key = value" lines) gives "s3.key". Missing file: nothing.
std::map<std::string, std::string> ReadSection(const std::string& path, const std::string& section) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  if (!in) return out;
  std::string line;
  bool inside = false;
  std::string parent;  // the key of the nested block being read, or ""
  while (std::getline(in, line)) {
    const std::string trimmed = Trim(line);
    if (trimmed.empty() || trimmed[0] == '#' || trimmed[0] == ';') continue;
    if (trimmed.front() == '[' && trimmed.back() == ']') {
      inside = Trim(trimmed.substr(1, trimmed.size() - 2)) == section;
      parent.clear();
      continue;
    }
    if (!inside) continue;
    const size_t equals = trimmed.find('=');
    if (equals == std::string::npos) continue;
    const std::string key = Trim(trimmed.substr(0, equals));
    const std::string value = Trim(trimmed.substr(equals + 1));
    const bool indented = line[0] == ' ' || line[0] == '\t';
    if (indented && !parent.empty()) {
      out[parent + "." + key] = value;
    } else if (value.empty()) {
      parent = key;
    } else {
      parent.clear();
      out[key] = value;
    }
  }
  return out;
}

void Fill(std::string& target, const std::string& value) {
  if (target.empty()) target = value;
}

}  // namespace

S3Options S3OptionsFromEnvironment() {
  S3Options options;
  options.access_key_id = Env("AWS_ACCESS_KEY_ID");
  options.secret_access_key = Env("AWS_SECRET_ACCESS_KEY");
  options.session_token = Env("AWS_SESSION_TOKEN");
  options.region = Env("AWS_REGION");
  Fill(options.region, Env("AWS_DEFAULT_REGION"));
  options.endpoint = Env("AWS_ENDPOINT_URL_S3");
  Fill(options.endpoint, Env("AWS_ENDPOINT_URL"));
  options.ca_file = Env("AWS_CA_BUNDLE");

  std::string profile = Env("AWS_PROFILE");
  if (profile.empty()) profile = "default";
  const std::string home = Env("HOME");
  std::string credentials_file = Env("AWS_SHARED_CREDENTIALS_FILE");
  if (credentials_file.empty() && !home.empty()) credentials_file = home + "/.aws/credentials";
  std::string config_file = Env("AWS_CONFIG_FILE");
  if (config_file.empty() && !home.empty()) config_file = home + "/.aws/config";

  // A key pair comes whole from one place: the environment's, else the profile's.
  if (options.access_key_id.empty() && !credentials_file.empty()) {
    auto credentials = ReadSection(credentials_file, profile);
    options.access_key_id = credentials["aws_access_key_id"];
    options.secret_access_key = credentials["aws_secret_access_key"];
    options.session_token = credentials["aws_session_token"];
  }
  if (!config_file.empty()) {
    auto config = ReadSection(config_file, profile == "default" ? profile : "profile " + profile);
    Fill(options.region, config["region"]);
    Fill(options.endpoint, config["endpoint_url"]);
    Fill(options.ca_file, config["ca_bundle"]);
    if (config["s3.addressing_style"] == "path") options.url_style = "path";
    if (config["s3.addressing_style"] == "virtual") options.url_style = "vhost";
  }
  return options;
}

}  // namespace tarn
