#ifndef RELAUNCH_CSYSTEMD_SHIM_H
#define RELAUNCH_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-id128.h>
#include <systemd/sd-login.h>

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

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

static inline int csystemd_pidfd_send_signal(int pidfd, int sig) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

static inline int csystemd_eventfd(unsigned int initval) {
    return eventfd(initval, EFD_CLOEXEC | EFD_NONBLOCK);
}

/* The standby (RelaunchHost's Standby): one byte and at most one descriptor over a SOCK_SEQPACKET
 * socket (SCM_RIGHTS, which Swift cannot build: CMSG_* are macros), the spawn of the standby with only
 * its end of the link (fd 3) and the standard streams, and the "leave" announcement a dying process
 * sends from a signal handler or atexit (async-signal-safe: send(2) only). */
#include <sys/socket.h>
#include <errno.h>
#include <spawn.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>

static inline int csystemd_send_tag(int sock, char tag, int fd) {
    struct iovec iov = { .iov_base = &tag, .iov_len = 1 };
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    memset(&control, 0, sizeof control);
    if (fd >= 0) {
        msg.msg_control = control.buf;
        msg.msg_controllen = sizeof control.buf;
        struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
    }
    return (int)sendmsg(sock, &msg, MSG_NOSIGNAL);
}

/* Returns 1 with *tag (and *fd, -1 when none came, close-on-exec) set, 0 at end of stream, -1 on error. */
static inline int csystemd_receive_tag(int sock, char *tag, int *fd) {
    struct iovec iov = { .iov_base = tag, .iov_len = 1 };
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
    *fd = -1;
    ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n <= 0) return (int)n;
    for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS && cmsg->cmsg_len == CMSG_LEN(sizeof(int)))
            memcpy(fd, CMSG_DATA(cmsg), sizeof(int));
    }
    return 1;
}

static inline int csystemd_socketpair_seqpacket(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds);
}

/* Forks this process (which must be single-threaded: only the calling thread is copied) joined to the
 * child by a new link. Returns the child's pid in the parent, with its end of the link in *end
 * (close-on-exec); 0 in the child, whose end is descriptor 3 and which has nothing else open but 0-2
 * (the parent's descriptors, such as systemd's LISTEN_FDS, stay the parent's); -1 with errno. */
static inline int csystemd_fork_with_link(int *end) {
    int pair[2];
    if (csystemd_socketpair_seqpacket(pair) < 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(pair[0]);
        close(pair[1]);
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        close(pair[0]);
        if (pair[1] != 3) {
            if (dup3(pair[1], 3, O_CLOEXEC) < 0) _exit(127);
            close(pair[1]);
        }
        if (syscall(SYS_close_range, 4U, ~0U, 0) < 0) _exit(127);
        *end = 3;
        return 0;
    }
    close(pair[1]);
    *end = pair[0];
    return (int)pid;
}

/* Spawns path with argv and envp, its end of the link as fd 3 and nothing else open but 0-2.
 * Returns 0 and *pid, or an errno value. */
static inline int csystemd_spawn_with_link(const char *path, char *const argv[], char *const envp[], int link, int *pid) {
    posix_spawn_file_actions_t actions;
    int r = posix_spawn_file_actions_init(&actions);
    if (r) return r;
    int moved = -1;
    if (link == 3) {  /* dup2 onto itself would keep close-on-exec */
        moved = fcntl(link, F_DUPFD_CLOEXEC, 10);
        if (moved < 0) { posix_spawn_file_actions_destroy(&actions); return errno; }
        link = moved;
    }
    r = posix_spawn_file_actions_adddup2(&actions, link, 3);
    if (!r) r = posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    pid_t child = 0;
    if (!r) r = posix_spawn(&child, path, &actions, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    if (moved >= 0) close(moved);
    if (!r) *pid = (int)child;
    return r;
}

static volatile int csystemd_leave_link = -1;

static inline void csystemd_announce_leave(void) {
    int fd = csystemd_leave_link;
    if (fd >= 0) { char tag = 'L'; (void)send(fd, &tag, 1, MSG_NOSIGNAL | MSG_DONTWAIT); }
}

static void csystemd_leave_on_signal(int signal) {
    csystemd_announce_leave();
    raise(signal);  /* SA_RESETHAND: the default action now */
}

/* From now on every end of this process but SIGKILL (and SIGTERM/SIGINT, which the app turns into
 * exit()) first sends 'L' on fd: a fatal signal's handler sends it and re-raises, exit() sends it. */
static inline int csystemd_announce_leave_on(int fd) {
    static const int signals[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGQUIT, SIGSYS, SIGHUP,
        SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT };
    static int registered = 0;
    /* A descriptor of its own, never closed: the link object may be released (and its descriptor
     * closed) while the process winds down, before exit() announces the end on it. */
    int own = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (own < 0) return -1;
    if (csystemd_leave_link >= 0) close(csystemd_leave_link);
    csystemd_leave_link = own;
    if (!registered) {
        if (atexit(csystemd_announce_leave) != 0) return -1;
        registered = 1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = csystemd_leave_on_signal;
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++)
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    return 0;
}

#endif
