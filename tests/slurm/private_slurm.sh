#!/usr/bin/env bash
# A private single-node Slurm cluster, started as the caller's own processes (docs/architecture.md
# section 11, "slurm"): munged on its own socket and key, slurmctld and slurmd on free loopback
# ports, with configuration, state, spool, logs and four fake a100 GPU device files in one
# temporary folder. Nothing touches /etc, /run or /var, and nothing is sent to any address other
# than 127.0.0.1, so it runs beside a system Slurm or munge that the packages may have started.
#
# Two ways to use it:
#
#   source tests/slurm/private_slurm.sh          then private_slurm_start; client commands see the
#                                                cluster through the exported SLURM_CONF; the
#                                                daemons stop when the shell exits (any way)
#   tests/slurm/private_slurm.sh [-- COMMAND...] runs COMMAND (default: an interactive shell)
#                                                against a fresh private cluster, then stops it
#
# Cleanup, because a test that leaves a slurmctld behind breaks the next run and the machine:
# - on exit, SIGINT, SIGTERM and SIGHUP a trap cancels the jobs and stops every daemon by pid;
# - a watchdog (detached, in its own session: neither a Ctrl-C of the test's process group nor
#   CTest's kill of the test's process tree reaches it) checks every
#   PRIVATE_SLURM_WATCHDOG_SECONDS (2) whether the starting shell is still alive and, once it is
#   gone (killed with SIGKILL, e.g. by CTest's timeout), kills the daemons by pid and every
#   process left over from the cluster's jobs;
# - processes started by the cluster are found by the environment variable
#   CLUSTERLOOM_PRIVATE_SLURM=<folder>, which the daemons and, through sbatch's default
#   --export=ALL, the jobs inherit, and slurmstepd (which clears its environment) by slurmd's
#   log file in the folder, which it holds open. Only those processes are ever signalled.
#
# Environment: PRIVATE_SLURM_KEEP_LOGS=DIR copies the daemon logs there when the cluster stops
# after a failure (the temporary folder itself is always removed).
#
# Opt-in variables that change the cluster (unset, the cluster is the one above: 2 CPUs, 1024 MB,
# gpu:a100:4, one partition "debug", SchedulerParameters=batch_sched_delay=0):
#   PRIVATE_SLURM_CPUS=N          the node's CPUs (one socket of N cores; slurmd is told, not asked)
#   PRIVATE_SLURM_MEMORY=MB       the node's RealMemory
#   PRIVATE_SLURM_GRES=LIST       the node's Gres, "gpu:TYPE:COUNT[,gpu:TYPE:COUNT...]"; one empty
#                                 device file per GPU, numbered across the types in order
#   PRIVATE_SLURM_SCHEDULER_PARAMETERS=TEXT   SchedulerParameters
#   PRIVATE_SLURM_PARTITIONS=TEXT the PartitionName lines (one per line; the node is
#                                 $PRIVATE_SLURM_NODE, i.e. clnode1) instead of the one "debug"
#   PRIVATE_SLURM_EXTRA_CONF=TEXT lines added at the end of slurm.conf (a key given twice: Slurm
#                                 takes the last value); @DIR@ stands for the cluster's folder
#                                 (e.g. JobCompLoc=@DIR@/log/jobcomp.txt)

PRIVATE_SLURM_SELF="$(readlink -f "${BASH_SOURCE[0]}")"
PRIVATE_SLURM_WATCHDOG_SECONDS="${PRIVATE_SLURM_WATCHDOG_SECONDS:-2}"
PRIVATE_SLURM_NODE=clnode1

private_slurm_log() { printf 'private slurm: %s\n' "$*" >&2; }

# The path of a program: the daemons live in /usr/sbin, which a user's PATH may lack.
private_slurm_tool() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

# Fails (never skips: a skipped test would count as passed) when a package is missing, naming the
# Debian package to install.
private_slurm_require_packages() {
    local missing=() tool package path
    for tool in munged:munge slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client scontrol:slurm-client \
        squeue:slurm-client scancel:slurm-client sinfo:slurm-client; do
        package="${tool#*:}"
        tool="${tool%%:*}"
        path="$(private_slurm_tool "$tool")"
        [[ -f "$path" && -x "$path" ]] || missing+=("$tool (Debian package $package)")
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        path="$(printf '%s, ' "${missing[@]}")"
        private_slurm_log "FAIL: missing ${path%, }."
        private_slurm_log "Install them with: apt-get install slurm-wlm munge (scripts/quickstart.sh does)."
        return 1
    fi
}

