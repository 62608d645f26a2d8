// The visual cluster editor driven offscreen: add/duplicate/remove with exact undo and redo,
// multi-edits in the properties panel as one undo step, validation messages that leave the
// cluster alone, totals, JSON export through the core reader, signals and the diagram; Slurm
// partitions edited in a server's field and in the partitions table, with undo.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QImage>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include "named_child.h"
#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/model/server_architecture.h"
#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"
#include "views/cluster/cluster_diagram.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/cluster_totals_bar.h"
#include "views/cluster/cluster_tree_model.h"
#include "views/cluster/partition_table_model.h"
#include "views/cluster/partitions_panel.h"
#include "views/cluster/server_properties_panel.h"
#include "views/cluster/server_types.h"
#include "views/cluster/topology_dialog.h"
#include "views/common/app_theme.h"
#include "views/common/english_plurals.h"

#include <QComboBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>

using cl::views::ClusterDocument;
using cl::views::ClusterEditor;
using cl::views::ClusterTotalsBar;
using Field = cl::views::ServerPropertiesPanel::Field;

Q_DECLARE_METATYPE(Field)

namespace {

// A part of a widget, found by its objectName.
cl::views::ServerPropertiesPanel* panelOf(const ClusterEditor& editor) {
    return namedChild<cl::views::ServerPropertiesPanel>(editor, "serverProperties");
}

ClusterTotalsBar* totalsOf(const ClusterEditor& editor) {
    return namedChild<ClusterTotalsBar>(editor, "clusterTotals");
}

cl::views::ClusterTreeModel* treeModelOf(const ClusterEditor& editor) {
    return namedChild<cl::views::ClusterTreeModel>(editor, "clusterTreeModel");
}

// Exact contents, every field of every server, in order.
std::string contents(const cl::Cluster& c) {
    return cl::layoutJsonText(c);
}

QStringList names(const cl::Cluster& c) {
    QStringList out;
    for (const cl::Server& s : c.servers) out << QString::fromStdString(s.name);
    return out;
}

cl::Server preset(const char* id) {
    const cl::views::ServerType* p = cl::views::findServerType(QString::fromLatin1(id));
    Q_ASSERT(p);
    return p->server;
}

// Two racks and an unracked server with differing CPU cores, for mixed values.
cl::Cluster mixedCluster() {
    cl::Cluster c;
    c.name = "mixed";
    for (int i = 0; i < 4; ++i) {
        cl::Server s;
        s.name = "n" + std::to_string(i);
        s.rack = i < 2 ? "r0" : "r1";
        s.cpu_cores = 24 + 8 * i;
        c.servers.push_back(s);
    }
    cl::Server loose;
    loose.name = "loose";
    c.servers.push_back(loose);
    return c;
}

// mixedCluster() with Slurm partitions: gpu (PriorityTier 2, MaxTime 2 h) holds n0..n2, debug
// holds n2 and n3; the loose server is in none.
cl::Cluster partitionedCluster() {
    cl::Cluster c = mixedCluster();
    c.partitions = {{"gpu", 2, 7200.0, false}, {"debug", 1, 0.0, false}};
    c.servers[0].partitions = {"gpu"};
    c.servers[1].partitions = {"gpu"};
    c.servers[2].partitions = {"gpu", "debug"};
    c.servers[3].partitions = {"debug"};
    return c;
}

std::vector<std::string> partitionNames(const cl::Cluster& c) {
    std::vector<std::string> out;
    for (const cl::Partition& p : c.partitions) out.push_back(p.name);
    return out;
}

using Names = std::vector<std::string>;

// Types `text` over the whole content of a line edit, as a user would.
void typeOver(QLineEdit* edit, const QString& text) {
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
}

// The delegate commits an Enter in a queued call, then deletes the editor later.
void finishEditing() {
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

// Edits a cell of the partitions table with the keyboard: F2, the text, Enter.
bool editCell(QTableView* table, int row, int column, const QString& text) {
    table->setCurrentIndex(table->model()->index(row, column));
    QTest::keyClick(table, Qt::Key_F2);
    auto* editor = table->viewport()->findChild<QLineEdit*>();
    if (!editor) return false;
    typeOver(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    finishEditing();
    return table->viewport()->findChild<QLineEdit*>() == nullptr;
}

// The menu of the toolbar's Add server button (its arrow), as a user opens it.
QMenu* addServerMenu(const ClusterEditor& editor) {
    for (auto* button : editor.findChildren<QToolButton*>())
        if (button->popupMode() == QToolButton::MenuButtonPopup && button->menu()) return button->menu();
    return nullptr;
}

// Chooses the server type whose menu entry starts with `label`.
void triggerPreset(QMenu& menu, const QString& label) {
    for (QAction* action : menu.actions())
        if (action->text().startsWith(label) || action->text().contains(label)) {
            action->trigger();
            return;
        }
    QFAIL(qPrintable(QStringLiteral("no server type %1 in the Add server menu").arg(label)));
}

}  // namespace

class TestClusterEditor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void addServersUndoRedoRestoresExactContents() {
        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        QVERIFY(!editor.isModified());
        const std::string before = contents(editor.cluster());

        editor.addServers(preset("dgx-a100"), 4);
        const cl::Cluster added = editor.cluster();
        QCOMPARE(static_cast<int>(added.servers.size()), 12);
        // Another GPU type than the V100s: a rack and names of its own.
        QCOMPARE(names(added).mid(8), (QStringList{"a100-01", "a100-02", "a100-03", "a100-04"}));
        for (int i = 8; i < 12; ++i) {
            QCOMPARE(added.servers[i].rack, std::string("rack1"));
            QCOMPARE(added.servers[i].gpu_type, std::string("A100"));
            QCOMPARE(added.servers[i].cpu_cores, 128);
        }
        QCOMPARE(editor.selectedServers(), (QList<int>{8, 9, 10, 11}));
        QCOMPARE(editor.undoStack()->undoText(), QString("Add 4 servers"));
        QVERIFY(editor.isModified());

        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);
        QVERIFY(!editor.isModified());
        QVERIFY(editor.selectedServers().isEmpty());
        editor.undoStack()->redo();
        QCOMPARE(contents(editor.cluster()), contents(added));

        // Names continue the pattern past the highest number, also for a single server; a V100
        // added while A100s are selected joins the V100s.
        editor.addServers(preset("v100x8"));
        QCOMPARE(editor.cluster().servers[8].name, std::string("node8"));
        QCOMPARE(editor.cluster().servers[8].rack, std::string("rack0"));
        QCOMPARE(editor.undoStack()->undoText(), QString("Add server 'node8'"));
    }

