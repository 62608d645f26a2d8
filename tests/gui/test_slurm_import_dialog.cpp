// File > Import from Slurm: the rule editor's model, the dialog driven as a user does (files
// through its chooser seam, rules added and typed in the table, the match counts following each
// edit, the default profile, excluded nodes), the partition file, the jobs that can never run on
// the imported cluster, its errors, and the main window storing the trace, the cluster and a
// scenario of both that replays them with the slurm policy. Expected figures come from core's
// readers, not from the dialog. Offscreen, on the Slurm fixtures of tests/fixtures/slurm.
#include <algorithm>
#include <memory>
#include <set>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "named_child.h"
#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/io/sacct_trace.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_nodes.h"
#include "core/io/slurm_partitions.h"
#include "core/io/slurm_sacct.h"
#include "core/policies/slurm_config.h"
#include "core/runs/scenario_runner.h"
#include "core/sim/job_requests.h"
#include "core/store/scenario_store.h"
#include "core/workload/profile_rules.h"
#include "views/common/app_theme.h"
#include "views/common/format.h"
#include "views/shell/main_window.h"
#include "views/slurm_import/profile_rules_model.h"
#include "views/slurm_import/slurm_import_dialog.h"
#include "views/slurm_import/slurm_job_table_model.h"

using namespace cl::views;

namespace {

constexpr int kTimeoutMs = 30000;

QString fixture(const QString& name) {
    return QStringLiteral(CLUSTERLOOM_FIXTURES_DIR "/slurm/") + name;
}

const cl::test::ScreenshotDir& shots() {
    static const cl::test::ScreenshotDir dir;
    return dir;
}

// Jobs of the fixture history each rule (and the default) gives a profile, by core.
cl::RuleMatchCounts expectedCounts(const QString& history, const cl::ProfileRules& rules) {
    const std::string path = history.toStdString();
    cl::Trace trace = cl::traceFromSacct(cl::readSacct(path), "x", path);
    return cl::assignProfilesByRule(trace, rules);
}

cl::ProfileRule rule(const char* field, const char* pattern, const char* profile) {
    cl::ProfileRule r;
    r.field = field;
    r.pattern = pattern;
    r.profile = profile;
    return r;
}

void waitIdle(const SlurmImportDialog& dialog) {
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), kTimeoutMs);
}

// The dialog's (or the main window's) parts, found by their object names as a user finds them
// by their labels.
QTabWidget* tabs(const SlurmImportDialog& d) {
    return namedChild<QTabWidget>(d, "tabs");
}
SlurmJobTableModel* jobModel(const SlurmImportDialog& d) {
    return namedChild<SlurmJobTableModel>(d, "jobModel");
}
ProfileRulesModel* rulesModel(const SlurmImportDialog& d) {
    return namedChild<ProfileRulesModel>(d, "rulesModel");
}
QTableView* rulesTable(const SlurmImportDialog& d) {
    return namedChild<QTableView>(d, "rules");
}
QComboBox* defaultProfileCombo(const SlurmImportDialog& d) {
    return namedChild<QComboBox>(d, "defaultProfile");
}
QPushButton* addRuleButton(const SlurmImportDialog& d) {
    return namedChild<QPushButton>(d, "addRule");
}
QPushButton* importButton(const SlurmImportDialog& d) {
    return namedChild<QPushButton>(d, "import");
}
QPushButton* historyBrowseButton(const SlurmImportDialog& d) {
    return namedChild<QPushButton>(d, "historyBrowse");
}
QPushButton* nodesBrowseButton(const SlurmImportDialog& d) {
    return namedChild<QPushButton>(d, "nodesBrowse");
}
QCheckBox* excludeUnavailableBox(const SlurmImportDialog& d) {
    return namedChild<QCheckBox>(d, "excludeUnavailable");
}
QTableWidget* droppedTable(const SlurmImportDialog& d) {
    return namedChild<QTableWidget>(d, "dropped");
}
QListWidget* refusedList(const SlurmImportDialog& d) {
    return namedChild<QListWidget>(d, "refused");
}
QTreeWidget* clusterTree(const SlurmImportDialog& d) {
    return namedChild<QTreeWidget>(d, "clusterTree");
}
QLabel* summaryLabel(const SlurmImportDialog& d) {
    return namedChild<QLabel>(d, "summary");
}
QLabel* clusterSummaryLabel(const SlurmImportDialog& d) {
    return namedChild<QLabel>(d, "clusterSummary");
}
QLabel* defaultMatchesLabel(const SlurmImportDialog& d) {
    return namedChild<QLabel>(d, "defaultMatches");
}
QLabel* neverFitLabel(const SlurmImportDialog& d) {
    return namedChild<QLabel>(d, "neverFit");
}
QPushButton* slurmConfigBrowseButton(const SlurmImportDialog& d) {
    return namedChild<QPushButton>(d, "slurmConfigBrowse");
}
QPushButton* partitionsBrowseButton(const SlurmImportDialog& d) {
    return namedChild<QPushButton>(d, "partitionsBrowse");
}
QCheckBox* createScenarioBox(const SlurmImportDialog& d) {
    return namedChild<QCheckBox>(d, "createScenario");
}

