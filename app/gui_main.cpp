// clusterloom: the desktop GUI. Wiring only: parse the command line, choose the workspace,
// show the main window; with --screenshot, save a PNG of the window once the runs finish.
#include <cstdio>
#include <exception>

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

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication::setApplicationName(QStringLiteral("ClusterLoom"));
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterLoom"));
    QCoreApplication::setApplicationVersion(QString::fromStdString(cl::engineVersion()));

    // Parse before the QApplication exists so that --help and --version work without a display.
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    const QString program =
        argc > 0 ? QFileInfo(QString::fromLocal8Bit(argv[0])).fileName() : QStringLiteral("clusterloom");

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "ClusterLoom: a desktop planner for deep-learning GPU clusters.\n"
        "Opens the last workspace, or on first start a new one with the bundled demo scenarios\n"
        "(two workloads on the muri-testbed-64 cluster under the Muri paper's policies: demo/, where\n"
        "interleaving loses to SRSF, and demo-backlog/, where it pays off; plus Synergy and SJF-BSBF).\n"
        "The headless tool is clusterloom-cli."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
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

    if (!parser.parse(arguments)) {
        printErr(parser.errorText());
        std::fprintf(stderr, "Try '%s --help'.\n", qPrintable(program));
        return 2;
    }
    if (parser.isSet(helpOption) || parser.isSet(QStringLiteral("help-all"))) {
        QString help = parser.helpText();
        help.replace(QStringLiteral("<executable_name>"), program);
        std::fputs(qPrintable(help), stdout);
        return 0;
    }
    if (parser.isSet(versionOption)) {
        std::printf("ClusterLoom %s\n", qPrintable(QCoreApplication::applicationVersion()));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        printErr(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
        std::fprintf(stderr, "Try '%s --help'.\n", qPrintable(program));
        return 2;
    }
    const bool screenshot = parser.isSet(screenshotOption);
    const QString screenshotPath = parser.value(screenshotOption);
    bool timeoutOk = false;
    const double timeoutSeconds = parser.value(timeoutOption).toDouble(&timeoutOk);
    if (screenshot && (screenshotPath.isEmpty() || !timeoutOk || timeoutSeconds <= 0)) {
        printErr(QStringLiteral("--screenshot needs a file name and --timeout a positive number of seconds"));
        return 2;
    }
    const QString view = parser.value(viewOption);
    if (!cl::views::MainWindow::viewNames().contains(view)) {
        printErr(QStringLiteral("unknown view '%1'; the views are %2")
                     .arg(view, cl::views::MainWindow::viewNames().join(QStringLiteral(", "))));
        return 2;
    }
    const QString theme = parser.value(themeOption);
    if (parser.isSet(themeOption) && theme != QLatin1String("system") && theme != QLatin1String("light") &&
        theme != QLatin1String("dark")) {
        printErr(QStringLiteral("unknown theme '%1'; the themes are system, light and dark").arg(theme));
        return 2;
    }
    if (screenshot && !hasDisplay() && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    cl::views::initResources();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/clusterloom.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("clusterloom"));

    // Which workspace: the one asked for; for a screenshot a throwaway demo; else the last one
    // used, else the default file. A workspace that does not exist yet starts with the demo.
    QTemporaryDir scratch;
    QString path = parser.value(workspaceOption);
    if (path.isEmpty() && screenshot) {
        if (!scratch.isValid()) {
            printErr(QStringLiteral("cannot create a temporary directory for the demo workspace"));
            return 1;
        }
        path = scratch.filePath(QStringLiteral("demo.sqlite"));
    }
    if (path.isEmpty()) {
        const QString last = QSettings().value(QStringLiteral("lastWorkspace")).toString();
        path = !last.isEmpty() && QFileInfo::exists(last)
                   ? last
                   : QString::fromStdString(cl::ScenarioStore::defaultPath());
    }
    // A new file, and the default workspace while it is empty, start with the demo.
    const QString defaultPath = QString::fromStdString(cl::ScenarioStore::defaultPath());
    using Demo = cl::views::MainWindow::Demo;
    const Demo demo = parser.isSet(demoOption) || screenshot                                  ? Demo::Always
                      : !QFileInfo::exists(path) || QFileInfo(path) == QFileInfo(defaultPath) ? Demo::IfEmpty
                                                                                              : Demo::No;

    cl::views::MainWindow window(cl::views::MainWindow::Options{!screenshot});
    if (parser.isSet(themeOption)) window.setTheme(cl::views::themeFromName(theme));
    if (screenshot) window.resize(1440, 900);
    window.showView(view);
    window.show();
    QString error;
    if (!window.openWorkspace(path, demo, &error)) {
        const QString message = QStringLiteral("Cannot open the workspace %1: %2\n(data directory: %3)")
                                    .arg(path, error, QString::fromStdString(cl::dataDir()));
        printErr(message);
        if (screenshot) return 1;
        QMessageBox::critical(&window, QStringLiteral("ClusterLoom"), message);
    } else if (parser.isSet(selectOption)) {
        if (!window.store()->findScenario(parser.value(selectOption).toStdString())) {
            printErr(QStringLiteral("the workspace has no scenario '%1'").arg(parser.value(selectOption)));
            return 2;
        }
        window.selectScenario(parser.value(selectOption));
    }

    if (screenshot) {
        auto grab = [&] {
            // Let pending layout and paint events settle before grabbing.
            QTimer::singleShot(300, &app, [&] {
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
                std::printf("Saved screenshot %s (%dx%d)\n", qPrintable(target.absoluteFilePath()),
                            pixmap.width(), pixmap.height());
                if (window.failedRuns() > 0) {
                    printErr(QStringLiteral("%1 simulation run(s) failed; see the run log in the screenshot")
                                 .arg(window.failedRuns()));
                    app.exit(1);
                    return;
                }
                app.exit(0);
            });
        };
        if (window.isRunning())
            QObject::connect(&window, &cl::views::MainWindow::runsFinished, &app, grab);
        else
            grab();
        QTimer::singleShot(static_cast<int>(timeoutSeconds * 1000.0), &app, [&] {
            printErr(
                QStringLiteral("timed out after %1 s waiting for the runs to finish").arg(timeoutSeconds));
            window.stopRuns();
            app.exit(3);
        });
    }
    return app.exec();
}
