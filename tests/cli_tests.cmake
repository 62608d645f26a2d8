# End-to-end checks of clusterloom-cli: it runs, writes what it promises, and bad input gives
# a non-zero exit with one clear line naming the problem.
set(CLI $<TARGET_FILE:clusterloom-cli>)
set(CLI_OUT ${CMAKE_BINARY_DIR}/cli-test-out)
set(FIX ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/cli)

add_test(NAME cli_help COMMAND ${CLI} run --help)
set_tests_properties(cli_help PROPERTIES LABELS core PASS_REGULAR_EXPRESSION "--policy P")

add_test(NAME cli_run_writes_results
         COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DOUT=${CLI_OUT}/run -DFIX=${FIX}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_run_check.cmake)
set_tests_properties(cli_run_writes_results PROPERTIES LABELS core)

# A build tree's programs use the source tree's data (installed ones theirs: install_deb_package).
add_test(NAME cli_version COMMAND ${CLI} --version)
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" source_data_regex "${CLUSTERLOOM_SOURCE_DATA_DIR}")
set_tests_properties(cli_version PROPERTIES LABELS core
  PASS_REGULAR_EXPRESSION "clusterloom-cli [0-9.]+-r[0-9]+\nbuilt-in data: ${source_data_regex}\n")
add_test(NAME cli_demo COMMAND ${CLI} demo --out ${CLI_OUT}/demo)
set_tests_properties(cli_demo PROPERTIES LABELS core PASS_REGULAR_EXPRESSION "tiresias.*muri-s.*utilization.svg")

add_test(NAME cli_unknown_policy COMMAND ${CLI} run --trace ${FIX}/small.csv --policy nope)
set_tests_properties(cli_unknown_policy PROPERTIES LABELS core WILL_FAIL TRUE)
add_test(NAME cli_unknown_policy_message COMMAND ${CLI} run --trace ${FIX}/small.csv --policy nope)
set_tests_properties(cli_unknown_policy_message PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "unknown order 'nope'.*Orders: .*fifo")

add_test(NAME cli_bad_trace_message COMMAND ${CLI} run --trace ${FIX}/bad_gpus.csv)
set_tests_properties(cli_bad_trace_message PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "bad_gpus.csv:3: field 'gpus'")

add_test(NAME cli_missing_file_message COMMAND ${CLI} run --trace ${FIX}/does_not_exist.csv)
set_tests_properties(cli_missing_file_message PROPERTIES LABELS core PASS_REGULAR_EXPRESSION "does_not_exist.csv")

add_test(NAME cli_generate_transform
         COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DOUT=${CLI_OUT}/gen -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_generate_check.cmake)
set_tests_properties(cli_generate_transform PROPERTIES LABELS core)

add_test(NAME cli_workspace
         COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DOUT=${CLI_OUT}/workspace -DFIX=${FIX}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_workspace_check.cmake)
set_tests_properties(cli_workspace PROPERTIES LABELS core)

add_test(NAME cli_plan
         COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DOUT=${CLI_OUT}/plan -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_plan_check.cmake)
set_tests_properties(cli_plan PROPERTIES LABELS core)

# The Synergy experiment end to end on a small window (the full one is labelled experiment).
add_test(NAME cli_experiment_synergy_small
         COMMAND ${CLI} experiment synergy --jobs 400 --measure 200-299 --seeds 1,2 --sweep 8,10
                 --db ${CLI_OUT}/experiment/ws.clusterloom --out ${CLI_OUT}/experiment)
set_tests_properties(cli_experiment_synergy_small PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "load sweep: 6 runs stored.*jct_vs_load.svg")
# The SJF-BSBF experiment end to end on small workloads (the full one is labelled experiment).
# Needs the public datasets: fails without them (never skipped, docs/architecture.md section 11).
# The datasets come from CLUSTERLOOM_SHARED_DATA here, as a user without --philly would give them.
add_test(NAME cli_experiment_sjf_bsbf_small
         COMMAND ${CMAKE_COMMAND} -E env CLUSTERLOOM_SHARED_DATA=${CLUSTERLOOM_SHARED_DATA_DIR}
                 ${CLI} experiment sjf-bsbf --jobs 60,90 --seeds 1 --xi-sweep 1.0,2.0 --check sweep
                 --out ${CLI_OUT}/experiment-sjf-bsbf)
