#include "views/cluster/server_properties_panel.h"

#include <cmath>
#include <exception>
#include <optional>
#include <set>

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include "core/metrics/cluster_cost.h"
#include "core/model/server_architecture.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/server_types.h"
#include "views/common/cost_text.h"
#include "views/common/format.h"
#include "views/common/hint_color.h"

namespace cl::views {

namespace {

using Field = ServerPropertiesPanel::Field;
using L = ServerLimits;

std::optional<double> parseNumber(const QString& text) {
    bool ok = false;
    double v = QLocale().toDouble(text, &ok);
    if (!ok) v = QLocale::c().toDouble(text, &ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<int> parseWhole(const QString& text) {
    const std::optional<double> v = parseNumber(text);
    if (!v || *v != std::floor(*v) || std::abs(*v) > 1e9) return std::nullopt;
    return static_cast<int>(*v);
}

// Sizes to a tenth, prices to the cent (or four decimals below a dollar).
QString number(double value, int decimals = 1) {
    return formatDecimal(value, decimals);
}
QString money(double value) {
    return formatDecimal(value, std::abs(value) < 1.0 ? 4 : 2);
}

// One field's value on a server, as the panel shows it.
QString valueOf(const cl::Server& s, Field f) {
    switch (f) {
        case Field::Name:
            return QString::fromStdString(s.name);
        case Field::Rack:
            return QString::fromStdString(s.rack);
        case Field::Partitions:
            return partitionListText(s.partitions);
        case Field::GpuType:
            return QString::fromStdString(s.gpu_type);
        case Field::Gpus:
            return QString::number(s.gpus);
        case Field::GpuMemory:
            return number(s.gpu_memory_gb);
        case Field::CpuCores:
            return QString::number(s.cpu_cores);
        case Field::Memory:
            return number(s.memory_gb);
        case Field::Network:
            return number(s.network_gbps);
        // A figure of another basis than the server's shows empty: it is not part of its price.
        case Field::PricePerHour:
            return s.price.basis == cl::PriceBasis::Hourly ? money(s.price.per_hour) : QString();
        case Field::PurchasePrice:
            return s.price.basis == cl::PriceBasis::Amortized ? money(s.price.purchase) : QString();
        case Field::AmortizationYears:
            return s.price.basis == cl::PriceBasis::Amortized ? number(s.price.amortization_years, 2)
                                                              : QString();
        case Field::PowerPerHour:
            return s.price.basis == cl::PriceBasis::Amortized ? money(s.price.power_per_hour) : QString();
        case Field::PriceSource:
            return QString::fromStdString(s.price.source);
    }
    return {};
}

constexpr Field kFields[] = {Field::Name,         Field::Rack,          Field::Partitions,
                             Field::GpuType,      Field::Gpus,          Field::GpuMemory,
                             Field::CpuCores,     Field::Memory,        Field::Network,
                             Field::PricePerHour, Field::PurchasePrice, Field::AmortizationYears,
                             Field::PowerPerHour, Field::PriceSource};

// The objectName of a field's editor: its line edit, or the combo box of the rack and GPU type.
QString fieldObjectName(Field f) {
    switch (f) {
        case Field::Name:
            return QStringLiteral("serverName");
        case Field::Rack:
            return QStringLiteral("serverRack");
        case Field::Partitions:
            return QStringLiteral("serverPartitions");
        case Field::GpuType:
            return QStringLiteral("serverGpuType");
        case Field::Gpus:
            return QStringLiteral("serverGpus");
        case Field::GpuMemory:
            return QStringLiteral("serverGpuMemory");
        case Field::CpuCores:
            return QStringLiteral("serverCpuCores");
        case Field::Memory:
            return QStringLiteral("serverMemory");
        case Field::Network:
            return QStringLiteral("serverNetwork");
        case Field::PricePerHour:
            return QStringLiteral("serverPricePerHour");
        case Field::PurchasePrice:
            return QStringLiteral("serverPurchasePrice");
        case Field::AmortizationYears:
            return QStringLiteral("serverAmortizationYears");
        case Field::PowerPerHour:
            return QStringLiteral("serverPowerPerHour");
        case Field::PriceSource:
            return QStringLiteral("serverPriceSource");
    }
    return {};
}

bool isPriceFigure(Field f) {
    return f == Field::PricePerHour || f == Field::PurchasePrice || f == Field::AmortizationYears ||
           f == Field::PowerPerHour;
}

}  // namespace

ServerPropertiesPanel::ServerPropertiesPanel(ClusterDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_heading(new QLabel(this)),
      m_rack(new QComboBox(this)),
      m_gpuType(new QComboBox(this)),
      m_speed(new QLabel(this)),
      m_architecture(new QComboBox(this)),
      m_priceBasis(new QComboBox(this)),
      m_approximate(new QCheckBox(tr("Appr&oximate figure"), this)),
      m_priceSummary(new QLabel(this)),
      m_message(new QLabel(this)),
      m_apply(new QPushButton(tr("&Apply"), this)),
      m_revert(new QPushButton(tr("&Revert"), this)) {
    setObjectNames();
    // The fields scroll when the panel is short (a 768-pixel screen); Apply and Revert stay in view.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("serverPropertiesScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QWidget* content = createFieldsPage(scroll);
    scroll->setWidget(content);
    // As wide as the fields need: only the height scrolls.
    scroll->setMinimumWidth(content->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());
    outer->addWidget(scroll, 1);
    outer->addLayout(createButtonRow(content->layout()->contentsMargins()));
    setMinimumWidth(fontMetrics().averageCharWidth() * 34);

    connect(m_apply, &QPushButton::clicked, this, &ServerPropertiesPanel::apply);
    connect(m_revert, &QPushButton::clicked, this, &ServerPropertiesPanel::revert);
    connect(document, &ClusterDocument::selectionChanged, this, &ServerPropertiesPanel::revert);
    connect(document, &ClusterDocument::changed, this, &ServerPropertiesPanel::revert);
    revert();
}

// Names to find the widgets by (the fields' line edits get theirs in addFieldRow).
void ServerPropertiesPanel::setObjectNames() {
    m_architecture->setObjectName(QStringLiteral("serverArchitecture"));
    m_priceBasis->setObjectName(QStringLiteral("serverPriceBasis"));
    m_approximate->setObjectName(QStringLiteral("serverPriceApproximate"));
    m_priceSummary->setObjectName(QStringLiteral("serverPriceSummary"));
    m_speed->setObjectName(QStringLiteral("serverGpuSpeed"));
    m_apply->setObjectName(QStringLiteral("serverPropertiesApply"));
    m_revert->setObjectName(QStringLiteral("serverPropertiesRevert"));
}

QPalette ServerPropertiesPanel::errorPalette() const {
    QPalette errors = palette();
    errors.setColor(QPalette::WindowText, errorTextColor(palette()));
    return errors;
}

QPalette ServerPropertiesPanel::dimPalette() const {
    QPalette dim = palette();
    dim.setColor(QPalette::WindowText, hintTextColor(palette()));
    return dim;
}

// The hints and messages hold a colour of their own, computed from the palette of the time: a
// theme switch must compute it again, or the light theme's grey stays on the dark window.
void ServerPropertiesPanel::restyleHints() {
    m_restylePending = false;
    const QPalette dim = dimPalette(), errors = errorPalette();
    m_speed->setPalette(dim);
    m_priceSummary->setPalette(dim);
    m_message->setPalette(errors);
    for (Row& r : m_rows)
        if (r.error) r.error->setPalette(errors);
}

void ServerPropertiesPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    // A theme switch sets the style, the palette and the style sheet one after the other, and the
    // widgets see the changes in no fixed order (a label's palette may be re-resolved after this
    // panel's), so the colours are computed once it is done, from the palette it left.
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) &&
        !m_restylePending) {
        m_restylePending = true;
        QMetaObject::invokeMethod(this, &ServerPropertiesPanel::restyleHints, Qt::QueuedConnection);
    }
}

// The heading, the fields with the architecture and the price, and the message line: the part
// of the panel that scrolls.
QWidget* ServerPropertiesPanel::createFieldsPage(QScrollArea* scroll) {
    auto* content = new QWidget(scroll);
    auto* body = new QVBoxLayout(content);
    QFont headingFont = m_heading->font();
    headingFont.setBold(true);
    m_heading->setFont(headingFont);
    m_heading->setWordWrap(true);
    body->addWidget(m_heading);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    body->addLayout(form);
    addFieldRows(form);
    setUpArchitectureCombo();
    setUpPriceControls();
    for (const QString& type : knownGpuTypes()) {
        m_gpuType->addItem(type);
        m_gpuType->setItemData(m_gpuType->count() - 1, gpuSpeedText(type), Qt::ToolTipRole);
    }

    m_message->setWordWrap(true);
    m_message->setPalette(errorPalette());
    body->addWidget(m_message);
    body->addStretch(1);
    return content;
}

void ServerPropertiesPanel::addFieldRows(QFormLayout* form) {
    m_rack->setEditable(true);
    m_rack->setInsertPolicy(QComboBox::NoInsert);
    m_gpuType->setEditable(true);
    m_gpuType->setInsertPolicy(QComboBox::NoInsert);

    addFieldRow(form, Field::Name, tr("&Name:"),
                tr("Server name, unique in the cluster (single selection only)"));
    addFieldRow(form, Field::Rack, tr("Rac&k:"),
                tr("Rack the server sits in; type a new name to create a rack, "
                   "leave empty for no rack"));
    addFieldRow(form, Field::Partitions, tr("Partitions:"),
                tr("Slurm partitions the server is in, separated by commas (a node's Partitions=; a "
                   "server may be in several). A partition the cluster does not have yet is added with "
                   "PriorityTier 1, no MaxTime. Empty: in no partition."));
    addFieldRow(form, Field::GpuType, tr("GPU &type:"),
                tr("GPU model; the simulator scales job speed by the type's factor "
                   "from the built-in profiles"));
    addFieldRow(form, Field::Gpus, tr("GPU &count:"),
                tr("GPUs per server, %1 to %2").arg(L::kMinGpus).arg(L::kMaxGpus));
    addFieldRow(form, Field::GpuMemory, tr("GPU &memory (GB):"),
                tr("Memory of each GPU in GB, above 0 and at most %1").arg(L::kMaxGpuMemoryGb));
    addFieldRow(form, Field::CpuCores, tr("C&PU cores:"),
                tr("CPU cores per server, %1 to %2").arg(L::kMinCpuCores).arg(L::kMaxCpuCores));
    addFieldRow(form, Field::Memory, tr("&DRAM (GB):"),
                tr("Host memory per server in GB, above 0 and at most %1").arg(L::kMaxMemoryGb));
    addFieldRow(form, Field::Network, tr("N&IC (Gb/s):"),
                tr("Network bandwidth per server in Gb/s, above 0 and at most %1").arg(L::kMaxNetworkGbps));
    // The hardware's internals close the hardware (addFieldRow puts the architecture and the
    // price heading before the first price figure); the price (section 7.8) follows.
    addFieldRow(form, Field::PricePerHour, tr("P&er hour (USD):"),
                tr("Rental price of one server per hour in US dollars, e.g. a cloud's on-demand list price"));
    addFieldRow(form, Field::PurchasePrice, tr("P&urchase (USD):"),
                tr("Purchase price of one server in US dollars"));
    addFieldRow(form, Field::AmortizationYears, tr("Amortized over (&years):"),
                tr("Years over which the purchase price is spread, above 0 and at most %1")
                    .arg(L::kMaxAmortizationYears));
    addFieldRow(form, Field::PowerPerHour, tr("Po&wer per hour (USD):"),
                tr("Cost of the server's power and cooling per hour of use, in US dollars"));
    addFieldRow(form, Field::PriceSource, tr("Price &source:"),
                tr("Where the figures come from, with their date (a price list, a quote)"));
}

// One field: its editor (a line edit, or the rack or GPU type combo), the GPU type's speed, the
// field's error message and its label.
void ServerPropertiesPanel::addFieldRow(QFormLayout* form, Field field, const QString& labelText,
                                        const QString& tip) {
    Row& r = row(field);
    QWidget* fieldWidget = nullptr;
    if (field == Field::Rack) {
        fieldWidget = m_rack;
        r.edit = m_rack->lineEdit();
    } else if (field == Field::GpuType) {
        fieldWidget = m_gpuType;
        r.edit = m_gpuType->lineEdit();
    } else {
        r.edit = new QLineEdit(this);
        fieldWidget = r.edit;
    }
    fieldWidget->setObjectName(fieldObjectName(field));
    fieldWidget->setToolTip(tip);
    r.error = new QLabel(this);
    r.error->setPalette(errorPalette());
    r.error->setWordWrap(true);
    r.error->hide();
    auto* cell = new QVBoxLayout;
    cell->setSpacing(fontMetrics().height() / 6);
    cell->addWidget(fieldWidget);
    if (field == Field::GpuType) {
        m_speed->setToolTip(
            tr("Relative training speed of this GPU type versus V100 in the built-in profiles"));
        m_speed->setWordWrap(true);
        m_speed->setPalette(dimPalette());
        cell->addWidget(m_speed);
    }
    cell->addWidget(r.error);
    if (field == Field::PricePerHour) addArchitectureAndPriceHeading(form);
    auto* label = new QLabel(labelText, this);
    label->setBuddy(fieldWidget);
    form->addRow(label, cell);
    if (field == Field::PriceSource) {
        form->addRow(QString(), m_approximate);
        m_priceSummary->setWordWrap(true);
        m_priceSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
        form->addRow(QString(), m_priceSummary);
    }
    connect(r.edit, &QLineEdit::textChanged, this, [this, field] {
        if (m_loading) return;
        validate(field);
        m_message->clear();
        if (field == Field::GpuType) updateSpeedLabel();
        updateButtons();
    });
    connect(r.edit, &QLineEdit::returnPressed, this, &ServerPropertiesPanel::apply);
}

// The architecture row, then the price heading and the price basis.
void ServerPropertiesPanel::addArchitectureAndPriceHeading(QFormLayout* form) {
    auto* archLabel = new QLabel(tr("Arc&hitecture:"), this);
    archLabel->setBuddy(m_architecture);
    form->addRow(archLabel, m_architecture);
    auto* heading = new QLabel(tr("Price"), this);
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    heading->setToolTip(
        tr("What the server costs to have, for the cost of runs and plans; the simulator never reads "
           "it. Servers without a price count as free, and reports say how many there are."));
    form->addRow(heading);
    m_priceBasis->addItem(tr("none"), static_cast<int>(cl::PriceBasis::None));
    m_priceBasis->setItemData(0, tr("No price: the server counts as free and is reported as unpriced"),
                              Qt::ToolTipRole);
    m_priceBasis->addItem(tr("per hour"), static_cast<int>(cl::PriceBasis::Hourly));
    m_priceBasis->setItemData(1, tr("A rental price per server-hour, e.g. a cloud's list price"),
                              Qt::ToolTipRole);
    m_priceBasis->addItem(tr("purchase, amortized"), static_cast<int>(cl::PriceBasis::Amortized));
    m_priceBasis->setItemData(
        2, tr("A purchase price spread over years (730 hours a month), plus power per hour"),
        Qt::ToolTipRole);
    m_priceBasis->setPlaceholderText(tr("(mixed)"));
    m_priceBasis->setToolTip(tr("How the server's price is stated; applied with Apply"));
    auto* basisLabel = new QLabel(tr("Price &basis:"), this);
    basisLabel->setBuddy(m_priceBasis);
    form->addRow(basisLabel, m_priceBasis);
}

// Server internals: applied on choice (no Apply), since they set GPU count and cores too.
void ServerPropertiesPanel::setUpArchitectureCombo() {
    m_architecture->addItem(tr("not described"), QString());
    m_architecture->setItemData(0, tr("One socket with all cores, one GPU group with all GPUs"),
                                Qt::ToolTipRole);
    for (const cl::ArchitecturePreset& p : cl::architecturePresets()) {
        const QString name = QString::fromStdString(p.name);
        m_architecture->addItem(name, name);
        m_architecture->setItemData(m_architecture->count() - 1, QString::fromStdString(p.description),
                                    Qt::ToolTipRole);
    }
    m_architecture->setPlaceholderText(tr("(mixed)"));
    m_architecture->setToolTip(
        tr("CPU sockets and PCIe GPU groups inside the server; choosing a preset "
           "sets GPU count and CPU cores to match (one undo step)"));
    connect(m_architecture, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_loading || index < 0) return;
        const QString name = m_architecture->itemData(index).toString();
        if (name == QLatin1String("(custom)")) return;
        if (applyArchitecture(name)) return;
        m_loading = true;  // refused: show the servers' own architecture again
        loadArchitecture();
        m_loading = false;
    });
}

