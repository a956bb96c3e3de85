// The timeline widget offscreen: zoom, pan, fit, signals, hover text, export, collapse.
#include "palette.h"
#include "timeline/timeline_widget.h"
#include "timeline_test_util.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <QtTest>

using namespace scalescope;
using scalescope::test::makeTimeline;
using scalescope::test::Seg;

namespace
{
constexpr double kMs = 1e-3;
const char *const kWaitLabel = "waiting for GPU 3 (slowest data-parallel replica)";

/// 4 GPUs, 2 per node, 2 steps of 10 ms: compute, a wait, compute; collectives overlap.
std::shared_ptr<const Timeline> sampleTimeline(double scale = 1.0)
{
    std::vector<Seg> segs;
    for (int g = 0; g < 4; ++g) {
        for (int step = 0; step < 2; ++step) {
            const double t0 = step * 10 * kMs * scale;
            const int compute = g * kStreamCount;
            segs.push_back({compute, t0, 4 * kMs * scale, SegmentKind::Compute, "forward", 0});
            segs.push_back(
                {compute, t0 + 4 * kMs * scale, 1 * kMs * scale, SegmentKind::Wait, kWaitLabel, 2});
            segs.push_back({compute, t0 + 5 * kMs * scale, 5 * kMs * scale, SegmentKind::Compute,
                            "backward", 1});
            segs.push_back({compute + 1, t0 + 6 * kMs * scale, 3 * kMs * scale, SegmentKind::DpComm,
                            "all-reduce bucket 1", -1, 25e6});
        }
    }
    return makeTimeline(4, 2, 2, segs);
}

double timeAtX(const TimelineWidget &w, int x)
{
    const auto [s, e] = w.timeRange();
    const QRect plot = w.plotRect();
    return s + (x - plot.left()) * (e - s) / plot.width();
}

void sendWheel(QWidget *w, QPoint pos, QPoint angle, Qt::KeyboardModifiers modifiers = {})
{
    QWheelEvent event(QPointF(pos), QPointF(w->mapToGlobal(pos)), QPoint(), angle, Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
}

void sendMouse(QWidget *w, QEvent::Type type, QPoint pos, Qt::MouseButton button,
               Qt::MouseButtons buttons)
{
    QMouseEvent event(type, QPointF(pos), QPointF(w->mapToGlobal(pos)), button, buttons,
                      Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}
} // namespace

class TestTimelineWidget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void fitsOnFirstTimeline();
    void wheelZoomsAroundCursor_data();
    void wheelZoomsAroundCursor();
    void dragPans();
    void fitRestores();
    void keyboard_data();
    void keyboard();
    void timeRangeChangedAndSync();
    void keepsRangeForSimilarTimeline();
    void hoverToolTip();
    void hoverDoesNotRebuildGeometry();
    void exportPngAndSvg();
    void exportReportsErrors();
    void collapseByClickingHeader();
    void emptyState();
    void largerFontMakesLargerRows();

private:
    TimelineWidget *widget_ = nullptr;
};

void TestTimelineWidget::init()
{
    widget_ = new TimelineWidget;
    widget_->resize(1000, 600);
    widget_->setTimeline(sampleTimeline());
    widget_->show();
    QVERIFY(QTest::qWaitForWindowExposed(widget_));
}

void TestTimelineWidget::cleanup()
{
    delete widget_;
    widget_ = nullptr;
}

void TestTimelineWidget::fitsOnFirstTimeline()
{
    const auto [s, e] = widget_->timeRange();
    QCOMPARE(s, 0.0);
    QCOMPARE(e, 20 * kMs);
    QCOMPARE(widget_->nodeCount(), 2);
    QVERIFY(!widget_->isNodeCollapsed(0));
    QCOMPARE(widget_->objectName(), QStringLiteral("timelineWidget"));
}

void TestTimelineWidget::wheelZoomsAroundCursor_data()
{
    QTest::addColumn<int>("delta");
    QTest::addColumn<double>("x_fraction");
    QTest::addColumn<bool>("zooms_in");
    QTest::newRow("in, middle") << 120 << 0.5 << true;
    QTest::newRow("in, left quarter") << 240 << 0.25 << true;
    QTest::newRow("out, right") << -120 << 0.8 << false;
}

void TestTimelineWidget::wheelZoomsAroundCursor()
{
    QFETCH(int, delta);
    QFETCH(double, x_fraction);
    QFETCH(bool, zooms_in);
    widget_->setTimeRange(5 * kMs, 15 * kMs); // room on both sides for zooming out
    const QRect plot = widget_->plotRect();
    const QPoint pos(plot.left() + static_cast<int>(plot.width() * x_fraction), plot.center().y());
    const double anchor_before = timeAtX(*widget_, pos.x());
    const auto [s0, e0] = widget_->timeRange();
    QSignalSpy spy(widget_, &TimelineWidget::timeRangeChanged);
    sendWheel(widget_, pos, QPoint(0, delta));
    QCOMPARE(spy.count(), 1);
    const auto [s1, e1] = widget_->timeRange();
    QCOMPARE((e1 - s1) < (e0 - s0), zooms_in);
    QVERIFY(std::abs(timeAtX(*widget_, pos.x()) - anchor_before) < 1e-9);
}

void TestTimelineWidget::dragPans()
{
    widget_->setTimeRange(5 * kMs, 10 * kMs);
    const QRect plot = widget_->plotRect();
    const QPoint from = plot.center();
    const QPoint to = from - QPoint(100, 0);
    sendMouse(widget_, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    sendMouse(widget_, QEvent::MouseMove, from - QPoint(50, 0), Qt::NoButton, Qt::LeftButton);
    sendMouse(widget_, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    sendMouse(widget_, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    const auto [s, e] = widget_->timeRange();
    const double expected_shift = 100.0 * 5 * kMs / plot.width();
    QVERIFY(std::abs(s - (5 * kMs + expected_shift)) < 1e-12);
    QVERIFY(std::abs((e - s) - 5 * kMs) < 1e-12); // panning keeps the span
}

void TestTimelineWidget::fitRestores()
{
    widget_->setTimeRange(2 * kMs, 3 * kMs);
    QTest::mouseDClick(widget_, Qt::LeftButton, {}, widget_->plotRect().center());
    QCOMPARE(widget_->timeRange(), std::make_pair(0.0, 20 * kMs));
    widget_->setTimeRange(2 * kMs, 3 * kMs);
    widget_->fitToView();
    QCOMPARE(widget_->timeRange(), std::make_pair(0.0, 20 * kMs));
}

void TestTimelineWidget::keyboard_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<double>("span_factor");
    QTest::addColumn<double>("shift_fraction");
    QTest::newRow("plus") << static_cast<int>(Qt::Key_Plus) << 1 / 1.5 << 1 / 6.0;
    QTest::newRow("minus") << static_cast<int>(Qt::Key_Minus) << 1.5 << -0.25;
    QTest::newRow("right") << static_cast<int>(Qt::Key_Right) << 1.0 << 0.1;
    QTest::newRow("left") << static_cast<int>(Qt::Key_Left) << 1.0 << -0.1;
}

void TestTimelineWidget::keyboard()
{
    QFETCH(int, key);
    QFETCH(double, span_factor);
    QFETCH(double, shift_fraction);
    widget_->setTimeRange(8 * kMs, 12 * kMs);
    QTest::keyClick(widget_, static_cast<Qt::Key>(key));
    const auto [s, e] = widget_->timeRange();
    QVERIFY(std::abs((e - s) - 4 * kMs * span_factor) < 1e-12);
    QVERIFY2(std::abs(s - (8 * kMs + 4 * kMs * shift_fraction)) < 1e-12,
             qPrintable(QString::number(s)));
    QTest::keyClick(widget_, Qt::Key_Home);
    QCOMPARE(widget_->timeRange(), std::make_pair(0.0, 20 * kMs));
}

void TestTimelineWidget::timeRangeChangedAndSync()
{
    TimelineWidget other;
    other.resize(800, 400);
    other.setTimeline(sampleTimeline(1.05));
    other.setTitle(QStringLiteral("B: current"));
    widget_->setTitle(QStringLiteral("A: pinned"));
    connect(widget_, &TimelineWidget::timeRangeChanged, &other, &TimelineWidget::setTimeRange);
    connect(&other, &TimelineWidget::timeRangeChanged, widget_, &TimelineWidget::setTimeRange);
    QSignalSpy spy(widget_, &TimelineWidget::timeRangeChanged);
    widget_->setTimeRange(3 * kMs, 7 * kMs);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toDouble(), 3 * kMs);
    QCOMPARE(spy.at(0).at(1).toDouble(), 7 * kMs);
    QCOMPARE(other.timeRange(), widget_->timeRange());
    widget_->setTimeRange(3 * kMs, 7 * kMs); // unchanged: no signal, no loop
    QCOMPARE(spy.count(), 1);
    sendWheel(widget_, widget_->plotRect().center(), QPoint(0, 120));
    QCOMPARE(other.timeRange(), widget_->timeRange());
    QCOMPARE(widget_->title(), QStringLiteral("A: pinned"));
}

void TestTimelineWidget::keepsRangeForSimilarTimeline()
{
    widget_->setTimeRange(3 * kMs, 7 * kMs);
    widget_->setTimeline(sampleTimeline(1.1)); // 22 ms: similar
    QCOMPARE(widget_->timeRange(), std::make_pair(3 * kMs, 7 * kMs));
    widget_->setTimeline(sampleTimeline(3.0)); // 60 ms: fit
    QCOMPARE(widget_->timeRange(), std::make_pair(0.0, 60 * kMs));
}

void TestTimelineWidget::hoverToolTip()
{
    const int layout_row = widget_->rowLayout().layoutRowOfTimelineRow(0); // GPU 0 compute
    QVERIFY(layout_row >= 0);
    const QPoint pos = widget_->positionOf(4.5 * kMs, layout_row);
    QCOMPARE(widget_->segmentAt(pos), qint64{1});
    const QString text = widget_->toolTipTextAt(pos);
    QVERIFY2(text.contains(QStringLiteral("Waiting")), qPrintable(text));
    QVERIFY2(text.contains(QString::fromLatin1(kWaitLabel).toHtmlEscaped()), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Start: 4.00 ms")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Duration: 1.00 ms")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Micro-batch: 2")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("GPU 0, compute")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Step: 1")), qPrintable(text));

    // Second step, collectives of GPU 3.
    widget_->scrollToLayoutRow(widget_->rowLayout().layoutRowOfTimelineRow(13));
    const QPoint pos3 =
        widget_->positionOf(17 * kMs, widget_->rowLayout().layoutRowOfTimelineRow(13));
    const QString text2 = widget_->toolTipTextAt(pos3);
    QVERIFY2(text2.contains(QStringLiteral("all-reduce bucket 1")), qPrintable(text2));
    QVERIFY2(text2.contains(QStringLiteral("GPU 3, collectives")), qPrintable(text2));
    QVERIFY2(text2.contains(QStringLiteral("Step: 2")), qPrintable(text2));
    QVERIFY(!text2.contains(QStringLiteral("Micro-batch")));
    // Issue 13: what a collective moves and at what rate (25 MB in 3 ms).
    QVERIFY2(text2.contains(QStringLiteral("Moves 25.0 MB at 8.3 GB/s")), qPrintable(text2));
    QVERIFY(!text.contains(QStringLiteral("Moves"))); // waiting moves nothing

    // A gap has no tooltip.
    widget_->scrollToLayoutRow(0);
    const QPoint gap = widget_->positionOf(2 * kMs, widget_->rowLayout().layoutRowOfTimelineRow(1));
    QCOMPARE(widget_->segmentAt(gap), qint64{-1});
    QVERIFY(widget_->toolTipTextAt(gap).isEmpty());
}

