#include "views/timeline/timeline_panel.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <QAction>
#include <QComboBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPalette>
#include <QPen>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

#include "views/timeline/timeline_view.h"

namespace cl::views {

namespace {

using LegendEntries = std::vector<std::pair<QString, QColor>>;

// Lays the legend out in flowing lines, the merged-segments entry (mergedLabel) last, drawn
// like the blocks it stands for: TimelineView::mergedColor hatched in the page colour, framed so
// its edge shows on any page. Draws when `p`; returns the height used. *mergedSwatch gets that
// swatch's rectangle in p's device pixels.
double paintLegend(QPainter* p, const QRectF& area, LegendEntries entries, const QString& mergedLabel,
                   const QFont& font, const QPalette& pal, const QColor& text, const QColor& page,
                   QPaintDevice* device, QRectF* mergedSwatch = nullptr) {
    const QFontMetricsF fm(font, device);
    const double box = fm.height() * 0.7;
    const double gap = fm.averageCharWidth() * 2.5;
    double x = area.left(), y = area.top();
    if (p) p->setFont(font);
    entries.emplace_back(mergedLabel, TimelineView::mergedColor(pal));
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const auto& [label, color] = entries[i];
        const double w = box + fm.averageCharWidth() * 0.8 + fm.horizontalAdvance(label);
        if (x > area.left() && x + w > area.right()) {
            x = area.left();
            y += fm.height() * 1.2;
        }
        const QRectF r(x, y + (fm.height() - box) / 2, box, box);
        x += w + gap;
        if (!p) continue;
        if (!color.isValid()) {
            // A row split in two lanes, each holding a bar: GPU sharing.
            p->fillRect(QRectF(r.left(), r.top(), r.width(), r.height() * 0.45), text);
            p->fillRect(QRectF(r.left(), r.top() + r.height() * 0.55, r.width(), r.height() * 0.45), text);
        } else if (i + 1 == entries.size()) {
            p->fillRect(r, color);
            p->fillRect(r, QBrush(page, Qt::BDiagPattern));
            p->setPen(QPen(color, 0));
            p->setBrush(Qt::NoBrush);
            p->drawRect(r);
            if (mergedSwatch) *mergedSwatch = p->transform().mapRect(r);
        } else {
            p->fillRect(r, color);
        }
        p->setPen(text);
        p->drawText(QRectF(r.right() + fm.averageCharWidth() * 0.8, y, w, fm.height()),
                    Qt::AlignVCenter | Qt::AlignLeft, label);
    }
    return y - area.top() + fm.height() * 1.2;
}

}  // namespace

