// gui_monkey: seeded random input on the real main window under an X server (docs/architecture.md
// section 11, label "gui"). It opens a fresh temporary workspace with the demo, waits for its runs,
// then for a time budget sends random clicks, double-clicks, drags, wheel turns and keys (the
// menus' and views' shortcuts among them) to whatever window is on top, switching views on a
// schedule so that every view is visited. It fails on a crash, on a Qt warning about painting or
// layout, and on an event loop that stops turning; the seed is printed first, and a failure
// prints the action number and the last actions, so CLUSTERLOOM_MONKEY_SEED=N replays the same
// sequence of input (the timing of the runs may still differ).
//
// Environment: CLUSTERLOOM_MONKEY_SEED (default: from the clock), CLUSTERLOOM_MONKEY_SECONDS
// (default 120). Exit codes: 0 passed, 1 failed, 77 skipped (no X server). The --self-test-*
// arguments plant a hang, a warning or a crash, to see each check fail.
#include <execinfo.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <thread>
#include <utility>
#include <vector>

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMap>
#include <QMenu>
#include <QPointer>
#include <QScreen>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>
#include <QWheelEvent>
#include <QWindow>

#include "core/util/portable_random.h"
#include "views/common/app_theme.h"
#include "views/common/english_plurals.h"
#include "views/shell/main_window.h"
#include "views/shell/resources_init.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kSkip = 77;
constexpr int kHangSeconds = 20;

// What the failure reports need, readable from a signal handler and the watchdog thread: plain
// characters in fixed slots, the last kKept actions in a ring written only by the GUI thread.
constexpr int kKept = 20;
constexpr int kActionChars = 200;
char g_ring[kKept][kActionChars];
std::atomic<long> g_actions{0};
unsigned long long g_seed = 0;
std::atomic<long long> g_heartbeatMs{0};
pthread_t g_guiThread;
std::atomic<bool> g_hung{false};  // the watchdog has reported; the abort is only for the stack

long long nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count();
}

void writeText(const char* text) {
    size_t left = std::strlen(text);
    while (left > 0) {
        const ssize_t n = ::write(STDERR_FILENO, text, left);
        if (n <= 0) return;
        text += n;
        left -= static_cast<size_t>(n);
    }
}

// The seed, the action number and the last actions, oldest first (async-signal-safe).
void writeReport(const char* why) {
    char line[256];
    std::snprintf(line, sizeof line, "\nFAIL: %s\nseed %llu (replay with CLUSTERLOOM_MONKEY_SEED=%llu)\n",
                  why, g_seed, g_seed);
    writeText(line);
    const long count = g_actions.load();
    std::snprintf(line, sizeof line, "at action %ld; the last actions:\n", count);
    writeText(line);
    for (long i = count > kKept ? count - kKept : 0; i < count; ++i) {
        std::snprintf(line, sizeof line, "  #%ld ", i + 1);
        writeText(line);
        writeText(g_ring[i % kKept]);
        writeText("\n");
    }
}

void crashHandler(int sig) {
    if (!g_hung.load()) {
        char why[64];
        std::snprintf(why, sizeof why, "crash (signal %d)", sig);
        writeReport(why);
    }
    writeText("stack of the thread that received it:\n");
    void* frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void installCrashHandlers() {
    for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, crashHandler);
}

// Qt warnings that mean a widget painted or laid itself out wrongly.
bool isPaintOrLayoutWarning(const QString& message) {
    static const char* const patterns[] = {"QPainter", "QWidget::paintEngine", "QLayout", "paint device",
                                           "QWidget::repaint: Recursive"};
    for (const char* pattern : patterns)
        if (message.contains(QLatin1String(pattern))) return true;
    return false;
}

// The other warnings, for the summary: how often, and the action before the first.
struct OtherWarning {
    int count = 0;
    QString firstAfter;
};
QMap<QString, OtherWarning>* g_otherWarnings = nullptr;  // GUI thread only

