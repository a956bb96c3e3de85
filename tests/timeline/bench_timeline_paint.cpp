// Paint benchmark of the timeline widget: 1,000,000 segments into a 1920x1080 QImage at
// several zoom levels, cold (geometry rebuilt), cached, and while panning. Prints figures;
// never fails on time (DESIGN.md section 6: <= 16 ms per paint at any zoom).
#include "timeline/timeline_geometry.h"
#include "timeline/timeline_widget.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace scalescope;

namespace
{
constexpr int kGpus = 64;
constexpr int kGpusPerNode = 8;
constexpr int kRepeats = 15;
// Segments per GPU by stream: 8000 + 4000 + 2000 + 1625 = 15625; x 64 GPUs = 1,000,000.
constexpr int kPerStream[kStreamCount] = {8000, 4000, 2000, 1625};

std::shared_ptr<const Timeline> makeMillionSegments()
{
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const auto log_uniform = [&](double lo, double hi) {
        return lo * std::pow(hi / lo, unit(rng));
    };
    TimelineBuilder builder(kGpus, kGpusPerNode, 4);
    builder.reserve(1000000);
    const uint32_t labels[] = {
        builder.internLabel("forward layer"), builder.internLabel("backward layer"),
        builder.internLabel("waiting for GPU 3 (slowest data-parallel replica)"),
        builder.internLabel("all-reduce bucket"), builder.internLabel("send activations")};
    for (int gpu = 0; gpu < kGpus; ++gpu) {
        for (int s = 0; s < kStreamCount; ++s) {
            builder.beginRow(gpu * kStreamCount + s);
            double t = 0;
            for (int i = 0; i < kPerStream[s]; ++i) {
                const double r = unit(rng);
                SegmentKind kind = SegmentKind::Compute;
                uint32_t label = labels[0];
                double gap = 0;
                if (s == 0) {
                    kind = r < 0.7    ? SegmentKind::Compute
                           : r < 0.8  ? SegmentKind::Wait
                           : r < 0.9  ? SegmentKind::Bubble
                           : r < 0.95 ? SegmentKind::Optimizer
                                      : SegmentKind::DataLoad;
                    label = kind == SegmentKind::Wait ? labels[2] : labels[i % 2];
                } else if (s == 1) {
                    kind = r < 0.5 ? SegmentKind::TpComm : SegmentKind::DpComm;
                    label = labels[3];
                    gap = log_uniform(1e-6, 2e-3);
                } else {
                    kind = SegmentKind::PpComm;
                    label = labels[4];
                    gap = log_uniform(1e-6, 4e-3);
                }
                t += gap;
                // Mixed widths: 1 us .. 5 ms, log-uniform.
                const double duration = log_uniform(1e-6, 5e-3);
                builder.add(t, duration, kind, label, i % 8);
                t += duration;
            }
        }
    }
    return std::make_shared<const Timeline>(builder.finish());
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double paintMs(TimelineWidget &w, QImage &image)
{
    QElapsedTimer timer;
    timer.start();
    QPainter painter(&image);
    w.render(&painter, QRect(QPoint(0, 0), image.size()));
    painter.end();
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}
} // namespace

class BenchTimelinePaint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void paint_data();
    void paint();
};

void BenchTimelinePaint::paint_data()
{
    QTest::addColumn<double>("zoom");
    QTest::addColumn<bool>("collapsed");
    for (const bool collapsed : {false, true}) {
        for (const double zoom : {1.0, 10.0, 1000.0}) {
            const QString tag = QStringLiteral("%1x %2").arg(zoom).arg(
                collapsed ? QStringLiteral("all nodes collapsed") : QStringLiteral("expanded"));
            QTest::newRow(qPrintable(tag)) << zoom << collapsed;
        }
    }
}

void BenchTimelinePaint::paint()
{
    QFETCH(double, zoom);
    QFETCH(bool, collapsed);
    static const std::shared_ptr<const Timeline> timeline = [] {
        QElapsedTimer timer;
        timer.start();
        auto t = makeMillionSegments();
        qInfo("synthetic timeline: %zu segments, %d rows, built in %.0f ms; timeline data %zu "
              "bytes/segment",
              t->size(), t->rows(), static_cast<double>(timer.elapsed()),
              Timeline::bytesPerSegment());
        return t;
    }();
    QCOMPARE(timeline->size(), size_t{1000000});

    TimelineWidget w;
    w.resize(1920, 1080);
    w.setTimeline(timeline);
    w.setAllNodesCollapsed(collapsed);
    const double extent = timeline->endTime();
    const double span = extent / zoom;
    const double centre = 0.5 * extent;
    w.setTimeRange(centre - span / 2, centre + span / 2);
    QImage image(w.size(), QImage::Format_ARGB32_Premultiplied);

    std::vector<double> cold, cached, panning, build;
    paintMs(w, image); // warm up
    for (int i = 0; i < kRepeats; ++i) {
        w.clearGeometryCache();
        cold.push_back(paintMs(w, image));
        cached.push_back(paintMs(w, image));
    }
    const size_t rects = w.cachedGeometry().rectCount();
    const size_t labels = w.cachedGeometry().labels.size();
    const size_t visited = w.cachedGeometry().segments_visited;
    const size_t cache_bytes = w.cachedGeometry().bytes();
    QVERIFY(rects > 0);

    // Geometry alone, for the same viewport.
    TimelineViewport vp;
    vp.start_s = w.timeRange().first;
    vp.end_s = w.timeRange().second;
    vp.width_px = w.plotRect().width();
    vp.height_px = w.plotRect().height();
    vp.scroll_y_px = w.scrollOffsetPx();
    TimelineGeometryBuilder builder;
    TimelineGeometry g;
    for (int i = 0; i < kRepeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        builder.build(*timeline, w.rowLayout(), vp, g);
        build.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    QCOMPARE(g.rectCount(), rects);

    // Panning: 1 % of the span per frame, a cache miss every time.
    for (int i = 0; i < kRepeats; ++i) {
        const auto [s, e] = w.timeRange();
        const double shift = (i % 2 == 0 ? 1 : -1) * 0.01 * (e - s);
        w.setTimeRange(s + shift, e + shift);
        panning.push_back(paintMs(w, image));
    }

    // For a look at what was measured: SCALESCOPE_TIMELINE_BENCH_PNG=<folder>.
    const QString save_dir = qEnvironmentVariable("SCALESCOPE_TIMELINE_BENCH_PNG");
    if (!save_dir.isEmpty())
        QVERIFY(w.exportPng(QStringLiteral("%1/%2.png")
                                .arg(save_dir, QString::fromLatin1(QTest::currentDataTag())
                                                   .replace(QLatin1Char(' '), QLatin1Char('_')))));

    qInfo("%-28s paint cold %6.2f ms | cached %6.2f ms | panning %6.2f ms | geometry %6.2f ms | "
          "%zu rects, %zu labels, %zu segments visited | cache %zu bytes = %.3f bytes/segment",
          QTest::currentDataTag(), median(cold), median(cached), median(panning), median(build),
          rects, labels, visited, cache_bytes,
          static_cast<double>(cache_bytes) / static_cast<double>(timeline->size()));
}

QTEST_MAIN(BenchTimelinePaint)
#include "bench_timeline_paint.moc"
