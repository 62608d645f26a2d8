# Full paper experiments (minutes each): `ctest -L experiment`, never in CI or under the
# sanitizers. README.md reports their figures.
set(EXPERIMENT_OUT ${CMAKE_BINARY_DIR}/experiment-out)

# Synergy, FIFO single-GPU on 128 GPUs at 9 jobs/h, both convention sets, ten trace seeds
# (the mean is compared with the published single runs), then the 3-10 jobs/h load sweep
# stored in a workspace and drawn as jct_vs_load.svg.
add_test(NAME experiment_synergy_fifo
         COMMAND $<TARGET_FILE:clusterloom-cli> experiment synergy --check
                 --seeds 42,1,2,3,4,5,6,7,8,9
                 --db ${EXPERIMENT_OUT}/synergy.clusterloom --out ${EXPERIMENT_OUT}/synergy)
set_tests_properties(experiment_synergy_fifo PROPERTIES LABELS experiment TIMEOUT 3600)

# SJF-BSBF, 64 GPUs, 240 and 480 jobs from the busiest hours of the Philly trace with Pollux's
# configurations, ten sampling seeds: Tables III-IV and the Fig. 6(b) sweep. The sweep's claims
# are checked; the tables' order is reported (README explains where it differs).
if(EXISTS ${CLUSTERLOOM_SHARED_DATA_DIR}/philly/philly_jobs.csv)
  add_test(NAME experiment_sjf_bsbf
           COMMAND $<TARGET_FILE:clusterloom-cli> experiment sjf-bsbf --check sweep
                   --seeds 1,2,3,4,5,6,7,8,9,10
                   --philly ${CLUSTERLOOM_SHARED_DATA_DIR}/philly/philly_jobs.csv
                   --pollux-workloads ${CLUSTERLOOM_SHARED_DATA_DIR}/pollux/workloads
                   --out ${EXPERIMENT_OUT}/sjf-bsbf)
  set_tests_properties(experiment_sjf_bsbf PROPERTIES LABELS experiment TIMEOUT 600)
endif()

# The multi-agent placement paper's setting: 10,000 jobs on the 2,000-server fat-tree (k = 20), 15
# uniform arrivals per pod per 30-minute interval, Tetris / LB / LIF / k8s at server and device level
# (about 5 s).
add_test(NAME experiment_placement_fat_tree
         COMMAND $<TARGET_FILE:clusterloom-cli> placement --json ${EXPERIMENT_OUT}/placement.json)
set_tests_properties(experiment_placement_fat_tree PROPERTIES LABELS experiment TIMEOUT 600
  PASS_REGULAR_EXPRESSION "2000 servers, 500 switches, 8000 GPUs, 20 pods.*k8s@device")
