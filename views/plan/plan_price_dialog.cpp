#include "views/plan/plan_price_dialog.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "views/common/cost_text.h"

namespace cl::views {

namespace {

QString trText(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("cl::views::PlanPriceDialog", text, disambiguation, n);
}

// Base servers of one GPU model and count share a price: a heterogeneous base lists each kind.
std::string baseKey(const cl::Server& s) {
    return "base:" + s.gpu_type + "x" + std::to_string(s.gpus);
}

// What a price entered here says of itself in reports and tooltips (priceText, section 7.8).
constexpr const char* kEnteredSource = "entered in the Plan view for this plan";

constexpr int kBasisHourly = 0;
constexpr int kBasisAmortized = 1;

}  // namespace

std::vector<UnpricedServerKind> unpricedServerKinds(const cl::PlanRequest& request) {
    std::vector<UnpricedServerKind> out;
    auto baseCount = [&](const std::string& key) {
        return static_cast<int>(std::count_if(request.base.servers.begin(), request.base.servers.end(),
                                              [&](const cl::Server& s) { return baseKey(s) == key; }));
    };
    auto addBase = [&](const cl::Server& s) {
        const std::string key = baseKey(s);
        if (std::any_of(out.begin(), out.end(), [&](const UnpricedServerKind& k) { return k.key == key; }))
            return;
        const QString hardware =
            QStringLiteral("%1 \u00d7 %2").arg(s.gpus).arg(QString::fromStdString(s.gpu_type));
        out.push_back(
            {key,
             trText("Base cluster's own servers, %1 (%n in the base)", nullptr, baseCount(key)).arg(hardware),
             trText("The base cluster %1 states no price for its servers with %2 GPUs. A price "
                    "entered here is for this plan only; the Cluster view's server properties "
                    "keep one in the layout.")
                 .arg(QString::fromStdString(request.base.name), hardware),
             s});
    };
    // The ticked types first, then the base's own servers, as the planner names them.
    for (const cl::ServerType& t : request.server_types) {
        if (t.server.price.stated()) continue;
        if (t.id == "base") {
            addBase(t.server);
        } else if (std::none_of(out.begin(), out.end(),
                                [&](const UnpricedServerKind& k) { return k.key == "type:" + t.id; })) {
            out.push_back({"type:" + t.id,
                           QStringLiteral("%1 \u2014 %2")
                               .arg(QString::fromStdString(t.id), QString::fromStdString(t.label)),
                           QString::fromStdString(t.source), t.server});
        }
    }
    // Candidates that add servers keep the base's own, whose prices then count (section 7.9).
    if (cl::addsToBase(request))
        for (const cl::Server& s : request.base.servers)
            if (!s.price.stated()) addBase(s);
    return out;
}

cl::PriceBasis pricedBasis(const cl::PlanRequest& request) {
    cl::PriceBasis basis = cl::PriceBasis::None;
    bool mixed = false;
    auto see = [&](const cl::Server& s) {
        if (!s.price.stated()) return;
        if (basis == cl::PriceBasis::None)
            basis = s.price.basis;
        else if (basis != s.price.basis)
            mixed = true;
    };
    for (const cl::ServerType& t : request.server_types) see(t.server);
    if (cl::addsToBase(request))
        for (const cl::Server& s : request.base.servers) see(s);
    return mixed ? cl::PriceBasis::None : basis;
}

void applyPrices(cl::PlanRequest& request, const std::map<std::string, cl::ServerPrice>& prices) {
    const bool adds = cl::addsToBase(request);
    auto price = [&](cl::Server& s, const std::string& key) {
        if (s.price.stated()) return;
        if (auto it = prices.find(key); it != prices.end()) s.price = it->second;
    };
    for (cl::ServerType& t : request.server_types)
        price(t.server, t.id == "base" ? baseKey(t.server) : "type:" + t.id);
    if (adds) {
        for (cl::Server& s : request.base.servers) price(s, baseKey(s));
        // A base that was heterogeneous only by its prices may now be uniform, which would turn
        // adding servers into retyping them (section 7.9, "Candidates"): prices must not change
        // what the candidates are.
        if (!cl::addsToBase(request)) request.keep_base = true;
    }
}

PlanPriceDialog::PlanPriceDialog(const std::vector<UnpricedServerKind>& kinds, cl::PriceBasis otherBasis,
                                 bool budget, const std::map<std::string, cl::ServerPrice>& known,
                                 QWidget* parent)
    : QDialog(parent), m_otherBasis(otherBasis) {
    setObjectName(QStringLiteral("planPriceDialog"));
    setWindowTitle(tr("Prices for this plan"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Some ticked servers have no price. Without prices the plan ranks its "
                                "candidates by GPU count and calls none cheapest. Enter a price for each "
                                "kind to rank by cost; the prices are used for this plan only and change "
                                "no cluster."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    if (otherBasis != cl::PriceBasis::None) {
        // A plan ranks costs on one basis only (architecture.md 7.9, "Prices").
        auto* note = new QLabel(otherBasis == cl::PriceBasis::Hourly
                                    ? tr("The other ticked server types are priced as cloud rentals: "
                                         "price these the same way, as a plan ranks one basis only.")
                                    : tr("The other ticked server types are priced as owned servers "
                                         "(purchase amortized, plus power): price these the same way, "
                                         "as a plan ranks one basis only."),
                                this);
        note->setWordWrap(true);
        layout->addWidget(note);
    }

    auto* grid = new QGridLayout;
    // The price's unit depends on the basis: the column says both, each row's field its own.
    const QStringList headers = {
        tr("Server kind"),       tr("Basis"),  tr("Price (USD/hour or purchase USD)"), tr("Amortized over"),
        tr("Power and cooling"), tr("A month")};
    for (int c = 0; c < headers.size(); ++c) {
        auto* header = new QLabel(QStringLiteral("<b>%1</b>").arg(headers[c].toHtmlEscaped()), this);
        header->setObjectName(QStringLiteral("planPriceHeader_") + QString::number(c));
        grid->addWidget(header, 0, c);
    }
    m_rows.reserve(kinds.size());
    for (std::size_t i = 0; i < kinds.size(); ++i) addRow(grid, kinds[i], i, known);
    grid->setColumnStretch(0, 1);
    layout->addLayout(grid);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("planPriceProblem"));
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    m_dontAsk = new QCheckBox(tr("&Don't ask again this session"), this);
    m_dontAsk->setObjectName(QStringLiteral("planPriceDontAsk"));
    m_dontAsk->setToolTip(
        tr("Later plans in this session do the same without asking: with these prices, or ranked by GPU "
           "count. A server kind not priced here is still asked for."));
    layout->addWidget(m_dontAsk);

    auto* buttons = new QDialogButtonBox(this);
    m_withPrices = buttons->addButton(tr("&Run with these prices"), QDialogButtonBox::AcceptRole);
    m_withPrices->setObjectName(QStringLiteral("planPriceRun"));
    m_withPrices->setToolTip(tr("Rank the candidates by cost with these prices (Enter)"));
    QPushButton* byGpus = buttons->addButton(tr("Run ranked by &GPU count"), QDialogButtonBox::ActionRole);
    byGpus->setObjectName(QStringLiteral("planPriceByGpus"));
    byGpus->setEnabled(!budget);
    byGpus->setToolTip(budget ? tr("A budget needs prices: clear the budget to plan without them")
                              : tr("Plan without prices: candidates rank by GPU count and none is "
                                   "called cheapest"));
    QPushButton* cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("planPriceCancel"));
    cancel->setToolTip(tr("Run nothing and go back to the inputs (Esc)"));
    // Enter runs with the prices, and only with them: the other buttons want a click or Space.
    for (QPushButton* b : {byGpus, cancel}) b->setAutoDefault(false);
    m_withPrices->setAutoDefault(true);
    m_withPrices->setDefault(true);
    layout->addWidget(buttons);
    connect(m_withPrices, &QPushButton::clicked, this, [this] {
        m_choice = Choice::WithPrices;
        accept();
    });
    connect(byGpus, &QPushButton::clicked, this, [this] {
        m_choice = Choice::ByGpuCount;
        accept();
    });
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    validate();
    if (!m_rows.empty()) {
        m_rows.front().price->setFocus();
        m_rows.front().price->selectAll();
    }
}

void PlanPriceDialog::addRow(QGridLayout* grid, const UnpricedServerKind& kind, std::size_t i,
                             const std::map<std::string, cl::ServerPrice>& known) {
    const int r = static_cast<int>(i) + 1;
    const QString n = QString::number(i);
    auto* name = new QLabel(kind.label, this);
    name->setToolTip(kind.detail);
    grid->addWidget(name, r, 0);
    Row row;
    row.key = kind.key;
    row.basis = new QComboBox(this);
    row.basis->setObjectName(QStringLiteral("planPriceBasis_") + n);
    row.basis->addItem(tr("cloud rental"));
    row.basis->addItem(tr("owned, amortized"));
    row.basis->setToolTip(
        tr("Cloud rental: a price per server-hour, as a cloud lists on-demand "
           "instances. Owned: the purchase price spread over years, plus power "
           "per hour (as data/server_types.json prices the DGX systems)."));
    row.basis->setAccessibleName(tr("Price basis of %1").arg(kind.label));
    row.price = new QDoubleSpinBox(this);
    row.price->setObjectName(QStringLiteral("planPrice_") + n);
    row.price->setAccessibleName(tr("Price of %1").arg(kind.label));
    row.years = new QDoubleSpinBox(this);
    row.years->setObjectName(QStringLiteral("planPriceYears_") + n);
    row.years->setRange(0.5, 20);
    row.years->setDecimals(1);
    row.years->setValue(4);
    row.years->setSuffix(tr(" years"));
    row.years->setToolTip(tr("The years the purchase is spread over (the server types file uses 4)"));
    row.years->setAccessibleName(tr("Amortization years of %1").arg(kind.label));
    row.power = new QDoubleSpinBox(this);
    row.power->setObjectName(QStringLiteral("planPricePower_") + n);
    row.power->setRange(0, 1000);
    row.power->setDecimals(3);
    row.power->setSingleStep(0.1);
    row.power->setSuffix(tr(" USD/hour"));
    row.power->setToolTip(
        tr("Power and cooling of one server in USD per hour (the server types file "
           "uses maximum power \u00d7 1.5 for cooling \u00d7 0.12 USD/kWh)"));
    row.power->setAccessibleName(tr("Power cost of %1").arg(kind.label));
    row.monthly = new QLabel(this);
    row.monthly->setObjectName(QStringLiteral("planPriceMonthly_") + n);
    row.monthly->setToolTip(tr("What one server costs a month (730 hours) at this price"));
    grid->addWidget(row.basis, r, 1);
    grid->addWidget(row.price, r, 2);
    grid->addWidget(row.years, r, 3);
    grid->addWidget(row.power, r, 4);
    grid->addWidget(row.monthly, r, 5);

    // A price entered earlier this session, else the basis the other types use.
    const auto it = known.find(kind.key);
    const cl::PriceBasis basis = it != known.end()                      ? it->second.basis
                                 : m_otherBasis == cl::PriceBasis::None ? cl::PriceBasis::Hourly
                                                                        : m_otherBasis;
    row.basis->setCurrentIndex(basis == cl::PriceBasis::Amortized ? kBasisAmortized : kBasisHourly);
    m_rows.push_back(row);
    showBasis(m_rows.back());
    if (it != known.end()) {
        const cl::ServerPrice& p = it->second;
        row.price->setValue(p.basis == cl::PriceBasis::Amortized ? p.purchase : p.per_hour);
        if (p.basis == cl::PriceBasis::Amortized) {
            row.years->setValue(p.amortization_years);
            row.power->setValue(p.power_per_hour);
        }
    }
    const std::size_t at = i;
    connect(row.basis, &QComboBox::currentIndexChanged, this, [this, at] {
        m_rows[at].price->setValue(0);
        showBasis(m_rows[at]);
        validate();
    });
    for (QDoubleSpinBox* spin : {row.price, row.years, row.power})
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this] { validate(); });
}

