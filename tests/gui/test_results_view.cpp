// The Results view explains an interleaving run next to its exclusive counterpart
// (docs/architecture.md section 7.6): on the demo workload Muri-S loses to SRSF, on the backlog
// workload it wins, and a row without such a pair shows no note.
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "core/runs/demo_workspace.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "named_child.h"
#include "views/results/results_view.h"
#include "views/results/summary_table_model.h"

using cl::views::ResultsView;

namespace {

// A part of a widget, found by its objectName.
QLabel* noteOf(const ResultsView& view) {
    return namedChild<QLabel>(view, "interleavingNote");
}

}  // namespace

class TestResultsView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<cl::ScenarioStore>(m_dir.filePath("w.clusterloom").toStdString());
        cl::populateDemoWorkspace(*m_store);
        for (const char* name :
             {"demo/srsf", "demo/muri-s", "demo-backlog/srsf", "demo-backlog/srtf", "demo-backlog/muri-s"})
            cl::runScenario(*m_store, name);
    }

    void muriOnTheDemoSaysWhyItLost() {
        ResultsView view;
        view.resize(1200, 800);
        view.setStore(m_store.get());
        view.show();
        view.showScenario("demo/muri-s");
        QLabel* note = noteOf(view);
        QVERIFY(note->isVisibleTo(&view));
        const QString text = note->text();
        QVERIFY2(text.contains("demo/muri-s lost to demo/srsf"), qPrintable(text));
        QVERIFY2(text.contains("x worse"), qPrintable(text));
        QVERIFY2(text.contains("busy GPU-hours"), qPrintable(text));

        // Clicking the SRSF row plots an exclusive run: no note.
        const auto* model = namedChild<cl::views::SummaryTableModel>(view, "resultsModel");
        const int row = static_cast<int>(model->policies().indexOf("demo/srsf"));
        QVERIFY(row >= 0);
        QTableView* table = namedChild<QTableView>(view, "resultsTable");
        const QRect cell = table->visualRect(model->index(row, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QVERIFY(!note->isVisibleTo(&view));
    }

    void muriOnTheBacklogSaysWhyItWon() {
        ResultsView view;
        view.setStore(m_store.get());
        view.show();
        view.showScenario("demo-backlog/muri-s");
        const QString text = noteOf(view)->text();
        QVERIFY(noteOf(view)->isVisibleTo(&view));
        QVERIFY2(text.contains("demo-backlog/muri-s beat demo-backlog/srsf"), qPrintable(text));
        QVERIFY2(text.contains("x better"), qPrintable(text));
    }

    void aRunWithoutItsCounterpartHasNoNote() {
        // demo/fifo is exclusive; fat-tree FIFO too: never a note.
        cl::runScenario(*m_store, "demo/fifo");
        ResultsView view;
        view.setStore(m_store.get());
        view.show();
        view.showScenario("demo/fifo");
        QVERIFY(!noteOf(view)->isVisibleTo(&view));
    }

    // The demo family holds one trace: no trace is named. A scenario of another trace in the
    // family names every row's trace and says so above the table.
    void runsOfDifferentTracesSaySo() {
        ResultsView view;
        view.setStore(m_store.get());
        view.show();
        view.showScenario("demo/fifo");
        QVERIFY(!view.mixesTraces());
        const auto* model = namedChild<cl::views::SummaryTableModel>(view, "resultsModel");
        for (int r = 0; r < model->rowCount(); ++r)
            QVERIFY(!model->index(r, 0).data().toString().contains(QStringLiteral("trace")));

        cl::ScenarioSpec other = m_store->scenario("demo-sjf/sjf-bsbf").spec;
        other.name = "demo/sjf-bsbf-here";
        m_store->createScenario(other);
        view.refresh();
        QVERIFY(view.mixesTraces());
        const QString title = namedChild<QLabel>(view, "resultsTitle")->text();
        QVERIFY2(title.contains(QStringLiteral("2 different traces")), qPrintable(title));
        const int row = static_cast<int>(model->policies().indexOf("demo/sjf-bsbf-here"));
        QVERIFY(row >= 0);
        QCOMPARE(model->index(row, 0).data().toString(),
                 QStringLiteral("demo/sjf-bsbf-here \u00b7 trace sjf-bsbf-demo"));
        m_store->deleteScenario("demo/sjf-bsbf-here");
    }

    // Ctrl+C on the table with no current cell asks the model for an invalid index: no warning.
    void copyWithoutACurrentCellIsQuiet() {
        ResultsView view;
        view.setStore(m_store.get());
        view.show();
        view.showScenario("demo/fifo");
        QTableView* table = namedChild<QTableView>(view, "resultsTable");
        table->selectionModel()->clear();
        table->setCurrentIndex(QModelIndex());
        static QStringList warnings;
        warnings.clear();
        const QtMessageHandler previous =
            qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
                if (type != QtDebugMsg && type != QtInfoMsg) warnings << text;
            });
        table->setFocus();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        qInstallMessageHandler(previous);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('|'))));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<cl::ScenarioStore> m_store;
};

QTEST_MAIN(TestResultsView)
#include "test_results_view.moc"
