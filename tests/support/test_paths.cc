// The build's folders, from compile definitions that only this file receives (CMakeLists.txt).
#include <string>

#include "support/test_util.h"

namespace tarn::testing {

const std::string& SharedDir() {
  static const std::string dir = TARN_SHARED_DIR;
  return dir;
}

const std::string& OracleDir() {
  static const std::string dir = TARN_ORACLE_DIR;
  return dir;
}

const std::string& SourceDir() {
  static const std::string dir = TARN_SOURCE_DIR;
  return dir;
}

const std::string& BinaryDir() {
  static const std::string dir = TARN_BINARY_DIR;
  return dir;
}

}  // namespace tarn::testing
