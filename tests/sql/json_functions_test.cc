// DuckDB's JSON functions against DuckDB: extraction by JSONPath, JSON pointer, bare key,
// integer index and lists of paths (json_extract, ->, json_extract_string, ->>, json_value,
// json_exists, json_type, json_array_length, json_keys), validation and minifying (json_valid,
// json(), the VARCHAR -> JSON cast), json_contains, json_merge_patch, the builders (to_json,
// json_quote, json_array, json_object) over every kind of value, and casts from JSON, over a
// table of documents with nested objects and arrays, escapes, unicode, numbers of every
// spelling, duplicate keys, NULL rows, empty containers and scalars at the root; in WHERE and
// GROUP BY, beside lambdas; and the statements DuckDB refuses, with its class of error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/sql_test_util.h"

namespace tarn {
namespace {

// id, j (VARCHAR JSON text), p (a path per row).
const char* const kDocs = R"((VALUES
  (1, '{"a":1,"b":[1,2,{"c":"x\u00e9"}],"s":"q\"uote","n":null,"t":true,"f":false}', '$.b[2].c'),
  (2, '{"a":{"b":{"c":[10,20,30]}},"big":12345678901234567890123,"u":18446744073709551615,"neg":-9223372036854775808}', '$.a.b.c[#-1]'),
  (3, '[1,2.50,-3e2,1E-7,"x",null,[],{}]', '$[1]'),
  (4, '{"a":"é ü 😀","esc":"tab\tnl\n\u0001\\\/","dec":1.25e10,"z":0.000001,"w":1e21}', 'a'),
  (5, '{}', '$.a'),
  (6, '[]', '$[0]'),
  (7, '"just a string"', '$'),
  (8, '42', NULL),
  (9, 'null', '/a'),
  (10, NULL, '$.a'),
  (11, '{"a":[{"k":1},{"k":2}],"b":{"a":1},"a b":{"c":3}}', '$."a b".c'),
  (12, '{"a" : 1 , "a" : 2, "dup": [1,2,] }', '/dup/1'),
  (13, '  {"x": true, "a": [ ] }  ', '$.x'),
  (14, '{"a":-0.0,"e":1e400,"m":-1e400,"h":123456789012345678901234.5}', '$.h')
) t(id, j, p))";

