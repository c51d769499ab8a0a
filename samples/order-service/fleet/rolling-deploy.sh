#!/usr/bin/env bash
# A fleet of the sample on one PostgreSQL database: three replicas from the jar, each under load, then
#   phase 1: a rolling deploy, ROUNDS rounds (each replica in turn stopped with SIGTERM and started again), then
#            every replica stopped with SIGTERM;
#   phase 2: three replicas again under load, one killed with SIGKILL and started again, then every replica
#            stopped with SIGTERM.
# After each phase it reads the database: for each batch and async-batch sequence, the values reserved (the row),
# used (the rows of the entity tables), kept for the fleet (the table of kept ranges) and lost (the rest); and the
# invoice numbers, which must be exactly 1..n in each series (company, year). Phase 1 must lose nothing; phase 2 loses at most what README's
# strategy table says a crash costs. Each replica's log (LOG_DIR) holds its shut-down report, one INFO line per
# sequence.
#
# Usage, from the repository root, with the PostgreSQL server of .ci/provision.sh (or PG* variables for another):
#   ./mvnw -q -B -pl samples/order-service -am package -DskipTests
#   bash samples/order-service/fleet/rolling-deploy.sh
# Settings (environment): ROUNDS (3), LOG_DIR (target/fleet), PORTS ("8081 8082 8083"), JAR (the sample's jar).
# It empties the sample's tables and sequence rows in the database first.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
ROUNDS=${ROUNDS:-3}
LOG_DIR=${LOG_DIR:-samples/order-service/target/fleet}
read -r -a PORTS <<< "${PORTS:-8081 8082 8083}"
JAR=${JAR:-$(ls samples/order-service/target/seqgen-sample-order-service-*.jar | grep -v -- '-plain\|sources\|javadoc' | head -1)}
export PGHOST=${PGHOST:-localhost} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-seqgen} PGPASSWORD=${PGPASSWORD:-seqgen}
# A database of its own (created if missing, as the postgres superuser when the seqgen user may not), so that no test
# run on seqgen_test empties the fleet's tables under it.
export PGDATABASE=${PGDATABASE:-seqgen_fleet}
SEQUENCE_TABLE=seqgen_sample_sequences

mkdir -p "$LOG_DIR"
declare -A PIDS LOADERS LOGS
STARTS=0

sql() { psql -X -q -t -A -v ON_ERROR_STOP=1 -c "$1"; }
say() { printf 'fleet: %s\n' "$*" >&2; }

# launch PORT: starts a replica in the background; await PORT: waits until it reports itself ready (readiness, which
# seqgen holds back until the first blocks of the sample's sequences are in hand).
launch() {
  local port=$1
  STARTS=$((STARTS + 1))
  java -jar "$JAR" --spring.profiles.active=postgres --server.port="$port" \
      --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$PGDATABASE" \
      --spring.datasource.username="$PGUSER" --spring.datasource.password="$PGPASSWORD" \
      --management.endpoint.health.probes.enabled=true >"$LOG_DIR/replica-$port.start-$STARTS.log" 2>&1 &
  PIDS[$port]=$!
  LOGS[$port]="$LOG_DIR/replica-$port.start-$STARTS.log"
}

await() {
  local port=$1
  local deadline=$((SECONDS + 180))
  until curl -fs "localhost:$port/actuator/health/readiness" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "${PIDS[$port]}" 2>/dev/null; then
      say "replica on port $port did not become ready; see ${LOGS[$port]}"
      exit 1
    fi
    sleep 0.5
  done
  say "replica on port $port ready (pid ${PIDS[$port]})"
}

start_replica() {
  launch "$1"
  await "$1"
}

stop_replica() {
  local port=$1 signal=$2
  kill "-$signal" "${PIDS[$port]}"
  wait "${PIDS[$port]}" 2>/dev/null || true
  say "replica on port $port stopped by SIG$signal"
}

# One loop per replica: an order with two lines, then its invoice; a refused request (the replica restarting) is
# simply tried again later. Runs until its stop file appears.
load() {
  local port=$1
  while [ ! -e "$LOG_DIR/stop-load" ]; do
    local location
    location=$(curl -fs -o /dev/null -w '%header{location}' -X POST "localhost:$port/orders" \
        -H 'Content-Type: application/json' \
        -d '{"customer":"Fleet","lines":[{"product":"tea","quantity":2,"unitPrice":4.50},{"product":"scones","quantity":1,"unitPrice":1.25}]}' \
        2>/dev/null) || { sleep 0.2; continue; }
    [ -n "$location" ] && curl -fs -o /dev/null -X POST "localhost:$port${location#*$port}/invoice" 2>/dev/null || true
  done
}

start_load() {
  rm -f "$LOG_DIR/stop-load"
  for port in "${PORTS[@]}"; do
    load "$port" &
    LOADERS[$port]=$!
  done
}

stop_load() {
  touch "$LOG_DIR/stop-load"
  for port in "${PORTS[@]}"; do wait "${LOADERS[$port]}" 2>/dev/null || true; done
}

kept_table_exists() {
  [ "$(sql "SELECT count(*) FROM information_schema.tables WHERE table_name = '${SEQUENCE_TABLE}_kept'")" = 1 ]
}

