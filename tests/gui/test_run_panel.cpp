// The run panel offers only the policies the scenario's conventions can run: the others stay
// listed, greyed out, cannot be checked, and say why in their tooltip (the one policy check,
// cl::policyProblem, docs/architecture.md section 4.1).
#include <QListWidget>
#include <QSignalSpy>
#include <QtTest>

#include "core/store/scenario_store.h"
#include "views/shell/run_panel.h"

using namespace cl;
using namespace cl::views;

namespace {

ScenarioInfo scenario(const std::string& name, const std::string& policy, const std::string& conventions) {
    ScenarioInfo s;
    s.id = 1;
    s.spec.name = name;
    s.spec.policy = policy;
    s.spec.conventions = conventions;
    return s;
}

QListWidgetItem* item(QListWidget* list, const QString& text) {
    const QList<QListWidgetItem*> found = list->findItems(text, Qt::MatchExactly);
    return found.isEmpty() ? nullptr : found.front();
}

// Clicks the item's check box the way a user does (on the indicator at the item's left edge).
void clickCheckBox(QListWidget* list, QListWidgetItem* it) {
    list->scrollToItem(it);
    const QRect rect = list->visualItemRect(it);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                      QPoint(rect.left() + rect.height() / 2, rect.center().y()));
}

}  // namespace

class RunPanelTest : public QObject {
    Q_OBJECT

private slots:
    void policiesTheConventionsCannotRunAreGreyedOutWithTheReason() {
        RunPanel panel;
        panel.resize(320, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* list = panel.findChild<QListWidget*>(QStringLiteral("runPolicies"));
        QVERIFY(list);

        const ScenarioInfo synergy = scenario("synergy-run", "fifo+tune", "synergy-artifact");
        panel.setScenario(&synergy);
        QCOMPARE(panel.checkedPolicies(), QStringList{"fifo+tune"});
        // srtf has no Synergy mechanism, muri-l no scheduling rounds: neither runs there.
        for (const char* refused : {"srtf", "muri-l"}) {
            QListWidgetItem* it = item(list, QString::fromLatin1(refused));
            QVERIFY2(it, refused);
            QVERIFY2(!(it->flags() & Qt::ItemIsEnabled), refused);
            QVERIFY2(it->toolTip().contains(QLatin1String("synergy-artifact")), qPrintable(it->toolTip()));
            clickCheckBox(list, it);
            QCOMPARE(it->checkState(), Qt::Unchecked);
        }
        QVERIFY(item(list, "srtf")->toolTip().contains(QLatin1String("use a Synergy mechanism")));
        QVERIFY(
            item(list, "muri-l")->toolTip().contains(QLatin1String("need a policy with scheduling rounds")));
        // A Synergy mechanism runs, and the user can check it.
        QListWidgetItem* greedy = item(list, "fifo+greedy");
        QVERIFY(greedy);
        QVERIFY(greedy->flags() & Qt::ItemIsEnabled);
        QVERIFY(greedy->toolTip().isEmpty());
        clickCheckBox(list, greedy);
        QCOMPARE(greedy->checkState(), Qt::Checked);
        QCOMPARE(panel.checkedPolicies(), (QStringList{"fifo+greedy", "fifo+tune"}));

        // Another scenario under clean conventions: everything offered runs again.
        const ScenarioInfo clean = scenario("clean-run", "srtf", "clean");
        panel.setScenario(&clean);
        for (int i = 0; i < list->count(); ++i)
            QVERIFY2(list->item(i)->flags() & Qt::ItemIsEnabled, qPrintable(list->item(i)->text()));
        QCOMPARE(panel.checkedPolicies(), QStringList{"srtf"});
        clickCheckBox(list, item(list, "muri-l"));
        QCOMPARE(item(list, "muri-l")->checkState(), Qt::Checked);
    }
};

QTEST_MAIN(RunPanelTest)
#include "test_run_panel.moc"
