#!/bin/sh
# Regenerates the SimGrid SMPI reference cases (cases/*.json) from src/coll.c and platforms/*.xml.
# Needs SimGrid's smpicc and smpirun (Debian: apt-get install libsimgrid-dev); CI never runs this.
# Usage: test/reference/simgrid/generate.sh   (from anywhere; about a minute of CPU)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O2 -o "$work/coll" "$here/src/coll.c"
version=$(smpirun -version 2>/dev/null | head -n 1 | tr -d '"')
mkdir -p "$here/cases"
# The model: SimGrid's plain CM02 (no correction factors, weight-S 0, TCP gamma 0), no cross-traffic
# (acknowledgement) flows, MPI computation not timed: what Meshwork's `simgrid` preset models.
# (The shared-malloc block size only lets 64 ranks fold 1 GiB buffers into few mappings; no timing effect.)
common="--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:67108864"
sizes="1024 65536 1048576 16777216"
# collective smpi-algorithm meshwork-collective meshwork-algorithm
cases="alltoall:pair:alltoall:pairwise:order=xor
allreduce:lr:allreduce:ring
allreduce:rab_rdb:allreduce:rabenseifner:order=near-first
allgather:NTSLR:allgather:ring
allgather:ring:allgather:ring:order=shift
reduce:binomial:reduce:recursive-doubling
bcast:binomial_tree:broadcast:binomial"
# A hostfile of node-0 .. node-(N-1), one rank per host in order.
write_hosts() { # ranks file
  : > "$2"
  i=0
  while [ $i -lt "$1" ]; do echo "node-$i" >> "$2"; i=$((i + 1)); done
}
# Sets $rows: per size, the makespan coll prints under smpirun, and the command line as recorded.
time_rows() { # platform ranks hostfile extra-cfg program sizes
  rows=""
  for size in $6; do
    cmd="smpirun -np $2 -platform platforms/$1.xml -hostfile hosts$2 $common${4:+ $4} coll $5 $size"
    line=$(cd "$work" && smpirun -np "$2" -platform "$here/platforms/$1.xml" -hostfile "$3" $common $4 ./coll "$5" "$size" 2>/dev/null | grep '^makespan_s=')
    t=$(echo "$line" | sed 's/^makespan_s=\([^ ]*\).*/\1/')
    rows="$rows${rows:+,
}    { \"size\": $size, \"makespan_s\": $t, \"command\": \"$cmd\" }"
  done
}
write_hosts 64 "$work/hosts"
for platform in torus-4x4x4 fattree-4-3 dragonfly-4x4x4; do
  for c in $cases; do
    coll=$(echo "$c" | cut -d: -f1)
    algo=$(echo "$c" | cut -d: -f2)
    mcoll=$(echo "$c" | cut -d: -f3)
    malgo=$(echo "$c" | cut -d: -f4-)
    out="$here/cases/$platform-$coll-$algo.json"
    time_rows "$platform" 64 "$work/hosts" "--cfg=smpi/$coll:$algo" "$coll" "$sizes"
    cat > "$out" <<JSON
{
  "simgrid": "$version",
  "platform": "platforms/$platform.xml",
  "ranks": 64,
  "hostfile": "node-0 .. node-63, one rank per host in order",
  "config": "$common --cfg=smpi/$coll:$algo",
  "collective": "$coll",
  "smpi_algorithm": "$algo",
  "meshwork": { "collective": "$mcoll", "algorithm": "$malgo" },
  "rows": [
$rows
  ]
}
JSON
    echo "$out"
  done
done
# Barrier cases (barrier-cases/): MPI_Barrier alone on the three platforms (SMPI's default barrier
# algorithm, no --cfg=smpi/barrier), and alltoall with a barrier between steps on a 3x3x3 torus.
mkdir -p "$here/barrier-cases"
barrier_case() { # name platform ranks program meshwork-json sizes
  name=$1 platform=$2 np=$3 program=$4 meshwork=$5 sizes=$6
  write_hosts "$np" "$work/hosts"
  time_rows "$platform" "$np" "$work/hosts" "" "$program" "$sizes"
  cat > "$here/barrier-cases/$name.json" <<JSON
{
  "simgrid": "$version",
  "platform": "platforms/$platform.xml",
  "ranks": $np,
  "config": "$common",
  "program": "$program",
  "meshwork": $meshwork,
  "rows": [
$rows
  ]
}
JSON
  echo "$here/barrier-cases/$name.json"
}
for platform in torus-4x4x4 fattree-4-3 dragonfly-4x4x4; do
  barrier_case "$platform-barrier" "$platform" 64 barrier '{ "program": "barrier" }' 0
done
barrier_case torus-3x3x3-alltoall-barrier torus-3x3x3 27 alltoall-barrier '{ "collective": "alltoall", "algorithm": "per-step-barrier:dir=shortest,pacing=false" }' "1024 65536 1048576"