# report PHASE: prints, per sequence, reserved / used / kept / lost, and checks the invoice numbers. Sets LOST
# (the sum over the sequences) and INVOICES_OK.
report() {
  local phase=$1
  LOST=0
  printf '\n%s\n%-14s %10s %10s %10s %10s\n' "$phase" sequence reserved used kept lost
  for entry in "orders:orders:id" "order_numbers:orders:number" "order_lines:order_lines:id" \
      "invoice_ids:invoices:id"; do
    IFS=: read -r name table column <<< "$entry"
    local reserved used kept lost
    reserved=$(sql "SELECT coalesce(max(next_value), 1) - 1 FROM $SEQUENCE_TABLE WHERE name = '$name'")
    used=$(sql "SELECT count($column) FROM $table")
    kept=0
    if kept_table_exists; then
      kept=$(sql "SELECT coalesce(sum(range_end - range_start), 0) FROM ${SEQUENCE_TABLE}_kept WHERE name = '$name'")
    fi
    lost=$((reserved - used - kept))
    LOST=$((LOST + lost))
    printf '%-14s %10d %10d %10d %10d\n' "$name" "$reserved" "$used" "$kept" "$lost"
  done
  # Invoices are numbered per company and year (INV-ACME-2026-000042): the counter of each series, the digits
  # after the last '-', must be exactly 1..n (the replicas' invoices are all the default company's, today's).
  local count series broken
  IFS='|' read -r count series broken <<< "$(sql "SELECT coalesce(sum(n), 0), count(*),
      count(*) FILTER (WHERE lo <> 1 OR hi <> n) FROM (SELECT count(*) AS n, min(c) AS lo, max(c) AS hi
      FROM (SELECT company, extract(year FROM issue_date) AS y,
            CAST(substring(number FROM '[0-9]+$') AS bigint) AS c FROM invoices) i GROUP BY company, y) s")"
  if [ "$broken" = 0 ]; then
    INVOICES_OK=1
    printf 'invoices: %d in %d series (company, year), each numbered exactly 1..n\n' "$count" "$series"
  else
    INVOICES_OK=0
    printf 'invoices: %d in %d series (company, year), %d NOT gapless\n' "$count" "$series" "$broken"
  fi
}

cleanup() {
  touch "$LOG_DIR/stop-load" 2>/dev/null || true
  for port in "${!PIDS[@]}"; do kill -TERM "${PIDS[$port]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

say "jar $JAR, replicas on ${PORTS[*]}, $ROUNDS rounds, logs in $LOG_DIR"
rm -f "$LOG_DIR"/replica-*.log
if ! psql -X -q -d postgres -t -A -c "SELECT 1 FROM pg_database WHERE datname = '$PGDATABASE'" | grep -q 1; then
  psql -X -q -d postgres -c "CREATE DATABASE $PGDATABASE" 2>/dev/null \
      || (cd / && env -u PGHOST -u PGPORT -u PGUSER -u PGPASSWORD -u PGDATABASE \
          runuser -u postgres -- psql -X -q -p "$PGPORT" -c "CREATE DATABASE $PGDATABASE OWNER $PGUSER")
fi
for table in order_events invoices order_lines orders "$SEQUENCE_TABLE" "${SEQUENCE_TABLE}_kept"; do
  sql "DROP TABLE IF EXISTS $table CASCADE"
done

# The replicas start at once on an empty database: each creates the tables and rows it needs, the others find them.
for port in "${PORTS[@]}"; do launch "$port"; done
for port in "${PORTS[@]}"; do await "$port"; done

say "phase 1: rolling deploy under load"
start_load
sleep 5
for round in $(seq 1 "$ROUNDS"); do
  for port in "${PORTS[@]}"; do
    stop_replica "$port" TERM
    sleep 1
    start_replica "$port"
    sleep 3
  done
  say "round $round done"
done
stop_load
for port in "${PORTS[@]}"; do stop_replica "$port" TERM; done
report "phase 1: $((ROUNDS * ${#PORTS[@]} + ${#PORTS[@]})) graceful stops"
PHASE1_LOST=$LOST
PHASE1_INVOICES=$INVOICES_OK

say "phase 2: one replica killed under load"
for port in "${PORTS[@]}"; do start_replica "$port"; done
start_load
sleep 5
stop_replica "${PORTS[0]}" KILL
start_replica "${PORTS[0]}"
sleep 5
stop_load
for port in "${PORTS[@]}"; do stop_replica "$port" TERM; done
report "phase 2: one SIGKILL, then ${#PORTS[@]} graceful stops"
CRASH_LOST=$((LOST - PHASE1_LOST))

printf '\nshut-down reports (INFO lines of seqgen at each graceful stop):\n'
grep -h -E 'INFO.*(dev\.seqgen|seqgen).*(given back|kept|lost)' "$LOG_DIR"/replica-*.log | sed 's/^.*INFO/INFO/' | head -40 || true
printf '\nlost to graceful stops: %d; lost to the crash: %d\n' "$PHASE1_LOST" "$CRASH_LOST"
if [ "$PHASE1_LOST" -ne 0 ] || [ "$PHASE1_INVOICES" != 1 ] || [ "$INVOICES_OK" != 1 ]; then
  echo "FAILED"
  exit 1
fi
echo "ok"