// The price basis and the approximate check are applied with Apply, like the fields.
void ServerPropertiesPanel::setUpPriceControls() {
    m_approximate->setToolTip(tr("No published figure was found: the price is an estimate"));
    m_priceSummary->setPalette(dimPalette());
    connect(m_priceBasis, &QComboBox::currentIndexChanged, this, [this] {
        if (m_loading) return;
        enablePriceFields();
        m_message->clear();
        updateButtons();
    });
    connect(m_approximate, &QCheckBox::stateChanged, this, [this] {
        if (m_loading) return;
        m_message->clear();
        updateButtons();
    });
}

QHBoxLayout* ServerPropertiesPanel::createButtonRow(const QMargins& margins) {
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    m_revert->setToolTip(tr("Show the current values again, dropping unapplied edits"));
    m_apply->setToolTip(tr("Apply the changed fields to the selected servers (Enter); one undo step"));
    m_apply->setDefault(true);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_apply);
    buttons->setContentsMargins(margins);
    return buttons;
}

QString ServerPropertiesPanel::text(Field field) const {
    return row(field).edit->text();
}

void ServerPropertiesPanel::setText(Field field, const QString& text) {
    row(field).edit->setText(text);
}

bool ServerPropertiesPanel::isMixed(Field field) const {
    return row(field).mixed;
}

