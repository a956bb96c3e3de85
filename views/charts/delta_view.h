// A/B compare: the pinned result (A) against the current one (B), metric by metric, with
// better/worse colouring of the deltas.
#pragma once

#include "result.h"

#include <QWidget>

class QLabel;
class QStackedWidget;
class QTableView;

namespace scalescope
{

class DeltaTableModel;

class DeltaView : public QWidget
{
    Q_OBJECT
public:
    explicit DeltaView(QWidget *parent = nullptr);

    /// The current result (B); A stays as pinned.
    void setResult(const ResultPtr &result);
    /// The pinned result (A); null unpins.
    void setPinned(const ResultPtr &pinned);
    void setResults(const ResultPtr &a, const ResultPtr &b);

    DeltaTableModel *model() const { return model_; }
    QTableView *tableView() const { return table_; }

private:
    void refresh();

    QStackedWidget *stack_ = nullptr;
    QLabel *message_ = nullptr;
    QLabel *caption_ = nullptr;
    QTableView *table_ = nullptr;
    DeltaTableModel *model_ = nullptr;
};

} // namespace scalescope