void messageHandler(QtMsgType type, const QMessageLogContext&, const QString& message) {
    const QByteArray text = message.toLocal8Bit();
    std::fprintf(stderr, "%s\n", text.constData());
    if (type == QtFatalMsg) {
        writeReport("Qt fatal message");
        std::abort();
    }
    if (type == QtDebugMsg || type == QtInfoMsg) return;
    if (isPaintOrLayoutWarning(message)) {
        writeReport(qPrintable(QStringLiteral("Qt warning about painting or layout: ") + message.left(150)));
        std::fflush(stderr);
        std::_Exit(1);
    }
    if (!g_otherWarnings || !pthread_equal(pthread_self(), g_guiThread)) return;
    OtherWarning& seen = (*g_otherWarnings)[message.left(160)];
    const long action = g_actions.load();
    if (seen.count++ == 0 && action > 0)
        seen.firstAfter =
            QStringLiteral("#%1 %2").arg(action).arg(QString::fromLocal8Bit(g_ring[(action - 1) % kKept]));
}

// Fails when the GUI thread has not ticked the heartbeat for kHangSeconds: reports, then makes
// the GUI thread abort so that its stack is printed by the crash handler.
void startWatchdog() {
    std::thread([] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            const long long silent = nowMs() - g_heartbeatMs.load();
            if (silent < kHangSeconds * 1000LL) continue;
            char why[96];
            std::snprintf(why, sizeof why, "the event loop hung (no heartbeat for %lld s)", silent / 1000);
            writeReport(why);
            writeText("aborting the GUI thread for its stack\n");
            g_hung = true;
            pthread_kill(g_guiThread, SIGABRT);
            std::this_thread::sleep_for(std::chrono::seconds(5));
            std::_Exit(1);
        }
    }).detach();
}

struct KeyChoice {
    Qt::Key key;
    Qt::KeyboardModifiers modifiers;
};

// Keys a user presses: navigation and editing keys, letters and digits, and the shortcuts of the
// menus and the views (Alt+1..0 switch views). Ctrl+Q is among them: the window ignores closing.
std::vector<KeyChoice> keyChoices() {
    std::vector<KeyChoice> keys;
    for (Qt::Key key :
         {Qt::Key_Tab,  Qt::Key_Backtab, Qt::Key_Escape, Qt::Key_Return,    Qt::Key_Enter,  Qt::Key_Space,
          Qt::Key_Left, Qt::Key_Right,   Qt::Key_Up,     Qt::Key_Down,      Qt::Key_PageUp, Qt::Key_PageDown,
          Qt::Key_Home, Qt::Key_End,     Qt::Key_Delete, Qt::Key_Backspace, Qt::Key_F2,     Qt::Key_F5,
          Qt::Key_Plus, Qt::Key_Minus,   Qt::Key_Period, Qt::Key_Comma})
        keys.push_back({key, Qt::NoModifier});
    for (int i = 0; i < 26; ++i) keys.push_back({static_cast<Qt::Key>(Qt::Key_A + i), Qt::NoModifier});
    for (int i = 0; i < 10; ++i) {
        keys.push_back({static_cast<Qt::Key>(Qt::Key_0 + i), Qt::NoModifier});
        keys.push_back({static_cast<Qt::Key>(Qt::Key_0 + i), Qt::AltModifier});
        keys.push_back({static_cast<Qt::Key>(Qt::Key_0 + i), Qt::ControlModifier});
    }
    for (Qt::Key key :
         {Qt::Key_Z,        Qt::Key_Y,    Qt::Key_A,    Qt::Key_C,     Qt::Key_V,   Qt::Key_X,
          Qt::Key_S,        Qt::Key_G,    Qt::Key_I,    Qt::Key_E,     Qt::Key_N,   Qt::Key_O,
          Qt::Key_F,        Qt::Key_Q,    Qt::Key_Plus, Qt::Key_Minus, Qt::Key_Tab, Qt::Key_PageUp,
          Qt::Key_PageDown, Qt::Key_Home, Qt::Key_End})
        keys.push_back({key, Qt::ControlModifier});
    for (Qt::Key key : {Qt::Key_Z, Qt::Key_I, Qt::Key_E, Qt::Key_Tab})
        keys.push_back({key, Qt::ControlModifier | Qt::ShiftModifier});
    for (Qt::Key key : {Qt::Key_K, Qt::Key_S}) keys.push_back({key, Qt::ControlModifier | Qt::AltModifier});
    for (Qt::Key key : {Qt::Key_F, Qt::Key_E, Qt::Key_V, Qt::Key_S, Qt::Key_R, Qt::Key_H, Qt::Key_Down})
        keys.push_back({key, Qt::AltModifier});
    for (Qt::Key key : {Qt::Key_F5, Qt::Key_Tab, Qt::Key_Left, Qt::Key_Right, Qt::Key_Up, Qt::Key_Down})
        keys.push_back({key, Qt::ShiftModifier});
    return keys;
}

