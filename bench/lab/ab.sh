#!/bin/sh
# The A/B series behind bench/README.md "Why the interleaved figures differ": one factor changed at a
# time, the arms of each run interleaved call by call in one process, 9 rounds. Each run writes
# OUTDIR/NAME.json (every round) and NAME.log (the summary). Rounds in which other processes took
# more than 10% of core 1 should be set aside (bench/lab/summary.py does).
#   bench/lab/ab.sh OUTDIR [REF [NAME-REGEX]]   REF: the router's commit (default: the working tree)
set -e
out=${1:?usage: bench/lab/ab.sh OUTDIR [REF [NAME-REGEX]]}
ref=${2:+--ref $2}
only=${3:-.}
mkdir -p "$out"
lab() {
  name=$1; shift
  echo "$name" | grep -Eq "$only" || return 0
  echo "== $name: $*" >&2
  $pin node "$@" 2>"$out/$name.log" > "$out/$name.json" || { cat "$out/$name.log" >&2; return 1; }
  cat "$out/$name.log" >&2
}
pin="taskset -c 1"
L="--import tsx bench/lab/discrepancy.ts --pin $ref --rounds 9 --calls 600"
lab placement-sim $L --arms direct@sim,router@sim,direct@sim-inproc,router@sim-inproc
lab placement-plain $L --arms direct@plain,router@plain,direct@plain-inproc,router@plain-inproc
lab headers $L --arms direct@plain,router@plain,direct@plain-h,router@plain-h
lab tokenizer $L --arms direct@sim,router@sim,router:heuristic@sim,router:nonascii@sim
lab core $L --arms direct@plain,router@plain,direct@plain-core1,router@plain-core1
lab loop-interleaved $L --arms direct@sim,router@sim
lab loop-blocks $L --loop blocks --arms direct@sim,router@sim
lab semi64 --max-semi-space-size=64 $L --semi 64 --arms direct@sim,router@sim,direct@sim-inproc,router@sim-inproc
lab aged $L --prefill 60000 --arms direct@sim,router@sim
lab warmup --import tsx bench/lab/discrepancy.ts --pin $ref --rounds 40 --calls 50 --warmup 0 --arms direct@sim,router@sim
lab hog0 $L --arms direct@sim,router@sim
lab hog50 $L --hog 50 --arms direct@sim,router@sim
lab hog100 $L --hog 100 --arms direct@sim,router@sim
pin=""
lab unpinned --import tsx bench/lab/discrepancy.ts $ref --rounds 9 --calls 600 --arms direct@plain,router@plain,direct@plain-inproc,router@plain-inproc
lab naive --import tsx bench/lab/discrepancy.ts $ref --rounds 5 --calls 200 --warmup 0 --arms direct@plain-inproc,router@plain-inproc