void PlanPriceDialog::showBasis(Row& row) {
    const bool owned = row.basis->currentIndex() == kBasisAmortized;
    // Shown while the price is 0, when the suffix is not: the empty field names its unit.
    row.price->setSpecialValueText(owned ? tr("enter the purchase price, USD") : tr("enter USD per hour"));
    if (owned) {
        row.price->setRange(0, 1e8);
        row.price->setDecimals(0);
        row.price->setSingleStep(1000);
        row.price->setSuffix(tr(" USD"));
        row.price->setToolTip(
            tr("What buying one server costs, in US dollars; spread over the years "
               "beside it, plus power per hour (docs/architecture.md 7.8)"));
    } else {
        row.price->setRange(0, 1e5);
        row.price->setDecimals(3);
        row.price->setSingleStep(0.5);
        row.price->setSuffix(tr(" USD/hour"));
        row.price->setToolTip(
            tr("What renting one server costs per hour, in US dollars (as a cloud "
               "lists on-demand instances; the server types file's cloud prices "
               "are such)"));
    }
    row.years->setEnabled(owned);
    row.power->setEnabled(owned);
}

cl::ServerPrice PlanPriceDialog::priceOf(const Row& row) const {
    cl::ServerPrice p;
    p.source = kEnteredSource;
    if (row.price->value() <= 0) return {};
    if (row.basis->currentIndex() == kBasisAmortized) {
        p.basis = cl::PriceBasis::Amortized;
        p.purchase = row.price->value();
        p.amortization_years = row.years->value();
        p.power_per_hour = row.power->value();
    } else {
        p.basis = cl::PriceBasis::Hourly;
        p.per_hour = row.price->value();
    }
    return p;
}

