// The fuzz corpora checked in under tests/fuzz/<folder>: their files, and one file's bytes.
#pragma once

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_util.h"

namespace tarn::fuzz {

// The inputs of tests/fuzz/<folder> (its README.md aside), sorted by name; empty when the
// folder is missing.
inline std::vector<std::string> CorpusFiles(const std::string& folder) {
  const std::string dir = testing::SourceDir() + "/tests/fuzz/" + folder;
  std::vector<std::string> files;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return files;
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name == "." || name == ".." || name == "README.md") continue;
    files.push_back(dir + "/" + name);
  }
  closedir(handle);
  std::sort(files.begin(), files.end());
  return files;
}

// Reads the bytes of `path` into `bytes`; false when it cannot be read.
inline bool ReadCorpusFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) return false;
  std::ostringstream out;
  out << in.rdbuf();
  *bytes = out.str();
  return true;
}

}  // namespace tarn::fuzz