set_tests_properties(cli_experiment_sjf_bsbf_small PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "60 jobs.*sjf-bsbf.*90 jobs.*Fig. 6\\(b\\).*24 simulations in")
add_test(NAME cli_experiment_sjf_bsbf_bad_check COMMAND ${CLI} experiment sjf-bsbf --check nope --jobs 1 --seeds 1)
set_tests_properties(cli_experiment_sjf_bsbf_bad_check PROPERTIES LABELS core WILL_FAIL TRUE)
add_test(NAME cli_experiment_unknown COMMAND ${CLI} experiment nope)
set_tests_properties(cli_experiment_unknown PROPERTIES LABELS core WILL_FAIL TRUE)

# SJF-BSBF's workload from the busiest window of a Philly jobs CSV: the fixture's third job is
# shorter than 60 s, so the 8-hour window from 06:00 holds two.
set(PHILLY_FIX ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/io/pollux_philly_small.csv)
add_test(NAME cli_generate_from_philly
         COMMAND ${CLI} generate --from-philly ${PHILLY_FIX} --jobs 2 --seed 3 --out ${CMAKE_CURRENT_BINARY_DIR}/cli_philly_workload.csv)
set_tests_properties(cli_generate_from_philly PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "busiest window 2017-10-09 06:00 \\+ 8 h: 2 jobs.*wrote 2 jobs")
add_test(NAME cli_generate_from_philly_too_many
         COMMAND ${CLI} generate --from-philly ${PHILLY_FIX} --jobs 3 --out ${CMAKE_CURRENT_BINARY_DIR}/cli_philly_workload3.csv)
set_tests_properties(cli_generate_from_philly_too_many PROPERTIES LABELS core WILL_FAIL TRUE)
add_test(NAME cli_generate_from_philly_too_many_message
         COMMAND ${CLI} generate --from-philly ${PHILLY_FIX} --jobs 3 --out ${CMAKE_CURRENT_BINARY_DIR}/cli_philly_workload3.csv)
set_tests_properties(cli_generate_from_philly_too_many_message PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "asked for 3 jobs but the busiest Philly window .* holds only 2 jobs")
# fit-profile on the Pollux model measurements (a public dataset, docs/architecture.md section 10;
# the test fails without it): the table names every model, the file is written; a missing folder
# fails with one line and writes nothing; no folder at all names the option and the variable.
add_test(NAME cli_fit_profile
         COMMAND ${CLI} fit-profile --models ${CLUSTERLOOM_SHARED_DATA_DIR}/pollux/models
                 --out ${CLI_OUT}/fit/sjf-bsbf.json)
set_tests_properties(cli_fit_profile PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "bert.*cifar10.*deepspeech2.*imagenet.*ncf.*yolov3.*wrote 6 models")
add_test(NAME cli_fit_profile_no_datasets
         COMMAND ${CMAKE_COMMAND} -E env --unset=CLUSTERLOOM_SHARED_DATA ${CLI} fit-profile --out ${CLI_OUT}/fit/none.json)
set_tests_properties(cli_fit_profile_no_datasets PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "--models is needed: name the file, or set CLUSTERLOOM_SHARED_DATA")
add_test(NAME cli_fit_profile_missing COMMAND ${CLI} fit-profile --models ${CLI_OUT}/no-such-folder
         --out ${CLI_OUT}/fit/never.json)
set_tests_properties(cli_fit_profile_missing PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "Pollux models folder not found: .*no-such-folder")

