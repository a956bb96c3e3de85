// Row layout, hit testing, culling, per-pixel merging and caching of the timeline geometry.
#include "timeline/timeline_format.h"
#include "timeline/timeline_geometry.h"
#include "timeline/timeline_layout.h"
#include "timeline_test_util.h"

#include <QtTest>

using namespace scalescope;
using scalescope::test::makeComputeTimeline;
using scalescope::test::makeTimeline;
using scalescope::test::Seg;

namespace
{
constexpr int kRowH = 10;
constexpr int kNodeH = 12;

TimelineViewport viewport(double t0, double t1, int width, int scroll = 0, int height = 10000)
{
    TimelineViewport vp;
    vp.start_s = t0;
    vp.end_s = t1;
    vp.width_px = width;
    vp.scroll_y_px = scroll;
    vp.height_px = height;
    return vp;
}

int kindOfRectAt(const TimelineGeometry &g, QPoint p)
{
    for (int k = 0; k < kSegmentKindCount; ++k)
        for (const QRect &r : g.rects_by_kind[static_cast<size_t>(k)])
            if (r.contains(p))
                return k;
    return -1;
}
} // namespace

class TestTimelineGeometry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void layoutRows_data();
    void layoutRows();
    void layoutLookup();
    void hitTestSegment_data();
    void hitTestSegment();
    void cullsRowsOutsideViewport();
    void skipsItemsOutsideRange();
    void mergesSubPixelSegments_data();
    void mergesSubPixelSegments();
    void steadyMixDrawsAsBands();
    void wideSegmentsStaySeparate();
    void denseColumnIsBounded();
    void summaryRowOfCollapsedNode();
    void labelsOnlyOnWideItems();
    void cacheInvalidation_data();
    void cacheInvalidation();
    void formatDuration_data();
    void formatDuration();
    void axisTicks_data();
    void axisTicks();
};

void TestTimelineGeometry::layoutRows_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("gpus_per_node");
    QTest::addColumn<QList<int>>("extra_streams"); // streams (besides compute) with segments
    QTest::addColumn<QList<int>>("collapsed");
    QTest::addColumn<int>("expected_rows");
    QTest::addColumn<int>("expected_stream_rows");

    QTest::newRow("compute only, 2 nodes") << 4 << 2 << QList<int>{} << QList<int>{} << 6 << 4;
    QTest::newRow("collectives shown") << 4 << 2 << QList<int>{1} << QList<int>{} << 10 << 8;
    QTest::newRow("all streams") << 2 << 2 << QList<int>{1, 2, 3} << QList<int>{} << 9 << 8;
    QTest::newRow("one node collapsed") << 4 << 2 << QList<int>{1} << QList<int>{0} << 6 << 4;
    QTest::newRow("all collapsed")
        << 8 << 2 << QList<int>{1, 3} << QList<int>{0, 1, 2, 3} << 4 << 0;
    QTest::newRow("partial last node") << 5 << 2 << QList<int>{} << QList<int>{} << 8 << 5;
    QTest::newRow("empty compute shown") << 1 << 1 << QList<int>{} << QList<int>{} << 2 << 1;
}

