// The footer codec against files written by other tools (parquet-testing), DuckDB's row
// counts, and corruption of real footers: truncation at every byte and random byte flips.

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "parquet/footer_fixtures.h"
#include "parquet/metadata.h"
#include "support/oracle.h"
#include "support/test_util.h"

namespace tarn::parquet {
namespace {

using testing_support::CountLeaves;
using testing_support::ListFiles;
using testing_support::LocateFooter;
using testing_support::ParquetTestingPath;
using testing_support::ReadWholeFile;

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

std::vector<std::string> DataFiles() {
  return ListFiles(ParquetTestingPath("data"), {".parquet", ".parquet.encrypted"});
}

int64_t RowGroupRows(const FileMetaData& metadata) {
  int64_t rows = 0;
  for (const RowGroup& group : metadata.row_groups) rows += group.num_rows;
  return rows;
}

// Checks that a decoded plaintext footer hangs together.
void ExpectConsistent(const std::string& name, const FileMetaData& metadata) {
  const int64_t leaves = CountLeaves(metadata);
  for (const RowGroup& group : metadata.row_groups) {
    EXPECT_EQ(static_cast<int64_t>(group.columns.size()), leaves) << name;
  }
  // One writer left FileMetaData.num_rows at 0; readers must trust the row groups.
  if (name != "repeated_no_annotation.parquet") {
    EXPECT_EQ(RowGroupRows(metadata), metadata.num_rows) << name;
  } else {
    EXPECT_EQ(metadata.num_rows, 0);
    EXPECT_EQ(RowGroupRows(metadata), 6);
  }
}

// A logical type tarn does not know decodes as present with Kind::kNone and is not written
// back; everything else survives re-encoding exactly.
FileMetaData WithoutUnrecognizedLogicalTypes(FileMetaData metadata) {
  for (SchemaElement& element : metadata.schema) {
    if (element.logical_type && element.logical_type->kind == LogicalType::Kind::kNone) {
      element.logical_type.reset();
    }
  }
  return metadata;
}

TEST(MetadataFixtureTest, EveryFixtureFooterDecodes) {
  const std::vector<std::string> files = DataFiles();
  ASSERT_GE(files.size(), 70u) << "parquet-testing fixtures missing under "
                               << ParquetTestingPath("data");
  int plaintext = 0;
  int encrypted_footers = 0;
  int plaintext_footers_of_encrypted_files = 0;
  for (const std::string& path : files) {
    const std::string name = BaseName(path);
    const std::string file = ReadWholeFile(path);
    const auto footer = LocateFooter(file);
    ASSERT_TRUE(footer.valid) << name;
    if (footer.encrypted) {
      // FileCryptoMetaData in plaintext, then the encrypted FileMetaData.
      ++encrypted_footers;
      int64_t consumed = 0;
      Result<FileCryptoMetaData> crypto = DecodeFileCryptoMetaData(footer.bytes, &consumed);
      ASSERT_TRUE(crypto.ok()) << name << ": " << crypto.status().ToString();
      EXPECT_TRUE(crypto->encryption_algorithm == 1 || crypto->encryption_algorithm == 2) << name;
      EXPECT_LT(consumed, static_cast<int64_t>(footer.bytes.size())) << name;
      Result<FileMetaData> as_plain = DecodeFileMetaData(footer.bytes);
      EXPECT_FALSE(as_plain.ok()) << name;
      EXPECT_TRUE(as_plain.status().IsCorruption()) << name;
      continue;
    }
    Result<FileMetaData> metadata = DecodeFileMetaData(footer.bytes);
    ASSERT_TRUE(metadata.ok()) << name << ": " << metadata.status().ToString();
    ExpectConsistent(name, *metadata);
    ++plaintext;
    if (metadata->has_encryption_algorithm) {
      ++plaintext_footers_of_encrypted_files;
      bool any_encrypted_column = false;
      for (const RowGroup& group : metadata->row_groups) {
        for (const ColumnChunk& chunk : group.columns) {
          any_encrypted_column |= chunk.has_crypto_metadata;
        }
      }
      EXPECT_TRUE(any_encrypted_column) << name;
    }
  }
  EXPECT_GE(plaintext, 60);
  EXPECT_GE(encrypted_footers, 5);
  EXPECT_GE(plaintext_footers_of_encrypted_files, 1);  // encrypt_columns_plaintext_footer
}

TEST(MetadataFixtureTest, KnownFacts) {
  const std::string file = ReadWholeFile(ParquetTestingPath("data/alltypes_plain.parquet"));
  Result<FileMetaData> metadata = DecodeFileMetaData(LocateFooter(file).bytes);
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  EXPECT_EQ(metadata->num_rows, 8);
  EXPECT_EQ(CountLeaves(*metadata), 11);
  ASSERT_EQ(metadata->schema.size(), 12u);
  EXPECT_EQ(metadata->schema[0].num_children, 11);
  EXPECT_EQ(metadata->schema[1].name, "id");
  EXPECT_EQ(metadata->schema[1].type, PhysicalType::kInt32);
  EXPECT_EQ(metadata->schema[11].name, "timestamp_col");
  EXPECT_EQ(metadata->schema[11].type, PhysicalType::kInt96);
  ASSERT_EQ(metadata->row_groups.size(), 1u);
  const ColumnMetaData& id = *metadata->row_groups[0].columns[0].meta_data;
  EXPECT_EQ(id.path_in_schema, std::vector<std::string>{"id"});
  EXPECT_EQ(id.codec, CompressionCodec::kUncompressed);
  EXPECT_EQ(id.num_values, 8);

  const std::string lz4 = ReadWholeFile(ParquetTestingPath("data/lz4_raw_compressed.parquet"));
  metadata = DecodeFileMetaData(LocateFooter(lz4).bytes);
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  EXPECT_EQ(metadata->row_groups[0].columns[0].meta_data->codec, CompressionCodec::kLz4Raw);

  const std::string unknown =
      ReadWholeFile(ParquetTestingPath("data/unknown-logical-type.parquet"));
  metadata = DecodeFileMetaData(LocateFooter(unknown).bytes);
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  bool saw_unrecognized = false;
  for (const SchemaElement& element : metadata->schema) {
    saw_unrecognized |=
        element.logical_type.has_value() && element.logical_type->kind == LogicalType::Kind::kNone;
  }
  EXPECT_TRUE(saw_unrecognized);
}

// The row count of every plaintext fixture (the sum over its row groups) matches DuckDB's
// count(*).
TEST(MetadataFixtureTest, RowCountsMatchDuckDB) {
  std::vector<std::string> names;
  std::vector<int64_t> num_rows;
  std::vector<std::string> queries;
  for (const std::string& path : ListFiles(ParquetTestingPath("data"), {".parquet"})) {
    const std::string file = ReadWholeFile(path);
    Result<FileMetaData> metadata = DecodeFileMetaData(LocateFooter(file).bytes);
    ASSERT_TRUE(metadata.ok()) << path << ": " << metadata.status().ToString();
    names.push_back(BaseName(path));
    num_rows.push_back(RowGroupRows(*metadata));
    queries.push_back("SELECT count(*) AS n FROM read_parquet('" + path + "')");
  }
  const std::vector<Result<std::string>> answers = tarn::testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), queries.size());
  // Files DuckDB itself refuses (its error is checked to be about the schema, not the footer).
  const std::set<std::string> duckdb_rejects = {"map_no_value.parquet"};
  int compared = 0;
  for (size_t file_idx = 0; file_idx < names.size(); ++file_idx) {
    if (!answers[file_idx].ok()) {
      ASSERT_EQ(answers[file_idx].status().code(), StatusCode::kInvalidArgument)
          << answers[file_idx].status().ToString();
      EXPECT_TRUE(duckdb_rejects.count(names[file_idx]))
          << names[file_idx] << ": " << answers[file_idx].status().ToString();
      continue;
    }
    EXPECT_EQ(*answers[file_idx], "n\n" + std::to_string(num_rows[file_idx]) + "\n")
        << names[file_idx];
    ++compared;
  }
  EXPECT_GE(compared, 60);
}

