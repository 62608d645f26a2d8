# Read by cpack once per generator: the .deb installs into /usr like every Debian package;
# the archive stays relocatable (no prefix inside it).
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
else()
  set(CPACK_PACKAGING_INSTALL_PREFIX "")
endif()
