# clusterloom-cli plan end to end: the plan per policy in text, JSON and CSV, every point stored
# as a scenario PREFIX/..., a rerun that simulates nothing new, a target no candidate meets
# reported as such, and clear errors for a bad target and an unknown server type.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(DB ${OUT}/w.sqlite)

include(${CMAKE_CURRENT_LIST_DIR}/cli_check_helpers.cmake)

cli(0 generate --out ${OUT}/trace.csv --jobs 60 --rate 12 --seed 3 --gpus 1:0.5,2:0.2,4:0.2,8:0.1)
set(PLAN plan --db ${DB} --trace ${OUT}/trace.csv --cluster sjf-bsbf-16 --server-types v100x8,t4x4
    --policies fifo,srtf --target avg_queueing<=1h --target p95_jct<=2d --seeds 1,2 --load 1.2 --quiet)
cli(0 ${PLAN} --json ${OUT}/plan.json --csv ${OUT}/plan.csv)
expect("${OUT_TEXT}" "Targets: avg_queueing<=1h, p95_jct<=2d at load x1.2, mean over 2 seeds")
expect("${OUT_TEXT}" "Cheapest plan: [0-9]+ x (v100x8|t4x4) with (fifo|srtf)")
expect("${OUT_TEXT}" "Headroom: ")
expect("${OUT_TEXT}" "Frontier")
expect("${OUT_TEXT}" "Cliff")
string(REGEX MATCH "([0-9]+) simulations" _ "${OUT_TEXT}")
set(first_simulations ${CMAKE_MATCH_1})

# Every point runs at the planned load once: --load is not also the base scenario's load.
cli(0 scenario list --db ${DB})
string(REGEX MATCH "plan/[^ \n,]+/x1\\.2/s1-day" point "${OUT_TEXT}")
cli(0 scenario show ${point} --db ${DB})
expect("${OUT_TEXT}" "\"load_factor\":1\\.2,")

file(READ ${OUT}/plan.json json)
foreach(policy fifo srtf)
  string(JSON feasible GET "${json}" plans ${policy} feasible)
  if(feasible)
    string(JSON servers GET "${json}" plans ${policy} servers)
    string(JSON cost GET "${json}" plans ${policy} cost_per_month)
    string(JSON type GET "${json}" plans ${policy} server_type)
    string(JSON p95 GET "${json}" plans ${policy} metrics p95_jct mean)
  endif()
endforeach()
string(JSON frontier LENGTH "${json}" frontier)
string(JSON cliff LENGTH "${json}" cliff)
string(JSON over GET "${json}" headroom over_planned)
if(frontier LESS 1 OR cliff LESS 3 OR over LESS 1)
  message(FATAL_ERROR "plan JSON: frontier ${frontier}, cliff ${cliff}, headroom ${over}\n${json}")
endif()
file(READ ${OUT}/plan.csv csv)
expect("${csv}" "^kind,server_type,policy,servers,load_factor,feasible,cost_per_month,on_frontier,overloaded,offered_load,backlog_gpu_hours,drain_share,avg_queueing,avg_queueing_ci95,p95_jct,p95_jct_ci95")
expect("${csv}" "\nplanned_load,t4x4,srtf,[0-9]+,1.2,")
expect("${csv}" "\nheadroom,")

# Every point is a stored scenario with a finished run; a rerun simulates nothing new.
cli(0 scenario list --db ${DB})
expect("${OUT_TEXT}" "plan/t4x4/srtf/n[0-9]+/x1.2/s2")
cli(0 run --db ${DB} --scenario plan/v100x8/fifo/n2/x1.2/s1-day)
expect("${ERR_TEXT}" "identical finished run")
file(SIZE ${DB} size_before)
cli(0 ${PLAN})
expect("${OUT_TEXT}" "${first_simulations} simulations")

# A target no candidate can meet.
cli(0 ${PLAN} --target avg_jct<=1s --json ${OUT}/none.json --prefix none)
expect("${OUT_TEXT}" "No candidate meets every target")
file(READ ${OUT}/none.json none)
string(JSON feasible GET "${none}" plans fifo feasible)
string(JSON has_servers ERROR_VARIABLE missing GET "${none}" plans fifo servers)
if(feasible OR NOT missing)
  message(FATAL_ERROR "an unmet plan must say feasible false and have no servers:\n${none}")
endif()

# With one seed a point's run stops once the target is sure to be missed, and the scenario list
# says its average covers only the jobs finished by then.
cli(0 plan --db ${DB} --trace ${OUT}/trace.csv --cluster sjf-bsbf-16 --server-types v100x8 --policies fifo
    --target p95_jct<=1s --max-servers 4 --quiet --prefix missed)
