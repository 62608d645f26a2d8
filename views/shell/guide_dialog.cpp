#include "views/shell/guide_dialog.h"

#include <functional>

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QImage>
#include <QMenu>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QUrl>
#include <QVBoxLayout>

namespace cl::views {

namespace {

// The menu path of an action's text, without the mnemonic ampersands: "File › Export View".
QString plainText(const QString& text) {
    QString plain = text;
    plain.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    plain.replace(QStringLiteral("&&"), QStringLiteral("&"));
    return plain.section(QLatin1Char('\t'), 0, 0);
}

}  // namespace

GuideDialog::GuideDialog(const QList<QMenu*>& menus, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("ClusterLoom Guide"));
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("guideTabs"));

    m_guide = new QTextBrowser(m_tabs);
    m_guide->setObjectName(QStringLiteral("guideText"));
    m_guide->setOpenExternalLinks(true);
    // Relative image names resolve against the guide's own resource folder.
    m_guide->setSource(QUrl(QStringLiteral("qrc:/guide/guide.md")), QTextDocument::MarkdownResource);
    fitImages(fontMetrics().averageCharWidth() * 90);
    m_tabs->addTab(m_guide, tr("&Guide"));

    m_shortcuts = new QTableWidget(0, 2, m_tabs);
    m_shortcuts->setObjectName(QStringLiteral("shortcutTable"));
    m_shortcuts->setHorizontalHeaderLabels({tr("Command"), tr("Keys")});
    m_shortcuts->verticalHeader()->hide();
    m_shortcuts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_shortcuts->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_shortcuts->setAlternatingRowColors(true);
    m_shortcuts->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_shortcuts->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    fillShortcuts(menus);
    m_tabs->addTab(m_shortcuts, tr("&Keyboard Shortcuts"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);

    const QFontMetrics fm(font());
    resize(fm.averageCharWidth() * 110, fm.height() * 40);
}

// The screenshots are 1366 pixels wide: shown at a readable width instead, in proportion.
void GuideDialog::fitImages(int width) {
    QTextDocument* document = m_guide->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat()) continue;
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            const QVariant data = document->resource(QTextDocument::ImageResource, QUrl(image.name()));
            const QImage loaded = data.value<QImage>();
            const QSize size = loaded.isNull() ? QImage::fromData(data.toByteArray()).size() : loaded.size();
            if (size.isEmpty() || size.width() <= width) continue;
            image.setWidth(width);
            image.setHeight(static_cast<double>(width) * size.height() / size.width());
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
}

void GuideDialog::showTab(Tab tab) {
    m_tabs->setCurrentIndex(tab);
}

void GuideDialog::fillShortcuts(const QList<QMenu*>& menus) {
    struct Entry {
        QString command;
        QString keys;
    };
    QList<Entry> entries;
    const std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* menu,
                                                                       const QString& path) {
        for (const QAction* action : menu->actions()) {
            if (action->isSeparator()) continue;
            const QString here = path + QStringLiteral(" \u203a ") + plainText(action->text());
            if (action->menu()) {
                walk(action->menu(), here);
                continue;
            }
            QStringList keys;
            for (const QKeySequence& key : action->shortcuts())
                if (!key.isEmpty()) keys << key.toString(QKeySequence::NativeText);
            if (!keys.isEmpty()) entries.push_back({here, keys.join(QStringLiteral(", "))});
        }
    };
    for (const QMenu* menu : menus) walk(menu, plainText(menu->title()));
    m_shortcuts->setRowCount(static_cast<int>(entries.size()));
    for (int row = 0; row < entries.size(); ++row) {
        m_shortcuts->setItem(row, 0, new QTableWidgetItem(entries[row].command));
        m_shortcuts->setItem(row, 1, new QTableWidgetItem(entries[row].keys));
    }
}

}  // namespace cl::views
