// Hand-made results for the view tests: an Amdahl-shaped sweep with a known serial fraction.
#pragma once

#include "../support/edit_result.h"
#include "result.h"

#include <cmath>
#include <memory>
#include <vector>

namespace scalescope::test
{

/// A row whose step time follows Amdahl's law with serial fraction `s` and a 1 s step on one
/// GPU; the serial part is exposed communication, the rest compute (split off some bubble,
/// wait and data loading so every part is non-zero).
inline SweepRow amdahlRow(int gpus, double s)
{
    SweepRow row;
    row.gpus = gpus;
    Summary &m = row.summary;
    m.gpus = gpus;
    m.single_gpu_step_s = 1.0;
    m.step_time_s = s + (1.0 - s) / gpus;
    m.speedup = m.single_gpu_step_s / m.step_time_s;
    m.scaling_efficiency = m.speedup / gpus;
    m.samples_per_s = 256.0 / m.step_time_s;
    m.mfu = 0.5 * m.scaling_efficiency;
    const double parallel = (1.0 - s) / gpus;
    m.breakdown.compute = 0.7 * parallel;
    m.breakdown.pipeline_bubble = 0.1 * parallel;
    m.breakdown.wait = 0.1 * parallel;
    m.breakdown.data_loading = 0.1 * parallel;
    m.breakdown.communication_exposed = s;
    m.breakdown.communication_total = 2 * s;
    m.memory.parameters = 10 * kBytesPerGiB;
    m.memory.gradients = 10 * kBytesPerGiB;
    m.memory.optimizer_states = 40 * kBytesPerGiB / gpus;
    m.memory.activations = 20 * kBytesPerGiB;
    m.memory.total =
        m.memory.parameters + m.memory.gradients + m.memory.optimizer_states + m.memory.activations;
    m.memory.capacity = 80 * kBytesPerGiB;
    return row;
}

/// A valid result at `current_gpus` with a sweep over `counts`.
inline std::shared_ptr<ScenarioResult> amdahlResult(const std::vector<int> &counts, double s,
                                                    int current_gpus,
                                                    Scaling scaling = Scaling::Strong)
{
    auto r = std::make_shared<ScenarioResult>();
    r->scenario.name = "fixture";
    r->scenario.hardware.gpu.name = "Test GPU";
    r->scenario.hardware.gpu.tdp_w = 700;
    r->scenario.training.global_batch = 256;
    r->scaling = scaling;
    ScenarioEvaluation &e = editEvaluation(*r);
    std::vector<int> gpus;
    std::vector<double> speedups;
    for (int n : counts) {
        e.sweep.push_back(amdahlRow(n, s));
        gpus.push_back(n);
        speedups.push_back(e.sweep.back().summary.speedup);
    }
    // As the evaluation does (analysis/evaluation.cpp).
    e.amdahl = fitAmdahl(gpus, speedups);
    e.attribution = attributeSpeedupLoss(e.sweep);
    e.step.summary = amdahlRow(current_gpus, s).summary;
    return r;
}

/// amdahlResult with a cost section (steps as the work) and its report from the model.
inline std::shared_ptr<ScenarioResult> costResult(int current_gpus)
{
    auto r = amdahlResult({1, 2, 4, 8}, 0.0, current_gpus);
    r->scenario.hardware.gpus_per_node = 8;
    CostSpec c;
    c.gpu_price_usd = 30000;
    c.server_price_usd = 20000;
    c.amortisation_years = 3;
    c.power_price_per_kwh = 0.2;
    c.pue = 1.5;
    c.cloud_price_per_gpu_hour = 2.5;
    c.steps = 230400; // 64 h on one GPU (1 s per step)
    c.runs_per_month = 4;
    c.migration_days = 2;
    c.day_rate_usd = 800;
    r->scenario.cost = c;
    editEvaluation(*r).cost = costReport(r->scenario, r->summary());
    return r;
}

/// amdahlResult at `gpus` GPUs with thermal effects: GPU `hot_gpu` settles at 95 C, the
/// others at 70 C (threshold 84 C, warm-up 60 s, ambient 30 C).
inline std::shared_ptr<ScenarioResult> thermalResult(int gpus, int hot_gpu)
{
    auto r = amdahlResult({1, 2, 4}, 0.05, gpus);
    ThermalSpec &t = r->scenario.effects.thermal;
    t.enabled = true;
    t.throttle_above_c = 84;
    t.warmup_s = 60;
    t.ambient_c = 30;
    t.steady_c = 70;
    if (hot_gpu >= 0)
        t.gpus.push_back({hot_gpu, 95});
    return r;
}

inline std::shared_ptr<ScenarioResult> errorResult()
{
    auto r = std::make_shared<ScenarioResult>();
    r->error_path = QStringLiteral("parallel.tensor");
    r->error = QStringLiteral("tensor = 3 does not divide heads = 32");
    return r;
}

} // namespace scalescope::test
