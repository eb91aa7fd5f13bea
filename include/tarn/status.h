// Status and Result<T>: how every tarn operation reports failure.
//
// A Status is a code plus a human-readable message that names what failed and where
// (file, offset, row, expected vs. actual). Statuses are returned, never thrown; no exception
// crosses a module boundary. Result<T> holds either a value or a non-OK Status.
//
// Thread-safety: both are plain values; distinct objects may be used from distinct threads.
#pragma once

#include <cassert>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tarn {

enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalidArgument,   // bad user input: SQL, options, paths
  kNotFound,          // a file, table, column or key that does not exist
  kIOError,           // the operating system or storage failed
  kCorruption,        // bytes that do not decode: a malformed file, a corrupt sidecar
  kNotSupported,      // valid input that tarn does not handle (yet), e.g. encrypted files
  kCancelled,         // a CancellationToken fired
  kResourceExhausted, // a memory limit or a declared size over its bound
  kAlreadyExists,
  kConflict,          // a concurrent writer won
  kInternal,          // a broken invariant inside tarn
};

std::string_view StatusCodeName(StatusCode code);

// Concatenates the stream representations of its arguments.
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  template <typename... Args>
  static Status InvalidArgument(const Args&... args) {
    return Status(StatusCode::kInvalidArgument, StrCat(args...));
  }
  template <typename... Args>
  static Status NotFound(const Args&... args) {
    return Status(StatusCode::kNotFound, StrCat(args...));
  }
  template <typename... Args>
  static Status IOError(const Args&... args) {
    return Status(StatusCode::kIOError, StrCat(args...));
  }
  template <typename... Args>
  static Status Corruption(const Args&... args) {
    return Status(StatusCode::kCorruption, StrCat(args...));
  }
  template <typename... Args>
  static Status NotSupported(const Args&... args) {
    return Status(StatusCode::kNotSupported, StrCat(args...));
  }
  template <typename... Args>
  static Status Cancelled(const Args&... args) {
    return Status(StatusCode::kCancelled, StrCat(args...));
  }
  template <typename... Args>
  static Status ResourceExhausted(const Args&... args) {
    return Status(StatusCode::kResourceExhausted, StrCat(args...));
  }
  template <typename... Args>
  static Status AlreadyExists(const Args&... args) {
    return Status(StatusCode::kAlreadyExists, StrCat(args...));
  }
  template <typename... Args>
  static Status Conflict(const Args&... args) {
    return Status(StatusCode::kConflict, StrCat(args...));
  }
  template <typename... Args>
  static Status Internal(const Args&... args) {
    return Status(StatusCode::kInternal, StrCat(args...));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  bool IsCorruption() const { return code_ == StatusCode::kCorruption; }
  bool IsNotFound() const { return code_ == StatusCode::kNotFound; }
  bool IsNotSupported() const { return code_ == StatusCode::kNotSupported; }
  bool IsCancelled() const { return code_ == StatusCode::kCancelled; }
  bool IsAlreadyExists() const { return code_ == StatusCode::kAlreadyExists; }

  // "Corruption: <message>"
  std::string ToString() const;

  // Returns a copy whose message is "<context>: <message>"; OK stays OK.
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : storage_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(storage_).ok() && "Result built from an OK Status");
  }

  bool ok() const { return std::holds_alternative<T>(storage_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(storage_); }

  // REQUIRES: ok()
  T& value() & { return std::get<T>(storage_); }
  const T& value() const& { return std::get<T>(storage_); }
  T&& value() && { return std::get<T>(std::move(storage_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  T ValueOr(T fallback) const& { return ok() ? value() : std::move(fallback); }

 private:
  std::variant<Status, T> storage_;
};

namespace internal {
inline Status ToStatus(const Status& s) { return s; }
template <typename T>
Status ToStatus(const Result<T>& r) {
  return r.status();
}
}  // namespace internal

}  // namespace tarn

#define TARN_CONCAT_IMPL(a, b) a##b
#define TARN_CONCAT(a, b) TARN_CONCAT_IMPL(a, b)

#define TARN_RETURN_NOT_OK(expr)                                   \
  do {                                                             \
    ::tarn::Status _tarn_status = ::tarn::internal::ToStatus(expr); \
    if (!_tarn_status.ok()) return _tarn_status;                   \
  } while (false)

#define TARN_ASSIGN_OR_RETURN_IMPL(result_name, lhs, rexpr) \
  auto result_name = (rexpr);                               \
  if (!result_name.ok()) return result_name.status();       \
  lhs = std::move(result_name).value()

// TARN_ASSIGN_OR_RETURN(auto x, Foo()); or TARN_ASSIGN_OR_RETURN(x, Foo());
#define TARN_ASSIGN_OR_RETURN(lhs, rexpr) \
  TARN_ASSIGN_OR_RETURN_IMPL(TARN_CONCAT(_tarn_result_, __LINE__), lhs, rexpr)
