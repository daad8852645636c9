# ibsim + opensm test bed, sourced by with-bed and the benchmark. Functions:
#   bed_start TOPOLOGY PARTITIONS   bring up ibsim and opensm, wait for SUBNET UP
#   bed_console 'COMMAND'           send one line to ibsim's console
#   bed_sighup                      make opensm re-read partitions.conf and wait for its sweep
#   bed_run CMD...                  run a libibumad program against the simulated subnet
#   bed_stop                        tear everything down (safe to call twice; use in a trap)
# Every run has its own IBSIM_SOCKNAME and folder (BED_DIR), so runs never see each other.

UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}

bed_missing() {
    local p
    for p in ibsim opensm smpquery perfquery; do
        command -v "$p" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin" command -v "$p" >/dev/null 2>&1 ||
            { echo "$p not installed (Debian ibsim-utils, opensm, infiniband-diags)"; return 0; }
    done
    [ -r "$UMAD2SIM" ] || { echo "$UMAD2SIM not installed (Debian libumad2sim0)"; return 0; }
    return 1
}

bed_wait_for() {  # FILE PATTERN COUNT TIMEOUT_S
    local deadline=$((SECONDS + $4))
    local n
    while n=$(grep -ac -- "$2" "$1" 2>/dev/null) || true; [ "${n:-0}" -lt "$3" ]; do
        [ $SECONDS -ge $deadline ] && return 1
        sleep 0.05
    done
}

bed_start() {
    export PATH="$PATH:/usr/sbin:/sbin"
    BED_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rdmadiag-ibsim.XXXXXX")
    export BED_DIR
    export IBSIM_SOCKNAME="rdmadiag-$$-${RANDOM}${RANDOM}"
    mkdir -p "$BED_DIR/run" "$BED_DIR/osm"
    cp "$2" "$BED_DIR/partitions.conf"
    mkfifo "$BED_DIR/console"
    # Read-write open: ibsim never sees EOF on its console (at EOF it spins).
    ibsim -s "$1" <>"$BED_DIR/console" >"$BED_DIR/ibsim.log" 2>&1 &
    echo $! >"$BED_DIR/ibsim.pid"
    bed_wait_for "$BED_DIR/ibsim.log" "sim>" 1 10 || { echo "ibsim did not start" >&2; return 1; }
    (cd "$BED_DIR/osm" && OSM_TMP_DIR="$BED_DIR/osm" OSM_CACHE_DIR="$BED_DIR/osm" \
        LD_PRELOAD="$UMAD2SIM" exec opensm -d2 -e -f "$BED_DIR/osm.log" -P "$BED_DIR/partitions.conf" \
        >"$BED_DIR/opensm.out" 2>&1) &
    echo $! >"$BED_DIR/opensm.pid"
    bed_wait_for "$BED_DIR/osm.log" "SUBNET UP" 1 30 || { echo "opensm: no SUBNET UP" >&2; return 1; }
}

bed_console() {
    echo "$1" >"$BED_DIR/console"
}

bed_sighup() {
    local before
    before=$(grep -ac "SUBNET UP" "$BED_DIR/osm.log")
    kill -HUP "$(cat "$BED_DIR/opensm.pid")"
    bed_wait_for "$BED_DIR/osm.log" "SUBNET UP" $((before + 1)) 20
}

bed_run() {
    (cd "$BED_DIR/run" && LD_PRELOAD="$UMAD2SIM" "$@")
}

bed_stop() {
    [ -n "${BED_DIR:-}" ] && [ -d "$BED_DIR" ] || return 0
    local f pid
    for f in opensm ibsim; do
        [ -f "$BED_DIR/$f.pid" ] || continue
        pid=$(cat "$BED_DIR/$f.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [ -n "${BED_KEEP:-}" ]; then echo "bed kept in $BED_DIR" >&2; else rm -rf "$BED_DIR"; fi
    BED_DIR=
}
