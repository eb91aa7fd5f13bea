#!/usr/bin/env bash
# tarn's main job: sets up, builds the release binary, and tours a DuckLake lake on the embedded
# default (SQLite catalog, local data directory) in ./demo-lake: load flights-3m, query, delete,
# update, look rows up by rowid, read the change feed, travel back in time, rewrite the files
# sorted, and check that the first snapshot still holds exactly the loaded file. The lake stays
# for the interactive shell; each run starts it afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-setup" ]; then
  scripts/setup.sh
  scripts/build.sh release
fi
flights="$PWD/tools/oracle/node_modules/vega-datasets/data/flights-3m.parquet"
work="$PWD/demo-lake"
rm -rf "$work"
mkdir -p "$work"
lake="ducklake:sqlite:$work/lake.sqlite"
set -x
build/tarn parquet meta "$flights"
build/tarn "$lake" --data-path "$work/data" -c "CREATE TABLE flights AS SELECT * FROM '$flights'"
build/tarn "$lake" -c "SHOW TABLES" -c "DESCRIBE flights"
build/tarn "$lake" -c "SELECT origin, count(*) AS flights, avg(delay) AS avg_delay, max(distance)
                       FROM flights GROUP BY origin ORDER BY flights DESC LIMIT 10"
build/tarn "$lake" -c "BEGIN" \
                   -c "DELETE FROM flights WHERE delay > 1000" \
                   -c "UPDATE flights SET delay = 0 WHERE delay < -60" \
                   -c "CALL ducklake_set_commit_message('lake', 'tarn', 'drop outliers')" \
                   -c "COMMIT"
build/tarn "$lake" -c "SELECT rowid, * FROM flights WHERE origin = 'SFO' AND delay > 300 ORDER BY rowid LIMIT 5"
build/tarn "$lake" -c "SELECT snapshot_id, changes, author, commit_message FROM ducklake_snapshots()" \
                   -c "SELECT change_type, count(*) FROM ducklake_table_changes('main', 'flights', 2, 2)
                       GROUP BY change_type ORDER BY change_type"
build/tarn "$lake" -c "SELECT count(*) FROM flights AT (VERSION => 1)" \
                   -c "SELECT count(*) FROM flights" \
                   -c "SELECT * FROM ducklake_list_files('flights')" --format line
build/tarn "$lake" -c "ALTER TABLE flights SET SORTED BY (origin, date)" \
                   -c "CALL ducklake_rewrite_data_files('lake', 'flights', delete_threshold => 0)" \
                   -c "SELECT origin, count(*) FROM flights GROUP BY origin ORDER BY 2 DESC LIMIT 3" \
                   -c "SELECT count(*) FROM flights AT (VERSION => 1)"
find "$work/data" -type f | sort
{ set +x; } 2>/dev/null
original=$(build/tarn --format csv -c "SELECT * FROM '$flights'" | md5sum)
first=$(build/tarn "$lake" --format csv -c "SELECT * FROM flights AT (VERSION => 1) ORDER BY rowid" | md5sum)
if [ "$original" != "$first" ]; then
  echo "snapshot 1 of the lake differs from flights-3m.parquet" >&2
  exit 1
fi
echo "snapshot 1 of the lake equals flights-3m.parquet ($original)"
echo "The lake stays in ./demo-lake. Open it in the shell:"
echo "  build/tarn ducklake:sqlite:demo-lake/lake.sqlite"
echo "  (then: .tables, SELECT * FROM flights LIMIT 5; .help)"
