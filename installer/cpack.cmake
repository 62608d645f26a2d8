# Packages: `cpack` in a build tree writes packages/clusterloom_VERSION_ARCH.deb (installs into
# /usr) and packages/clusterloom-VERSION-Linux.tar.gz (relocatable: bin/ and share/ side by side;
# the programs find share/clusterloom relative to themselves, core/io/builtin_data.cpp).
set(CPACK_PACKAGE_NAME clusterloom)
set(CPACK_PACKAGE_VENDOR "The ClusterLoom developers")
set(CPACK_PACKAGE_CONTACT "ClusterLoom developers <dev@clusterloom.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "desktop planner for deep-learning GPU clusters")
set(CPACK_PACKAGE_DESCRIPTION
  "ClusterLoom simulates deep-learning job traces on GPU cluster layouts under the Muri,
Synergy and SJF-BSBF schedulers and the baselines they were measured against, and shows
per-GPU timelines, stage interleaving, utilization and queueing. Scenarios are stored in a
workspace file so that runs can be compared side by side. clusterloom is the desktop
application, clusterloom-cli the same engine headless.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/cpack_per_generator.cmake)

# Debian: library dependencies come from dpkg-shlibdeps (Qt 6, SQLite, GLPK, libstdc++, ...);
# the fonts are not a library dependency, so they are named.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xvfb")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
include(CPack)