void TestTimelineGeometry::layoutRows()
{
    QFETCH(int, gpus);
    QFETCH(int, gpus_per_node);
    QFETCH(QList<int>, extra_streams);
    QFETCH(QList<int>, collapsed);
    QFETCH(int, expected_rows);
    QFETCH(int, expected_stream_rows);

    std::vector<Seg> segs;
    for (int g = 0; g < gpus; ++g) {
        if (QTest::currentDataTag() != QByteArray("empty compute shown"))
            segs.push_back({g * kStreamCount, 0, 1, SegmentKind::Compute});
        for (int s : extra_streams)
            segs.push_back({g * kStreamCount + s, 0, 1, SegmentKind::DpComm});
    }
    const auto tl = makeTimeline(gpus, gpus_per_node, 1, segs);
    const int nodes = TimelineRowLayout::nodeCountOf(*tl);
    std::vector<bool> collapsed_nodes(static_cast<size_t>(nodes), false);
    for (int n : collapsed)
        collapsed_nodes[static_cast<size_t>(n)] = true;

    TimelineRowLayout layout;
    layout.build(tl.get(), collapsed_nodes, kRowH, kNodeH);
    QCOMPARE(static_cast<int>(layout.size()), expected_rows);
    QCOMPARE(layout.nodeCount(), nodes);
    int stream_rows = 0, y = 0;
    for (size_t i = 0; i < layout.size(); ++i) {
        const TimelineRowInfo &row = layout.row(i);
        QCOMPARE(row.y_px, y); // rows stacked without gaps
        y += row.height_px;
        if (row.type == TimelineRowInfo::Type::Stream) {
            ++stream_rows;
            QVERIFY(!collapsed_nodes[static_cast<size_t>(row.node)]);
            QCOMPARE(row.timeline_row, row.gpu * kStreamCount + static_cast<int>(row.stream));
            QCOMPARE(layout.layoutRowOfTimelineRow(row.timeline_row), static_cast<int>(i));
            // compute always; other streams only when they have segments
            QVERIFY(row.stream == Stream::Compute ||
                    extra_streams.contains(static_cast<int>(row.stream)));
            QCOMPARE(row.first_of_gpu, row.stream == Stream::Compute);
        } else {
            QCOMPARE(row.collapsed, collapsed.contains(row.node));
            QCOMPARE(layout.layoutRowOfNode(row.node), static_cast<int>(i));
        }
    }
    QCOMPARE(stream_rows, expected_stream_rows);
    QCOMPARE(layout.totalHeightPx(), y);
}

void TestTimelineGeometry::layoutLookup()
{
    const auto tl = makeComputeTimeline(4, 2, 2, 1.0);
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    // node0 [0,12) gpu0 [12,22) gpu1 [22,32) node1 [32,44) gpu2 [44,54) gpu3 [54,64)
    QCOMPARE(layout.totalHeightPx(), 64);
    QCOMPARE(layout.rowIndexAt(-1), -1);
    QCOMPARE(layout.rowIndexAt(0), 0);
    QCOMPARE(layout.rowIndexAt(11), 0);
    QCOMPARE(layout.rowIndexAt(12), 1);
    QCOMPARE(layout.rowIndexAt(63), 5);
    QCOMPARE(layout.rowIndexAt(64), -1);
    QCOMPARE(layout.rowsIntersecting(0, 12), std::make_pair(size_t{0}, size_t{1}));
    QCOMPARE(layout.rowsIntersecting(11, 23), std::make_pair(size_t{0}, size_t{3}));
    QCOMPARE(layout.rowsIntersecting(40, 1000), std::make_pair(size_t{3}, size_t{6}));
    QCOMPARE(layout.rowsIntersecting(64, 100), std::make_pair(size_t{6}, size_t{6}));
    const auto [b, e] = layout.gpuRange(1);
    QCOMPARE(b, 2);
    QCOMPARE(e, 4);
}

void TestTimelineGeometry::hitTestSegment_data()
{
    QTest::addColumn<int>("x");
    QTest::addColumn<int>("y");
    QTest::addColumn<int>("expected_segment");

    // 100 px for 10 s. Row 1 (gpu 0 compute, y 12..21): [0,2) [2,3) [5,9); row 2 (gpu 0
    // collectives, y 22..31): [1,1.01) a sub-pixel segment.
    QTest::newRow("first segment") << 5 << 15 << 0;
    QTest::newRow("second segment") << 25 << 15 << 1;
    QTest::newRow("gap") << 40 << 15 << -1;
    QTest::newRow("third") << 60 << 20 << 2;
    QTest::newRow("near the end, within tolerance") << 91 << 15 << 2;
    QTest::newRow("past the end") << 95 << 15 << -1;
    QTest::newRow("sub-pixel segment") << 10 << 25 << 3;
    QTest::newRow("sub-pixel, nearby") << 11 << 25 << 3;
    QTest::newRow("node row") << 5 << 5 << -1;
    QTest::newRow("below rows") << 5 << 90 << -1;
}

void TestTimelineGeometry::hitTestSegment()
{
    QFETCH(int, x);
    QFETCH(int, y);
    QFETCH(int, expected_segment);
    const auto tl = makeTimeline(1, 1, 1,
                                 {{0, 0, 2, SegmentKind::Compute},
                                  {0, 2, 1, SegmentKind::Wait},
                                  {0, 5, 4, SegmentKind::Compute},
                                  {1, 1, 0.01, SegmentKind::DpComm}});
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    const TimelineHit hit = hitTest(*tl, layout, viewport(0, 10, 100, 0, 100), QPoint(x, y));
    QCOMPARE(hit.segment, static_cast<int64_t>(expected_segment));
    QVERIFY(std::abs(hit.time_s - (x + 0.5) / 10.0) < 1e-9);
}

