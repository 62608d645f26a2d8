#pragma once
// The targets of a plan as rows (docs/architecture.md 7.7): which jobs, the metric, the
// comparison and the value with its unit ("8h", "30m"), with add and remove. A row that does not
// parse is marked and named by targets().
#include <vector>

#include <QStringList>
#include <QWidget>

#include "core/metrics/plan_target.h"

class QPushButton;
class QTableWidget;

namespace cl::views {

class PlanTargetsEditor : public QWidget {
    Q_OBJECT

public:
    explicit PlanTargetsEditor(QWidget* parent = nullptr);

    // Rows from target texts ("large:p99_jct<=2d"); texts that do not parse are skipped.
    void setTargets(const QStringList& texts);
    // The rows as text, as written.
    QStringList texts() const;
    // The parsed targets; on a bad row, an empty list and the reason in *error.
    std::vector<cl::PlanTarget> targets(QString* error) const;
    void addRow(const QString& text = QStringLiteral("p95_jct<=8h"));
    void removeCurrentRow();

signals:
    void changed();

private:
    QString rowText(int row) const;
    void validate();
    QTableWidget* m_table = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_remove = nullptr;
};

}  // namespace cl::views