QString keyText(const KeyChoice& key) {
    return QKeySequence(key.key | key.modifiers).toString(QKeySequence::PortableText);
}

QString describe(const QWidget* widget) {
    if (!widget) return QStringLiteral("(none)");
    QString name = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty()) name += QLatin1Char('#') + widget->objectName();
    return name;
}

// One key event, and what Qt does about it; nothing when the window has gone meanwhile.
void sendKey(const QPointer<QWindow>& window, bool press, Qt::Key key, Qt::KeyboardModifiers modifiers,
             const QString& text = {}) {
    if (!window) return;
    qt_handleKeyEvent(window, press ? QEvent::KeyPress : QEvent::KeyRelease, key, modifiers, text);
    QApplication::processEvents();
}

// A key pressed and released, with its modifier keys around it. Not QTest::keyClick: it sends the
// key to a window that pressing a modifier may have deleted (Alt closes a context menu that
// deletes itself, at the processEvents inside QTest).
void pressKey(QWindow* target, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    static const std::pair<Qt::KeyboardModifier, Qt::Key> modifierKeys[] = {
        {Qt::ShiftModifier, Qt::Key_Shift},
        {Qt::ControlModifier, Qt::Key_Control},
        {Qt::AltModifier, Qt::Key_Alt}};
    const QPointer<QWindow> window = target;
    Qt::KeyboardModifiers held;
    for (const auto& [modifier, modifierKey] : modifierKeys)
        if (modifiers & modifier) {
            sendKey(window, true, modifierKey, held);
            held |= modifier;
        }
    const char ascii = QTest::keyToAscii(key);
    const QString text =
        ascii && !(modifiers & (Qt::ControlModifier | Qt::AltModifier))
            ? QString(QLatin1Char(modifiers & Qt::ShiftModifier ? QChar::toUpper(ascii) : ascii))
            : QString();
    sendKey(window, true, key, modifiers, text);
    sendKey(window, false, key, modifiers, text);
    for (auto it = std::rbegin(modifierKeys); it != std::rend(modifierKeys); ++it)
        if (modifiers & it->first) {
            held &= ~it->first;
            sendKey(window, false, it->second, held);
        }
}

// Takes the links the monkey clicks (About Qt names web pages) instead of a browser.
class UrlSink : public QObject {
    Q_OBJECT

public slots:
    void open(const QUrl& url) { std::printf("link not opened: %s\n", qPrintable(url.toString())); }
};

// Keeps the main window open: closing it (Ctrl+Q, File > Quit) is ignored, so the monkey goes on.
class KeepOpen : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() != QEvent::Close) return false;
        event->ignore();
        return true;
    }
};

class Monkey : public QObject {
public:
    Monkey(cl::views::MainWindow* window, double seconds, unsigned long long seed)
        : m_window(window), m_seconds(seconds), m_rng(seed), m_keys(keyChoices()) {
        m_views = cl::views::MainWindow::viewNames();
        // A seeded order of the views; each gets two slices of the budget.
        for (qsizetype i = m_views.size() - 1; i > 0; --i)
            m_views.swapItemsAt(i, static_cast<qsizetype>(m_rng.below(static_cast<std::uint64_t>(i + 1))));
    }

