#!/usr/bin/env bash
# One fuzz target's smoke test, with one verdict per commit: every seed and regression input is
# run, then the target fuzzes from them for a fixed number of runs with a fixed seed. The inputs
# are handed over in name order as one list (-seed_inputs), not as a directory, whose order would
# depend on the file system; what fuzzing finds goes to a scratch directory emptied first, so no
# earlier run changes the next one, and it is never re-read while fuzzing (-reload=0: what a
# timer would pick up depends on speed). Open-ended fuzzing is scripts/fuzz.
# Usage: run_smoke.sh TARGET CORPUS_DIR MAX_LEN RUNS
set -euo pipefail
target="$1" corpus="$2" max_len="$3" runs="$4"
scratch="$corpus/smoke"
rm -rf "$scratch"
mkdir -p "$scratch"
list="$scratch.inputs"
find "$corpus/seeds" -type f -print | LC_ALL=C sort | paste -sd, - >"$list"
count=$(tr ',' '\n' <"$list" | grep -c . || true)
echo "run_smoke: $count seed and regression inputs, then $runs runs with -seed=1"
# What the fuzzer learns can depend on where things are mapped (code that compares or hashes
# addresses) and on the process id (the probe names its clients by pid, and formatting a number
# is instrumented code too). Where the kernel allows, the run gets a fixed layout (setarch -R)
# and a pid namespace of its own, so both are the same at every run.
fixed=(unshare --pid --fork --kill-child setarch "$(uname -m)" -R)
if ! "${fixed[@]}" true 2>/dev/null; then
    fixed=(setarch "$(uname -m)" -R)
    if "${fixed[@]}" true 2>/dev/null; then
        echo "run_smoke: no pid namespace here: coverage may differ between runs"
    else
        fixed=()
        echo "run_smoke: no pid namespace or fixed layout here: coverage may differ between runs"
    fi
fi
# -runs counts the seed inputs' executions too.
exec "${fixed[@]}" "$target" -seed=1 -runs="$((count + runs))" -max_len="$max_len" \
    -timeout=30 -rss_limit_mb=2048 -reload=0 -print_final_stats=1 -seed_inputs="@$list" "$scratch"
