#include "views/plan/wheel_guard.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPointer>
#include <QWidget>

namespace cl::views {

namespace {

class WheelGuard : public QObject {
public:
    using QObject::QObject;

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Wheel) return false;
        auto* widget = qobject_cast<QWidget*>(watched);
        if (!widget || widget->hasFocus()) return false;
        // Filtered and ignored: QApplication hands an ignored wheel event to the parents, so the
        // scroll area around the input scrolls.
        event->ignore();
        return true;
    }
};

WheelGuard* guard() {
    // One filter for every guarded input, owned by the application (made again should the
    // application be made again).
    static QPointer<WheelGuard> instance;
    if (!instance) instance = new WheelGuard(QCoreApplication::instance());
    return instance;
}

}  // namespace

void takeWheelOnlyWithFocus(QWidget* input) {
    input->setFocusPolicy(Qt::StrongFocus);
    input->installEventFilter(guard());
}

}  // namespace cl::views
