// The bottleneck names the link whose speed sets the step (issue 26, item 4): for a
// data-parallel exchange across nodes, each link in turn made twice as fast, the step
// simulated again, and the sentence must name the link whose speed-up shortens the step
// most. Claim 1 over InfiniBand HDR, NDR or XDR gave the same step and blamed InfiniBand.
#include "testutil.h"

using namespace scalescope;
using namespace scalescope::test;

class TestBottleneckLink : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesTheLinkThatMovesTheStep_data();
    void namesTheLinkThatMovesTheStep();
};

void TestBottleneckLink::namesTheLinkThatMovesTheStep_data()
{
    addClaim1LinkRows({"pcie3", "pcie4", "pcie5"},
                      {"eth-10g", "eth-100g", "ib-hdr-200", "ib-ndr-400", "ib-xdr-800"});
}

void TestBottleneckLink::namesTheLinkThatMovesTheStep()
{
    QFETCH(QString, intra);
    QFETCH(QString, inter);
    QFETCH(QString, gpu);
    const Scenario base = claim1OnLinks(intra, inter, gpu);
    const Summary s = simulateSummary(base);
    if (s.bottleneck.kind != BottleneckKind::DpExchange)
        QSKIP(qPrintable(QStringLiteral("the exchange does not limit this step: ") +
                         QString::fromStdString(bottleneckText(s.bottleneck))));
    // Each link twice as fast, the rest as it was.
    const double intra_gain =
        s.step_time_s - simulateSummary(withFasterLink(base, true, 2)).step_time_s;
    const double inter_gain =
        s.step_time_s - simulateSummary(withFasterLink(base, false, 2)).step_time_s;
    // Only where the two differ clearly (1% of the step): near a tie either name is honest.
    if (std::abs(intra_gain - inter_gain) < 0.01 * s.step_time_s)
        QSKIP("both links move the step alike");
    const std::string &expected =
        intra_gain > inter_gain ? base.hardware.intra.name : base.hardware.inter.name;
    const std::string &other =
        intra_gain > inter_gain ? base.hardware.inter.name : base.hardware.intra.name;
    const std::string text = bottleneckText(s.bottleneck);
    QVERIFY2(s.bottleneck.link == expected,
             qPrintable(QStringLiteral("named %1, but %2 moves the step by %3 ms and %4 by %5 "
                                       "ms: %6")
                            .arg(QString::fromStdString(s.bottleneck.link),
                                 QString::fromStdString(expected))
                            .arg(std::max(intra_gain, inter_gain) * 1e3)
                            .arg(QString::fromStdString(other))
                            .arg(std::min(intra_gain, inter_gain) * 1e3)
                            .arg(QString::fromStdString(text))));
    QVERIFY(text.find(expected) != std::string::npos);
}

QTEST_GUILESS_MAIN(TestBottleneckLink)
#include "tst_bottleneck_link.moc"