std::map<std::string, cl::ServerPrice> PlanPriceDialog::prices() const {
    std::map<std::string, cl::ServerPrice> out;
    for (const Row& row : m_rows)
        if (const cl::ServerPrice p = priceOf(row); p.stated()) out[row.key] = p;
    return out;
}

bool PlanPriceDialog::dontAskAgain() const {
    return m_dontAsk->isChecked();
}

void PlanPriceDialog::validate() {
    int missing = 0;
    cl::PriceBasis basis = m_otherBasis;
    bool mixed = false;
    for (const Row& row : m_rows) {
        const cl::ServerPrice p = priceOf(row);
        row.monthly->setText(p.stated() ? formatUsd(cl::pricePerHour(p) * cl::kHoursPerMonth)
                                        : QStringLiteral("\u2013"));
        if (!p.stated()) {
            ++missing;
            continue;
        }
        if (basis == cl::PriceBasis::None)
            basis = p.basis;
        else if (basis != p.basis)
            mixed = true;
    }
    // The line always holds a sentence, so the dialog keeps its shape as the fields fill.
    if (missing > 0)
        m_problem->setText(tr("Enter a price in every row to run with prices (%1 of %2 missing).")
                               .arg(missing)
                               .arg(m_rows.size()));
    else if (mixed)
        // The planner refuses two bases (architecture.md 7.9, "Prices"): say so before it runs.
        m_problem->setText(
            tr("The prices are on two bases (cloud rental and owned): a plan ranks one basis only."));
    else
        m_problem->setText(tr("Enter runs the plan with these prices."));
    m_withPrices->setEnabled(missing == 0 && !mixed);
}

}  // namespace cl::views
