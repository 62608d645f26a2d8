#pragma once
// Where exports, reports and new files go when the user has not chosen a folder yet: the user's
// Documents folder. One place for it, so that every save dialog starts in the same folder and
// none fails because that folder does not exist yet (a fresh account, a desktop without
// xdg-user-dirs, a container).
#include <QString>

namespace cl::views {

// The Documents folder, created when it is missing; the home folder when it cannot be created.
QString defaultExportFolder();

// fileName in defaultExportFolder().
QString defaultExportPath(const QString& fileName);

// Makes sure the folder that path is to be written into exists (creating it and its parents).
// False, with a message naming the folder and the file in *error, when it cannot be created.
bool ensureFolderFor(const QString& path, QString* error);

}  // namespace cl::views
