// clusterloom: the desktop GUI. Wiring only: parse the command line, choose the workspace,
// show the main window; with --screenshot, save a PNG of the window once the runs finish.
#include <cstdio>
#include <exception>
#include <optional>

#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QMessageBox>
#include <QPixmap>
#include <QSet>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include "core/io/builtin_data.h"
#include "core/store/scenario_store.h"
#include "views/common/app_theme.h"
#include "views/common/english_plurals.h"
#include "views/shell/main_window.h"
#include "views/shell/resources_init.h"

namespace {

void printErr(const QString& message) {
    std::fprintf(stderr, "clusterloom: %s\n", qPrintable(message));
}

bool hasDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

// Distinct pixel colours, counted up to `enough`: a blank or unpainted window has a handful.
int distinctColours(const QImage& image, int enough) {
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) {
            seen.insert(image.pixel(x, y));
            if (seen.size() >= enough) return enough;
        }
    return static_cast<int>(seen.size());
}

// What the command line asks for, parsed and checked.
struct Arguments {
    QString workspace;
    bool demo = false;
    bool screenshot = false;
    QString screenshotPath;
    double timeoutSeconds = 600.0;
    QString view;
    QString theme;                    // empty: not given (an empty --theme is refused)
    std::optional<QString> scenario;  // --scenario: select it at start
};

void addOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(QStringLiteral(
        "ClusterLoom: a desktop planner for deep-learning GPU clusters.\n"
        "Opens the last workspace, or on first start a new one with the bundled demo scenarios\n"
        "(two workloads on the muri-testbed-64 cluster under the Muri paper's policies: demo/, where\n"
        "interleaving loses to SRSF, and demo-backlog/, where it pays off; plus Synergy and SJF-BSBF).\n"
        "The headless tool is clusterloom-cli."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption workspaceOption(QStringLiteral("workspace"),
                                             QStringLiteral("Open this workspace file (created if missing)."),
                                             QStringLiteral("file"));
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QStringLiteral("Add the bundled demo scenarios to the workspace and run them."));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save a PNG of the main window to <file> once the demo runs have finished, and exit. "
                       "Without --workspace it uses a temporary demo workspace (offscreen when there is "
                       "no display)."),
        QStringLiteral("file"));
    const QCommandLineOption viewOption(
        QStringLiteral("view"),
        QStringLiteral("The view to show: %1 (default results).")
            .arg(cl::views::MainWindow::viewNames().join(QStringLiteral(", "))),
        QStringLiteral("name"), QStringLiteral("results"));
    const QCommandLineOption timeoutOption(
        QStringLiteral("timeout"),
        QStringLiteral(
            "With --screenshot: give up after <seconds> if the runs have not finished (default 600)."),
        QStringLiteral("seconds"), QStringLiteral("600"));
    const QCommandLineOption selectOption(QStringLiteral("scenario"),
                                          QStringLiteral("Select this scenario of the workspace at start."),
                                          QStringLiteral("name"));
    const QCommandLineOption themeOption(QStringLiteral("theme"),
                                         QStringLiteral("Colour theme: system, light or dark (remembered)."),
                                         QStringLiteral("name"));
    for (const auto& option : {workspaceOption, demoOption, screenshotOption, viewOption, selectOption,
                               themeOption, timeoutOption})
        parser.addOption(option);
}