// Decoding then re-encoding a real footer gives a struct that decodes to the same value.
TEST(MetadataFixtureTest, RealFootersReencode) {
  for (const std::string& path : ListFiles(ParquetTestingPath("data"), {".parquet"})) {
    const std::string file = ReadWholeFile(path);
    Result<FileMetaData> metadata = DecodeFileMetaData(LocateFooter(file).bytes);
    ASSERT_TRUE(metadata.ok()) << path;
    std::string bytes;
    EncodeFileMetaData(*metadata, &bytes);
    Result<FileMetaData> again = DecodeFileMetaData(bytes);
    ASSERT_TRUE(again.ok()) << path << ": " << again.status().ToString();
    EXPECT_TRUE(*again == WithoutUnrecognizedLogicalTypes(*metadata)) << path;
  }
}

TEST(MetadataFixtureTest, BadDataDecodesOrFailsCleanly) {
  const std::vector<std::string> files = ListFiles(ParquetTestingPath("bad_data"), {".parquet"});
  ASSERT_GE(files.size(), 8u);
  for (const std::string& path : files) {
    const std::string file = ReadWholeFile(path);
    const auto footer = LocateFooter(file);
    if (!footer.valid) continue;
    Result<FileMetaData> metadata = DecodeFileMetaData(footer.bytes);
    if (!metadata.ok()) {
      EXPECT_TRUE(metadata.status().IsCorruption()) << path << metadata.status().ToString();
      continue;
    }
    // Decode every page header we can reach; each must decode or fail as Corruption.
    for (const RowGroup& group : metadata->row_groups) {
      for (const ColumnChunk& chunk : group.columns) {
        if (!chunk.meta_data) continue;
        Status walked = testing_support::WalkPages(file, *chunk.meta_data, [](const auto&) {});
        EXPECT_TRUE(walked.ok() || walked.IsCorruption()) << path << walked.ToString();
      }
    }
  }
}