void TestTimelineGeometry::cullsRowsOutsideViewport()
{
    // 8 GPUs in one node: node row (12 px) + 8 compute rows of 10 px each.
    const auto tl = makeComputeTimeline(8, 8, 100, 1.0);
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    TimelineGeometryBuilder builder;
    // Window [32, 52): GPU 2 (y 32..41) and GPU 3 (y 42..51) only.
    const TimelineGeometry g = builder.build(*tl, layout, viewport(0, 100, 1000, 32, 20));
    QCOMPARE(g.segments_visited, size_t{200});
    QCOMPARE(g.rectCount(), size_t{200});
    for (const QRect &r : g.rects_by_kind[0]) {
        QVERIFY(r.top() >= 0);
        QVERIFY(r.bottom() < 20);
    }
    // Scrolled past the end: nothing.
    const TimelineGeometry none = builder.build(*tl, layout, viewport(0, 100, 1000, 500, 20));
    QCOMPARE(none.rectCount(), size_t{0});
    QCOMPARE(none.segments_visited, size_t{0});
}

void TestTimelineGeometry::skipsItemsOutsideRange()
{
    const auto tl = makeComputeTimeline(1, 1, 1000, 1.0); // [0, 1000) s, 1 s each
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    TimelineGeometryBuilder builder;
    // [100.5, 110.5): segments 100..110 intersect (11 of them).
    const TimelineGeometry g = builder.build(*tl, layout, viewport(100.5, 110.5, 1000));
    QCOMPARE(g.segments_visited, size_t{11});
    QCOMPARE(g.rectCount(), size_t{11});
    for (const QRect &r : g.rects_by_kind[0]) {
        QVERIFY(r.left() >= 0);
        QVERIFY(r.right() < 1000);
    }
    const TimelineGeometry after = builder.build(*tl, layout, viewport(2000, 3000, 1000));
    QCOMPARE(after.segments_visited, size_t{0});
}

void TestTimelineGeometry::mergesSubPixelSegments_data()
{
    QTest::addColumn<int>("compute_count");
    QTest::addColumn<double>("compute_each");
    QTest::addColumn<int>("wait_count");
    QTest::addColumn<double>("wait_each");
    QTest::addColumn<int>("compute_px");

    // One pixel = 1 s. Segments alternate compute / wait inside pixel 3; the row is 8 px
    // high inside its padding, shared by covered time (compute on top).
    QTest::newRow("compute two thirds") << 5 << 0.1 << 5 << 0.05 << 5;
    QTest::newRow("wait two thirds") << 6 << 0.05 << 3 << 0.2 << 3;
    QTest::newRow("wait three quarters, dense") << 40 << 0.005 << 40 << 0.015 << 2;
}

void TestTimelineGeometry::mergesSubPixelSegments()
{
    QFETCH(int, compute_count);
    QFETCH(double, compute_each);
    QFETCH(int, wait_count);
    QFETCH(double, wait_each);
    QFETCH(int, compute_px);
    std::vector<Seg> segs;
    double t = 3.0;
    for (int i = 0; i < std::max(compute_count, wait_count); ++i) {
        if (i < compute_count) {
            segs.push_back({0, t, compute_each, SegmentKind::Compute});
            t += compute_each;
        }
        if (i < wait_count) {
            segs.push_back({0, t, wait_each, SegmentKind::Wait});
            t += wait_each;
        }
    }
    QVERIFY(t <= 4.0);
    const auto tl = makeTimeline(1, 1, 1, segs);
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    TimelineGeometryBuilder builder;
    const TimelineGeometry g = builder.build(*tl, layout, viewport(0, 10, 10));
    // Both kinds keep their share of pixel 3: the minority is not painted out.
    QCOMPARE(g.rectCount(), size_t{2});
    const auto &compute = g.rects_by_kind[static_cast<size_t>(SegmentKind::Compute)];
    const auto &wait = g.rects_by_kind[static_cast<size_t>(SegmentKind::Wait)];
    QCOMPARE(compute.size(), 1);
    QCOMPARE(wait.size(), 1);
    for (const QRect &r : {compute.front(), wait.front()}) {
        QCOMPARE(r.left(), 3);
        QCOMPARE(r.width(), 1);
    }
    const int top = kNodeH + 1, inner = kRowH - 2;
    QCOMPARE(compute.front().top(), top);
    QCOMPARE(compute.front().height(), compute_px);
    QCOMPARE(wait.front().top(), top + compute_px);
    QCOMPARE(wait.front().height(), inner - compute_px);
}

