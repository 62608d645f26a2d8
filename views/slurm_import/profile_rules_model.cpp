#include "views/slurm_import/profile_rules_model.h"

#include <algorithm>
#include <exception>

#include <QApplication>
#include <QIcon>
#include <QLocale>
#include <QStyle>

namespace cl::views {

ProfileRulesModel::ProfileRulesModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProfileRulesModel::setRules(const cl::ProfileRules& rules) {
    beginResetModel();
    m_rows.clear();
    for (const cl::ProfileRule& rule : rules.rules) m_rows.push_back({rule, {}, std::nullopt});
    m_default = QString::fromStdString(rules.default_profile);
    checkAll();
    endResetModel();
    emit rulesEdited();
}

cl::ProfileRules ProfileRulesModel::rules() const {
    cl::ProfileRules rules;
    for (const Row& row : m_rows) rules.rules.push_back(row.rule);
    rules.default_profile = m_default.toStdString();
    return rules;
}

void ProfileRulesModel::setDefaultProfile(const QString& profile) {
    if (profile == m_default) return;
    m_default = profile;
    emit rulesEdited();
}

void ProfileRulesModel::setProfiles(const cl::ProfileSet* profiles) {
    m_profiles = profiles;
    checkAll();
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit rulesEdited();
}

QStringList ProfileRulesModel::profileNames() const {
    QStringList names;
    if (m_profiles)
        for (const std::string& name : m_profiles->modelNames()) names << QString::fromStdString(name);
    return names;
}

void ProfileRulesModel::setMatchCounts(const std::optional<std::vector<std::size_t>>& counts) {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_rows[i].matches =
            counts && i < counts->size() ? std::optional<std::size_t>((*counts)[i]) : std::nullopt;
    if (!m_rows.empty()) emit dataChanged(index(0, MatchesColumn), index(rowCount() - 1, MatchesColumn));
}

std::optional<std::size_t> ProfileRulesModel::matches(int row) const {
    if (row < 0 || row >= rowCount()) return std::nullopt;
    return m_rows[static_cast<std::size_t>(row)].matches;
}

QString ProfileRulesModel::problem(int row) const {
    if (row < 0 || row >= rowCount()) return {};
    return m_rows[static_cast<std::size_t>(row)].problem;
}

bool ProfileRulesModel::hasProblems() const {
    for (const Row& row : m_rows)
        if (!row.problem.isEmpty()) return true;
    return false;
}

void ProfileRulesModel::check(Row& row) const {
    row.problem.clear();
    if (!m_profiles) return;
    // One rule at a time, so that the message belongs to this row; core decides what is valid.
    cl::ProfileRules single;
    single.rules.push_back(row.rule);
    single.rules.back().line = 0;
    try {
        cl::checkProfileRules(single, *m_profiles, "rule");
    } catch (const std::exception& e) {
        row.problem = QString::fromUtf8(e.what());
    }
}

void ProfileRulesModel::checkAll() {
    for (Row& row : m_rows) check(row);
}

int ProfileRulesModel::addRule(int after) {
    const int row = after < 0 || after >= rowCount() ? rowCount() : after + 1;
    beginInsertRows({}, row, row);
    Row r;
    r.rule.field = cl::profileRuleFields().front();
    r.rule.pattern = "";
    const QStringList names = profileNames();
    r.rule.profile = (m_default.isEmpty() && !names.isEmpty() ? names.front() : m_default).toStdString();
    check(r);
    m_rows.insert(m_rows.begin() + row, r);
    endInsertRows();
    emit rulesEdited();
    return row;
}

bool ProfileRulesModel::moveRule(int row, int to) {
    if (row < 0 || row >= rowCount() || to < 0 || to >= rowCount() || row == to) return false;
    // beginMoveRows counts the destination before the move: one further down when moving down.
    if (!beginMoveRows({}, row, row, {}, to > row ? to + 1 : to)) return false;
    Row moved = m_rows[static_cast<std::size_t>(row)];
    m_rows.erase(m_rows.begin() + row);
    m_rows.insert(m_rows.begin() + to, moved);
    endMoveRows();
    emit rulesEdited();
    return true;
}

int ProfileRulesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProfileRulesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProfileRulesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            switch (column) {
                case FieldColumn:
                    return QString::fromStdString(row.rule.field);
                case PatternColumn:
                    return QString::fromStdString(row.rule.pattern);
                case ProfileColumn:
                    return QString::fromStdString(row.rule.profile);
                case MatchesColumn:
                    if (role == Qt::EditRole)
                        return row.matches ? QVariant(qulonglong(*row.matches)) : QVariant();
                    return row.matches ? QLocale().toString(qulonglong(*row.matches))
                                       : QStringLiteral("\u2013");
            }
            return {};
        case ChoicesRole:
            if (column == FieldColumn) {
                QStringList fields;
                for (const std::string& f : cl::profileRuleFields()) fields << QString::fromStdString(f);
                return fields;
            }
            if (column == ProfileColumn) return profileNames();
            return {};
        case Qt::TextAlignmentRole:
            if (column == MatchesColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case Qt::DecorationRole:
            // A rule that cannot be used carries the style's warning sign (legible on both
            // themes); its tooltip says what is wrong.
            if (!row.problem.isEmpty() && column == FieldColumn)
                return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
            return {};
        case Qt::ToolTipRole:
            if (!row.problem.isEmpty()) return row.problem;
            switch (column) {
                case FieldColumn:
                    return tr("The job field the pattern is searched in");
                case PatternColumn:
                    return tr(
                        "A regular expression (ECMAScript), found anywhere in the field: ^ and $ anchor it");
                case ProfileColumn:
                    return tr("The profile a matching job gets");
                case MatchesColumn:
                    return tr("Jobs this rule gave their profile (a job takes the first rule it matches)");
            }
            return {};
        default:
            return {};
    }
}

bool ProfileRulesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || role != Qt::EditRole || index.row() >= rowCount()) return false;
    Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const std::string text = value.toString().toStdString();
    switch (index.column()) {
        case FieldColumn: {
            const auto& fields = cl::profileRuleFields();
            if (std::find(fields.begin(), fields.end(), text) == fields.end()) return false;
            if (row.rule.field == text) return true;
            row.rule.field = text;
            break;
        }
        case PatternColumn:
            if (row.rule.pattern == text) return true;
            row.rule.pattern = text;
            break;
        case ProfileColumn:
            if (row.rule.profile == text) return true;
            row.rule.profile = text;
            break;
        default:
            return false;
    }
    check(row);
    row.matches.reset();  // until the preview counts again
    emit dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    emit rulesEdited();
    return true;
}

Qt::ItemFlags ProfileRulesModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() != MatchesColumn) f |= Qt::ItemIsEditable;
    return f;
}

QVariant ProfileRulesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    switch (section) {
        case FieldColumn:
            return tr("Field");
        case PatternColumn:
            return tr("Pattern");
        case ProfileColumn:
            return tr("Profile");
        case MatchesColumn:
            return tr("Jobs");
    }
    return {};
}

bool ProfileRulesModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount()) return false;
    beginRemoveRows({}, row, row + count - 1);
    m_rows.erase(m_rows.begin() + row, m_rows.begin() + row + count);
    endRemoveRows();
    emit rulesEdited();
    return true;
}

}  // namespace cl::views