const std::vector<std::string> kRowExpressions = {
    "json_extract(j, '$.a')", "json_extract(j, 'a')", "json_extract(j, '$.b[2].c')",
    "json_extract(j, '$.a.b.c[#-1]')", "json_extract(j, '$.a.b.c[-1]')",
    "json_extract(j, '$.a.b.c[#-5]')", "json_extract(j, '$[1]')", "json_extract(j, 1)",
    "json_extract(j, -1)", "json_extract(j, '/a/b/c/0')", "json_extract(j, '$.\"a b\".c')",
    "json_extract(j, '$.a[1].k')", "json_extract(j, p)", "json_extract(j, '$')",
    "json_extract(j, '')", "json_extract(j, ['$.a', '$.b', '$[0]'])",
    "json_extract(j, '$.missing')", "json_extract(j, 'a.b')", "json_extract(j, '$.s')",
    "json_extract(j, '$.esc')", "json_extract(j, '$.big')", "json_extract(j, '$.u')",
    "json_extract(j, '$.neg')", "json_extract(j, '$.dec')", "json_extract(j, '$.z')",
    "json_extract(j, '$.w')", "json_extract(j, '$.e')", "json_extract(j, '$.m')",
    "json_extract(j, '$.h')", "json_extract(j, '$.n')", "json_extract(j, '$[2]')",
    "json_extract(j, '$[3]')", "json_extract_path(j, '$.a')", "j -> '$.a'", "j -> 'a' -> 'b'",
    "j -> 0", "(j -> '$.a') IS NULL", "j ->> '$.s'", "j ->> 'a'", "j ->> 0",
    "j ->> '$.a' || '!'", "json_extract_string(j, '$.b[2].c')", "json_extract_string(j, '$.esc')",
    "json_extract_string(j, '$.n')", "json_extract_string(j, '$')",
    "json_extract_string(j, ['$.a', '$.s', '$.n', '$.t'])", "json_extract_string(j, p)",
    "json_extract_path_text(j, '$.a')", "json_value(j, '$.a')", "json_value(j, '$.t')",
    "json_value(j, '$.s')", "json_value(j, '$.n')", "json_value(j, '$[4]')",
    "json_value(j, ['$.a', '$.s'])", "json_exists(j, '$.a')", "json_exists(j, '$.n')",
    "json_exists(j, ['$.a', '$.zz'])", "json_exists(j, p)", "json_type(j)",
    "json_type(j, '$.a')", "json_type(j, ['$.big', '$.u', '$.neg', '$[1]', '$[3]', '$.t'])",
    "json_type(j, p)", "json_array_length(j)", "json_array_length(j, '$.b')",
    "json_array_length(j, ['$.a', '$.b', '$.zz'])", "json_keys(j)", "json_keys(j, '$.a')",
    "json_keys(j, ['$', '$.b'])", "json_valid(j)", "json(j)", "json_contains(j, '1')",
    "json_contains(j, '{\"a\":1}')", "json_contains(j, '[1]')", "json_contains(j, '\"x\"')",
    "json_contains(j, '{\"k\":2}')", "json_contains(j, '[]')", "json_contains('[1,{\"a\":{\"b\":1}}]', j)",
    "json_merge_patch(j, '{\"a\":null,\"new\":[1]}')", "json_merge_patch('{\"keep\":1,\"a\":0}', j)",
    "to_json(j)", "json_quote(j)", "json_array(id, j, p)", "json_object('id', id, 'doc', j, 'p', p)",
    "j::JSON", "j::JSON::VARCHAR", "json_extract(j::JSON, '$.a')", "(j::JSON) ->> '$.s'",
    "json_extract(j, '$.a')::VARCHAR", "json_keys(j::JSON)", "json_type(j::JSON, '$.b')",
    "json_structure(j)", "json_structure(j::JSON)", "json_pretty(j)", "TRY_CAST(p AS JSON)",
    "TRY_CAST(j AS JSON)", "(j::JSON)::VARCHAR = j",
    "json_extract(j, '$.a.b.c')::INTEGER[]", "json_extract(j, '$.x')::BOOLEAN",
    "json_extract(j, '$.dec')::DOUBLE", "json_extract(j, '$.dup')::JSON[]",
    "json_extract(j, '$.a.b')::STRUCT(c BIGINT[])",
    // Builders over columns of every kind.
    "to_json({'id': id, 'l': [id, NULL], 'p': p})", "to_json(id * 1.5)", "to_json(id::DOUBLE / 3)",
    "json_array(id::TINYINT, id::DECIMAL(10, 3) / 7, DATE '2024-01-01' + id::INTEGER, [j], NULL)",
    "json_object('m', MAP {'k' || id: id}, 't', TIMESTAMP '2024-01-01 00:00:00' + to_seconds(id), 'b', id % 2 = 0)",
    "json_object(coalesce(p, 'none'), id)", "to_json([j, p])", "to_json(j::JSON)", "json_array(j::JSON, id)",
    // Wildcards: every match, as a list.
    "json_extract(j, '$[*]')", "json_extract(j, '$.*')", "json_extract(j, '$.b[*]')",
    "json_extract(j, '$.a[*].k')", "json_extract(j, '$..a')", "json_extract(j, '$..c')",
    "json_extract_string(j, '$.*')", "json_type(j, '$[*]')", "json_exists(j, '$.*')",
    "json_value(j, '$[*]')", "json_array_length(j, '$.*')", "json_keys(j, '$.*')",
    "j -> '$[*]'", "j ->> '$.*'",
};

