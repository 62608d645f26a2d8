#!/usr/bin/env bash
# The Slurm fidelity workload (tests/slurm/fidelity_workload.txt) run on a private Slurm of one node
# with 16 GPUs, recorded as Slurm's accounting would show it (docs/architecture.md section 11,
# "slurm"). The reference the `slurm` scheduler's replay is checked against.
#
#   fidelity_workload.sh OUT_DIR      starts a private cluster, runs the workload, writes OUT_DIR,
#                                     stops the cluster
#   source fidelity_workload.sh       then fidelity_configure; private_slurm_start;
#                                     fidelity_run OUT_DIR
#
# OUT_DIR receives:
#   sacct.txt       one row per job in `sacct --parsable2` form, the header
#                   JobID|JobName|User|Account|Partition|State|Submit|Start|End|Elapsed|NNodes|NCPUS|ReqTRES|AllocTRES|Timelimit
#                   (no accounting database here: the rows are made from scontrol's job records,
#                   the times as sacct prints them, local ISO 8601; ReqTRES is what the job asked
#                   for, AllocTRES what it got, each sorted by name as sacct sorts them. Slurm
#                   counts GPUs in a job's TRES only with slurmdbd (AccountingStorageTRES), so
#                   the gres/gpu entries come from the job's request, TresPerNode=gres:gpu:K, and
#                   its allocation, JOB_GRES=gpu:a100:K; the rest from jobcomp.txt's Tres)
#   config.txt      scontrol show config
#   nodes.txt       scontrol show node --oneliner
#   partitions.txt  scontrol show partition --oneliner
#   slurm.conf, gres.conf   the configuration the cluster ran with
#   jobs.txt        scontrol -d show job --oneliner after the last job ended (shows which of the
#                   main scheduler and the backfill scheduler started each job: Scheduler=)
#   jobcomp.txt     Slurm's own completion records (JobCompType=jobcomp/filetxt)
#   submitted.txt   name, job id, planned offset (s), sbatch's return (epoch s)
#   slurmctld.log   the controller's log
#
# Environment: FIDELITY_WORKLOAD=FILE another workload in the same form (default: the table beside
# this script; an optional sixth column names the partition(s), and GPUS may be TYPE:COUNT); FIDELITY_JOB_WAIT_SECONDS (420) how long to wait for the last job;
# FIDELITY_EXTRA_CONF=TEXT more slurm.conf lines (e.g. DebugFlags=Backfill).

FIDELITY_HERE="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
FIDELITY_WORKLOAD="${FIDELITY_WORKLOAD:-$FIDELITY_HERE/fidelity_workload.txt}"

# The cluster: one node, 16 a100 GPUs and enough CPUs (64) that only the GPUs limit what runs;
# each job takes one CPU. Every setting that shapes when a job starts is written here (the rest
# are Slurm 22.05's defaults, saved in config.txt):
# - SchedulerType=sched/backfill, SelectType=select/cons_tres, SelectTypeParameters=CR_Core (from
#   private_slurm.sh), PriorityType=priority/basic: jobs are considered in submission order.
# - SchedulerParameters: sched_interval=-1 turns the main scheduler off, so that only the backfill
#   scheduler starts jobs, once a second (bf_interval=1 instead of 30), planning in whole seconds
#   (bf_resolution=1 instead of 60). With both schedulers on, which of them saw a job end first
#   decided, to the second, whether a later job with the same time limit could be backfilled;
#   one such tie going the other way moved a dozen starts by over a minute, and two runs of this
#   workload differed by 76 s at the 90th percentile. batch_sched_delay=0 stays from
#   private_slurm.sh's default (it only matters to the main scheduler).
# - DefMemPerNode=1: a job without --mem gets 1 MB (memory is not consumable under CR_Core; this
#   only keeps mem= in the TRES small, as on a cluster with memory limits).
# - JobCompType=jobcomp/filetxt: Slurm's completion record of every job, kept beside the history.
fidelity_configure() {
    export PRIVATE_SLURM_CPUS=64 PRIVATE_SLURM_MEMORY=262144 PRIVATE_SLURM_GRES=gpu:a100:16
    export PRIVATE_SLURM_SCHEDULER_PARAMETERS=batch_sched_delay=0,sched_interval=-1,bf_interval=1,bf_resolution=1
    export PRIVATE_SLURM_EXTRA_CONF='PriorityType=priority/basic
DefMemPerNode=1
JobCompType=jobcomp/filetxt
JobCompLoc=@DIR@/log/jobcomp.txt'
    # e.g. DebugFlags=Backfill,BackfillMap: every backfill decision in slurmctld.log.
    [[ -z "${FIDELITY_EXTRA_CONF:-}" ]] || PRIVATE_SLURM_EXTRA_CONF+=$'\n'"$FIDELITY_EXTRA_CONF"
}

