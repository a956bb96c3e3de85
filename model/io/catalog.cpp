#include "io/catalog.h"

#include <algorithm>

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

} // namespace scalescope