void TestTimelineWidget::hoverDoesNotRebuildGeometry()
{
    QImage image(widget_->size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        widget_->render(&p, QRect(QPoint(0, 0), widget_->size()));
    }
    const int rebuilds = widget_->geometryRebuildCount();
    QSignalSpy spy(widget_, &TimelineWidget::segmentHovered);
    const QPoint pos =
        widget_->positionOf(4.5 * kMs, widget_->rowLayout().layoutRowOfTimelineRow(0));
    sendMouse(widget_, QEvent::MouseMove, pos, Qt::NoButton, Qt::NoButton);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toLongLong(), qint64{1});
    QImage hovered(widget_->size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&hovered);
        widget_->render(&p, QRect(QPoint(0, 0), widget_->size()));
    }
    QCOMPARE(widget_->geometryRebuildCount(), rebuilds);
    QVERIFY(hovered != image); // the overlay was drawn
    // A range change does rebuild.
    widget_->setTimeRange(1 * kMs, 9 * kMs);
    {
        QPainter p(&hovered);
        widget_->render(&p, QRect(QPoint(0, 0), widget_->size()));
    }
    QCOMPARE(widget_->geometryRebuildCount(), rebuilds + 1);
}

void TestTimelineWidget::exportPngAndSvg()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    widget_->setTitle(QStringLiteral("A: pinned"));
    const QString png = dir.filePath(QStringLiteral("timeline.png"));
    const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
    QString error;
    QVERIFY2(widget_->exportPng(png, &error), qPrintable(error));
    QVERIFY2(widget_->exportSvg(svg, &error), qPrintable(error));
    const QImage image(png);
    QCOMPARE(image.size(), widget_->size());
    // Some pixel in the plot has the compute colour.
    const QPoint p = widget_->positionOf(2 * kMs, widget_->rowLayout().layoutRowOfTimelineRow(0));
    QCOMPARE(image.pixelColor(p).rgb(), kindColor(SegmentKind::Compute).rgb());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    QVERIFY(content.contains("<svg"));
    QVERIFY(content.contains("A: pinned"));
}

