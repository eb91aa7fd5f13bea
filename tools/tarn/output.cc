#include "output.h"

#include <cstdio>

namespace tarn::cli {

int ReportError(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "Error: %s\n", message.c_str());
  return 1;
}

}  // namespace tarn::cli
