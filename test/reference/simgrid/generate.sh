#!/bin/sh
# Regenerates the SimGrid SMPI reference cases (cases/*.json) from src/coll.c and platforms/*.xml.
# Needs SimGrid's smpicc and smpirun (Debian: apt-get install libsimgrid-dev); CI never runs this.
# Usage: test/reference/simgrid/generate.sh   (from anywhere; about a minute of CPU)
set -eu
# Usage: generate.sh [smpi-cases [NAME-PATTERN]]   (smpi-cases: only the issue 23 cases in smpi-cases/,
# or those whose name matches the shell pattern)
#        generate.sh smpi-model   (only smpi-model-cases/: SMPI's default network model)
#        generate.sh cm02-wan     (only cm02-wan-cases/: CM02's TCP-gamma bound on millisecond routes)
#        generate.sh cfg          (only cfg-cases/: other network-model settings, what --simgrid-cfg reads)
#        generate.sh fatpipe      (only fatpipe-cases/: FATPIPE links, under CM02 and SMPI's model)
#        generate.sh shared-hosts (only shared-host-cases/: several ranks on one host)
only=${1:-all}
pattern=${2:-*}
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
# Writes one case file from $rows and prints its path.
write_case() { # out platform ranks hostfile config smpi-collective smpi-algorithm meshwork-collective meshwork-algorithm
  cat > "$1" <<JSON
{
  "simgrid": "$version",
  "platform": "$2",
  "ranks": $3,
  "hostfile": "$4",
  "config": "$5",
  "collective": "$6",
  "smpi_algorithm": "$7",
  "meshwork": { "collective": "$8", "algorithm": "$9" },
  "rows": [
$rows
  ]
}
JSON
  echo "$1"
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
if [ "$only" = all ]; then
for platform in torus-4x4x4 fattree-4-3 dragonfly-4x4x4; do
  for c in $cases; do
    coll=$(echo "$c" | cut -d: -f1)
    algo=$(echo "$c" | cut -d: -f2)
    mcoll=$(echo "$c" | cut -d: -f3)
    malgo=$(echo "$c" | cut -d: -f4-)
    out="$here/cases/$platform-$coll-$algo.json"
    time_rows "$platform" 64 "$work/hosts" "--cfg=smpi/$coll:$algo" "$coll" "$sizes"
    write_case "$out" "platforms/$platform.xml" 64 "node-0 .. node-63, one rank per host in order" "$common --cfg=smpi/$coll:$algo" "$coll" "$algo" "$mcoll" "$malgo"
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
fi

# The 4-host cases on a platform of zones (platforms/zones/PLATFORM.xml, hosts-four-full-4.txt) under the
# current $common, one file per algorithm in DIR: alltoall pair and basic_linear, allreduce rab_rdb,
# allgather NTSLR, bcast binomial_tree, at $sizes.
four_host_cases() { # platform dir [extra-cfg name-suffix]
  for c in alltoall:pair:pair alltoall:basic_linear:basic_linear allreduce:rab_rdb:rab_rdb allgather:NTSLR:NTSLR bcast:binomial_tree:binomial_tree; do
    coll=$(echo "$c" | cut -d: -f1)
    algo=$(echo "$c" | cut -d: -f2)
    malgo=$(echo "$c" | cut -d: -f3-)
    mcoll=$coll
    [ "$coll" = bcast ] && mcoll=broadcast
    rows=""
    for size in $sizes; do
      cmd="smpirun -np 4 -platform platforms/zones/$1.xml -hostfile platforms/zones/hosts-four-full-4.txt $common${3:+ $3} --cfg=smpi/$coll:$algo coll $coll $size"
      line=$(cd "$work" && smpirun -np 4 -platform "$here/platforms/zones/$1.xml" -hostfile "$here/platforms/zones/hosts-four-full-4.txt" $common ${3:-} "--cfg=smpi/$coll:$algo" ./coll "$coll" "$size" 2>/dev/null | grep '^makespan_s=')
      t=$(echo "$line" | sed 's/^makespan_s=\([^ ]*\).*/\1/')
      rows="$rows${rows:+,
}    { \"size\": $size, \"makespan_s\": $t, \"command\": \"$cmd\" }"
    done
    write_case "$here/$2/$1${4:+-$4}-$coll-$algo.json" "platforms/zones/$1.xml" 4 "platforms/zones/hosts-four-full-4.txt" "$common${3:+ $3} --cfg=smpi/$coll:$algo" "$coll" "$algo" "$mcoll" "$malgo"
  done
}

# SMPI's default network model (smpi-model-cases/, `generate.sh smpi-model`): smpirun as a user runs it,
# without --cfg=network/model:CM02 and --cfg=network/crosstraffic:0, so SimGrid's `SMPI` model (piecewise
# smpi/bw-factor and smpi/lat-factor, weight-S 8775, TCP-gamma, cross-traffic) times the transfers.
# What Meshwork's `simgrid-smpi` preset models. Each line: collective smpi-algorithm meshwork-algorithm.
if [ "$only" = all ] || [ "$only" = smpi-model ]; then
  mkdir -p "$here/smpi-model-cases"
  write_hosts 64 "$work/hosts"
  cm02_common=$common
  common="--cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:67108864"
  for platform in torus-4x4x4 fattree-4-3; do
    for c in alltoall:pair:pairwise:order=xor allreduce:lr:ring allreduce:rab_rdb:rabenseifner:order=near-first \
             allgather:NTSLR:ring allgather:ring:ring:order=shift bcast:binomial_tree:binomial reduce:binomial:recursive-doubling; do
      coll=$(echo "$c" | cut -d: -f1)
      algo=$(echo "$c" | cut -d: -f2)
      malgo=$(echo "$c" | cut -d: -f3-)
      mcoll=$coll
      [ "$coll" = bcast ] && mcoll=broadcast
      time_rows "$platform" 64 "$work/hosts" "--cfg=smpi/$coll:$algo" "$coll" "$sizes"
      write_case "$here/smpi-model-cases/$platform-$coll-$algo.json" "platforms/$platform.xml" 64 "node-0 .. node-63, one rank per host in order" "$common --cfg=smpi/$coll:$algo" "$coll" "$algo" "$mcoll" "$malgo"
    done
  done
  # Four hosts on a Full zone of unequal links (platforms/zones/four-full.xml: 1, 0.5 and 2 GBps), where
  # weight-S moves the CM02 shares, and the same with millisecond latencies (four-full-wan.xml), where the
  # TCP-gamma bound (4 MiB / (2 x route latency), 0.42-0.52 GBps) is below the links' bandwidth.
  for platform in four-full four-full-wan; do four_host_cases "$platform" smpi-model-cases; done
  common=$cm02_common
  [ "$only" = smpi-model ] && exit 0
fi

# CM02's TCP-gamma bound (cm02-wan-cases/, `generate.sh cm02-wan`): the plain CM02 configuration of
# cases/ (what `--preset simgrid` models) on platforms/zones/four-full-wan.xml, whose 4-5 ms routes
# bound a transfer's rate at 4 MiB / (2 x route latency), 0.42-0.52 GBps, below the links' 1-2 GBps.
if [ "$only" = all ] || [ "$only" = cm02-wan ]; then
  mkdir -p "$here/cm02-wan-cases"
  four_host_cases four-full-wan cm02-wan-cases
  [ "$only" = cm02-wan ] && exit 0
fi

# SimGrid's other network-model settings (cfg-cases/, `generate.sh cfg`): smpirun as a user runs it
# (SimGrid's SMPI model, cross-traffic on) with --cfg overrides of the network model, what
# `--simgrid-cfg` reads: LV08 and CM02 as network/model (cross-traffic left on), CM02's scalar factors
# and weight-S, SMPI's piecewise factors, weight-S and TCP-gamma.
# Each line: name-suffix platform cfg... (no spaces inside one --cfg).
if [ "$only" = all ] || [ "$only" = cfg ]; then
  mkdir -p "$here/cfg-cases"
  cm02_common=$common
  common="--cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:67108864"
  while read -r suffix platform cfg; do
    four_host_cases "$platform" cfg-cases "$cfg" "$suffix"
  done <<CFG
lv08 four-full --cfg=network/model:LV08
lv08 four-full-wan --cfg=network/model:LV08
cm02-cross four-full --cfg=network/model:CM02
cm02-factors four-full --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/latency-factor:5 --cfg=network/bandwidth-factor:0.8 --cfg=network/weight-S:5000
smpi-factors four-full --cfg=network/weight-S:20000 --cfg=smpi/bw-factor:4096:0.5;65536:0.8 --cfg=smpi/lat-factor:4096:3;65536:6
gamma four-full-wan --cfg=network/TCP-gamma:131072 --cfg=network/crosstraffic:0
overheads four-full --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=smpi/os:0:1e-6:1e-10;8192:4e-6:5e-11 --cfg=smpi/ois:0:2e-6:2e-10;65536:1e-5:0 --cfg=smpi/or:0:3e-6:3e-10;4096:5e-6:1e-10
overheads-smpi four-full --cfg=smpi/os:0:1.5us:0.1ns --cfg=smpi/ois:0:2.5us:0.2ns --cfg=smpi/or:0:4us:0.3ns
async four-full --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=smpi/async-small-thresh:65536 --cfg=smpi/os:0:1us:0 --cfg=smpi/ois:0:1us:0
CFG
  # And 64 ranks on the 4x4x4 torus under LV08, where weight-S sums over multi-hop routes.
  write_hosts 64 "$work/hosts"
  for c in alltoall:pair:pairwise:order=xor allreduce:rab_rdb:rabenseifner:order=near-first; do
    coll=$(echo "$c" | cut -d: -f1)
    algo=$(echo "$c" | cut -d: -f2)
    malgo=$(echo "$c" | cut -d: -f3-)
    time_rows torus-4x4x4 64 "$work/hosts" "--cfg=network/model:LV08 --cfg=smpi/$coll:$algo" "$coll" "$sizes"
    write_case "$here/cfg-cases/torus-4x4x4-lv08-$coll-$algo.json" "platforms/torus-4x4x4.xml" 64 "node-0 .. node-63, one rank per host in order" "$common --cfg=network/model:LV08 --cfg=smpi/$coll:$algo" "$coll" "$algo" "$coll" "$malgo"
  done
  common=$cm02_common
  [ "$only" = cfg ] && exit 0
fi

# FATPIPE links (fatpipe-cases/, `generate.sh fatpipe`), under the CM02 configuration of cases/ and under
# smpirun's default SMPI model: a Full zone whose routes between {h0,h1} and {h2,h3} cross one FATPIPE
# link, those to h3 also a 50 us link (platforms/zones/four-full-fatpipe.xml: unequal CM02 penalties on
# it), and a FLAT cluster with bb_sharing_policy="FATPIPE" (platforms/flat-16-bb-fatpipe.xml, 16 ranks).
if [ "$only" = all ] || [ "$only" = fatpipe ]; then
  mkdir -p "$here/fatpipe-cases"
  cm02_common=$common
  smpi_common="--cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:67108864"
  write_hosts 16 "$work/hosts16"
  for model in cm02 smpi; do
    [ "$model" = smpi ] && common=$smpi_common
    four_host_cases four-full-fatpipe fatpipe-cases "" "$model"
    for c in alltoall:pair:pair allreduce:lr:lr bcast:binomial_tree:binomial_tree; do
      coll=$(echo "$c" | cut -d: -f1)
      algo=$(echo "$c" | cut -d: -f2)
      malgo=$(echo "$c" | cut -d: -f3-)
      mcoll=$coll
      [ "$coll" = bcast ] && mcoll=broadcast
      time_rows flat-16-bb-fatpipe 16 "$work/hosts16" "--cfg=smpi/$coll:$algo" "$coll" "$sizes"
      write_case "$here/fatpipe-cases/flat-16-bb-fatpipe-$model-$coll-$algo.json" "platforms/flat-16-bb-fatpipe.xml" 16 "node-0 .. node-15, one rank per host in order" "$common --cfg=smpi/$coll:$algo" "$coll" "$algo" "$mcoll" "$malgo"
    done
    common=$cm02_common
  done
  [ "$only" = fatpipe ] && exit 0
fi

# Several ranks on one host (shared-host-cases/, `generate.sh shared-hosts`): hostfiles that list a host
# twice (or `host:2`, which smpirun unrolls), so ranks on one host message each other over its route to
# itself: a cluster's loopback (loopback_bw, loopback_lat), a FLAT cluster's link up and down, a Full
# zone's declared self route. Under the CM02 configuration of cases/, two of them also under smpirun's
# default SMPI model; SMPI's default selectors on one of them. Each line: name platform hostfile ranks
# model(cm02|smpi) algorithms.
if [ "$only" = all ] || [ "$only" = shared-hosts ]; then
  mkdir -p "$here/shared-host-cases"
  cm02_common=$common
  smpi_common="--cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:67108864"
  every="alltoall:pair allreduce:lr allreduce:rab_rdb allgather:NTSLR bcast:binomial_tree alltoall:mvapich2_scatter_dest"
  while read -r name platform hosts ranks model algos; do
    [ "$algos" = all ] && algos=$every
    common=$cm02_common
    [ "$model" = smpi ] && common=$smpi_common
    for c in $algos; do
      coll=${c%%:*}
      algo=${c#*:}
      mcoll=$coll
      [ "$coll" = bcast ] && mcoll=broadcast
      [ "$coll" = reduce_scatter ] && mcoll=reduce-scatter
      rows=""
      for size in 1024 65536 1048576; do
        cmd="smpirun -np $ranks -platform $platform -hostfile platforms/shared-hosts/$hosts $common --cfg=smpi/$coll:$algo coll $coll $size"
        line=$(cd "$work" && smpirun -np "$ranks" -platform "$here/$platform" -hostfile "$here/platforms/shared-hosts/$hosts" $common "--cfg=smpi/$coll:$algo" ./coll "$coll" "$size" 2>/dev/null | grep '^makespan_s=')
        t=$(echo "$line" | sed 's/^makespan_s=\([^ ]*\).*/\1/')
        rows="$rows${rows:+,
}    { \"size\": $size, \"makespan_s\": $t, \"command\": \"$cmd\" }"
      done
      write_case "$here/shared-host-cases/$name-$model-$coll-$algo.json" "$platform" "$ranks" "platforms/shared-hosts/$hosts" "$common --cfg=smpi/$coll:$algo" "$coll" "$algo" "$mcoll" "$algo"
    done
  done <<CASES
torus-loopback-twice platforms/shared-hosts/torus-2x2x2-loopback.xml hosts-torus-8-twice.txt 16 cm02 all
torus-loopback-colon2 platforms/shared-hosts/torus-2x2x2-loopback.xml hosts-torus-8-colon2.txt 16 cm02 alltoall:pair allreduce:lr bcast:binomial_tree
torus-loopback-colon2 platforms/shared-hosts/torus-2x2x2-loopback.xml hosts-torus-8-colon2.txt 16 cm02 alltoall:default allreduce:default allgather:default bcast:default reduce:default reduce_scatter:default scatter:default gather:default
flat-16-pairs platforms/flat-16.xml hosts-flat-16-pairs.txt 32 cm02 all
fattree-loopback-twice platforms/shared-hosts/fattree-4-3-loopback.xml hosts-fattree-32-twice.txt 64 cm02 alltoall:pair allreduce:lr allreduce:rab_rdb bcast:binomial_tree
small-platform-12 examples/small_platform.xml hosts-small-platform-12.txt 12 cm02 allreduce:lr allreduce:rab_rdb allgather:NTSLR bcast:binomial_tree
griffon-twice examples/griffon.xml hosts-griffon-16-twice.txt 32 cm02 all
cluster-multi-loopback-twice platforms/shared-hosts/cluster-multi-loopback.xml hosts-cluster-multi-16-twice.txt 32 cm02 all
torus-loopback-twice platforms/shared-hosts/torus-2x2x2-loopback.xml hosts-torus-8-twice.txt 16 smpi alltoall:pair allreduce:lr bcast:binomial_tree
flat-16-pairs platforms/flat-16.xml hosts-flat-16-pairs.txt 32 smpi alltoall:pair allreduce:lr bcast:binomial_tree
CASES
  common=$cm02_common
  [ "$only" = shared-hosts ] && exit 0
fi

# Issue 23 cases (smpi-cases/): SMPI algorithm names as Meshwork aliases, the SMPI variants, --barriers,
# FLAT clusters, a hostfile that uses 56 of the 64 hosts, and SMPI's selectors (default, ompi, mpich: the
# algorithm given is the selector, so each row checks what it chose at that size). Each line:
#   name platform ranks hosts(all|skip8) smpi-collective smpi-algorithm(- = default) barriers(yes|no)
#   meshwork-collective meshwork-algorithm sizes(comma-separated) [more --cfg options for smpirun]
# The Meshwork side is the SMPI name itself (an alias), so the case checks the mapping too.
mkdir -p "$here/smpi-cases"
# Host names of a hostfile: every host in order, or all but 8 (3, 10, ..., 52: 56 ranks).
write_named_hosts() { # count kind file
  : > "$3"
  i=0
  while [ $i -lt "$1" ]; do
    case "$2:$i" in skip8:3|skip8:10|skip8:17|skip8:24|skip8:31|skip8:38|skip8:45|skip8:52) ;; *) echo "node-$i" >> "$3" ;; esac
    i=$((i + 1))
  done
}
smpi_cases="torus-4x4x4-alltoall-basic_linear torus-4x4x4 64 all alltoall basic_linear no alltoall basic_linear 1024,65536,1048576
dragonfly-4x4x4-alltoall-basic_linear dragonfly-4x4x4 64 all alltoall basic_linear no alltoall basic_linear 1024,65536,1048576
fattree-4-3-alltoall-basic_linear fattree-4-3 64 all alltoall basic_linear no alltoall basic_linear 1024,65536,1048576
torus-4x4x4-allgather-NTSLR_NB torus-4x4x4 64 all allgather NTSLR_NB no allgather NTSLR_NB 1024,65536,1048576
fattree-4-3-allgather-NTSLR_NB fattree-4-3 64 all allgather NTSLR_NB no allgather NTSLR_NB 1024,65536,1048576
torus-4x4x4-reduce_scatter-ompi_ring torus-4x4x4 64 all reduce_scatter ompi_ring no reduce_scatter ompi_ring 65536,4194304,67108864
dragonfly-4x4x4-reduce_scatter-ompi_ring dragonfly-4x4x4 64 all reduce_scatter ompi_ring no reduce_scatter ompi_ring 65536,4194304,67108864
torus-4x4x4-reduce-scatter_gather torus-4x4x4 64 all reduce scatter_gather no reduce scatter_gather 1024,65536,1048576
fattree-4-3-reduce-scatter_gather fattree-4-3 64 all reduce scatter_gather no reduce scatter_gather 1024,65536,1048576
torus-4x4x4-bcast-NTSL torus-4x4x4 64 all bcast NTSL no bcast NTSL 1024,65536,1048576
dragonfly-4x4x4-bcast-NTSL dragonfly-4x4x4 64 all bcast NTSL no bcast NTSL 1024,65536,1048576
torus-4x4x4-scatter-ompi_binomial torus-4x4x4 64 all scatter ompi_binomial no scatter ompi_binomial 1024,65536,1048576
fattree-4-3-scatter-ompi_binomial fattree-4-3 64 all scatter ompi_binomial no scatter ompi_binomial 1024,65536,1048576
torus-4x4x4-gather-ompi_binomial torus-4x4x4 64 all gather ompi_binomial no gather ompi_binomial 1024,65536
torus-4x4x4-allreduce-rdb torus-4x4x4 64 all allreduce rdb no allreduce rdb 1024,65536,1048576
torus-4x4x4-alltoall-bruck torus-4x4x4 64 all alltoall bruck no alltoall bruck 1024,65536
torus-4x4x4-bcast-scatter_LR_allgather torus-4x4x4 64 all bcast scatter_LR_allgather no bcast scatter_LR_allgather 1024,65536,1048576
torus-4x4x4-barriers-alltoall-pair torus-4x4x4 64 all alltoall pair yes alltoall pair 1024,65536
torus-4x4x4-barriers-allreduce-rab_rdb torus-4x4x4 64 all allreduce rab_rdb yes allreduce rab_rdb 1024,65536,1048576
dragonfly-4x4x4-barriers-bcast-binomial_tree dragonfly-4x4x4 64 all bcast binomial_tree yes bcast binomial_tree 1024,65536,1048576
torus-4x4x4-barrier-default torus-4x4x4 64 all barrier - no barrier default 0
flat-16-alltoall-pair flat-16 16 all alltoall pair no alltoall pair 1024,65536,1048576
flat-16-backbone-alltoall-pair flat-16-backbone 16 all alltoall pair no alltoall pair 1024,65536,1048576
flat-16-backbone-allreduce-rab_rdb flat-16-backbone 16 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
torus-4x4x4-hosts56-alltoall-ring torus-4x4x4 56 skip8 alltoall ring no alltoall ring 65536,1048576
torus-4x4x4-hosts56-allreduce-rab_rdb torus-4x4x4 56 skip8 allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
torus-4x4x4-hosts56-bcast-binomial_tree torus-4x4x4 56 skip8 bcast binomial_tree no bcast binomial_tree 1024,65536,1048576
torus-4x4x4-alltoallv-ompi_basic_linear torus-4x4x4 64 all alltoallv ompi_basic_linear no alltoallv ompi_basic_linear 0
torus-4x4x4-alltoallv-ring torus-4x4x4 64 all alltoallv ring no alltoallv ring 0
fattree-4-3-alltoallv-pair fattree-4-3 64 all alltoallv pair no alltoallv pair 0
fattree-2-16-8-alltoall-pair fattree-2-16-8 128 all alltoall pair no alltoall pair 65536,1048576
fattree-2-16-8-allreduce-rab_rdb fattree-2-16-8 128 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
fattree-2-16-8-bcast-binomial_tree fattree-2-16-8 128 all bcast binomial_tree no bcast binomial_tree 1024,1048576
fattree-2-4-4-par2-alltoall-pair fattree-2-4-4-par2 16 all alltoall pair no alltoall pair 1024,65536,1048576
fattree-2-4-4-par2-allreduce-lr fattree-2-4-4-par2 16 all allreduce lr no allreduce lr 1024,65536,1048576
fattree-2-4-4-par2-allgather-NTSLR fattree-2-4-4-par2 16 all allgather NTSLR no allgather NTSLR 1024,65536,1048576
fattree-3-4-2-4-alltoall-pair fattree-3-4-2-4 32 all alltoall pair no alltoall pair 1024,65536,1048576
fattree-3-4-2-4-allreduce-rab_rdb fattree-3-4-2-4 32 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
fattree-3-4-2-4-bcast-binomial_tree fattree-3-4-2-4 32 all bcast binomial_tree no bcast binomial_tree 1024,65536,1048576
fattree-2-8-8-taper-alltoall-pair fattree-2-8-8-taper 64 all alltoall pair no alltoall pair 65536,1048576
fattree-2-8-8-taper-allgather-ring fattree-2-8-8-taper 64 all allgather ring no allgather smpi:ring 1024,65536,1048576
dragonfly-3x4x5x2-alltoall-ring dragonfly-3x4x5x2 120 all alltoall ring no alltoall ring 65536,1048576
dragonfly-3x4x5x2-allreduce-rab_rdb dragonfly-3x4x5x2 120 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
dragonfly-3x4x5x2-bcast-binomial_tree dragonfly-3x4x5x2 120 all bcast binomial_tree no bcast binomial_tree 1024,1048576
dragonfly-2x2x4x4-alltoall-pair dragonfly-2x2x4x4 64 all alltoall pair no alltoall pair 1024,65536,1048576
dragonfly-2x2x4x4-allreduce-lr dragonfly-2x2x4x4 64 all allreduce lr no allreduce lr 1024,65536,1048576
dragonfly-2x2x4x4-allgather-NTSLR dragonfly-2x2x4x4 64 all allgather NTSLR no allgather NTSLR 1024,65536,1048576
dragonfly-4x2x4x2-alltoall-pair dragonfly-4x2x4x2 64 all alltoall pair no alltoall pair 1024,65536,1048576
dragonfly-4x2x4x2-allreduce-rab_rdb dragonfly-4x2x4x2 64 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
dragonfly-4x2x4x2-bcast-binomial_tree dragonfly-4x2x4x2 64 all bcast binomial_tree no bcast binomial_tree 1024,65536,1048576
fattree-2-4-4-par2-shared-alltoall-pair fattree-2-4-4-par2-shared 16 all alltoall pair no alltoall pair 1024,65536,1048576
fattree-2-4-4-par2-shared-allreduce-lr fattree-2-4-4-par2-shared 16 all allreduce lr no allreduce lr 1024,65536,1048576
fattree-2-16-8-fatpipe-alltoall-pair fattree-2-16-8-fatpipe 128 all alltoall pair no alltoall pair 65536,1048576
fattree-2-16-8-fatpipe-allreduce-rab_rdb fattree-2-16-8-fatpipe 128 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
dragonfly-2x2x4x4-limiter-alltoall-pair dragonfly-2x2x4x4-limiter 64 all alltoall pair no alltoall pair 1024,65536,1048576
dragonfly-2x2x4x4-limiter-allgather-NTSLR dragonfly-2x2x4x4-limiter 64 all allgather NTSLR no allgather NTSLR 1024,65536,1048576
dragonfly-4x2x4x2-shared-limiter-alltoall-pair dragonfly-4x2x4x2-shared-limiter 64 all alltoall pair no alltoall pair 1024,65536,1048576
dragonfly-4x2x4x2-shared-limiter-allreduce-rab_rdb dragonfly-4x2x4x2-shared-limiter 64 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
flat-16-shared-alltoall-pair flat-16-shared 16 all alltoall pair no alltoall pair 1024,65536,1048576
flat-16-shared-allreduce-lr flat-16-shared 16 all allreduce lr no allreduce lr 1024,65536,1048576
flat-16-backbone-fatpipe-limiter-alltoall-pair flat-16-backbone-fatpipe-limiter 16 all alltoall pair no alltoall pair 1024,65536,1048576
flat-16-backbone-fatpipe-limiter-allreduce-rab_rdb flat-16-backbone-fatpipe-limiter 16 all allreduce rab_rdb no allreduce rab_rdb 1024,65536,1048576
torus-4x4x4-alltoall-ompi torus-4x4x4 64 all alltoall ompi no alltoall ompi 1024,65536,1048576,16777216
torus-4x4x4-alltoall-default torus-4x4x4 64 all alltoall default no alltoall default 1024,65536,1048576,16777216
torus-4x4x4-allreduce-ompi torus-4x4x4 64 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
torus-4x4x4-allreduce-default torus-4x4x4 64 all allreduce default no allreduce default 1024,65536,1048576,16777216
torus-4x4x4-allgather-ompi torus-4x4x4 64 all allgather ompi no allgather ompi 1024,65536,1048576,16777216
torus-4x4x4-allgather-default torus-4x4x4 64 all allgather default no allgather default 1024,65536,1048576,16777216
torus-4x4x4-reduce-default torus-4x4x4 64 all reduce default no reduce default 1024,65536,1048576,16777216
torus-4x4x4-gather-default torus-4x4x4 64 all gather default no gather default 1024,65536,1048576,16777216
torus-4x4x4-gather-ompi torus-4x4x4 64 all gather ompi no gather ompi 1024,65536,1048576,16777216
torus-4x4x4-scatter-default torus-4x4x4 64 all scatter default no scatter default 1024,65536,1048576,16777216
torus-4x4x4-scatter-ompi torus-4x4x4 64 all scatter ompi no scatter ompi 1024,65536,1048576,16777216
torus-4x4x4-reduce-ompi torus-4x4x4 64 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
torus-4x4x4-reduce_scatter-default torus-4x4x4 64 all reduce_scatter default no reduce_scatter default 1024,65536,1048576,16777216
torus-4x4x4-reduce_scatter-ompi torus-4x4x4 64 all reduce_scatter ompi no reduce_scatter ompi 1024,65536,1048576,16777216
torus-4x4x4-barrier-ompi torus-4x4x4 64 all barrier ompi no barrier ompi 0
fattree-4-3-alltoall-ompi fattree-4-3 64 all alltoall ompi no alltoall ompi 1024,65536,1048576,16777216
fattree-4-3-alltoall-default fattree-4-3 64 all alltoall default no alltoall default 1024,65536,1048576,16777216
fattree-4-3-allreduce-ompi fattree-4-3 64 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
fattree-4-3-allreduce-default fattree-4-3 64 all allreduce default no allreduce default 1024,65536,1048576,16777216
fattree-4-3-allgather-ompi fattree-4-3 64 all allgather ompi no allgather ompi 1024,65536,1048576,16777216
fattree-4-3-allgather-default fattree-4-3 64 all allgather default no allgather default 1024,65536,1048576,16777216
fattree-4-3-reduce-default fattree-4-3 64 all reduce default no reduce default 1024,65536,1048576,16777216
fattree-4-3-gather-default fattree-4-3 64 all gather default no gather default 1024,65536,1048576,16777216
fattree-4-3-gather-ompi fattree-4-3 64 all gather ompi no gather ompi 1024,65536,1048576,16777216
fattree-4-3-scatter-default fattree-4-3 64 all scatter default no scatter default 1024,65536,1048576,16777216
fattree-4-3-scatter-ompi fattree-4-3 64 all scatter ompi no scatter ompi 1024,65536,1048576,16777216
fattree-4-3-reduce-ompi fattree-4-3 64 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
fattree-4-3-reduce_scatter-default fattree-4-3 64 all reduce_scatter default no reduce_scatter default 1024,65536,1048576,16777216
fattree-4-3-reduce_scatter-ompi fattree-4-3 64 all reduce_scatter ompi no reduce_scatter ompi 1024,65536,1048576,16777216
fattree-4-3-barrier-ompi fattree-4-3 64 all barrier ompi no barrier ompi 0
torus-4x4x4-alltoall-mpich torus-4x4x4 64 all alltoall mpich no alltoall mpich 65536,1048576,16777216
torus-4x4x4-allgather-mpich torus-4x4x4 64 all allgather mpich no allgather mpich 1024,65536,1048576,16777216
torus-4x4x4-reduce_scatter-mpich torus-4x4x4 64 all reduce_scatter mpich no reduce_scatter mpich 4194304,16777216
fattree-4-3-alltoall-mpich fattree-4-3 64 all alltoall mpich no alltoall mpich 65536,1048576,16777216
fattree-4-3-allgather-mpich fattree-4-3 64 all allgather mpich no allgather mpich 1024,65536,1048576,16777216
fattree-4-3-reduce_scatter-mpich fattree-4-3 64 all reduce_scatter mpich no reduce_scatter mpich 4194304,16777216
torus-4x4x4-gather-mpich torus-4x4x4 64 all gather mpich no gather mpich 1024,65536,1048576,16777216
torus-4x4x4-scatter-mpich torus-4x4x4 64 all scatter mpich no scatter mpich 1024,65536,1048576,16777216
torus-4x4x4-barrier-mpich torus-4x4x4 64 all barrier mpich no barrier mpich 0"
# SMPI's selectors at other rank counts: 12 and 16 ranks on FLAT clusters, 27, 45, 48 and 96 on
# 3x3x3, 5x3x3, 4x4x3 and 4x4x6 tori, 128 on fattree-2-16-8, each collective at the sizes where the selector
# runs an algorithm Meshwork models (reduce_scatter at the largest multiple of 4 x ranks bytes below each size:
# coll.c gives each rank ints / n; above 64 ranks no 16 MiB blocks, and alltoall default is ompi's).
smpi_cases="$smpi_cases
flat-12-alltoall-default flat-12 12 all alltoall default no alltoall default 1024,65536,1048576,16777216
flat-12-allreduce-default flat-12 12 all allreduce default no allreduce default 1024,65536,1048576,16777216
flat-12-allgather-default flat-12 12 all allgather default no allgather default 1024,65536,1048576,16777216
flat-12-reduce-default flat-12 12 all reduce default no reduce default 1024,65536,1048576,16777216
flat-12-reduce_scatter-default flat-12 12 all reduce_scatter default no reduce_scatter default 1008,65520,1048560,16777200
flat-12-bcast-default flat-12 12 all bcast default no bcast default 1024,65536,1048576,16777216
flat-12-gather-default flat-12 12 all gather default no gather default 1024,65536,1048576,16777216
flat-12-scatter-default flat-12 12 all scatter default no scatter default 1024,65536,1048576,16777216
flat-12-barrier-default flat-12 12 all barrier default no barrier default 0
flat-12-alltoall-ompi flat-12 12 all alltoall ompi no alltoall ompi 1024,65536,1048576,16777216
flat-12-allreduce-ompi flat-12 12 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
flat-12-allgather-ompi flat-12 12 all allgather ompi no allgather ompi 1024,65536,1048576,16777216
flat-12-reduce-ompi flat-12 12 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
flat-12-reduce_scatter-ompi flat-12 12 all reduce_scatter ompi no reduce_scatter ompi 1008,65520,1048560,16777200
flat-12-bcast-ompi flat-12 12 all bcast ompi no bcast ompi 65536,1048576,16777216
flat-12-gather-ompi flat-12 12 all gather ompi no gather ompi 1024,65536,1048576,16777216
flat-12-scatter-ompi flat-12 12 all scatter ompi no scatter ompi 1024,65536,1048576,16777216
flat-12-barrier-ompi flat-12 12 all barrier ompi no barrier ompi 0
flat-12-alltoall-mpich flat-12 12 all alltoall mpich no alltoall mpich 65536,1048576,16777216
flat-12-allgather-mpich flat-12 12 all allgather mpich no allgather mpich 1024,65536,1048576,16777216
flat-12-reduce_scatter-mpich flat-12 12 all reduce_scatter mpich no reduce_scatter mpich 16777200
flat-12-gather-mpich flat-12 12 all gather mpich no gather mpich 1024,65536,1048576,16777216
flat-12-scatter-mpich flat-12 12 all scatter mpich no scatter mpich 1024,65536,1048576,16777216
flat-12-barrier-mpich flat-12 12 all barrier mpich no barrier mpich 0
flat-16-alltoall-default flat-16 16 all alltoall default no alltoall default 1024,65536,1048576,16777216
flat-16-allreduce-default flat-16 16 all allreduce default no allreduce default 1024,65536,1048576,16777216
flat-16-allgather-default flat-16 16 all allgather default no allgather default 1024,65536,1048576,16777216
flat-16-reduce-default flat-16 16 all reduce default no reduce default 1024,65536,1048576,16777216
flat-16-reduce_scatter-default flat-16 16 all reduce_scatter default no reduce_scatter default 1024,65536,1048576,16777216
flat-16-bcast-default flat-16 16 all bcast default no bcast default 1024,65536,1048576,16777216
flat-16-gather-default flat-16 16 all gather default no gather default 1024,65536,1048576,16777216
flat-16-scatter-default flat-16 16 all scatter default no scatter default 1024,65536,1048576,16777216
flat-16-barrier-default flat-16 16 all barrier default no barrier default 0
flat-16-alltoall-ompi flat-16 16 all alltoall ompi no alltoall ompi 1024,65536,1048576,16777216
flat-16-allreduce-ompi flat-16 16 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
flat-16-allgather-ompi flat-16 16 all allgather ompi no allgather ompi 1024,65536,1048576,16777216
flat-16-reduce-ompi flat-16 16 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
flat-16-reduce_scatter-ompi flat-16 16 all reduce_scatter ompi no reduce_scatter ompi 1024,65536,1048576,16777216
flat-16-bcast-ompi flat-16 16 all bcast ompi no bcast ompi 65536,1048576,16777216
flat-16-gather-ompi flat-16 16 all gather ompi no gather ompi 1024,65536,1048576,16777216
flat-16-scatter-ompi flat-16 16 all scatter ompi no scatter ompi 1024,65536,1048576,16777216
flat-16-barrier-ompi flat-16 16 all barrier ompi no barrier ompi 0
flat-16-alltoall-mpich flat-16 16 all alltoall mpich no alltoall mpich 65536,1048576,16777216
flat-16-allgather-mpich flat-16 16 all allgather mpich no allgather mpich 1024,65536,1048576,16777216
flat-16-reduce_scatter-mpich flat-16 16 all reduce_scatter mpich no reduce_scatter mpich 16777216
flat-16-gather-mpich flat-16 16 all gather mpich no gather mpich 1024,65536,1048576,16777216
flat-16-scatter-mpich flat-16 16 all scatter mpich no scatter mpich 1024,65536,1048576,16777216
flat-16-barrier-mpich flat-16 16 all barrier mpich no barrier mpich 0
torus-3x3x3-alltoall-default torus-3x3x3 27 all alltoall default no alltoall default 1024,65536,1048576,16777216
torus-3x3x3-allreduce-default torus-3x3x3 27 all allreduce default no allreduce default 1024,65536,1048576,16777216
torus-3x3x3-allgather-default torus-3x3x3 27 all allgather default no allgather default 1024,65536,1048576,16777216
torus-3x3x3-reduce-default torus-3x3x3 27 all reduce default no reduce default 1024,65536,1048576,16777216
torus-3x3x3-reduce_scatter-default torus-3x3x3 27 all reduce_scatter default no reduce_scatter default 972,65448,1048572,16777152
torus-3x3x3-bcast-default torus-3x3x3 27 all bcast default no bcast default 1024,65536,1048576,16777216
torus-3x3x3-gather-default torus-3x3x3 27 all gather default no gather default 1024,65536,1048576,16777216
torus-3x3x3-scatter-default torus-3x3x3 27 all scatter default no scatter default 1024,65536,1048576,16777216
torus-3x3x3-barrier-default torus-3x3x3 27 all barrier default no barrier default 0
torus-3x3x3-alltoall-ompi torus-3x3x3 27 all alltoall ompi no alltoall ompi 1024,65536,1048576,16777216
torus-3x3x3-allreduce-ompi torus-3x3x3 27 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
torus-3x3x3-allgather-ompi torus-3x3x3 27 all allgather ompi no allgather ompi 1024,65536,1048576,16777216
torus-3x3x3-reduce-ompi torus-3x3x3 27 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
torus-3x3x3-reduce_scatter-ompi torus-3x3x3 27 all reduce_scatter ompi no reduce_scatter ompi 972,65448,1048572,16777152
torus-3x3x3-bcast-ompi torus-3x3x3 27 all bcast ompi no bcast ompi 65536,1048576,16777216
torus-3x3x3-gather-ompi torus-3x3x3 27 all gather ompi no gather ompi 1024,65536,1048576,16777216
torus-3x3x3-scatter-ompi torus-3x3x3 27 all scatter ompi no scatter ompi 1024,65536,1048576,16777216
torus-3x3x3-barrier-ompi torus-3x3x3 27 all barrier ompi no barrier ompi 0
torus-3x3x3-allgather-mpich torus-3x3x3 27 all allgather mpich no allgather mpich 1024,65536,1048576,16777216
torus-3x3x3-reduce_scatter-mpich torus-3x3x3 27 all reduce_scatter mpich no reduce_scatter mpich 16777152
torus-3x3x3-gather-mpich torus-3x3x3 27 all gather mpich no gather mpich 1024,65536,1048576,16777216
torus-3x3x3-scatter-mpich torus-3x3x3 27 all scatter mpich no scatter mpich 1024,65536,1048576,16777216
torus-3x3x3-barrier-mpich torus-3x3x3 27 all barrier mpich no barrier mpich 0
torus-5x3x3-alltoall-default torus-5x3x3 45 all alltoall default no alltoall default 1024,65536,1048576,16777216
torus-5x3x3-allreduce-default torus-5x3x3 45 all allreduce default no allreduce default 1024,65536,1048576,16777216
torus-5x3x3-allgather-default torus-5x3x3 45 all allgather default no allgather default 1024,65536,1048576,16777216
torus-5x3x3-reduce-default torus-5x3x3 45 all reduce default no reduce default 1024,65536,1048576,16777216
torus-5x3x3-reduce_scatter-default torus-5x3x3 45 all reduce_scatter default no reduce_scatter default 900,65520,1048500,16777080
torus-5x3x3-bcast-default torus-5x3x3 45 all bcast default no bcast default 1024,65536,1048576,16777216
torus-5x3x3-gather-default torus-5x3x3 45 all gather default no gather default 1024,65536,1048576,16777216
torus-5x3x3-scatter-default torus-5x3x3 45 all scatter default no scatter default 1024,65536,1048576,16777216
torus-5x3x3-barrier-default torus-5x3x3 45 all barrier default no barrier default 0
torus-5x3x3-alltoall-ompi torus-5x3x3 45 all alltoall ompi no alltoall ompi 1024,65536,1048576,16777216
torus-5x3x3-allreduce-ompi torus-5x3x3 45 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
torus-5x3x3-allgather-ompi torus-5x3x3 45 all allgather ompi no allgather ompi 1024,65536,1048576,16777216
torus-5x3x3-reduce-ompi torus-5x3x3 45 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
torus-5x3x3-reduce_scatter-ompi torus-5x3x3 45 all reduce_scatter ompi no reduce_scatter ompi 900,65520,1048500,16777080
torus-5x3x3-bcast-ompi torus-5x3x3 45 all bcast ompi no bcast ompi 1024
torus-5x3x3-gather-ompi torus-5x3x3 45 all gather ompi no gather ompi 1024,65536,1048576,16777216
torus-5x3x3-scatter-ompi torus-5x3x3 45 all scatter ompi no scatter ompi 1024,65536,1048576,16777216
torus-5x3x3-barrier-ompi torus-5x3x3 45 all barrier ompi no barrier ompi 0
torus-5x3x3-allgather-mpich torus-5x3x3 45 all allgather mpich no allgather mpich 1024,65536,1048576,16777216
torus-5x3x3-reduce_scatter-mpich torus-5x3x3 45 all reduce_scatter mpich no reduce_scatter mpich 16777080
torus-5x3x3-gather-mpich torus-5x3x3 45 all gather mpich no gather mpich 1024,65536,1048576,16777216
torus-5x3x3-scatter-mpich torus-5x3x3 45 all scatter mpich no scatter mpich 1024,65536,1048576,16777216
torus-5x3x3-barrier-mpich torus-5x3x3 45 all barrier mpich no barrier mpich 0
torus-4x4x3-alltoall-default torus-4x4x3 48 all alltoall default no alltoall default 1024,65536,1048576,16777216
torus-4x4x3-allreduce-default torus-4x4x3 48 all allreduce default no allreduce default 1024,65536,1048576,16777216
torus-4x4x3-allgather-default torus-4x4x3 48 all allgather default no allgather default 1024,65536,1048576,16777216
torus-4x4x3-reduce-default torus-4x4x3 48 all reduce default no reduce default 1024,65536,1048576,16777216
torus-4x4x3-reduce_scatter-default torus-4x4x3 48 all reduce_scatter default no reduce_scatter default 960,65472,1048512,16777152
torus-4x4x3-bcast-default torus-4x4x3 48 all bcast default no bcast default 1024,65536,1048576,16777216
torus-4x4x3-gather-default torus-4x4x3 48 all gather default no gather default 1024,65536,1048576,16777216
torus-4x4x3-scatter-default torus-4x4x3 48 all scatter default no scatter default 1024,65536,1048576,16777216
torus-4x4x3-barrier-default torus-4x4x3 48 all barrier default no barrier default 0
torus-4x4x3-alltoall-ompi torus-4x4x3 48 all alltoall ompi no alltoall ompi 1024,65536,1048576,16777216
torus-4x4x3-allreduce-ompi torus-4x4x3 48 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
torus-4x4x3-allgather-ompi torus-4x4x3 48 all allgather ompi no allgather ompi 1024,65536,1048576,16777216
torus-4x4x3-reduce-ompi torus-4x4x3 48 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
torus-4x4x3-reduce_scatter-ompi torus-4x4x3 48 all reduce_scatter ompi no reduce_scatter ompi 960,65472,1048512,16777152
torus-4x4x3-bcast-ompi torus-4x4x3 48 all bcast ompi no bcast ompi 1024
torus-4x4x3-gather-ompi torus-4x4x3 48 all gather ompi no gather ompi 1024,65536,1048576,16777216
torus-4x4x3-scatter-ompi torus-4x4x3 48 all scatter ompi no scatter ompi 1024,65536,1048576,16777216
torus-4x4x3-barrier-ompi torus-4x4x3 48 all barrier ompi no barrier ompi 0
torus-4x4x3-alltoall-mpich torus-4x4x3 48 all alltoall mpich no alltoall mpich 65536,1048576,16777216
torus-4x4x3-allgather-mpich torus-4x4x3 48 all allgather mpich no allgather mpich 1024,65536,1048576,16777216
torus-4x4x3-reduce_scatter-mpich torus-4x4x3 48 all reduce_scatter mpich no reduce_scatter mpich 16777152
torus-4x4x3-gather-mpich torus-4x4x3 48 all gather mpich no gather mpich 1024,65536,1048576,16777216
torus-4x4x3-scatter-mpich torus-4x4x3 48 all scatter mpich no scatter mpich 1024,65536,1048576,16777216
torus-4x4x3-barrier-mpich torus-4x4x3 48 all barrier mpich no barrier mpich 0
torus-4x4x6-allreduce-default torus-4x4x6 96 all allreduce default no allreduce default 1024,65536,1048576,16777216
torus-4x4x6-allgather-default torus-4x4x6 96 all allgather default no allgather default 1024,65536,1048576
torus-4x4x6-reduce-default torus-4x4x6 96 all reduce default no reduce default 1024,65536,1048576,16777216
torus-4x4x6-reduce_scatter-default torus-4x4x6 96 all reduce_scatter default no reduce_scatter default 768,65280,1048320,16776960
torus-4x4x6-bcast-default torus-4x4x6 96 all bcast default no bcast default 1024,65536,1048576,16777216
torus-4x4x6-gather-default torus-4x4x6 96 all gather default no gather default 1024,65536,1048576
torus-4x4x6-scatter-default torus-4x4x6 96 all scatter default no scatter default 1024,65536,1048576
torus-4x4x6-barrier-default torus-4x4x6 96 all barrier default no barrier default 0
torus-4x4x6-alltoall-ompi torus-4x4x6 96 all alltoall ompi no alltoall ompi 1024,65536
torus-4x4x6-allreduce-ompi torus-4x4x6 96 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
torus-4x4x6-allgather-ompi torus-4x4x6 96 all allgather ompi no allgather ompi 1024,65536,1048576
torus-4x4x6-reduce-ompi torus-4x4x6 96 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
torus-4x4x6-reduce_scatter-ompi torus-4x4x6 96 all reduce_scatter ompi no reduce_scatter ompi 768,65280,1048320,16776960
torus-4x4x6-gather-ompi torus-4x4x6 96 all gather ompi no gather ompi 1024,65536,1048576
torus-4x4x6-scatter-ompi torus-4x4x6 96 all scatter ompi no scatter ompi 1024,65536,1048576
torus-4x4x6-barrier-ompi torus-4x4x6 96 all barrier ompi no barrier ompi 0
torus-4x4x6-alltoall-mpich torus-4x4x6 96 all alltoall mpich no alltoall mpich 65536,1048576
torus-4x4x6-allgather-mpich torus-4x4x6 96 all allgather mpich no allgather mpich 1024,65536,1048576
torus-4x4x6-reduce_scatter-mpich torus-4x4x6 96 all reduce_scatter mpich no reduce_scatter mpich 16776960
torus-4x4x6-gather-mpich torus-4x4x6 96 all gather mpich no gather mpich 1024,65536,1048576
torus-4x4x6-scatter-mpich torus-4x4x6 96 all scatter mpich no scatter mpich 1024,65536,1048576
torus-4x4x6-barrier-mpich torus-4x4x6 96 all barrier mpich no barrier mpich 0
fattree-2-16-8-allreduce-default fattree-2-16-8 128 all allreduce default no allreduce default 1024,65536,1048576,16777216
fattree-2-16-8-allgather-default fattree-2-16-8 128 all allgather default no allgather default 1024,65536,1048576
fattree-2-16-8-reduce-default fattree-2-16-8 128 all reduce default no reduce default 1024,65536,1048576,16777216
fattree-2-16-8-reduce_scatter-default fattree-2-16-8 128 all reduce_scatter default no reduce_scatter default 1024,65536,1048576,16777216
fattree-2-16-8-bcast-default fattree-2-16-8 128 all bcast default no bcast default 1024,65536,1048576,16777216
fattree-2-16-8-gather-default fattree-2-16-8 128 all gather default no gather default 1024,65536,1048576
fattree-2-16-8-scatter-default fattree-2-16-8 128 all scatter default no scatter default 1024,65536,1048576
fattree-2-16-8-barrier-default fattree-2-16-8 128 all barrier default no barrier default 0
fattree-2-16-8-alltoall-ompi fattree-2-16-8 128 all alltoall ompi no alltoall ompi 1024,65536,1048576
fattree-2-16-8-allreduce-ompi fattree-2-16-8 128 all allreduce ompi no allreduce ompi 1024,65536,1048576,16777216
fattree-2-16-8-allgather-ompi fattree-2-16-8 128 all allgather ompi no allgather ompi 1024,65536,1048576
fattree-2-16-8-reduce-ompi fattree-2-16-8 128 all reduce ompi no reduce ompi 1024,65536,1048576,16777216
fattree-2-16-8-reduce_scatter-ompi fattree-2-16-8 128 all reduce_scatter ompi no reduce_scatter ompi 1024,65536,1048576,16777216
fattree-2-16-8-gather-ompi fattree-2-16-8 128 all gather ompi no gather ompi 1024,65536,1048576
fattree-2-16-8-scatter-ompi fattree-2-16-8 128 all scatter ompi no scatter ompi 1024,65536,1048576
fattree-2-16-8-barrier-ompi fattree-2-16-8 128 all barrier ompi no barrier ompi 0
fattree-2-16-8-alltoall-mpich fattree-2-16-8 128 all alltoall mpich no alltoall mpich 65536,1048576
fattree-2-16-8-allgather-mpich fattree-2-16-8 128 all allgather mpich no allgather mpich 1024,65536,1048576
fattree-2-16-8-reduce_scatter-mpich fattree-2-16-8 128 all reduce_scatter mpich no reduce_scatter mpich 16777216
fattree-2-16-8-gather-mpich fattree-2-16-8 128 all gather mpich no gather mpich 1024,65536,1048576
fattree-2-16-8-scatter-mpich fattree-2-16-8 128 all scatter mpich no scatter mpich 1024,65536,1048576
fattree-2-16-8-barrier-mpich fattree-2-16-8 128 all barrier mpich no barrier mpich 0
torus-3x3x3-reduce-ompi_binary torus-3x3x3 27 all reduce ompi_binary no reduce ompi_binary 1024,65536,1048576
torus-5x3x3-reduce_scatter-ompi_basic_recursivehalving torus-5x3x3 45 all reduce_scatter ompi_basic_recursivehalving no reduce_scatter ompi_basic_recursivehalving 65520,1048500
torus-3x3x3-barrier-ompi_recursivedoubling torus-3x3x3 27 all barrier ompi_recursivedoubling no barrier ompi_recursivedoubling 0
torus-5x3x3-bcast-scatter_rdb_allgather torus-5x3x3 45 all bcast scatter_rdb_allgather no bcast scatter_rdb_allgather 1024,65536,1048576"
# SMPI's SMP algorithms on one rank per host (an intra-node communicator of one rank) and the selector
# choices that run them, each row with the init_smp messages of its first call: mpich's allreduce and
# reduce (mvapich2_two_level), bcast (SMP_binomial) and reduce_scatter below 512 Ki elements (mpich_rdb,
# at the largest multiple of 4 x ranks bytes below each size), ompi's bcast where it runs
# mvapich2_knomial_intra_node (all sizes on 64 ranks, from 2 KiB on 45 and 48, below 4 KiB on 16 and 27),
# and some of these algorithms by name; the mvapich2 selector's choices Meshwork models (allreduce,
# allgather, reduce_scatter, barrier, scatter, gather, bcast, reduce, alltoall) and the impi allreduce. Made by `./generate.sh smpi-cases '*-smp-*'`.
smp_cases=$(for pn in torus-4x4x4:64 fattree-4-3:64 flat-16:16 torus-3x3x3:27 torus-5x3x3:45 torus-4x4x3:48; do
  p=${pn%:*} n=${pn#*:}
  for c in allreduce reduce bcast; do echo "$p-smp-$c-mpich $p $n all $c mpich no $c mpich 1024,65536,1048576,16777216"; done
  rs=$(for s in 1024 65536 1048576; do printf '%s,' $((s - s % (4 * n))); done)
  echo "$p-smp-reduce_scatter-mpich $p $n all reduce_scatter mpich no reduce_scatter mpich ${rs%,}"
  case $n in 64) k=1024,65536,1048576,16777216 ;; 45|48) k=65536,1048576,16777216 ;; *) k=1024 ;; esac
  echo "$p-smp-bcast-ompi $p $n all bcast ompi no bcast ompi $k"
  # The mvapich2 selector (its 1-ppn tables) where it runs what Meshwork models: alltoall bruck at 1 KiB from 17 ranks.
  echo "$p-smp-allreduce-mvapich2 $p $n all allreduce mvapich2 no allreduce mvapich2 1024,65536,1048576,16777216