    // A server of another type than the selected one is named after its type and goes where that
    // type's servers are (a rack of its own for the first), through the toolbar as a user adds it.
    void anotherGpuTypeGetsItsOwnRackAndNames() {
        ClusterEditor editor;
        cl::Cluster cluster = cl::builtinCluster("muri-testbed-64");
        for (std::size_t i = 0; i < cluster.servers.size(); ++i)
            cluster.servers[i].name =
                QStringLiteral("gpu-v%1").arg(i + 1, 2, 10, QLatin1Char('0')).toStdString();
        editor.setCluster(cluster);
        editor.selectServers({1});
        QMenu* menu = addServerMenu(editor);
        QVERIFY(menu);
        triggerPreset(*menu, QStringLiteral("DGX H100"));
        const cl::Server first = editor.cluster().servers.back();
        QCOMPARE(first.gpu_type, std::string("H100"));
        QCOMPARE(first.name, std::string("h100-01"));
        QCOMPARE(first.rack, std::string("rack1"));
        editor.selectServers({2});
        triggerPreset(*menu, QStringLiteral("DGX H100"));
        QCOMPARE(editor.cluster().servers.back().name, std::string("h100-02"));
        QCOMPARE(editor.cluster().servers.back().rack, std::string("rack1"));
        cl::views::installEnglishPlurals(*QCoreApplication::instance());
        QCOMPARE(editor.diagram()->rackTitle("rack1", editor.cluster(), {8}),
                 QStringLiteral("rack1 · 1 server · 8 GPUs"));
        QCOMPARE(editor.diagram()->rackTitle("rack1", editor.cluster(), {8, 9}),
                 QStringLiteral("rack1 · 2 servers · 16 GPUs"));
        // The selected server's type continues its own rack and names.
        triggerPreset(*menu, QStringLiteral("8× V100 server"));
        QCOMPARE(editor.cluster().servers[8].name, std::string("gpu-v09"));
        QCOMPARE(editor.cluster().servers[8].rack, std::string("rack0"));
    }

    void addRackFollowsNamingPattern() {
        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("large-2048"));
        editor.addRack();
        const cl::Server& s = editor.cluster().servers.back();
        QCOMPARE(s.rack, std::string("rack16"));
        QCOMPARE(s.name, std::string("rack16-node0"));
        QCOMPARE(editor.undoStack()->undoText(), QString("Add rack 'rack16'"));
        QCOMPARE(editor.diagram()->rackItemCount(), 17);

