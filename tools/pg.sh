# A throwaway PostgreSQL server for the tests and benches (sourced by ./dev).
#   pg_start   initdb + start on a free loopback port as an unprivileged user; exports
#              GOFER_TEST_PG_URL (the server's `postgres` database, trust auth)
#   pg_stop    stop it and remove its directory (pg_start arranges this at exit)
# Debian's PostgreSQL binaries are used (the `postgresql` package, installed if absent).

PG_BIN="${GOFER_PG_BIN:-}"

pg_find_bin() {
    if [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ]; then return 0; fi
    local found
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -z "$found" ] || [ ! -x "$found/initdb" ]; then
        apt_install postgresql
        found="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    fi
    PG_BIN="$found"
}

pg_as_owner() {
    # root may not run PostgreSQL: run as the unprivileged owner of the data directory
    if [ "$(id -u)" -eq 0 ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}

pg_start() {
    pg_find_bin
    if [ "$(id -u)" -eq 0 ]; then
        PG_USER=gofer-pg
        id -u "$PG_USER" >/dev/null 2>&1 || useradd --system --no-create-home \
            --shell /usr/sbin/nologin "$PG_USER"
    else
        PG_USER="$(id -un)"
    fi
    PG_DIR="$(mktemp -d /tmp/gofer-pg.XXXXXX)"
    chown "$PG_USER" "$PG_DIR" 2>/dev/null || true
    chmod 700 "$PG_DIR"
    local port
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    pg_as_owner "$PG_BIN/initdb" -D "$PG_DIR/data" -U gofer -A trust -E UTF8 --no-sync \
        >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 \
            -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null || { cat "$PG_DIR/server.log" >&2; return 1; }
    export GOFER_TEST_PG_URL="postgresql://gofer@127.0.0.1:$port/postgres"
    trap pg_stop EXIT
    echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $port for the tests" >&2
}

pg_stop() {
    if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ]; then
        pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$PG_DIR"
    fi
    PG_DIR=""
}