QString ServerPropertiesPanel::fieldError(Field field) const {
    return row(field).error->text();
}

QString ServerPropertiesPanel::errorText() const {
    return m_message->text();
}

bool ServerPropertiesPanel::changed(Field f) const {
    const Row& r = row(f);
    if (!r.edit->isEnabled()) return false;
    const QString now = r.edit->text().trimmed();
    if (r.mixed) return !now.isEmpty();
    if (f == Field::Partitions) {  // "gpu,debug" is the same list as "gpu, debug"
        const auto list = parsePartitionList(now);
        return !list || partitionListText(*list) != r.initial;
    }
    return now != r.initial;
}

bool ServerPropertiesPanel::hasChanges() const {
    for (Field f : kFields)
        if (changed(f)) return true;
    return priceBasisChanged() || approximateChanged();
}

int ServerPropertiesPanel::priceBasis() const {
    return m_priceBasis->currentIndex() < 0 ? -1 : m_priceBasis->currentData().toInt();
}

bool ServerPropertiesPanel::priceBasisChanged() const {
    return m_priceBasis->isEnabled() && priceBasis() >= 0 && priceBasis() != m_priceBasisInitial;
}

bool ServerPropertiesPanel::approximateChanged() const {
    return m_approximate->isEnabled() && m_approximate->checkState() != m_approximateInitial &&
           m_approximate->checkState() != Qt::PartiallyChecked;
}

