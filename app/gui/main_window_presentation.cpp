// The main window's presentation mode: the stage, slides from the claims gallery and their
// keys.
#include "main_window_p.h"

namespace scalescope
{

using namespace window_detail;

void MainWindow::present(ShowWhat what, bool full_screen)
{
    if (presenting_)
        return;
    show_what_ = what;
    setPresentationMode(true, full_screen);
    show_what_ = ShowWhat::Auto;
}

void MainWindow::setPresentationMode(bool on, bool full_screen)
{
    if (on == presenting_)
        return;
    if (on) {
        // The document as the show finds it: a gallery slide replaces it for the show only.
        const Document &doc = *ctx_.document;
        show_return_ = ShowReturn{doc.scenario(), doc.filePath(), doc.isModified(), gallery_index_,
                                  sweep_counts_, false};
        chooseStartSlide();
        presenting_ = true;
        was_maximized_ = isMaximized();
        was_full_screen_ = isFullScreen();
        focus_before_presenting_ = QApplication::focusWidget();
        controls_were_visible_ = controls_dock_->isVisible();
        gallery_was_visible_ = gallery_dock_->isVisible();
        // No menu, tool bar, docks or status bar: the slide is all there is.
        menuBar()->hide();
        statusBar()->hide();
        gallery_dock_->hide();
        controls_dock_->hide();
        setPaletteMode(PaletteMode::Projector);
        ensureStage();
        central_stack_->setCurrentWidget(stage_);
        // Keys step the slides whatever widget has focus (F5 left it in a spin box).
        qApp->installEventFilter(this);
        showSlide();
        if (full_screen)
            showFullScreen();
        stage_->setFocus(Qt::OtherFocusReason);
        // F6 shows the controls for a live demonstration: in the room's font size too.
        controls_dock_->setFont(stage_->font());
        requestRecompute(); // one step per slide (the slide's zoom)
    } else {
        presenting_ = false;
        qApp->removeEventFilter(this);
        stage_->setBlank(false);
        setPaletteMode(PaletteMode::Screen);
        central_stack_->setCurrentWidget(centre_);
        menuBar()->show();
        statusBar()->show();
        gallery_dock_->setVisible(gallery_was_visible_);
        controls_dock_->setVisible(controls_were_visible_);
        controls_dock_->setFont(QFont()); // back to the window's font
        single_slide_.reset();
        restoreDocumentAfterShow();
        if (was_full_screen_)
            showFullScreen();
        else if (was_maximized_)
            showMaximized();
        else
            showNormal();
        if (focus_before_presenting_ && focus_before_presenting_->isVisible())
            focus_before_presenting_->setFocus(Qt::OtherFocusReason);
        refreshCurrentTab();
        timeline_->update();
        if (iterations_ != 1)
            requestRecompute();
    }
    updateGalleryText();
}

void MainWindow::chooseStartSlide()
{
    single_slide_.reset();
    const bool edited = ctx_.document->isModified();
    if (show_what_ == ShowWhat::Document) {
        presentDocumentAlone();
        return;
    }
    const bool gallery = ctx_.gallery && !ctx_.gallery->empty();
    // The document is the claim shown, unedited: the show starts at its slide.
    if (gallery_index_ >= 0 && !edited)
        return;
    const QString path = ctx_.document->filePath();
    const int file_index = edited ? -1 : galleryIndexOfFile(path);
    if (file_index >= 0) {
        gallery_index_ = file_index;
        sweep_counts_ = (*ctx_.gallery)[static_cast<size_t>(file_index)].sweep;
        showGalleryRow(file_index);
        refit_pending_ = true;
        refit_generation_ = ctx_.recomputer->latestGeneration() + 1;
        return;
    }
    // Auto (--present): a file not in the gallery, or edited work, is shown alone.
    if (show_what_ == ShowWhat::Auto && (!path.isEmpty() || edited)) {
        presentDocumentAlone();
        return;
    }
    if (gallery) {
        loadGalleryEntry(gallery_index_ >= 0 ? gallery_index_ : 0);
        if (gallery_index_ >= 0)
            return;
    }
    presentDocumentAlone();
}

void MainWindow::presentDocumentAlone()
{
    // A one-slide deck of the document, with the file's own "x-gallery" text while it is
    // unedited (edited, its title would name hardware it no longer has).
    const QString path = ctx_.document->filePath();
    const bool edited = ctx_.document->isModified();
    GalleryEntry slide;
    slide.scenario = ctx_.document->scenario();
    if (!edited && !path.isEmpty()) {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) {
            Result<GalleryEntry> entry =
                parseGalleryEntry(f.readAll(), QFileInfo(path).absolutePath());
            if (entry)
                slide = entry.value();
        }
    } else if (!edited && gallery_index_ >= 0) {
        slide = (*ctx_.gallery)[static_cast<size_t>(gallery_index_)];
    }
    slide.path = path;
    sweep_counts_ = slide.sweep;
    single_slide_ = slide;
    refit_pending_ = true;
    refit_generation_ = ctx_.recomputer->latestGeneration() + 1;
}

