#include "views/plan/plan_targets_editor.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "views/plan/wheel_guard.h"

namespace cl::views {

namespace {

enum Column { Jobs, Metric, Comparison, Value, Columns };

const QStringList& comparisons() {
    static const QStringList list = {QStringLiteral("<="), QStringLiteral("<"), QStringLiteral(">="),
                                     QStringLiteral(">")};
    return list;
}

}  // namespace

PlanTargetsEditor::PlanTargetsEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableWidget(0, Columns, this);
    m_table->setObjectName(QStringLiteral("planTargets"));
    m_table->setHorizontalHeaderLabels({tr("Jobs"), tr("Metric"), tr("Is"), tr("Value")});
    // Every column visible in the narrow inputs panel: the metric takes what the others leave,
    // the value keeps room for "30m" or "12h".
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Metric, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(Value, QHeaderView::Fixed);
    m_table->horizontalHeader()->resizeSection(Value, fontMetrics().averageCharWidth() * 9);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setToolTip(
        tr("Every plan must meet all of these. Durations take a unit: s, m, h or d (8h, 30m, 2d); "
           "slowdowns are plain ratios (4). "
           "Large jobs use more than 8 GPUs"));
    layout->addWidget(m_table, 1);
    auto* buttons = new QHBoxLayout;
    m_add = new QPushButton(tr("&Add target"), this);
    m_add->setObjectName(QStringLiteral("planTargetAdd"));
    m_add->setToolTip(tr("Add a target row"));
    m_remove = new QPushButton(tr("Remove target"), this);
    m_remove->setObjectName(QStringLiteral("planTargetRemove"));
    m_remove->setToolTip(tr("Remove the selected target row"));
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_add, &QPushButton::clicked, this, [this] { addRow(); });
    connect(m_remove, &QPushButton::clicked, this, &PlanTargetsEditor::removeCurrentRow);
    setTargets({QStringLiteral("p95_jct<=8h"), QStringLiteral("avg_queueing<=30m")});
}

void PlanTargetsEditor::addRow(const QString& text) {
    cl::PlanTarget t;
    try {
        t = cl::parsePlanTarget(text.toStdString());
    } catch (const std::invalid_argument&) {
        t = cl::parsePlanTarget("p95_jct<=8h");
    }
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* jobs = new QComboBox(m_table);
    jobs->addItem(tr("all"), QString());
    jobs->addItem(tr("large"), QStringLiteral("large:"));
    jobs->addItem(tr("small"), QStringLiteral("small:"));
    jobs->setCurrentIndex(t.jobs == cl::TargetJobs::Large ? 1 : t.jobs == cl::TargetJobs::Small ? 2 : 0);
    jobs->setToolTip(tr("All jobs, or only large (more than 8 GPUs) or small ones"));
    auto* metric = new QComboBox(m_table);
    for (const std::string& m : cl::planTargetMetrics()) metric->addItem(QString::fromStdString(m));
    metric->setCurrentText(QString::fromStdString(t.metric));
    metric->setToolTip(
        tr("What the target measures: a job completion time (JCT) or queueing statistic, "
           "the makespan, or a slowdown (the JCT over the job's run time alone)"));
    auto* comparison = new QComboBox(m_table);
    comparison->addItems(comparisons());
    comparison->setCurrentIndex(static_cast<int>(t.comparison));
    comparison->setToolTip(tr("How the metric must compare with the value"));
    // The value as written after the comparison ("8h").
    const std::string written =
        t.text.substr(t.text.find_first_of("<>") + (t.text.find('=') != std::string::npos ? 2 : 1));
    auto* value = new QLineEdit(QString::fromStdString(written), m_table);
    value->setToolTip(tr("A duration with its unit (90s, 30m, 8h, 2d); for a slowdown a plain ratio (4)"));
    for (QWidget* input : std::initializer_list<QWidget*>{jobs, metric, comparison, value})
        takeWheelOnlyWithFocus(input);
    // Combos as wide as their longest entry would push the value out of the panel.
    for (QComboBox* box : {jobs, metric, comparison}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(box == metric ? 8 : box == jobs ? 4 : 2);
    }
    m_table->setCellWidget(row, Jobs, jobs);
    m_table->setCellWidget(row, Metric, metric);
    m_table->setCellWidget(row, Comparison, comparison);
    m_table->setCellWidget(row, Value, value);
    for (QComboBox* box : {jobs, metric, comparison})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            validate();
            emit changed();
        });
    connect(value, &QLineEdit::textChanged, this, [this] {
        validate();
        emit changed();
    });
    validate();
    emit changed();
}

void PlanTargetsEditor::removeCurrentRow() {
    const int row = m_table->currentRow() >= 0 ? m_table->currentRow() : m_table->rowCount() - 1;
    if (row < 0) return;
    m_table->removeRow(row);
    validate();
    emit changed();
}

void PlanTargetsEditor::setTargets(const QStringList& texts) {
    m_table->setRowCount(0);
    for (const QString& t : texts) {
        try {
            cl::parsePlanTarget(t.toStdString());
        } catch (const std::invalid_argument&) {
            continue;
        }
        addRow(t);
    }
}

QString PlanTargetsEditor::rowText(int row) const {
    auto* jobs = qobject_cast<QComboBox*>(m_table->cellWidget(row, Jobs));
    auto* metric = qobject_cast<QComboBox*>(m_table->cellWidget(row, Metric));
    auto* comparison = qobject_cast<QComboBox*>(m_table->cellWidget(row, Comparison));
    auto* value = qobject_cast<QLineEdit*>(m_table->cellWidget(row, Value));
    return jobs->currentData().toString() + metric->currentText() + comparison->currentText() +
           value->text().trimmed();
}

QStringList PlanTargetsEditor::texts() const {
    QStringList out;
    for (int r = 0; r < m_table->rowCount(); ++r) out << rowText(r);
    return out;
}

std::vector<cl::PlanTarget> PlanTargetsEditor::targets(QString* error) const {
    std::vector<cl::PlanTarget> out;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        try {
            out.push_back(cl::parsePlanTarget(rowText(r).toStdString()));
        } catch (const std::invalid_argument& e) {
            if (error) *error = tr("Target %1: %2").arg(r + 1).arg(QString::fromStdString(e.what()));
            return {};
        }
    }
    if (out.empty() && error) *error = tr("Add at least one target");
    return out;
}

void PlanTargetsEditor::validate() {
    for (int r = 0; r < m_table->rowCount(); ++r) {
        auto* value = qobject_cast<QLineEdit*>(m_table->cellWidget(r, Value));
        QString problem;
        try {
            cl::parsePlanTarget(rowText(r).toStdString());
        } catch (const std::invalid_argument& e) {
            problem = QString::fromStdString(e.what());
        }
        // A bad value in red on the theme's own base stays legible in light and dark; a good one
        // takes the theme's colours again.
        QPalette p = QApplication::palette(value);
        if (!problem.isEmpty()) p.setColor(QPalette::Text, QColor(0xd0, 0x30, 0x30));
        value->setPalette(p);
        value->setToolTip(
            problem.isEmpty()
                ? tr("A duration with its unit (90s, 30m, 8h, 2d); for a slowdown a plain ratio (4)")
                : problem);
    }
}

}  // namespace cl::views