        ClusterEditor empty;
        empty.addRack();
        QCOMPARE(empty.cluster().servers.size(), std::size_t(1));
        QCOMPARE(empty.cluster().servers[0].rack, std::string("rack-1"));
        QCOMPARE(empty.cluster().servers[0].name, std::string("server-1"));
        QVERIFY(empty.validationError().isEmpty());
    }

    void duplicateSelected() {
        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        const std::string before = contents(editor.cluster());
        editor.selectServers({1, 3});
        editor.duplicateSelected();
        const cl::Cluster c = editor.cluster();
        QCOMPARE(static_cast<int>(c.servers.size()), 10);
        // Each copy right after its original, with a fresh name and the same hardware.
        QCOMPARE(names(c), (QStringList{"node0", "node1", "node8", "node2", "node3", "node9", "node4",
                                        "node5", "node6", "node7"}));
        QCOMPARE(c.servers[2].cpu_cores, c.servers[1].cpu_cores);
        QCOMPARE(editor.selectedServers(), (QList<int>{2, 5}));
        QCOMPARE(editor.undoStack()->undoText(), QString("Duplicate 2 servers"));
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);
        QCOMPARE(editor.selectedServers(), (QList<int>{1, 3}));
    }

    void removeMultiSelection() {
        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        const std::string before = contents(editor.cluster());
        editor.selectServers({0, 2, 5});
        editor.removeSelected();
        QCOMPARE(names(editor.cluster()), (QStringList{"node1", "node3", "node4", "node6", "node7"}));
        QVERIFY(editor.selectedServers().isEmpty());
        QCOMPARE(editor.undoStack()->undoText(), QString("Remove 3 servers"));
        QCOMPARE(editor.diagram()->serverItemCount(), 5);
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);
        QCOMPARE(editor.selectedServers(), (QList<int>{0, 2, 5}));
        QCOMPARE(editor.diagram()->serverItemCount(), 8);

        // Removing everything is allowed; saving is not.
        editor.selectServers({0, 1, 2, 3, 4, 5, 6, 7});
        editor.removeSelected();
        QVERIFY(editor.cluster().servers.empty());
        QVERIFY(editor.validationError().contains("at least one server"));
        QString error;
        QTemporaryDir dir;
        QVERIFY(!editor.exportJson(dir.filePath("empty.json"), &error));
        QVERIFY2(error.contains("at least one server"), qPrintable(error));
        QVERIFY(!QFile::exists(dir.filePath("empty.json")));
    }

    void removeRackOfSelection() {
        ClusterEditor editor;
        editor.setCluster(mixedCluster());
        editor.selectServers({2});
        editor.removeSelectedRacks();
        QCOMPARE(names(editor.cluster()), (QStringList{"n0", "n1", "loose"}));
        QCOMPARE(editor.undoStack()->undoText(), QString("Remove rack 'r1'"));
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), contents(mixedCluster()));
    }

    void panelMultiEditIsOneUndoStep() {
        ClusterEditor editor;
        editor.setCluster(mixedCluster());
        auto* panel = panelOf(editor);
        editor.selectServers({0, 1, 2});
        QVERIFY(panel->isMixed(Field::CpuCores));
        QCOMPARE(panel->text(Field::CpuCores), QString());
        QVERIFY(!panel->isMixed(Field::Gpus));
        QCOMPARE(panel->text(Field::Gpus), QString("8"));
        QVERIFY(!namedChild<QLineEdit>(*panel, "serverName")->isEnabled());  // no renaming of several servers

        const int steps = editor.undoStack()->count();
        panel->setText(Field::Gpus, "4");
        panel->setText(Field::Memory, "256");
        QVERIFY(panel->hasChanges());
        QVERIFY(panel->apply());
        QCOMPARE(editor.undoStack()->count(), steps + 1);
        QCOMPARE(editor.undoStack()->undoText(), QString("Change GPU count and DRAM of 3 servers"));
        const cl::Cluster c = editor.cluster();
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(c.servers[i].gpus, 4);
            QCOMPARE(c.servers[i].memory_gb, 256.0);
            QCOMPARE(c.servers[i].cpu_cores, 24 + 8 * i);  // the mixed field kept per server
        }
        QCOMPARE(c.servers[3].gpus, 8);
        // The panel shows the applied values and the selection survives the redraw.
        QCOMPARE(panel->text(Field::Gpus), QString("4"));
        QCOMPARE(editor.selectedServers(), (QList<int>{0, 1, 2}));

        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), contents(mixedCluster()));
        QCOMPARE(panel->text(Field::Gpus), QString("8"));

        // One field on one server reads well in the Edit menu too; so does a rename.
        editor.selectServers({3});
        panel->setText(Field::GpuType, "H100");
        QVERIFY(panel->apply());
        QCOMPARE(editor.undoStack()->undoText(), QString("Change GPU type of 'n3'"));
        panel->setText(Field::Name, "big-one");
        QVERIFY(panel->apply());
        QCOMPARE(editor.undoStack()->undoText(), QString("Rename 'n3' to 'big-one'"));
        QCOMPARE(editor.cluster().servers[3].name, std::string("big-one"));

        // A setting a mixed field on a multi-selection makes it uniform.
        editor.selectServers({0, 1, 2});
        panel->setText(Field::CpuCores, "64");
        QVERIFY(panel->apply());
        QCOMPARE(editor.undoStack()->undoText(), QString("Change CPU cores of 3 servers"));
        QVERIFY(!panel->isMixed(Field::CpuCores));
    }

    void validationErrors_data() {
        QTest::addColumn<Field>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("GPU count 0") << Field::Gpus << "0"
                                     << "GPU count must be a whole number from 1 to 64";
        QTest::newRow("GPU count 65") << Field::Gpus << "65"
                                      << "GPU count must be";
        QTest::newRow("GPU count fractional") << Field::Gpus << "2.5"
                                              << "whole number";
        QTest::newRow("negative DRAM") << Field::Memory << "-5"
                                       << "DRAM must be a number above 0";
        QTest::newRow("huge DRAM") << Field::Memory << "70000"
                                   << "at most 65536 GB";
        QTest::newRow("GPU memory 0") << Field::GpuMemory << "0"
                                      << "GPU memory must be";
        QTest::newRow("CPU cores 2000") << Field::CpuCores << "2000"
                                        << "CPU cores must be a whole number from 1 to 1024";
        QTest::newRow("NIC not a number") << Field::Network << "fast"
                                          << "NIC bandwidth must be";
        QTest::newRow("NIC too fast") << Field::Network << "20000"
                                      << "at most 10000 Gb/s";
        QTest::newRow("duplicate name") << Field::Name << "n1"
                                        << "Another server is already named 'n1'";
        QTest::newRow("empty name") << Field::Name << ""
                                    << "Enter a server name";
        QTest::newRow("empty GPU type") << Field::GpuType << " "
                                        << "Enter a GPU type";
    }

    void validationErrors() {
        QFETCH(Field, field);
        QFETCH(QString, text);
        QFETCH(QString, message);
        ClusterEditor editor;
        editor.setCluster(mixedCluster());
        editor.selectServers({0});
        auto* panel = panelOf(editor);
        const std::string before = contents(editor.cluster());
        const int steps = editor.undoStack()->count();

        panel->setText(Field::Gpus, "2");  // a valid change alongside must not slip through
        panel->setText(field, text);
        QVERIFY2(panel->fieldError(field).contains(message), qPrintable(panel->fieldError(field)));
        QVERIFY(!panel->apply());
        QVERIFY2(panel->errorText().contains(message), qPrintable(panel->errorText()));
        QCOMPARE(contents(editor.cluster()), before);
        QCOMPARE(editor.undoStack()->count(), steps);
        QVERIFY(!editor.isModified());

        // Revert drops the edits and their messages.
        panel->revert();
        QVERIFY(panel->fieldError(field).isEmpty());
    }

    void documentRefusesInvalidEdits() {
        ClusterDocument doc;
        doc.setCluster(mixedCluster());
        cl::views::ServerChanges c;
        c.gpus = 0;
        QString error;
        QVERIFY(!doc.setServerProperties({0, 1}, c, &error));
        QVERIFY2(error.contains("GPU count must be from 1 to 64 (is 0)"), qPrintable(error));
        c = {};
        c.name = "n2";
        QVERIFY(!doc.setServerProperties({0}, c, &error));
        QVERIFY(error.contains("already named 'n2'"));
        QVERIFY(!doc.setServerProperties({0, 1}, c, &error));
        QVERIFY(error.contains("single server"));
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(contents(doc.cluster()), contents(mixedCluster()));
    }

    void totalsForPreset() {
        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        QCOMPARE(totalsOf(editor)->totalsText(),
                 QString("8 servers · 1 rack · 64 GPUs: 64 V100 · CPU:GPU 11.5:1 · DRAM/GPU 65 GB · "
                         "GPU memory 2 TB"));
        editor.selectServers({0, 1, 2});
        QCOMPARE(totalsOf(editor)->selectionText(), QString("Selected: 3 servers, 24 GPUs"));
        editor.selectServers({});
        editor.addServers(preset("t4x4"), 3);
        QCOMPARE(totalsOf(editor)->totalsText(),
                 QString("11 servers · 2 racks · 76 GPUs: 12 T4, 64 V100 · CPU:GPU 10.9:1 · DRAM/GPU 62 GB · "
                         "GPU memory 2.2 TB"));
    }

    // Numbers read as a reader expects them: an imported node's 2,014.648438 GB of DRAM shows
    // as 2014.6, and leaving the field as it is keeps the exact value. Counted texts are English.
    void numbersAndCountsReadNaturally() {
        ClusterEditor editor;
        cl::Cluster cluster = cl::builtinCluster("muri-testbed-64");
        cluster.servers[0].memory_gb = 2014.648438;
        cluster.servers[0].price.basis = cl::PriceBasis::Hourly;
        cluster.servers[0].price.per_hour = 13.25;
        editor.setCluster(cluster);
        editor.selectServers({0});
        QCOMPARE(panelOf(editor)->text(Field::Memory), QStringLiteral("2014.6"));
        QCOMPARE(panelOf(editor)->text(Field::PricePerHour), QStringLiteral("13.25"));
        QCOMPARE(panelOf(editor)->text(Field::GpuMemory), QStringLiteral("32"));
        panelOf(editor)->setText(Field::Network, "25");
        QVERIFY(panelOf(editor)->apply());
        QCOMPARE(editor.cluster().servers[0].memory_gb, 2014.648438);
        QCOMPARE(editor.cluster().servers[0].network_gbps, 25.0);

        QCOMPARE(cl::views::EnglishPlurals::resolve(QStringLiteral("%n server(s)"), 1),
                 QStringLiteral("%n server"));
        QCOMPARE(cl::views::EnglishPlurals::resolve(QStringLiteral("%n server(s)"), 0),
                 QStringLiteral("%n servers"));
        cl::views::installEnglishPlurals(*QCoreApplication::instance());
        cl::views::installEnglishPlurals(*QCoreApplication::instance());  // once is enough
        QCOMPARE(QCoreApplication::instance()->findChildren<cl::views::EnglishPlurals*>().size(), 1);
        QCOMPARE(QObject::tr("%n server(s)", nullptr, 1), QStringLiteral("1 server"));
        QCOMPARE(QObject::tr("%n GPU(s) in %1", nullptr, 8).arg(QStringLiteral("rack0")),
                 QStringLiteral("8 GPUs in rack0"));
    }

    void exportRoundTripsThroughCoreReader() {
        ClusterEditor editor;
        editor.setCluster(mixedCluster());
        editor.addServers(preset("t4x4"), 2);
        editor.selectServers({0});
        panelOf(editor)->setText(Field::GpuMemory, "40.5");
        QVERIFY(panelOf(editor)->apply());
        QTemporaryDir dir;
        const QString path = dir.filePath("edited.json");
        QString error;
        QVERIFY2(editor.exportJson(path, &error), qPrintable(error));
        const cl::Cluster back = cl::readLayoutJson(path.toStdString());
        QCOMPARE(contents(back), contents(editor.cluster()));
        QCOMPARE(back.servers[0].gpu_memory_gb, 40.5);
        // Nothing left beside the file by the atomic write.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"edited.json"});
        QVERIFY(!editor.exportJson(dir.filePath("missing/x.json"), &error));
        QVERIFY(!error.isEmpty());
    }

    void architecturePresetIsOneUndoStep() {
        ClusterEditor editor;
        editor.setCluster(mixedCluster());
        const std::string before = contents(editor.cluster());
        auto* panel = panelOf(editor);
        editor.selectServers({0, 1});
        QCOMPARE(panel->architectureText(), QString());  // not described
        QComboBox* combo = namedChild<QComboBox>(*panel, "serverArchitecture");
        QCOMPARE(combo->count(), 5);
        QCOMPARE(combo->itemText(0), QString("not described"));
        QCOMPARE(combo->itemText(1), QString("power8-4gpu"));
        QVERIFY(!combo->itemData(2, Qt::ToolTipRole).toString().isEmpty());

        combo->setCurrentIndex(combo->findData(QString("dgx1-8gpu")));
        QCOMPARE(editor.undoStack()->count(), 1);
        QCOMPARE(editor.undoStack()->undoText(), QString("Change architecture of 2 servers"));
        const cl::Cluster now = editor.cluster();  // by value: keep it alive for the references
        for (int i : {0, 1}) {
            const cl::Server& s = now.servers[static_cast<std::size_t>(i)];
            QCOMPARE(s.gpus, 8);
            QCOMPARE(s.cpu_cores, 32);  // agrees with 2 sockets x 16 cores
            QCOMPARE(s.architecture, cl::architecturePreset("dgx1-8gpu").architecture);
        }
        QCOMPARE(editor.cluster().servers[2].cpu_cores, 40);  // not selected, untouched
        QCOMPARE(panel->text(Field::CpuCores), QString("32"));
        QCOMPARE(panel->architectureText(), QString("dgx1-8gpu"));
        // The tree shows the new internals.
        const QModelIndex server = treeModelOf(editor)->serverIndex(0);
        QCOMPARE(treeModelOf(editor)->rowCount(server), 2);

        editor.selectServers({1, 2});
        QCOMPARE(panel->architectureText(), QString("(mixed)"));
        QCOMPARE(combo->currentIndex(), -1);

        // A GPU count that no longer fits the architecture drops it.
        editor.selectServers({0});
        panel->setText(Field::Gpus, "4");
        QVERIFY(panel->apply());
        QVERIFY(!editor.cluster().servers[0].architecture.described());
        QCOMPARE(panel->architectureText(), QString());

        editor.undoStack()->undo();
        QCOMPARE(editor.cluster().servers[0].architecture, cl::architecturePreset("dgx1-8gpu").architecture);
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);
        QVERIFY(!editor.isModified());
        editor.undoStack()->redo();
        QCOMPARE(editor.cluster().servers[1].gpus, 8);

        // Choosing what the servers already have is refused and says so.
        editor.selectServers({1});
        QVERIFY(!panel->applyArchitecture("dgx1-8gpu"));
        QVERIFY2(panel->errorText().contains("equal the current"), qPrintable(panel->errorText()));
        QVERIFY(!panel->applyArchitecture("nope"));
        QVERIFY2(panel->errorText().contains("nope"), qPrintable(panel->errorText()));
        QCOMPARE(editor.undoStack()->index(), 1);
        // Back to "not described" keeps the counts.
        QVERIFY(panel->applyArchitecture(QString()));
        QVERIFY(!editor.cluster().servers[1].architecture.described());
        QCOMPARE(editor.cluster().servers[1].gpus, 8);
    }

    void treeSelectionIsTheDocuments() {
        ClusterEditor editor;
        editor.setCluster(mixedCluster());
        QTreeView* tree = namedChild<QTreeView>(editor, "clusterEditorTree");
        QCOMPARE(tree->model()->rowCount(), 3);  // r0, r1, loose
        editor.selectServers({3});
        const QModelIndexList rows = tree->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.front().data().toString(), QString("n3"));
        // Selecting a socket row selects its server.
        const QModelIndex socket = treeModelOf(editor)->index(0, 0, treeModelOf(editor)->serverIndex(1));
        tree->selectionModel()->select(socket,
                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(editor.selectedServers(), (QList<int>{1}));
    }

    void topologyDialogBuildsAnUndoableCluster() {
        cl::views::TopologyDialog dialog;
        QVERIFY2(dialog.isValid(), qPrintable(dialog.errorText()));
        QCOMPARE(dialog.spec(), cl::fatTreeSpec(4));
        QCOMPARE(dialog.mixName(), QString("power8"));
        QCOMPARE(dialog.previewText(), QString("16 servers, 20 switches, 64 GPUs, 256 CPU cores"));
        QCOMPARE(dialog.clusterName(), QString("fat-tree-k4"));

        dialog.setSpec(cl::fatTreeSpec(3));
        QVERIFY(!dialog.isValid());
        QVERIFY(!dialog.errorText().isEmpty());
        dialog.setSpec(cl::bcubeSpec(4, 1));
        dialog.setMixName("dgx1");
        QVERIFY2(dialog.isValid(), qPrintable(dialog.errorText()));
        QCOMPARE(dialog.cluster().servers.size(), std::size_t(16));
        QCOMPARE(dialog.cluster().totalGpus(), 128);
        dialog.setSpec(cl::fatTreeSpec(4));
        dialog.setMixName("power8");

        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        const std::string before = contents(editor.cluster());
        editor.replaceWithTopologyCluster(dialog.cluster());
        QCOMPARE(editor.cluster().servers.size(), std::size_t(16));
        QCOMPARE(editor.cluster().totalGpus(), 64);
        QCOMPARE(editor.cluster().topology, cl::fatTreeSpec(4));
        QCOMPARE(editor.undoStack()->undoText(), QString("New cluster 'fat-tree-k4' from a topology"));
        QCOMPARE(treeModelOf(editor)->nodeCount(cl::views::ClusterTreeModel::NodeKind::Switch), 20);
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);
        QCOMPARE(treeModelOf(editor)->nodeCount(cl::views::ClusterTreeModel::NodeKind::Switch), 0);
        editor.undoStack()->redo();
        QCOMPARE(editor.cluster().servers.size(), std::size_t(16));

        // A server added by hand no longer fits the network: the cluster turns flat (and
        // saves as a readable layout); undo brings the network back.
        editor.selectServers({0});
        editor.duplicateSelected();
        QCOMPARE(editor.cluster().servers.size(), std::size_t(17));
        QCOMPARE(editor.cluster().topology.kind, cl::TopologyKind::Flat);
        QVERIFY_THROWS_NO_EXCEPTION(cl::parseLayoutJson(cl::layoutJsonText(editor.cluster()), "edited.json"));
        editor.undoStack()->undo();
        QCOMPARE(editor.cluster().topology, cl::fatTreeSpec(4));
        QCOMPARE(treeModelOf(editor)->nodeCount(cl::views::ClusterTreeModel::NodeKind::Switch), 20);
    }

    void documentAndEditorSignals() {
        ClusterEditor editor;
        QSignalSpy changed(editor.document(), &ClusterDocument::changed);
        QSignalSpy selection(editor.document(), &ClusterDocument::selectionChanged);
        QSignalSpy cluster_changed(&editor, &ClusterEditor::clusterChanged);
        QSignalSpy modified(&editor, &ClusterEditor::modifiedChanged);
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(cluster_changed.count(), 1);
        QCOMPARE(modified.count(), 0);

        editor.selectServers({2, 1, 2, 99});  // sorted, unique, in range
        QCOMPARE(selection.count(), 1);
        QCOMPARE(editor.selectedServers(), (QList<int>{1, 2}));
        editor.selectServers({1, 2});
        QCOMPARE(selection.count(), 1);  // no change, no signal

        editor.duplicateSelected();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.last().at(0).toBool(), true);
        editor.markSaved(1);
        QVERIFY(!editor.isModified());
        QCOMPARE(modified.last().at(0).toBool(), false);
        editor.undoStack()->undo();
        QCOMPARE(changed.count(), 3);
        QVERIFY(editor.isModified());
        QCOMPARE(modified.last().at(0).toBool(), true);
    }

    void diagramSelectionFollowsDocumentAndBack() {
        ClusterEditor editor;
        editor.resize(1200, 800);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        auto* diagram = editor.diagram();
        QCOMPARE(diagram->serverItemCount(), 8);
        QCOMPARE(diagram->rackItemCount(), 1);

        editor.selectServers({3});
        QCOMPARE(diagram->scene()->selectedItems().size(), 1);

        // Click one server, Ctrl+click a second one.
        auto click = [&](int index, Qt::KeyboardModifiers mods) {
            const QPoint at = diagram->mapFromScene(diagram->serverRect(index).center());
            QTest::mouseClick(diagram->viewport(), Qt::LeftButton, mods, at);
        };
        click(0, Qt::NoModifier);
        QCOMPARE(editor.selectedServers(), (QList<int>{0}));
        click(5, Qt::ControlModifier);
        QCOMPARE(editor.selectedServers(), (QList<int>{0, 5}));
        QCOMPARE(panelOf(editor)->text(Field::Gpus), QString("8"));

        // An edit redraws the items but keeps the selection.
        panelOf(editor)->setText(Field::CpuCores, "48");
        QVERIFY(panelOf(editor)->apply());
        QCOMPARE(diagram->scene()->selectedItems().size(), 2);

        // Ctrl+D and Delete act on the diagram's selection.
        editor.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        diagram->setFocus();
        QTest::keyClick(diagram, Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(editor.cluster().servers.size(), std::size_t(10));
        QCOMPARE(editor.undoStack()->undoText(), QString("Duplicate 2 servers"));
        QTest::keyClick(diagram, Qt::Key_Delete);
        QCOMPARE(editor.cluster().servers.size(), std::size_t(8));
        QTest::keyClick(diagram, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor.cluster().servers.size(), std::size_t(10));
        QTest::keyClick(diagram, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(editor.cluster().servers.size(), std::size_t(8));

        // Delete while typing in the panel edits the text, not the cluster.
        editor.selectServers({1});
        namedChild<QLineEdit>(*panelOf(editor), "serverCpuCores")->setFocus();
        QTest::keyClick(namedChild<QLineEdit>(*panelOf(editor), "serverCpuCores"), Qt::Key_Delete);
        QCOMPARE(editor.cluster().servers.size(), std::size_t(8));

        // A rubber band from the empty corner to the middle of node3 selects node0..node3.
        const QPoint from = diagram->mapFromScene(diagram->sceneRect().topLeft()) + QPoint(2, 2);
        const QPoint to = diagram->mapFromScene(diagram->serverRect(3).center());
        QTest::mousePress(diagram->viewport(), Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(diagram->viewport(), (from + to) / 2);
        QTest::mouseMove(diagram->viewport(), to);
        QTest::mouseRelease(diagram->viewport(), Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(editor.selectedServers(), (QList<int>{0, 1, 2, 3}));

        // Zoom actions change the scale and leave fit mode; fit goes back.
        const double z = diagram->zoom();
        editor.zoomIn();
        QVERIFY(diagram->zoom() > z);
        QVERIFY(!diagram->isAutoFit());
        QCOMPARE(diagram->verticalScrollBarPolicy(), Qt::ScrollBarAsNeeded);
        editor.zoomToFit();
        QVERIFY(diagram->isAutoFit());
        QCOMPARE(diagram->zoom(), z);
        // Fitted, the whole diagram shows: no scroll bar that could come and go with each refit
        // (which froze the window), whatever size the view takes.
        QCOMPARE(diagram->verticalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
        QCOMPARE(diagram->horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
        for (int width = 300; width <= 900; width += 37) {
            diagram->resize(width, 400);
            QCoreApplication::processEvents();
            QVERIFY(!diagram->verticalScrollBar()->isVisible() &&
                    !diagram->horizontalScrollBar()->isVisible());
        }
    }

    void largePresetBuildsDiagram() {
        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        QString error;
        QVERIFY2(editor.loadPresetCluster("large-2048", &error), qPrintable(error));
        QCOMPARE(editor.diagram()->serverItemCount(), 256);
        QCOMPARE(editor.diagram()->rackItemCount(), 16);
        QCOMPARE(editor.cluster().totalGpus(), 2048);
        QCOMPARE(editor.undoStack()->undoText(), QString("Load preset 'large-2048'"));
        editor.undoStack()->undo();
        QCOMPARE(editor.diagram()->serverItemCount(), 8);
        QVERIFY(!editor.loadPresetCluster("no-such-cluster", &error));
        QVERIFY(error.contains("no-such-cluster"));
    }

    // Pictures of the editor, checked for what they must show: the GPU cells in the colour of
    // their GPU type (V100 for the testbed, then also A100 and T4 for the added servers).
    // A server's partitions typed in its Partitions field: a new one is declared in the same
    // undo step, a name with a space is refused, empty = in no partition.
    void serverPartitionsFieldDeclaresNewPartitions() {
        ClusterEditor editor;
        editor.resize(1366, 768);
        editor.setCluster(partitionedCluster());
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const std::string before = contents(editor.cluster());
        auto* panel = panelOf(editor);
        auto* field = namedChild<QLineEdit>(*panel, "serverPartitions");
        editor.selectServers({2});
        QCOMPARE(field->text(), QString("gpu, debug"));

        editor.selectServers({4});  // "loose", in no partition
        QCOMPARE(field->text(), QString());
        QCOMPARE(field->placeholderText(), QString("(in no partition)"));
        typeOver(field, "gpu,  long ,gpu");
        QTest::keyClick(field, Qt::Key_Return);
        const cl::Cluster added = editor.cluster();
        QCOMPARE(added.servers[4].partitions, (Names{"gpu", "long"}));
        QCOMPARE(partitionNames(added), (Names{"gpu", "debug", "long"}));
        QCOMPARE(added.partitions[2], (cl::Partition{"long", 1, 0.0, false}));  // Slurm's defaults
        QCOMPARE(editor.undoStack()->undoText(), QString("Change partitions of 'loose'"));
        QCOMPARE(field->text(), QString("gpu, long"));
        // The partitions table shows the declared one at once.
        auto* table = namedChild<QTableView>(editor, "partitionsTable");
        QCOMPARE(table->model()->rowCount(), 3);
        QCOMPARE(table->model()->index(2, 0).data().toString(), QString("long"));

        editor.undoStack()->undo();  // both the server and the declaration
        QCOMPARE(contents(editor.cluster()), before);
        QCOMPARE(table->model()->rowCount(), 2);
        QVERIFY(!editor.isModified());
        editor.undoStack()->redo();
        QCOMPARE(contents(editor.cluster()), contents(added));
        editor.undoStack()->undo();

        // A name with a space is refused, saying why; nothing changes.
        editor.selectServers({0});
        typeOver(field, "gpu, long jobs");
        QVERIFY2(panel->fieldError(Field::Partitions).contains("no comma, space"),
                 qPrintable(panel->fieldError(Field::Partitions)));
        QTest::keyClick(field, Qt::Key_Return);
        QVERIFY2(panel->errorText().contains("'long jobs'"), qPrintable(panel->errorText()));
        QCOMPARE(contents(editor.cluster()), before);
        QCOMPARE(editor.undoStack()->index(), 0);
        QString error;
        cl::views::ServerChanges change;
        change.partitions = Names{"a b"};
        QVERIFY(!editor.document()->setServerProperties({0}, change, &error));
        QVERIFY2(error.contains("no comma, space"), qPrintable(error));

        // Empty: in no partition; the partition stays declared. The same list in other words is
        // no change.
        typeOver(field, "");
        QTest::keyClick(field, Qt::Key_Return);
        QVERIFY(editor.cluster().servers[0].partitions.empty());
        QCOMPARE(partitionNames(editor.cluster()), (Names{"gpu", "debug"}));
        editor.selectServers({2});
        typeOver(field, "gpu,debug");
        QVERIFY(!panel->hasChanges());

        // Several servers at once; a mixed field left empty keeps each server's own.
        editor.selectServers({2, 3});
        QVERIFY(panel->isMixed(Field::Partitions));
        panel->setText(Field::Gpus, "4");
        QVERIFY(panel->apply());
        QCOMPARE(editor.cluster().servers[3].partitions, (Names{"debug"}));
        typeOver(field, "debug");
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(editor.cluster().servers[2].partitions, (Names{"debug"}));
        QCOMPARE(editor.undoStack()->undoText(), QString("Change partitions of 2 servers"));
        QVERIFY(editor.validationError().isEmpty());
    }

    // About what the cluster page gets of a 1366 x 768 window beside the docks: the partitions
    // table shows every column whole without scrolling sideways, and the diagram gives way.
    void partitionsTableIsReadableOnALaptopScreen() {
        ClusterEditor editor;
        editor.resize(760, 480);
        editor.setCluster(partitionedCluster());
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        auto* table = namedChild<QTableView>(editor, "partitionsTable");
        QVERIFY(table->isVisible());
        using M = cl::views::PartitionTableModel;
        QHeaderView* header = table->horizontalHeader();
        const QAbstractItemModel* model = table->model();
        QTRY_VERIFY(table->viewport()->width() > 0);
        for (int c = 0; c < M::ColumnCount; ++c) {
            const QString title = model->headerData(c, Qt::Horizontal).toString();
            const int left = header->sectionViewportPosition(c);
            const int right = left + header->sectionSize(c);
            QVERIFY2(left >= 0 && right <= table->viewport()->width(),
                     qPrintable(QStringLiteral("%1: %2..%3 of %4")
                                    .arg(title)
                                    .arg(left)
                                    .arg(right)
                                    .arg(table->viewport()->width())));
            QVERIFY2(header->sectionSize(c) >= header->fontMetrics().horizontalAdvance(title),
                     qPrintable(title));
            for (int r = 0; r < model->rowCount(); ++r) {
                const QString text = model->index(r, c).data().toString();
                QVERIFY2(header->sectionSize(c) >= table->fontMetrics().horizontalAdvance(text),
                         qPrintable(text));
            }
        }
        QVERIFY(!table->horizontalScrollBar()->isVisible() || table->horizontalScrollBar()->maximum() == 0);
        // In a wider pane the table takes the pane's width, its names the room left.
        auto* panel = namedChild<cl::views::PartitionsPanel>(editor, "partitionsPanel");
        editor.resize(1300, 900);
        QTRY_VERIFY(panel->width() > table->minimumWidth() + 40);
        QTRY_VERIFY2(table->width() >= panel->width() - panel->fontMetrics().averageCharWidth(),
                     qPrintable(QStringLiteral("%1 of %2").arg(table->width()).arg(panel->width())));
        QTRY_COMPARE(header->length(), table->viewport()->width());
        editor.resize(760, 480);
        // The pane keeps that width when the split asks for less.
        auto* splitter = namedChild<QSplitter>(editor, "clusterSplitter");
        QList<int> sizes = splitter->sizes();
        splitter->setSizes({10, sizes[0] + sizes[1] - 10, sizes[2]});
        QTRY_VERIFY(splitter->sizes()[0] >= table->minimumWidth());
        QVERIFY(header->sectionViewportPosition(M::DefaultColumn) + header->sectionSize(M::DefaultColumn) <=
                table->viewport()->width());
    }

    // The partitions table: Default (only one), rename and remove follow every server, MaxTime
    // and PriorityTier, refusals; each an undo step.
    void partitionsTableEditsWithUndo() {
        ClusterEditor editor;
        editor.resize(1366, 768);
        editor.setCluster(partitionedCluster());
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const std::string before = contents(editor.cluster());
        auto* partitions = namedChild<cl::views::PartitionsPanel>(editor, "partitionsPanel");
        auto* table = namedChild<QTableView>(*partitions, "partitionsTable");
        QVERIFY(table->isVisible());
        QVERIFY(!namedChild<QLabel>(*partitions, "partitionsHint")->isVisible());
        using M = cl::views::PartitionTableModel;
        QAbstractItemModel* model = table->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->index(0, M::TierColumn).data().toString(), QString("2"));
        QCOMPARE(model->index(0, M::MaxTimeColumn).data().toString(), QString("2:00"));
        QCOMPARE(model->index(1, M::MaxTimeColumn).data().toString(), QString("unlimited"));
        for (int c = 0; c < M::ColumnCount; ++c)
            QVERIFY(!model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        QVERIFY(model->headerData(M::TierColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("PriorityTier"));
        QVERIFY(
            model->index(0, M::NameColumn).data(Qt::ToolTipRole).toString().contains("3 servers, 24 GPUs"));

        // Space on the Default cell makes debug the default; then gpu, and debug is no longer.
        table->setCurrentIndex(model->index(1, M::DefaultColumn));
        QTest::keyClick(table, Qt::Key_Space);
        QVERIFY(editor.cluster().partitions[1].is_default);
        QCOMPARE(editor.undoStack()->undoText(), QString("Make 'debug' the default partition"));
        table->setCurrentIndex(model->index(0, M::DefaultColumn));
        QTest::keyClick(table, Qt::Key_Space);
        QVERIFY(editor.cluster().partitions[0].is_default);
        QVERIFY(!editor.cluster().partitions[1].is_default);
        QCOMPARE(model->index(1, M::DefaultColumn).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
        editor.undoStack()->undo();
        QVERIFY(editor.cluster().partitions[1].is_default);
        QVERIFY(!editor.cluster().partitions[0].is_default);
        editor.undoStack()->undo();

        // Renaming gpu renames it in every server that lists it.
        QVERIFY(editCell(table, 0, M::NameColumn, "batch"));
        const cl::Cluster renamed = editor.cluster();
        QCOMPARE(partitionNames(renamed), (Names{"batch", "debug"}));
        QCOMPARE(renamed.servers[0].partitions, (Names{"batch"}));
        QCOMPARE(renamed.servers[1].partitions, (Names{"batch"}));
        QCOMPARE(renamed.servers[2].partitions, (Names{"batch", "debug"}));
        QCOMPARE(renamed.servers[3].partitions, (Names{"debug"}));
        QCOMPARE(editor.undoStack()->undoText(), QString("Rename partition 'gpu' to 'batch'"));
        QVERIFY(editor.validationError().isEmpty());
        editor.selectServers({2});
        QCOMPARE(panelOf(editor)->text(Field::Partitions), QString("batch, debug"));
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);

        // Refused: a name with a space or one already used; nothing changes, the reason shows.
        QVERIFY(editCell(table, 0, M::NameColumn, "long jobs"));
        QVERIFY2(partitions->message().contains("no comma, space"), qPrintable(partitions->message()));
        QVERIFY(namedChild<QLabel>(*partitions, "partitionsMessage")->isVisible());
        QVERIFY(editCell(table, 0, M::NameColumn, "debug"));
        QVERIFY2(partitions->message().contains("already named 'debug'"), qPrintable(partitions->message()));
        QVERIFY(editCell(table, 1, M::MaxTimeColumn, "90"));
        QVERIFY2(partitions->message().contains("hours:minutes"), qPrintable(partitions->message()));
        QVERIFY(editCell(table, 1, M::TierColumn, "70000"));
        QVERIFY2(partitions->message().contains("0 to 65535"), qPrintable(partitions->message()));
        QCOMPARE(contents(editor.cluster()), before);
        QCOMPARE(editor.undoStack()->index(), 0);

        // MaxTime as h:mm, d-h:mm or unlimited; PriorityTier a whole number.
        QVERIFY(editCell(table, 1, M::MaxTimeColumn, "1-2:30"));
        QCOMPARE(editor.cluster().partitions[1].max_time, (26 * 60 + 30) * 60.0);
        QCOMPARE(model->index(1, M::MaxTimeColumn).data().toString(), QString("26:30"));
        QVERIFY(partitions->message().isEmpty());
        QCOMPARE(editor.undoStack()->undoText(), QString("Change MaxTime of partition 'debug'"));
        QVERIFY(editCell(table, 0, M::MaxTimeColumn, "unlimited"));
        QCOMPARE(editor.cluster().partitions[0].max_time, 0.0);
        QVERIFY(editCell(table, 1, M::TierColumn, "5"));
        QCOMPARE(editor.cluster().partitions[1].priority_tier, 5);
        for (int k = 0; k < 3; ++k) editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);

        // Remove takes debug off every server; undo puts it back.
        table->setCurrentIndex(model->index(1, M::NameColumn));
        QTest::mouseClick(namedChild<QToolButton>(*partitions, "partitionsRemove"), Qt::LeftButton);
        QCOMPARE(partitionNames(editor.cluster()), (Names{"gpu"}));
        QCOMPARE(editor.cluster().servers[2].partitions, (Names{"gpu"}));
        QVERIFY(editor.cluster().servers[3].partitions.empty());
        QCOMPARE(editor.undoStack()->undoText(), QString("Remove partition 'debug'"));
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);

        // Add declares a fresh name with the defaults and opens its name for typing.
        QTest::mouseClick(namedChild<QToolButton>(*partitions, "partitionsAdd"), Qt::LeftButton);
        QCOMPARE(partitionNames(editor.cluster()), (Names{"gpu", "debug", "debug-1"}));
        QCOMPARE(editor.cluster().partitions[2], (cl::Partition{"debug-1", 1, 0.0, false}));
        auto* nameEditor = table->viewport()->findChild<QLineEdit*>();
        QVERIFY(nameEditor);
        typeOver(nameEditor, "long");
        QTest::keyClick(nameEditor, Qt::Key_Return);
        finishEditing();
        QCOMPARE(partitionNames(editor.cluster()), (Names{"gpu", "debug", "long"}));
        editor.undoStack()->undo();
        editor.undoStack()->undo();
        QCOMPARE(contents(editor.cluster()), before);
    }

    // MaxTime reads and writes as h:mm; a lone number (minutes to Slurm) is refused.
    void maxTimeReadsAndWritesHoursAndMinutes() {
        using cl::views::parseMaxTime;
        QCOMPARE(cl::views::maxTimeText(0.0), QString("unlimited"));
        QCOMPARE(cl::views::maxTimeText(7200.0), QString("2:00"));
        QCOMPARE(cl::views::maxTimeText(3 * 86400.0), QString("72:00"));
        QCOMPARE(cl::views::maxTimeText(5415.0), QString("1:30:15"));
        QCOMPARE(parseMaxTime("2:30"), std::optional<double>(9000.0));
        QCOMPARE(parseMaxTime(" 1:30:15 "), std::optional<double>(5415.0));
        QCOMPARE(parseMaxTime("2-0:00"), std::optional<double>(2 * 86400.0));
        QCOMPARE(parseMaxTime("Unlimited"), std::optional<double>(0.0));
        QCOMPARE(parseMaxTime(""), std::optional<double>(0.0));
        for (const char* bad : {"90", "2:75", "1:00:60", "-1:00", "2h", "1-2"})
            QVERIFY2(!parseMaxTime(bad), bad);
    }

    // A cluster without partitions shows a hint instead of the table; adding the first one to a
    // layout whose servers name partitions it never declared declares those too.
    void firstPartitionDeclaresTheServersOnes() {
        ClusterEditor editor;
        editor.resize(1366, 768);
        cl::Cluster c = mixedCluster();
        editor.setCluster(c);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        auto* partitions = namedChild<cl::views::PartitionsPanel>(editor, "partitionsPanel");
        QVERIFY(!namedChild<QTableView>(*partitions, "partitionsTable")->isVisible());
        QVERIFY(namedChild<QLabel>(*partitions, "partitionsHint")->isVisible());
        QTreeView* tree = namedChild<QTreeView>(editor, "clusterEditorTree");
        QVERIFY(tree->isColumnHidden(cl::views::ClusterTreeModel::PartitionsColumn));

        c.servers[1].partitions = {"gpu"};
        editor.setCluster(c);
        QVERIFY(!tree->isColumnHidden(cl::views::ClusterTreeModel::PartitionsColumn));
        QVERIFY(editor.document()->addPartition());
        QCOMPARE(partitionNames(editor.cluster()), (Names{"partition-1", "gpu"}));
        QVERIFY(namedChild<QTableView>(*partitions, "partitionsTable")->isVisible());
        QVERIFY(editor.validationError().isEmpty());
        editor.undoStack()->undo();
        QVERIFY(editor.cluster().partitions.empty());
    }

    // Added and duplicated servers are in the partitions of the server they follow.
    void newServersTakeThePartitionsOfTheirTemplate() {
        ClusterEditor editor;
        editor.setCluster(partitionedCluster());
        editor.selectServers({2});
        editor.duplicateSelected();
        QCOMPARE(editor.cluster().servers[3].partitions, (Names{"gpu", "debug"}));
        editor.selectServers({3});
        editor.addServers(preset("dgx-a100"), 2);
        for (int i : editor.selectedServers())
            QCOMPARE(editor.cluster().servers[static_cast<std::size_t>(i)].partitions,
                     (Names{"gpu", "debug"}));
        // A prototype's own partitions win.
        cl::Server own = preset("t4x4");
        own.partitions = {"debug"};
        editor.addServers(own, 1);
        QCOMPARE(
            editor.cluster().servers[static_cast<std::size_t>(editor.selectedServers().front())].partitions,
            (Names{"debug"}));
        editor.selectServers({0});  // a new rack's server is in the last server's partitions
        editor.addRack();
        QCOMPARE(editor.cluster().servers.back().partitions,
                 editor.cluster().servers[editor.cluster().servers.size() - 2].partitions);
        QVERIFY(editor.validationError().isEmpty());
    }

    // The line above the diagram names the cluster and says whether its edits are stored.
    void statusNamesTheClusterAndWhetherItIsSaved() {
        ClusterEditor editor;
        const auto status = [&] { return namedChild<QLabel>(editor, "clusterStatus")->text(); };
        QVERIFY2(status().contains(QStringLiteral("No cluster")), qPrintable(status()));
        editor.setCluster(cl::builtinCluster("muri-testbed-64"), 7);
        QCOMPARE(editor.storedClusterId(), qint64(7));
        QVERIFY2(status().contains(QStringLiteral("<b>muri-testbed-64</b>")), qPrintable(status()));
        QVERIFY2(status().contains(QStringLiteral("saved (stored cluster #7)")), qPrintable(status()));
        editor.addServers(preset("dgx-a100"), 1);
        QVERIFY2(status().contains(QStringLiteral("unsaved changes")), qPrintable(status()));
        QVERIFY2(status().contains(QStringLiteral("#7")), qPrintable(status()));
        editor.undoStack()->undo();
        QVERIFY2(status().contains(QStringLiteral("saved (stored cluster #7)")), qPrintable(status()));
        editor.undoStack()->redo();
        editor.document()->renameCluster(QStringLiteral("bigger"));
        QVERIFY2(status().contains(QStringLiteral("<b>bigger</b>")), qPrintable(status()));
        editor.markSaved(9);
        QCOMPARE(editor.storedClusterId(), qint64(9));
        QVERIFY2(status().contains(QStringLiteral("saved (stored cluster #9)")), qPrintable(status()));
        QVERIFY(!status().contains(QStringLiteral("unsaved")));
        editor.setCluster(cl::builtinCluster("sjf-bsbf-16"));
        QCOMPARE(editor.storedClusterId(), qint64(0));
        QVERIFY2(status().contains(QStringLiteral("not saved")), qPrintable(status()));
    }

    // The diagram is drawn from the palette: on dark paper in the dark theme, on light paper in
    // the light one, and a theme switched while it is shown repaints it.
    void diagramFollowsTheTheme() {
        cl::views::applyTheme(cl::views::Theme::Light);
        ClusterEditor editor;
        editor.resize(1400, 900);
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const auto paperAndBox = [&] {
            cl::views::ClusterDiagram* diagram = editor.diagram();
            const QImage shot = diagram->viewport()->grab().toImage();
            const QRect box = diagram->mapFromScene(diagram->serverRect(0)).boundingRect();
            // Inside the box, right of its name: the box's own fill.
            const QPoint inBox(box.right() - box.width() / 8, box.top() + box.height() / 8);
            return std::pair{shot.pixelColor(2, 2), shot.pixelColor(inBox)};
        };
        auto [paper, box] = paperAndBox();
        QVERIFY2(paper.lightness() > 200, qPrintable(paper.name()));
        QVERIFY2(box.lightness() > 200, qPrintable(box.name()));

        cl::views::applyTheme(cl::views::Theme::Dark);
        QCoreApplication::processEvents();
        std::tie(paper, box) = paperAndBox();
        QVERIFY2(paper.lightness() < 70, qPrintable(paper.name()));
        QVERIFY2(box.lightness() < 70, qPrintable(box.name()));
        // The server names are in the dark theme's (light) text colour.
        const QImage shot = editor.diagram()->viewport()->grab().toImage();
        int light = 0;
        const QRect first = editor.diagram()->mapFromScene(editor.diagram()->serverRect(0)).boundingRect();
        for (int y = first.top(); y < first.top() + first.height() / 3; ++y)
            for (int x = first.left(); x < first.right(); ++x)
                if (shot.valid(x, y) && shot.pixelColor(x, y).lightness() > 170) ++light;
        QVERIFY2(light > 10, qPrintable(QString::number(light)));

        // A diagram created while the dark theme is on is dark from the start.
        ClusterEditor dark;
        dark.resize(800, 600);
        dark.setCluster(cl::builtinCluster("muri-testbed-64"));
        dark.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dark));
        QVERIFY(dark.diagram()->viewport()->grab().toImage().pixelColor(2, 2).lightness() < 70);
        cl::views::applyTheme(cl::views::Theme::System);
    }

    void screenshots() {
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        ClusterEditor editor;
        editor.resize(1400, 900);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const cl::Cluster testbed = cl::builtinCluster("muri-testbed-64");
        editor.setCluster(testbed);
        QCoreApplication::processEvents();
        const QColor v100 = cl::views::gpuTypeColor(QString::fromStdString(testbed.servers[0].gpu_type));
        cl::test::shoot(editor, shots, "editor_muri64.png", v100);

        editor.selectServers({7});
        editor.addServers(preset("dgx-a100"), 4);
        editor.selectServers({});
        editor.addRack();
        editor.addServers(preset("t4x4"), 2);
        editor.selectServers({8, 9, 10});
        QCoreApplication::processEvents();
        cl::test::shoot(editor, shots, "editor_mixed.png", v100);
        const QImage mixed = editor.grab().toImage();
        for (const char* name : {"dgx-a100", "t4x4"}) {
            const QColor type = cl::views::gpuTypeColor(QString::fromStdString(preset(name).gpu_type));
            QVERIFY2(cl::test::pixelsNear(mixed, type) >= 20, name);
        }

        QVERIFY(editor.loadPresetCluster("large-2048"));
        QCoreApplication::processEvents();
        cl::test::shoot(editor, shots, "editor_large.png");
    }
};

QTEST_MAIN(TestClusterEditor)
#include "test_cluster_editor.moc"
