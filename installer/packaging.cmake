# Installation layout and packages (CPack): included at the end of the top-level
# CMakeLists.txt, after every target exists. See installer/README.md.
#
#   bin/scalescope, bin/scalescope-cli, bin/gpuprobe   (install() rules beside each target)
#   share/scalescope/{catalogs,scenarios,profiles}      data, found relative to the program
#   share/applications/io.github.scalescope.ScaleScope.desktop
#   share/metainfo/io.github.scalescope.ScaleScope.metainfo.xml
#   share/icons/hicolor/{scalable,16x16,...,256x256}/apps/io.github.scalescope.ScaleScope.*
#   share/man/man1/{scalescope,scalescope-cli,gpuprobe}.1.gz
include(GNUInstallDirs)

set(SCALESCOPE_APP_ID io.github.scalescope.ScaleScope)
set(SCALESCOPE_HOMEPAGE https://github.com/scalescope/scalescope)
set(_scalescope_data ${CMAKE_INSTALL_DATADIR}/scalescope)

# The programs look for bin/../share/scalescope (model/io/data_dir.h).
if(NOT CMAKE_INSTALL_BINDIR STREQUAL "bin" OR NOT CMAKE_INSTALL_DATADIR STREQUAL "share")
  message(WARNING "ScaleScope's programs find their data in bin/../share/scalescope; "
    "CMAKE_INSTALL_BINDIR=${CMAKE_INSTALL_BINDIR} and CMAKE_INSTALL_DATADIR="
    "${CMAKE_INSTALL_DATADIR} break that, and they fall back to their compiled-in data.")
endif()

# Installed programs carry no RPATH: they use the system's Qt (and nothing from the build
# tree). CMake's default already replaces the build RPATH by INSTALL_RPATH on install;
# this says so, whatever a user's cache holds.
set_target_properties(scalescope scalescope-cli gpuprobe PROPERTIES
  INSTALL_RPATH "" INSTALL_RPATH_USE_LINK_PATH OFF)

# --- Data: catalogs, the claims gallery, bundled calibration profiles --------------------
install(FILES
    ${SCALESCOPE_RESOURCES_DIR}/catalogs/gpus.json
    ${SCALESCOPE_RESOURCES_DIR}/catalogs/links.json
    ${SCALESCOPE_RESOURCES_DIR}/catalogs/models.json
    ${SCALESCOPE_RESOURCES_DIR}/catalogs/cnn_models.json
    ${SCALESCOPE_RESOURCES_DIR}/catalogs/frameworks.json
    ${SCALESCOPE_RESOURCES_DIR}/catalogs/README.md
  DESTINATION ${_scalescope_data}/catalogs)
include(${SCALESCOPE_RESOURCES_DIR}/scenarios/gallery.cmake)
set(_scalescope_gallery ${SCALESCOPE_GALLERY_FILES})
list(TRANSFORM _scalescope_gallery PREPEND ${SCALESCOPE_RESOURCES_DIR}/scenarios/)
install(FILES ${_scalescope_gallery} DESTINATION ${_scalescope_data}/scenarios)
# Calibration profiles shipped with the program (the Calibration tab lists them read-only);
# none are shipped yet: resources/profiles/ is installed when it exists.
if(IS_DIRECTORY ${SCALESCOPE_RESOURCES_DIR}/profiles)
  install(DIRECTORY ${SCALESCOPE_RESOURCES_DIR}/profiles/ DESTINATION ${_scalescope_data}/profiles
    FILES_MATCHING PATTERN "*.json" PATTERN "*.md")
endif()

# --- Desktop integration ------------------------------------------------------------------
install(FILES ${CMAKE_CURRENT_LIST_DIR}/linux/${SCALESCOPE_APP_ID}.desktop
  DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/linux/${SCALESCOPE_APP_ID}.metainfo.xml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# Icon: the SVG, and PNGs in the hicolor sizes rendered from it at build time by a small
# Qt program (QSvgRenderer; Qt Svg is a dependency already).
set(SCALESCOPE_ICON_SVG ${SCALESCOPE_RESOURCES_DIR}/icons/scalescope.svg)
set(SCALESCOPE_ICON_SIZES 16 32 48 64 128 256)
add_executable(scalescope_render_icon ${CMAKE_CURRENT_LIST_DIR}/tools/render_icon.cpp)
target_link_libraries(scalescope_render_icon PRIVATE Qt6::Svg Qt6::Gui scalescope_warnings)
set(_scalescope_icon_dir ${CMAKE_BINARY_DIR}/icons/hicolor)
set(_scalescope_pngs "")
foreach(size IN LISTS SCALESCOPE_ICON_SIZES)
  list(APPEND _scalescope_pngs ${_scalescope_icon_dir}/${size}x${size}/apps/${SCALESCOPE_APP_ID}.png)
endforeach()
add_custom_command(OUTPUT ${_scalescope_pngs}
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
          $<TARGET_FILE:scalescope_render_icon> ${SCALESCOPE_ICON_SVG} ${_scalescope_icon_dir}
          ${SCALESCOPE_APP_ID} ${SCALESCOPE_ICON_SIZES}
  DEPENDS scalescope_render_icon ${SCALESCOPE_ICON_SVG}
  COMMENT "Rendering the application icon in the hicolor sizes"
  VERBATIM)
add_custom_target(scalescope_icons ALL DEPENDS ${_scalescope_pngs})
install(FILES ${SCALESCOPE_ICON_SVG} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
  RENAME ${SCALESCOPE_APP_ID}.svg)
foreach(size IN LISTS SCALESCOPE_ICON_SIZES)
  install(FILES ${_scalescope_icon_dir}/${size}x${size}/apps/${SCALESCOPE_APP_ID}.png
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()

# --- Manual pages (troff sources in docs/man), compressed as Debian wants them ------------
find_program(SCALESCOPE_GZIP gzip)
foreach(page scalescope scalescope-cli gpuprobe)
  set(_src ${PROJECT_SOURCE_DIR}/docs/man/${page}.1)
  if(SCALESCOPE_GZIP)
    set(_out ${CMAKE_BINARY_DIR}/man/${page}.1.gz)
    add_custom_command(OUTPUT ${_out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
      COMMAND ${SCALESCOPE_GZIP} -9n -c ${_src} > ${_out}
      DEPENDS ${_src}
      COMMENT "Compressing the manual page ${page}(1)")
    list(APPEND _scalescope_man ${_out})
  else()
    list(APPEND _scalescope_man ${_src})
  endif()
endforeach()
add_custom_target(scalescope_man ALL DEPENDS ${_scalescope_man})
install(FILES ${_scalescope_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# --- CPack ----------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME scalescope)
set(CPACK_PACKAGE_VENDOR "The ScaleScope developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "simulator that shows why more GPUs do not make training proportionally faster")
# The Debian long description: lines under 80 characters, as written here.
set(CPACK_PACKAGE_DESCRIPTION [[
ScaleScope simulates one training step of a deep-learning model on a GPU
cluster under a parallel plan (data, ZeRO, tensor and pipeline parallelism)
and shows on a per-GPU timeline where the time goes: computation, exposed
communication, pipeline bubbles, waiting and data loading.
The package contains the desktop application (scalescope), a command-line
program for scripts (scalescope-cli) and gpuprobe, which measures the GPUs,
links and NCCL collectives of a machine into a calibration profile.]])
set(CPACK_PACKAGE_HOMEPAGE_URL ${SCALESCOPE_HOMEPAGE})
# The project has no published contact address yet: example.org is a placeholder that
# whoever publishes packages sets (-DSCALESCOPE_PACKAGE_MAINTAINER="Name <address>").
set(SCALESCOPE_PACKAGE_MAINTAINER "ScaleScope developers <scalescope@example.org>"
  CACHE STRING "Maintainer of the .deb: Name <e-mail address>")
set(CPACK_PACKAGE_CONTACT "${SCALESCOPE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY ScaleScope)
set(CPACK_PACKAGE_EXECUTABLES scalescope ScaleScope)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_STRIP_FILES ON)
set(CPACK_VERBATIM_VARIABLES ON)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build[^/]*/" "/_CPack_Packages/")

if(UNIX AND NOT APPLE)
  set(CPACK_GENERATOR DEB TGZ)
  # Debian package: dependencies from dpkg-shlibdeps (the Qt 6 libraries; the plugins
  # come with them: libqt6gui6 has the xcb platform, libqt6svg6 the SVG icon engine).
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, qt6-translations-l10n")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-wayland")
  set(CPACK_DEBIAN_PACKAGE_SECTION science)
  set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${SCALESCOPE_HOMEPAGE})
  set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
  # Tarball: the same tree under one top folder of this name, relocatable (unpack anywhere,
  # run bin/scalescope). The .deb keeps Debian's own name (DEB-DEFAULT).
  set(CPACK_PACKAGE_FILE_NAME
    "${CPACK_PACKAGE_NAME}-${CPACK_PACKAGE_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
elseif(WIN32)
  # Not built here (no Windows build in CI; see installer/README.md).
  set(CPACK_GENERATOR NSIS ZIP)
  set(CPACK_NSIS_DISPLAY_NAME "ScaleScope ${PROJECT_VERSION}")
  set(CPACK_NSIS_PACKAGE_NAME ScaleScope)
  set(CPACK_NSIS_URL_INFO_ABOUT ${SCALESCOPE_HOMEPAGE})
  set(CPACK_NSIS_HELP_LINK ${SCALESCOPE_HOMEPAGE})
  set(CPACK_NSIS_CONTACT "${CPACK_PACKAGE_CONTACT}")
  set(CPACK_NSIS_INSTALLED_ICON_NAME bin/scalescope.exe)
  set(CPACK_NSIS_MODIFY_PATH ON)
  set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
  set(CPACK_NSIS_EXECUTABLES_DIRECTORY bin)
  set(CPACK_NSIS_MUI_FINISHPAGE_RUN scalescope.exe)
elseif(APPLE)
  # Not built here (no macOS build in CI; see installer/README.md). A drag-and-drop disk
  # image; building a proper ScaleScope.app also needs MACOSX_BUNDLE on the scalescope
  # target and macdeployqt, which README.md lists as the remaining steps.
  set(CPACK_GENERATOR DragNDrop)
  set(CPACK_DMG_VOLUME_NAME ScaleScope)
  set(CPACK_DMG_FORMAT UDZO)
endif()

include(CPack)
