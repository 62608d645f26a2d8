#include "views/cluster/partitions_panel.h"

#include <algorithm>

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "views/cluster/cluster_document.h"
#include "views/cluster/partition_table_model.h"
#include "views/cluster/what_if_strip.h"

namespace cl::views {

namespace {

// Rows shown before the table scrolls: the tree above keeps most of a 768-pixel screen.
constexpr int kVisibleRows = 5;

}  // namespace

PartitionsPanel::PartitionsPanel(ClusterDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_model(new PartitionTableModel(document, this)),
      m_table(new QTableView(this)),
      m_add(new QToolButton(this)),
      m_remove(new QToolButton(this)),
      m_hint(new QLabel(this)),
      m_message(new QLabel(this)) {
    m_table->setObjectName(QStringLiteral("partitionsTable"));
    m_add->setObjectName(QStringLiteral("partitionsAdd"));
    m_remove->setObjectName(QStringLiteral("partitionsRemove"));
    m_hint->setObjectName(QStringLiteral("partitionsHint"));
    m_message->setObjectName(QStringLiteral("partitionsMessage"));

    auto* heading = new QLabel(tr("Partitions"), this);
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    heading->setToolTip(
        tr("Slurm partitions: named sets of servers that jobs ask for. A server's partitions are in its "
           "Partitions field; jobs of a partition run only on its servers."));
    m_add->setText(tr("Add"));
    m_add->setToolTip(tr("Add a partition (PriorityTier 1, no MaxTime); one undo step"));
    m_remove->setText(tr("Remove"));
    m_remove->setToolTip(
        tr("Remove the selected partition from the cluster and from every server; one "
           "undo step"));
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(heading);
    top->addStretch(1);
    top->addWidget(m_add);
    top->addWidget(m_remove);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(PartitionTableModel::NameColumn,
                                                      QHeaderView::Interactive);
    m_table->verticalHeader()->setMinimumSectionSize(0);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() * 3 / 2);
    // The viewport's own resize: the table's comes before its viewport has the new width.
    m_table->viewport()->installEventFilter(this);
    for (int c = PartitionTableModel::TierColumn; c < PartitionTableModel::ColumnCount; ++c)
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->setToolTip(
        tr("Double-click or type to edit; Space toggles Default. Each edit is one undo step."));

    m_hint->setText(tr("None: every job may use every server."));
    m_hint->setWordWrap(true);
    QPalette dim = m_hint->palette();
    dim.setColor(QPalette::WindowText, palette().color(QPalette::PlaceholderText));
    m_hint->setPalette(dim);
    m_message->setWordWrap(true);
    m_message->hide();
    applyMessageColour();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(fontMetrics().averageCharWidth() / 2, fontMetrics().height() / 4, 0, 0);
    layout->setSpacing(fontMetrics().height() / 4);
    layout->addLayout(top);
    layout->addWidget(m_table);
    layout->addWidget(m_hint);
    layout->addWidget(m_message);

    connect(m_add, &QToolButton::clicked, this, &PartitionsPanel::addPartition);
    connect(m_remove, &QToolButton::clicked, this, &PartitionsPanel::removeCurrent);
    connect(m_model, &PartitionTableModel::refused, this, &PartitionsPanel::showMessage);
    // A refusal's message stays until the cluster changes (an edit, undo or redo).
    connect(document, &ClusterDocument::changed, this, [this] { showMessage({}); });
    connect(m_model, &QAbstractItemModel::modelReset, this, &PartitionsPanel::refresh);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &PartitionsPanel::fitColumns);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this, &PartitionsPanel::refresh);
    refresh();
}

QString PartitionsPanel::message() const {
    return m_message->text();
}

void PartitionsPanel::showMessage(const QString& text) {
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void PartitionsPanel::addPartition() {
    QString error;
    if (!m_document->addPartition(&error)) {
        showMessage(error);
        return;
    }
    showMessage({});
    const QModelIndex name = m_model->index(m_model->rowCount() - 1, PartitionTableModel::NameColumn);
    m_table->setCurrentIndex(name);
    m_table->scrollTo(name);
    if (isVisible()) m_table->edit(name);
}

void PartitionsPanel::removeCurrent() {
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        showMessage(tr("Select the partition to remove."));
        return;
    }
    showMessage({});
    m_document->removePartition(current.row());
}

void PartitionsPanel::refresh() {
    const int rows = m_model->rowCount();
    m_table->setVisible(rows > 0);
    m_hint->setVisible(rows == 0);
    m_remove->setEnabled(rows > 0 && m_table->currentIndex().isValid());
    if (rows == 0) return;
    // As tall as its rows, up to kVisibleRows; more scroll.
    const int shown = std::min(rows, kVisibleRows);
    const int rowHeight = m_table->verticalHeader()->defaultSectionSize();
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() + shown * rowHeight +
                            2 * m_table->frameWidth() + m_table->horizontalScrollBar()->sizeHint().height());
    fitColumns();
}

void PartitionsPanel::fitColumns() {
    QHeaderView* header = m_table->horizontalHeader();
    int others = 0;
    for (int c = PartitionTableModel::TierColumn; c < PartitionTableModel::ColumnCount; ++c)
        others += header->sectionSize(c);
    const QFontMetrics metrics = m_table->fontMetrics();
    int names = header->fontMetrics().horizontalAdvance(
        m_model->headerData(PartitionTableModel::NameColumn, Qt::Horizontal).toString());
    for (int r = 0; r < m_model->rowCount(); ++r)
        names = std::max(names, metrics.horizontalAdvance(m_model->index(r, 0).data().toString()));
    names += 2 * metrics.averageCharWidth() + 2 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin);
    header->resizeSection(PartitionTableModel::NameColumn,
                          std::max(names, m_table->viewport()->width() - others));
    // Never narrower than every column whole: beside the tree on a 1366 x 768 screen the pane
    // got a fifth of the editor's width and cut PriorityTier, MaxTime and Default off. The
    // editor's splitter keeps this minimum, so the diagram gives way instead.
    const QAbstractItemView* view = m_table;  // sizeHintForColumn is public there
    int needed = names;
    for (int c = PartitionTableModel::TierColumn; c < PartitionTableModel::ColumnCount; ++c)
        needed += std::max(header->sectionSizeHint(c), view->sizeHintForColumn(c));
    needed += 2 * m_table->frameWidth();
    if (m_model->rowCount() > kVisibleRows) needed += m_table->verticalScrollBar()->sizeHint().width();
    if (m_table->minimumWidth() != needed) m_table->setMinimumWidth(needed);
}

bool PartitionsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table->viewport() && event->type() == QEvent::Resize) fitColumns();
    return QWidget::eventFilter(watched, event);
}

void PartitionsPanel::applyMessageColour() {
    QPalette red = m_message->palette();
    red.setColor(QPalette::WindowText, WhatIfStrip::worseColor(palette()));
    m_message->setPalette(red);
}

// The refusal's red is worked out from the window colour, so it reads in either theme.
void PartitionsPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        applyMessageColour();
        QPalette dim = m_hint->palette();
        dim.setColor(QPalette::WindowText, palette().color(QPalette::PlaceholderText));
        m_hint->setPalette(dim);
    }
}

}  // namespace cl::views