// Why each job of the history never fits the cluster of the node file (with the partition file
// laid over it when given), by core, as `import slurm` names them.
std::vector<std::string> expectedNeverFits(const QString& history, const QString& nodes, const char* name,
                                           const QString& partitions = {}) {
    const std::string path = history.toStdString();
    const cl::Trace trace = cl::traceFromSacct(cl::readSacct(path), "x", path);
    const cl::SlurmNodeInventory inventory = cl::readSlurmNodes(nodes.toStdString());
    cl::SlurmLayout layout = cl::clusterFromSlurmNodes(inventory, {name, false});
    if (!partitions.isEmpty())
        cl::applySlurmPartitions(layout.cluster, cl::readSlurmPartitions(partitions.toStdString()),
                                 &inventory);
    const cl::JobRequests requests(layout.cluster, trace);
    std::vector<std::string> reasons;
    for (int i = 0; i < static_cast<int>(trace.jobs.size()); ++i) reasons.push_back(requests.neverFits(i));
    return reasons;
}

}  // namespace

class TestSlurmImportDialog : public QObject {
    Q_OBJECT

private:
    // File > Import from Slurm with these files, in a main window on a fresh workspace in `dir`
    // (the built-in profiles stored); null, failing the test, when the workspace does not open.
    SlurmImportDialog* importInFreshWorkspace(MainWindow& window, const QTemporaryDir& dir,
                                              const QString& history, const QString& nodes) {
        QString error;
        if (!window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")), MainWindow::Demo::No, &error)) {
            QTest::qFail(qPrintable(error), __FILE__, __LINE__);
            return nullptr;
        }
        window.store()->putProfiles(m_builtin);
        return qobject_cast<SlurmImportDialog*>(window.importFromSlurm(history, nodes));
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        m_builtin = cl::builtinProfiles();
    }

    void rulesModelEditsChecksAndMoves() {
        ProfileRulesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy edited(&model, &ProfileRulesModel::rulesEdited);
        model.setProfiles(&m_builtin);
        cl::ProfileRules rules;
        rules.rules = {rule("name", "^train", "bert"), rule("user", "erin", "gpt2")};
        rules.default_profile = "resnet18";
        model.setRules(rules);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.defaultProfile(), QStringLiteral("resnet18"));
        QVERIFY(!model.hasProblems());
        QCOMPARE(model.data(model.index(0, ProfileRulesModel::FieldColumn), ProfileRulesModel::ChoicesRole)
                     .toStringList(),
                 (QStringList{QStringLiteral("name"), QStringLiteral("user"), QStringLiteral("account"),
                              QStringLiteral("partition")}));
        QVERIFY(model.data(model.index(0, ProfileRulesModel::ProfileColumn), ProfileRulesModel::ChoicesRole)
                    .toStringList()
                    .contains(QStringLiteral("vgg16")));
        QVERIFY(!(model.flags(model.index(0, ProfileRulesModel::MatchesColumn)) & Qt::ItemIsEditable));

        // An invalid pattern and an unknown profile are problems of their row, named by core.
        const int before = static_cast<int>(edited.count());
        QVERIFY(model.setData(model.index(1, ProfileRulesModel::PatternColumn), QStringLiteral("([")));
        QCOMPARE(edited.count(), before + 1);
        QVERIFY(!model.problem(1).isEmpty());
        QVERIFY(model.problem(0).isEmpty());
        QVERIFY(!model.data(model.index(1, ProfileRulesModel::FieldColumn), Qt::DecorationRole).isNull());
        QVERIFY(model.setData(model.index(1, ProfileRulesModel::PatternColumn), QStringLiteral("^erin$")));
        QVERIFY(!model.hasProblems());
        QVERIFY(
            model.setData(model.index(0, ProfileRulesModel::ProfileColumn), QStringLiteral("no-such-model")));
        QVERIFY(model.problem(0).contains(QStringLiteral("no-such-model")));
        QVERIFY(!model.setData(model.index(0, ProfileRulesModel::FieldColumn), QStringLiteral("colour")));

        // Counts are shown per rule; an edit of a rule forgets its count until the next preview.
        model.setMatchCounts(std::vector<std::size_t>{3, 4});
        QCOMPARE(model.matches(1), std::optional<std::size_t>(4));
        QCOMPARE(model.data(model.index(1, ProfileRulesModel::MatchesColumn)).toString(),
                 QStringLiteral("4"));
        QVERIFY(model.setData(model.index(1, ProfileRulesModel::FieldColumn), QStringLiteral("account")));
        QVERIFY(!model.matches(1).has_value());

