// Server prices in the cluster editor (docs/architecture.md 7.8): the properties
// panel's price fields edit the selected servers as one undoable command, a basis that needs
// figures asks for them, undo restores the price exactly, and the totals bar shows the cluster's
// cost per month with its unpriced servers and price sources.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTest>
#include <QUndoStack>

#include "core/io/layout_io.h"
#include "core/model/cluster.h"
#include "named_child.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/cluster_totals_bar.h"
#include "views/cluster/server_properties_panel.h"

using cl::views::ClusterDocument;
using cl::views::ClusterTotalsBar;
using cl::views::ServerPropertiesPanel;
using Field = ServerPropertiesPanel::Field;

namespace {

// A part of a widget, found by its objectName.
QLineEdit* edit(const ServerPropertiesPanel& panel, const char* name) {
    return namedChild<QLineEdit>(panel, name);
}

QComboBox* basisCombo(const ServerPropertiesPanel& panel) {
    return namedChild<QComboBox>(panel, "serverPriceBasis");
}

// Four unpriced servers and one rented at $10/h from a stated source.
cl::Cluster partlyPriced() {
    cl::Cluster c;
    c.name = "priced";
    for (int i = 0; i < 5; ++i) {
        cl::Server s;
        s.name = "n" + std::to_string(i);
        c.servers.push_back(s);
    }
    c.servers[4].price.basis = cl::PriceBasis::Hourly;
    c.servers[4].price.per_hour = 10.0;
    c.servers[4].price.source = "test quote, 2026";
    return c;
}

void chooseBasis(ServerPropertiesPanel& panel, cl::PriceBasis basis) {
    QComboBox* combo = basisCombo(panel);
    combo->setCurrentIndex(combo->findData(static_cast<int>(basis)));
}

}  // namespace

class TestServerPriceEditing : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void hourlyPriceOnSeveralServersIsOneUndoStep() {
        ClusterDocument doc;
        doc.setCluster(partlyPriced());
        ServerPropertiesPanel panel(&doc);
        doc.setSelection({0, 1, 2});
        QCOMPARE(basisCombo(panel)->currentData().toInt(), static_cast<int>(cl::PriceBasis::None));
        QVERIFY(!edit(panel, "serverPricePerHour")->isEnabled());
        QVERIFY(!edit(panel, "serverPriceSource")->isEnabled());

        // Choosing "per hour" enables its figure and asks for it before anything is applied.
        chooseBasis(panel, cl::PriceBasis::Hourly);
        QVERIFY(edit(panel, "serverPricePerHour")->isEnabled());
        QVERIFY(!edit(panel, "serverPurchasePrice")->isEnabled());
        QVERIFY(!panel.apply());
        QVERIFY2(panel.fieldError(Field::PricePerHour).contains("USD per hour"),
                 qPrintable(panel.fieldError(Field::PricePerHour)));
        QCOMPARE(doc.undoStack()->count(), 0);

