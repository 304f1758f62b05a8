/* LD_PRELOAD shim that lets Debian's IRC servers run from an unpacked .deb in a test sandbox.
 * Built and used by tests/e2e/servers.py; each part is off unless its variable is set.
 *   UNOBOT_SHIM_NOFILE=N   getrlimit(RLIMIT_NOFILE) reports a hard limit of at least N, and
 *                          setrlimit(RLIMIT_NOFILE) clamps a request to the real hard limit.
 *   UNOBOT_SHIM_EXISTS=P   access(P, ...) succeeds (a program checking its own install path).
 *   UNOBOT_SHIM_DIR=A=B    opendir(), stat(), dlopen() and lt_dlopen() of a path starting with A use B
 *                          instead (a program's compiled module folder).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

int getrlimit(__rlimit_resource_t res, struct rlimit *rl) {
  int (*real)(__rlimit_resource_t, struct rlimit *) = next("getrlimit");
  int r = real(res, rl);
  const char *want = getenv("UNOBOT_SHIM_NOFILE");
  if (r == 0 && res == RLIMIT_NOFILE && want) {
    rlim_t n = (rlim_t)strtoull(want, NULL, 10);
    if (rl->rlim_max < n) rl->rlim_max = n;
  }
  return r;
}

int setrlimit(__rlimit_resource_t res, const struct rlimit *rl) {
  int (*real_get)(__rlimit_resource_t, struct rlimit *) = next("getrlimit");
  int (*real_set)(__rlimit_resource_t, const struct rlimit *) = next("setrlimit");
  struct rlimit want = *rl, hard;
  if (res == RLIMIT_NOFILE && getenv("UNOBOT_SHIM_NOFILE") && real_get(res, &hard) == 0) {
    if (want.rlim_max > hard.rlim_max) want.rlim_max = hard.rlim_max;
    if (want.rlim_cur > want.rlim_max) want.rlim_cur = want.rlim_max;
  }
  return real_set(res, &want);
}

int access(const char *path, int mode) {
  int (*real)(const char *, int) = next("access");
  const char *exists = getenv("UNOBOT_SHIM_EXISTS");
  if (exists && path && strcmp(path, exists) == 0) return 0;
  return real(path, mode);
}

/* path, or its UNOBOT_SHIM_DIR replacement written to buf */
static const char *redirect(const char *path, char *buf, size_t size) {
  const char *spec = getenv("UNOBOT_SHIM_DIR");
  const char *eq = spec ? strchr(spec, '=') : NULL;
  if (!path || !eq) return path;
  size_t n = (size_t)(eq - spec);
  if (strncmp(path, spec, n) != 0) return path;
  if ((size_t)snprintf(buf, size, "%s%s", eq + 1, path + n) >= size) return path;
  return buf;
}

DIR *opendir(const char *path) {
  DIR *(*real)(const char *) = next("opendir");
  char buf[PATH_MAX];
  return real(redirect(path, buf, sizeof buf));
}

void *lt_dlopen(const char *path) {
  void *(*real)(const char *) = next("lt_dlopen");
  char buf[PATH_MAX];
  return real(redirect(path, buf, sizeof buf));
}

void *dlopen(const char *path, int flags) {
  void *(*real)(const char *, int) = next("dlopen");
  char buf[PATH_MAX];
  return real(redirect(path, buf, sizeof buf), flags);
}

int stat(const char *path, struct stat *st) {
  int (*real)(const char *, struct stat *) = next("stat");
  char buf[PATH_MAX];
  return real(redirect(path, buf, sizeof buf), st);
}