        // Moving and adding keep the order the user sees: first match wins.
        QVERIFY(model.moveRule(1, 0));
        QCOMPARE(model.rules().rules[0].field, std::string("account"));
        QVERIFY(model.moveRule(0, 1));
        QCOMPARE(model.rules().rules[1].field, std::string("account"));
        QVERIFY(!model.moveRule(0, 5));
        const int added = model.addRule(0);
        QCOMPARE(added, 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rules().rules[1].profile, std::string("resnet18"));  // the default profile
        QVERIFY(model.removeRows(1, 1));
        QCOMPARE(model.rowCount(), 2);
        // The text round trip is core's.
        QCOMPARE(cl::parseProfileRules(cl::profileRulesText(model.rules()), "t").rules.size(),
                 std::size_t(2));
    }

    void jobModelPassesTester() {
        const std::string path = fixture(QStringLiteral("sacct_parsable2.txt")).toStdString();
        auto trace = std::make_shared<const cl::Trace>(cl::traceFromSacct(cl::readSacct(path), "t", path));
        SlurmJobTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(trace);
        QCOMPARE(model.rowCount(), static_cast<int>(trace->jobs.size()));
        QCOMPARE(model.data(model.index(0, SlurmJobTableModel::NameColumn)).toString(),
                 QString::fromStdString(trace->jobs[0].name));
        QCOMPARE(model.data(model.index(0, SlurmJobTableModel::GpusColumn)).toInt(), trace->jobs[0].gpus);
        QCOMPARE(model.data(model.index(0, SlurmJobTableModel::DurationColumn), SlurmJobTableModel::SortRole)
                     .toDouble(),
                 trace->jobs[0].duration);
        // What a replay goes by: job 100's time limit (1 day) and how long it waited (10:00 to 10:05).
        QCOMPARE(model.data(model.index(0, SlurmJobTableModel::IdColumn)).toString(), QStringLiteral("100"));
        QCOMPARE(model.data(model.index(0, SlurmJobTableModel::TimeLimitColumn)).toString(),
                 cl::views::formatDuration(86400.0));
        QCOMPARE(model.data(model.index(0, SlurmJobTableModel::WaitedColumn)).toString(),
                 cl::views::formatDuration(300.0));
        QCOMPARE(model.data(model.index(0, SlurmJobTableModel::WaitedColumn), SlurmJobTableModel::SortRole)
                     .toDouble(),
                 300.0);
        QVERIFY(!model.headerData(SlurmJobTableModel::TimeLimitColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
        model.setTrace(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void historyPreviewRulesAndImport() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        const std::int64_t muri = store.putProfiles(m_builtin);
        SlurmImportDialog dialog(&store, &m_builtin);
        const QString history = fixture(QStringLiteral("sacct_parsable2.txt"));
        dialog.setFileChooser([&](QWidget*, SlurmImportDialog::FileKind kind) {
            return kind == SlurmImportDialog::FileKind::History ? history : QString();
        });
        dialog.resize(1300, 760);
        dialog.show();
        QApplication::setActiveWindow(&dialog);
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QVERIFY(!importButton(dialog)->isEnabled());
        QTest::mouseClick(historyBrowseButton(dialog), Qt::LeftButton);
        QVERIFY(dialog.isBusy());
        waitIdle(dialog);
        QVERIFY2(dialog.historyError().isEmpty(), qPrintable(dialog.historyError()));
        QCOMPARE(dialog.profileSetId(), muri);

        // The jobs, what was left out by reason and the refused rows: what core's reader says.
        const cl::SacctImport expected = cl::readSacct(history.toStdString());
        QCOMPARE(jobModel(dialog)->rowCount(), static_cast<int>(expected.jobs.size()));
        QCOMPARE(droppedTable(dialog)->rowCount(), static_cast<int>(expected.dropped.size()));
        int row = 0;
        for (const auto& [reason, n] : expected.dropped) {
            QCOMPARE(droppedTable(dialog)->item(row, 0)->text(), QString::fromStdString(reason));
            QCOMPARE(droppedTable(dialog)->item(row, 1)->text(), QString::number(n));
            ++row;
        }
        QCOMPARE(refusedList(dialog)->count(), static_cast<int>(expected.refused.size()));
        QVERIFY(!expected.refused.empty());
        QCOMPARE(refusedList(dialog)->item(0)->text(), QString::fromStdString(expected.refused[0]));
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("%1 jobs").arg(expected.jobs.size())));

        // No rule yet: every job takes the default profile (the set's first).
        QCOMPARE(dialog.defaultMatches(), std::optional<std::size_t>(expected.jobs.size()));
        QVERIFY(importButton(dialog)->isEnabled());

        // Add a rule as a user does: the button opens the pattern for typing.
        tabs(dialog)->setCurrentIndex(SlurmImportDialog::RulesTab);
        QTest::mouseClick(addRuleButton(dialog), Qt::LeftButton);
        QCOMPARE(rulesModel(dialog)->rowCount(), 1);
        QWidget* editor = rulesTable(dialog)->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        QTest::keyClicks(editor, QStringLiteral("^train"));
        QTest::keyClick(editor, Qt::Key_Return);  // the delegate commits on the next event loop turn
        QTRY_COMPARE(rulesModel(dialog)->rules().rules[0].pattern, std::string("^train"));
        waitIdle(dialog);
        cl::ProfileRules rules = rulesModel(dialog)->rules();
        cl::RuleMatchCounts counts = expectedCounts(history, rules);
        QVERIFY(counts.per_rule[0] > 0);
        QCOMPARE(rulesModel(dialog)->matches(0), std::optional<std::size_t>(counts.per_rule[0]));
        QCOMPARE(dialog.defaultMatches(), std::optional<std::size_t>(counts.defaulted));

        // Edit the pattern: the count follows.
        const QModelIndex pattern = rulesModel(dialog)->index(0, ProfileRulesModel::PatternColumn);
        rulesTable(dialog)->setCurrentIndex(pattern);
        rulesTable(dialog)->edit(pattern);
        editor = rulesTable(dialog)->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        qobject_cast<QLineEdit*>(editor)->selectAll();
        QTest::keyClicks(editor, QStringLiteral("e"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(rulesModel(dialog)->rules().rules[0].pattern, std::string("e"));
        waitIdle(dialog);
        rules = rulesModel(dialog)->rules();
        counts = expectedCounts(history, rules);
        QVERIFY(counts.per_rule[0] > 1);
        QCOMPARE(rulesModel(dialog)->matches(0), std::optional<std::size_t>(counts.per_rule[0]));

        // A second rule on the user field, and another default profile.
        rulesModel(dialog)->addRule(0);
        QVERIFY(rulesModel(dialog)->setData(rulesModel(dialog)->index(1, ProfileRulesModel::FieldColumn),
                                            QStringLiteral("user")));
        QVERIFY(rulesModel(dialog)->setData(rulesModel(dialog)->index(1, ProfileRulesModel::PatternColumn),
                                            QStringLiteral("^frank$")));
        QVERIFY(rulesModel(dialog)->setData(rulesModel(dialog)->index(1, ProfileRulesModel::ProfileColumn),
                                            QStringLiteral("gpt2")));
        defaultProfileCombo(dialog)->setCurrentText(QStringLiteral("vgg16"));
        waitIdle(dialog);
        rules = rulesModel(dialog)->rules();
        QCOMPARE(rules.default_profile, std::string("vgg16"));
        counts = expectedCounts(history, rules);
        QCOMPARE(rulesModel(dialog)->matches(1), std::optional<std::size_t>(counts.per_rule[1]));
        QCOMPARE(dialog.defaultMatches(), std::optional<std::size_t>(counts.defaulted));
        QVERIFY(defaultMatchesLabel(dialog)->text().startsWith(QString::number(counts.defaulted)));
        // The jobs table shows each job's profile.
        std::size_t gpt2 = 0;
        for (int r = 0; r < jobModel(dialog)->rowCount(); ++r)
            if (jobModel(dialog)->job(r).model == "gpt2") ++gpt2;
        QCOMPARE(gpt2, counts.per_rule[1]);

        // A pattern that is no regular expression blocks the import and says which rule.
        QVERIFY(rulesModel(dialog)->setData(pattern, QStringLiteral("(unclosed")));
        waitIdle(dialog);
        QVERIFY(dialog.rulesError().startsWith(QStringLiteral("Rule 1")));
        QVERIFY(!importButton(dialog)->isEnabled());
        QVERIFY(!dialog.importBlocker().isEmpty());
        QVERIFY(!rulesModel(dialog)->matches(1).has_value());
        QVERIFY(rulesModel(dialog)->setData(pattern, QStringLiteral("^train")));
        waitIdle(dialog);
        QVERIFY(importButton(dialog)->isEnabled());

        // Rules travel as a rule file.
        const QString file = dir.filePath(QStringLiteral("rules.txt"));
        QString error;
        QVERIFY2(dialog.saveRules(file, &error), qPrintable(error));
        rulesModel(dialog)->setRules({});
        QVERIFY2(dialog.loadRules(file, &error), qPrintable(error));
        QCOMPARE(rulesModel(dialog)->rowCount(), 2);
        QCOMPARE(defaultProfileCombo(dialog)->currentText(), QStringLiteral("vgg16"));
        waitIdle(dialog);

        // Keys in the rules table: Insert adds a rule (its pattern open for typing), Delete removes one.
        rulesTable(dialog)->setFocus();
        rulesTable(dialog)->setCurrentIndex(rulesModel(dialog)->index(1, 0));
        QTest::keyClick(rulesTable(dialog), Qt::Key_Insert);
        QCOMPARE(rulesModel(dialog)->rowCount(), 3);
        QTest::keyClick(rulesTable(dialog)->viewport()->findChild<QLineEdit*>(), Qt::Key_Escape);
        QTRY_VERIFY(!rulesTable(dialog)->viewport()->findChild<QLineEdit*>() ||
                    !rulesTable(dialog)->viewport()->findChild<QLineEdit*>()->isVisible());
        rulesTable(dialog)->setFocus();
        QTest::keyClick(rulesTable(dialog), Qt::Key_Delete);
        QCOMPARE(rulesModel(dialog)->rowCount(), 2);
        waitIdle(dialog);

        cl::test::shoot(dialog, shots(), QStringLiteral("slurm_rules.png"),
                        dialog.palette().color(QPalette::Text));

        // Import gives the jobs with their profiles under the chosen name; no cluster.
        dialog.setImportName(QStringLiteral("q3"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const auto trace = dialog.trace();
        QVERIFY(trace);
        QCOMPARE(trace->name, std::string("q3"));
        QCOMPARE(trace->jobs.size(), expected.jobs.size());
        for (const cl::Job& job : trace->jobs) QVERIFY(!job.model.empty());
        QVERIFY(!dialog.cluster().has_value());
        QVERIFY(!dialog.createScenario());
    }

    void nodesMakeTheClusterAndDrainedNodesCanBeLeftOut() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        SlurmImportDialog dialog(&store, &m_builtin);
        const QString nodes = fixture(QStringLiteral("scontrol_nodes_oneliner.txt"));
        dialog.setFileChooser([&](QWidget*, SlurmImportDialog::FileKind kind) {
            return kind == SlurmImportDialog::FileKind::Nodes ? nodes : QString();
        });
        QTest::mouseClick(nodesBrowseButton(dialog), Qt::LeftButton);
        waitIdle(dialog);
        QVERIFY2(dialog.nodesError().isEmpty(), qPrintable(dialog.nodesError()));
        const cl::SlurmNodeInventory inventory = cl::readSlurmNodes(nodes.toStdString());
        const cl::SlurmLayout kept = cl::clusterFromSlurmNodes(inventory, {"x", false});
        const cl::SlurmLayout excluded = cl::clusterFromSlurmNodes(inventory, {"x", true});
        QVERIFY(excluded.excluded_unavailable > 0);
        QCOMPARE(dialog.cluster()->servers.size(), kept.cluster.servers.size());
        std::set<std::string> partitions;  // servers without a partition are a group of their own
        for (const cl::Server& s : kept.cluster.servers) partitions.insert(s.rack);
        QCOMPARE(clusterTree(dialog)->topLevelItemCount(), static_cast<int>(partitions.size()));
        const QString summary = clusterSummaryLabel(dialog)->text();
        QVERIFY(summary.contains(QStringLiteral("CPU-only")) == (kept.cpu_only_nodes > 0));
        QVERIFY(summary.contains(QStringLiteral("Unknown GPU types")) == !kept.unknown_gpu_types.empty());
        QVERIFY(summary.contains(QStringLiteral("kept and marked")));

        QTest::mouseClick(excludeUnavailableBox(dialog), Qt::LeftButton);
        QVERIFY(excludeUnavailableBox(dialog)->isChecked());
        QCOMPARE(dialog.cluster()->servers.size(), excluded.cluster.servers.size());
        QVERIFY(clusterSummaryLabel(dialog)->text().contains(QStringLiteral("excluded")));
        // The cluster takes the name given; nodes alone can be imported.
        dialog.setImportName(QStringLiteral("ours"));
        QCOMPARE(dialog.cluster()->name, std::string("ours"));
        QVERIFY(importButton(dialog)->isEnabled());
        QVERIFY(!dialog.trace());

        // The JSON forms read the same way.
        dialog.setNodesPath(fixture(QStringLiteral("sinfo_nodes_22.05.json")));
        waitIdle(dialog);
        QVERIFY2(dialog.nodesError().isEmpty(), qPrintable(dialog.nodesError()));
        QVERIFY(!dialog.cluster()->servers.empty());
    }

    void errorsNameTheFileAndBlockTheImport() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        SlurmImportDialog dialog(&store, &m_builtin);
        dialog.setNodesPath(fixture(QStringLiteral("scontrol_bad_gres.txt")));
        waitIdle(dialog);
        QVERIFY(dialog.nodesError().contains(QStringLiteral("scontrol_bad_gres.txt")));
        QVERIFY(clusterSummaryLabel(dialog)->text().contains(QStringLiteral("No cluster")));
        QVERIFY(!importButton(dialog)->isEnabled());
        dialog.setNodesPath(QString());
        dialog.setHistoryPath(dir.filePath(QStringLiteral("missing.txt")));
        waitIdle(dialog);
        QVERIFY(dialog.historyError().contains(QStringLiteral("missing.txt")));
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("cannot be imported")));
        QVERIFY(!importButton(dialog)->isEnabled());
        // A time zone that is not one says so, before anything is read.
        dialog.setHistoryPath(fixture(QStringLiteral("sacct_parsable2.txt")));
        dialog.setTimezone(QStringLiteral("Mars/Olympus"));
        waitIdle(dialog);
        QVERIFY(dialog.historyError().startsWith(QStringLiteral("Time zone")));
        dialog.setTimezone(QStringLiteral("+02:00"));
        waitIdle(dialog);
        QVERIFY(dialog.historyError().isEmpty());
        QVERIFY(importButton(dialog)->isEnabled());
        // The JSON form of sacct is detected by its content.
        dialog.setHistoryPath(fixture(QStringLiteral("sacct.json")));
        waitIdle(dialog);
        QVERIFY2(dialog.historyError().isEmpty(), qPrintable(dialog.historyError()));
        QCOMPARE(
            jobModel(dialog)->rowCount(),
            static_cast<int>(cl::readSacct(fixture(QStringLiteral("sacct.json")).toStdString()).jobs.size()));
    }

    void theMainWindowStoresTraceClusterAndScenario() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        auto* dialog = importInFreshWorkspace(window, dir, fixture(QStringLiteral("sacct_parsable2.txt")),
                                              fixture(QStringLiteral("scontrol_nodes_oneliner.txt")));
        QVERIFY(dialog);
        cl::ScenarioStore& store = *window.store();
        waitIdle(*dialog);
        // The trace browser's histograms are a tab of the dialog.
        QCOMPARE(tabs(*dialog)->count(), 5);
        QVERIFY(dialog->createScenario());
        dialog->setImportName(QStringLiteral("our-cluster"));
        dialog->accept();
        QCoreApplication::processEvents();
        bool traceStored = false, clusterStored = false;
        for (const cl::StoredItem& t : store.traces()) traceStored |= t.name == "our-cluster";
        for (const cl::StoredItem& c : store.clusters()) clusterStored |= c.name == "our-cluster";
        QVERIFY(traceStored);
        QVERIFY(clusterStored);
        const auto scenario = store.findScenario("slurm/our-cluster");
        QVERIFY(scenario.has_value());
        QCOMPARE(scenario->spec.policy, std::string("slurm"));
        const QString log = namedChild<QPlainTextEdit>(window, "runLog")->toPlainText();
        QVERIFY(log.contains(QStringLiteral("Created scenario slurm/our-cluster")));
        // sacct names no GPU type for most jobs: they ran on their servers' type, as the CLI says.
        QVERIFY(log.contains(QStringLiteral("without a recorded GPU type ran on A100")));
        const auto stored = store.trace(store.findScenario("slurm/our-cluster")->spec.trace_id);
        QVERIFY(std::all_of(stored.jobs.begin(), stored.jobs.end(),
                            [](const cl::Job& j) { return !j.gpu_type.empty() || j.time_limit <= 0; }));

        // The profiler-trace import is one menu entry away and lands in the Profiles view.
        QVERIFY(window.importProfilerTrace());
    }

    // The saved `scontrol show config` a replay follows: picked with Browse, its settings that
    // differ from Slurm's defaults named in the summary and kept by the scenario the import
    // creates; a file that cannot be read blocks the import, naming the line and the key.
    // A path typed into a field is read once the typing pauses (no Enter or Tab needed), and the
    // jobs' submit times are shown in UTC, so the time zone visibly moves them.
    void aTypedPathIsReadAndSubmitTimesAreInUtc() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        store.putProfiles(m_builtin);
        SlurmImportDialog dialog(&store, &m_builtin);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto* historyField = namedChild<QLineEdit>(dialog, "historyPath");
        historyField->setFocus();
        QTest::keyClicks(historyField, fixture(QStringLiteral("sacct_parsable2.txt")));
        QVERIFY(dialog.isBusy());
        QVERIFY(!importButton(dialog)->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(dialog.history().has_value(), kTimeoutMs);
        waitIdle(dialog);
        QVERIFY(historyField->hasFocus());
        QVERIFY2(importButton(dialog)->isEnabled(), qPrintable(dialog.importBlocker()));
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("jobs</b> kept")));

        // The file's times are the cluster's local time; in UTC they show as written.
        SlurmJobTableModel& jobs = *jobModel(dialog);
        const int submitColumn = SlurmJobTableModel::SubmitColumn;
        QCOMPARE(jobs.headerData(submitColumn, Qt::Horizontal).toString(), QStringLiteral("Submitted (UTC)"));
        QCOMPARE(jobs.data(jobs.index(0, submitColumn)).toString(), QStringLiteral("2024-03-01 10:00:00"));
        dialog.setTimezone(QStringLiteral("+02:00"));
        waitIdle(dialog);
        QCOMPARE(jobs.data(jobs.index(0, submitColumn)).toString(), QStringLiteral("2024-03-01 08:00:00"));
        QVERIFY(jobs.data(jobs.index(0, submitColumn), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("after")));

        // A typed nodes path too; a path that does not exist names itself.
        auto* nodesField = namedChild<QLineEdit>(dialog, "nodesPath");
        nodesField->setFocus();
        QTest::keyClicks(nodesField, dir.filePath(QStringLiteral("missing.txt")));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.nodesError().isEmpty(), kTimeoutMs);
        QVERIFY2(dialog.nodesError().contains(QStringLiteral("missing.txt")),
                 qPrintable(dialog.nodesError()));
        QVERIFY(!importButton(dialog)->isEnabled());
    }

    void theSlurmConfigurationGoesWithTheScenario() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        auto* dialog = importInFreshWorkspace(window, dir, fixture(QStringLiteral("fidelity/sacct.txt")),
                                              fixture(QStringLiteral("fidelity/nodes.txt")));
        QVERIFY(dialog);
        cl::ScenarioStore& store = *window.store();
        waitIdle(*dialog);
        // A path typed and Enter pressed is read; Enter does not also press Import.
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto* configField = namedChild<QLineEdit>(*dialog, "slurmConfigPath");
        configField->setFocus();
        QTest::keyClicks(configField, fixture(QStringLiteral("fidelity/config.txt")));
        QTest::keyClick(configField, Qt::Key_Return);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->result(), int(QDialog::Rejected));
        QVERIFY(!dialog->slurmParameters().empty());
        QVERIFY(!store.findScenario("slurm/sacct").has_value());
        QString config = fixture(QStringLiteral("fidelity/bad_config.txt"));
        dialog->setFileChooser([&](QWidget*, SlurmImportDialog::FileKind kind) {
            return kind == SlurmImportDialog::FileKind::SlurmConfig ? config : QString();
        });
        QTest::mouseClick(slurmConfigBrowseButton(*dialog), Qt::LeftButton);
        QVERIFY(dialog->slurmConfigError().contains(QStringLiteral("bad_config.txt:3")));
        QVERIFY(dialog->slurmConfigError().contains(QStringLiteral("PriorityWeightAge")));
        QVERIFY(!importButton(*dialog)->isEnabled());
        QVERIFY(summaryLabel(*dialog)->text().contains(QStringLiteral("cannot be read")));

        config = fixture(QStringLiteral("fidelity/config.txt"));
        QTest::mouseClick(slurmConfigBrowseButton(*dialog), Qt::LeftButton);
        QVERIFY2(dialog->slurmConfigError().isEmpty(), qPrintable(dialog->slurmConfigError()));
        const std::vector<std::string> expected =
            cl::slurmParameters(cl::readSlurmConfig(config.toStdString()));
        QCOMPARE(dialog->slurmParameters(), expected);
        QVERIFY(std::find(expected.begin(), expected.end(), "bf_interval=1") != expected.end());
        QVERIFY(summaryLabel(*dialog)->text().contains(QStringLiteral("bf_interval=1")));
        QVERIFY(importButton(*dialog)->isEnabled());
        dialog->setImportName(QStringLiteral("site"));
        dialog->accept();
        QCoreApplication::processEvents();
        const auto scenario = store.findScenario("slurm/site");
        QVERIFY(scenario.has_value());
        QCOMPARE(scenario->spec.parameters.slurm_parameters, expected);
    }

    void jobsThatNeverFitAndThePartitionFile() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        store.putProfiles(m_builtin);
        SlurmImportDialog dialog(&store, &m_builtin);
        const QString history = fixture(QStringLiteral("never_fit/sacct.txt"));
        const QString nodes = fixture(QStringLiteral("never_fit/nodes.txt"));
        const QString partitions = fixture(QStringLiteral("never_fit/partitions.txt"));
        dialog.setFileChooser([&](QWidget*, SlurmImportDialog::FileKind kind) {
            return kind == SlurmImportDialog::FileKind::Partitions ? partitions : QString();
        });
        dialog.setImportName(QStringLiteral("nf"));
        dialog.setHistoryPath(history);
        dialog.setNodesPath(nodes);
        waitIdle(dialog);
        QVERIFY2(dialog.historyError().isEmpty(), qPrintable(dialog.historyError()));
        QVERIFY2(dialog.nodesError().isEmpty(), qPrintable(dialog.nodesError()));

        // The 32-GPU job on the 16-GPU node: named, with core's reason, in the line under the
        // summary and as its row's tooltip in the job table.
        std::vector<std::string> expected = expectedNeverFits(history, nodes, "nf");
        QCOMPARE(
            std::count_if(expected.begin(), expected.end(), [](const std::string& r) { return !r.empty(); }),
            1);
        const auto big =
            std::find_if(expected.begin(), expected.end(), [](const std::string& r) { return !r.empty(); });
        const int bigRow = static_cast<int>(big - expected.begin());
        QVERIFY(dialog.fitCheck().has_value());
        QCOMPARE(dialog.fitCheck()->never_fit, std::size_t(1));
        QVERIFY(dialog.fitError().isEmpty());
        QVERIFY(neverFitLabel(dialog)->isVisibleTo(&dialog));
        const QString line = neverFitLabel(dialog)->text();
        QVERIFY2(line.contains(QStringLiteral("1 job can never run on this cluster")), qPrintable(line));
        QVERIFY2(line.contains(QString::fromStdString(*big).toHtmlEscaped()), qPrintable(line));
        QVERIFY(neverFitLabel(dialog)->toolTip().contains(QString::fromStdString(*big)));
        QCOMPARE(jobModel(dialog)->job(bigRow).gpus, 32);
        QCOMPARE(jobModel(dialog)->neverFits(bigRow), QString::fromStdString(*big));
        const QModelIndex bigId = jobModel(dialog)->index(bigRow, SlurmJobTableModel::IdColumn);
        QVERIFY(!jobModel(dialog)->data(bigId, Qt::DecorationRole).isNull());
        QVERIFY(jobModel(dialog)
                    ->data(jobModel(dialog)->index(bigRow, SlurmJobTableModel::NameColumn), Qt::ToolTipRole)
                    .toString()
                    .contains(QString::fromStdString(*big)));
        for (int r = 0; r < jobModel(dialog)->rowCount(); ++r)
            if (r != bigRow) {
                QVERIFY(jobModel(dialog)->neverFits(r).isEmpty());
                QVERIFY(jobModel(dialog)->data(jobModel(dialog)->index(r, 0), Qt::DecorationRole).isNull());
            }
        // Such jobs are left out of a run, not a reason to refuse the import.
        QVERIFY2(importButton(dialog)->isEnabled(), qPrintable(dialog.importBlocker()));

        // The partition file, picked as a user does: its partitions and attributes win.
        QTest::mouseClick(partitionsBrowseButton(dialog), Qt::LeftButton);
        QCOMPARE(dialog.partitionsPath(), partitions);
        waitIdle(dialog);
        QVERIFY2(dialog.partitionsError().isEmpty(), qPrintable(dialog.partitionsError()));
        const std::optional<cl::Cluster> cluster = dialog.cluster();
        QVERIFY(cluster.has_value());
        QCOMPARE(cluster->partitions.size(), std::size_t(2));
        QCOMPARE(cluster->partitions[1].name, std::string("long"));
        QCOMPARE(cluster->partitions[1].priority_tier, 0);
        QCOMPARE(cluster->partitions[1].max_time, 86400.0);
        QVERIFY(cluster->partitions[0].is_default);
        QCOMPARE(cluster->servers[0].partitions, (std::vector<std::string>{"debug", "long"}));
        QVERIFY(clusterSummaryLabel(dialog)->text().contains(QStringLiteral("long")));
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("partitions.txt")));
        expected = expectedNeverFits(history, nodes, "nf", partitions);
        QCOMPARE(dialog.fitCheck()->reasons, expected);
        QVERIFY(importButton(dialog)->isEnabled());
        QVERIFY(dialog.createScenario());
        // The scenario is Slurm's replay, and the checkbox says so.
        QVERIFY(createScenarioBox(dialog)->text().contains(QStringLiteral("policy slurm")));
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("Replay page")));

        dialog.resize(1300, 760);
        dialog.show();
        QCoreApplication::processEvents();
        cl::test::shoot(dialog, shots(), QStringLiteral("slurm_never_fit.png"),
                        dialog.palette().color(QPalette::Text));

        // A partition file that cannot be read names file, line and field, and blocks the import.
        const QString bad = dir.filePath(QStringLiteral("bad_partitions.txt"));
        {
            QFile file(bad);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("PartitionName=debug PriorityTier=high Nodes=clnode1\n");
        }
        dialog.setPartitionsPath(bad);
        waitIdle(dialog);
        QVERIFY2(dialog.partitionsError().contains(QStringLiteral("bad_partitions.txt:1")),
                 qPrintable(dialog.partitionsError()));
        QVERIFY(dialog.partitionsError().contains(QStringLiteral("PriorityTier")));
        QVERIFY(!importButton(dialog)->isEnabled());
        QVERIFY(summaryLabel(dialog)->text().contains(QStringLiteral("cannot be imported")));
        // Partitions without nodes have nothing to lay over.
        dialog.setPartitionsPath(partitions);
        dialog.setNodesPath(QString());
        waitIdle(dialog);
        QVERIFY(!importButton(dialog)->isEnabled());
        QVERIFY(dialog.importBlocker().contains(QStringLiteral("nodes")));
        QVERIFY(!neverFitLabel(dialog)->isVisibleTo(&dialog));
    }

    void aPartitionTheClusterLacksBlocksTheImport() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        SlurmImportDialog dialog(&store, &m_builtin);
        dialog.setHistoryPath(fixture(QStringLiteral("never_fit/sacct_unknown_partition.txt")));
        dialog.setNodesPath(fixture(QStringLiteral("never_fit/nodes.txt")));
        dialog.setPartitionsPath(fixture(QStringLiteral("never_fit/partitions.txt")));
        waitIdle(dialog);
        QVERIFY2(dialog.fitError().contains(QStringLiteral("'bigmem'")), qPrintable(dialog.fitError()));
        QVERIFY(dialog.fitError().contains(QStringLiteral("sacct_unknown_partition.txt")));
        QVERIFY(dialog.fitError().contains(QStringLiteral("partitions.txt")));
        QVERIFY(!importButton(dialog)->isEnabled());
        QVERIFY(importButton(dialog)->toolTip().contains(QStringLiteral("partition")));
        QVERIFY(neverFitLabel(dialog)->isVisibleTo(&dialog));
        QVERIFY(neverFitLabel(dialog)->text().contains(QStringLiteral("bigmem")));
        // The history alone can still be imported.
        dialog.setPartitionsPath(QString());
        dialog.setNodesPath(QString());
        waitIdle(dialog);
        QVERIFY(dialog.fitError().isEmpty());
        QVERIFY2(importButton(dialog)->isEnabled(), qPrintable(dialog.importBlocker()));
    }

    void theImportedScenarioReplaysAndLeavesOutWhatNeverFits() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        auto* dialog = importInFreshWorkspace(window, dir, fixture(QStringLiteral("never_fit/sacct.txt")),
                                              fixture(QStringLiteral("never_fit/nodes.txt")));
        QVERIFY(dialog);
        cl::ScenarioStore& store = *window.store();
        dialog->setPartitionsPath(fixture(QStringLiteral("never_fit/partitions.txt")));
        waitIdle(*dialog);
        QCOMPARE(dialog->fitCheck()->never_fit, std::size_t(1));
        QVERIFY(dialog->createScenario());
        dialog->setImportName(QStringLiteral("nf"));
        dialog->accept();
        QCoreApplication::processEvents();
        const auto scenario = store.findScenario("slurm/nf");
        QVERIFY(scenario.has_value());
        QCOMPARE(scenario->spec.policy, std::string("slurm"));
        const QString log = namedChild<QPlainTextEdit>(window, "runLog")->toPlainText();
        QVERIFY(log.contains(QStringLiteral("Replay page")));

        // The scenario runs: the job that can never fit is left out, named; the others run.
        const cl::RunOutcome outcome = cl::runScenario(store, "slurm/nf");
        QCOMPARE(outcome.info.status, cl::RunStatus::Finished);
        const cl::SimResult result = store.loadRun(outcome.run_id, false);
        QCOMPARE(result.left_out.size(), std::size_t(1));
        QCOMPARE(result.left_out[0].id, std::string("7"));
    }

    void darkThemeShot() {
        applyTheme(Theme::Dark);
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
        SlurmImportDialog dialog(&store, &m_builtin);
        dialog.setNodesPath(fixture(QStringLiteral("scontrol_nodes_oneliner.txt")));
        dialog.setHistoryPath(fixture(QStringLiteral("sacct_parsable2.txt")));
        waitIdle(dialog);
        tabs(dialog)->setCurrentIndex(SlurmImportDialog::ClusterTab);
        dialog.resize(1300, 760);
        dialog.show();
        QCoreApplication::processEvents();
        cl::test::shoot(dialog, shots(), QStringLiteral("slurm_cluster_dark.png"),
                        dialog.palette().color(QPalette::Text));
        applyTheme(Theme::Light);
    }

private:
    cl::ProfileSet m_builtin;
};

QTEST_MAIN(TestSlurmImportDialog)
#include "test_slurm_import_dialog.moc"