$p-smp-allgather-mvapich2 $p $n all allgather mvapich2 no allgather mvapich2 1024,65536,1048576
$p-smp-reduce_scatter-mvapich2 $p $n all reduce_scatter mvapich2 no reduce_scatter mvapich2 ${rs%,}
$p-smp-barrier-mvapich2 $p $n all barrier mvapich2 no barrier mvapich2 0
$p-smp-scatter-mvapich2 $p $n all scatter mvapich2 no scatter mvapich2 16,1024,65536,1048576
$p-smp-gather-mvapich2 $p $n all gather mvapich2 no gather mvapich2 1024,65536,1048576
$p-smp-bcast-mvapich2 $p $n all bcast mvapich2 no bcast mvapich2 1024,16384,65536,1048576,16777216"
  if [ "$n" -gt 16 ]; then echo "$p-smp-alltoall-mvapich2 $p $n all alltoall mvapich2 no alltoall mvapich2 1024"; fi
  # reduce: below 64 KiB (1 MiB on 16 ranks) it runs MVAPICH2's k-nomial reduce (the -ar- cases below time it).
  if [ "$n" -gt 16 ]; then r=65536,1048576,16777216; else r=1048576,16777216; fi
  echo "$p-smp-reduce-mvapich2 $p $n all reduce mvapich2 no reduce mvapich2 $r"
  # The impi allreduce (init_smp, then Intel MPI's table): at 64 KiB on 16 ranks it runs ompi_ring_segmented (flat-16-ar-allreduce-impi below).
  if [ "$n" -gt 16 ]; then r=1024,65536,1048576,16777216; else r=1024,1048576,16777216; fi
  echo "$p-smp-allreduce-impi $p $n all allreduce impi no allreduce impi $r"
