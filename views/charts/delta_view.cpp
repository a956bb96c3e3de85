#include "charts/delta_view.h"

#include "model_text.h"

#include "charts/chart_common.h"
#include "charts/delta_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace scalescope
{

DeltaView::DeltaView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("deltaView"));
    model_ = new DeltaTableModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("deltaTable"));
    table_->setModel(model_);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);

    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("deltaCaption"));
    // It names both scenarios: file content, never read as rich text (issue 29).
    caption_->setTextFormat(Qt::PlainText);
    caption_->setWordWrap(true);

    auto *content = new QWidget(this);
    auto *content_layout = new QVBoxLayout(content);
    content_layout->setContentsMargins(0, 0, 0, 0);
    content_layout->addWidget(caption_);
    content_layout->addWidget(table_, 1);

    message_ = makeEmptyStateLabel(this);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(message_);
    stack_->addWidget(content);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(stack_);
    refresh();
}

void DeltaView::setResult(const ResultPtr &result)
{
    setResults(model_->resultA(), result);
}

void DeltaView::setPinned(const ResultPtr &pinned)
{
    setResults(pinned, model_->resultB());
}

void DeltaView::setResults(const ResultPtr &a, const ResultPtr &b)
{
    model_->setResults(a, b);
    refresh();
}

void DeltaView::refresh()
{
    const ResultPtr a = model_->resultA(), b = model_->resultB();
    const bool a_ok = a && a->ok(), b_ok = b && b->ok();
    if (!a_ok && !b_ok) {
        message_->setText(!a ? tr("Pin a scenario (A) to compare the current one (B) with it.")
                             : emptyStateMessage(a));
        stack_->setCurrentWidget(message_);
        return;
    }
    auto name = [](const ResultPtr &r) {
        if (!r)
            return tr("nothing pinned");
        if (!r->ok())
            return tr("not computable");
        return r->scenario.name.empty() ? tr("unnamed scenario")
                                        : QString::fromStdString(r->scenario.name);
    };
    QString name_a = name(a), name_b = name(b);
    // One named scenario edited into B keeps A's written name ("... (PCIe, 25 GbE)" after
    // the network became InfiniBand): where the hardware differs, say what each runs on.
    if (a_ok && b_ok && name_a == name_b) {
        const QString ha = scenarioHeadline(a->scenario), hb = scenarioHeadline(b->scenario);
        if (ha != hb) {
            name_a = ha;
            name_b = hb;
        }
    }
    caption_->setText(
        tr("A: %1 — B: %2. Green: B is better, red: B is worse.").arg(name_a, name_b));
    stack_->setCurrentIndex(1);
}

} // namespace scalescope
