#include "views/cluster/cluster_document.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <QLocale>
#include <QRegularExpression>
#include <QSet>
#include <QUndoStack>

#include "core/topology/network_topology.h"
#include "views/cluster/cluster_edit_commands.h"
#include "views/cluster/server_types.h"

namespace cl::views {

namespace {

QString number(double value) {
    return QLocale().toString(value, 'g', 6);
}

bool sameServer(const cl::Server& a, const cl::Server& b) {
    return a.name == b.name && a.rack == b.rack && a.gpu_type == b.gpu_type && a.gpus == b.gpus &&
           a.cpu_cores == b.cpu_cores && a.memory_gb == b.memory_gb && a.gpu_memory_gb == b.gpu_memory_gb &&
           a.network_gbps == b.network_gbps && a.architecture == b.architecture && a.state == b.state &&
           a.unavailable == b.unavailable && a.price == b.price && a.partitions == b.partitions;
}

bool declared(const std::vector<cl::Partition>& list, const std::string& name) {
    return std::any_of(list.begin(), list.end(), [&](const cl::Partition& p) { return p.name == name; });
}

// Declares, with Slurm's defaults (PriorityTier 1, no MaxTime, not the default), every partition
// a server names that `list` lacks: the layout JSON refuses a server partition that a given list
// does not declare (docs/architecture.md 8.7).
void declareNamed(std::vector<cl::Partition>& list, const std::vector<cl::Server>& servers) {
    for (const cl::Server& s : servers)
        for (const std::string& name : s.partitions)
            if (!declared(list, name)) {
                cl::Partition p;
                p.name = name;
                list.push_back(std::move(p));
            }
}

// "node07" -> ("node", "07"); "gpu" -> ("gpu", "").
std::pair<QString, QString> splitTrailingNumber(const QString& name) {
    qsizetype k = name.size();
    while (k > 0 && name.at(k - 1).isDigit()) --k;
    return {name.left(k), name.mid(k)};
}

// One past the highest number used after `prefix` among `names`, or `fallback` if none is.
QString nextName(const QString& pattern, const QSet<QString>& names, const QString& default_prefix) {
    auto [prefix, digits] = splitTrailingNumber(pattern);
    if (pattern.isEmpty())
        prefix = default_prefix;
    else if (digits.isEmpty())
        prefix = pattern + QLatin1Char('-');
    const int width = digits.startsWith(QLatin1Char('0')) ? static_cast<int>(digits.size()) : 0;
    long long next = digits.isEmpty() ? 1 : digits.toLongLong();
    bool any = false;
    long long highest = 0;
    for (const QString& n : names) {
        if (!n.startsWith(prefix)) continue;
        const QString rest = n.mid(prefix.size());
        bool ok = false;
        const long long value = rest.toLongLong(&ok);
        if (!ok || rest.isEmpty() || !rest.at(0).isDigit()) continue;
        highest = any ? std::max(highest, value) : value;
        any = true;
    }
    if (any) next = highest + 1;
    auto make = [&](long long n) {
        return prefix + QStringLiteral("%1").arg(n, width, 10, QLatin1Char('0'));
    };
    while (names.contains(make(next))) ++next;
    return make(next);
}

// What the layout JSON would refuse in the partitions (docs/architecture.md 8.7), or empty.
QString partitionsProblem(const cl::Cluster& c) {
    QSet<QString> seen;
    int defaults = 0;
    for (const cl::Partition& p : c.partitions) {
        const QString name = QString::fromStdString(p.name);
        if (const QString problem = partitionNameProblem(name); !problem.isEmpty()) return problem;
        if (seen.contains(name)) return ClusterDocument::tr("Two partitions are named '%1'.").arg(name);
        seen.insert(name);
        defaults += p.is_default ? 1 : 0;
    }
    if (defaults > 1) return ClusterDocument::tr("Only one partition can be the default.");
    for (const cl::Server& s : c.servers)
        for (const std::string& n : s.partitions) {
            const QString name = QString::fromStdString(n);
            if (const QString problem = partitionNameProblem(name); !problem.isEmpty())
                return ClusterDocument::tr("Server '%1': %2").arg(QString::fromStdString(s.name), problem);
            if (!c.partitions.empty() && !seen.contains(name))
                return ClusterDocument::tr(
                           "Server '%1' is in partition '%2', which the cluster does not "
                           "declare.")
                    .arg(QString::fromStdString(s.name), name);
        }
    return {};
}

QList<int> normalised(const QList<int>& indices, int count) {
    std::set<int> unique;
    for (int i : indices)
        if (i >= 0 && i < count) unique.insert(i);
    return QList<int>(unique.begin(), unique.end());
}

}  // namespace

bool ServerChanges::isEmpty() const {
    return fieldCount() == 0;
}

int ServerChanges::fieldCount() const {
    return int(name.has_value()) + int(rack.has_value()) + int(gpu_type.has_value()) + int(gpus.has_value()) +
           int(gpu_memory_gb.has_value()) + int(cpu_cores.has_value()) + int(memory_gb.has_value()) +
           int(network_gbps.has_value()) + int(architecture.has_value()) + int(changesPrice()) +
           int(partitions.has_value());
}

bool ServerChanges::changesPrice() const {
    return price_basis || price_per_hour || purchase_price || amortization_years || power_per_hour ||
           price_source || price_approximate;
}

void ServerChanges::applyTo(cl::Server& s) const {
    if (name) s.name = *name;
    if (rack) s.rack = *rack;
    if (gpu_type) s.gpu_type = *gpu_type;
    if (gpus) s.gpus = *gpus;
    if (gpu_memory_gb) s.gpu_memory_gb = *gpu_memory_gb;
    if (cpu_cores) s.cpu_cores = *cpu_cores;
    if (memory_gb) s.memory_gb = *memory_gb;
    if (network_gbps) s.network_gbps = *network_gbps;
    if (architecture) {
        s.architecture = *architecture;
        if (architecture->described()) {
            s.gpus = architecture->gpus();
            s.cpu_cores = architecture->cores();
        }
    } else if (s.architecture.described() &&
               (s.gpus != s.architecture.gpus() || s.cpu_cores != s.architecture.cores())) {
        s.architecture = cl::ServerArchitecture{};
    }
    if (price_basis) s.price.basis = *price_basis;
    if (price_per_hour) s.price.per_hour = *price_per_hour;
    if (purchase_price) s.price.purchase = *purchase_price;
    if (amortization_years) s.price.amortization_years = *amortization_years;
    if (power_per_hour) s.price.power_per_hour = *power_per_hour;
    if (price_source) s.price.source = *price_source;
    if (price_approximate) s.price.approximate = *price_approximate;
    if (partitions) s.partitions = *partitions;
    // A server keeps only the figures of its basis (what its layout writes), none when unpriced.
    if (!s.price.stated()) {
        s.price = cl::ServerPrice{};
    } else if (s.price.basis == cl::PriceBasis::Hourly) {
        s.price.purchase = s.price.amortization_years = s.price.power_per_hour = 0.0;
    } else {
        s.price.per_hour = 0.0;
    }
}

QString partitionNameProblem(const QString& name) {
    if (name.isEmpty()) return ClusterDocument::tr("A partition needs a name.");
    for (const QChar c : name) {
        if (c == QLatin1Char(',') || c.isSpace() || c.unicode() < 0x20 || c.unicode() == 0x7f)
            return ClusterDocument::tr("A partition name has no comma, space or control character: '%1'.")
                .arg(name);
    }
    return {};
}

std::optional<std::vector<std::string>> parsePartitionList(const QString& text, QString* error) {
    std::vector<std::string> out;
    for (const QString& part : text.split(QLatin1Char(','))) {
        const QString name = part.trimmed();
        if (name.isEmpty()) continue;
        if (const QString problem = partitionNameProblem(name); !problem.isEmpty()) {
            if (error) *error = problem + ClusterDocument::tr(" Separate partitions with commas.");
            return std::nullopt;
        }
        const std::string n = name.toStdString();
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
    if (error) error->clear();
    return out;
}

QString partitionListText(const std::vector<std::string>& names) {
    QStringList out;
    for (const std::string& n : names) out << QString::fromStdString(n);
    return out.join(QStringLiteral(", "));
}

QString serverProblem(const cl::Server& s) {
    using L = ServerLimits;
    if (s.name.empty()) return ClusterDocument::tr("The server name is empty.");
    if (s.gpu_type.empty()) return ClusterDocument::tr("The GPU type is empty.");
    if (s.gpus < L::kMinGpus || s.gpus > L::kMaxGpus)
        return ClusterDocument::tr("GPU count must be from %1 to %2 (is %3).")
            .arg(L::kMinGpus)
            .arg(L::kMaxGpus)
            .arg(s.gpus);
    if (s.cpu_cores < L::kMinCpuCores || s.cpu_cores > L::kMaxCpuCores)
        return ClusterDocument::tr("CPU cores must be from %1 to %2 (is %3).")
            .arg(L::kMinCpuCores)
            .arg(L::kMaxCpuCores)
            .arg(s.cpu_cores);
    if (!(s.memory_gb > 0 && s.memory_gb <= L::kMaxMemoryGb))
        return ClusterDocument::tr("DRAM must be above 0 and at most %1 GB (is %2).")
            .arg(number(L::kMaxMemoryGb), number(s.memory_gb));
    if (!(s.gpu_memory_gb > 0 && s.gpu_memory_gb <= L::kMaxGpuMemoryGb))
        return ClusterDocument::tr("GPU memory must be above 0 and at most %1 GB (is %2).")
            .arg(number(L::kMaxGpuMemoryGb), number(s.gpu_memory_gb));
    if (!(s.network_gbps > 0 && s.network_gbps <= L::kMaxNetworkGbps))
        return ClusterDocument::tr("NIC bandwidth must be above 0 and at most %1 Gb/s (is %2).")
            .arg(number(L::kMaxNetworkGbps), number(s.network_gbps));
    const cl::ServerPrice& p = s.price;
    if (p.basis == cl::PriceBasis::Hourly && !(p.per_hour >= 0 && p.per_hour <= L::kMaxPricePerHour))
        return ClusterDocument::tr("The price per hour must be from 0 to %1 USD (is %2).")
            .arg(number(L::kMaxPricePerHour), number(p.per_hour));
    if (p.basis == cl::PriceBasis::Amortized) {
        if (!(p.purchase >= 0 && p.purchase <= L::kMaxPurchasePrice))
            return ClusterDocument::tr("The purchase price must be from 0 to %1 USD (is %2).")
                .arg(number(L::kMaxPurchasePrice), number(p.purchase));
        if (!(p.amortization_years > 0 && p.amortization_years <= L::kMaxAmortizationYears))
            return ClusterDocument::tr("The amortization must be above 0 and at most %1 years (is %2).")
                .arg(number(L::kMaxAmortizationYears), number(p.amortization_years));
        if (!(p.power_per_hour >= 0 && p.power_per_hour <= L::kMaxPricePerHour))
            return ClusterDocument::tr("The power cost per hour must be from 0 to %1 USD (is %2).")
                .arg(number(L::kMaxPricePerHour), number(p.power_per_hour));
    }
    return {};
}

ClusterDocument::ClusterDocument(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {}

ClusterDocument::~ClusterDocument() = default;

int ClusterDocument::indexOfServer(const QString& name) const {
    const std::string n = name.toStdString();
    for (int i = 0; i < serverCount(); ++i)
        if (m_cluster.servers[static_cast<std::size_t>(i)].name == n) return i;
    return -1;
}

QStringList ClusterDocument::rackNames() const {
    QStringList out;
    for (const std::string& r : m_cluster.racks())
        if (!r.empty()) out.append(QString::fromStdString(r));
    return out;
}

void ClusterDocument::setCluster(const cl::Cluster& cluster) {
    m_undo->clear();
    replaceAll(cluster);
    setSelection({});
    m_undo->setClean();
}

QString ClusterDocument::validationError() const {
    if (m_cluster.servers.empty()) return tr("The cluster needs at least one server.");
    QSet<QString> names;
    for (const cl::Server& s : m_cluster.servers) {
        const QString name = QString::fromStdString(s.name);
        if (const QString problem = serverProblem(s); !problem.isEmpty())
            return name.isEmpty() ? problem : tr("Server '%1': %2").arg(name, problem);
        if (names.contains(name))
            return tr("Two servers are named '%1'; server names must be unique.").arg(name);
        names.insert(name);
    }
    return partitionsProblem(m_cluster);
}

void ClusterDocument::setSelection(const QList<int>& indices) {
    const QList<int> next = normalised(indices, serverCount());
    if (next == m_selection) return;
    m_selection = next;
    emit selectionChanged();
}

bool ClusterDocument::addServers(const cl::Server& prototype, int count) {
    cl::Server probe = prototype;
    if (probe.name.empty()) probe.name = "new";
    if (count < 1 || count > 100000 || !serverProblem(probe).isEmpty()) return false;
    // The rack and name pattern come from the first selected server, else the last one; but a
    // server of another GPU type joins the last server of its own type, or a rack of its own
    // named after the type, since racks are where one type's servers are found.
    const int selected = m_selection.isEmpty() ? serverCount() - 1 : m_selection.front();
    int anchor = selected;
    std::string rack = prototype.rack;
    QString pattern = QString::fromStdString(prototype.name);
    if (selected >= 0 && !prototype.gpu_type.empty() && server(selected).gpu_type != prototype.gpu_type) {
        anchor = -1;
        for (int i = 0; i < serverCount(); ++i)
            if (server(i).gpu_type == prototype.gpu_type) anchor = i;
        if (anchor < 0 && rack.empty()) rack = nextRackName().toStdString();
        if (anchor < 0 && pattern.isEmpty())
            pattern = QString::fromStdString(prototype.gpu_type).toLower() + QStringLiteral("-01");
    }
    // The partitions come from the selected server unless the prototype has its own, so that
    // added servers serve the same jobs (docs/architecture.md 2.10).
    std::vector<std::string> partitions = prototype.partitions;
    if (partitions.empty() && selected >= 0) partitions = server(selected).partitions;
    int insert_at = serverCount();
    if (anchor >= 0) {
        const cl::Server& a = server(anchor);
        if (rack.empty()) rack = a.rack;
        // After the last server of that rack, so racks stay contiguous.
        int last_in_rack = -1;
        for (int i = 0; i < serverCount(); ++i)
            if (server(i).rack == rack) last_in_rack = i;
        if (last_in_rack >= 0) insert_at = last_in_rack + 1;
        if (pattern.isEmpty())
            pattern = QString::fromStdString(server(last_in_rack >= 0 ? last_in_rack : anchor).name);
    }
    if (pattern.isEmpty()) pattern = QStringLiteral("server-1");
    QStringList taken;
    IndexedServers added;
    for (int k = 0; k < count; ++k) {
        cl::Server s = prototype;
        s.rack = rack;
        s.partitions = partitions;
        const QString name = uniqueServerName(pattern, taken);
        taken.append(name);
        s.name = name.toStdString();
        added.emplace_back(insert_at + k, std::move(s));
    }
    m_undo->push(new AddServersCommand(this, std::move(added)));
    return true;
}

bool ClusterDocument::addRack() {
    const QString rack = nextRackName();
    cl::Server s = defaultServer();
    s.rack = rack.toStdString();
    QString pattern = QStringLiteral("server-1");
    if (!m_cluster.servers.empty()) {
        const cl::Server& last = m_cluster.servers.back();
        // In the last server's partitions: in none, no job could use the new rack.
        s.partitions = last.partitions;
        const QString last_name = QString::fromStdString(last.name);
        const QString last_rack = QString::fromStdString(last.rack);
        // "rack15-node15" continues as "rack16-node0"; other names just continue.
        if (!last_rack.isEmpty() && last_name.startsWith(last_rack))
            pattern = rack + splitTrailingNumber(last_name.mid(last_rack.size())).first + QLatin1Char('0');
        else
            pattern = last_name;
    }
    s.name = uniqueServerName(pattern).toStdString();
    m_undo->push(new AddRackCommand(this, rack, {{serverCount(), s}}));
    return true;
}

bool ClusterDocument::duplicateServers(const QList<int>& indices) {
    const QList<int> sorted = normalised(indices, serverCount());
    if (sorted.isEmpty()) return false;
    QStringList taken;
    IndexedServers copies;
    int k = 0;
    for (int i : sorted) {
        cl::Server copy = server(i);
        const QString name = uniqueServerName(QString::fromStdString(copy.name), taken);
        taken.append(name);
        copy.name = name.toStdString();
        copies.emplace_back(i + k + 1, std::move(copy));
        ++k;
    }
    m_undo->push(new DuplicateServersCommand(this, std::move(copies)));
    return true;
}

bool ClusterDocument::removeServers(const QList<int>& indices) {
    const QList<int> sorted = normalised(indices, serverCount());
    if (sorted.isEmpty()) return false;
    IndexedServers removed;
    for (int i : sorted) removed.emplace_back(i, server(i));
    m_undo->push(new RemoveServersCommand(this, std::move(removed)));
    return true;
}

bool ClusterDocument::removeRack(const QString& rack) {
    if (rack.isEmpty()) return false;
    const std::string r = rack.toStdString();
    IndexedServers removed;
    for (int i = 0; i < serverCount(); ++i)
        if (server(i).rack == r) removed.emplace_back(i, server(i));
    if (removed.empty()) return false;
    m_undo->push(new RemoveRackCommand(this, rack, std::move(removed)));
    return true;
}

bool ClusterDocument::setServerProperties(const QList<int>& indices, const ServerChanges& changes,
                                          QString* error) {
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        return false;
    };
    const QList<int> sorted = normalised(indices, serverCount());
    if (sorted.isEmpty()) return fail(tr("No server is selected."));
    if (changes.isEmpty()) return fail(tr("Nothing was changed."));
    if (changes.name) {
        if (sorted.size() != 1) return fail(tr("Only a single server can be renamed at a time."));
        const QString name = QString::fromStdString(*changes.name).trimmed();
        if (name.isEmpty()) return fail(tr("The server name is empty."));
        const int other = indexOfServer(name);
        if (other >= 0 && other != sorted.front())
            return fail(tr("Another server is already named '%1'.").arg(name));
    }
    if (changes.partitions)
        for (const std::string& n : *changes.partitions)
            if (const QString problem = partitionNameProblem(QString::fromStdString(n)); !problem.isEmpty())
                return fail(problem);
    IndexedServers before;
    IndexedServers after;
    bool differs = false;
    for (int i : sorted) {
        cl::Server s = server(i);
        changes.applyTo(s);
        if (const QString problem = serverProblem(s); !problem.isEmpty()) return fail(problem);
        differs = differs || !sameServer(s, server(i));
        before.emplace_back(i, server(i));
        after.emplace_back(i, std::move(s));
    }
    if (!differs) return fail(tr("The new values equal the current ones."));
    auto* command = new SetServerPropertiesCommand(this, std::move(before), after, changes);
    if (changes.partitions) {
        // A typed partition the cluster does not have is declared in the same step.
        std::vector<cl::Server> servers = m_cluster.servers;
        for (const auto& [i, s] : after) servers[static_cast<std::size_t>(i)] = s;
        std::vector<cl::Partition> list = m_cluster.partitions;
        const bool declares = std::any_of(changes.partitions->begin(), changes.partitions->end(),
                                          [&](const std::string& n) { return !declared(list, n); });
        if (declares) declareNamed(list, servers);
        if (list != m_cluster.partitions) command->declarePartitions(m_cluster.partitions, std::move(list));
    }
    m_undo->push(command);
    if (error) error->clear();
    return true;
}

bool ClusterDocument::renameServer(int index, const QString& name, QString* error) {
    ServerChanges c;
    c.name = name.trimmed().toStdString();
    return setServerProperties({index}, c, error);
}

bool ClusterDocument::renameCluster(const QString& name) {
    if (name.toStdString() == m_cluster.name) return false;
    m_undo->push(new RenameClusterCommand(this, name));
    return true;
}

bool ClusterDocument::replaceCluster(const cl::Cluster& cluster, const QString& undo_text) {
    m_undo->push(new ReplaceClusterCommand(this, cluster, undo_text));
    return true;
}

QString ClusterDocument::uniquePartitionName() const {
    QSet<QString> names;
    for (const cl::Partition& p : m_cluster.partitions) names.insert(QString::fromStdString(p.name));
    for (const cl::Server& s : m_cluster.servers)
        for (const std::string& n : s.partitions) names.insert(QString::fromStdString(n));
    const QString pattern = m_cluster.partitions.empty()
                                ? QStringLiteral("partition-1")
                                : QString::fromStdString(m_cluster.partitions.back().name);
    return nextName(pattern, names, QStringLiteral("partition-"));
}

bool ClusterDocument::pushPartitions(std::vector<cl::Partition> partitions, const IndexedServers& servers,
                                     const QString& text) {
    std::vector<cl::Server> all = m_cluster.servers;
    IndexedServers before;
    for (const auto& [i, s] : servers) {
        before.emplace_back(i, server(i));
        all[static_cast<std::size_t>(i)] = s;
    }
    if (!partitions.empty()) declareNamed(partitions, all);
    m_undo->push(new PartitionsCommand(this, m_cluster.partitions, std::move(partitions), std::move(before),
                                       servers, text));
    return true;
}

bool ClusterDocument::addPartition(QString* error) {
    cl::Partition p;
    p.name = uniquePartitionName().toStdString();
    std::vector<cl::Partition> list = m_cluster.partitions;
    list.push_back(p);
    if (error) error->clear();
    return pushPartitions(std::move(list), {}, tr("Add partition '%1'").arg(QString::fromStdString(p.name)));
}

bool ClusterDocument::setPartition(int index, const cl::Partition& partition, QString* error) {
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        return false;
    };
    if (index < 0 || index >= partitionCount()) return fail(tr("No such partition."));
    const cl::Partition& old = m_cluster.partitions[static_cast<std::size_t>(index)];
    const QString name = QString::fromStdString(partition.name);
    const QString oldName = QString::fromStdString(old.name);
    if (const QString problem = partitionNameProblem(name); !problem.isEmpty()) return fail(problem);
    for (int k = 0; k < partitionCount(); ++k)
        if (k != index && m_cluster.partitions[static_cast<std::size_t>(k)].name == partition.name)
            return fail(tr("Another partition is already named '%1'.").arg(name));
    if (partition.priority_tier < 0 || partition.priority_tier > 65535)
        return fail(
            tr("PriorityTier must be a whole number from 0 to 65535 (is %1).").arg(partition.priority_tier));
    if (!(partition.max_time >= 0) || !std::isfinite(partition.max_time))
        return fail(tr("MaxTime must be a time of at least 0, or unlimited."));
    if (partition == old) return fail(tr("The new values equal the current ones."));
    std::vector<cl::Partition> list = m_cluster.partitions;
    list[static_cast<std::size_t>(index)] = partition;
    if (partition.is_default)  // Slurm has one default partition (Default=YES)
        for (int k = 0; k < partitionCount(); ++k)
            if (k != index) list[static_cast<std::size_t>(k)].is_default = false;
    IndexedServers renamed;
    if (partition.name != old.name)
        for (int i = 0; i < serverCount(); ++i) {
            cl::Server s = server(i);
            auto it = std::find(s.partitions.begin(), s.partitions.end(), old.name);
            if (it == s.partitions.end()) continue;
            // A server that already lists the new name keeps it once.
            if (std::find(s.partitions.begin(), s.partitions.end(), partition.name) != s.partitions.end())
                s.partitions.erase(it);
            else
                *it = partition.name;
            renamed.emplace_back(i, std::move(s));
        }
    QString text;
    if (partition.name != old.name)
        text = tr("Rename partition '%1' to '%2'").arg(oldName, name);
    else if (partition.is_default != old.is_default)
        text = partition.is_default ? tr("Make '%1' the default partition").arg(name)
                                    : tr("Make '%1' not the default partition").arg(name);
    else if (partition.priority_tier != old.priority_tier)
        text = tr("Change PriorityTier of partition '%1'").arg(name);
    else
        text = tr("Change MaxTime of partition '%1'").arg(name);
    if (error) error->clear();
    return pushPartitions(std::move(list), renamed, text);
}

bool ClusterDocument::removePartition(int index) {
    if (index < 0 || index >= partitionCount()) return false;
    const std::string name = m_cluster.partitions[static_cast<std::size_t>(index)].name;
    std::vector<cl::Partition> list = m_cluster.partitions;
    list.erase(list.begin() + index);
    IndexedServers changed;
    for (int i = 0; i < serverCount(); ++i) {
        cl::Server s = server(i);
        auto it = std::find(s.partitions.begin(), s.partitions.end(), name);
        if (it == s.partitions.end()) continue;
        s.partitions.erase(it);
        changed.emplace_back(i, std::move(s));
    }
    return pushPartitions(std::move(list), changed,
                          tr("Remove partition '%1'").arg(QString::fromStdString(name)));
}

QString ClusterDocument::uniqueServerName(const QString& pattern, const QStringList& taken) const {
    QSet<QString> names(taken.begin(), taken.end());
    for (const cl::Server& s : m_cluster.servers) names.insert(QString::fromStdString(s.name));
    return nextName(pattern, names, QStringLiteral("server-"));
}

QString ClusterDocument::nextRackName() const {
    const QStringList racks = rackNames();
    QSet<QString> names(racks.begin(), racks.end());
    QString pattern = QStringLiteral("rack-1");
    for (auto it = racks.crbegin(); it != racks.crend(); ++it)
        if (!splitTrailingNumber(*it).second.isEmpty()) {
            pattern = *it;
            break;
        }
    return nextName(pattern, names, QStringLiteral("rack-"));
}

void ClusterDocument::insertServers(const IndexedServers& servers) {
    auto& list = m_cluster.servers;
    for (const auto& [index, s] : servers)
        list.insert(list.begin() + std::clamp(index, 0, static_cast<int>(list.size())), s);
    syncTopologyWithServers();
    emit changed();
}

void ClusterDocument::eraseServers(const IndexedServers& servers) {
    auto& list = m_cluster.servers;
    for (auto it = servers.crbegin(); it != servers.crend(); ++it)
        if (it->first >= 0 && it->first < static_cast<int>(list.size())) list.erase(list.begin() + it->first);
    syncTopologyWithServers();
    setSelection(m_selection);  // drops indices past the end
    emit changed();
}

// Server i of a topology cluster is topology server i: once servers are added or removed by
// hand the network no longer fits, so it is set aside (the cluster becomes flat and saves as
// such) and comes back when the count fits again, e.g. on undo.
void ClusterDocument::syncTopologyWithServers() {
    const auto fits = [this](const cl::TopologySpec& spec) {
        try {
            return cl::NetworkTopology::serverCount(spec) == serverCount();
        } catch (const std::exception&) {
            return false;
        }
    };
    if (m_cluster.topology.kind != cl::TopologyKind::Flat && !fits(m_cluster.topology)) {
        m_detachedTopology = m_cluster.topology;
        m_cluster.topology = {};
    } else if (m_cluster.topology.kind == cl::TopologyKind::Flat &&
               m_detachedTopology.kind != cl::TopologyKind::Flat && fits(m_detachedTopology)) {
        m_cluster.topology = m_detachedTopology;
        m_detachedTopology = {};
    }
}

void ClusterDocument::replaceServers(const IndexedServers& servers) {
    for (const auto& [index, s] : servers)
        if (index >= 0 && index < serverCount()) m_cluster.servers[static_cast<std::size_t>(index)] = s;
    emit changed();
}

void ClusterDocument::replacePartitions(const std::vector<cl::Partition>& partitions,
                                        const IndexedServers& servers) {
    m_cluster.partitions = partitions;
    for (const auto& [index, s] : servers)
        if (index >= 0 && index < serverCount()) m_cluster.servers[static_cast<std::size_t>(index)] = s;
    emit changed();
}

void ClusterDocument::replaceAll(const cl::Cluster& cluster) {
    m_cluster = cluster;
    m_detachedTopology = {};
    setSelection(m_selection);
    emit changed();
}

}  // namespace cl::views
