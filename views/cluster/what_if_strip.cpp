#include "views/cluster/what_if_strip.h"

#include <cmath>

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "views/cluster/live_what_if.h"
#include "views/common/chart_style.h"
#include "views/common/format.h"

namespace cl::views {

namespace {

bool lowerIsBetter(WhatIfStrip::Figure figure) {
    return figure != WhatIfStrip::Utilization;
}

QString figureName(WhatIfStrip::Figure figure) {
    switch (figure) {
        case WhatIfStrip::AvgJct:
            return WhatIfStrip::tr("Avg JCT");
        case WhatIfStrip::P95Jct:
            return WhatIfStrip::tr("p95 JCT");
        case WhatIfStrip::Queueing:
            return WhatIfStrip::tr("Avg queueing");
        case WhatIfStrip::Utilization:
            return WhatIfStrip::tr("GPU utilization");
        case WhatIfStrip::CostPerMonth:
            return WhatIfStrip::tr("Cost / month");
        case WhatIfStrip::FigureCount:
            break;
    }
    return {};
}

QString figureMeaning(WhatIfStrip::Figure figure) {
    switch (figure) {
        case WhatIfStrip::AvgJct:
            return WhatIfStrip::tr(
                "Average job completion time (end \u2212 submit) over the trace's completed jobs. Lower is "
                "better.");
        case WhatIfStrip::P95Jct:
            return WhatIfStrip::tr(
                "95th percentile of the job completion times (nearest rank): the wait of the slowest "
                "twentieth of the jobs. Lower is better.");
        case WhatIfStrip::Queueing:
            return WhatIfStrip::tr(
                "Average queueing delay: the wait from submission to the first start. Lower is better.");
        case WhatIfStrip::Utilization:
            return WhatIfStrip::tr(
                "Mean GPU utilization: busy GPUs / all GPUs, averaged over the run's time. Higher means "
                "fewer "
                "GPUs paid for and idle; it often rises as queueing does.");
        case WhatIfStrip::CostPerMonth:
            return WhatIfStrip::tr(
                "What the cluster costs per month (730 hours): the sum of its servers' prices, hourly or "
                "amortized. Servers without a price count as free. Lower is better.");
        case WhatIfStrip::FigureCount:
            break;
    }
    return {};
}

QString signOf(double delta) {
    return delta > 0 ? QStringLiteral("+") : QStringLiteral("\u2212");
}

QString dollars(double value) {
    return QStringLiteral("$") + QLocale().toString(std::round(value), 'f', 0);
}

QString valueOf(WhatIfStrip::Figure figure, double value) {
    if (std::isnan(value)) return QStringLiteral("\u2013");
    switch (figure) {
        case WhatIfStrip::Utilization:
            return formatPercent(value);
        case WhatIfStrip::CostPerMonth:
            return dollars(value);
        default:
            return formatDuration(value);
    }
}

// The colour `wanted` made lighter (dark window) or darker (light window) until it reads as
// text on `window`.
QColor legibleOn(QColor wanted, const QColor& window) {
    const bool dark = isDarkColor(window);
    for (int i = 0; i < 12 && contrastRatio(wanted, window) < 4.5; ++i)
        wanted = dark ? wanted.lighter(115) : wanted.darker(115);
    return wanted;
}

}  // namespace

QColor WhatIfStrip::betterColor(const QPalette& palette) {
    const QColor window = palette.color(QPalette::Window);
    return legibleOn(isDarkColor(window) ? QColor(0x5f, 0xd0, 0x7e) : QColor(0x1a, 0x7f, 0x37), window);
}

QColor WhatIfStrip::worseColor(const QPalette& palette) {
    const QColor window = palette.color(QPalette::Window);
    return legibleOn(isDarkColor(window) ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28), window);
}

