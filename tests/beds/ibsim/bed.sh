# ibsim + opensm test bed, sourced by with-bed and the benchmark. Functions:
#   bed_start TOPOLOGY PARTITIONS   bring up ibsim and opensm, wait for SUBNET UP
#   bed_console 'COMMAND'           send one line to ibsim's console
#   bed_sighup                      make opensm re-read partitions.conf and wait for its sweep
#   bed_run CMD...                  run a libibumad program against the simulated subnet
#   bed_pause_fabric / bed_resume_fabric   stop / continue ibsim: nothing answers meanwhile
#   bed_stop_sm                     stop opensm: no SA, no SM (ibsim and its ports stay)
#   bed_restart_sm [OPTION...]      start opensm again (with these options instead of
#                                   BED_OPENSM_OPTS, e.g. "-F FILE" for a config file), ibsim untouched
#   bed_restart_fabric              kill ibsim and opensm, start both again, wait for SUBNET UP
#   bed_stop                        tear everything down (safe to call twice; use in a trap)
# Every run has its own IBSIM_SOCKNAME and folder (BED_DIR), so runs never see each other.
# Big fabrics (see gen-fat-tree) set, before bed_start:
#   BED_IBSIM_OPTS      more ibsim options, e.g. "-N 6400 -S 256 -P 49408" (ibsim's node, switch
#                       and port limits; gen-fat-tree prints the ones its fabric needs)
#   BED_START_TIMEOUT   seconds ibsim may take to read its topology and opensm to reach SUBNET UP
#                       (each; by default 10 s for ibsim and 30 s for opensm)
#   BED_OPENSM_OPTS     more opensm options, e.g. "-s 0" (no periodic light sweeps)

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

bed_wait_for() {  # FILE PATTERN COUNT TIMEOUT_S [PIDFILE]: gives up early once PIDFILE's process is gone
    local deadline=$((SECONDS + $4))
    local n
    while n=$(grep -ac -- "$2" "$1" 2>/dev/null) || true; [ "${n:-0}" -lt "$3" ]; do
        [ $SECONDS -ge $deadline ] && return 1
        [ -z "${5:-}" ] || kill -0 "$(cat "$5")" 2>/dev/null || return 1
        sleep 0.05
    done
}

bed_ibsim_said() {  # ibsim's last words, without the warning it gives every port line that has no
                    # "lid N WIDTHxSPEED" comment (the fixtures' and gen-fat-tree's lines)
    grep -av 'cannot parse remote lid and connection type' "$BED_DIR/ibsim.log" 2>/dev/null |
        tail -n 3 | tr '\n' ' ' || true
}

bed_start_ibsim() {
    local before
    before=$(grep -ac "sim>" "$BED_DIR/ibsim.log" 2>/dev/null) || true
    local opts=()
    read -r -a opts <<<"${BED_IBSIM_OPTS:-}"
    # Read-write open: ibsim never sees EOF on its console (at EOF it spins).
    ibsim "${opts[@]}" -s "$(cat "$BED_DIR/topology")" <>"$BED_DIR/console" >>"$BED_DIR/ibsim.log" 2>&1 &
    echo $! >"$BED_DIR/ibsim.pid"
    bed_wait_for "$BED_DIR/ibsim.log" "sim>" $((${before:-0} + 1)) "${BED_START_TIMEOUT:-10}" \
        "$BED_DIR/ibsim.pid" ||
        { if kill -0 "$(cat "$BED_DIR/ibsim.pid")" 2>/dev/null; then
              echo "ibsim did not start within ${BED_START_TIMEOUT:-10} s" >&2
          else
              echo "ibsim did not start: $(bed_ibsim_said)" >&2
          fi
          return 1; }
}

bed_start_opensm() {
    local before
    before=$(grep -ac "SUBNET UP" "$BED_DIR/osm.log" 2>/dev/null) || true
    local opts=()
    read -r -a opts <<<"${BED_OPENSM_OPTS:-}"
    (cd "$BED_DIR/osm" && OSM_TMP_DIR="$BED_DIR/osm" OSM_CACHE_DIR="$BED_DIR/osm" \
        LD_PRELOAD="$UMAD2SIM" exec opensm -d2 -f "$BED_DIR/osm.log" -P "$BED_DIR/partitions.conf" \
        "${opts[@]}" >>"$BED_DIR/opensm.out" 2>&1) &
    echo $! >"$BED_DIR/opensm.pid"
    bed_wait_for "$BED_DIR/osm.log" "SUBNET UP" $((${before:-0} + 1)) "${BED_START_TIMEOUT:-30}" \
        "$BED_DIR/opensm.pid" ||
        { echo "opensm: no SUBNET UP" >&2; return 1; }
}

bed_start() {
    export PATH="$PATH:/usr/sbin:/sbin"
    BED_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rdmadiag-ibsim.XXXXXX")
    export BED_DIR
    export IBSIM_SOCKNAME="rdmadiag-$$-${RANDOM}${RANDOM}"
    mkdir -p "$BED_DIR/run" "$BED_DIR/osm"
    cp "$2" "$BED_DIR/partitions.conf"
    readlink -f "$1" >"$BED_DIR/topology"
    mkfifo "$BED_DIR/console"
    bed_start_ibsim && bed_start_opensm
}

bed_kill() {  # NAME: ends the bed's ibsim or opensm (SIGTERM, then SIGKILL)
    local pid
    [ -f "$BED_DIR/$1.pid" ] || return 0
    pid=$(cat "$BED_DIR/$1.pid")
    kill -CONT "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    rm -f "$BED_DIR/$1.pid"
}

bed_pause_fabric() {
    kill -STOP "$(cat "$BED_DIR/ibsim.pid")"
}

bed_resume_fabric() {
    kill -CONT "$(cat "$BED_DIR/ibsim.pid")"
}

bed_stop_sm() {
    bed_kill opensm
}

bed_restart_sm() {
    bed_kill opensm
    [ $# -eq 0 ] || BED_OPENSM_OPTS="$*"
    bed_start_opensm
}

bed_restart_fabric() {
    bed_kill opensm
    bed_kill ibsim
    bed_start_ibsim && bed_start_opensm
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
    local f
    for f in opensm ibsim; do bed_kill "$f"; done
    if [ -n "${BED_KEEP:-}" ]; then echo "bed kept in $BED_DIR" >&2; else rm -rf "$BED_DIR"; fi
    BED_DIR=
}
