#!/bin/sh
# The bad-input campaigns of every command, in one run: the CLI campaign (every command and
# input format, test/reliability/cli-fuzz.test.ts), `modelc serve` under bad requests
# (serve-fuzz.test.ts) and `modelc lsp` under bad JSON-RPC (lsp-fuzz.test.ts). Each run is seeded:
# a failing case replays alone (FUZZ_SEED=S FUZZ_CASE=I for the CLI campaign). Classifies every
# run as ok / one-line error / violation and writes the reports to DIR.
#
#   test/tools/fuzz/run.sh [-s SEED] [-c CLI_CASES] [-b MUTATIONS_PER_CASE] [-r SERVE_REQUESTS] [-l LSP_SESSIONS] [-j JOBS] [-d DIR]
#
# Needs `npm run build` first (the campaigns run the built CLI).
set -u
seed=20261128 cli=2000 budget= serve=1000 lsp=20 jobs=1 dir=/tmp/modelc-fuzz
while getopts s:c:b:r:l:j:d: o; do
    case $o in
        s) seed=$OPTARG ;; c) cli=$OPTARG ;; b) budget=$OPTARG ;; r) serve=$OPTARG ;; l) lsp=$OPTARG ;; j) jobs=$OPTARG ;; d) dir=$OPTARG ;;
        *) sed -n '2,10p' "$0"; exit 64 ;;
    esac
done
cd "$(dirname "$0")/../../.." || exit 1
mkdir -p "$dir"
status=0
run() {
    name=$1; shift
    env "$@" FUZZ_SEED="$seed" FUZZ_WORK="$dir" FUZZ_REPORT="$dir/$name.txt" npx vitest run "test/reliability/$name.test.ts" > "$dir/$name.log" 2>&1 || status=1
    cat "$dir/$name.txt" 2>/dev/null || echo "$name: no report (see $dir/$name.log)"
    echo
}
run cli-fuzz FUZZ_N_CLI="$cli" FUZZ_JOBS="$jobs" ${budget:+FUZZ_BUDGET="$budget"}
run serve-fuzz FUZZ_N_SERVE="$serve"
run lsp-fuzz FUZZ_N_LSP="$lsp"
exit $status
