#pragma once
// Prices asked for before a plan runs (docs/architecture.md 7.9, "Prices"): a plan whose
// candidates hold a server without a price ranks by GPU count and calls nothing cheapest. When the
// ticked server types (or the base servers a plan adds to) have none, the Plan view lists each
// kind here with a price field on the basis the server types file uses (a cloud rental per
// server-hour, or an owned server's purchase amortized over years plus power per hour, section
// 7.8). The prices go into that one plan request only; no cluster or workspace changes.
#include <map>
#include <string>
#include <vector>

#include <QDialog>

#include "core/planning/capacity_plan.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPushButton;

namespace cl::views {

// One kind of server a plan request holds without a price.
struct UnpricedServerKind {
    std::string key;    // what a price applies to: "type:ID" or "base:GPU_TYPEx<gpus>"
    QString label;      // "Base cluster's own servers (4 × RTX2080Ti)"
    QString detail;     // for the tooltip: where the servers come from
    cl::Server sample;  // one of them
};

// The kinds of server without a price that would make `request` rank by GPU count, in the order
// the planner names them (rankingBasis in core/planning/capacity_plan.cpp): the ticked types,
// then the base's own servers when candidates add to the base.
std::vector<UnpricedServerKind> unpricedServerKinds(const cl::PlanRequest& request);
// The basis every priced server of `request` shares (None when none is priced or they differ).
cl::PriceBasis pricedBasis(const cl::PlanRequest& request);
// Gives every unpriced server of `request` that a key of `prices` names that price.
void applyPrices(cl::PlanRequest& request, const std::map<std::string, cl::ServerPrice>& prices);

class PlanPriceDialog : public QDialog {
    Q_OBJECT

public:
    enum class Choice { Cancelled, WithPrices, ByGpuCount };

    // `known` prefills the fields (prices entered earlier this session); `otherBasis` is the basis
    // of the request's priced servers (None when there is none); with `budget` set the plan needs
    // prices, so it cannot run ranked by GPU count.
    PlanPriceDialog(const std::vector<UnpricedServerKind>& kinds, cl::PriceBasis otherBasis, bool budget,
                    const std::map<std::string, cl::ServerPrice>& known, QWidget* parent = nullptr);

    Choice choice() const { return m_choice; }
    // The prices entered, by UnpricedServerKind::key (complete only when every field is filled).
    std::map<std::string, cl::ServerPrice> prices() const;
    bool dontAskAgain() const;

private:
    struct Row {
        std::string key;
        QComboBox* basis = nullptr;
        QDoubleSpinBox* price = nullptr;
        QDoubleSpinBox* years = nullptr;
        QDoubleSpinBox* power = nullptr;
        QLabel* monthly = nullptr;
    };
    // The fields of kind `index`, in row index + 1 of the grid (row 0 holds the headers).
    void addRow(QGridLayout* grid, const UnpricedServerKind& kind, std::size_t index,
                const std::map<std::string, cl::ServerPrice>& known);
    cl::ServerPrice priceOf(const Row& row) const;
    // The basis of a row changed: the price field takes that basis's unit.
    void showBasis(Row& row);
    // Enables "Run with these prices" when every field is filled on one basis, else says why.
    void validate();

    std::vector<Row> m_rows;
    cl::PriceBasis m_otherBasis;
    QLabel* m_problem = nullptr;
    QCheckBox* m_dontAsk = nullptr;
    QPushButton* m_withPrices = nullptr;
    Choice m_choice = Choice::Cancelled;
};

}  // namespace cl::views
