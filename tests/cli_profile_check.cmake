# clusterloom-cli profile import end to end: a hand-made Kineto trace (tests/fixtures/kineto) to
# the profile JSON with every promised key, stored twice into a workspace profile set (the second
# time nothing new), and two files as the ranks of one run.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CLI} profile import --kineto ${KINETO}/two_steps.json.gz --name toy
                        --json ${OUT}/toy.json --db ${OUT}/ws.sqlite --set mine
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "profile import failed (${rc}): ${err}")
endif()
if(NOT out MATCHES "median +0\\.200 +0\\.08[78] +0\\.045 +0\\.030 +0\\.015 +0\\.06[78]"
   OR NOT out MATCHES "warning: 2 of 8 kernels have no launch event"
   OR NOT out MATCHES "wrote .*toy.json"
   OR NOT out MATCHES "added model 'toy' in profile set 'mine' \\(id [0-9]+\\)")
  message(FATAL_ERROR "profile import printed: ${out}")
endif()
file(READ ${OUT}/toy.json j)
foreach(key iteration_ms gpu_ms nccl_ms network_ms storage_ms cpu_ms steps world_size gpu_name name)
  string(JSON value ERROR_VARIABLE missing GET "${j}" ${key})
  if(missing)
    message(FATAL_ERROR "toy.json has no '${key}': ${j}")
  endif()
endforeach()
string(JSON name GET "${j}" name)
string(JSON world GET "${j}" world_size)
string(JSON steps LENGTH "${j}" steps)
string(JSON step GET "${j}" steps 1 step)
if(NOT name STREQUAL "toy" OR NOT world EQUAL 4 OR NOT steps EQUAL 2 OR NOT step EQUAL 3)
  message(FATAL_ERROR "toy.json: name ${name}, world_size ${world}, ${steps} steps, last step ${step}")
endif()
string(JSON ranks ERROR_VARIABLE no_ranks GET "${j}" ranks)
if(NOT no_ranks)
  message(FATAL_ERROR "one file gave ranks: ${j}")
endif()

execute_process(COMMAND ${CLI} profile import --kineto ${KINETO}/two_steps.json.gz --name toy
                        --db ${OUT}/ws.sqlite --set mine
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "already stored: model 'toy' in profile set 'mine'")
  message(FATAL_ERROR "second import (${rc}): ${out}${err}")
endif()

# Two files: the ranks of one run, named after the first file by default.
execute_process(COMMAND ${CLI} profile import --kineto ${KINETO}/two_steps.json ${KINETO}/two_steps.json.gz
                        --json ${OUT}/ranks.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "two-rank import failed (${rc}): ${err}")
endif()
file(READ ${OUT}/ranks.json j)
string(JSON name GET "${j}" name)
string(JSON ranks LENGTH "${j}" ranks)
if(NOT name STREQUAL "two_steps" OR NOT ranks EQUAL 2)
  message(FATAL_ERROR "ranks.json: name ${name}, ${ranks} ranks")
endif()

# The stored set serves a scenario by name: four 4-GPU jobs of the imported model under Muri-S
# (its four stage times) and under SRTF (its iteration time) on the 64-GPU testbed.
file(WRITE ${OUT}/toy.csv "job_id,submit_time,gpus,model,iterations\n0,0,4,toy,100000\n1,0,4,toy,100000\n2,10,4,toy,200000\n3,20,4,toy,50000\n")
foreach(policy muri-s srtf)
  execute_process(COMMAND ${CLI} scenario create toy-${policy} --db ${OUT}/ws.sqlite --trace ${OUT}/toy.csv
                          --profiles mine --policy ${policy} --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scenario create with --profiles mine (${rc}): ${out}${err}")
  endif()
  execute_process(COMMAND ${CLI} run --scenario toy-${policy} --db ${OUT}/ws.sqlite
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${policy} +4/4")
    message(FATAL_ERROR "run --scenario toy-${policy} (${rc}): ${out}${err}")
  endif()
endforeach()