void TestTimelineGeometry::steadyMixDrawsAsBands()
{
    // An expert all-to-all holding a quarter of every pixel between compute kernels far
    // shorter than a pixel (a 10 s step of 640 kernels drawn over 640 px; binary fractions,
    // so that every pixel holds one pair exactly): the dominant kind alone would paint it
    // out everywhere; stacked, it is a band across the row, one rectangle per kind.
    std::vector<Seg> segs;
    const double period = 1.0 / 64.0;
    for (int i = 0; i < 640; ++i) {
        segs.push_back({0, i * period, 0.75 * period, SegmentKind::Compute});
        segs.push_back({0, (i + 0.75) * period, 0.25 * period, SegmentKind::EpComm});
    }
    const auto tl = makeTimeline(1, 1, 1, segs);
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, 18, kNodeH);
    TimelineGeometryBuilder builder;
    const TimelineGeometry g = builder.build(*tl, layout, viewport(0, 10, 640));
    const auto &compute = g.rects_by_kind[static_cast<size_t>(SegmentKind::Compute)];
    const auto &ep = g.rects_by_kind[static_cast<size_t>(SegmentKind::EpComm)];
    QCOMPARE(compute.size(), 1);
    QCOMPARE(ep.size(), 1);
    QCOMPARE(ep.front().left(), 0);
    QCOMPARE(ep.front().width(), 640);
    // 16 px inside the padding: three quarters compute (12 px), a quarter all-to-all (4 px).
    QCOMPARE(compute.front().height(), 12);
    QCOMPARE(ep.front().height(), 4);
    QCOMPARE(kindOfRectAt(g, QPoint(320, kNodeH + 1 + 14)), static_cast<int>(SegmentKind::EpComm));
    QCOMPARE(kindOfRectAt(g, QPoint(320, kNodeH + 1 + 2)), static_cast<int>(SegmentKind::Compute));
}

void TestTimelineGeometry::wideSegmentsStaySeparate()
{
    // Three adjacent 10 px compute segments, then 20 consecutive sub-pixel compute
    // segments spanning pixels 40..49 (merged into one run).
    std::vector<Seg> segs = {{0, 0, 10, SegmentKind::Compute},
                             {0, 10, 10, SegmentKind::Compute},
                             {0, 20, 10, SegmentKind::Compute}};
    for (int i = 0; i < 20; ++i)
        segs.push_back({0, 40 + i * 0.5, 0.5, SegmentKind::Compute});
    const auto tl = makeTimeline(1, 1, 1, segs);
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    TimelineGeometryBuilder builder;
    const TimelineGeometry g = builder.build(*tl, layout, viewport(0, 100, 100));
    const auto &rects = g.rects_by_kind[static_cast<size_t>(SegmentKind::Compute)];
    QCOMPARE(rects.size(), 4);
    QCOMPARE(rects[0].left(), 0);
    QCOMPARE(rects[1].left(), 10);
    QCOMPARE(rects[2].left(), 20);
    QVERIFY(rects[0].right() < rects[1].left()); // separated
    QCOMPARE(rects[3].left(), 40);
    QCOMPARE(rects[3].width(), 10); // consecutive merged columns form one rectangle
}

