#include "views/cluster/server_properties_panel.h"

#include <cmath>
#include <exception>
#include <optional>
#include <set>

#include <QCheckBox>
#include <QComboBox>
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
#include "views/cluster/server_presets.h"
#include "views/common/cost_text.h"

namespace cl::views {

namespace {

using Field = ServerPropertiesPanel::Field;
using L = ServerLimits;

const QColor kErrorColor(0xb3, 0x26, 0x1e);

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

QString number(double value) {
    return QLocale().toString(value, 'g', 10);
}

// One field's value on a server, as the panel shows it.
QString valueOf(const cl::Server& s, Field f) {
    switch (f) {
        case Field::Name:
            return QString::fromStdString(s.name);
        case Field::Rack:
            return QString::fromStdString(s.rack);
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
            return s.price.basis == cl::PriceBasis::Hourly ? number(s.price.per_hour) : QString();
        case Field::PurchasePrice:
            return s.price.basis == cl::PriceBasis::Amortized ? number(s.price.purchase) : QString();
        case Field::AmortizationYears:
            return s.price.basis == cl::PriceBasis::Amortized ? number(s.price.amortization_years)
                                                              : QString();
        case Field::PowerPerHour:
            return s.price.basis == cl::PriceBasis::Amortized ? number(s.price.power_per_hour) : QString();
        case Field::PriceSource:
            return QString::fromStdString(s.price.source);
    }
    return {};
}

constexpr Field kFields[] = {Field::Name,
                             Field::Rack,
                             Field::GpuType,
                             Field::Gpus,
                             Field::GpuMemory,
                             Field::CpuCores,
                             Field::Memory,
                             Field::Network,
                             Field::PricePerHour,
                             Field::PurchasePrice,
                             Field::AmortizationYears,
                             Field::PowerPerHour,
                             Field::PriceSource};

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
    // The fields scroll when the panel is short (a 768-pixel screen); Apply and Revert stay in view.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("serverPropertiesScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget(scroll);
    auto* body = new QVBoxLayout(content);
    QFont heading_font = m_heading->font();
    heading_font.setBold(true);
    m_heading->setFont(heading_font);
    m_heading->setWordWrap(true);
    body->addWidget(m_heading);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    body->addLayout(form);

    m_rack->setEditable(true);
    m_rack->setInsertPolicy(QComboBox::NoInsert);
    m_gpuType->setEditable(true);
    m_gpuType->setInsertPolicy(QComboBox::NoInsert);

