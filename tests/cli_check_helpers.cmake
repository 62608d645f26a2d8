# Shared by the end-to-end CLI checks: run clusterloom-cli (${CLI}) expecting an exit code,
# keeping its output in OUT_TEXT and ERR_TEXT, and match a pattern in a text.
function(cli expect_rc)
  execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "clusterloom-cli ${ARGN}: exit ${rc}, expected ${expect_rc}\n${out}\n${err}")
  endif()
  set(OUT_TEXT "${out}" PARENT_SCOPE)
  set(ERR_TEXT "${err}" PARENT_SCOPE)
endfunction()

function(expect text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "expected '${pattern}' in:\n${text}")
  endif()
endfunction()