void TestTimelineGeometry::denseColumnIsBounded()
{
    // 200,000 segments in one row over 100 s, drawn over 100 px: 2,000 per pixel, 3 of 4
    // of them (by time) waits. Work must be bounded by pixels, colour still right.
    std::vector<Seg> segs;
    const int n = 200000;
    const double each = 100.0 / n;
    for (int i = 0; i < n; ++i)
        segs.push_back({0, i * each, each, i % 4 == 0 ? SegmentKind::Compute : SegmentKind::Wait});
    const auto tl = makeTimeline(1, 1, 1, segs);
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    TimelineGeometryBuilder builder;
    const TimelineGeometry g = builder.build(*tl, layout, viewport(0, 100, 100));
    QVERIFY2(g.segments_visited <= size_t{100} * (2 * TimelineGeometryBuilder::kExactPerPixel + 2),
             qPrintable(QString::number(g.segments_visited)));
    // Stacked: compute's quarter on top (2 of 8 px), the waits below, one run each.
    QCOMPARE(kindOfRectAt(g, QPoint(50, kNodeH + 5)), static_cast<int>(SegmentKind::Wait));
    QCOMPARE(kindOfRectAt(g, QPoint(50, kNodeH + 1)), static_cast<int>(SegmentKind::Compute));
    QCOMPARE(g.rects_by_kind[static_cast<size_t>(SegmentKind::Wait)].size(), 1); // one run
    QCOMPARE(g.rects_by_kind[static_cast<size_t>(SegmentKind::Compute)].size(), 1);
}

void TestTimelineGeometry::summaryRowOfCollapsedNode()
{
    // Node 0 = GPUs 0 and 1. [0,5): both compute; [5,10): GPU 0 waits, GPU 1 waits too,
    // plus collectives on GPU 0 only over [5,6).
    const auto tl = makeTimeline(2, 2, 1,
                                 {{0, 0, 5, SegmentKind::Compute},
                                  {0, 5, 5, SegmentKind::Wait},
                                  {1, 5, 1, SegmentKind::DpComm},
                                  {4, 0, 5, SegmentKind::Compute},
                                  {4, 5, 5, SegmentKind::Wait}});
    TimelineRowLayout layout;
    layout.build(tl.get(), {true}, kRowH, kNodeH);
    QCOMPARE(layout.size(), size_t{1});
    TimelineGeometryBuilder builder;
    const TimelineGeometry g = builder.build(*tl, layout, viewport(0, 10, 100));
    QCOMPARE(kindOfRectAt(g, QPoint(20, 5)), static_cast<int>(SegmentKind::Compute));
    QCOMPARE(kindOfRectAt(g, QPoint(55, 5)), static_cast<int>(SegmentKind::Wait));
    QCOMPARE(kindOfRectAt(g, QPoint(90, 5)), static_cast<int>(SegmentKind::Wait));
    // Runs merged: one compute run, one wait run.
    QCOMPARE(g.rectCount(), size_t{2});
    // Expanded: no summary, one row per stream.
    layout.build(tl.get(), {false}, kRowH, kNodeH);
    QCOMPARE(layout.size(), size_t{4});

    // Communication overlapping the compute streams (even on more rows than compute) does
    // not hide what the GPUs do: the summary follows the compute streams.
    const auto busy = makeTimeline(2, 2, 1,
                                   {{0, 0, 10, SegmentKind::Compute},
                                    {1, 0, 10, SegmentKind::DpComm},
                                    {2, 0, 10, SegmentKind::DpComm},
                                    {4, 0, 10, SegmentKind::Compute},
                                    {5, 0, 10, SegmentKind::DpComm},
                                    {6, 0, 10, SegmentKind::DpComm}});
    layout.build(busy.get(), {true}, kRowH, kNodeH);
    const TimelineGeometry overlapped = builder.build(*busy, layout, viewport(0, 10, 100));
    QCOMPARE(kindOfRectAt(overlapped, QPoint(50, 5)), static_cast<int>(SegmentKind::Compute));
    QCOMPARE(overlapped.rectCount(), size_t{1});
}

void TestTimelineGeometry::labelsOnlyOnWideItems()
{
    const auto tl = makeTimeline(
        1, 1, 1,
        {{0, 0, 1, SegmentKind::Compute, "narrow"}, {0, 1, 50, SegmentKind::Compute, "wide"}});
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    TimelineGeometryBuilder builder;
    builder.setLabelMinWidthPx(30);
    const TimelineGeometry g = builder.build(*tl, layout, viewport(0, 100, 100));
    QCOMPARE(g.labels.size(), size_t{1});
    QCOMPARE(g.labels.front().segment, size_t{1});
}

void TestTimelineGeometry::cacheInvalidation_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<bool>("rebuilds");
    QTest::newRow("nothing") << "none" << false;
    QTest::newRow("range") << "range" << true;
    QTest::newRow("width") << "width" << true;
    QTest::newRow("height") << "height" << true;
    QTest::newRow("scroll") << "scroll" << true;
    QTest::newRow("collapse") << "collapse" << true;
    QTest::newRow("data") << "data" << true;
    QTest::newRow("label width") << "label" << true;
}

