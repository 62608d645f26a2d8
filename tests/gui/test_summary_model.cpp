// The summary table model (QAbstractItemModelTester), duration and run-time formatting and
// series thinning.
#include <algorithm>
#include <cmath>
#include <limits>

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include "views/common/format.h"
#include "views/common/series_thinning.h"
#include "views/results/summary_table_model.h"

using cl::views::SummaryTableModel;

namespace {

cl::Summary sampleSummary() {
    cl::Summary s;
    s.jobs = 40;
    s.completed = 40;
    s.avg_jct = 3.2 * 3600.0;
    s.median_jct = 45.0;
    s.p95_jct = 750.0;
    s.p99_jct = 3.0 * 86400.0;
    s.makespan = 36.0 * 3600.0;
    s.avg_queueing_delay = 0.0;
    return s;
}

QString cell(const SummaryTableModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.data(model.index(row, column), role).toString();
}

}  // namespace

class TestSummaryModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void formatDuration_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << 0.0 << "0 s";
        QTest::newRow("seconds") << 45.0 << "45 s";
        QTest::newRow("fractional seconds") << 2.25 << "2.3 s";
        QTest::newRow("just below 100 s") << 99.9 << "99.9 s";
        QTest::newRow("minutes") << 750.0 << "12.5 min";
        QTest::newRow("whole minutes") << 120.0 << "2 min";
        QTest::newRow("hours") << 3.2 * 3600.0 << "3.2 h";
        QTest::newRow("many hours") << 36.0 * 3600.0 << "36 h";
        QTest::newRow("days") << 3.0 * 86400.0 << "3 d";
        QTest::newRow("fractional days") << 2.5 * 86400.0 << "2.5 d";
        QTest::newRow("hundreds of days") << 250.0 * 86400.0 << "250 d";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << QStringLiteral("\u2013");
        QTest::newRow("negative") << -1.0 << QStringLiteral("\u2013");
    }
    void formatDuration() {
        QFETCH(double, seconds);
        QFETCH(QString, expected);
        QCOMPARE(cl::views::formatDuration(seconds), expected);
    }

    void formatRunTime_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("start") << 0.0 << "00:00:00";
        QTest::newRow("first day") << 22 * 3600.0 + 5 * 60 + 30 << "22:05:30";
        QTest::newRow("a day") << 86400.0 << QStringLiteral("1\u00a0d\u00a000:00:00");
        QTest::newRow("third day") << 3 * 86400.0 + 22 * 3600 + 5 * 60 + 30
                                   << QStringLiteral("3\u00a0d\u00a022:05:30");
        QTest::newRow("rounds into the next day") << 86399.7 << QStringLiteral("1\u00a0d\u00a000:00:00");
        QTest::newRow("many days") << 123 * 86400.0 + 1 << QStringLiteral("123\u00a0d\u00a000:00:01");
        QTest::newRow("before the start") << -90.0 << "-00:01:30";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << QStringLiteral("\u2013");
    }
    void formatRunTime() {
        QFETCH(double, seconds);
        QFETCH(QString, expected);
        QCOMPARE(cl::views::formatRunTime(seconds), expected);
    }

    void formatDurationExact() {
        QCOMPARE(cl::views::formatDurationExact(12.5), QStringLiteral("12.50 s"));
        QCOMPARE(cl::views::formatDurationExact(11520.0), QStringLiteral("11520 s (3.2 h)"));
        QCOMPARE(cl::views::formatPercent(0.734), QStringLiteral("73.4 %"));
    }

    void modelTester() {
        SummaryTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        model.setPolicies({"fifo", "srtf", "srsf", "tiresias"});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(SummaryTableModel::ColumnCount));
        model.setRunning("srtf", 0.5);
        model.setSummary("fifo", sampleSummary());
        model.setFailed("srsf", "job 7 needs 128 GPUs");
        model.setUnfinishedCancelled();
        model.setSummary("unknown-policy", sampleSummary());  // ignored
        QCOMPARE(model.rowCount(), 4);
        model.setPolicies({"fifo"});
        QCOMPARE(model.rowCount(), 1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void displaysFormattedSummary() {
        SummaryTableModel model;
        model.setPolicies({"fifo", "srtf"});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setSummary("srtf", sampleSummary());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 1);

        QCOMPARE(cell(model, 1, SummaryTableModel::PolicyColumn), QStringLiteral("srtf"));
        QCOMPARE(cell(model, 1, SummaryTableModel::AvgJctColumn), QStringLiteral("3.2 h"));
        QCOMPARE(cell(model, 1, SummaryTableModel::MedianJctColumn), QStringLiteral("45 s"));
        QCOMPARE(cell(model, 1, SummaryTableModel::P95JctColumn), QStringLiteral("12.5 min"));
        QCOMPARE(cell(model, 1, SummaryTableModel::P99JctColumn), QStringLiteral("3 d"));
        QCOMPARE(cell(model, 1, SummaryTableModel::MakespanColumn), QStringLiteral("36 h"));
        QCOMPARE(cell(model, 1, SummaryTableModel::AvgQueueingColumn), QStringLiteral("0 s"));
        QCOMPARE(model.data(model.index(1, SummaryTableModel::AvgJctColumn), SummaryTableModel::RawValueRole)
                     .toDouble(),
                 3.2 * 3600.0);
        QVERIFY(cell(model, 1, SummaryTableModel::AvgJctColumn, Qt::ToolTipRole).contains("11520 s"));
        QVERIFY(cell(model, 1, SummaryTableModel::PolicyColumn, Qt::ToolTipRole).contains("40 of 40"));
        QCOMPARE(model.state(1), SummaryTableModel::RowState::Done);
        QVERIFY(model.summary(1).has_value());

        // The other row has no result yet.
        QCOMPARE(model.state(0), SummaryTableModel::RowState::Pending);
        QVERIFY(!model.summary(0).has_value());
        QVERIFY(!model.data(model.index(0, SummaryTableModel::AvgJctColumn), SummaryTableModel::RawValueRole)
                     .isValid());
    }

    // The summary's p95 queueing and size classes (docs/architecture.md 7.2): a class without a
    // completed job shows an en dash. The cost (section 7.8) is the cluster's for the makespan,
    // with the unpriced servers said in the cell; an unpriced cluster shows no figure.
    void tailSizeClassesAndCost() {
        SummaryTableModel model;
        model.setPolicies({"fifo", "srtf", "srsf"});
        cl::Summary s = sampleSummary();
        s.p95_queueing_delay = 90.0;
        s.small.completed = 40;
        s.small.p95_jct = 600.0;
        s.small.p99_jct = 7200.0;
        model.setSummary("fifo", s);
        QCOMPARE(cell(model, 0, SummaryTableModel::P95QueueingColumn), QStringLiteral("90 s"));
        QCOMPARE(cell(model, 0, SummaryTableModel::SmallP95JctColumn), QStringLiteral("10 min"));
        QCOMPARE(cell(model, 0, SummaryTableModel::SmallP99JctColumn), QStringLiteral("2 h"));
        QCOMPARE(cell(model, 0, SummaryTableModel::LargeP95JctColumn), QStringLiteral("\u2013"));
        QCOMPARE(cell(model, 0, SummaryTableModel::LargeP99JctColumn), QStringLiteral("\u2013"));
        QCOMPARE(cell(model, 0, SummaryTableModel::CostColumn), QStringLiteral("\u2013"));  // no cost given

        cl::ClusterCost cost;
        cost.per_hour = 50.0;
        cost.per_month = 50.0 * cl::kHoursPerMonth;
        cost.unpriced_servers = 2;
        model.setCost("fifo", cost, 6);
        // 36 h makespan at $50/h
        QCOMPARE(cell(model, 0, SummaryTableModel::CostColumn), QStringLiteral("$1800 (2 unpriced)"));
        QCOMPARE(cell(model, 0, SummaryTableModel::CostPerMonthColumn),
                 QStringLiteral("$36500 (2 unpriced)"));
        QCOMPARE(model.data(model.index(0, SummaryTableModel::CostColumn), SummaryTableModel::RawValueRole)
                     .toDouble(),
                 1800.0);
        QVERIFY(cell(model, 0, SummaryTableModel::CostColumn, Qt::ToolTipRole)
                    .contains("cost excludes 2 unpriced servers"));

        s.large.completed = 3;
        s.large.p99_jct = 86400.0;
        model.setSummary("srtf", s);
        cl::ClusterCost unpriced;
        unpriced.unpriced_servers = 6;
        model.setCost("srtf", unpriced, 6);
        QCOMPARE(cell(model, 1, SummaryTableModel::LargeP99JctColumn), QStringLiteral("24 h"));
        QCOMPARE(cell(model, 1, SummaryTableModel::CostColumn), QStringLiteral("\u2013"));
        QVERIFY(std::isnan(model.cost(1, SummaryTableModel::CostPerMonthColumn)));
        // A row without a run shows dashes in every new column too.
        QCOMPARE(cell(model, 2, SummaryTableModel::CostColumn), QStringLiteral("\u2013"));
    }

    void showsProgressFailureAndCancellation() {
        SummaryTableModel model;
        model.setPolicies({"fifo", "srtf", "srsf"});
        model.setRunning("fifo", 0.426);
        QCOMPARE(cell(model, 0, SummaryTableModel::AvgJctColumn), QStringLiteral("running 42%"));
        model.setFailed("srtf", "job 7 needs 128 GPUs");
        QCOMPARE(cell(model, 1, SummaryTableModel::AvgJctColumn), QStringLiteral("failed"));
        QVERIFY(cell(model, 1, SummaryTableModel::PolicyColumn, Qt::ToolTipRole).contains("128 GPUs"));
        model.setUnfinishedCancelled();
        QCOMPARE(model.state(0), SummaryTableModel::RowState::Cancelled);
        QCOMPARE(model.state(1), SummaryTableModel::RowState::Failed);
        QCOMPARE(model.state(2), SummaryTableModel::RowState::Cancelled);
        QCOMPARE(cell(model, 2, SummaryTableModel::AvgJctColumn), QStringLiteral("cancelled"));
    }

    void aRunThatStoppedEarlySaysSo() {
        // A plan point whose run stopped as soon as its outcome was known: its label says so, and
        // the tooltip gives the note and how many jobs its figures cover; a new summary clears it.
        SummaryTableModel model;
        model.setPolicies({"plan/a/fifo/n1/x1/s1"});
        cl::Summary s = sampleSummary();
        s.jobs = 300;
        s.completed = 120;
        model.setSummary("plan/a/fifo/n1/x1/s1", s);
        model.setStoppedEarly("plan/a/fifo/n1/x1/s1", "stopped early: overloaded: the backlog ...");
        QCOMPARE(cell(model, 0, SummaryTableModel::PolicyColumn),
                 QStringLiteral("plan/a/fifo/n1/x1/s1 (stopped early)"));
        const QString tip = cell(model, 0, SummaryTableModel::PolicyColumn, Qt::ToolTipRole);
        QVERIFY(tip.contains("stopped early: overloaded"));
        QVERIFY(tip.contains("only the 120 of 300 jobs finished by then"));
        QCOMPARE(model.policies().front(), QStringLiteral("plan/a/fifo/n1/x1/s1"));
        model.setSummary("plan/a/fifo/n1/x1/s1", s);
        QCOMPARE(cell(model, 0, SummaryTableModel::PolicyColumn), QStringLiteral("plan/a/fifo/n1/x1/s1"));
    }

    void headersHaveTitlesAndTooltips() {
        SummaryTableModel model;
        const QStringList expected{"Policy",    "Avg JCT",      "Median JCT",   "p95 JCT",  "p99 JCT",
                                   "Makespan",  "Avg queueing", "p95 queueing", "Cost",     "Cost/month",
                                   "Small p95", "Small p99",    "Large p95",    "Large p99"};
        QCOMPARE(model.columnCount(), int(expected.size()));
        for (int c = 0; c < model.columnCount(); ++c) {
            QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), expected.at(c));
            QVERIFY2(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().size() > 10,
                     qPrintable(expected.at(c)));
        }
    }

    void thinningKeepsExtremesAndBoundsSize() {
        QVector<double> t, v;
        for (int i = 0; i < 100000; ++i) {
            t.push_back(i);
            v.push_back(i == 54321 ? 1.0 : 0.5);
        }
        const auto thin = cl::views::thinMinMax(t, v, 200);
        QVERIFY(thin.t.size() <= 4 * 200 + 4);
        QCOMPARE(thin.t.size(), thin.v.size());
        QCOMPARE(thin.t.front(), 0.0);
        QCOMPARE(thin.t.back(), 99999.0);
        QVERIFY(std::is_sorted(thin.t.begin(), thin.t.end()));
        QVERIFY(thin.v.contains(1.0));
        QVERIFY(thin.t.contains(54321.0));

        const QVector<double> small_t{0, 1, 2}, small_v{1, 2, 3};
        QCOMPARE(cl::views::thinMinMax(small_t, small_v, 200).v, small_v);
    }
};

QTEST_MAIN(TestSummaryModel)
#include "test_summary_model.moc"