done
echo "torus-4x4x4-smp-bcast-SMP_binomial torus-4x4x4 64 all bcast SMP_binomial no bcast SMP_binomial 1024,1048576
torus-3x3x3-smp-allreduce-mvapich2_two_level torus-3x3x3 27 all allreduce mvapich2_two_level no allreduce mvapich2_two_level 1024,1048576
torus-5x3x3-smp-reduce-mvapich2_two_level torus-5x3x3 45 all reduce mvapich2_two_level no reduce mvapich2_two_level 1024,65536
torus-4x4x3-smp-reduce_scatter-mpich_rdb torus-4x4x3 48 all reduce_scatter mpich_rdb no reduce_scatter mpich_rdb 960,65472
torus-5x3x3-smp-bcast-mvapich2_knomial_intra_node torus-5x3x3 45 all bcast mvapich2_knomial_intra_node no bcast mvapich2_knomial_intra_node 1024,1048576")
# The impi selector's other collectives (init_smp, then Intel MPI's 1-ppn tables) where they run what
# Meshwork models, on torus-4x4x4, flat-16 and torus-5x3x3: alltoall bruck below 523 B from 33 ranks,
# pair at 128 KiB on 16; reduce from 1 MiB on 16 (below, MVAPICH2's k-nomial: the -ar- cases); no scatter (its table
# ends at 8 ranks). Made by `./generate.sh smpi-cases '*-smp-*-impi'`.
impi_cases=$(for pn in torus-4x4x4:64 flat-16:16 torus-5x3x3:45; do
  p=${pn%:*} n=${pn#*:}
  rs=$(for s in 1024 16384 65536 1048576; do printf '%s,' $((s - s % (4 * n))); done)
  if [ "$n" -gt 16 ]; then a=512 r=65536,1048576,16777216 g=1024,65536,262144; else a=131072 r=1048576,16777216 g=1024,65536,1048576; fi
  for c in bcast:1024,65536,1048576,16777216 reduce:$r reduce_scatter:${rs%,} allgather:16384,65536,262144 gather:$g barrier:0 alltoall:$a; do
    echo "$p-smp-${c%%:*}-impi $p $n all ${c%%:*} impi no ${c%%:*} impi ${c#*:}"
  done
done
echo "torus-4x4x4-smp-alltoallv-impi torus-4x4x4 64 all alltoallv impi no alltoallv impi 0")
# bcast, barrier, gather and scatter: the SMPI 3.32 names Meshwork runs since the h-smpi-bc branch (NTSB,
# NTSL_Isend, flattree, flattree_pipeline, ompi_pipeline at each of Open MPI's segment sizes, ompi_split_bintree
# with its SMP_linear fallback at 1 KiB, SMP_binary, SMP_linear, mvapich2_inter_node; ompi_tree, ompi_doublering,
# mpich_smp; ompi_linear_sync at each first-segment size; mvapich2_two_level_direct and _binomial; mvapich2_intra_node
# on both sides of 64 ranks; gather mvapich2_two_level), the ompi bcast where it runs NTSB (12 ranks, 16 B to 16 KiB)
# and the impi gather where it runs mvapich2_two_level (64 ranks, 128 B and 1 MiB); on 2 ranks (hosts node-0 and node-1,
# platforms/hosts-first2.txt) ompi_two_procs and the ompi bcast (ompi_pipeline, NTSB, knomial, NTSL by size), and the
# ompi bcast on 128 ranks where it runs NTSB (1 KiB, 32 KiB) or NTSL (16 KiB). Made by `./generate.sh smpi-cases '*-bc-*'`.
bc_cases="torus-4x4x4-bc-bcast-NTSB torus-4x4x4 64 all bcast NTSB no bcast NTSB 1024,65536,1048576
fattree-4-3-bc-bcast-NTSB fattree-4-3 64 all bcast NTSB no bcast NTSB 1024,65536,1048576
flat-12-bc-bcast-NTSB flat-12 12 all bcast NTSB no bcast NTSB 1024,100000,1048576
torus-4x4x4-bc-bcast-NTSL_Isend torus-4x4x4 64 all bcast NTSL_Isend no bcast NTSL_Isend 1024,65536,1048576
torus-4x4x4-bc-bcast-flattree torus-4x4x4 64 all bcast flattree no bcast flattree 1024,65536,1048576
flat-16-bc-bcast-flattree flat-16 16 all bcast flattree no bcast flattree 1024,65536,1048576
torus-4x4x4-bc-bcast-flattree_pipeline torus-4x4x4 64 all bcast flattree_pipeline no bcast flattree_pipeline 1024,65536,1048576
fattree-4-3-bc-bcast-flattree_pipeline fattree-4-3 64 all bcast flattree_pipeline no bcast flattree_pipeline 1024,65536,1048576
torus-4x4x4-bc-bcast-ompi_pipeline torus-4x4x4 64 all bcast ompi_pipeline no bcast ompi_pipeline 1024,65536,1048576,20000000
flat-16-bc-bcast-ompi_pipeline flat-16 16 all bcast ompi_pipeline no bcast ompi_pipeline 65536,4000000,8000000
torus-4x4x4-bc-bcast-ompi_split_bintree torus-4x4x4 64 all bcast ompi_split_bintree no bcast ompi_split_bintree 1024,65536,1048576
fattree-4-3-bc-bcast-ompi_split_bintree fattree-4-3 64 all bcast ompi_split_bintree no bcast ompi_split_bintree 65536,1048576
torus-3x3x3-bc-bcast-ompi_split_bintree torus-3x3x3 27 all bcast ompi_split_bintree no bcast ompi_split_bintree 65536,1048576
torus-4x4x4-bc-smp-bcast-SMP_binary torus-4x4x4 64 all bcast SMP_binary no bcast SMP_binary 1024,1048576
torus-4x4x4-bc-smp-bcast-SMP_linear torus-4x4x4 64 all bcast SMP_linear no bcast SMP_linear 1024,1048576
torus-4x4x4-bc-smp-bcast-mvapich2_inter_node torus-4x4x4 64 all bcast mvapich2_inter_node no bcast mvapich2_inter_node 1024,65536,1048576
torus-5x3x3-bc-smp-bcast-mvapich2_inter_node torus-5x3x3 45 all bcast mvapich2_inter_node no bcast mvapich2_inter_node 1024,65536,1048576
flat-12-bc-bcast-ompi flat-12 12 all bcast ompi no bcast ompi 16,4096,8192,16384
torus-4x4x4-bc-barrier-ompi_tree torus-4x4x4 64 all barrier ompi_tree no barrier ompi_tree 0
torus-3x3x3-bc-barrier-ompi_tree torus-3x3x3 27 all barrier ompi_tree no barrier ompi_tree 0
flat-12-bc-barrier-ompi_tree flat-12 12 all barrier ompi_tree no barrier ompi_tree 0
torus-4x4x4-bc-barrier-ompi_doublering torus-4x4x4 64 all barrier ompi_doublering no barrier ompi_doublering 0
flat-12-bc-barrier-ompi_doublering flat-12 12 all barrier ompi_doublering no barrier ompi_doublering 0
torus-4x4x4-bc-smp-barrier-mpich_smp torus-4x4x4 64 all barrier mpich_smp no barrier mpich_smp 0
flat-16-bc-smp-barrier-mpich_smp flat-16 16 all barrier mpich_smp no barrier mpich_smp 0
torus-4x4x4-bc-gather-ompi_linear_sync torus-4x4x4 64 all gather ompi_linear_sync no gather ompi_linear_sync 1024,65536,1048576
fattree-4-3-bc-gather-ompi_linear_sync fattree-4-3 64 all gather ompi_linear_sync no gather ompi_linear_sync 1024,65536,1048576
flat-12-bc-gather-ompi_linear_sync flat-12 12 all gather ompi_linear_sync no gather ompi_linear_sync 1024,65536,1048576
torus-4x4x4-bc-smp-scatter-mvapich2_two_level_direct torus-4x4x4 64 all scatter mvapich2_two_level_direct no scatter mvapich2_two_level_direct 1024,65536
flat-16-bc-smp-scatter-mvapich2_two_level_direct flat-16 16 all scatter mvapich2_two_level_direct no scatter mvapich2_two_level_direct 1024,65536
torus-4x4x4-bc-smp-scatter-mvapich2_two_level_binomial torus-4x4x4 64 all scatter mvapich2_two_level_binomial no scatter mvapich2_two_level_binomial 1024,65536
torus-5x3x3-bc-smp-scatter-mvapich2_two_level_binomial torus-5x3x3 45 all scatter mvapich2_two_level_binomial no scatter mvapich2_two_level_binomial 1024,65536
torus-4x4x4-bc-smp-bcast-mvapich2_intra_node torus-4x4x4 64 all bcast mvapich2_intra_node no bcast mvapich2_intra_node 1024,65536,1048576
torus-4x4x6-bc-smp-bcast-mvapich2_intra_node torus-4x4x6 96 all bcast mvapich2_intra_node no bcast mvapich2_intra_node 1024,65536,1048576
torus-4x4x4-bc-smp-gather-mvapich2_two_level torus-4x4x4 64 all gather mvapich2_two_level no gather mvapich2_two_level 1024,65536
flat-12-bc-smp-gather-mvapich2_two_level flat-12 12 all gather mvapich2_two_level no gather mvapich2_two_level 1024,65536
torus-4x4x4-bc-smp-gather-impi torus-4x4x4 64 all gather impi no gather impi 128,1048576
fattree-4-3-bc-barrier-ompi_two_procs fattree-4-3 2 first2 barrier ompi_two_procs no barrier ompi_two_procs 0
fattree-4-3-bc-bcast-ompi-2ranks fattree-4-3 2 first2 bcast ompi no bcast ompi 16,128,300,600,2048,65536,200000,1048576
fattree-2-16-8-bc-bcast-ompi fattree-2-16-8 128 all bcast ompi no bcast ompi 1024,16384,32768"
smpi_cases="$smpi_cases
$smp_cases
$impi_cases
$bc_cases"
# allgather: SMPI 3.32's allgather algorithms named explicitly (pair, rhv, spreading_simple, GB, 2dmesh,
# 3dmesh; the SMP ones loosely_lr, SMP_NTS, smp_simple and mvapich2_smp on one rank per host, after init_smp)
# and the impi selector where it runs GB, on torus-4x4x4, fattree-4-3, flat-16 and flat-12 (pair and rhv need
# a power of two). Made by `./generate.sh smpi-cases '*allgather-NAME'` for each NAME (and '*-impi-GB').
allgather_cases=$(for pn in torus-4x4x4:64 fattree-4-3:64 flat-16:16 flat-12:12; do
  p=${pn%:*} n=${pn#*:}
  case $p in
    torus-4x4x4) names="pair rhv spreading_simple GB 2dmesh 3dmesh" smp="loosely_lr SMP_NTS smp_simple mvapich2_smp" ;;
    fattree-4-3) names="pair rhv GB 2dmesh" smp="" ;;
    flat-16) names="pair rhv 3dmesh" smp="SMP_NTS" ;;
    flat-12) names="spreading_simple GB 2dmesh 3dmesh" smp="loosely_lr smp_simple mvapich2_smp" ;;
  esac
  for a in $names; do echo "$p-allgather-$a $p $n all allgather $a no allgather $a 1024,65536,1048576"; done
  for a in $smp; do echo "$p-smp-allgather-$a $p $n all allgather $a no allgather $a 1024,65536,1048576"; done
