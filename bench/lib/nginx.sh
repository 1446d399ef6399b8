# Sourced by the benchmarks that run nginx beside CareSync: bench/http/run.sh, bench/api/door.sh, bench/webhooks/run.sh.
#   nginx_start DIR PORT ACCESS_LOG LOCATION [WORKERS [CONNECTIONS]]
#       writes DIR/nginx.conf (one server on 127.0.0.1:PORT with the LOCATION block; ACCESS_LOG `on` logs every request
#       to DIR/access.log, `off` logs none; WORKERS worker processes, default auto; CONNECTIONS per worker, default
#       20000), starts nginx in the foreground as a child of this shell, sets $nginx_pid and returns once it listens
#       (exits 1 when it does not start); error log and pid file in DIR
#   nginx_stop
#       SIGTERM, and waits for nginx to exit; does nothing when none was started
nginx_pid=""

nginx_start() {
  local dir="$1" port="$2" access_log="$3" location="$4" workers="${5:-auto}" connections="${6:-20000}"
  case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
  [ "$access_log" = on ] && access_log="$dir/access.log"
  mkdir -p "$dir"
  cat > "$dir/nginx.conf" <<CONF
worker_processes $workers;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections $connections; }
http {
  access_log $access_log;
  keepalive_requests 10000000;
  keepalive_timeout 75s;
  server {
    listen 127.0.0.1:$port;
    $location
  }
}
CONF
  rm -f "$dir/nginx.pid"
  nginx -c "$dir/nginx.conf" -p "$dir" &
  nginx_pid=$!
  # nginx writes its pid file once its socket listens; a taken port makes it retry for seconds, then exit.
  for _ in $(seq 1 100); do
    [ "$(cat "$dir/nginx.pid" 2>/dev/null)" = "$nginx_pid" ] && return 0
    kill -0 "$nginx_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "nginx did not start on port $port"; cat "$dir/error.log" 2>/dev/null
  exit 1
}

nginx_stop() {
  [ -n "$nginx_pid" ] || return 0
  kill -TERM "$nginx_pid" 2>/dev/null || true
  wait "$nginx_pid" 2>/dev/null || true
  nginx_pid=""
}