QString ServerPropertiesPanel::check(Field f) const {
    const Row& r = row(f);
    if (!r.edit->isEnabled()) return {};
    const QString t = r.edit->text().trimmed();
    // Left as each server has it, unless the servers take a new basis: then it needs its figures.
    if (r.mixed && t.isEmpty() && !(isPriceFigure(f) && priceBasisChanged())) return {};
    switch (f) {
        case Field::Name: {
            if (t.isEmpty()) return tr("Enter a server name.");
            const int other = m_document->indexOfServer(t);
            const QList<int>& sel = m_document->selection();
            if (other >= 0 && !(sel.size() == 1 && sel.front() == other))
                return tr("Another server is already named '%1'.").arg(t);
            return {};
        }
        case Field::Rack:
            return {};
        case Field::Partitions: {
            QString error;
            return parsePartitionList(t, &error) ? QString() : error;
        }
        case Field::GpuType:
            return t.isEmpty() ? tr("Enter a GPU type, e.g. V100.") : QString();
        case Field::Gpus: {
            const auto v = parseWhole(t);
            if (!v || *v < L::kMinGpus || *v > L::kMaxGpus)
                return tr("GPU count must be a whole number from %1 to %2.")
                    .arg(L::kMinGpus)
                    .arg(L::kMaxGpus);
            return {};
        }
        case Field::CpuCores: {
            const auto v = parseWhole(t);
            if (!v || *v < L::kMinCpuCores || *v > L::kMaxCpuCores)
                return tr("CPU cores must be a whole number from %1 to %2.")
                    .arg(L::kMinCpuCores)
                    .arg(L::kMaxCpuCores);
            return {};
        }
        case Field::GpuMemory:
        case Field::Memory:
        case Field::Network: {
            const auto v = parseNumber(t);
            const double max = f == Field::GpuMemory ? L::kMaxGpuMemoryGb
                               : f == Field::Memory  ? L::kMaxMemoryGb
                                                     : L::kMaxNetworkGbps;
            if (v && *v > 0 && *v <= max) return {};
            if (f == Field::GpuMemory)
                return tr("GPU memory must be a number above 0 and at most %1 GB.").arg(max);
            if (f == Field::Memory) return tr("DRAM must be a number above 0 and at most %1 GB.").arg(max);
            return tr("NIC bandwidth must be a number above 0 and at most %1 Gb/s.").arg(max);
        }
        case Field::PricePerHour:
        case Field::PowerPerHour:
        case Field::PurchasePrice: {
            const auto v = parseNumber(t);
            const double max = f == Field::PurchasePrice ? L::kMaxPurchasePrice : L::kMaxPricePerHour;
            if (v && *v >= 0 && *v <= max) return {};
            // Short: the message sits under a narrow field.
            if (f == Field::PricePerHour) return tr("Enter USD per hour, 0 to %1.").arg(number(max));
            if (f == Field::PowerPerHour) return tr("Enter power USD per hour, 0 to %1.").arg(number(max));
            return tr("Enter the purchase price in USD, 0 to %1.").arg(number(max));
        }
        case Field::AmortizationYears: {
            const auto v = parseNumber(t);
            if (v && *v > 0 && *v <= L::kMaxAmortizationYears) return {};
            return tr("Enter years above 0, at most %1.").arg(L::kMaxAmortizationYears);
        }
        case Field::PriceSource:
            return {};
    }
    return {};
}

