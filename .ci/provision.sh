#!/usr/bin/env bash
# Provision the test servers seqgen's integration tests need, on Debian 12:
#   PostgreSQL  localhost:5432   db seqgen_test, user seqgen / seqgen
#   MariaDB     127.0.0.1:3306   db seqgen_test, user seqgen / seqgen
#   Spanner emulator (gRPC) localhost:9010
# (user seqgen may also create databases named seqgen_test_*: test JVMs that share a server each use their own,
# see seqgentest.database.suffix in docs/testing.md) and hand back the SEQGENTEST_* / SPANNER_* environment variables.
#
# Usage (as root, or as a user with sudo):
#   source .ci/provision.sh          # bash: provision, then export the variables into this shell
#   eval "$(.ci/provision.sh)"       # any POSIX shell: same thing
#   .ci/provision.sh                 # provision only; prints the `export ...` lines on stdout
#
# Progress goes to stderr (one line per step); only the export lines go to stdout.
# Every step is idempotent, so running this again is cheap. Installs missing
# servers from Debian packages (apt-get), never touches anything else.
# Logs: /tmp/seqgen-*.log (and the usual /var/log/postgresql/*.log).

# --- sourced: run the real script in a child bash (so its `set -e` etc. stay out of
# --- the caller's shell) and export what it prints.
if [ -n "${BASH_VERSION:-}" ] && [ "${BASH_SOURCE[0]}" != "$0" ]; then
  if __seqgen_env="$(bash "${BASH_SOURCE[0]}")"; then
    eval "$__seqgen_env"
    unset __seqgen_env
    return 0
  else
    unset __seqgen_env
    echo "provision: FAILED (see messages above)" >&2
    return 1
  fi
fi

set -euo pipefail


PG_PORT=5432
MARIADB_PORT=3306
SPANNER_PORT=9010
DB=seqgen_test
DB_USER=seqgen
DB_PASSWORD=seqgen
LOG_DIR=${SEQGEN_CI_LOG_DIR:-/tmp}
APT_TIMEOUT=${SEQGEN_CI_APT_TIMEOUT:-900}      # seconds, per apt-get call
START_TIMEOUT=${SEQGEN_CI_START_TIMEOUT:-60}   # seconds, per server start

T0=$SECONDS
say()  { printf 'provision: %s\n' "$*"; }
die()  { printf 'provision: ERROR: %s\n' "$*"; exit 1; }

if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); sudo -v; fi
as_root()     { "${SUDO[@]}" "$@"; }

# Server processes must not inherit any descriptor of ours beyond 0-2 (a CI runner or a
# `$(...)` caller waits until every copy of its pipe is closed, i.e. forever).
close_extra_fds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
  done 2>/dev/null
  return 0
}
# no_leak LOG CMD...: run CMD (which daemonizes, e.g. pg_ctlcluster) with output to LOG
# and no extra inherited descriptors; waits for CMD itself.
no_leak() { local log=$1; shift; ( exec </dev/null >"$log" 2>&1; close_extra_fds; exec "$@" ); }
# detach LOG CMD...: start CMD in the background in its own session, output to LOG.
detach()  { local log=$1; shift; ( exec </dev/null >>"$log" 2>&1; close_extra_fds; exec setsid "$@" ) & }
as_postgres() { (cd / && as_root runuser -u postgres -- "$@"); }

# port_open HOST PORT: does a TCP connect succeed?
port_open() { timeout 2 bash -c ": </dev/tcp/$1/$2" 2>/dev/null; }

# wait_for DESCRIPTION SECONDS COMMAND...: poll COMMAND every 0.25 s until it succeeds.
wait_for() {
  local what=$1 secs=$2; shift 2
  local deadline=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "ERROR: timed out after ${secs}s waiting for $what"
      return 1
    fi
    sleep 0.25
  done
}