WhatIfStrip::WhatIfStrip(LiveWhatIf* whatIf, QWidget* parent) : QWidget(parent), m_whatIf(whatIf) {
    setObjectName(QStringLiteral("whatIfStrip"));
    const int em = fontMetrics().averageCharWidth();
    auto* layout = new QHBoxLayout(this);
    const int margin = fontMetrics().height() / 3;
    layout->setContentsMargins(margin * 2, margin, margin * 2, margin);
    layout->setSpacing(em * 2);
    // The strip never widens the window (1366 pixels wide screens): in a narrow editor the
    // status gives up its room first, then the figures are cut at the right.
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("whatIfTitle"));
    m_title->setTextFormat(Qt::RichText);

    // The figures above; the title, the status and the progress below.
    auto* column = new QVBoxLayout;
    column->setSpacing(margin / 2);
    m_figures = new QWidget(this);
    auto* cells = new QHBoxLayout(m_figures);
    cells->setContentsMargins(0, 0, 0, 0);
    cells->setSpacing(em * 5 / 2);
    for (int f = 0; f < FigureCount; ++f) {
        auto* cell = new QLabel(m_figures);
        cell->setTextFormat(Qt::RichText);
        cell->setObjectName(QStringLiteral("whatIfFigure%1").arg(f));
        cells->addWidget(cell);
        m_cells[static_cast<std::size_t>(f)] = cell;
    }
    cells->addStretch(1);
    column->addWidget(m_figures);

    auto* statusRow = new QHBoxLayout;
    statusRow->setSpacing(em * 2);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("whatIfStatus"));
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("whatIfProgress"));
    m_progress->setRange(0, 100);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(fontMetrics().height() * 2 / 3);
    m_progress->setFixedWidth(em * 24);
    m_progress->setToolTip(tr("How many of the trace's jobs the simulation has finished"));
    m_runScenario = new QPushButton(this);
    m_runScenario->setObjectName(QStringLiteral("whatIfRunScenario"));
    m_runScenario->setToolTip(
        tr("Run the scenario on its own cluster and store the run: the figures of "
           "each edit are then compared with it"));
    m_runScenario->hide();
    connect(m_runScenario, &QPushButton::clicked, this,
            [this] { emit runScenarioRequested(m_whatIf->scenario()); });
    statusRow->addWidget(m_title);
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_runScenario, 0, Qt::AlignVCenter);
    statusRow->addWidget(m_progress, 0, Qt::AlignVCenter);
    column->addLayout(statusRow);
    layout->addLayout(column, 1);

    setAutoFillBackground(true);
    connect(m_whatIf, &LiveWhatIf::changed, this, &WhatIfStrip::refresh);
    refresh();
}

void WhatIfStrip::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) refresh();
}

WhatIfStrip::Values WhatIfStrip::values(Figure figure) const {
    Values v{std::nan(""), std::nan(""), false, false};
    const auto& stored = m_whatIf->stored();
    const auto& current = m_whatIf->current();
    const bool haveStored = stored && stored->problem.empty();
    const bool haveCurrent = current && current->problem.empty();
    if (figure == CostPerMonth) {
        const cl::ClusterCost before = m_whatIf->storedCost();
        const cl::ClusterCost after = m_whatIf->currentCost();
        if (m_whatIf->state() != LiveWhatIf::State::NoScenario && before.anyPriced(m_whatIf->storedServers()))
            v = {before.per_month, v.current, true, false};
        if (after.per_month > 0 || after.unpriced_servers == 0) {
            v.current = after.per_month;
            v.has_current = true;
        }
        return v;
    }
    const auto pick = [figure](const cl::WhatIfFigures& f) {
        switch (figure) {
            case AvgJct:
                return f.avg_jct;
            case P95Jct:
                return f.p95_jct;
            case Queueing:
                return f.avg_queueing;
            default:
                return f.gpu_utilization;
        }
    };
    if (haveStored) v.stored = pick(*stored), v.has_stored = !std::isnan(v.stored);
    if (haveCurrent) v.current = pick(*current), v.has_current = !std::isnan(v.current);
    return v;
}

QString WhatIfStrip::valueText(Figure figure) const {
    const Values v = values(figure);
    if (!v.has_current && figure == CostPerMonth) return tr("no prices");
    // Servers without a price count as free: the sum is a lower bound.
    if (v.has_current && figure == CostPerMonth && m_whatIf->currentCost().unpriced_servers > 0)
        return tr("at least %1").arg(valueOf(figure, v.current));
    return v.has_current ? valueOf(figure, v.current) : QStringLiteral("\u2013");
}

QString WhatIfStrip::shortDeltaText(Figure figure) const {
    // The change without its percentage, which the tooltip gives.
    const QString full = deltaText(figure);
    const qsizetype paren = full.indexOf(QStringLiteral(" ("));
    return paren < 0 ? full : full.left(paren);
}