bool ServerPropertiesPanel::validate(Field f) {
    const QString message = check(f);
    Row& r = row(f);
    r.error->setText(message);
    r.error->setVisible(!message.isEmpty());
    return message.isEmpty();
}

bool ServerPropertiesPanel::apply() {
    bool valid = true;
    QStringList bad;
    for (Field f : kFields)
        if (!validate(f)) {
            valid = false;
            bad << fieldError(f);
        }
    if (!valid) {
        m_message->setText(tr("Not applied: %1").arg(bad.join(QLatin1Char(' '))));
        return false;
    }
    if (!hasChanges()) {
        m_message->setText(tr("Nothing to apply: no field was changed."));
        return false;
    }
    ServerChanges c;
    auto str = [this](Field f) { return text(f).trimmed().toStdString(); };
    if (changed(Field::Name)) c.name = str(Field::Name);
    if (changed(Field::Rack)) c.rack = str(Field::Rack);
    if (changed(Field::Partitions)) c.partitions = *parsePartitionList(text(Field::Partitions));
    if (changed(Field::GpuType)) c.gpu_type = str(Field::GpuType);
    if (changed(Field::Gpus)) c.gpus = *parseWhole(text(Field::Gpus).trimmed());
    if (changed(Field::GpuMemory)) c.gpu_memory_gb = *parseNumber(text(Field::GpuMemory).trimmed());
    if (changed(Field::CpuCores)) c.cpu_cores = *parseWhole(text(Field::CpuCores).trimmed());
    if (changed(Field::Memory)) c.memory_gb = *parseNumber(text(Field::Memory).trimmed());
    if (changed(Field::Network)) c.network_gbps = *parseNumber(text(Field::Network).trimmed());
    if (priceBasisChanged()) c.price_basis = static_cast<cl::PriceBasis>(priceBasis());
    if (changed(Field::PricePerHour)) c.price_per_hour = *parseNumber(text(Field::PricePerHour).trimmed());
    if (changed(Field::PurchasePrice)) c.purchase_price = *parseNumber(text(Field::PurchasePrice).trimmed());
    if (changed(Field::AmortizationYears))
        c.amortization_years = *parseNumber(text(Field::AmortizationYears).trimmed());
    if (changed(Field::PowerPerHour)) c.power_per_hour = *parseNumber(text(Field::PowerPerHour).trimmed());
    if (changed(Field::PriceSource)) c.price_source = str(Field::PriceSource);
    if (approximateChanged()) c.price_approximate = m_approximate->checkState() == Qt::Checked;
    return submit(c);
}

