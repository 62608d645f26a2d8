#include "views/cluster/cluster_edit_commands.h"

#include <QCoreApplication>
#include <QStringList>

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::ClusterEditCommands", text);
}

QString quoted(const std::string& name) {
    return QStringLiteral("'%1'").arg(QString::fromStdString(name));
}

// "server 'node8'" or "4 servers".
QString serversText(const IndexedServers& servers) {
    if (servers.size() == 1) return tr("server %1").arg(quoted(servers.front().second.name));
    return tr("%1 servers").arg(servers.size());
}

QList<int> indicesOf(const IndexedServers& servers) {
    QList<int> out;
    out.reserve(static_cast<qsizetype>(servers.size()));
    for (const auto& [index, server] : servers) out.append(index);
    return out;
}

}  // namespace

ServerListCommand::ServerListCommand(ClusterDocument* document, IndexedServers servers, Kind kind,
                                     const QString& text)
    : m_document(document),
      m_servers(std::move(servers)),
      m_kind(kind),
      m_selectionBefore(document->selection()) {
    setText(text);
}

void ServerListCommand::redo() {
    if (m_kind == Kind::Insert) {
        insert();
    } else {
        erase();
    }
}

void ServerListCommand::undo() {
    if (m_kind == Kind::Insert) {
        erase();
        m_document->setSelection(m_selectionBefore);
    } else {
        insert();
        m_document->setSelection(m_selectionBefore);
    }
}

void ServerListCommand::insert() {
    m_document->insertServers(m_servers);
    if (m_kind == Kind::Insert) m_document->setSelection(indicesOf(m_servers));
}

void ServerListCommand::erase() {
    m_document->setSelection({});
    m_document->eraseServers(m_servers);
}

AddServersCommand::AddServersCommand(ClusterDocument* document, IndexedServers servers)
    : ServerListCommand(document, servers, Kind::Insert, tr("Add %1").arg(serversText(servers))) {}

DuplicateServersCommand::DuplicateServersCommand(ClusterDocument* document, IndexedServers copies)
    : ServerListCommand(document, copies, Kind::Insert,
                        copies.size() == 1
                            ? tr("Duplicate server as %1").arg(quoted(copies.front().second.name))
                            : tr("Duplicate %1 servers").arg(copies.size())) {}

AddRackCommand::AddRackCommand(ClusterDocument* document, const QString& rack, IndexedServers servers)
    : ServerListCommand(document, std::move(servers), Kind::Insert, tr("Add rack '%1'").arg(rack)) {}

RemoveServersCommand::RemoveServersCommand(ClusterDocument* document, IndexedServers servers)
    : ServerListCommand(document, servers, Kind::Erase, tr("Remove %1").arg(serversText(servers))) {}

RemoveRackCommand::RemoveRackCommand(ClusterDocument* document, const QString& rack, IndexedServers servers)
    : ServerListCommand(document, std::move(servers), Kind::Erase, tr("Remove rack '%1'").arg(rack)) {}

SetServerPropertiesCommand::SetServerPropertiesCommand(ClusterDocument* document, IndexedServers before,
                                                       IndexedServers after, const ServerChanges& changes)
    : m_document(document), m_before(std::move(before)), m_after(std::move(after)) {
    setText(propertiesUndoText(changes, m_before));
}

void SetServerPropertiesCommand::declarePartitions(std::vector<cl::Partition> before,
                                                   std::vector<cl::Partition> after) {
    m_declares = true;
    m_partitionsBefore = std::move(before);
    m_partitionsAfter = std::move(after);
}

void SetServerPropertiesCommand::redo() {
    if (m_declares)
        m_document->replacePartitions(m_partitionsAfter, m_after);
    else
        m_document->replaceServers(m_after);
}

void SetServerPropertiesCommand::undo() {
    if (m_declares)
        m_document->replacePartitions(m_partitionsBefore, m_before);
    else
        m_document->replaceServers(m_before);
}

PartitionsCommand::PartitionsCommand(ClusterDocument* document, std::vector<cl::Partition> before,
                                     std::vector<cl::Partition> after, IndexedServers servers_before,
                                     IndexedServers servers_after, const QString& text)
    : m_document(document),
      m_before(std::move(before)),
      m_after(std::move(after)),
      m_serversBefore(std::move(servers_before)),
      m_serversAfter(std::move(servers_after)) {
    setText(text);
}

void PartitionsCommand::redo() {
    m_document->replacePartitions(m_after, m_serversAfter);
}

void PartitionsCommand::undo() {
    m_document->replacePartitions(m_before, m_serversBefore);
}

namespace {

IndexedServers renamed(const ClusterDocument* document, int index, const QString& name) {
    cl::Server s = document->server(index);
    s.name = name.toStdString();
    return {{index, s}};
}

ServerChanges nameChange(const QString& name) {
    ServerChanges c;
    c.name = name.toStdString();
    return c;
}

}  // namespace

RenameServerCommand::RenameServerCommand(ClusterDocument* document, int index, const QString& new_name)
    : SetServerPropertiesCommand(document, {{index, document->server(index)}},
                                 renamed(document, index, new_name), nameChange(new_name)) {}

RenameClusterCommand::RenameClusterCommand(ClusterDocument* document, const QString& new_name)
    : m_document(document), m_before(document->cluster().name), m_after(new_name.toStdString()) {
    setText(tr("Rename cluster to '%1'").arg(new_name));
}

void RenameClusterCommand::redo() {
    cl::Cluster c = m_document->cluster();
    c.name = m_after;
    m_document->replaceAll(c);
}

void RenameClusterCommand::undo() {
    cl::Cluster c = m_document->cluster();
    c.name = m_before;
    m_document->replaceAll(c);
}

ReplaceClusterCommand::ReplaceClusterCommand(ClusterDocument* document, cl::Cluster cluster,
                                             const QString& text)
    : m_document(document),
      m_before(document->cluster()),
      m_after(std::move(cluster)),
      m_selectionBefore(document->selection()) {
    setText(text);
}

void ReplaceClusterCommand::redo() {
    m_document->setSelection({});
    m_document->replaceAll(m_after);
}

void ReplaceClusterCommand::undo() {
    m_document->replaceAll(m_before);
    m_document->setSelection(m_selectionBefore);
}

QString propertiesUndoText(const ServerChanges& changes, const IndexedServers& servers) {
    const QString target =
        servers.size() == 1 ? quoted(servers.front().second.name) : tr("%1 servers").arg(servers.size());
    if (changes.name && changes.fieldCount() == 1)
        return tr("Rename %1 to %2").arg(target, quoted(*changes.name));
    QStringList fields;
    if (changes.name) fields << tr("name");
    if (changes.rack) fields << tr("rack");
    if (changes.gpu_type) fields << tr("GPU type");
    if (changes.gpus) fields << tr("GPU count");
    if (changes.gpu_memory_gb) fields << tr("GPU memory");
    if (changes.cpu_cores) fields << tr("CPU cores");
    if (changes.memory_gb) fields << tr("DRAM");
    if (changes.network_gbps) fields << tr("NIC bandwidth");
    if (changes.architecture) fields << tr("architecture");
    if (changes.changesPrice()) fields << tr("price");
    if (changes.partitions) fields << tr("partitions");
    if (fields.size() == 1) return tr("Change %1 of %2").arg(fields.front(), target);
    if (fields.size() == 2) return tr("Change %1 and %2 of %3").arg(fields[0], fields[1], target);
    return tr("Change %1 properties of %2").arg(fields.size()).arg(target);
}

}  // namespace cl::views