# fit-interference on samples made from cpu_a 0.12, cpu_b 1.5, pcie_a 0.8: the three fits of
# Table III (multi-agent placement paper) with the coefficients recovered; the full fit stored in a
# profile set (read back by the next test); a bad sample fails (exit 1) naming file, line and field.
set(INTERF ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/interference)
add_test(NAME cli_fit_interference COMMAND ${CLI} fit-interference ${INTERF}/samples_noiseless.csv)
set_tests_properties(cli_fit_interference PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "fitted 240 samples.*\nfull +0\\.12 +1\\.5 +0\\.8 +0\\.0000 +0\\.00 +0\\.0000\nw/o CPU +0 +0 +1\\.6859 .*\nw/o PCIe +0\\.245455 +1\\.18978 +0 ")
add_test(NAME cli_fit_interference_noisy_json COMMAND ${CLI} fit-interference ${INTERF}/samples.csv --json)
set_tests_properties(cli_fit_interference_noisy_json PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "\"samples\": 240.*\"model\": \"full\",\n +\"cpu_a\": 0\\.1205.*\"cpu_b\": 1\\.496.*\"pcie_a\": 0\\.799.*\"model\": \"w/o CPU\".*\"model\": \"w/o PCIe\"")
add_test(NAME cli_fit_interference_write_profiles
         COMMAND ${CLI} fit-interference ${INTERF}/samples_noiseless.csv
                 --write-profiles ${CLUSTERLOOM_SOURCE_DATA_DIR}/profiles/muri.json ${CLI_OUT}/interference/muri.json)
set_tests_properties(cli_fit_interference_write_profiles PROPERTIES LABELS core FIXTURES_SETUP interference_profiles
  PASS_REGULAR_EXPRESSION "into profile set 'muri' at .*interference/muri.json")
add_test(NAME cli_fit_interference_written COMMAND ${CMAKE_COMMAND} -E cat ${CLI_OUT}/interference/muri.json)
set_tests_properties(cli_fit_interference_written PROPERTIES LABELS core FIXTURES_REQUIRED interference_profiles
  PASS_REGULAR_EXPRESSION "\"interference\": {\n +\"cpu_a\": 0\\.(1199999|1200000)[0-9]*,\n +\"cpu_b\": 1\\.(5|4999999|5000000)[0-9]*,\n +\"pcie_a\": 0\\.(7999999|8000000)")
add_test(NAME cli_fit_interference_bad_csv COMMAND ${CLI} fit-interference ${INTERF}/bad_number.csv)
set_tests_properties(cli_fit_interference_bad_csv PROPERTIES LABELS core WILL_FAIL TRUE)
add_test(NAME cli_fit_interference_bad_csv_message COMMAND ${CLI} fit-interference ${INTERF}/bad_number.csv)
set_tests_properties(cli_fit_interference_bad_csv_message PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "fit-interference: error: .*bad_number.csv:3: field 'other_cpu': expected a number, found 'six'")

# SJF-BSBF's interference ratio: sharing halves the queueing at xi 1.2; below 1 is refused
# with one line saying what the ratio means.
set(SJF_RUN run --trace ${FIX}/sjf_small.csv --profiles sjf-bsbf --cluster sjf-bsbf-16)
add_test(NAME cli_run_sjf_bsbf_xi COMMAND ${CLI} ${SJF_RUN} --policy sjf-bsbf --policy sjf --xi 1.2)
set_tests_properties(cli_run_sjf_bsbf_xi PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "sjf-bsbf +6/6 +27.3 min.*sjf +6/6 +33.0 min")
add_test(NAME cli_run_xi_below_one COMMAND ${CLI} ${SJF_RUN} --policy sjf-bsbf --xi 0.5)
set_tests_properties(cli_run_xi_below_one PROPERTIES LABELS core WILL_FAIL TRUE)
add_test(NAME cli_run_xi_below_one_message COMMAND ${CLI} ${SJF_RUN} --policy sjf-bsbf --xi 0.5)
set_tests_properties(cli_run_xi_below_one_message PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "--xi must be 0 \\(the profile's ratios\\) or 1..100 .*not 0.5")

