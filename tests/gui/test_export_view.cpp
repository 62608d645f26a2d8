// File > Export View where the user's Documents folder does not exist yet (a fresh account, a
// container): the dialog offers it, makes it and writes the file; a target that cannot be written
// keeps the dialog open with the user's path and an error naming the file. And the cluster
// editor's hints (the GPU type's speed, the selection's price) and field errors stay readable,
// 4.5:1 on the window colour (WCAG 2.1, 1.4.3), in both themes and across a theme switch.
// Offscreen, with HOME pointing at a temporary folder.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

#include "core/io/builtin_data.h"
#include "core/model/cluster.h"
#include "core/store/scenario_store.h"
#include "named_child.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/server_properties_panel.h"
#include "views/common/app_theme.h"
#include "views/common/chart_export.h"
#include "views/common/chart_style.h"
#include "views/common/export_folder.h"
#include "views/shell/main_window.h"

using namespace cl::views;

namespace {

// The home folder of the suite; set before the application exists (QSettings reads it once).
QTemporaryDir& home() {
    static QTemporaryDir dir;
    return dir;
}

QString documents() {
    return QDir(home().path()).filePath(QStringLiteral("Documents"));
}

QAction* exportViewAction(const MainWindow& window) {
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text().startsWith(QStringLiteral("Export &View"))) return action;
    qFatal("the main window has no Export View action");
    return nullptr;
}

// Runs File > Export View; `drive` gets the dialog while it is open (it runs modal) and may
// leave it open, which is then closed as Cancel would.
void whileExportDialogOpen(MainWindow& window, const std::function<void(ExportDialog&)>& drive) {
    bool driven = false;
    QTimer::singleShot(0, &window, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        // Whatever happens in drive (a failed check returns early), the dialog closes again.
        struct Closer {
            QWidget* widget;
            ~Closer() {
                if (widget && widget->isVisible()) widget->close();
            }
        } closer{modal};
        auto* dialog = qobject_cast<ExportDialog*>(modal);
        QVERIFY2(dialog, "File > Export View opened no export dialog");
        driven = true;
        drive(*dialog);
    });
    exportViewAction(window)->trigger();
    QVERIFY(driven);
}

void clickExport(ExportDialog& dialog) {
    QTest::mouseClick(namedChild<QPushButton>(dialog, "exportButton"), Qt::LeftButton);
}

void typePath(ExportDialog& dialog, const QString& path) {
    auto* edit = namedChild<QLineEdit>(dialog, "exportPath");
    edit->selectAll();
    QTest::keyClicks(edit, path);
}

// A cluster of one V100 server rented at $13.25/h, selected: both hints show.
cl::Cluster pricedServer() {
    cl::Cluster c;
    c.name = "hints";
    cl::Server s;
    s.name = "n0";
    s.price.basis = cl::PriceBasis::Hourly;
    s.price.per_hour = 13.25;
    c.servers.push_back(s);
    return c;
}

double contrastOnWindow(const QLabel& label, const QWidget& panel) {
    return contrastRatio(label.palette().color(QPalette::WindowText),
                         panel.palette().color(QPalette::Window));
}

}  // namespace

