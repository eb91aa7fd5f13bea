// Standard-output plumbing shared by the subcommands.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "tarn/format.h"
#include "tarn/status.h"

namespace tarn::cli {

// A TextSink on stdout. A closed pipe (e.g. `| head`) ends output quietly: Append returns
// Cancelled, which commands treat as a normal end.
class StdoutSink : public TextSink {
 public:
  Status Append(std::string_view text) override {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
      return Status::Cancelled("standard output closed");
    }
    return Status::OK();
  }
};

}  // namespace tarn::cli