// The colour legend of the current mode, flowing over as many lines as the width needs.
class TimelineLegend : public QWidget {
public:
    explicit TimelineLegend(QWidget* parent) : QWidget(parent) {
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        setToolTip(TimelinePanel::tr(
            "What the bar colours mean; hatched grey blocks merge segments too narrow to draw; "
            "a GPU row split into lanes shows jobs sharing that GPU"));
    }
    void setEntries(LegendEntries entries) {
        m_entries = std::move(entries);
        updateGeometry();
        update();
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override {
        return static_cast<int>(
                   std::ceil(paintLegend(nullptr, QRectF(0, 0, w - margin() * 2, 1e6), m_entries,
                                         mergedLabel(), font(), palette(), QColor(), QColor(), nullptr))) +
               margin();
    }
    QSize sizeHint() const override {
        return {fontMetrics().averageCharWidth() * 80, heightForWidth(fontMetrics().averageCharWidth() * 80)};
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        paintLegend(&p, QRectF(margin(), margin() / 2.0, width() - 2 * margin(), height()), m_entries,
                    mergedLabel(), font(), palette(), palette().color(QPalette::WindowText),
                    palette().color(QPalette::Window), this);
    }
    void resizeEvent(QResizeEvent* e) override {
        QWidget::resizeEvent(e);
        if (height() != heightForWidth(width())) updateGeometry();
    }

private:
    int margin() const { return fontMetrics().averageCharWidth(); }
    static QString mergedLabel() { return TimelinePanel::tr("N segments merged (click to zoom)"); }
    LegendEntries m_entries;
};

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* bar = new QToolBar(this);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* colorLabel = new QLabel(tr("Colour by "), bar);
    bar->addWidget(colorLabel);
    m_colorMode = new QComboBox(bar);
    m_colorMode->setObjectName(QStringLiteral("timelineColorMode"));
    m_colorMode->addItem(tr("Model"), static_cast<int>(TimelineColorMode::Model));
    m_colorMode->addItem(tr("Bottleneck resource"), static_cast<int>(TimelineColorMode::Bottleneck));
    m_colorMode->addItem(tr("Job"), static_cast<int>(TimelineColorMode::Job));
    m_colorMode->setToolTip(
        tr("Colour bars by the job's model, by the resource its profile says limits it "
           "(largest stage time), or one colour per job"));
    colorLabel->setBuddy(m_colorMode);
    bar->addWidget(m_colorMode);
    bar->addSeparator();
    m_queueing = bar->addAction(tr("Show &queueing"));
    m_queueing->setObjectName(QStringLiteral("timelineQueueing"));
    m_queueing->setCheckable(true);
    m_queueing->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q));
    m_queueing->setToolTip(
        tr("Hatch each job's wait from submission to first start on the GPUs it first ran on "
           "(the selected job's wait is always shown)"));
    auto* collapse = bar->addAction(tr("Fold all servers"));
    collapse->setToolTip(tr("Show each server as one row with its busy share"));
    auto* expand = bar->addAction(tr("Unfold all servers"));
    expand->setToolTip(tr("Show one row per GPU"));
    bar->addSeparator();
    auto* fit = bar->addAction(tr("Zoom to fit"));
    fit->setToolTip(tr("Show the whole run (Home in the timeline)"));
    layout->addWidget(bar);
    m_legend = new TimelineLegend(this);
    layout->addWidget(m_legend);

    m_splitter = new QSplitter(Qt::Vertical, this);
    for (int i = 0; i < 2; ++i) {
        auto* box = new QWidget(m_splitter);
        auto* v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(0);
        m_titles[i] = new QLabel(box);
        QFont bold = m_titles[i]->font();
        bold.setBold(true);
        m_titles[i]->setFont(bold);
        m_titles[i]->setContentsMargins(fontMetrics().averageCharWidth(), fontMetrics().height() / 4,
                                        fontMetrics().averageCharWidth(), fontMetrics().height() / 4);
        m_views[i] = new TimelineView(box);
        m_views[i]->setObjectName(i == 0 ? QStringLiteral("timelineView")
                                         : QStringLiteral("secondTimelineView"));
        m_notices[i] = createNotStoredNotice(i, box);
        v->addWidget(m_titles[i]);
        v->addWidget(m_views[i], 1);
        v->addWidget(m_notices[i], 1);
        m_boxes[i] = box;
        m_splitter->addWidget(box);
    }
    m_boxes[1]->hide();
    layout->addWidget(m_splitter, 1);

    link(m_views[0], m_views[1]);
    link(m_views[1], m_views[0]);
    connect(m_colorMode, &QComboBox::currentIndexChanged, this, [this] { applyColorMode(); });
    connect(m_queueing, &QAction::toggled, this, [this](bool on) {
        for (auto* v : m_views) v->setShowQueueing(on);
    });
    connect(collapse, &QAction::triggered, this, [this] { m_views[0]->setAllCollapsed(true); });
    connect(expand, &QAction::triggered, this, [this] { m_views[0]->setAllCollapsed(false); });
    connect(fit, &QAction::triggered, this, [this] { m_views[0]->zoomToFit(); });
    applyColorMode();
}

