// The control panel's Hardware group: GPU, nodes and GPUs per node, links and NICs, the
// calibration profile; built, connected to edits and synchronised with the scenario.
#include "controls/control_panel_p.h"

namespace scalescope
{

using namespace panel_detail;

QWidget *ControlPanel::buildHardware(QWidget *parent)
{
    auto *group = new QGroupBox(tr("Hardware"), parent);
    group->setObjectName(QStringLiteral("hardwareGroup"));
    QFormLayout *form = makeForm(group);

    gpu_combo_ = makeCombo(group, "gpuCombo", tr("GPU model from the catalog, with its memory"));
    for (const GpuSpec &gpu : catalog_.gpus) {
        gpu_combo_->addItem(tr("%1, %2 GB").arg(qs(gpu.name)).arg(gpu.memory_gb), qs(gpu.id));
        gpu_combo_->setItemData(gpu_combo_->count() - 1,
                                tr("%1: %2 GB at %3 GB/s, %4 TFLOP/s BF16 dense")
                                    .arg(qs(gpu.name))
                                    .arg(gpu.memory_gb)
                                    .arg(gpu.memory_bandwidth_gbps)
                                    .arg(gpu.peak(Precision::BF16)),
                                Qt::ToolTipRole);
    }
    addRow(form, tr("&GPU"), gpu_combo_, gpu_combo_,
           {QStringLiteral("hardware.gpu"), QStringLiteral("hardware.calibration")},
           QStringLiteral("gpuComboError"));

    QHBoxLayout *countLayout = nullptr;
    QWidget *countBox = makeRowBox(group, &countLayout);
    gpu_count_slider_ = makeLogSlider<BlockedRangeSlider>(
        countBox, "gpuCountSlider", kMaxGpuCountLog2,
        tr("Total GPU count on a log scale, 1-1024 (powers of two). Sets the nodes at fixed GPUs "
           "per node, or the GPUs of one node below a full node."));
    gpu_count_label_ = new QLabel(countBox);
    gpu_count_label_->setTextFormat(Qt::PlainText);
    gpu_count_label_->setObjectName(QStringLiteral("gpuCountLabel"));
    countLayout->addWidget(gpu_count_slider_, 1);
    countLayout->addWidget(gpu_count_label_);
    addRow(form, tr("GPU &count"), countBox, gpu_count_slider_, {QStringLiteral("hardware")},
           QStringLiteral("gpuCountError"));

    nodes_spin_ = makeSpin(group, "nodesSpin", 1, 65536, tr("Nodes in the cluster, 1-65536"));
    addRow(form, tr("&Nodes"), nodes_spin_, nodes_spin_, {QStringLiteral("hardware.nodes")},
           QStringLiteral("nodesSpinError"));
    gpus_per_node_spin_ = makeSpin(group, "gpusPerNodeSpin", 1, 16, tr("GPUs in each node, 1-16"));
    addRow(form, tr("GP&Us per node"), gpus_per_node_spin_, gpus_per_node_spin_,
           {QStringLiteral("hardware.gpus_per_node")}, QStringLiteral("gpusPerNodeSpinError"));

    intra_combo_ = makeCombo(group, "intraCombo",
                             tr("Link between the GPUs of one node (GB/s per GPU per direction)"));
    for (const IntraLinkSpec &link : catalog_.intra_links) {
        intra_combo_->addItem(qs(link.name), qs(link.id));
        intra_combo_->setItemData(intra_combo_->count() - 1,
                                  tr("%1 GB/s per GPU per direction, %2 µs")
                                      .arg(link.bandwidth_gbps)
                                      .arg(link.latency_us),
                                  Qt::ToolTipRole);
    }
    addRow(form, tr("&Intra-node"), intra_combo_, intra_combo_,
           {QStringLiteral("hardware.intra_node")}, QStringLiteral("intraComboError"));

    inter_combo_ = makeCombo(group, "interCombo", tr("Network between nodes (Gb/s per NIC)"));
    for (const InterLinkSpec &link : catalog_.inter_links) {
        inter_combo_->addItem(qs(link.name), qs(link.id));
        inter_combo_->setItemData(
            inter_combo_->count() - 1,
            tr("%1 Gb/s per NIC, %2 µs").arg(link.line_rate_gbit).arg(link.latency_us),
            Qt::ToolTipRole);
    }
    addRow(form, tr("Net&work"), inter_combo_, inter_combo_,
           {QStringLiteral("hardware.inter_node")}, QStringLiteral("interComboError"));

    nics_spin_ = makeSpin(group, "nicsSpin", 1, 64,
                          tr("Network interfaces per node, shared by its GPUs, 1-64"));
    addRow(form, tr("NICs per node"), nics_spin_, nics_spin_,
           {QStringLiteral("hardware.nics_per_node")}, QStringLiteral("nicsSpinError"));

    // GPUs without peer-to-peer (GeForce) stage their traffic through host memory: where
    // they attach decides what bounds it (comm/collective.cpp, hostStagedFlowBandwidth).
    pcie_topology_combo_ = makeCombo(
        group, "pcieTopologyCombo",
        tr("How the GPUs attach to the host. It bounds GPUs without peer-to-peer (GeForce), "
           "whose traffic goes through host memory: behind one PCIe switch they share its "
           "uplink; on CPU root ports each CPU socket's memory bandwidth is the limit."));
    pcie_topology_combo_->addItem(tr("One PCIe switch"),
                                  QString::fromLatin1(pcieTopologyName(PcieTopology::Switch)));
    pcie_topology_combo_->addItem(tr("CPU root ports"),
                                  QString::fromLatin1(pcieTopologyName(PcieTopology::RootPorts)));
    addRow(form, tr("PCIe &topology"), pcie_topology_combo_, pcie_topology_combo_,
           {QStringLiteral("hardware.pcie_topology")}, QStringLiteral("pcieTopologyComboError"));
    host_memory_spin_ = makeDoubleSpin(
        group, "hostMemorySpin", 0, 5000, 1,
        tr("Memory bandwidth of one CPU socket, 0-5000 GB/s; 0 uses the figure of the "
           "intra-node link's server generation. Bounds GPUs without peer-to-peer on CPU root "
           "ports."),
        tr(" GB/s"));
    host_memory_spin_->setSpecialValueText(tr("platform default"));
    addRow(form, tr("Host memory per socket"), host_memory_spin_, host_memory_spin_,
           {QStringLiteral("hardware.host_memory_gbps")}, QStringLiteral("hostMemorySpinError"));

    // A power cap lowers the sustained clock (hardware/hardware.cpp, powerLimitedClockRatio);
    // its range follows the GPU's TDP (syncHardware).
    power_limit_spin_ = makeSpin(group, "powerLimitSpin", 1, 1, QString(), tr(" W"));
    addRow(form, tr("Power limit"), power_limit_spin_, power_limit_spin_,
           {QStringLiteral("hardware.power_limit_w")}, QStringLiteral("powerLimitSpinError"));
    nvlink_domain_spin_ = makeSpin(group, "nvlinkDomainSpin", 1, 1, QString(), tr(" nodes"));
    nvlink_domain_spin_->setSpecialValueText(tr("one node"));
    addRow(form, tr("NVLink domain"), nvlink_domain_spin_, nvlink_domain_spin_,
           {QStringLiteral("hardware.nvlink_domain")}, QStringLiteral("nvlinkDomainSpinError"));
    cpu_cores_spin_ = makeSpin(group, "cpuCoresSpin", 0, 4096,
                               tr("CPU cores per node, 0-4096; they bound a data loader that "
                                  "decodes with a catalog pipeline. 0: not stated"));
    cpu_cores_spin_->setSpecialValueText(tr("not stated"));
    addRow(form, tr("CPU cores per node"), cpu_cores_spin_, cpu_cores_spin_,
           {QStringLiteral("hardware.cpu_cores")}, QStringLiteral("cpuCoresSpinError"));
    return group;
}

void ControlPanel::connectHardware()
{
    connect(gpu_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const GpuSpec *gpu = catalog_.findGpu(gpu_combo_->itemData(index).toString().toStdString());
        if (!gpu)
            return;
        Scenario s = scenario_;
        // A power cap the new board does not take is dropped (replaceGpu), and said.
        const bool cap_dropped = replaceGpu(s.hardware, *gpu);
        const bool had_profile = bool(s.hardware.calibration);
        if (had_profile) {
            // The profile measured another GPU: back to this one's datasheet figures.
            s.hardware.calibration.reset();
            s.hardware.calibration_path.clear();
        }
        QString text = had_profile ? tr("Set GPU to %1 (datasheet figures)").arg(qs(gpu->name))
                                   : tr("Set GPU to %1").arg(qs(gpu->name));
        if (cap_dropped)
            text = tr("%1; power limit back to its TDP").arg(text);
        commit(std::move(s), text, 0);
    });
    trackDrag(gpu_count_slider_);
    connect(gpu_count_slider_, &QSlider::valueChanged, this, [this](int exponent) {
        Scenario s = scenario_;
        applyGpuTotal(s, 1 << exponent);
        const int gpus = s.hardware.gpuCount();
        commit(std::move(s), tr("Set GPU count to %1").arg(gpus), drag_key_);
    });
    connect(nodes_spin_, &QSpinBox::valueChanged, this, [this](int nodes) {
        Scenario s = scenario_;
        setGpuShape(s, nodes, s.hardware.gpus_per_node);
        commit(std::move(s), tr("Set nodes to %1").arg(nodes), 0);
    });
    connect(gpus_per_node_spin_, &QSpinBox::valueChanged, this, [this](int perNode) {
        if (syncing_)
            return;
        preferred_gpus_per_node_ = perNode;
        Scenario s = scenario_;
        setGpuShape(s, s.hardware.nodes, perNode);
        commit(std::move(s), tr("Set GPUs per node to %1").arg(perNode), 0);
    });
    connect(intra_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const IntraLinkSpec *link =
            catalog_.findIntra(intra_combo_->itemData(index).toString().toStdString());
        if (!link)
            return;
        Scenario s = scenario_;
        s.hardware.intra = *link;
        commit(std::move(s), tr("Set intra-node link to %1").arg(qs(link->name)), 0);
    });
    connect(inter_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const InterLinkSpec *link =
            catalog_.findInter(inter_combo_->itemData(index).toString().toStdString());
        if (!link)
            return;
        Scenario s = scenario_;
        s.hardware.inter = *link;
        commit(std::move(s), tr("Set inter-node network to %1").arg(qs(link->name)), 0);
    });
    connect(nics_spin_, &QSpinBox::valueChanged, this, [this](int nics) {
        Scenario s = scenario_;
        s.hardware.nics_per_node = nics;
        commit(std::move(s), tr("Set NICs per node to %1").arg(nics), 0);
    });
    connect(pcie_topology_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        const bool root_ports = pcie_topology_combo_->itemData(index).toString() ==
                                QLatin1String(pcieTopologyName(PcieTopology::RootPorts));
        s.hardware.pcie_topology = root_ports ? PcieTopology::RootPorts : PcieTopology::Switch;
        commit(std::move(s),
               tr("Set PCIe topology to %1").arg(pcie_topology_combo_->itemText(index)), 0);
    });
    connect(power_limit_spin_, &QSpinBox::valueChanged, this, [this](int watts) {
        Scenario s = scenario_;
        const bool at_tdp = watts >= s.hardware.gpu.tdp_w;
        s.hardware.power_limit_w = at_tdp ? 0.0 : watts;
        commit(std::move(s),
               at_tdp ? tr("Set power limit to the TDP") : tr("Set power limit to %1 W").arg(watts),
               0);
    });
    connect(nvlink_domain_spin_, &QSpinBox::valueChanged, this, [this](int nodes) {
        Scenario s = scenario_;
        // Whole nodes, so always a multiple of the GPUs per node; one node is the default.
        s.hardware.nvlink_domain = nodes > 1 ? nodes * s.hardware.gpus_per_node : 0;
        commit(std::move(s), tr("Set NVLink domain to %1 GPUs").arg(s.hardware.nvlinkDomainGpus()),
               0);
    });
    connect(cpu_cores_spin_, &QSpinBox::valueChanged, this, [this](int cores) {
        Scenario s = scenario_;
        s.hardware.cpu_cores = cores;
        commit(std::move(s),
               cores > 0 ? tr("Set CPU cores per node to %1").arg(cores)
                         : tr("Set CPU cores per node to not stated"),
               0);
    });
    connect(host_memory_spin_, &QDoubleSpinBox::valueChanged, this, [this](double gbps) {
        Scenario s = scenario_;
        s.hardware.host_memory_gbps = gbps;
        commit(std::move(s),
               gbps > 0 ? tr("Set host memory to %1 GB/s per socket").arg(gbps)
                        : tr("Set host memory to the platform default"),
               0);
    });
}

