// The expectation table of the Parquet conformance suite: what tarn must do with each file.
//
// kEqualToDuckDB is the default goal. Anything else carries its reason. Files of the
// bad_data/ folder are described in its README.md; each one either fails cleanly or reads
// equal to DuckDB.
#include <gtest/gtest.h>

#include "conformance/conformance.h"

namespace tarn::conformance {
namespace {

Expectation Equal(std::string file) {
  return {std::move(file), Expect::kEqualToDuckDB, StatusCode::kOk, "", "", "", "", ""};
}

Expectation SameAs(std::string file, std::string other, std::string why) {
  return {std::move(file), Expect::kEqualToDuckDB, StatusCode::kOk, "", "", std::move(why),
          std::move(other), ""};
}

Expectation Refuse(std::string file, StatusCode code, std::string text, std::string why) {
  return {std::move(file), Expect::kRefuse, code, std::move(text), "", std::move(why), "", ""};
}

Expectation NotParquet(std::string file) {
  return {std::move(file), Expect::kNotParquet, StatusCode::kCorruption, "",
          "", "not a Parquet file: the corpus keeps docs, keys, bloom filters and CSVs beside them",
          "", ""};
}

Expectation EqualToColumns(std::string file, std::string select, std::string why) {
  Expectation expectation = Equal(std::move(file));
  expectation.oracle_select = std::move(select);
  expectation.why = std::move(why);
  return expectation;
}

Expectation HandWritten(std::string file, std::string csv, std::string why) {
  return {std::move(file), Expect::kHandWritten, StatusCode::kOk, "", std::move(csv),
          std::move(why), "", ""};
}

Expectation OwnTest(std::string file, std::string test, std::string why) {
  return {std::move(file), Expect::kOwnTest, StatusCode::kOk, std::move(test), "",
          std::move(why), "", ""};
}

constexpr StatusCode kNotSupported = StatusCode::kNotSupported;
constexpr StatusCode kCorruption = StatusCode::kCorruption;

const char* const kEncrypted = "encrypted files are not supported";
const char* const kBadCrc =
    "a page's CRC does not match its bytes; DuckDB does not check page CRCs and reads it, tarn "
    "verifies them and refuses naming the page";
const char* const kLz4 =
    "the deprecated LZ4 codec, which DuckDB does not read; the file holds the same rows as its "
    "LZ4_RAW twin";

// DuckDB reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE. Each BYTE_STREAM_SPLIT column of
// this file has a PLAIN twin holding the same values (its README): DuckDB's reading of the
// twins, each twice, is what tarn must produce.
const char* const kSplitTwins =
    "float16_plain, float16_plain AS float16_byte_stream_split, float_plain, "
    "float_plain AS float_byte_stream_split, double_plain, "
    "double_plain AS double_byte_stream_split, int32_plain, "
    "int32_plain AS int32_byte_stream_split, int64_plain, "
    "int64_plain AS int64_byte_stream_split, flba5_plain, "
    "flba5_plain AS flba5_byte_stream_split, decimal_plain, "
    "decimal_plain AS decimal_byte_stream_split";

std::vector<Expectation> BuildTable() {
  return {
      // ---- data/: files that are not Parquet ------------------------------------------
      NotParquet("data/README.md"),
      NotParquet("data/_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"),
      NotParquet("data/bloom_filter.bin"),
      NotParquet("data/bloom_filter.xxhash.bin"),
      NotParquet("data/delta_binary_packed.md"),
      NotParquet("data/delta_binary_packed_expect.csv"),
      NotParquet("data/delta_byte_array.md"),
      NotParquet("data/delta_byte_array_expect.csv"),
      NotParquet("data/delta_encoding_optional_column.md"),
      NotParquet("data/delta_encoding_optional_column_expect.csv"),
      NotParquet("data/delta_encoding_required_column.md"),
      NotParquet("data/delta_encoding_required_column_expect.csv"),
      NotParquet("data/fixed_length_byte_array.md"),
      NotParquet("data/int32_with_null_pages.md"),
      NotParquet("data/int96_from_spark.md"),
      NotParquet("data/map_no_value.md"),
      NotParquet("data/old_list_structure.md"),

      // ---- data/: Parquet files ----------------------------------------------------------
      Equal("data/alltypes_dictionary.parquet"),
      Equal("data/alltypes_plain.parquet"),
      Equal("data/alltypes_plain.snappy.parquet"),
      Equal("data/alltypes_tiny_pages.parquet"),
      Equal("data/alltypes_tiny_pages_plain.parquet"),
      Equal("data/binary.parquet"),
      Equal("data/binary_truncated_min_max.parquet"),
      Equal("data/byte_array_decimal.parquet"),
      Equal("data/byte_stream_split.zstd.parquet"),
      EqualToColumns("data/byte_stream_split_extended.gzip.parquet", kSplitTwins,
                     "BYTE_STREAM_SPLIT of FLBA, INT32 and INT64, which DuckDB does not read; "
                     "each such column must equal DuckDB's reading of its PLAIN twin"),
      Equal("data/column_chunk_key_value_metadata.parquet"),
      Equal("data/concatenated_gzip_members.parquet"),
      Equal("data/data_index_bloom_encoding_stats.parquet"),
      Equal("data/data_index_bloom_encoding_with_length.parquet"),
      Refuse("data/datapage_v1-corrupt-checksum.parquet", kCorruption,
             "page at offset 4: page checksum mismatch", kBadCrc),
      Equal("data/datapage_v1-snappy-compressed-checksum.parquet"),
      Equal("data/datapage_v1-uncompressed-checksum.parquet"),
      Equal("data/datapage_v2.snappy.parquet"),
      Equal("data/datapage_v2_empty_datapage.snappy.parquet"),
      Equal("data/delta_binary_packed.parquet"),
      Equal("data/delta_byte_array.parquet"),
      Equal("data/delta_encoding_optional_column.parquet"),
      Equal("data/delta_encoding_required_column.parquet"),
      Equal("data/delta_length_byte_array.parquet"),
      Equal("data/dict-page-offset-zero.parquet"),
      Refuse("data/encrypt_columns_and_footer.parquet.encrypted", kNotSupported, "encrypt",
             kEncrypted),
      Refuse("data/encrypt_columns_and_footer_aad.parquet.encrypted", kNotSupported, "encrypt",
             kEncrypted),
      Refuse("data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted", kNotSupported,
             "encrypt", kEncrypted),
      Refuse("data/encrypt_columns_and_footer_ctr.parquet.encrypted", kNotSupported, "encrypt",
             kEncrypted),
      Refuse("data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
             kNotSupported, "encrypt", kEncrypted),
      Refuse("data/encrypt_columns_plaintext_footer.parquet.encrypted", kNotSupported, "encrypt",
             "a plaintext footer with encrypted columns: DuckDB reads it (its columns then "
             "decode to garbage); tarn refuses encrypted column chunks"),
      Refuse("data/external_key_material_java.parquet.encrypted", kNotSupported, "encrypt",
             kEncrypted),
      Equal("data/fixed_length_byte_array.parquet"),
      Equal("data/fixed_length_decimal.parquet"),
      Equal("data/fixed_length_decimal_legacy.parquet"),
      Equal("data/float16_nonzeros_and_nans.parquet"),
      Equal("data/float16_zeros_and_nans.parquet"),
      Equal("data/floating_orders_nan_count.parquet"),
      SameAs("data/hadoop_lz4_compressed.parquet", "data/lz4_raw_compressed.parquet", kLz4),
      SameAs("data/hadoop_lz4_compressed_larger.parquet", "data/lz4_raw_compressed_larger.parquet",
             kLz4),
      Equal("data/incorrect_map_schema.parquet"),
      Equal("data/int32_decimal.parquet"),
      Equal("data/int32_with_null_pages.parquet"),
      Equal("data/int64_decimal.parquet"),
      Equal("data/int96_from_spark.parquet"),
      OwnTest("data/large_string_map.brotli.parquet", "LargeStringMapTest",
              "two map keys of 1 GiB each in pages of over 1 GiB: a 2 GB CSV, so "
              "large_string_map_test.cc checks the values DuckDB gives"),
      Equal("data/list_columns.parquet"),
      Equal("data/lz4_raw_compressed.parquet"),
      Equal("data/lz4_raw_compressed_larger.parquet"),
      HandWritten("data/map_no_value.parquet",
                  "my_map,my_map_no_v,my_list\n"
                  "\"{1=NULL, 2=NULL, 3=NULL}\",\"[1, 2, 3]\",\"[1, 2, 3]\"\n"
                  "\"{4=NULL, 5=NULL, 6=NULL}\",\"[4, 5, 6]\",\"[4, 5, 6]\"\n"
                  "\"{7=NULL, 8=NULL, 9=NULL}\",\"[7, 8, 9]\",\"[7, 8, 9]\"\n",
                  "a MAP whose key_value group has no value field, which DuckDB refuses; read "
                  "as the list of its keys, as the file's README describes (rows from there)"),
      Equal("data/nan_in_stats.parquet"),
      Refuse("data/nation.dict-malformed.parquet", kCorruption, "exceeds",
             "the dictionary page is larger than what the column chunk's metadata leaves for "
             "it; DuckDB reads past the chunk, tarn refuses the inconsistent file"),
      Equal("data/nested_lists.snappy.parquet"),
      Equal("data/nested_maps.snappy.parquet"),
      Equal("data/nested_structs.rust.parquet"),
      SameAs("data/non_hadoop_lz4_compressed.parquet", "data/lz4_raw_compressed.parquet", kLz4),
      Equal("data/nonnullable.impala.parquet"),
      Equal("data/null_list.parquet"),
      Equal("data/nullable.impala.parquet"),
      Equal("data/nulls.snappy.parquet"),
      Equal("data/old_list_structure.parquet"),
      Equal("data/overflow_i16_page_cnt.parquet"),
      Equal("data/page_v2_empty_compressed.parquet"),
      Equal("data/plain-dict-uncompressed-checksum.parquet"),
      Equal("data/repeated_no_annotation.parquet"),
      Equal("data/repeated_primitive_no_list.parquet"),
      Equal("data/rle-dict-snappy-checksum.parquet"),
      Refuse("data/rle-dict-uncompressed-corrupt-checksum.parquet", kCorruption,
             ": page checksum mismatch", kBadCrc),
      Equal("data/rle_boolean_encoding.parquet"),
      Equal("data/single_nan.parquet"),
      Equal("data/sort_columns.parquet"),
      Refuse("data/uniform_encryption.parquet.encrypted", kNotSupported, "encrypt", kEncrypted),
      Equal("data/unknown-logical-type.parquet"),

      // ---- bad_data/ (README.md describes each defect) -------------------------------------
      NotParquet("bad_data/README.md"),
      Refuse("bad_data/ARROW-GH-41317.parquet", kCorruption, "",
             "columns of different lengths in one row group"),
      Refuse("bad_data/ARROW-GH-41321.parquet", kCorruption, "",
             "decoded levels fewer than the page header's num_values"),
      // Bit width 0 is valid when the dictionary has one entry: reads like DuckDB.
      Equal("bad_data/ARROW-GH-43605.parquet"),
      Refuse("bad_data/ARROW-GH-45185.parquet", kCorruption, "",
             "repetition levels start with 1 instead of 0"),
      Refuse("bad_data/ARROW-GH-47662.parquet", kCorruption, "",
             "a required column holds nulls"),
      Refuse("bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", kCorruption, "",
             "negative value count in the dictionary page header"),
      Refuse("bad_data/ARROW-RS-GH-6229-LEVELS.parquet", kCorruption, "",
             "a page with too few repetition levels"),
      Refuse("bad_data/PARQUET-1481.parquet", kCorruption, "",
             "a corrupted schema Thrift value (an invalid type enum)"),

      // ---- large data sets ------------------------------------------------------------------
      Equal("flights-3m.parquet"),
      Equal("tpch-sf0.1/lineitem.parquet"),
      Equal("tpch-sf0.1/orders.parquet"),
  };
}

}  // namespace

const std::vector<Expectation>& ExpectationTable() {
  static const std::vector<Expectation> table = BuildTable();
  return table;
}

TEST(ParquetConformanceTable, NoFileListedTwice) {
  std::vector<std::string> seen;
  for (const Expectation& expectation : ExpectationTable()) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), expectation.file), 0) << expectation.file;
    seen.push_back(expectation.file);
  }
}

}  // namespace tarn::conformance
