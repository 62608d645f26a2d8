# GUI smoke test: the real application under a virtual X server saves a screenshot of its
# main window after the demo runs finish (label "gui"). Skipped when xvfb-run is missing.
if(CLUSTERLOOM_BUILD_GUI AND TARGET clusterloom)
  find_program(XVFB_RUN_EXECUTABLE xvfb-run)
  if(XVFB_RUN_EXECUTABLE)
    add_test(NAME gui_smoke_screenshot
      COMMAND ${CMAKE_COMMAND}
        -DXVFB_RUN=${XVFB_RUN_EXECUTABLE}
        -DAPP=$<TARGET_FILE:clusterloom>
        -DOUT=${CMAKE_BINARY_DIR}/smoke.png
        -P ${CMAKE_CURRENT_LIST_DIR}/gui/smoke_screenshot.cmake)
    set_tests_properties(gui_smoke_screenshot PROPERTIES LABELS "gui" TIMEOUT 900)
  else()
    message(STATUS "xvfb-run not found: the gui_smoke_screenshot test is not registered")
  endif()
endif()