# The typed-GRES case (fidelity_typed_workload.txt): the same settings on a node with 8 a100 and
# 8 v100 GPUs in two partitions, a100q (default, PriorityTier 1) and v100q (PriorityTier 2).
fidelity_configure_typed() {
    fidelity_configure
    export PRIVATE_SLURM_GRES=gpu:a100:8,gpu:v100:8
    export PRIVATE_SLURM_PARTITIONS="PartitionName=a100q Nodes=$PRIVATE_SLURM_NODE Default=YES MaxTime=INFINITE PriorityTier=1 State=UP
PartitionName=v100q Nodes=$PRIVATE_SLURM_NODE MaxTime=30 PriorityTier=2 State=UP"
    export FIDELITY_WORKLOAD="$FIDELITY_HERE/fidelity_typed_workload.txt"
}

fidelity_log() { printf 'fidelity: %s\n' "$*" >&2; }

# Submits every job of the workload at its offset from the first submission; writes submitted.txt.
fidelity_submit() {
    local out="$1" t0="$EPOCHREALTIME" name offset gpus limit sleep_s wait_s id
    : >"$out/submitted.txt"
    local partition
    while read -r name offset gpus limit sleep_s partition; do
        [[ -z "$name" || "$name" == \#* ]] && continue
        wait_s="$(awk -v t0="$t0" -v o="$offset" -v now="$EPOCHREALTIME" 'BEGIN { w = t0 + o - now; printf "%.3f", (w > 0 ? w : 0) }')"
        sleep "$wait_s"
        id="$(sbatch --parsable --job-name="$name" --gres="gpu:$gpus" --time="$limit" --output=/dev/null \
            ${partition:+--partition="$partition"} --chdir=/tmp --wrap "sleep $sleep_s")" || {
            fidelity_log "FAIL: sbatch of $name failed"
            return 1
        }
        echo "$name $id $offset $EPOCHREALTIME" >>"$out/submitted.txt"
    done <"$FIDELITY_WORKLOAD"
}

# A field of one `scontrol show job --oneliner` record.
fidelity_field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -n 1; }

# Seconds as sacct's Elapsed: [D-]HH:MM:SS.
fidelity_duration() {
    local s="$1" days
    days=$((s / 86400))
    s=$((s % 86400))
    if [[ $days -gt 0 ]]; then
        printf '%d-%02d:%02d:%02d' "$days" $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    else
        printf '%02d:%02d:%02d' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    fi
}

# A TRES list sorted by name, as sacct prints it (gres/gpu:a100=4 before gres/gpu=4).
fidelity_sort_tres() { tr ',' '\n' <<<"$1" | grep -v '^$' | LC_ALL=C sort | paste -sd, -; }

# A job's AllocTRES from its completion record's TRES and its JOB_GRES (gpu:a100:2,gpu:v100:0).
fidelity_alloc_gpus() {
    local tres="$1" entry count total=0
    while read -r entry; do
        count="${entry##*:}"
        [[ "$count" =~ ^[0-9]+$ && "$count" -gt 0 ]] || continue
        tres+=",gres/gpu:$(cut -d: -f2 <<<"$entry")=$count"
        total=$((total + count))
    done < <(tr ',' '\n' <<<"$2")
    echo "$tres,gres/gpu=$total"
}

# jobs.txt -> sacct.txt in sacct --parsable2 form.
fidelity_write_sacct() {
    local out="$1" line id name user account partition state submit start end limit nodes cpus tres gpus
    local req elapsed
    echo "JobID|JobName|User|Account|Partition|State|Submit|Start|End|Elapsed|NNodes|NCPUS|ReqTRES|AllocTRES|Timelimit" \
        >"$out/sacct.txt"
    while read -r line; do
        [[ "$line" == JobId=* ]] || continue
        id="$(fidelity_field "$line" JobId)"
        name="$(fidelity_field "$line" JobName)"
        user="$(fidelity_field "$line" UserId)"
        user="${user%%(*}"
        account="$(fidelity_field "$line" Account)"
        [[ "$account" == "(null)" ]] && account=
        partition="$(fidelity_field "$line" Partition)"
        state="$(fidelity_field "$line" JobState)"
        submit="$(fidelity_field "$line" SubmitTime)"
        start="$(fidelity_field "$line" StartTime)"
        end="$(fidelity_field "$line" EndTime)"
        limit="$(fidelity_field "$line" TimeLimit)"
        nodes="$(fidelity_field "$line" NumNodes)"
        cpus="$(fidelity_field "$line" NumCPUs)"
        # The TRES of Slurm's completion record (scontrol's lacks mem= once a job has ended).
        tres="$(grep "^JobId=$id " "$out/jobcomp.txt" | head -n 1)"
        tres="$(fidelity_field "$tres" Tres)"
        # Asked for: gres:gpu:K or gres:gpu:TYPE:K. Given: gpu:TYPE:K for each type of the node,
        # zero counts included (gpu:a100:0,gpu:v100:6); each type given counts under its own
        # name and all of them under gres/gpu. A job that never started was given nothing.
        gpus="$(fidelity_field "$line" TresPerNode)"
        gpus="${gpus#gres:gpu:}"
        if [[ "$gpus" == *:* ]]; then
            req="$tres,gres/gpu:${gpus%%:*}=${gpus##*:},gres/gpu=${gpus##*:}"
        else
            req="$tres,gres/gpu=$gpus"
        fi
        gpus="$(fidelity_field "$line" JOB_GRES)"
        if [[ -n "$gpus" ]]; then
            tres="$(fidelity_alloc_gpus "$tres" "$gpus")"
        else
            tres=
        fi
        elapsed=$(($(date -d "$end" +%s) - $(date -d "$start" +%s)))
        echo "$id|$name|$user|$account|$partition|$state|$submit|$start|$end|$(fidelity_duration "$elapsed")|$nodes|$cpus|$(fidelity_sort_tres "$req")|$(fidelity_sort_tres "$tres")|$limit" \
            >>"$out/sacct.txt"
    done < <(sort -t= -k2 -n "$out/jobs.txt")
}

# Runs the workload on the started cluster and writes OUT_DIR (see the top of this file).
fidelity_run() {
    local out="$1" ids
    mkdir -p "$out" || return 1
    scontrol show config >"$out/config.txt" || return 1
    scontrol show node --oneliner >"$out/nodes.txt" || return 1
    scontrol show partition --oneliner >"$out/partitions.txt" || return 1
    cp "$PRIVATE_SLURM_DIR/etc/slurm.conf" "$PRIVATE_SLURM_DIR/etc/gres.conf" "$out/"
    fidelity_log "submitting $(grep -cv '^#' "$FIDELITY_WORKLOAD") jobs from $FIDELITY_WORKLOAD"
    fidelity_submit "$out" || return 1
    ids="$(awk '{ print $2 }' "$out/submitted.txt" | paste -sd' ' -)"
    fidelity_log "submitted; waiting for the last job"
    # shellcheck disable=SC2086 # the job ids are words
    private_slurm_wait_jobs "${FIDELITY_JOB_WAIT_SECONDS:-420}" $ids || return 1
    scontrol -d show job --oneliner >"$out/jobs.txt" || return 1
    cp "$PRIVATE_SLURM_DIR/log/jobcomp.txt" "$out/jobcomp.txt" || return 1
    cp "$PRIVATE_SLURM_DIR/log/slurmctld.log" "$out/slurmctld.log"
    fidelity_write_sacct "$out" || return 1
    local rows
    rows=$(($(wc -l <"$out/sacct.txt") - 1))
    [[ $rows -eq $(wc -l <"$out/submitted.txt") ]] || {
        fidelity_log "FAIL: $rows jobs recorded, $(wc -l <"$out/submitted.txt") submitted"
        return 1
    }
    fidelity_log "$rows jobs recorded in $out/sacct.txt"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    [[ $# -eq 1 ]] || {
        echo "usage: $0 OUT_DIR" >&2
        exit 2
    }
    # shellcheck source=tests/slurm/private_slurm.sh
    source "$FIDELITY_HERE/private_slurm.sh"
    fidelity_configure
    private_slurm_start || exit 1
    fidelity_run "$1" || exit 1
fi
