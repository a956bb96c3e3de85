#include "io/catalog.h"

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
template <typename T> const T *findById(const std::vector<T> &items, const std::string &id)
{
    auto it = std::find_if(items.begin(), items.end(), [&](const T &x) { return x.id == id; });
    return it == items.end() ? nullptr : &*it;
}
} // namespace

const GpuSpec *Catalog::matchGpuName(const std::string &name, double memory_bytes) const
{
    // One reading of a name (hardware/hardware.h readGpuName): the entry of the same chip,
    // read from its name, or from its id where the name has none.
    const GpuNameReading measured = readGpuName(name);
    if (measured.chip.empty())
        return nullptr;
    const auto has = [](const std::vector<std::string> &v, const std::string &t) {
        return std::find(v.begin(), v.end(), t) != v.end();
    };
    const GpuSpec *best = nullptr;
    std::pair<double, int> best_score{0, 0};
    for (const GpuSpec &g : gpus) {
        const GpuNameReading entry = readGpuName(g.name + " " + g.id);
        if (entry.chip != measured.chip)
            continue;
        // The memory size nearest the measured one (the largest part when not known), then
        // the entry whose form factor the name says (or does not contradict).
        int form = 0;
        for (const std::string &t : entry.form_factors)
            form += has(measured.form_factors, t) ? 1 : (t.rfind("sxm", 0) == 0 ? 0 : -1);
        const std::pair<double, int> score{
            memory_bytes > 0 ? -std::abs(g.memoryBytes() - memory_bytes) : g.memory_gb, form};
        if (best == nullptr || score > best_score) {
            best = &g;
            best_score = score;
        }
    }
    return best;
}

const GpuSpec *Catalog::findGpu(const std::string &id) const
{
    return findById(gpus, id);
}
const IntraLinkSpec *Catalog::findIntra(const std::string &id) const
{
    return findById(intra_links, id);
}
const InterLinkSpec *Catalog::findInter(const std::string &id) const
{
    return findById(inter_links, id);
}
const ModelSpec *Catalog::findModel(const std::string &id) const
{
    return findById(models, id);
}
const FrameworkSpec *Catalog::findFramework(const std::string &id) const
{
    return findById(frameworks, id);
}

StackTable stackTableOf(const Catalog &catalog)
{
    return {std::make_shared<const std::vector<FrameworkSpec>>(catalog.frameworks)};
}

} // namespace scalescope