QString WhatIfStrip::deltaText(Figure figure) const {
    const Values v = values(figure);
    if (!v.has_stored || !v.has_current) return QStringLiteral("\u2013");
    const double delta = v.current - v.stored;
    if (delta == 0) return tr("no change");
    const QLocale locale;
    switch (figure) {
        case Utilization:
            return signOf(delta) + locale.toString(std::abs(delta) * 100.0, 'f', 1) + tr(" pts");
        case CostPerMonth: {
            QString text = signOf(delta) + dollars(std::abs(delta));
            if (v.stored > 0)
                text += QStringLiteral(" (%1%2 %)")
                            .arg(signOf(delta), locale.toString(std::abs(delta) / v.stored * 100.0, 'f', 1));
            return text;
        }
        default: {
            QString text = signOf(delta) + formatDuration(std::abs(delta));
            if (v.stored > 0)
                text += QStringLiteral(" (%1%2 %)")
                            .arg(signOf(delta), locale.toString(std::abs(delta) / v.stored * 100.0, 'f', 1));
            return text;
        }
    }
}

int WhatIfStrip::deltaVerdict(Figure figure) const {
    const Values v = values(figure);
    if (!v.has_stored || !v.has_current || v.current == v.stored) return 0;
    const bool lower = v.current < v.stored;
    return lower == lowerIsBetter(figure) ? 1 : -1;
}

QString WhatIfStrip::statusText() const {
    return m_status->text();
}

