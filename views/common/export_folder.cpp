#include "views/common/export_folder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::ExportFolder", text);
}

}  // namespace

QString defaultExportFolder() {
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    // QStandardPaths names the folder whether or not it exists; a file dialog opened on a missing
    // folder starts somewhere else, and a file written there fails.
    if (!documents.isEmpty() && QDir().mkpath(documents)) return documents;
    return QDir::homePath();
}

QString defaultExportPath(const QString& fileName) {
    return QDir(defaultExportFolder()).filePath(fileName);
}

bool ensureFolderFor(const QString& path, QString* error) {
    const QString folder = QFileInfo(path).absolutePath();
    if (QFileInfo(folder).isDir() || QDir().mkpath(folder)) return true;
    if (error)
        *error = tr("Cannot create the folder \u201c%1\u201d for \u201c%2\u201d.")
                     .arg(QDir::toNativeSeparators(folder), QDir::toNativeSeparators(path));
    return false;
}

}  // namespace cl::views