// Expressions without a column: constant folding and literal arguments.
const std::vector<std::string> kConstantExpressions = {
    "json_extract('{\"a\":{\"b\":[1,2]}}', '$.a.b[0]')",
    "'{\"a\":{\"b\":3}}' -> 'a' -> 'b'",
    "'{\"a\":1}' ->> 'a' = '1'",
    "'[1,2]' -> 0 + 1",
    "json_extract('{\"a\":1}', NULL)",
    "json_extract(NULL, '$.a')",
    "json_extract_string('{\"a\":\"x\"}', ['$.a', 'a', '$.b'])",
    "json('[1,]')", "json('{\"a\":1,}')", "json('  {\"a\" : [1, 2] }  ')",
    "json('[1e400, -1e400, 1.5e300, 1e21, 1e-7, 0.000001, 123456789012345678901234.5]')",
    "json('[0.1, 100.0, 1.0E2, -0, 3.14159265358979323846]')",
    "json_valid('')", "json_valid('  ')", "json_valid(NULL)", "json_valid('{\"a\":')",
    "json_valid('[1,]')", "json_valid('{a:1}')", "json_valid('[1] x')",
    "json_object('a', 1, 'b', 'x', 'c', [1, 2], 'd', {'e': 1.5}, 'f', NULL, 'g', true)",
    "json_array(1, 'x', NULL, 2.5::DOUBLE, 1e300::DOUBLE, DATE '2024-01-02')",
    "json_object()", "json_array()",
    "json_array([1, 2], {'a': 'b'}, '{\"a\":1}'::JSON, '{\"a\" : 1}')",
    "json_object('k', '{\"b\":1}'::JSON)",
    "to_json(1)", "to_json('a\"b')", "to_json(DATE '2024-01-02')", "to_json([1, 2])",
    "to_json({'a': [1, NULL]})", "to_json(MAP([1, 2], ['a', 'b']))", "to_json(NULL)",
    "to_json(1.50::DECIMAL(5, 2))", "to_json(1.5::FLOAT)",
    "to_json(TIMESTAMP '2024-01-02 03:04:05.5')", "to_json(INTERVAL 3 DAY)",
    "to_json(12345678901234567890::HUGEINT)", "to_json('nan'::DOUBLE)",
    "to_json(TIME '01:02:03')", "to_json(UUID '123e4567-e89b-12d3-a456-426614174000')",
    "to_json(-0.0::DOUBLE)", "to_json(1e22::DOUBLE)", "to_json(100::TINYINT)",
    "to_json(12345678901234567890.12::DECIMAL(38, 2))", "to_json(true)",
    "to_json('inf'::DOUBLE)", "to_json([]::INTEGER[])", "to_json({'a': NULL})",
    "to_json(MAP {'x': [1]})", "json_quote('a')", "to_json(['a', NULL, 'c\nd'])",
    "json_merge_patch('{\"a\":1,\"b\":{\"c\":2}}', '{\"b\":{\"c\":null,\"d\":3},\"e\":[1]}')",
    "json_merge_patch('[1]', '{\"a\":1}')", "json_merge_patch('{\"a\":1}', '[1]')",
    "json_merge_patch('{\"a\":1}', '{\"b\":2}', '{\"c\":3}')",
    "json_merge_patch('{\"a\":1,\"b\":2}', '{\"a\":null,\"c\":{\"d\":null}}')",
    "json_merge_patch(NULL, '{\"a\":1}')", "json_merge_patch('{\"a\":1}', NULL)",
    "json_merge_patch('1', '2')",
    "json_contains('[1,2,3]', '[1,3]')", "json_contains('{\"a\":[1,2]}', '{\"a\":[2]}')",
    "json_contains('1', '1.0')", "json_contains('{\"a\":1}', '{}')",
    "json_contains(NULL, '1')", "json_contains('{\"a\":\"x\"}', '\"x\"')",
    "'{\"a\":1}'::JSON::VARCHAR", "'  {\"a\" : 1 }'::JSON", "'1'::JSON::INTEGER",
    "' 2.5 '::JSON::DOUBLE", "'\"3\"'::JSON::INTEGER", "'\"x\"'::JSON::VARCHAR",
    "'true'::JSON::BOOLEAN", "'null'::JSON::INTEGER", "1::JSON", "[1, 2]::JSON",
    "{'a': 1}::JSON", "'\"2024-01-02\"'::JSON::DATE", "'12345678901'::JSON::BIGINT",
    "json_type('{\"a\":[1,2.5,\"x\",true,null,{}]}', ['$.a[0]', '$.a[1]', '$.a[2]', '$.a[3]', '$.a[4]', '$.a[5]', '$.b'])",
    "json_array_length('{\"a\":[1,2]}', ['$.a', '$'])", "json_keys('{\"a\":1}', ['$', '$.a'])",
    "json_value('{\"a\":{}}', ['$.a', '$'])", "json_extract('{\"a\":1, \"a\":2}', '$.a')",
    "json_keys('{\"a\":1, \"a\":2}')", "json('{\"a\":1, \"a\":2}')",
    "json('\"\\u00e9\\\\\\\"\\/x\\n\\u0001\\ud83d\\ude00\"')",
    "json_extract_string('\"\\u00e9\\\\\\\"\\/x\\n\"', '$')",
    "json_extract('{\"a/b\":1,\"m~n\":2}', '/a~1b')", "json_extract('{\"a/b\":1,\"m~n\":2}', '/m~0n')",
    "json_extract('{\"\":1}', '/')", "json_extract('[[1,2],[3]]', '/1/0')",
    "json_extract('{\"a\":[1]}', '/a/01')",
    "json_extract('{\"a\":[1,{\"b\":2},[3]],\"c\":{\"d\":4,\"e\":[5]}}', '$.a[*]')",
    "json_extract('{\"a\":[1,{\"b\":2},[3]],\"c\":{\"d\":4,\"e\":[5]}}', '$.c.*')",
    "json_extract('[[1,2],[3]]', '$[*][*]')", "json_extract('{\"a\":1}', '$.*.x')",
    "json_extract('{\"a\":{\"b\":{\"a\":1}},\"c\":[{\"a\":2}]}', '$..a')",
    "json_extract('[]', '$[*]')",
    "json_pretty('{\"a\":[1,{\"b\":null},[]],\"c\":{},\"d\":\"x\\\\ny\"}')", "json_pretty('[[1]]')",
    "'[1,2,null]'::JSON::INTEGER[]", "'{\"a\":1,\"c\":\"x\"}'::JSON::STRUCT(a INTEGER, c VARCHAR)",
    "'{\"a\":[1,2],\"b\":{\"c\":true}}'::JSON::STRUCT(a BIGINT[], b STRUCT(c BOOLEAN))",
    "'{\"k\":1,\"j\":2}'::JSON::MAP(VARCHAR, INTEGER)", "'[[1],[2,3]]'::JSON::INTEGER[][]",
    "'[\"a\", 1, true, {\"x\":1}, [2]]'::JSON::VARCHAR[]", "'[1.5, \"3\", true]'::JSON::INTEGER[]",
    "'null'::JSON::INTEGER[]", "'[]'::JSON::INTEGER[]", "'true'::JSON::INTEGER", "'1.5'::JSON::INTEGER",
    "'[{\"a\":null}]'::JSON::STRUCT(a DOUBLE)[]", "'{\"a\":{\"b\":1}}'::JSON::STRUCT(a JSON)",
    "json_structure('[1, -1]')", "json_structure('[1, 2.5]')", "json_structure('[-1, 2.5]')",
    "json_structure('[1, \"x\"]')", "json_structure('[null, 1]')", "json_structure('[[1],[2.5]]')",
    "json_structure('[{\"a\":1},{\"b\":\"x\"},{\"a\":null}]')", "json_structure('[{\"a\":1}, 1]')",
    "json_structure('[true, 1]')", "json_structure('123456789012345678901234')",
    "json_structure('{\"a\":1,\"a\":\"x\"}')", "json_structure('[[], [1]]')",
    "json_structure('[{}, {\"a\":1}]')", "json_structure('{}')", "json_structure('null')",
    "json_structure('[{\"a\":[1]},{\"a\":[{\"b\":1}]}]')", "json_structure('[{\"A\":1},{\"a\":2}]')",
    "json_structure('{\"x\":{},\"y\":[{}],\"z\":[]}')", "json_structure('[1, -1, 2.5, 99999999999999999999999]')", "json_extract('{\"x\":{\"a\":1},\"a\":2}', '$..a')",
    "json_extract('{\"a\":{\"a\":3},\"b\":{\"a\":4}}', '$..a')",
};