void WhatIfStrip::refresh() {
    using State = LiveWhatIf::State;
    const State state = m_whatIf->state();
    const QString scenario = m_whatIf->scenario();
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor window = pal.color(QPalette::Window);
    const auto mix = [&text, &window](double towardWindow) {
        const auto channel = [towardWindow](int a, int b) {
            return static_cast<int>(std::lround(a + (b - a) * towardWindow));
        };
        return QColor(channel(text.red(), window.red()), channel(text.green(), window.green()),
                      channel(text.blue(), window.blue()));
    };
    // Labels a third of the way to the window colour (still well above 4.5:1 on both themes);
    // figures being recomputed halfway, plainly dimmed.
    const QColor muted = mix(0.35);
    const QColor faded = mix(0.55);

    m_title->setText(QStringLiteral("<b>%1</b> <span style=\"color:%2\">%3</span>")
                         .arg(tr("What if"), muted.name(),
                              scenario.isEmpty() ? tr("(no scenario)") : scenario.toHtmlEscaped()));
    m_title->setToolTip(
        tr("Each edit of the cluster simulates the selected scenario's trace, with its policy and "
           "settings, on the edited cluster in the background, about a third of a second after the "
           "last edit (a newer edit cancels an older simulation). The figures are compared with the "
           "scenario's stored run. Undo and redo show the figures of a cluster simulated before at "
           "once. Nothing is stored in the workspace."));

    const bool showFigures = state == State::Simulating || state == State::Ready;
    m_figures->setVisible(showFigures);
    m_progress->setVisible(state == State::Simulating || state == State::Loading);
    m_progress->setValue(static_cast<int>(std::lround(m_whatIf->progress() * 100.0)));
    if (state == State::Loading)
        m_progress->setRange(0, 0);  // busy: reading takes no known time
    else
        m_progress->setRange(0, 100);

    const bool dim = state == State::Simulating;
    const QColor better = betterColor(pal);
    const QColor worse = worseColor(pal);
    for (int i = 0; i < FigureCount; ++i) {
        const auto f = static_cast<Figure>(i);
        const Values v = values(f);
        const int verdict = deltaVerdict(f);
        const QString delta = deltaText(f);
        const QString shortDelta = shortDeltaText(f);
        QString deltaHtml;
        if (v.has_stored && v.has_current) {
            const QColor c = dim ? faded : verdict > 0 ? better : verdict < 0 ? worse : muted;
            const QString arrow = v.current > v.stored   ? QStringLiteral("\u25b2\u00a0")
                                  : v.current < v.stored ? QStringLiteral("\u25bc\u00a0")
                                                         : QString();
            deltaHtml =
                QStringLiteral("&nbsp;<span style=\"color:%1\">%2%3</span>")
                    .arg(c.name(), arrow,
                         shortDelta.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
        }
        // A cluster without prices has no cost to show: said in the muted colour, not bold. One
        // with some servers unpriced says how many beside the figure's name, where it is read.
        const bool unpriced = f == CostPerMonth && !v.has_current;
        QString name = figureName(f).toHtmlEscaped();
        if (const int missing = m_whatIf->currentCost().unpriced_servers;
            f == CostPerMonth && v.has_current && missing > 0)
            name += QStringLiteral(" <span style=\"color:%1\">%2</span>")
                        .arg(worse.name(),
                             tr("(%1 of %n server(s) unpriced)", nullptr, m_whatIf->currentServers())
                                 .arg(missing)
                                 .toHtmlEscaped());
        m_cells[static_cast<std::size_t>(i)]->setText(
            QStringLiteral("<span style=\"color:%1\">%2</span><br><span style=\"color:%3;%4\">%5</span>%6")
                .arg(muted.name(), name, (dim || unpriced ? faded : text).name(),
                     unpriced ? QString() : QStringLiteral("font-weight:bold"),
                     valueText(f).toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")),
                     deltaHtml));
        QString tip =
            QStringLiteral("<p><b>%1</b></p><p>%2</p>").arg(figureName(f).toHtmlEscaped(), figureMeaning(f));
        QStringList numbers;
        if (v.has_stored) numbers << tr("Stored run: %1").arg(valueOf(f, v.stored));
        if (v.has_current) numbers << tr("This cluster: %1").arg(valueOf(f, v.current));
        if (v.has_stored && v.has_current)
            numbers << tr("Change: %1 (%2)")
                           .arg(delta, verdict > 0   ? tr("better")
                                       : verdict < 0 ? tr("worse")
                                                     : tr("no change"));
        if (f == CostPerMonth && m_whatIf->currentCost().unpriced_servers > 0)
            numbers << tr("No price for %n server(s) of this cluster: counted as free", nullptr,
                          m_whatIf->currentCost().unpriced_servers);
        if (dim) numbers << tr("Simulating the edited cluster: these are the previous figures");
        if (!numbers.isEmpty())
            tip += QStringLiteral("<p>") + numbers.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
        m_cells[static_cast<std::size_t>(i)]->setToolTip(tip);
    }

    QString status;
    const auto& current = m_whatIf->current();
    switch (state) {
        case State::NoScenario:
            status = tr("Select a scenario in the workspace to see how each edit changes its results.");
            break;
        case State::Loading:
            status = tr("Reading the scenario's trace and stored run\u2026");
            break;
        case State::Unavailable:
            status = m_whatIf->message();
            break;
        case State::Invalid:
            status = tr("This cluster cannot be simulated: %1").arg(m_whatIf->message());
            break;
        case State::Simulating:
            status =
                tr("Simulating the edited cluster\u2026 %1 %").arg(std::lround(m_whatIf->progress() * 100.0));
            break;
        case State::Ready:
            if (current && !current->problem.empty())
                status =
                    tr("This cluster cannot run the trace: %1").arg(QString::fromStdString(current->problem));
            else if (!m_whatIf->stored())
                status = tr("Scenario %1 has no stored run to compare with: run it to see the changes.")
                             .arg(scenario);
            else if (m_whatIf->isScenarioCluster())
                status = tr("The scenario's own cluster: the figures of its stored run.");
            else
                status = tr("Compared with the stored run of %1.").arg(scenario);
            if (current && current->problem.empty() && current->completed < current->jobs)
                status += QLatin1Char(' ') + tr("%1 of %2 jobs did not finish.")
                                                 .arg(current->jobs - current->completed)
                                                 .arg(current->jobs);
            if (m_whatIf->scenarioServerCount() > 0)
                status +=
                    QLatin1Char(' ') + tr("The scenario resizes its cluster to %n server(s); the editor's "
                                          "cluster is simulated as drawn.",
                                          nullptr, m_whatIf->scenarioServerCount());
            break;
    }
    m_status->setText(status);
    m_status->setToolTip(status);
    const bool noStoredRun = state == State::Ready && !m_whatIf->stored() && !scenario.isEmpty();
    m_runScenario->setText(tr("Run %1").arg(scenario));
    m_runScenario->setVisible(noStoredRun);
}

}  // namespace cl::views
