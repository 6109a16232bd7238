#!/usr/bin/env bash
# Writes `animgraph simulate` output (JSON Lines, with --explain, and --poses where a skeleton
# exists) for every bundled graph and script and every golden scenario into OUTDIR, one file each.
# Run it before and after a refactor that must not change behaviour, then `diff -r` the two
# folders: any byte that differs is a behaviour change.
#
#   tools/snapshot-outputs.sh /tmp/before   # on the old commit
#   tools/snapshot-outputs.sh /tmp/after    # on the new one
#   diff -r /tmp/before /tmp/after && echo identical
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/snapshot-outputs.sh OUTDIR}
mkdir -p "$out"
cargo build --release -q -p animgraph-cli
bin=target/release/animgraph

run() { # name, then simulate's arguments
  local name=$1
  shift
  "$bin" simulate "$@" >"$out/$name.jsonl" 2>"$out/$name.stderr" || echo "exit $?" >>"$out/$name.stderr"
}

run locomotion assets/graphs/locomotion.mres --script assets/scripts/locomotion.json --explain
run showcase assets/graphs/showcase.mres --script assets/scripts/showcase.json --explain
run biped assets/graphs/biped.mres --script assets/scripts/biped.json --explain
run biped-robot assets/graphs/biped.mres --script assets/scripts/biped.json \
  --skeleton assets/characters/robot/RobotExpressive.glb --clip-map assets/graphs/biped.robot.clipmap.json --poses
run robot assets/characters/robot/robot.mres --script assets/characters/robot/robot.script.json \
  --skeleton assets/characters/robot/RobotExpressive.glb --poses --explain
run fox assets/characters/fox/fox.mres --script assets/characters/fox/fox.script.json \
  --skeleton assets/characters/fox/Fox.glb --poses --explain
run gbot assets/characters/gbot/gbot.mres --script assets/characters/gbot/gbot.script.json \
  --skeleton assets/characters/gbot/gbot.mskel --poses --explain
run gbot-record assets/characters/gbot/gbot.mres --script assets/characters/gbot/gbot.script.json \
  --skeleton assets/characters/gbot/gbot.mskel --record "$out/gbot.recording.jsonl"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for scenario in crates/animgraph-runtime/tests/scenarios/*.json; do
  name=$(basename "$scenario" .json)
  jq '.script' "$scenario" >"$tmp/$name.json"
  graph=crates/animgraph-runtime/tests/scenarios/$(jq -r '.graph' "$scenario")
  run "scenario-$name" "$graph" --script "$tmp/$name.json" --explain
done
echo "wrote $(ls "$out" | wc -l) files to $out"