std::string RowQuery(const std::string& expression) {
  return "SELECT id, " + expression + " AS e FROM " + kDocs + " ORDER BY id";
}

TEST(JsonFunctions, RowsEqualDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& e : kRowExpressions) queries.push_back(RowQuery(e));
  testing::ExpectQueriesMatchDuckDB(queries);
}

TEST(JsonFunctions, ConstantsEqualDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& e : kConstantExpressions) queries.push_back("SELECT " + e + " AS e");
  testing::ExpectQueriesMatchDuckDB(queries);
}

TEST(JsonFunctions, FiltersGroupsAndLambdasEqualDuckDB) {
  const std::string docs = kDocs;
  testing::ExpectQueriesMatchDuckDB({
      "SELECT id FROM " + docs + " WHERE json_extract_string(j, '$.a') = '1' ORDER BY id",
      "SELECT id FROM " + docs + " WHERE j ->> 'a' IS NOT NULL ORDER BY id",
      "SELECT id FROM " + docs + " WHERE json_exists(j, '$.a') AND json_type(j) = 'OBJECT' ORDER BY id",
      "SELECT id FROM " + docs + " WHERE json_valid(j) AND json_array_length(j) > 0 ORDER BY id",
      "SELECT json_type(j) AS ty, count(*) AS c FROM " + docs + " GROUP BY ty ORDER BY ty NULLS FIRST",
      "SELECT j ->> '$.a' AS k, count(*) AS c, min(id) AS m FROM " + docs +
          " GROUP BY k ORDER BY m",
      "SELECT json_extract(j, '$.a') AS k, count(*) AS c FROM " + docs +
          " GROUP BY k ORDER BY k NULLS FIRST",
      "SELECT DISTINCT j -> '$.t' AS k FROM " + docs + " ORDER BY k NULLS FIRST",
      "SELECT json_group_array(x) AS a, json_group_object(k, x) AS b FROM (VALUES (1, 'a'), "
          "(NULL, 'b'), (3, 'a')) t(x, k)",
      "SELECT json_group_array(x) AS a, json_group_object(k, x) AS b FROM (SELECT 1 x, 'k' k "
          "WHERE false)",
      "SELECT id % 3 AS g, json_group_array(j) AS a, json_group_object(id::VARCHAR, p) AS o FROM " +
          docs + " GROUP BY g ORDER BY g",
      "SELECT i % 4 AS g, json_group_array(i) AS a, json_group_array({'i': i, 'l': [i]}) AS s FROM "
          "range(40) r(i) GROUP BY g ORDER BY g",
      "SELECT json_array_length(j) AS n, list(id ORDER BY id) AS ids FROM " + docs +
          " GROUP BY n ORDER BY n NULLS FIRST",
      "SELECT list_transform([1, 2, 3], x -> x + 1) AS l, '{\"a\":5}' -> '$.a' AS e",
      "SELECT j -> 'a', j ->> 'a', json_extract(j, 'a'), '{\"b\":1}' -> '$.b', j -> 0 FROM " + docs +
          " ORDER BY id",
      "SELECT list_filter([1, 2, 3], x -> x > 1) AS l, json_extract(j, '$.a') AS e FROM " + docs +
          " ORDER BY id",
      "SELECT id, list_transform([1, 2], x -> json_extract(j, x)) AS e FROM " + docs +
          " ORDER BY id",
      "SELECT id, json_extract(j, p) AS e, json_exists(j, p) AS x FROM " + docs +
          " WHERE p IS NOT NULL ORDER BY id",
      "SELECT count(*) AS c FROM range(3000) r(i) WHERE json_extract_string(json_object('i', i), '$.i')::BIGINT = i",
      "SELECT sum(json_extract(json_array(i, i * 2), 1)::BIGINT) AS s FROM range(5000) r(i)",
      "SELECT i % 3 AS g, count(DISTINCT to_json({'k': i % 5})) AS c FROM range(100) r(i) GROUP BY g ORDER BY g",
  });
}