        QTest::keyClicks(edit(panel, "serverPricePerHour"), "24.48");
        QVERIFY(panel.fieldError(Field::PricePerHour).isEmpty());
        QTest::keyClicks(edit(panel, "serverPriceSource"), "AWS p3.16xlarge, 2026");
        namedChild<QCheckBox>(panel, "serverPriceApproximate")->setChecked(true);
        QPushButton* applyButton = namedChild<QPushButton>(panel, "serverPropertiesApply");
        QVERIFY(applyButton->isEnabled());
        applyButton->click();
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->undoText(), QString("Change price of 3 servers"));
        for (int i = 0; i < 3; ++i) {
            const cl::ServerPrice& p = doc.cluster().servers[std::size_t(i)].price;
            QCOMPARE(p.basis, cl::PriceBasis::Hourly);
            QCOMPARE(p.per_hour, 24.48);
            QCOMPARE(p.source, std::string("AWS p3.16xlarge, 2026"));
            QVERIFY(p.approximate);
        }
        QVERIFY(!doc.cluster().servers[3].price.stated());  // not selected
        const QLabel* summary = namedChild<QLabel>(panel, "serverPriceSummary");
        QCOMPARE(summary->text(),
                 QString("Selection: $73.44/h, $%1 per month").arg(QLocale().toString(53611.0, 'f', 0)));
        QVERIFY(summary->toolTip().contains("3 servers at $24.48/h (approximate): AWS p3.16xlarge"));

        // Undo brings back the unpriced servers exactly; redo the edit.
        const std::string before = cl::layoutJsonText(partlyPriced());
        doc.undoStack()->undo();
        QCOMPARE(cl::layoutJsonText(doc.cluster()), before);
        QCOMPARE(basisCombo(panel)->currentData().toInt(), static_cast<int>(cl::PriceBasis::None));
        doc.undoStack()->redo();
        QCOMPARE(doc.cluster().servers[1].price.per_hour, 24.48);
    }

    void amortizedPriceAndBackToNone() {
        ClusterDocument doc;
        doc.setCluster(partlyPriced());
        ServerPropertiesPanel panel(&doc);
        doc.setSelection({4});
        QCOMPARE(panel.text(Field::PricePerHour), QString("10"));
        QCOMPARE(panel.text(Field::PriceSource), QString("test quote, 2026"));

        chooseBasis(panel, cl::PriceBasis::Amortized);
        panel.setText(Field::PurchasePrice, "200000");
        panel.setText(Field::AmortizationYears, "0");
        QVERIFY(!panel.apply());  // zero years is refused, naming the field
        QVERIFY2(panel.fieldError(Field::AmortizationYears).contains("years above 0, at most 50"),
                 qPrintable(panel.fieldError(Field::AmortizationYears)));
        panel.setText(Field::AmortizationYears, "4");
        panel.setText(Field::PowerPerHour, "1.5");
        QVERIFY(panel.apply());
        const cl::ServerPrice& p = doc.cluster().servers[4].price;
        QCOMPARE(p.basis, cl::PriceBasis::Amortized);
        QCOMPARE(p.purchase, 200000.0);
        QCOMPARE(p.amortization_years, 4.0);
        QCOMPARE(p.power_per_hour, 1.5);
        QCOMPARE(p.per_hour, 0.0);  // the hourly figure is no part of an amortized price
        QCOMPARE(p.source, std::string("test quote, 2026"));
        QCOMPARE(cl::pricePerHour(p), 200000.0 / (4 * 8760.0) + 1.5);

        // "none" clears the whole price; undo restores the amortized one.
        chooseBasis(panel, cl::PriceBasis::None);
        QVERIFY(panel.apply());
        QVERIFY(!doc.cluster().servers[4].price.stated());
        QCOMPARE(doc.cluster().servers[4].price, cl::ServerPrice{});
        doc.undoStack()->undo();
        QCOMPARE(doc.cluster().servers[4].price.purchase, 200000.0);
        doc.undoStack()->undo();
        QCOMPARE(doc.cluster().servers[4].price, partlyPriced().servers[4].price);
    }

    void mixedBasesStayUnlessChosen() {
        ClusterDocument doc;
        doc.setCluster(partlyPriced());
        ServerPropertiesPanel panel(&doc);
        doc.setSelection({3, 4});
        QCOMPARE(basisCombo(panel)->currentIndex(), -1);  // "(mixed)"
        // Another field's edit leaves both prices as they are.
        panel.setText(Field::Gpus, "4");
        QVERIFY(panel.apply());
        QVERIFY(!doc.cluster().servers[3].price.stated());
        QCOMPARE(doc.cluster().servers[4].price, partlyPriced().servers[4].price);
        QCOMPARE(doc.undoStack()->undoText(), QString("Change GPU count of 2 servers"));
    }

    void totalsBarShowsCostAndUnpricedServers() {
        ClusterDocument doc;
        doc.setCluster(partlyPriced());
        ClusterTotalsBar bar(&doc);
        const QString cost = QString("$%1 per month (cost excludes 4 unpriced servers)")
                                 .arg(QLocale().toString(7300.0, 'f', 0));  // 730 hours at $10
        QCOMPARE(bar.costText(), cost);
        const QLabel* costLabel = namedChild<QLabel>(bar, "clusterCost");
        QVERIFY(costLabel->toolTip().contains("1 server at $10.00/h: test quote, 2026"));
        QVERIFY(costLabel->toolTip().contains("cost excludes 4 unpriced servers"));

        cl::views::ServerChanges none;
        none.price_basis = cl::PriceBasis::None;
        QVERIFY(doc.setServerProperties({4}, none, nullptr));
        QVERIFY(bar.costText().isEmpty());  // nothing priced: no figure rather than "$0"
        QVERIFY(costLabel->isHidden());
        doc.undoStack()->undo();
        QCOMPARE(bar.costText(), cost);
    }
};

QTEST_MAIN(TestServerPriceEditing)
#include "test_server_price_editing.moc"
