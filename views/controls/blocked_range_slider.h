// A slider that greys the positions the rule table refuses and says why on hover (issue 26:
// the GPU-count slider blanked every chart past a count the batch cannot split, and with
// fixed parallel degrees gave no reason why a position led nowhere).
#pragma once

#include <QSlider>
#include <QString>

#include <vector>

namespace scalescope
{

class BlockedRangeSlider : public QSlider
{
public:
    explicit BlockedRangeSlider(QWidget *parent = nullptr);

    /// Per value from minimum() to maximum(): empty where the value is allowed, else why it
    /// is not (shown as the tooltip over that position).
    void setBlockedReasons(std::vector<QString> reasons);
    const std::vector<QString> &blockedReasons() const { return reasons_; }
    bool isBlocked(int value) const;
    /// The slider value under horizontal position `x` (widget coordinates).
    int valueAt(int x) const;
    /// The horizontal centre of `value`'s position (widget coordinates).
    int positionOf(int value) const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    std::vector<QString> reasons_;
};

} // namespace scalescope