void TestTimelineWidget::exportReportsErrors()
{
    QString error;
    const QString path = QStringLiteral("/nonexistent-dir-scalescope/x.png");
    QVERIFY(!widget_->exportPng(path, &error));
    QVERIFY(error.contains(path));
    error.clear();
    QVERIFY(!widget_->exportSvg(QStringLiteral("/nonexistent-dir-scalescope/x.svg"), &error));
    QVERIFY(!error.isEmpty());
}

void TestTimelineWidget::collapseByClickingHeader()
{
    QSignalSpy spy(widget_, &TimelineWidget::nodeCollapsedChanged);
    const size_t rows_before = widget_->rowLayout().size();
    QCOMPARE(rows_before, size_t{10});
    QTest::mouseClick(widget_, Qt::LeftButton, {}, widget_->nodeHeaderPosition(0));
    QVERIFY(widget_->isNodeCollapsed(0));
    QVERIFY(!widget_->isNodeCollapsed(1));
    QCOMPARE(widget_->rowLayout().size(), size_t{6});
    QCOMPARE(spy.count(), 1);
    // The summary row of node 0 shows what its GPUs do (all compute at 2 ms).
    const QPoint summary = widget_->positionOf(2 * kMs, widget_->rowLayout().layoutRowOfNode(0));
    QVERIFY(widget_->toolTipTextAt(summary).contains(QStringLiteral("Click to expand")));
    QImage image(widget_->size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        widget_->render(&p, QRect(QPoint(0, 0), widget_->size()));
    }
    QCOMPARE(image.pixelColor(summary).rgb(), kindColor(SegmentKind::Compute).rgb());
    QTest::mouseClick(widget_, Qt::LeftButton, {}, widget_->nodeHeaderPosition(0));
    QVERIFY(!widget_->isNodeCollapsed(0));
    QCOMPARE(widget_->rowLayout().size(), rows_before);
    QCOMPARE(spy.count(), 2);
}