    bool started() const { return m_started; }
    void start() {
        m_started = true;
        m_start = Clock::now();
        QTimer::singleShot(0, this, [this] { step(); });
    }

private:
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }

    void record(const QString& action) {
        const long n = g_actions.load();
        const QByteArray text = QStringLiteral("%1s %2").arg(elapsed(), 0, 'f', 1).arg(action).toLocal8Bit();
        std::snprintf(g_ring[n % kKept], kActionChars, "%s", text.constData());
        g_actions.store(n + 1);
    }

    // One action, then the next a few milliseconds later. The next is scheduled first: an
    // action that opens a modal dialog or a menu returns only when it closes, and the actions
    // meanwhile (run from the dialog's event loop) are what closes it.
    void step() {
        if (m_done) return;
        if (elapsed() >= m_seconds) {
            finish();
            return;
        }
        QTimer::singleShot(static_cast<int>(5 + m_rng.below(30)), this, [this] { step(); });
        if (tidyUp()) return;
        if (switchViewIfDue()) return;
        act();
    }

    void act();
    bool tidyUp();
    bool switchViewIfDue();
    QWidget* target() const;
    QPoint randomPoint(const QWidget* top);
    Qt::KeyboardModifiers randomModifiers() {
        const std::uint64_t r = m_rng.below(10);
        return r == 0 ? Qt::ControlModifier : r == 1 ? Qt::ShiftModifier : Qt::NoModifier;
    }
    void click(QWidget* top, Qt::MouseButton button, bool twice);
    void drag(QWidget* top);
    void wheel(QWidget* top);
    void key(QWidget* top);
    void type(QWidget* top);
    void finish();
    void waitForRunsThenExit(int attempts);

    cl::views::MainWindow* m_window;
    double m_seconds;
    cl::PortableRng m_rng;
    std::vector<KeyChoice> m_keys;
    QStringList m_views;
    QSet<QString> m_visited;
    QSet<QString> m_oversized;  // the window classes noted as larger than the screen
    int m_slice = -1;
    qsizetype m_switches = 0;
    Clock::time_point m_start;
    bool m_started = false;
    bool m_done = false;
    QPointer<QWidget> m_extra;  // the dialog, menu or other window on top, and for how many steps
    int m_extraSteps = 0;
    int m_extraPatience = 0;
};

// The window the user would be looking at: an open menu, else a modal dialog, else the active
// window (a floating dock, a non-modal dialog), else the main window.
QWidget* Monkey::target() const {
    for (QWidget* top :
         {QApplication::activePopupWidget(), QApplication::activeModalWidget(), QApplication::activeWindow()})
        if (top && top->isVisible() && top->windowHandle()) return top;
    return m_window;
}

// Closes what stays on top too long: a menu or dialog after a few actions inside it (Escape,
// then reject), and every file dialog at once, so nothing is written outside the workspace.
// True when it acted.
bool Monkey::tidyUp() {
    QWidget* top = target();
    if (top == m_window || qobject_cast<QDockWidget*>(top)) {
        m_extra = nullptr;
        if (!QApplication::activeWindow()) m_window->activateWindow();
        return false;
    }
    if (auto* files = qobject_cast<QFileDialog*>(top)) {
        record(QStringLiteral("reject the file dialog \"%1\"").arg(files->windowTitle()));
        files->reject();
        return true;
    }
    if (top != m_extra) {
        m_extra = top;
        m_extraSteps = 0;
        m_extraPatience = 2 + static_cast<int>(m_rng.below(10));
        return false;
    }
    ++m_extraSteps;
    if (m_extraSteps == m_extraPatience) {
        record(QStringLiteral("Escape on %1 \"%2\"").arg(describe(top), top->windowTitle()));
        pressKey(top->windowHandle(), Qt::Key_Escape);
        return true;
    }
    if (m_extraSteps < m_extraPatience + 6) return false;
    record(QStringLiteral("close %1 \"%2\"").arg(describe(top), top->windowTitle()));
    if (auto* dialog = qobject_cast<QDialog*>(top))
        dialog->reject();
    else
        top->close();
    m_extra = nullptr;
    return true;
}

