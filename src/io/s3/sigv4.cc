#include "io/s3/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/md5.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <ctime>

namespace tarn::s3 {
namespace {

constexpr char kHex[] = "0123456789abcdef";

std::string Hex(const unsigned char* bytes, size_t length) {
  std::string out(length * 2, '0');
  for (size_t i = 0; i < length; ++i) {
    out[2 * i] = kHex[bytes[i] >> 4];
    out[2 * i + 1] = kHex[bytes[i] & 15];
  }
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &length);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A header value as SigV4 canonicalises it: outer spaces trimmed, inner runs of spaces as one.
std::string TrimValue(std::string_view value) {
  std::string out;
  bool space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

struct CanonicalHeaders {
  std::string lines;   // "name:value\n" for each
  std::string signed_names;  // "name;name"
};

CanonicalHeaders CanonicaliseHeaders(
    const std::vector<std::pair<std::string, std::string>>& headers) {
  std::vector<std::pair<std::string, std::string>> sorted;
  sorted.reserve(headers.size());
  for (const auto& [name, value] : headers) sorted.emplace_back(Lower(name), TrimValue(value));
  std::sort(sorted.begin(), sorted.end());
  CanonicalHeaders out;
  for (const auto& [name, value] : sorted) {
    out.lines += name + ":" + value + "\n";
    if (!out.signed_names.empty()) out.signed_names += ';';
    out.signed_names += name;
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return Hex(digest, sizeof(digest));
}

std::string Md5Base64(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_md5(), nullptr);
  unsigned char encoded[64];
  const int written = EVP_EncodeBlock(encoded, digest, static_cast<int>(length));
  return std::string(reinterpret_cast<const char*>(encoded), static_cast<size_t>(written));
}

std::string UriEncode(std::string_view text, bool keep_slash) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
        (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += "0123456789ABCDEF"[c >> 4];
      out += "0123456789ABCDEF"[c & 15];
    }
  }
  return out;
}

std::string AmzDate(std::chrono::system_clock::time_point when) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

std::string CanonicalQuery(std::vector<std::pair<std::string, std::string>> query) {
  for (auto& [name, value] : query) {
    name = UriEncode(name, false);
    value = UriEncode(value, false);
  }
  std::sort(query.begin(), query.end());
  std::string out;
  for (const auto& [name, value] : query) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

std::string CanonicalRequest(const RequestToSign& request) {
  const CanonicalHeaders headers = CanonicaliseHeaders(request.headers);
  std::string out;
  out += request.method;
  out += '\n';
  out += request.path.empty() ? std::string_view("/") : request.path;
  out += '\n';
  out += CanonicalQuery(request.query);
  out += '\n';
  out += headers.lines;
  out += '\n';
  out += headers.signed_names;
  out += '\n';
  out += request.payload_hash;
  return out;
}

std::string SignV4(const RequestToSign& request, const SigningCredentials& credentials,
                   std::string_view region, std::string_view amz_date,
                   std::string_view service) {
  const std::string_view day = amz_date.substr(0, 8);
  const std::string scope =
      std::string(day) + "/" + std::string(region) + "/" + std::string(service) + "/aws4_request";
  const std::string string_to_sign = "AWS4-HMAC-SHA256\n" + std::string(amz_date) + "\n" +
                                     scope + "\n" + Sha256Hex(CanonicalRequest(request));
  std::string key = Hmac("AWS4" + credentials.secret_access_key, day);
  key = Hmac(key, region);
  key = Hmac(key, service);
  key = Hmac(key, "aws4_request");
  const std::string signature = Hmac(key, string_to_sign);
  return "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + scope +
         ",SignedHeaders=" + CanonicaliseHeaders(request.headers).signed_names +
         ",Signature=" +
         Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
}

}  // namespace tarn::s3