# Prints a TCP port nobody listens on (IPv4 or IPv6), from a range unlikely to be taken by other
# services; the Slurm defaults 6817/6818 are avoided so a system Slurm does not collide.
private_slurm_free_port() {
    local used=" ${*:-} " port _slot local_address _remote state _rest
    # /proc/net/tcp*: "sl local_address(hex ip:hex port) rem_address st ...", st 0A = LISTEN.
    while read -r _slot local_address _remote state _rest; do
        [[ "$state" == 0A ]] && used+="$((16#${local_address##*:})) "
    done < <(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -v local_address)
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 20000))
        [[ "$used" == *" $port "* ]] || {
            echo "$port"
            return 0
        }
    done
    return 1
}

private_slurm_daemon_pids() { cat "$PRIVATE_SLURM_DIR/daemons.pids" 2>/dev/null; }

# Pids of the processes this cluster started, except the calling shell: those carrying its mark
# (the daemons, the jobs), and the slurmstepd processes, which clear their environment but keep
# slurmd's log file in the folder open.
private_slurm_marked_pids() {
    local dir="$1" f pid comm
    # One grep over every environment: a fork per process takes seconds on a loaded machine.
    while read -r f; do
        pid="${f#/proc/}"
        pid="${pid%/environ}"
        [[ "$pid" == "$$" || "$pid" == "$BASHPID" ]] || echo "$pid"
    done < <(grep -lzxF "CLUSTERLOOM_PRIVATE_SLURM=$dir" /proc/[0-9]*/environ 2>/dev/null)
    for f in /proc/[0-9]*/comm; do
        read -r comm 2>/dev/null <"$f" || continue
        [[ "$comm" == slurmstepd ]] || continue
        pid="${f#/proc/}"
        pid="${pid%/comm}"
        find "/proc/$pid/fd" -lname "$dir/*" 2>/dev/null | grep -q . && echo "$pid"
    done
    return 0
}