done
# The impi allgather's GB (Intel's algorithm 4): 759-1219 B, 123,678-160,801 B and from 284,341 B on 64 ranks; 170-6077 B and 127,644-143,741 B on 16.
echo "torus-4x4x4-smp-allgather-impi-GB torus-4x4x4 64 all allgather impi no allgather impi 1024,131072,1048576
flat-16-smp-allgather-impi-GB flat-16 16 all allgather impi no allgather impi 1024,131072")
smpi_cases="$smpi_cases
$allgather_cases"
# allreduce and reduce: SMPI's other allreduce and reduce algorithms Meshwork runs (lr on counts that are no
# multiple of n: the ring, then redbcast of the rest; rab1, ompi_ring_segmented:
# lr below n MiB, redbcast below n elements, 1 and 2 phases above; reduce flat_tree, ompi_basic_linear,
# ompi_chain, ompi_pipeline, ompi_in_order_binary (root 0: rank n - 1 forwards), NTSL with a remainder,
# mvapich2_knomial, and the mvapich2 and impi reduce where they run it: one-level, or two-level after init_smp;
# rab, reduce and allreduce),
# the SMP allreduces on one rank per host (init_smp first), the impi allreduce where it runs rab1 (and
# ompi_ring_segmented on 16 ranks) and
# rab2 (its alltoall basic_linear, pair at 256 KiB blocks on 64 ranks). Made by `./generate.sh smpi-cases '*-ar-*'`.
ar_cases="flat-12-ar-allreduce-lr flat-12 12 all allreduce lr no allreduce lr 1028,65540,1048580
torus-4x4x4-ar-allreduce-lr torus-4x4x4 64 all allreduce lr no allreduce lr 1028,1048580
torus-4x4x4-ar-allreduce-rab1 torus-4x4x4 64 all allreduce rab1 no allreduce rab1 1024,65536,1048576
flat-16-ar-allreduce-rab1 flat-16 16 all allreduce rab1 no allreduce rab1 1024,1048576
flat-16-ar-allreduce-ompi_ring_segmented flat-16 16 all allreduce ompi_ring_segmented no allreduce ompi_ring_segmented 32,1024,16777216,33554432
flat-12-ar-allreduce-ompi_ring_segmented flat-12 12 all allreduce ompi_ring_segmented no allreduce ompi_ring_segmented 48,1048560,25165824
fattree-4-3-ar-reduce-flat_tree fattree-4-3 64 all reduce flat_tree no reduce flat_tree 1024,65536,1048576
flat-12-ar-reduce-ompi_basic_linear flat-12 12 all reduce ompi_basic_linear no reduce ompi_basic_linear 1024,65536,1048576
torus-4x4x4-ar-reduce-ompi_chain torus-4x4x4 64 all reduce ompi_chain no reduce ompi_chain 1024,65536,1048576
flat-12-ar-reduce-ompi_chain flat-12 12 all reduce ompi_chain no reduce ompi_chain 1024,1048576
torus-4x4x4-ar-reduce-ompi_pipeline torus-4x4x4 64 all reduce ompi_pipeline no reduce ompi_pipeline 1024,65536,1048576
flat-16-ar-reduce-ompi_pipeline flat-16 16 all reduce ompi_pipeline no reduce ompi_pipeline 65536,1048576
torus-4x4x4-ar-reduce-ompi_in_order_binary torus-4x4x4 64 all reduce ompi_in_order_binary no reduce ompi_in_order_binary 1024,65536,1048576
flat-12-ar-reduce-ompi_in_order_binary flat-12 12 all reduce ompi_in_order_binary no reduce ompi_in_order_binary 1024,1048576
torus-4x4x4-ar-reduce-NTSL torus-4x4x4 64 all reduce NTSL no reduce NTSL 1024,65536,1048576
flat-12-ar-reduce-NTSL flat-12 12 all reduce NTSL no reduce NTSL 4096,65540
torus-4x4x4-ar-allreduce-smp_binomial torus-4x4x4 64 all allreduce smp_binomial no allreduce smp_binomial 1024,1048576
flat-12-ar-allreduce-smp_binomial flat-12 12 all allreduce smp_binomial no allreduce smp_binomial 1024,65536
torus-4x4x4-ar-allreduce-smp_binomial_pipeline torus-4x4x4 64 all allreduce smp_binomial_pipeline no allreduce smp_binomial_pipeline 1024,65536,1048576
flat-12-ar-allreduce-smp_binomial_pipeline flat-12 12 all allreduce smp_binomial_pipeline no allreduce smp_binomial_pipeline 65536
flat-12-ar-allreduce-smp_rdb flat-12 12 all allreduce smp_rdb no allreduce smp_rdb 1024,1048576
fattree-4-3-ar-allreduce-smp_rdb fattree-4-3 64 all allreduce smp_rdb no allreduce smp_rdb 65536
torus-4x4x4-ar-allreduce-smp_rsag torus-4x4x4 64 all allreduce smp_rsag no allreduce smp_rsag 1024,65536,1048576
flat-12-ar-allreduce-smp_rsag_lr flat-12 12 all allreduce smp_rsag_lr no allreduce smp_rsag_lr 1536,1048560
flat-16-ar-allreduce-smp_rsag_rab flat-16 16 all allreduce smp_rsag_rab no allreduce smp_rsag_rab 1024,1048576
fattree-4-3-ar-allreduce-smp_rsag_rab fattree-4-3 64 all allreduce smp_rsag_rab no allreduce smp_rsag_rab 65536
torus-4x4x4-ar-allreduce-impi torus-4x4x4 64 all allreduce impi no allreduce impi 131072,262144
flat-16-ar-allreduce-impi flat-16 16 all allreduce impi no allreduce impi 16384,65536,400000
torus-4x4x4-ar-allreduce-rab2 torus-4x4x4 64 all allreduce rab2 no allreduce rab2 65536,1048576,16777216
flat-12-ar-allreduce-rab2 flat-12 12 all allreduce rab2 no allreduce rab2 1536,1048560
torus-4x4x4-ar-reduce-mvapich2_knomial torus-4x4x4 64 all reduce mvapich2_knomial no reduce mvapich2_knomial 1024,65536,1048576
flat-12-ar-reduce-mvapich2_knomial flat-12 12 all reduce mvapich2_knomial no reduce mvapich2_knomial 1024,1048576
torus-4x4x4-ar-reduce-mvapich2 torus-4x4x4 64 all reduce mvapich2 no reduce mvapich2 1024,131072
flat-16-ar-reduce-mvapich2 flat-16 16 all reduce mvapich2 no reduce mvapich2 1024,65536
torus-3x3x3-ar-reduce-mvapich2 torus-3x3x3 27 all reduce mvapich2 no reduce mvapich2 1024,131072
torus-4x4x4-ar-reduce-impi torus-4x4x4 64 all reduce impi no reduce impi 1024,131072
flat-16-ar-reduce-impi flat-16 16 all reduce impi no reduce impi 1024,65536
torus-4x4x4-ar-reduce-rab torus-4x4x4 64 all reduce rab no reduce rab 1024,65536,1048576
flat-12-ar-reduce-rab flat-12 12 all reduce rab no reduce rab 1028,1048576
torus-4x4x4-ar-allreduce-rab torus-4x4x4 64 all allreduce rab no allreduce rab 65536
flat-12-ar-allreduce-rab flat-12 12 all allreduce rab no allreduce rab 1028,1048576"
smpi_cases="$smpi_cases
$ar_cases"
# Writes smpi-cases/NAME.json for each line of stdin (the format above) whose name matches $pattern.
write_smpi_cases() {
while read -r name platform np hosts scoll salgo barriers mcoll malgo sizes more; do
  # shellcheck disable=SC2254
  case "$name" in $pattern) ;; *) continue ;; esac
  # skip8 drops 8 of the 64 torus hosts; otherwise the first np hosts of the platform.
  if [ "$hosts" = skip8 ]; then write_named_hosts 64 skip8 "$work/hostfile"; else write_named_hosts "$np" all "$work/hostfile"; fi
  cfg=""
  [ "$salgo" != - ] && cfg="--cfg=smpi/$scoll:$salgo"
  cfg="$cfg${more:+ $more}"
  extra=""
  [ "$barriers" = yes ] && extra=barriers
  # alltoallv: the per-pair sizes of platforms/alltoallv-64-random.txt (Meshwork: --sizes random:max=128KiB,seed=7).
  [ "$scoll" = alltoallv ] && extra="$here/platforms/alltoallv-64-random.txt"
  rows=""
  for size in $(echo "$sizes" | tr ',' ' '); do
    cmd="smpirun -np $np -platform platforms/$platform.xml -hostfile hosts-$hosts $common${cfg:+ $cfg} coll $scoll $size${extra:+ ${extra#"$here"/}}"
    line=$(cd "$work" && smpirun -np "$np" -platform "$here/platforms/$platform.xml" -hostfile "$work/hostfile" $common $cfg ./coll "$scoll" "$size" $extra 2>/dev/null | grep '^makespan_s=')
    t=$(echo "$line" | sed 's/^makespan_s=\([^ ]*\).*/\1/')
    rows="$rows${rows:+,
}    { \"size\": $size, \"makespan_s\": $t, \"command\": \"$cmd\" }"
  done
  cat > "$here/smpi-cases/$name.json" <<JSON
{
  "simgrid": "$version",
  "platform": "platforms/$platform.xml",
  "ranks": $np,
  "hosts": "$hosts",
  "config": "$common${cfg:+ $cfg}",
  "smpi": { "collective": "$scoll", "algorithm": "$salgo", "barriers": $( [ "$barriers" = yes ] && echo true || echo false ) },
  "meshwork": { "collective": "$mcoll", "algorithm": "$malgo" },
  "rows": [
$rows
  ]
}
JSON
  echo "$here/smpi-cases/$name.json"
done
}
echo "$smpi_cases" | write_smpi_cases

