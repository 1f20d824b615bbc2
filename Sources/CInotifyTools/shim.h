#ifndef RESWATCH_CINOTIFYTOOLS_SHIM_H
#define RESWATCH_CINOTIFYTOOLS_SHIM_H
#include <inotifytools/inotifytools.h>
#include <inotifytools/inotify.h>
#include <string.h>

/* Swift does not import the flexible array member inotify_event.name. */
static inline const char *rw_inotify_event_name(const struct inotify_event *event) {
    return event->len > 0 ? event->name : "";
}
#endif