void TestTimelineWidget::emptyState()
{
    TimelineWidget empty;
    empty.resize(400, 300);
    QCOMPARE(empty.segmentAt(QPoint(200, 150)), qint64{-1});
    QVERIFY(empty.toolTipTextAt(QPoint(200, 150)).isEmpty());
    QImage image(empty.size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::magenta);
    {
        QPainter p(&image);
        empty.render(&p, QRect(QPoint(0, 0), empty.size()));
    }
    // Background painted and a message drawn: more than one colour.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    QVERIFY(!colours.contains(qRgb(255, 0, 255)));
    QVERIFY(colours.size() > 1);
    widget_->setTimeline(nullptr);
    QCOMPARE(widget_->segmentAt(widget_->plotRect().center()), qint64{-1});
    QCOMPARE(widget_->rowLayout().size(), size_t{0});
}

void TestTimelineWidget::largerFontMakesLargerRows()
{
    const int row_before = widget_->rowLayout().row(1).height_px;
    QFont big = widget_->font();
    big.setPointSizeF(big.pointSizeF() * 2);
    widget_->setFont(big);
    QVERIFY(widget_->rowLayout().row(1).height_px > row_before);
}

QTEST_MAIN(TestTimelineWidget)
#include "tst_timeline_widget.moc"
