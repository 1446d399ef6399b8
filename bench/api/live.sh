#!/usr/bin/env bash
# Live sync at scale (issue 13), on a release build and a fresh database: 1,000 long polls (longpoll.py) and then
# 1,000 event streams (streams.py) parked on one server, each woken by one commit; prints how soon after the commit
# the last of them had the change. Prints figures; asserts nothing. Do not run it while builds run.
#   bench/api/live.sh [CLIENTS]        # default 1000
set -euo pipefail
cd "$(dirname "$0")/../.."
here=bench/api
clients="${1:-1000}"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
source "$here/caresync-server.sh"
caresync_prepare
# One stream or poll per connection, all of one token from one address: more than the default rate budget
# of one token, its share of waits and one address's share of connections.
export CARESYNC_RATE_LIMIT_TOKEN_REQUESTS_PER_SECOND=0 CARESYNC_RATE_LIMIT_WAITS_PER_TOKEN=0 CARESYNC_MAX_CONNECTIONS_PER_ADDRESS=0
"$bin" patient create live >/dev/null
device="$("$bin" token create --role device --patient live 2>/dev/null)"
writer="$("$bin" token create --role device --patient live --source org.example.writer 2>/dev/null)"
caresync_serve
echo "== $clients long polls"
python3 "$here/longpoll.py" "$url" "$device" live "$writer" "$clients"
echo "== $clients event streams"
python3 "$here/streams.py" "$url" "$device" live "$writer" "$clients"
