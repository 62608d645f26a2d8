// clusterloom: the desktop GUI. Wiring only: parse the command line, load the demo scenario,
// show the main window; with --screenshot, save a PNG of the window once the runs finish.
#include <cstdio>
#include <exception>

#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QPixmap>
#include <QTimer>

#include "core/util/data_paths.h"
#include "views/main_window.h"
#include "views/resources_init.h"
#include "views/scenario.h"

namespace {

void printErr(const QString& message) {
    std::fprintf(stderr, "clusterloom: %s\n", qPrintable(message));
}

bool hasDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
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
        "Opens the demo scenario (the demo trace on the muri-testbed-64 cluster) and compares\n"
        "fifo, srtf, srsf and tiresias. The headless tool is clusterloom-cli."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Run the demo scenario, save a PNG of the main window to <file> and exit "
                       "(uses the offscreen platform when there is no display)."),
        QStringLiteral("file"));
    const QCommandLineOption timeoutOption(
        QStringLiteral("timeout"),
        QStringLiteral(
            "With --screenshot: give up after <seconds> if the runs have not finished (default 600)."),
        QStringLiteral("seconds"), QStringLiteral("600"));
    parser.addOption(screenshotOption);
    parser.addOption(timeoutOption);

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
    if (screenshot && !hasDisplay() && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    cl::views::initResources();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/clusterloom.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("clusterloom"));

    cl::views::Scenario scenario;
    try {
        scenario = cl::views::Scenario::demo();
    } catch (const std::exception& error) {
        const QString message =
            QStringLiteral("Cannot load the demo scenario: %1\n(data directory: %2)")
                .arg(QString::fromStdString(error.what()), QString::fromStdString(cl::dataDir()));
        printErr(message);
        if (!screenshot) QMessageBox::critical(nullptr, QStringLiteral("ClusterLoom"), message);
        return 1;
    }

    cl::views::MainWindow window(std::move(scenario));
    window.show();

    if (screenshot) {
        QObject::connect(&window, &cl::views::MainWindow::runsFinished, &app, [&] {
            // Let pending layout and paint events settle before grabbing.
            QTimer::singleShot(200, &app, [&] {
                const QPixmap pixmap = window.grab();
                const QFileInfo target(screenshotPath);
                if (!target.absoluteDir().exists()) {
                    printErr(QStringLiteral("directory %1 does not exist").arg(target.absolutePath()));
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
                    printErr(QStringLiteral("%1 simulation run(s) failed; see the table in the screenshot")
                                 .arg(window.failedRuns()));
                    app.exit(1);
                    return;
                }
                app.exit(0);
            });
        });
        QTimer::singleShot(static_cast<int>(timeoutSeconds * 1000.0), &app, [&] {
            printErr(
                QStringLiteral("timed out after %1 s waiting for the runs to finish").arg(timeoutSeconds));
            window.cancelRuns();
            app.exit(3);
        });
    }
    return app.exec();
}