// Stands in for the GPU rows of a run stored without them: says why they are missing and offers
// to simulate the scenario again with them. Palette colours only (light and dark theme alike),
// sizes from the font (any screen density).
QWidget* TimelinePanel::createNotStoredNotice(int which, QWidget* parent) {
    auto* notice = new QWidget(parent);
    notice->setBackgroundRole(QPalette::Base);  // the page the missing rows would be drawn on
    notice->setAutoFillBackground(true);
    const int em = fontMetrics().averageCharWidth();
    const int line = fontMetrics().height();
    auto* v = new QVBoxLayout(notice);
    v->setContentsMargins(em * 4, line, em * 4, line);
    v->setSpacing(line / 2);
    v->addStretch(1);
    auto* heading = new QLabel(tr("No GPU timeline stored"), notice);
    QFont bold = heading->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    heading->setFont(bold);
    heading->setForegroundRole(QPalette::Text);
    heading->setAlignment(Qt::AlignCenter);
    v->addWidget(heading);
    m_noticeTexts[which] = new QLabel(notice);
    m_noticeTexts[which]->setObjectName(which == 0 ? QStringLiteral("timelineNotStored")
                                                   : QStringLiteral("secondTimelineNotStored"));
    m_noticeTexts[which]->setForegroundRole(QPalette::Text);
    m_noticeTexts[which]->setWordWrap(true);
    m_noticeTexts[which]->setAlignment(Qt::AlignCenter);
    v->addWidget(m_noticeTexts[which]);
    auto* button = new QPushButton(tr("Simulate Again with Timeline"), notice);
    button->setObjectName(which == 0 ? QStringLiteral("simulateWithTimeline")
                                     : QStringLiteral("secondSimulateWithTimeline"));
    button->setToolTip(
        tr("Simulate this run's scenario again and store a new run with its GPU timeline; the "
           "figures will be the same (a plan point that stopped early stops at the same moment)"));
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(button);
    row->addStretch(1);
    v->addLayout(row);
    v->addStretch(1);
    connect(button, &QPushButton::clicked, this,
            [this, which] { emit simulateWithTimelineRequested(which); });
    notice->hide();
    return notice;
}

bool TimelinePanel::timelineNotStored(const cl::SimResult& result) {
    return std::any_of(result.notes.begin(), result.notes.end(), [](const std::string& note) {
        return note.rfind(cl::kTimelineNotStoredNote, 0) == 0;
    });
}

QString TimelinePanel::notStoredText(const cl::SimResult& result) {
    const QString stored =
        tr("This run is a plan point, stored without its GPU timeline to keep plans fast and small.");
    // A plan point's run may have stopped as soon as its outcome was known (docs/architecture.md
    // 7.9): its figures then cover only the jobs finished by then, and the reader must know.
    // The note reads "stopped early: overloaded: the backlog ..."; the sentence says "stopped
    // early" itself, so it quotes what follows.
    static const std::string kStoppedEarly = "stopped early: ";
    if (const std::string* note = cl::stoppedEarlyNote(result.notes)) {
        const std::string why =
            note->rfind(kStoppedEarly, 0) == 0 ? note->substr(kStoppedEarly.size()) : *note;
        return stored + QLatin1Char(' ') +
               tr("It stopped early, %1. Its figures cover only the jobs finished by then.")
                   .arg(QString::fromStdString(why));
    }
    return stored + QLatin1Char(' ') + tr("Its figures are complete.");
}

void TimelinePanel::showNotStored(int which, const cl::SimResult* result) {
    const bool notStored = result && timelineNotStored(*result);
    if (notStored) m_noticeTexts[which]->setText(notStoredText(*result));
    m_notStored[which] = notStored;
    m_views[which]->setVisible(!notStored);
    m_notices[which]->setVisible(notStored);
}

void TimelinePanel::link(TimelineView* from, TimelineView* to) {
    connect(from, &TimelineView::visibleRangeChanged, to, [from, to](double t0, double t1) {
        if (from->result() && to->result()) to->setVisibleRange(t0, t1);
    });
    connect(from, &TimelineView::serverCollapsedChanged, to, &TimelineView::setServerCollapsed);
    connect(from, &TimelineView::verticalScrolled, to, [to](int v) { to->verticalScrollBar()->setValue(v); });
    // Selecting in the second view selects in the first, which reports it once.
    connect(from, &TimelineView::jobSelected, this, [this, from, to](int job) {
        to->selectJob(job);
        if (from == m_views[0]) emit jobSelected(job);
    });
    connect(from, &TimelineView::timeCursorChanged, this, [this, to](double t) {
        to->setTimeCursor(t);
        emit timeCursorChanged(t);
    });
}

void TimelinePanel::applyColorMode() {
    const auto mode = static_cast<TimelineColorMode>(m_colorMode->currentData().toInt());
    for (auto* v : m_views) v->setColorMode(mode);
    m_legend->setEntries(m_views[0]->legend());
}

