#pragma once
// How the GUI suites reach a view's widgets: by objectName (docs/architecture.md 1.4), never
// through getters added for tests. A missing name stops the suite at once, naming what was
// looked for and where.
#include <QObject>
#include <QString>

template <typename T>
T* namedChild(const QObject& parent, const char* name) {
    T* found = parent.findChild<T*>(QString::fromLatin1(name));
    if (!found)
        qFatal("the %s has no %s named %s", parent.metaObject()->className(), T::staticMetaObject.className(),
               name);
    return found;
}
