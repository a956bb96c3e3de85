// Benchmark (label bench): slider move (global batch, one notch = x2) to redrawn window on
// every gallery scenario
// (DESIGN.md section 6, budget 50 ms). Prints figures; never fails on time.
#include "bench_window.h"

#include <QEventLoop>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>

using namespace scalescope;

class BenchGuiLatency : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sliderToRedraw()
    {
        QString error;
        const std::vector<GalleryEntry> entries = Application::loadBuiltinGallery(&error);
        QVERIFY2(!entries.empty(), qPrintable(error));
        bench::BenchWindow bw(entries.front().scenario);
        MainWindow &window = *bw.window;
        const std::vector<GalleryEntry> &gallery = bw.gallery;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto wait = [&] { return bw.waitForNewest(); };
        auto *slider = window.findChild<QSlider *>(QStringLiteral("globalBatchSlider"));
        QVERIFY(slider);
        std::printf("%-48s %6s %9s %9s %9s %s\n", "gallery scenario", "gpus", "median_ms", "max_ms",
                    "model_ms", "result");
        std::vector<double> all;
        for (int i = 0; i < static_cast<int>(gallery.size()); ++i) {
            window.loadGalleryEntry(i);
            QVERIFY(wait());
            std::vector<double> ms;
            double model_ms = 0;
            bool ok = true;
            const int start = slider->value();
            for (int rep = 0; rep < 6; ++rep) {
                // One drag: press, move one notch (up or back down), release.
                const int target =
                    rep % 2 == 0 ? (start < slider->maximum() ? start + 1 : start - 1) : start;
                slider->setSliderDown(true);
                slider->setValue(target);
                slider->setSliderDown(false);
                QVERIFY(wait());
                ms.push_back(window.lastLatencyMs());
                model_ms = std::max(model_ms, window.currentResult()->compute_ms);
                ok = ok && window.currentResult()->ok();
            }
            std::sort(ms.begin(), ms.end());
            all.insert(all.end(), ms.begin(), ms.end());
            std::printf("%-48.48s %6d %9.1f %9.1f %9.1f %s\n",
                        gallery[static_cast<size_t>(i)].title_en.toUtf8().constData(),
                        gallery[static_cast<size_t>(i)].scenario.hardware.gpuCount(),
                        ms[ms.size() / 2], ms.back(), model_ms, ok ? "ok" : "invalid");
        }
        std::sort(all.begin(), all.end());
        std::printf("all gallery scenarios: median %.1f ms, p90 %.1f ms, max %.1f ms "
                    "(budget 50 ms)\n",
                    all[all.size() / 2], all[all.size() * 9 / 10], all.back());
    }
};

QTEST_MAIN(BenchGuiLatency)
#include "bench_gui_latency.moc"
