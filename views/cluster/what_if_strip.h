#pragma once
// The strip under the cluster editor's diagram that shows the live what-if
// (docs/architecture.md section 1.8): the selected scenario's trace simulated on the edited
// cluster, as average and p95 JCT, average queueing, mean GPU utilisation and cost per month,
// each with its change against the scenario's stored run, better in green and worse in red
// (tuned to the palette so both themes read), with the sign and an arrow for colour-blind
// readers. It shows what LiveWhatIf holds and computes nothing.
#include <array>

#include <QColor>
#include <QString>
#include <QWidget>

class QLabel;
class QPalette;
class QProgressBar;
class QPushButton;

namespace cl::views {

class LiveWhatIf;

class WhatIfStrip : public QWidget {
    Q_OBJECT

public:
    enum Figure { AvgJct = 0, P95Jct, Queueing, Utilization, CostPerMonth, FigureCount };

    explicit WhatIfStrip(LiveWhatIf* whatIf, QWidget* parent = nullptr);

    // Plain texts of a figure's value and change ("2.4 h", "+12 min (+8.3 %)"; an en dash
    // when there is none, "no change" when equal, "no prices" for a cluster without prices, a
    // cost of a partly priced cluster as "at least $..."), and whether the change is better (1),
    // worse (-1) or neither (0).
    QString valueText(Figure figure) const;
    QString deltaText(Figure figure) const;
    // The change as the strip shows it, without the percentage ("+12 min").
    QString shortDeltaText(Figure figure) const;
    int deltaVerdict(Figure figure) const;
    // The line beside the figures: what is simulated, or why nothing is.
    QString statusText() const;

    // Legible green and red on the palette's window colour (contrast at least 4.5:1).
    static QColor betterColor(const QPalette& palette);
    static QColor worseColor(const QPalette& palette);

signals:
    // The scenario has no stored run to compare with and the user asked to run it.
    void runScenarioRequested(const QString& scenario);

public slots:
    void refresh();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Values {
        double stored;
        double current;
        bool has_stored;
        bool has_current;
    };
    Values values(Figure figure) const;

    LiveWhatIf* m_whatIf;
    QLabel* m_title;
    QWidget* m_figures;
    std::array<QLabel*, FigureCount> m_cells{};  // objectNames "whatIfFigure0" ... by Figure
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_runScenario;  // shown while there is no stored run to compare with
};

}  // namespace cl::views