# Numbers at the edges (tests/core/test_edge_inputs.cpp runs them under every policy).
set(EDGE ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/edge)
add_test(NAME cli_edge_header_only_trace COMMAND ${CLI} run --trace ${EDGE}/header_only.csv --policy srtf
                                                 --policy sjf-bsbf --out ${CLI_OUT}/edge-empty)
set_tests_properties(cli_edge_header_only_trace PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "0 jobs.*srtf +0/0.*sjf-bsbf +0/0")
add_test(NAME cli_edge_job_larger_than_cluster COMMAND ${CLI} run --trace ${EDGE}/too_big_for_64.csv --strict)
set_tests_properties(cli_edge_job_larger_than_cluster PROPERTIES LABELS core WILL_FAIL TRUE)
add_test(NAME cli_edge_job_larger_than_cluster_message COMMAND ${CLI} run --trace ${EDGE}/too_big_for_64.csv --strict)
set_tests_properties(cli_edge_job_larger_than_cluster_message PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
                     "job 'big' \\(#0\\) needs 65 GPUs but cluster 'muri-testbed-64' has only 64")
# Without --strict the job is left out, named, and the rest runs.
add_test(NAME cli_edge_job_larger_than_cluster_left_out COMMAND ${CLI} run --trace ${EDGE}/too_big_for_64.csv)
set_tests_properties(cli_edge_job_larger_than_cluster_left_out PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
                     "left out 1 job\\(s\\) that can never fit.*job 'big' \\(#0\\) needs 65 GPUs but cluster 'muri-testbed-64' has only 64")
add_test(NAME cli_edge_years_apart COMMAND ${CLI} run --trace ${EDGE}/years_apart.csv --policy sjf-bsbf
                                           --policy fifo+tune --out ${CLI_OUT}/edge-years)
set_tests_properties(cli_edge_years_apart PROPERTIES LABELS core TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "sjf-bsbf +3/3 .* 2190.00 d.*fifo\\+tune +3/3 .* 2190.00 d")
add_test(NAME cli_edge_endless_job_message COMMAND ${CLI} run --trace ${EDGE}/huge_duration.csv)
set_tests_properties(cli_edge_endless_job_message PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "job 'ok' \\(#0\\) would run 1[.0-9]*e\\+300 s alone, more than the 10 years")

# placement (topology placement, docs/architecture.md section 6): the four policies at both levels on
# small topologies, per-tier columns.
add_test(NAME cli_placement_fat_tree COMMAND ${CLI} placement --k 4 --rate 2 --intervals 6 --jobs 0)
set_tests_properties(cli_placement_fat_tree PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "fat-tree, 16 servers, 20 switches, 64 GPUs, 4 pods[^\n]*\n[^\n]*\n\npolicy +avg JCT h +intervals +slowdown[^\n]*tier0 10G +tier1 20G +tier2 40G\ntetris [^\n]*%\nlb [^\n]*%\nlif [^\n]*%\nk8s [^\n]*%\ntetris@device [^\n]*%\nlb@device [^\n]*%\nlif@device [^\n]*%\nk8s@device [^\n]*%\n")
add_test(NAME cli_placement_vl2_device COMMAND ${CLI} placement --topology vl2 --k 4 --n 4 --level device --policies lif,tetris@server)
set_tests_properties(cli_placement_vl2_device PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "vl2, 80 servers, 10 switches[^\n]*\n.*tier0 1G +tier1 10G +tier2 10G\nlif@device [^\n]*\ntetris [^\n]*\n\\(JCT")
add_test(NAME cli_placement_bcube_trace
         COMMAND ${CLI} placement --topology bcube --n 4 --k 1 --pattern trace --trace ${FIX}/small.csv --intervals 0
                 --policies k8s --level server)
