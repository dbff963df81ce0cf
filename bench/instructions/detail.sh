#!/bin/bash
# Instructions per firearm-detail request at 100,000 synthetic firearms, for one armory binary,
# counted by callgrind (repeatable on a shared box, unlike a rate). Usage:
#   bench/instructions/detail.sh NAME path/to/release/armory [SCRATCH_DIR]
# N (default 3000) sets the counted requests; VG_EXTRA adds valgrind flags (for example
# "--cache-sim=yes --branch-sim=yes"). Prints the connection tasks' instructions per request.
# See bench/README.md ("The detail's 8%, counted").
set -e
name=$1; bin=$(realpath "$2"); scratch=${3:-/tmp/armory-instructions}; n=${N:-3000}
here=$(dirname "$(realpath "$0")")
dir=$scratch/$name; rm -rf "$dir"; mkdir -p "$dir"
db=sqlite://$dir/synth.db
[ -d "$scratch/synth" ] || "$bin" catalog synth --firearms 100000 --seed 1 "$scratch/synth" > /dev/null
ARMORY_DATABASE_URL=$db "$bin" catalog import "$scratch/synth" > /dev/null
account=$(ARMORY_DATABASE_URL=$db "$bin" accounts create --email "instructions-$name@armory.local" --plan enterprise | grep -o 'acct_[0-9a-f]*' | head -1)
key=$(ARMORY_DATABASE_URL=$db "$bin" keys create --account "$account" | grep -o 'ak_[0-9a-f]*' | head -1)
port=$((18000 + RANDOM % 1000))
export ARMORY_DATABASE_URL=$db ARMORY_BIND=127.0.0.1:$port ARMORY_ENV=bench
export ARMORY_PLAN_LIMITS="enterprise.per_minute=1000000000,enterprise.per_day=1000000000"
# A first start natively builds and persists the snapshot, which the start under callgrind reuses.
"$bin" serve --no-worker > "$dir/native.log" 2>&1 &
pid=$!
until curl -sf "http://127.0.0.1:$port/ready" > /dev/null; do sleep 0.5; done
until ls "$dir"/synth.db.snapshots/*.msgpack > /dev/null 2>&1; do sleep 0.5; done
sleep 3
id=$(curl -s -H "x-api-key: $key" "http://127.0.0.1:$port/v1/firearms?category=rifles&per_page=1" \
  | python3 -c "import json,sys;print(json.load(sys.stdin)['data'][0]['id'])")
kill $pid; wait $pid || true
valgrind --tool=callgrind ${VG_EXTRA} --instr-atstart=no --callgrind-out-file="$dir/callgrind.out.%p" \
  "$bin" serve --no-worker > "$dir/callgrind.log" 2>&1 &
vpid=$!
until curl -sf "http://127.0.0.1:$port/ready" > /dev/null; do sleep 1; done
# The lazy indexes (text index, arsenals) are built once on a low-priority thread: wait for them.
curl -sf -H "x-api-key: $key" "http://127.0.0.1:$port/v1/firearms/by-material?material=steel" > /dev/null
curl -sf -H "x-api-key: $key" "http://127.0.0.1:$port/v1/countries/US/arsenal" > /dev/null
python3 "$here/keep_alive_load.py" $port "/v1/firearms/$id" "$key" 500 > /dev/null   # warm-up
callgrind_control -i on $vpid > /dev/null
python3 "$here/keep_alive_load.py" $port "/v1/firearms/$id" "$key" "$n"
callgrind_control -i off $vpid > /dev/null
kill $vpid; wait $vpid || true
out=$(ls -t "$dir"/callgrind.out.* | head -1)
serving=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null \
  | grep -m1 "armory::http::server::serve::{{closure}}::{{closure}} " | awk '{gsub(",","",$1); print $1}')
echo "$name: $((serving / n)) instructions per detail request in the connection tasks ($out)"
