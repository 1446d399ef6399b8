#!/usr/bin/env bash
# Starts a throwaway Glewlwyd 2.7 (Debian 12's package) on a free 127.0.0.1 port with its own SQLite database and
# prints "PID PORT DIR"; stop it with `kill PID` and remove DIR. Installs the package when missing, working around
# its packaging faults (docs/security.md, "OpenID Connect", how CI tests it):
# - dbconfig-no-thanks makes the postinst fail (it edits a glewlwyd-db.conf never written): use dbconfig-sqlite3;
# - the postinst may start glewlwyd.service on port 4593: we never use that port;
# - the login page is not served by default and webapp/config.json links to a directory: copy the webapp with -L
#   and put the template config.json in its place;
# - use_secure_connection is left out entirely (set to false without certificates it stops start-up).
set -euo pipefail
PORT="${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
DIR="${DIR:-$(mktemp -d)}"
export DEBIAN_FRONTEND=noninteractive
if ! command -v glewlwyd >/dev/null; then
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends glewlwyd dbconfig-sqlite3 sqlite3 </dev/null >/dev/null
fi
rm -rf "$DIR/webapp"; cp -rL /usr/share/glewlwyd/webapp "$DIR/webapp"; rm -rf "$DIR/webapp/config.json"
cp /usr/share/glewlwyd/templates/config.json "$DIR/webapp/config.json"
rm -f "$DIR/glewlwyd.db"
sqlite3 "$DIR/glewlwyd.db" < /usr/share/dbconfig-common/data/glewlwyd/install/sqlite3   # seeds admin / password
cat > "$DIR/glewlwyd.conf" <<CONF
port=$PORT
bind_address="127.0.0.1"
external_url="http://127.0.0.1:$PORT"
login_url="login.html"
static_files_path="$DIR/webapp/"
api_prefix="api"
allow_origin="*"
log_mode="file"
log_level="INFO"
log_file="$DIR/glewlwyd.log"
cookie_secure=0
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database = { type = "sqlite3"; path = "$DIR/glewlwyd.db"; };
static_files_mime_types = (
  { extension = ".html"; mime_type = "text/html"; },  { extension = ".css"; mime_type = "text/css"; },
  { extension = ".js"; mime_type = "application/javascript"; },  { extension = ".json"; mime_type = "application/json"; },
  { extension = ".png"; mime_type = "image/png"; },  { extension = ".ico"; mime_type = "image/x-icon"; },
  { extension = ".woff2"; mime_type = "font/woff2"; },  { extension = ".woff"; mime_type = "font/woff"; },
  { extension = ".ttf"; mime_type = "font/ttf"; },  { extension = ".svg"; mime_type = "image/svg+xml"; }
);
CONF
glewlwyd --config-file="$DIR/glewlwyd.conf" </dev/null >"$DIR/stdout" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/config.json" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$DIR/stdout" "$DIR/glewlwyd.log" >&2 || true; exit 1; }
  sleep 0.1
done
echo "$pid $PORT $DIR"