    struct Spec {
        Field field;
        QString label;
        QString tip;
    };
    const Spec specs[] = {
        {Field::Name, tr("&Name:"), tr("Server name, unique in the cluster (single selection only)")},
        {Field::Rack, tr("Rac&k:"),
         tr("Rack the server sits in; type a new name to create a rack, "
            "leave empty for no rack")},
        {Field::GpuType, tr("GPU &type:"),
         tr("GPU model; the simulator scales job speed by the type's factor "
            "from the built-in profiles")},
        {Field::Gpus, tr("GPU &count:"), tr("GPUs per server, %1 to %2").arg(L::kMinGpus).arg(L::kMaxGpus)},
        {Field::GpuMemory, tr("GPU &memory (GB):"),
         tr("Memory of each GPU in GB, above 0 and at most %1").arg(L::kMaxGpuMemoryGb)},
        {Field::CpuCores, tr("C&PU cores:"),
         tr("CPU cores per server, %1 to %2").arg(L::kMinCpuCores).arg(L::kMaxCpuCores)},
        {Field::Memory, tr("&DRAM (GB):"),
         tr("Host memory per server in GB, above 0 and at most %1").arg(L::kMaxMemoryGb)},
        {Field::Network, tr("N&IC (Gb/s):"),
         tr("Network bandwidth per server in Gb/s, above 0 and at most %1").arg(L::kMaxNetworkGbps)},
        {Field::PricePerHour, tr("P&er hour (USD):"),
         tr("Rental price of one server per hour in US dollars, e.g. a cloud's on-demand list price")},
        {Field::PurchasePrice, tr("P&urchase (USD):"), tr("Purchase price of one server in US dollars")},
        {Field::AmortizationYears, tr("Amortized over (&years):"),
         tr("Years over which the purchase price is spread, above 0 and at most %1")
             .arg(L::kMaxAmortizationYears)},
        {Field::PowerPerHour, tr("Po&wer per hour (USD):"),
         tr("Cost of the server's power and cooling per hour of use, in US dollars")},
        {Field::PriceSource, tr("Price &source:"),
         tr("Where the figures come from, with their date (a price list, a quote)")},
    };
    QPalette error_palette = palette();
    error_palette.setColor(QPalette::WindowText, kErrorColor);
    QPalette dim = palette();
    dim.setColor(QPalette::WindowText, palette().color(QPalette::PlaceholderText));
    // The hardware's internals close the hardware; the price (section 7.8) follows under a heading.
    const auto addArchitectureAndPriceHeading = [&] {
        auto* arch_label = new QLabel(tr("Arc&hitecture:"), this);
        arch_label->setBuddy(m_architecture);
        form->addRow(arch_label, m_architecture);
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
        auto* basis_label = new QLabel(tr("Price &basis:"), this);
        basis_label->setBuddy(m_priceBasis);
        form->addRow(basis_label, m_priceBasis);
    };
    for (const Spec& spec : specs) {
        Row& r = row(spec.field);
        QWidget* field_widget = nullptr;
        if (spec.field == Field::Rack) {
            field_widget = m_rack;
            r.edit = m_rack->lineEdit();
        } else if (spec.field == Field::GpuType) {
            field_widget = m_gpuType;
            r.edit = m_gpuType->lineEdit();
        } else {
            r.edit = new QLineEdit(this);
            field_widget = r.edit;
        }
        field_widget->setToolTip(spec.tip);
        r.error = new QLabel(this);
        r.error->setPalette(error_palette);
        r.error->setWordWrap(true);
        r.error->hide();
        auto* cell = new QVBoxLayout;
        cell->setSpacing(fontMetrics().height() / 6);
        cell->addWidget(field_widget);
        if (spec.field == Field::GpuType) {
            m_speed->setToolTip(
                tr("Relative training speed of this GPU type versus V100 in the built-in profiles"));
            m_speed->setWordWrap(true);
            m_speed->setPalette(dim);
            cell->addWidget(m_speed);
        }
        cell->addWidget(r.error);
        if (spec.field == Field::PricePerHour) addArchitectureAndPriceHeading();
        auto* label = new QLabel(spec.label, this);
        label->setBuddy(field_widget);
        form->addRow(label, cell);
        if (spec.field == Field::PriceSource) {
            form->addRow(QString(), m_approximate);
            m_priceSummary->setWordWrap(true);
            m_priceSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
            form->addRow(QString(), m_priceSummary);
        }
        const Field f = spec.field;
        connect(r.edit, &QLineEdit::textChanged, this, [this, f] {
            if (m_loading) return;
            validate(f);
            m_message->clear();
            if (f == Field::GpuType) updateSpeedLabel();
            updateButtons();
        });
        connect(r.edit, &QLineEdit::returnPressed, this, &ServerPropertiesPanel::apply);
    }
    // Server internals: applied on choice (no Apply), since they set GPU count and cores too.
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

    m_approximate->setToolTip(tr("No published figure was found: the price is an estimate"));
    m_priceSummary->setPalette(dim);
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

    for (const QString& type : knownGpuTypes()) {
        m_gpuType->addItem(type);
        m_gpuType->setItemData(m_gpuType->count() - 1, gpuSpeedText(type), Qt::ToolTipRole);
    }

    m_message->setWordWrap(true);
    m_message->setPalette(error_palette);
    body->addWidget(m_message);
    body->addStretch(1);
    scroll->setWidget(content);
    // As wide as the fields need: only the height scrolls.
    scroll->setMinimumWidth(content->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());
    outer->addWidget(scroll, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    m_revert->setToolTip(tr("Show the current values again, dropping unapplied edits"));
    m_apply->setToolTip(tr("Apply the changed fields to the selected servers (Enter); one undo step"));
    m_apply->setDefault(true);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_apply);
    buttons->setContentsMargins(body->contentsMargins());
    outer->addLayout(buttons);
    setMinimumWidth(fontMetrics().averageCharWidth() * 34);

    connect(m_apply, &QPushButton::clicked, this, &ServerPropertiesPanel::apply);
    connect(m_revert, &QPushButton::clicked, this, &ServerPropertiesPanel::revert);
    connect(document, &ClusterDocument::selectionChanged, this, &ServerPropertiesPanel::revert);
    connect(document, &ClusterDocument::changed, this, &ServerPropertiesPanel::revert);
    revert();
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

QLineEdit* ServerPropertiesPanel::lineEdit(Field field) const {
    return row(field).edit;
}

bool ServerPropertiesPanel::changed(Field f) const {
    const Row& r = row(f);
    if (!r.edit->isEnabled()) return false;
    const QString now = r.edit->text().trimmed();
    if (r.mixed) return !now.isEmpty();
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
