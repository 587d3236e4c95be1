#ifndef RELAUNCH_CSYSTEMD_SHIM_H
#define RELAUNCH_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-id128.h>

#include <sys/syscall.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <fcntl.h>

/* Linux calls and constants the Swift Glibc module does not export (they sit behind _GNU_SOURCE).
 * Thin on purpose: each returns what the kernel returns (-1 and errno on failure). */

#define CSYSTEMD_MFD_CLOEXEC 0x0001U
#define CSYSTEMD_MFD_ALLOW_SEALING 0x0002U
#define CSYSTEMD_F_ADD_SEALS 1033
#define CSYSTEMD_F_GET_SEALS 1034
#define CSYSTEMD_F_SEAL_SEAL 0x0001
#define CSYSTEMD_F_SEAL_SHRINK 0x0002
#define CSYSTEMD_F_SEAL_GROW 0x0004
#define CSYSTEMD_F_SEAL_WRITE 0x0008

static inline int csystemd_memfd_create(const char *name, unsigned int flags) {
    return (int)syscall(SYS_memfd_create, name, flags);
}

static inline int csystemd_fcntl_int(int fd, int cmd, int arg) {
    return fcntl(fd, cmd, arg);
}

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static inline int csystemd_pidfd_open(int pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

static inline int csystemd_eventfd(unsigned int initval) {
    return eventfd(initval, EFD_CLOEXEC | EFD_NONBLOCK);
}

#endif