void ServerPropertiesPanel::revert() {
    m_loading = true;
    const QList<int>& sel = m_document->selection();
    const bool any = !sel.isEmpty();

    const QString rack_text = m_rack->currentText();
    m_rack->clear();
    m_rack->addItem(QString());
    m_rack->addItems(m_document->rackNames());
    m_rack->setCurrentText(rack_text);

    for (Field f : kFields) {
        Row& r = row(f);
        std::set<QString> values;
        for (int i : sel) values.insert(valueOf(m_document->server(i), f));
        r.mixed = values.size() > 1;
        r.initial = values.size() == 1 ? *values.begin() : QString();
        const bool enabled = any && (f != Field::Name || sel.size() == 1);
        r.edit->setEnabled(enabled);
        if (f == Field::Rack) m_rack->setEnabled(enabled);
        if (f == Field::GpuType) m_gpuType->setEnabled(enabled);
        r.edit->setText(r.initial);
        r.edit->setPlaceholderText(f == Field::Name && sel.size() > 1 ? tr("(several servers)")
                                   : r.mixed                          ? tr("(mixed)")
                                   : f == Field::Rack && any          ? tr("(no rack)")
                                   : f == Field::Partitions && any    ? tr("(in no partition)")
                                                                      : QString());
        r.error->clear();
        r.error->hide();
    }
    if (!any)
        m_heading->setText(tr("No server selected.\nSelect servers in the diagram to edit them."));
    else if (sel.size() == 1)
        m_heading->setText(tr("Server %1").arg(QString::fromStdString(m_document->server(sel.front()).name)));
    else
        m_heading->setText(tr("%1 servers selected").arg(sel.size()));
    m_message->clear();
    loadArchitecture();
    loadPrice();
    m_loading = false;
    updateSpeedLabel();
    updateButtons();
}

