#pragma once
// The cluster as a zoomable diagram: racks as labelled frames holding server boxes, each
// with its name, a hardware line and one square per GPU coloured by GPU type. Selection is
// the document's: rubber band, click and Ctrl+click select servers; double-clicking a rack
// title selects its servers.
#include <string>
#include <vector>

#include <QGraphicsView>
#include <QList>
#include <QVector>

#include "core/model/cluster.h"

namespace cl::views {

class ClusterDocument;
class ServerItem;

class ClusterDiagram : public QGraphicsView {
    Q_OBJECT

public:
    explicit ClusterDiagram(ClusterDocument* document, QWidget* parent = nullptr);
    ~ClusterDiagram() override;

    int serverItemCount() const { return static_cast<int>(m_servers.size()); }
    int rackItemCount() const { return m_rackCount; }
    // The scene rectangle of a server's box (for tests and scrolling); null if out of range.
    QRectF serverRect(int index) const;
    double zoom() const;
    // True while the view refits itself on resize and rebuild (until the user zooms).
    bool isAutoFit() const { return m_autoFit; }

public slots:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    // Recreates the items from the document (connected to ClusterDocument::changed()).
    void rebuild();

signals:
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void changeEvent(QEvent* event) override;

public:
    // A rack's header: "rack1 · 1 server · 8 GPUs".
    QString rackTitle(const std::string& rack, const cl::Cluster& cluster,
                      const std::vector<int>& servers) const;

private:
    void zoomBy(double factor);
    void selectionFromScene();
    void selectionToScene();

    ClusterDocument* m_document;
    QGraphicsScene* m_scene;
    QVector<ServerItem*> m_servers;  // by server index
    int m_rackCount = 0;
    bool m_syncing = false;
    bool m_autoFit = true;
    double m_layoutAspect = 1.6;  // width/height the racks were flowed for
};

}  // namespace cl::views
