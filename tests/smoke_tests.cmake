# GUI smoke test: the real application under a virtual X server saves a screenshot of its
# main window after the demo runs finish (label "gui"). Skipped when xvfb-run is missing.
if(CLUSTERLOOM_BUILD_GUI AND TARGET clusterloom)
  find_program(XVFB_RUN_EXECUTABLE xvfb-run)
  if(XVFB_RUN_EXECUTABLE)
    # One screenshot per central view of the real window on the demo workspace.
    foreach(view results cluster trace timeline charts compare interleave profiles)
      set(name gui_smoke_screenshot)
      if(NOT view STREQUAL "results")
        set(name gui_smoke_screenshot_${view})
      endif()
      add_test(NAME ${name}
        COMMAND ${CMAKE_COMMAND}
          -DXVFB_RUN=${XVFB_RUN_EXECUTABLE}
          -DAPP=$<TARGET_FILE:clusterloom>
          -DVIEW=${view}
          -DOUT=${CMAKE_BINARY_DIR}/smoke_${view}.png
          -P ${CMAKE_CURRENT_LIST_DIR}/gui/smoke_screenshot.cmake)
      set_tests_properties(${name} PROPERTIES LABELS "gui" TIMEOUT 900)
    endforeach()
  else()
    message(STATUS "xvfb-run not found: the gui_smoke_screenshot test is not registered")
  endif()
endif()