// Every view twice: the budget is cut into two slices per view and the next view is shown when
// a slice begins (by its Alt key every other time, and through the window), unless a dialog or
// menu is open.
bool Monkey::switchViewIfDue() {
    const int slices = 2 * static_cast<int>(m_views.size());
    const int slice = std::min(slices - 1, static_cast<int>(elapsed() / m_seconds * slices));
    if (slice == m_slice || target() != m_window) return false;
    m_slice = slice;
    // The next view in order, not the slice's: a slice skipped while a dialog was open moves no
    // view out of the first round.
    const QString view = m_views[m_switches++ % m_views.size()];
    const int index = static_cast<int>(cl::views::MainWindow::viewNames().indexOf(view));
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        if (dock->isFloating()) dock->setFloating(false);
    if (m_switches % 2 == 1 && index < 10) {
        const auto digit = static_cast<Qt::Key>(index < 9 ? Qt::Key_1 + index : Qt::Key_0);
        record(QStringLiteral("view %1 by Alt+%2").arg(view).arg(index < 9 ? index + 1 : 0));
        pressKey(m_window->windowHandle(), digit, Qt::AltModifier);
    } else {
        record(QStringLiteral("view %1").arg(view));
    }
    m_window->showView(view);  // the window's own switch as well, in case the key went elsewhere
    m_visited.insert(view);
    return true;
}

// A point inside both the window and its widget (they differ while a resize is pending), in
// their shared coordinates. A window larger than the screen is noted once: at 1366 x 768 part of
// it cannot be reached.
QPoint Monkey::randomPoint(const QWidget* top) {
    QSize size = top->size();
    if (const QWindow* window = top->windowHandle()) size = size.boundedTo(window->size());
    const QSize screen = top->screen() ? top->screen()->availableSize() : size;
    if ((top->width() > screen.width() || top->height() > screen.height()) &&
        !m_oversized.contains(top->metaObject()->className())) {
        m_oversized.insert(top->metaObject()->className());
        std::printf("note: %s \"%s\" is %dx%d, larger than the %dx%d screen\n", qPrintable(describe(top)),
                    qPrintable(top->windowTitle()), top->width(), top->height(), screen.width(),
                    screen.height());
    }
    return {static_cast<int>(m_rng.below(static_cast<std::uint64_t>(std::max(1, size.width())))),
            static_cast<int>(m_rng.below(static_cast<std::uint64_t>(std::max(1, size.height()))))};
}

void Monkey::act() {
    QWidget* top = target();
    const std::size_t kind =
        cl::pickWeighted({30.0, 4.0, 8.0, 8.0, 8.0, 34.0, 8.0}, m_rng.uniform01());  // see the switch
    switch (kind) {
        case 0:
            click(top, Qt::LeftButton, false);
            break;
        case 1:
            click(top, Qt::RightButton, false);
            break;
        case 2:
            click(top, Qt::LeftButton, true);
            break;
        case 3:
            drag(top);
            break;
        case 4:
            wheel(top);
            break;
        case 5:
            key(top);
            break;
        default:
            type(top);
            break;
    }
}

void Monkey::click(QWidget* top, Qt::MouseButton button, bool twice) {
    const QPoint at = randomPoint(top);
    const Qt::KeyboardModifiers modifiers = randomModifiers();
    record(QStringLiteral("%1 %2 at %3,%4 of %5 on %6")
               .arg(twice ? QStringLiteral("double-click") : QStringLiteral("click"),
                    button == Qt::LeftButton ? QStringLiteral("left") : QStringLiteral("right"))
               .arg(at.x())
               .arg(at.y())
               .arg(describe(top), describe(top->childAt(at)))
               .append(modifiers == Qt::ControlModifier ? QStringLiteral(" with Ctrl")
                       : modifiers == Qt::ShiftModifier ? QStringLiteral(" with Shift")
                                                        : QString()));
    QPointer<QWindow> window = top->windowHandle();
    if (twice)
        QTest::mouseDClick(window, button, modifiers, at);
    else
        QTest::mouseClick(window, button, modifiers, at);
}

void Monkey::drag(QWidget* top) {
    const QPoint from = randomPoint(top);
    const QPoint to = randomPoint(top);
    record(QStringLiteral("drag %1,%2 to %3,%4 on %5 from %6")
               .arg(from.x())
               .arg(from.y())
               .arg(to.x())
               .arg(to.y())
               .arg(describe(top), describe(top->childAt(from))));
    QPointer<QWindow> window = top->windowHandle();
    QTest::mousePress(window, Qt::LeftButton, Qt::NoModifier, from);
    for (int i = 1; i <= 4 && window; ++i) QTest::mouseMove(window, from + (to - from) * i / 4);
    if (window) QTest::mouseRelease(window, Qt::LeftButton, Qt::NoModifier, to);
}