# Kills the given pids: SIGTERM, up to PRIVATE_SLURM_KILL_GRACE seconds (3) to exit, then SIGKILL.
private_slurm_kill_pids() {
    local pid alive=("$@")
    [[ $# -eq 0 ]] && return 0
    kill -TERM "$@" 2>/dev/null
    for _ in $(seq 1 $((${PRIVATE_SLURM_KILL_GRACE:-3} * 10))); do
        alive=()
        for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
        [[ ${#alive[@]} -eq 0 ]] && return 0
        sleep 0.1
    done
    kill -KILL "${alive[@]}" 2>/dev/null
    return 0
}

# Watchdog mode: PARENT_PID DIR. Runs without the cluster's mark (started with env -u), so the
# search for marked processes never finds the watchdog itself.
private_slurm_watchdog() {
    local parent="$1" dir="$2"
    echo "$$" >"$dir/run/watchdog.pid"
    while kill -0 "$parent" 2>/dev/null && [[ -d "$dir" && ! -e "$dir/stopped" ]]; do
        sleep "$PRIVATE_SLURM_WATCHDOG_SECONDS"
    done
    [[ -d "$dir" && ! -e "$dir/stopped" ]] || exit 0
    echo "$(date -u +%T) the shell $parent is gone: stopping the cluster in $dir"
    # The daemons by the pids recorded when they started, and what their jobs left.
    local pids marked
    mapfile -t pids < <(cat "$dir/daemons.pids" 2>/dev/null)
    mapfile -t marked < <(private_slurm_marked_pids "$dir")
    # No grace: nobody is left to wait for a clean shutdown, and the interval is the promise.
    PRIVATE_SLURM_KILL_GRACE=0 private_slurm_kill_pids "${pids[@]}" "${marked[@]}"
    echo "$(date -u +%T) killed daemons ${pids[*]} and processes ${marked[*]}"
    if [[ -n "${PRIVATE_SLURM_KEEP_LOGS:-}" ]]; then
        mkdir -p "$PRIVATE_SLURM_KEEP_LOGS" && cp -r "$dir/log/." "$PRIVATE_SLURM_KEEP_LOGS/" 2>/dev/null
    fi
    rm -rf "$dir"
}

# Starts a daemon in the foreground mode (so $! is its pid, with no pid file to race on) and
# records the pid where the watchdog and the stop trap find it.
private_slurm_spawn() {
    local name="$1"
    shift
    "$@" </dev/null >>"$PRIVATE_SLURM_DIR/log/$name.stderr" 2>&1 &
    echo "$!" >>"$PRIVATE_SLURM_DIR/daemons.pids"
    eval "PRIVATE_SLURM_PID_${name}=$!"
    # Not a job of this shell: no "Killed" notice when the stop trap kills it.
    disown "$!"
}

private_slurm_write_conf() {
    local dir="$1" ctld_port="$2" slurmd_port="$3"
    local cpus="${PRIVATE_SLURM_CPUS:-2}" gres="${PRIVATE_SLURM_GRES:-gpu:a100:4}"
    cat >"$dir/etc/slurm.conf" <<EOF
ClusterName=clusterloomtest
# "localhost" rather than the host's name: slurmctld accepts it as naming this machine, and it
# resolves from /etc/hosts on every machine, so no name is ever looked up in DNS. The address
# in parentheses, and the node's NodeAddr, are what every daemon and client connects to. The
# daemons still listen on every address: Slurm 22.05 binds to a single address only to the one
# the host's name resolves to (CommunicationParameters=NoInAddrAny), on Debian 127.0.1.1 or a
# LAN address, which the connections to 127.0.0.1 would miss; and a connection from elsewhere
# would lack the private munge key.
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# The daemons run as whoever starts them: root in CI; a plain user works too (its jobs are its own).
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups in a container: processes tracked through /proc, no task binding, no accounting.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
PlugStackConfig=$dir/etc/plugstack.conf
SchedulerType=sched/backfill
# Start the next pending batch job as soon as one ends, not in the next three-second round (the
# default): a 12-task array limited to two at a time then takes 5 s instead of 17.
SchedulerParameters=${PRIVATE_SLURM_SCHEDULER_PARAMETERS:-batch_sched_delay=0}
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
ReturnToService=2
# The node is described here, not probed, so the test sees the same node on every machine.
SlurmdParameters=config_overrides
# Finished jobs stay visible to scontrol and squeue while the test looks at them.
MinJobAge=600
KillWait=2
NodeName=$PRIVATE_SLURM_NODE NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus Sockets=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=${PRIVATE_SLURM_MEMORY:-1024} Gres=$gres State=UNKNOWN
${PRIVATE_SLURM_PARTITIONS:-PartitionName=debug Nodes=$PRIVATE_SLURM_NODE Default=YES MaxTime=INFINITE State=UP}
EOF
    [[ -n "${PRIVATE_SLURM_EXTRA_CONF:-}" ]] &&
        printf '%s\n' "${PRIVATE_SLURM_EXTRA_CONF//@DIR@/$dir}" >>"$dir/etc/slurm.conf"
    # Empty files stand for the GPUs (four a100 by default): slurmd logs that they are no
    # devices, and counts them.
    echo "AutoDetect=off" >"$dir/etc/gres.conf"
    local entry type count first=0 i
    for entry in ${gres//,/ }; do
        type="${entry#gpu:}"
        count="${type##*:}"
        type="${type%:*}"
        [[ "$entry" == gpu:*:* && "$count" =~ ^[0-9]+$ && "$count" -gt 0 ]] || {
            private_slurm_log "PRIVATE_SLURM_GRES: '$entry' is not gpu:TYPE:COUNT"
            return 1
        }
        echo "NodeName=$PRIVATE_SLURM_NODE Name=gpu Type=$type File=$dir/dev/gpu[$first-$((first + count - 1))]" \
            >>"$dir/etc/gres.conf"
        for i in $(seq "$first" $((first + count - 1))); do touch "$dir/dev/gpu$i"; done
        first=$((first + count))
    done
    : >"$dir/etc/plugstack.conf"
}

# Starts the cluster in a new temporary folder and waits until the node is idle. Exports
# SLURM_CONF, PRIVATE_SLURM_DIR and the mark; installs the stop trap on EXIT, INT, TERM and HUP.
private_slurm_start() {
    private_slurm_require_packages || return 1
    local started_at="$EPOCHREALTIME"
    # /tmp rather than the build tree: the munge socket path must stay under the 108-byte limit.
    PRIVATE_SLURM_DIR="$(mktemp -d /tmp/clusterloom-slurm.XXXXXX)" || return 1
    export PRIVATE_SLURM_DIR CLUSTERLOOM_PRIVATE_SLURM="$PRIVATE_SLURM_DIR"
    export SLURM_CONF="$PRIVATE_SLURM_DIR/etc/slurm.conf"
    mkdir -p "$PRIVATE_SLURM_DIR"/{etc,munge,state,spool,log,run,dev}
    : >"$PRIVATE_SLURM_DIR/daemons.pids"
    trap 'private_slurm_stop' EXIT
    trap 'private_slurm_stop 130; trap - INT; kill -INT $$' INT
    trap 'private_slurm_stop 143; exit 143' TERM
    trap 'private_slurm_stop 129; exit 129' HUP

    # The watchdog starts before any daemon, so a kill during start-up is covered too. It is
    # detached (started from a subshell that exits at once, so it is no child of this shell):
    # CTest's timeout kills the test's whole process tree, which must not include the watchdog.
    (
        env -u CLUSTERLOOM_PRIVATE_SLURM setsid bash "$PRIVATE_SLURM_SELF" --watchdog "$$" "$PRIVATE_SLURM_DIR" \
            </dev/null >>"$PRIVATE_SLURM_DIR/log/watchdog.log" 2>&1 &
    )

    local ctld_port slurmd_port
    if ! ctld_port="$(private_slurm_free_port)" || ! slurmd_port="$(private_slurm_free_port "$ctld_port")"; then
        private_slurm_log "no free TCP port found"
        return 1
    fi
    private_slurm_write_conf "$PRIVATE_SLURM_DIR" "$ctld_port" "$slurmd_port" || return 1

    # munged wants its key private to its user; --force accepts running as root and a folder
    # under /tmp (a sticky, world-writable parent).
    dd if=/dev/urandom of="$PRIVATE_SLURM_DIR/munge/munge.key" bs=1024 count=1 status=none
    chmod 600 "$PRIVATE_SLURM_DIR/munge/munge.key"
    private_slurm_spawn munged "$(private_slurm_tool munged)" --foreground --force \
        --socket="$PRIVATE_SLURM_DIR/munge/munge.socket" \
        --key-file="$PRIVATE_SLURM_DIR/munge/munge.key" \
        --pid-file="$PRIVATE_SLURM_DIR/run/munged.pid" \
        --log-file="$PRIVATE_SLURM_DIR/log/munged.log" \
        --seed-file="$PRIVATE_SLURM_DIR/munge/munged.seed" \
        --origin=127.0.0.1
    private_slurm_wait_for "munged's socket" 10 test -S "$PRIVATE_SLURM_DIR/munge/munge.socket" || return 1

    # -i: ignore any saved state (there is none; the folder is new); -D: stay in the foreground.
    private_slurm_spawn slurmctld "$(private_slurm_tool slurmctld)" -D -i -f "$SLURM_CONF"
    private_slurm_spawn slurmd "$(private_slurm_tool slurmd)" -D -N "$PRIVATE_SLURM_NODE" -f "$SLURM_CONF"
    private_slurm_wait_for "node $PRIVATE_SLURM_NODE to be idle" 30 private_slurm_node_idle || return 1
    PRIVATE_SLURM_STARTUP_SECONDS="$(awk -v a="$started_at" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
    private_slurm_log "up in ${PRIVATE_SLURM_STARTUP_SECONDS} s: $PRIVATE_SLURM_DIR (slurmctld port $ctld_port, slurmd port $slurmd_port)"
}

private_slurm_jobs_done() { [[ -z "$(squeue --noheader --jobs="$1" --format=%i 2>/dev/null)" ]]; }

private_slurm_no_jobs() { [[ -z "$(squeue --noheader --format=%i 2>/dev/null)" ]]; }

private_slurm_node_idle() {
    [[ "$(sinfo --noheader --nodes="$PRIVATE_SLURM_NODE" --format=%T 2>/dev/null)" == idle ]]
}

# private_slurm_wait_for WHAT SECONDS COMMAND...: polls COMMAND every 0.2 s; on time-out names
# WHAT, and says which daemon died if one did.
private_slurm_wait_for() {
    local what="$1" seconds="$2"
    shift 2
    for _ in $(seq 1 $((seconds * 5))); do
        "$@" && return 0
        private_slurm_check_daemons || return 1
        sleep 0.2
    done
    private_slurm_log "FAIL: timed out after $seconds s waiting for $what"
    private_slurm_dump_logs
    return 1
}

# Fails, naming the daemon and showing its log, when one of the daemons has exited.
private_slurm_check_daemons() {
    local name pid
    for name in munged slurmctld slurmd; do
        eval "pid=\${PRIVATE_SLURM_PID_${name}:-}"
        [[ -z "$pid" ]] && continue
        if ! kill -0 "$pid" 2>/dev/null; then
            private_slurm_log "FAIL: $name (pid $pid) exited"
            private_slurm_dump_logs
            return 1
        fi
    done
}

private_slurm_dump_logs() {
    local f
    for f in "$PRIVATE_SLURM_DIR"/log/*; do
        [[ -s "$f" ]] || continue
        echo "----- ${f##*/} (last 20 lines)" >&2
        tail -n 20 "$f" >&2
    done
}

# Stops the cluster: cancels the jobs, stops the daemons by pid, then anything else carrying the
# mark; removes the folder. Safe to call twice.
private_slurm_stop() {
    local status=$?
    # A signal's trap gives the status the shell will exit with (the logs are kept then too).
    [[ -n "${1:-}" ]] && status="$1"
    [[ -z "${PRIVATE_SLURM_DIR:-}" || ! -d "$PRIVATE_SLURM_DIR" ]] && return "$status"
    touch "$PRIVATE_SLURM_DIR/stopped"
    local watchdog
    read -r watchdog 2>/dev/null <"$PRIVATE_SLURM_DIR/run/watchdog.pid" && kill "$watchdog" 2>/dev/null
    local pids marked
    # Found before the jobs are cancelled: a slurmstepd closes slurmd's log (by which it is
    # recognised) while it ends its job.
    mapfile -t marked < <(private_slurm_marked_pids "$PRIVATE_SLURM_DIR")
    # Cancelled jobs end cleanly (their slurmstepd exits) if the daemons live a moment longer.
    if [[ -n "${PRIVATE_SLURM_PID_slurmctld:-}" ]] && kill -0 "$PRIVATE_SLURM_PID_slurmctld" 2>/dev/null &&
        [[ -n "$(timeout 5 squeue --noheader --format=%i 2>/dev/null)" ]]; then
        timeout 5 scancel --quiet --user="$(id -un)" 2>/dev/null
        private_slurm_wait_for "cancelled jobs to end" 3 private_slurm_no_jobs 2>/dev/null
        mapfile -t -O "${#marked[@]}" marked < <(private_slurm_marked_pids "$PRIVATE_SLURM_DIR")
    fi
    mapfile -t pids < <(private_slurm_daemon_pids)
    private_slurm_kill_pids "${pids[@]}" "${marked[@]}"
    if [[ "$status" -ne 0 && -n "${PRIVATE_SLURM_KEEP_LOGS:-}" ]]; then
        mkdir -p "$PRIVATE_SLURM_KEEP_LOGS" && cp -r "$PRIVATE_SLURM_DIR/log/." "$PRIVATE_SLURM_KEEP_LOGS/"
        private_slurm_log "daemon logs kept in $PRIVATE_SLURM_KEEP_LOGS"
    fi
    rm -rf "$PRIVATE_SLURM_DIR"
    private_slurm_log "stopped: daemons ${pids[*]} and every process of their jobs"
    # A later private_slurm_start in the same shell must not watch these daemons' pids.
    unset PRIVATE_SLURM_PID_munged PRIVATE_SLURM_PID_slurmctld PRIVATE_SLURM_PID_slurmd
    PRIVATE_SLURM_DIR=
    return "$status"
}

# private_slurm_wait_jobs SECONDS JOBID...: waits until no listed job (array jobs included) is
# pending or running. Fails on time-out or when a daemon died.
private_slurm_wait_jobs() {
    local seconds="$1" ids
    shift
    ids="$(IFS=,; echo "$*")"
    private_slurm_wait_for "jobs $ids to finish" "$seconds" private_slurm_jobs_done "$ids"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    if [[ "${1:-}" == --watchdog ]]; then
        private_slurm_watchdog "$2" "$3"
        exit 0
    fi
    [[ "${1:-}" == -- ]] && shift
    private_slurm_start || exit 1
    if [[ $# -eq 0 ]]; then set -- "${SHELL:-bash}"; fi
    "$@"
fi
