#!/usr/bin/env bash
# Set-up benchmark: what a newcomer waits for, measured where a newcomer
# starts, in the clean room (a fresh Debian 12 root, ../shared/clean-room/run,
# on the committed state). In one room, one after the other:
#   1. `npm ci --ignore-scripts`: npm's own part, the baseline;
#   2. the first `npm install`, with nothing cached (the goal: 5 minutes);
#   3. a second `npm install` with nothing changed (the goal: under 30 s);
# and the disk each part takes (Debian packages, node_modules, wasm/, cache).
# With --compile, then also the path a changed input takes: pdfTeX compiled
# from Debian's sources (RST2_TEX_FORCE=1), timed, and its pdftex.wasm
# compared with the committed one (scripts/tex/prebuilt).
# Each set-up step's own time is in its `[setup] ... done in N s` line.
#
# usage: bash bench/install.sh [--compile]     (as root; 5 to 15 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
runner=${CLEAN_ROOM_RUN:-}
for candidate in ../shared/clean-room/run /work/shared/clean-room/run; do
  [ -n "$runner" ] || { [ -x "$candidate" ] && runner=$candidate; }
done
[ -n "$runner" ] || { echo "bench: no clean-room runner (../shared/clean-room/run); set CLEAN_ROOM_RUN" >&2; exit 2; }

inside='
set -e
mb() { du -sxm "$@" 2>/dev/null | awk "{ s += \$1 } END { print s + 0 }"; }
sys0=$(mb /usr /var /etc /opt)
t() { local s=$(date +%s.%N); "$@" >"/tmp/bench-$1-$2.log" 2>&1 || { tail -n 40 "/tmp/bench-$1-$2.log"; exit 1; }; awk -v a="$s" -v b="$(date +%s.%N)" "BEGIN { print b - a }"; }
ci=$(t npm ci --ignore-scripts)
rm -rf node_modules
first=$(t npm install)
grep -E "^\[setup\] .* done in" /tmp/bench-npm-install.log | sed "s/^/  first install: /"
second=$(t npm install)
grep -E "^\[setup\] .* done in" /tmp/bench-npm-install.log | sed "s/^/  second install: /"
printf "%-44s %8.1f s\n" "npm ci --ignore-scripts (baseline)" "$ci"
printf "%-44s %8.1f s  (%.1fx the baseline; goal 300 s)\n" "first npm install, nothing cached" "$first" "$(awk -v a="$first" -v b="$ci" "BEGIN { print a / b }")"
printf "%-44s %8.1f s  (goal < 30 s)\n" "second npm install, nothing changed" "$second"
printf "%-44s %8d MB\n" "Debian packages installed (/usr /var /etc)" "$(( $(mb /usr /var /etc /opt) - sys0 ))"
printf "%-44s %8d MB\n" "node_modules" "$(mb node_modules)"
printf "%-44s %8d MB\n" "wasm/" "$(mb wasm)"
printf "%-44s %8d MB\n" "~/.cache/rst2" "$(mb /root/.cache/rst2)"
if [ "$COMPILE" = 1 ]; then
  compile=$(t env RST2_TEX_FORCE=1 bash scripts/build-tex.sh)
  printf "%-44s %8.1f s\n" "pdfTeX compiled from source (changed input)" "$compile"
  want=$(awk "\$2 == \"pdftex.wasm\" { print \$1 }" scripts/tex/prebuilt/sha256)
  have=$(sha256sum wasm/tex/pdftex.wasm | cut -d" " -f1)
  if [ "$want" = "$have" ]; then echo "compiled pdftex.wasm: the same bytes as the committed one ($have)";
  else echo "compiled pdftex.wasm differs from the committed one: $have, committed $want"; fi
fi
'
echo "set-up benchmark, $(date -u +%F), $(nproc) cores, commit $(git rev-parse --short HEAD)"
COMPILE=0; [ "${1:-}" = --compile ] && COMPILE=1
bash "$runner" "COMPILE=$COMPILE; $inside"