const GalleryEntry *MainWindow::shownEntry() const
{
    if (single_slide_)
        return &*single_slide_;
    if (ctx_.gallery && gallery_index_ >= 0)
        return &(*ctx_.gallery)[static_cast<size_t>(gallery_index_)];
    return nullptr;
}

void MainWindow::updateSlideTitle()
{
    if (!presenting_ || !stage_)
        return;
    PresentationStage::Slide slide = stage_->slide();
    const QString title = slideTitle(shownEntry());
    if (slide.title != title) {
        slide.title = title;
        stage_->setSlide(slide);
    }
}

QString MainWindow::slideTitle(const GalleryEntry *entry) const
{
    const Document &doc = *ctx_.document;
    if (entry != nullptr && !doc.isModified() && !entry->title(ctx_.language).isEmpty())
        return entry->title(ctx_.language);
    // Edited, or a file without a gallery title: what it runs on now.
    if (!doc.isModified() && !doc.scenario().name.empty())
        return QString::fromStdString(doc.scenario().name);
    return scenarioHeadline(doc.scenario());
}

void MainWindow::restoreDocumentAfterShow()
{
    if (!show_return_)
        return;
    ShowReturn back = std::move(*show_return_);
    show_return_.reset();
    if (!back.replaced)
        return;
    gallery_index_ = back.gallery_index;
    sweep_counts_ = back.sweep_counts;
    showGalleryRow(back.gallery_index);
    refit_pending_ = true;
    refit_generation_ = ctx_.recomputer->latestGeneration() + 1;
    ctx_.document->reset(back.scenario, back.path, back.modified);
}

void MainWindow::showGalleryRow(int index)
{
    if (index < 0) {
        gallery_list_->setCurrentRow(-1);
        gallery_list_->clearSelection();
    } else if (gallery_list_->currentRow() != index) {
        gallery_list_->setCurrentRow(index);
    }
}

int MainWindow::galleryIndexOfFile(const QString &path) const
{
    if (!ctx_.gallery || path.isEmpty())
        return -1;
    const QFileInfo info(path);
    QFile f(path);
    const QByteArray data = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    for (size_t i = 0; i < ctx_.gallery->size(); ++i) {
        const QString &entry_path = (*ctx_.gallery)[i].path;
        if (!entry_path.startsWith(QLatin1Char(':')) &&
            QFileInfo(entry_path).canonicalFilePath() == info.canonicalFilePath())
            return static_cast<int>(i);
        QFile g(entry_path);
        if (!data.isEmpty() && g.open(QIODevice::ReadOnly) && g.readAll() == data)
            return static_cast<int>(i);
    }
    return -1;
}

void MainWindow::ensureStage()
{
    if (stage_)
        return;
    stage_ = new PresentationStage;
    central_stack_->addWidget(stage_);
    connect(stage_, &PresentationStage::scalingModeChanged, this, [this](Scaling mode) {
        scaling_ = mode;
        startEditTimer();
        requestRecompute();
    });
    connect(stage_, &PresentationStage::costEdited, this,
            [this](const CostSpec &cost, const QString &description) {
                Scenario s = ctx_.document->scenario();
                s.cost = cost;
                startEditTimer();
                ctx_.document->edit(s, description);
            });
}

void MainWindow::showSlide()
{
    if (!stage_)
        return;
    PresentationStage::Slide slide;
    const GalleryEntry *entry = shownEntry();
    if (single_slide_) {
        slide.number = 1;
        slide.count = 0; // no "1/1": the document alone (PresentationStage::updateTexts)
    } else if (entry != nullptr) {
        slide.number = gallery_index_ + 1;
        slide.count = static_cast<int>(ctx_.gallery->size());
    }
    slide.title = slideTitle(entry);
    if (entry != nullptr) {
        slide.text = entry->explanation(ctx_.language);
        slide.view = entry->view;
        slide.zoom = entry->zoom;
    }
    stage_->setSlide(slide);
    if (current_) {
        stage_->setResult(current_, true);
        stage_->setStatus(statusFigures(), bottleneck_plain_);
    }
}