// Reads the parsed options into *arguments; the exit code when they are wrong, else -1.
int checkOptions(const QCommandLineParser& parser, Arguments* arguments) {
    arguments->screenshot = parser.isSet(QStringLiteral("screenshot"));
    arguments->screenshotPath = parser.value(QStringLiteral("screenshot"));
    bool timeoutOk = false;
    arguments->timeoutSeconds = parser.value(QStringLiteral("timeout")).toDouble(&timeoutOk);
    if (arguments->screenshot &&
        (arguments->screenshotPath.isEmpty() || !timeoutOk || arguments->timeoutSeconds <= 0)) {
        printErr(QStringLiteral("--screenshot needs a file name and --timeout a positive number of seconds"));
        return 2;
    }
    arguments->view = parser.value(QStringLiteral("view"));
    if (!cl::views::MainWindow::viewNames().contains(arguments->view)) {
        printErr(QStringLiteral("unknown view '%1'; the views are %2")
                     .arg(arguments->view, cl::views::MainWindow::viewNames().join(QStringLiteral(", "))));
        return 2;
    }
    const QString theme = parser.value(QStringLiteral("theme"));
    if (parser.isSet(QStringLiteral("theme")) && theme != QLatin1String("system") &&
        theme != QLatin1String("light") && theme != QLatin1String("dark")) {
        printErr(QStringLiteral("unknown theme '%1'; the themes are system, light and dark").arg(theme));
        return 2;
    }
    if (parser.isSet(QStringLiteral("theme"))) arguments->theme = theme;
    arguments->workspace = parser.value(QStringLiteral("workspace"));
    arguments->demo = parser.isSet(QStringLiteral("demo"));
    if (parser.isSet(QStringLiteral("scenario")))
        arguments->scenario = parser.value(QStringLiteral("scenario"));
    return -1;
}