void ControlPanel::syncHardware()
{
    const HardwareSpec &hw = scenario_.hardware;
    if (hw.calibration) {
        // A measured GPU is its own entry: "NVIDIA H200 (measured 2026-11-30)".
        const QString date = qs(hw.calibration->created).left(10);
        const QString name =
            hw.calibration->gpus.empty() ? qs(hw.gpu.name) : qs(hw.calibration->gpus.front().name);
        syncCatalogCombo(gpu_combo_, int(catalog_.gpus.size()), std::string(),
                         tr("%1 (measured %2)").arg(name, date));
        gpu_combo_->setToolTip(
            tr("Measured figures from the calibration profile %1").arg(qs(hw.calibration_path)));
    } else {
        syncCatalogCombo(gpu_combo_, int(catalog_.gpus.size()), hw.gpu.id,
                         tr("%1, %2 GB (from file)").arg(qs(hw.gpu.name)).arg(hw.gpu.memory_gb));
        gpu_combo_->setToolTip(tr("GPU model from the catalog, with its memory"));
    }
    syncCatalogCombo(intra_combo_, int(catalog_.intra_links.size()), hw.intra.id,
                     tr("%1 (from file)").arg(qs(hw.intra.name)));
    syncCatalogCombo(inter_combo_, int(catalog_.inter_links.size()), hw.inter.id,
                     tr("%1 (from file)").arg(qs(hw.inter.name)));
    setSpin(nodes_spin_, hw.nodes);
    setSpin(gpus_per_node_spin_, hw.gpus_per_node);
    setSpin(nics_spin_, hw.nics_per_node);
    setComboData(pcie_topology_combo_, QString::fromLatin1(pcieTopologyName(hw.pcie_topology)));
    setDouble(host_memory_spin_, hw.host_memory_gbps);
    {
        // nvidia-smi -pl accepts caps down to about 30% of the TDP (lowestPowerLimit); the
        // TDP itself is no cap.
        const QSignalBlocker blocker(power_limit_spin_);
        const int tdp = static_cast<int>(std::lround(hw.gpu.tdp_w));
        const int lowest = static_cast<int>(lowestPowerLimit(hw.gpu));
        power_limit_spin_->setEnabled(tdp > 0);
        power_limit_spin_->setRange(std::max(1, lowest), std::max(1, tdp));
        power_limit_spin_->setToolTip(
            tdp > 0 ? tr("Board power limit, %1-%2 W (the TDP: no cap); a cap lowers the "
                         "sustained clock")
                          .arg(lowest)
                          .arg(tdp)
                    : tr("This GPU states no TDP, so it takes no power limit"));
        power_limit_spin_->setValue(hw.power_limit_w > 0
                                        ? static_cast<int>(std::lround(hw.power_limit_w))
                                        : std::max(1, tdp));
    }
    {
        const QSignalBlocker blocker(nvlink_domain_spin_);
        nvlink_domain_spin_->setRange(1, std::max(1, hw.nodes));
        // What the job sees: a domain larger than the job holds it whole (a rack of 72
        // for 8 GPUs is one 8-GPU group), and the file keeps the rack's size.
        const int seen = hw.communicationView().gpus_per_node;
        nvlink_domain_spin_->setValue(std::max(1, seen / hw.gpus_per_node));
        nvlink_domain_spin_->setToolTip(
            tr("Nodes whose GPUs share one NVLink fabric, 1-%1: %2 GPUs now (a GB200 NVL72 rack "
               "is 18 trays of 4). Collectives and all-to-alls inside it run at NVLink speed, "
               "across it on the NICs")
                .arg(std::max(1, hw.nodes))
                .arg(seen));
    }
    setSpin(cpu_cores_spin_, hw.cpu_cores);
    setSlider(gpu_count_slider_, nearestLog2(hw.gpuCount(), kMaxGpuCountLog2));
    // The counts the rule table refuses, greyed on the slider with the reason as its tooltip
    // (issue 26): an error a count brings that not every count has (errors that do not
    // depend on the count, such as an odd micro-batch, grey nothing).
    std::vector<std::vector<ControlIssue>> errors(kMaxGpuCountLog2 + 1);
    std::vector<int> counts(kMaxGpuCountLog2 + 1, 0);
    for (int e = 0; e <= kMaxGpuCountLog2; ++e) {
        Scenario t = scenario_;
        applyGpuTotal(t, 1 << e);
        counts[static_cast<size_t>(e)] = t.hardware.gpuCount();
        for (const ControlIssue &i : checkScenario(t))
            if (i.severity == ControlIssue::Severity::Error)
                errors[static_cast<size_t>(e)].push_back(i);
    }
    const auto everywhere = [&](const ControlIssue &issue) {
        return std::all_of(errors.begin(), errors.end(), [&](const std::vector<ControlIssue> &at) {
            return std::any_of(at.begin(), at.end(), [&](const ControlIssue &i) {
                return i.finding.rule == issue.finding.rule && i.finding.path == issue.finding.path;
            });
        });
    };
    std::vector<QString> reasons(kMaxGpuCountLog2 + 1);
    for (size_t e = 0; e < errors.size(); ++e)
        for (const ControlIssue &i : errors[e])
            if (!everywhere(i)) {
                reasons[e] = counts[e] == 1 ? tr("1 GPU: %1").arg(i.message)
                                            : tr("%1 GPUs: %2").arg(counts[e]).arg(i.message);
                break;
            }
    gpu_count_slider_->setBlockedReasons(std::move(reasons));
    gpu_count_label_->setText(hw.gpuCount() == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(hw.gpuCount()));
}

} // namespace scalescope
