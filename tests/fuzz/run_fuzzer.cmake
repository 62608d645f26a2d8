# Runs one libFuzzer target for a fixed time (cmake -P, from the CTest fuzz_<NAME>).
# In: FUZZER, NAME, MAX_LEN, SEEDS (folder, may be missing), WORK (scratch folder), FLOORS.
# Fails on any finding (crash, sanitizer report, leak, timeout, out-of-memory), printing the
# reproducer, and when the final coverage ("cov:") is below the floor recorded for NAME.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus" "${WORK}/artifacts")
set(corpora "${WORK}/corpus")  # new inputs go to the first folder: never into the seeds
if(EXISTS "${SEEDS}")
  list(APPEND corpora "${SEEDS}")
endif()

# -timeout: one input running 20 s is a hang, not a slow sanitizer build on a busy machine.
execute_process(
  COMMAND "${FUZZER}" -max_total_time=12 -seed=1 -timeout=20 -rss_limit_mb=2048 -max_len=${MAX_LEN}
          -print_final_stats=1 "-artifact_prefix=${WORK}/artifacts/" ${corpora}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)

string(REGEX MATCHALL "cov: [0-9]+" covs "${out}")
list(POP_BACK covs last)
string(REGEX REPLACE "cov: " "" cov "${last}")
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" execs "${out}")
string(REGEX REPLACE ".*: *" "" execs "${execs}")

if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "Test unit written to [^\n]*" units "${out}")
  message("${out}")
  message(FATAL_ERROR "fuzz_${NAME}: finding (exit code ${rc}). ${units}\n"
          "Reproduce: ${FUZZER} <that file>; once fixed, minimize it (-minimize_crash=1) into "
          "tests/fuzz/regressions/${NAME}/ and add a test with the expected error message.")
endif()

message("fuzz_${NAME}: cov ${cov}, ${execs} executions in 12 s")
file(STRINGS "${FLOORS}" lines REGEX "^${NAME} ")
if(NOT lines)
  message(FATAL_ERROR "fuzz_${NAME}: no coverage floor recorded in ${FLOORS}")
endif()
string(REGEX REPLACE "^${NAME} +([0-9]+).*" "\\1" floor "${lines}")
if(cov STREQUAL "")
  message("${out}")
  message(FATAL_ERROR "fuzz_${NAME}: libFuzzer printed no coverage")
endif()
if(cov LESS floor)
  message(FATAL_ERROR "fuzz_${NAME}: coverage ${cov} is below the floor ${floor}: the target no longer reaches its reader")
endif()