void TimelinePanel::setRun(const cl::Cluster& cluster, std::shared_ptr<const cl::SimResult> result,
                           const cl::ProfileSet* profiles, const QString& title) {
    m_cluster = cluster;
    m_profiles = profiles;
    showNotStored(0, result.get());
    m_views[0]->setRun(cluster, std::move(result), profiles);
    m_titles[0]->setText(title);
    m_titles[0]->setVisible(!title.isEmpty());
    setSecondRun(nullptr, QString());
    applyColorMode();
}

void TimelinePanel::setSecondRun(std::shared_ptr<const cl::SimResult> result, const QString& title) {
    const bool two = result != nullptr;
    showNotStored(1, result.get());
    m_views[1]->setRun(m_cluster, std::move(result), m_profiles);
    m_titles[1]->setText(title);
    m_boxes[1]->setVisible(two);
    // The first view's title tells the runs apart only when there are two.
    m_titles[0]->setVisible(two || !m_titles[0]->text().isEmpty());
    if (!two) return;
    TimelineView* a = m_views[0];
    TimelineView* b = m_views[1];
    for (int s = 0; s < a->layout().serverCount(); ++s) b->setServerCollapsed(s, a->isServerCollapsed(s));
    b->setShowQueueing(a->showQueueing());
    b->setColorMode(a->colorMode());
    b->setVisibleRange(a->visibleStart(), a->visibleEnd());
    // Runs of different lengths: show the union so both are whole.
    if (b->visibleStart() != a->visibleStart() || b->visibleEnd() != a->visibleEnd())
        a->setVisibleRange(b->visibleStart(), b->visibleEnd());
    b->selectJob(a->selectedJob());
    b->verticalScrollBar()->setValue(a->verticalScrollBar()->value());
    m_splitter->setSizes({1, 1});
}

bool TimelinePanel::hasSecondRun() const {
    return m_views[1]->result() != nullptr;
}

void TimelinePanel::setTimeCursor(double t) {
    for (auto* v : m_views) v->setTimeCursor(t);
}

void TimelinePanel::paintExport(QPainter& painter, const QRectF& target, const QString& title) {
    painter.save();
    const QPalette pal = palette();
    painter.fillRect(target, pal.color(QPalette::Base));
    QFont titleFont = font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    const QFontMetricsF tfm(titleFont, painter.device());
    const QFontMetricsF fm(font(), painter.device());
    const double margin = fm.averageCharWidth() * 1.5;
    QRectF area = target.adjusted(margin, margin * 0.6, -margin, -margin * 0.6);
    painter.setFont(titleFont);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRectF(area.left(), area.top(), area.width(), tfm.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, title);
    area.setTop(area.top() + tfm.height() * 1.2);
    const double legendH = paintLegend(&painter, area, m_views[0]->legend(), tr("N segments merged"), font(),
                                       pal, pal.color(QPalette::Text), pal.color(QPalette::Base),
                                       painter.device(), &m_exportMergedSwatch);
    area.setTop(area.top() + legendH + fm.height() * 0.3);
    const int runs = hasSecondRun() ? 2 : 1;
    const double each = area.height() / runs;
    for (int i = 0; i < runs; ++i) {
        QRectF box(area.left(), area.top() + i * each, area.width(), each);
        if (runs == 2 || !m_titles[i]->text().isEmpty()) {
            QFont bold = font();
            bold.setBold(true);
            painter.setFont(bold);
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(QRectF(box.left(), box.top(), box.width(), fm.height() * 1.3),
                             Qt::AlignLeft | Qt::AlignVCenter, m_titles[i]->text());
            box.setTop(box.top() + fm.height() * 1.4);
        }
        painter.setFont(font());
        if (m_notStored[i]) {
            // No rows to draw: what the page says instead.
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(box.adjusted(margin * 2, 0, -margin * 2, 0), Qt::AlignCenter | Qt::TextWordWrap,
                             m_noticeTexts[i]->text());
            continue;
        }
        m_views[i]->paintScene(painter, box.adjusted(0, 0, 0, i + 1 < runs ? -fm.height() * 0.5 : 0));
    }
    painter.restore();
}

}  // namespace cl::views
