// Runs code as on a full disk: with a file size limit of 0 bytes (`ulimit -f 0`), every
// write that would give a file data fails (EFBIG), SIGXFSZ ignored (issue 29, item 1).
#pragma once

#include <csignal>

#include <sys/resource.h>

namespace scalescope::test
{

/// body()'s result, run under a file size limit of 0 bytes; the limit is restored after.
template <typename F> auto withNoRoomForData(F body)
{
    struct rlimit saved = {};
    ::getrlimit(RLIMIT_FSIZE, &saved);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit none = {0, saved.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &none);
    auto result = body();
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);
    return result;
}

} // namespace scalescope::test
