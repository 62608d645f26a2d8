file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CLI} run --trace ${FIX}/small.csv --policy fifo --policy srtf --policy tiresias
                        --conventions muri-artifact --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run failed (${rc}): ${err}")
endif()
if(NOT out MATCHES "srtf +4/4")
  message(FATAL_ERROR "summary table missing: ${out}")
endif()
foreach(f metrics.json fifo/jobs.csv fifo/segments.csv fifo/series.csv srtf/jobs.csv tiresias/jobs.csv)
  if(NOT EXISTS ${OUT}/${f})
    message(FATAL_ERROR "missing ${OUT}/${f}")
  endif()
endforeach()
file(READ ${OUT}/metrics.json metrics)
string(JSON avg GET "${metrics}" avg_jct srtf)
if(avg LESS_EQUAL 0)
  message(FATAL_ERROR "avg_jct.srtf not positive: ${avg}")
endif()

# The run lists what it wrote with row counts (4 jobs; segments and series as recorded).
if(NOT out MATCHES "fifo: jobs.csv 4 rows, series.csv [0-9]+ rows, segments.csv [0-9]+ rows")
  message(FATAL_ERROR "row counts missing: ${out}")
endif()

# --outputs: only the chosen files are written (and the others not recorded).
file(REMOVE_RECURSE ${OUT}-outputs)
execute_process(COMMAND ${CLI} run --trace ${FIX}/small.csv --policy srtf --out ${OUT}-outputs --outputs jobs,metrics
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run --outputs failed (${rc}): ${err}")
endif()
if(NOT out MATCHES "srtf: jobs.csv 4 rows\n  metrics.json")
  message(FATAL_ERROR "--outputs jobs,metrics summary wrong: ${out}")
endif()
foreach(f metrics.json srtf/jobs.csv)
  if(NOT EXISTS ${OUT}-outputs/${f})
    message(FATAL_ERROR "missing ${OUT}-outputs/${f}")
  endif()
endforeach()
foreach(f srtf/series.csv srtf/segments.csv)
  if(EXISTS ${OUT}-outputs/${f})
    message(FATAL_ERROR "--outputs jobs,metrics wrote ${f}")
  endif()
endforeach()
execute_process(COMMAND ${CLI} run --trace ${FIX}/small.csv --out ${OUT}-outputs --outputs jobs,plots
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "unknown output 'plots' \\(valid: jobs, series, segments, metrics")
  message(FATAL_ERROR "--outputs with an unknown name not refused clearly (${rc}): ${err}")
endif()

# Cost (docs/architecture.md 7.8): a partly priced cluster gives its cost per month and each
# policy's cost for its makespan, naming the unpriced server; metrics.json carries both, and the
# summary the p95 queueing delay and the size classes under the planning targets' names.
file(REMOVE_RECURSE ${OUT}-cost)
execute_process(COMMAND ${CLI} run --trace ${FIX}/small.csv --cluster ${FIX}/priced_3.json --policy srtf
                        --out ${OUT}-cost --outputs metrics
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run on a priced cluster failed (${rc}): ${err}")
endif()
# 2 servers at $10/h for 730 hours.
if(NOT out MATCHES "cost: \\$14600.00 per month \\(cost excludes 1 unpriced server\\)")
  message(FATAL_ERROR "cost line missing: ${out}")
endif()
if(NOT out MATCHES "policy +makespan +cost of the span" OR NOT out MATCHES "p95 queue")
  message(FATAL_ERROR "cost table or p95 queueing missing: ${out}")
endif()
file(READ ${OUT}-cost/metrics.json metrics)
string(JSON per_month GET "${metrics}" cost_per_month)
string(JSON unpriced GET "${metrics}" unpriced_servers)
string(JSON makespan GET "${metrics}" policies srtf makespan)
string(JSON span_cost GET "${metrics}" policies srtf span_cost)
string(JSON p95q GET "${metrics}" policies srtf p95_queueing)
string(JSON small_done GET "${metrics}" policies srtf "small:completed")
string(JSON large_p99 TYPE "${metrics}" policies srtf "large:p99_jct")
if(NOT per_month EQUAL 14600 OR NOT unpriced EQUAL 1 OR NOT small_done EQUAL 4 OR NOT large_p99 STREQUAL "NULL"
   OR p95q STREQUAL "")
  message(FATAL_ERROR "metrics.json cost or summary wrong: ${metrics}")
endif()
if(span_cost LESS_EQUAL 0 OR makespan LESS_EQUAL 0)
  message(FATAL_ERROR "span_cost ${span_cost} for makespan ${makespan}")
endif()