# alltoall and alltoallv (h-smpi-a2a): SMPI's other alltoall and alltoallv algorithms by name, each
# against the Meshwork variant it is an alias of: the pair and ring barrier variants (a 1-byte sendrecv
# between steps, an MPI_Barrier before every step, or one first; pair needs a power of two), rdb, 2dmesh,
# 3dmesh and mvapich2_scatter_dest (on FLAT clusters: it sends to itself, which a torus has no route for),
# alltoallv bruck and the barrier variants on the 64-rank random matrix. Made by
# `./generate.sh smpi-cases '*-a2a-*'`.
a2a_cases=$(for algo in pair_light_barrier pair_mpi_barrier pair_one_barrier ring_light_barrier ring_mpi_barrier ring_one_barrier; do
  echo "torus-4x4x4-a2a-alltoall-$algo torus-4x4x4 64 all alltoall $algo no alltoall $algo 1024,65536,1048576"
  echo "flat-16-a2a-alltoall-$algo flat-16 16 all alltoall $algo no alltoall $algo 1024,65536"
  case $algo in ring_*) echo "flat-12-a2a-alltoall-$algo flat-12 12 all alltoall $algo no alltoall $algo 1024,65536" ;; esac
  echo "torus-4x4x4-a2a-alltoallv-$algo torus-4x4x4 64 all alltoallv $algo no alltoallv $algo 0"