class TestExportView : public QObject {
    Q_OBJECT

public:
    // Before QApplication: the home folder without Documents, and no user-dirs file naming one.
    static void initMain() {
        qputenv("HOME", home().path().toUtf8());
        qputenv("XDG_CONFIG_HOME", QDir(home().path()).filePath(QStringLiteral(".config")).toUtf8());
        qunsetenv("XDG_DOCUMENTS_DIR");
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(!QFileInfo::exists(documents()));
        const QString path = QDir(home().path()).filePath(QStringLiteral("w.sqlite"));
        cl::ScenarioStore(path.toStdString()).putProfiles(cl::builtinProfiles());
        m_window = std::make_unique<MainWindow>(MainWindow::Options{false});
        m_window->resize(1366, 740);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QString error;
        QVERIFY2(m_window->openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
        QVERIFY(m_window->showView(QStringLiteral("profiles")));
    }
    void cleanupTestCase() { m_window.reset(); }

    void exportMakesTheMissingDocumentsFolder() {
        QString written;
        whileExportDialogOpen(*m_window, [&](ExportDialog& dialog) {
            // Offered in Documents, named after the view.
            QCOMPARE(QFileInfo(dialog.path()).absolutePath(), documents());
            QCOMPARE(QFileInfo(dialog.path()).fileName(), QStringLiteral("profiles.png"));
            written = dialog.path();
            clickExport(dialog);
            QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
            QVERIFY(!dialog.isVisible());
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
        });
        QVERIFY(QFileInfo(documents()).isDir());
        const QImage image(written);
        QVERIFY2(!image.isNull(), qPrintable(written));
    }

    void aFolderTypedIntoThePathIsMade() {
        const QString path = QDir(home().path()).filePath(QStringLiteral("reports/2026/profiles.svg"));
        whileExportDialogOpen(*m_window, [&](ExportDialog& dialog) {
            typePath(dialog, path);
            clickExport(dialog);
            QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
            QVERIFY(!dialog.isVisible());
        });
        QVERIFY(QFileInfo(path).isFile());
        QVERIFY(QFileInfo(path).size() > 0);
    }

    void anUnwritableTargetKeepsTheDialogOpen() {
        // A folder where the file should be: the write fails whoever runs the suite (root too).
        const QString taken = QDir(home().path()).filePath(QStringLiteral("taken.png"));
        QVERIFY(QDir().mkpath(taken));
        // A file where a folder should be: the folder cannot be made.
        const QString blocker = QDir(home().path()).filePath(QStringLiteral("blocker"));
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const QString underFile = QDir(blocker).filePath(QStringLiteral("view.pdf"));
        for (const QString& target : {taken, underFile}) {
            whileExportDialogOpen(*m_window, [&](ExportDialog& dialog) {
                typePath(dialog, target);
                const ExportOptions chosen = dialog.options();
                clickExport(dialog);
                QVERIFY(dialog.isVisible());
                QCOMPARE(dialog.path(), target);
                QCOMPARE(dialog.options().size, chosen.size);
                QCOMPARE(dialog.options().dpi, chosen.dpi);
                QVERIFY2(dialog.errorText().contains(QDir::toNativeSeparators(target)),
                         qPrintable(dialog.errorText()));
                auto* shown = namedChild<QLabel>(dialog, "exportError");
                QVERIFY(shown->isVisible());
                QVERIFY(contrastRatio(shown->palette().color(QPalette::WindowText),
                                      dialog.palette().color(QPalette::Window)) >= 4.5);
            });
        }
        QVERIFY(QFileInfo(taken).isDir());
    }

    void documentsThatCannotBeMadeFallBackToHome() {
        QDir(documents()).removeRecursively();
        QFile file(documents());  // a file in the way of the folder
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QCOMPARE(defaultExportFolder(), QDir::homePath());
        QCOMPARE(defaultExportPath(QStringLiteral("a.csv")), QDir(QDir::homePath()).filePath("a.csv"));
        QVERIFY(QFile::remove(documents()));
        QCOMPARE(defaultExportFolder(), documents());
        QVERIFY(QFileInfo(documents()).isDir());
    }

    void clusterHintsReadInBothThemes() {
        ClusterDocument doc;
        doc.setCluster(pricedServer());
        ServerPropertiesPanel panel(&doc);
        panel.resize(420, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        doc.setSelection({0});
        auto* speed = namedChild<QLabel>(panel, "serverGpuSpeed");
        auto* summary = namedChild<QLabel>(panel, "serverPriceSummary");
        QVERIFY(speed->isVisible());
        QVERIFY2(speed->text().contains(QStringLiteral("V100")), qPrintable(speed->text()));
        QVERIFY2(summary->text().contains(QStringLiteral("$13.25/h")), qPrintable(summary->text()));
        // A field error too: a GPU count that is no number.
        auto* gpus = namedChild<QLineEdit>(panel, "serverGpus");
        gpus->selectAll();
        QTest::keyClicks(gpus, QStringLiteral("many"));
        const QString message = panel.fieldError(ServerPropertiesPanel::Field::Gpus);
        QVERIFY(!message.isEmpty());
        QLabel* error = nullptr;
        for (QLabel* label : panel.findChildren<QLabel*>())
            if (label->text() == message) error = label;
        QVERIFY(error);
        // Light, dark and light again: the colours follow each switch.
        for (Theme theme : {Theme::Light, Theme::Dark, Theme::Light, Theme::Dark, Theme::Light}) {
            applyTheme(theme);
            QCoreApplication::processEvents();
            for (QLabel* label : {speed, summary, error}) {
                const double ratio = contrastOnWindow(*label, panel);
                QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1 in %2: %3:1")
                                                      .arg(label->text(), themeName(theme))
                                                      .arg(ratio, 0, 'f', 2)));
            }
            // Still quieter than the fields' own text.
            QVERIFY(contrastOnWindow(*speed, panel) <
                    contrastRatio(panel.palette().color(QPalette::WindowText),
                                  panel.palette().color(QPalette::Window)));
        }
        applyTheme(Theme::Light);
    }

private:
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestExportView)
#include "test_export_view.moc"