// Parses the command line before the QApplication exists, so that --help and --version work without
// a display. Returns the exit code when the program ends here, else -1.
int parseCommandLine(int argc, char** argv, Arguments* arguments) {
    QStringList words;
    for (int i = 0; i < argc; ++i) words << QString::fromLocal8Bit(argv[i]);
    const QString program =
        argc > 0 ? QFileInfo(QString::fromLocal8Bit(argv[0])).fileName() : QStringLiteral("clusterloom");
    QCommandLineParser parser;
    addOptions(parser);
    if (!parser.parse(words)) {
        printErr(parser.errorText());
        std::fprintf(stderr, "Try '%s --help'.\n", qPrintable(program));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        QString help = parser.helpText();
        help.replace(QStringLiteral("<executable_name>"), program);
        std::fputs(qPrintable(help), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("ClusterLoom %s\n", qPrintable(QCoreApplication::applicationVersion()));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        printErr(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
        std::fprintf(stderr, "Try '%s --help'.\n", qPrintable(program));
        return 2;
    }
    return checkOptions(parser, arguments);
}

// Which workspace: the one asked for; for a screenshot a throwaway demo in `scratch`; else the last
// one used, else the default file. Empty when the scratch directory cannot be made.
QString chooseWorkspace(const Arguments& arguments, const QTemporaryDir& scratch) {
    QString path = arguments.workspace;
    if (path.isEmpty() && arguments.screenshot) {
        if (!scratch.isValid()) {
            printErr(QStringLiteral("cannot create a temporary directory for the demo workspace"));
            return {};
        }
        path = scratch.filePath(QStringLiteral("demo.sqlite"));
    }
    if (path.isEmpty()) {
        const QString last = QSettings().value(QStringLiteral("lastWorkspace")).toString();
        path = !last.isEmpty() && QFileInfo::exists(last)
                   ? last
                   : QString::fromStdString(cl::ScenarioStore::defaultPath());
    }
    return path;
}

// A workspace that does not exist yet, and the default workspace while it is empty, start with the
// demo.
cl::views::MainWindow::Demo demoFor(const Arguments& arguments, const QString& path) {
    const QString defaultPath = QString::fromStdString(cl::ScenarioStore::defaultPath());
    using Demo = cl::views::MainWindow::Demo;
    return arguments.demo || arguments.screenshot                                  ? Demo::Always
           : !QFileInfo::exists(path) || QFileInfo(path) == QFileInfo(defaultPath) ? Demo::IfEmpty
                                                                                   : Demo::No;
}

// Saves the window's picture once pending layout and paint events have settled, then exits with 0,
// or 1 when it could not be saved, looks blank, or a run failed.
void grabWindow(QApplication& app, cl::views::MainWindow& window, const QString& screenshotPath) {
    QTimer::singleShot(300, &app, [&app, &window, screenshotPath] {
        const QPixmap pixmap = window.grab();
        const QFileInfo target(screenshotPath);
        if (!target.absoluteDir().exists()) {
            printErr(QStringLiteral("directory %1 does not exist").arg(target.absolutePath()));
            app.exit(1);
            return;
        }
        if (!pixmap.isNull() && distinctColours(pixmap.toImage(), 32) < 32) {
            printErr(QStringLiteral("the window looks blank (fewer than 32 colours); not saved"));
            app.exit(1);
            return;
        }
        if (pixmap.isNull() || !pixmap.save(screenshotPath, "PNG")) {
            printErr(QStringLiteral("could not save the screenshot to %1").arg(screenshotPath));
            app.exit(1);
            return;
        }
        std::printf("Saved screenshot %s (%dx%d)\n", qPrintable(target.absoluteFilePath()), pixmap.width(),
                    pixmap.height());
        if (window.failedRuns() > 0) {
            printErr(QStringLiteral("%1 simulation run(s) failed; see the run log in the screenshot")
                         .arg(window.failedRuns()));
            app.exit(1);
            return;
        }
        app.exit(0);
    });
}

// --screenshot: the picture once the runs have finished, or exit code 3 after the timeout.
void scheduleScreenshot(QApplication& app, cl::views::MainWindow& window, const Arguments& arguments) {
    const QString path = arguments.screenshotPath;
    if (window.isRunning())
        QObject::connect(&window, &cl::views::MainWindow::runsFinished, &app,
                         [&app, &window, path] { grabWindow(app, window, path); });
    else
        grabWindow(app, window, path);
    const double timeoutSeconds = arguments.timeoutSeconds;
    QTimer::singleShot(static_cast<int>(timeoutSeconds * 1000.0), &app, [&app, &window, timeoutSeconds] {
        printErr(QStringLiteral("timed out after %1 s waiting for the runs to finish").arg(timeoutSeconds));
        window.stopRuns();
        app.exit(3);
    });
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication::setApplicationName(QStringLiteral("ClusterLoom"));
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterLoom"));
    QCoreApplication::setApplicationVersion(QString::fromStdString(cl::engineVersion()));
    Arguments arguments;
    if (const int exitCode = parseCommandLine(argc, argv, &arguments); exitCode >= 0) return exitCode;
    if (arguments.screenshot && !hasDisplay() && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    cl::views::initResources();
    cl::views::installEnglishPlurals(app);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/clusterloom.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("clusterloom"));

    QTemporaryDir scratch;
    const QString path = chooseWorkspace(arguments, scratch);
    if (path.isEmpty()) return 1;
    cl::views::MainWindow window(cl::views::MainWindow::Options{!arguments.screenshot});
    if (!arguments.theme.isEmpty()) window.setTheme(cl::views::themeFromName(arguments.theme));
    if (arguments.screenshot) window.resize(1440, 900);
    window.showView(arguments.view);
    window.show();
    QString error;
    if (!window.openWorkspace(path, demoFor(arguments, path), &error)) {
        const QString message = QStringLiteral("Cannot open the workspace %1: %2\n(data directory: %3)")
                                    .arg(path, error, QString::fromStdString(cl::dataDir()));
        printErr(message);
        if (arguments.screenshot) return 1;
        QMessageBox::critical(&window, QStringLiteral("ClusterLoom"), message);
    } else if (arguments.scenario) {
        if (!window.store()->findScenario(arguments.scenario->toStdString())) {
            printErr(QStringLiteral("the workspace has no scenario '%1'").arg(*arguments.scenario));
            return 2;
        }
        window.selectScenario(*arguments.scenario);
    }
    if (arguments.screenshot) scheduleScreenshot(app, window, arguments);
    return app.exec();
}