void ServerPropertiesPanel::loadPrice() {
    const QList<int>& sel = m_document->selection();
    std::set<int> bases;
    std::set<bool> approximate;
    cl::Cluster selected;
    for (int i : sel) {
        const cl::Server& s = m_document->server(i);
        bases.insert(static_cast<int>(s.price.basis));
        approximate.insert(s.price.approximate);
        selected.servers.push_back(s);
    }
    // A long source reads from its start, and whole in the tooltip.
    QLineEdit* source = row(Field::PriceSource).edit;
    source->setCursorPosition(0);
    source->setToolTip(source->text().isEmpty()
                           ? tr("Where the figures come from, with their date (a price list, a quote)")
                           : tr("Source of the price: %1").arg(source->text()));
    m_priceBasisInitial = bases.size() == 1 ? *bases.begin() : -1;
    m_priceBasis->setEnabled(!sel.isEmpty());
    m_priceBasis->setPlaceholderText(sel.isEmpty() ? QString() : tr("(mixed)"));
    m_priceBasis->setCurrentIndex(m_priceBasisInitial < 0 ? -1 : m_priceBasis->findData(m_priceBasisInitial));
    m_approximateInitial = approximate.size() > 1    ? Qt::PartiallyChecked
                           : approximate.count(true) ? Qt::Checked
                                                     : Qt::Unchecked;
    m_approximate->setTristate(m_approximateInitial == Qt::PartiallyChecked);
    m_approximate->setCheckState(m_approximateInitial);
    enablePriceFields();

    // What the selection costs as it is in the document, and where its prices come from.
    if (sel.isEmpty()) {
        m_priceSummary->clear();
        m_priceSummary->setToolTip(QString());
        return;
    }
    const cl::ClusterCost cost = cl::clusterCost(selected);
    const int servers = static_cast<int>(selected.servers.size());
    m_priceSummary->setText(
        cost.anyPriced(servers)
            ? tr("Selection: %1/h, %2").arg(formatUsd(cost.per_hour), monthlyCostText(cost, servers))
            : tr("Selection: not priced"));
    m_priceSummary->setToolTip(priceSourcesText(selected));
}

