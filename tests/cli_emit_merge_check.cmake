# sweep --emit, run-spec and workspace merge end to end (docs/architecture.md section 9.7): an
# emitted 6-run sweep run with xargs -P 2 and merged stores every figure the same sweep stores
# run locally with --threads; a missing or damaged shard is listed in failed-tasks.txt; the Slurm
# scripts carry the array range, the limit and the options given; bad specs fail naming file and
# field.
include(${CMAKE_CURRENT_LIST_DIR}/cli_check_helpers.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(SWEEP sweep --trace ${FIX}/sjf_small.csv --profiles sjf-bsbf --cluster sjf-bsbf-16 --prefix v
          --policies sjf-bsbf,sjf,fifo --loads 1,2 --quiet)
set(NAMES v/x1/sjf-bsbf v/x1/sjf v/x1/fifo v/x2/sjf-bsbf v/x2/sjf v/x2/fifo)

cli(0 ${SWEEP} --db ${OUT}/local.sqlite --threads 2)
cli(0 ${SWEEP} --db ${OUT}/emitted.sqlite --emit ${OUT}/dir)
expect("${OUT_TEXT}" "6 run specs \\(0 scenarios already have a finished run\\) and 3 inputs written to ${OUT}/dir")
file(STRINGS ${OUT}/dir/commands.txt lines)
list(LENGTH lines count)
if(NOT count EQUAL 6)
  message(FATAL_ERROR "commands.txt has ${count} lines, expected 6")
endif()
list(GET lines 5 last)
expect("${last}" "^${CLI} run-spec specs/00005.json --shard shards/00005.sqlite$")
file(GLOB inputs ${OUT}/dir/inputs/*.json)
list(LENGTH inputs count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "${count} input files, expected 3 (trace, cluster, profiles once each)")
endif()
file(READ ${OUT}/dir/workspace ws)
expect("${ws}" "^${OUT}/emitted.sqlite\n$")

# Without Slurm, as the README says.
execute_process(COMMAND sh -c "xargs -P 2 -I{} sh -c {} < commands.txt" WORKING_DIRECTORY ${OUT}/dir
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "running commands.txt failed (${rc}): ${out}\n${err}")
endif()
file(GLOB shards ${OUT}/dir/shards/*)
list(LENGTH shards count)
if(NOT count EQUAL 6)
  message(FATAL_ERROR "${count} files in shards/, expected 6 whole shards (no .part left): ${shards}")
endif()
cli(0 workspace merge --emitted ${OUT}/dir)
expect("${OUT_TEXT}" "missing: 0 specs\n6 shards merged into ${OUT}/emitted.sqlite: 6 runs added, 0 already stored; 0 refused")
file(READ ${OUT}/dir/failed-tasks.txt failed)
if(NOT failed STREQUAL "")
  message(FATAL_ERROR "failed-tasks.txt should be empty: '${failed}'")
endif()
# Again: nothing changes.
cli(0 workspace merge --emitted ${OUT}/dir --into ${OUT}/emitted.sqlite --quiet)
expect("${OUT_TEXT}" "0 runs added, 6 already stored; 0 refused")

# Every figure as the local sweep stored it.
cli(0 compare --db ${OUT}/local.sqlite ${NAMES} --json ${OUT}/local.json)
cli(0 compare --db ${OUT}/emitted.sqlite ${NAMES} --json ${OUT}/emitted.json)
file(READ ${OUT}/local.json local)
file(READ ${OUT}/emitted.json emitted)
if(NOT local STREQUAL emitted)
  message(FATAL_ERROR "the merged sweep differs from the local one:\n${local}\n----\n${emitted}")
endif()
expect("${local}" "\"avg_jct\"")

# A missing and a damaged shard: both refused or missing, listed by task, the rest merged.
file(REMOVE ${OUT}/dir/shards/00004.sqlite)
file(WRITE ${OUT}/dir/shards/00001.sqlite "half a shard")
cli(1 workspace merge --emitted ${OUT}/dir --into ${OUT}/partial.sqlite)
expect("${OUT_TEXT}" "refused ${OUT}/dir/shards/00001.sqlite: not a readable SQLite database")
expect("${OUT_TEXT}" "missing: 2 specs \\(tasks 1,4\\)\n4 shards merged into ${OUT}/partial.sqlite: 4 runs added, 0 already stored; 1 refused")
file(READ ${OUT}/dir/failed-tasks.txt failed)
expect("${failed}" "^1,4\n$")
# A shard run again completes it.
execute_process(COMMAND sh -c "sed -n 2p commands.txt | sh && sed -n 5p commands.txt | sh" WORKING_DIRECTORY ${OUT}/dir
                RESULT_VARIABLE rc)
cli(0 workspace merge --emitted ${OUT}/dir --into ${OUT}/partial.sqlite --quiet)
expect("${OUT_TEXT}" "missing: 0 specs\n6 shards merged into ${OUT}/partial.sqlite: 2 runs added, 4 already stored")

# Emitting again: every scenario has its run, so nothing is emitted; a used folder is refused.
cli(0 ${SWEEP} --db ${OUT}/emitted.sqlite --emit ${OUT}/again)
expect("${OUT_TEXT}" "^0 run specs \\(6 scenarios already have a finished run\\)")
cli(1 ${SWEEP} --db ${OUT}/other.sqlite --emit ${OUT}/dir)
expect("${ERR_TEXT}" "${OUT}/dir: exists and is not empty")
cli(0 scenario list --db ${OUT}/other.sqlite)
expect("${OUT_TEXT}" "no scenarios")

# An executable path that xargs would split (it strips quotes): refused before anything is stored.
cli(1 ${SWEEP} --db ${OUT}/quoted.sqlite --emit ${OUT}/quoted --cli "/opt/c l/clusterloom-cli")
expect("${ERR_TEXT}" "--cli /opt/c l/clusterloom-cli: the path holds a space")
cli(0 scenario list --db ${OUT}/quoted.sqlite)
expect("${OUT_TEXT}" "no scenarios")

# The task time limit is measured on each policy's first spec, and the slowest one counts.
cli(0 ${SWEEP} --db ${OUT}/timed.sqlite --emit ${OUT}/timed --slurm)
expect("${OUT_TEXT}" "the slowest of 3 policies' first simulation \\(v/x1/(sjf-bsbf|sjf|fifo)\\) took")

# Slurm scripts: the range, the limit and the options given.
cli(0 ${SWEEP} --db ${OUT}/slurm.sqlite --emit ${OUT}/slurm --slurm --specs-per-task 4 --array-limit 2 --partition gpu
    --account lab --sbatch-option=--qos=long --time-limit 7 --cli /opt/cl/bin/clusterloom-cli)
expect("${OUT_TEXT}" "Slurm: 2 array tasks of 4 specs")
file(READ ${OUT}/slurm/array.sbatch array)
foreach(line "#SBATCH --array=0-1%2\n" "#SBATCH --cpus-per-task=1\n" "#SBATCH --time=7\n" "#SBATCH --partition=gpu\n"
        "#SBATCH --account=lab\n" "#SBATCH --qos=long\n" "#SBATCH --output=${OUT}/slurm/logs/%A_%a.out\n"
        "per_task=4\nspecs=6\n")
  string(FIND "${array}" "${line}" at)
  if(at LESS 0)
    message(FATAL_ERROR "array.sbatch lacks '${line}':\n${array}")
  endif()
endforeach()
file(READ ${OUT}/slurm/merge.sbatch merge)
expect("${merge}" "exec /opt/cl/bin/clusterloom-cli workspace merge --emitted ${OUT}/slurm --into ${OUT}/slurm.sqlite\n")
file(READ ${OUT}/slurm/submit.sh submit)
expect("${submit}" "array=\\$\\(sbatch --parsable array.sbatch\\).*--dependency=afterany:\"\\$array\" merge.sbatch.*echo \"array \\$array\"\necho \"merge \\$merge\"")
file(READ ${OUT}/slurm/resubmit-failed.sh resubmit)
expect("${resubmit}" "tasks=\\$\\(cat failed-tasks.txt.*sbatch --parsable --array=\"\\$tasks%2\" array.sbatch")
file(STRINGS ${OUT}/slurm/commands.txt lines)
list(GET lines 0 first)
expect("${first}" "^/opt/cl/bin/clusterloom-cli run-spec specs/00000.json --shard shards/00000.sqlite$")
# The tasks of the array, by hand: task 1 runs specs 4 and 5 only.
execute_process(COMMAND ${CMAKE_COMMAND} -E env SLURM_ARRAY_TASK_ID=1 sh -c
                        "sed 's|/opt/cl/bin/clusterloom-cli|${CLI}|' commands.txt > c && mv c commands.txt && sh array.sbatch"
                WORKING_DIRECTORY ${OUT}/slurm RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "array task 1 failed (${rc}): ${out}\n${err}")
endif()
file(GLOB shards RELATIVE ${OUT}/slurm/shards ${OUT}/slurm/shards/*)
if(NOT shards STREQUAL "00004.sqlite;00005.sqlite")
  message(FATAL_ERROR "array task 1 wrote ${shards}, expected 00004.sqlite;00005.sqlite")
endif()
cli(1 workspace merge --emitted ${OUT}/slurm)
expect("${OUT_TEXT}" "missing: 4 specs \\(tasks 0\\)")

# More specs than Slurm's array may hold: several per task, chosen so that tasks <= 1000.
set(seeds 1)
foreach(s RANGE 2 1001)
  string(APPEND seeds ",${s}")
endforeach()
cli(0 sweep --trace ${FIX}/small.csv --prefix big --seeds ${seeds} --db ${OUT}/big.sqlite --emit ${OUT}/big --slurm
    --time-limit 5 --quiet)
expect("${OUT_TEXT}" "1001 run specs.*Slurm: 501 array tasks of 2 specs")
file(READ ${OUT}/big/array.sbatch array)
expect("${array}" "#SBATCH --array=0-500\n")
cli(1 sweep --trace ${FIX}/small.csv --prefix big2 --seeds ${seeds} --db ${OUT}/big2.sqlite --emit ${OUT}/big2 --slurm
    --specs-per-task 1 --time-limit 5 --quiet)
expect("${ERR_TEXT}" "1001 specs at 1 per task make more array tasks than Slurm's default MaxArraySize allows")
if(EXISTS ${OUT}/big2)
  message(FATAL_ERROR "a refused emission left its folder behind")
endif()
cli(2 sweep --trace ${FIX}/small.csv --prefix p --db ${OUT}/p.sqlite --emit ${OUT}/p --partition gpu)
expect("${ERR_TEXT}" "--partition needs --slurm")

# Bad specs and inputs fail naming the file and the field.
file(READ ${OUT}/dir/specs/00000.json spec)
string(REPLACE "\"seed\": 1," "\"seed\": \"one\"," bad "${spec}")
file(WRITE ${OUT}/dir/specs/bad-seed.json "${bad}")
cli(1 run-spec ${OUT}/dir/specs/bad-seed.json --shard ${OUT}/never.sqlite)
expect("${ERR_TEXT}" "bad-seed.json:[0-9]+: field 'scenario.seed'")
string(REPLACE "\"load_factor\": 1.0" "\"load_factr\": 1.0" bad "${spec}")
file(WRITE ${OUT}/dir/specs/bad-parameter.json "${bad}")
cli(1 run-spec ${OUT}/dir/specs/bad-parameter.json --shard ${OUT}/never.sqlite)
expect("${ERR_TEXT}" "bad-parameter.json:[0-9]+: field 'scenario.parameters'.*'load_factr' is not a scenario parameter")
file(WRITE ${OUT}/dir/specs/truncated.json "{\"format\": \"clusterloom-run-spec\", \"version\": 1, \"scen")
cli(1 run-spec ${OUT}/dir/specs/truncated.json --shard ${OUT}/never.sqlite)
expect("${ERR_TEXT}" "truncated.json:1")
file(GLOB inputs ${OUT}/dir/inputs/*.json)
list(GET inputs 0 input)
file(RENAME ${input} ${input}.away)
cli(1 run-spec ${OUT}/dir/specs/00000.json --shard ${OUT}/never.sqlite)
expect("${ERR_TEXT}" "${input}: cannot open the input file")
file(WRITE ${input} "{}")
cli(1 run-spec ${OUT}/dir/specs/00000.json --shard ${OUT}/never.sqlite)
expect("${ERR_TEXT}" "${input}.*content hash [0-9a-f]+, the spec expects")
if(EXISTS ${OUT}/never.sqlite OR EXISTS ${OUT}/never.sqlite.part)
  message(FATAL_ERROR "a failed run-spec left a shard behind")
endif()

# plan --emit: each round emits the points the search needs next that are not stored; run and
# merged, the next round goes on, until the plan answers exactly as the plan run locally does.
cli(0 generate --out ${OUT}/plan-trace.csv --jobs 60 --rate 12 --seed 3 --gpus 1:0.5,2:0.2,4:0.2,8:0.1)
set(PLAN plan --trace ${OUT}/plan-trace.csv --cluster sjf-bsbf-16 --server-types v100x8,t4x4 --policies fifo,srtf
    --target avg_queueing<=1h --target p95_jct<=2d --seeds 1,2 --load 1.2 --quiet)
cli(0 ${PLAN} --db ${OUT}/plan-local.sqlite --threads 2)
string(REPLACE "${OUT}/plan-local.sqlite" "WS" local_plan "${OUT_TEXT}")
set(answered FALSE)
foreach(round RANGE 1 40)
  cli(0 ${PLAN} --db ${OUT}/plan-emitted.sqlite --emit ${OUT}/plan-${round})
  if(NOT OUT_TEXT MATCHES "plan: the search needs [0-9]+ more simulations")
    set(answered TRUE)
    break()
  endif()
  execute_process(COMMAND sh -c "xargs -P 2 -I{} sh -c {} < commands.txt" WORKING_DIRECTORY ${OUT}/plan-${round}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  cli(0 workspace merge --emitted ${OUT}/plan-${round} --quiet)
endforeach()
if(NOT answered OR round LESS 3)
  message(FATAL_ERROR "plan --emit did not answer in 40 rounds, or answered without emitting (round ${round})")
endif()
string(REPLACE "${OUT}/plan-emitted.sqlite" "WS" emitted_plan "${OUT_TEXT}")
if(NOT local_plan STREQUAL emitted_plan)
  message(FATAL_ERROR "plan over emitted rounds differs from the local plan:\n${local_plan}\n----\n${emitted_plan}")
endif()
expect("${emitted_plan}" "Cheapest plan: ")
