# cmake -DXVFB_RUN=... -DAPP=... -DOUT=file.png [-DVIEW=results] -P smoke_screenshot.cmake
# Runs the GUI under Xvfb with --screenshot (the app refuses to save a blank window) and
# checks that a plausible PNG came out.
foreach(var XVFB_RUN APP OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "smoke_screenshot.cmake: -D${var}=... is required")
  endif()
endforeach()

if(NOT DEFINED VIEW)
  set(VIEW results)
endif()
file(REMOVE "${OUT}")
# The window should render on a real X server, not the offscreen platform.
unset(ENV{QT_QPA_PLATFORM})
execute_process(
  COMMAND "${XVFB_RUN}" -a -s "-screen 0 1600x1200x24" "${APP}" --screenshot "${OUT}" --view "${VIEW}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 840)
message(STATUS "clusterloom --screenshot exited with ${rc}\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clusterloom --screenshot failed (exit ${rc})")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "no screenshot was written to ${OUT}")
endif()

file(SIZE "${OUT}" size)
if(size LESS 10000)
  message(FATAL_ERROR "screenshot ${OUT} is only ${size} bytes: the window is probably empty")
endif()

# PNG signature, then the IHDR chunk: width and height as big-endian 32-bit integers.
file(READ "${OUT}" header LIMIT 24 HEX)
string(SUBSTRING "${header}" 0 16 signature)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${OUT} is not a PNG file (starts with ${signature})")
endif()
string(SUBSTRING "${header}" 32 8 width_hex)
string(SUBSTRING "${header}" 40 8 height_hex)
math(EXPR width "0x${width_hex}")
math(EXPR height "0x${height_hex}")
if(width LESS 1000 OR height LESS 600)
  message(FATAL_ERROR "screenshot is ${width}x${height}, expected at least 1000x600")
endif()
message(STATUS "screenshot ${OUT}: ${width}x${height}, ${size} bytes")