TEST(MetadataFixtureTest, NegativeDictionaryCountIsCorruption) {
  const std::string file =
      ReadWholeFile(ParquetTestingPath("bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet"));
  Result<FileMetaData> metadata = DecodeFileMetaData(LocateFooter(file).bytes);
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  std::string errors;
  for (const RowGroup& group : metadata->row_groups) {
    for (const ColumnChunk& chunk : group.columns) {
      Status walked = testing_support::WalkPages(file, *chunk.meta_data, [](const auto&) {});
      if (!walked.ok()) errors += walked.ToString() + "\n";
    }
  }
  EXPECT_NE(errors.find("page header: DictionaryPageHeader.num_values: negative value"),
            std::string::npos)
      << errors;
}

TEST(MetadataFixtureTest, CorruptSchemaFixtureFailsCleanly) {
  const std::string file = ReadWholeFile(ParquetTestingPath("bad_data/PARQUET-1481.parquet"));
  Result<FileMetaData> metadata = DecodeFileMetaData(LocateFooter(file).bytes);
  ASSERT_FALSE(metadata.ok());
  EXPECT_EQ(metadata.status().ToString().rfind("Corruption: parquet footer: SchemaElement.type: "
                                               "unknown value",
                                               0),
            0u)
      << metadata.status().ToString();
}

// Every strict prefix of a footer is Corruption: the top-level struct only ends at its last
// byte. `stride` > 1 samples the offsets of big footers.
void ExpectEveryTruncationFails(const std::string& path, size_t stride) {
  const std::string file = ReadWholeFile(path);
  const std::string_view footer = LocateFooter(file).bytes;
  ASSERT_FALSE(footer.empty()) << path;
  ASSERT_TRUE(DecodeFileMetaData(footer).ok()) << path;
  for (size_t length = 0; length < footer.size(); length += stride) {
    Result<FileMetaData> metadata = DecodeFileMetaData(footer.substr(0, length));
    ASSERT_FALSE(metadata.ok()) << path << " truncated to " << length;
    ASSERT_TRUE(metadata.status().IsCorruption()) << metadata.status().ToString();
  }
}

TEST(MetadataFixtureTest, TruncationAtEveryByteIsCorruption) {
  for (const char* name : {"alltypes_plain.parquet", "nested_structs.rust.parquet",
                           "data_index_bloom_encoding_stats.parquet", "nested_maps.snappy.parquet",
                           "column_chunk_key_value_metadata.parquet"}) {
    ExpectEveryTruncationFails(ParquetTestingPath(std::string("data/") + name), 1);
  }
  ExpectEveryTruncationFails(tarn::testing::SharedPath("data/tpch-sf0.1/lineitem.parquet"), 13);
}

// Random byte flips give Corruption or a struct; a struct that decodes re-encodes and decodes
// to itself.
TEST(MetadataFixtureTest, RandomByteFlipsNeverCrash) {
  std::mt19937_64 rng(7);
  int decoded_count = 0;
  int corrupt_count = 0;
  for (const char* name : {"alltypes_plain.parquet", "nested_structs.rust.parquet",
                           "alltypes_tiny_pages.parquet", "nested_lists.snappy.parquet",
                           "sort_columns.parquet", "float16_nonzeros_and_nans.parquet"}) {
    const std::string file = ReadWholeFile(ParquetTestingPath(std::string("data/") + name));
    const std::string footer(LocateFooter(file).bytes);
    ASSERT_FALSE(footer.empty()) << name;
    for (int iteration = 0; iteration < 1500; ++iteration) {
      std::string mutated = footer;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int flip_idx = 0; flip_idx < flips; ++flip_idx) {
        const size_t at = rng() % mutated.size();
        if (rng() % 2) {
          mutated[at] = static_cast<char>(rng());
        } else {
          mutated[at] = static_cast<char>(mutated[at] ^ (1 << (rng() % 8)));
        }
      }
      Result<FileMetaData> metadata = DecodeFileMetaData(mutated);
      if (!metadata.ok()) {
        ASSERT_TRUE(metadata.status().IsCorruption()) << metadata.status().ToString();
        ++corrupt_count;
        continue;
      }
      ++decoded_count;
      std::string reencoded;
      EncodeFileMetaData(*metadata, &reencoded);
      Result<FileMetaData> again = DecodeFileMetaData(reencoded);
      ASSERT_TRUE(again.ok()) << again.status().ToString();
      ASSERT_TRUE(*again == WithoutUnrecognizedLogicalTypes(*metadata));
    }
  }
  // Both outcomes happen, or the test is not exercising anything.
  EXPECT_GT(decoded_count, 100);
  EXPECT_GT(corrupt_count, 100);
}

}  // namespace
}  // namespace tarn::parquet