void MainWindow::loadGalleryEntry(int index)
{
    if (!ctx_.gallery || index < 0 || index >= static_cast<int>(ctx_.gallery->size()))
        return;
    // During a talk, changes made to a gallery scenario are demonstrations: stepping on does
    // not ask to save them. Work on a file is never dropped without asking.
    // A show gives the document back when it ends (restoreDocumentAfterShow): nothing to save.
    const bool demo = show_return_.has_value();
    if (!demo && !maybeSave())
        return;
    if (show_return_)
        show_return_->replaced = true;
    const GalleryEntry &e = (*ctx_.gallery)[static_cast<size_t>(index)];
    gallery_index_ = index;
    single_slide_.reset();
    sweep_counts_ = e.sweep;
    showGalleryRow(index);
    startEditTimer();
    // The reset requests the recompute whose result refits the timeline.
    refit_pending_ = true;
    refit_generation_ = ctx_.recomputer->latestGeneration() + 1;
    ctx_.document->reset(e.scenario, QString());
    // The window shows the tab the explanation talks about (the timeline is always shown).
    if (!presenting_ && e.view != GalleryView::Timeline)
        showTab(QString::fromLatin1(galleryViewName(e.view)));
    updateGalleryText();
    if (presenting_)
        showSlide();
}

void MainWindow::stepGallery(int delta)
{
    if (single_slide_ && stage_) {
        stage_->setHint(tr("This show is your scenario alone. Esc ends it; F5 presents the "
                           "claims gallery."));
        return;
    }
    if (!ctx_.gallery || ctx_.gallery->empty())
        return;
    const int n = static_cast<int>(ctx_.gallery->size());
    const int next = gallery_index_ < 0 ? 0 : ((gallery_index_ + delta) % n + n) % n;
    loadGalleryEntry(next);
}

void MainWindow::goToSlide(int index)
{
    if (single_slide_) {
        stepGallery(0);
        return;
    }
    if (!ctx_.gallery || ctx_.gallery->empty())
        return;
    loadGalleryEntry(std::clamp(index, 0, static_cast<int>(ctx_.gallery->size()) - 1));
}

void MainWindow::handleSlideKey(SlideKey action)
{
    if (stage_ && stage_->isBlank() && action != SlideKey::Leave) {
        stage_->setBlank(false); // any slide key ends the black screen first
        return;
    }
    switch (action) {
    case SlideKey::Next:
        stepGallery(1);
        break;
    case SlideKey::Previous:
        stepGallery(-1);
        break;
    case SlideKey::First:
        goToSlide(0);
        break;
    case SlideKey::Last:
        goToSlide(ctx_.gallery ? static_cast<int>(ctx_.gallery->size()) - 1 : 0);
        break;
    case SlideKey::Leave:
        setPresentationMode(false);
        break;
    case SlideKey::Blank:
        if (stage_)
            stage_->setBlank(true);
        break;
    case SlideKey::Stay:
    case SlideKey::None:
        break;
    }
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // Installed on the application while presenting: a clicker's or keyboard's slide keys
    // step the slides whatever widget of this window has focus. Accepting the shortcut
    // override keeps window shortcuts (F5 toggles presentation) from taking them first.
    const QEvent::Type type = event->type();
    if (presenting_ && (type == QEvent::KeyPress || type == QEvent::ShortcutOverride)) {
        auto *key = static_cast<QKeyEvent *>(event);
        const SlideKey action = presentationKeyAction(key->key(), key->modifiers());
        const auto *widget = qobject_cast<QWidget *>(watched);
        const bool ours = widget != nullptr ? widget->window() == this
                                            : watched == static_cast<QObject *>(windowHandle());
        if (action != SlideKey::None && ours && QApplication::activeModalWidget() == nullptr &&
            QApplication::activePopupWidget() == nullptr) {
            key->accept();
            if (type == QEvent::KeyPress)
                handleSlideKey(action);
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::updateGalleryText()
{
    if (!ctx_.gallery || gallery_index_ < 0) {
        gallery_text_->setText(tr("Pick a claim to load its scenario. In presentation mode "
                                  "(F5) the arrow keys step through them."));
        return;
    }
    const GalleryEntry &e = (*ctx_.gallery)[static_cast<size_t>(gallery_index_)];
    const QString html = QStringLiteral("<h3>%1</h3><p>%2</p>")
                             .arg(e.title(ctx_.language).toHtmlEscaped(),
                                  e.explanation(ctx_.language).toHtmlEscaped());
    gallery_text_->setText(html);
}

} // namespace scalescope