set_tests_properties(cli_placement_bcube_trace PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "bcube, 16 servers, 8 switches.*trace arrivals.*tier0 10G +tier1 20G\nk8s ")
add_test(NAME cli_placement_layout
         COMMAND ${CLI} placement --layout ${CLUSTERLOOM_SOURCE_DATA_DIR}/clusters/fat-tree-k4-power8.json
                 --policies tetris --level server --rate 1 --intervals 2 --json ${CLI_OUT}/placement.json)
set_tests_properties(cli_placement_layout PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "fat-tree, 16 servers.*\ntetris ")
add_test(NAME cli_placement_unknown_policy COMMAND ${CLI} placement --k 4 --policies random)
set_tests_properties(cli_placement_unknown_policy PROPERTIES LABELS core WILL_FAIL TRUE)
add_test(NAME cli_placement_unknown_policy_message COMMAND ${CLI} placement --k 4 --policies random)
set_tests_properties(cli_placement_unknown_policy_message PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "unknown placement policy 'random' \\(valid: tetris, lb, lif, k8s")
add_test(NAME cli_placement_odd_k_message COMMAND ${CLI} placement --k 5)
set_tests_properties(cli_placement_odd_k_message PROPERTIES LABELS core PASS_REGULAR_EXPRESSION "k.*even")
add_test(NAME cli_placement_flat_layout_message
         COMMAND ${CLI} placement --layout ${CLUSTERLOOM_SOURCE_DATA_DIR}/clusters/sjf-bsbf-16.json)
set_tests_properties(cli_placement_flat_layout_message PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "sjf-bsbf-16.json: the layout describes no topology")
add_test(NAME cli_placement_profiles
         COMMAND ${CLI} placement --k 4 --rate 1 --intervals 2 --policies lif --level device
                 --profiles ${CLUSTERLOOM_SOURCE_DATA_DIR}/profiles/muri.json)
set_tests_properties(cli_placement_profiles PROPERTIES LABELS core PASS_REGULAR_EXPRESSION "\nlif@device ")

# profile import: PyTorch profiler traces to a profile (docs/architecture.md section 8.6).
add_test(NAME cli_profile_import
         COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DOUT=${CLI_OUT}/profile -DKINETO=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/kineto
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_profile_check.cmake)
set_tests_properties(cli_profile_import PROPERTIES LABELS core)
add_test(NAME cli_profile_import_no_steps_message
         COMMAND ${CLI} profile import --kineto ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/kineto/no_steps.json --json ${CLI_OUT}/profile/none.json)
set_tests_properties(cli_profile_import_no_steps_message PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "profile: error: .*no_steps.json: field 'traceEvents': no ProfilerStep#N spans: record with torch.profiler.schedule and call prof.step\\(\\)")
add_test(NAME cli_profile_help COMMAND ${CLI} profile --help)
set_tests_properties(cli_profile_help PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
  "import --kineto FILE\\.\\.\\. \\[--name MODEL\\] \\[--json OUT\\]")

# The README's Slurm walk-through, end to end (profiles from the shared profiler traces; fails,
# never skips, without them: docs/architecture.md section 11).
add_test(NAME cli_slurm_walkthrough
         COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DOUT=${CLI_OUT}/slurm-walkthrough
                 -DSLURM=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/slurm -DKINETO=${CLUSTERLOOM_SHARED_DATA_DIR}/kineto
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_slurm_walkthrough_check.cmake)
set_tests_properties(cli_slurm_walkthrough PROPERTIES LABELS core)
add_test(NAME cli_import_slurm_needs_an_input COMMAND ${CLI} import slurm --out ${CLI_OUT}/nothing)
set_tests_properties(cli_import_slurm_needs_an_input PROPERTIES LABELS core
                     PASS_REGULAR_EXPRESSION "give --sacct FILE, --nodes FILE or both")

# Emitted sweeps, run-spec shards, their merge and the Slurm scripts (docs/architecture.md 9.7).
add_test(NAME cli_emit_merge
         COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DOUT=${CLI_OUT}/emit-merge -DFIX=${FIX}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_emit_merge_check.cmake)
set_tests_properties(cli_emit_merge PROPERTIES LABELS core)

