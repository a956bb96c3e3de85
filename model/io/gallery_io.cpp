#include "io/gallery_io.h"

#include "io/catalog_io.h"
#include "io/file_io.h"
#include "io/input_ranges.h"
#include "io/json_util.h"
#include "io/scenario_io.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <string>

namespace scalescope
{

namespace
{

using json::fail;
using json::IntRange;
using json::ObjectReader;
using json::kClaimRange;
using json::kSweepGpusRange;

constexpr const char *kGalleryKey = "x-gallery";

bool isChinese(const QString &lang)
{
    return lang.startsWith(QStringLiteral("zh"), Qt::CaseInsensitive);
}

// A non-empty string at `key` of `reader`.
QString requiredText(const ObjectReader &reader, std::string_view key)
{
    const std::string text = reader.requiredString(key);
    if (QString::fromStdString(text).trimmed().isEmpty())
        fail(reader.pathOf(key), "must not be empty");
    return QString::fromStdString(text);
}

// {"en": "...", "zh_CN": "..."}: both languages are required.
void readBilingual(const ObjectReader &gallery, std::string_view key, QString *en, QString *zh)
{
    const ObjectReader texts = gallery.requiredObject(key);
    texts.allowKeys({"en", "zh_CN"});
    *en = requiredText(texts, "en");
    *zh = requiredText(texts, "zh_CN");
}

GalleryEntry readGallery(const QJsonObject &root)
{
    GalleryEntry entry;
    if (!root.contains(QLatin1String(kGalleryKey)))
        fail(kGalleryKey, "missing: a gallery scenario needs an \"x-gallery\" object");
    const ObjectReader gallery(
        json::readObject(root.value(QLatin1String(kGalleryKey)), kGalleryKey), kGalleryKey);
    gallery.allowKeys({"claim", "title", "explanation", "sweep", "view", "zoom"});
    entry.claim = int(gallery.requiredInt("claim", kClaimRange));
    readBilingual(gallery, "title", &entry.title_en, &entry.title_zh);
    readBilingual(gallery, "explanation", &entry.explanation_en, &entry.explanation_zh);
    const QJsonArray sweep = gallery.optionalArray("sweep");
    const std::string sweep_path = gallery.pathOf("sweep");
    // Each point is one simulation when the scenario is shown: as many as the CLI's sweep.
    constexpr qsizetype kMaxSweepPoints = 64;
    if (sweep.size() > kMaxSweepPoints)
        fail(sweep_path, std::to_string(sweep.size()) +
                             " GPU counts are too many; allowed: at most " +
                             std::to_string(kMaxSweepPoints));
    for (qsizetype i = 0; i < sweep.size(); ++i) {
        const std::string path = json::indexPath(sweep_path, i);
        const int gpus = int(json::readInt(sweep.at(i), path, kSweepGpusRange));
        if (!entry.sweep.empty() && gpus <= entry.sweep.back())
            fail(path, "GPU counts must be strictly increasing; got " + std::to_string(gpus) +
                           " after " + std::to_string(entry.sweep.back()));
        entry.sweep.push_back(gpus);
    }
    entry.view = gallery.optionalEnum("view", std::span<const GalleryView>(kGalleryViews),
                                      &galleryViewName, GalleryView::Timeline);
    entry.zoom = gallery.optionalEnum("zoom", std::span<const GalleryZoom>(kGalleryZooms),
                                      &galleryZoomName, GalleryZoom::Step);
    return entry;
}

// The file's name in front of the key path: "claim03-comm.json: x-gallery.claim".
InputError inFile(const QString &path, const InputError &error)
{
    const std::string file = QFileInfo(path).fileName().toStdString();
    return InputError{error.path.empty() ? file : file + ": " + error.path, error.message};
}

} // namespace

const char *galleryViewName(GalleryView view)
{
    switch (view) {
    case GalleryView::Timeline:
        return "timeline";
    case GalleryView::Scaling:
        return "scaling";
    case GalleryView::Breakdown:
        return "breakdown";
    case GalleryView::Memory:
        return "memory";
    case GalleryView::Cost:
        return "cost";
    }
    return "timeline";
}

const char *galleryZoomName(GalleryZoom zoom)
{
    switch (zoom) {
    case GalleryZoom::Step:
        return "step";
    }
    return "step";
}

QString GalleryEntry::title(const QString &lang) const
{
    return isChinese(lang) && !title_zh.isEmpty() ? title_zh : title_en;
}

QString GalleryEntry::explanation(const QString &lang) const
{
    return isChinese(lang) && !explanation_zh.isEmpty() ? explanation_zh : explanation_en;
}

Result<GalleryEntry> parseGalleryEntry(const QByteArray &json, const QString &baseDir)
{
    Result<Scenario> scenario = parseScenario(json, builtinCatalog(), baseDir);
    if (!scenario)
        return scenario.error();
    return json::guard<GalleryEntry>([&] {
        GalleryEntry entry = readGallery(json::parseObjectDocument(json));
        if (scenario.value().name.empty())
            fail("name", "missing: a gallery scenario needs a name");
        entry.scenario = std::move(scenario).value();
        return entry;
    });
}

Result<std::vector<GalleryEntry>> loadGallery(const QString &dir)
{
    const QDir folder(dir);
    if (!QFileInfo(dir).isDir())
        return InputError{"",
                          "cannot read the gallery \"" + dir.toStdString() + "\": not a folder"};
    std::vector<GalleryEntry> entries;
    const QStringList names =
        folder.entryList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name);
    for (const QString &name : names) {
        const QString path = folder.filePath(name);
        const Result<QByteArray> data =
            readFileLimited(path, kMaxScenarioFileBytes, "scenario file");
        if (!data)
            return inFile(path, data.error());
        // Files without an "x-gallery" object (default.json) are not gallery entries.
        const Result<bool> has_gallery = json::guard<bool>([&] {
            return json::parseObjectDocument(data.value()).contains(QLatin1String(kGalleryKey));
        });
        if (!has_gallery)
            return inFile(path, has_gallery.error());
        if (!has_gallery.value())
            continue;
        Result<GalleryEntry> entry =
            parseGalleryEntry(data.value(), QFileInfo(path).absolutePath());
        if (!entry)
            return inFile(path, entry.error());
        entry.value().path = path;
        entries.push_back(std::move(entry).value());
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const GalleryEntry &a, const GalleryEntry &b) {
                         if (a.claim != b.claim)
                             return a.claim < b.claim;
                         return QFileInfo(a.path).fileName() < QFileInfo(b.path).fileName();
                     });
    return entries;
}

} // namespace scalescope
