// Where ScaleScope's data files lie (catalogs/, scenarios/, profiles/): relative to the
// running program, never to the current directory.
#pragma once

#include <QString>

namespace scalescope
{

/// The marker file CMake writes into the top of a build tree (beside its app/ folder, where
/// the programs are built). Its one line is the absolute path of the source's resources/.
/// It is never installed.
inline constexpr const char *kBuildTreeMarker = "scalescope-build-tree.txt";

/// The data folder for a program in `appDir` (absolute):
///  1. installed: `appDir/../share/scalescope` (bin/../share/scalescope), when it is a
///     folder; the package is relocatable, any prefix works;
///  2. build tree: the folder named by `appDir/../scalescope-build-tree.txt` (the source's
///     resources/), used only when (1) is absent;
///  3. neither: "" (callers then use the data compiled in as Qt resources).
/// The result is an absolute, clean path without a trailing slash.
QString dataDirectoryFor(const QString &appDir);

/// dataDirectoryFor(QCoreApplication::applicationDirPath()), computed once. "" while no
/// QCoreApplication exists (nothing is cached then).
QString dataDirectory();

} // namespace scalescope
