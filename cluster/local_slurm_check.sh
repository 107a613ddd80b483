#!/usr/bin/env bash
# Manual check of the SLURM profile on a one-node cluster on this machine.
#
#   bash cluster/local_slurm_check.sh                                  # the default workflow
#   bash cluster/local_slurm_check.sh --configfile .test/config.yaml   # the tiny one (a minute or two)
#
# Needs root and Debian packages.  It installs slurm-wlm and munge, writes a one-node slurm.conf
# for this host, starts munged, slurmctld and slurmd, installs the SLURM executor plugin into the
# active Python environment (the project's `slurm` extra), runs the workflow once locally and once
# through profiles/slurm (each in a fresh copy of the repository), checks that every output
# (results and figures, without logs and benchmarks) is byte-identical, and stops the daemons it
# started.  Exit status 0 only if the two runs agree.  Extra arguments go to both snakemake runs.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d /tmp/simstats-slurm.XXXXXX)"
CONF_DIR=/etc/slurm
HOST="$(hostname -s)"
STARTED=()

say() { printf '[slurm-check %(%H:%M:%S)T] %s\n' -1 "$*"; }

stop_daemons() {
    for pidfile in "${STARTED[@]}"; do
        if [[ -f "$pidfile" ]]; then
            kill "$(cat "$pidfile")" 2>/dev/null || true
        fi
    done
    if ((${#STARTED[@]})); then
        sleep 2
        say "stopped the daemons this script started"
    fi
}
trap stop_daemons EXIT

if [[ $(id -u) -ne 0 ]]; then
    echo "local_slurm_check: must run as root (it installs packages and starts daemons)" >&2
    exit 2
fi

# ---------------------------------------------------------------- packages
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge (Debian)"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi
say "installing the SLURM executor plugin into $(command -v python)"
python -m pip install -q -e "$ROOT[slurm]"

# ---------------------------------------------------------------- munge
if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
fi
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0400 /etc/munge/munge.key
chmod 0755 /run/munge
if ! munge -n >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
    STARTED+=(/run/munge/munged.pid)
    say "munged started"
fi
munge -n | unmunge >/dev/null

# ---------------------------------------------------------------- slurm.conf for this host
CPUS="$(nproc)"
MEM_MB="$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))"
mkdir -p "$CONF_DIR" /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/slurm
if [[ -f "$CONF_DIR/slurm.conf" ]] && ! grep -q "written by simstats" "$CONF_DIR/slurm.conf"; then
    echo "local_slurm_check: $CONF_DIR/slurm.conf exists and was not written by this script; not touching it" >&2
    exit 2
fi
cat > "$CONF_DIR/slurm.conf" <<EOF
# written by simstats cluster/local_slurm_check.sh: a one-node cluster on localhost
ClusterName=simstats
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
# keep finished jobs visible to squeue: the executor plugin reads their state there
MinJobAge=86400
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=local Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
say "slurm.conf: node $HOST, $CPUS CPUs, $MEM_MB MB"

if ! scontrol ping >/dev/null 2>&1 || ! scontrol ping | grep -q UP; then
    slurmctld -c
    STARTED+=(/run/slurm/slurmctld.pid)
    say "slurmctld started"
fi
if ! pgrep -x slurmd >/dev/null; then
    slurmd
    STARTED+=(/run/slurm/slurmd.pid)
    say "slurmd started"
fi
for _ in $(seq 60); do
    state="$(sinfo -h -n "$HOST" -o %t 2>/dev/null || true)"
    [[ "$state" == idle* || "$state" == mix* ]] && break
    sleep 1
done
scontrol update NodeName="$HOST" State=RESUME >/dev/null 2>&1 || true
sinfo
srun -N1 -n1 hostname >/dev/null
say "cluster answers (srun ran a job)"

# ---------------------------------------------------------------- two runs in fresh copies
(cd "$ROOT" && git ls-files) > "$WORK/tracked.txt"
copy_repo() {
    mkdir -p "$1"
    (cd "$ROOT" && git ls-files -z | xargs -0 cp --parents -t "$1")
}
copy_repo "$WORK/local"
copy_repo "$WORK/slurm"

say "local run: snakemake --cores 8 $*"
start=$SECONDS
(cd "$WORK/local" && snakemake --cores 8 "$@" > "$WORK/local.log" 2>&1) || { tail -30 "$WORK/local.log"; exit 1; }
say "local run finished in $((SECONDS - start)) s"

say "SLURM run: snakemake --profile profiles/slurm $*"
start=$SECONDS
(cd "$WORK/slurm" && snakemake --profile profiles/slurm --slurm-status-command squeue "$@" > "$WORK/slurm.log" 2>&1) || { tail -30 "$WORK/slurm.log"; exit 1; }
jobs_run="$(squeue -h --states=all -o %i | wc -l)"
say "SLURM run finished in $((SECONDS - start)) s ($jobs_run jobs known to slurmctld)"

# ---------------------------------------------------------------- byte-identical outputs
outputs() {  # every result and figure the runs wrote, without logs and benchmarks (times differ by nature)
    local dirs=()
    for d in results figures .test/results .test/figures; do
        [[ -d "$1/$d" ]] && dirs+=("$d")
    done
    # files the runs wrote: not the repository's own (e.g. the committed paper-scale report)
    (cd "$1" && find "${dirs[@]}" -type f) | { grep -v -x -F -f "$WORK/tracked.txt" || true; } \
        | { grep -v -e '/logs/' -e '/benchmarks/' || true; } | LC_ALL=C sort
}
outputs "$WORK/local" > "$WORK/local.files"
outputs "$WORK/slurm" > "$WORK/slurm.files"
if ! cmp -s "$WORK/local.files" "$WORK/slurm.files"; then
    echo "local_slurm_check: the two runs wrote different sets of files:" >&2
    diff "$WORK/local.files" "$WORK/slurm.files" >&2 || true
    exit 1
fi
n="$(wc -l < "$WORK/local.files")"
differ=0
while IFS= read -r f; do
    cmp -s "$WORK/local/$f" "$WORK/slurm/$f" || { echo "differs: $f" >&2; differ=$((differ + 1)); }
done < "$WORK/local.files"
if ((differ)); then
    echo "local_slurm_check: $differ of $n output files differ between the local and the SLURM run" >&2
    exit 1
fi
say "OK: all $n output files are byte-identical (local vs SLURM); work tree $WORK"
