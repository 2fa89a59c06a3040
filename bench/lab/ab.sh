#!/bin/sh
# The A/B series behind bench/README.md "Why the interleaved figures differ": one factor changed at a
# time, the arms of each run interleaved call by call in one process, 20 rounds. Each run writes
# OUTDIR/NAME.json (every round) and NAME.log (the summary). Rounds in which other processes took
# more than 10% of core 1 should be set aside (bench/lab/summary.py does). The runs are niced to -10
# so that other tenants of a shared VM disturb them less (run as root).
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
pin="nice -n -10 taskset -c 1"
L="--import tsx bench/lab/discrepancy.ts --pin $ref --rounds 20 --calls 300"
# Each A/B is one run: its arms interleaved call by call in one process, so both sides see the same
# machine. Added p50 moves by +-20 us from one process to the next (JIT and layout), so compare
# inside a run; the -b runs repeat an A/B with its pairs in the other order.
# Placement: the upstream in a child process (core 0) or in this process. A busy machine hits the
# child placement hardest (two cross-process wake-ups a call).
lab placement-sim-a $L --arms direct@sim,router@sim,direct@sim-inproc,router@sim-inproc
lab placement-sim-b $L --arms direct@sim-inproc,router@sim-inproc,direct@sim,router@sim
lab placement-plain-a $L --arms direct@plain,router@plain,direct@plain-inproc,router@plain-inproc
lab placement-plain-b $L --arms direct@plain-inproc,router@plain-inproc,direct@plain,router@plain
# Every other factor against an in-process upstream: no cross-process wake-ups, so a busy machine
# disturbs it least.
lab headers-a $L --arms direct@plain-inproc,router@plain-inproc,direct@plain-h-inproc,router@plain-h-inproc
lab headers-b $L --arms direct@plain-h-inproc,router@plain-h-inproc,direct@plain-inproc,router@plain-inproc
lab sim-vs-plain-a $L --arms direct@plain-h-inproc,router@plain-h-inproc,direct@sim-inproc,router@sim-inproc
lab sim-vs-plain-b $L --arms direct@sim-inproc,router@sim-inproc,direct@plain-h-inproc,router@plain-h-inproc
lab tokenizer-a $L --arms direct@sim-inproc,router@sim-inproc,router:heuristic@sim-inproc,router:nonascii@sim-inproc
lab tokenizer-b $L --arms direct@sim-inproc,router:nonascii@sim-inproc,router:heuristic@sim-inproc,router@sim-inproc
lab aa $L --arms direct@plain-inproc,router@plain-inproc,direct@plain-inproc#2,router@plain-inproc#2
lab cold --import tsx bench/lab/discrepancy.ts --pin $ref --rounds 30 --calls 50 --arms direct@sim-inproc,router@sim-inproc,router:cold@sim-inproc
lab aged $L --prefill 60000 --arms direct@sim-inproc,router@sim-inproc,router:aged@sim-inproc
lab loop $L --loop alternate --arms direct@sim-inproc,router@sim-inproc
lab hog-inproc $L --hog 100 --hog-alternate --arms direct@sim-inproc,router@sim-inproc
lab hog-process $L --hog 100 --hog-alternate --arms direct@sim,router@sim
lab semi64 --max-semi-space-size=64 $L --semi 64 --arms direct@sim-inproc,router@sim-inproc
# An ad-hoc script as one would write it: no pinning, no priority, no warm-up, in-process upstream.
pin=""
lab naive --import tsx bench/lab/discrepancy.ts $ref --rounds 5 --calls 200 --warmup 0 --arms direct@plain-inproc,router@plain-inproc
