// Command line of the desktop app:
// scalescope [FILE] [--trace TRACE]... [--screenshot OUT.png] [--tab NAME] [--lang en|zh_CN]
//            [--size WxH] [--present]
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace scalescope
{

struct AppOptions {
    QString file;            // scenario to open
    QStringList traces;      // --trace: measured traces to open beside it (one per rank)
    QString screenshot;      // write a PNG of the window and exit
    QString tab;             // timeline|scaling|breakdown|memory|cost|calibration|compare
    QString language;        // en | zh_CN; empty = settings or system locale
    QSize size;              // window size; invalid = saved geometry or default
    bool present = false;    // start in presentation mode
    QString settings_file;   // test hook (--settings FILE): an explicit ini file
    bool no_restore = false; // --no-restore: do not offer autosave recovery
    /// Test hook (--test-save-loop, hidden from --help; tests/gui/tst_crash_safety.cpp): once
    /// the window is up, edit the document, write the autosave and save the file, over and
    /// over, printing "saved N" after each save, until the process is killed. Needs FILE.
    bool test_save_loop = false;
};

/// Tab names accepted by --tab.
QStringList tabNames();

/// Parses arguments (argv[0] included). Returns false with `error` naming the option and
/// the allowed values; --help and --version print and set `exit_now`.
bool parseOptions(const QStringList &arguments, AppOptions *options, QString *error, bool *exit_now,
                  QString *message);

} // namespace scalescope
