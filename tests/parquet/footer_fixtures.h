// Test helpers for the metadata and compression tests: reading fixture files whole, locating
// their footers, and walking the pages of a column chunk.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/metadata.h"
#include "support/test_util.h"

namespace tarn::parquet::testing_support {

inline std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline std::string ParquetTestingPath(std::string_view relative) {
  return tarn::testing::SharedPath(std::string("fixtures/parquet-testing/") +
                                   std::string(relative));
}

// Every file in `dir` whose name ends with one of `suffixes`, sorted.
inline std::vector<std::string> ListFiles(const std::string& dir,
                                          const std::vector<std::string>& suffixes) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    for (const auto& suffix : suffixes) {
      if (name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        files.push_back(entry.path().string());
        break;
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Footer {
  std::string_view bytes;  // the serialized FileMetaData (or FileCryptoMetaData + ciphertext)
  bool encrypted = false;  // the file ends in "PARE"
  bool valid = false;      // the tail was well-formed
};

// Locates the footer from the 8-byte tail: u32 LE length + "PAR1" / "PARE".
inline Footer LocateFooter(std::string_view file) {
  Footer footer;
  if (file.size() < 12) return footer;
  const std::string_view magic = file.substr(file.size() - 4);
  if (magic != "PAR1" && magic != "PARE") return footer;
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  if (length > file.size() - 8) return footer;
  footer.bytes = file.substr(file.size() - 8 - length, length);
  footer.encrypted = magic == "PARE";
  footer.valid = true;
  return footer;
}

// The leaf columns of a flattened schema: elements without children.
inline int64_t CountLeaves(const FileMetaData& metadata) {
  int64_t leaves = 0;
  for (size_t element_idx = 1; element_idx < metadata.schema.size(); ++element_idx) {
    if (metadata.schema[element_idx].num_children.value_or(0) == 0) ++leaves;
  }
  return leaves;
}

struct PageView {
  PageHeader header;
  std::string_view payload;  // compressed_page_size bytes after the header
};

// Decodes the page headers of one column chunk in order until the data pages account for
// `meta.num_values` values, calling `on_page` for each. A decode failure or a page running
// past the file is returned as a Status.
inline Status WalkPages(std::string_view file, const ColumnMetaData& meta,
                        const std::function<void(const PageView&)>& on_page) {
  int64_t pos = meta.data_page_offset;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0) {
    pos = std::min(pos, *meta.dictionary_page_offset);
  }
  int64_t values = 0;
  while (values < meta.num_values) {
    if (pos < 0 || pos >= static_cast<int64_t>(file.size())) {
      return Status::Corruption("page offset ", pos, " outside the file");
    }
    int64_t consumed = 0;
    Result<PageHeader> header = DecodePageHeader(file.substr(pos), &consumed);
    if (!header.ok()) return header.status();
    const int64_t payload_at = pos + consumed;
    if (header->compressed_page_size > static_cast<int64_t>(file.size()) - payload_at) {
      return Status::Corruption("page at ", pos, " runs past the file");
    }
    PageView page{*header, file.substr(payload_at, header->compressed_page_size)};
    on_page(page);
    if (header->data_page_header) values += header->data_page_header->num_values;
    if (header->data_page_header_v2) values += header->data_page_header_v2->num_values;
    pos = payload_at + header->compressed_page_size;
  }
  return Status::OK();
}

}  // namespace tarn::parquet::testing_support