// QTest has no wheel for a window; the event goes to the widget under the point, as Qt would.
void Monkey::wheel(QWidget* top) {
    const QPoint at = randomPoint(top);
    QWidget* under = top->childAt(at);
    if (!under) under = top;
    const int notches = static_cast<int>(m_rng.below(7)) - 3;
    const Qt::KeyboardModifiers modifiers = randomModifiers();
    record(
        QStringLiteral("wheel %1 at %2,%3 on %4").arg(notches).arg(at.x()).arg(at.y()).arg(describe(under)));
    const QPoint local = under->mapFrom(top, at);
    QWheelEvent event(local, under->mapToGlobal(local), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(under, &event);
}

void Monkey::key(QWidget* top) {
    const KeyChoice& choice = m_keys[m_rng.below(m_keys.size())];
    record(QStringLiteral("key %1 to %2 in %3")
               .arg(keyText(choice), describe(QApplication::focusWidget()), describe(top)));
    pressKey(top->windowHandle(), choice.key, choice.modifiers);
}

void Monkey::type(QWidget* top) {
    static const char alphabet[] = "abcxyz0123456789.-_ /";
    QString text;
    const int length = 1 + static_cast<int>(m_rng.below(8));
    for (int i = 0; i < length; ++i) text += QLatin1Char(alphabet[m_rng.below(sizeof alphabet - 1)]);
    record(QStringLiteral("type \"%1\" to %2").arg(text, describe(QApplication::focusWidget())));
    const QPointer<QWindow> window = top->windowHandle();
    for (QChar c : text)
        if (window) pressKey(window, QTest::asciiToKey(c.toLatin1()));
}

// The budget is spent: closes what is open, stops the runs the monkey started and exits once they
// have returned (0 when every view was visited).
void Monkey::finish() {
    m_done = true;
    for (int i = 0; i < 20; ++i) {
        QWidget* top = target();
        if (top == m_window || qobject_cast<QDockWidget*>(top)) break;
        if (auto* dialog = qobject_cast<QDialog*>(top))
            dialog->reject();
        else
            top->close();
        QApplication::processEvents();
    }
    m_window->stopRuns();
    std::printf("monkey: %ld actions in %.0f s; views visited: %s\n", g_actions.load(), elapsed(),
                qPrintable(QStringList(m_visited.begin(), m_visited.end()).join(QLatin1Char(' '))));
    waitForRunsThenExit(600);
}

void Monkey::waitForRunsThenExit(int attempts) {
    if (m_window->isRunning() && attempts > 0) {
        QTimer::singleShot(100, this, [this, attempts] { waitForRunsThenExit(attempts - 1); });
        return;
    }
    if (m_window->isRunning()) {
        writeReport("the runs did not stop within 60 s of Stop");
        QApplication::exit(1);
        return;
    }
    if (m_visited.size() != m_views.size()) {
        writeReport("not every view was visited (a budget too short?)");
        QApplication::exit(1);
        return;
    }
    QApplication::exit(0);
}

// The settings from the environment; prints the seed first so that any failure can be replayed.
bool readSettings(double* seconds) {
    bool ok = true;
    const QByteArray seed = qgetenv("CLUSTERLOOM_MONKEY_SEED");
    g_seed = seed.isEmpty()
                 ? static_cast<unsigned long long>(QDateTime::currentMSecsSinceEpoch() % 1000000000)
                 : seed.toULongLong(&ok);
    if (!ok) {
        std::fprintf(stderr, "CLUSTERLOOM_MONKEY_SEED must be a non-negative integer\n");
        return false;
    }
    const QByteArray budget = qgetenv("CLUSTERLOOM_MONKEY_SECONDS");
    *seconds = budget.isEmpty() ? 120.0 : budget.toDouble(&ok);
    if (!ok || *seconds <= 0) {
        std::fprintf(stderr, "CLUSTERLOOM_MONKEY_SECONDS must be a positive number\n");
        return false;
    }
    std::printf("seed %llu\n", g_seed);
    std::fflush(stdout);
    return true;
}

// Keeps everything the program and its dialogs might write inside `dir`.
void confineTo(const QString& dir) {
    for (const char* name : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"})
        qputenv(name, QFile::encodeName(dir));
    QDir::setCurrent(dir);
}

// --self-test-hang, --self-test-warning, --self-test-crash: a few seconds in, the failure each
// check is there to catch, so that a check that stopped working can be seen (each must fail).
void selfTest(const char* what) {
    const QString name = QString::fromLatin1(what);
    QTimer::singleShot(3000, qApp, [name] {
        if (name == QLatin1String("--self-test-hang"))
            std::this_thread::sleep_for(std::chrono::seconds(kHangSeconds + 15));
        else if (name == QLatin1String("--self-test-warning"))
            qWarning("QPainter::begin: a warning planted by the self-test");
        else if (name == QLatin1String("--self-test-crash"))
            std::raise(SIGSEGV);
    });
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--no-xvfb") == 0) {
        std::printf("xvfb-run was not found when the build was configured; install xvfb. Skipped.\n");
        return kSkip;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY")) {
        std::printf("no X display (run under xvfb-run); skipped\n");
        return kSkip;
    }
    double seconds = 0;
    if (!readSettings(&seconds)) return 1;
    QTemporaryDir scratch;
    if (!scratch.isValid()) return 1;
    confineTo(scratch.path());
    qputenv("QT_QPA_PLATFORM", "xcb");
    QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    g_guiThread = pthread_self();
    installCrashHandlers();
    QMap<QString, OtherWarning> otherWarnings;
    g_otherWarnings = &otherWarnings;
    qInstallMessageHandler(messageHandler);

    QApplication app(argc, argv);
    QApplication::setQuitOnLastWindowClosed(false);
    cl::views::initResources();
    cl::views::installEnglishPlurals(app);
    cl::views::MainWindow window(cl::views::MainWindow::Options{false});
    const bool dark = g_seed % 2 == 1;
    std::printf("theme %s, budget %.0f s\n", dark ? "dark" : "light", seconds);
    window.setTheme(dark ? cl::views::Theme::Dark : cl::views::Theme::Light);
    UrlSink urlSink;
    for (const char* scheme : {"http", "https", "file", "mailto"})
        QDesktopServices::setUrlHandler(QString::fromLatin1(scheme), &urlSink, "open");
    KeepOpen keepOpen;
    window.installEventFilter(&keepOpen);
    window.move(0, 0);
    window.resize(1366, 768);
    window.show();
    window.activateWindow();

    QTimer heartbeat;
    g_heartbeatMs = nowMs();
    QObject::connect(&heartbeat, &QTimer::timeout, [] { g_heartbeatMs = nowMs(); });
    heartbeat.start(250);
    startWatchdog();

    Monkey monkey(&window, seconds, g_seed);
    QObject::connect(&window, &cl::views::MainWindow::runsFinished, &monkey, [&monkey, &window] {
        if (monkey.started()) return;
        std::printf("demo runs finished (%d failed); starting\n", window.failedRuns());
        std::fflush(stdout);
        monkey.start();
    });
    QString error;
    if (!window.openWorkspace(scratch.filePath(QStringLiteral("monkey.sqlite")),
                              cl::views::MainWindow::Demo::Always, &error)) {
        std::fprintf(stderr, "cannot open the workspace: %s\n", qPrintable(error));
        return 1;
    }
    if (!window.isRunning()) monkey.start();  // nothing was left to run
    if (argc > 1) selfTest(argv[1]);
    const int code = QApplication::exec();
    for (const char* scheme : {"http", "https", "file", "mailto"})
        QDesktopServices::unsetUrlHandler(QString::fromLatin1(scheme));
    for (auto it = otherWarnings.cbegin(); it != otherWarnings.cend(); ++it)
        std::printf("other Qt warning (%dx): %s\n  first after action %s\n", it.value().count,
                    qPrintable(it.key()), qPrintable(it.value().firstAfter));
    std::printf("%s (seed %llu)\n", code == 0 ? "PASS" : "FAIL", g_seed);
    return code;
}

#include "gui_monkey.moc"