void ServerPropertiesPanel::enablePriceFields() {
    const bool any = !m_document->selection().isEmpty();
    const int basis = priceBasis();
    const auto enable = [this](Field f, bool on) {
        Row& r = row(f);
        if (r.edit->isEnabled() == on) return;
        r.edit->setEnabled(on);
        if (!on) {  // a disabled figure is not part of the price: drop what was typed
            r.edit->setText(r.initial);
            r.error->clear();
            r.error->hide();
        }
    };
    enable(Field::PricePerHour, any && basis == static_cast<int>(cl::PriceBasis::Hourly));
    const bool amortized = any && basis == static_cast<int>(cl::PriceBasis::Amortized);
    enable(Field::PurchasePrice, amortized);
    enable(Field::AmortizationYears, amortized);
    enable(Field::PowerPerHour, amortized);
    const bool priced = any && basis != static_cast<int>(cl::PriceBasis::None);
    enable(Field::PriceSource, priced);
    m_approximate->setEnabled(priced);
}

QString ServerPropertiesPanel::architectureText() const {
    const QList<int>& sel = m_document->selection();
    if (sel.isEmpty()) return {};
    const cl::ServerArchitecture& first = m_document->server(sel.front()).architecture;
    for (int i : sel)
        if (!(m_document->server(i).architecture == first)) return QStringLiteral("(mixed)");
    if (!first.described()) return QString();
    for (const cl::ArchitecturePreset& p : cl::architecturePresets())
        if (p.architecture == first) return QString::fromStdString(p.name);
    return QStringLiteral("(custom)");
}

void ServerPropertiesPanel::loadArchitecture() {
    const int custom = m_architecture->findData(QStringLiteral("(custom)"));
    if (custom >= 0) m_architecture->removeItem(custom);
    const bool any = !m_document->selection().isEmpty();
    m_architecture->setEnabled(any);
    const QString current = architectureText();
    if (!any || current == QLatin1String("(mixed)")) {
        m_architecture->setPlaceholderText(any ? tr("(mixed)") : QString());
        m_architecture->setCurrentIndex(-1);
        return;
    }
    if (current == QLatin1String("(custom)")) {
        m_architecture->addItem(tr("custom (from the layout)"), current);
        m_architecture->setItemData(m_architecture->count() - 1,
                                    tr("Sockets and GPU groups read from the layout, not a preset"),
                                    Qt::ToolTipRole);
    }
    m_architecture->setCurrentIndex(m_architecture->findData(current));
}

bool ServerPropertiesPanel::applyArchitecture(const QString& name) {
    ServerChanges c;
    if (name.isEmpty()) {
        c.architecture = cl::ServerArchitecture{};
    } else {
        try {
            c.architecture = cl::architecturePreset(name.toStdString()).architecture;
        } catch (const std::exception& e) {
            m_message->setText(tr("Not applied: %1").arg(QString::fromStdString(e.what())));
            return false;
        }
    }
    return submit(c);
}

// One undoable edit of the selected servers, or the document's reason in the message line.
bool ServerPropertiesPanel::submit(const ServerChanges& c) {
    QString error;
    if (!m_document->setServerProperties(m_document->selection(), c, &error)) {
        m_message->setText(tr("Not applied: %1").arg(error));
        return false;
    }
    emit applied();
    return true;
}

void ServerPropertiesPanel::updateButtons() {
    const bool edits = hasChanges();
    m_apply->setEnabled(edits);
    m_revert->setEnabled(edits);
}

void ServerPropertiesPanel::updateSpeedLabel() {
    const QString type = text(Field::GpuType).trimmed();
    if (type.isEmpty() || !row(Field::GpuType).edit->isEnabled()) {
        m_speed->clear();
        m_speed->hide();
        return;
    }
    m_speed->setText(tr("Speed %1").arg(gpuSpeedText(type)));
    m_speed->show();
}

}  // namespace cl::views