apt_install() {
  command -v apt-get >/dev/null || die "apt-get not found; install $* by hand"
  say "installing $* from Debian packages (apt-get, up to ${APT_TIMEOUT}s per call)"
  local log="$LOG_DIR/seqgen-apt.log"
  # DPkg::Lock::Timeout: wait for a concurrent apt/dpkg run instead of failing at once.
  if ! as_root timeout "$APT_TIMEOUT" apt-get -o DPkg::Lock::Timeout=600 update >>"$log" 2>&1 ||
     ! as_root env DEBIAN_FRONTEND=noninteractive timeout "$APT_TIMEOUT" \
         apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends --no-upgrade "$@" </dev/null >>"$log" 2>&1; then
    tail -n 20 "$log"
    die "apt-get install $* failed (full log: $log)"
  fi
}

# ---------------------------------------------------------------- PostgreSQL
provision_postgres() {
  if ! command -v pg_lsclusters >/dev/null || [ -z "$(ls /usr/lib/postgresql/*/bin/postgres 2>/dev/null)" ]; then
    apt_install postgresql
  fi

  # Use the cluster on port 5432 if there is one, else create <newest installed version>/main.
  local ver name
  read -r ver name < <(pg_lsclusters -h | awk -v p="$PG_PORT" '$3 == p { print $1, $2; exit }') || true
  if [ -z "${ver:-}" ]; then
    ver=$(ls /usr/lib/postgresql | sort -n | tail -n 1); name=main
    if pg_lsclusters -h | awk '{print $1"/"$2}' | grep -qx "$ver/$name"; then
      die "PostgreSQL cluster $ver/$name exists but not on port $PG_PORT (see pg_lsclusters)"
    fi
    as_root pg_createcluster --port="$PG_PORT" "$ver" "$name" >"$LOG_DIR/seqgen-postgres-create.log" 2>&1 ||
      { cat "$LOG_DIR/seqgen-postgres-create.log"; die "pg_createcluster $ver $name failed"; }
    say "postgres: created cluster $ver/$name"
  fi

  # Test-speed settings. conf.d is included last by Debian's postgresql.conf; written before
  # the (first) start so no restart is needed on a fresh machine.
  local conf_dir="/etc/postgresql/$ver/$name/conf.d" conf_changed=false
  local conf
  conf=$(cat <<EOF
# Written by seqgen .ci/provision.sh -- test-only settings, NOT for production.
listen_addresses = 'localhost'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
)
  if [ "$(cat "$conf_dir/90-seqgen-ci.conf" 2>/dev/null)" != "$conf" ]; then
    as_root install -d "$conf_dir"
    printf '%s\n' "$conf" | as_root tee "$conf_dir/90-seqgen-ci.conf" >/dev/null
    conf_changed=true
  fi

  local state
  if as_root pg_ctlcluster "$ver" "$name" status >/dev/null 2>&1; then
    state="was running"
  else
    # pg_ctlcluster redirects to systemctl by itself when systemd is PID 1.
    no_leak "$LOG_DIR/seqgen-postgres-start.log" "${SUDO[@]}" pg_ctlcluster "$ver" "$name" start || {
      cat "$LOG_DIR/seqgen-postgres-start.log"; tail -n 20 "/var/log/postgresql/postgresql-$ver-$name.log" 2>/dev/null
      die "pg_ctlcluster $ver $name start failed"; }
    state="started"
  fi
  wait_for "PostgreSQL on localhost:$PG_PORT" "$START_TIMEOUT" pg_isready -q -h localhost -p "$PG_PORT" ||
    { tail -n 20 "/var/log/postgresql/postgresql-$ver-$name.log" 2>/dev/null; die "PostgreSQL not ready"; }

  # A server that was already running may still have old settings (or ALTER SYSTEM values).
  psql_su() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PG_PORT" -Atc "$1"; }
  local settings want="300|off|off"
  settings=$(psql_su "SELECT current_setting('max_connections')||'|'||current_setting('fsync')||'|'||current_setting('synchronous_commit')")
  if [ "$settings" != "$want" ]; then
    if [ "${settings%%|*}" != 300 ]; then
      no_leak "$LOG_DIR/seqgen-postgres-start.log" "${SUDO[@]}" pg_ctlcluster "$ver" "$name" restart ||
        { cat "$LOG_DIR/seqgen-postgres-start.log"; die "pg_ctlcluster $ver $name restart failed"; }
      wait_for "PostgreSQL restart" "$START_TIMEOUT" pg_isready -q -h localhost -p "$PG_PORT" || die "PostgreSQL not ready after restart"
      state="$state, restarted for max_connections"
    else
      psql_su "SELECT pg_reload_conf()" >/dev/null
      state="$state, reloaded"
    fi
    settings=$(psql_su "SELECT current_setting('max_connections')||'|'||current_setting('fsync')||'|'||current_setting('synchronous_commit')")
    [ "$settings" = "$want" ] || die "PostgreSQL settings max_connections|fsync|synchronous_commit are '$settings', want '$want' (check postgresql.auto.conf / ALTER SYSTEM)"
  elif $conf_changed && [ "$state" = "was running" ]; then
    psql_su "SELECT pg_reload_conf()" >/dev/null
  fi

  psql_su "DO \$\$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$DB_USER') THEN
        CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASSWORD';
      ELSE
        ALTER ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASSWORD';
      END IF;
    END \$\$;" >/dev/null
  if [ "$(psql_su "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
    psql_su "CREATE DATABASE $DB OWNER $DB_USER" >/dev/null
  fi
  psql_su "ALTER DATABASE $DB OWNER TO $DB_USER; GRANT ALL ON DATABASE $DB TO $DB_USER" >/dev/null

  # The check the tests will do: password login over TCP.
  PGCONNECT_TIMEOUT=5 psql -X -q -v ON_ERROR_STOP=1 \
      "postgresql://$DB_USER:$DB_PASSWORD@localhost:$PG_PORT/$DB" -Atc 'select 1' >/dev/null ||
    die "cannot log in to PostgreSQL as $DB_USER over TCP (check pg_hba.conf of cluster $ver/$name)"
  say "postgres: cluster $ver/$name $state on localhost:$PG_PORT; db $DB, user $DB_USER ok"
}

# ---------------------------------------------------------------- MariaDB
provision_mariadb() {
  if ! command -v mariadbd >/dev/null && [ ! -x /usr/sbin/mariadbd ]; then
    apt_install mariadb-server
  fi

  # Settings that survive a restart (90- sorts after Debian's 50-server.cnf).
  local cnf=/etc/mysql/mariadb.conf.d/90-seqgen-ci.cnf conf
  conf=$(cat <<EOF
# Written by seqgen .ci/provision.sh -- test-only settings, NOT for production.
[mariadbd]
bind-address = 127.0.0.1
port = $MARIADB_PORT
max_connections = 300
innodb_flush_log_at_trx_commit = 2
EOF
)
  if [ "$(cat "$cnf" 2>/dev/null)" != "$conf" ]; then
    printf '%s\n' "$conf" | as_root tee "$cnf" >/dev/null
  fi

  local state
  if as_root mariadb-admin --protocol=socket ping >/dev/null 2>&1; then
    state="was running"
  else
    if [ -d /run/systemd/system ]; then
      as_root systemctl start mariadb || die "systemctl start mariadb failed (journalctl -u mariadb)"
    else
      # No systemd: start mysqld_safe ourselves (the SysV script logs only to syslog,
      # which is usually absent in containers). Fully detached so it holds no pipe of ours.
      local errlog="$LOG_DIR/seqgen-mariadb.err"
      [ -d /var/lib/mysql/mysql ] ||
        as_root mariadb-install-db --user=mysql --datadir=/var/lib/mysql >"$LOG_DIR/seqgen-mariadb-install-db.log" 2>&1 ||
        { cat "$LOG_DIR/seqgen-mariadb-install-db.log"; die "mariadb-install-db failed"; }
      as_root install -d -m 755 -o mysql -g root /run/mysqld
      as_root touch "$errlog"; as_root chown mysql "$errlog"
      detach "$LOG_DIR/seqgen-mariadb-safe.log" "${SUDO[@]}" mysqld_safe --skip-syslog --log-error="$errlog"
    fi
    if ! wait_for "MariaDB to answer on its socket" "$START_TIMEOUT" as_root mariadb-admin --protocol=socket ping; then
      tail -n 20 "$LOG_DIR/seqgen-mariadb.err" 2>/dev/null
      die "MariaDB did not start (log: $LOG_DIR/seqgen-mariadb.err)"
    fi
    state="started"
  fi

  # root over the unix socket (unix_socket auth as OS root).
  as_root mariadb --protocol=socket -e "
    SET GLOBAL innodb_flush_log_at_trx_commit = 2;
    SET GLOBAL max_connections = 300;
    CREATE DATABASE IF NOT EXISTS $DB;
    CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
    CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
    ALTER USER '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
    ALTER USER '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
    GRANT ALL PRIVILEGES ON $DB.* TO '$DB_USER'@'localhost';
    GRANT ALL PRIVILEGES ON $DB.* TO '$DB_USER'@'127.0.0.1';
    GRANT ALL PRIVILEGES ON \`${DB}\\_%\`.* TO '$DB_USER'@'localhost';
    GRANT ALL PRIVILEGES ON \`${DB}\\_%\`.* TO '$DB_USER'@'127.0.0.1';
    FLUSH PRIVILEGES;" || die "MariaDB user/database setup failed"

  # The check the tests will do: password login over TCP (not the socket).
  mariadb --protocol=tcp -h 127.0.0.1 -P "$MARIADB_PORT" --connect-timeout=5 \
      -u "$DB_USER" -p"$DB_PASSWORD" "$DB" -e 'select 1' >/dev/null ||
    die "cannot log in to MariaDB as $DB_USER over TCP 127.0.0.1:$MARIADB_PORT (skip-networking or bind-address set elsewhere in /etc/mysql?)"
  say "mariadb: server $state on 127.0.0.1:$MARIADB_PORT; db $DB, user $DB_USER ok"
}

# ---------------------------------------------------------------- Spanner emulator
provision_spanner() {
  if port_open localhost "$SPANNER_PORT"; then
    say "spanner: something already listens on localhost:$SPANNER_PORT, using it"
    return
  fi
  local bin
  bin=$(dpkg -L google-cloud-cli-spanner-emulator 2>/dev/null | grep '/emulator_main$' | head -n 1) || true
  [ -n "$bin" ] || bin=$(command -v emulator_main 2>/dev/null) || true
  [ -n "$bin" ] && [ -x "$bin" ] ||
    die "Spanner emulator not found: install the Debian package google-cloud-cli-spanner-emulator (Google Cloud apt repo)"

  local log="$LOG_DIR/seqgen-spanner-emulator.log" pidfile="$LOG_DIR/seqgen-spanner-emulator.pid"
  # Fully detached (own session, no inherited pipes) so it outlives this script and the CI step.
  echo "--- $(date '+%F %T') starting $bin --host_port=localhost:$SPANNER_PORT" >>"$log"
  detach "$log" "$bin" --host_port="localhost:$SPANNER_PORT"
  local pid=$!
  echo "$pid" >"$pidfile"
  local deadline=$((SECONDS + START_TIMEOUT))
  until port_open localhost "$SPANNER_PORT"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 20 "$log"; die "Spanner emulator exited during startup (log: $log)"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      tail -n 20 "$log"; die "Spanner emulator not listening on localhost:$SPANNER_PORT after ${START_TIMEOUT}s (log: $log)"
    fi
    sleep 0.25
  done
  say "spanner: emulator started (pid $pid) on localhost:$SPANNER_PORT, log $log"
}

main() {
  provision_postgres
  provision_mariadb
  provision_spanner
}

# Provision with stdout pointing at stderr and stdin at /dev/null (in a subshell, so bash
# keeps no saved copy of the real stdout that a background child could inherit).
( exec </dev/null >&2; main )

cat <<EOF
export SEQGENTEST_POSTGRES_URL='jdbc:postgresql://localhost:$PG_PORT/$DB'
export SEQGENTEST_POSTGRES_USER='$DB_USER'
export SEQGENTEST_POSTGRES_PASSWORD='$DB_PASSWORD'
export SEQGENTEST_MARIADB_URL='jdbc:mariadb://127.0.0.1:$MARIADB_PORT/$DB'
export SEQGENTEST_MARIADB_USER='$DB_USER'
export SEQGENTEST_MARIADB_PASSWORD='$DB_PASSWORD'
export SPANNER_EMULATOR_HOST='localhost:$SPANNER_PORT'
export GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS='false'
export GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW='false'
export SEQGENTEST_REQUIRE_DATABASES='true'
EOF
say "done in $((SECONDS - T0))s" >&2
