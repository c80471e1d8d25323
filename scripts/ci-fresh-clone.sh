#!/usr/bin/env bash
# Runs CI (.ci/run) as CI does, from a fresh clone of this repository, optionally beside a load of busy
# processes and with cold caches, and ends with its exit code. Its log is kept.
#
#   scripts/ci-fresh-clone.sh [--load N] [--cold] [REF]
#
#   --load N  N busy processes per core beside CI (default 0); `--load 2` is the "busy machine" check
#   --cold    n8n's installs and npm's cache in fresh folders, removed after: a cold run
#   REF       what to clone (default HEAD), e.g. a branch
#
# The busy processes are stopped by their PIDs however the run ends; the clone and the cold caches are
# removed. The log stays in the temporary folder printed at the start.
set -uo pipefail

load_per_core=0
cold=false
ref=HEAD
while [ $# -gt 0 ]; do
	case "$1" in
	--load)
		load_per_core=${2:?--load needs a number}
		shift 2
		;;
	--cold)
		cold=true
		shift
		;;
	-h | --help)
		sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		ref=$1
		shift
		;;
	esac
done
if ! [[ "$load_per_core" =~ ^[0-9]+$ ]]; then
	echo "--load takes a whole number of busy processes per core, not '$load_per_core'" >&2
	exit 2
fi

repository=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel) || exit 2
commit=$(git -C "$repository" rev-parse --verify "$ref^{commit}") || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/ci-fresh-clone-XXXXXX")
log="$work/ci.log"
load_pids=()
ci_pid=
stop() {
	# .ci/run stops its own jobs when it ends.
	[ -n "$ci_pid" ] && kill "$ci_pid" 2>/dev/null && wait "$ci_pid"
	for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null; done
	rm -rf "$work/clone" "$work/n8n-cache" "$work/npm-cache"
}
trap stop EXIT
trap 'exit 130' INT TERM

git clone --quiet --no-local "$repository" "$work/clone" && git -C "$work/clone" checkout --quiet "$commit" ||
	exit 2
if $cold; then
	export N8N_CACHE_DIR="$work/n8n-cache" npm_config_cache="$work/npm-cache"
fi
busy=$((load_per_core * $(nproc)))
for ((i = 0; i < busy; i++)); do
	(while :; do :; done) &
	load_pids+=($!)
done
echo "CI of $commit from a fresh clone, $busy busy processes beside it, caches $($cold && echo cold || echo as they are); log: $log"
started=$SECONDS
(cd "$work/clone" && exec bash .ci/run) >"$log" 2>&1 &
ci_pid=$!
wait "$ci_pid"
status=$?
ci_pid=
echo "CI ended with exit code $status after $((SECONDS - started)) s (load average now: $(cut -d' ' -f1-3 /proc/loadavg)); its last lines:"
tail -n 25 "$log"
exit $status