expect("${OUT_TEXT}" "No candidate meets every target")
cli(0 scenario list --db ${DB})
expect("${OUT_TEXT}" "missed/v100x8/fifo/n[0-9]+/x1/s1 [^\n]+ \\(stopped early\\)\n")
# A point whose run went to the end is not marked.
expect("${OUT_TEXT}" "\nplan/v100x8/srtf/n[0-9]+/x1\\.2/s1-day +srtf +clean +1 +[0-9.]+ [a-z]+\n")

# Seeds that mean something: on a trace whose jobs all have their model, several seeds resample
# the arrivals by day (a block bootstrap), and the figures differ; --resample none says seeds vary
# nothing, and the intervals are 0.
cli(0 generate --out ${OUT}/days.csv --jobs 150 --rate 1.5 --seed 4 --gpus 1:0.6,2:0.2,4:0.2)
set(DAYS plan --db ${DB} --trace ${OUT}/days.csv --cluster sjf-bsbf-16 --policies srtf --target p95_jct<=2d
    --seeds 1,2,3 --max-servers 8 --quiet)
cli(0 ${DAYS} --prefix days --json ${OUT}/days.json)
expect("${OUT_TEXT}" "Seeds vary: the arrivals, resampled by day \\(block bootstrap of the trace\\)\n")
file(READ ${OUT}/days.json days)
string(JSON ci GET "${days}" frontier 0 metrics avg_jct ci95)
if(NOT ci GREATER 0)
  message(FATAL_ERROR "resampled seeds should give an interval:\n${days}")
endif()
cli(0 scenario show days/base/srtf/n1/x1/s2-day --db ${DB})
expect("${OUT_TEXT}" "resample=day@2")
# The same prefix without resampling keeps its points apart ("…/s2" beside "…/s2-day"); another
# trace under it is refused before anything runs, naming what differs.
cli(0 ${DAYS} --prefix days --resample none)
cli(0 scenario show days/base/srtf/n1/x1/s2 --db ${DB})
cli(0 generate --out ${OUT}/other-days.csv --jobs 150 --rate 1.5 --seed 5 --gpus 1:0.6,2:0.2,4:0.2)
cli(1 plan --db ${DB} --trace ${OUT}/other-days.csv --cluster sjf-bsbf-16 --policies srtf --target p95_jct<=2d
    --max-servers 8 --quiet --prefix days)
expect("${ERR_TEXT}" "the prefix 'days' holds a plan with another trace: scenario 'days/")
cli(0 ${DAYS} --prefix same --resample none --json ${OUT}/same.json)
expect("${OUT_TEXT}" "Seeds vary: nothing: every job has its model")
file(READ ${OUT}/same.json same)
string(JSON ci GET "${same}" frontier 0 metrics avg_jct ci95)
if(NOT ci EQUAL 0)
  message(FATAL_ERROR "seeds that vary nothing give no interval:\n${same}")
endif()
cli(2 ${DAYS} --resample month)
expect("${ERR_TEXT}" "--resample must be auto, none, day or week")

# Pruning a plan removes its scenarios, their runs and the candidate clusters only it used; the
# base cluster and other plans stay.
cli(0 scenario list --db ${DB})
expect("${OUT_TEXT}" "same/base/srtf/")
cli(0 plan --db ${DB} --prune --prefix same)
expect("${OUT_TEXT}" "Removed plan same: [1-9][0-9]* scenarios with their runs and 0 candidate clusters")
cli(0 plan --db ${DB} --prune --prefix days)
# The days plan stored the resized base clusters that the same plan reused: they go now.
expect("${OUT_TEXT}" "Removed plan days: [1-9][0-9]* scenarios with their runs and [1-9][0-9]* candidate clusters")
cli(0 plan --db ${DB} --prune --prefix plan)
expect("${OUT_TEXT}" "Removed plan plan: [1-9][0-9]* scenarios with their runs and [1-9][0-9]* candidate clusters")
cli(0 scenario list --db ${DB})
if(OUT_TEXT MATCHES "plan/v100x8" OR OUT_TEXT MATCHES "same/base")
  message(FATAL_ERROR "pruned scenarios are still listed:\n${OUT_TEXT}")
endif()
expect("${OUT_TEXT}" "none/")
cli(1 plan --db ${DB} --prune --prefix plan)
expect("${ERR_TEXT}" "no plan with the prefix 'plan'")

# Clear errors.
cli(2 plan --db ${DB} --trace ${OUT}/trace.csv --target p96_jct<=8h)
expect("${ERR_TEXT}" "--target 'p96_jct<=8h': unknown metric 'p96_jct'")
cli(2 plan --db ${DB} --trace ${OUT}/trace.csv --target p95_jct<=8h --server-types dgx-9)
expect("${ERR_TEXT}" "unknown server type 'dgx-9'.*v100x8")
cli(2 plan --db ${DB} --trace ${OUT}/trace.csv)
expect("${ERR_TEXT}" "at least one --target")