void TestTimelineGeometry::cacheInvalidation()
{
    QFETCH(QString, change);
    QFETCH(bool, rebuilds);
    const auto tl = makeComputeTimeline(4, 2, 50, 1.0);
    const auto other = makeComputeTimeline(4, 2, 50, 1.0);
    TimelineRowLayout layout;
    layout.build(tl.get(), {}, kRowH, kNodeH);
    TimelineGeometryCache cache;
    TimelineViewport vp = viewport(0, 50, 500, 0, 40);
    cache.geometry(*tl, layout, vp);
    QCOMPARE(cache.rebuildCount(), 1);
    cache.geometry(*tl, layout, vp);
    QCOMPARE(cache.rebuildCount(), 1);

    const Timeline *data = tl.get();
    if (change == QLatin1String("range"))
        vp.end_s = 40;
    else if (change == QLatin1String("width"))
        vp.width_px = 400;
    else if (change == QLatin1String("height"))
        vp.height_px = 50;
    else if (change == QLatin1String("scroll"))
        vp.scroll_y_px = 10;
    else if (change == QLatin1String("collapse"))
        layout.build(tl.get(), {true, false}, kRowH, kNodeH);
    else if (change == QLatin1String("data"))
        data = other.get();
    else if (change == QLatin1String("label"))
        cache.builder().setLabelMinWidthPx(7);
    QCOMPARE(cache.isValidFor(*data, layout, vp), !rebuilds);
    cache.geometry(*data, layout, vp);
    QCOMPARE(cache.rebuildCount(), rebuilds ? 2 : 1);
    cache.invalidate();
    cache.geometry(*data, layout, vp);
    QCOMPARE(cache.rebuildCount(), rebuilds ? 3 : 2);
}

void TestTimelineGeometry::formatDuration_data()
{
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("expected");
    QTest::newRow("ns") << 5e-7 << QStringLiteral("500 ns");
    QTest::newRow("us") << 1.25e-5 << QStringLiteral("12.5 µs");
    QTest::newRow("ms") << 3.2e-3 << QStringLiteral("3.20 ms");
    QTest::newRow("s") << 1.25 << QStringLiteral("1.25 s");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0 ns");
}

void TestTimelineGeometry::formatDuration()
{
    QFETCH(double, seconds);
    QFETCH(QString, expected);
    QCOMPARE(scalescope::formatDuration(seconds), expected);
}

void TestTimelineGeometry::axisTicks_data()
{
    QTest::addColumn<double>("start_s");
    QTest::addColumn<double>("end_s");
    QTest::addColumn<double>("expected_step_s");
    QTest::addColumn<QString>("first_label");
    // 1000 px, 100 px minimum spacing: at most 10 ticks.
    QTest::newRow("seconds") << 0.0 << 10.0 << 1.0 << QStringLiteral("0 s");
    QTest::newRow("ms") << 0.0 << 0.1 << 0.01 << QStringLiteral("0 ms");
    QTest::newRow("ms offset") << 0.0123 << 0.0323 << 0.002 << QStringLiteral("14 ms");
    QTest::newRow("us") << 0.0 << 5e-5 << 5e-6 << QStringLiteral("0 µs");
    QTest::newRow("ms, fine step") << 1e-3 << 1.05e-3 << 5e-6 << QStringLiteral("1.000 ms");
    QTest::newRow("fractional ms") << 0.0 << 0.004 << 0.0005 << QStringLiteral("0.0 ms");
}

void TestTimelineGeometry::axisTicks()
{
    QFETCH(double, start_s);
    QFETCH(double, end_s);
    QFETCH(double, expected_step_s);
    QFETCH(QString, first_label);
    const TimeAxisTicks ticks = computeTimeAxisTicks(start_s, end_s, 1000, 100);
    QVERIFY(std::abs(ticks.step_s - expected_step_s) < expected_step_s * 1e-9);
    QVERIFY(!ticks.ticks_s.empty());
    QVERIFY(ticks.ticks_s.size() <= 11);
    QVERIFY(ticks.ticks_s.front() >= start_s - 1e-12);
    QCOMPARE(ticks.label(ticks.ticks_s.front()), first_label);
}

QTEST_GUILESS_MAIN(TestTimelineGeometry)
#include "tst_timeline_geometry.moc"