done
# rdb, 2dmesh and 3dmesh gather whole send buffers into temporaries of up to n x n blocks per rank, which
# SMPI allocates and copies for real: small sizes on 64 ranks (16 KiB: 1 GiB for 3dmesh), larger on 12.
for algo in rdb 2dmesh 3dmesh; do
  echo "torus-4x4x4-a2a-alltoall-$algo torus-4x4x4 64 all alltoall $algo no alltoall $algo 1024,4096
fattree-4-3-a2a-alltoall-$algo fattree-4-3 64 all alltoall $algo no alltoall $algo 1024,4096
torus-5x3x3-a2a-alltoall-$algo torus-5x3x3 45 all alltoall $algo no alltoall $algo 1024
flat-12-a2a-alltoall-$algo flat-12 12 all alltoall $algo no alltoall $algo 1024,65536,1048576"
done
# mvapich2_scatter_dest sends each rank's own block to itself: on a FLAT cluster up and down its host's
# links (a torus has no route from a host to itself, and smpirun aborts). The mpich selector runs it below
# 32 KiB (from 256 B on 8 ranks or more).
for pn in flat-12:12 flat-16:16; do
  p=${pn%:*} n=${pn#*:}
  echo "$p-a2a-alltoall-mvapich2_scatter_dest $p $n all alltoall mvapich2_scatter_dest no alltoall mvapich2_scatter_dest 1024,16384,1048576
$p-a2a-alltoall-mpich $p $n all alltoall mpich no alltoall mpich 1024,16384
$p-a2a-alltoall-mvapich2 $p $n all alltoall mvapich2 no alltoall mvapich2 64"
done
# The mvapich2 selector's rdb (up to 64 B on 9 to 16 ranks, 8 B on 64; above, it runs mvapich2_scatter_dest).
echo "torus-4x4x4-a2a-alltoall-mvapich2 torus-4x4x4 64 all alltoall mvapich2 no alltoall mvapich2 8"
# The impi selector's init_smp + mvapich2_scatter_dest (below 128 KiB and from 256 KiB on 12 and 16 ranks), on FLAT clusters.
echo "flat-16-a2a-smp-alltoall-impi flat-16 16 all alltoall impi no alltoall impi 1024,65536,1048576
flat-12-a2a-smp-alltoall-impi flat-12 12 all alltoall impi no alltoall impi 1024,65536"
echo "torus-4x4x4-a2a-alltoallv-bruck torus-4x4x4 64 all alltoallv bruck no alltoallv bruck 0
fattree-4-3-a2a-alltoallv-bruck fattree-4-3 64 all alltoallv bruck no alltoallv bruck 0")
echo "$a2a_cases" | write_smpi_cases

# SimGrid's network/optim Full (CM02's default is Lazy) on rdb over 45 ranks, alone and after impi's
# init_smp: at 8 and 16 KiB blocks Lazy oversubscribes a link (at the rdb's second step on
# torus-5x3x3, 30 -> 28 keeps 5 GB/s of the 10 GB/s link 33_to_34_DOWN while 34 -> 32, out of its
# latency phase, runs on it at 10 GB/s); Full shares it, as Meshwork's max-min does. Made by
# `./generate.sh smpi-cases '*-optim-full'`.
optim_cases="torus-5x3x3-allgather-rdb-optim-full torus-5x3x3 45 all allgather rdb no allgather rdb 8192,16384,32768 --cfg=network/optim:Full
torus-5x3x3-smp-allgather-impi-optim-full torus-5x3x3 45 all allgather impi no allgather impi 16384,65536 --cfg=network/optim:Full"
echo "$optim_cases" | write_smpi_cases
