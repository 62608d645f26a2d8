#pragma once
// Side panel editing the selected servers. Values that differ across the selection show as
// "(mixed)" and stay as they are unless typed over; Apply pushes the changed fields as one
// undo command, and refuses, naming the field, while a value is out of range.
#include <array>

#include <QString>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QEvent;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMargins;
class QPalette;
class QPushButton;
class QScrollArea;

namespace cl::views {

class ClusterDocument;
struct ServerChanges;

class ServerPropertiesPanel : public QWidget {
    Q_OBJECT

public:
    // The price fields (docs/architecture.md 7.8) are enabled by the price basis: PricePerHour for
    // "per hour", PurchasePrice, AmortizationYears and PowerPerHour for "purchase, amortized".
    // Partitions is a comma list of Slurm partitions (docs/architecture.md 2.10).
    enum class Field {
        Name,
        Rack,
        Partitions,
        GpuType,
        Gpus,
        GpuMemory,
        CpuCores,
        Memory,
        Network,
        PricePerHour,
        PurchasePrice,
        AmortizationYears,
        PowerPerHour,
        PriceSource
    };
    static constexpr int kFieldCount = 14;

    explicit ServerPropertiesPanel(ClusterDocument* document, QWidget* parent = nullptr);

    QString text(Field field) const;
    // Sets a field as if the user had typed it (validates it at once).
    void setText(Field field, const QString& text);
    bool isMixed(Field field) const;        // the selection holds different values
    QString fieldError(Field field) const;  // the message shown under the field, or empty
    QString errorText() const;              // the message beside Apply, or empty
    bool hasChanges() const;
    // The preset name shared by the selection, "" = not described, "(custom)", "(mixed)".
    QString architectureText() const;

public slots:
    // Validates every field and, if all are valid, applies the changed ones as one command.
    bool apply();
    // Sets the preset `name` ("" = not described) on the selected servers; false (with the
    // reason beside Apply) when nothing is selected, the name is unknown or nothing changes.
    bool applyArchitecture(const QString& name);
    // Shows the document's values again, dropping unapplied edits.
    void revert();

signals:
    void applied();

protected:
    void changeEvent(QEvent* event) override;

private:
    // The constructor's parts, in the order they build the panel. The widgets are found by
    // their objectNames, given by setObjectNames and addFieldRow.
    void setObjectNames();
    QPalette errorPalette() const;  // the field messages' red, readable on the window colour
    QPalette dimPalette() const;    // the GPU speed and the price summary: quieter than the fields
    void restyleHints();            // both again, after a palette change
    QWidget* createFieldsPage(QScrollArea* scroll);
    void addFieldRows(QFormLayout* form);
    void addFieldRow(QFormLayout* form, Field field, const QString& labelText, const QString& tip);
    void addArchitectureAndPriceHeading(QFormLayout* form);
    void setUpArchitectureCombo();
    void setUpPriceControls();
    QHBoxLayout* createButtonRow(const QMargins& margins);

    bool submit(const ServerChanges& changes);
    struct Row {
        QLineEdit* edit = nullptr;
        QLabel* error = nullptr;
        QString initial;
        bool mixed = false;
    };

    Row& row(Field f) { return m_rows[static_cast<std::size_t>(f)]; }
    const Row& row(Field f) const { return m_rows[static_cast<std::size_t>(f)]; }
    bool changed(Field f) const;
    QString check(Field f) const;  // validation message for the current text
    bool validate(Field f);        // shows or hides the field's message
    void updateButtons();
    void updateSpeedLabel();
    void loadArchitecture();
    void loadPrice();
    void enablePriceFields();
    int priceBasis() const;  // the combo's cl::PriceBasis, or -1 when none is chosen (mixed)
    bool priceBasisChanged() const;
    bool approximateChanged() const;

    ClusterDocument* m_document;
    std::array<Row, kFieldCount> m_rows;
    QLabel* m_heading;
    QComboBox* m_rack;
    QComboBox* m_gpuType;
    QLabel* m_speed;
    // The "Architecture" preset combo: "not described" then architecturePresets(). Choosing
    // an entry applies it at once to the selected servers as one undo step.
    QComboBox* m_architecture;
    // The price basis: items "none", "per hour", "purchase, amortized" holding cl::PriceBasis as
    // int data; no current item when the selection's bases differ. Applied with Apply.
    QComboBox* m_priceBasis;
    QCheckBox* m_approximate;  // tri-state: partially checked when the selection differs
    QLabel* m_priceSummary;    // what the selected servers cost together; price sources in the tooltip
    int m_priceBasisInitial = -1;
    Qt::CheckState m_approximateInitial = Qt::Unchecked;
    QLabel* m_message;
    QPushButton* m_apply;
    QPushButton* m_revert;
    bool m_loading = false;
    bool m_restylePending = false;  // restyleHints is queued
};

}  // namespace cl::views