# The replay check (docs/architecture.md 7.10) on a run recorded from a private Slurm 22.05
# (tests/fixtures/slurm/fidelity: 50 sleep jobs on one 16-GPU node, the workload of
# tests/slurm/fidelity_workload.txt): the slurm policy follows it closely, fifo does not.
set(FIDELITY ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/slurm/fidelity)
add_test(NAME cli_import_slurm_check
         COMMAND ${CLI} import slurm --sacct ${FIDELITY}/sacct.txt --nodes ${FIDELITY}/nodes.txt
                 --partitions ${FIDELITY}/partitions.txt --out ${CLI_OUT}/fidelity --check
                 --slurm-config ${FIDELITY}/config.txt)
set_tests_properties(cli_import_slurm_check PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
                     "all: 50 jobs;.*verdict: close: median \\|start difference\\| [0-9.]+ s")
# The same jobs matched to a model by a default rule run their measured times too, to the second
# (their iterations end a few ulp early; Slurm's ticks are whole seconds).
add_test(NAME cli_import_slurm_check_with_a_model
         COMMAND ${CLI} import slurm --sacct ${FIDELITY}/sacct.txt --nodes ${FIDELITY}/nodes.txt
                 --partitions ${FIDELITY}/partitions.txt --default-profile a2c --profiles muri
                 --out ${CLI_OUT}/fidelity-a2c --check --slurm-config ${FIDELITY}/config.txt)
set_tests_properties(cli_import_slurm_check_with_a_model PROPERTIES LABELS core PASS_REGULAR_EXPRESSION
                     "verdict: close: median \\|start difference\\| 1\\.0 s, p90 5\\.0 s; mean wait 101\\.4 s")
add_test(NAME cli_replay_check_fifo_is_far
         COMMAND ${CLI} replay-check --trace ${CLI_OUT}/fidelity/trace.csv --cluster ${CLI_OUT}/fidelity/cluster.json
                 --policy fifo)
set_tests_properties(cli_replay_check_fifo_is_far PROPERTIES LABELS core DEPENDS cli_import_slurm_check
                     PASS_REGULAR_EXPRESSION "verdict: (rough|far):")
add_test(NAME cli_replay_check_bad_slurm_config
         COMMAND ${CLI} replay-check --trace ${CLI_OUT}/fidelity/trace.csv --cluster ${CLI_OUT}/fidelity/cluster.json
                 --slurm-config ${FIDELITY}/bad_config.txt)
set_tests_properties(cli_replay_check_bad_slurm_config PROPERTIES LABELS core DEPENDS cli_import_slurm_check
                     PASS_REGULAR_EXPRESSION "bad_config.txt:3: field 'PriorityWeightAge': PriorityWeightAge: expected a number")
# A scenario keeps the Slurm settings it was created with (the ones that differ from Slurm's
# defaults), and a duplicate changes them one by one.
add_test(NAME cli_scenario_keeps_slurm_config_fresh COMMAND ${CMAKE_COMMAND} -E rm -f ${CLI_OUT}/fidelity/ws.sqlite)
set_tests_properties(cli_scenario_keeps_slurm_config_fresh PROPERTIES LABELS core FIXTURES_SETUP slurm_workspace)
add_test(NAME cli_scenario_keeps_slurm_config
         COMMAND ${CLI} scenario create slurm-fid --db ${CLI_OUT}/fidelity/ws.sqlite
                 --trace ${CLI_OUT}/fidelity/trace.csv --cluster ${CLI_OUT}/fidelity/cluster.json --policy slurm
                 --slurm-config ${FIDELITY}/config.txt)
set_tests_properties(cli_scenario_keeps_slurm_config PROPERTIES LABELS core DEPENDS cli_import_slurm_check
                     FIXTURES_REQUIRED slurm_workspace
                     PASS_REGULAR_EXPRESSION "\"slurm_parameters\":\\[\"sched_interval=-1\",\"bf_interval=1\",\"bf_resolution=1\"\\]")