TEST(JsonFunctions, RefusedLikeDuckDB) {
  testing::ExpectRefusedLikeDuckDB({
      "SELECT '{\"a\":1'::JSON",
      "SELECT 'abc'::VARCHAR::JSON",
      "SELECT json_extract('{\"a\":1}', '$.')",
      "SELECT json_extract('{\"a\":1}', '$[a]')",
      "SELECT json_extract('{\"a\":1}', '$a')",
      "SELECT json('')",
      "SELECT json(' ')",
      "SELECT json_extract('not json', '$.a')",
      "SELECT json_array_length('x')",
      "SELECT json_contains('[1]', 'x')",
      "SELECT json_object('a')",
      "SELECT json_object(1, 2)",
      "SELECT to_json(1, 2)",
      "SELECT json_quote(1, 2)",
      "SELECT json_extract('{\"a\":1}', ['$.a', NULL])",
      "SELECT json_extract('{}', '$.a', '$.b')",
      "SELECT json_extract('[1,[2,3]]', [1])",
      "SELECT json_extract('{\"a\":[1,2]}', ['$.a[*]'])",
      "SELECT '[1]'::JSON::INTEGER",
      "SELECT '[1]'::JSON::STRUCT(a INTEGER)",
      "SELECT '{\"a\":\"x\"}'::JSON::STRUCT(a INTEGER)",
      "SELECT '{}'::JSON::STRUCT(a INTEGER)",
      "SELECT '{\"a\":1,\"b\":2}'::JSON::STRUCT(a INTEGER)",
      "SELECT '1'::JSON::INTEGER[]",
      "SELECT '{\"a\":1}'::JSON::VARCHAR[]",
      "SELECT '{\"a\":1}'::JSON -> '$.a' = '1'",
      "SELECT json('{\"a\":1}{\"b\":2}')",
      "SELECT json('[1e400, -1e400, 01]')",
      "SELECT json_object(p, 1) FROM (VALUES ('a'), (NULL)) t(p)",
      "SELECT json_group_object(k, x) FROM (VALUES (NULL, 1)) t(k, x)",
      "SELECT j::JSON FROM (VALUES ('[1]'), ('['), (NULL)) t(j)",
      "SELECT json_extract(j, '$.a') FROM (VALUES ('{\"a\":1}'), ('{')) t(j)",
      "SELECT json_extract(j, p) FROM (VALUES ('{\"a\":1}', '$.a'), ('[1]', '$[')) t(j, p)",
  });
}

}  // namespace
}  // namespace tarn
